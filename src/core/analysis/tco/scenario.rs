//! The TCO scenario: every input of the model as a plain number in the build's currency, the
//! model's per-scenario formulas (capex, depreciation, owned and cloud cost at a utilization,
//! break-even month, present value), [`scenario`], which builds one from a resolved build, and
//! the what-if [`TcoOverrides`] a front end applies to a build first.

use super::cloud::{Billing, CloudOptionInput, GpuShape, Term, offer_options};
use super::evaluate::{CapexLines, OwnedLines};
use super::{MIN_DEPRECIATION_LIFE_YEARS, MONTHS_PER_YEAR, PERCENT, WATTS_PER_KILOWATT};
use crate::core::analysis::bom::Bom;
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::build::{Build, CostKind, Costs, CustomPricing, split_offer_choice};
use crate::core::catalog::{Catalog, PartId, PriceCheck};
use crate::core::resolve::Resolved;
use crate::core::units::{Currency, HOURS_PER_YEAR};
use crate::text;
use serde::Serialize;

crate::templates! {
    pub(crate) TEMPLATES;
    TCO_OFFER_GPU_DIFFERS "tco-offer-gpu-differs" {
        en: "the chosen cloud offer `{id}` rents {gpu} GPUs, not the build's",
        zh: "所选云服务报价 `{id}` 租用的是 {gpu} GPU，与配置中的 GPU 不同",
    }
    TCO_OFFER_UNKNOWN "tco-offer-unknown" {
        en: "the chosen cloud offer `{id}` is neither in the cloud catalog nor a custom offer of the build",
        zh: "所选云服务报价 `{id}` 既不在云服务目录中，也不是配置中的自定义报价",
    }
    TCO_OFFER_UNKNOWN_FIX "tco-offer-unknown" {
        en: "Choose another Cloud offer in the TCO tab, or enter this one with Add custom offer",
        zh: "在 TCO 选项卡的云服务报价中另选一个，或用添加自定义报价输入该报价",
    }
    TCO_NO_CLOUD_MATCH_NODE "tco-no-cloud-match" {
        en: "no cloud offer in the catalog rents {model} in instances that hold a whole node ({gpus} linked GPUs)",
        zh: "部件库中没有以整节点（{gpus} 块互联 GPU）实例出租 {model} 的云服务报价",
    }
    TCO_NO_CLOUD_MATCH "tco-no-cloud-match" {
        en: "no cloud offer in the catalog rents {model}",
        zh: "部件库中没有出租 {model} 的云服务报价",
    }
    TCO_NO_CLOUD_MATCH_FIX "tco-no-cloud-match" {
        en: "Enter a price per GPU-hour or a yearly quote with Add custom offer in the TCO tab, or choose a Cloud offer for another GPU",
        zh: "在 TCO 选项卡中用添加自定义报价输入每 GPU 小时价格或包年报价，或在云服务报价中选择其他 GPU 的报价",
    }
    TCO_MIXED_GPUS "tco-mixed-gpus" {
        en: "the build mixes {models} GPU models, so no single cloud offer rents the same capacity",
        zh: "该配置混用了 {models} 种 GPU 型号，没有单一云服务报价能租到同等算力",
    }
    TCO_MIXED_GPUS_FIX "tco-mixed-gpus" {
        en: "Choose the Cloud offer to compare against in the TCO tab, or enter one with Add custom offer",
        zh: "在 TCO 选项卡的云服务报价中选择要对比的报价，或用添加自定义报价输入一个",
    }
    TCO_POWER_UNKNOWN "tco-power-unknown" {
        en: "the build's wall power is not known, so energy and colocation are left out of the owned cost",
        zh: "该配置的墙插功耗未知，自有成本中未计入电费和托管费",
    }
    TCO_POWER_UNKNOWN_FIX "tco-power-unknown" {
        en: "Complete the build so the power analysis can size it, or enter the Yearly owned cost in the TCO tab",
        zh: "补全配置以便计算功耗，或在 TCO 选项卡中填写每年自有成本",
    }
    TCO_UNPRICED_LINES "tco-unpriced-lines" {
        en: "capex leaves out {lines} line(s) with no price, so owning looks cheaper than it is",
        zh: "初始投入未计入 {lines} 项无价格的部件，自购成本看起来比实际低",
    }
    TCO_UNPRICED_LINES_FIX "tco-unpriced-lines" {
        en: "Enter a Unit price for each unpriced part with Price… beside its price in the parts list",
        zh: "用物料清单中价格旁的 改价… 为每个无价格的部件填写单价",
    }
    TCO_SPOT_OVERHEAD_UNSET "tco-spot-overhead-unset" {
        en: "spot options count no work lost to interruptions (costs.spot_overhead_percent is 0)",
        zh: "竞价实例选项未计入中断造成的工作损失（costs.spot_overhead_percent 为 0）",
    }
    TCO_PRICE_UNVERIFIED "tco-price-unverified" {
        en: "the price of `{id}` could not be verified: {source}",
        zh: "`{id}` 的价格未经核实：{source}",
    }
    TCO_ENTERED_COST_BELOW_DEPRECIATION "tco-entered-cost-below-depreciation" {
        en: "the entered yearly owned cost is below the yearly depreciation ({depreciation} {currency}), so it cannot include it; the operating cost is taken as 0",
        zh: "输入的每年自有成本低于每年折旧（{depreciation} {currency}），不可能包含折旧；运营成本按 0 计",
    }
}

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
    pub(super) fn note(self) -> crate::core::i18n::Text {
        match self {
            Self::Computed => text!(READING_COMPUTED),
            Self::EnteredCostIsOpex => text!(READING_OPEX),
            Self::EnteredCostIncludesDepreciation => text!(READING_DEPRECIATION),
        }
    }
}

