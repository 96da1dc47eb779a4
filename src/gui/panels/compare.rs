//! The compare view: 2–4 builds side by side. A toolbar adds the current build or build files,
//! picks the model of the speed rows and exports; below, one column per build with the rows the
//! core's comparison returns, grouped (values, delta against the first build, the best value
//! highlighted where the row has a direction), the overlaid cumulative cost curves and grouped
//! wall-power bars, the fit-matrix cells that differ and the parts that differ. Renders the
//! cached [`crate::gui::compare::Compared`]; nothing here compares.

use super::plots::{bar_index, legend, series_color, with_save};
use super::power::INTEGER_STEPS;
use crate::core::analysis::fit::WorkloadKind;
use crate::core::analysis::memory::Verdict;
use crate::core::compare::{Comparison, Outcome, Row};
use crate::core::export::CompareFormat;
use crate::core::export::markdown::delta_text;
use crate::gui::command::Command;
use crate::gui::compare::{CompareCharts, CompareNorm, CompareScale, CompareSource, MAX_BUILDS};
use crate::gui::context::FrameCtx;
use crate::gui::text::fill;
use crate::gui::theme;
use crate::gui::vocab::MainView;
use egui::{Frame, Label, Margin, RichText};
use egui_plot::{Bar, BarChart, Line, LineStyle, Plot, PlotPoints};

/// Space left and right of the outer bar groups, in x units.
const BAR_GROUPS_MARGIN: f64 = 0.6;

/// The central panel in compare mode.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    super::canvas::notice(ui, fx);
    toolbar(ui, fx);
    ui.separator();
    let t = fx.texts;
    let result = fx.compared.and_then(|c| c.result.as_ref());
    egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| match result {
        None => {
            ui.weak(t.compare_hint);
            ui.add_space(6.0);
            headers(ui, fx);
        }
        Some(Err(message)) => {
            headers(ui, fx);
            ui.add_space(6.0);
            ui.colored_label(fx.tokens.error, t.compare_failed);
            ui.add(Label::new(RichText::new(message).monospace()).wrap());
        }
        Some(Ok(c)) => comparison(ui, fx, c),
    });
}

fn toolbar(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let t = fx.texts;
    let set = fx.compare;
    ui.horizontal_wrapped(|ui| {
        if ui.button(t.view_back_to_build).clicked() {
            fx.push(Command::ShowView(MainView::Build));
        }
        ui.separator();
        ui.heading(t.compare_title);
        ui.weak(fill(t.compare_count, &[&set.entries.len(), &MAX_BUILDS]));
        ui.separator();
        let full = set.is_full();
        if ui.add_enabled(!full && !set.has_current(), egui::Button::new(t.compare_add_current)).clicked() {
            fx.push(Command::CompareAddCurrent);
        }
        if ui.add_enabled(!full, egui::Button::new(t.compare_add_file)).clicked() {
            fx.push(Command::PickCompareFile);
        }
        ui.add_enabled_ui(!full, |ui| add_build_menu(ui, fx));
        ui.separator();
        model_choice(ui, fx);
        let ready = fx.compared.and_then(|c| c.comparison()).is_some();
        ui.add_enabled_ui(ready, |ui| {
            ui.menu_button(t.compare_export, |ui| {
                for (format, label) in CompareFormat::ALL.into_iter().zip(t.compare_export_formats) {
                    if ui.button(label).clicked() {
                        fx.push(Command::PickCompareExport(format));
                        ui.close();
                    }
                }
            });
        });
    });
}

