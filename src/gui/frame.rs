//! The frame loop: [`AppState::logic`] (input, commands, derived data, autosave, window
//! requests) then [`AppState::ui`] (panels, which read through a [`FrameCtx`] and push
//! commands).
//!
//! Theory of operation. Each frame, `logic` turns shortcuts and files dropped on the window
//! into commands and applies every queued command through [`apply`]; what the loop itself
//! finds out (a dropped file that cannot be read, a failed autosave, a plot saved or not) is
//! a command too, applied on the spot. It then refreshes derived data that depends on more
//! than the document (the selected fit cell, [`CellDetail`]; the comparison while the compare
//! view is shown, [`crate::gui::compare::Compared`]), computes drop verdicts once per drag,
//! ticks the autosave and sends window commands (title, close). `ui` then lays out the panels
//! from that state; panels push commands, which the next frame's `logic` applies. Nothing
//! expensive happens in `ui`, and an idle app requests no repaint.

use crate::gui::apply::apply;
use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::derived::{CellDetail, DropPreview};
use crate::gui::icons::Icons;
use crate::gui::panels;
use crate::gui::state::AppState;
use crate::gui::text::fill;
use crate::gui::theme;
use crate::gui::vocab::{DragPayload, ErrorView, MainView, Notice};
use egui::{Key, KeyboardShortcut, Modifiers};
use std::path::PathBuf;

impl AppState {
    /// Applies every queued command.
    pub fn process(&mut self) {
        while !self.queue.is_empty() {
            let batch = std::mem::take(&mut self.queue);
            for c in batch {
                apply(self, c);
            }
        }
    }

