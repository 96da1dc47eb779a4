//! Evaluating one scenario: capex and owned cost lines, the year-by-year table, each cloud
//! option's totals and break-even, the monthly curves, present values, cost per token and per
//! run, and the other reading of an entered yearly cost.

use super::cloud::CloudOption;
use super::scenario::{Reading, Scenario, WorkloadInput};
use super::sensitivity::{Sensitivity, break_even_utilization, tornado, utilization_sweep};
use super::{MONTHS_PER_YEAR, SECONDS_PER_HOUR, TOKENS_PER_MILLION};
use crate::core::analysis::Diagnostic;
use crate::core::catalog::PartId;
use crate::core::i18n::{Lang, Sentence};
use crate::core::units::Currency;
use serde::Serialize;
use std::collections::BTreeMap;

/// Capex and its parts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CapexLines {
    pub parts: f64,
    pub tax: f64,
    pub shipping: f64,
    pub installation: f64,
    pub custom: f64,
}

/// Owned operating cost lines for one full year.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OwnedLines {
    pub energy: f64,
    pub colocation: f64,
    pub maintenance: f64,
    pub staff: f64,
    pub licences: f64,
    pub custom_opex: f64,
    /// The operating part of an entered yearly owned cost (0 when none was entered).
    pub entered_opex: f64,
    pub total: f64,
}

impl OwnedLines {
    fn scaled(&self, f: f64) -> Self {
        Self {
            energy: self.energy * f,
            colocation: self.colocation * f,
            maintenance: self.maintenance * f,
            staff: self.staff * f,
            licences: self.licences * f,
            custom_opex: self.custom_opex * f,
            entered_opex: self.entered_opex * f,
            total: self.total * f,
        }
    }
}

/// Power figures the energy and colocation lines used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PowerUse {
    pub wall_idle_watts: f64,
    pub wall_max_watts: f64,
    pub average_wall_watts: f64,
}

/// The owned cost lines of one year of the horizon (the last year may be partial).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct YearLine {
    pub year: u32,
    pub fraction_of_year: f64,
    /// Capex, paid in year 1.
    pub capex: f64,
    #[serde(flatten)]
    pub opex: OwnedLines,
    /// Straight-line depreciation of the year (not a cash cost).
    pub depreciation: f64,
    /// Book value credited at the end of the horizon (last year only).
    pub residual_credit: f64,
    /// Capex + operating cost paid this year.
    pub cash: f64,
    pub cumulative_cash: f64,
}

/// Cumulative cost per month, month 0 to the end of the horizon.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Curves {
    /// Cash spent on the build: capex at month 0, then operating cost.
    pub owned: Vec<f64>,
    /// One curve per cloud option id.
    #[serde(flatten)]
    pub options: BTreeMap<String, Vec<f64>>,
}

/// Totals over the horizon.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Totals {
    /// Owned cost net of the value still held at the horizon.
    pub owned: f64,
    /// Cash spent on the build (capex + operating cost).
    pub owned_cash: f64,
    /// Book value of the build at the horizon.
    pub residual_credit: f64,
    #[serde(flatten)]
    pub options: BTreeMap<String, f64>,
}

/// Present value of each total at the discount rate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PresentValues {
    pub discount_rate_percent: f64,
    pub owned: f64,
    #[serde(flatten)]
    pub options: BTreeMap<String, f64>,
}

/// Cost per unit of work.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorkloadCost {
    pub tokens_per_second: f64,
    pub owned_per_million_tokens: Option<f64>,
    pub primary_per_million_tokens: Option<f64>,
    pub run_tokens: Option<f64>,
    pub run_hours: Option<f64>,
    pub owned_per_run: Option<f64>,
    pub primary_per_run: Option<f64>,
    /// Facility energy per million tokens while the build runs the workload, kWh: wall power
    /// with the GPUs busy (the build's max) × PUE / tokens per second (None without power
    /// figures).
    pub energy_kwh_per_million_tokens: Option<f64>,
    /// Facility energy of one run of `run_tokens`, kWh.
    pub run_energy_kwh: Option<f64>,
}

/// The result under the other reading of an entered yearly cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReadingSummary {
    pub reading: Reading,
    pub owned_opex_per_year: f64,
    pub owned_total: f64,
    pub break_even_month: Option<f64>,
    /// Whether owning beats the primary option under this reading (`None` without one).
    pub owning_cheaper: Option<bool>,
}

impl Tco {
    /// Renders the reading note and every note's message and fix in `lang`.
    pub fn localize(&mut self, lang: Lang) {
        self.reading_note.localize(lang);
        self.notes.iter_mut().for_each(|d| d.localize(lang));
    }
}

