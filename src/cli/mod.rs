//! The headless front end: `rigplan report|check|fit|tco|export|compare|advise|catalog|validate …`.
//!
//! Every subcommand loads its inputs through the core, calls the core, and renders the
//! structured result as text or, with `--json`, as JSON. Exit codes: 0 success, 1 findings
//! that fail a check (`rigplan check` with an error-severity finding, `rigplan fit` when the
//! model does not fit, `rigplan validate` when a class of estimates misses its threshold), 2 bad input (a file that cannot be read or parsed, an unknown id or
//! option).
//!
//! This module parses the command line ([`Cli`]) and dispatches ([`run`]); each subcommand's
//! rendering lives beside it: `report` (report and check text), `tco`, `fit`, `export`,
//! `compare`, `advise`, `catalog` and `validate`.

mod advise;
mod catalog;
mod compare;
mod explain;
mod export;
mod fit;
mod report;
mod tco;
mod terminal;
mod texts;
mod validate;

use crate::core::analysis::prices::{DEFAULT_STALE_AFTER_MONTHS, MAX_STALE_AFTER_MONTHS, PriceAgePolicy};
use crate::core::analysis::tco::TcoOverrides;
use crate::core::analysis::{self, Severity};
use crate::core::build::Build;
use crate::core::catalog::{Catalog, CloudSet, PartKind};
use crate::core::i18n::Lang;
use crate::core::persist;
use crate::core::units::format_thousands;
pub use advise::AdviseArgs;
use anyhow::Context as _;
use clap::{Parser, Subcommand, ValueEnum};
pub use compare::CompareArgs;
pub use export::{ExportArgs, today_utc};
pub use fit::FitArgs;
use std::io::Write;
use std::path::{Path, PathBuf};
pub use terminal::TerminalText;
pub use validate::{ClassArg, ValidateArgs};

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Success (0).
    Ok,
    /// Findings that fail a check (1).
    Findings,
    /// Bad input (2).
    BadInput,
}

impl Exit {
    #[must_use]
    pub fn code(self) -> u8 {
        match self {
            Self::Ok => 0,
            Self::Findings => 1,
            Self::BadInput => 2,
        }
    }
}

/// Plan deep-learning hardware: compatibility, power, thermal, VRAM fit, speed and TCO.
#[derive(Debug, Parser)]
#[command(name = "rigplan", version, about, subcommand_precedence_over_arg = true)]
pub struct Cli {
    /// A build file to open in the app (when no subcommand is given).
    pub file: Option<PathBuf>,

