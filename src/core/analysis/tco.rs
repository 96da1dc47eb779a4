//! Total cost of ownership: owning a build versus renting the same capacity in the cloud.
//!
//! Theory of operation (formulas and traps: `../shared/guide/domain.md` §6). The analysis is a
//! pure function of a [`Scenario`]: every input as a plain number in the build's currency, so
//! it can be tested and swept on its own. [`analyze`] builds the scenario from a resolved build
//! (capex from the bill of materials, the build's cost settings, the matched cloud offers) and
//! an explicit [`PowerInput`] (whole-build wall power at idle and at maximum, from the power
//! analysis).
//!
//! - **Owned.** Capex = parts × (1 + tax % + shipping % + installation %) + custom capex lines.
//!   Operating cost per year = energy (average wall power × 8,760 h × PUE × price per kWh, the
//!   average being idle + utilization × (max − idle)) + colocation (per kW of maximum wall
//!   power per month; when the contract includes power, energy is not counted again) +
//!   maintenance (% of capex) + staff + licences + custom opex lines. Straight-line
//!   depreciation runs from capex to the residual value over the depreciation life; at the end
//!   of the horizon the build is still worth its book value, which the owned total credits:
//!   owned total = capex + opex × years − book value at the horizon.
//! - **Cloud.** Each offer is priced per term: on-demand and spot bill the used hours only
//!   (instances × 8,760 h × utilization; spot adds the interruption overhead), reserved terms
//!   bill every hour, a fixed annual quote bills its yearly amount. Catalog prices are USD and
//!   convert at the build's exchange rate.
//! - **Break-even month** = capex / (cloud per month − owned operating cost per month): only
//!   operating cost is subtracted, because counting amortised capex on the right would count
//!   it twice (domain.md §6). `None` when the cloud never costs more per month than running
//!   the build.
//! - **The field guides' entered yearly cost.** When the build enters one yearly owned cost
//!   (the guides' "267k CNY per year including power and maintenance"), it replaces the
//!   computed energy and maintenance lines, and the report states which reading it used: the
//!   literal one (the figure is operating cost) or the depreciation one (the figure already
//!   contains depreciation, which is taken out), and gives the other reading's result too.

use crate::core::analysis::bom::Bom;
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::build::{CostKind, Costs, CustomPricing};
use crate::core::catalog::{CloudOffer, GpuFormFactor, PartId, PriceCheck};
use crate::core::resolve::Resolved;
use crate::core::units::{Currency, HOURS_PER_YEAR};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Months in a year.
pub const MONTHS_PER_YEAR: f64 = 12.0;
/// Watts in a kilowatt (SI).
pub const WATTS_PER_KILOWATT: f64 = 1_000.0;
/// Seconds in an hour.
pub const SECONDS_PER_HOUR: f64 = 3_600.0;
/// Tokens in the "per 1M tokens" unit that serving prices are quoted in.
pub const TOKENS_PER_MILLION: f64 = 1_000_000.0;
/// Relative change applied to each tornado parameter (the issue's ±20 %).
pub const TORNADO_SWING_FRACTION: f64 = 0.2;
/// Steps of the utilization sweep: 0 %, 5 %, …, 100 %.
pub const UTILIZATION_SWEEP_STEPS: u32 = 20;
/// Lowest possible PUE: facility power over IT power is at least 1 (The Green Grid, White
/// Paper 49, "PUE: a comprehensive examination of the metric").
pub const MIN_PUE: f64 = 1.0;
/// Shortest depreciation life the model divides by, years (one month); the build file checks
/// a larger minimum, this only keeps a hand-made scenario from dividing by zero.
pub const MIN_DEPRECIATION_LIFE_YEARS: f64 = 1.0 / MONTHS_PER_YEAR;
/// Points per percent.
const PERCENT: f64 = 100.0;

/// Whole-build wall power the energy and colocation lines are computed from (from the power
/// analysis: `wall_idle_watts` and `wall_watts` at maximum).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PowerInput {
    pub wall_idle_watts: f64,
    pub wall_max_watts: f64,
}

impl PowerInput {
    /// Average wall draw at a utilization: idle + utilization × (max − idle), the usual first
    /// model of a node's draw over time (domain.md §2, last item).
    #[must_use]
    pub fn average_watts(self, utilization: f64) -> f64 {
        self.wall_idle_watts + utilization.clamp(0.0, 1.0) * (self.wall_max_watts - self.wall_idle_watts).max(0.0)
    }
}

