//! The Memory & speed tab: for each node group's GPUs, every catalog model × the standard
//! workloads, coloured by whether it fits. Selecting a cell shows its per-GPU memory stacked
//! by component against the GPU's capacity, and its speed; precision, batch, context, ZeRO
//! stage and the training token count can be changed for that cell (the app re-evaluates it
//! with the core's memory and speed models outside the panel).

use super::explain;
use super::plots::{LegendEntry, series_color, with_legend_and_save};
use crate::core::advisor::requirement::DEFAULT_TOKENS_PER_USER;
use crate::core::analysis::memory::{Engine, MemoryEstimate, Verdict, WeightType};
use crate::core::analysis::serving::ServingEstimate;
use crate::core::analysis::speed::{self, SpeedEstimate};
use crate::core::units::{Bytes, format_thousands};
use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::derived::CellDetail;
use crate::gui::text::fill;
use crate::gui::theme;
use crate::gui::vocab::{FitOverrides, FitSel};
use egui::{RichText, Sense};
use egui_plot::{Bar, BarChart, HLine, LineStyle, Plot};

/// The tab.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let (t, derived) = (fx.texts, fx.derived);
    if ui.button(t.fit_add_model).on_hover_text(t.fit_add_model_hint).clicked() {
        fx.push(Command::PickModelConfig);
    }
    let fit = &derived.report.fit;
    if fit.is_empty() {
        ui.weak(t.no_gpus);
        return;
    }
    let current = fx.view.fit_matrix.min(fit.len() - 1);
    if fit.len() > 1 {
        let label = ui.label(t.fit_node_group);
        let name = |i: usize| fit.get(i).map_or_else(String::new, |m| format!("{} · {}", m.node_name, m.gpu_name));
        egui::ComboBox::from_id_salt("fit-matrix")
            .selected_text(name(current))
            .show_ui(ui, |ui| {
                for i in 0..fit.len() {
                    if ui.selectable_label(i == current, name(i)).clicked() && i != current {
                        fx.push(Command::SelectFitMatrix(i));
                    }
                }
            })
            .response
            .labelled_by(label.id);
    }
    let Some(m) = fit.get(current) else { return };
    let header = ui.label(
        RichText::new(fill(
            t.fit_gpus,
            &[&m.gpus_per_node, &m.gpu_name, &t.n_nodes.count(m.nodes), &m.gpu_memory_bytes],
        ))
        .strong(),
    );
    super::explain::attach(
        ui,
        fx,
        &header,
        &super::explain::keys(&format!("fit[{current}]"), &["gpus_per_node", "gpu_memory_bytes"]),
    );
    ui.add(egui::Label::new(RichText::new(m.interconnect.as_str()).small()).wrap());
    egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
        matrix(ui, fx, current);
        ui.add_space(8.0);
        match fx.cell_detail {
            Some(detail) => cell(ui, fx, detail),
            None => {
                ui.weak(t.fit_select_hint);
            }
        }
        if !m.notes.is_empty() {
            ui.add_space(6.0);
            for n in &m.notes {
                ui.add(egui::Label::new(RichText::new(n.as_str()).small()).wrap());
            }
        }
    });
}

fn verdict_color(fx: &FrameCtx<'_>, v: Option<Verdict>) -> egui::Color32 {
    match v {
        Some(Verdict::Fits) => fx.tokens.ok,
        Some(Verdict::Tight) => fx.tokens.warn,
        Some(Verdict::DoesNotFit) => fx.tokens.error,
        None => fx.tokens.muted,
    }
}