    /// A user catalog folder whose gpu.ron, cpu.ron, … files extend or override the built-in catalog.
    #[arg(long, global = true, value_name = "DIR")]
    pub catalog: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Full report of a build: parts, capex, findings and analyses.
    Report {
        build: PathBuf,
        /// Print the report as JSON (stable schema, see src/core/analysis/report-schema.md).
        #[arg(long)]
        json: bool,
        /// Language of the text and of the JSON's message fields (en, zh-CN; default: the locale).
        #[arg(long, value_name = "LANG", value_parser = texts::parse_lang)]
        lang: Option<Lang>,
        /// Catalog prices older than N months are stale, 1–120.
        #[arg(long, value_name = "N", default_value_t = DEFAULT_STALE_AFTER_MONTHS, value_parser = stale_months)]
        stale_months: u32,
        /// Judge the age of prices on this day (default: today, UTC).
        #[arg(long, value_name = "YYYY-MM-DD")]
        date: Option<String>,
        /// After the figures, say where each came from: formula, this build's numbers, source
        /// and confidence (the JSON always carries them, in `basis`).
        #[arg(long)]
        explain: bool,
    },
    /// Compatibility findings only; exits 1 if any finding is an error.
    Check {
        build: PathBuf,
        #[arg(long)]
        json: bool,
        /// Language of the text and of the JSON's message fields (en, zh-CN; default: the locale).
        #[arg(long, value_name = "LANG", value_parser = texts::parse_lang)]
        lang: Option<Lang>,
    },
    /// Memory per GPU, fit verdict and speed of a model on a GPU or build; exits 1 if it does
    /// not fit. A flag given twice takes its last value, so a suggestion's flags can be added to
    /// the command as it was run.
    #[command(args_override_self = true)]
    Fit(Box<FitArgs>),
    /// Total cost of ownership: owning the build vs renting the same capacity in the cloud.
    #[command(allow_negative_numbers = true)]
    Tco {
        build: PathBuf,
        /// Horizon in years, 0.25–15 (default: the build's usage.horizon_years).
        #[arg(long, value_name = "N")]
        years: Option<f64>,
        /// Average GPU utilization, 0–1 (default: the build's usage.utilization).
        #[arg(long, value_name = "F")]
        utilization: Option<f64>,
        /// Compare against this cloud offer: an offer id from catalog/clouds.ron or a custom
        /// offer of the build, optionally with a term (`aws-p5-48xlarge:reserved_1y`).
        #[arg(long, value_name = "ID")]
        offer: Option<String>,
        /// Tokens per second the whole build processes while busy (for cost per 1M tokens).
        #[arg(long, value_name = "TPS")]
        tokens_per_second: Option<f64>,
        /// Tokens of one training run (for cost per run; needs --tokens-per-second).
        #[arg(long, value_name = "TOKENS", requires = "tokens_per_second")]
        run_tokens: Option<f64>,
        /// Print the TCO as JSON (schema: src/core/analysis/report-schema.md, TCO section).
        #[arg(long)]
        json: bool,
        /// After the figures, say where each came from: formula, this build's numbers, source
        /// and confidence (the JSON always carries them, in `basis`).
        #[arg(long)]
        explain: bool,
        /// Language of the text and of the JSON's message fields (en, zh-CN; default: the locale).
        #[arg(long, value_name = "LANG", value_parser = texts::parse_lang)]
        lang: Option<Lang>,
    },
    /// A build sheet for purchasing: CSV, XLSX, Markdown, HTML or JSON (XLSX needs -o FILE).
    Export(Box<ExportArgs>),
    /// Compare 2–4 builds side by side: cost, power, thermal, compatibility, fit, speed, parts.
    Compare(Box<CompareArgs>),
    /// Whole builds from the catalog that run the workloads within the budget and the site:
    /// the Pareto front of capex against speed, ranked by the objective; exits 1 when nothing
    /// meets the requirement.
    Advise(Box<AdviseArgs>),
    /// rigplan's estimates against published measurements (memory, decode, prefill, serving,
    /// training, power, images): each measurement's error and each class's mean and worst;
    /// exits 1 when a class misses its threshold.
    Validate(Box<ValidateArgs>),
    /// List or validate the parts catalog.
    Catalog {
        #[command(subcommand)]
        action: CatalogAction,
    },
}

/// `rigplan catalog …`
#[derive(Debug, Subcommand)]
pub enum CatalogAction {
    /// List catalog parts, models (`--kind model`) or cloud offers (`--kind cloud`).
    List {
        /// Only this kind: a part kind, `model` or `cloud`.
        #[arg(long, value_enum)]
        kind: Option<KindArg>,
        #[arg(long)]
        json: bool,
    },
    /// Validate the built-in catalog, or the built-in catalog overlaid with DIR.
    Validate {
        dir: Option<PathBuf>,
        #[arg(long)]
        json: bool,
        /// With DIR, also list the built-in catalog's own warnings (they are counted either way).
        #[arg(long)]
        all: bool,
    },
    /// Import a vendor's price list (CSV or XLSX with columns id or name, price, currency,
    /// date) into the user catalog folder (--catalog DIR, default the per-user folder): says
    /// which rows matched a part and which did not, and why; exits 1 when a row did not match.
    ImportPrices {
        /// The price list (.csv, .xlsx).
        file: PathBuf,
        #[arg(long)]
        json: bool,
        /// Language of the reasons (en, zh-CN; default: the locale).
        #[arg(long, value_name = "LANG", value_parser = texts::parse_lang)]
        lang: Option<Lang>,
    },
}

/// Part kinds on the command line.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum KindArg {
    Gpu,
    Cpu,
    Motherboard,
    Memory,
    Storage,
    Psu,
    Cooler,
    Chassis,
    Nic,
    Switch,
    System,
    /// The model catalog (ids for `rigplan fit --model`).
    Model,
    /// The cloud offers (ids for `rigplan tco --offer`).
    Cloud,
}

