//! The language setting: View → 简体中文 switches every text at once (menus, tabs, findings,
//! the palette), the choice persists, a Chinese locale starts in Chinese, and a Chinese UI
//! exports Chinese build sheets.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use rigplan::core::build::PartLine;
use rigplan::core::i18n::Lang;
use rigplan::gui::command::Command;
use rigplan::gui::text;

/// True when the text holds a CJK ideograph.
fn has_chinese(text: &str) -> bool {
    text.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn view_language_switches_the_whole_app_at_once_and_back() {
    let mut h = app_as_started(config());
    assert_eq!(state(&h).lang, Lang::En);
    // An empty second node gives the build a finding to read.
    h.state_mut().state_mut().push(rigplan::gui::command::Command::AddNode);
    h.run();
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("简体中文").click();
    h.run();
    let zh = text::for_lang(Lang::ZhCn);
    assert_eq!(state(&h).lang, Lang::ZhCn);
    assert_eq!(state(&h).prefs.lang, Some(Lang::ZhCn), "the choice is kept for the next start");
    assert!(std::ptr::eq(state(&h).texts, zh));
    for label in [zh.menu_file, zh.menu_edit, zh.menu_view, zh.menu_help, zh.edit_add_node] {
        assert!(has_chinese(label), "{label}");
        assert!(h.query_by_label(label).is_some(), "{label} is shown");
    }
    assert!(h.query_by_label("File").is_none(), "no English menu is left");
    // The findings of the open build are in Chinese now, without a new analysis.
    let revision = state(&h).derived.revision;
    assert!(!state(&h).derived.report.diagnostics.is_empty(), "the template has findings to read");
    for d in &state(&h).derived.report.diagnostics {
        assert_eq!(d.message, d.message_in(Lang::ZhCn));
        assert!(has_chinese(&d.message), "{}: {}", d.code, d.message);
    }
    // And back to English.
    h.get_by_label(zh.menu_view).click();
    h.run();
    h.get_by_label("English").click();
    h.run();
    assert_eq!(state(&h).lang, Lang::En);
    assert_eq!(state(&h).derived.revision, revision, "switching language does not touch the build");
    assert!(h.query_by_label("File").is_some());
    for d in &state(&h).derived.report.diagnostics {
        assert_eq!(d.message, d.message_in(Lang::En));
    }
}

#[test]
fn the_start_language_follows_the_locale_unless_the_user_chose_one() {
    // A Chinese locale (`AppConfig::lang` is `Lang::from_env()` in the app).
    let mut c = config();
    c.lang = Lang::ZhCn;
    let h = app_as_started(c);
    assert_eq!(state(&h).lang, Lang::ZhCn);
    assert!(h.query_by_label(text::for_lang(Lang::ZhCn).menu_file).is_some());
    // The user's choice, stored in the preferences, wins over the locale.
    let mut c = config();
    c.lang = Lang::ZhCn;
    c.prefs.lang = Some(Lang::En);
    let h = app_as_started(c);
    assert_eq!(state(&h).lang, Lang::En);
    assert!(h.query_by_label("File").is_some());
}

#[test]
fn a_new_finding_after_the_switch_is_in_chinese_and_so_is_the_exported_sheet() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sheet.csv");
    let mut c = config();
    c.lang = Lang::ZhCn;
    c.dialogs = Box::new(Scripted { export: vec![out.clone()], ..Scripted::default() });
    // A build with a part the catalog does not know, opened at start.
    let mut start = rigplan::core::templates::find("entry-workstation").unwrap().load().unwrap();
    if let Some(node) = start.nodes.first_mut() {
        node.parts.push(PartLine::new("gpu/not-in-any-catalog", 1));
    }
    let path = dir.path().join("start.ron");
    rigplan::core::persist::save_build(&path, &start).unwrap();
    c.file = Some(path);
    let mut h = app_as_started(c);
    // An edit after the start: the new report's findings are rendered in Chinese too.
    h.state_mut().state_mut().push(rigplan::gui::command::Command::AddNode);
    h.run();
    assert!(state(&h).derived.report.diagnostics.iter().any(|d| d.code == "node-empty"), "the new node is empty");
    for d in &state(&h).derived.report.diagnostics {
        assert!(has_chinese(&d.message), "{}: {}", d.code, d.message);
    }
    let d = state(&h).derived.report.diagnostics.iter().find(|d| d.code == "unknown-part").expect("unknown-part");
    assert!(has_chinese(&d.message), "{}", d.message);
    // File → Export → CSV in the Chinese menus writes a Chinese sheet.
    let zh = text::for_lang(Lang::ZhCn);
    h.get_by_label(zh.menu_file).click();
    h.run();
    h.get_by_label(zh.file_export).click();
    h.run();
    h.get_by_label(zh.export_formats[0]).click();
    h.run();
    let csv = std::fs::read_to_string(&out).expect("the sheet is written");
    assert!(csv.contains("采购清单") && csv.contains("单价（"), "{csv}");
    assert!(csv.contains("未知部件"), "{csv}");
}

