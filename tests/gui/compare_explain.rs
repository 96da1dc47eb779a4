//! The compare view's figures explain themselves (issue 15): hovering a cell shows the basis
//! of that figure from that build's own report, with that build's numbers.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use rigplan::core::analysis::basis;
use rigplan::gui::command::Command;

type H = egui_kittest::Harness<'static, rigplan::gui::App>;

/// The substituted formula of `figure` in compared build `i`'s report.
fn substituted(h: &H, i: usize, figure: &str) -> String {
    let reports = &state(h).compared.as_ref().expect("compared").reports;
    basis::find(reports[i].basis(), figure).expect("the report explains it").substituted.clone()
}

/// Compare view of the AMD entry workstation (current, A) against the Intel one (B), in a
/// window `height` tall (the plots sit below the table).
fn comparing_two(height: f32) -> H {
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1500.0, height))
        .build_eframe(move |cc| rigplan::gui::App::new(cc, config()));
    h.run();
    h.state_mut().state_mut().push(Command::ShowView(rigplan::gui::state::MainView::Compare));
    h.state_mut().state_mut().push(Command::CompareAddCurrent);
    h.state_mut().state_mut().push(Command::CompareAddTemplate("entry-workstation-intel"));
    h.run();
    h.run();
    h
}

#[test]
fn hovering_a_compare_cell_shows_that_builds_formula() {
    let mut h = comparing_two(950.0);
    let c = state(&h).compared.as_ref().and_then(|c| c.comparison()).cloned().expect("a comparison");
    assert_eq!(state(&h).compared.as_ref().unwrap().reports.len(), 2, "one report per build");
    // Capex: the Intel build's (B) is the best value; its hover is B's capex sum.
    let capex = c.row("capex").unwrap();
    let b_capex = substituted(&h, 1, "tco.capex");
    let a_capex = substituted(&h, 0, "tco.capex");
    assert_ne!(a_capex, b_capex);
    assert!(h.query_by_label_contains(&b_capex).is_none(), "nothing before hovering");
    let at = h.get_by_label(&format!("{} (best)", capex.text[1])).rect().center();
    h.hover_at(at);
    h.run();
    assert!(h.query_by_label_contains(&b_capex).is_some(), "B's capex: {b_capex}");
    assert!(h.query_by_label_contains(&a_capex).is_none(), "not A's");
    assert!(h.query_by_label_contains("capex = Σ price × quantity × nodes").is_some(), "with the formula");
    // A wall-power cell of A: A's wall draw.
    let wall = c.row("wall-max").unwrap();
    let a_wall = substituted(&h, 0, "power.wall_watts");
    let cells: Vec<egui::Pos2> = h.get_all_by_label_contains(&wall.text[0]).map(|n| n.rect().center()).collect();
    let shown = cells.into_iter().any(|p| {
        h.hover_at(p);
        h.run();
        h.query_by_label_contains(&a_wall).is_some()
    });
    assert!(shown, "A's wall draw: {a_wall}");
    assert!(h.query_by_label_contains("P_wall = P_dc(PSU-fed) / η").is_some());
}

/// Hovering the compare view's cost plot names the curve under the pointer (a build's owned
/// or cloud cost) at that month and shows that build's basis of its total.
#[test]
fn hovering_the_compare_cost_plot_explains_a_builds_curve() {
    let mut h = comparing_two(4000.0);
    let heading = h.get_by_label("Cumulative cost: owned (solid) against each build's cloud option (dashed)").rect();
    let save = save_button_below(&h, heading.bottom());
    let mut explained = 0;
    for up in [60.0, 120.0, 180.0, 240.0] {
        h.hover_at(egui::pos2(heading.center().x, save.top() - up));
        h.run();
        let Some(line) = h.query_all_by_label_contains(" at month ").next().and_then(|n| n.value()) else { continue };
        let owned = line.contains(" owned at month ");
        let formula = if owned { "owned = capex + opex × years" } else { "cloud = price per hour" };
        assert!(h.query_by_label_contains(formula).is_some(), "{line}: {formula}");
        explained += 1;
    }
    assert!(explained > 0, "hovering the plot explains a curve");
}

/// Hovering a bar of the compare view's wall-power plot names the build and level and shows
/// that build's wall-draw basis.
#[test]
fn hovering_a_compare_power_bar_explains_that_builds_wall_draw() {
    let mut h = comparing_two(4000.0);
    let heading = h.get_by_label(rigplan::gui::text::EN.compare_power_bars).rect();
    let save = save_button_below(&h, heading.bottom());
    // Low in the plot, across it: some point is on a bar.
    let a_wall = substituted(&h, 0, "power.wall_watts");
    let b_wall = substituted(&h, 1, "power.wall_watts");
    let mut found = false;
    let mut x = heading.left();
    while x < save.right() && !found {
        h.hover_at(egui::pos2(x, save.top() - 45.0));
        h.run();
        found = h.query_by_label_contains(&a_wall).is_some() || h.query_by_label_contains(&b_wall).is_some();
        x += 15.0;
    }
    assert!(found, "a bar explains its build's wall draw");
    assert!(h.query_by_label_contains("P_wall = P_dc(PSU-fed) / η").is_some(), "with the formula");
}

/// The fit and speed rows explain themselves too (they used to say "open the build"): A's
/// bf16 decode cell shows the decode basis of the fit cell the row read, its LoRA time for
/// 1B tokens is 10⁹ / (tokens/s × 3,600), and a fit count lists the models counted.
#[test]
fn hovering_a_fit_or_speed_cell_shows_the_cell_it_was_read_from() {
    let mut h = comparing_two(2600.0);
    let c = state(&h).compared.as_ref().and_then(|c| c.comparison()).cloned().expect("a comparison");
    let decode = c.row("decode-bf16").unwrap();
    let key = &decode.basis_keys[0][0];
    assert!(key.starts_with("fit[0].rows[") && key.ends_with(".decode_tokens_per_s"), "{key}");
    let text = substituted(&h, 0, key);
    assert!(text.starts_with("1 / ("), "{text}");
    assert!(hover_shows(&mut h, &decode.text[0], &text), "A's decode: {text}");
    assert!(h.query_by_label_contains("tokens/s = b / (bytes read / (η × bandwidth)").is_some(), "with the formula");
    // Hours for 1B tokens, from A's LoRA throughput.
    let rate = c.row("train-lora").unwrap().values[0].expect("A trains LoRA");
    let hours = c.row("time-lora").unwrap();
    assert_eq!(hours.text[0], rigplan::core::units::format_thousands(1.0e9 / rate / 3600.0, 1));
    let text = substituted(&h, 0, &hours.basis_keys[0][0]);
    assert!(text.starts_with("1,000,000,000 / ("), "{text}");
    assert!(hover_shows(&mut h, &hours.text[0], &text), "A's hours: {text}");
    // The models that fit bf16 inference on A's RTX 4090, counted from its matrix.
    let reports = &state(&h).compared.as_ref().unwrap().reports;
    let fits = reports[0].fit[0]
        .rows
        .iter()
        .filter(|r| {
            r.cells.iter().any(|c| {
                c.workload.id() == "inference-bf16-4k"
                    && c.verdict.is_some_and(rigplan::core::analysis::memory::Verdict::fits)
            })
        })
        .count();
    let row = c.row("fit-inference-bf16-4k").unwrap();
    assert_eq!(row.values[0], Some(fits as f64));
    let text = substituted(&h, 0, &row.basis_keys[0][0]);
    assert!(text.starts_with(&format!("{fits} of ")), "{text}");
    assert!(hover_shows(&mut h, &row.text[0], &text), "A's count: {text}");
}
