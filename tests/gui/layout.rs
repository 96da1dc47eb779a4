//! Layouts hold from 1280×720 up (issue 17, point 3): at each window size, on every analysis
//! tab, the canvas's named controls (the build name, Add node, the trash area, each node's
//! name, ×N count, Duplicate and Remove node) lie inside the canvas without overlapping one
//! another, and the analysis panel keeps one width whatever tab is open.

use crate::common::*;
use egui::accesskit::Role;
use egui::{Rect, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigplan::core::build::{Build, NodeGroup};
use rigplan::gui::App;
use rigplan::gui::command::Command;
use rigplan::gui::vocab::AnalysisTab;

/// The window sizes a user meets, from a small laptop up.
const SIZES: [(f32, f32); 4] = [(1280.0, 720.0), (1280.0, 800.0), (1600.0, 1000.0), (1920.0, 1080.0)];

fn app_at(build: &Build, size: (f32, f32), dir: &std::path::Path) -> Harness<'static, App> {
    let path = dir.join("layout.ron");
    rigplan::core::persist::save_build(&path, build).unwrap();
    let mut c = config();
    c.file = Some(path);
    let mut h = Harness::builder().with_size(vec2(size.0, size.1)).build_eframe(move |cc| App::new(cc, c));
    h.run();
    h
}

fn template(id: &str) -> Build {
    rigplan::core::templates::find(id).unwrap().load().unwrap()
}

/// The entry workstation with a second node group, so that two cards' headers are checked.
fn two_nodes() -> Build {
    let mut b = template("entry-workstation");
    let mut second = b.nodes[0].clone();
    "Second workstation".clone_into(&mut second.name);
    b.add_node(second).unwrap();
    b.add_node(NodeGroup::new("Empty")).unwrap();
    b
}

/// The left edge of the analysis panel: the left edge of its first tab.
fn analysis_left(h: &Harness<'static, App>) -> f32 {
    h.get_by_label("Summary").rect().min.x
}

/// The right edge of the palette: the right edge of its search field.
fn palette_right(h: &Harness<'static, App>) -> f32 {
    search_field(h).rect().max.x
}

/// The named canvas controls and their rects.
fn canvas_controls(h: &Harness<'static, App>) -> Vec<(String, Rect)> {
    let mut out = Vec::new();
    let build = build(h);
    out.push(("build name".to_owned(), text_field(h, &build.name).rect()));
    for label in ["Add node", "Drop here to remove"] {
        out.push((label.to_owned(), h.get_by_label(label).rect()));
    }
    for (i, node) in build.nodes.iter().enumerate() {
        out.push((format!("node {i} name"), text_field(h, &node.name).rect()));
    }
    let counts: Vec<Rect> =
        h.get_all_by(|n| n.role() == Role::SpinButton && n.label().as_deref() == Some("×")).map(|n| n.rect()).collect();
    let duplicates: Vec<Rect> = h.get_all_by_label("Duplicate").map(|n| n.rect()).collect();
    let removes: Vec<Rect> = h.get_all_by_label("Remove node").map(|n| n.rect()).collect();
    // Only the cards in view are laid out; the first node's card always is.
    assert!(!counts.is_empty() && !duplicates.is_empty() && !removes.is_empty(), "the first card's header");
    for (i, r) in counts.iter().enumerate() {
        out.push((format!("×N {i}"), *r));
    }
    for (i, r) in duplicates.iter().enumerate() {
        out.push((format!("Duplicate {i}"), *r));
    }
    for (i, r) in removes.iter().enumerate() {
        out.push((format!("Remove node {i}"), *r));
    }
    out
}

/// Every control in view lies between the palette and the analysis panel, and no two
/// overlap.
fn assert_canvas_holds(h: &Harness<'static, App>, what: &str) {
    let (left, right) = (palette_right(h), analysis_left(h));
    let window = h.ctx.content_rect();
    // Cards scrolled out of view below the window are not checked.
    let controls: Vec<(String, Rect)> =
        canvas_controls(h).into_iter().filter(|(_, r)| r.min.y < window.max.y).collect();
    for (name, r) in &controls {
        assert!(r.width() > 8.0 && r.height() > 8.0, "{what}: {name} is squeezed to {r:?}");
        assert!(
            r.min.x >= left && r.max.x <= right && r.min.y >= window.min.y,
            "{what}: {name} at {r:?} is not inside the canvas ({left}..{right})"
        );
    }
    for (i, (a, ra)) in controls.iter().enumerate() {
        for (b, rb) in &controls[i + 1..] {
            assert!(!ra.shrink(0.5).intersects(rb.shrink(0.5)), "{what}: {a} {ra:?} overlaps {b} {rb:?}");
        }
    }
}

fn open_tab(h: &mut Harness<'static, App>, tab: AnalysisTab) {
    h.state_mut().state_mut().push(Command::SetTab(tab));
    h.run();
}

#[test]
fn the_canvas_controls_never_overlap_and_the_analysis_panel_keeps_its_width() {
    let dir = tempfile::tempdir().unwrap();
    for build in [template("enterprise-8x-h100-hgx"), two_nodes()] {
        for size in SIZES {
            let mut h = app_at(&build, size, dir.path());
            let width = analysis_left(&h);
            let what = |tab: AnalysisTab| format!("{} at {}×{}, {tab:?} tab", build.name, size.0, size.1);
            assert_canvas_holds(&h, &what(AnalysisTab::Summary));
            // Every tab, then back to the first: the panel never widens and the canvas holds.
            for tab in AnalysisTab::ALL.into_iter().chain([AnalysisTab::Summary]) {
                open_tab(&mut h, tab);
                assert!((analysis_left(&h) - width).abs() < 0.01, "{}: the analysis panel changed width", what(tab));
                assert_canvas_holds(&h, &what(tab));
            }
        }
    }
}

#[test]
fn the_canvas_keeps_room_at_the_smallest_window() {
    // At 1280 wide the side panels leave the canvas enough room for a node card's header on
    // one line: name, ×N, Duplicate and Remove node side by side.
    let dir = tempfile::tempdir().unwrap();
    let h = app_at(&two_nodes(), (1280.0, 720.0), dir.path());
    let canvas = analysis_left(&h) - palette_right(&h);
    assert!(canvas >= 480.0, "the canvas is {canvas} wide");
    let name = text_field(&h, &build(&h).nodes[0].name).rect();
    let remove = h.get_all_by_label("Remove node").next().unwrap().rect();
    assert!((name.center().y - remove.center().y).abs() < name.height(), "one line: {name:?} {remove:?}");
}

#[test]
fn zoomed_in_on_the_smallest_window_the_controls_wrap_instead_of_overlapping() {
    // At 150 % zoom 1280×720 pixels are 853×480 points (the harness is sized in points):
    // the side panels are at their narrowest, and the canvas is too narrow for a header on
    // one line, so Duplicate and Remove node, and the trash area, go to lines of their own.
    let dir = tempfile::tempdir().unwrap();
    let h = app_at(&two_nodes(), (853.0, 480.0), dir.path());
    let what = "1280×720 at 150 %";
    assert_canvas_holds(&h, what);
    let name = text_field(&h, &build(&h).nodes[0].name).rect();
    let remove = h.get_all_by_label("Remove node").next().unwrap().rect();
    assert!(remove.min.y >= name.max.y, "{what}: the buttons sit below the name: {name:?} {remove:?}");
    let add = h.get_by_label("Add node").rect();
    let trash = h.get_by_label("Drop here to remove").rect();
    assert!(trash.min.y >= add.max.y, "{what}: the trash area sits below Add node: {add:?} {trash:?}");
}
