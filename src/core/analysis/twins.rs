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
        let result = if let Some((first, result, span)) = copied {
            let found: Vec<Diagnostic> =
                out.get(span).unwrap_or_default().iter().map(|d| d.moved_to(first, node)).collect();
            out.extend(found);
            moved(result, node)
        } else {
            let result = analyse(node, out);
            // In the final order already, so that the copies are too and the report's sort
            // ([`super::diagnostic::sort`]) merges runs instead of sorting from scratch.
            if let Some(found) = out.get_mut(start..) {
                found.sort_by(super::diagnostic::order);
            }
            let later_twins = resolved.twins.iter().filter(|t| **t == Some(node.index)).count();
            out.reserve((out.len() - start) * later_twins);
            result
        };
        results.push(result);
        spans.push(start..out.len());
    }
    results
}

/// `analyse` on every node group that has no earlier twin, its result copied to those that
/// do (`moved` makes it about the other group): for the per-node results that carry no
/// findings (power draw, fit matrices).
pub(crate) fn per_group<'r, T>(
    resolved: &'r Resolved<'_>,
    mut analyse: impl FnMut(&'r Node<'_>) -> T,
    moved: impl Fn(&T, &Node<'_>) -> T,
) -> Vec<T> {
    let mut results: Vec<T> = Vec::with_capacity(resolved.nodes.len());
    for node in &resolved.nodes {
        let twin = resolved.twins.get(node.index).copied().flatten().and_then(|j| results.get(j));
        let result = match twin {
            Some(first) => moved(first, node),
            None => analyse(node),
        };
        results.push(result);
    }
    results
}

/// A list in a report that the copies of a node group's result share
/// ([`per_node`], [`per_group`]): copying it is a reference count, not a copy of every
/// element. It reads as a slice (`iter`, `len`, indexing, `for x in &list`) and serializes as
/// a JSON array.
#[derive(Debug, serde::Serialize)]
#[serde(transparent)]
pub struct Shared<T>(std::sync::Arc<[T]>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Self(std::sync::Arc::clone(&self.0))
    }
}

impl<T> Default for Shared<T> {
    fn default() -> Self {
        Self(std::sync::Arc::new([]))
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T> From<Vec<T>> for Shared<T> {
    fn from(v: Vec<T>) -> Self {
        Self(v.into())
    }
}

impl<T> FromIterator<T> for Shared<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}

impl<'a, T> IntoIterator for &'a Shared<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl<T: PartialEq> PartialEq<Vec<T>> for Shared<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        *self.0 == **other
    }
}
