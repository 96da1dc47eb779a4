//! Adding builds to the comparison from inside the compare view, without a file dialog:
//! "Add build ▸ Recent files / Templates / Autosaves / File…" (issue 17).

use crate::common::*;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
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
