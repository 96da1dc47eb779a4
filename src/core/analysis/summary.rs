//! The headline figures of a report: one summary that the app's Summary tab, every build
//! sheet and the comparison read, so that they never disagree.
//!
//! Theory of operation: [`Summary::of`] reads the finished sections of a [`Report`] (it
//! computes nothing the analyses did not): the totals of power and heat, the least thermal
//! headroom, the count of findings, the models that fit, and the TCO against the cloud
//! option the report compares with (its primary option) and against the cheapest one.
//!
//! Conventions, chosen once for every front end:
//! - a model *fits* a build when any GPU group (one GPU type of one node group, a fit matrix)
//!   fits it under at least one standard workload of the kind counted (inference, or
//!   fine-tuning); a build with a big and a small GPU group, in one node or in two, counts
//!   what the big group fits, and the count of each group is given beside it;
//! - the TCO headline is the report's primary option (the one break-even is computed
//!   against); the cheapest option is named beside it with its term, so a spot price is never
//!   mistaken for on-demand.

use super::bom::Bom;
use super::diagnostic::{Diagnostic, Severity};
use super::fit::{FitMatrix, FitRow, WorkloadKind};
use super::power::PowerReport;
use super::tco::{Tco, Term};
use super::thermal::ThermalReport;
use crate::core::catalog::{Catalog, ModelId, PartId};
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Whether the build has errors, only warnings, or neither.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompatStatus {
    Ok,
    Warnings,
    Errors,
}

impl CompatStatus {
    /// The stable id JSON uses (`ok`, `warnings`, `errors`).
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Warnings => "warnings",
            Self::Errors => "errors",
        }
    }
}

/// Findings by severity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CompatSummary {
    pub status: CompatStatus,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

impl CompatSummary {
    /// Counts the findings of a report.
    #[must_use]
    pub fn of(diagnostics: &[Diagnostic]) -> Self {
        let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
        let (errors, warnings, infos) = (count(Severity::Error), count(Severity::Warning), count(Severity::Info));
        let status = if errors > 0 {
            CompatStatus::Errors
        } else if warnings > 0 {
            CompatStatus::Warnings
        } else {
            CompatStatus::Ok
        };
        Self { status, errors, warnings, infos }
    }
}

/// The largest model that fits, with the workload it fits under.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LargestModel {
    pub model: ModelId,
    pub name: String,
    pub params: u64,
    pub workload: WorkloadKind,
}

/// How many catalog models the build runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitSummary {
    /// Catalog models evaluated.
    pub models: usize,
    /// Models that fit (or fit tightly) on some node group for at least one inference workload.
    pub inference_models: usize,
    /// Models that fit on some node group for at least one fine-tuning workload (LoRA,
    /// QLoRA, full).
    pub finetune_models: usize,
    pub largest_inference: Option<LargestModel>,
    pub largest_finetune: Option<LargestModel>,
    /// What each GPU group fits, in build order; groups with identical rows (same GPU,
    /// count and links) are one entry.
    pub groups: Vec<GroupFit>,
}

/// What one GPU group runs: the models its fit matrix fits.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GroupFit {
    /// The group's first fit matrix (index into the report's `fit`).
    pub matrix: usize,
    pub node_name: String,
    pub gpu_name: String,
    pub gpus_per_node: u32,
    pub nodes: u32,
    /// Further node groups with the same GPU group (their rows are this one's).
    pub alike: usize,
    pub inference_models: usize,
    pub finetune_models: usize,
}

/// One cloud option at a glance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionSummary {
    /// `<offer>:<term>`.
    pub id: String,
    pub label: String,
    pub term: Term,
    /// Total over the horizon, build currency.
    pub total: f64,
}

/// The TCO at a glance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TcoSummary {
    pub horizon_years: f64,
    pub months: u32,
    pub utilization: f64,
    /// Owned total over the horizon, net of the value at the horizon.
    pub owned_total: f64,
    /// The option the report compares against (`<offer>:<term>`), its label and total.
    pub primary_option: Option<String>,
    pub primary_label: Option<String>,
    pub primary_total: Option<f64>,
    /// The cheapest option over the horizon (which may be the primary one, or a spot price).
    pub cheapest: Option<OptionSummary>,
    /// Month in which owning has cost as much as the primary option; `None` if never.
    pub break_even_month: Option<f64>,
    pub break_even_within_horizon: bool,
    /// The build's planned workload (`usage.workload`): cost and energy per million tokens and
    /// per run.
    pub workload: Option<super::tco::WorkloadCost>,
}

