//! Files: drop to open, bad files, save and reopen, the unsaved marker and prompt, autosave
//! and crash recovery.

use crate::common::*;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use rigplan::core::build::{Build, Location, NodeGroup};
use rigplan::core::catalog::PartId;
use rigplan::core::persist;

fn sample() -> Build {
    let mut b = Build::new("Lab server");
    b.add_node(NodeGroup::new("Workers")).unwrap();
    b.nodes[1].count = 4;
    b.add_part(Location::Node(1), &PartId::from(RTX_4090), 2).unwrap();
    b.add_part(Location::Node(0), &PartId::from("gpu/not-in-the-catalog"), 1).unwrap();
    b
}

fn add_gpu(h: &mut egui_kittest::Harness<'static, rigplan::gui::App>) {
    click_add(h, RTX_4090_NAME);
}

#[test]
fn dropping_a_build_file_on_the_window_opens_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lab.ron");
    persist::save_build(&path, &sample()).unwrap();
    let mut h = app(config());
    drop_file(&mut h, &path, std::fs::read(&path).unwrap());
    assert_eq!(build(&h), &sample());
    assert_eq!(state(&h).doc.path(), Some(path.as_path()));
    assert!(!state(&h).doc.is_dirty());
    assert_eq!(state(&h).title(), "Lab server — rigplan");
    assert_eq!(state(&h).prefs.recent_files.first(), Some(&path));
}

#[test]
fn a_bad_file_shows_its_error_and_leaves_the_build_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app(config());
    add_gpu(&mut h);
    let before = build(&h).clone();
    // Truncated: the parser's position is in the message.
    let bad = dir.path().join("bad.ron");
    drop_file(&mut h, &bad, b"(\n    version: 1,\n    build: (name: ".to_vec());
    // The build is dirty, so opening asks first; opening anyway keeps the build on error.
    h.get_by_label("Don't save").click();
    h.run();
    let error = state(&h).view.error.clone().expect("an error dialog");
    assert_eq!(error.title, "Cannot open the build");
    assert!(error.message.starts_with(&format!("{}:3:", bad.display())), "{}", error.message);
    assert!(h.query_by_label("The build you were working on is unchanged.").is_some());
    assert_eq!(build(&h), &before);
    h.get_by_label("OK").click();
    h.run();
    assert!(state(&h).view.error.is_none());
    // Not a .ron file at all.
    let png = dir.path().join("photo.png");
    drop_file(&mut h, &png, vec![0x89, b'P', b'N', b'G']);
    h.get_by_label("Don't save").click();
    h.run();
    let error = state(&h).view.error.clone().expect("an error dialog");
    assert!(error.message.contains("photo.png is not a rigplan build file"), "{}", error.message);
    assert_eq!(build(&h), &before);
}

#[test]
fn save_then_reopen_gives_the_same_build() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plans").join("mine");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut c = config();
    c.dialogs =
        Box::new(Scripted { save: vec![path.clone()], open: vec![path.with_extension("ron")], ..Scripted::default() });
    let mut h = app(c);
    add_gpu(&mut h);
    h.get_by_label("Add node").click();
    h.run();
    let edited = build(&h).clone();
    assert!(state(&h).title().contains('•'), "{}", state(&h).title());
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let saved = path.with_extension("ron");
    assert_eq!(state(&h).doc.path(), Some(saved.as_path()), "the .ron extension is added");
    assert!(!state(&h).doc.is_dirty());
    assert!(!state(&h).title().contains('•'));
    assert_eq!(persist::load_build(&saved).unwrap(), edited);
    // A new build, then open the saved one again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    assert_eq!(build(&h), &Build::new("Untitled build"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    assert_eq!(build(&h), &edited);
    assert!(!state(&h).doc.is_dirty());
}

#[test]
fn the_unsaved_marker_follows_the_build() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, path) = app_with(&sample(), dir.path());
    assert_eq!(state(&h).title(), "Lab server — rigplan");
    assert!(h.query_by_label("• unsaved changes").is_none());
    // The second "+" from the top is the RTX 4090 line of node 2 (node 1 holds the unknown id).
    all_by_label(&h, "+")[1].click();
    h.run();
    assert_eq!(state(&h).title(), "Lab server • — rigplan");
    assert!(h.query_by_label("• unsaved changes").is_some());
    // Undo back to the file's content: clean again.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.query_by_label("• unsaved changes").is_none());
    all_by_label(&h, "+")[1].click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(h.query_by_label("• unsaved changes").is_none());
    assert_eq!(persist::load_build(&path).unwrap().nodes[1].parts[0].quantity, 3);
}

#[test]
fn replacing_an_unsaved_build_asks_first() {
    let mut h = app(config());
    add_gpu(&mut h);
    let edited = build(&h).clone();
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    assert!(h.query_by_label("Save changes to “Untitled build”?").is_some());
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(build(&h), &edited);
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    h.get_by_label("Don't save").click();
    h.run();
    assert_eq!(build(&h), &Build::new("Untitled build"));
}

