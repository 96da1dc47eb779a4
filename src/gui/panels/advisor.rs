//! The Advisor view: the requirement form on the left (presets, workloads, budget, site,
//! objective, limits), and on the right the answer: a scatter plot of the front (capex
//! against speed; hover shows a build's figures, a click selects it), the ranked table with
//! the builds ticked for comparison, the selected build's figures and reasons with "Open as
//! build", and the "why not" answers.
//!
//! Every widget edits a copy of the requirement; a changed copy is pushed as one
//! [`Command::SetRequirement`], and `logic` runs the advisor on it before the next frame.
//! Renders the cached [`crate::gui::advisor::Advised`]; nothing here searches.

use super::plots::{legend, series_color, with_save};
use crate::core::advisor::{
    Advice, Candidate, Form, Objective, Preset, Requirement, WorkMode, WorkloadReq, requirement::DEFAULT_CNY_PER_USD,
};
use crate::core::analysis::memory::{CustomArch, WeightType};
use crate::core::catalog::{ModelId, PartId};
use crate::core::export::SheetDate;
use crate::core::units::{Currency, format_thousands};
use crate::gui::advisor::{Advised, SpeedAxis};
use crate::gui::command::Command;
use crate::gui::compare::{MAX_BUILDS, MIN_BUILDS};
use crate::gui::context::FrameCtx;
use crate::gui::text::advisor::AdvisorTexts;
use crate::gui::text::fill;
use crate::gui::theme;
use crate::gui::vocab::MainView;
use egui::{ComboBox, DragValue, RichText, TextEdit};
use egui_plot::{Line, MarkerShape, Plot, PlotPoint, PlotPoints, Points, Text};

/// Width of the requirement form.
const FORM_WIDTH: f32 = 360.0;
/// Width of a form field's label column.
const LABEL_WIDTH: f32 = 150.0;
/// How near the pointer must be to a plotted build to hover or click it, in points.
const PICK_RADIUS: f32 = 12.0;
/// The id of the front's plot (its memory holds the plot's transform, which tests read to
/// find a build's point on screen).
pub const FRONT_PLOT_ID: &str = "advisor-front-plot";
/// Currencies the form offers; the rate of one chosen is its default until edited.
const CURRENCIES: [(&str, f64); 2] = [("CNY", DEFAULT_CNY_PER_USD), ("USD", 1.0)];

/// The whole Advisor view (both panels).
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    egui::Panel::left("advisor-form").resizable(true).default_size(FORM_WIDTH).min_size(280.0).show(ui, |ui| {
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| form(ui, fx));
    });
    egui::CentralPanel::default().show(ui, |ui| {
        super::canvas::notice(ui, fx);
        toolbar(ui, fx);
        ui.separator();
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| answer(ui, fx));
    });
}

fn toolbar(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let a = fx.texts.advisor;
    ui.horizontal_wrapped(|ui| {
        if ui.button(a.back_to_build).clicked() {
            fx.push(Command::ShowView(MainView::Build));
        }
        ui.separator();
        ui.heading(a.title);
        ui.weak(a.subtitle);
    });
}

// ---------------------------------------------------------------------------------------
// The requirement form.

/// A labelled row of the form: the label, then the row's widgets, which `add` names by the
/// label's id (`labelled_by`) for screen readers.
fn row<R>(ui: &mut egui::Ui, label: &str, add: impl FnOnce(&mut egui::Ui, egui::Id) -> R) -> R {
    ui.horizontal(|ui| {
        let height = ui.spacing().interact_size.y;
        let id = ui
            .allocate_ui_with_layout(
                egui::vec2(LABEL_WIDTH, height),
                egui::Layout::left_to_right(egui::Align::Center),
                |ui| {
                    ui.set_min_width(LABEL_WIDTH);
                    ui.add(egui::Label::new(label).truncate()).id
                },
            )
            .inner;
        add(ui, id)
    })
    .inner
}

fn form(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let a = fx.texts.advisor;
    let mut req = fx.advisor.req.clone();
    ui.label(RichText::new(a.presets).strong());
    ui.horizontal_wrapped(|ui| {
        for (preset, name) in Preset::ALL.into_iter().zip(a.preset_names) {
            if ui.selectable_label(fx.advisor.preset == Some(preset), name).clicked() {
                fx.push(Command::AdvisorPreset(preset));
            }
        }
    });
    ui.separator();
    workloads(ui, fx, &mut req);
    ui.separator();
    budget(ui, a, &mut req);
    ui.separator();
    site(ui, a, &mut req);
    ui.separator();
    objective(ui, a, &mut req);
    ui.separator();
    limits(ui, fx, &mut req);
    if req != fx.advisor.req {
        fx.push(Command::SetRequirement(Box::new(req)));
    }
}

