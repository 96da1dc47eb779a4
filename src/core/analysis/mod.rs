//! Analyses: everything rigplan computes about a build.
//!
//! Theory of operation: [`analyze`] resolves the build against the catalog once
//! ([`crate::core::resolve::Resolved`]) and hands the resolved build to one pure function per
//! concern: the bill of materials and capex ([`bom`]), compatibility, power, thermal, memory
//! fit, speed and TCO. Each returns a structured section of the [`Report`]; a problem with the
//! build is a [`Diagnostic`] in the report, never an error. Front ends (CLI text, JSON, GUI)
//! render the report their own way; the GUI caches it on the document revision.

pub mod basis;
pub mod bom;
pub mod codes;
pub mod compat;
pub mod diagnostic;
pub mod fit;
pub mod memory;
pub mod power;
pub mod prices;
pub mod serving;
pub mod speed;
pub mod summary;
pub mod tco;
pub mod thermal;
mod twins;

pub use twins::Shared;

pub use diagnostic::{Diagnostic, LineRef, Severity};

/// The JSON schema of `rigplan report --json`, `fit --json`, `tco --json`, the build sheet and
/// the comparison: the stable interface scripts rely on (kept beside the code it documents).
#[doc = include_str!("report-schema.md")]
pub mod report_schema {}

use crate::core::build::Build;
use crate::core::catalog::Catalog;
use crate::core::i18n::Text;
use crate::core::resolve::Resolved;
use crate::core::units::Currency;
use crate::text;
use serde::Serialize;

crate::templates! {
    pub(crate) TEMPLATES;
    WORKLOAD_UNKNOWN "workload-unknown" {
        en: "the planned workload `{workload}` is not one of {known}",
        zh: "计划的工作负载 `{workload}` 不在 {known} 之中",
    }
    WORKLOAD_NO_GPUS "workload-no-gpus" {
        en: "the planned workload needs GPUs; the build has none",
        zh: "计划的工作负载需要 GPU，但该配置中没有 GPU",
    }
    WORKLOAD_UNKNOWN_MODEL "workload-unknown-model" {
        en: "the planned workload's model `{model}` is not in the model catalog",
        zh: "计划工作负载的模型 `{model}` 不在模型库中",
    }
    WORKLOAD_DOES_NOT_FIT "workload-does-not-fit" {
        en: "{model} ({workload}) does not fit {node}'s {gpus} × {gpu}: no cost per token or per run",
        zh: "{model}（{workload}）在 {node} 的 {gpus} × {gpu} 上显存不足：无法计算每 token 或每次训练的成本",
    }
}

/// Everything rigplan computes about a build. Its JSON form (`rigplan report --json`) is a
/// documented, stable schema: see `src/core/analysis/report-schema.md` (the field order of
/// the [`Serialize`] impl below).
#[derive(Clone, Debug)]
pub struct Report {
    pub build_name: String,
    pub currency: Currency,
    pub nodes: u64,
    pub gpus: u64,
    pub bom: bom::Bom,
    /// Every catalog model × the standard workloads on each node group's GPUs, with the
    /// interconnect (NVLink, PCIe, cross-node) noted.
    pub fit: Vec<fit::FitMatrix>,
    /// PCIe slot layouts per node (the compatibility findings are in `diagnostics`).
    pub compat: compat::Compat,
    /// Power draw, PSU sizing, circuit and rack view.
    pub power: power::PowerReport,
    /// Heat load, airflow, CPU cooler headroom and GPU temperature estimates.
    pub thermal: thermal::ThermalReport,
    /// Owned vs cloud total cost of ownership.
    pub tco: tco::Tco,
    /// Every finding, most severe first.
    pub diagnostics: Vec<Diagnostic>,
    /// The headline figures every front end shows (the app's Summary tab, the sheets, the
    /// comparison), read off the sections above.
    pub summary: summary::Summary,
    /// Where each figure of the bill of materials (priced lines), power, thermal, TCO and
    /// summary sections comes from ([`Self::basis`]), written when first asked for: most
    /// analyses (a drop target's check, an advisor candidate, a `fit` run, an app edit nobody
    /// hovers) never read them, and on a large cluster they cost several times the analyses
    /// themselves (issue 19).
    basis: std::sync::OnceLock<Vec<basis::Basis>>,
    /// Bases a front end added before the others were written ([`Report::add_bases`]).
    added_bases: Vec<basis::Basis>,
    /// The site the TCO bases quote (PUE, electricity price).
    site: crate::core::build::Site,
    /// The age of the catalog prices on a date, once a front end has given one
    /// ([`Report::date_prices`]); the analyses never read the clock.
    pub prices: Option<prices::PriceAges>,
    /// The language its sentences are rendered in ([`Self::localize`]); the analyses write
    /// English.
    rendered_in: crate::core::i18n::Lang,
}

