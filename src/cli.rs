//! The headless front end: `rigplan report|check|fit|tco|export|compare|catalog …`.
//!
//! Every subcommand loads its inputs through the core, calls the core, and renders the
//! structured result as text or, with `--json`, as JSON. Exit codes: 0 success, 1 findings
//! that fail a check (`rigplan check` with an error-severity finding, `rigplan fit` when the
//! model does not fit), 2 bad input (a file that cannot be read or parsed, an unknown id or
//! option).

mod compare;
mod export;
mod fit;

use crate::core::analysis::tco::{self, Tco};
use crate::core::analysis::{self, Report, Severity};
use crate::core::build::Build;
use crate::core::catalog::{Catalog, Part, PartKind, ProblemSeverity};
use crate::core::persist;
use crate::core::resolve::Resolved;
use crate::core::units::format_thousands;
use anyhow::Context as _;
use clap::{Parser, Subcommand, ValueEnum};
pub use compare::CompareArgs;
pub use export::{ExportArgs, today_utc};
pub use fit::FitArgs;
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
    },
    /// Compatibility findings only; exits 1 if any finding is an error.
    Check {
        build: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Memory per GPU, fit verdict and speed of a model on a GPU or build; exits 1 if it does
    /// not fit.
    Fit(Box<FitArgs>),
    /// Total cost of ownership: owning the build vs renting the same capacity in the cloud.
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
    },
    /// A build sheet for purchasing: CSV, XLSX, Markdown, HTML or JSON (XLSX needs -o FILE).
    Export(Box<ExportArgs>),
    /// Compare 2–4 builds side by side: cost, power, thermal, compatibility, fit, speed, parts.
    Compare(Box<CompareArgs>),
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
        Command::Fit(args) => {
            let catalog = load_catalog(cli.catalog.as_deref())?;
            fit::run_fit(out, &catalog, args)
        }
        Command::Tco { build, years, utilization, offer, tokens_per_second, run_tokens, json } => {
            let catalog = load_catalog(cli.catalog.as_deref())?;
            let mut build = load_build(build)?;
            apply_tco_overrides(&catalog, &mut build, *years, *utilization, offer.as_deref())?;
            let resolved = Resolved::new(&catalog, &build);
            // Flags win; otherwise the build's planned workload through the fit/speed engine.
            let workload = match workload_input(*tokens_per_second, *run_tokens)? {
                Some(w) => Some(w),
                None => analysis::planned_workload(&build, &analysis::fit::build_fit(&resolved)).0,
            };
            let bom = analysis::bom::bill_of_materials(&resolved);
            let (power, _) = analysis::power::analyze(&resolved);
            let tco = analysis::analyze_tco(&resolved, &bom, &power, workload);
            if *json {
                serde_json::to_writer_pretty(&mut *out, &TcoJson { build_name: &build.name, tco: &tco })?;
                writeln!(out)?;
            } else {
                write_tco_text(out, &build.name, &tco)?;
            }
            Ok(Exit::Ok)
        }
        Command::Export(args) => export::run_export(out, cli.catalog.as_deref(), args),
        Command::Compare(args) => compare::run_compare(out, cli.catalog.as_deref(), args),
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

/// Applies `rigplan tco`'s command-line overrides to the build, refusing values out of range
/// and offer ids that name nothing.
fn apply_tco_overrides(
    catalog: &Catalog,
    build: &mut Build,
    years: Option<f64>,
    utilization: Option<f64>,
    offer: Option<&str>,
) -> anyhow::Result<()> {
    if let Some(y) = years {
        anyhow::ensure!((0.25..=15.0).contains(&y), "--years {y}: the horizon must be between 0.25 and 15 years");
        build.usage.horizon_years = y;
    }
    if let Some(u) = utilization {
        anyhow::ensure!((0.0..=1.0).contains(&u), "--utilization {u}: utilization is a fraction between 0 and 1");
        build.usage.utilization = u;
    }
    if let Some(id) = offer {
        let (offer_id, term) = id.split_once(':').map_or((id, None), |(o, t)| (o, Some(t)));
        let known = catalog.cloud(offer_id).is_some() || build.costs.custom_offers.iter().any(|c| c.id == offer_id);
        anyhow::ensure!(
            known,
            "--offer {id}: no cloud offer `{offer_id}` in the catalog or among the build's custom offers (see catalog/clouds.ron)"
        );
        if let Some(t) = term {
            let terms = ["on_demand", "reserved_1y", "reserved_3y", "spot", "custom"];
            anyhow::ensure!(terms.contains(&t), "--offer {id}: `{t}` is not a term (one of {})", terms.join(", "));
        }
        build.costs.chosen_offer = Some(id.to_owned());
    }
    Ok(())
}

