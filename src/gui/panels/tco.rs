//! The TCO tab: the site and usage settings (editable in place), owned cost against each
//! cloud option over the horizon with the break-even month marked, cost against utilization,
//! the yearly breakdown, and the notes that qualify the comparison. Renders `report.tco`.

use super::explain;
use super::plots::{legend, series_color, with_save};
use crate::core::units::format_thousands;
use crate::gui::command::{Command, Setting};
use crate::gui::context::FrameCtx;
use crate::gui::text::{fill, money, money_whole};
use crate::gui::theme;
use egui::RichText;
use egui_plot::{Line, LineStyle, Plot, PlotPoints, VLine};

/// The tab.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let (t, tk, derived) = (fx.texts, fx.tokens, fx.derived);
    let tco = &derived.report.tco;
    let whole = |v: f64| money_whole(t, v, &tco.currency);
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        settings(ui, fx);
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
        for o in &tco.options {
            rows.push((o.input.label.clone(), whole(o.total), key(&format!("totals.options.{}", o.input.id))));
        }
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
        let charts = &derived.charts;
        ui.add_space(6.0);
        ui.label(RichText::new(t.tco_cumulative).strong());
        let primary = tco.break_even_month.filter(|_| tco.break_even_within_horizon);
        with_save(ui, fx, "tco-cumulative", |ui| {
            Plot::new("tco-cumulative")
                .height(theme::TALL_PLOT_HEIGHT)
                .legend(legend())
                .allow_scroll(false)
                .x_axis_label(t.axis_months)
                .y_axis_label(tco.currency.to_string())
                .include_y(0.0)
                .show(ui, |plot| {
                    plot.line(
                        Line::new(t.tco_owned, PlotPoints::Borrowed(&charts.tco_owned)).color(tk.accent).width(2.0),
                    );
                    for (i, (label, curve, _)) in charts.tco_options.iter().enumerate() {
                        plot.line(Line::new(label, PlotPoints::Borrowed(curve)).color(series_color(tk, i + 1)));
                    }
                    if let Some(m) = primary {
                        plot.vline(VLine::new(t.tco_break_even, m).style(LineStyle::dashed_dense()).color(tk.ok));
                    }
                })
        });
        if !charts.util_owned.is_empty() {
            ui.add_space(6.0);
            ui.label(RichText::new(t.tco_vs_utilization).strong());
            let current = tco.utilization * 100.0;
            with_save(ui, fx, "tco-utilization", |ui| {
                Plot::new("tco-utilization")
                    .height(theme::TALL_PLOT_HEIGHT)
                    .legend(legend())
                    .allow_scroll(false)
                    .x_axis_label(t.axis_utilization)
                    .y_axis_label(tco.currency.to_string())
                    .include_y(0.0)
                    .show(ui, |plot| {
                        plot.line(
                            Line::new(t.tco_owned, PlotPoints::Borrowed(&charts.util_owned))
                                .color(tk.accent)
                                .width(2.0),
                        );
                        for (i, (label, curve)) in charts.util_options.iter().enumerate() {
                            plot.line(Line::new(label, PlotPoints::Borrowed(curve)).color(series_color(tk, i + 1)));
                        }
                        plot.vline(
                            VLine::new(t.tco_current_utilization, current)
                                .style(LineStyle::dotted_dense())
                                .color(tk.muted),
                        );
                    })
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
            }
        }
    });
}

/// The site and usage settings, each edit a command (one undo step per setting while it is
/// being dragged or typed).
fn settings(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let t = fx.texts;
    let build = fx.doc.build();
    let (site, usage) = (&build.site, &build.usage);
    egui::Grid::new("tco-settings").num_columns(2).spacing([12.0, 4.0]).show(ui, |ui| {
        let label = ui.label(t.set_currency);
        let mut currency = site.currency.0.clone();
        let r =
            ui.add(egui::TextEdit::singleline(&mut currency).desired_width(60.0).char_limit(3)).labelled_by(label.id);
        if r.changed() && currency.trim().len() == 3 {
            fx.push(Command::SetSetting(Setting::Currency(currency)));
        }
        ui.end_row();
        let mut push_drag = |ui: &mut egui::Ui,
                             label: &str,
                             value: f64,
                             range: std::ops::RangeInclusive<f64>,
                             speed: f64,
                             decimals: usize,
                             suffix: &str,
                             make: fn(f64) -> Setting| {
            let l = ui.label(label);
            let mut v = value;
            let r = ui
                .add(
                    egui::DragValue::new(&mut v)
                        .range(range)
                        .speed(speed)
                        .max_decimals(decimals)
                        .suffix(suffix.to_owned()),
                )
                .labelled_by(l.id);
            if r.changed() && (v - value).abs() > f64::EPSILON {
                fx.push(Command::SetSetting(make(v)));
            }
            ui.end_row();
        };
        push_drag(
            ui,
            t.set_exchange_rate,
            site.usd_exchange_rate,
            0.0001..=100_000.0,
            0.01,
            4,
            "",
            Setting::UsdExchangeRate,
        );
        push_drag(
            ui,
            t.set_electricity,
            site.electricity_per_kwh,
            0.0..=100.0,
            0.005,
            3,
            "",
            Setting::ElectricityPerKwh,
        );
        push_drag(ui, t.set_pue, site.pue, 1.0..=3.0, 0.01, 2, "", Setting::Pue);
        push_drag(ui, t.set_horizon, usage.horizon_years, 0.25..=15.0, 0.05, 2, "", Setting::HorizonYears);
        let name = ui.label(t.set_utilization);
        let mut percent = usage.utilization * 100.0;
        let slider =
            ui.add(egui::Slider::new(&mut percent, 0.0..=100.0).suffix(" %").max_decimals(0)).labelled_by(name.id);
        if slider.changed() {
            fx.push(Command::SetSetting(Setting::Utilization((percent / 100.0).clamp(0.0, 1.0))));
        }
        ui.end_row();
    });
}
