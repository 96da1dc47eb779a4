//! Every figure explains itself: a figure row whose hover shows where the number comes from
//! (what it is, the formula, this build's numbers, the source and the confidence class), and
//! whose click pins that explanation into a side panel ([`side_panel`]), several at once, each
//! closable.
//!
//! The bases are the cached report's (`Report::basis`) and the selected fit cell's
//! (`CellDetail::bases`); nothing here computes. A figure is named by its stable key
//! (`power.wall_watts`); pinning and closing go through `Command::PinBasis` /
//! `Command::UnpinBasis` like every other view change.

use crate::core::analysis::basis::{self, Basis};
use crate::core::i18n::Lang;
use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::derived::{CellDetail, Derived};
use crate::gui::theme;
use egui::{RichText, Sense};

/// The side panel's words.
struct Words {
    heading: &'static str,
    hint: &'static str,
    close: &'static str,
    formula: &'static str,
    here: &'static str,
    source: &'static str,
    confidence: &'static str,
    gone: &'static str,
    click_to_pin: &'static str,
    select_cell: &'static str,
    finding_figures: &'static str,
}

const EN: Words = Words {
    heading: "Where the numbers come from",
    hint: "Click a figure to pin its explanation here.",
    close: "Close",
    formula: "Formula",
    here: "This build",
    source: "Source",
    confidence: "Confidence",
    gone: "This build no longer has this figure.",
    click_to_pin: "Click to pin this explanation.",
    select_cell: "Select the cell to see these formulas with its numbers.",
    finding_figures: "Where its numbers come from",
};

const ZH: Words = Words {
    heading: "数据来源",
    hint: "点击某项数据，可将其说明固定在此处。",
    close: "关闭",
    formula: "公式",
    here: "本配置",
    source: "来源",
    confidence: "可信度",
    gone: "当前配置已没有这项数据。",
    click_to_pin: "点击固定这条说明。",
    select_cell: "选中该单元格，可查看代入其数值后的公式。",
    finding_figures: "其中数据的来源",
};

fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::ZhCn => &ZH,
    }
}

/// The basis of a figure: the report's, else the selected fit cell's.
#[must_use]
pub fn basis_of<'a>(derived: &'a Derived, cell: Option<&'a CellDetail>, figure: &str) -> Option<&'a Basis> {
    basis::find(derived.report.basis(), figure).or_else(|| cell.and_then(|c| basis::find(&c.bases, figure)))
}

/// Draws one basis: what, formula, this build's numbers, source, confidence.
pub fn basis_ui(ui: &mut egui::Ui, lang: Lang, b: &Basis) {
    let w = words(lang);
    let f = basis::lookup(b.formula_id);
    let what = f.map_or(b.what, |f| f.what(lang));
    ui.label(RichText::new(what).strong());
    let row = |ui: &mut egui::Ui, name: &str, text: &str| {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(name).weak());
            ui.label(text);
        });
    };
    row(ui, w.formula, f.map_or(b.formula, |f| f.formula(lang)));
    if !b.substituted.is_empty() {
        row(ui, w.here, &b.substituted);
    }
    row(ui, w.source, f.map_or(b.source, |f| f.source(lang)));
    row(ui, w.confidence, &b.confidence_text(lang));
}

/// How a kind of figure is computed, without numbers: for a fit matrix cell, whose numbers
/// the selected cell's detail substitutes. The confidence class and, for a calibrated
/// estimate, its class's typical error over the reference set.
pub fn formulas_ui(ui: &mut egui::Ui, lang: Lang, formula_ids: &[&str]) {
    let w = words(lang);
    for f in formula_ids.iter().filter_map(|id| basis::lookup(id)) {
        ui.separator();
        ui.label(RichText::new(f.what(lang)).strong());
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(w.formula).weak());
            ui.label(f.formula(lang));
        });
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(w.source).weak());
            ui.label(f.source(lang));
        });
        // A basis without numbers: its confidence and the class's typical error.
        let confidence = Basis::new("", f.id, 0.0, "").confidence_text(lang);
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(w.confidence).weak());
            ui.label(confidence);
        });
    }
    ui.separator();
    ui.weak(w.select_cell);
}