fn workloads(ui: &mut egui::Ui, fx: &FrameCtx<'_>, req: &mut Requirement) {
    let a = fx.texts.advisor;
    ui.label(RichText::new(a.workloads).strong());
    let mut remove = None;
    let several = req.workloads.len() > 1;
    for (i, w) in req.workloads.iter_mut().enumerate() {
        ui.push_id(("workload", i), |ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new(fill(a.workload_n, &[&(i + 1)])).weak());
                if several && ui.small_button(a.remove_workload).clicked() {
                    remove = Some(i);
                }
            });
            workload(ui, fx, a, w);
        });
        ui.add_space(4.0);
    }
    if let Some(i) = remove {
        req.workloads.remove(i);
    }
    let room = req.workloads.len() < crate::core::advisor::requirement::MAX_WORKLOADS;
    if ui.add_enabled(room, egui::Button::new(a.add_workload)).clicked() {
        let model =
            req.workloads.last().map_or_else(|| ModelId("model/meta-llama-3.1-8b".to_owned()), |w| w.model.clone());
        req.workloads.push(WorkloadReq::new(model, WorkMode::Inference));
    }
}

fn workload(ui: &mut egui::Ui, fx: &FrameCtx<'_>, a: &AdvisorTexts, w: &mut WorkloadReq) {
    row(ui, a.model, |ui, l| {
        let name = match &w.custom {
            Some(_) => a.custom_model.to_owned(),
            None => fx
                .catalog
                .models
                .iter()
                .find(|m| m.id == w.model)
                .map_or_else(|| w.model.as_str().to_owned(), |m| m.name.clone()),
        };
        ComboBox::from_id_salt("model")
            .selected_text(name)
            .width(180.0)
            .show_ui(ui, |ui| {
                if ui.selectable_label(w.custom.is_some(), a.custom_model).clicked() && w.custom.is_none() {
                    // Start from the shape of the model chosen so far (Llama 3.1 8B if it has none).
                    let like = |id: &str| {
                        let m = fx.catalog.models.get(id)?;
                        Some(CustomArch::like(m.total_params(), m.transformer()?))
                    };
                    let arch = like(w.model.as_str()).or_else(|| like("meta-llama-3.1-8b")).unwrap_or_default();
                    w.custom = Some(arch);
                    w.model = ModelId(arch.name());
                }
                ui.separator();
                for m in fx.catalog.models.iter() {
                    if ui.selectable_label(w.custom.is_none() && w.model == m.id, &m.name).clicked() {
                        w.model = m.id.clone();
                        w.custom = None;
                    }
                }
            })
            .response
            .labelled_by(l);
    });
    if let Some(arch) = w.custom.as_mut() {
        custom_arch(ui, a, arch);
        w.model = ModelId(arch.name());
    }
    row(ui, a.mode, |ui, l| {
        let before = w.mode;
        ComboBox::from_id_salt("mode")
            .selected_text(mode_name(a, w.mode))
            .width(180.0)
            .show_ui(ui, |ui| {
                for m in WorkMode::ALL {
                    ui.selectable_value(&mut w.mode, m, mode_name(a, m));
                }
            })
            .response
            .labelled_by(l);
        if w.mode != before {
            // The precision and context follow the mode, as a new workload of that mode has.
            let fresh = WorkloadReq::new(w.model.clone(), w.mode);
            w.weights = fresh.weights;
            w.context = fresh.context;
            if w.mode != WorkMode::Inference && w.train_tokens.is_none() {
                w.train_tokens = Some(1.0e8);
            }
        }
    });
    row(ui, a.weights, |ui, l| {
        ComboBox::from_id_salt("weights")
            .selected_text(w.weights.name())
            .width(180.0)
            .show_ui(ui, |ui| {
                for t in WeightType::ALL {
                    ui.selectable_value(&mut w.weights, t, t.name());
                }
            })
            .response
            .labelled_by(l);
    });
    row(ui, a.context, |ui, l| ui.add(DragValue::new(&mut w.context).range(1..=1_048_576).speed(64)).labelled_by(l));
    if w.mode == WorkMode::Inference {
        row(ui, a.users, |ui, l| ui.add(DragValue::new(&mut w.users).range(1..=100_000)).labelled_by(l));
        row(ui, a.tokens_per_user, |ui, l| {
            ui.add(DragValue::new(&mut w.tokens_per_user).range(0.01..=10_000.0).speed(0.5).max_decimals(2))
                .labelled_by(l)
        });
    } else {
        row(ui, a.train_tokens, |ui, l| {
            let mut billions = w.train_tokens.unwrap_or(1.0e8) / 1.0e9;
            let r = ui
                .add(DragValue::new(&mut billions).range(1.0e-9..=1.0e7).speed(0.01).max_decimals(3).suffix(" B"))
                .labelled_by(l);
            if r.changed() {
                w.train_tokens = Some(billions * 1.0e9);
            }
        });
        row(ui, a.deadline, |ui, l| {
            let mut asap = w.deadline_hours.is_none();
            if ui.checkbox(&mut asap, a.fastest_possible).changed() {
                w.deadline_hours = if asap { None } else { Some(24.0) };
            }
            if let Some(h) = w.deadline_hours.as_mut() {
                ui.add(DragValue::new(h).range(0.01..=1.0e6).speed(1.0).max_decimals(1)).labelled_by(l);
            }
        });
    }
}

