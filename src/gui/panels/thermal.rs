//! The Thermal tab: heat load, the ambient temperature (editable: it changes the figures),
//! headroom of CPU coolers, chassis airflow and each GPU's estimated temperature against its
//! limit. Renders `report.thermal`.

use super::explain;
use super::plots::{bar_fill, bar_index, fraction, legend, with_save};
use super::power::INTEGER_STEPS;
use crate::core::units::format_thousands;
use crate::gui::command::{Command, Setting};
use crate::gui::context::FrameCtx;
use crate::gui::text::fill;
use crate::gui::theme;
use egui::RichText;
use egui_plot::{Bar, BarChart, MarkerShape, Plot, PlotPoints, Points};

/// Range of the ambient slider, °C: a cold machine room to a hot office; the build file
/// accepts −20–55 °C, typed values outside the slider still go through the text box.
const AMBIENT_SLIDER_C: std::ops::RangeInclusive<f64> = 10.0..=45.0;

/// The tab.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let (t, tk, derived) = (fx.texts, fx.tokens, fx.derived);
    let th = &derived.report.thermal;
    egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
        let mut ambient = fx.doc.build().site.ambient_c;
        let r = ui.add(egui::Slider::new(&mut ambient, AMBIENT_SLIDER_C).suffix(" °C").text(t.ambient));
        if r.changed() {
            fx.push(Command::SetSetting(Setting::AmbientC((ambient * 2.0).round() / 2.0)));
        }
        let k = |field: &str| vec![format!("thermal.{field}")];
        explain::figures(
            ui,
            fx,
            "thermal-totals",
            &[
                (t.heat_load, format!("{} W", format_thousands(th.heat_watts, 0)), k("heat_watts")),
                (t.heat_btu, format!("{} BTU/h", format_thousands(th.heat_btu_per_hour, 0)), k("heat_btu_per_hour")),
                (t.heat_tons, format!("{:.2}", th.cooling_tons), k("cooling_tons")),
            ],
        );
        ui.add_space(6.0);
        ui.label(RichText::new(t.gpu_temperatures).strong());
        let temps = &derived.charts.gpu_temps;
        if temps.is_empty() {
            ui.weak(t.no_gpus);
        } else {
            let labels: Vec<String> = temps.iter().map(|(l, _, _)| l.clone()).collect();
            let x_max = labels.len() as f64 - 1.0 + super::power::BAR_MARGIN;
            let plot = with_save(ui, fx, "gpu-temperatures", |ui| {
                Plot::new("gpu-temperatures")
                    .height(theme::PLOT_HEIGHT)
                    .legend(legend())
                    .allow_scroll(false)
                    .y_axis_label(t.axis_celsius)
                    .include_y(0.0)
                    .include_x(-super::power::BAR_MARGIN)
                    .include_x(x_max)
                    .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| INTEGER_STEPS))
                    .x_axis_formatter(move |mark, _| {
                        // GPUs are numbered in chart order; a bar's hover shows its full name.
                        bar_index(mark.value, labels.len()).map(|i| format!("#{}", i + 1)).unwrap_or_default()
                    })
                    .show(ui, |plot| {
                        let bars: Vec<Bar> = temps
                            .iter()
                            .enumerate()
                            .map(|(i, (label, est, max))| {
                                let color = if est > max {
                                    tk.error
                                } else if max - est < 10.0 {
                                    tk.warn
                                } else {
                                    tk.ok
                                };
                                Bar::new(i as f64, *est).width(0.6).name(label).fill(bar_fill(color))
                            })
                            .collect();
                        plot.bar_chart(BarChart::new(t.gpu_estimated, bars).color(tk.ok));
                        plot.points(
                            Points::new(t.gpu_limit, PlotPoints::Borrowed(&derived.charts.gpu_limits))
                                .shape(MarkerShape::Down)
                                .radius(5.0)
                                .color(tk.error),
                        );
                    })
            });
            // The GPU under the pointer: its estimate and its limit, in chart order.
            let keys: Vec<[String; 2]> = th
                .nodes
                .iter()
                .flat_map(|n| {
                    (0..n.gpus.len()).map(move |j| {
                        let k = |field: &str| format!("thermal.nodes[{}].gpus[{j}].{field}", n.node);
                        [k("estimated_temp_c"), k("max_temp_c")]
                    })
                })
                .collect();
            let words = super::plot_hover::words(fx.lang);
            super::plot_hover::explain(fx, &plot, |at| {
                let i = super::plot_hover::bar_at(at.x, temps.len())?;
                let (label, est, max) = temps.get(i)?;
                let value = fill(words.with_limit, &[&format!("{est:.0} °C"), &format!("{max:.0} °C")]);
                let text = format!("{label}: {value}");
                Some(super::plot_hover::Hovered { text, keys: keys.get(i)?.to_vec() })
            });
        }
        for n in &th.nodes {
            ui.add_space(6.0);
            egui::CollapsingHeader::new(fill(t.node_times, &[&n.name, &n.count]))
                .id_salt(("thermal-node", n.node))
                .default_open(true)
                .show(ui, |ui| {
                    let nk = |field: &str| format!("thermal.nodes[{}].{field}", n.node);
                    let response = ui.label(fill(
                        t.node_heat,
                        &[&format_thousands(n.heat_watts, 0), &format_thousands(n.heat_btu_per_hour, 0)],
                    ));
                    explain::attach(ui, fx, &response, &[nk("heat_watts")]);
                    let a = &n.airflow;
                    match a.available_cfm {
                        Some(available) if available > 0.0 => {
                            let need = a.needed_cfm / available;
                            let color = if need > 1.0 {
                                tk.error
                            } else if need > 0.8 {
                                tk.warn
                            } else {
                                tk.ok
                            };
                            let response = ui.add(egui::ProgressBar::new(fraction(need)).fill(bar_fill(color)).text(
                                fill(t.airflow, &[&format_thousands(a.needed_cfm, 0), &format_thousands(available, 0)]),
                            ));
                            explain::attach(
                                ui,
                                fx,
                                &response,
                                &[nk("airflow.needed_cfm"), nk("airflow.available_cfm")],
                            );
                        }
                        _ => {
                            let response = ui.weak(fill(t.airflow_unknown, &[&format_thousands(a.needed_cfm, 0)]));
                            explain::attach(ui, fx, &response, &[nk("airflow.needed_cfm")]);
                        }
                    }
                    for (j, c) in n.cpus.iter().enumerate() {
                        let name = fx.catalog.get(&c.cpu).map_or_else(|| c.cpu.to_string(), |p| p.name().to_owned());
                        match c.cooler_rated_watts {
                            Some(rated) if rated > 0.0 => {
                                let load = c.cpu_max_watts / rated;
                                let color = if load > 1.0 {
                                    tk.error
                                } else if load > 0.85 {
                                    tk.warn
                                } else {
                                    tk.ok
                                };
                                let response =
                                    ui.add(egui::ProgressBar::new(fraction(load)).fill(bar_fill(color)).text(fill(
                                        t.cooler_load,
                                        &[&name, &format_thousands(c.cpu_max_watts, 0), &format_thousands(rated, 0)],
                                    )));
                                explain::attach(ui, fx, &response, &[nk(&format!("cpus[{j}].headroom_watts"))]);
                            }
                            _ => {
                                ui.weak(fill(t.cooler_unknown, &[&name]));
                            }
                        }
                    }
                    if !n.gpus.is_empty() {
                        egui::Grid::new(("gpu-temps", n.node)).num_columns(4).striped(true).show(ui, |ui| {
                            for h in [t.gpu_column, t.gpu_estimated, t.gpu_limit, t.gpu_headroom] {
                                ui.strong(h);
                            }
                            ui.end_row();
                            for (j, g) in n.gpus.iter().enumerate() {
                                ui.label(format!("{} #{}", g.name, g.unit + 1));
                                explain::explained(
                                    ui,
                                    fx,
                                    &format!("{:.0} °C", g.estimated_temp_c),
                                    &[nk(&format!("gpus[{j}].estimated_temp_c"))],
                                );
                                explain::explained(
                                    ui,
                                    fx,
                                    &format!("{:.0} °C", g.max_temp_c),
                                    &[nk(&format!("gpus[{j}].max_temp_c"))],
                                );
                                let color = if g.headroom_c < 0.0 {
                                    tk.error
                                } else if g.headroom_c < 10.0 {
                                    tk.warn
                                } else {
                                    tk.ok
                                };
                                let response = ui.colored_label(color, format!("{:+.0} °C", g.headroom_c));
                                explain::attach(
                                    ui,
                                    fx,
                                    &response,
                                    &[nk(&format!("gpus[{j}].estimated_temp_c")), nk(&format!("gpus[{j}].max_temp_c"))],
                                );
                                ui.end_row();
                            }
                        });
                    }
                });
        }
        ui.add_space(6.0);
        egui::CollapsingHeader::new(t.assumptions).id_salt("thermal-assumptions").show(ui, |ui| {
            for a in &th.assumptions {
                ui.add(egui::Label::new(RichText::new(a.as_str()).small()).wrap());
            }
        });
    });
}
