//! The TCO tab: the site, usage and cost settings with the compared cloud offer and the
//! custom offers (editable in place, `controls`), owned cost against each
//! cloud option over the horizon with the break-even month marked, cost against utilization,
//! the yearly breakdown, and the notes that qualify the comparison. Renders `report.tco`.

mod controls;

use super::explain;
use super::plot_hover;
use super::plots::{LegendEntry, money_tick, round_marks, series_color, with_legend_and_save};
use crate::core::analysis::tco::{CloudOption, Term};
use crate::core::catalog::Catalog;
use crate::core::units::format_thousands;
use crate::gui::context::FrameCtx;
use crate::gui::text::{Texts, fill, money, money_whole};
use crate::gui::theme;
use egui::{Align, Layout, RichText};
use egui_extras::{Column, TableBuilder};
use egui_plot::{Line, LineStyle, Plot, PlotPoint, PlotPoints, VLine};

/// A cost plot of the TCO tab: the build's currency up the y axis from 0, ticks in k/M
/// (万/亿) at round marks, `x_label` along x.
fn cost_plot<'a>(id: &'a str, x_label: &'a str, currency: &str, units: &'static [(f64, &'static str)]) -> Plot<'a> {
    Plot::new(id)
        .height(theme::TALL_PLOT_HEIGHT)
        .allow_scroll(false)
        .x_axis_label(x_label)
        .y_axis_label(currency.to_owned())
        .y_axis_formatter(move |mark, _| money_tick(mark.value, units))
        .y_grid_spacer(|input| round_marks(&input))
        .include_y(0.0)
}

/// A cloud offer as people name it: its provider and instance from the catalog (a custom
/// offer, which the catalog does not hold, by its own name `label`).
#[must_use]
pub fn offer_name(catalog: &Catalog, offer: &str, label: &str) -> String {
    catalog.cloud(offer).map_or_else(|| label.to_owned(), |o| format!("{} {}", o.provider, o.instance))
}

/// A cloud option as the legends name it: offer and term in the UI's language.
fn option_label(catalog: &Catalog, t: &Texts, o: &CloudOption) -> String {
    let name = offer_name(catalog, &o.input.offer, &o.input.label);
    if o.input.term == Term::Custom { name } else { format!("{name}, {}", t.figures.term(o.input.term)) }
}

/// The tab.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let (t, tk, derived) = (fx.texts, fx.tokens, fx.derived);
    let tco = &derived.report.tco;
    let whole = |v: f64| money_whole(t, v, &tco.currency);
    egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
        controls::settings(ui, fx);
        controls::custom_offers(ui, fx);
        ui.add_space(6.0);
        let key = |k: &str| vec![format!("tco.{k}")];
        let mut rows: Vec<(String, String, Vec<String>)> = vec![
            (t.tco_capex.to_owned(), whole(tco.capex), key("capex")),
            (
                t.tco_owned_per_year.to_owned(),
                whole(tco.owned_per_year.total),
                vec!["tco.owned_per_year.total".to_owned(), "tco.owned_per_year.energy".to_owned()],
            ),
            (t.tco_owned_total.to_owned(), whole(tco.totals.owned), key("totals.owned")),
        ];
        let break_even = match (tco.break_even_month, tco.break_even_within_horizon) {
            (Some(m), true) => fill(t.tco_break_even_at, &[&format!("{m:.1}")]),
            (Some(m), false) => fill(t.tco_break_even_after, &[&format!("{m:.1}")]),
            (None, _) => t.tco_no_break_even.to_owned(),
        };
        rows.push((
            t.tco_break_even.to_owned(),
            break_even,
            vec!["tco.break_even_month".to_owned(), "tco.break_even_utilization".to_owned()],
        ));
        if let Some(c) = tco.cost_per_gpu_hour {
            rows.push((
                t.tco_per_gpu_hour.to_owned(),
                money(t, &format!("{c:.2}"), &tco.currency),
                key("cost_per_gpu_hour"),
            ));
        }
        if let Some(c) = tco.workload.as_ref().and_then(|wl| wl.owned_per_million_tokens) {
            rows.push((
                t.tco_per_million_tokens.to_owned(),
                money(t, &format!("{c:.3}"), &tco.currency),
                key("workload.owned_per_million_tokens"),
            ));
        }
        if let Some(kwh) = tco.workload.as_ref().and_then(|wl| wl.energy_kwh_per_million_tokens) {
            rows.push((
                t.tco_energy_per_million_tokens.to_owned(),
                fill(t.kwh_value, &[&format!("{kwh:.3}")]),
                key("workload.energy_kwh_per_million_tokens"),
            ));
        }
        if let Some(kwh) = tco.workload.as_ref().and_then(|wl| wl.run_energy_kwh) {
            rows.push((
                t.tco_energy_per_run.to_owned(),
                fill(t.kwh_value, &[&format!("{kwh:.1}")]),
                key("workload.run_energy_kwh"),
            ));
        }
        explain::figures(ui, fx, "tco-figures", &rows);
        options_table(ui, fx);
        let charts = &derived.charts;
        let catalog = fx.catalog;
        let label_of = |id: &str| {
            tco.options.iter().find(|o| o.input.id == id).map_or_else(|| id.to_owned(), |o| option_label(catalog, t, o))
        };
        let units = t.figures.tick_units;
        let currency = tco.currency.to_string();
        ui.add_space(6.0);
        ui.label(RichText::new(t.tco_cumulative).strong());
        let primary = tco.break_even_month.filter(|_| tco.break_even_within_horizon);
        let mut entries = vec![LegendEntry { label: t.tco_owned.to_owned(), color: tk.accent, dashed: false }];
        for (i, (id, _, _)) in charts.tco_options.iter().enumerate() {
            entries.push(LegendEntry { label: label_of(id), color: series_color(tk, i + 1), dashed: false });
        }
        if primary.is_some() {
            entries.push(LegendEntry { label: t.tco_break_even.to_owned(), color: tk.ok, dashed: true });
        }
        let cumulative = with_legend_and_save(ui, fx, "tco-cumulative", &entries, |ui| {
            cost_plot("tco-cumulative", t.axis_months, &currency, units).show(ui, |plot| {
                plot.line(Line::new(t.tco_owned, PlotPoints::Borrowed(&charts.tco_owned)).color(tk.accent).width(2.0));
                for (i, (id, curve, _)) in charts.tco_options.iter().enumerate() {
                    plot.line(Line::new(label_of(id), PlotPoints::Borrowed(curve)).color(series_color(tk, i + 1)));
                }
                if let Some(m) = primary {
                    plot.vline(VLine::new(t.tco_break_even, m).style(LineStyle::dashed_dense()).color(tk.ok));
                }
            })
        });
        let words = plot_hover::words(fx.lang);
        let owned_keys = || ["tco.capex", "tco.owned_per_year.total", "tco.totals.owned"].map(str::to_owned).to_vec();
        let option_keys = |id: &str| vec![format!("tco.totals.options.{id}")];
        // The curve under the pointer: the owned total's (first) or an option's, named with its
        // amount at the pointer's x (`at_x` says where: a month, a utilization).
        let curve_hover =
            |owned: &[PlotPoint], options: Vec<(&str, &[PlotPoint])>, at: PlotPoint, at_x: &str, x: String| {
                let mut curves: Vec<&[PlotPoint]> = vec![owned];
                curves.extend(options.iter().map(|(_, c)| *c));
                let (i, value) = plot_hover::nearest_curve(&curves, at)?;
                let (name, keys) = match i.checked_sub(1).and_then(|o| options.get(o)) {
                    Some((id, _)) => (label_of(id), option_keys(id)),
                    None => (t.tco_owned.to_owned(), owned_keys()),
                };
                let text = fill(at_x, &[&name, &x, &money_whole(t, value, &currency)]);
                Some(plot_hover::Hovered { text, keys })
            };
        plot_hover::explain(fx, &cumulative, |at| {
            let options = charts.tco_options.iter().map(|(id, c, _)| (id.as_str(), c.as_slice())).collect();
            curve_hover(&charts.tco_owned, options, at, words.at_month, format!("{:.0}", at.x.max(0.0)))
        });
        if !charts.util_owned.is_empty() {
            ui.add_space(6.0);
            ui.label(RichText::new(t.tco_vs_utilization).strong());
            let current = tco.utilization * 100.0;
            let mut entries = vec![LegendEntry { label: t.tco_owned.to_owned(), color: tk.accent, dashed: false }];
            for (i, (id, _)) in charts.util_options.iter().enumerate() {
                entries.push(LegendEntry { label: label_of(id), color: series_color(tk, i + 1), dashed: false });
            }
            entries.push(LegendEntry { label: t.tco_current_utilization.to_owned(), color: tk.muted, dashed: true });
            let by_utilization = with_legend_and_save(ui, fx, "tco-utilization", &entries, |ui| {
                cost_plot("tco-utilization", t.axis_utilization, &currency, units).show(ui, |plot| {
                    plot.line(
                        Line::new(t.tco_owned, PlotPoints::Borrowed(&charts.util_owned)).color(tk.accent).width(2.0),
                    );
                    for (i, (id, curve)) in charts.util_options.iter().enumerate() {
                        plot.line(Line::new(label_of(id), PlotPoints::Borrowed(curve)).color(series_color(tk, i + 1)));
                    }
                    plot.vline(
                        VLine::new(t.tco_current_utilization, current).style(LineStyle::dotted_dense()).color(tk.muted),
                    );
                })
            });
            plot_hover::explain(fx, &by_utilization, |at| {
                let options = charts.util_options.iter().map(|(id, c)| (id.as_str(), c.as_slice())).collect();
                let percent = format!("{:.0}", at.x.clamp(0.0, 100.0));
                curve_hover(&charts.util_owned, options, at, words.at_utilization, percent)
            });
        }
        ui.add_space(6.0);
        ui.label(RichText::new(t.tco_yearly).strong());
        egui::Grid::new("tco-yearly").num_columns(6).striped(true).show(ui, |ui| {
            for h in [t.tco_year, t.tco_capex, t.tco_operating, t.tco_depreciation, t.tco_cash, t.tco_cumulative_cash] {
                ui.strong(h);
            }
            ui.end_row();
            let basis_keys = [
                vec!["tco.capex".to_owned()],
                vec!["tco.owned_per_year.total".to_owned()],
                vec!["tco.depreciation_per_year".to_owned()],
                vec!["tco.capex".to_owned(), "tco.owned_per_year.total".to_owned()],
                vec!["tco.capex".to_owned(), "tco.owned_per_year.total".to_owned()],
            ];
            for y in &tco.yearly {
                ui.label(y.year.to_string());
                for (v, keys) in
                    [y.capex, y.opex.total, y.depreciation, y.cash, y.cumulative_cash].into_iter().zip(&basis_keys)
                {
                    explain::explained(ui, fx, &format_thousands(v, 0), keys);
                }
                ui.end_row();
            }
        });
        if !tco.notes.is_empty() {
            ui.add_space(6.0);
            ui.label(RichText::new(t.tco_notes).strong());
            for n in &tco.notes {
                ui.add(egui::Label::new(RichText::new(&n.message).small()).wrap());
                // The fix names a control of this tab (or the parts list's price editor, one
                // click away).
                if let Some(fix) = &n.fix {
                    ui.add(egui::Label::new(RichText::new(fill(t.fix, &[fix])).small().weak()).wrap());
                }
                if let Some((label, command)) = crate::gui::fixes::one_click(n, fx.doc.build(), t)
                    && command != crate::gui::command::Command::SetTab(crate::gui::vocab::AnalysisTab::Tco)
                    && ui.small_button(label).clicked()
                {
                    fx.push(command);
                }
            }
        }
    });
}