/// The shape of a custom model: `rigplan fit`'s flags as fields.
fn custom_arch(ui: &mut egui::Ui, a: &AdvisorTexts, arch: &mut CustomArch) {
    row(ui, a.params, |ui, l| {
        #[expect(clippy::cast_precision_loss, reason = "a parameter count shown in billions")]
        let mut billions = arch.params as f64 / 1.0e9;
        let r = ui.add(DragValue::new(&mut billions).range(0.001..=10_000.0).speed(0.1).max_decimals(3).suffix(" B"));
        if r.labelled_by(l).changed() {
            arch.params = crate::core::units::round_non_negative(billions * 1.0e9);
        }
    });
    row(ui, a.layers, |ui, l| ui.add(DragValue::new(&mut arch.layers).range(1..=1_000)).labelled_by(l));
    row(ui, a.hidden, |ui, l| ui.add(DragValue::new(&mut arch.hidden).range(1..=1_000_000).speed(64)).labelled_by(l));
    row(ui, a.heads, |ui, l| ui.add(DragValue::new(&mut arch.heads).range(1..=1_024)).labelled_by(l));
    for (label, value, default) in [
        (a.kv_heads, &mut arch.kv_heads, arch.heads),
        (a.ffn, &mut arch.ffn, arch.hidden.saturating_mul(4)),
        (a.vocab, &mut arch.vocab, 32_000),
    ] {
        row(ui, label, |ui, l| {
            let mut on = value.is_some();
            if ui.checkbox(&mut on, "").labelled_by(l).changed() {
                *value = on.then_some(default);
            }
            if let Some(v) = value.as_mut() {
                ui.add(DragValue::new(v).range(1..=1_000_000).speed(16)).labelled_by(l);
            }
        });
    }
}

fn mode_name(a: &AdvisorTexts, m: WorkMode) -> &'static str {
    WorkMode::ALL.iter().position(|x| *x == m).map_or("", |i| a.mode_names[i])
}

fn budget(ui: &mut egui::Ui, a: &AdvisorTexts, req: &mut Requirement) {
    ui.label(RichText::new(a.budget).strong());
    row(ui, a.capex_ceiling, |ui, l| {
        ui.add(DragValue::new(&mut req.budget).range(0.0..=1.0e12).speed(500.0).max_decimals(0)).labelled_by(l);
        ui.label(&req.currency.0);
    });
    row(ui, a.tco_ceiling, |ui, l| {
        let mut on = req.tco_budget.is_some();
        if ui.checkbox(&mut on, "").labelled_by(l).changed() {
            req.tco_budget = on.then(|| (req.budget * 2.0).max(1.0));
        }
        if let Some(t) = req.tco_budget.as_mut() {
            ui.add(DragValue::new(t).range(0.0..=1.0e13).speed(500.0).max_decimals(0)).labelled_by(l);
        }
    });
    row(ui, a.currency, |ui, l| {
        let before = req.currency.0.clone();
        ComboBox::from_id_salt("currency")
            .selected_text(&req.currency.0)
            .width(70.0)
            .show_ui(ui, |ui| {
                for (code, _) in CURRENCIES {
                    ui.selectable_value(&mut req.currency, Currency(code.to_owned()), code);
                }
            })
            .response
            .labelled_by(l);
        if req.currency.0 != before
            && let Some((_, rate)) = CURRENCIES.iter().find(|(c, _)| *c == req.currency.0)
        {
            req.usd_exchange_rate = *rate;
        }
        ui.add(DragValue::new(&mut req.usd_exchange_rate).range(1.0e-6..=1.0e6).speed(0.01).max_decimals(4))
            .labelled_by(l);
        ui.label(a.per_usd);
    });
}