/// The TCO section of a report. Amounts are in `currency`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tco {
    pub currency: Currency,
    pub usd_exchange_rate: f64,
    /// The horizon actually modelled (whole months).
    pub horizon_years: f64,
    pub months: u32,
    pub utilization: f64,
    pub gpus: u64,
    pub gpu_model: Option<PartId>,
    pub reading: Reading,
    /// The reading in words (English unless [`Self::localize`]d).
    pub reading_note: Sentence,
    pub capex: f64,
    pub capex_lines: CapexLines,
    /// `None` when the build's power is not known (energy and colocation are then 0).
    pub power: Option<PowerUse>,
    /// Operating cost of one full year.
    pub owned_per_year: OwnedLines,
    pub depreciation_per_year: f64,
    pub residual_value: f64,
    pub value_at_horizon: f64,
    pub yearly: Vec<YearLine>,
    pub options: Vec<CloudOption>,
    pub primary_option: Option<String>,
    pub monthly_cumulative: Curves,
    pub totals: Totals,
    pub present_value: PresentValues,
    /// Break-even month against the primary option.
    pub break_even_month: Option<f64>,
    pub break_even_within_horizon: bool,
    /// Utilization at which owning and the primary option cost the same over the horizon
    /// (`None` when the primary option does not bill by usage or they never cross in 0–100 %).
    pub break_even_utilization: Option<f64>,
    /// Owned total per GPU-hour actually used.
    pub cost_per_gpu_hour: Option<f64>,
    pub workload: Option<WorkloadCost>,
    pub sensitivity: Sensitivity,
    /// The result under the other reading of an entered yearly cost, when one was entered.
    pub other_reading: Option<ReadingSummary>,
    /// Findings about the comparison (unknown power, unpriced lines, no matching offer, …),
    /// most severe first. They qualify the TCO figures rather than the build, so they stay in
    /// this section instead of the report's findings.
    pub notes: Vec<Diagnostic>,
}

/// Computes every TCO output of a scenario.
#[must_use]
pub fn evaluate(s: &Scenario) -> Tco {
    let u = s.utilization;
    let months = s.months();
    let years = s.years();
    let capex = s.capex();
    let lines = s.owned_lines_at(u);
    let opex = lines.total;
    let value_at_horizon = s.book_value(years);
    let owned_cash = capex + opex * years;
    let owned_total = owned_cash - value_at_horizon;
    let used_gpu_hours = s.used_gpu_hours();
    let per_gpu_hour = |total: f64| (used_gpu_hours > 0.0).then(|| total / used_gpu_hours);

    let options: Vec<CloudOption> = s
        .options
        .iter()
        .map(|o| {
            let per_year = s.option_per_year_at(o, u);
            let total = per_year * years;
            CloudOption {
                input: o.clone(),
                per_year,
                per_month: per_year / MONTHS_PER_YEAR,
                total,
                present_value: s.present_value(0.0, per_year / MONTHS_PER_YEAR, 0.0),
                break_even_month: s.break_even_month(o),
                cost_per_gpu_hour: per_gpu_hour(total),
                owning_cheaper: owned_total < total,
            }
        })
        .collect();

    let month_points =
        |per_month: f64, start: f64| -> Vec<f64> { (0..=months).map(|m| start + per_month * f64::from(m)).collect() };
    let curves = Curves {
        owned: month_points(opex / MONTHS_PER_YEAR, capex),
        options: options.iter().map(|o| (o.input.id.clone(), month_points(o.per_month, 0.0))).collect(),
    };
    let totals = Totals {
        owned: owned_total,
        owned_cash,
        residual_credit: value_at_horizon,
        options: options.iter().map(|o| (o.input.id.clone(), o.total)).collect(),
    };
    let present_value = PresentValues {
        discount_rate_percent: s.costs.discount_rate_percent,
        owned: s.present_value(capex, opex / MONTHS_PER_YEAR, -value_at_horizon),
        options: options.iter().map(|o| (o.input.id.clone(), o.present_value)).collect(),
    };

    let primary = s.primary_option();
    let break_even_month = primary.and_then(|p| s.break_even_month(p));
    let tco_primary_total = primary.map(|p| s.option_total_at(p, u));

    Tco {
        currency: s.currency.clone(),
        usd_exchange_rate: s.usd_exchange_rate,
        horizon_years: years,
        months,
        utilization: u,
        gpus: s.gpus,
        gpu_model: s.gpu_model.clone(),
        reading: s.reading(),
        reading_note: Sentence::new(s.reading().note()),
        capex,
        capex_lines: s.capex_lines(),
        power: s.power.map(|p| PowerUse {
            wall_idle_watts: p.wall_idle_watts,
            wall_max_watts: p.wall_max_watts,
            average_wall_watts: p.average_watts(u),
        }),
        owned_per_year: lines.clone(),
        depreciation_per_year: s.depreciation_per_year(),
        residual_value: s.residual_value(),
        value_at_horizon,
        yearly: yearly_lines(s, &lines),
        primary_option: primary.map(|p| p.id.clone()),
        monthly_cumulative: curves,
        totals,
        present_value,
        break_even_month,
        break_even_within_horizon: break_even_month.is_some_and(|m| m <= f64::from(months)),
        break_even_utilization: break_even_utilization(s),
        cost_per_gpu_hour: per_gpu_hour(owned_total),
        workload: s.workload.map(|w| workload_cost(s, w, owned_total, tco_primary_total)),
        sensitivity: Sensitivity { utilization: utilization_sweep(s), tornado: tornado(s) },
        other_reading: other_reading(s),
        notes: Vec::new(),
        options,
    }
}