/// "Add build ▸ Recent files / Templates / Autosaves / File…": builds to compare without a
/// file dialog.
fn add_build_menu(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let t = fx.texts;
    let tt = t.tools;
    ui.menu_button(tt.compare_add_build, |ui| {
        let recent = fx.prefs.recent_files.clone();
        ui.menu_button(tt.compare_recent, |ui| {
            if recent.is_empty() {
                ui.weak(tt.compare_none_found);
            }
            for path in recent {
                if ui.button(path.display().to_string()).clicked() {
                    fx.push(Command::CompareAddFile(path));
                    ui.close();
                }
            }
        });
        let templates = fx.template_names;
        ui.menu_button(tt.compare_templates, |ui| {
            for (slug, name) in templates {
                if ui.button(name).clicked() {
                    fx.push(Command::CompareAddTemplate(slug));
                    ui.close();
                }
            }
        });
        let autosaves = fx.autosaves;
        ui.menu_button(tt.compare_autosaves, |ui| {
            if autosaves.is_empty() {
                ui.weak(tt.compare_none_found);
            }
            for a in autosaves {
                let when = crate::gui::recovery::utc_clock(a.modified);
                if ui.button(format!("{} ({when})", a.build.name)).on_hover_text(a.file.display().to_string()).clicked()
                {
                    fx.push(Command::CompareAddFile(a.file.clone()));
                    ui.close();
                }
            }
        });
        if ui.button(tt.compare_file).clicked() {
            fx.push(Command::PickCompareFile);
            ui.close();
        }
    });
}

fn model_choice(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let t = fx.texts;
    let models = &fx.catalog.models;
    // The model the rows are for: the one chosen, or the core's default.
    let current = fx.compared.and_then(|c| c.comparison()).map(|c| (c.model.clone(), c.model_name.clone()));
    let (current_id, current_name) = current.unwrap_or_default();
    let label = ui.label(t.compare_model);
    egui::ComboBox::from_id_salt("compare-model")
        .selected_text(current_name.unwrap_or_default())
        .width(220.0)
        .show_ui(ui, |ui| {
            for m in models.iter() {
                let selected = current_id.as_ref() == Some(&m.id);
                if ui.selectable_label(selected, &m.name).clicked() && !selected {
                    fx.push(Command::CompareSetModel(Some(m.id.as_str().to_owned())));
                }
            }
        })
        .response
        .labelled_by(label.id);
}

/// The column headers alone, while there is no comparison to put them above.
fn headers(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let set = fx.compare;
    ui.horizontal_top(|ui| {
        for i in 0..set.entries.len() {
            ui.vertical(|ui| header_cell(ui, fx, None, i));
        }
    });
}

/// One build's column header: its label and name, where it comes from, its size, and a remove
/// button.
fn header_cell(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, c: Option<&Comparison>, i: usize) {
    let t = fx.texts;
    let set = fx.compare;
    let Some(entry) = set.entries.get(i) else { return };
    let compared = c.and_then(|c| c.builds.get(i));
    let name = match (&entry.build, compared) {
        (_, Some(b)) => b.name.clone(),
        (Some(b), None) => b.name.clone(),
        (None, None) => fx.doc.build().name.clone(),
    };
    let label = compared.map_or_else(|| column_label(i), |b| b.label.to_owned());
    ui.set_max_width(theme::COMPARE_COLUMN_WIDTH);
    let color = series_color(fx.tokens, i);
    ui.horizontal(|ui| {
        ui.label(RichText::new(&label).strong().color(color));
        ui.add(Label::new(RichText::new(&name).strong()).truncate());
    });
    match &entry.source {
        CompareSource::Current => {
            ui.add(Label::new(RichText::new(t.compare_current).small()).truncate());
        }
        CompareSource::File(path) => {
            let file =
                path.file_name().map_or_else(|| path.display().to_string(), |f| f.to_string_lossy().into_owned());
            ui.add(Label::new(RichText::new(file).small()).truncate().show_tooltip_when_elided(false))
                .on_hover_text(path.display().to_string());
        }
        CompareSource::Advised(_) => {
            ui.add(Label::new(RichText::new(t.advisor.from_advisor).small()).truncate());
        }
        CompareSource::Template(_) => {
            ui.add(Label::new(RichText::new(t.tools.compare_templates).small()).truncate());
        }
    }
    if let Some(b) = compared {
        let counts = ui.add(
            Label::new(
                RichText::new(fill(t.summary_nodes_gpus, &[&t.n_nodes.count(b.nodes), &t.n_gpus.count(b.gpus)]))
                    .small()
                    .weak(),
            )
            .truncate(),
        );
        super::compare_explain::counts_hover(fx, i, &counts);
        let cloud = b.primary_label.as_deref().unwrap_or(t.compare_no_cloud);
        let cloud = fill(t.compare_cloud_option, &[&cloud]);
        ui.add(Label::new(RichText::new(&cloud).small().weak()).truncate());
    }
    if ui.small_button(t.compare_remove).clicked() {
        fx.push(Command::CompareRemove(i));
    }
}