/// A workload's throughput on the build, for cost per token and per training run (from the
/// fit/speed engine, or entered).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct WorkloadInput {
    /// Tokens per second the whole build processes while busy.
    pub tokens_per_second: f64,
    /// Tokens of one training run, if a run is planned.
    pub run_tokens: Option<f64>,
}

/// How a cloud option is sold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    OnDemand,
    #[serde(rename = "reserved_1y")]
    Reserved1y,
    #[serde(rename = "reserved_3y")]
    Reserved3y,
    Spot,
    /// A user-entered offer.
    Custom,
}

impl Term {
    /// The suffix of option ids (`aws-p5-48xlarge:on_demand`).
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Self::OnDemand => "on_demand",
            Self::Reserved1y => "reserved_1y",
            Self::Reserved3y => "reserved_3y",
            Self::Spot => "spot",
            Self::Custom => "custom",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::OnDemand => "on-demand",
            Self::Reserved1y => "1-year reserved",
            Self::Reserved3y => "3-year reserved",
            Self::Spot => "spot",
            Self::Custom => "custom",
        }
    }

    fn from_key(key: &str) -> Option<Self> {
        [Self::OnDemand, Self::Reserved1y, Self::Reserved3y, Self::Spot, Self::Custom]
            .into_iter()
            .find(|t| t.key() == key)
    }
}

/// What a cloud option charges for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Billing {
    /// Used hours only: instances × 8,760 h × utilization × (1 + overhead).
    UsedHours,
    /// Every hour of the year, used or not.
    EveryHour,
    /// A fixed amount per year.
    FixedAnnual,
}

/// One way of renting the capacity, priced in the build's currency.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CloudOptionInput {
    /// `<offer id>:<term>`.
    pub id: String,
    pub offer: String,
    /// Human-readable name, e.g. "AWS p5.48xlarge, on-demand".
    pub label: String,
    pub term: Term,
    pub billing: Billing,
    /// Instances rented (node groups × nodes × instances per node).
    pub instances: u64,
    pub gpus_rented: u64,
    /// For hourly billing: the price of all rented instances per hour; for a fixed annual
    /// quote: the amount per year. Build currency.
    pub price: f64,
    /// Extra paid hours for work lost to interruptions, fraction of the used hours (spot).
    pub overhead_fraction: f64,
    pub gpu: Option<PartId>,
    pub region: Option<String>,
    pub price_date: Option<String>,
    pub price_check: Option<PriceCheck>,
    pub source: String,
}

/// Everything the TCO model needs, as plain numbers. Amounts are in `currency`.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    pub currency: Currency,
    pub usd_exchange_rate: f64,
    /// Priced catalog parts (the percentages apply to this).
    pub parts_capex: f64,
    /// Custom capex lines.
    pub custom_capex: f64,
    /// Custom opex lines, per year.
    pub custom_opex_per_year: f64,
    pub costs: Costs,
    pub electricity_per_kwh: f64,
    pub pue: f64,
    pub utilization: f64,
    pub horizon_years: f64,
    pub gpus: u64,
    pub gpu_model: Option<PartId>,
    pub power: Option<PowerInput>,
    pub options: Vec<CloudOptionInput>,
    /// Index into `options` of the option the headline figures compare against.
    pub primary: Option<usize>,
    pub workload: Option<WorkloadInput>,
}

/// Which meaning of an entered yearly owned cost the figures use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reading {
    /// No yearly cost was entered; every line is computed.
    Computed,
    /// The entered yearly cost is operating cost (the literal reading of the field guides).
    EnteredCostIsOpex,
    /// The entered yearly cost already contains depreciation, which is taken out.
    EnteredCostIncludesDepreciation,
}

impl Reading {
    fn note(self) -> &'static str {
        match self {
            Self::Computed => "every owned cost line is computed from the build and its cost settings",
            Self::EnteredCostIsOpex => {
                "literal reading: the entered yearly owned cost is operating cost (power, maintenance, …) on top of capex"
            }
            Self::EnteredCostIncludesDepreciation => {
                "depreciation reading: the entered yearly owned cost already contains straight-line depreciation, which is taken out to get the operating cost"
            }
        }
    }
}

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

