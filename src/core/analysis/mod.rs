//! Analyses: everything rigplan computes about a build.
//!
//! Theory of operation: [`analyze`] resolves the build against the catalog once
//! ([`crate::core::resolve::Resolved`]) and hands the resolved build to one pure function per
//! concern: the bill of materials and capex ([`bom`]), compatibility, power, thermal, memory
//! fit, speed and TCO. Each returns a structured section of the [`Report`]; a problem with the
//! build is a [`Diagnostic`] in the report, never an error. Front ends (CLI text, JSON, GUI)
//! render the report their own way; the GUI caches it on the document revision.

pub mod bom;
pub mod diagnostic;
pub mod tco;

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

/// The TCO of a resolved build with its findings; `workload` is the throughput for cost per
/// token, when known. The power analysis is not on this branch yet: no power figures are
/// invented meanwhile, so energy and colocation are reported as unknown (`tco-power-unknown`).
#[must_use]
pub fn analyze_tco(
    resolved: &Resolved<'_>,
    bom: &bom::Bom,
    workload: Option<tco::WorkloadInput>,
) -> (tco::Tco, Vec<Diagnostic>) {
    tco::analyze(resolved, bom, None, workload)
}

/// Analyzes a build.
#[must_use]
pub fn analyze(catalog: &Catalog, build: &Build) -> Report {
    let resolved = Resolved::new(catalog, build);
    let bom = bom::bill_of_materials(&resolved);
    let mut diagnostics = diagnostic::unknown_parts(&resolved);
    let (tco, tco_diagnostics) = analyze_tco(&resolved, &bom, None);
    diagnostics.extend(tco_diagnostics);
    diagnostic::sort(&mut diagnostics);
    Report {
        build_name: build.name.clone(),
        currency: build.site.currency.clone(),
        nodes: resolved.total_nodes(),
        gpus: resolved.total_gpus(),
        bom,
        tco,
        diagnostics,
    }
}
