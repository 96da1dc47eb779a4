//! `rigplan tco`: the flags become [`TcoOverrides`] for the core's TCO pipeline
//! ([`analysis::analyze_tco_with`]), and the result is rendered as text or JSON; the short TCO
//! section of `rigplan report`, in the reader's language ([`super::texts`]).

use super::report::finding_line;
use super::texts::{
    BREAK_EVEN, BREAK_EVEN_UTILIZATION, COMPARED_WITH, CliTexts, DEPRECIATION, GPU_HOUR, OPEX, OPEX_LINES,
    OTHER_READING, PER_MILLION_TOKENS, PRESENT_VALUE, READING, SENSITIVITY, TCO_CAPEX, TCO_GPU, TCO_HEADING,
    TCO_OPTION, TCO_OWNED, TCO_SUMMARY, TCO_WALL, TRAINING_RUN, pad_left, pad_right,
};
use super::{Exit, catalog_and_build, money};
use crate::core::analysis::tco::{
    self, MAX_RUN_TOKENS, MAX_TOKENS_PER_SECOND, MIN_TOKENS_PER_SECOND, OverrideError, Tco, TcoOverrides,
};
use crate::core::analysis::{self, Severity};
use crate::core::export::texts::fill;
use crate::core::i18n::Lang;
use crate::core::units::format_number as number;
use std::io::Write;
use std::path::Path;

/// How `rigplan tco` prints: JSON or text, with the figures' bases (`--explain`), in `lang`.
#[derive(Clone, Copy)]
pub(super) struct Output {
    pub json: bool,
    pub explain: bool,
    pub lang: Lang,
}

/// `rigplan tco`: the build's TCO under the command line's overrides, as text or JSON in
/// `lang`.
pub(super) fn run_tco(
    out: &mut dyn Write,
    catalog_dir: Option<&Path>,
    build: &Path,
    overrides: &TcoOverrides,
    how: Output,
) -> anyhow::Result<Exit> {
    let Output { json, explain, lang } = how;
    let (catalog, build) = catalog_and_build(catalog_dir, build, overrides.offer.as_deref())?;
    let mut tco = analysis::analyze_tco_with(&catalog, &build, overrides)
        .map_err(|e| anyhow::anyhow!(flag_message(&e, overrides)))?;
    // The reading note and the notes' messages follow the language, in text and in JSON's
    // message fields, as `report --json`'s findings do.
    tco.localize(lang);
    // The bases only when printed: the JSON carries them, text prints them with --explain.
    let mut basis = if json || explain { analysis::basis::report::of_tco(&build.site, &tco) } else { Vec::new() };
    analysis::basis::localize_all(&mut basis, lang);
    if json {
        serde_json::to_writer_pretty(&mut *out, &TcoJson { build_name: &build.name, tco: &tco, basis: &basis })?;
        writeln!(out)?;
    } else {
        write_tco_text(out, &build.name, &tco, lang)?;
        if explain {
            writeln!(out)?;
            super::explain::write_bases(out, &basis, lang)?;
        }
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
        OverrideError::TokensPerSecond(tps) => format!(
            "--tokens-per-second {}: must be between {MIN_TOKENS_PER_SECOND} and {}",
            number(*tps),
            money(MAX_TOKENS_PER_SECOND)
        ),
        OverrideError::RunTokens(t) => {
            format!("--run-tokens {}: must be between 1 and {}", number(*t), number(MAX_RUN_TOKENS))
        }
    }
}

/// `rigplan tco --json`: the TCO section with the build's name.
#[derive(serde::Serialize)]
struct TcoJson<'a> {
    build_name: &'a str,
    #[serde(flatten)]
    tco: &'a Tco,
    /// Where each TCO figure comes from (report-schema.md, `basis[]`).
    basis: &'a [analysis::basis::Basis],
}

fn percent(fraction: f64) -> String {
    format!("{:.0} %", fraction * 100.0)
}

