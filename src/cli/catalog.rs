//! `rigplan catalog list` and `rigplan catalog validate`.

use super::{Exit, money};
use crate::core::catalog::{Catalog, Part, PartKind, ProblemSeverity};
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

pub(super) fn catalog_validate(out: &mut dyn Write, dir: Option<&Path>, json: bool) -> anyhow::Result<Exit> {
    let (catalog, problems) =
        if let Some(d) = dir { Catalog::load_dir_overlay(d) } else { Catalog::embedded_with_problems() };
    let errors = problems.iter().filter(|p| p.severity == ProblemSeverity::Error).count();
    if json {
        #[derive(serde::Serialize)]
        struct Validation<'a> {
            parts: usize,
            models: usize,
            cloud_offers: usize,
            errors: usize,
            warnings: usize,
            problems: &'a [crate::core::catalog::CatalogProblem],
        }
        serde_json::to_writer_pretty(
            &mut *out,
            &Validation {
                parts: catalog.len(),
                models: catalog.models.len(),
                cloud_offers: catalog.clouds.len(),
                errors,
                warnings: problems.len() - errors,
                problems: &problems,
            },
        )?;
        writeln!(out)?;
    } else {
        for p in &problems {
            writeln!(out, "{p}")?;
        }
        writeln!(
            out,
            "{} part(s), {} model(s) and {} cloud offer(s) checked: {} error(s), {} warning(s)",
            catalog.len(),
            catalog.models.len(),
            catalog.clouds.len(),
            errors,
            problems.len() - errors
        )?;
    }
    Ok(if errors > 0 { Exit::BadInput } else { Exit::Ok })
}
