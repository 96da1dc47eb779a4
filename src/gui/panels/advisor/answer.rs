//! The Advisor's answer: what the search did, the scatter plot of the front, the ranked
//! table, the shown build's figures and reasons, and the "why not" answers.

use super::form::mode_name;
use crate::core::advisor::explain::{cost_key, key as explain_key};
use crate::core::advisor::{Advice, Candidate, Requirement};
use crate::core::analysis::basis::{self, Basis};
use crate::core::units::format_thousands;
use crate::gui::advisor::{Advised, PlotSeries, SpeedAxis};
use crate::gui::command::Command;
use crate::gui::compare::{MAX_BUILDS, MIN_BUILDS};
use crate::gui::context::FrameCtx;
use crate::gui::panels::explain;
use crate::gui::panels::plots::{self, legend, series_color, with_save};
use crate::gui::text::advisor::AdvisorTexts;
use crate::gui::text::{Texts, fill, money_whole};
use crate::gui::theme;
use egui::{ComboBox, RichText};
use egui_plot::{Line, MarkerShape, Plot, PlotPoint, PlotPoints, Points, Text};

/// How near the pointer must be to a plotted build to hover or click it, in points.
const PICK_RADIUS: f32 = 12.0;
/// The id of the front's plot (its memory holds the plot's transform, which tests read to
/// find a build's point on screen).
pub const FRONT_PLOT_ID: &str = "advisor-front-plot";

/// The answer to the requirement.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
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
    let empty = PlotSeries::default();
    let series = advised.series.get(w).unwrap_or(&empty);
    let pick = |keep: &dyn Fn(&Candidate) -> bool| -> Vec<PlotPoint> {
        series
            .index
            .iter()
            .zip(&series.points)
            .filter(|(i, _)| advice.front.get(**i).is_some_and(keep))
            .map(|(_, p)| *p)
            .collect()
    };
    let selected = adv.selected.as_deref();
    let chosen = pick(&|c| Some(c.slug.as_str()) == selected);
    let marked = pick(&|c| adv.marked.contains(&c.slug));
    let tk = fx.tokens;
    let (lang, texts) = (fx.lang, fx.texts);
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
                plot.line(
                    Line::new(a.front, PlotPoints::Borrowed(&series.line))
                        .color(series_color(tk, 0).gamma_multiply(0.5)),
                );
                plot.points(
                    Points::new(a.col_build, PlotPoints::Borrowed(&series.points))
                        .radius(4.0)
                        .shape(MarkerShape::Circle)
                        .color(series_color(tk, 0)),
                );
                // Each point's rank, beside it.
                for (i, at) in series.index.iter().zip(&series.points) {
                    if let Some(c) = advice.front.get(*i) {
                        let at = *at;
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
                .index
                .iter()
                .zip(&series.points)
                .map(|(i, p)| (*i, response.transform.position_from_point(p).distance(pos)))
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
            // The point's figures, then where its two coordinates come from: the capex and
            // the plotted workload's figure.
            let [capex_keys, ..] = headline_keys(c);
            let capex = report_bases(c, &capex_keys);
            let bases: Vec<&Basis> = capex.iter().chain(axis_basis(c, req, w)).collect();
            let _ = response.response.clone().on_hover_ui_at_pointer(|ui| {
                ui.set_max_width(theme::EXPLAIN_WIDTH);
                ui.label(RichText::new(format!("#{} {}", c.rank, c.build.name)).strong());
                for (label, value, _) in figures(texts, req, c) {
                    ui.label(format!("{label}: {value}"));
                }
                explain::grouped_ui(ui, lang, &bases);
            });
        }
        response
    });
    if let Some(slug) = picked {
        fx.push(Command::AdvisorSelect(Some(slug)));
    }
}

/// The bases of a candidate's figure (its report's figures, by key).
fn report_bases(c: &Candidate, keys: &[String]) -> Vec<Basis> {
    keys.iter().filter_map(|k| basis::find(c.report.basis(), k)).cloned().collect()
}

/// The keys of a candidate's headline figures: capex, owned TCO, wall draw, circuits.
fn headline_keys(c: &Candidate) -> [Vec<String>; 4] {
    let circuits = c.report.power.nodes.iter().map(|n| format!("power.nodes[{}].circuits_needed", n.node)).collect();
    [vec!["tco.capex".to_owned()], vec!["tco.totals.owned".to_owned()], vec!["power.wall_watts".to_owned()], circuits]
}