/// The GPU with the least temperature headroom.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GpuHeadroom {
    pub node: usize,
    pub gpu: PartId,
    pub name: String,
    pub headroom_c: f64,
}

/// The CPU cooler with the least headroom.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CoolerHeadroom {
    pub node: usize,
    pub cpu: PartId,
    pub name: String,
    pub headroom_watts: f64,
}

/// The headline figures of one report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub nodes: u64,
    pub gpus: u64,
    /// Capex of the priced lines and custom capex with surcharges (the TCO's capex).
    pub capex: f64,
    pub unpriced_lines: usize,
    pub wall_watts: f64,
    pub wall_typical_watts: f64,
    pub wall_idle_watts: f64,
    /// Sum over node groups of the recommended PSU capacity × node count.
    pub recommended_psu_watts: f64,
    pub heat_watts: f64,
    pub heat_btu_per_hour: f64,
    pub cooling_tons: f64,
    pub worst_gpu_headroom: Option<GpuHeadroom>,
    pub worst_cooler_headroom: Option<CoolerHeadroom>,
    pub compatibility: CompatSummary,
    /// `None` when the build has no GPUs.
    pub fit: Option<FitSummary>,
    pub tco: TcoSummary,
}

/// The sections of a report a summary reads.
pub struct Sections<'a> {
    pub nodes: u64,
    pub gpus: u64,
    pub bom: &'a Bom,
    pub fit: &'a [FitMatrix],
    pub power: &'a PowerReport,
    pub thermal: &'a ThermalReport,
    pub tco: &'a Tco,
    pub diagnostics: &'a [Diagnostic],
}

impl Summary {
    /// The summary of a report's sections; `catalog` gives the models' names and sizes and
    /// the CPUs' names.
    #[must_use]
    pub fn of(catalog: &Catalog, r: &Sections<'_>) -> Self {
        let worst_gpu_headroom = r
            .thermal
            .nodes
            .iter()
            .flat_map(|n| n.gpus.iter().map(move |g| (n.node, g)))
            .min_by(|a, b| a.1.headroom_c.total_cmp(&b.1.headroom_c))
            .map(|(node, g)| GpuHeadroom { node, gpu: g.part.clone(), name: g.name.clone(), headroom_c: g.headroom_c });
        let worst_cooler_headroom = r
            .thermal
            .nodes
            .iter()
            .flat_map(|n| n.cpus.iter().map(move |c| (n.node, c)))
            .filter_map(|(node, c)| c.headroom_watts.map(|h| (node, c, h)))
            .min_by(|a, b| a.2.total_cmp(&b.2))
            .map(|(node, c, headroom_watts)| CoolerHeadroom {
                node,
                cpu: c.cpu.clone(),
                name: catalog.get(&c.cpu).map_or_else(|| c.cpu.to_string(), |p| p.name().to_owned()),
                headroom_watts,
            });
        let p = r.power;
        let t = r.thermal;
        Self {
            nodes: r.nodes,
            gpus: r.gpus,
            capex: r.tco.capex,
            unpriced_lines: r.bom.unpriced_lines,
            wall_watts: p.wall_watts,
            wall_typical_watts: p.wall_typical_watts,
            wall_idle_watts: p.wall_idle_watts,
            recommended_psu_watts: p.recommended_psu_watts,
            heat_watts: t.heat_watts,
            heat_btu_per_hour: t.heat_btu_per_hour,
            cooling_tons: t.cooling_tons,
            worst_gpu_headroom,
            worst_cooler_headroom,
            compatibility: CompatSummary::of(r.diagnostics),
            fit: fit_summary(r.fit, catalog),
            tco: tco_summary(r.tco),
        }
    }
}