/// One cloud option with its results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CloudOption {
    #[serde(flatten)]
    pub input: CloudOptionInput,
    pub per_year: f64,
    pub per_month: f64,
    pub total: f64,
    pub present_value: f64,
    /// Month in which owning has cost as much as this option; `None` if never.
    pub break_even_month: Option<f64>,
    /// Total over the GPU-hours actually used.
    pub cost_per_gpu_hour: Option<f64>,
    /// True when owning costs less than this option over the horizon.
    pub owning_cheaper: bool,
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
}

/// One point of the utilization sweep.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepPoint {
    pub utilization: f64,
    pub owned: f64,
    pub options: BTreeMap<String, f64>,
}

/// A parameter of the tornado.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TornadoParameter {
    ElectricityPrice,
    Pue,
    Utilization,
    ResidualValue,
    CloudPrice,
    DepreciationLife,
}

impl TornadoParameter {
    /// A short label for text output.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::ElectricityPrice => "electricity price",
            Self::Pue => "PUE",
            Self::Utilization => "utilization",
            Self::ResidualValue => "residual value",
            Self::CloudPrice => "cloud price",
            Self::DepreciationLife => "depreciation life",
        }
    }

    /// Every parameter, in a stable order.
    pub const ALL: [Self; 6] = [
        Self::ElectricityPrice,
        Self::Pue,
        Self::Utilization,
        Self::ResidualValue,
        Self::CloudPrice,
        Self::DepreciationLife,
    ];

    /// The parameter's current value in a scenario (cloud price: the primary option's price).
    fn value(self, s: &Scenario) -> f64 {
        match self {
            Self::ElectricityPrice => s.electricity_per_kwh,
            Self::Pue => s.pue,
            Self::Utilization => s.utilization,
            Self::ResidualValue => s.costs.residual_percent,
            Self::CloudPrice => s.primary.and_then(|i| s.options.get(i)).map_or(0.0, |o| o.price),
            Self::DepreciationLife => s.costs.depreciation_life_years,
        }
    }

    /// The scenario with this parameter scaled by `factor`, kept within its physical range
    /// (PUE ≥ 1, utilization ≤ 100 %, residual ≤ 100 %).
    fn apply(self, s: &Scenario, factor: f64) -> Scenario {
        let mut t = s.clone();
        match self {
            Self::ElectricityPrice => t.electricity_per_kwh *= factor,
            Self::Pue => t.pue = (t.pue * factor).max(MIN_PUE),
            Self::Utilization => t.utilization = (t.utilization * factor).clamp(0.0, 1.0),
            Self::ResidualValue => t.costs.residual_percent = (t.costs.residual_percent * factor).min(PERCENT),
            Self::CloudPrice => t.options.iter_mut().for_each(|o| o.price *= factor),
            Self::DepreciationLife => t.costs.depreciation_life_years *= factor,
        }
        t
    }
}

/// What the tornado bars measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TornadoOutput {
    /// Primary cloud option total − owned total (positive: owning saves money).
    OwningSavings,
    /// Owned total (no cloud option to compare against).
    OwnedTotal,
}

/// One tornado bar: the output with the parameter at −20 % and +20 %.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TornadoBar {
    pub parameter: TornadoParameter,
    pub base_value: f64,
    pub low_value: f64,
    pub high_value: f64,
    pub output_at_low: f64,
    pub output_at_high: f64,
    /// |output at high − output at low|.
    pub swing: f64,
}

/// The tornado: bars sorted by swing, widest first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tornado {
    pub output: TornadoOutput,
    pub base_output: f64,
    pub bars: Vec<TornadoBar>,
}

/// Sensitivity of the result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sensitivity {
    /// Totals at utilization 0 %, 5 %, …, 100 %.
    pub utilization: Vec<SweepPoint>,
    pub tornado: Tornado,
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
    pub reading_note: String,
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

/// `1 − (1+i)^−n) / i`: present value of 1 paid at the end of each of `n` periods at rate `i`
/// per period (ordinary annuity; Brealey, Myers & Allen, Principles of Corporate Finance,
/// ch. 2, "annuity factor"). `n` when `i` is 0.
#[must_use]
pub fn annuity_factor(rate_per_period: f64, periods: f64) -> f64 {
    if rate_per_period.abs() < 1e-12 {
        periods
    } else {
        (1.0 - (1.0 + rate_per_period).powf(-periods)) / rate_per_period
    }
}

/// Monthly rate equivalent to a yearly effective rate: (1 + r)^(1/12) − 1.
#[must_use]
pub fn monthly_rate(yearly_rate: f64) -> f64 {
    (1.0 + yearly_rate).powf(1.0 / MONTHS_PER_YEAR) - 1.0
}