fn site(ui: &mut egui::Ui, a: &AdvisorTexts, req: &mut Requirement) {
    ui.label(RichText::new(a.site).strong());
    let s = &mut req.site;
    row(ui, a.form, |ui, l| {
        let i = Form::ALL.iter().position(|f| *f == s.form).unwrap_or_default();
        ComboBox::from_id_salt("form")
            .selected_text(a.form_names[i])
            .width(180.0)
            .show_ui(ui, |ui| {
                for (f, name) in Form::ALL.into_iter().zip(a.form_names) {
                    ui.selectable_value(&mut s.form, f, name);
                }
            })
            .response
            .labelled_by(l);
    });
    row(ui, a.circuits, |ui, l| {
        let c = &mut s.circuits;
        ui.add(DragValue::new(&mut c.count).range(1..=1_000).prefix("× ")).labelled_by(l);
        ui.add(DragValue::new(&mut c.volts).range(90.0..=480.0).speed(1.0).suffix(" V")).labelled_by(l);
        ui.add(DragValue::new(&mut c.amps).range(1.0..=1_000.0).speed(0.5).suffix(" A")).labelled_by(l);
    });
    row(ui, "", |ui, _| {
        let mut three = s.circuits.phases == 3;
        if ui.checkbox(&mut three, a.phases).changed() {
            s.circuits.phases = if three { 3 } else { 1 };
        }
    });
    row(ui, a.ambient, |ui, l| ui.add(DragValue::new(&mut s.ambient_c).range(-20.0..=55.0).speed(0.5)).labelled_by(l));
    row(ui, a.electricity, |ui, l| {
        ui.add(DragValue::new(&mut s.electricity_per_kwh).range(0.0..=10_000.0).speed(0.01).max_decimals(3))
            .labelled_by(l)
    });
    row(ui, a.pue, |ui, l| {
        ui.add(DragValue::new(&mut s.pue).range(1.0..=3.0).speed(0.01).max_decimals(2)).labelled_by(l)
    });
}

fn objective(ui: &mut egui::Ui, a: &AdvisorTexts, req: &mut Requirement) {
    row(ui, a.objective, |ui, l| {
        let i = Objective::ALL.iter().position(|o| *o == req.objective).unwrap_or_default();
        ComboBox::from_id_salt("objective")
            .selected_text(a.objective_names[i])
            .width(180.0)
            .show_ui(ui, |ui| {
                for (o, name) in Objective::ALL.into_iter().zip(a.objective_names) {
                    ui.selectable_value(&mut req.objective, o, name);
                }
            })
            .response
            .labelled_by(l);
    });
    row(ui, a.horizon, |ui, l| {
        ui.add(DragValue::new(&mut req.horizon_years).range(0.25..=15.0).speed(0.25)).labelled_by(l)
    });
    row(ui, a.utilization, |ui, l| {
        let mut percent = req.utilization * 100.0;
        if ui.add(egui::Slider::new(&mut percent, 0.0..=100.0).suffix(" %").max_decimals(0)).labelled_by(l).changed() {
            req.utilization = percent / 100.0;
        }
    });
}

fn limits(ui: &mut egui::Ui, fx: &FrameCtx<'_>, req: &mut Requirement) {
    let a = fx.texts.advisor;
    egui::CollapsingHeader::new(RichText::new(a.limits).strong()).id_salt("advisor-limits").show(ui, |ui| {
        row(ui, a.max_nodes, |ui, l| {
            let mut n = req.max_nodes();
            if ui
                .add(DragValue::new(&mut n).range(1..=crate::core::advisor::requirement::MAX_NODES))
                .labelled_by(l)
                .changed()
            {
                req.filters.max_nodes = Some(n);
            }
        });
        row(ui, a.max_gpus, |ui, l| {
            let mut n = req.max_gpus_per_node();
            let most = crate::core::advisor::requirement::MAX_GPUS_PER_NODE;
            if ui.add(DragValue::new(&mut n).range(1..=most)).labelled_by(l).changed() {
                req.filters.max_gpus_per_node = Some(n);
            }
        });
        row(ui, a.ram_to_vram, |ui, l| {
            ui.add(DragValue::new(&mut req.ram_to_vram).range(0.0..=16.0).speed(0.05).max_decimals(2)).labelled_by(l)
        });
        row(ui, a.dataset, |ui, l| {
            let mut on = req.dataset_gb.is_some();
            if ui.checkbox(&mut on, "").labelled_by(l).changed() {
                req.dataset_gb = on.then_some(1_000.0);
            }
            if let Some(d) = req.dataset_gb.as_mut() {
                ui.add(DragValue::new(d).range(0.0..=1.0e9).speed(10.0).max_decimals(0).suffix(" GB")).labelled_by(l);
            }
        });
        row(ui, a.only_vendors, |ui, l| list_field(ui, l, "only-vendors", a.vendors_hint, &mut req.filters.vendors));
        row(ui, a.exclude_vendors, |ui, l| {
            list_field(ui, l, "exclude-vendors", a.vendors_hint, &mut req.filters.exclude_vendors);
        });
        row(ui, a.priced_since, |ui, l| date_field(ui, l, a, &mut req.filters.priced_since));
        row(ui, a.must_use_gpu, |ui, l| gpu_choice(ui, l, fx, "must-use", a.any, &mut req.filters.require_parts));
        row(ui, a.exclude_gpus, |ui, l| gpu_exclusions(ui, l, fx, &mut req.filters.exclude_parts));
        row(ui, a.why_not, |ui, l| gpu_choice(ui, l, fx, "why-not", a.nobody, &mut req.why_not));
    });
}