crate::templates! {
    pub(crate) READINGS;
    READING_COMPUTED "" {
        en: "every owned cost line is computed from the build and its cost settings",
        zh: "自有硬件的每一项成本都由配置方案及其成本设置算出",
    }
    READING_OPEX "" {
        en: "literal reading: the entered yearly owned cost is operating cost (power, maintenance, …) on top of capex",
        zh: "按字面理解：输入的每年自有成本是初始投入之外的运营成本（电费、维护等）",
    }
    READING_DEPRECIATION "" {
        en: "depreciation reading: the entered yearly owned cost already contains straight-line depreciation, which is taken out to get the operating cost",
        zh: "按含折旧理解：输入的每年自有成本已包含直线折旧，扣除折旧后得到运营成本",
    }
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
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "the value is rounded, finite and clamped to 1..=u32::MAX before the cast"
    )]
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

    pub(super) fn life_years(&self) -> f64 {
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

    pub(super) fn primary_option(&self) -> Option<&CloudOptionInput> {
        self.primary.and_then(|i| self.options.get(i))
    }

    /// A copy with only the primary option, for the what-ifs that read no other (the tornado's
    /// bars, the other reading of an entered yearly cost): copying every option (each offer's
    /// terms, with their ids, labels, regions and sources) for the twelve what-ifs was most of
    /// a report's TCO (issue 19).
    /// Every field is listed, so that a new one is not forgotten.
    pub(super) fn with_primary_only(&self) -> Self {
        let options: Vec<CloudOptionInput> = self.primary_option().cloned().into_iter().collect();
        Self {
            currency: self.currency.clone(),
            usd_exchange_rate: self.usd_exchange_rate,
            parts_capex: self.parts_capex,
            custom_capex: self.custom_capex,
            custom_opex_per_year: self.custom_opex_per_year,
            costs: self.costs.clone(),
            electricity_per_kwh: self.electricity_per_kwh,
            pue: self.pue,
            utilization: self.utilization,
            horizon_years: self.horizon_years,
            gpus: self.gpus,
            gpu_model: self.gpu_model.clone(),
            power: self.power,
            primary: (!options.is_empty()).then_some(0),
            options,
            workload: self.workload,
        }
    }

    /// The tornado's output: primary total − owned total, or the owned total.
    pub(super) fn tornado_output(&self) -> f64 {
        let owned = self.owned_total_at(self.utilization);
        match self.primary_option() {
            Some(p) => self.option_total_at(p, self.utilization) - owned,
            None => owned,
        }
    }

    /// Present value of a flow: `upfront` now, `per_month` at the end of every month, and
    /// `at_end` at the end of the horizon, at the yearly discount rate.
    pub(super) fn present_value(&self, upfront: f64, per_month: f64, at_end: f64) -> f64 {
        let r = self.costs.discount_rate_percent / PERCENT;
        let months = f64::from(self.months());
        let i = monthly_rate(r);
        upfront + per_month * annuity_factor(i, months) + at_end * (1.0 + i).powf(-months)
    }
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
    let rate = (&build.site.currency, usd_rate);

    let (chosen_offer, chosen_term) = match costs.chosen_offer.as_deref().map(split_offer_choice) {
        Some((offer, term)) => (Some(offer), term.and_then(Term::from_key)),
        None => (None, None),
    };
    let mut options = Vec::new();
    if let Some(id) = chosen_offer {
        if let Some(offer) = resolved.catalog.cloud(id) {
            options.extend(offer_options(
                offer,
                shape.instances(offer.gpus_per_instance),
                rate,
                spot_overhead,
                chosen_term,
            ));
            if gpu_model.as_ref().is_some_and(|m| m != &offer.gpu) {
                diagnostics.push(Diagnostic::new(
                    Severity::Info,
                    "tco-offer-gpu-differs",
                    text!(TCO_OFFER_GPU_DIFFERS, id = id, gpu = &offer.gpu),
                ));
            }
        } else if !costs.custom_offers.iter().any(|c| c.id == id) {
            diagnostics.push(
                Diagnostic::new(Severity::Warning, "tco-offer-unknown", text!(TCO_OFFER_UNKNOWN, id = id))
                    .with_fix(text!(TCO_OFFER_UNKNOWN_FIX)),
            );
        }
    } else if let Some(model) = &gpu_model {
        for offer in resolved.catalog.clouds.iter().filter(|o| &o.gpu == model && shape.fits(o.gpus_per_instance)) {
            options.extend(offer_options(offer, shape.instances(offer.gpus_per_instance), rate, spot_overhead, None));
        }
        if options.is_empty() {
            diagnostics.push(
                Diagnostic::new(
                    Severity::Info,
                    "tco-no-cloud-match",
                    match shape.largest_linked_node() {
                        Some(n) => text!(TCO_NO_CLOUD_MATCH_NODE, model = model, gpus = n.to_string()),
                        None => text!(TCO_NO_CLOUD_MATCH, model = model),
                    },
                )
                .with_fix(text!(TCO_NO_CLOUD_MATCH_FIX)),
            );
        }
    } else if shape.models.len() > 1 {
        diagnostics.push(
            Diagnostic::new(
                Severity::Info,
                "tco-mixed-gpus",
                text!(TCO_MIXED_GPUS, models = shape.models.len().to_string()),
            )
            .with_fix(text!(TCO_MIXED_GPUS_FIX)),
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
            Diagnostic::new(Severity::Warning, "tco-power-unknown", text!(TCO_POWER_UNKNOWN))
                .with_fix(text!(TCO_POWER_UNKNOWN_FIX)),
        );
    }
    if bom.unpriced_lines > 0 {
        diagnostics.push(
            Diagnostic::new(
                Severity::Warning,
                "tco-unpriced-lines",
                text!(TCO_UNPRICED_LINES, lines = bom.unpriced_lines.to_string()),
            )
            .with_fix(text!(TCO_UNPRICED_LINES_FIX)),
        );
    }
    if spot_overhead == 0.0 && options.iter().any(|o| o.term == Term::Spot) {
        diagnostics.push(Diagnostic::new(Severity::Info, "tco-spot-overhead-unset", text!(TCO_SPOT_OVERHEAD_UNSET)));
    }
    if let Some(p) = primary.and_then(|i| options.get(i)).filter(|p| p.price_check == Some(PriceCheck::Unverified)) {
        diagnostics.push(Diagnostic::new(
            Severity::Info,
            "tco-price-unverified",
            text!(TCO_PRICE_UNVERIFIED, id = &p.id, source = &p.source),
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
            text!(
                TCO_ENTERED_COST_BELOW_DEPRECIATION,
                depreciation = format!("{:.0}", scenario.depreciation_per_year()),
                currency = scenario.currency.to_string()
            ),
        ));
    }
    (scenario, diagnostics)
}