/// The cloud options in a table whose columns show what differs between them: the provider
/// and instance (in full on hover, with region and price date), the term (on-demand,
/// reserved, spot, …) and the total over the horizon, cheapest first.
fn options_table(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let (t, derived) = (fx.texts, fx.derived);
    let tco = &derived.report.tco;
    if tco.options.is_empty() {
        return;
    }
    let f = t.figures;
    let mut options: Vec<&CloudOption> = tco.options.iter().collect();
    options.sort_by(|a, b| a.total.total_cmp(&b.total));
    ui.add_space(6.0);
    ui.label(RichText::new(f.options_title).strong());
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    let width_of = |ui: &egui::Ui, text: &str| {
        egui::WidgetText::from(text)
            .into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, egui::TextStyle::Body)
            .size()
            .x
    };
    let total_head = fill(f.total_col, &[&tco.currency]);
    let terms_width =
        options.iter().map(|o| width_of(ui, f.term(o.input.term))).fold(width_of(ui, f.term_col), f32::max);
    let totals_width =
        options.iter().map(|o| width_of(ui, &format_thousands(o.total, 0))).fold(width_of(ui, &total_head), f32::max);
    let spacing = ui.spacing().item_spacing.x;
    let (terms_width, totals_width) = (terms_width + 8.0, totals_width + 12.0);
    // The cells' spacing on either side of each column, and room for the scroll bar.
    let name_width = (ui.available_width() - terms_width - totals_width - 6.0 * spacing).max(80.0);
    TableBuilder::new(ui)
        .id_salt("tco-options")
        .striped(true)
        .resizable(false)
        .vscroll(false)
        .cell_layout(Layout::left_to_right(Align::Center))
        .column(Column::exact(name_width).clip(true))
        .column(Column::exact(terms_width))
        .column(Column::exact(totals_width))
        .header(row_height, |mut h| {
            for head in [f.option_col.to_owned(), f.term_col.to_owned(), total_head] {
                h.col(|ui| {
                    ui.strong(head);
                });
            }
        })
        .body(|mut body| {
            for o in options {
                body.row(row_height, |mut row| {
                    let name = offer_name(fx.catalog, &o.input.offer, &o.input.label);
                    let hover = match (&o.input.region, &o.input.price_date) {
                        (Some(region), Some(date)) => fill(f.option_hover, &[&name, region, date]),
                        _ => name.clone(),
                    };
                    row.col(|ui| {
                        // One tooltip: the hover names the offer in full with its region and date.
                        ui.add(egui::Label::new(&name).truncate().show_tooltip_when_elided(false)).on_hover_text(hover);
                    });
                    row.col(|ui| {
                        ui.label(f.term(o.input.term));
                    });
                    row.col(|ui| {
                        // The total explains itself (the offer's rate × hours × term) like the
                        // figures above it.
                        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
                            let keys = [format!("tco.totals.options.{}", o.input.id)];
                            explain::explained(ui, fx, &format_thousands(o.total, 0), &keys);
                        });
                    });
                });
            }
        });
}
