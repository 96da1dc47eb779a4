//! Sensitivity of the TCO: the owned and cloud totals swept over utilization, the utilization
//! at which owning breaks even, and the tornado of each parameter moved by ±20 %.

use super::cloud::Billing;
use super::scenario::Scenario;
use super::{MIN_PUE, PERCENT, TORNADO_SWING_FRACTION, UTILIZATION_SWEEP_STEPS};
use serde::Serialize;
use std::collections::BTreeMap;

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
            Self::CloudPrice => s.primary_option().map_or(0.0, |o| o.price),
            Self::DepreciationLife => s.costs.depreciation_life_years,
        }
    }

    /// The scenario with this parameter scaled by `factor`, kept within its physical range
    /// (PUE ≥ 1, utilization ≤ 100 %, residual ≤ 100 %).
    /// Only the primary option is kept: the tornado's output and values read no other.
    fn apply(self, s: &Scenario, factor: f64) -> Scenario {
        let mut t = s.with_primary_only();
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

/// Utilization at which owning and the primary option cost the same over the horizon. Both
/// totals are linear in utilization (energy and usage-billed cloud hours are), so the crossing
/// of the line through u = 0 and u = 1 is exact.
pub(super) fn break_even_utilization(s: &Scenario) -> Option<f64> {
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

pub(super) fn utilization_sweep(s: &Scenario) -> Vec<SweepPoint> {
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

pub(super) fn tornado(s: &Scenario) -> Tornado {
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
