//! The Advisor view: the requirement form on the left ([`form`]: presets, workloads, budget,
//! site, objective, limits), and on the right the answer ([`answer`]: a scatter plot of the
//! front, capex against speed, where hover shows a build's figures and a click selects it;
//! the ranked table with the builds ticked for comparison; the selected build's figures and
//! reasons with "Open as build"; the "why not" answers).
//!
//! Every widget of the form edits a copy of the requirement; a changed copy is pushed as one
//! [`crate::gui::command::Command::SetRequirement`], and `logic` runs the advisor on it before
//! the next frame. The answer renders the cached [`crate::gui::advisor::Advised`]; nothing
//! here searches.

pub mod answer;
pub mod form;

pub use answer::FRONT_PLOT_ID;

use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::vocab::MainView;

/// Width of the requirement form.
const FORM_WIDTH: f32 = 360.0;

/// The whole Advisor view (both panels).
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    egui::Panel::left("advisor-form").resizable(true).default_size(FORM_WIDTH).min_size(280.0).show(ui, |ui| {
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| form::ui(ui, fx));
    });
    egui::CentralPanel::default().show(ui, |ui| {
        super::canvas::notice(ui, fx);
        toolbar(ui, fx);
        ui.separator();
        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| answer::ui(ui, fx));
    });
}

fn toolbar(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let a = fx.texts.advisor;
    ui.horizontal_wrapped(|ui| {
        if ui.button(a.back_to_build).clicked() {
            fx.push(Command::ShowView(MainView::Build));
        }
        ui.separator();
        ui.heading(a.title);
        ui.weak(a.subtitle);
    });
}
