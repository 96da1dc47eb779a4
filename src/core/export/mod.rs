//! Exports: build sheets for purchasing and side-by-side comparisons, as CSV, XLSX, Markdown,
//! HTML and JSON.
//!
//! Theory of operation: an export is a pure function from structured results to bytes. A
//! build sheet is gathered once ([`BuildSheet::new`] from a build, its [`Report`] and a date
//! the caller passes in) and each format renders that one structure ([`render`], or the
//! per-format functions); a comparison ([`crate::core::compare::Comparison`]) is rendered by
//! [`render_comparison`]. Nothing here reads the clock or touches a file: the CLI and the GUI
//! decide where the bytes go, and [`default_file_name`] proposes a safe name for them.
//!
//! Every piece of user text passes through [`safety`] on its way out: formula triggers are
//! neutralized in spreadsheet text cells, markup is escaped in HTML, SVG and Markdown.
//!
//! Formats: [`csv`] (csv crate), [`xlsx`] (rust_xlsxwriter; real numeric cells with currency
//! formats), [`markdown`], [`html`] (self-contained and printable, with inline SVG charts from
//! [`svg`]) and [`json`] (the full report plus the sheet).

pub mod columns;
pub mod csv;
pub mod date;
pub mod html;
pub mod json;
pub mod markdown;
pub mod safety;
pub mod sheet;
pub mod svg;
pub mod texts;
pub mod xlsx;

pub use date::{DateError, SheetDate};
pub use safety::{escape_html, escape_markdown, neutralize_formula, sanitize_file_name};
pub use sheet::BuildSheet;
pub use texts::SheetTexts;

use crate::core::analysis::{self, Report};
use crate::core::build::Build;
use crate::core::catalog::Catalog;
use crate::core::compare::Comparison;
use crate::core::i18n::Lang;
use crate::core::units::format_thousands;
use texts::fill;

/// A build sheet format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Csv,
    Xlsx,
    Markdown,
    Html,
    Json,
}

impl Format {
    /// Every format, in menu order.
    pub const ALL: [Self; 5] = [Self::Csv, Self::Xlsx, Self::Markdown, Self::Html, Self::Json];

    /// The file extension (without the dot).
    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Xlsx => "xlsx",
            Self::Markdown => "md",
            Self::Html => "html",
            Self::Json => "json",
        }
    }

    /// A name for menus and messages.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Csv => "CSV",
            Self::Xlsx => "Excel workbook (XLSX)",
            Self::Markdown => "Markdown",
            Self::Html => "HTML (printable)",
            Self::Json => "JSON",
        }
    }

    /// True for formats that are not text (they need a file, not a terminal).
    #[must_use]
    pub fn is_binary(self) -> bool {
        self == Self::Xlsx
    }
}

/// A comparison format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompareFormat {
    Markdown,
    Csv,
    Json,
    Html,
}

impl CompareFormat {
    pub const ALL: [Self; 4] = [Self::Markdown, Self::Csv, Self::Json, Self::Html];

    #[must_use]
    pub fn extension(self) -> &'static str {
        match self {
            Self::Markdown => "md",
            Self::Csv => "csv",
            Self::Json => "json",
            Self::Html => "html",
        }
    }
}

