//! `rigplan catalog list` and `rigplan catalog validate`.

use super::texts::{
    CliTexts, IMPORT_BY_ID, IMPORT_BY_NAME, IMPORT_BY_SKU, IMPORT_MATCHED_ROW, IMPORT_NOT_MATCHED, IMPORT_NOTHING,
    IMPORT_UNMATCHED_ROW, IMPORT_WRITTEN,
};
use super::{Exit, money};
use crate::core::catalog::{
    Catalog, CatalogProblem, Checkpoint, MODEL_ID_PREFIX, ModelTask, Part, PartKind, ProblemSeverity, Role, price_list,
};
use std::io::Write;
use std::path::Path;

/// A part's dated price in the listing.
#[derive(serde::Serialize)]
struct ListedPrice<'a> {
    amount: f64,
    currency: &'a str,
    date: &'a str,
}

#[derive(serde::Serialize)]
struct ListedPart<'a> {
    id: &'a str,
    kind: PartKind,
    name: &'a str,
    vendor: &'a str,
    sku: Option<&'a str>,
    /// The price in its currency with its date (USD or CNY).
    price: Option<ListedPrice<'a>>,
    /// The price when the catalog gives it in USD (kept for scripts written before `price`).
    price_usd: Option<f64>,
    price_date: Option<&'a str>,
    /// GPUs: the precisions the tensor units run natively.
    #[serde(skip_serializing_if = "Option::is_none")]
    tensor_precisions: Option<Vec<crate::core::catalog::Precision>>,
    source: &'a str,
}

/// `rigplan catalog list`: one line per part (id, name, price with its currency and date; a
/// GPU's native tensor precisions) with its source on the next line, or the same as JSON.
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
    let precisions = |p: &Part<'_>| match p {
        Part::Gpu(g) => Some(g.tensor_precisions()),
        _ => None,
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
                    price: m.dated_price().map(|d| ListedPrice {
                        amount: d.amount,
                        currency: d.currency,
                        date: d.date,
                    }),
                    price_usd: m.dated_price().filter(|d| d.currency == "USD").map(|d| d.amount),
                    price_date: m.dated_price().map(|d| d.date),
                    tensor_precisions: precisions(p),
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
        let price = m
            .dated_price()
            .map_or_else(|| "-".to_owned(), |d| format!("{} {} ({})", money(d.amount), d.currency, d.date));
        writeln!(out, "{:<48} {:<44} {:>26}", m.id, m.name, price)?;
        if let Some(list) = precisions(&p) {
            let names: Vec<String> = list.iter().map(ToString::to_string).collect();
            writeln!(out, "    tensor precisions: {}", names.join(", "))?;
        }
        writeln!(out, "    source: {}", m.source)?;
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
    writeln!(out, "{:<36} {:<14} {:<40} {:>5} {:>14}", "id", "provider", "gpu", "GPUs", "per GPU-hour")?;
    for offer in &catalog.clouds {
        writeln!(
            out,
            "{:<36} {:<14} {:<40} {:>5} {:>10.2} {}",
            offer.id,
            offer.provider,
            offer.gpu.as_str(),
            offer.gpus_per_instance,
            offer.on_demand_per_gpu_hour(),
            offer.currency
        )?;
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

/// `rigplan catalog import-prices FILE`: imports the list into the user catalog folder and
/// prints what matched and what did not, and why. Exit 0 when every row matched, 1 when some
/// did not (the matched ones are imported), 2 for a list or folder that cannot be used.
pub(super) fn import_prices(
    out: &mut dyn Write,
    folder: Option<&Path>,
    file: &Path,
    json: bool,
    lang: crate::core::i18n::Lang,
) -> anyhow::Result<Exit> {
    let folder = match folder {
        Some(f) => f.to_path_buf(),
        None => crate::core::catalog::user_folder()
            .ok_or_else(|| anyhow::anyhow!("no per-user data folder on this system; name one with --catalog DIR"))?,
    };
    // The catalog the prices are matched against: the built-in one with the folder's parts.
    let catalog = if folder.is_dir() { Catalog::load_with_overlay(&folder)? } else { Catalog::embedded()? };
    let mut import = price_list::import_into_folder(&catalog, file, &folder)?;
    import.outcome.localize(lang);
    if json {
        serde_json::to_writer_pretty(&mut *out, &import)?;
        writeln!(out)?;
        return Ok(if import.outcome.unmatched.is_empty() { Exit::Ok } else { Exit::Findings });
    }
    let t = CliTexts::of(lang);
    match &import.written {
        Some(path) => {
            let (matched, entries) = (import.outcome.matched.len().to_string(), import.entries.to_string());
            let args = [("matched", matched.as_str()), ("path", path.as_str()), ("entries", entries.as_str())];
            writeln!(out, "{}", t.say(&IMPORT_WRITTEN, &args))?;
        }
        None => writeln!(out, "{}", t.say(&IMPORT_NOTHING, &[]))?,
    }
    for m in &import.outcome.matched {
        let by = t.say(
            match m.by {
                price_list::MatchedBy::Id => &IMPORT_BY_ID,
                price_list::MatchedBy::Name => &IMPORT_BY_NAME,
                price_list::MatchedBy::Sku => &IMPORT_BY_SKU,
            },
            &[],
        );
        let (row, amount, currency) = (m.row.to_string(), money(m.price.amount), m.price.currency.to_string());
        let args = [
            ("row", row.as_str()),
            ("part", m.part.as_str()),
            ("name", m.name.as_str()),
            ("by", by.as_str()),
            ("amount", amount.as_str()),
            ("currency", currency.as_str()),
            ("date", m.price.date.as_str()),
        ];
        writeln!(out, "{}", t.say(&IMPORT_MATCHED_ROW, &args))?;
    }
    if !import.outcome.unmatched.is_empty() {
        let count = import.outcome.unmatched.len().to_string();
        writeln!(out, "{}", t.say(&IMPORT_NOT_MATCHED, &[("count", count.as_str())]))?;
        for u in &import.outcome.unmatched {
            let (row, why) = (u.row.to_string(), u.reason.render(lang));
            let args = [("row", row.as_str()), ("key", u.key.as_str()), ("why", why.as_str())];
            writeln!(out, "{}", t.say(&IMPORT_UNMATCHED_ROW, &args))?;
        }
    }
    Ok(if import.outcome.unmatched.is_empty() { Exit::Ok } else { Exit::Findings })
}
