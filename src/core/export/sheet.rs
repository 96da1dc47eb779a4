//! The build sheet: what every export format shows, gathered once from a build and its report.
//!
//! Theory of operation: [`BuildSheet::new`] reads the analysed [`Report`] (it computes nothing
//! the analyses already computed) and arranges it for purchasing: one line per part line with
//! its price basis, the custom line items, the totals with tax, shipping and installation as
//! the TCO analysis computed them, and a summary of the headline results (wall power, heat,
//! compatibility, workload fit and the TCO against the primary cloud option). Every format
//! (CSV, XLSX, Markdown, HTML, JSON) renders this one structure, so they agree line by line.
//! Lists keep the build's order; nothing depends on the clock (the date is an argument).

use super::date::SheetDate;
use crate::core::analysis::Report;
use crate::core::analysis::Severity;
use crate::core::analysis::bom::PriceOrigin;
use crate::core::analysis::fit::WorkloadKind;
use crate::core::analysis::memory::Verdict;
use crate::core::build::{Build, CostKind};
use crate::core::catalog::{Catalog, ModelId, PartId, PartKind};
use crate::core::units::Currency;
use serde::Serialize;
use std::collections::BTreeMap;

/// The purchasing category of a part kind, as a sheet prints it.
#[must_use]
pub fn category_label(kind: Option<PartKind>) -> &'static str {
    match kind {
        Some(PartKind::Gpu) => "GPU",
        Some(PartKind::Cpu) => "CPU",
        Some(PartKind::Motherboard) => "Motherboard",
        Some(PartKind::Memory) => "Memory",
        Some(PartKind::Storage) => "Storage",
        Some(PartKind::Psu) => "PSU",
        Some(PartKind::Cooler) => "Cooler",
        Some(PartKind::Chassis) => "Chassis",
        Some(PartKind::Nic) => "NIC",
        Some(PartKind::Switch) => "Switch",
        Some(PartKind::System) => "System",
        None => "Unknown part",
    }
}

/// Where a line's unit price came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PriceBasis {
    /// The catalog's dated USD price at the build's exchange rate.
    Catalog,
    /// The build's price override.
    Override,
    /// No price known: the line is not in the totals.
    None,
}

impl PriceBasis {
    /// Short text for a table cell.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Catalog => "catalog",
            Self::Override => "override",
            Self::None => "no price",
        }
    }
}

/// One part line of the sheet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetLine {
    /// The node group's name, or "Cluster".
    pub group: String,
    /// Purchasing category ([`category_label`]).
    pub category: &'static str,
    pub kind: Option<PartKind>,
    pub vendor: String,
    /// The catalog name; for a part the catalog does not know, its id.
    pub name: String,
    pub part: PartId,
    pub sku: Option<String>,
    pub quantity_per_node: u32,
    pub node_count: u32,
    pub total_quantity: u64,
    /// In the sheet's currency.
    pub unit_price: Option<f64>,
    pub extended_price: Option<f64>,
    /// The catalog price's date (`YYYY-MM` or `YYYY-MM-DD`); none for overrides.
    pub price_date: Option<String>,
    pub price_basis: PriceBasis,
    /// The catalog entry's `source`, or the override's note.
    pub source: String,
}

/// A custom line item of the build.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetCustomLine {
    pub name: String,
    /// `capex` lines are in the totals; `opex_per_year` lines are running costs (in the TCO).
    pub kind: CustomKind,
    pub quantity: u32,
    pub unit_amount: f64,
    pub amount: f64,
}

/// A custom line's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CustomKind {
    Capex,
    OpexPerYear,
}

impl CustomKind {
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Capex => "capex",
            Self::OpexPerYear => "per year",
        }
    }
}

/// A percentage surcharge on the parts total.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Surcharge {
    pub percent: f64,
    pub amount: f64,
}

/// The sheet's totals, in its currency (as the TCO analysis computes capex).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetTotals {
    /// Sum of the priced part lines.
    pub parts: f64,
    /// Sum of the custom capex lines.
    pub custom: f64,
    /// Present when the build's cost settings set a percentage.
    pub tax: Option<Surcharge>,
    pub shipping: Option<Surcharge>,
    pub installation: Option<Surcharge>,
    /// parts × (1 + tax % + shipping % + installation %) + custom.
    pub capex: f64,
    /// Custom running costs per year (not in capex).
    pub custom_opex_per_year: f64,
    /// Part lines with no price, left out of the totals.
    pub unpriced_lines: usize,
}

/// Compatibility at a glance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompatSummary {
    /// `ok`, `warnings` or `errors`: the most severe finding's class.
    pub status: &'static str,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

/// The largest catalog model that fits, and under which standard workload.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LargestModel {
    pub model: ModelId,
    pub name: String,
    pub params: u64,
    /// Workload id (`inference-bf16-4k`, …).
    pub workload: &'static str,
}