impl Serialize for Report {
    /// The report schema's fields in its order; `basis` is written here (rendered in the
    /// report's language) if no front end asked for it before.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Report", 14)?;
        s.serialize_field("build_name", &self.build_name)?;
        s.serialize_field("currency", &self.currency)?;
        s.serialize_field("nodes", &self.nodes)?;
        s.serialize_field("gpus", &self.gpus)?;
        s.serialize_field("bom", &self.bom)?;
        s.serialize_field("fit", &self.fit)?;
        s.serialize_field("compat", &self.compat)?;
        s.serialize_field("power", &self.power)?;
        s.serialize_field("thermal", &self.thermal)?;
        s.serialize_field("tco", &self.tco)?;
        s.serialize_field("diagnostics", &self.diagnostics)?;
        s.serialize_field("summary", &self.summary)?;
        s.serialize_field("basis", self.basis())?;
        match &self.prices {
            Some(prices) => s.serialize_field("prices", prices)?,
            None => s.skip_field("prices")?,
        }
        s.end()
    }
}

impl Report {
    /// Renders every sentence of the report in `lang`: the findings' messages and fixes (the
    /// report's and the TCO notes), the power and thermal assumptions, the fit matrices' notes
    /// and cell notes, and the TCO reading note; for a front end that shows or serializes them
    /// as they are. A report already in `lang` is left as it is (a CLI run in English renders
    /// nothing twice).
    pub fn localize(&mut self, lang: crate::core::i18n::Lang) {
        if lang == self.rendered_in {
            return;
        }
        self.rendered_in = lang;
        self.diagnostics.iter_mut().for_each(|d| d.localize(lang));
        self.tco.localize(lang);
        self.power.localize(lang);
        self.thermal.localize(lang);
        fit::localize_matrices(&mut self.fit, lang);
        if let Some(bases) = self.basis.get_mut() {
            basis::localize_all(bases, lang);
        }
        basis::localize_all(&mut self.added_bases, lang);
    }

    /// Where each figure of the bill of materials (priced lines), power, thermal, TCO and
    /// summary sections comes from: its formula with this build's inputs, source and
    /// confidence ([`basis::Basis`]), rendered in the report's language. Written on the first
    /// call and kept.
    pub fn basis(&self) -> &[basis::Basis] {
        self.basis.get_or_init(|| {
            let mut bases =
                basis::report::of_report(&self.site, &self.bom, &self.power, &self.thermal, &self.tco, &self.summary);
            bases.extend(basis::counts::of_counts(self));
            basis::localize_all(&mut bases, self.rendered_in);
            bases.extend(self.added_bases.iter().cloned());
            bases
        })
    }

    /// Adds bases of figures the analyses did not explain themselves (a comparison adds those
    /// of the fit-matrix cells its speed rows read, [`basis::fit::of_cell`]), rendered in the
    /// report's language; one of a figure the report already explains replaces it.
    pub fn add_bases(&mut self, mut bases: Vec<basis::Basis>) {
        basis::localize_all(&mut bases, self.rendered_in);
        let target = match self.basis.get_mut() {
            Some(written) => written,
            None => &mut self.added_bases,
        };
        target.retain(|b| !bases.iter().any(|n| n.figure == b.figure));
        target.extend(bases);
    }

