//! The headless front end: `rigplan report|check|catalog …`.
//!
//! Every subcommand loads its inputs through the core, calls the core, and renders the
//! structured result as text or, with `--json`, as JSON. Exit codes: 0 success, 1 findings
//! that fail a check (`rigplan check` with an error-severity finding), 2 bad input (a file
//! that cannot be read or parsed, an unknown id or option).

use crate::core::analysis::{self, Report, Severity};
use crate::core::build::Build;
use crate::core::catalog::{Catalog, Part, PartKind, ProblemSeverity};
use crate::core::persist;
use crate::core::units::format_thousands;
use anyhow::Context as _;
use clap::{Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::path::{Path, PathBuf};

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
// Not `args_conflicts_with_subcommands`: it made the global `--catalog DIR` before a
// subcommand (`rigplan --catalog DIR report plan.ron`) count as the FILE argument. A FILE given
// together with a subcommand is refused in `run` instead.
#[command(name = "rigplan", version, about)]
pub struct Cli {
    /// A build file to open in the app (when no subcommand is given).
    pub file: Option<PathBuf>,

    /// A user catalog folder whose <kind>.ron files extend or override the built-in catalog.
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
        /// Print the report as JSON (stable schema, see docs/report-schema.md).
        #[arg(long)]
        json: bool,
    },
    /// Compatibility findings only; exits 1 if any finding is an error.
    Check {
        build: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// List or validate the parts catalog.
    Catalog {
        #[command(subcommand)]
        action: CatalogAction,
    },
}

/// `rigplan catalog …`
#[derive(Debug, Subcommand)]
pub enum CatalogAction {
    /// List catalog parts.
    List {
        /// Only this kind.
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
}

impl From<KindArg> for PartKind {
    fn from(k: KindArg) -> Self {
        match k {
            KindArg::Gpu => Self::Gpu,
            KindArg::Cpu => Self::Cpu,
            KindArg::Motherboard => Self::Motherboard,
            KindArg::Memory => Self::Memory,
            KindArg::Storage => Self::Storage,
            KindArg::Psu => Self::Psu,
            KindArg::Cooler => Self::Cooler,
            KindArg::Chassis => Self::Chassis,
            KindArg::Nic => Self::Nic,
            KindArg::Switch => Self::Switch,
            KindArg::System => Self::System,
        }
    }
}

/// Parses arguments and runs; prints errors to `err`. Returns the process exit code.
/// This is what `main` calls and what the in-process CLI tests call.
pub fn main_with_args<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = write!(err, "{}", e.render());
            return if e.use_stderr() { Exit::BadInput.code() } else { Exit::Ok.code() };
        }
    };
    match run(&cli, out) {
        Ok(exit) => exit.code(),
        Err(e) => {
            let _ = writeln!(err, "error: {e:#}");
            Exit::BadInput.code()
        }
    }
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
        Command::Report { build, json } => {
            let catalog = load_catalog(cli.catalog.as_deref())?;
            let build = load_build(build)?;
            let report = analysis::analyze(&catalog, &build);
            if *json {
                serde_json::to_writer_pretty(&mut *out, &report)?;
                writeln!(out)?;
            } else {
                write_report_text(out, &build, &report)?;
            }
            Ok(Exit::Ok)
        }
        Command::Check { build, json } => {
            let catalog = load_catalog(cli.catalog.as_deref())?;
            let build = load_build(build)?;
            let report = analysis::analyze(&catalog, &build);
            if *json {
                serde_json::to_writer_pretty(&mut *out, &report.diagnostics)?;
                writeln!(out)?;
            } else {
                write_diagnostics(out, &report)?;
            }
            Ok(if report.count(Severity::Error) > 0 { Exit::Findings } else { Exit::Ok })
        }
        Command::Catalog { action: CatalogAction::List { kind, json } } => {
            let catalog = load_catalog(cli.catalog.as_deref())?;
            catalog_list(out, &catalog, kind.map(PartKind::from), *json)?;
            Ok(Exit::Ok)
        }
        Command::Catalog { action: CatalogAction::Validate { dir, json } } => {
            let dir = dir.as_deref().or(cli.catalog.as_deref());
            catalog_validate(out, dir, *json)
        }
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