impl KindArg {
    /// The part kind, or None for the model catalog and cloud offers.
    fn part_kind(self) -> Option<PartKind> {
        Some(match self {
            KindArg::Gpu => PartKind::Gpu,
            KindArg::Cpu => PartKind::Cpu,
            KindArg::Motherboard => PartKind::Motherboard,
            KindArg::Memory => PartKind::Memory,
            KindArg::Storage => PartKind::Storage,
            KindArg::Psu => PartKind::Psu,
            KindArg::Cooler => PartKind::Cooler,
            KindArg::Chassis => PartKind::Chassis,
            KindArg::Nic => PartKind::Nic,
            KindArg::Switch => PartKind::Switch,
            KindArg::System => PartKind::System,
            KindArg::Model | KindArg::Cloud => return None,
        })
    }
}

/// Parses arguments and runs; prints errors to `err`. Returns the process exit code.
/// This is what `main` calls and what the in-process CLI tests call.
///
/// Both streams pass through [`TerminalText`], which neutralizes control characters from
/// names in build files and catalogs. A reader that goes away (`rigplan report … | head`)
/// ends the run quietly with code 0, as `cat` and `grep` do.
pub fn main_with_args<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mut out = TerminalText::new(out);
    let mut err = TerminalText::new(err);
    let code = match Cli::try_parse_from(args) {
        Ok(cli) => match run(&cli, &mut out).and_then(|exit| out.finish().map(|()| exit).map_err(Into::into)) {
            Ok(exit) => exit.code(),
            Err(e) if is_broken_pipe(&e) => Exit::Ok.code(),
            Err(e) => {
                let _ = writeln!(err, "error: {e:#}");
                Exit::BadInput.code()
            }
        },
        Err(e) => {
            let _ = write!(err, "{}", e.render());
            if e.use_stderr() { Exit::BadInput.code() } else { Exit::Ok.code() }
        }
    };
    let _ = out.finish();
    let _ = err.finish();
    code
}

/// Whether an error is the reader of the output going away (a closed pipe).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            || cause
                .downcast_ref::<serde_json::Error>()
                .is_some_and(|json| json.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe))
    })
}

/// Runs a parsed command. `Ok(Exit)` for every outcome the command itself decides; `Err` for
/// bad input (reported by the caller with exit code 2).
///
/// # Errors
/// Unreadable or malformed inputs, an invalid user catalog, output failures.
pub fn run(cli: &Cli, out: &mut dyn Write) -> anyhow::Result<Exit> {
    if let (Some(file), Some(_)) = (&cli.file, &cli.command) {
        anyhow::bail!(
            "`{}` is a build to open in the app and cannot be combined with a subcommand; give the build to the subcommand (`rigplan report {0}`)",
            file.display()
        );
    }
    let Some(command) = &cli.command else {
        let mut help = <Cli as clap::CommandFactory>::command();
        write!(out, "{}", help.render_help())?;
        return Ok(Exit::Ok);
    };
    match command {
        Command::Report { build, json, lang, stale_months, date, explain } => {
            let lang = lang.unwrap_or_else(Lang::from_env);
            let as_of = export::sheet_date(date.as_deref())?;
            let (catalog, build) = catalog_and_build(cli.catalog.as_deref(), build, None)?;
            let mut report = analysis::analyze(&catalog, &build);
            report.date_prices(PriceAgePolicy { as_of, stale_after_months: *stale_months });
            report.localize(lang);
            if *json {
                serde_json::to_writer_pretty(&mut *out, &report)?;
                writeln!(out)?;
            } else {
                report::write_report_text(out, &build, &report, lang)?;
                if *explain {
                    writeln!(out)?;
                    explain::write_bases(out, report.basis(), lang)?;
                }
            }
            Ok(Exit::Ok)
        }
        Command::Check { build, json, lang } => {
            let lang = lang.unwrap_or_else(Lang::from_env);
            let (catalog, build) = catalog_and_build(cli.catalog.as_deref(), build, None)?;
            let mut report = analysis::analyze(&catalog, &build);
            if *json {
                report.localize(lang);
                serde_json::to_writer_pretty(&mut *out, &report.diagnostics)?;
                writeln!(out)?;
            } else {
                report::write_diagnostics(out, &report, lang)?;
            }
            Ok(if report.count(Severity::Error) > 0 { Exit::Findings } else { Exit::Ok })
        }
        Command::Fit(args) => {
            let subset = fit::catalog_subset(args);
            let catalog = match (&cli.catalog, subset.and_then(|s| Catalog::embedded_subset(&s))) {
                (None, Some(catalog)) => catalog,
                _ => load_catalog(cli.catalog.as_deref())?,
            };
            fit::run_fit(out, &catalog, args)
        }
        Command::Tco { build, years, utilization, offer, tokens_per_second, run_tokens, json, lang, explain } => {
            let overrides = TcoOverrides {
                horizon_years: *years,
                utilization: *utilization,
                offer: offer.clone(),
                tokens_per_second: *tokens_per_second,
                run_tokens: *run_tokens,
            };
            let lang = lang.unwrap_or_else(Lang::from_env);
            tco::run_tco(
                out,
                cli.catalog.as_deref(),
                build,
                &overrides,
                tco::Output { json: *json, explain: *explain, lang },
            )
        }
        Command::Export(args) => export::run_export(out, cli.catalog.as_deref(), args),
        Command::Compare(args) => compare::run_compare(out, cli.catalog.as_deref(), args),
        Command::Advise(args) => {
            let catalog = load_catalog(cli.catalog.as_deref())?;
            advise::run_advise(out, &catalog, args)
        }
        Command::Validate(args) => {
            let catalog = load_catalog(cli.catalog.as_deref())?;
            validate::run_validate(out, &catalog, args)
        }
        Command::Catalog { action: CatalogAction::List { kind, json } } => {
            let catalog = load_catalog(cli.catalog.as_deref())?;
            match kind {
                Some(KindArg::Model) => catalog::model_list(out, &catalog, *json)?,
                Some(KindArg::Cloud) => catalog::cloud_list(out, &catalog, *json)?,
                _ => catalog::catalog_list(out, &catalog, kind.and_then(KindArg::part_kind), *json)?,
            }
            Ok(Exit::Ok)
        }
        Command::Catalog { action: CatalogAction::Validate { dir, json, all } } => {
            let dir = dir.as_deref().or(cli.catalog.as_deref());
            catalog::catalog_validate(out, dir, *json, *all)
        }
        Command::Catalog { action: CatalogAction::ImportPrices { file, json, lang } } => {
            let lang = lang.unwrap_or_else(Lang::from_env);
            catalog::import_prices(out, cli.catalog.as_deref(), file, *json, lang)
        }
    }
}