#[test]
fn closing_with_unsaved_changes_asks_first() {
    let mut h = app(config());
    add_gpu(&mut h);
    h.input_mut().viewports.entry(egui::ViewportId::ROOT).or_default().events.push(egui::ViewportEvent::Close);
    h.run();
    assert!(h.query_by_label("Closing rigplan discards unsaved changes.").is_some());
    assert!(!state(&h).view.allow_close);
    h.get_by_label("Don't save").click();
    h.run();
    assert!(state(&h).view.allow_close);
}

#[test]
fn an_autosaved_build_is_offered_after_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config();
    c.recovery_dir = Some(dir.path().to_path_buf());
    let mut h = app(c);
    add_gpu(&mut h);
    let edited = build(&h).clone();
    let own = state(&h).recovery.own_autosave_path().unwrap();
    assert!(!own.exists(), "nothing is written while the user is active");
    // A few seconds of inactivity (each step is 0.25 s of harness time).
    for _ in 0..16 {
        h.step();
    }
    assert_eq!(persist::load_build(&own).unwrap(), edited);
    assert!(h.query_by_label_contains("Autosaved at").is_some());
    // The instance "crashes" (no clean exit): its autosave stays and its slot's lock goes.
    drop(h);
    let mut c = config();
    c.recovery_dir = Some(dir.path().to_path_buf());
    let mut h = app_as_started(c);
    assert!(h.query_by_label("Restore unsaved work?").is_some());
    h.get_by_label("Restore").click();
    h.run();
    assert_eq!(build(&h), &edited);
    assert!(state(&h).doc.is_dirty(), "restored work is unsaved until saved");
    assert!(!own.exists(), "the offer is consumed");
    assert_ne!(state(&h).recovery.own_autosave_path(), Some(own), "the crashed slot was not reused meanwhile");
}

#[test]
fn two_running_instances_keep_their_autosaves_apart() {
    let dir = tempfile::tempdir().unwrap();
    let with_recovery = || {
        let mut c = config();
        c.recovery_dir = Some(dir.path().to_path_buf());
        c
    };
    let mut first = app(with_recovery());
    add_gpu(&mut first);
    for _ in 0..16 {
        first.step();
    }
    let first_file = state(&first).recovery.own_autosave_path().unwrap();
    let first_build = build(&first).clone();
    assert_eq!(persist::load_build(&first_file).unwrap(), first_build);
    // A second instance starts while the first runs: nothing to restore, its own slot.
    let mut second = app(with_recovery());
    assert!(second.query_by_label("Restore unsaved work?").is_none(), "the first instance's autosave is live");
    second.get_by_label("Add node").click();
    second.run();
    for _ in 0..16 {
        second.step();
    }
    let second_file = state(&second).recovery.own_autosave_path().unwrap();
    assert_ne!(second_file, first_file);
    assert_eq!(persist::load_build(&second_file).unwrap(), *build(&second));
    assert_eq!(persist::load_build(&first_file).unwrap(), first_build, "not overwritten");
    // The first instance crashes; a third start offers its work, and not the second's.
    drop(first);
    let mut third = app_as_started(with_recovery());
    assert!(third.query_by_label("Restore unsaved work?").is_some());
    assert_eq!(state(&third).recovery.offer().map(|o| &o.build), Some(&first_build));
    third.get_by_label("Discard").click();
    third.run();
    assert!(!first_file.exists());
    assert!(second_file.exists(), "the running instance's autosave stays");
}

#[test]
fn saving_clears_the_autosave() {
    let dir = tempfile::tempdir().unwrap();
    let save_to = dir.path().join("saved.ron");
    let mut c = config();
    c.recovery_dir = Some(dir.path().join("recovery"));
    c.dialogs = Box::new(Scripted { save: vec![save_to.clone()], ..Scripted::default() });
    let mut h = app(c);
    add_gpu(&mut h);
    for _ in 0..16 {
        h.step();
    }
    let own = state(&h).recovery.own_autosave_path().unwrap();
    assert!(own.exists());
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(save_to.exists());
    assert!(!own.exists(), "a saved build needs no recovery copy");
}

#[test]
fn a_first_start_opens_the_entry_workstation_and_templates_are_a_menu_away() {
    let mut h = app_as_started(config());
    let entry = rigplan::core::templates::find("entry-workstation").unwrap().load().unwrap();
    assert_eq!(build(&h), &entry);
    assert_eq!(state(&h).doc.path(), None, "a template is a new, unsaved build");
    assert!(!state(&h).doc.is_dirty());
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("New from template").hover();
    h.run();
    let largest = rigplan::core::templates::find("enterprise-8x-h100-hgx").unwrap().load().unwrap();
    h.get_by_label(&largest.name).click();
    h.run();
    assert_eq!(build(&h), &largest);
}
