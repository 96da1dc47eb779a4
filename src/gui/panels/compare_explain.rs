//! The compare view's figures explain themselves: a cell's hover shows the bases of the figure
//! in that build's own report (what, formula with that build's numbers, source, confidence),
//! like a figure of the other tabs. Each compared build has its report
//! ([`crate::gui::compare::Compared::reports`]) and each row names the bases of its value per
//! build ([`Row::basis_keys`]: a report figure, or the fit cell a speed row read, whose bases
//! the comparison added to the report); nothing here computes.
//!
//! A comparison of builds in different currencies shows amounts converted to USD while a
//! report's bases are in the build's own currency: the hover then says so, with the rate.
//! Compare figures are not pinned: the side panel's pinned figures are the current build's.
//! Hovering the cost plot or the wall-power bars explains the curve or bar under the pointer
//! the same way.

use crate::core::analysis::Report;
use crate::core::analysis::basis::{self, Basis};
use crate::core::compare::{Comparison, Row};
use crate::core::i18n::Lang;
use crate::gui::compare::CurveSeries;
use crate::gui::context::FrameCtx;
use crate::gui::text::fill;
use crate::gui::theme;

/// The words of a compare hover.
struct Words {
    /// `{build}: {value}`.
    of_build: &'static str,
    /// The basis is in the build's currency: `{currency}`, `{rate}`, `{currency}`.
    converted: &'static str,
    /// A cell without a value (no GPUs, does not fit): nothing to explain.
    none: &'static str,
}

const EN: Words = Words {
    of_build: "{}: {}",
    converted: "This build's figures below are in {}; the comparison shows them in USD at its rate of {} {} per USD.",
    none: "This build has no value here, so there is no formula to show.",
};

const ZH: Words = Words {
    of_build: "{}：{}",
    converted: "下方该配置的数据以 {} 计；对比按其汇率 1 美元 = {} {} 折算为美元显示。",
    none: "该配置此处没有数值，因此没有可显示的公式。",
};

fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::ZhCn => &ZH,
    }
}

/// The bases of row `row`'s value for build `i`, from that build's report (the row names
/// them: [`Row::basis_keys`]).
fn row_bases<'r>(row: &Row, i: usize, report: &'r Report) -> Vec<&'r Basis> {
    row.basis_keys.get(i).into_iter().flatten().filter_map(|k| basis::find(report.basis(), k)).collect()
}

/// Explains a compare cell (row `row`, build `i`) on hover from build `i`'s report.
pub fn cell_hover(fx: &FrameCtx<'_>, c: &Comparison, row: &Row, i: usize, response: &egui::Response) {
    let Some(report) = fx.compared.and_then(|x| x.reports.get(i)) else { return };
    if !response.hovered() {
        return;
    }
    let lang = fx.lang;
    let w = words(lang);
    let bases = row_bases(row, i, report);
    let name = c.builds.get(i).map_or_else(String::new, |b| format!("{} {}", b.label, b.name));
    let value = row.text.get(i).cloned().unwrap_or_default();
    let converted = c.converted_to_usd && row.unit == c.currency.to_string();
    let build = c.builds.get(i);
    response.clone().on_hover_ui(|ui| {
        ui.set_max_width(theme::EXPLAIN_WIDTH);
        ui.label(fill(w.of_build, &[&name, &format!("{value} {}", row.unit)]));
        if bases.is_empty() {
            ui.weak(w.none);
            return;
        }
        if converted && let Some(b) = build {
            ui.weak(fill(w.converted, &[&b.currency, &b.usd_exchange_rate, &b.currency]));
        }
        super::explain::grouped_ui(ui, lang, &bases);
    });
}

/// Explains a compared build's node and GPU counts from its report.
pub fn counts_hover(fx: &FrameCtx<'_>, i: usize, response: &egui::Response) {
    let Some(report) = fx.compared.and_then(|x| x.reports.get(i)) else { return };
    if !response.hovered() {
        return;
    }
    let lang = fx.lang;
    let bases: Vec<&Basis> = ["nodes", "gpus"].iter().filter_map(|k| basis::find(report.basis(), k)).collect();
    response.clone().on_hover_ui(|ui| {
        ui.set_max_width(theme::EXPLAIN_WIDTH);
        super::explain::grouped_ui(ui, lang, &bases);
    });
}