    /// Input, commands, derived data, autosave, window requests. Runs before [`Self::ui`].
    pub fn logic(&mut self, ctx: &egui::Context) {
        if self.applied_theme != Some(self.prefs.theme) {
            theme::apply_choice(ctx, self.prefs.theme);
            self.applied_theme = Some(self.prefs.theme);
        }
        if self.applied_zoom != Some(self.prefs.ui_zoom) {
            // Ctrl +/−/0 are the app's own commands (so that the zoom persists in the prefs).
            ctx.options_mut(|o| o.zoom_with_keyboard = false);
            ctx.set_zoom_factor(self.prefs.ui_zoom);
            self.applied_zoom = Some(self.prefs.ui_zoom);
        }
        self.shortcuts(ctx);
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        if let Some(file) = dropped.first() {
            match file.bytes() {
                Ok(bytes) => self.push(Command::OpenBytes { path: file.path().to_path_buf(), bytes }),
                Err(e) => {
                    let message = format!("{}: {e}", file.path().display());
                    apply(self, Command::ShowError(ErrorView::new(self.texts.open_failed, message)));
                }
            }
        }
        if ctx.input(|i| i.viewport().close_requested()) && !self.view.allow_close && self.doc.is_dirty() {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.push(Command::Quit);
        }
        self.process();
        self.update_drop_preview(ctx);
        self.update_cell_detail();
        match self.prefs.main_view {
            MainView::Compare => self.refresh_comparison(),
            MainView::Advisor => self.refresh_advice(),
            MainView::Build => {}
        }
        self.refresh_accuracy();
        self.screenshots(ctx);
        self.clipboard_and_opener(ctx);
        let now = ctx.input(|i| i.time);
        match self.recovery.tick(now, self.doc.revision(), self.doc.is_dirty(), self.doc.build(), self.doc.path()) {
            Ok(Some(wait_secs)) => ctx.request_repaint_after_secs(wait_secs),
            Ok(None) => {}
            Err(e) => apply(self, Command::Notify(Notice::refused(fill(self.texts.autosave_failed, &[&e])))),
        }
        if std::mem::take(&mut self.outbox.close) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
        let title = self.title();
        if title != self.title_sent {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title_sent = title;
        }
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        const CMD: Modifiers = Modifiers::COMMAND;
        const CMD_SHIFT: Modifiers = Modifiers { shift: true, ..Modifiers::COMMAND };
        let typing = ctx.egui_wants_keyboard_input();
        let take = |m: Modifiers, k: Key| ctx.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(m, k)));
        // Most specific first: Ctrl+Shift+Z before Ctrl+Z.
        let shortcuts = [
            (CMD_SHIFT, Key::S, Command::PickSaveAs),
            (CMD, Key::S, Command::Save),
            (CMD, Key::O, Command::PickOpen),
            (CMD, Key::N, Command::New(None)),
            (CMD, Key::P, Command::PrintSheet),
        ];
        let mut found = Vec::new();
        for (m, k, c) in shortcuts {
            if take(m, k) {
                found.push(c);
            }
        }
        let zoom = self.prefs.ui_zoom;
        let step = crate::gui::prefs::ZOOM_STEP;
        if take(CMD, Key::Plus) || take(CMD, Key::Equals) {
            found.push(Command::SetZoom(zoom + step));
        }
        if take(CMD, Key::Minus) {
            found.push(Command::SetZoom(zoom - step));
        }
        if take(CMD, Key::Num0) {
            found.push(Command::SetZoom(1.0));
        }
        // While a text field has focus, undo and Delete belong to the field.
        if !typing {
            if take(CMD_SHIFT, Key::Z) || take(CMD, Key::Y) {
                found.push(Command::Redo);
            }
            if take(CMD, Key::Z) {
                found.push(Command::Undo);
            }
            if take(Modifiers::NONE, Key::Delete) {
                found.push(Command::RemoveSelected);
            }
        }
        self.queue.extend(found);
    }

    /// Evaluates the selected fit cell when the selection, its overrides or the build change.
    fn update_cell_detail(&mut self) {
        let Some(sel) = self.view.fit_cell else {
            self.cell_detail = None;
            return;
        };
        let revision = self.doc.revision();
        let overrides = self.view.fit_overrides;
        let fresh = self
            .cell_detail
            .as_ref()
            .is_some_and(|d| d.revision == revision && d.sel == sel && d.overrides == overrides);
        if !fresh {
            let pue = self.doc.build().site.pue;
            self.cell_detail = CellDetail::compute(&self.catalog, &self.derived.report, pue, revision, sel, overrides);
        }
    }

    /// Puts copied text on the clipboard, starts the opener for a file to print, and reports
    /// what the openers started earlier did.
    fn clipboard_and_opener(&mut self, ctx: &egui::Context) {
        if let Some(text) = self.outbox.copy.take() {
            ctx.copy_text(text);
        }
        if let Some(path) = self.outbox.open.take() {
            crate::gui::opener::open_in_background(&self.opener, &path, &self.opened, ctx);
        }
        let done: Vec<_> = match self.opened.lock() {
            Ok(mut r) => r.drain(..).collect(),
            Err(_) => Vec::new(),
        };
        let t = self.texts.tools;
        for (path, outcome) in done {
            let notice = match outcome {
                Ok(()) => Notice::info(&fill(t.print_opened, &[&path.display()])),
                Err(why) => {
                    log::warn!("cannot open {} for printing: {why}", path.display());
                    Notice::refused(fill(t.print_failed, &[&why, &path.display()]))
                }
            };
            apply(self, Command::Notify(notice));
        }
    }

    /// Requests the screenshot for "Save as PNG" and reports the results of earlier ones.
    fn screenshots(&mut self, ctx: &egui::Context) {
        if let Some((rect, path)) = self.outbox.screenshot.take() {
            let results = self.screenshots.clone();
            let pixels_per_point = ctx.pixels_per_point();
            let repaint = ctx.clone();
            ctx.request_screenshot(move |image| {
                let result = crate::gui::png::save_region(&image, rect, pixels_per_point, &path).map(|()| path);
                if let Ok(mut r) = results.lock() {
                    r.push(result);
                }
                repaint.request_repaint();
            });
        }
        let done: Vec<Result<PathBuf, String>> = match self.screenshots.lock() {
            Ok(mut r) => r.drain(..).collect(),
            Err(_) => Vec::new(),
        };
        for result in done {
            let command = match result {
                Ok(path) => Command::Notify(Notice::info(&fill(self.texts.plot_saved, &[&path.display()]))),
                Err(message) => Command::ShowError(ErrorView::new(self.texts.plot_save_failed, message)),
            };
            apply(self, command);
        }
    }

    /// Computes the verdict of every drop target once per drag (and again if the build
    /// changes mid-drag), so that highlighting while dragging costs nothing per frame.
    fn update_drop_preview(&mut self, ctx: &egui::Context) {
        let Some(payload) = egui::DragAndDrop::payload::<DragPayload>(ctx) else {
            self.drop_preview = None;
            return;
        };
        let fresh =
            self.drop_preview.as_ref().is_some_and(|p| p.revision == self.doc.revision() && p.payload == *payload);
        if !fresh {
            self.drop_preview =
                Some(DropPreview::compute(&self.catalog, self.doc.build(), &self.derived, (*payload).clone()));
        }
    }

    /// Lays out the whole window.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let icons = self.icons.get_or_insert_with(|| Icons::load(ui.ctx()));
        let theme = ui.ctx().theme();
        let mut fx = FrameCtx {
            catalog: &self.catalog,
            doc: &self.doc,
            derived: &self.derived,
            view: &self.view,
            prefs: &self.prefs,
            recovery: &self.recovery,
            template_names: &self.template_names,
            autosaves: &self.autosaves,
            drop_preview: self.drop_preview.as_ref(),
            cell_detail: self.cell_detail.as_ref(),
            compare: &self.compare,
            compared: self.compared.as_ref(),
            advisor: &self.advisor,
            advised: self.advised.as_ref(),
            accuracy: self.accuracy.as_ref(),
            lang: self.lang,
            texts: self.texts,
            tokens: theme::tokens(theme),
            icons,
            commands: &mut self.queue,
            hover: None,
        };
        panels::menu::ui(ui, &mut fx);
        panels::status::ui(ui, &mut fx);
        // The compare view takes the whole central area: the palette and the analysis panel
        // are about the build being edited.
        if fx.prefs.main_view == MainView::Advisor {
            panels::advisor::ui(ui, &mut fx);
            panels::accuracy::ui(ui.ctx(), &mut fx);
            panels::dialogs::ui(ui.ctx(), &mut fx);
            file_browser(ui.ctx(), &mut self.file_browser, &mut fx);
            if !self.queue.is_empty() {
                ui.ctx().request_repaint();
            }
            return;
        }
        if fx.prefs.main_view == MainView::Compare {
            egui::CentralPanel::default().show(ui, |ui| panels::compare::ui(ui, &mut fx));
            panels::accuracy::ui(ui.ctx(), &mut fx);
            panels::dialogs::ui(ui.ctx(), &mut fx);
            file_browser(ui.ctx(), &mut self.file_browser, &mut fx);
            if !self.queue.is_empty() {
                ui.ctx().request_repaint();
            }
            return;
        }
        let sides = SidePanels::for_width(ui.available_width());
        if fx.prefs.show_palette {
            egui::Panel::left("palette")
                .resizable(true)
                .default_size(sides.palette)
                .size_range(PALETTE_MIN..=sides.palette_max)
                .show(ui, |ui| self.palette.ui(ui, &mut fx));
        }
        if fx.prefs.show_analysis && !fx.view.pinned_bases.is_empty() {
            egui::Panel::right("explain")
                .resizable(true)
                .default_size(theme::EXPLAIN_PANEL_WIDTH)
                .min_size(220.0)
                .show(ui, |ui| panels::explain::side_panel(ui, &mut fx));
        }
        if fx.prefs.show_analysis {
            egui::Panel::right("analysis")
                .resizable(true)
                .default_size(sides.analysis)
                .size_range(ANALYSIS_MIN..=sides.analysis_max)
                .show(ui, |ui| panels::analysis::ui(ui, &mut fx));
        }
        egui::CentralPanel::default().show(ui, |ui| panels::canvas::ui(ui, &mut fx));
        panels::accuracy::ui(ui.ctx(), &mut fx);
        panels::dialogs::ui(ui.ctx(), &mut fx);
        file_browser(ui.ctx(), &mut self.file_browser, &mut fx);
        panels::canvas::drag_ghost(ui.ctx(), &fx);
        if !self.queue.is_empty() {
            ui.ctx().request_repaint();
        }
    }
}