fn matrix(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, index: usize) {
    let (t, derived) = (fx.texts, fx.derived);
    let Some(m) = derived.report.fit.get(index) else { return };
    let (selected, lang) = (fx.view.fit_cell, fx.lang);
    egui::Grid::new(("fit-grid", index)).num_columns(m.workloads.len() + 1).spacing([4.0, 3.0]).show(ui, |ui| {
        ui.strong(t.fit_model);
        for (c, col) in m.workloads.iter().enumerate() {
            let short = t.fit_workloads.get(c).copied().unwrap_or(col.id);
            ui.strong(short).on_hover_text(col.label);
        }
        ui.end_row();
        for (r, row) in m.rows.iter().enumerate() {
            ui.label(&row.model_name);
            for (c, cell) in row.cells.iter().enumerate() {
                let sel = FitSel { matrix: index, row: r, col: c };
                let text = match (cell.verdict, cell.per_gpu_total_bytes) {
                    (Some(_), Some(bytes)) => format!("{:.0} GiB", bytes.gib()),
                    _ => "—".to_owned(),
                };
                let fill_color = verdict_color(fx, cell.verdict).gamma_multiply(0.35);
                let button = egui::Button::new(RichText::new(text).small())
                    .fill(fill_color)
                    .selected(selected == Some(sel))
                    .min_size(egui::vec2(58.0, 0.0));
                let r = ui.add(button).on_hover_ui(|ui| {
                    let verdict = match cell.verdict {
                        Some(Verdict::Fits) => t.verdict_fits,
                        Some(Verdict::Tight) => t.verdict_tight,
                        Some(Verdict::DoesNotFit) => t.verdict_no_fit,
                        None => t.verdict_not_applicable,
                    };
                    ui.strong(verdict);
                    if let Some(layout) = cell.layout {
                        ui.label(fill(t.fit_layout, &[&layout, &t.n_gpus.count(cell.gpus_used.unwrap_or(1))]));
                    }
                    if let Some(tps) = cell.decode_tokens_per_s {
                        ui.label(fill(t.fit_decode, &[&format_thousands(tps, 1)]));
                    }
                    if let Some(tps) = cell.train_tokens_per_s {
                        ui.label(fill(t.fit_train, &[&format_thousands(tps, 0)]));
                    }
                    if let Some(ipm) = cell.images_per_minute {
                        ui.label(fill(t.fit_images, &[&format_thousands(ipm, 1), &speed::DIFFUSION_STEPS, &"—"]));
                    }
                    if let Some(note) = &cell.note {
                        ui.add(egui::Label::new(RichText::new(note.as_str()).small()).wrap());
                    }
                    let mut formulas = Vec::new();
                    if cell.per_gpu_total_bytes.is_some() {
                        formulas.push("mem-total");
                    }
                    for (shown, id) in [
                        (cell.decode_tokens_per_s.is_some(), "speed-decode"),
                        (cell.train_tokens_per_s.is_some(), "train-throughput"),
                        (cell.images_per_minute.is_some(), "speed-images"),
                    ] {
                        if shown {
                            formulas.push(id);
                        }
                    }
                    if !formulas.is_empty() {
                        ui.set_max_width(theme::EXPLAIN_WIDTH);
                        explain::formulas_ui(ui, lang, &formulas);
                    }
                });
                if r.clicked() {
                    let next = if selected == Some(sel) { None } else { Some(sel) };
                    fx.push(Command::SelectFitCell(next));
                }
            }
            ui.end_row();
        }
    });
}

fn bytes(b: Bytes) -> String {
    b.to_string()
}