impl Scenario {
    /// Whole months of the horizon (at least one).
    #[must_use]
    // The value is rounded, finite and clamped to 1..=u32::MAX before the cast.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    pub fn months(&self) -> u32 {
        let m = (self.horizon_years * MONTHS_PER_YEAR).round();
        if m.is_finite() && m >= 1.0 { m.min(f64::from(u32::MAX)) as u32 } else { 1 }
    }

    /// The horizon in years, whole months.
    #[must_use]
    pub fn years(&self) -> f64 {
        f64::from(self.months()) / MONTHS_PER_YEAR
    }

    /// Capex and its lines.
    #[must_use]
    pub fn capex_lines(&self) -> CapexLines {
        let c = &self.costs;
        CapexLines {
            parts: self.parts_capex,
            tax: self.parts_capex * c.tax_percent / PERCENT,
            shipping: self.parts_capex * c.shipping_percent / PERCENT,
            installation: self.parts_capex * c.installation_percent / PERCENT,
            custom: self.custom_capex,
        }
    }

    /// Capex: parts plus percentages plus custom capex lines.
    #[must_use]
    pub fn capex(&self) -> f64 {
        let l = self.capex_lines();
        l.parts + l.tax + l.shipping + l.installation + l.custom
    }

    /// Resale value at the end of the depreciation life.
    #[must_use]
    pub fn residual_value(&self) -> f64 {
        self.capex() * self.costs.residual_percent / PERCENT
    }

    fn life_years(&self) -> f64 {
        self.costs.depreciation_life_years.max(MIN_DEPRECIATION_LIFE_YEARS)
    }

    /// Straight-line depreciation per year: (capex − residual) / life.
    #[must_use]
    pub fn depreciation_per_year(&self) -> f64 {
        (self.capex() - self.residual_value()) / self.life_years()
    }

    /// Book value after `years`: capex − depreciation × min(years, life).
    #[must_use]
    pub fn book_value(&self, years: f64) -> f64 {
        self.capex() - self.depreciation_per_year() * years.clamp(0.0, self.life_years())
    }

    /// The reading of the entered yearly cost.
    #[must_use]
    pub fn reading(&self) -> Reading {
        match (self.costs.annual_owned_cost, self.costs.annual_cost_includes_depreciation) {
            (None, _) => Reading::Computed,
            (Some(_), false) => Reading::EnteredCostIsOpex,
            (Some(_), true) => Reading::EnteredCostIncludesDepreciation,
        }
    }

    /// Owned operating cost lines for a full year at utilization `u`.
    #[must_use]
    pub fn owned_lines_at(&self, u: f64) -> OwnedLines {
        let c = &self.costs;
        let entered = c.annual_owned_cost;
        let energy = match self.power {
            Some(p) if entered.is_none() && !c.colocation_includes_power => {
                p.average_watts(u) / WATTS_PER_KILOWATT * HOURS_PER_YEAR * self.pue * self.electricity_per_kwh
            }
            _ => 0.0,
        };
        let colocation = self
            .power
            .map_or(0.0, |p| c.colocation_per_kw_month * p.wall_max_watts / WATTS_PER_KILOWATT * MONTHS_PER_YEAR);
        let maintenance = if entered.is_some() { 0.0 } else { self.capex() * c.maintenance_percent_per_year / PERCENT };
        let entered_opex = match entered {
            None => 0.0,
            Some(a) if c.annual_cost_includes_depreciation => (a - self.depreciation_per_year()).max(0.0),
            Some(a) => a,
        };
        let staff = c.staff_per_year;
        let licences = c.licences_per_year;
        let custom_opex = self.custom_opex_per_year;
        let total = energy + colocation + maintenance + staff + licences + custom_opex + entered_opex;
        OwnedLines { energy, colocation, maintenance, staff, licences, custom_opex, entered_opex, total }
    }

    /// Owned operating cost per year at utilization `u`.
    #[must_use]
    pub fn owned_opex_at(&self, u: f64) -> f64 {
        self.owned_lines_at(u).total
    }

    /// Owned total over the horizon at utilization `u`: capex + opex × years − book value at
    /// the horizon.
    #[must_use]
    pub fn owned_total_at(&self, u: f64) -> f64 {
        let years = self.years();
        self.capex() + self.owned_opex_at(u) * years - self.book_value(years)
    }

    /// Yearly cost of a cloud option at utilization `u`.
    #[must_use]
    pub fn option_per_year_at(&self, o: &CloudOptionInput, u: f64) -> f64 {
        match o.billing {
            Billing::UsedHours => o.price * HOURS_PER_YEAR * u.clamp(0.0, 1.0) * (1.0 + o.overhead_fraction),
            Billing::EveryHour => o.price * HOURS_PER_YEAR,
            Billing::FixedAnnual => o.price,
        }
    }

    /// Total of a cloud option over the horizon at utilization `u`.
    #[must_use]
    pub fn option_total_at(&self, o: &CloudOptionInput, u: f64) -> f64 {
        self.option_per_year_at(o, u) * self.years()
    }

    /// Break-even month against an option: capex / (cloud per month − owned opex per month).
    #[must_use]
    pub fn break_even_month(&self, o: &CloudOptionInput) -> Option<f64> {
        let gap =
            (self.option_per_year_at(o, self.utilization) - self.owned_opex_at(self.utilization)) / MONTHS_PER_YEAR;
        (gap > 0.0).then(|| self.capex() / gap)
    }

    /// GPU-hours actually used over the horizon.
    #[must_use]
    pub fn used_gpu_hours(&self) -> f64 {
        self.gpus as f64 * HOURS_PER_YEAR * self.years() * self.utilization
    }

    /// Hours the build is busy over the horizon.
    #[must_use]
    pub fn busy_hours(&self) -> f64 {
        HOURS_PER_YEAR * self.years() * self.utilization
    }

    fn primary_option(&self) -> Option<&CloudOptionInput> {
        self.primary.and_then(|i| self.options.get(i))
    }

    /// The tornado's output: primary total − owned total, or the owned total.
    fn tornado_output(&self) -> f64 {
        let owned = self.owned_total_at(self.utilization);
        match self.primary_option() {
            Some(p) => self.option_total_at(p, self.utilization) - owned,
            None => owned,
        }
    }

    /// Present value of a flow: `upfront` now, `per_month` at the end of every month, and
    /// `at_end` at the end of the horizon, at the yearly discount rate.
    fn present_value(&self, upfront: f64, per_month: f64, at_end: f64) -> f64 {
        let r = self.costs.discount_rate_percent / PERCENT;
        let months = f64::from(self.months());
        let i = monthly_rate(r);
        upfront + per_month * annuity_factor(i, months) + at_end * (1.0 + i).powf(-months)
    }
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
        reading_note: s.reading().note().to_owned(),
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