/// The bases of a workload's figures on a candidate: its speed figures (served and per-user
/// tokens/s, or training tokens/s and hours), then its cost per 1M tokens, as the advisor
/// wrote them with the candidate ([`crate::core::advisor::explain`]).
fn workload_bases(c: &Candidate, k: usize) -> Vec<Basis> {
    let (prefix, cost) = (explain_key(k, ""), cost_key(k));
    c.bases.iter().filter(|b| b.figure.starts_with(&prefix) || b.figure == cost).cloned().collect()
}

/// The basis of the figure workload `k`'s speed axis plots, if the candidate has it.
fn axis_basis<'c>(c: &'c Candidate, req: &Requirement, k: usize) -> Option<&'c Basis> {
    basis::find(&c.bases, &explain_key(k, SpeedAxis::of(req, k).field()))
}

/// Where a candidate's figure comes from.
enum Of {
    /// Figures of its report, by key.
    Report(Vec<String>),
    /// A workload's cost per 1M tokens (by index).
    Workload(usize),
}

impl Of {
    fn bases(&self, c: &Candidate) -> Vec<Basis> {
        match self {
            Self::Report(keys) => report_bases(c, keys),
            Self::Workload(k) => workload_bases(c, *k),
        }
    }
}

/// The headline figures of a candidate, as (label, value, where it comes from) rows.
fn figures(t: &Texts, req: &Requirement, c: &Candidate) -> Vec<(String, String, Of)> {
    let a = t.advisor;
    let cur = &req.currency.0;
    let money = |v: f64| money_whole(t, v, cur);
    let [capex, owned, wall, circuits] = headline_keys(c);
    let mut rows = vec![
        (a.col_capex.to_owned(), money(c.capex), Of::Report(capex)),
        (fill(a.tco_over, &[&req.horizon_years]), money(c.tco_owned), Of::Report(owned)),
        (a.wall_max.to_owned(), format!("{} W", format_thousands(c.wall_watts, 0)), Of::Report(wall)),
        (a.col_circuits.to_owned(), c.circuits_needed.to_string(), Of::Report(circuits)),
    ];
    for (k, fit) in c.workloads.iter().enumerate() {
        rows.push((fill(a.col_workload, &[&(fit.workload + 1)]), speed_text(a, cur, c, k), Of::Workload(k)));
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
            // Each figure explains itself from the candidate's own report (read only on hover).
            let cells = [
                money_whole(fx.texts, c.capex, cur),
                money_whole(fx.texts, c.tco_owned, cur),
                format!("{} W", format_thousands(c.wall_watts, 0)),
                c.circuits_needed.to_string(),
            ];
            for (text, keys) in cells.iter().zip(headline_keys(c)) {
                let response = ui.label(text);
                if response.hovered() {
                    let bases = report_bases(c, &keys);
                    explain::hover_bases(fx.lang, &response, text, &bases.iter().collect::<Vec<_>>());
                }
            }
            for k in 0..req.workloads.len() {
                let axis = SpeedAxis::of(req, k);
                let value = axis.value(c, k).map_or_else(String::new, |v| match axis {
                    SpeedAxis::Hours => fill(a.hours, &[&format_thousands(v, 1)]),
                    _ => format!("{} tok/s", format_thousands(v, 0)),
                });
                let response = ui.label(value);
                if response.hovered() {
                    let bases = workload_bases(c, k);
                    let text = speed_text(a, cur, c, k);
                    if bases.is_empty() {
                        response.on_hover_text(text);
                    } else {
                        explain::hover_bases(fx.lang, &response, &text, &bases.iter().collect::<Vec<_>>());
                    }
                }
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
    // Each figure explains itself from the candidate's own report, read only on hover (a
    // report's bases are written when first asked for).
    ui.push_id("advisor-figures", |ui| {
        ui.spacing_mut().item_spacing.y = 3.0;
        for (label, value, of) in figures(fx.texts, req, c) {
            ui.horizontal(|ui| {
                plots::figure_label(ui, &label);
                let response = ui.add(egui::Label::new(&value).wrap());
                if response.hovered() {
                    let bases = of.bases(c);
                    explain::hover_bases(fx.lang, &response, &value, &bases.iter().collect::<Vec<_>>());
                }
            });
        }
    });
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