    /// Dates the report's catalog prices: counts the stale ones under `policy` (its date is
    /// today, or the date a sheet is printed with).
    pub fn date_prices(&mut self, policy: prices::PriceAgePolicy) {
        let ages = prices::price_ages(&self.bom, policy);
        // Bases written before the prices were dated (or dated otherwise) get the new count.
        if let Some(bases) = self.basis.get_mut() {
            bases.retain(|b| b.figure != basis::counts::STALE_PRICES_KEY);
            let mut stale = basis::counts::of_price_ages(&ages);
            stale.localize(self.rendered_in);
            bases.push(stale);
        }
        self.prices = Some(ages);
    }

    /// Number of findings of a severity.
    #[must_use]
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == severity).count()
    }
}

/// The TCO of a resolved build (its notes inside), energy and colocation from the power
/// analysis' whole-build wall draw at idle (`wall_idle_watts`) and at maximum (`wall_watts`);
/// `workload` is the throughput for cost per token, when known. A build the power analysis
/// finds no draw in (no powered parts) has unknown power (`tco-power-unknown`).
#[must_use]
pub fn analyze_tco(
    resolved: &Resolved<'_>,
    bom: &bom::Bom,
    power: &power::PowerReport,
    workload: Option<tco::WorkloadInput>,
) -> tco::Tco {
    let input = (power.wall_watts > 0.0)
        .then_some(tco::PowerInput { wall_idle_watts: power.wall_idle_watts, wall_max_watts: power.wall_watts });
    tco::analyze(resolved, bom, input, workload)
}

/// The TCO of a build under what-if overrides, the pipeline `rigplan tco` runs: the overrides
/// applied to a copy of the build, the workload from the entered throughput or else from the
/// build's planned workload through the fit matrix ([`planned_workload`]), capex from the bill
/// of materials and energy from the power analysis ([`analyze_tco`]).
///
/// # Errors
/// The first override out of range or naming no offer or term ([`tco::TcoOverrides::apply`],
/// then [`tco::TcoOverrides::workload`]).
pub fn analyze_tco_with(
    catalog: &Catalog,
    build: &Build,
    overrides: &tco::TcoOverrides,
) -> Result<tco::Tco, tco::OverrideError> {
    let mut build = build.clone();
    overrides.apply(catalog, &mut build)?;
    let resolved = Resolved::new(catalog, &build);
    let workload = match overrides.workload()? {
        Some(w) => Some(w),
        None => planned_workload(&build, &fit::build_fit(&resolved)).0,
    };
    let bom = bom::bill_of_materials(&resolved);
    let (power, _) = power::analyze(&resolved);
    Ok(analyze_tco(&resolved, &bom, &power, workload))
}

/// The hardware analyses of a build: compatibility, power and thermal, with their findings
/// (and those of unknown parts), sorted. These are every finding that can be an error: the
/// fit matrix, the planned workload and the TCO only add warnings and notes
/// (`tests/core/stages.rs` checks it), so a check that only asks "does this edit add an
/// error?" (a drop target, an advisor candidate) runs this stage alone.
#[derive(Clone, Debug)]
pub struct Hardware {
    pub compat: compat::Compat,
    pub power: power::PowerReport,
    pub thermal: thermal::ThermalReport,
    pub diagnostics: Vec<Diagnostic>,
}

/// Runs the hardware stage ([`Hardware`]) on a resolved build.
#[must_use]
pub fn check_hardware(resolved: &Resolved<'_>) -> Hardware {
    // The compatibility rules find the most: the others join their list (sorted below).
    let (compat, mut diagnostics) = compat::check(resolved);
    diagnostics.extend(diagnostic::unknown_parts(resolved));
    let (power, found) = power::analyze(resolved);
    diagnostics.extend(found);
    let (thermal, found) = thermal::analyze(resolved, &power, &compat);
    diagnostics.extend(found);
    diagnostic::sort(&mut diagnostics);
    Hardware { compat, power, thermal, diagnostics }
}

