//! One summary per report: the build sheet and the comparison show exactly the report's
//! summary, and a model counts as fitting when any node group of the build fits it.

use crate::export::{catalog, template};
use rigplan::core::analysis::memory::Verdict;
use rigplan::core::analysis::{self, summary::fitting_workloads};
use rigplan::core::build::{NodeGroup, PartLine};
use rigplan::core::catalog::PartId;
use rigplan::core::compare::{self, CompareOptions};
use rigplan::core::export::{BuildSheet, SheetDate};
use rigplan::core::templates;

#[test]
fn the_sheet_shows_the_reports_summary_on_every_template() {
    let date = SheetDate::parse("2025-01-15").expect("date");
    for t in templates::TEMPLATES {
        let build = t.load().expect("template loads");
        let report = analysis::analyze(catalog(), &build);
        let sheet = BuildSheet::new(&build, &report, date);
        assert_eq!(sheet.summary.headline, report.summary, "{}", t.slug);
        let s = &report.summary;
        // Read off the sections, not computed again.
        assert!((s.wall_watts - report.power.wall_watts).abs() < f64::EPSILON, "{}", t.slug);
        assert!((s.capex - report.tco.capex).abs() < f64::EPSILON, "{}", t.slug);
        assert_eq!(s.tco.primary_option, report.tco.primary_option, "{}", t.slug);
        let cheapest = report.tco.options.iter().map(|o| o.total).fold(f64::INFINITY, f64::min);
        if let Some(c) = &s.tco.cheapest {
            assert!((c.total - cheapest).abs() < 1e-9, "{}", t.slug);
        }
    }
}

#[test]
fn the_comparison_reads_the_same_summary() {
    let a = template("entry-workstation");
    let b = template("professional-2x-a100");
    let c = compare::compare(catalog(), &[&a, &b], &CompareOptions::default()).expect("compares");
    for (build, label) in [(&a, "A"), (&b, "B")] {
        let s = analysis::analyze(catalog(), build).summary;
        let column = c.builds.iter().position(|x| x.label == label).expect("column");
        let value = |row: &str| c.row(row).expect(row).values[column];
        assert_eq!(value("capex"), Some(s.capex), "{label} capex");
        assert_eq!(value("tco-owned"), Some(s.tco.owned_total), "{label} owned");
        assert_eq!(value("tco-cloud"), s.tco.primary_total, "{label} cloud");
        assert_eq!(value("wall-max"), Some(s.wall_watts), "{label} wall");
        let fit = s.fit.expect("GPUs");
        assert_eq!(value("largest-inference"), fit.largest_inference.map(|l| l.params as f64 / 1e9), "{label}");
    }
}

#[test]
fn a_model_fits_the_build_when_any_node_group_fits_it() {
    // The 8 × H100 server with a second node group holding one 16 GB card: the small group fits
    // fewer models, but the build still runs everything the big group runs.
    let mut build = template("enterprise-8x-h100-hgx");
    let alone = analysis::analyze(catalog(), &build).summary.fit.expect("GPUs");
    let mut small = NodeGroup::new("Small box");
    small.parts.push(PartLine::new(PartId::new("gpu/nvidia-geforce-rtx-4060-ti-16gb"), 1));
    build.nodes.push(small);
    let report = analysis::analyze(catalog(), &build);
    assert_eq!(report.fit.len(), 2, "a fit matrix per GPU group");
    let both = report.summary.fit.expect("GPUs");
    assert_eq!(both.inference_models, alone.inference_models);
    assert_eq!(both.finetune_models, alone.finetune_models);
    // The count is the union over groups: the small group alone fits fewer.
    let small_only: usize = report.fit[1]
        .rows
        .iter()
        .filter(|r| r.cells.iter().any(|c| c.workload.is_inference() && c.verdict.is_some_and(Verdict::fits)))
        .count();
    assert!(small_only < both.inference_models, "{small_only} < {}", both.inference_models);
    let union = fitting_workloads(&report.fit).values().filter(|w| w.iter().any(|w| w.is_inference())).count();
    assert_eq!(union, both.inference_models);
}

#[test]
fn a_small_card_in_the_node_of_a_big_one_does_not_lower_the_count() {
    // Issue 17: the count fell (24 → 22) when a small GPU was added beside a big one, because a
    // node mixing types was evaluated on one of them only (the last of equal counts: the small
    // one). Two A100 80 GB with two 16 GB cards in the same node: each type is its own GPU group.
    let mut build = template("professional-2x-a100");
    let alone = analysis::analyze(catalog(), &build).summary.fit.expect("GPUs");
    assert_eq!(alone.groups.len(), 1);
    assert_eq!(alone.groups[0].gpus_per_node, 2);
    assert_eq!(alone.groups[0].inference_models, alone.inference_models, "one group: its count is the build's");
    build.nodes[0].parts.push(PartLine::new(PartId::new("gpu/nvidia-geforce-rtx-4060-ti-16gb"), 2));
    let report = analysis::analyze(catalog(), &build);
    assert_eq!(report.fit.len(), 2, "a fit matrix per GPU type of the node");
    assert_eq!(report.fit[0].node, report.fit[1].node);
    assert_eq!((report.fit[0].gpus_per_node, report.fit[1].gpus_per_node), (2, 2));
    assert!(report.fit[0].gpu_name.contains("A100"), "{}", report.fit[0].gpu_name);
    let both = report.summary.fit.expect("GPUs");
    assert_eq!(both.inference_models, alone.inference_models);
    assert_eq!(both.finetune_models, alone.finetune_models);
    assert_eq!(both.largest_inference, alone.largest_inference);
    // Each group's own count: the A100 pair's is the build's, the small pair fits fewer.
    assert_eq!(both.groups.len(), 2);
    let (big, small) = (&both.groups[0], &both.groups[1]);
    assert_eq!((big.matrix, small.matrix), (0, 1));
    assert_eq!(big.inference_models, alone.inference_models);
    assert!(small.inference_models < big.inference_models, "{} < {}", small.inference_models, big.inference_models);
    assert!(small.finetune_models < big.finetune_models);
}

#[test]
fn identical_gpu_groups_are_counted_once_with_their_number() {
    let mut build = template("entry-workstation");
    build.nodes.push(build.nodes[0].clone());
    let fit = analysis::analyze(catalog(), &build).summary.fit.expect("GPUs");
    assert_eq!(fit.groups.len(), 1, "{:?}", fit.groups);
    assert_eq!(fit.groups[0].alike, 1, "the second node group is the first one's twin");
    assert_eq!(fit.groups[0].inference_models, fit.inference_models);
}
