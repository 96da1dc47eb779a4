//! Data derived from the document, computed when its revision changes (never inside a
//! panel): the analysis report, each node's slot layout, and, while something is being
//! dragged, the verdict of every drop target.

use crate::core::analysis::{self, Report};
use crate::core::build::{Build, Location};
use crate::core::catalog::Catalog;
use crate::core::placement::{self, NodeSlots, Target, Verdict};
use crate::core::resolve::Resolved;
use crate::gui::command::{DragPayload, DropTarget};
use std::collections::HashMap;

/// The report and layouts of one revision of the build.
#[derive(Clone, Debug)]
pub struct Derived {
    /// The document revision these were computed for.
    pub revision: u64,
    pub report: Report,
    /// Slot layout per node group, in build order.
    pub slots: Vec<NodeSlots>,
    /// Figures per node group, in build order.
    pub nodes: Vec<NodeSummary>,
}

/// A node card's headline figures (per node, not × count).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeSummary {
    /// Capex of one node of the group, in the build's currency (priced lines only).
    pub capex: f64,
    pub gpus: u32,
    pub gpu_memory_gib: f64,
}

impl Derived {
    /// Analyzes the build and lays out its nodes.
    #[must_use]
    pub fn compute(catalog: &Catalog, build: &Build, revision: u64) -> Self {
        let report = analysis::analyze(catalog, build);
        let resolved = Resolved::new(catalog, build);
        let slots = (0..build.nodes.len()).map(|i| placement::node_slots(&resolved, i).unwrap_or_default()).collect();
        let nodes = resolved
            .nodes
            .iter()
            .map(|n| NodeSummary {
                capex: report
                    .bom
                    .lines
                    .iter()
                    .filter(|l| l.location == Location::Node(n.index))
                    .filter_map(|l| l.unit_price.map(|p| p * f64::from(l.quantity_per_node)))
                    .sum(),
                gpus: n.parts.gpu_count(),
                gpu_memory_gib: n.parts.gpu_memory_gib(),
            })
            .collect();
        Self { revision, report, slots, nodes }
    }
}

/// The verdict of every drop target for one payload and one revision.
#[derive(Clone, Debug)]
pub struct DropPreview {
    pub revision: u64,
    pub payload: DragPayload,
    pub verdicts: HashMap<DropTarget, Verdict>,
}

impl DropPreview {
    /// Checks every target the canvas shows: each node, its slot groups and PCIe slots, and
    /// the cluster area. A slot group's edit is the same as its node's, so it reuses the
    /// node's verdict after its own kind check.
    #[must_use]
    pub fn compute(catalog: &Catalog, build: &Build, derived: &Derived, payload: DragPayload) -> Self {
        let before = &derived.report.diagnostics;
        let check = |target: Target| -> Verdict {
            match &payload {
                DragPayload::Catalog(part) => placement::check_add(catalog, build, before, target, part, 1),
                DragPayload::Line { from, line, quantity, .. } => {
                    let units = if matches!(target, Target::PcieSlot { .. }) { 1 } else { *quantity };
                    placement::check_move(catalog, build, before, *from, *line, target, units)
                }
            }
        };
        let mut verdicts = HashMap::new();
        let same_place = |t: Target| matches!(&payload, DragPayload::Line { from, .. } if *from == t.location());
        for (i, slots) in derived.slots.iter().enumerate() {
            let node = Target::Node(i);
            // Moving a line onto its own node is not a change: no verdict, no highlight.
            let node_verdict = (!same_place(node)).then(|| check(node));
            if let Some(v) = &node_verdict {
                verdicts.insert(DropTarget::Place(node), v.clone());
            }
            for group in &slots.groups {
                let target = Target::Slots { node: i, kind: group.kind };
                let verdict = match placement::target_accepts(catalog, target, payload.part()) {
                    Err(reason) => Some(Verdict::Refuse(vec![reason])),
                    Ok(()) => node_verdict.clone(),
                };
                if let Some(v) = verdict {
                    verdicts.insert(DropTarget::Place(target), v);
                }
            }
            let layout = derived.report.compat.layouts.iter().find(|l| l.node == i);
            for slot in layout.map(|l| l.board_slots.as_slice()).unwrap_or_default() {
                let target = Target::PcieSlot { node: i, position: slot.position };
                verdicts.insert(DropTarget::Place(target), check(target));
            }
        }
        if !same_place(Target::Cluster) {
            verdicts.insert(DropTarget::Place(Target::Cluster), check(Target::Cluster));
        }
        if matches!(payload, DragPayload::Line { .. }) {
            verdicts.insert(DropTarget::Trash, Verdict::Accept);
        }
        Self { revision: derived.revision, payload, verdicts }
    }
}

/// True when a finding is about a build line.
#[must_use]
pub fn finding_touches(report: &Report, finding: usize, at: Location, line: usize) -> bool {
    report.diagnostics.get(finding).is_some_and(|d| d.lines.iter().any(|l| l.location == at && l.line == line))
}

/// True when a finding is about a node group as a whole or any of its lines.
#[must_use]
pub fn finding_touches_node(report: &Report, finding: usize, node: usize) -> bool {
    report
        .diagnostics
        .get(finding)
        .is_some_and(|d| d.node == Some(node) || d.lines.iter().any(|l| l.location == Location::Node(node)))
}
