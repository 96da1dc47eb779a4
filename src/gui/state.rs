//! The app's state and its frame loop: `logic` (input, commands, derived data, autosave)
//! then `ui` (panels, which read through a [`FrameCtx`] and push commands).
//!
//! Theory of operation. Each frame, [`AppState::logic`] turns shortcuts and files dropped on
//! the window into commands, applies every queued command through [`command::apply`],
//! refreshes derived data when the document's revision moved (the analysis report and slot
//! layouts, [`Derived`]; the comparison while the compare view is shown, [`Compared`]),
//! computes drop verdicts once per drag, ticks the autosave and sends window commands (title,
//! close). [`AppState::ui`] then lays out the panels from that
//! state; panels push commands, which the next frame's `logic` applies. Nothing expensive
//! happens in `ui`, and an idle app requests no repaint.

use crate::core::build::{Build, Location};
use crate::core::catalog::Catalog;
use crate::core::persist;
use crate::core::templates;
use crate::gui::command::{self, Command, Dialogs, Document, DragPayload, LineSel, NoDialogs};
use crate::gui::compare::{CompareKey, CompareSet, Compared};
use crate::gui::context::FrameCtx;
use crate::gui::derived::{CellDetail, Derived, DropPreview, FitOverrides, FitSel};
use crate::gui::icons::Icons;
use crate::gui::panels;
use crate::gui::prefs::Prefs;
use crate::gui::recovery::{Recovered, Recovery};
use crate::gui::text::{self, Texts, fill};
use crate::gui::theme::{self, ThemeChoice};
use egui::{Key, KeyboardShortcut, Modifiers};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Tabs of the analysis panel. A tab exists only when the report has its data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum AnalysisTab {
    #[default]
    Summary,
    Issues,
    Power,
    Thermal,
    /// Memory & speed: the fit matrix.
    Fit,
    Tco,
}

impl AnalysisTab {
    pub const ALL: [Self; 6] = [Self::Summary, Self::Issues, Self::Power, Self::Thermal, Self::Fit, Self::Tco];
}

/// What the central area shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MainView {
    /// The build canvas, with the palette and the analysis panel.
    #[default]
    Build,
    /// The comparison of 2–4 builds.
    Compare,
}

/// What the canvas brings into view for the highlighted finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScrollTarget {
    Line(LineSel),
    Node(usize),
}

/// How a notice reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoticeKind {
    Info,
    /// A change that was refused; nothing changed.
    Refused,
}

/// A one-line message at the top of the canvas, until dismissed or replaced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub kind: NoticeKind,
    pub text: String,
}

impl Notice {
    #[must_use]
    pub fn info(text: &str) -> Self {
        Self { kind: NoticeKind::Info, text: text.to_owned() }
    }
}

/// An error the user must acknowledge (a file that cannot be opened or saved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorView {
    pub title: String,
    pub message: String,
}

/// An action waiting for the answer to "save changes first?".
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    New(Option<&'static str>),
    Open(PathBuf),
    OpenBytes { path: PathBuf, bytes: Vec<u8> },
    Close,
    Restore(Box<Recovered>),
}

/// View state shared by panels: selection, highlight, messages, dialogs.
#[derive(Clone, Debug)]
pub struct ViewState {
    /// Where the palette's Add button puts parts.
    pub selected_node: Location,
    pub selected_line: Option<LineSel>,
    /// Index of the finding whose parts are highlighted, in the current report.
    pub highlight: Option<usize>,
    /// Set when a finding is selected, until the canvas has scrolled to its part.
    pub scroll_to: Option<ScrollTarget>,
    pub notice: Option<Notice>,
    pub error: Option<ErrorView>,
    pub prompt: Option<Pending>,
    /// Set once the user agreed to close with unsaved changes.
    pub allow_close: bool,
    pub about_open: bool,
    /// The node group whose fit matrix the Memory & speed tab shows.
    pub fit_matrix: usize,
    pub fit_cell: Option<FitSel>,
    pub fit_overrides: FitOverrides,
}

impl Default for ViewState {
    fn default() -> Self {
        Self {
            selected_node: Location::Node(0),
            selected_line: None,
            highlight: None,
            scroll_to: None,
            notice: None,
            error: None,
            prompt: None,
            allow_close: false,
            about_open: false,
            fit_matrix: 0,
            fit_cell: None,
            fit_overrides: FitOverrides::default(),
        }
    }
}

impl ViewState {
    /// Clears what referred to the previous document.
    pub fn reset_for_new_document(&mut self) {
        self.selected_node = Location::Node(0);
        self.selected_line = None;
        self.highlight = None;
        self.scroll_to = None;
    }
}

/// Requests for the window, sent at the end of `logic`.
#[derive(Clone, Debug, Default)]
pub struct Outbox {
    pub close: bool,
    /// A screen region to save as PNG, and where.
    pub screenshot: Option<(egui::Rect, PathBuf)>,
}

/// Results of screenshots taken for "Save as PNG", filled by the screenshot callback.
pub type ScreenshotResults = std::sync::Arc<std::sync::Mutex<Vec<Result<PathBuf, String>>>>;

