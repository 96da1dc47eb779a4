//! Every figure of every tab explains itself, tab by tab, for the figures the first pass left
//! bare: the Summary's parts total, bill-of-materials quantities and custom costs; the
//! numbers a finding quotes in the Issues tab; the Thermal tab's GPU limits; the Memory &
//! speed tab's engine budget, KV cache and users at a per-user target; the TCO tab's energy
//! per planned run.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use rigplan::core::analysis::basis;
use rigplan::core::build::{Build, CostKind, CustomLine, PlannedWorkload};
use rigplan::core::templates::find;
use rigplan::core::units::format_thousands;
use rigplan::gui::command::Command;

type H = egui_kittest::Harness<'static, rigplan::gui::App>;

/// The entry workstation with a custom capex line (4 × 125) and a planned LoRA run of Llama
/// 3.1 8B on 10⁹ tokens.
fn workstation() -> Build {
    let mut b = find("entry-workstation").unwrap().load().unwrap();
    b.custom_lines.push(CustomLine {
        name: "Rack rails".to_owned(),
        amount: 125.0,
        quantity: 4,
        kind: CostKind::Capex,
    });
    b.usage.workload = Some(PlannedWorkload {
        model: "model/meta-llama-3.1-8b".to_owned(),
        workload: "lora-r16".to_owned(),
        run_tokens: Some(1.0e9),
    });
    b
}

fn with(build: &Build) -> (H, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let (h, _) = app_with(build, dir.path());
    (h, dir)
}

fn open_tab(h: &mut H, tab: &str) {
    h.get_by_label(tab).click();
    h.run();
}

fn substituted(h: &H, figure: &str) -> String {
    basis::find(state(h).derived.report.basis(), figure).unwrap_or_else(|| panic!("{figure}")).substituted.clone()
}

/// Presses and releases the primary button at `at` (a click, as the other kittest tests do).
fn click_at(h: &mut H, at: egui::Pos2) {
    h.drag_at(at);
    h.run();
    h.drop_at(at);
    h.run();
    h.run();
}

#[test]
fn the_summary_explains_the_parts_total_quantities_and_custom_costs() {
    let (mut h, _dir) = with(&workstation());
    open_tab(&mut h, "Summary");
    let parts = substituted(&h, "bom.parts_total");
    assert!(h.query_by_label_contains(&parts).is_none(), "nothing explained before hovering");
    assert!(hover_shows(&mut h, "Parts ", &parts), "the parts line: {parts}");
    assert!(h.query_by_label_contains("the priced part lines together").is_some());
    // A custom cost: 4 × 125.
    let custom = substituted(&h, "bom.custom_capex[0].amount");
    assert!(custom.starts_with("125.00 "), "{custom}");
    assert!(hover_shows(&mut h, "500", &custom), "the custom line's amount: {custom}");
    // A quantity: the GPU line's price basis writes quantity × nodes out.
    let report = state(&h).derived.report.clone();
    let (i, gpu) = report
        .bom
        .lines
        .iter()
        .enumerate()
        .find(|(_, l)| l.kind == Some(rigplan::core::catalog::PartKind::Gpu))
        .expect("a GPU line");
    let price = substituted(&h, &format!("bom.lines[{i}].extended_price"));
    let quantity = format_thousands(gpu.total_quantity as f64, 0);
    assert!(hover_shows(&mut h, &quantity, &price), "the GPU line's quantity {quantity}: {price}");
}

#[test]
fn a_finding_opens_the_figures_it_quotes() {
    // The entry workstation with a second RTX 4090: 1,182 W on its 1,000 W PSU.
    let mut b = find("entry-workstation").unwrap().load().unwrap();
    for line in &mut b.nodes[0].parts {
        if line.part.kind() == Some(rigplan::core::catalog::PartKind::Gpu) {
            line.quantity = 2;
        }
    }
    let (mut h, _dir) = with(&b);
    h.state_mut().state_mut().push(Command::SetTab(rigplan::gui::vocab::AnalysisTab::Issues));
    h.run();
    h.run();
    assert!(state(&h).derived.report.diagnostics.iter().any(|d| d.code.as_str() == "psu-capacity-low"));
    let load = substituted(&h, "power.nodes[0].psu_load_fraction");
    assert!(hover_shows(&mut h, "Where its numbers come from", &load), "the PSU finding's load: {load}");
    // A click pins the finding's figures.
    let at = h.get_all_by_label("Where its numbers come from").next().expect("a finding with figures").rect().center();
    let keys: Vec<String> = {
        let r = &state(&h).derived.report;
        r.diagnostics.iter().flat_map(|d| basis::findings::figures_of(d, r.basis())).collect()
    };
    click_at(&mut h, at);
    let pinned = state(&h).view.pinned_bases.clone();
    assert!(!pinned.is_empty() && pinned.iter().all(|k| keys.contains(k)), "{pinned:?} of {keys:?}");
    assert!(h.query_by_label("Where the numbers come from").is_some(), "the side panel opens");
    // Findings about no computed figure have no such line: a blank build's.
    h.state_mut().state_mut().push(Command::New(None));
    h.run();
    h.run();
    assert!(!state(&h).derived.report.diagnostics.is_empty());
    assert!(h.query_by_label("Where its numbers come from").is_none());
}

#[test]
fn the_thermal_tab_explains_each_gpu_limit() {
    let (mut h, _dir) = with(&workstation());
    open_tab(&mut h, "Thermal");
    let limit = substituted(&h, "thermal.nodes[0].gpus[0].max_temp_c");
    let max = state(&h).derived.report.thermal.nodes[0].gpus[0].max_temp_c;
    assert_eq!(limit, format!("T_max = {max:.0} °C"));
    assert!(hover_shows(&mut h, &format!("{max:.0} °C"), "the GPU's maximum operating temperature"), "{limit}");
    assert!(h.query_by_label_contains("datasheet value").is_some());
}

#[test]
fn the_tco_tab_explains_the_energy_of_a_planned_run() {
    let (mut h, _dir) = with(&workstation());
    open_tab(&mut h, "TCO");
    let kwh = state(&h).derived.report.tco.workload.as_ref().and_then(|w| w.run_energy_kwh).expect("a run");
    let run = substituted(&h, "tco.workload.run_energy_kwh");
    assert!(run.ends_with(&format!("{} kWh", format_thousands(kwh, 1))), "{run}");
    assert!(hover_shows(&mut h, &format!("{kwh:.1} kWh"), &run), "{run}");
    assert!(h.query_by_label_contains("energy of one run of the planned workload").is_some());
}

#[test]
fn the_memory_tab_explains_the_engine_budget_and_the_kv_cache() {
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1500.0, 6000.0))
        .build_eframe(move |cc| rigplan::gui::App::new(cc, config()));
    h.run();
    open_tab(&mut h, "Memory & speed");
    let cell = rigplan::gui::derived::FitSel { matrix: 0, row: 0, col: 0 };
    h.state_mut().state_mut().push(Command::SelectFitCell(Some(cell)));
    h.run();
    h.run();
    let detail = state(&h).cell_detail.clone().expect("the cell is evaluated");
    let budget = basis::find(&detail.bases, "fit.budget_bytes").expect("an inference cell explains its budget");
    assert_eq!(budget.formula_id, "mem-budget");
    assert!(hover_shows(&mut h, " of each GPU", &budget.substituted), "{}", budget.substituted);
    let kv = basis::find(&detail.bases, "fit.serving.kv_budget_bytes").expect("and its KV cache").substituted.clone();
    assert!(hover_shows(&mut h, "KV cache: ", &kv), "{kv}");
}