/// Shortest horizon a what-if may set, years: the lower bound a build file accepts for
/// `usage.horizon_years` (checked the same way when a build is loaded).
pub const MIN_HORIZON_YEARS: f64 = 0.25;
/// Longest horizon a what-if may set, years (the build file's upper bound).
pub const MAX_HORIZON_YEARS: f64 = 15.0;

/// What-if changes to a build's TCO inputs on top of the build file (`rigplan tco`'s flags):
/// the horizon, utilization and compared offer replace the build's own settings, and an
/// entered throughput replaces the planned workload's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TcoOverrides {
    /// Horizon, years ([`MIN_HORIZON_YEARS`]–[`MAX_HORIZON_YEARS`]).
    pub horizon_years: Option<f64>,
    /// Average GPU utilization, a fraction between 0 and 1.
    pub utilization: Option<f64>,
    /// The offer to compare against: `<offer id>` or `<offer id>:<term>`
    /// (`aws-p5-48xlarge:reserved_1y`), a catalog offer or one of the build's custom offers.
    pub offer: Option<String>,
    /// Tokens per second the whole build processes while busy.
    pub tokens_per_second: Option<f64>,
    /// Tokens of one training run (counted only with `tokens_per_second`).
    pub run_tokens: Option<f64>,
}

/// Why a what-if override was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OverrideError {
    #[error("the horizon must be between {MIN_HORIZON_YEARS} and {MAX_HORIZON_YEARS} years; {0} is not")]
    Horizon(f64),
    #[error("utilization is a fraction between 0 and 1; {0} is not")]
    Utilization(f64),
    #[error("no cloud offer `{0}` in the catalog or among the build's custom offers")]
    UnknownOffer(String),
    #[error("`{0}` is not a term (one of {terms})", terms = term_keys())]
    UnknownTerm(String),
    #[error("tokens per second must be between {MIN_TOKENS_PER_SECOND} and {MAX_TOKENS_PER_SECOND:e}; {0} is not")]
    TokensPerSecond(f64),
    #[error("the training run's token count must be between 1 and {MAX_RUN_TOKENS:e}; {0} is not")]
    RunTokens(f64),
}

