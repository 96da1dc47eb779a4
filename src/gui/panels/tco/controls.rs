//! The TCO tab's controls: the site and usage settings, the circuit the nodes are fed from,
//! the cloud offer the owned cost is compared against, the yearly owned cost entered as one
//! figure, and the custom cloud offers (add, edit, remove). Every edit is a command (one undo
//! step per setting while it is dragged or typed); the build file's own limits decide what a
//! value may be (`apply::settings`).

use crate::core::build::{CustomOffer, CustomPricing};
use crate::gui::command::{Command, Setting};
use crate::gui::context::FrameCtx;
use crate::gui::text::fill;
use egui::RichText;

/// The build file's limits of the circuit (`persist::check_build`): volts and amps.
const CIRCUIT_VOLTS: std::ops::RangeInclusive<f64> = 90.0..=480.0;
const CIRCUIT_AMPS: std::ops::RangeInclusive<f64> = 1.0..=1_000.0;
/// Largest amount a cost field takes (the build file's `MAX_COST_AMOUNT`).
const MAX_AMOUNT: f64 = crate::core::persist::MAX_COST_AMOUNT;

/// One labelled number: a label in the grid's first column, a drag value in its second; an
/// edit pushes `make(value)`.
#[expect(clippy::too_many_arguments, reason = "each argument is one visible property of the row")]
fn number_row(
    ui: &mut egui::Ui,
    fx: &mut FrameCtx<'_>,
    label: &str,
    value: f64,
    range: std::ops::RangeInclusive<f64>,
    speed: f64,
    decimals: usize,
    suffix: &str,
    make: fn(f64) -> Setting,
) {
    let l = ui.label(label);
    let mut v = value;
    let r = ui
        .add(egui::DragValue::new(&mut v).range(range).speed(speed).max_decimals(decimals).suffix(suffix.to_owned()))
        .labelled_by(l.id);
    if r.changed() && (v - value).abs() > f64::EPSILON {
        fx.push(Command::SetSetting(make(v)));
    }
    ui.end_row();
}

/// The site, usage and cost settings, the circuit, the compared cloud offer and the yearly
/// owned cost, in one grid.
pub fn settings(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let t = fx.texts;
    let build = fx.doc.build();
    let (site, usage) = (build.site.clone(), build.usage.clone());
    egui::Grid::new("tco-settings").num_columns(2).spacing([12.0, 4.0]).show(ui, |ui| {
        let label = ui.label(t.set_currency);
        let mut currency = site.currency.0.clone();
        let r =
            ui.add(egui::TextEdit::singleline(&mut currency).desired_width(60.0).char_limit(3)).labelled_by(label.id);
        if r.changed() && currency.trim().len() == 3 {
            fx.push(Command::SetSetting(Setting::Currency(currency)));
        }
        ui.end_row();
        let rate = site.usd_exchange_rate;
        number_row(ui, fx, t.set_exchange_rate, rate, 0.0001..=100_000.0, 0.01, 4, "", Setting::UsdExchangeRate);
        let price = site.electricity_per_kwh;
        number_row(ui, fx, t.set_electricity, price, 0.0..=100.0, 0.005, 3, "", Setting::ElectricityPerKwh);
        number_row(ui, fx, t.set_pue, site.pue, 1.0..=3.0, 0.01, 2, "", Setting::Pue);
        number_row(ui, fx, t.set_horizon, usage.horizon_years, 0.25..=15.0, 0.05, 2, "", Setting::HorizonYears);
        let name = ui.label(t.set_utilization);
        let mut percent = usage.utilization * 100.0;
        let slider =
            ui.add(egui::Slider::new(&mut percent, 0.0..=100.0).suffix(" %").max_decimals(0)).labelled_by(name.id);
        if slider.changed() {
            fx.push(Command::SetSetting(Setting::Utilization((percent / 100.0).clamp(0.0, 1.0))));
        }
        ui.end_row();
        circuit(ui, fx);
        cloud_offer(ui, fx);
        yearly_owned_cost(ui, fx);
    });
}

