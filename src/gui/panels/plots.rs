//! Shared pieces of the plot tabs: a plot with a "Save as PNG…" button, figures in a grid.

use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::theme::Tokens;
use egui_plot::PlotResponse;

/// Lays out a plot, then a "Save as PNG…" button under it that saves the plot's screen region.
pub fn with_save<R>(
    ui: &mut egui::Ui,
    fx: &mut FrameCtx<'_>,
    name: &str,
    show: impl FnOnce(&mut egui::Ui) -> PlotResponse<R>,
) {
    let rect = show(ui).response.rect;
    ui.with_layout(egui::Layout::right_to_left(egui::Align::Min), |ui| {
        if ui.small_button(fx.texts.save_png).clicked() {
            fx.push(Command::SavePlot { rect, name: name.to_owned() });
        }
    });
}

/// A two-column grid of label and value rows.
pub fn figures<L: AsRef<str>>(ui: &mut egui::Ui, id: &str, rows: &[(L, String)]) {
    egui::Grid::new(id).num_columns(2).spacing([12.0, 3.0]).show(ui, |ui| {
        for (label, value) in rows {
            ui.weak(label.as_ref());
            ui.label(value);
            ui.end_row();
        }
    });
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
#[allow(clippy::cast_possible_truncation)]
pub fn fraction(share: f64) -> f32 {
    if share.is_finite() { share.clamp(0.0, 1.0) as f32 } else { 0.0 }
}

/// The bar index an x-axis grid mark stands for, when the mark sits on a bar.
#[must_use]
#[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
pub fn bar_index(mark: f64, bars: usize) -> Option<usize> {
    let i = mark.round();
    let on_bar = (mark - i).abs() < 1e-6 && i >= 0.0 && i < bars as f64;
    on_bar.then_some(i as usize)
}
