//! The Power tab: draw by component per node (stacked bars), PSU load with efficiency,
//! transient margin, circuit check, totals. Renders `report.power`.

use super::explain;
use super::plots::{bar_fill, bar_index, fraction, legend, series_color, with_save};
use crate::core::catalog::PartKind;
use crate::core::units::format_thousands;
use crate::gui::context::FrameCtx;
use crate::gui::text::fill;
use crate::gui::theme;
use egui::RichText;
use egui_plot::{Bar, BarChart, Plot};

/// Grid steps of a bar chart's x axis: one mark per bar, then every 5 and 10 when crowded.
pub const INTEGER_STEPS: [f64; 3] = [1.0, 5.0, 10.0];

/// Space left and right of the outer bars, in bar positions.
pub const BAR_MARGIN: f64 = 1.0;

fn w(v: f64) -> String {
    format!("{} W", format_thousands(v, 0))
}

/// The tab.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let (t, tk, derived) = (fx.texts, fx.tokens, fx.derived);
    let p = &derived.report.power;
    egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
        let k = |fields: &[&str]| explain::keys("power", fields);
        // A whole-build row also explains each node group's figure, whose formula shows the
        // parts and the PSU efficiency.
        let with_nodes = |fields: &[&str], node_field: &str| {
            let mut keys = k(fields);
            keys.extend(p.nodes.iter().map(|n| format!("power.nodes[{}].{node_field}", n.node)));
            keys
        };
        explain::figures(
            ui,
            fx,
            "power-totals",
            &[
                (
                    t.power_wall,
                    fill(t.levels, &[&w(p.wall_idle_watts), &w(p.wall_typical_watts), &w(p.wall_watts)]),
                    with_nodes(&["wall_idle_watts", "wall_typical_watts", "wall_watts"], "wall_watts"),
                ),
                (
                    t.power_dc,
                    fill(t.levels, &[&w(p.idle_watts), &w(p.typical_watts), &w(p.max_watts)]),
                    with_nodes(&["idle_watts", "typical_watts", "max_watts"], "max_watts"),
                ),
                (t.power_transient, w(p.peak_transient_watts), k(&["peak_transient_watts"])),
                (
                    t.power_psu_load,
                    p.psu_load_fraction.map_or_else(|| t.not_applicable.to_owned(), |f| format!("{:.0} %", f * 100.0)),
                    k(&["psu_load_fraction"]),
                ),
                (t.power_recommended, w(p.recommended_psu_watts), k(&["recommended_psu_watts"])),
                (
                    t.power_rack,
                    fill(t.rack_kw, &[&format!("{:.2}", p.rack.total_kw), &t.n_circuits.count(p.rack.circuits_needed)]),
                    k(&["wall_watts"]),
                ),
            ],
        );
        ui.add_space(6.0);
        ui.label(RichText::new(t.power_by_component).strong());
        let charts = &derived.charts;
        if charts.power_by_kind.is_empty() {
            ui.weak(t.power_none);
        } else {
            let names: Vec<String> = p.nodes.iter().map(|n| n.name.clone()).collect();
            // Room around the bars, so that one node is a bar and not a wall.
            let x_max = names.len() as f64 - 1.0 + BAR_MARGIN;
            let kind_names = t.kind_names;
            let plot = with_save(ui, fx, "power-by-component", |ui| {
                Plot::new("power-by-component")
                    .height(theme::PLOT_HEIGHT)
                    .legend(legend())
                    .allow_scroll(false)
                    .y_axis_label(t.axis_watts)
                    .include_y(0.0)
                    .include_x(-BAR_MARGIN)
                    .include_x(x_max)
                    .x_grid_spacer(egui_plot::uniform_grid_spacer(|_| INTEGER_STEPS))
                    .x_axis_formatter(move |mark, _| {
                        bar_index(mark.value, names.len()).and_then(|i| names.get(i).cloned()).unwrap_or_default()
                    })
                    .show(ui, |plot| {
                        let mut stacked: Vec<BarChart> = Vec::new();
                        for (i, (kind, bars)) in charts.power_by_kind.iter().enumerate() {
                            let k = PartKind::ALL.iter().position(|x| x == kind).unwrap_or_default();
                            let name = kind_names.get(k).copied().unwrap_or_default();
                            let bars = bars.iter().map(|(x, y)| Bar::new(*x, *y).width(0.6)).collect();
                            let below: Vec<&BarChart> = stacked.iter().collect();
                            let chart = BarChart::new(name, bars).color(series_color(tk, i)).stack_on(&below);
                            stacked.push(chart);
                        }
                        for chart in stacked {
                            plot.bar_chart(chart);
                        }
                    })
            });
            // The part kind under the pointer in a node's stack: the node's max draw, part by part.
            let words = super::plot_hover::words(fx.lang);
            super::plot_hover::explain(fx, &plot, |at| {
                let i = super::plot_hover::bar_at(at.x, p.nodes.len())?;
                let node = p.nodes.get(i)?;
                let stack: Vec<(PartKind, f64)> = charts
                    .power_by_kind
                    .iter()
                    .filter_map(|(kind, bars)| {
                        bars.iter().find(|(x, _)| bar_index(*x, p.nodes.len()) == Some(i)).map(|(_, w)| (*kind, *w))
                    })
                    .collect();
                let heights: Vec<f64> = stack.iter().map(|(_, w)| *w).collect();
                let (kind, watts) = stack.get(super::plot_hover::stack_segment(&heights, at.y)?)?;
                let k = PartKind::ALL.iter().position(|x| x == kind).unwrap_or_default();
                let name = kind_names.get(k).copied().unwrap_or_default();
                let value = format!("{} W", format_thousands(*watts, 0));
                let text = fill(words.part_kind_in, &[&node.name, &name, &value]);
                Some(super::plot_hover::Hovered { text, keys: vec![format!("power.nodes[{}].max_watts", node.node)] })
            });
        }
        for np in &p.nodes {
            ui.add_space(6.0);
            egui::CollapsingHeader::new(fill(t.node_times, &[&np.name, &np.count]))
                .id_salt(("power-node", np.node))
                .default_open(true)
                .show(ui, |ui| {
                    let nk = |fields: &[&str]| explain::keys(&format!("power.nodes[{}]", np.node), fields);
                    if let (Some(psu), Some(load)) = (&np.psu, np.psu_load_fraction) {
                        let over = load > 1.0;
                        let text = fill(
                            t.psu_gauge,
                            &[&w(np.psu_fed.max_watts), &w(psu.capacity_watts), &format!("{:.0}", load * 100.0)],
                        );
                        let color = if over {
                            tk.error
                        } else if load > 0.8 {
                            tk.warn
                        } else {
                            tk.ok
                        };
                        let bar = egui::ProgressBar::new(fraction(load)).text(text).fill(bar_fill(color));
                        let response = ui.add(bar);
                        explain::attach(ui, fx, &response, &nk(&["psu_load_fraction", "max_watts"]));
                        let tier = psu.tier.map_or_else(|| t.not_applicable.to_owned(), |tier| tier.to_string());
                        let response = ui.weak(fill(
                            t.psu_efficiency,
                            &[
                                &tier,
                                &format!("{:.0}", np.efficiency_typical * 100.0),
                                &format!("{:.0}", np.efficiency_max * 100.0),
                            ],
                        ));
                        explain::attach(ui, fx, &response, &nk(&["efficiency_max", "wall_watts"]));
                    } else {
                        ui.weak(t.psu_none);
                    }
                    if let Some(rec) = &np.recommendation {
                        let color = if rec.transient_margin_watts < 0.0 { tk.error } else { tk.ok };
                        let response = ui.colored_label(
                            color,
                            fill(t.transient_margin, &[&w(rec.peak_transient_watts), &w(rec.transient_margin_watts)]),
                        );
                        explain::attach(ui, fx, &response, &nk(&["peak_transient_watts"]));
                        let response = ui.label(fill(t.psu_recommendation, &[&w(rec.recommended_watts)]));
                        explain::attach(ui, fx, &response, &nk(&["recommended_psu_watts"]));
                    }
                    let c = &np.circuit;
                    let color = if c.circuits_needed > 1 { tk.warn } else { ui.visuals().text_color() };
                    let response = ui.colored_label(
                        color,
                        fill(
                            t.circuit_check,
                            &[
                                &c.volts,
                                &c.amps,
                                &c.phases,
                                &w(c.continuous_limit_watts),
                                &w(c.wall_watts),
                                &t.n_circuits.count(c.circuits_needed),
                            ],
                        ),
                    );
                    explain::attach(ui, fx, &response, &nk(&["circuits_needed", "wall_watts"]));
                });
        }
        ui.add_space(6.0);
        egui::CollapsingHeader::new(t.assumptions).id_salt("power-assumptions").show(ui, |ui| {
            for a in &p.assumptions {
                ui.add(egui::Label::new(RichText::new(a.as_str()).small()).wrap());
            }
        });
    });
}