/// Utilization at which owning and the primary option cost the same over the horizon. Both
/// totals are linear in utilization (energy and usage-billed cloud hours are), so the crossing
/// of the line through u = 0 and u = 1 is exact.
fn break_even_utilization(s: &Scenario) -> Option<f64> {
    let p = s.primary_option()?;
    if p.billing != Billing::UsedHours {
        return None;
    }
    let gap_at = |u: f64| s.option_total_at(p, u) - s.owned_total_at(u);
    let (g0, g1) = (gap_at(0.0), gap_at(1.0));
    if (g1 - g0).abs() < f64::EPSILON {
        return None;
    }
    let u = g0 / (g0 - g1);
    (0.0..=1.0).contains(&u).then_some(u)
}

fn workload_cost(s: &Scenario, w: WorkloadInput, owned_total: f64, primary_total: Option<f64>) -> WorkloadCost {
    let busy = s.busy_hours();
    let tokens = w.tokens_per_second * SECONDS_PER_HOUR * busy;
    let per_million = |total: f64| (tokens > 0.0).then(|| total / tokens * TOKENS_PER_MILLION);
    let run_hours =
        w.run_tokens.filter(|_| w.tokens_per_second > 0.0).map(|t| t / w.tokens_per_second / SECONDS_PER_HOUR);
    let per_run = |total: f64| run_hours.filter(|_| busy > 0.0).map(|h| total / busy * h);
    WorkloadCost {
        tokens_per_second: w.tokens_per_second,
        owned_per_million_tokens: per_million(owned_total),
        primary_per_million_tokens: primary_total.and_then(per_million),
        run_tokens: w.run_tokens,
        run_hours,
        owned_per_run: per_run(owned_total),
        primary_per_run: primary_total.and_then(per_run),
    }
}

