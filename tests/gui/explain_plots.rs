//! A plot explains the figure under the pointer (issue 15): hovering the TCO cumulative-cost
//! curves names the series and its amount at that month and shows the owned or cloud total's
//! formula; hovering a power bar shows the node's max-draw basis; a click pins the series'
//! bases.

use crate::common::*;
use egui_kittest::kittest::Queryable;

type H = egui_kittest::Harness<'static, rigplan::gui::App>;

/// The app as it starts (the entry workstation), tall enough that every plot of a tab is on
/// screen without scrolling.
fn tall() -> H {
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1500.0, 4000.0))
        .build_eframe(move |cc| rigplan::gui::App::new(cc, config()));
    h.run();
    h
}

fn open_tab(h: &mut H, tab: &str) {
    h.get_by_label(tab).click();
    h.run();
}

/// A point inside the plot under a heading: its horizontal middle, `down` points below the
/// heading.
fn under(h: &H, heading: &str, down: f32) -> egui::Pos2 {
    let r = h.get_by_label(heading).rect();
    egui::pos2(r.center().x, r.bottom() + down)
}

#[test]
fn hovering_the_tco_curves_explains_the_series_at_that_month_and_a_click_pins_it() {
    let mut h = tall();
    open_tab(&mut h, "TCO");
    let heading = "Cumulative cost: owned against cloud";
    assert!(h.query_by_label_contains(" at month ").is_none(), "nothing before hovering");
    // Across the plot's height: the pointer is nearest one curve or another, each explained.
    let mut seen = Vec::new();
    for down in [40.0, 120.0, 200.0, 260.0] {
        h.hover_at(under(&h, heading, down));
        h.run();
        let Some(line) = h.query_all_by_label_contains(" at month ").next().map(|n| n.value().unwrap_or_default())
        else {
            continue;
        };
        let owned = h.query_by_label_contains("owned = capex + opex × years − value at the horizon").is_some();
        let cloud = h.query_by_label_contains("cloud = price per hour × hours billed per year").is_some();
        assert!(owned || cloud, "{line}: the hover shows the series' formula");
        assert_eq!(line.starts_with("Owned at month "), owned, "{line}: the owned curve is the owned total's");
        seen.push(line);
    }
    assert!(!seen.is_empty(), "hovering the plot explains a curve");
    // A click pins the series' bases.
    let at = under(&h, heading, 200.0);
    h.hover_at(at);
    h.run();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.run();
    }
    let pinned = state(&h).view.pinned_bases.clone();
    assert!(!pinned.is_empty() && pinned.iter().all(|k| k.starts_with("tco.")), "{pinned:?}");
}

#[test]
fn hovering_a_power_bar_explains_the_nodes_max_draw() {
    let mut h = tall();
    open_tab(&mut h, "Power");
    // One node: its bar is in the middle of the plot (from the heading's left to its "Save as
    // PNG…" button's right); low in the plot the pointer is on the stack.
    let heading = h.get_by_label("Maximum draw by component, per node").rect();
    let save = save_button_below(&h, heading.bottom());
    h.hover_at(egui::pos2(f32::midpoint(heading.left(), save.right()), heading.bottom() + 170.0));
    h.run();
    let line = h.query_all_by_label_contains("Workstation, ").next().map(|n| n.value().unwrap_or_default());
    assert!(line.as_deref().is_some_and(|l| l.ends_with(" W")), "{line:?}");
    assert!(h.query_by_label_contains("P_max = Σ quantity × P_max(part)").is_some(), "the node's max-draw formula");
}

/// Hovering the selected cell's memory bar names the part under the pointer and shows its
/// formula with the cell's numbers.
#[test]
fn hovering_the_memory_bar_explains_the_part_under_the_pointer() {
    let mut h = tall();
    open_tab(&mut h, "Memory & speed");
    let cell = rigplan::gui::derived::FitSel { matrix: 0, row: 0, col: 0 };
    h.state_mut().state_mut().push(rigplan::gui::command::Command::SelectFitCell(Some(cell)));
    h.run();
    h.run();
    let detail = state(&h).cell_detail.clone().expect("the cell is evaluated");
    let weights = rigplan::core::analysis::basis::find(&detail.bases, "fit.per_gpu.weights_bytes")
        .expect("the weights' basis")
        .substituted
        .clone();
    assert!(h.query_by_label_contains(&weights).is_none(), "nothing before hovering");
    // The plot: from the legend's left to its save button's right, above the legend.
    let legend = h.get_by_label_contains("Legend (").rect();
    let save = save_button_below(&h, legend.top());
    // The weights are the bottom of the stack.
    h.hover_at(egui::pos2(f32::midpoint(legend.left(), save.right()), legend.top() - 30.0));
    h.run();
    assert!(h.query_by_label_contains(&weights).is_some(), "the weights: {weights}");
}

/// Hovering a GPU's temperature bar shows its estimate's formula with the build's numbers.
#[test]
fn hovering_a_gpu_temperature_bar_explains_its_estimate() {
    let mut h = tall();
    open_tab(&mut h, "Thermal");
    let estimate = rigplan::core::analysis::basis::find(
        state(&h).derived.report.basis(),
        "thermal.nodes[0].gpus[0].estimated_temp_c",
    )
    .expect("the GPU's estimate basis")
    .substituted
    .clone();
    assert!(h.query_by_label_contains(&estimate).is_none(), "nothing before hovering");
    // One GPU: its bar is in the middle of the plot; low in the plot the pointer is on it.
    let heading = h.get_by_label("GPU temperature at full load against its limit").rect();
    let save = save_button_below(&h, heading.bottom());
    h.hover_at(egui::pos2(f32::midpoint(heading.left(), save.right()), save.top() - 60.0));
    h.run();
    assert!(h.query_by_label_contains(&estimate).is_some(), "the estimate: {estimate}");
    assert!(h.query_by_label_contains(" (limit ").is_some(), "with its limit");
}