fn cell(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, d: &CellDetail) {
    let (t, tk) = (fx.texts, fx.tokens);
    ui.label(RichText::new(fill(t.fit_cell_title, &[&d.model_name, &d.gpus, &d.gpu_name])).strong());
    // The column's workload, or the one evaluated once precision, batch, context, ZeRO stage
    // or GPU count changed (the column's label would still name its own: "bf16 weights" after
    // a switch to fp8, "ZeRO-3 over all GPUs" on two).
    let over = &d.overrides;
    let subtitle = if over.weights.is_none()
        && over.batch.is_none()
        && over.context.is_none()
        && over.zero.is_none()
        && over.gpus.is_none()
    {
        d.workload_label.render(fx.lang)
    } else {
        let work = &d.workload;
        let figures = t.figures;
        let context = format_thousands(f64::from(work.context), 0);
        let text = fill(figures.fit_workload, &[&figures.mode(work.mode), &work.weights.name(), &context, &work.batch]);
        if work.mode.is_training() { fill(figures.fit_workload_zero, &[&text, &work.zero]) } else { text }
    };
    ui.add(egui::Label::new(RichText::new(subtitle).small()).wrap());
    overrides(ui, fx, d);
    let (est, check, speed) = match &d.result {
        Ok(r) => r,
        Err(message) => {
            ui.colored_label(tk.error, message);
            return;
        }
    };
    let p = &est.per_gpu;
    // Each part with the cell basis that explains it (gradients and optimizer states are one
    // basis, the training states).
    let parts_keyed: Vec<(&str, Bytes, &str)> = [
        (t.mem_weights, Some(p.weights_bytes), "fit.per_gpu.weights_bytes"),
        (t.mem_gradients, p.gradients_bytes, "fit.per_gpu.optimizer_bytes"),
        (t.mem_optimizer, p.optimizer_bytes, "fit.per_gpu.optimizer_bytes"),
        (t.mem_activations, p.activations_bytes, "fit.per_gpu.activations_bytes"),
        (t.mem_kv_cache, p.kv_cache_bytes, "fit.per_gpu.kv_cache_bytes"),
        (t.mem_overhead, Some(p.overhead_bytes), "fit.per_gpu.overhead_bytes"),
    ]
    .into_iter()
    .filter_map(|(name, b, key)| b.filter(|b| b.0 > 0).map(|b| (name, b, key)))
    .collect();
    let parts: Vec<(&str, Bytes)> = parts_keyed.iter().map(|(name, b, _)| (*name, *b)).collect();
    let capacity_gib = d.capacity.gib();
    let capacity_label = fill(t.mem_capacity, &[&d.gpu_name]);
    let mut entries: Vec<LegendEntry> = parts
        .iter()
        .enumerate()
        .map(|(i, (name, b))| LegendEntry {
            label: format!("{name} · {}", bytes(*b)),
            color: series_color(tk, i),
            dashed: false,
        })
        .collect();
    entries.push(LegendEntry { label: capacity_label.clone(), color: tk.error, dashed: true });
    // The legend sits under the plot, where it cannot cover the bar.
    let plot = with_legend_and_save(ui, fx, "memory-breakdown", &entries, |ui| {
        Plot::new("memory-breakdown")
            .height(theme::PLOT_HEIGHT)
            .allow_scroll(false)
            .show_x(false)
            .y_axis_label(t.axis_gib)
            .include_y(0.0)
            .include_y(capacity_gib * 1.1)
            .x_axis_formatter(|_, _| String::new())
            .show(ui, |plot| {
                let mut stacked: Vec<BarChart> = Vec::new();
                for (i, (name, b)) in parts.iter().enumerate() {
                    let below: Vec<&BarChart> = stacked.iter().collect();
                    let chart = BarChart::new(*name, vec![Bar::new(0.0, b.gib()).width(0.5).name(*name)])
                        .color(series_color(tk, i))
                        .stack_on(&below);
                    stacked.push(chart);
                }
                for chart in stacked {
                    plot.bar_chart(chart);
                }
                plot.hline(HLine::new(capacity_label, capacity_gib).style(LineStyle::dashed_dense()).color(tk.error));
            })
    });
    // The part of the stack under the pointer: its size and its basis, with the total's.
    super::plot_hover::explain(fx, &plot, |at| {
        super::plot_hover::bar_at(at.x, 1)?;
        let heights: Vec<f64> = parts_keyed.iter().map(|(_, b, _)| b.gib()).collect();
        let (name, b, key) = parts_keyed.get(super::plot_hover::stack_segment(&heights, at.y)?)?;
        let text = format!("{name}: {}", bytes(*b));
        Some(super::plot_hover::Hovered { text, keys: vec![(*key).to_owned(), "fit.per_gpu.total_bytes".to_owned()] })
    });
    let verdict = match check.verdict {
        Verdict::Fits => t.verdict_fits,
        Verdict::Tight => t.verdict_tight,
        Verdict::DoesNotFit => t.verdict_no_fit,
    };
    let response = ui.colored_label(
        verdict_color(fx, Some(check.verdict)),
        fill(
            t.mem_total,
            &[&verdict, &bytes(p.total_bytes), &bytes(d.capacity), &format!("{:.0}", check.memory_fraction * 100.0)],
        ),
    );
    let memory = ["memory_fraction", "per_gpu.total_bytes", "per_gpu.weights_bytes", "per_gpu.kv_cache_bytes"];
    let more = ["per_gpu.activations_bytes", "per_gpu.optimizer_bytes", "per_gpu.overhead_bytes"];
    explain::attach(ui, fx, &response, &explain::keys("fit", &[&memory[..], &more[..]].concat()));
    if let Some(engine) = est.engine {
        let text = RichText::new(fill(t.fit_budget, &[&engine, &bytes(check.budget_bytes)])).small();
        let response = ui.label(text);
        explain::attach(ui, fx, &response, &["fit.budget_bytes".to_owned()]);
    }
    if !check.verdict.fits() {
        ui.weak(t.fit_no_speed);
        notes(ui, fx, est, speed);
        return;
    }
    let key = |field: &str| vec![format!("fit.{field}")];
    if let Some(v) = speed.decode_tokens_per_s {
        explain::explained(ui, fx, &fill(t.fit_decode, &[&format_thousands(v, 1)]), &key("decode_tokens_per_s"));
    }
    if let Some(v) = speed.prefill_tokens_per_s {
        explain::explained(ui, fx, &fill(t.fit_prefill, &[&format_thousands(v, 0)]), &key("prefill_tokens_per_s"));
    }
    if let Some(v) = speed.train_tokens_per_s {
        explain::explained(ui, fx, &fill(t.fit_train, &[&format_thousands(v, 0)]), &key("train_tokens_per_s"));
    }
    if let Some(h) = speed.train_hours {
        let text =
            fill(t.fit_train_time, &[&format_thousands(d.overrides.train_tokens / 1e9, 1), &format_thousands(h, 1)]);
        explain::explained(ui, fx, &text, &key("train_hours"));
    }
    if let Some(mwh) = d.train_energy_mwh {
        explain::explained(ui, fx, &fill(t.fit_train_energy, &[&format_thousands(mwh, 2)]), &key("train_energy_mwh"));
    }
    if let (Some(ipm), Some(seconds), Some(steps)) =
        (speed.images_per_minute, speed.seconds_per_image, speed.denoising_steps)
    {
        let text = fill(t.fit_images, &[&format_thousands(ipm, 1), &steps, &format!("{seconds:.2}")]);
        explain::explained(ui, fx, &text, &key("images_per_minute"));
    }
    match &d.serving {
        Some(Ok(s)) => serving(ui, fx, s),
        Some(Err(message)) => {
            ui.colored_label(tk.warn, message);
        }
        None => {}
    }
    notes(ui, fx, est, speed);
}

