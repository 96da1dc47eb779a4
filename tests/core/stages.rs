//! The hardware stage holds every error of the full report: a drop check or an advisor
//! candidate that runs only compatibility, power and thermal sees the same errors.

use crate::export::catalog;
use rigplan::core::analysis::{self, Severity};
use rigplan::core::resolve::Resolved;
use rigplan::core::templates;

#[test]
fn the_full_report_adds_no_error_to_the_hardware_stage() {
    let mut builds: Vec<_> = templates::TEMPLATES.iter().map(|t| t.load().expect("template")).collect();
    // Each template with its planned workload pointed at a model too big for it, so that the
    // workload findings fire too.
    for b in builds.clone() {
        let mut b = b;
        b.usage.workload = Some(rigplan::core::build::PlannedWorkload {
            model: "model/meta-llama-3.1-405b".to_owned(),
            workload: "full-ft-zero3".to_owned(),
            run_tokens: Some(1.0e9),
        });
        builds.push(b);
    }
    for b in &builds {
        let report = analysis::analyze(catalog(), b);
        let hardware = analysis::check_hardware(&Resolved::new(catalog(), b));
        let errors = |d: &[analysis::Diagnostic]| {
            d.iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| (d.code.clone(), d.message.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(errors(&report.diagnostics), errors(&hardware.diagnostics), "{}", b.name);
        assert!(report.diagnostics.len() >= hardware.diagnostics.len());
    }
}

/// Identical node groups are analysed once and the result copied (`Resolved::twins`): the
/// copies equal what analysing every group gives, findings (messages in both languages, fixes,
/// lines, node indexes) and the compatibility, power and thermal sections alike.
#[test]
fn twin_node_groups_copied_equal_twin_node_groups_analysed() {
    use rigplan::core::build::{Build, Location, NodeGroup};
    use rigplan::core::i18n::Lang;
    let mut builds: Vec<Build> = templates::TEMPLATES.iter().map(|t| t.load().expect("template")).collect();
    for b in builds.clone() {
        // Three copies of each template's first group, one in between that differs (a node
        // group named like another's copy must not confuse the renaming), and one empty.
        let mut b = b;
        let first = b.nodes[0].clone();
        for name in ["Rack A", "Rack B"] {
            b.nodes.push(NodeGroup { name: name.to_owned(), ..first.clone() });
        }
        let mut other = NodeGroup { name: first.name.clone() + " (spare)", ..first.clone() };
        other.count += 1;
        b.nodes.insert(1, other);
        b.nodes.push(NodeGroup::new("Empty 1"));
        b.nodes.push(NodeGroup::new("Empty 2"));
        let n = b.nodes.len();
        b.add_part(Location::Node(n - 1), &rigplan::core::catalog::PartId::from("gpu/nvidia-rtx-4090"), 1).ok();
        builds.push(b);
    }
    let mut with_twins = 0;
    for b in &builds {
        let mut resolved = Resolved::new(catalog(), b);
        with_twins += resolved.twins.iter().flatten().count();
        let copied = analysis::check_hardware(&resolved);
        resolved.twins.iter_mut().for_each(|t| *t = None);
        let analysed = analysis::check_hardware(&resolved);
        assert_eq!(copied.diagnostics, analysed.diagnostics, "{}", b.name);
        for (c, a) in copied.diagnostics.iter().zip(&analysed.diagnostics) {
            assert_eq!(c.message_in(Lang::ZhCn), a.message_in(Lang::ZhCn));
            assert_eq!(c.fix_in(Lang::ZhCn), a.fix_in(Lang::ZhCn));
        }
        assert_eq!(json(&copied.compat), json(&analysed.compat), "{}", b.name);
        assert_eq!(json(&copied.power), json(&analysed.power), "{}", b.name);
        assert_eq!(json(&copied.thermal), json(&analysed.thermal), "{}", b.name);
    }
    assert!(with_twins >= 2 * templates::TEMPLATES.len(), "the copies are twins: {with_twins}");
}

/// A section as JSON, to compare sections that have no `PartialEq`.
fn json<T: serde::Serialize>(section: &T) -> String {
    serde_json::to_string(section).expect("a report section serializes")
}

/// The fit matrices of identical node groups are copies of the first one's (renamed and
/// re-indexed), equal to what building each group's matrix gives.
#[test]
fn twin_node_groups_fit_matrices_equal_analysed() {
    use rigplan::core::analysis::fit;
    use rigplan::core::build::NodeGroup;
    let mut copied_any = 0;
    for t in templates::TEMPLATES {
        let mut b = t.load().expect("template");
        let first = b.nodes[0].clone();
        for name in ["Rack A", "Rack B"] {
            b.nodes.push(NodeGroup { name: name.to_owned(), ..first.clone() });
        }
        let mut resolved = Resolved::new(catalog(), &b);
        let copied = fit::build_fit(&resolved);
        resolved.twins.iter_mut().for_each(|t| *t = None);
        let built = fit::build_fit(&resolved);
        assert_eq!(json(&copied), json(&built), "{}", b.name);
        assert_eq!(
            copied.iter().filter(|m| m.node_name == "Rack B").count(),
            built.iter().filter(|m| m.node_name == "Rack B").count()
        );
        copied_any += copied.iter().filter(|m| m.node_name.starts_with("Rack ")).count();
    }
    assert!(copied_any >= 2, "the templates with GPUs have copied matrices: {copied_any}");
}

/// An id the catalog does not know is reported for every node group that has it, the groups
/// identical to the first included (their parts are not copied from a group with unknowns).
#[test]
fn twin_node_groups_report_their_own_unknown_parts() {
    use rigplan::core::build::{Location, NodeGroup};
    use rigplan::core::catalog::PartId;
    let mut b = templates::TEMPLATES[0].load().expect("template");
    b.add_part(Location::Node(0), &PartId::from("gpu/no-such-card"), 1).ok();
    let first = b.nodes[0].clone();
    b.nodes.push(NodeGroup { name: "Copy".to_owned(), ..first });
    let resolved = Resolved::new(catalog(), &b);
    assert_eq!(resolved.twins.last(), Some(&Some(0)));
    assert_eq!(resolved.unknown.len(), 2, "{:?}", resolved.unknown);
    let report = analysis::analyze(catalog(), &b);
    let unknown: Vec<_> = report.diagnostics.iter().filter(|d| d.code == "unknown-part").map(|d| d.node).collect();
    assert_eq!(unknown, vec![Some(0), Some(b.nodes.len() - 1)]);
}
