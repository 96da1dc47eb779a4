//! The Advisor's requirement form: presets, workloads (a catalog model or a custom
//! architecture), budget, site, objective and limits. Each widget edits a copy of the
//! requirement; [`ui`] pushes the copy when it changed.

use crate::core::advisor::{
    Form, Objective, Preset, Requirement, WorkMode, WorkloadReq, requirement::DEFAULT_CNY_PER_USD,
};
use crate::core::analysis::memory::{CustomArch, WeightType};
use crate::core::catalog::{ModelId, PartId};
use crate::core::export::SheetDate;
use crate::core::units::Currency;
use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::text::advisor::AdvisorTexts;
use crate::gui::text::fill;
use egui::{ComboBox, DragValue, RichText, TextEdit};

/// Width of a form field's label column.
const LABEL_WIDTH: f32 = 150.0;
/// Tokens a training workload starts with when the user switches to it: the entry preset's
/// LoRA run (`Preset::Entry`, 10⁸ tokens), a short fine-tune to edit from.
const START_TRAIN_TOKENS: f64 = 1.0e8;
/// A deadline's starting value when "as fast as possible" is unticked: one day, to edit from.
const START_DEADLINE_HOURS: f64 = 24.0;
/// A TCO ceiling's starting value when it is ticked: twice the capex ceiling. A round value
/// to edit from (a rigplan assumption, not a recommendation).
const START_TCO_PER_CAPEX: f64 = 2.0;
/// Vocabulary of a custom model when the field is ticked: Llama 2's 32,000 tokens (Touvron
/// et al. 2023), a common size, to edit from.
const START_VOCAB: u32 = 32_000;
/// Currencies the form offers; the rate of one chosen is its default until edited.
const CURRENCIES: [(&str, f64); 2] = [("CNY", DEFAULT_CNY_PER_USD), ("USD", 1.0)];

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

/// The whole form.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
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
                w.train_tokens = Some(START_TRAIN_TOKENS);
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
            let mut billions = w.train_tokens.unwrap_or(START_TRAIN_TOKENS) / 1.0e9;
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
                w.deadline_hours = if asap { None } else { Some(START_DEADLINE_HOURS) };
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
        (a.vocab, &mut arch.vocab, START_VOCAB),
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

/// The name of a mode in the table's language.
#[must_use]
pub fn mode_name(a: &AdvisorTexts, m: WorkMode) -> &'static str {
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
            req.tco_budget = on.then(|| (req.budget * START_TCO_PER_CAPEX).max(1.0));
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
                // The drive capacity a node gets without a dataset, to edit from.
                req.dataset_gb = on.then_some(crate::core::advisor::requirement::MIN_STORAGE_GB);
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
