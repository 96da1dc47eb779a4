//! `rigplan catalog list` and `rigplan catalog validate`.

use super::{Exit, money};
use crate::core::catalog::{Catalog, CatalogProblem, Part, PartKind, ProblemSeverity};
use std::io::Write;
use std::path::Path;

#[derive(serde::Serialize)]
struct ListedPart<'a> {
    id: &'a str,
    kind: PartKind,
    name: &'a str,
    vendor: &'a str,
    sku: Option<&'a str>,
    price_usd: Option<f64>,
    price_date: Option<&'a str>,
    source: &'a str,
}

pub(super) fn catalog_list(
    out: &mut dyn Write,
    catalog: &Catalog,
    kind: Option<PartKind>,
    json: bool,
) -> anyhow::Result<()> {
    let parts: Vec<Part<'_>> = match kind {
        Some(k) => catalog.parts_of(k).collect(),
        None => catalog.all_parts().collect(),
    };
    if json {
        let listed: Vec<ListedPart<'_>> = parts
            .iter()
            .map(|p| {
                let m = p.meta();
                ListedPart {
                    id: m.id.as_str(),
                    kind: p.kind(),
                    name: m.name,
                    vendor: m.vendor,
                    sku: m.sku,
                    price_usd: m.price_usd,
                    price_date: m.price_date,
                    source: m.source,
                }
            })
            .collect();
        serde_json::to_writer_pretty(&mut *out, &listed)?;
        writeln!(out)?;
        return Ok(());
    }
    for p in parts {
        let m = p.meta();
        let price = m.price_usd.map_or_else(|| "-".to_owned(), |usd| format!("${}", money(usd)));
        writeln!(out, "{:<48} {:<44} {:>10}", m.id, m.name, price)?;
    }
    Ok(())
}

/// `rigplan catalog validate [DIR] [--all]`: every problem of the built-in catalog, or of the
/// built-in catalog overlaid with DIR. With DIR, the problems of the user's own files come
/// first and alone (errors before warnings); the built-in catalog's own warnings (parts
/// without a price, …) are only counted, and listed with `--all`.
pub(super) fn catalog_validate(out: &mut dyn Write, dir: Option<&Path>, json: bool, all: bool) -> anyhow::Result<Exit> {
    let (catalog, problems) =
        if let Some(d) = dir { Catalog::load_dir_overlay(d) } else { Catalog::embedded_with_problems() };
    // A problem the built-in catalog has on its own, found again under the overlay, is not
    // the user's.
    let builtin = if dir.is_some() { Catalog::embedded_with_problems().1 } else { Vec::new() };
    let (mut own, builtin): (Vec<CatalogProblem>, Vec<CatalogProblem>) =
        problems.into_iter().partition(|p| !builtin.contains(p));
    own.sort_by(|a, b| (a.severity, &a.file, a.line, a.col).cmp(&(b.severity, &b.file, b.line, b.col)));
    let errors = own.iter().filter(|p| p.severity == ProblemSeverity::Error).count();
    let errors = errors + builtin.iter().filter(|p| p.severity == ProblemSeverity::Error).count();
    let warnings = own.len() + builtin.len() - errors;
    let builtin_warnings = builtin.iter().filter(|p| p.severity == ProblemSeverity::Warning).count();
    if json {
        #[derive(serde::Serialize)]
        struct Validation<'a> {
            parts: usize,
            models: usize,
            cloud_offers: usize,
            errors: usize,
            warnings: usize,
            /// The problems of the user's files (all problems without DIR).
            problems: &'a [CatalogProblem],
            /// Warnings of the built-in catalog itself, counted in `warnings` (listed in
            /// `builtin_problems` with --all).
            builtin_warnings: usize,
            #[serde(skip_serializing_if = "Option::is_none")]
            builtin_problems: Option<&'a [CatalogProblem]>,
        }
        serde_json::to_writer_pretty(
            &mut *out,
            &Validation {
                parts: catalog.len(),
                models: catalog.models.len(),
                cloud_offers: catalog.clouds.len(),
                errors,
                warnings,
                problems: &own,
                builtin_warnings,
                builtin_problems: all.then_some(builtin.as_slice()),
            },
        )?;
        writeln!(out)?;
    } else {
        for p in own.iter().chain(builtin.iter().filter(|p| all || p.is_error())) {
            writeln!(out, "{p}")?;
        }
        write!(
            out,
            "{} part(s), {} model(s) and {} cloud offer(s) checked: {} error(s), {} warning(s)",
            catalog.len(),
            catalog.models.len(),
            catalog.clouds.len(),
            errors,
            warnings
        )?;
        if builtin_warnings > 0 && !all {
            write!(out, " ({builtin_warnings} of them in the built-in catalog, listed with --all)")?;
        }
        writeln!(out)?;
    }
    Ok(if errors > 0 { Exit::BadInput } else { Exit::Ok })
}
