//! Shared pieces of the plot tabs: a plot with a "Save as PNG…" button, a legend under a plot
//! (collapsible, so that many series never cover the curves), money ticks in k / M (万 / 亿
//! in Chinese), figures in a grid.

use crate::core::units::format_thousands;
use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::text::fill;
use crate::gui::theme::{self, Tokens};
use egui_plot::PlotResponse;

/// Lays out a plot, then a "Save as PNG…" button under it that saves the plot's screen region.
/// Returns the plot's response (for its hover, [`super::plot_hover`]).
pub fn with_save<R>(
    ui: &mut egui::Ui,
    fx: &mut FrameCtx<'_>,
    name: &str,
    show: impl FnOnce(&mut egui::Ui) -> PlotResponse<R>,
) -> PlotResponse<R> {
    let plot = show(ui);
    let rect = plot.response.rect;
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
        if ui.small_button(fx.texts.save_png).clicked() {
            fx.push(Command::SavePlot { rect, name: name.to_owned() });
        }
    });
    plot
}

/// A plot, its legend under it (see [`legend_under`]) and a "Save as PNG…" button that saves
/// both. Returns the plot's response (for its hover, [`super::plot_hover`]).
pub fn with_legend_and_save<R>(
    ui: &mut egui::Ui,
    fx: &mut FrameCtx<'_>,
    name: &str,
    entries: &[LegendEntry],
    show: impl FnOnce(&mut egui::Ui) -> PlotResponse<R>,
) -> PlotResponse<R> {
    let plot = show(ui);
    let legend = legend_under(ui, fx, name, entries);
    let rect = legend.map_or(plot.response.rect, |r| plot.response.rect.union(r));
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
        if ui.small_button(fx.texts.save_png).clicked() {
            fx.push(Command::SavePlot { rect, name: name.to_owned() });
        }
    });
    plot
}

/// One series of a plot as its legend names it.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    pub label: String,
    pub color: egui::Color32,
    /// Drawn as a dashed line (a marker such as break-even) rather than a curve.
    pub dashed: bool,
}

/// Width of a legend's colour swatch, points.
const SWATCH_WIDTH: f32 = 18.0;

/// A plot's legend under it, as a collapsible list of colour swatches and full names (open at
/// first): unlike egui_plot's legend it never covers the curves, and names wrap instead of
/// being cut. Returns the rect it took, for saving with the plot.
pub fn legend_under(ui: &mut egui::Ui, fx: &FrameCtx<'_>, id: &str, entries: &[LegendEntry]) -> Option<egui::Rect> {
    if entries.is_empty() {
        return None;
    }
    let title = fill(fx.texts.figures.legend, &[&entries.len()]);
    let r = egui::CollapsingHeader::new(egui::RichText::new(title).small())
        .id_salt((id, "legend"))
        .default_open(true)
        .show(ui, |ui| {
            ui.spacing_mut().item_spacing.y = 2.0;
            for e in entries {
                ui.horizontal(|ui| {
                    let height = ui.text_style_height(&egui::TextStyle::Small);
                    let (rect, _) = ui.allocate_exact_size(egui::vec2(SWATCH_WIDTH, height), egui::Sense::hover());
                    let y = rect.center().y;
                    let stroke = egui::Stroke::new(2.0, e.color);
                    if e.dashed {
                        ui.painter().add(egui::Shape::dashed_line(
                            &[egui::pos2(rect.left(), y), egui::pos2(rect.right(), y)],
                            stroke,
                            3.0,
                            2.0,
                        ));
                    } else {
                        ui.painter().line_segment([egui::pos2(rect.left(), y), egui::pos2(rect.right(), y)], stroke);
                    }
                    ui.add(egui::Label::new(egui::RichText::new(&e.label).small()).wrap());
                });
            }
        });
    Some(r.header_response.rect.union(r.body_response.map_or(r.header_response.rect, |b| b.rect)))
}

/// A tick of a money axis: round amounts scaled by the language's units (`7.5 M`, `250 k`;
/// `750 万`, `1.2 亿`), with thousands separators and no trailing zeros, so that a tick reads
/// at a glance and the axis keeps room for several.
#[must_use]
pub fn money_tick(value: f64, units: &[(f64, &str)]) -> String {
    if !value.is_finite() {
        return String::new();
    }
    let (div, suffix) = units.iter().find(|(div, _)| value.abs() >= *div).map_or((1.0, ""), |&(d, s)| (d, s));
    let text = format_thousands(value / div, 2);
    let text = if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { &text };
    let text = if text == "-0" { "0" } else { text };
    format!("{text}{suffix}")
}

/// Grid marks of a value axis at round steps (1, 2 or 5 × 10ⁿ) giving about five intervals
/// over the visible range, so that several ticks are labelled whatever the scale (egui_plot's
/// default steps by powers of ten and can leave a single labelled tick on a cost axis).
#[must_use]
pub fn round_marks(input: &egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    let (lo, hi) = input.bounds;
    let span = hi - lo;
    if !(lo.is_finite() && hi.is_finite() && span > 0.0) {
        return Vec::new();
    }
    let raw = span / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * magnitude).find(|s| *s >= raw).unwrap_or(raw);
    let mut marks = Vec::new();
    let mut k = (lo / step).ceil();
    while k * step <= hi && marks.len() < 50 {
        marks.push(egui_plot::GridMark { value: k * step, step_size: step });
        k += 1.0;
    }
    marks
}

