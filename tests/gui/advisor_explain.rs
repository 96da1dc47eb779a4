//! The Advisor view's figures explain themselves (issue 15): a candidate's capex, wall draw
//! and the like show that candidate's own basis on hover, in the table and in the detail.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use rigplan::core::analysis::basis;
use rigplan::core::units::format_thousands;
use rigplan::gui::text::EN;

#[test]
fn hovering_a_candidates_capex_and_wall_draw_shows_its_basis() {
    let mut h = app_as_started(config());
    h.get_by_label("View").click();
    h.run();
    h.get_by_label(EN.advisor.menu_item).click();
    h.run();
    let c = state(&h).advised.as_ref().and_then(|a| a.advice()).expect("an advice").front[0].clone();
    let capex = basis::find(c.report.basis(), "tco.capex").expect("the candidate's capex basis").substituted.clone();
    assert!(h.query_by_label_contains(&capex).is_none(), "nothing before hovering");
    // The table's cell and the detail's row both show the amount: each explains it.
    let amount = format!("{} CNY", format_thousands(c.capex, 0));
    let cells: Vec<egui::Pos2> = h.get_all_by_label(&amount).map(|n| n.rect().center()).collect();
    assert!(cells.len() >= 2, "the table and the detail: {amount}");
    for at in cells {
        h.hover_at(at);
        h.run();
        assert!(h.query_by_label_contains(&capex).is_some(), "the capex sum: {capex}");
        assert!(h.query_by_label_contains("capex = Σ price × quantity × nodes").is_some());
    }
    let wall = basis::find(c.report.basis(), "power.wall_watts").expect("a wall basis").substituted.clone();
    let watts = format!("{} W", format_thousands(c.wall_watts, 0));
    let at = h.get_all_by_label(&watts).next().expect("the wall draw").rect().center();
    h.hover_at(at);
    h.run();
    assert!(h.query_by_label_contains(&wall).is_some(), "the wall draw: {wall}");
}