/// Bounds of an entered throughput, tokens per second for the whole build. They are not
/// claims about hardware: they keep every derived price finite and readable (a cost per
/// million tokens at 10⁻³⁰⁸ tokens/s is infinite) while leaving room far past any real
/// machine at both ends (one token in a quarter hour; 10⁹ tokens/s).
pub const MIN_TOKENS_PER_SECOND: f64 = 1e-3;
pub const MAX_TOKENS_PER_SECOND: f64 = 1e9;
/// Largest training run, tokens: Llama 3.1 405B was trained on 15.6 × 10¹² tokens (Meta, "The
/// Llama 3 Herd of Models", 2024, §1); 10¹⁶ leaves room for runs 600 times larger.
pub const MAX_RUN_TOKENS: f64 = 1e16;

/// The term keys an offer override may name, comma-separated.
#[must_use]
pub fn term_keys() -> String {
    Term::ALL.map(Term::key).join(", ")
}

impl TcoOverrides {
    /// Applies the horizon, utilization and offer overrides to `build`, refusing values out of
    /// range and offer ids that name nothing (checked in that order; `build` is unchanged
    /// past the first refusal).
    ///
    /// # Errors
    /// The first override out of range or naming no offer or term.
    pub fn apply(&self, catalog: &Catalog, build: &mut Build) -> Result<(), OverrideError> {
        if let Some(y) = self.horizon_years {
            if !(MIN_HORIZON_YEARS..=MAX_HORIZON_YEARS).contains(&y) {
                return Err(OverrideError::Horizon(y));
            }
            build.usage.horizon_years = y;
        }
        if let Some(u) = self.utilization {
            if !(0.0..=1.0).contains(&u) {
                return Err(OverrideError::Utilization(u));
            }
            build.usage.utilization = u;
        }
        if let Some(id) = &self.offer {
            let (offer_id, term) = split_offer_choice(id);
            let known = catalog.cloud(offer_id).is_some() || build.costs.custom_offers.iter().any(|c| c.id == offer_id);
            if !known {
                return Err(OverrideError::UnknownOffer(offer_id.to_owned()));
            }
            if let Some(t) = term
                && Term::from_key(t).is_none()
            {
                return Err(OverrideError::UnknownTerm(t.to_owned()));
            }
            build.costs.chosen_offer = Some(id.clone());
        }
        Ok(())
    }