/// The narrowest the palette and the analysis panel may be dragged.
const PALETTE_MIN: f32 = 240.0;
const ANALYSIS_MIN: f32 = 280.0;
/// What the side panels always leave the canvas: a node card's header (name, ×N, Duplicate,
/// Remove node) on one line, and the canvas toolbar (issue 17: layouts hold from 1280 wide).
const CANVAS_MIN: f32 = 520.0;

/// The side panels' widths for a window `width` points wide: at first show a share of the
/// window up to the theme's widths (1600 points and wider get those), and never so wide,
/// however they are dragged, that the canvas gets less than [`CANVAS_MIN`].
#[derive(Clone, Copy, Debug, PartialEq)]
struct SidePanels {
    palette: f32,
    analysis: f32,
    palette_max: f32,
    analysis_max: f32,
}

impl SidePanels {
    fn for_width(width: f32) -> Self {
        let palette = (width * 0.24).clamp(PALETTE_MIN, theme::PALETTE_WIDTH);
        let analysis = (width * 0.3).clamp(ANALYSIS_MIN, theme::ANALYSIS_WIDTH);
        // The room the canvas can give up, shared between the two panels in the ratio of their
        // defaults.
        let spare = (width - CANVAS_MIN).max(PALETTE_MIN + ANALYSIS_MIN);
        let palette_share = palette / (palette + analysis);
        Self {
            palette,
            analysis,
            palette_max: (spare * palette_share).max(PALETTE_MIN),
            analysis_max: (spare * (1.0 - palette_share)).max(ANALYSIS_MIN),
        }
    }
}

/// The built-in file browser, while it is open; its outcome becomes a command.
fn file_browser(
    ctx: &egui::Context,
    browser: &mut Option<crate::gui::file_browser::FileBrowser>,
    fx: &mut FrameCtx<'_>,
) {
    if let Some(b) = browser
        && let Some(outcome) = b.ui(ctx, fx.texts, fx.tokens.error)
    {
        fx.push(Command::FileBrowser(outcome));
    }
}
