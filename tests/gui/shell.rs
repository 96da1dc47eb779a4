//! The whole app: panels, menus, an idle app that does not repaint.

use crate::common::*;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigplan::gui::App;
use std::time::Duration;

fn repaint_delay(h: &Harness<'static, App>) -> Duration {
    h.output().viewport_output.get(&egui::ViewportId::ROOT).map_or(Duration::MAX, |v| v.repaint_delay)
}

#[test]
fn the_whole_app_runs_as_eframe_runs_it() {
    let config = config();
    let mut h = Harness::new_eframe(move |cc| App::new(cc, config));
    h.run();
    for label in ["File", "Edit", "View", "Help", "GPUs", "Systems", "Summary", "Not saved yet", "Add node", "Cluster"]
    {
        assert!(h.query_by_label(label).is_some(), "{label} is shown");
    }
    h.get_by_label("Help").click();
    h.run();
    h.get_by_label("About rigplan").click();
    h.run();
    assert!(h.query_by_label("Keyboard shortcuts").is_some());
    h.get_by_label("OK").click();
    h.run();
    assert!(h.query_by_label("Keyboard shortcuts").is_none());
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Catalog palette").click();
    h.run();
    assert!(!state(&h).prefs.show_palette);
    assert!(h.query_by_label("GPUs").is_none(), "the palette is hidden");
}

#[test]
fn an_idle_app_does_not_repaint_on_any_tab() {
    let mut h = app_as_started(config());
    for tab in ["Summary", "Issues (0)", "Power", "Thermal", "Memory & speed", "TCO"] {
        h.get_by_label(tab).click();
        h.run();
        // Move the pointer off every widget (no tooltips, no hover animations).
        h.remove_cursor();
        h.run();
        h.step();
        h.step();
        assert_eq!(repaint_delay(&h), Duration::MAX, "nothing scheduled while idle on {tab}");
    }
}

#[test]
fn a_pending_autosave_waits_with_a_timer_not_a_busy_loop() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config();
    c.recovery_dir = Some(dir.path().to_path_buf());
    let mut h = app(c);
    click_add(&mut h, RTX_4090_NAME);
    let delay = repaint_delay(&h);
    assert!(delay > Duration::from_secs(1) && delay <= Duration::from_secs(3), "{delay:?}");
    for _ in 0..16 {
        h.step();
    }
    assert_eq!(repaint_delay(&h), Duration::MAX, "after the autosave, idle again");
}

#[test]
fn the_palette_searches_fuzzily_and_filters() {
    let mut h = app(config());
    search(&mut h, "rtx4090");
    assert_eq!(state(&h).palette.visible_ids(&state(&h).catalog).first().map(|id| id.as_str()), Some(RTX_4090));
    search(&mut h, "zzz");
    assert!(state(&h).palette.visible_ids(&state(&h).catalog).is_empty());
    assert!(h.query_by_label("No part matches the search and filters.").is_some());
}

#[test]
fn the_palette_switches_category() {
    let mut h = app(config());
    h.get_by_label("CPUs").click();
    h.run();
    assert_eq!(state(&h).palette.kind, rigplan::core::catalog::PartKind::Cpu);
    let expected = state(&h).catalog.cpus.len();
    assert_eq!(state(&h).palette.visible_ids(&state(&h).catalog).len(), expected);
}
