//! `rigplan export`: a build sheet for purchasing as CSV, XLSX, Markdown, HTML or JSON.
//!
//! Loads the build, analyses it, gathers the [`BuildSheet`] with today's date (UTC, or
//! `--date`) and renders it through the core ([`export::render`]). Text formats go to standard
//! output unless `-o FILE` is given; XLSX is binary and needs `-o`. Files are written
//! atomically. Exit codes: 0 written, 2 bad input (unreadable build, XLSX without `-o`, a bad
//! date, an unwritable file).

use super::{Exit, catalog_and_build};
use crate::core::analysis;
use crate::core::analysis::prices::{DEFAULT_STALE_AFTER_MONTHS, PriceAgePolicy};
use crate::core::catalog::Catalog;
use crate::core::export::{self, BuildSheet, Format, SheetDate};
use crate::core::i18n::Lang;
use crate::core::persist;
use anyhow::Context as _;
use clap::ValueEnum;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Seconds in a day (86,400: POSIX time has no leap seconds, POSIX.1-2017 §4.16).
/// Arguments of `rigplan export`.
#[derive(Debug, Clone, clap::Args)]
pub struct ExportArgs {
    /// The build file.
    pub build: PathBuf,
    /// Output format.
    #[arg(long, value_enum)]
    pub format: FormatArg,
    /// Write to FILE instead of standard output (required for xlsx).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Date printed on the sheet (default: today, UTC).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub date: Option<String>,
    /// Language of the sheet's headers, categories, findings and notes: en or zh-CN (default:
    /// the locale, LC_ALL / LANG). JSON keys stay English.
    #[arg(long, value_name = "LANG", value_parser = super::texts::parse_lang)]
    pub lang: Option<Lang>,
    /// Catalog prices older than N months on the sheet's date are marked stale, 1–120.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_STALE_AFTER_MONTHS, value_parser = super::stale_months)]
    pub stale_months: u32,
}

/// Formats on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Csv,
    Xlsx,
    #[value(alias = "markdown")]
    Md,
    Html,
    Json,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Self {
        match f {
            FormatArg::Csv => Self::Csv,
            FormatArg::Xlsx => Self::Xlsx,
            FormatArg::Md => Self::Markdown,
            FormatArg::Html => Self::Html,
            FormatArg::Json => Self::Json,
        }
    }
}

/// Today's date in UTC from the system clock ([`SheetDate::today_utc`]).
///
/// # Errors
/// A clock before 1970 or beyond year 9999.
pub fn today_utc() -> anyhow::Result<SheetDate> {
    SheetDate::today_utc().context("pass --date YYYY-MM-DD")
}

/// The `--date` given, or today.
///
/// # Errors
/// A `--date` that is not a calendar day in YYYY-MM-DD form.
pub fn sheet_date(date: Option<&str>) -> anyhow::Result<SheetDate> {
    match date {
        Some(d) => SheetDate::parse(d).with_context(|| "--date".to_owned()),
        None => today_utc(),
    }
}

/// Writes an export to `output` atomically (saying so on `out`), or to `out` itself. The file
/// never replaces one of the command's `inputs` (its builds, and the files of the user catalog
/// `catalog_dir`) or a build file ([`persist::write_export`]).
///
/// # Errors
/// An unwritable file, an output that would replace an input or a build, or a failure
/// writing to `out`.
pub fn write_output(
    out: &mut dyn Write,
    output: Option<&Path>,
    bytes: &[u8],
    what: &str,
    builds: &[&Path],
    catalog_dir: Option<&Path>,
) -> anyhow::Result<()> {
    match output {
        Some(path) => {
            let catalog_files: Vec<PathBuf> =
                catalog_dir.map(|d| Catalog::file_names().iter().map(|f| d.join(f)).collect()).unwrap_or_default();
            let inputs: Vec<&Path> = builds.iter().copied().chain(catalog_files.iter().map(PathBuf::as_path)).collect();
            persist::write_export(path, bytes, &inputs)?;
            writeln!(out, "Wrote {what} to {} ({} bytes)", path.display(), bytes.len())?;
        }
        None => out.write_all(bytes)?,
    }
    Ok(())
}

/// Runs `rigplan export`.
///
/// # Errors
/// Bad input: see the module docs.
pub fn run_export(out: &mut dyn Write, catalog_dir: Option<&Path>, args: &ExportArgs) -> anyhow::Result<Exit> {
    let format = Format::from(args.format);
    if format.is_binary() && args.output.is_none() {
        anyhow::bail!("{} is a binary format: give -o FILE to write it to a file", format.label());
    }
    let date = sheet_date(args.date.as_deref())?;
    let (catalog, build) = catalog_and_build(catalog_dir, &args.build, None)?;
    let lang = args.lang.unwrap_or_else(Lang::from_env);
    let mut report = analysis::analyze(&catalog, &build);
    report.date_prices(PriceAgePolicy { as_of: date, stale_after_months: args.stale_months });
    report.localize(lang);
    let sheet = BuildSheet::new_in(&build, &report, date, lang);
    let bytes = export::render(format, &sheet, &report)?;
    let what = format!("the {} build sheet", format.label());
    write_output(out, args.output.as_deref(), &bytes, &what, &[&args.build], catalog_dir)?;
    Ok(Exit::Ok)
}