/// Workload fit at a glance: over the catalog's models and the standard workloads, on any of
/// the build's node groups.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitSummary {
    /// Catalog models evaluated.
    pub models: usize,
    /// Models that fit (or fit tightly) for at least one inference workload.
    pub inference_models: usize,
    /// Models that fit for at least one fine-tuning workload (LoRA, QLoRA, full).
    pub finetune_models: usize,
    pub largest_inference: Option<LargestModel>,
    pub largest_finetune: Option<LargestModel>,
}

/// The TCO at a glance, against the primary cloud option.
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
    /// Month in which owning has cost as much as the primary option; `None` if never.
    pub break_even_month: Option<f64>,
    pub break_even_within_horizon: bool,
}

/// A finding a buyer must see before ordering (errors and warnings; notes stay in the report).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetFinding {
    pub severity: Severity,
    pub code: String,
    pub message: String,
    pub fix: Option<String>,
}

/// The headline results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetSummary {
    pub nodes: u64,
    pub gpus: u64,
    pub wall_watts: f64,
    pub wall_typical_watts: f64,
    pub wall_idle_watts: f64,
    /// Sum over node groups of the recommended PSU capacity × node count.
    pub recommended_psu_watts: f64,
    pub heat_watts: f64,
    pub heat_btu_per_hour: f64,
    pub cooling_tons: f64,
    pub compatibility: CompatSummary,
    /// The errors and warnings, most severe first.
    pub findings: Vec<SheetFinding>,
    /// `None` when the build has no GPUs.
    pub fit: Option<FitSummary>,
    pub tco: TcoSummary,
}

/// Everything a build sheet shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BuildSheet {
    pub build_name: String,
    pub description: String,
    pub date: SheetDate,
    pub currency: Currency,
    /// Units of `currency` per USD, the rate catalog prices were converted at.
    pub usd_exchange_rate: f64,
    pub lines: Vec<SheetLine>,
    pub custom_lines: Vec<SheetCustomLine>,
    pub totals: SheetTotals,
    pub summary: SheetSummary,
    /// Caveats a buyer must read (unpriced lines, unknown parts), in sentences.
    pub notes: Vec<String>,
}

/// A percentage only when it is set.
fn surcharge(percent: f64, amount: f64) -> Option<Surcharge> {
    (percent > 0.0).then_some(Surcharge { percent, amount })
}

impl BuildSheet {
    /// Gathers the sheet of `build` from its `report` (from [`crate::core::analysis::analyze`]
    /// on the same catalog and build). `catalog` gives the models' parameter counts; `date` is
    /// printed on the sheet.
    #[must_use]
    pub fn new(build: &Build, report: &Report, catalog: &Catalog, date: SheetDate) -> Self {
        let bom = &report.bom;
        let lines: Vec<SheetLine> = bom
            .lines
            .iter()
            .map(|l| {
                let (price_date, price_basis, source) = match &l.price_origin {
                    PriceOrigin::Catalog { date, .. } => {
                        (Some(date.clone()).filter(|d| !d.is_empty()), PriceBasis::Catalog, l.source.clone())
                    }
                    PriceOrigin::Override { note } => (None, PriceBasis::Override, note.clone()),
                    PriceOrigin::Missing => (None, PriceBasis::None, l.source.clone()),
                };
                SheetLine {
                    group: l.group.clone(),
                    category: category_label(l.kind),
                    kind: l.kind,
                    vendor: l.vendor.clone(),
                    name: l.name.clone(),
                    part: l.part.clone(),
                    sku: l.sku.clone(),
                    quantity_per_node: l.quantity_per_node,
                    node_count: l.node_count,
                    total_quantity: l.total_quantity,
                    unit_price: l.unit_price,
                    extended_price: l.extended_price,
                    price_date,
                    price_basis,
                    source,
                }
            })
            .collect();
        let custom_lines: Vec<SheetCustomLine> = build
            .custom_lines
            .iter()
            .map(|c| SheetCustomLine {
                name: c.name.clone(),
                kind: match c.kind {
                    CostKind::Capex => CustomKind::Capex,
                    CostKind::OpexPerYear => CustomKind::OpexPerYear,
                },
                quantity: c.quantity,
                unit_amount: c.amount,
                amount: c.amount * f64::from(c.quantity),
            })
            .collect();
        let tco = &report.tco;
        let c = &tco.capex_lines;
        let totals = SheetTotals {
            parts: c.parts,
            custom: c.custom,
            tax: surcharge(build.costs.tax_percent, c.tax),
            shipping: surcharge(build.costs.shipping_percent, c.shipping),
            installation: surcharge(build.costs.installation_percent, c.installation),
            capex: tco.capex,
            custom_opex_per_year: custom_lines
                .iter()
                .filter(|l| l.kind == CustomKind::OpexPerYear)
                .map(|l| l.amount)
                .sum(),
            unpriced_lines: bom.unpriced_lines,
        };
        let mut notes = Vec::new();
        if bom.unpriced_lines > 0 {
            notes.push(format!(
                "{} part line(s) have no price and are not in the totals; get a quote for them.",
                bom.unpriced_lines
            ));
        }
        let unknown = lines.iter().filter(|l| l.kind.is_none()).count();
        if unknown > 0 {
            notes.push(format!(
                "{unknown} part line(s) name parts the catalog does not know; they are listed by id and left out of every figure."
            ));
        }
        Self {
            build_name: build.name.clone(),
            description: build.description.clone(),
            date,
            currency: bom.currency.clone(),
            usd_exchange_rate: bom.usd_exchange_rate,
            lines,
            custom_lines,
            totals,
            summary: summary(report, catalog),
            notes,
        }
    }
}

