//! The Advisor view's figures explain themselves (issue 15): a candidate's capex, wall draw
//! and the like show that candidate's own basis on hover, in the table and in the detail.

use crate::common::*;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigplan::core::analysis::basis;
use rigplan::core::units::format_thousands;
use rigplan::gui::App;
use rigplan::gui::text::EN;

/// The app with View → Advisor open on its first requirement, and the answer's Pareto front.
fn advisor_open() -> (Harness<'static, App>, Vec<rigplan::core::advisor::Candidate>) {
    let mut h = app_as_started(config());
    h.get_by_label("View").click();
    h.run();
    h.get_by_label(EN.advisor.menu_item).click();
    h.run();
    let front = state(&h).advised.as_ref().and_then(|a| a.advice()).expect("an advice").front.clone();
    (h, front)
}

#[test]
fn hovering_a_candidates_capex_and_wall_draw_shows_its_basis() {
    let (mut h, front) = advisor_open();
    let c = front[0].clone();
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

/// The workloads' figures explain themselves too (issue 15): the entry tier's LoRA run (1e8
/// tokens: hours = 10⁸ / (tokens/s × 3,600)) and its served tokens/s in the detail, and the
/// front plot's hover card gives the bases of the point's coordinates (capex and hours).
#[test]
fn a_candidates_speed_and_hours_explain_themselves_in_the_detail_and_the_plot() {
    use rigplan::core::advisor::explain::key;
    let (mut h, front) = advisor_open();
    let (first, last) = (front[0].clone(), front.last().unwrap().clone());
    let lora = &first.workloads[0];
    let tps = lora.train_tokens_per_s.expect("LoRA tokens/s");
    let hours = basis::find(&first.bases, &key(0, "hours")).expect("hours");
    assert!((hours.value - 1.0e8 / (tps * 3600.0)).abs() < 1e-9, "{}", hours.value);
    assert!(hours.substituted.starts_with("100,000,000 / ("), "{}", hours.substituted);
    let rate = basis::find(&first.bases, &key(0, "train_tokens_per_s")).expect("training rate").substituted.clone();
    assert!(
        hover_shows(&mut h, &format!("{} training tok/s", format_thousands(tps, 0)), &rate),
        "the LoRA rate: {rate}"
    );
    assert!(h.query_by_label_contains(&hours.substituted).is_some(), "and its hours");
    let served = first.workloads[1].served_tokens_per_s.expect("served tokens/s");
    let basis = basis::find(&first.bases, &key(1, "served_tokens_per_s")).expect("served").substituted.clone();
    assert!(
        hover_shows(&mut h, &format!("{} tok/s served", format_thousands(served, 0)), &basis),
        "the served rate: {basis}"
    );
    assert!(h.query_by_label_contains("aggregate = replicas × B / step time(B)").is_some());
    // The plot's card: the last point's capex and hours bases.
    let y = last.workloads[0].hours.expect("hours");
    let memory = egui_plot::PlotMemory::load(&h.ctx, egui::Id::unique(rigplan::gui::panels::advisor::FRONT_PLOT_ID))
        .expect("the plot was laid out");
    let at = memory.transform().position_from_point(&egui_plot::PlotPoint::new(last.capex, y));
    let capex = basis::find(last.report.basis(), "tco.capex").expect("capex").substituted.clone();
    let hours = basis::find(&last.bases, &key(0, "hours")).expect("hours").substituted.clone();
    h.hover_at(at);
    h.run();
    assert!(h.query_by_label(&format!("#{} {}", last.rank, last.build.name)).is_some(), "the card");
    assert!(h.query_by_label_contains(&capex).is_some(), "the capex basis: {capex}");
    assert!(h.query_by_label_contains(&hours).is_some(), "the hours basis: {hours}");
}
