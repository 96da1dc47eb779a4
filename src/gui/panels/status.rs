//! The status bar: file, unsaved marker, last autosave, totals.

use crate::core::analysis::Severity;
use crate::core::analysis::basis::counts::findings_key;
use crate::gui::context::FrameCtx;
use crate::gui::panels::explain;
use crate::gui::recovery::utc_clock;
use crate::gui::text::{fill, money_whole};

/// The bottom panel.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let t = fx.texts;
    let tk = fx.tokens;
    egui::Panel::bottom("status").show(ui, |ui| {
        ui.horizontal(|ui| {
            let file = fx.doc.path().map_or_else(|| t.status_not_saved.to_owned(), |p| p.display().to_string());
            ui.label(file);
            if fx.doc.is_dirty() {
                ui.colored_label(tk.warn, t.status_unsaved);
            }
            if let Some(at) = fx.recovery.last_autosave() {
                ui.separator();
                ui.weak(fill(t.status_autosaved, &[&utc_clock(at)]));
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let report = &fx.derived.report;
                let errors = report.count(Severity::Error);
                let warnings = report.count(Severity::Warning);
                let color = if errors > 0 {
                    tk.error
                } else if warnings > 0 {
                    tk.warn
                } else {
                    tk.ok
                };
                let findings = ui.colored_label(color, fill(t.status_findings, &[&errors, &warnings]));
                let keys = [Severity::Error, Severity::Warning].map(|s| findings_key(s).to_owned());
                explain::attach(ui, fx, &findings, &keys);
                ui.separator();
                ui.label(fill(t.status_capex, &[&money_whole(t, report.bom.capex, &report.currency)]));
                ui.separator();
                let totals =
                    ui.label(fill(t.status_totals, &[&t.n_nodes.count(report.nodes), &t.n_gpus.count(report.gpus)]));
                explain::attach(ui, fx, &totals, &["nodes".to_owned(), "gpus".to_owned()]);
            });
        });
    });
}
