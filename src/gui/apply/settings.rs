//! Site, usage and cost settings, custom cloud offers and price overrides: edits of the build
//! that are numbers and choices rather than parts. Each is tried on a copy first and checked
//! against the build file's own limits (`persist::check_build`), so that whatever the panels
//! accept also saves and loads; a refused edit leaves the build as it was and says why.

use crate::core::build::{Build, CustomOffer, PriceOverride};
use crate::core::catalog::PartId;
use crate::core::persist;
use crate::gui::command::Setting;
use crate::gui::document::Coalesce;
use crate::gui::state::AppState;
use crate::gui::vocab::{Notice, NoticeKind};
use std::hash::{Hash, Hasher};

/// Which setting a [`Setting`] edit changes, so that dragging one value is one undo step.
fn setting_kind(setting: &Setting) -> u16 {
    match setting {
        Setting::AmbientC(_) => 0,
        Setting::ElectricityPerKwh(_) => 1,
        Setting::Pue(_) => 2,
        Setting::Utilization(_) => 3,
        Setting::HorizonYears(_) => 4,
        Setting::Currency(_) => 5,
        Setting::UsdExchangeRate(_) => 6,
        Setting::CircuitVolts(_) => 7,
        Setting::CircuitAmps(_) => 8,
        Setting::CircuitPhases(_) => 9,
        Setting::AnnualOwnedCost(_) => 10,
        Setting::AnnualCostIncludesDepreciation(_) => 11,
        Setting::ChosenOffer(_) => 12,
        // One kind per offer, after the fixed ones: typing in offer 2 then offer 3 is two steps.
        Setting::CustomOffer(i, _) => 13_u16.saturating_add(u16::try_from(*i).unwrap_or(u16::MAX - 13)),
    }
}

fn set_setting(setting: &Setting, b: &mut Build) {
    match setting {
        Setting::AmbientC(v) => b.site.ambient_c = *v,
        Setting::ElectricityPerKwh(v) => b.site.electricity_per_kwh = *v,
        Setting::Pue(v) => b.site.pue = *v,
        Setting::Utilization(v) => b.usage.utilization = *v,
        Setting::HorizonYears(v) => b.usage.horizon_years = *v,
        Setting::Currency(c) => b.site.currency = crate::core::units::Currency(c.trim().to_uppercase()),
        Setting::UsdExchangeRate(v) => b.site.usd_exchange_rate = *v,
        Setting::CircuitVolts(v) => b.site.circuit_volts = *v,
        Setting::CircuitAmps(v) => b.site.circuit_amps = *v,
        Setting::CircuitPhases(n) => b.site.circuit_phases = *n,
        Setting::AnnualOwnedCost(v) => b.costs.annual_owned_cost = *v,
        Setting::AnnualCostIncludesDepreciation(on) => b.costs.annual_cost_includes_depreciation = *on,
        Setting::ChosenOffer(id) => b.costs.chosen_offer.clone_from(id),
        Setting::CustomOffer(i, offer) => {
            if let Some(o) = b.costs.custom_offers.get_mut(*i) {
                // The id stays: a chosen offer refers to it.
                *o = CustomOffer { id: o.id.clone(), ..offer.clone() };
            }
        }
    }
}

/// Tries `f` on a copy of the build; keeps it when the build file's limits allow it.
fn checked(state: &mut AppState, coalesce: Option<Coalesce>, f: impl Fn(&mut Build)) {
    let mut trial = state.doc.build().clone();
    f(&mut trial);
    let problems = persist::check_build(&trial);
    if !problems.is_empty() {
        state.view.notice = Some(Notice { kind: NoticeKind::Refused, text: problems.join("\n") });
        return;
    }
    let r = state.doc.edit(coalesce, |b| {
        f(b);
        Ok(())
    });
    state.view.notice = match r {
        Ok(()) => None,
        Err(e) => Some(Notice { kind: NoticeKind::Refused, text: e.text().render(state.lang) }),
    };
}

/// Changes a site, usage or cost setting (one undo step per setting while it is dragged or
/// typed).
pub(super) fn set_setting_checked(state: &mut AppState, setting: &Setting) {
    checked(state, Some(Coalesce::Setting(setting_kind(setting))), |b| set_setting(setting, b));
}

/// Adds a custom cloud offer under an id no other custom offer uses (`custom-1`, `custom-2`, …;
/// the id the offer arrives with is ignored).
pub(super) fn add_custom_offer(state: &mut AppState, offer: &CustomOffer) {
    let taken = |id: &str| state.doc.build().costs.custom_offers.iter().any(|o| o.id == id);
    // Among count + 1 ids at least one is free.
    let count = state.doc.build().costs.custom_offers.len();
    let Some(id) = (1..=count + 1).map(|n| format!("custom-{n}")).find(|id| !taken(id)) else { return };
    checked(state, None, |b| b.costs.custom_offers.push(CustomOffer { id: id.clone(), ..offer.clone() }));
}

/// Removes custom offer `i`; when it was the compared offer, the comparison goes back to the
/// automatic choice (a choice of an offer that no longer exists would be a finding).
pub(super) fn remove_custom_offer(state: &mut AppState, i: usize) {
    checked(state, None, |b| {
        if i >= b.costs.custom_offers.len() {
            return;
        }
        let gone = b.costs.custom_offers.remove(i);
        if b.costs.chosen_offer_id() == Some(gone.id.as_str()) {
            b.costs.chosen_offer = None;
        }
    });
}

/// Sets or clears a part's price override (one undo step per part while it is typed; going
/// back to the catalog price is a step of its own).
pub(super) fn set_price_override(state: &mut AppState, part: &PartId, price: Option<f64>) {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    part.hash(&mut hasher);
    let coalesce = price.is_some().then(|| Coalesce::PriceOverride(hasher.finish()));
    checked(state, coalesce, |b| {
        let note = b.price_override(part).map(|o| o.note.clone()).unwrap_or_default();
        b.price_overrides.retain(|o| &o.part != part);
        if let Some(unit_price) = price {
            b.price_overrides.push(PriceOverride { part: part.clone(), unit_price, note: note.clone() });
        }
    });
}