/// Several bases, those of one formula together: what, formula, source and confidence once,
/// then this build's numbers for each figure (named by its key when there are several).
pub(super) fn grouped_ui(ui: &mut egui::Ui, lang: Lang, bases: &[&Basis]) {
    let w = words(lang);
    let mut ids: Vec<&str> = Vec::new();
    for b in bases {
        if !ids.contains(&b.formula_id) {
            ids.push(b.formula_id);
        }
    }
    for id in ids {
        let group: Vec<&&Basis> = bases.iter().filter(|b| b.formula_id == id).collect();
        let Some(first) = group.first() else { continue };
        ui.separator();
        if group.len() == 1 {
            basis_ui(ui, lang, first);
            continue;
        }
        let f = basis::lookup(id);
        ui.label(RichText::new(f.map_or(first.what, |f| f.what(lang))).strong());
        let row = |ui: &mut egui::Ui, name: &str, text: &str| {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(name).weak());
                ui.label(text);
            });
        };
        row(ui, w.formula, f.map_or(first.formula, |f| f.formula(lang)));
        for b in &group {
            // The key without its section: `wall_watts`, `nodes[0].wall_watts`.
            let short = b.figure.split_once('.').map_or(b.figure.as_str(), |(_, rest)| rest);
            row(ui, w.here, &format!("{short}: {}", b.substituted));
        }
        row(ui, w.source, f.map_or(first.source, |f| f.source(lang)));
        row(ui, w.confidence, &first.confidence_text(lang));
    }
}

/// The bases of `keys` that the build has.
fn bases_of<'a>(derived: &'a Derived, cell: Option<&'a CellDetail>, keys: &[String]) -> Vec<&'a Basis> {
    keys.iter().filter_map(|k| basis_of(derived, cell, k)).collect()
}

/// Label and value rows as [`super::plots::figures`] draws them (label and value wrap, so a
/// key value is never cut short and has no second tooltip), each value explained by the bases
/// of its keys: on hover, and pinned by a click.
pub fn figures<L: AsRef<str>>(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, id: &str, rows: &[(L, String, Vec<String>)]) {
    ui.push_id(id, |ui| {
        ui.spacing_mut().item_spacing.y = 3.0;
        for (label, value, keys) in rows {
            ui.horizontal(|ui| {
                super::plots::figure_label(ui, label.as_ref());
                if bases_of(fx.derived, fx.cell_detail, keys).is_empty() {
                    ui.add(egui::Label::new(value).wrap());
                } else {
                    let text = RichText::new(value).underline();
                    let response = ui.add(egui::Label::new(text).wrap().sense(Sense::click()));
                    hover_and_pin(fx, response, value, keys);
                }
            });
        }
    });
}

/// A value explained by the bases of `keys`: hover shows them, a click pins them. A value
/// without a basis is a plain label.
pub fn explained(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, value: &str, keys: &[String]) -> egui::Response {
    if bases_of(fx.derived, fx.cell_detail, keys).is_empty() {
        return ui.add(egui::Label::new(value).truncate()).on_hover_text(value);
    }
    let text = RichText::new(value).underline();
    let response = ui.add(egui::Label::new(text).truncate().sense(Sense::click()));
    hover_and_pin(fx, response, value, keys)
}

/// Explains a widget already laid out (a gauge, a coloured line) by the bases of `keys`:
/// its area shows them on hover and pins them on a click.
pub fn attach(ui: &egui::Ui, fx: &mut FrameCtx<'_>, response: &egui::Response, keys: &[String]) {
    attach_with_value(ui, fx, response, "", keys);
}