/// The selected cell is evaluated outside the report, in English: its notes are rendered
/// here, in the UI language.
fn notes(ui: &mut egui::Ui, fx: &FrameCtx<'_>, est: &MemoryEstimate, speed: &SpeedEstimate) {
    for n in est.notes.iter().chain(&speed.notes) {
        ui.add(egui::Label::new(RichText::new(n.render(fx.lang)).small()).wrap());
    }
}

/// Serving figures of an inference cell: KV budget, concurrency, TTFT, loads and energy.
fn serving(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, s: &ServingEstimate) {
    let t = fx.texts;
    ui.add_space(4.0);
    ui.label(RichText::new(t.fit_serving).strong());
    let max_context = s.max_context_tokens.map_or_else(|| "—".to_owned(), |c| format_thousands(f64::from(c), 0));
    let text = fill(
        t.fit_serving_kv,
        &[&bytes(s.kv_budget_bytes), &format_thousands(s.kv_capacity_tokens as f64, 0), &max_context],
    );
    explain::explained(ui, fx, &text, &["fit.serving.kv_budget_bytes".to_owned(), "fit.budget_bytes".to_owned()]);
    let text = fill(
        t.fit_serving_concurrency,
        &[&s.max_concurrency_per_replica, &format_thousands(f64::from(s.context_tokens), 0), &s.replicas],
    );
    explain::explained(ui, fx, &text, &["fit.serving.max_concurrency_per_replica".to_owned()]);
    let text = fill(t.fit_serving_ttft, &[&s.prompt_tokens, &format!("{:.0}", s.ttft_s * 1000.0)]);
    explain::explained(ui, fx, &text, &["fit.serving.ttft_s".to_owned()]);
    let load_keys = [
        "fit.serving.at_capacity.aggregate_tokens_per_s".to_owned(),
        "fit.serving.single.energy.kwh_per_million_tokens".to_owned(),
    ];
    for load in [Some(s.single), s.at_capacity, s.requested].into_iter().flatten() {
        if load.fits {
            let text = fill(
                t.fit_serving_load,
                &[
                    &load.users,
                    &format_thousands(load.per_user_tokens_per_s, 1),
                    &format_thousands(load.aggregate_tokens_per_s, 0),
                    &format!("{:.2}", load.energy.joules_per_token),
                ],
            );
            explain::explained(ui, fx, &text, &load_keys);
        } else {
            ui.colored_label(fx.tokens.warn, fill(t.fit_serving_over, &[&load.users]));
        }
    }
    if let (Some(target), Some(users)) = (s.tokens_per_user_target, s.users_at_target) {
        let text = fill(t.fit_serving_target, &[&format_thousands(target, 1), &users]);
        explain::explained(ui, fx, &text, &["fit.serving.users_at_target".to_owned()]);
    }
}