fn write_report_text(out: &mut dyn Write, build: &Build, report: &Report) -> anyhow::Result<()> {
    writeln!(out, "{}", report.build_name)?;
    if !build.description.is_empty() {
        writeln!(out, "{}", build.description)?;
    }
    writeln!(out, "{} node(s), {} GPU(s)", report.nodes, report.gpus)?;
    writeln!(out)?;
    let bom = &report.bom;
    let mut group = None;
    for line in &bom.lines {
        if group.as_ref() != Some(&line.group) {
            let count = if line.node_count > 1 { format!(" ×{}", line.node_count) } else { String::new() };
            writeln!(out, "{}{count}", line.group)?;
            group = Some(line.group.clone());
        }
        let price =
            line.extended_price.map_or_else(|| "no price".to_owned(), |p| format!("{} {}", money(p), bom.currency));
        writeln!(out, "  {:>4} × {:<48} {:>18}", line.quantity_per_node, line.name, price)?;
    }
    for c in &bom.custom_capex {
        writeln!(out, "  {:>4} × {:<48} {:>18}", c.quantity, c.name, format!("{} {}", money(c.amount), bom.currency))?;
    }
    writeln!(out)?;
    write!(out, "Capex: {} {}", money(bom.capex), bom.currency)?;
    if (bom.usd_exchange_rate - 1.0).abs() > f64::EPSILON {
        write!(out, " (catalog USD prices at {} {} per USD)", bom.usd_exchange_rate, bom.currency)?;
    }
    writeln!(out)?;
    if bom.unpriced_lines > 0 {
        writeln!(out, "  {} line(s) have no price and are not in the total", bom.unpriced_lines)?;
    }
    writeln!(out)?;
    write_diagnostics(out, report)
}

fn write_diagnostics(out: &mut dyn Write, report: &Report) -> anyhow::Result<()> {
    if report.diagnostics.is_empty() {
        writeln!(out, "No compatibility findings.")?;
        return Ok(());
    }
    writeln!(
        out,
        "Findings: {} error(s), {} warning(s), {} info",
        report.count(Severity::Error),
        report.count(Severity::Warning),
        report.count(Severity::Info)
    )?;
    for d in &report.diagnostics {
        writeln!(out, "  {}[{}]: {}", d.severity, d.code, d.message)?;
        if let Some(fix) = &d.fix {
            writeln!(out, "      fix: {fix}")?;
        }
    }
    Ok(())
}

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

fn catalog_list(out: &mut dyn Write, catalog: &Catalog, kind: Option<PartKind>, json: bool) -> anyhow::Result<()> {
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

fn catalog_validate(out: &mut dyn Write, dir: Option<&Path>, json: bool) -> anyhow::Result<Exit> {
    let (catalog, problems) = if let Some(d) = dir {
        Catalog::load_dir_overlay(d)
    } else {
        let sources: Vec<_> = crate::core::catalog::EMBEDDED_FILES
            .iter()
            .map(|(k, t)| (*k, format!("catalog/{}", k.file_name()), (*t).to_owned()))
            .collect();
        Catalog::from_sources(&sources)
    };
    let errors = problems.iter().filter(|p| p.severity == ProblemSeverity::Error).count();
    if json {
        #[derive(serde::Serialize)]
        struct Validation<'a> {
            parts: usize,
            errors: usize,
            warnings: usize,
            problems: &'a [crate::core::catalog::CatalogProblem],
        }
        serde_json::to_writer_pretty(
            &mut *out,
            &Validation { parts: catalog.len(), errors, warnings: problems.len() - errors, problems: &problems },
        )?;
        writeln!(out)?;
    } else {
        for p in &problems {
            writeln!(out, "{p}")?;
        }
        writeln!(
            out,
            "{} part(s) checked: {} error(s), {} warning(s)",
            catalog.len(),
            errors,
            problems.len() - errors
        )?;
    }
    Ok(if errors > 0 { Exit::BadInput } else { Exit::Ok })
}
