//! Adding builds to the comparison from inside the compare view, without a file dialog:
//! "Add build ▸ Recent files / Templates / Autosaves / File…" (issue 17).

use crate::common::*;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use rigplan::gui::App;
use rigplan::gui::command::Command;
use rigplan::gui::compare::CompareSource;
use rigplan::gui::vocab::MainView;

/// Clicks through a menu path; where a label shows twice (a recent file's path is also in the
/// status bar), the menu's item is the one laid out last.
fn menu(h: &mut Harness<'static, App>, path: &[&str]) {
    for label in path {
        h.get_all_by_label(label).last().expect("the item shows").click();
        h.run();
    }
}

#[test]
fn recent_files_templates_and_autosaves_are_a_menu_away() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("mine.ron");
    let mut c = config();
    c.recovery_dir = Some(dir.path().join("recovery"));
    c.dialogs = Box::new(Scripted { save: vec![saved.clone()], ..Scripted::default() });
    let mut h = app(c);
    // A recent file: the blank build, saved.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(state(&h).prefs.recent_files.first(), Some(&saved));
    // An autosave: an edit left for a few seconds.
    click_add(&mut h, RTX_4090_NAME);
    for _ in 0..16 {
        h.step();
    }
    h.state_mut().state_mut().push(Command::ShowView(MainView::Compare));
    h.run();
    assert_eq!(state(&h).autosaves.len(), 1, "this instance's autosave is listed");

    menu(&mut h, &["Add build", "Recent files", &saved.display().to_string()]);
    assert_eq!(state(&h).compare.sources(), vec![CompareSource::File(saved.clone())]);

    let h100 = rigplan::core::templates::find("enterprise-8x-h100-hgx").unwrap();
    let name = h100.load().unwrap().name;
    menu(&mut h, &["Add build", "Templates", &name]);
    assert_eq!(state(&h).compare.sources()[1], CompareSource::Template(h100.slug.to_owned()));

    let autosave = state(&h).autosaves[0].clone();
    let entry = format!("{} (", autosave.build.name);
    assert!(h.query_by_label_contains(&entry).is_none(), "the submenu is closed until opened");
    menu(&mut h, &["Add build", "Autosaves"]);
    h.get_by_label_contains(&entry).click();
    h.run();
    assert_eq!(state(&h).compare.sources()[2], CompareSource::File(autosave.file.clone()));
    let compared = state(&h).compared.as_ref().and_then(|c| c.comparison()).expect("three builds compare");
    assert_eq!(compared.builds.len(), 3);
    assert_eq!(compared.builds[2].name, autosave.build.name);
    assert!(compared.builds[2].gpus >= 1, "the autosave holds the edit that was not saved");
    // The template survives a restart through the preferences, loaded again.
    let (set, problems) = rigplan::gui::compare::CompareSet::from_sources(&state(&h).prefs_to_store().compare, None);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(set.entries.len(), 3);
    assert_eq!(set.entries[1].build.as_ref().map(|b| b.name.clone()), Some(name));
}

#[test]
fn log_scale_and_per_gpu_change_the_plotted_cost_and_persist() {
    use rigplan::gui::compare::{CompareNorm, CompareScale};
    use rigplan::gui::panels::compare::cost_tick;
    // The entry workstation (1 GPU, the first start's build) beside the 8 × H100 server.
    let mut h = app_as_started(config());
    h.state_mut().state_mut().push(Command::ShowView(MainView::Compare));
    h.state_mut().state_mut().push(Command::CompareAddCurrent);
    h.state_mut().state_mut().push(Command::CompareAddTemplate("enterprise-8x-h100-hgx"));
    h.run();
    let raw = |h: &Harness<'static, App>| state(h).compared.as_ref().unwrap().charts.curves.clone();
    let plotted = |h: &Harness<'static, App>| state(h).compared.as_ref().unwrap().curves.clone();
    let (a0, b0) = (raw(&h)[0].owned[0].y, raw(&h)[1].owned[0].y);
    assert!(b0 > 20.0 * a0, "the server's month-0 cost {b0} dwarfs the workstation's {a0}");
    assert_eq!(plotted(&h), raw(&h), "total, linear: as computed");

    // The plots sit below the rows: scroll them into view.
    h.get_by_label("Log scale").scroll_to_me();
    h.run();
    h.get_by_label("Log scale").click();
    h.run();
    assert!(state(&h).prefs.compare_scale.log);
    assert!((plotted(&h)[0].owned[0].y - a0.log10()).abs() < 1e-9);
    assert!((plotted(&h)[1].owned[0].y - b0.log10()).abs() < 1e-9);

    // The "Cost as" choice: the widget it names, not the label beside it.
    h.get_all_by_label("Cost as").find(|n| n.accesskit_node().role() != egui::accesskit::Role::Label).unwrap().click();
    h.run();
    h.get_by_label("Per GPU").click();
    h.run();
    let gpus: Vec<u64> =
        state(&h).compared.as_ref().unwrap().comparison().unwrap().builds.iter().map(|b| b.gpus).collect();
    assert_eq!(gpus, [1, 8]);
    assert!((plotted(&h)[1].owned[0].y - (b0 / 8.0).log10()).abs() < 1e-9);
    assert!((plotted(&h)[0].owned[0].y - a0.log10()).abs() < 1e-9);
    assert_eq!(
        h.state().state().prefs_to_store().compare_scale,
        CompareScale { log: true, norm: CompareNorm::PerGpu },
        "kept with the preferences"
    );

    // Relative to the first build, linear: A is 1 every month; B is its ratio to A.
    h.state_mut()
        .state_mut()
        .push(Command::SetCompareScale(CompareScale { log: false, norm: CompareNorm::RelativeToFirst }));
    h.run();
    assert!(plotted(&h)[0].owned.iter().all(|p| (p.y - 1.0).abs() < 1e-12));
    assert!((plotted(&h)[1].owned[0].y - b0 / a0).abs() < 1e-9);

    // Ticks read as money (or as a multiple of A's cost).
    let log = CompareScale { log: true, norm: CompareNorm::Total };
    assert_eq!(cost_tick(6.0, log), "1 M");
    assert_eq!(cost_tick(20_000f64.log10(), log), "20 k");
    assert_eq!(cost_tick(2_300_000.0, CompareScale::default()), "2.3 M");
    assert_eq!(cost_tick(9_000.0, CompareScale::default()), "9,000");
    assert_eq!(cost_tick(1.5, CompareScale { log: false, norm: CompareNorm::RelativeToFirst }), "×1.50");
}