/// A comma-separated list in a text field. The text typed is kept in the widget's memory
/// while it reads as the list (so that "NVIDIA, " can be typed on), and shown afresh when the
/// list changed elsewhere (a preset).
fn list_field(ui: &mut egui::Ui, l: egui::Id, salt: &str, hint: &str, list: &mut Vec<String>) {
    fn parse(text: &str) -> Vec<String> {
        text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect()
    }
    let id = ui.make_persistent_id(salt);
    let mut text =
        ui.data(|d| d.get_temp::<String>(id)).filter(|t| parse(t) == *list).unwrap_or_else(|| list.join(", "));
    if ui.add(TextEdit::singleline(&mut text).hint_text(hint).desired_width(170.0)).labelled_by(l).changed() {
        *list = parse(&text);
    }
    ui.data_mut(|d| d.insert_temp(id, text));
}

/// A date (YYYY-MM-DD) in a text field; empty is none. A date being typed is kept (and said
/// to be no date) until it reads as one.
fn date_field(ui: &mut egui::Ui, l: egui::Id, a: &AdvisorTexts, date: &mut Option<SheetDate>) {
    let parse = |t: &str| if t.trim().is_empty() { Ok(None) } else { SheetDate::parse(t.trim()).map(Some) };
    let id = ui.make_persistent_id("priced-since");
    let shown = || date.map_or_else(String::new, |d| d.to_string());
    let mut text =
        ui.data(|d| d.get_temp::<String>(id)).filter(|t| parse(t).map_or(true, |d| d == *date)).unwrap_or_else(shown);
    if ui.add(TextEdit::singleline(&mut text).hint_text(a.date_hint).desired_width(110.0)).labelled_by(l).changed()
        && let Ok(d) = parse(&text)
    {
        *date = d;
    }
    if parse(&text).is_err() {
        ui.colored_label(ui.visuals().error_fg_color, fill(a.bad_date, &[&text.trim()]));
    }
    ui.data_mut(|d| d.insert_temp(id, text));
}

/// GPUs the search leaves out, ticked in a menu; other excluded parts (from the CLI's
/// `--exclude`) are kept.
fn gpu_exclusions(ui: &mut egui::Ui, l: egui::Id, fx: &FrameCtx<'_>, list: &mut Vec<PartId>) {
    let a = fx.texts.advisor;
    let gpus = &fx.catalog.gpus;
    let n = gpus.iter().filter(|g| list.contains(&g.id)).count();
    let label = if n == 0 { a.any.to_owned() } else { fill(a.n_excluded, &[&n]) };
    ui.menu_button(label, |ui| {
        egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
            for g in gpus {
                let mut out = list.contains(&g.id);
                if ui.checkbox(&mut out, &g.name).changed() {
                    if out {
                        list.push(g.id.clone());
                    } else {
                        list.retain(|p| p != &g.id);
                    }
                }
            }
        });
    })
    .response
    .labelled_by(l);
}

/// One GPU of the catalog, or none: the list holds it alone.
fn gpu_choice(ui: &mut egui::Ui, l: egui::Id, fx: &FrameCtx<'_>, salt: &str, none: &str, list: &mut Vec<PartId>) {
    let gpus = &fx.catalog.gpus;
    let current = list.first().and_then(|id| gpus.iter().find(|g| &g.id == id)).map_or(none, |g| g.name.as_str());
    ComboBox::from_id_salt(salt)
        .selected_text(current)
        .width(180.0)
        .show_ui(ui, |ui| {
            if ui.selectable_label(list.is_empty(), none).clicked() {
                list.clear();
            }
            for g in gpus {
                let chosen = list.first() == Some(&g.id);
                if ui.selectable_label(chosen, &g.name).clicked() {
                    *list = vec![g.id.clone()];
                }
            }
        })
        .response
        .labelled_by(l);
}

// ---------------------------------------------------------------------------------------
// The answer.