/// `--stale-months`: a whole number of months, 1–[`MAX_STALE_AFTER_MONTHS`].
fn stale_months(text: &str) -> Result<u32, String> {
    let n: u32 = text.trim().parse().map_err(|_| format!("`{text}` is not a whole number of months"))?;
    if (1..=MAX_STALE_AFTER_MONTHS).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{n} is outside 1–{MAX_STALE_AFTER_MONTHS} months"))
    }
}

/// The built-in catalog, overlaid with a user folder when one is given.
///
/// # Errors
/// Problems in the user folder, each with file:line:col.
pub fn load_catalog(dir: Option<&Path>) -> anyhow::Result<Catalog> {
    Ok(match dir {
        Some(d) => Catalog::load_with_overlay(d)?,
        None => Catalog::embedded()?,
    })
}

/// A build and the catalog its analysis reads (with `offer`, a command line's chosen cloud
/// offer): with a user catalog folder, the whole
/// overlaid catalog (loaded first, so that its problems are reported first); otherwise the
/// part of the embedded catalog the build names ([`Catalog::embedded_subset`]), or the whole
/// embedded catalog when the build names a part it lacks (so that the unknown-part findings
/// are those of the whole catalog).
///
/// # Errors
/// Problems in the user folder or the build file.
pub fn catalog_and_build(dir: Option<&Path>, path: &Path, offer: Option<&str>) -> anyhow::Result<(Catalog, Build)> {
    if dir.is_some() {
        let catalog = load_catalog(dir)?;
        return Ok((catalog, load_build(path)?));
    }
    let build = load_build(path)?;
    let mut subset = build.catalog_subset();
    // A `--offer ID[:TERM]` of the command line, as the build's chosen offer.
    if let (Some(offer), CloudSet::ForGpus(ids)) = (offer, &mut subset.clouds) {
        ids.push(crate::core::build::split_offer_choice(offer).0.to_owned());
    }
    let catalog = match Catalog::embedded_subset(&subset) {
        Some(catalog) => catalog,
        None => Catalog::embedded()?,
    };
    Ok((catalog, build))
}

/// Loads a build file, with a message that names the file.
///
/// # Errors
/// Any [`persist::BuildFileError`].
pub fn load_build(path: &Path) -> anyhow::Result<Build> {
    persist::load_build(path).with_context(|| "cannot open the build".to_owned())
}

fn money(amount: f64) -> String {
    format_thousands(amount, 0)
}