fn utilization_sweep(s: &Scenario) -> Vec<SweepPoint> {
    (0..=UTILIZATION_SWEEP_STEPS)
        .map(|step| {
            let u = f64::from(step) / f64::from(UTILIZATION_SWEEP_STEPS);
            SweepPoint {
                utilization: u,
                owned: s.owned_total_at(u),
                options: s.options.iter().map(|o| (o.id.clone(), s.option_total_at(o, u))).collect(),
            }
        })
        .collect()
}

fn tornado(s: &Scenario) -> Tornado {
    let mut bars: Vec<TornadoBar> = TornadoParameter::ALL
        .into_iter()
        .map(|parameter| {
            let low = parameter.apply(s, 1.0 - TORNADO_SWING_FRACTION);
            let high = parameter.apply(s, 1.0 + TORNADO_SWING_FRACTION);
            let (output_at_low, output_at_high) = (low.tornado_output(), high.tornado_output());
            TornadoBar {
                parameter,
                base_value: parameter.value(s),
                low_value: parameter.value(&low),
                high_value: parameter.value(&high),
                output_at_low,
                output_at_high,
                swing: (output_at_high - output_at_low).abs(),
            }
        })
        .collect();
    bars.sort_by(|a, b| b.swing.total_cmp(&a.swing).then(a.parameter.cmp(&b.parameter)));
    Tornado {
        output: if s.primary.is_some() { TornadoOutput::OwningSavings } else { TornadoOutput::OwnedTotal },
        base_output: s.tornado_output(),
        bars,
    }
}

