//! Every suggested fix names a control that exists, or is one click (issue 17, point 11): the
//! NVLink bridges and PSU redundancy that findings' fixes name are options of the node's
//! header, and the Issues tab sets them in one click.

use crate::common::*;
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use rigplan::core::build::Redundancy;
use rigplan::gui::command::Command;
use rigplan::gui::vocab::AnalysisTab;

fn has(h: &egui_kittest::Harness<'static, rigplan::gui::App>, code: &str) -> bool {
    state(h).derived.report.diagnostics.iter().any(|d| d.code.as_str() == code)
}

#[test]
fn a_findings_node_option_is_a_control_of_the_node_and_one_click_away() {
    let dir = tempfile::tempdir().unwrap();
    let b = rigplan::core::templates::find("professional-2x-a100").unwrap().load().unwrap();
    let (mut h, _) = app_with(&b, dir.path());
    assert!(!build(&h).nodes[0].nvlink_bridge);
    let finding = state(&h)
        .derived
        .report
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "nvlink-bridge-available")
        .cloned()
        .expect("two A100 PCIe without bridges");
    assert!(finding.fix.as_deref().unwrap().contains("NVLink bridges"), "the fix names the control: {:?}", finding.fix);
    // The control the fix names is in the node's header.
    let checkbox = || h.get_by(|n| n.role() == Role::CheckBox && n.label().as_deref() == Some("NVLink bridges"));
    let _ = checkbox();
    // One click in the Issues tab carries the fix out.
    h.state_mut().state_mut().push(Command::SetTab(AnalysisTab::Issues));
    h.run();
    h.get_by_label("Turn NVLink bridges on").click();
    h.run();
    assert!(build(&h).nodes[0].nvlink_bridge);
    assert!(!has(&h, "nvlink-bridge-available"), "fixed");
    assert!(h.query_by_label("Turn NVLink bridges on").is_none());
    // The checkbox turns them off again, and undo brings them back.
    h.get_by(|n| n.role() == Role::CheckBox && n.label().as_deref() == Some("NVLink bridges")).click();
    h.run();
    assert!(!build(&h).nodes[0].nvlink_bridge);
    assert!(has(&h, "nvlink-bridge-available"));
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!(build(&h).nodes[0].nvlink_bridge, "an undoable edit");
}

#[test]
fn psu_redundancy_is_chosen_in_the_nodes_header() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = rigplan::core::templates::find("professional-2x-a100").unwrap().load().unwrap();
    b.nodes[0].psu_redundancy = Redundancy::NPlusN;
    let (mut h, _) = app_with(&b, dir.path());
    let combo = h.get_by(|n| n.role() == Role::ComboBox && n.label().as_deref() == Some("PSU redundancy"));
    combo.click();
    h.run();
    h.get_by(|n| n.label().as_deref() == Some("None") && n.role() != Role::ComboBox).click();
    h.run();
    assert_eq!(build(&h).nodes[0].psu_redundancy, Redundancy::None);
}
