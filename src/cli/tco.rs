//! `rigplan tco`: the flags become [`TcoOverrides`] for the core's TCO pipeline
//! ([`analysis::analyze_tco_with`]), and the result is rendered as text or JSON; the short TCO
//! section of `rigplan report`.

use super::{Exit, load_build, load_catalog, money};
use crate::core::analysis::tco::{self, OverrideError, Tco, TcoOverrides};
use crate::core::analysis::{self, Severity};
use std::io::Write;
use std::path::Path;

/// `rigplan tco`: the build's TCO under the command line's overrides, as text or JSON.
pub(super) fn run_tco(
    out: &mut dyn Write,
    catalog_dir: Option<&Path>,
    build: &Path,
    overrides: &TcoOverrides,
    json: bool,
) -> anyhow::Result<Exit> {
    let catalog = load_catalog(catalog_dir)?;
    let build = load_build(build)?;
    let tco = analysis::analyze_tco_with(&catalog, &build, overrides)
        .map_err(|e| anyhow::anyhow!(flag_message(&e, overrides)))?;
    if json {
        serde_json::to_writer_pretty(&mut *out, &TcoJson { build_name: &build.name, tco: &tco })?;
        writeln!(out)?;
    } else {
        write_tco_text(out, &build.name, &tco)?;
    }
    Ok(Exit::Ok)
}

/// A refused override, in terms of the flag that set it.
fn flag_message(e: &OverrideError, overrides: &TcoOverrides) -> String {
    let offer = overrides.offer.as_deref().unwrap_or_default();
    match e {
        OverrideError::Horizon(y) => format!("--years {y}: the horizon must be between 0.25 and 15 years"),
        OverrideError::Utilization(u) => format!("--utilization {u}: utilization is a fraction between 0 and 1"),
        OverrideError::UnknownOffer(offer_id) => format!(
            "--offer {offer}: no cloud offer `{offer_id}` in the catalog or among the build's custom offers (see catalog/clouds.ron)"
        ),
        OverrideError::UnknownTerm(t) => format!("--offer {offer}: `{t}` is not a term (one of {})", tco::term_keys()),
        OverrideError::TokensPerSecond(tps) => format!("--tokens-per-second {tps}: must be a positive number"),
        OverrideError::RunTokens(t) => format!("--run-tokens {t}: must be a positive number"),
    }
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
pub(super) fn write_tco_summary(out: &mut dyn Write, t: &Tco) -> anyhow::Result<()> {
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