/// The workload given on the command line, checked.
fn workload_input(
    tokens_per_second: Option<f64>,
    run_tokens: Option<f64>,
) -> anyhow::Result<Option<tco::WorkloadInput>> {
    let Some(tps) = tokens_per_second else { return Ok(None) };
    anyhow::ensure!(tps.is_finite() && tps > 0.0, "--tokens-per-second {tps}: must be a positive number");
    if let Some(t) = run_tokens {
        anyhow::ensure!(t.is_finite() && t > 0.0, "--run-tokens {t}: must be a positive number");
    }
    Ok(Some(tco::WorkloadInput { tokens_per_second: tps, run_tokens }))
}

/// `rigplan tco --json`: the TCO section with the build's name.
#[derive(serde::Serialize)]
struct TcoJson<'a> {
    build_name: &'a str,
    #[serde(flatten)]
    tco: &'a Tco,
}

fn percent(fraction: f64) -> String {
    format!("{:.0} %", fraction * 100.0)
}

fn months_text(month: Option<f64>, horizon_months: u32) -> String {
    match month {
        Some(m) if m <= f64::from(horizon_months) => format!("month {m:.1}"),
        Some(m) => format!("month {m:.1} (beyond the {horizon_months}-month horizon)"),
        None => "never (the cloud costs no more per month than running the build)".to_owned(),
    }
}

fn write_tco_text(out: &mut dyn Write, name: &str, t: &Tco) -> anyhow::Result<()> {
    let cur = &t.currency;
    writeln!(
        out,
        "TCO of {name} over {:.2} years ({} months) at {} utilization, {} GPU(s){}",
        t.horizon_years,
        t.months,
        percent(t.utilization),
        t.gpus,
        t.gpu_model.as_ref().map(|g| format!(" ({g})")).unwrap_or_default()
    )?;
    writeln!(out, "Reading: {}", t.reading_note)?;
    writeln!(out)?;
    let c = &t.capex_lines;
    writeln!(
        out,
        "Capex: {} {cur} (parts {}, tax {}, shipping {}, installation {}, custom {})",
        money(t.capex),
        money(c.parts),
        money(c.tax),
        money(c.shipping),
        money(c.installation),
        money(c.custom)
    )?;
    let o = &t.owned_per_year;
    writeln!(out, "Owned operating cost: {} {cur} per year", money(o.total))?;
    writeln!(
        out,
        "  energy {}, colocation {}, maintenance {}, staff {}, licences {}, custom {}, entered {}",
        money(o.energy),
        money(o.colocation),
        money(o.maintenance),
        money(o.staff),
        money(o.licences),
        money(o.custom_opex),
        money(o.entered_opex)
    )?;
    match &t.power {
        Some(p) => writeln!(
            out,
            "  wall power: idle {:.0} W, max {:.0} W, average {:.0} W",
            p.wall_idle_watts, p.wall_max_watts, p.average_wall_watts
        )?,
        None => writeln!(out, "  wall power unknown: energy and colocation not included")?,
    }
    writeln!(
        out,
        "Depreciation: {} {cur} per year; residual {}; value at the horizon {}",
        money(t.depreciation_per_year),
        money(t.residual_value),
        money(t.value_at_horizon)
    )?;
    writeln!(out)?;
    writeln!(out, "{:>4} {:>16} {:>16} {:>16} {:>18}", "Year", "Capex", "Opex", "Depreciation", "Cumulative cash")?;
    for y in &t.yearly {
        writeln!(
            out,
            "{:>4} {:>16} {:>16} {:>16} {:>18}",
            y.year,
            money(y.capex),
            money(y.opex.total),
            money(y.depreciation),
            money(y.cumulative_cash)
        )?;
    }
    writeln!(out)?;
    writeln!(out, "{:<58} {:>14} {:>16}  Break-even", "Option", "Per year", "Total")?;
    writeln!(
        out,
        "{:<58} {:>14} {:>16}",
        "Owned (net of value at the horizon)",
        money(o.total),
        money(t.totals.owned)
    )?;
    for opt in &t.options {
        let mark = if t.primary_option.as_deref() == Some(opt.input.id.as_str()) { "* " } else { "  " };
        let check = match opt.input.price_check {
            Some(crate::core::catalog::PriceCheck::Unverified) => " (price unverified)",
            _ => "",
        };
        writeln!(
            out,
            "{mark}{:<56} {:>14} {:>16}  {}",
            format!("{}{check}", opt.input.label),
            money(opt.per_year),
            money(opt.total),
            opt.break_even_month.map_or_else(|| "never".to_owned(), |m| format!("month {m:.1}"))
        )?;
    }
    if t.options.is_empty() {
        writeln!(out, "  (no cloud option: see the findings)")?;
    }
    writeln!(out)?;
    if let Some(primary) = &t.primary_option {
        writeln!(out, "Compared with {primary}:")?;
        writeln!(out, "  break-even: {}", months_text(t.break_even_month, t.months))?;
        writeln!(
            out,
            "  break-even utilization: {}",
            t.break_even_utilization
                .map_or_else(|| "none between 0 and 100 % (or the option does not bill by usage)".to_owned(), percent)
        )?;
    }
    if let Some(cost) = t.cost_per_gpu_hour {
        writeln!(out, "Owned cost per used GPU-hour: {cost:.2} {cur}")?;
    }
    writeln!(
        out,
        "Present value at {} % a year: owned {} {cur}",
        t.present_value.discount_rate_percent,
        money(t.present_value.owned)
    )?;
    if let Some(w) = &t.workload {
        if let Some(v) = w.owned_per_million_tokens {
            writeln!(out, "Owned cost per 1M tokens: {v:.4} {cur}")?;
        }
        if let (Some(h), Some(v)) = (w.run_hours, w.owned_per_run) {
            writeln!(out, "Training run: {h:.1} h, owned cost {} {cur}", money(v))?;
        }
    }
    if let Some(other) = &t.other_reading {
        writeln!(
            out,
            "Other reading ({}): owned total {} {cur}, break-even {}{}",
            match other.reading {
                tco::Reading::EnteredCostIncludesDepreciation => "entered cost includes depreciation",
                _ => "entered cost is operating cost",
            },
            money(other.owned_total),
            months_text(other.break_even_month, t.months),
            match other.owning_cheaper {
                Some(true) => "; owning is cheaper",
                Some(false) => "; renting is cheaper",
                None => "",
            }
        )?;
    }
    let tornado = &t.sensitivity.tornado;
    writeln!(out)?;
    writeln!(
        out,
        "Sensitivity (±20 %) of {}: base {}",
        match tornado.output {
            tco::TornadoOutput::OwningSavings => "the saving from owning",
            tco::TornadoOutput::OwnedTotal => "the owned total",
        },
        money(tornado.base_output)
    )?;
    for bar in &tornado.bars {
        writeln!(
            out,
            "  {:<18} {:>16} .. {:<16}",
            bar.parameter.label(),
            money(bar.output_at_low),
            money(bar.output_at_high)
        )?;
    }
    if !t.notes.is_empty() {
        writeln!(out)?;
        for d in &t.notes {
            writeln!(out, "{}[{}]: {}", d.severity, d.code, d.message)?;
        }
    }
    Ok(())
}

