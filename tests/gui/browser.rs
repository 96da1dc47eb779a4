//! The built-in file browser: every file action works without the system's file dialog (a
//! bare X server has no desktop portal and no zenity). Driven as a user would: the browser
//! opens, a name is typed, Enter or the confirm button, and the file is read or written.

use crate::common::*;
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigplan::core::build::Build;
use rigplan::core::export::Format;
use rigplan::core::persist;
use rigplan::gui::App;
use rigplan::gui::command::{Command, Dialogs};
use std::path::{Path, PathBuf};

/// The app with the preference "always use the built-in file browser".
fn app_with_browser() -> Harness<'static, App> {
    let mut c = config();
    c.prefs.builtin_file_browser = true;
    app(c)
}

/// Native dialogs that cannot open, as rfd on a bare X server.
#[derive(Debug, Default)]
struct Unavailable {
    asked: usize,
}

impl Dialogs for Unavailable {
    fn pick_open(&mut self) -> Option<PathBuf> {
        self.asked += 1;
        None
    }
    fn pick_save(&mut self, _: &str) -> Option<PathBuf> {
        self.asked += 1;
        None
    }
    fn pick_png(&mut self, _: &str) -> Option<PathBuf> {
        self.asked += 1;
        None
    }
    fn pick_export(&mut self, _: &str, _: &str, _: &str) -> Option<PathBuf> {
        self.asked += 1;
        None
    }
    fn unavailable(&mut self) -> Option<String> {
        Some("Failed to pick file with zenity: No such file or directory".into())
    }
}

fn name_field<'h>(h: &'h Harness<'static, App>) -> egui_kittest::Node<'h> {
    h.get_by(|n| n.role() == Role::TextInput && n.label().as_deref() == Some("File name"))
}

/// Replaces the file name field's text with `text`.
fn type_name(h: &mut Harness<'static, App>, text: &str) {
    name_field(h).focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.key_press(Key::Backspace);
    name_field(h).type_text(text);
    h.run();
}

fn is_open(h: &Harness<'static, App>) -> bool {
    state(h).file_browser.is_some()
}

fn saved_sample(dir: &Path) -> (PathBuf, Build) {
    let mut b = Build::new("Browsed build");
    b.add_part(rigplan::core::build::Location::Node(0), &rigplan::core::catalog::PartId::from(RTX_4090), 1).unwrap();
    let path = dir.join("browsed.ron");
    persist::save_build(&path, &b).unwrap();
    (path, b)
}

#[test]
fn open_types_a_path_and_enter_opens_it() {
    let dir = tempfile::tempdir().unwrap();
    let (path, sample) = saved_sample(dir.path());
    let mut h = app_with_browser();
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    assert!(is_open(&h), "Ctrl+O opens the built-in browser");
    assert!(h.query_by_label("Open build").is_some());
    // A file that is not there: said inline, the browser stays.
    type_name(&mut h, &dir.path().join("nothing.ron").display().to_string());
    h.key_press(Key::Enter);
    h.run();
    assert!(is_open(&h));
    assert!(h.query_by_label_contains("There is no file").is_some());
    assert_ne!(build(&h), &sample);
    // The folder itself enters it, and then the file's name alone opens it.
    type_name(&mut h, &dir.path().display().to_string());
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(state(&h).file_browser.as_ref().unwrap().dir, dir.path());
    assert!(h.query_by_label("browsed.ron").is_some(), "the folder's build files are listed");
    type_name(&mut h, "browsed.ron");
    h.key_press(Key::Enter);
    h.run();
    h.run();
    assert!(!is_open(&h));
    assert_eq!(build(&h), &sample);
    assert_eq!(state(&h).doc.path(), Some(path.as_path()));
}

#[test]
fn save_as_writes_the_file_and_asks_before_replacing() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_with_browser();
    click_add(&mut h, RTX_4090_NAME);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(is_open(&h), "Ctrl+S on a new build asks where, in the built-in browser");
    assert!(h.query_by_label("Save build as").is_some());
    let target = dir.path().join("mine");
    type_name(&mut h, &target.display().to_string());
    h.get_by_label("Save").click();
    h.run();
    h.run();
    let written = dir.path().join("mine.ron");
    assert!(written.is_file(), "the .ron extension is added");
    assert_eq!(&persist::load_build(&written).unwrap(), build(&h));
    assert!(!state(&h).doc.is_dirty());
    // Again to the same name: asks, and Cancel keeps the browser open; Replace writes.
    h.get_by_label("Add node").click();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    h.run();
    type_name(&mut h, &written.display().to_string());
    h.key_press(Key::Enter);
    h.run();
    assert!(h.query_by_label("“mine.ron” already exists. Replace it?").is_some());
    assert_eq!(persist::load_build(&written).unwrap().nodes.len(), 1, "not yet replaced");
    h.get_by_label("Replace").click();
    h.run();
    h.run();
    assert!(!is_open(&h));
    assert_eq!(persist::load_build(&written).unwrap().nodes.len(), 2);
}

#[test]
fn an_export_is_written_where_the_browser_says() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = app_with_browser();
    click_add(&mut h, RTX_4090_NAME);
    h.state_mut().state_mut().push(Command::PickExport(Format::Csv));
    h.run();
    assert!(h.query_by_label("Export CSV").is_some());
    type_name(&mut h, &dir.path().join("sheet").display().to_string());
    h.key_press(Key::Enter);
    h.run();
    h.run();
    let csv = std::fs::read_to_string(dir.path().join("sheet.csv")).expect("the sheet is written");
    assert!(csv.contains("RTX 4090"), "{csv}");
    assert!(!is_open(&h));
}

#[test]
fn a_native_dialog_that_cannot_open_falls_back_to_the_browser_and_escape_cancels() {
    let mut c = config();
    c.dialogs = Box::new(Unavailable::default());
    let mut h = app(c);
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    assert!(is_open(&h), "the browser replaces the dialog that did not open");
    assert!(h.query_by_label_contains("did not open (Failed to pick file with zenity").is_some(), "and says why");
    let before = build(&h).clone();
    h.key_press(Key::Escape);
    h.run();
    h.run();
    assert!(!is_open(&h), "Escape cancels");
    assert_eq!(build(&h), &before);
    // A dialog that opened and was cancelled is a cancel, not a reason for the browser.
    let mut h = app(config());
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run();
    assert!(!is_open(&h));
}

#[test]
fn the_preference_is_a_view_menu_item() {
    let mut h = app(config());
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Always use the built-in file browser").click();
    h.run();
    assert!(state(&h).prefs.builtin_file_browser);
    assert!(h.state().state().prefs_to_store().builtin_file_browser, "stored with the preferences");
}