fn other_reading(s: &Scenario) -> Option<ReadingSummary> {
    s.costs.annual_owned_cost?;
    let mut other = s.clone();
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

// ---------------------------------------------------------------------------------------------
// From a build

/// The GPUs of a build as the matcher sees them.
struct GpuShape {
    /// Distinct GPU models.
    models: BTreeSet<PartId>,
    /// Per node group: nodes in the group, GPUs per node, and whether the node's GPUs are
    /// linked (SXM/OAM modules on a baseboard, or PCIe cards with NVLink bridges) so that only
    /// an instance holding the whole node rents the same capacity.
    groups: Vec<(u32, u32, bool)>,
}

impl GpuShape {
    fn of(resolved: &Resolved<'_>) -> Self {
        let mut models = BTreeSet::new();
        let mut groups = Vec::new();
        for node in &resolved.nodes {
            for g in &node.parts.gpus {
                models.insert(g.part.id.clone());
            }
            let linked =
                node.nvlink_bridge || node.parts.gpus.iter().any(|g| g.part.form_factor != GpuFormFactor::Pcie);
            groups.push((node.count, node.parts.gpu_count(), linked));
        }
        Self { models, groups }
    }

    /// True when instances of `per_instance` GPUs can stand in for every node: linked nodes
    /// need an instance with at least their GPU count, independent PCIe cards can be rented
    /// one instance at a time.
    fn fits(&self, per_instance: u32) -> bool {
        self.groups.iter().all(|&(_, gpus, linked)| !linked || per_instance >= gpus)
    }

    /// The GPU count of the largest linked node, if any node is linked (for messages).
    fn largest_linked_node(&self) -> Option<u32> {
        self.groups.iter().filter(|g| g.2 && g.1 > 1).map(|g| g.1).max()
    }

    /// Instances needed to give every node its GPUs with `per_instance` GPUs each.
    fn instances(&self, per_instance: u32) -> u64 {
        let per_instance = per_instance.max(1);
        self.groups.iter().map(|&(count, gpus, _)| u64::from(count) * u64::from(gpus.div_ceil(per_instance))).sum()
    }
}

/// The options of one catalog offer, priced in the build currency for `instances`.
fn offer_options(
    offer: &CloudOffer,
    instances: u64,
    usd_rate: f64,
    spot_overhead: f64,
    only: Option<Term>,
) -> Vec<CloudOptionInput> {
    let terms = [
        (Term::OnDemand, Some(offer.on_demand_usd_per_hour), Billing::UsedHours),
        (Term::Reserved1y, offer.reserved_1y_usd_per_hour, Billing::EveryHour),
        (Term::Reserved3y, offer.reserved_3y_usd_per_hour, Billing::EveryHour),
        (Term::Spot, offer.spot_usd_per_hour, Billing::UsedHours),
    ];
    terms
        .into_iter()
        .filter(|(term, _, _)| only.is_none_or(|t| t == *term))
        .filter_map(|(term, usd, billing)| {
            let usd = usd?;
            Some(CloudOptionInput {
                id: format!("{}:{}", offer.id, term.key()),
                offer: offer.id.clone(),
                label: format!("{} {}, {}", offer.provider, offer.instance, term.label()),
                term,
                billing,
                instances,
                gpus_rented: instances * u64::from(offer.gpus_per_instance),
                price: usd * usd_rate * instances as f64,
                overhead_fraction: if term == Term::Spot { spot_overhead } else { 0.0 },
                gpu: Some(offer.gpu.clone()),
                region: Some(offer.region.clone()),
                price_date: Some(offer.price_date.clone()),
                price_check: Some(offer.price_check),
                source: offer.source.clone(),
            })
        })
        .collect()
}

/// Builds the scenario of a resolved build. `power` is the whole build's wall power from the
/// power analysis; `workload` the throughput from the speed engine, when known.
#[must_use]
pub fn scenario(
    resolved: &Resolved<'_>,
    bom: &Bom,
    power: Option<PowerInput>,
    workload: Option<WorkloadInput>,
) -> (Scenario, Vec<Diagnostic>) {
    let build = resolved.build;
    let costs = &build.costs;
    let mut diagnostics = Vec::new();
    let shape = GpuShape::of(resolved);
    let gpus = resolved.total_gpus();
    let gpu_model = if shape.models.len() == 1 { shape.models.first().cloned() } else { None };
    let spot_overhead = costs.spot_overhead_percent / PERCENT;
    let usd_rate = build.site.usd_exchange_rate;

    let (chosen_offer, chosen_term) = match costs.chosen_offer.as_deref() {
        Some(c) => match c.split_once(':') {
            Some((offer, term)) => (Some(offer), Term::from_key(term)),
            None => (Some(c), None),
        },
        None => (None, None),
    };
    let mut options = Vec::new();
    if let Some(id) = chosen_offer {
        if let Some(offer) = resolved.catalog.cloud(id) {
            options.extend(offer_options(
                offer,
                shape.instances(offer.gpus_per_instance),
                usd_rate,
                spot_overhead,
                chosen_term,
            ));
            if gpu_model.as_ref().is_some_and(|m| m != &offer.gpu) {
                diagnostics.push(Diagnostic::new(
                    Severity::Info,
                    "tco-offer-gpu-differs",
                    format!("the chosen cloud offer `{id}` rents {} GPUs, not the build's", offer.gpu),
                ));
            }
        } else if !costs.custom_offers.iter().any(|c| c.id == id) {
            diagnostics.push(
                Diagnostic::new(
                    Severity::Warning,
                    "tco-offer-unknown",
                    format!("the chosen cloud offer `{id}` is neither in the cloud catalog nor a custom offer of the build"),
                )
                .with_fix("Pick an offer id from catalog/clouds.ron (rigplan tco lists the matching ones), or add a custom offer"),
            );
        }
    } else if let Some(model) = &gpu_model {
        for offer in resolved.catalog.clouds.iter().filter(|o| &o.gpu == model && shape.fits(o.gpus_per_instance)) {
            options.extend(offer_options(
                offer,
                shape.instances(offer.gpus_per_instance),
                usd_rate,
                spot_overhead,
                None,
            ));
        }
        if options.is_empty() {
            diagnostics.push(
                Diagnostic::new(
                    Severity::Info,
                    "tco-no-cloud-match",
                    match shape.largest_linked_node() {
                        Some(n) => format!(
                            "no cloud offer in the catalog rents {model} in instances that hold a whole node ({n} linked GPUs)"
                        ),
                        None => format!("no cloud offer in the catalog rents {model}"),
                    },
                )
                .with_fix(
                    "Enter a custom offer (price per GPU-hour or a yearly quote), or choose an offer with --offer",
                ),
            );
        }
    } else if shape.models.len() > 1 {
        diagnostics.push(
            Diagnostic::new(
                Severity::Info,
                "tco-mixed-gpus",
                format!(
                    "the build mixes {} GPU models, so no single cloud offer rents the same capacity",
                    shape.models.len()
                ),
            )
            .with_fix("Choose an offer with --offer, or enter a custom offer"),
        );
    }
    for custom in &costs.custom_offers {
        if chosen_term.is_some() && chosen_offer == Some(custom.id.as_str()) && chosen_term != Some(Term::Custom) {
            continue;
        }
        let (billing, price) = match custom.pricing {
            CustomPricing::PerGpuHour { price, every_hour } => {
                (if every_hour { Billing::EveryHour } else { Billing::UsedHours }, price * gpus as f64)
            }
            CustomPricing::AnnualQuote { per_year } => (Billing::FixedAnnual, per_year),
        };
        options.push(CloudOptionInput {
            id: format!("{}:{}", custom.id, Term::Custom.key()),
            offer: custom.id.clone(),
            label: custom.name.clone(),
            term: Term::Custom,
            billing,
            instances: gpus,
            gpus_rented: gpus,
            price,
            overhead_fraction: 0.0,
            gpu: gpu_model.clone(),
            region: None,
            price_date: None,
            price_check: None,
            source: "custom offer entered in the build".to_owned(),
        });
    }

    let primary = match (chosen_offer, chosen_term) {
        (Some(offer), Some(term)) => options.iter().position(|o| o.offer == offer && o.term == term),
        (Some(offer), None) => options.iter().position(|o| o.offer == offer),
        (None, _) => options
            .iter()
            .enumerate()
            .filter(|(_, o)| o.term == Term::OnDemand)
            .min_by(|a, b| a.1.price.total_cmp(&b.1.price).then(a.1.id.cmp(&b.1.id)))
            .map(|(i, _)| i)
            .or_else(|| options.iter().position(|o| o.term == Term::Custom)),
    };

    let energy_needed = costs.annual_owned_cost.is_none() && !costs.colocation_includes_power;
    if power.is_none() && (energy_needed || costs.colocation_per_kw_month > 0.0) {
        diagnostics.push(
            Diagnostic::new(
                Severity::Warning,
                "tco-power-unknown",
                "the build's wall power is not known, so energy and colocation are left out of the owned cost",
            )
            .with_fix("Complete the build so the power analysis can size it, or enter the yearly owned cost"),
        );
    }
    if bom.unpriced_lines > 0 {
        diagnostics.push(
            Diagnostic::new(
                Severity::Warning,
                "tco-unpriced-lines",
                format!(
                    "capex leaves out {} line(s) with no price, so owning looks cheaper than it is",
                    bom.unpriced_lines
                ),
            )
            .with_fix("Add price overrides for the unpriced parts"),
        );
    }
    if spot_overhead == 0.0 && options.iter().any(|o| o.term == Term::Spot) {
        diagnostics.push(Diagnostic::new(
            Severity::Info,
            "tco-spot-overhead-unset",
            "spot options count no work lost to interruptions (costs.spot_overhead_percent is 0)",
        ));
    }
    if let Some(p) = primary.and_then(|i| options.get(i)).filter(|p| p.price_check == Some(PriceCheck::Unverified)) {
        diagnostics.push(Diagnostic::new(
            Severity::Info,
            "tco-price-unverified",
            format!("the price of `{}` could not be verified: {}", p.id, p.source),
        ));
    }

    let custom_opex_per_year = build
        .custom_lines
        .iter()
        .filter(|c| c.kind == CostKind::OpexPerYear)
        .map(|c| c.amount * f64::from(c.quantity))
        .sum();
    let scenario = Scenario {
        currency: build.site.currency.clone(),
        usd_exchange_rate: usd_rate,
        parts_capex: bom.parts_total,
        custom_capex: bom.custom_total,
        custom_opex_per_year,
        costs: costs.clone(),
        electricity_per_kwh: build.site.electricity_per_kwh,
        pue: build.site.pue,
        utilization: build.usage.utilization,
        horizon_years: build.usage.horizon_years,
        gpus,
        gpu_model,
        power,
        options,
        primary,
        workload,
    };
    if scenario.costs.annual_cost_includes_depreciation
        && scenario.costs.annual_owned_cost.is_some_and(|a| a < scenario.depreciation_per_year())
    {
        diagnostics.push(Diagnostic::new(
            Severity::Warning,
            "tco-entered-cost-below-depreciation",
            format!(
                "the entered yearly owned cost is below the yearly depreciation ({:.0} {}), so it cannot include it; the operating cost is taken as 0",
                scenario.depreciation_per_year(),
                scenario.currency
            ),
        ));
    }
    (scenario, diagnostics)
}

/// The TCO of a resolved build, with its notes.
#[must_use]
pub fn analyze(resolved: &Resolved<'_>, bom: &Bom, power: Option<PowerInput>, workload: Option<WorkloadInput>) -> Tco {
    let (s, mut notes) = scenario(resolved, bom, power, workload);
    crate::core::analysis::diagnostic::sort(&mut notes);
    Tco { notes, ..evaluate(&s) }
}