/// A column's label before the comparison names it (A, B, C, D).
fn column_label(i: usize) -> String {
    u8::try_from(i)
        .ok()
        .and_then(|i| char::from_u32(u32::from(b'A') + u32::from(i)))
        .map_or_else(String::new, String::from)
}

/// Width of the metric column: the theme's, or less on a narrow window.
fn metric_width(ui: &egui::Ui) -> f32 {
    theme::COMPARE_METRIC_WIDTH
        .min(ui.available_width() * theme::COMPARE_METRIC_SHARE)
        .max(theme::COMPARE_METRIC_MIN_WIDTH)
}

fn comparison(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, c: &Comparison) {
    let t = fx.texts;
    rows(ui, fx, c);
    if let Some(charts) = fx.compared.map(|k| &k.charts) {
        ui.add_space(8.0);
        plots(ui, fx, c, charts);
    }
    ui.add_space(8.0);
    fit_differences(ui, fx, c);
    ui.add_space(8.0);
    parts_difference(ui, fx, c);
    if !c.notes.is_empty() {
        ui.add_space(8.0);
        ui.label(RichText::new(t.compare_notes).strong());
        for n in &c.notes {
            ui.add(Label::new(RichText::new(n).small()).wrap());
        }
    }
}

/// The column headers, then the grouped rows: metric and unit, then per build its value (the
/// best highlighted) and its delta against the first build.
fn rows(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, c: &Comparison) {
    let (t, tk) = (fx.texts, fx.tokens);
    let width = metric_width(ui);
    egui::Grid::new("compare-rows")
        .num_columns(c.builds.len() + 1)
        .striped(true)
        .spacing([8.0, 3.0])
        .min_col_width(theme::COMPARE_COLUMN_WIDTH)
        .show(ui, |ui| {
            ui.vertical(|ui| {
                ui.set_width(width);
                ui.weak(fill(t.compare_amounts, &[&c.currency, &c.horizon_years]));
            });
            for i in 0..c.builds.len() {
                ui.vertical(|ui| header_cell(ui, fx, Some(c), i));
            }
            ui.end_row();
            for g in &c.groups {
                if g.rows.is_empty() {
                    continue;
                }
                ui.label(RichText::new(g.label).strong().color(tk.accent));
                ui.end_row();
                for row in &g.rows {
                    metric(ui, width, row);
                    for i in 0..c.builds.len() {
                        cell(ui, fx, c, row, i);
                    }
                    ui.end_row();
                }
            }
        });
}

fn metric(ui: &mut egui::Ui, width: f32, row: &Row) {
    let height = ui.spacing().interact_size.y;
    ui.allocate_ui_with_layout(egui::vec2(width, height), egui::Layout::left_to_right(egui::Align::Center), |ui| {
        ui.set_min_width(width);
        ui.set_max_width(width);
        let unit = RichText::new(&row.unit).small().weak();
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            ui.label(unit);
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                ui.add(Label::new(&row.label).truncate());
            });
        });
    });
}

