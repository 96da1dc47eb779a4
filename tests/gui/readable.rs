//! Messages that go when they stop being true, text no smaller than 11 px, and a UI zoom that
//! persists (issue 17).

use crate::common::*;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

#[test]
fn undo_takes_the_added_message_with_it() {
    let mut h = app(config());
    click_add(&mut h, RTX_4090_NAME);
    let added = notice(&h).expect("adding says so");
    assert!(added.contains("RTX 4090"), "{added}");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(build(&h).nodes[0].parts.is_empty(), "undone");
    assert_eq!(notice(&h), None, "the message about the undone edit goes");
    assert!(h.query_by_label(&added).is_none());
    // Nothing left to undo is news, and says so.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(notice(&h).as_deref(), Some("Nothing to undo."));
}

#[test]
fn autosaved_at_goes_once_the_build_is_saved_or_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let save_to = dir.path().join("saved.ron");
    let mut c = config();
    c.recovery_dir = Some(dir.path().join("recovery"));
    c.dialogs = Box::new(Scripted { save: vec![save_to.clone()], ..Scripted::default() });
    let mut h = app(c);
    click_add(&mut h, RTX_4090_NAME);
    for _ in 0..16 {
        h.step();
    }
    assert!(h.query_by_label_contains("Autosaved at").is_some());
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.run();
    assert!(save_to.exists());
    assert!(h.query_by_label_contains("Autosaved at").is_none(), "saved: the autosave time is stale");
    // Edited and autosaved again, then another build replaces it (no prompt: saved first).
    h.get_by_label("Add node").click();
    h.run();
    for _ in 0..16 {
        h.step();
    }
    assert!(h.query_by_label_contains("Autosaved at").is_some());
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    h.get_by_label("Don't save").click();
    h.run();
    h.run();
    assert!(h.query_by_label_contains("Autosaved at").is_none(), "a new build was never autosaved");
}

#[test]
fn no_text_style_is_under_11_px() {
    let h = app(config());
    let style = h.ctx.global_style();
    for (name, font) in &style.text_styles {
        assert!(font.size >= 11.0, "{name:?} is {} px", font.size);
    }
    assert!((rigplan::gui::theme::MIN_TEXT_SIZE - 11.0).abs() < f32::EPSILON);
    // egui's own default is 9 px: the theme is what lifts it.
    assert!(egui::Style::default().text_styles[&egui::TextStyle::Small].size < 11.0);
}

#[test]
fn zoom_keys_and_menu_change_the_zoom_and_it_is_stored() {
    let mut h = app(config());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Equals);
    h.run_steps(8);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Plus);
    h.run_steps(8);
    assert!((state(&h).prefs.ui_zoom - 1.2).abs() < 1e-6, "{}", state(&h).prefs.ui_zoom);
    assert!((h.ctx.zoom_factor() - 1.2).abs() < 1e-6, "applied: {}", h.ctx.zoom_factor());
    assert!((h.state().state().prefs_to_store().ui_zoom - 1.2).abs() < 1e-6, "stored with the preferences");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Minus);
    h.run_steps(8);
    assert!((state(&h).prefs.ui_zoom - 1.1).abs() < 1e-6);
    h.get_by_label("View").click();
    h.run();
    h.get_by_label_contains("Actual size").click();
    // A zoom change lays out again for a few frames (grids measure their columns anew).
    h.run_steps(8);
    assert!((state(&h).prefs.ui_zoom - 1.0).abs() < 1e-6);
    // A stored zoom is applied at the next start, and an absurd one is clamped.
    let mut c = config();
    c.prefs.ui_zoom = 1.5;
    let h = app(c);
    assert!((h.ctx.zoom_factor() - 1.5).abs() < 1e-6);
    assert!((rigplan::gui::prefs::clamp_zoom(40.0) - 2.5).abs() < f32::EPSILON);
    assert!((rigplan::gui::prefs::clamp_zoom(f32::NAN) - 1.0).abs() < f32::EPSILON);
}
