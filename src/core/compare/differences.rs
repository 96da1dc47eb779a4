//! What differs between the builds beyond the rows: the fit-matrix cells whose verdicts
//! differ and the parts whose quantities differ.

use super::{Analysed, FitDifference, PartDifference};
use crate::core::analysis::bom::category_label_in;
use crate::core::analysis::fit::WorkloadKind;
use crate::core::analysis::memory::Verdict;
use crate::core::catalog::{Catalog, PartId, PartKind};
use crate::core::i18n::Lang;
use std::collections::BTreeMap;

pub(super) fn fit_differences(analysed: &[Analysed<'_>], catalog: &Catalog) -> Vec<FitDifference> {
    let mut out = Vec::new();
    for model in catalog.models.iter() {
        for w in WorkloadKind::ALL {
            let verdicts: Vec<Option<Verdict>> = analysed
                .iter()
                .map(|a| {
                    a.report
                        .fit
                        .iter()
                        .filter_map(|m| m.rows.iter().find(|r| r.model == model.id))
                        .filter_map(|r| r.cells.iter().find(|c| c.workload == w))
                        .filter_map(|c| c.verdict)
                        .min()
                })
                .collect();
            if verdicts.windows(2).any(|p| matches!(p, [a, b] if a != b)) {
                out.push(FitDifference {
                    model: model.id.clone(),
                    model_name: model.name.clone(),
                    workload: w,
                    verdicts,
                });
            }
        }
    }
    out
}

/// The parts whose total quantities differ, their categories named in `lang`.
pub(super) fn parts_difference(analysed: &[Analysed<'_>], lang: Lang) -> Vec<PartDifference> {
    struct Entry {
        name: String,
        kind: Option<PartKind>,
        quantities: Vec<u64>,
    }
    let n = analysed.len();
    let mut parts: BTreeMap<&PartId, Entry> = BTreeMap::new();
    for (i, a) in analysed.iter().enumerate() {
        for line in &a.report.bom.lines {
            let e = parts.entry(&line.part).or_insert_with(|| Entry {
                name: line.name.clone(),
                kind: line.kind,
                quantities: vec![0; n],
            });
            if let Some(q) = e.quantities.get_mut(i) {
                *q = q.saturating_add(line.total_quantity);
            }
        }
    }
    let order =
        |k: Option<PartKind>| k.and_then(|k| PartKind::ALL.iter().position(|x| *x == k)).unwrap_or(PartKind::ALL.len());
    let mut differing: Vec<(&PartId, Entry)> =
        parts.into_iter().filter(|(_, e)| e.quantities.windows(2).any(|w| matches!(w, [a, b] if a != b))).collect();
    // Catalog kind order (GPUs first, unknown parts last), then name and id: stable output.
    differing.sort_by(|(pa, a), (pb, b)| (order(a.kind), &a.name, pa).cmp(&(order(b.kind), &b.name, pb)));
    differing
        .into_iter()
        .map(|(part, e)| {
            let first = e.quantities.first().copied().unwrap_or(0);
            let signed = |q: u64| i64::try_from(q).unwrap_or(i64::MAX);
            PartDifference {
                part: part.clone(),
                name: e.name,
                category: category_label_in(e.kind, lang),
                deltas: e.quantities.iter().map(|&q| signed(q).saturating_sub(signed(first))).collect(),
                quantities: e.quantities,
            }
        })
        .collect()
}