fn cell(ui: &mut egui::Ui, fx: &FrameCtx<'_>, c: &Comparison, row: &Row, i: usize) {
    let (t, tk) = (fx.texts, fx.tokens);
    let text = row.text.get(i).cloned().unwrap_or_default();
    let best = row.best.contains(&i);
    ui.horizontal(|ui| {
        let frame = Frame::new().inner_margin(Margin::symmetric(4, 1)).corner_radius(3);
        // The value explains itself from the build's own report.
        let value = if best {
            frame
                .fill(tk.best_fill)
                .show(ui, |ui| ui.label(RichText::new(fill(t.compare_best, &[&text])).strong()))
                .inner
                .on_hover_text(t.compare_best_hint)
        } else {
            frame.show(ui, |ui| ui.label(text)).inner
        };
        super::compare_explain::cell_hover(fx, c, row, i, &value);
        if i == 0 {
            return;
        }
        let delta = delta_text(row.deltas.get(i).copied().flatten());
        let outcome = row.vs_first.get(i).copied().flatten();
        let word = outcome.and_then(|o| {
            let k = match o {
                Outcome::Better => 0,
                Outcome::Worse => 1,
                Outcome::Same => 2,
            };
            t.compare_outcomes.get(k).copied()
        });
        let shown = match (delta.is_empty(), word) {
            (true, None) => return,
            (true, Some(w)) => w.to_owned(),
            (false, None) => delta,
            (false, Some(w)) => fill(t.compare_delta, &[&delta, &w]),
        };
        let color = match outcome {
            Some(Outcome::Better) => tk.ok,
            Some(Outcome::Worse) => tk.error,
            Some(Outcome::Same) | None => tk.muted,
        };
        ui.label(RichText::new(shown).small().color(color));
    });
}

fn plots(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, c: &Comparison, charts: &CompareCharts) {
    if ui.available_width() >= theme::COMPARE_SIDE_BY_SIDE_WIDTH {
        ui.columns(2, |cols| {
            if let [left, right] = cols {
                tco_plot(left, fx, c, charts);
                power_plot(right, fx, c, charts);
            }
        });
    } else {
        tco_plot(ui, fx, c, charts);
        ui.add_space(6.0);
        power_plot(ui, fx, c, charts);
    }
}

/// The cost curves' scale controls: "Log scale" and "Cost as: Total / Per GPU / Relative".
fn scale_controls(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let tt = fx.texts.tools;
    let scale = fx.prefs.compare_scale;
    ui.horizontal_wrapped(|ui| {
        let mut log = scale.log;
        if ui.checkbox(&mut log, tt.compare_log_scale).changed() {
            fx.push(Command::SetCompareScale(CompareScale { log, ..scale }));
        }
        let label = ui.label(tt.compare_normalize);
        let name = |n: CompareNorm| {
            let i = CompareNorm::ALL.iter().position(|x| *x == n).unwrap_or_default();
            tt.compare_norms.get(i).copied().unwrap_or_default()
        };
        egui::ComboBox::from_id_salt("compare-norm")
            .selected_text(name(scale.norm))
            .show_ui(ui, |ui| {
                for n in CompareNorm::ALL {
                    if ui.selectable_label(n == scale.norm, name(n)).clicked() && n != scale.norm {
                        fx.push(Command::SetCompareScale(CompareScale { norm: n, ..scale }));
                    }
                }
            })
            .response
            .labelled_by(label.id);
    });
}

/// A tick of the cost axis: the value (10^mark on a log axis) as money in k / M, or as a
/// multiple of the first build's cost.
#[must_use]
pub fn cost_tick(mark: f64, scale: CompareScale) -> String {
    let v = if scale.log { 10f64.powf(mark) } else { mark };
    if scale.norm == CompareNorm::RelativeToFirst {
        return format!("×{}", crate::core::units::format_thousands(v, if v.abs() < 10.0 { 2 } else { 0 }));
    }
    let (div, suffix, decimals) = match v.abs() {
        a if a >= 1e6 => (1e6, " M", 1),
        a if a >= 1e4 => (1e3, " k", 0),
        a if a >= 10.0 => (1.0, "", 0),
        _ => (1.0, "", 1),
    };
    let text = crate::core::units::format_thousands(v / div, decimals);
    let text = text.strip_suffix(".0").unwrap_or(&text).to_owned();
    format!("{text}{suffix}")
}