/// What the app starts with.
pub struct AppConfig {
    pub catalog: Catalog,
    /// A problem with the user catalog folder, shown at start (the embedded catalog is used).
    pub catalog_problem: Option<String>,
    /// A build file to open (`rigplan FILE`).
    pub file: Option<PathBuf>,
    pub prefs: Prefs,
    /// The autosave folder; None disables autosave (tests that do not need it).
    pub recovery_dir: Option<PathBuf>,
    pub dialogs: Box<dyn Dialogs>,
    pub texts: &'static Texts,
}

impl AppConfig {
    /// The embedded catalog, no file, default preferences, no autosave, no dialogs.
    ///
    /// # Errors
    /// The embedded catalog does not load (a build defect).
    pub fn headless() -> Result<Self, crate::core::catalog::CatalogError> {
        Ok(Self {
            catalog: Catalog::embedded()?,
            catalog_problem: None,
            file: None,
            prefs: Prefs::default(),
            recovery_dir: None,
            dialogs: Box::new(NoDialogs),
            texts: &text::EN,
        })
    }
}

/// Everything the app holds.
pub struct AppState {
    pub catalog: Catalog,
    pub doc: Document,
    pub derived: Derived,
    pub view: ViewState,
    pub prefs: Prefs,
    pub palette: panels::palette::PaletteState,
    /// The builds of the compare view.
    pub compare: CompareSet,
    /// Their comparison, computed in `logic` while the compare view is shown.
    pub compared: Option<Compared>,
    pub recovery: Recovery,
    pub drop_preview: Option<DropPreview>,
    /// The selected fit cell under the user's overrides, computed in `logic`.
    pub cell_detail: Option<CellDetail>,
    pub queue: Vec<Command>,
    pub outbox: Outbox,
    pub dialogs: Box<dyn Dialogs>,
    pub texts: &'static Texts,
    /// The template builds (slug, build name), for File → New from template.
    pub template_names: Vec<(&'static str, String)>,
    icons: Option<Icons>,
    screenshots: ScreenshotResults,
    applied_theme: Option<ThemeChoice>,
    title_sent: String,
}

impl AppState {
    /// Starts the app: opens the file given on the command line, else the build that was open
    /// last time, else a new build; looks for a recovery copy left by a crash.
    #[must_use]
    pub fn new(config: AppConfig) -> Self {
        let AppConfig { catalog, catalog_problem, file, prefs, recovery_dir, dialogs, texts } = config;
        let mut view = ViewState::default();
        let mut prefs = prefs;
        if let Some(problem) = catalog_problem {
            view.error = Some(ErrorView { title: texts.catalog_failed.to_owned(), message: problem });
        }
        let mut doc = None;
        if let Some(path) = file {
            match persist::load_build(&path) {
                Ok(b) => {
                    prefs.last_build = Some(path.clone());
                    doc = Some(Document::new(b, Some(path)));
                }
                Err(e) => view.error = Some(ErrorView { title: texts.open_failed.to_owned(), message: e.to_string() }),
            }
        } else if let Some(path) = prefs.last_build.clone() {
            match persist::load_build(&path) {
                Ok(b) => doc = Some(Document::new(b, Some(path))),
                Err(e) => view.notice = Some(Notice::info(&fill(texts.reopen_failed, &[&e]))),
            }
        }
        // A first start (or a last build that is gone): the entry workstation template, so that
        // there is something to look at and change.
        let doc = doc.unwrap_or_else(|| {
            let start = templates::find(templates::DEFAULT_TEMPLATE).and_then(|t| t.load().ok());
            Document::new(start.unwrap_or_else(|| Build::new(texts.untitled_build)), None)
        });
        let template_names =
            templates::TEMPLATES.iter().filter_map(|t| t.load().ok().map(|b| (t.slug, b.name))).collect();
        let mut recovery = Recovery::new(recovery_dir);
        if let Err(e) = recovery.scan() {
            view.error = Some(ErrorView { title: texts.recovery_failed.to_owned(), message: e });
        }
        let derived = Derived::compute(&catalog, doc.build(), doc.revision());
        let palette = panels::palette::PaletteState::new(&catalog, prefs.palette_kind, texts);
        let (compare, left_out) = CompareSet::from_sources(&prefs.compare, prefs.compare_model.clone());
        if !left_out.is_empty() && view.notice.is_none() {
            view.notice = Some(Notice {
                kind: NoticeKind::Refused,
                text: left_out.iter().map(|e| fill(texts.compare_left_out, &[e])).collect::<Vec<_>>().join("\n"),
            });
        }
        Self {
            catalog,
            doc,
            derived,
            view,
            prefs,
            palette,
            compare,
            compared: None,
            recovery,
            drop_preview: None,
            cell_detail: None,
            queue: Vec::new(),
            screenshots: ScreenshotResults::default(),
            outbox: Outbox::default(),
            dialogs,
            texts,
            template_names,
            icons: None,
            applied_theme: None,
            title_sent: String::new(),
        }
    }

