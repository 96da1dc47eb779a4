//! One panel at a time, laid out with a small frame context (a catalog, a document and its
//! derived data) instead of the whole app: what it shows, and the commands it pushes.

use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigplan::core::build::{Build, Location};
use rigplan::core::catalog::{Catalog, PartId};
use rigplan::core::units::format_thousands;
use rigplan::gui::command::Command;
use rigplan::gui::context::FrameCtx;
use rigplan::gui::derived::Derived;
use rigplan::gui::document::Document;
use rigplan::gui::panels;
use rigplan::gui::prefs::Prefs;
use rigplan::gui::vocab::AnalysisTab;
use std::path::PathBuf;

use crate::common::RTX_4090;

/// What a panel reads, and the commands it pushed.
struct Panel {
    catalog: Catalog,
    doc: Document,
    derived: Derived,
    prefs: Prefs,
    commands: Vec<Command>,
}

impl Panel {
    fn new(build: Build, path: Option<PathBuf>) -> Self {
        let catalog = Catalog::embedded().expect("the embedded catalog loads");
        let doc = Document::new(build, path);
        let derived = Derived::compute(&catalog, doc.build(), doc.revision());
        Self { catalog, doc, derived, prefs: Prefs::default(), commands: Vec::new() }
    }
}

/// A harness that lays out one panel each frame.
fn harness(panel: Panel, show: fn(&mut egui::Ui, &mut FrameCtx<'_>)) -> Harness<'static, Panel> {
    // The shipped CJK font, as the app installs it at start: part, model and cloud offer names
    // may be Chinese (算家云).
    let mut h = Harness::builder()
        .with_size(vec2(640.0, 900.0))
        .with_context_setup(rigplan::gui::fonts::install)
        .build_ui_state(
            move |ui, p: &mut Panel| {
                let mut fx = FrameCtx::new(&p.catalog, &p.doc, &p.derived, &mut p.commands);
                fx.prefs = &p.prefs;
                show(ui, &mut fx);
            },
            panel,
        );
    h.run();
    h
}

fn two_gpus() -> Build {
    let mut b = Build::new("Two GPUs");
    b.add_part(Location::Node(0), &PartId::from(RTX_4090), 2).unwrap();
    b
}

#[test]
fn the_status_bar_shows_the_file_and_the_totals_and_pushes_nothing() {
    let path = PathBuf::from("/builds/two-gpus.ron");
    let h = harness(Panel::new(two_gpus(), Some(path.clone())), panels::status::ui);
    assert!(h.query_by_label(&path.display().to_string()).is_some());
    assert!(h.query_by_label("Not saved yet").is_none());
    assert!(h.query_by_label("• unsaved changes").is_none(), "a document as loaded is clean");
    assert!(h.query_by_label("1 node · 2 GPUs").is_some());
    // The catalog lists the RTX 4090 Founders Edition at its launch price, 1,599 USD.
    assert!(h.query_by_label("Capex 3,198 USD").is_some());
    let report = &h.state().derived.report;
    let findings = format!(
        "{} errors · {} warnings",
        report.count(rigplan::core::analysis::Severity::Error),
        report.count(rigplan::core::analysis::Severity::Warning)
    );
    assert!(report.count(rigplan::core::analysis::Severity::Error) > 0, "GPUs without a platform are an error");
    assert!(h.query_by_label(&findings).is_some(), "{findings}");
    assert!(h.state().commands.is_empty(), "the status bar only shows");

    let h = harness(Panel::new(Build::new("Blank"), None), panels::status::ui);
    assert!(h.query_by_label("Not saved yet").is_some());
    assert!(h.query_by_label("1 node · 0 GPUs").is_some());
}

#[test]
fn the_analysis_tabs_push_set_tab_and_change_nothing_themselves() {
    let mut h = harness(Panel::new(two_gpus(), None), panels::analysis::ui);
    assert!(h.query_by_label("Two GPUs").is_some(), "the summary's heading");
    h.get_by_label("Summary").click();
    h.run();
    assert!(h.state().commands.is_empty(), "the tab shown already is not a change");
    h.get_by_label("Power").click();
    h.run();
    assert_eq!(h.state().commands, [Command::SetTab(AnalysisTab::Power)]);
    assert!(h.query_by_label("Two GPUs").is_some(), "still the summary: only applying the command switches tabs");
    assert!(h.query_by_label("Wall draw").is_none());
}

#[test]
fn the_power_tab_shows_the_report_and_saves_its_plot() {
    let mut panel = Panel::new(two_gpus(), None);
    panel.prefs.analysis_tab = AnalysisTab::Power;
    let mut h = harness(panel, panels::analysis::ui);
    let p = &h.state().derived.report.power;
    let w = |v: f64| format!("{} W", format_thousands(v, 0));
    let wall = format!("idle {} · typical {} · max {}", w(p.wall_idle_watts), w(p.wall_typical_watts), w(p.wall_watts));
    assert!(p.wall_watts > 2.0 * 450.0, "two 450 W cards draw more than 900 W at the wall: {}", p.wall_watts);
    assert!(h.query_by_label("Wall draw").is_some());
    assert!(h.query_by_label(&wall).is_some(), "{wall}");
    assert!(h.state().commands.is_empty());
    h.get_by_label("Save as PNG…").click();
    h.run();
    match h.state().commands.as_slice() {
        [Command::SavePlot { rect, name }] => {
            assert_eq!(name, "power-by-component");
            assert!(rect.width() > 100.0 && rect.height() > 100.0, "the plot's own region: {rect:?}");
        }
        other => panic!("expected one SavePlot, got {other:?}"),
    }
}

/// The palette prices parts in the build's currency at the build's exchange rate (catalog
/// prices are USD), and its price filter reads in that currency too.
#[test]
fn the_palette_prices_parts_in_the_builds_currency() {
    use rigplan::core::catalog::PartKind;
    use rigplan::core::units::Currency;
    use rigplan::gui::panels::palette::PaletteState;
    let mut build = two_gpus();
    build.site.currency = Currency("CNY".to_owned());
    build.site.usd_exchange_rate = 7.2;
    let panel = Panel::new(build, None);
    let palette =
        PaletteState::new(&panel.catalog, PartKind::Gpu, rigplan::gui::text::for_lang(rigplan::core::i18n::Lang::En));
    let mut h = Harness::builder().with_size(vec2(640.0, 900.0)).build_ui_state(
        |ui, (p, palette): &mut (Panel, PaletteState)| {
            let mut fx = FrameCtx::new(&p.catalog, &p.doc, &p.derived, &mut p.commands);
            palette.ui(ui, &mut fx);
        },
        (panel, palette),
    );
    h.run();
    // The RTX 4090 Founders Edition: 1,599 USD launch price × 7.2 CNY per USD = 11,512.8.
    palette_search(&mut h, "RTX 4090 Founders");
    assert!(h.query_by_label("11,513 CNY").is_some(), "the row's price is in CNY");
    assert!(h.query_all_by_label("Price (CNY)").next().is_some(), "the filter names the currency");
    assert!(h.query_all_by_label("$1,599").next().is_none(), "no USD price in a CNY build's palette");
}

fn palette_search<S>(h: &mut Harness<'static, S>, query: &str) {
    let field = h.get_by(|n| n.data().placeholder() == Some("Search the catalog"));
    field.focus();
    field.type_text(query);
    h.run();
}

/// Issue 17: the spec card (the palette's hover card) labelled its fields in English in the
/// Chinese UI. Rendered in Chinese, it shows every field's Chinese label and no English one.
#[test]
fn the_spec_card_in_chinese_has_no_english_field_label() {
    let show: fn(&mut egui::Ui, &mut FrameCtx<'_>) = |ui, fx| {
        fx.texts = &rigplan::gui::text::ZH;
        fx.lang = rigplan::core::i18n::Lang::ZhCn;
        let part = fx.catalog.get(&PartId::from(RTX_4090)).expect("the RTX 4090 is in the catalog");
        panels::palette::spec_card(ui, fx, part);
    };
    let h = harness(Panel::new(Build::new("t"), None), show);
    let catalog = Catalog::embedded().unwrap();
    let part = catalog.get(&PartId::from(RTX_4090)).unwrap();
    let english = panels::palette::spec_rows(part, &rigplan::gui::text::EN);
    let chinese = panels::palette::spec_rows(part, &rigplan::gui::text::ZH);
    assert!(english.len() > 15, "{english:?}");
    // Names the two languages share (TDP, SKU) aside.
    let shared = ["TDP (W)", "SKU"];
    for ((en, _), (zh, _)) in english.iter().zip(&chinese) {
        assert!(h.get_all_by_label(zh).count() > 0, "{zh} is shown");
        if !shared.contains(&en.as_str()) {
            assert!(h.query_by_label(en).is_none(), "the English label `{en}` is shown in the Chinese card");
        }
    }
    for label in ["显存 (GiB)", "显存带宽 (GB/s)", "长度 (mm)", "供电接口"] {
        assert!(h.query_by_label(label).is_some(), "{label}");
    }
}