/// Grid marks of a log10 axis: each power of ten, and 2× and 5× it, so that the ticks read as
/// round amounts (10 k, 20 k, 50 k, 100 k …).
fn log_marks(input: &egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    let (lo, hi) = input.bounds;
    if !(lo.is_finite() && hi.is_finite()) || hi - lo > 30.0 {
        return Vec::new();
    }
    let mut marks = Vec::new();
    let mut decade = lo.floor();
    while decade <= hi.ceil() {
        for (offset, step) in [(0.0, 1.0), (2f64.log10(), 0.3), (5f64.log10(), 0.3)] {
            let value = decade + offset;
            if (lo..=hi).contains(&value) {
                marks.push(egui_plot::GridMark { value, step_size: step });
            }
        }
        decade += 1.0;
    }
    marks
}

fn tco_plot(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, c: &Comparison, _charts: &CompareCharts) {
    let (t, tk) = (fx.texts, fx.tokens);
    ui.label(RichText::new(t.compare_tco_curves).strong());
    scale_controls(ui, fx);
    let scale = fx.prefs.compare_scale;
    let curves: &[crate::gui::compare::CurveSeries] = fx.compared.map_or(&[], |c| c.curves.as_slice());
    let currency = c.currency.to_string();
    let y_label = match scale.norm {
        CompareNorm::Total => currency,
        CompareNorm::PerGpu => format!("{} ({currency})", t.tools.compare_norm_units[0]),
        CompareNorm::RelativeToFirst => t.tools.compare_norm_units[1].to_owned(),
    };
    let unit = y_label.clone();
    let response = with_save(ui, fx, "compare-tco", |ui| {
        let mut plot = Plot::new("compare-tco")
            .height(theme::TALL_PLOT_HEIGHT)
            .legend(legend())
            .allow_scroll(false)
            .x_axis_label(t.axis_months)
            .y_axis_label(y_label)
            .y_axis_formatter(move |mark, _| cost_tick(mark.value, scale));
        plot = if scale.log { plot.y_grid_spacer(|input| log_marks(&input)) } else { plot.include_y(0.0) };
        plot.show(ui, |plot| {
            for (i, s) in curves.iter().enumerate() {
                let color = series_color(tk, i);
                plot.line(
                    Line::new(fill(t.compare_owned, &[&s.label]), PlotPoints::Borrowed(&s.owned))
                        .color(color)
                        .width(2.0),
                );
                if let Some(curve) = &s.primary {
                    plot.line(
                        Line::new(fill(t.compare_cloud, &[&s.label]), PlotPoints::Borrowed(curve))
                            .color(color)
                            .style(LineStyle::dashed_loose()),
                    );
                }
            }
        })
    });
    super::compare_explain::curves_hover(fx, c, curves, &response, scale.log, &unit);
}

fn power_plot(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, c: &Comparison, charts: &CompareCharts) {
    let (t, tk) = (fx.texts, fx.tokens);
    ui.label(RichText::new(t.compare_power_bars).strong());
    let levels = t.compare_power_levels;
    let last = levels.len() as f64 - 1.0;
    let response = with_save(ui, fx, "compare-power", |ui| {
        Plot::new("compare-power")
            .height(theme::TALL_PLOT_HEIGHT)
            // The idle bars are the lowest: the legend goes above them.
            .legend(legend().position(egui_plot::Corner::LeftTop))
            .allow_scroll(false)
            .y_axis_label(t.axis_watts)
            .include_y(0.0)
            .include_x(-BAR_GROUPS_MARGIN)
            .include_x(last + BAR_GROUPS_MARGIN)
            .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| INTEGER_STEPS))
            .x_axis_formatter(move |mark, _| {
                bar_index(mark.value, levels.len())
                    .and_then(|i| levels.get(i))
                    .map_or_else(String::new, |l| (*l).to_owned())
            })
            .show(ui, |plot| {
                for (i, (label, bars)) in charts.power_bars.iter().enumerate() {
                    let name = c.builds.get(i).map_or_else(|| (*label).to_owned(), |b| format!("{label} · {}", b.name));
                    let bars = bars.iter().map(|(x, y)| Bar::new(*x, *y).width(charts.bar_width * 0.9)).collect();
                    plot.bar_chart(BarChart::new(name, bars).color(series_color(tk, i)));
                }
            })
    });
    super::compare_explain::power_bars_hover(fx, c, charts, &response);
}