/// The short TCO section of `rigplan report`.
fn write_tco_summary(out: &mut dyn Write, t: &Tco) -> anyhow::Result<()> {
    let cur = &t.currency;
    writeln!(
        out,
        "TCO over {:.2} years at {} utilization ({})",
        t.horizon_years,
        percent(t.utilization),
        t.reading_note
    )?;
    writeln!(
        out,
        "  owned: {} {cur} (capex {} + {} per year{})",
        money(t.totals.owned),
        money(t.capex),
        money(t.owned_per_year.total),
        if t.power.is_none() { ", energy not included: power unknown" } else { "" }
    )?;
    match t.primary_option.as_ref().and_then(|id| t.options.iter().find(|o| &o.input.id == id)) {
        Some(p) => {
            writeln!(out, "  {}: {} {cur}", p.input.label, money(p.total))?;
            writeln!(out, "  break-even: {}", months_text(t.break_even_month, t.months))?;
        }
        None => writeln!(out, "  no matching cloud offer (rigplan tco --offer ID to choose one)")?,
    }
    for d in t.notes.iter().filter(|d| d.severity != Severity::Info) {
        writeln!(out, "  {}[{}]: {}", d.severity, d.code, d.message)?;
    }
    Ok(())
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
    write_power(out, report)?;
    writeln!(out)?;
    write_thermal(out, report)?;
    writeln!(out)?;
    fit::write_fit_section(out, &report.fit)?;
    write_tco_summary(out, &report.tco)?;
    writeln!(out)?;
    write_diagnostics(out, report)
}

fn watts(w: f64) -> String {
    format!("{} W", format_thousands(w, 0))
}

