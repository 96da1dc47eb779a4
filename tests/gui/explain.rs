//! Every figure explains itself: hovering a figure of the Summary, Power, Thermal, Memory &
//! speed and TCO tabs shows its formula with the build's numbers; a click pins it into the side
//! panel, whose close button unpins it.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use rigplan::core::analysis::basis;
use rigplan::core::templates::find;

fn entry_workstation() -> (egui_kittest::Harness<'static, rigplan::gui::App>, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let b = find("entry-workstation").unwrap().load().unwrap();
    let (h, _) = app_with(&b, dir.path());
    (h, dir)
}

fn open_tab(h: &mut egui_kittest::Harness<'static, rigplan::gui::App>, tab: &str) {
    h.get_by_label(tab).click();
    h.run();
}

/// Hovers each widget whose label contains `label` until one shows `expected`.
fn hover_at_shows(
    h: &mut egui_kittest::Harness<'static, rigplan::gui::App>,
    label: &str,
    expected: &str,
) -> Option<egui::Pos2> {
    let centers: Vec<egui::Pos2> = h.get_all_by_label_contains(label).map(|n| n.rect().center()).collect();
    for c in centers {
        h.hover_at(c);
        h.run();
        if h.query_by_label_contains(expected).is_some() {
            return Some(c);
        }
    }
    None
}

fn hover_shows(h: &mut egui_kittest::Harness<'static, rigplan::gui::App>, label: &str, expected: &str) -> bool {
    hover_at_shows(h, label, expected).is_some()
}

/// The substituted formula of a figure of the cached report.
fn substituted(h: &egui_kittest::Harness<'static, rigplan::gui::App>, figure: &str) -> String {
    basis::find(state(h).derived.report.basis(), figure).expect("the report explains it").substituted.clone()
}

#[test]
fn hovering_a_power_figure_shows_its_formula_with_the_build_numbers_and_a_click_pins_it() {
    let (mut h, _dir) = entry_workstation();
    open_tab(&mut h, "Power");
    let p = state(&h).derived.report.power.clone();
    // Entry workstation: 732 W DC at max through a Gold PSU at 90.6 % = 807 W at the wall.
    let node = substituted(&h, "power.nodes[0].wall_watts");
    assert_eq!(node, "732 W / 0.906 = 807 W");
    assert!(h.query_by_label_contains(&node).is_none(), "nothing explained before hovering");
    let value = format!("max {} W", rigplan::core::units::format_thousands(p.wall_watts, 0));
    let at = h.get_by_label_contains(&value).rect().center();
    h.hover_at(at);
    h.run();
    assert!(h.query_by_label_contains(&node).is_some(), "the hover shows the node's substitution");
    assert!(h.query_all_by_label_contains("P_wall = P_dc(PSU-fed) / η").count() >= 1, "and the formula");
    assert!(h.query_all_by_label_contains("calibrated estimate, typical error ±").count() >= 1);
    assert!(state(&h).view.pinned_bases.is_empty(), "a hover pins nothing");
    h.drag_at(at);
    h.run();
    h.drop_at(at);
    h.run();
    h.run();
    let pinned = &state(&h).view.pinned_bases;
    assert!(pinned.contains(&"power.wall_watts".to_owned()), "{pinned:?}");
    assert!(pinned.contains(&"power.nodes[0].wall_watts".to_owned()), "{pinned:?}");
    assert!(h.query_by_label("Where the numbers come from").is_some(), "the side panel opens");
    assert!(h.query_by_label("power.nodes[0].wall_watts").is_some(), "with the pinned figure");
    // Closing every pinned explanation closes the panel.
    for _ in 0..4 {
        let Some(close) = h.query_all_by_label("Close").next().map(|n| n.rect().center()) else { break };
        h.drag_at(close);
        h.run();
        h.drop_at(close);
        h.run();
        h.run();
    }
    assert!(state(&h).view.pinned_bases.is_empty());
    assert!(h.query_by_label("Where the numbers come from").is_none());
}

#[test]
fn a_power_gauge_explains_the_psu_load() {
    let (mut h, _dir) = entry_workstation();
    open_tab(&mut h, "Power");
    let load = substituted(&h, "power.nodes[0].psu_load_fraction");
    assert_eq!(load, "732 W / 1,000 W = 73.2 %");
    assert!(hover_shows(&mut h, "1,000 W", &load), "{load}");
}

#[test]
fn the_summary_thermal_and_tco_tabs_explain_their_figures() {
    let (mut h, _dir) = entry_workstation();
    // Summary: the wall draw.
    open_tab(&mut h, "Summary");
    let wall = substituted(&h, "power.wall_watts");
    assert!(hover_shows(&mut h, "807 W", &wall), "{wall}");
    // Thermal: heat = wall draw, and its BTU/h.
    open_tab(&mut h, "Thermal");
    let btu = substituted(&h, "thermal.heat_btu_per_hour");
    assert_eq!(btu, "3.412 × 807 W = 2,755 BTU/h");
    assert!(hover_shows(&mut h, "2,755 BTU/h", &btu));
    // TCO: the owned total over the horizon.
    open_tab(&mut h, "TCO");
    let owned = substituted(&h, "tco.totals.owned");
    let value = &state(&h).derived.report.tco.totals.owned;
    assert!(owned.ends_with(&format!("{} CNY", rigplan::core::units::format_thousands(*value, 0))), "{owned}");
    let shown = rigplan::gui::text::money_whole(state(&h).texts, *value, &state(&h).derived.report.tco.currency);
    assert!(hover_shows(&mut h, &shown, &owned), "{shown}: {owned}");
    assert!(h.query_by_label_contains("owned = capex + opex × years − value at the horizon").is_some());
}