/// The circuit the nodes are fed from: voltage, breaker rating, phases.
fn circuit(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let f = fx.texts.fixes;
    let site = fx.doc.build().site.clone();
    number_row(ui, fx, f.circuit_volts, site.circuit_volts, CIRCUIT_VOLTS, 1.0, 0, " V", Setting::CircuitVolts);
    number_row(ui, fx, f.circuit_amps, site.circuit_amps, CIRCUIT_AMPS, 0.5, 1, " A", Setting::CircuitAmps);
    let label = ui.label(f.circuit_phases);
    let name = |phases: u8| if phases == 3 { f.phases[1] } else { f.phases[0] };
    egui::ComboBox::from_id_salt("circuit-phases")
        .selected_text(name(site.circuit_phases))
        .show_ui(ui, |ui| {
            for phases in [1_u8, 3] {
                if ui.selectable_label(site.circuit_phases == phases, name(phases)).clicked()
                    && site.circuit_phases != phases
                {
                    fx.push(Command::SetSetting(Setting::CircuitPhases(phases)));
                }
            }
        })
        .response
        .labelled_by(label.id);
    ui.end_row();
}

/// The cloud offer the owned cost is compared against: automatic (the cheapest on-demand
/// offer that rents the build's GPUs), a term of a matching catalog offer, or a custom offer.
fn cloud_offer(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let (t, catalog) = (fx.texts, fx.catalog);
    let f = t.fixes;
    let costs = &fx.doc.build().costs;
    let catalog_name = |offer: &str| catalog.cloud(offer).map(|o| format!("{} {}", o.provider, o.instance));
    let mut items: Vec<(Option<String>, String)> = vec![(None, f.offer_automatic.to_owned())];
    for c in &fx.derived.offer_choices {
        let name = catalog_name(&c.offer).unwrap_or_else(|| c.offer.clone());
        items.push((Some(c.id.clone()), format!("{name}, {}", t.figures.term(c.term))));
    }
    for c in &costs.custom_offers {
        items.push((Some(c.id.clone()), c.name.clone()));
    }
    let chosen = costs.chosen_offer.clone();
    let selected = match &chosen {
        None => f.offer_automatic.to_owned(),
        Some(id) => items.iter().find(|(v, _)| v.as_ref() == Some(id)).map_or_else(
            // An offer without a term (`rigplan tco --offer ID`) compares all of its terms.
            || catalog_name(id).unwrap_or_else(|| fill(f.offer_not_found, &[id])),
            |(_, name)| name.clone(),
        ),
    };
    let label = ui.label(f.cloud_offer);
    egui::ComboBox::from_id_salt("cloud-offer")
        .selected_text(selected)
        .width(ui.available_width().clamp(160.0, 320.0))
        .show_ui(ui, |ui| {
            for (value, name) in items {
                if ui.selectable_label(value == chosen, name).clicked() && value != chosen {
                    fx.push(Command::SetSetting(Setting::ChosenOffer(value)));
                }
            }
        })
        .response
        .labelled_by(label.id)
        .on_hover_text(f.cloud_offer_hint);
    ui.end_row();
}

/// The yearly owned cost entered as one figure: on, its amount, and whether it includes
/// depreciation. Turned on, it starts at the yearly owned cost the analysis computes now.
fn yearly_owned_cost(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let f = fx.texts.fixes;
    let costs = fx.doc.build().costs.clone();
    let mut on = costs.annual_owned_cost.is_some();
    if ui.checkbox(&mut on, f.yearly_owned_cost).on_hover_text(f.yearly_owned_cost_hint).changed() {
        let computed = fx.derived.report.tco.owned_per_year.total.clamp(0.0, MAX_AMOUNT).round();
        fx.push(Command::SetSetting(Setting::AnnualOwnedCost(on.then_some(computed))));
    }
    ui.horizontal(|ui| {
        if let Some(amount) = costs.annual_owned_cost {
            let mut v = amount;
            let r = ui
                .add(egui::DragValue::new(&mut v).range(0.0..=MAX_AMOUNT).speed(100.0).max_decimals(0))
                .on_hover_text(f.yearly_owned_cost);
            if r.changed() && (v - amount).abs() > f64::EPSILON {
                fx.push(Command::SetSetting(Setting::AnnualOwnedCost(Some(v))));
            }
            let mut includes = costs.annual_cost_includes_depreciation;
            if ui.checkbox(&mut includes, f.includes_depreciation).changed() {
                fx.push(Command::SetSetting(Setting::AnnualCostIncludesDepreciation(includes)));
            }
        }
    });
    ui.end_row();
}

/// A custom offer being entered, before it is added (kept in egui's memory).
#[derive(Clone, Debug, Default)]
struct Draft {
    name: String,
    yearly: bool,
    price: f64,
    every_hour: bool,
}

fn pricing_of(yearly: bool, price: f64, every_hour: bool) -> CustomPricing {
    if yearly {
        CustomPricing::AnnualQuote { per_year: price }
    } else {
        CustomPricing::PerGpuHour { price, every_hour }
    }
}