fn write_power(out: &mut dyn Write, report: &Report) -> anyhow::Result<()> {
    let p = &report.power;
    writeln!(
        out,
        "Power (utilization {:.0} %, {} V site, 80 PLUS {} table)",
        p.utilization * 100.0,
        p.site_volts,
        p.efficiency_table
    )?;
    for n in &p.nodes {
        let count = if n.count > 1 { format!(" (per node, ×{})", n.count) } else { String::new() };
        writeln!(out, "  {}{count}", n.name)?;
        writeln!(
            out,
            "    DC: idle {}, typical {}, max {}, transient peak {}",
            watts(n.idle_watts),
            watts(n.typical_watts),
            watts(n.max_watts),
            watts(n.peak_transient_watts)
        )?;
        write!(
            out,
            "    wall: idle {}, typical {}, max {}",
            watts(n.wall_idle_watts),
            watts(n.wall_typical_watts),
            watts(n.wall_watts)
        )?;
        if n.psu_fed.max_watts > 0.0 {
            write!(out, " (PSU efficiency {:.1} % at max)", n.efficiency_max * 100.0)?;
        }
        writeln!(out)?;
        if let Some(psu) = &n.psu {
            let load = n.psu_load_fraction.map_or_else(|| "-".to_owned(), |f| format!("{:.0} %", f * 100.0));
            writeln!(out, "    PSU: {} counting ({}), load at max {load}", watts(psu.capacity_watts), psu.source)?;
        }
        if let Some(r) = &n.recommendation {
            writeln!(
                out,
                "    recommended PSU: {} = max {} + headroom {} ({:.0} %) + ageing {} ({:.0} %) + transient {} -> {}",
                watts(r.required_watts),
                watts(r.max_dc_watts),
                watts(r.sustained_headroom_watts),
                r.sustained_headroom_fraction * 100.0,
                watts(r.ageing_watts),
                r.ageing_fraction * 100.0,
                watts(r.transient_margin_watts),
                watts(r.recommended_watts)
            )?;
        }
        writeln!(
            out,
            "    circuit: {} of {} continuous ({} V, {} A, {} phase(s), 80 %): {} circuit(s)",
            watts(n.circuit.wall_watts),
            watts(n.circuit.continuous_limit_watts),
            n.circuit.volts,
            n.circuit.amps,
            n.circuit.phases,
            n.circuit.circuits_needed
        )?;
    }
    writeln!(
        out,
        "  Total: DC idle {}, typical {}, max {}; wall idle {}, typical {}, max {}",
        watts(p.idle_watts),
        watts(p.typical_watts),
        watts(p.max_watts),
        watts(p.wall_idle_watts),
        watts(p.wall_typical_watts),
        watts(p.wall_watts)
    )?;
    if p.nodes.len() > 1 || p.nodes.iter().any(|n| n.count > 1) || p.cluster_wall.max_watts > 0.0 {
        write!(out, "  Rack view:")?;
        for r in &p.rack.rows {
            write!(out, " {} {:.2} kW × {} = {:.2} kW;", r.name, r.kw_per_node, r.count, r.kw_total)?;
        }
        writeln!(out, " cluster {:.2} kW; total {:.2} kW", p.rack.cluster_kw, p.rack.total_kw)?;
    }
    for a in &p.assumptions {
        writeln!(out, "  * {a}")?;
    }
    Ok(())
}

fn write_thermal(out: &mut dyn Write, report: &Report) -> anyhow::Result<()> {
    let t = &report.thermal;
    writeln!(
        out,
        "Thermal (ambient {:.0} °C): heat {} = {} BTU/h = {:.2} tons of cooling",
        t.ambient_c,
        watts(t.heat_watts),
        format_thousands(t.heat_btu_per_hour, 0),
        t.cooling_tons
    )?;
    for n in &t.nodes {
        writeln!(out, "  {}: heat {} per node", n.name, watts(n.heat_watts))?;
        let a = &n.airflow;
        let avail = a.available_cfm.map_or_else(|| "unknown".to_owned(), |c| format!("{c:.0} CFM"));
        writeln!(out, "    airflow: needs {:.0} CFM at a {:.0} °C rise, fans {avail}", a.needed_cfm, a.design_rise_c)?;
        for c in &n.cpus {
            let h = c.headroom_watts.map_or_else(|| "no cooler".to_owned(), |h| format!("{h:+.0} W headroom"));
            writeln!(out, "    CPU {}: {} max, {h}", c.cpu, watts(c.cpu_max_watts))?;
        }
        for g in &n.gpus {
            writeln!(
                out,
                "    GPU {} #{}: ~{:.0} °C ({}), {:.0} °C below its {:.0} °C limit",
                g.name,
                g.unit + 1,
                g.estimated_temp_c,
                g.cooling,
                g.headroom_c,
                g.max_temp_c
            )?;
        }
    }
    for a in &t.assumptions {
        writeln!(out, "  * {a}")?;
    }
    Ok(())
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