/// The owned cost lines year by year; the last year is partial when the horizon is not a
/// whole number of years.
fn yearly_lines(s: &Scenario, full_year: &OwnedLines) -> Vec<YearLine> {
    let months = s.months();
    let capex = s.capex();
    let life = s.life_years();
    let dep = s.depreciation_per_year();
    let year_count = months.div_ceil(12);
    let mut cumulative = 0.0;
    (1..=year_count)
        .map(|year| {
            let start_month = (year - 1) * 12;
            let months_in_year = (months - start_month).min(12);
            let fraction = f64::from(months_in_year) / MONTHS_PER_YEAR;
            let start = f64::from(start_month) / MONTHS_PER_YEAR;
            let end = start + fraction;
            let depreciation = dep * (end.min(life) - start.min(life)).max(0.0);
            let opex = full_year.scaled(fraction);
            let year_capex = if year == 1 { capex } else { 0.0 };
            let cash = year_capex + opex.total;
            cumulative += cash;
            YearLine {
                year,
                fraction_of_year: fraction,
                capex: year_capex,
                opex,
                depreciation,
                residual_credit: if year == year_count { s.book_value(s.years()) } else { 0.0 },
                cash,
                cumulative_cash: cumulative,
            }
        })
        .collect()
}

fn workload_cost(s: &Scenario, w: WorkloadInput, owned_total: f64, primary_total: Option<f64>) -> WorkloadCost {
    let busy = s.busy_hours();
    let tokens = w.tokens_per_second * SECONDS_PER_HOUR * busy;
    let per_million = |total: f64| (tokens > 0.0).then(|| total / tokens * TOKENS_PER_MILLION);
    let run_hours =
        w.run_tokens.filter(|_| w.tokens_per_second > 0.0).map(|t| t / w.tokens_per_second / SECONDS_PER_HOUR);
    let per_run = |total: f64| run_hours.filter(|_| busy > 0.0).map(|h| total / busy * h);
    let busy_kw = s.power.map(|p| p.wall_max_watts * s.pue / 1000.0);
    let energy_kwh_per_million_tokens = busy_kw
        .filter(|_| w.tokens_per_second > 0.0)
        .map(|kw| kw * TOKENS_PER_MILLION / w.tokens_per_second / SECONDS_PER_HOUR);
    WorkloadCost {
        energy_kwh_per_million_tokens,
        run_energy_kwh: busy_kw.zip(run_hours).map(|(kw, h)| kw * h),
        tokens_per_second: w.tokens_per_second,
        owned_per_million_tokens: per_million(owned_total),
        primary_per_million_tokens: primary_total.and_then(per_million),
        run_tokens: w.run_tokens,
        run_hours,
        owned_per_run: per_run(owned_total),
        primary_per_run: primary_total.and_then(per_run),
    }
}

fn other_reading(s: &Scenario) -> Option<ReadingSummary> {
    s.costs.annual_owned_cost?;
    let mut other = s.with_primary_only();
    other.costs.annual_cost_includes_depreciation = !s.costs.annual_cost_includes_depreciation;
    let u = other.utilization;
    let owned_total = other.owned_total_at(u);
    let primary = other.primary_option();
    Some(ReadingSummary {
        reading: other.reading(),
        owned_opex_per_year: other.owned_opex_at(u),
        owned_total,
        break_even_month: primary.and_then(|p| other.break_even_month(p)),
        owning_cheaper: primary.map(|p| owned_total < other.option_total_at(p, u)),
    })
}