fn write_tco_text(out: &mut dyn Write, name: &str, t: &Tco, lang: Lang) -> anyhow::Result<()> {
    let words = CliTexts::of(lang);
    let cur = t.currency.to_string();
    let cur = cur.as_str();
    let gpu = t.gpu_model.as_ref().map(|g| words.say(&TCO_GPU, &[("gpu", &g.to_string())])).unwrap_or_default();
    writeln!(
        out,
        "{}",
        words.say(
            &TCO_HEADING,
            &[
                ("name", name),
                ("years", &format!("{:.2}", t.horizon_years)),
                ("months", &t.months.to_string()),
                ("utilization", &percent(t.utilization)),
                ("gpus", &t.gpus.to_string()),
                ("gpu", &gpu),
            ]
        )
    )?;
    writeln!(out, "{}", words.say(&READING, &[("note", &t.reading_note)]))?;
    writeln!(out)?;
    let c = &t.capex_lines;
    writeln!(
        out,
        "{}",
        words.say(
            &TCO_CAPEX,
            &[
                ("capex", &money(t.capex)),
                ("currency", cur),
                ("parts", &money(c.parts)),
                ("tax", &money(c.tax)),
                ("shipping", &money(c.shipping)),
                ("installation", &money(c.installation)),
                ("custom", &money(c.custom)),
            ]
        )
    )?;
    let o = &t.owned_per_year;
    writeln!(out, "{}", words.say(&OPEX, &[("total", &money(o.total)), ("currency", cur)]))?;
    writeln!(
        out,
        "{}",
        words.say(
            &OPEX_LINES,
            &[
                ("energy", &money(o.energy)),
                ("colocation", &money(o.colocation)),
                ("maintenance", &money(o.maintenance)),
                ("staff", &money(o.staff)),
                ("licences", &money(o.licences)),
                ("custom", &money(o.custom_opex)),
                ("entered", &money(o.entered_opex)),
            ]
        )
    )?;
    match &t.power {
        Some(p) => writeln!(
            out,
            "{}",
            words.say(
                &TCO_WALL,
                &[
                    ("idle", &format!("{:.0}", p.wall_idle_watts)),
                    ("max", &format!("{:.0}", p.wall_max_watts)),
                    ("average", &format!("{:.0}", p.average_wall_watts)),
                ]
            )
        )?,
        None => writeln!(out, "  {}", words.wall_power_unknown)?,
    }
    writeln!(
        out,
        "{}",
        words.say(
            &DEPRECIATION,
            &[
                ("depreciation", &money(t.depreciation_per_year)),
                ("currency", cur),
                ("residual", &money(t.residual_value)),
                ("value", &money(t.value_at_horizon)),
            ]
        )
    )?;
    writeln!(out)?;
    let [year, capex, opex, depreciation, cumulative] = words.year_columns;
    writeln!(
        out,
        "{} {} {} {} {}",
        pad_left(year, 4),
        pad_left(capex, 16),
        pad_left(opex, 16),
        pad_left(depreciation, 16),
        pad_left(cumulative, 18)
    )?;
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
    let [option, per_year, total, break_even] = words.option_columns;
    writeln!(out, "{} {} {}  {break_even}", pad_right(option, 58), pad_left(per_year, 14), pad_left(total, 16))?;
    writeln!(out, "{} {:>14} {:>16}", pad_right(words.owned_net, 58), money(o.total), money(t.totals.owned))?;
    for opt in &t.options {
        let mark = if t.primary_option.as_deref() == Some(opt.input.id.as_str()) { "* " } else { "  " };
        let check = match opt.input.price_check {
            Some(crate::core::catalog::PriceCheck::Unverified) => words.price_unverified,
            _ => "",
        };
        writeln!(
            out,
            "{mark}{} {:>14} {:>16}  {}",
            pad_right(&format!("{}{check}", opt.input.label), 56),
            money(opt.per_year),
            money(opt.total),
            opt.break_even_month.map_or_else(
                || words.sheet.never.to_owned(),
                |m| fill(words.sheet.break_even_at, &[&format!("{m:.1}")])
            )
        )?;
    }
    if t.options.is_empty() {
        writeln!(out, "  {}", words.no_cloud_option)?;
    }
    writeln!(out)?;
    if let Some(primary) = &t.primary_option {
        writeln!(out, "{}", words.say(&COMPARED_WITH, &[("option", primary)]))?;
        writeln!(out, "{}", words.say(&BREAK_EVEN, &[("when", &words.break_even(t.break_even_month, t.months))]))?;
        let utilization = t.break_even_utilization.map_or_else(|| words.no_break_even_utilization.to_owned(), percent);
        writeln!(out, "{}", words.say(&BREAK_EVEN_UTILIZATION, &[("utilization", &utilization)]))?;
    }
    if let Some(cost) = t.cost_per_gpu_hour {
        writeln!(out, "{}", words.say(&GPU_HOUR, &[("cost", &format!("{cost:.2}")), ("currency", cur)]))?;
    }
    writeln!(
        out,
        "{}",
        words.say(
            &PRESENT_VALUE,
            &[
                ("rate", &t.present_value.discount_rate_percent.to_string()),
                ("value", &money(t.present_value.owned)),
                ("currency", cur),
            ]
        )
    )?;
    if let Some(wl) = &t.workload {
        if let Some(v) = wl.owned_per_million_tokens {
            writeln!(out, "{}", words.say(&PER_MILLION_TOKENS, &[("cost", &format!("{v:.4}")), ("currency", cur)]))?;
        }
        if let (Some(h), Some(v)) = (wl.run_hours, wl.owned_per_run) {
            writeln!(
                out,
                "{}",
                words.say(&TRAINING_RUN, &[("hours", &format!("{h:.1}")), ("cost", &money(v)), ("currency", cur)])
            )?;
        }
    }
    if let Some(other) = &t.other_reading {
        let reading = match other.reading {
            tco::Reading::EnteredCostIncludesDepreciation => words.reading_includes_depreciation,
            _ => words.reading_operating,
        };
        let cheaper = match other.owning_cheaper {
            Some(true) => words.owning_cheaper,
            Some(false) => words.renting_cheaper,
            None => "",
        };
        writeln!(
            out,
            "{}",
            words.say(
                &OTHER_READING,
                &[
                    ("reading", reading),
                    ("total", &money(other.owned_total)),
                    ("currency", cur),
                    ("when", &words.break_even(other.break_even_month, t.months)),
                    ("cheaper", cheaper),
                ]
            )
        )?;
    }
    let tornado = &t.sensitivity.tornado;
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        words.say(
            &SENSITIVITY,
            &[("output", words.tornado_output(tornado.output)), ("base", &money(tornado.base_output))]
        )
    )?;
    for bar in &tornado.bars {
        writeln!(
            out,
            "  {} {:>16} .. {:<16}",
            pad_right(words.tornado_parameter(bar.parameter), 18),
            money(bar.output_at_low),
            money(bar.output_at_high)
        )?;
    }
    if !t.notes.is_empty() {
        writeln!(out)?;
        for d in &t.notes {
            writeln!(out, "{}", finding_line(words, d))?;
        }
    }
    Ok(())
}