fn verdict_text(fx: &FrameCtx<'_>, v: Option<Verdict>) -> (&'static str, egui::Color32) {
    let (t, tk) = (fx.texts, fx.tokens);
    match v {
        Some(Verdict::Fits) => (t.verdict_fits, tk.ok),
        Some(Verdict::Tight) => (t.verdict_tight, tk.warn),
        Some(Verdict::DoesNotFit) => (t.verdict_no_fit, tk.error),
        None => (t.not_applicable, tk.muted),
    }
}

fn fit_differences(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, c: &Comparison) {
    let t = fx.texts;
    egui::CollapsingHeader::new(RichText::new(t.compare_fit_diff).strong())
        .id_salt("compare-fit")
        .default_open(true)
        .show(ui, |ui| {
            if c.fit_differences.is_empty() {
                ui.weak(t.compare_fit_same);
                return;
            }
            egui::Grid::new("compare-fit-grid").num_columns(c.builds.len() + 2).striped(true).show(ui, |ui| {
                ui.strong(t.fit_model);
                ui.strong(t.compare_workload);
                for b in &c.builds {
                    ui.strong(b.label);
                }
                ui.end_row();
                for d in &c.fit_differences {
                    ui.label(&d.model_name);
                    let k = WorkloadKind::ALL.iter().position(|k| *k == d.workload);
                    let short = k.and_then(|k| t.fit_workloads.get(k).copied()).unwrap_or(d.workload.id());
                    ui.label(short);
                    for v in &d.verdicts {
                        let (text, color) = verdict_text(fx, *v);
                        ui.colored_label(color, text);
                    }
                    ui.end_row();
                }
            });
        });
}

fn parts_difference(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, c: &Comparison) {
    let (t, tk) = (fx.texts, fx.tokens);
    egui::CollapsingHeader::new(RichText::new(t.compare_parts_diff).strong())
        .id_salt("compare-parts")
        .default_open(true)
        .show(ui, |ui| {
            if c.parts_difference.is_empty() {
                ui.weak(t.compare_parts_same);
                return;
            }
            egui::Grid::new("compare-parts-grid").num_columns(c.builds.len() + 2).striped(true).show(ui, |ui| {
                ui.strong(t.compare_category);
                ui.strong(t.compare_part);
                for b in &c.builds {
                    ui.strong(b.label);
                }
                ui.end_row();
                for p in &c.parts_difference {
                    ui.label(p.category);
                    ui.add(Label::new(&p.name).truncate().show_tooltip_when_elided(false)).on_hover_text(format!(
                        "{} ({})",
                        p.name,
                        p.part.as_str()
                    ));
                    for (i, q) in p.quantities.iter().enumerate() {
                        let delta = p.deltas.get(i).copied().unwrap_or_default();
                        if i == 0 || delta == 0 {
                            ui.label(q.to_string());
                        } else {
                            let d = delta_text(Some(delta as f64));
                            let color = if delta > 0 { tk.info } else { tk.muted };
                            ui.label(RichText::new(fill(t.compare_quantity, &[q, &d])).color(color));
                        }
                    }
                    ui.end_row();
                }
            });
        });
}