fn answer(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let a = fx.texts.advisor;
    let Some(advised) = fx.advised else { return };
    let advice = match &advised.result {
        Ok(advice) => advice,
        Err(message) => {
            ui.colored_label(fx.tokens.error, fill(a.invalid, &[message]));
            return;
        }
    };
    let s = &advice.stats;
    ui.weak(fill(
        a.searched,
        &[&s.configurations, &format_thousands(advised.millis, 0), &s.bounded, &s.estimated, &s.checked],
    ));
    if advice.front.is_empty() {
        let why = advice.failure.as_ref().map_or_else(|| a.nothing_left.to_owned(), |r| r.render(a.lang));
        ui.add_space(6.0);
        ui.colored_label(fx.tokens.error, fill(a.nothing, &[&why]));
    } else {
        plot(ui, fx, advised, advice);
        ui.add_space(6.0);
        table(ui, fx, advice);
        ui.add_space(6.0);
        actions(ui, fx, advised);
        ui.separator();
        // The selected build, else the first: there is always one to read about.
        if fx.advisor.selected.as_deref().and_then(|s| advised.candidate(s)).is_none() {
            ui.weak(a.select_hint);
        }
        if let Some(c) = shown(fx, advised) {
            detail(ui, fx, c);
        }
    }
    if advice.front_left_out > 0 {
        ui.weak(fill(a.left_out, &[&advice.front_left_out]));
    }
    for w in &advice.why_not {
        ui.label(fill(a.why_not_answer, &[&w.name, &w.reason.render(a.lang)]));
    }
    if !advice.unpriced.is_empty() {
        ui.weak(fill(a.unpriced, &[&advice.unpriced.len()]));
    }
}

fn axis_label(a: &AdvisorTexts, axis: SpeedAxis) -> &'static str {
    match axis {
        SpeedAxis::Served => a.axis_served,
        SpeedAxis::Hours => a.axis_hours,
        SpeedAxis::TrainRate => a.axis_train,
    }
}

/// Short name of workload `i` for the plot's choice and the table's columns.
fn workload_name(fx: &FrameCtx<'_>, req: &Requirement, i: usize) -> String {
    let a = fx.texts.advisor;
    req.workloads.get(i).map_or_else(String::new, |w| {
        let model = fx.catalog.models.iter().find(|m| m.id == w.model).map_or(w.model.as_str(), |m| m.name.as_str());
        format!("{} · {model} {}", fill(a.col_workload, &[&(i + 1)]), mode_name(a, w.mode))
    })
}

