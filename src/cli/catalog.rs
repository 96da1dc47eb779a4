//! `rigplan catalog list` and `rigplan catalog validate`.

use super::{Exit, money};
use crate::core::catalog::{Catalog, Checkpoint, MODEL_ID_PREFIX, ModelTask, Part, PartKind, ProblemSeverity, Role};
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

/// One model of `rigplan catalog list --kind model --json`.
#[derive(serde::Serialize)]
struct ListedModel<'a> {
    id: &'a str,
    name: &'a str,
    vendor: &'a str,
    task: ModelTask,
    /// Parameters rigplan computes (transformers) or states (measured models).
    params: u64,
    active_params: u64,
    published_params: f64,
    published_active_params: Option<f64>,
    /// How the published weights are stored.
    checkpoint: Checkpoint,
    max_context: Option<u32>,
    /// KV cache per token of one sequence at 16 bits, every attention layer (decoders).
    kv_bytes_per_token: Option<u64>,
    source: &'a str,
}

/// `rigplan catalog list --kind model`: the ids `rigplan fit --model` takes, with sizes.
pub(super) fn model_list(out: &mut dyn Write, catalog: &Catalog, json: bool) -> anyhow::Result<()> {
    let listed: Vec<ListedModel<'_>> = catalog
        .models
        .iter()
        .map(|m| {
            let t = m.transformer();
            ListedModel {
                id: m.id.as_str(),
                name: &m.name,
                vendor: &m.vendor,
                task: m.task,
                params: m.total_params(),
                active_params: m.active_params(),
                published_params: m.published_params,
                published_active_params: m.published_active_params,
                checkpoint: m.checkpoint,
                max_context: t.map(|t| t.max_context),
                kv_bytes_per_token: t
                    .filter(|t| t.role == Role::Decoder)
                    .map(|t| t.kv_elements_per_token().saturating_mul(2)),
                source: &m.source,
            }
        })
        .collect();
    if json {
        serde_json::to_writer_pretty(&mut *out, &listed)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(out, "{:<36} {:<40} {:>9} {:>8}  checkpoint", "id", "name", "params", "active")?;
    for m in &listed {
        let active = if m.active_params == m.params { "-".to_owned() } else { billions(m.active_params) };
        writeln!(
            out,
            "{:<36} {:<40} {:>9} {:>8}  {}",
            m.id.strip_prefix(MODEL_ID_PREFIX).unwrap_or(m.id),
            m.name,
            billions(m.params),
            active,
            m.checkpoint
        )?;
    }
    Ok(())
}

/// A parameter count in billions (or millions below 1B), as model cards write it.
fn billions(params: u64) -> String {
    let p = params as f64;
    if p >= 1.0e9 { format!("{:.1}B", p / 1.0e9) } else { format!("{:.0}M", p / 1.0e6) }
}

/// `rigplan catalog list --kind cloud`: the offers `rigplan tco --offer` takes.
pub(super) fn cloud_list(out: &mut dyn Write, catalog: &Catalog, json: bool) -> anyhow::Result<()> {
    if json {
        serde_json::to_writer_pretty(&mut *out, &catalog.clouds)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(out, "{:<36} {:<14} {:<40} {:>12} {:>10}", "id", "provider", "gpu", "GPUs", "$/GPU-h")?;
    for offer in &catalog.clouds {
        writeln!(
            out,
            "{:<36} {:<14} {:<40} {:>12} {:>10.2}",
            offer.id,
            offer.provider,
            offer.gpu.as_str(),
            offer.gpus_per_instance,
            offer.on_demand_usd_per_gpu_hour()
        )?;
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