/// Why an export could not be produced. Every format renders in memory, so these are failures
/// of the writer libraries, passed on rather than hidden.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("cannot write the CSV: {0}")]
    Csv(#[from] ::csv::Error),
    #[error("cannot write the XLSX workbook: {0}")]
    Xlsx(#[from] rust_xlsxwriter::XlsxError),
    #[error("cannot write the JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// Renders a build sheet. `report` is the sheet's report (HTML draws its power and TCO charts
/// from it; JSON includes it whole).
///
/// # Errors
/// Only failures of the writer libraries ([`ExportError`]).
pub fn render(format: Format, sheet: &BuildSheet, report: &Report) -> Result<Vec<u8>, ExportError> {
    Ok(match format {
        Format::Csv => csv::sheet_to_csv(sheet)?.into_bytes(),
        Format::Xlsx => xlsx::sheet_to_xlsx(sheet)?,
        Format::Markdown => markdown::sheet_to_markdown(sheet).into_bytes(),
        Format::Html => html::sheet_to_html(sheet, report).into_bytes(),
        Format::Json => json::sheet_to_json(sheet, report)?.into_bytes(),
    })
}

/// Analyses a build and renders its sheet: the one call for a front end that has no report
/// yet.
///
/// # Errors
/// As [`render`].
pub fn export_build(catalog: &Catalog, build: &Build, date: SheetDate, format: Format) -> Result<Vec<u8>, ExportError> {
    export_build_in(catalog, build, date, format, Lang::En)
}

/// As [`export_build`], with the sheet's words in `lang`.
///
/// # Errors
/// As [`render`].
pub fn export_build_in(
    catalog: &Catalog,
    build: &Build,
    date: SheetDate,
    format: Format,
    lang: Lang,
) -> Result<Vec<u8>, ExportError> {
    let report = analysis::analyze(catalog, build);
    let sheet = BuildSheet::new_in(build, &report, date, lang);
    render(format, &sheet, &report)
}

/// Renders a comparison.
///
/// # Errors
/// Only failures of the writer libraries ([`ExportError`]).
pub fn render_comparison(format: CompareFormat, comparison: &Comparison) -> Result<Vec<u8>, ExportError> {
    Ok(match format {
        CompareFormat::Markdown => markdown::comparison_to_markdown(comparison).into_bytes(),
        CompareFormat::Csv => csv::comparison_to_csv(comparison)?.into_bytes(),
        CompareFormat::Json => json::comparison_to_json(comparison)?.into_bytes(),
        CompareFormat::Html => html::comparison_to_html(comparison).into_bytes(),
    })
}

/// The default file name of an export: the sanitized build name, the date and the extension
/// (`Entry workstation (RTX 4090 + Ryzen 9 7950X) 2025-01-15.xlsx`).
#[must_use]
pub fn default_file_name(build_name: &str, date: SheetDate, extension: &str) -> String {
    format!("{} {date}.{extension}", sanitize_file_name(build_name))
}

/// Money as sheets print it: thousands separators, two decimals (`11,512.80`).
#[must_use]
pub fn money_text(amount: f64) -> String {
    format_thousands(amount, 2)
}

/// Watts as sheets print them (`7,708 W`).
#[must_use]
pub fn watts_text(watts: f64) -> String {
    format!("{} W", format_thousands(watts, 0))
}

/// A parameter count in billions (`8.03 B`), or millions below one billion (`124 M`).
#[must_use]
pub fn params_text(params: u64) -> String {
    let p = params as f64;
    if p >= 1.0e9 { format!("{:.2} B", p / 1.0e9) } else { format!("{:.0} M", p / 1.0e6) }
}

/// The break-even month in words (English).
#[must_use]
pub fn break_even_text(month: Option<f64>, horizon_months: u32) -> String {
    texts::EN.break_even(month, horizon_months)
}

/// The sheet's summary sentences in its language, shared by Markdown and HTML: (label, text)
/// pairs.
#[must_use]
pub fn summary_items(sheet: &BuildSheet) -> Vec<(&'static str, String)> {
    let t = SheetTexts::of(sheet.lang);
    let s = &sheet.summary.headline;
    let cur = &sheet.currency;
    let c = &s.compatibility;
    let mut items = vec![
        (t.nodes_and_gpus, fill(t.nodes_and_gpus_value, &[&s.nodes, &s.gpus])),
        (
            t.wall_power,
            fill(
                t.wall_power_value,
                &[
                    &watts_text(s.wall_watts),
                    &watts_text(s.wall_typical_watts),
                    &watts_text(s.wall_idle_watts),
                    &watts_text(s.recommended_psu_watts),
                ],
            ),
        ),
        (
            t.heat,
            fill(
                t.heat_value,
                &[
                    &watts_text(s.heat_watts),
                    &format_thousands(s.heat_btu_per_hour, 0),
                    &format!("{:.2}", s.cooling_tons),
                ],
            ),
        ),
        (t.compatibility, fill(t.compat_value, &[&t.compat_status(c.status), &c.errors, &c.warnings, &c.infos])),
    ];
    let fit = match &s.fit {
        None => t.no_gpus.to_owned(),
        Some(f) => {
            let largest = |l: &Option<crate::core::analysis::summary::LargestModel>| {
                l.as_ref().map_or_else(
                    || t.none.to_owned(),
                    |l| fill(t.largest_value, &[&l.name, &params_text(l.params), &l.workload.id()]),
                )
            };
            fill(
                t.fit_value,
                &[
                    &f.inference_models,
                    &f.models,
                    &f.finetune_models,
                    &largest(&f.largest_inference),
                    &largest(&f.largest_finetune),
                ],
            )
        }
    };
    items.push((t.workload_fit, fit));
    let tco = &s.tco;
    let years = format!("{:.2}", tco.horizon_years);
    let utilization = format!("{:.0}", tco.utilization * 100.0);
    let text = match (&tco.primary_label, tco.primary_total) {
        (Some(label), Some(total)) => fill(
            t.tco_value,
            &[
                &money_text(tco.owned_total),
                cur,
                label,
                &money_text(total),
                cur,
                &years,
                &utilization,
                &t.break_even(tco.break_even_month, tco.months),
            ],
        ),
        _ => fill(t.tco_value_no_cloud, &[&money_text(tco.owned_total), cur, &years, &utilization]),
    };
    items.push((t.tco, text));
    if let Some(w) = &tco.workload
        && let Some(kwh) = w.energy_kwh_per_million_tokens
    {
        let mut text =
            fill(t.planned_workload_value, &[&format_thousands(w.tokens_per_second, 0), &format!("{kwh:.3}")]);
        if let (Some(tokens), Some(hours), Some(run)) = (w.run_tokens, w.run_hours, w.run_energy_kwh) {
            text.push_str(&fill(
                t.planned_workload_run,
                &[&format!("{tokens:.3e}"), &format_thousands(hours, 1), &format_thousands(run, 1)],
            ));
        }
        items.push((t.planned_workload, text));
    }
    items
}