fn plot(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, advised: &Advised, advice: &Advice) {
    let a = fx.texts.advisor;
    let adv = fx.advisor;
    let req = &adv.req;
    let w = adv.plot_workload.min(req.workloads.len().saturating_sub(1));
    if req.workloads.len() > 1 {
        ui.horizontal(|ui| {
            let l = ui.label(a.plot_of).id;
            ComboBox::from_id_salt("plot-workload")
                .selected_text(workload_name(fx, req, w))
                .width(320.0)
                .show_ui(ui, |ui| {
                    for i in 0..req.workloads.len() {
                        if ui.selectable_label(i == w, workload_name(fx, req, i)).clicked() && i != w {
                            fx.push(Command::AdvisorPlotWorkload(i));
                        }
                    }
                })
                .response
                .labelled_by(l);
            ui.weak(a.plot_hint);
        });
    } else {
        ui.weak(a.plot_hint);
    }
    let axis = SpeedAxis::of(req, w);
    let series = advised.points.get(w).map(Vec::as_slice).unwrap_or_default();
    let points: Vec<PlotPoint> = series.iter().map(|(_, p)| PlotPoint::new(p[0], p[1])).collect();
    let mut front: Vec<PlotPoint> = points.clone();
    front.sort_by(|p, q| p.x.total_cmp(&q.x));
    let selected = adv.selected.as_deref();
    let chosen: Vec<PlotPoint> = series
        .iter()
        .filter(|(i, _)| advice.front.get(*i).is_some_and(|c| Some(c.slug.as_str()) == selected))
        .map(|(_, p)| PlotPoint::new(p[0], p[1]))
        .collect();
    let marked: Vec<PlotPoint> = series
        .iter()
        .filter(|(i, _)| advice.front.get(*i).is_some_and(|c| adv.marked.contains(&c.slug)))
        .map(|(_, p)| PlotPoint::new(p[0], p[1]))
        .collect();
    let tk = fx.tokens;
    let currency = req.currency.0.clone();
    let mut picked = None;
    with_save(ui, fx, "advisor-front", |ui| {
        let response = Plot::new("advisor-front")
            .id(egui::Id::unique(FRONT_PLOT_ID))
            .height(theme::TALL_PLOT_HEIGHT)
            .legend(legend())
            .allow_scroll(false)
            .x_axis_label(fill(a.axis_capex, &[&currency]))
            .y_axis_label(axis_label(a, axis))
            .include_y(0.0)
            .show(ui, |plot| {
                plot.line(Line::new(a.front, PlotPoints::Owned(front)).color(series_color(tk, 0).gamma_multiply(0.5)));
                plot.points(
                    Points::new(a.col_build, PlotPoints::Borrowed(&points))
                        .radius(4.0)
                        .shape(MarkerShape::Circle)
                        .color(series_color(tk, 0)),
                );
                // Each point's rank, beside it.
                for (i, p) in series {
                    if let Some(c) = advice.front.get(*i) {
                        let at = PlotPoint::new(p[0], p[1]);
                        let label = RichText::new(format!(" #{}", c.rank)).small();
                        plot.text(Text::new("", at, label).anchor(egui::Align2::LEFT_BOTTOM).color(tk.muted));
                    }
                }
                if !marked.is_empty() {
                    plot.points(
                        Points::new(a.col_compare, PlotPoints::Owned(marked))
                            .radius(6.0)
                            .filled(false)
                            .shape(MarkerShape::Square)
                            .color(series_color(tk, 1)),
                    );
                }
                if !chosen.is_empty() {
                    plot.points(
                        Points::new(a.selected, PlotPoints::Owned(chosen))
                            .radius(7.0)
                            .shape(MarkerShape::Diamond)
                            .color(tk.accent),
                    );
                }
            });
        // The build under the pointer: the nearest plotted one within the pick radius.
        let nearest = |pos: egui::Pos2| {
            series
                .iter()
                .map(|(i, p)| (*i, response.transform.position_from_point(&PlotPoint::new(p[0], p[1])).distance(pos)))
                .filter(|(_, d)| *d <= PICK_RADIUS)
                .min_by(|x, y| x.1.total_cmp(&y.1))
                .map(|(i, _)| i)
        };
        let r = &response.response;
        if r.clicked()
            && let Some(c) = r.interact_pointer_pos().and_then(nearest).and_then(|i| advice.front.get(i))
        {
            picked = Some(c.slug.clone());
        }
        if let Some(c) = r.hover_pos().and_then(nearest).and_then(|i| advice.front.get(i)) {
            let _ = response.response.clone().on_hover_ui_at_pointer(|ui| {
                ui.label(RichText::new(format!("#{} {}", c.rank, c.build.name)).strong());
                for (label, value) in figures(a, req, c) {
                    ui.label(format!("{label}: {value}"));
                }
            });
        }
        response
    });
    if let Some(slug) = picked {
        fx.push(Command::AdvisorSelect(Some(slug)));
    }
}

/// The headline figures of a candidate, as (label, value) rows.
fn figures(a: &AdvisorTexts, req: &Requirement, c: &Candidate) -> Vec<(String, String)> {
    let cur = &req.currency.0;
    let money = |v: f64| format!("{} {cur}", format_thousands(v, 0));
    let mut rows = vec![
        (a.col_capex.to_owned(), money(c.capex)),
        (fill(a.tco_over, &[&req.horizon_years]), money(c.tco_owned)),
        (a.wall_max.to_owned(), format!("{} W", format_thousands(c.wall_watts, 0))),
        (a.col_circuits.to_owned(), c.circuits_needed.to_string()),
    ];
    for (k, fit) in c.workloads.iter().enumerate() {
        rows.push((fill(a.col_workload, &[&(fit.workload + 1)]), speed_text(a, cur, c, k)));
    }
    rows
}

/// A workload's figures on a candidate: speed, and its cost per 1M tokens or per run.
fn speed_text(a: &AdvisorTexts, cur: &str, c: &Candidate, k: usize) -> String {
    let Some(fit) = c.workloads.get(k) else { return String::new() };
    let speed = match (fit.served_tokens_per_s, fit.train_tokens_per_s) {
        (Some(served), _) => fill(
            a.served,
            &[
                &format_thousands(served, 0),
                &format_thousands(fit.per_user_tokens_per_s.unwrap_or(0.0), 1),
                &fit.users_capacity.map_or_else(|| "?".to_owned(), |u| u.to_string()),
            ],
        ),
        (None, Some(train)) => {
            let rate = fill(a.training, &[&format_thousands(train, 0)]);
            match fit.hours {
                Some(h) => format!("{rate}, {}", fill(a.hours, &[&format_thousands(h, 1)])),
                None => rate,
            }
        }
        (None, None) => String::new(),
    };
    let cost = match (c.cost_per_million_tokens.get(k).copied().flatten(), c.cost_per_run.get(k).copied().flatten()) {
        (Some(m), _) if fit.served_tokens_per_s.is_some() => fill(a.per_million, &[&format_thousands(m, 2), &cur]),
        (_, Some(r)) => fill(a.per_run, &[&format_thousands(r, 0), &cur]),
        _ => return speed,
    };
    format!("{speed} · {cost}")
}