/// Label and value rows. The label column has a fixed width (not a `Grid`, which needs an
/// extra layout pass whenever its rows change); labels and values wrap within the panel, so
/// that a key value is read in full and never widens it (issue 17: a cut "typical 5,925 W · m…"
/// hid the figure and its tooltip showed twice).
pub fn figures<L: AsRef<str>>(ui: &mut egui::Ui, id: &str, rows: &[(L, String)]) {
    ui.push_id(id, |ui| {
        ui.spacing_mut().item_spacing.y = 3.0;
        for (label, value) in rows {
            ui.horizontal(|ui| {
                figure_label(ui, label.as_ref());
                ui.add(egui::Label::new(value).wrap());
            });
        }
    });
}

/// The label column of a figure row ([`figures`], [`super::explain::figures`]): a fixed width,
/// the label wrapping inside it rather than cut short.
pub fn figure_label(ui: &mut egui::Ui, label: &str) {
    let height = ui.spacing().interact_size.y;
    ui.allocate_ui_with_layout(
        egui::vec2(theme::FIGURE_LABEL_WIDTH, height),
        egui::Layout::top_down(egui::Align::Min),
        |ui| {
            ui.set_width(theme::FIGURE_LABEL_WIDTH);
            ui.add(egui::Label::new(egui::RichText::new(label).weak()).wrap());
        },
    );
}

/// The legend of the plots: small text, so that many series leave the curves visible.
#[must_use]
pub fn legend() -> egui_plot::Legend {
    egui_plot::Legend::default().text_style(egui::TextStyle::Small).background_alpha(0.6)
}

/// The plot colour of the `i`-th series.
#[must_use]
pub fn series_color(tokens: &Tokens, i: usize) -> egui::Color32 {
    let palette = &tokens.series;
    palette.get(i % palette.len().max(1)).copied().unwrap_or(tokens.accent)
}

/// A share (0–1) as a progress bar's fraction; outside values are clamped.
#[must_use]
#[expect(clippy::cast_possible_truncation, reason = "values clamped to the target range before the cast")]
pub fn fraction(share: f64) -> f32 {
    if share.is_finite() { share.clamp(0.0, 1.0) as f32 } else { 0.0 }
}

/// The bar index an x-axis grid mark stands for, when the mark sits on a bar.
#[must_use]
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "values clamped to the target range before the cast"
)]
pub fn bar_index(mark: f64, bars: usize) -> Option<usize> {
    let i = mark.round();
    let on_bar = (mark - i).abs() < 1e-6 && i >= 0.0 && i < bars as f64;
    on_bar.then_some(i as usize)
}

/// A progress bar's fill from a status colour: softened, so that the bar's text stays
/// readable on it in both themes.
#[must_use]
pub fn bar_fill(color: egui::Color32) -> egui::Color32 {
    color.gamma_multiply(BAR_FILL_OPACITY)
}

/// Opacity of progress-bar fills.
const BAR_FILL_OPACITY: f32 = 0.55;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::text::figures;

    #[test]
    fn money_ticks_scale_by_the_languages_units() {
        let en = figures::EN.tick_units;
        assert_eq!(money_tick(0.0, en), "0");
        assert_eq!(money_tick(500.0, en), "500");
        assert_eq!(money_tick(2_500.0, en), "2.5 k");
        assert_eq!(money_tick(250_000.0, en), "250 k");
        assert_eq!(money_tick(7_500_000.0, en), "7.5 M");
        assert_eq!(money_tick(10_000_000.0, en), "10 M");
        assert_eq!(money_tick(1_250_000_000.0, en), "1,250 M");
        assert_eq!(money_tick(-2_000_000.0, en), "-2 M");
        // Chinese states sums in 万 (10⁴) and 亿 (10⁸).
        let zh = figures::ZH.tick_units;
        assert_eq!(money_tick(5_000.0, zh), "5,000");
        assert_eq!(money_tick(7_500_000.0, zh), "750 万");
        assert_eq!(money_tick(12_000_000.0, zh), "1,200 万");
        assert_eq!(money_tick(120_000_000.0, zh), "1.2 亿");
        assert_eq!(money_tick(f64::NAN, zh), "");
    }

    #[test]
    fn round_marks_step_by_one_two_or_five_and_give_several_ticks() {
        let marks = |lo: f64, hi: f64| {
            round_marks(&egui_plot::GridInput { bounds: (lo, hi), base_step_size: 1.0 })
                .iter()
                .map(|m| m.value)
                .collect::<Vec<_>>()
        };
        // The 8 × H100 TCO plot's range: 0 to 14 M in steps of 5 M (a span of 14 M / 5 = 2.8 M
        // rounds up to 5 M).
        assert_eq!(marks(-0.5e6, 14.0e6), [0.0, 5.0e6, 10.0e6]);
        assert_eq!(marks(0.0, 1.0e6), [0.0, 2.0e5, 4.0e5, 6.0e5, 8.0e5, 1.0e6]);
        assert_eq!(marks(0.0, 90.0), [0.0, 20.0, 40.0, 60.0, 80.0]);
        assert!(marks(1.0, 1.0).is_empty());
        assert!(marks(f64::NAN, 1.0).is_empty());
    }
}
