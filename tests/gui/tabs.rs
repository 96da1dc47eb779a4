//! The analysis panel: every tab renders for every build, and the Issues tab lists what the
//! core reports.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use rigplan::core::analysis;
use rigplan::core::build::{Build, Location, NodeGroup};
use rigplan::core::catalog::PartId;
use rigplan::gui::state::AnalysisTab;

/// The builds every tab must render: blank, one GPU, an unknown part, several nodes, and a
/// build with one of every catalog part in a node and in the cluster section.
fn builds() -> Vec<Build> {
    let catalog = rigplan::core::catalog::Catalog::embedded().unwrap();
    let mut one = Build::new("One GPU");
    one.add_part(Location::Node(0), &PartId::from(RTX_4090), 1).unwrap();
    let mut unknown = Build::new("Unknown part");
    unknown.add_part(Location::Node(0), &PartId::from("gpu/not-in-the-catalog"), 2).unwrap();
    let mut many = Build::new("Many nodes");
    for i in 2..=6 {
        let mut n = NodeGroup::new(format!("Node {i}"));
        n.count = i;
        many.add_node(n).unwrap();
    }
    let mut everything = Build::new("Everything");
    for part in catalog.all_parts() {
        everything.add_part(Location::Node(0), part.id(), 1).unwrap();
        everything.add_part(Location::Cluster, part.id(), 1).unwrap();
    }
    vec![Build::new("Blank"), one, unknown, many, everything]
}

#[test]
fn every_tab_renders_for_every_build() {
    for b in builds() {
        let dir = tempfile::tempdir().unwrap();
        let (mut h, _) = app_with(&b, dir.path());
        for tab in AnalysisTab::ALL {
            let label = match tab {
                AnalysisTab::Summary => "Summary".to_owned(),
                AnalysisTab::Issues => format!("Issues ({})", state(&h).derived.report.diagnostics.len()),
            };
            h.get_by_label(&label).click();
            h.run();
            assert_eq!(state(&h).prefs.analysis_tab, tab, "{}", b.name);
        }
    }
}

#[test]
fn the_issues_tab_lists_the_core_findings_and_highlights_their_parts() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Build::new("Unknown parts");
    b.add_part(Location::Node(0), &PartId::from(RTX_4090), 1).unwrap();
    b.add_part(Location::Node(0), &PartId::from("gpu/not-in-the-catalog"), 1).unwrap();
    b.add_part(Location::Cluster, &PartId::from("switch/not-either"), 1).unwrap();
    let report = analysis::analyze(&rigplan::core::catalog::Catalog::embedded().unwrap(), &b);
    let unknown: Vec<usize> =
        report.diagnostics.iter().enumerate().filter(|(_, d)| d.code == "unknown-part").map(|(i, _)| i).collect();
    assert_eq!(unknown.len(), 2, "the core reports both unknown ids");
    let (mut h, _) = app_with(&b, dir.path());
    h.get_by_label(&format!("Issues ({})", report.diagnostics.len())).click();
    h.run();
    for d in &report.diagnostics {
        assert!(h.query_by_label(&d.message).is_some(), "{} is listed", d.message);
        assert!(h.get_all_by_label(&d.code).count() >= 1);
    }
    let i = unknown[0];
    let finding = &report.diagnostics[i];
    h.get_by_label(&finding.message).click();
    h.run();
    assert_eq!(state(&h).view.highlight, Some(i));
    let line = &finding.lines[0];
    assert!(rigplan::gui::derived::finding_touches(&state(&h).derived.report, i, line.location, line.line));
    // Clicking it again clears the highlight.
    h.get_by_label(&finding.message).click();
    h.run();
    assert_eq!(state(&h).view.highlight, None);
}

#[test]
fn the_summary_shows_the_report_figures() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Build::new("Two cards");
    b.add_part(Location::Node(0), &PartId::from(RTX_4090), 2).unwrap();
    b.nodes[0].count = 3;
    let (h, _) = app_with(&b, dir.path());
    // 2 cards × 3 nodes × 1,599 USD launch MSRP = 9,594 USD.
    assert!(h.query_by_label("9,594 USD").is_some());
    assert!(h.query_by_label("Bill of materials").is_some());
    assert_eq!(h.get_all_by_label("3 nodes · 6 GPUs").count(), 2);
}