fn tco_summary(tco: &Tco) -> TcoSummary {
    let primary = tco.primary_option.as_ref().and_then(|id| tco.options.iter().find(|o| &o.input.id == id));
    let cheapest = tco.options.iter().min_by(|a, b| a.total.total_cmp(&b.total)).map(|o| OptionSummary {
        id: o.input.id.clone(),
        label: o.input.label.clone(),
        term: o.input.term,
        total: o.total,
    });
    TcoSummary {
        horizon_years: tco.horizon_years,
        months: tco.months,
        utilization: tco.utilization,
        owned_total: tco.totals.owned,
        primary_option: tco.primary_option.clone(),
        primary_label: primary.map(|o| o.input.label.clone()),
        primary_total: primary.map(|o| o.total),
        cheapest,
        break_even_month: tco.break_even_month,
        break_even_within_horizon: tco.break_even_within_horizon,
        workload: tco.workload.clone(),
    }
}

/// For each model, the workloads it fits under on any of the build's node groups (every
/// model of the matrices is a key, with an empty list when nothing fits), in workload order.
#[must_use]
pub fn fitting_workloads(fit: &[FitMatrix]) -> BTreeMap<&ModelId, Vec<WorkloadKind>> {
    let mut out: BTreeMap<&ModelId, Vec<WorkloadKind>> = BTreeMap::new();
    // Node groups of one GPU and topology share their rows: count each set once.
    let mut seen: Vec<&Arc<Vec<FitRow>>> = Vec::new();
    for matrix in fit {
        if seen.iter().any(|r| Arc::ptr_eq(r, &matrix.rows)) {
            continue;
        }
        seen.push(&matrix.rows);
        for row in matrix.rows.iter() {
            let entry = out.entry(&row.model).or_default();
            for cell in &row.cells {
                if cell.verdict.is_some_and(super::memory::Verdict::fits) && !entry.contains(&cell.workload) {
                    entry.push(cell.workload);
                }
            }
        }
    }
    for workloads in out.values_mut() {
        workloads.sort_unstable();
    }
    out
}

fn fit_summary(fit: &[FitMatrix], catalog: &Catalog) -> Option<FitSummary> {
    if fit.is_empty() {
        return None;
    }
    let fitting = fitting_workloads(fit);
    let mut inference_models = 0;
    let mut finetune_models = 0;
    let mut largest_inference: Option<LargestModel> = None;
    let mut largest_finetune: Option<LargestModel> = None;
    // Catalog order, so ties in parameter count resolve the same way every time.
    for model in catalog.models.iter() {
        let Some(workloads) = fitting.get(&model.id) else { continue };
        let consider = |slot: &mut Option<LargestModel>, workload: WorkloadKind| {
            let params = model.total_params();
            if slot.as_ref().is_none_or(|l| params > l.params) {
                *slot = Some(LargestModel { model: model.id.clone(), name: model.name.clone(), params, workload });
            }
        };
        // Workload order: bf16 before Q4_K_M, LoRA before QLoRA before full.
        if let Some(&w) = workloads.iter().find(|w| w.is_inference()) {
            inference_models += 1;
            consider(&mut largest_inference, w);
        }
        if let Some(&w) = workloads.iter().find(|w| !w.is_inference()) {
            finetune_models += 1;
            consider(&mut largest_finetune, w);
        }
    }
    Some(FitSummary {
        models: fitting.len(),
        inference_models,
        finetune_models,
        largest_inference,
        largest_finetune,
        groups: group_fits(fit),
    })
}

/// The models each GPU group fits, a group of shared rows counted once.
fn group_fits(fit: &[FitMatrix]) -> Vec<GroupFit> {
    let mut out: Vec<GroupFit> = Vec::new();
    for (i, m) in fit.iter().enumerate() {
        if let Some(same) = out.iter_mut().find(|g| fit.get(g.matrix).is_some_and(|f| Arc::ptr_eq(&f.rows, &m.rows))) {
            same.alike += 1;
            continue;
        }
        let fits = |row: &FitRow, inference: bool| {
            row.cells
                .iter()
                .any(|c| c.workload.is_inference() == inference && c.verdict.is_some_and(super::memory::Verdict::fits))
        };
        out.push(GroupFit {
            matrix: i,
            node_name: m.node_name.clone(),
            gpu_name: m.gpu_name.clone(),
            gpus_per_node: m.gpus_per_node,
            nodes: m.nodes,
            alike: 0,
            inference_models: m.rows.iter().filter(|r| fits(r, true)).count(),
            finetune_models: m.rows.iter().filter(|r| fits(r, false)).count(),
        });
    }
    out
}