/// Explains the curve under the pointer of the compare view's cost plot: the build's owned or
/// cloud curve, its amount at that month (in the plot's unit; a log axis plots log10 of it),
/// and that build's basis of the horizon total.
pub fn curves_hover<R>(
    fx: &FrameCtx<'_>,
    c: &Comparison,
    curves: &[CurveSeries],
    plot: &egui_plot::PlotResponse<R>,
    log: bool,
    unit: &str,
) {
    let Some(pos) = plot.response.hover_pos() else { return };
    let at = plot.transform.value_from_position(pos);
    // Owned and cloud curves of every build, with the build and whether it is the cloud's.
    let mut series: Vec<(&[egui_plot::PlotPoint], usize, bool)> = Vec::new();
    for (i, s) in curves.iter().enumerate() {
        series.push((&s.owned, i, false));
        if let Some(p) = &s.primary {
            series.push((p, i, true));
        }
    }
    let points: Vec<&[egui_plot::PlotPoint]> = series.iter().map(|(p, _, _)| *p).collect();
    let Some((k, value)) = super::plot_hover::nearest_curve(&points, at) else { return };
    let Some(&(_, i, cloud)) = series.get(k) else { return };
    let Some(report) = fx.compared.and_then(|x| x.reports.get(i)) else { return };
    let t = fx.texts;
    let label = c.builds.get(i).map_or("", |b| b.label);
    let name = fill(if cloud { t.compare_cloud } else { t.compare_owned }, &[&label]);
    let key = if cloud {
        report.tco.primary_option.as_ref().map(|id| format!("tco.totals.options.{id}"))
    } else {
        Some("tco.totals.owned".to_owned())
    };
    let bases: Vec<&Basis> = key.iter().filter_map(|k| basis::find(report.basis(), k)).collect();
    let amount = if log { 10f64.powf(value) } else { value };
    let month = format!("{:.0}", at.x.max(0.0));
    let words = super::plot_hover::words(fx.lang);
    let text =
        fill(words.at_month, &[&name, &month, &format!("{} {unit}", crate::core::units::format_thousands(amount, 2))]);
    super::explain::hover_bases(fx.lang, &plot.response, &text, &bases);
}

/// Explains the bar under the pointer of the compare view's wall-power bars: the build, the
/// power level and its watts, with that build's basis of the wall draw.
pub fn power_bars_hover<R>(
    fx: &FrameCtx<'_>,
    c: &Comparison,
    charts: &crate::gui::compare::CompareCharts,
    plot: &egui_plot::PlotResponse<R>,
) {
    let Some(pos) = plot.response.hover_pos() else { return };
    let at = plot.transform.value_from_position(pos);
    let half = charts.bar_width * 0.45;
    let bar = charts.power_bars.iter().enumerate().find_map(|(i, (_, bars))| {
        bars.iter()
            .find(|(x, watts)| (at.x - x).abs() <= half && (0.0..=*watts).contains(&at.y))
            .map(|&(x, watts)| (i, x, watts))
    });
    let Some((i, x, watts)) = bar else { return };
    let Some(report) = fx.compared.and_then(|cmp| cmp.reports.get(i)) else { return };
    // The bar's level: the nearest whole x (bars sit around their level's x).
    let level = crate::gui::compare::POWER_ROWS.iter().enumerate().find(|(l, _)| (x - *l as f64).abs() < 0.5);
    let Some((level, row_id)) = level else { return };
    let bases = c.row(row_id).map(|row| row_bases(row, i, report)).unwrap_or_default();
    let name = c.builds.get(i).map_or_else(String::new, |b| format!("{} {}", b.label, b.name));
    let level_name = fx.texts.compare_power_levels.get(level).copied().unwrap_or_default();
    let value = format!("{level_name}: {} W", crate::core::units::format_thousands(watts, 0));
    let text = fill(words(fx.lang).of_build, &[&name, &value]);
    super::explain::hover_bases(fx.lang, &plot.response, &text, &bases);
}
