//! Identical node groups analysed once.
//!
//! A cluster is usually many groups of one server design: the per-node analyses
//! (compatibility rules, PSU findings, airflow and GPU temperatures) find the same for each,
//! but for the group's index and name. [`per_node`] analyses the first group of each design
//! ([`Resolved::twins`]) and copies its result and findings to the groups identical to it,
//! renamed and re-indexed ([`Diagnostic::moved_to`]). `tests/core/stages.rs` checks that the
//! copies equal what analysing each group would give.

use super::Diagnostic;
use crate::core::resolve::{Node, Resolved};

/// `analyse` on every node group that has no earlier twin, its result and findings copied to
/// those that do; `moved` makes a twin's result about the other group. Findings go to `out`
/// in node order, as if every group had been analysed.
pub(crate) fn per_node<'r, T>(
    resolved: &'r Resolved<'_>,
    out: &mut Vec<Diagnostic>,
    mut analyse: impl FnMut(&'r Node<'_>, &mut Vec<Diagnostic>) -> T,
    moved: impl Fn(&T, &Node<'_>) -> T,
) -> Vec<T> {
    let mut results: Vec<T> = Vec::with_capacity(resolved.nodes.len());
    let mut spans: Vec<std::ops::Range<usize>> = Vec::with_capacity(resolved.nodes.len());
    for node in &resolved.nodes {
        let start = out.len();
        let twin = resolved.twins.get(node.index).copied().flatten();
        let copied = twin.and_then(|j| Some((resolved.nodes.get(j)?, results.get(j)?, spans.get(j)?.clone())));
        let result = match copied {
            Some((first, result, span)) => {
                let found: Vec<Diagnostic> =
                    out.get(span).unwrap_or_default().iter().map(|d| d.moved_to(first, node)).collect();
                out.extend(found);
                moved(result, node)
            }
            None => analyse(node, out),
        };
        results.push(result);
        spans.push(start..out.len());
    }
    results
}