#[test]
fn a_refused_drop_says_why_in_chinese() {
    let mut c = config();
    c.lang = Lang::ZhCn;
    let mut h = app(c);
    assert_eq!(state(&h).lang, Lang::ZhCn);
    let zh = text::for_lang(Lang::ZhCn);
    let before = build(&h).clone();
    let from = palette_row(&h, RTX_4090_NAME);
    let cluster = h.get_by_label_contains(zh.cluster_hint).rect().center();
    hover_drag(&mut h, from, cluster);
    // The target under the pointer says why in Chinese, the rule's sentence included.
    assert!(h.query_by_label(zh.drop_refused_here).is_some());
    let why = format!("{RTX_4090_NAME} 是一块 GPU，应装在节点中；集群区只放交换机、共享存储和磁盘扩展柜。");
    assert!(h.query_by_label(&why).is_some(), "the ghost shows {why}");
    h.drop_at(cluster + egui::vec2(1.0, 0.0));
    h.run();
    assert_eq!(build(&h), &before);
    let text = notice(&h).expect("a notice explains the refusal");
    assert!(text.ends_with(&why), "{text}");
    assert!(has_chinese(text.lines().next().unwrap_or_default()), "the notice's first line is Chinese too: {text}");
}

#[test]
fn yuan_amounts_read_as_chinese_prices() {
    // The entry workstation template is priced in CNY: 27,489 (the capex of its hand check in
    // tests/core/compare.rs).
    let mut c = config();
    c.lang = Lang::ZhCn;
    let h = app_as_started(c);
    assert!(h.query_by_label("¥27,489").is_some(), "the summary's capex");
    assert!(h.query_by_label("初始投入 ¥27,489").is_some(), "the status bar");
    assert!(h.query_by_label_contains("27,489 CNY").is_none(), "no amount keeps the ISO code");
}

/// The Chinese UI as a user sees it, rendered with wgpu and compared pixel by pixel with
/// `tests/snapshots/chinese-ui.png` (regenerate with `UPDATE_SNAPSHOTS=1`): a build named in
/// Chinese, every menu, tab, panel, the palette and the status bar in Chinese, no box glyphs
/// (the shipped CJK font renders them).
#[test]
fn the_chinese_ui_snapshot() {
    let mut c = config();
    c.lang = Lang::ZhCn;
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1440.0, 900.0))
        .wgpu()
        .build_eframe(move |cc| rigplan::gui::App::new(cc, c));
    h.run();
    // The first start's entry workstation, renamed in Chinese (no file: the status bar shows
    // no temporary path).
    h.state_mut().state_mut().push(Command::RenameBuild("入门级工作站（RTX 4090 + Ryzen 9 7950X）".to_owned()));
    h.state_mut().state_mut().push(Command::RenameNode(0, "工作站".to_owned()));
    h.run();
    assert!(h.query_by_label("¥27,489").is_some());
    h.snapshot("chinese-ui");
}