    /// The entered workload, checked; `None` when no throughput was entered.
    ///
    /// # Errors
    /// A throughput or run size out of its bounds ([`MIN_TOKENS_PER_SECOND`],
    /// [`MAX_TOKENS_PER_SECOND`], [`MAX_RUN_TOKENS`]).
    pub fn workload(&self) -> Result<Option<WorkloadInput>, OverrideError> {
        let Some(tps) = self.tokens_per_second else { return Ok(None) };
        if !(MIN_TOKENS_PER_SECOND..=MAX_TOKENS_PER_SECOND).contains(&tps) {
            return Err(OverrideError::TokensPerSecond(tps));
        }
        if let Some(t) = self.run_tokens
            && !(1.0..=MAX_RUN_TOKENS).contains(&t)
        {
            return Err(OverrideError::RunTokens(t));
        }
        Ok(Some(WorkloadInput { tokens_per_second: tps, run_tokens: self.run_tokens }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_replace_the_build_settings_and_refuse_what_names_nothing() {
        let catalog = Catalog::embedded().expect("embedded catalog");
        let mut build = Build::new("t");
        let all = TcoOverrides {
            horizon_years: Some(5.0),
            utilization: Some(0.4),
            offer: Some("aws-p5-48xlarge:reserved_1y".to_owned()),
            ..TcoOverrides::default()
        };
        assert_eq!(all.apply(&catalog, &mut build), Ok(()));
        assert!((build.usage.horizon_years - 5.0).abs() < 1e-12);
        assert!((build.usage.utilization - 0.4).abs() < 1e-12);
        assert_eq!(build.costs.chosen_offer.as_deref(), Some("aws-p5-48xlarge:reserved_1y"));

        let refused = |o: TcoOverrides| o.apply(&catalog, &mut Build::new("t")).err();
        let years = |y| TcoOverrides { horizon_years: Some(y), ..TcoOverrides::default() };
        assert_eq!(refused(years(0.2)), Some(OverrideError::Horizon(0.2)));
        assert_eq!(refused(years(15.5)), Some(OverrideError::Horizon(15.5)));
        assert_eq!(refused(years(15.0)), None);
        let utilization = TcoOverrides { utilization: Some(1.5), ..TcoOverrides::default() };
        assert_eq!(refused(utilization), Some(OverrideError::Utilization(1.5)));
        let offer = |id: &str| TcoOverrides { offer: Some(id.to_owned()), ..TcoOverrides::default() };
        assert_eq!(refused(offer("nope:spot")), Some(OverrideError::UnknownOffer("nope".to_owned())));
        assert_eq!(refused(offer("aws-p5-48xlarge:weekly")), Some(OverrideError::UnknownTerm("weekly".to_owned())));
        assert_eq!(term_keys(), "on_demand, reserved_1y, reserved_3y, spot, monthly, custom");
    }

    #[test]
    fn entered_workload_is_checked() {
        let w = |tps, run| TcoOverrides { tokens_per_second: tps, run_tokens: run, ..TcoOverrides::default() };
        assert_eq!(w(None, Some(-1.0)).workload(), Ok(None));
        assert_eq!(
            w(Some(2_000.0), Some(1.0e9)).workload(),
            Ok(Some(WorkloadInput { tokens_per_second: 2_000.0, run_tokens: Some(1.0e9) }))
        );
        assert_eq!(w(Some(-3.0), None).workload(), Err(OverrideError::TokensPerSecond(-3.0)));
        assert!(w(Some(f64::NAN), None).workload().is_err());
        assert_eq!(w(Some(1.0), Some(0.0)).workload(), Err(OverrideError::RunTokens(0.0)));
    }
}
