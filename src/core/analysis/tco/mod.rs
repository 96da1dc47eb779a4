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
//!   bill every hour, a fixed annual quote and a monthly subscription (× 12) bill their yearly
//!   amount. Offers are priced in USD or CNY and convert to the build's currency as catalog
//!   prices do ([`crate::core::analysis::bom::convert_price`]).
//! - **Break-even month** = capex / (cloud per month − owned operating cost per month): only
//!   operating cost is subtracted, because counting amortised capex on the right would count
//!   it twice (domain.md §6). `None` when the cloud never costs more per month than running
//!   the build.
//! - **The field guides' entered yearly cost.** When the build enters one yearly owned cost
//!   (the guides' "267k CNY per year including power and maintenance"), it replaces the
//!   computed energy and maintenance lines, and the report states which reading it used: the
//!   literal one (the figure is operating cost) or the depreciation one (the figure already
//!   contains depreciation, which is taken out), and gives the other reading's result too.
//!
//! By concern: `scenario` (the inputs and building them from a build), `cloud` (matching cloud
//! offers to the build and pricing them per term), `evaluate` (the owned and cloud figures of
//! one scenario) and `sensitivity` (the utilization sweep and the tornado).

mod cloud;
mod evaluate;
mod scenario;
mod sensitivity;

pub use cloud::{Billing, CloudOption, CloudOptionInput, OfferChoice, Term, offer_choices};
pub use evaluate::{
    CapexLines, Curves, OwnedLines, PowerUse, PresentValues, ReadingSummary, Tco, Totals, WorkloadCost, YearLine,
    evaluate,
};
pub use scenario::{
    MAX_HORIZON_YEARS, MAX_RUN_TOKENS, MAX_TOKENS_PER_SECOND, MIN_HORIZON_YEARS, MIN_TOKENS_PER_SECOND, OverrideError,
    PowerInput, Reading, Scenario, TcoOverrides, WorkloadInput, annuity_factor, monthly_rate, scenario, term_keys,
};
pub use sensitivity::{Sensitivity, SweepPoint, Tornado, TornadoBar, TornadoOutput, TornadoParameter};

use crate::core::analysis::bom::Bom;
use crate::core::resolve::Resolved;

pub use crate::core::units::{MONTHS_PER_YEAR, SECONDS_PER_HOUR, WATTS_PER_KILOWATT};

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

/// The TCO of a resolved build, with its notes.
#[must_use]
pub fn analyze(resolved: &Resolved<'_>, bom: &Bom, power: Option<PowerInput>, workload: Option<WorkloadInput>) -> Tco {
    let (s, mut notes) = scenario(resolved, bom, power, workload);
    crate::core::analysis::diagnostic::sort(&mut notes);
    Tco { notes, ..evaluate(&s) }
}

/// Every finding template of the TCO analysis, for the registry's tests.
#[cfg(test)]
pub(crate) fn templates() -> Vec<&'static crate::core::i18n::Template> {
    scenario::TEMPLATES.iter().chain(scenario::READINGS).copied().collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_reading_has_the_same_placeholders_in_both_languages() {
        crate::core::i18n::assert_table_is_translated(super::scenario::READINGS);
    }
}