    /// Queues a command for the next `logic`.
    pub fn push(&mut self, command: Command) {
        self.queue.push(command);
    }

    /// Applies every queued command.
    pub fn process(&mut self) {
        while !self.queue.is_empty() {
            let batch = std::mem::take(&mut self.queue);
            for c in batch {
                command::apply(self, c);
            }
        }
    }

    /// Called by [`command::apply`] after the build changed.
    pub fn after_document_change(&mut self) {
        self.derived = Derived::compute(&self.catalog, self.doc.build(), self.doc.revision());
        self.view.highlight = None;
        self.view.scroll_to = None;
        self.drop_preview = None;
        if let Some(sel) = self.view.selected_line {
            let exists = self.doc.build().lines(sel.at).is_some_and(|l| sel.line < l.len());
            if !exists {
                self.view.selected_line = None;
            }
        }
        let node_exists = match self.view.selected_node {
            Location::Node(i) => i < self.doc.build().nodes.len(),
            Location::Cluster => true,
        };
        if !node_exists {
            self.view.selected_node = Location::Node(0);
        }
    }

    /// The window title: build name, unsaved marker, app name.
    #[must_use]
    pub fn title(&self) -> String {
        let marker = if self.doc.is_dirty() { self.texts.unsaved_marker } else { "" };
        fill(self.texts.window_title, &[&self.doc.build().name, &marker])
    }

    /// Input, commands, derived data, autosave, window requests. Runs before [`Self::ui`].
    pub fn logic(&mut self, ctx: &egui::Context) {
        if self.applied_theme != Some(self.prefs.theme) {
            theme::apply_choice(ctx, self.prefs.theme);
            self.applied_theme = Some(self.prefs.theme);
        }
        self.shortcuts(ctx);
        let dropped = ctx.input(|i| i.raw.dropped_files.clone());
        if let Some(file) = dropped.first() {
            match file.bytes() {
                Ok(bytes) => self.push(Command::OpenBytes { path: file.path().to_path_buf(), bytes }),
                Err(e) => {
                    self.view.error = Some(ErrorView {
                        title: self.texts.open_failed.to_owned(),
                        message: format!("{}: {e}", file.path().display()),
                    });
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
        if self.prefs.main_view == MainView::Compare {
            self.refresh_comparison();
        }
        self.screenshots(ctx);
        let now = ctx.input(|i| i.time);
        match self.recovery.tick(now, self.doc.revision(), self.doc.is_dirty(), self.doc.build(), self.doc.path()) {
            Ok(Some(wait_secs)) => ctx.request_repaint_after_secs(wait_secs),
            Ok(None) => {}
            Err(e) => {
                self.view.notice =
                    Some(Notice { kind: NoticeKind::Refused, text: fill(self.texts.autosave_failed, &[&e]) });
            }
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
        ];
        let mut found = Vec::new();
        for (m, k, c) in shortcuts {
            if take(m, k) {
                found.push(c);
            }
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
            self.cell_detail = CellDetail::compute(&self.catalog, &self.derived.report, revision, sel, overrides);
        }
    }

    /// Compares the compare view's builds again if they, their model or (for a set holding the
    /// current build) the document changed since the last comparison.
    pub fn refresh_comparison(&mut self) {
        let key = CompareKey::of(&self.compare, self.doc.revision());
        if self.compared.as_ref().is_none_or(|c| c.key != key) {
            self.compared = Some(Compared::compute(&self.catalog, &self.compare, self.doc.build(), key));
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
            match result {
                Ok(path) => self.view.notice = Some(Notice::info(&fill(self.texts.plot_saved, &[&path.display()]))),
                Err(message) => {
                    self.view.error = Some(ErrorView { title: self.texts.plot_save_failed.to_owned(), message });
                }
            }
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
            drop_preview: self.drop_preview.as_ref(),
            cell_detail: self.cell_detail.as_ref(),
            compare: &self.compare,
            compared: self.compared.as_ref(),
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
        if fx.prefs.main_view == MainView::Compare {
            egui::CentralPanel::default().show(ui, |ui| panels::compare::ui(ui, &mut fx));
            panels::dialogs::ui(ui.ctx(), &mut fx);
            if !self.queue.is_empty() {
                ui.ctx().request_repaint();
            }
            return;
        }
        if fx.prefs.show_palette {
            egui::Panel::left("palette")
                .resizable(true)
                .default_size(theme::PALETTE_WIDTH)
                .min_size(240.0)
                .show(ui, |ui| self.palette.ui(ui, &mut fx));
        }
        if fx.prefs.show_analysis {
            egui::Panel::right("analysis")
                .resizable(true)
                .default_size(theme::ANALYSIS_WIDTH)
                .min_size(260.0)
                .show(ui, |ui| panels::analysis::ui(ui, &mut fx));
        }
        egui::CentralPanel::default().show(ui, |ui| panels::canvas::ui(ui, &mut fx));
        panels::dialogs::ui(ui.ctx(), &mut fx);
        panels::canvas::drag_ghost(ui.ctx(), &fx);
        if !self.queue.is_empty() {
            ui.ctx().request_repaint();
        }
    }
}
