//! Analyses: everything rigplan computes about a build.
//!
//! Theory of operation: [`analyze`] resolves the build against the catalog once
//! ([`crate::core::resolve::Resolved`]) and hands the resolved build to one pure function per
//! concern: the bill of materials and capex ([`bom`]), compatibility, power, thermal, memory
//! fit, speed and TCO. Each returns a structured section of the [`Report`]; a problem with the
//! build is a [`Diagnostic`] in the report, never an error. Front ends (CLI text, JSON, GUI)
//! render the report their own way; the GUI caches it on the document revision.

pub mod bom;
pub mod compat;
pub mod diagnostic;
pub mod power;
pub mod tco;
pub mod thermal;

pub use diagnostic::{Diagnostic, LineRef, Severity};

use crate::core::build::Build;
use crate::core::catalog::Catalog;
use crate::core::resolve::Resolved;
use crate::core::units::Currency;
use serde::Serialize;

/// Everything rigplan computes about a build. Its JSON form (`rigplan report --json`) is a
/// documented, stable schema: see `docs/report-schema.md`.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub build_name: String,
    pub currency: Currency,
    pub nodes: u64,
    pub gpus: u64,
    pub bom: bom::Bom,
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
}

impl Report {
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

/// Analyzes a build.
#[must_use]
pub fn analyze(catalog: &Catalog, build: &Build) -> Report {
    let resolved = Resolved::new(catalog, build);
    let bom = bom::bill_of_materials(&resolved);
    let mut diagnostics = diagnostic::unknown_parts(&resolved);
    let (compat, found) = compat::check(&resolved);
    diagnostics.extend(found);
    let (power, found) = power::analyze(&resolved);
    diagnostics.extend(found);
    let (thermal, found) = thermal::analyze(&resolved, &power, &compat);
    diagnostics.extend(found);
    let tco = analyze_tco(&resolved, &bom, &power, None);
    diagnostic::sort(&mut diagnostics);
    Report {
        build_name: build.name.clone(),
        currency: build.site.currency.clone(),
        nodes: resolved.total_nodes(),
        gpus: resolved.total_gpus(),
        bom,
        compat,
        power,
        thermal,
        tco,
        diagnostics,
    }
}