fn table(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, advice: &Advice) {
    let a = fx.texts.advisor;
    let adv = fx.advisor;
    let req = &adv.req;
    let cur = &req.currency.0;
    egui::Grid::new("advisor-table").striped(true).spacing([14.0, 4.0]).show(ui, |ui| {
        for h in [a.col_compare, a.col_build, a.col_capex, a.col_tco, a.col_wall, a.col_circuits] {
            ui.label(RichText::new(h).strong());
        }
        for (i, w) in req.workloads.iter().enumerate() {
            let head = ui.label(RichText::new(fill(a.col_workload, &[&(i + 1)])).strong());
            head.on_hover_text(workload_name(fx, req, i) + &format!(" ({})", w.weights.name()));
        }
        ui.end_row();
        for c in &advice.front {
            let mut marked = adv.marked.contains(&c.slug);
            if ui.checkbox(&mut marked, format!("#{}", c.rank)).changed() {
                fx.push(Command::AdvisorMark { slug: c.slug.clone(), marked });
            }
            let selected = adv.selected.as_deref() == Some(c.slug.as_str());
            if ui.selectable_label(selected, &c.build.name).clicked() {
                fx.push(Command::AdvisorSelect((!selected).then(|| c.slug.clone())));
            }
            ui.label(format!("{} {cur}", format_thousands(c.capex, 0)));
            ui.label(format!("{} {cur}", format_thousands(c.tco_owned, 0)));
            ui.label(format!("{} W", format_thousands(c.wall_watts, 0)));
            ui.label(c.circuits_needed.to_string());
            for k in 0..req.workloads.len() {
                let axis = SpeedAxis::of(req, k);
                let value = axis.value(c, k).map_or_else(String::new, |v| match axis {
                    SpeedAxis::Hours => fill(a.hours, &[&format_thousands(v, 1)]),
                    _ => format!("{} tok/s", format_thousands(v, 0)),
                });
                ui.label(value).on_hover_text(speed_text(a, cur, c, k));
            }
            ui.end_row();
        }
    });
}

fn actions(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, advised: &Advised) {
    let a = fx.texts.advisor;
    ui.horizontal_wrapped(|ui| {
        let shown = shown(fx, advised);
        if ui.add_enabled(shown.is_some(), egui::Button::new(a.open_as_build)).clicked()
            && let Some(c) = shown
        {
            fx.push(Command::AdvisorOpen(c.slug.clone()));
        }
        let n = fx.advisor.marked.iter().filter(|s| advised.candidate(s).is_some()).count();
        let ready = (MIN_BUILDS..=MAX_BUILDS).contains(&n);
        let button = ui.add_enabled(ready, egui::Button::new(fill(a.compare_selected, &[&n])));
        if button.clicked() {
            fx.push(Command::AdvisorCompare);
        }
        if !ready {
            ui.weak(a.compare_hint);
        }
    });
}

/// The build the detail shows: the selected one, else the first of the front.
fn shown<'a>(fx: &FrameCtx<'_>, advised: &'a Advised) -> Option<&'a Candidate> {
    let selected = fx.advisor.selected.as_deref().and_then(|s| advised.candidate(s));
    selected.or_else(|| advised.advice()?.front.first())
}

fn detail(ui: &mut egui::Ui, fx: &FrameCtx<'_>, c: &Candidate) {
    let a = fx.texts.advisor;
    let req = &fx.advisor.req;
    ui.label(RichText::new(format!("#{} {}", c.rank, c.build.name)).strong());
    super::plots::figures(ui, "advisor-figures", &figures(a, req, c));
    for fit in &c.workloads {
        ui.add_space(4.0);
        ui.label(RichText::new(workload_name(fx, req, fit.workload)).strong());
        let mem = fill(
            a.memory_per_gpu,
            &[
                &format_thousands(fit.per_gpu_bytes.gib(), 1),
                &format_thousands(fit.gpu_memory_bytes.gib(), 0),
                &format_thousands(fit.memory_fraction * 100.0, 0),
            ],
        );
        ui.label(mem);
        ui.label(fill(a.parallelism, &[&fit.tp, &fit.pp, &fit.replicas]));
        ui.horizontal_wrapped(|ui| {
            ui.weak(a.check_with);
            ui.label(RichText::new(format!("rigplan fit --build FILE {}", fit.fit_args)).monospace());
        });
    }
    ui.add_space(6.0);
    ui.label(RichText::new(a.why_this).strong());
    for r in &c.reasons {
        ui.label(format!("• {}", r.render(a.lang)));
    }
}
