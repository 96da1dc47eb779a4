//! Help → Accuracy…: a window with how rigplan's estimates fare against published
//! measurements — each class in one line ("Decode speed: mean error 6.3 % over 29
//! measurements, worst 19.5 % (id)") with whether it passes, what it covers and its threshold,
//! how to read an error, and (collapsed) every measurement with its figures and source. The
//! report is the shipped one (the built-in catalog, which the figures' typical errors quote);
//! when the user's catalog folders move an estimate, the classes they move follow on the
//! user's catalog, under their own heading. It
//! draws the [`crate::gui::accuracy::AccuracyView`] computed in `logic`; closing it pushes
//! [`Command::ShowAccuracy`].

use crate::gui::accuracy::AccuracyView;
use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::text::fill;
use egui::{Id, RichText};

/// Height of the measurements table; it scrolls past it.
const TABLE_HEIGHT: f32 = 320.0;

/// Widest a column of the table grows (the id and what columns are cut short, with the whole
/// text and the source on hover), so that the figures stay in view.
const COLUMN_WIDTH: f32 = 210.0;

/// The accuracy window, while it is open and its report computed.
pub fn ui(ctx: &egui::Context, fx: &mut FrameCtx<'_>) {
    if !fx.view.accuracy_open {
        return;
    }
    let Some(view) = fx.accuracy else { return };
    let t = fx.texts.accuracy;
    let mut open = true;
    egui::Window::new(t.title)
        .id(Id::unique("accuracy-window"))
        .open(&mut open)
        .default_width(860.0)
        .default_height(760.0)
        .resizable(true)
        .vscroll(true)
        .show(ctx, |ui| contents(ui, fx, view));
    if !open {
        fx.push(Command::ShowAccuracy(false));
    }
}

fn contents(ui: &mut egui::Ui, fx: &FrameCtx<'_>, view: &AccuracyView) {
    let t = fx.texts.accuracy;
    let tokens = fx.tokens;
    if let Some(e) = &view.failed {
        ui.label(RichText::new(fill(t.failed, &[e])).color(tokens.error));
        return;
    }
    ui.label(fill(t.intro, &[&view.measurements]));
    ui.add_space(6.0);
    for line in &view.classes {
        ui.horizontal_wrapped(|ui| {
            let (verdict, color) = if line.passes { (t.pass, tokens.ok) } else { (t.fail, tokens.error) };
            ui.label(RichText::new(&line.summary).strong());
            ui.label(RichText::new(verdict).color(color));
        });
        ui.weak(fill(t.class_detail, &[&line.meaning, &line.threshold]));
        ui.add_space(2.0);
    }
    if let Some(yours) = &view.with_catalog {
        ui.add_space(4.0);
        ui.label(RichText::new(t.with_catalog_title).strong().color(tokens.warn));
        ui.label(fill(t.with_catalog_note, &[&yours.changed]));
        for line in &yours.classes {
            ui.horizontal_wrapped(|ui| {
                let (verdict, color) = if line.passes { (t.pass, tokens.ok) } else { (t.fail, tokens.error) };
                ui.label(RichText::new(fill(t.with_catalog_line, &[&line.summary])).strong());
                ui.label(RichText::new(verdict).color(color));
            });
        }
    }
    ui.add_space(4.0);
    let failing: Vec<&str> = view.classes.iter().filter(|c| !c.passes).map(|c| c.class.name(view.lang)).collect();
    if failing.is_empty() && view.accuracy.errors.is_empty() {
        ui.label(RichText::new(t.all_pass).color(tokens.ok));
    } else if !failing.is_empty() {
        let separator = if view.lang == crate::core::i18n::Lang::ZhCn { "、" } else { ", " };
        ui.label(RichText::new(fill(t.failing, &[&failing.join(separator)])).color(tokens.error));
    }
    if !view.accuracy.errors.is_empty() {
        ui.label(RichText::new(t.errors_title).color(tokens.warn));
        for e in &view.accuracy.errors {
            ui.monospace(e);
        }
    }
    ui.add_space(4.0);
    ui.label(t.how_to_read);
    ui.add_space(6.0);
    egui::CollapsingHeader::new(fill(t.measurements, &[&view.rows.len()]))
        .id_salt("accuracy-measurements")
        .default_open(false)
        .show(ui, |ui| table(ui, fx, view));
}

/// Every measurement: id, what, measured, estimated, error, tolerance and pass/fail (words:
/// the shipped fonts have no check mark); the whole description and the source on hover of the
/// id and what.
fn table(ui: &mut egui::Ui, fx: &FrameCtx<'_>, view: &AccuracyView) {
    let t = fx.texts.accuracy;
    let tokens = fx.tokens;
    egui::ScrollArea::both().id_salt("accuracy-table").max_height(TABLE_HEIGHT).show(ui, |ui| {
        egui::Grid::new("accuracy-rows").striped(true).num_columns(7).max_col_width(COLUMN_WIDTH).show(ui, |ui| {
            for h in t.columns {
                ui.strong(h);
            }
            ui.label("");
            ui.end_row();
            for row in &view.rows {
                let hover = format!("{}\n{}", row.what, fill(t.source, &[&row.source]));
                ui.add(egui::Label::new(RichText::new(&row.id).monospace()).truncate()).on_hover_text(&hover);
                ui.add(egui::Label::new(&row.what).truncate()).on_hover_text(&hover);
                ui.label(&row.measured);
                ui.label(&row.estimated);
                let color = if row.holds { tokens.ok } else { tokens.error };
                ui.label(RichText::new(&row.error).color(color));
                ui.label(&row.tolerance);
                ui.label(RichText::new(if row.holds { t.pass } else { t.fail }).color(color));
                ui.end_row();
            }
        });
    });
}