/// [`attach`], the hover opening with `value` (a headline's exact amount).
pub fn attach_with_value(
    ui: &egui::Ui,
    fx: &mut FrameCtx<'_>,
    response: &egui::Response,
    value: &str,
    keys: &[String],
) {
    // Only under the pointer: the report's bases are written when first asked for (issue 19),
    // and an explained line that is always on screen (the status bar) would otherwise ask on
    // every edit. The area takes hover from the next frame on, which a tooltip's delay hides.
    if !ui.rect_contains_pointer(response.rect) || bases_of(fx.derived, fx.cell_detail, keys).is_empty() {
        return;
    }
    let area = ui.interact(response.rect, response.id.with("explain"), Sense::click());
    hover_and_pin(fx, area, value, keys);
}

pub(super) fn hover_and_pin(
    fx: &mut FrameCtx<'_>,
    response: egui::Response,
    value: &str,
    keys: &[String],
) -> egui::Response {
    let (derived, cell, lang) = (fx.derived, fx.cell_detail, fx.lang);
    let bases = bases_of(derived, cell, keys);
    let response = response.on_hover_ui(|ui| {
        ui.set_max_width(theme::EXPLAIN_WIDTH);
        if !value.is_empty() {
            ui.label(value);
        }
        grouped_ui(ui, lang, &bases);
        ui.separator();
        ui.weak(words(lang).click_to_pin);
    });
    if response.clicked() {
        for b in &bases {
            if !fx.view.pinned_bases.contains(&b.figure) {
                fx.push(Command::PinBasis(b.figure.clone()));
            }
        }
    }
    response
}

/// Explains a widget by `bases` of another build than the current one (a compared build's, an
/// advisor candidate's) on hover, opening with `value`. Not pinned: the side panel's pinned
/// figures are the current build's.
pub fn hover_bases(lang: Lang, response: &egui::Response, value: &str, bases: &[&Basis]) {
    if bases.is_empty() || !response.hovered() {
        return;
    }
    response.clone().on_hover_ui(|ui| {
        ui.set_max_width(theme::EXPLAIN_WIDTH);
        if !value.is_empty() {
            ui.label(value);
        }
        grouped_ui(ui, lang, bases);
    });
}

/// Keys `prefix.field` for each field: the bases of a row that shows several figures.
#[must_use]
pub fn keys(prefix: &str, fields: &[&str]) -> Vec<String> {
    fields.iter().map(|f| format!("{prefix}.{f}")).collect()
}

/// A finding's link to the figures it quotes ([`basis::findings::figures_of`]): a small
/// underlined line whose hover explains them and whose click pins them. Nothing for a finding
/// about no computed figure.
pub fn finding_figures(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, d: &crate::core::analysis::Diagnostic) {
    let keys = basis::findings::figures_of(d, fx.derived.report.basis());
    if keys.is_empty() {
        return;
    }
    let text = RichText::new(words(fx.lang).finding_figures).small().underline();
    let response = ui.add(egui::Label::new(text).sense(Sense::click()));
    hover_and_pin(fx, response, "", &keys);
}

/// The pinned explanations, each with a close button.
pub fn side_panel(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let lang = fx.lang;
    let w = words(lang);
    ui.heading(w.heading);
    ui.weak(w.hint);
    ui.separator();
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        let pinned = fx.view.pinned_bases.clone();
        for key in &pinned {
            ui.push_id(key, |ui| {
                ui.horizontal(|ui| {
                    ui.label(RichText::new(key).monospace().small());
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        if ui.small_button(w.close).clicked() {
                            fx.push(Command::UnpinBasis(key.clone()));
                        }
                    });
                });
                match basis_of(fx.derived, fx.cell_detail, key) {
                    Some(b) => basis_ui(ui, lang, b),
                    None => {
                        ui.weak(w.gone);
                    }
                }
                ui.separator();
            });
        }
    });
}
