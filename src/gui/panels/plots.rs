//! Shared pieces of the plot tabs: a plot with a "Save as PNG…" button, figures in a grid.

use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::theme::{self, Tokens};
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

/// Label and value rows. The label column has a fixed width (not a `Grid`, which needs an
/// extra layout pass whenever its rows change), and long values are cut to the panel, in full
/// on hover, so that they never widen it.
pub fn figures<L: AsRef<str>>(ui: &mut egui::Ui, id: &str, rows: &[(L, String)]) {
    ui.push_id(id, |ui| {
        ui.spacing_mut().item_spacing.y = 3.0;
        for (label, value) in rows {
            ui.horizontal(|ui| {
                let height = ui.spacing().interact_size.y;
                ui.allocate_ui_with_layout(
                    egui::vec2(theme::FIGURE_LABEL_WIDTH, height),
                    egui::Layout::left_to_right(egui::Align::Center),
                    |ui| {
                        ui.set_min_width(theme::FIGURE_LABEL_WIDTH);
                        ui.add(egui::Label::new(egui::RichText::new(label.as_ref()).weak()).truncate());
                    },
                );
                ui.add(egui::Label::new(value).truncate()).on_hover_text(value);
            });
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