/// One offer's row, wrapped to the panel's width: its name, pricing (per GPU-hour or a yearly
/// quote), price and (per GPU-hour) whether it bills every hour, each field named by the label
/// before it, then the row's button (`label`, enabled or not). Returns the edited values when
/// something changed, and the button's response.
fn offer_row(
    ui: &mut egui::Ui,
    fx: &FrameCtx<'_>,
    id: egui::Id,
    (name, yearly, price, every_hour): (&str, bool, f64, bool),
    (label, enabled): (&str, bool),
) -> (Option<(String, bool, f64, bool)>, egui::Response) {
    let f = fx.texts.fixes;
    let currency = &fx.doc.build().site.currency.0;
    let (mut new_name, mut new_yearly, mut new_price, mut new_every) = (name.to_owned(), yearly, price, every_hour);
    let button = ui
        .horizontal_wrapped(|ui| {
            let label_id = ui.label(f.offer_name).id;
            ui.add(egui::TextEdit::singleline(&mut new_name).desired_width(120.0)).labelled_by(label_id);
            let label_id = ui.label(f.offer_pricing).id;
            egui::ComboBox::from_id_salt(id.with("pricing"))
                .selected_text(f.pricings[usize::from(yearly)])
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut new_yearly, false, f.pricings[0]);
                    ui.selectable_value(&mut new_yearly, true, f.pricings[1]);
                })
                .response
                .labelled_by(label_id);
            let label_id = ui.label(format!("{} ({currency})", f.offer_price)).id;
            let speed = if new_yearly { 1_000.0 } else { 0.01 };
            ui.add(egui::DragValue::new(&mut new_price).range(0.0..=MAX_AMOUNT).speed(speed).max_decimals(2))
                .labelled_by(label_id);
            if !new_yearly {
                ui.checkbox(&mut new_every, f.every_hour).on_hover_text(f.every_hour_hint);
            }
            ui.add_enabled(enabled, egui::Button::new(label))
        })
        .inner;
    let changed = (new_name.as_str(), new_yearly, new_price, new_every) != (name, yearly, price, every_hour);
    (changed.then_some((new_name, new_yearly, new_price, new_every)), button)
}

/// The custom cloud offers: each editable in place (name, pricing, price) or removed, and a
/// row that adds one once it has a name and a price.
pub fn custom_offers(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let f = fx.texts.fixes;
    let offers = fx.doc.build().costs.custom_offers.clone();
    ui.add_space(6.0);
    ui.label(RichText::new(f.custom_offers).strong());
    for (i, o) in offers.iter().enumerate() {
        let now = match o.pricing {
            CustomPricing::PerGpuHour { price, every_hour } => (o.name.as_str(), false, price, every_hour),
            CustomPricing::AnnualQuote { per_year } => (o.name.as_str(), true, per_year, false),
        };
        let (edited, remove) = offer_row(ui, fx, egui::Id::unique("custom-offer").with(i), now, (f.remove, true));
        if let Some((name, y, p, e)) = edited {
            let offer = CustomOffer { id: o.id.clone(), name, pricing: pricing_of(y, p, e) };
            fx.push(Command::SetSetting(Setting::CustomOffer(i, offer)));
        }
        if remove.clicked() {
            fx.push(Command::RemoveCustomOffer(i));
        }
    }
    // The new offer's row, kept in egui's memory until it is added.
    let draft_id = egui::Id::unique("custom-offer-draft");
    let mut draft: Draft = ui
        .data(|d| d.get_temp(draft_id))
        .unwrap_or_else(|| Draft { name: fill(f.custom_offer_name, &[&(offers.len() + 1)]), ..Draft::default() });
    let now = (draft.name.as_str(), draft.yearly, draft.price, draft.every_hour);
    let ready = draft.price > 0.0 && !draft.name.trim().is_empty();
    let (edited, add) = offer_row(ui, fx, draft_id, now, (f.add_custom_offer, ready));
    if let Some((name, yearly, price, every_hour)) = edited {
        draft = Draft { name, yearly, price, every_hour };
    }
    if add.clicked() {
        fx.push(Command::AddCustomOffer(CustomOffer {
            id: String::new(),
            name: draft.name.trim().to_owned(),
            pricing: pricing_of(draft.yearly, draft.price, draft.every_hour),
        }));
        ui.data_mut(|d| d.remove::<Draft>(draft_id));
    } else {
        ui.data_mut(|d| d.insert_temp(draft_id, draft));
    }
}