/// Analyzes a build.
#[must_use]
pub fn analyze(catalog: &Catalog, build: &Build) -> Report {
    let resolved = Resolved::new(catalog, build);
    let bom = bom::bill_of_materials(&resolved);
    let fit = fit::build_fit(&resolved);
    let Hardware { compat, power, thermal, mut diagnostics } = check_hardware(&resolved);
    let (workload, found) = planned_workload(build, &fit);
    if !found.is_empty() {
        diagnostics.extend(found);
        diagnostic::sort(&mut diagnostics);
    }
    let tco = analyze_tco(&resolved, &bom, &power, workload);
    let (nodes, gpus) = (resolved.total_nodes(), resolved.total_gpus());
    let summary = summary::Summary::of(
        catalog,
        &summary::Sections {
            nodes,
            gpus,
            bom: &bom,
            fit: &fit,
            power: &power,
            thermal: &thermal,
            tco: &tco,
            diagnostics: &diagnostics,
        },
    );
    Report {
        build_name: build.name.clone(),
        currency: build.site.currency.clone(),
        nodes,
        gpus,
        bom,
        fit,
        compat,
        power,
        thermal,
        tco,
        diagnostics,
        summary,
        basis: std::sync::OnceLock::new(),
        added_bases: Vec::new(),
        site: build.site.clone(),
        prices: None,
        rendered_in: crate::core::i18n::Lang::En,
    }
}

/// The throughput of the build's planned workload (`usage.workload`) from the fit matrix, for
/// cost per token and per training run.
///
/// The workload runs on the node group with the most GPUs. Training workloads use every GPU
/// of that group (the matrix evaluates them over all of them), so the cell's training
/// tokens/s is the build's. Inference cells describe one model instance on the GPUs its
/// layout needs, decoding at batch 1; the group serves `⌊GPUs / GPUs per instance⌋` such
/// replicas in parallel, a conservative figure (batching raises served throughput; Kwon et al.
/// 2023, vLLM, §6). Findings: `workload-unknown-model`, `workload-unknown`,
/// `workload-does-not-fit`, `workload-no-gpus`.
#[must_use]
pub fn planned_workload(build: &Build, fit: &[fit::FitMatrix]) -> (Option<tco::WorkloadInput>, Vec<Diagnostic>) {
    let Some(plan) = &build.usage.workload else { return (None, Vec::new()) };
    let info = |code: &'static str, message: Text| vec![Diagnostic::new(Severity::Warning, code, message)];
    let Some(kind) = fit::WorkloadKind::from_id(&plan.workload) else {
        let known: Vec<&str> = fit::WorkloadKind::ALL.iter().map(|k| k.id()).collect();
        return (None, info("workload-unknown", text!(WORKLOAD_UNKNOWN, workload = &plan.workload, known = known)));
    };
    let Some(matrix) = fit.iter().max_by_key(|m| u64::from(m.gpus_per_node) * u64::from(m.nodes)) else {
        return (None, info("workload-no-gpus", text!(WORKLOAD_NO_GPUS)));
    };
    let Some(row) = matrix.rows.iter().find(|r| r.model.as_str() == plan.model) else {
        return (None, info("workload-unknown-model", text!(WORKLOAD_UNKNOWN_MODEL, model = &plan.model)));
    };
    let fits = |cell: &fit::FitCell| matches!(cell.verdict, Some(memory::Verdict::Fits | memory::Verdict::Tight));
    let cell = row.cells.iter().find(|c| c.workload == kind).filter(|c| fits(c));
    let throughput = cell.and_then(|c| {
        if kind.is_inference() {
            let replicas = (matrix.gpus_per_node * matrix.nodes) / c.gpus_used.unwrap_or(1).max(1);
            c.decode_tokens_per_s.map(|t| t * f64::from(replicas))
        } else {
            c.train_tokens_per_s
        }
    });
    match throughput {
        Some(tokens_per_second) if tokens_per_second > 0.0 => {
            (Some(tco::WorkloadInput { tokens_per_second, run_tokens: plan.run_tokens }), Vec::new())
        }
        _ => (
            None,
            info(
                "workload-does-not-fit",
                text!(
                    WORKLOAD_DOES_NOT_FIT,
                    model = &row.model_name,
                    workload = kind.label_text(),
                    node = &matrix.node_name,
                    gpus = (matrix.gpus_per_node * matrix.nodes).to_string(),
                    gpu = &matrix.gpu_name
                ),
            ),
        ),
    }
}