#[test]
fn a_fit_cell_explains_its_decode_speed() {
    // A window tall enough for the whole fit matrix, so that the cell's detail below it is on
    // screen to hover.
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::vec2(1500.0, 6000.0))
        .build_eframe(move |cc| rigplan::gui::App::new(cc, config()));
    h.run();
    open_tab(&mut h, "Memory & speed");
    // A matrix cell's hover says how its figures are computed; selecting it substitutes them.
    let first = &state(&h).derived.report.fit[0].rows[0].cells[0];
    let label = format!("{:.0} GiB", first.per_gpu_total_bytes.expect("the first model fits").gib());
    let at = h.get_all_by_label(&label).map(|n| n.rect().center()).min_by(|a, b| a.y.total_cmp(&b.y)).unwrap();
    h.hover_at(at);
    h.run();
    assert!(h.query_by_label_contains("total = weights + KV + activations").is_some());
    assert!(h.query_by_label("Select the cell to see these formulas with its numbers.").is_some());
    let cell = rigplan::gui::derived::FitSel { matrix: 0, row: 0, col: 0 };
    h.state_mut().state_mut().push(rigplan::gui::command::Command::SelectFitCell(Some(cell)));
    h.run();
    h.run();
    let detail = state(&h).cell_detail.clone().expect("the cell is evaluated");
    let decode = basis::find(&detail.bases, "fit.decode_tokens_per_s").expect("an inference cell explains decode");
    assert_eq!(decode.formula_id, "speed-decode");
    let text = decode.substituted.clone();
    let at = hover_at_shows(&mut h, "Decode ", &text).expect("the cell's decode speed explains itself");
    // A click there pins it.
    h.drag_at(at);
    h.run();
    h.drop_at(at);
    h.run();
    h.run();
    assert!(state(&h).view.pinned_bases.contains(&"fit.decode_tokens_per_s".to_owned()));
    assert!(h.query_by_label("fit.decode_tokens_per_s").is_some(), "pinned in the side panel");
}

#[test]
fn the_side_panel_speaks_chinese_and_a_figure_the_build_lost_says_so() {
    use rigplan::gui::command::Command;
    let (mut h, _dir) = entry_workstation();
    h.state_mut().state_mut().push(Command::SetLanguage(rigplan::core::i18n::Lang::ZhCn));
    h.state_mut().state_mut().push(Command::PinBasis("power.wall_watts".to_owned()));
    h.state_mut().state_mut().push(Command::PinBasis("power.nodes[7].wall_watts".to_owned()));
    h.run();
    h.run();
    assert!(h.query_by_label("数据来源").is_some());
    assert!(h.query_by_label("墙插功耗：节点从插座取用的功率").is_some());
    assert!(h.query_all_by_label_contains("校准估算，典型误差 ±").count() >= 1);
    assert!(h.query_by_label("当前配置已没有这项数据。").is_some(), "a key the build does not have");
    // Pinning the same figure twice keeps one.
    h.state_mut().state_mut().push(Command::PinBasis("power.wall_watts".to_owned()));
    h.run();
    assert_eq!(state(&h).view.pinned_bases.len(), 2);
}

/// One source of truth: a calibrated figure's hover gives the typical error Help ▸ Accuracy…
/// shows for its class (the power class for the wall draw), to the same decimal.
#[test]
fn a_hover_gives_the_typical_error_help_accuracy_shows() {
    use rigplan::core::i18n::Lang;
    use rigplan::core::reference::Class;
    let (mut h, _dir) = entry_workstation();
    h.get_by_label("Help").click();
    h.run();
    h.get_by_label("Accuracy…").click();
    h.run();
    let view = state(&h).accuracy.clone().expect("computed on opening");
    let power = view.accuracy.class(Class::Power).expect("power measurements").clone();
    let pct = format!("{:.1} %", power.mean_abs_error * 100.0);
    let line = h.get_by_label_contains(&format!("{}: mean error", Class::Power.name(Lang::En))).value().expect("text");
    assert!(line.contains(&format!("mean error {pct} over {} measurements", power.count)), "{line}");
    h.get_by_label("Close window").click();
    h.run();
    open_tab(&mut h, "Power");
    let wall =
        format!("max {} W", rigplan::core::units::format_thousands(state(&h).derived.report.power.wall_watts, 0));
    let expected = format!("typical error ±{pct} (mean over {} published measurements)", power.count);
    assert!(hover_shows(&mut h, &wall, &expected), "the wall draw's hover: {expected}");
}
