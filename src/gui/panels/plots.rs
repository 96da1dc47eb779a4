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
pub fn figures(ui: &mut egui::Ui, id: &str, rows: &[(&str, String)]) {
    egui::Grid::new(id).num_columns(2).spacing([12.0, 3.0]).show(ui, |ui| {
        for (label, value) in rows {
            ui.weak(*label);
            ui.label(value);
            ui.end_row();
        }
    });
}

/// The plot colour of the `i`-th series.
#[must_use]
pub fn series_color(tokens: &Tokens, i: usize) -> egui::Color32 {
    let palette = &tokens.series;
    palette.get(i % palette.len().max(1)).copied().unwrap_or(tokens.accent)
}