/// The short TCO section of `rigplan report`, in `lang`.
pub(super) fn write_tco_summary(out: &mut dyn Write, t: &Tco, lang: Lang) -> anyhow::Result<()> {
    let w = CliTexts::of(lang);
    let cur = t.currency.to_string();
    let cur = cur.as_str();
    writeln!(
        out,
        "{}",
        w.say(
            &TCO_SUMMARY,
            &[
                ("years", &format!("{:.2}", t.horizon_years)),
                ("utilization", &percent(t.utilization)),
                ("note", &t.reading_note),
            ]
        )
    )?;
    writeln!(
        out,
        "{}",
        w.say(
            &TCO_OWNED,
            &[
                ("total", &money(t.totals.owned)),
                ("currency", cur),
                ("capex", &money(t.capex)),
                ("per_year", &money(t.owned_per_year.total)),
                ("energy", if t.power.is_none() { w.energy_not_included } else { "" }),
            ]
        )
    )?;
    match t.primary_option.as_ref().and_then(|id| t.options.iter().find(|o| &o.input.id == id)) {
        Some(p) => {
            writeln!(
                out,
                "{}",
                w.say(&TCO_OPTION, &[("option", &p.input.label), ("total", &money(p.total)), ("currency", cur)])
            )?;
            writeln!(out, "{}", w.say(&BREAK_EVEN, &[("when", &w.break_even(t.break_even_month, t.months))]))?;
        }
        None => writeln!(out, "  {}", w.no_matching_offer)?,
    }
    for d in t.notes.iter().filter(|d| d.severity != Severity::Info) {
        writeln!(out, "  {}", finding_line(w, d))?;
    }
    Ok(())
}