/// Precision, batch, context, ZeRO stage and training tokens of the selected cell.
fn overrides(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, detail: &CellDetail) {
    let t = fx.texts;
    let work = detail.workload;
    let mut next: FitOverrides = detail.overrides;
    egui::Grid::new("fit-overrides").num_columns(2).spacing([12.0, 4.0]).show(ui, |ui| {
        let label = ui.label(t.fit_precision);
        egui::ComboBox::from_id_salt("fit-precision")
            .selected_text(work.weights.name())
            .show_ui(ui, |ui| {
                for wt in WeightType::ALL {
                    if ui.selectable_label(wt == work.weights, wt.name()).clicked() {
                        next.weights = Some(wt);
                    }
                }
            })
            .response
            .labelled_by(label.id);
        ui.end_row();
        let label = ui.label(t.fit_batch);
        let mut batch = work.batch;
        if ui.add(egui::DragValue::new(&mut batch).range(1..=4096)).labelled_by(label.id).changed() {
            next.batch = Some(batch);
        }
        ui.end_row();
        let label = ui.label(t.fit_context);
        let mut context = work.context;
        if ui.add(egui::DragValue::new(&mut context).range(128..=1_048_576).speed(64.0)).labelled_by(label.id).changed()
        {
            next.context = Some(context);
        }
        ui.end_row();
        let label = ui.label(t.fit_zero);
        egui::ComboBox::from_id_salt("fit-zero")
            .selected_text(work.zero.to_string())
            .show_ui(ui, |ui| {
                for z in 0..=3u8 {
                    if ui.selectable_label(z == work.zero, z.to_string()).clicked() {
                        next.zero = Some(z);
                    }
                }
            })
            .response
            .labelled_by(label.id);
        ui.end_row();
        let label = ui.label(t.figures.fit_gpu_count);
        // The count asked for: an inference layout may use fewer (those that divide the
        // heads, named in the title), and the field keeps the request so that dragging passes
        // through the counts that do not divide.
        let asked = detail.overrides.gpus.map_or(detail.gpus, |n| n.clamp(1, detail.max_gpus.max(1)));
        let mut gpus = asked;
        if ui
            .add(egui::DragValue::new(&mut gpus).range(1..=detail.max_gpus.max(1)))
            .labelled_by(label.id)
            .on_hover_text(fill(t.figures.fit_gpus_hint, &[&detail.max_gpus]))
            .changed()
            && gpus != asked
        {
            next.gpus = Some(gpus);
        }
        ui.end_row();
        if !work.mode.is_training() {
            let label = ui.label(t.fit_engine);
            // The default the core resolved for this model (vLLM or llama.cpp for decoders,
            // PyTorch for the others).
            let default = match &detail.result {
                Ok((est, _, _)) if detail.overrides.engine.is_none() => est.engine,
                _ => None,
            }
            .unwrap_or_else(|| Engine::default_for(work.weights));
            let name = |e: Option<Engine>| match e {
                Some(e) => e.to_string(),
                None => fill(t.fit_engine_default, &[&default]),
            };
            egui::ComboBox::from_id_salt("fit-engine")
                .selected_text(name(detail.overrides.engine))
                .show_ui(ui, |ui| {
                    for e in std::iter::once(None).chain(Engine::ALL.into_iter().map(Some)) {
                        if ui.selectable_label(e == detail.overrides.engine, name(e)).clicked() {
                            next.engine = e;
                        }
                    }
                })
                .response
                .labelled_by(label.id);
            ui.end_row();
        }
        if detail.serving.is_some() {
            let label = ui.label(t.fit_users);
            let mut users = detail.overrides.users.unwrap_or(1);
            if ui.add(egui::DragValue::new(&mut users).range(1..=100_000)).labelled_by(label.id).changed() {
                next.users = Some(users);
            }
            ui.end_row();
            let label = ui.label(t.fit_tokens_per_user);
            let mut target = detail.overrides.tokens_per_user.unwrap_or(DEFAULT_TOKENS_PER_USER);
            if ui
                .add(egui::DragValue::new(&mut target).range(0.1..=10_000.0).speed(0.5))
                .labelled_by(label.id)
                .changed()
            {
                next.tokens_per_user = Some(target);
            }
            ui.end_row();
            let label = ui.label(t.fit_prompt);
            let mut prompt = detail.overrides.prompt.unwrap_or(work.context / 2).max(1);
            if ui
                .add(egui::DragValue::new(&mut prompt).range(1..=1_048_576).speed(16.0))
                .labelled_by(label.id)
                .changed()
            {
                next.prompt = Some(prompt);
            }
            ui.end_row();
        }
        let label = ui.label(t.fit_train_tokens);
        let mut billions = next.train_tokens / 1e9;
        if ui
            .add(egui::DragValue::new(&mut billions).range(0.001..=100_000.0).speed(0.1).suffix(" B"))
            .labelled_by(label.id)
            .changed()
        {
            next.train_tokens = billions * 1e9;
        }
        ui.end_row();
    });
    if ui.add(egui::Button::new(t.fit_reset).sense(Sense::click())).clicked() {
        next = FitOverrides::default();
    }
    if next != detail.overrides {
        fx.push(Command::SetFitOverrides(next));
    }
}
