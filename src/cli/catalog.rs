//! `rigplan catalog list` and `rigplan catalog validate`.

use super::texts::{
    CliTexts, IMPORT_BY_ID, IMPORT_BY_NAME, IMPORT_BY_SKU, IMPORT_MATCHED_ROW, IMPORT_NOT_MATCHED, IMPORT_NOTHING,
    IMPORT_UNMATCHED_ROW, IMPORT_WRITTEN,
};
use super::{Exit, money};
use crate::core::catalog::{Catalog, Part, PartKind, ProblemSeverity, price_list};
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