fn summary(report: &Report, catalog: &Catalog) -> SheetSummary {
    let p = &report.power;
    let t = &report.thermal;
    let errors = report.count(Severity::Error);
    let warnings = report.count(Severity::Warning);
    let tco = &report.tco;
    let primary = tco.primary_option.as_ref().and_then(|id| tco.options.iter().find(|o| &o.input.id == id));
    SheetSummary {
        nodes: report.nodes,
        gpus: report.gpus,
        wall_watts: p.wall_watts,
        wall_typical_watts: p.wall_typical_watts,
        wall_idle_watts: p.wall_idle_watts,
        recommended_psu_watts: p.recommended_psu_watts,
        heat_watts: t.heat_watts,
        heat_btu_per_hour: t.heat_btu_per_hour,
        cooling_tons: t.cooling_tons,
        compatibility: CompatSummary {
            status: if errors > 0 {
                "errors"
            } else if warnings > 0 {
                "warnings"
            } else {
                "ok"
            },
            errors,
            warnings,
            infos: report.count(Severity::Info),
        },
        findings: report
            .diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .map(|d| SheetFinding {
                severity: d.severity,
                code: d.code.clone(),
                message: d.message.clone(),
                fix: d.fix.clone(),
            })
            .collect(),
        fit: fit_summary(report, catalog),
        tco: TcoSummary {
            horizon_years: tco.horizon_years,
            months: tco.months,
            utilization: tco.utilization,
            owned_total: tco.totals.owned,
            primary_option: tco.primary_option.clone(),
            primary_label: primary.map(|o| o.input.label.clone()),
            primary_total: primary.map(|o| o.total),
            break_even_month: tco.break_even_month,
            break_even_within_horizon: tco.break_even_within_horizon,
        },
    }
}

/// True for the workloads that only run a model (no training).
#[must_use]
pub fn is_inference(workload: &str) -> bool {
    workload == WorkloadKind::InferenceBf16.id() || workload == WorkloadKind::InferenceQ4km.id()
}

/// For each model, the workloads it fits under on any of the build's node groups.
#[must_use]
pub fn fitting_workloads(report: &Report) -> BTreeMap<&ModelId, Vec<&'static str>> {
    let mut out: BTreeMap<&ModelId, Vec<&'static str>> = BTreeMap::new();
    for matrix in &report.fit {
        for row in &matrix.rows {
            let entry = out.entry(&row.model).or_default();
            for cell in &row.cells {
                if cell.verdict.is_some_and(Verdict::fits) && !entry.contains(&cell.workload) {
                    entry.push(cell.workload);
                }
            }
        }
    }
    out
}

fn fit_summary(report: &Report, catalog: &Catalog) -> Option<FitSummary> {
    if report.fit.is_empty() {
        return None;
    }
    let fitting = fitting_workloads(report);
    let mut inference_models = 0;
    let mut finetune_models = 0;
    let mut largest_inference: Option<LargestModel> = None;
    let mut largest_finetune: Option<LargestModel> = None;
    // Catalog order, so ties in parameter count resolve the same way every time.
    for model in catalog.models.iter() {
        let Some(workloads) = fitting.get(&model.id) else { continue };
        let consider = |slot: &mut Option<LargestModel>, workload: &'static str| {
            let params = model.total_params();
            if slot.as_ref().is_none_or(|l| params > l.params) {
                *slot = Some(LargestModel { model: model.id.clone(), name: model.name.clone(), params, workload });
            }
        };
        // Standard workload order: bf16 before Q4_K_M, LoRA before QLoRA before full.
        let ordered = || WorkloadKind::ALL.into_iter().map(WorkloadKind::id).filter(|w| workloads.contains(w));
        if let Some(w) = ordered().find(|w| is_inference(w)) {
            inference_models += 1;
            consider(&mut largest_inference, w);
        }
        if let Some(w) = ordered().find(|w| !is_inference(w)) {
            finetune_models += 1;
            consider(&mut largest_finetune, w);
        }
    }
    Some(FitSummary { models: fitting.len(), inference_models, finetune_models, largest_inference, largest_finetune })
}
