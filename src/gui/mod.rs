//! The desktop app (feature `gui`).
//!
//! Theory of operation, after egui's demo app, rerun and kitdiff. Each frame,
//! [`AppState::logic`] turns shortcuts and dropped files into [`command::Command`]s and
//! applies every queued command through [`apply::apply`]: the one place where the document,
//! the view state (selection, messages, dialogs) and the preferences change. When the
//! document's revision moved, `apply` recomputes the derived data (the analysis report and
//! slot layouts); `logic` refreshes the caches that depend on more than the document (drop
//! verdicts, the selected fit cell, the comparison), ticks the autosave and sends window
//! requests. [`AppState::ui`] then lays out the panels, which read one borrowed
//! [`context::FrameCtx`] and write only by pushing commands for the next frame. Nothing
//! expensive happens in `ui`, and an idle app requests no repaint.
//!
//! The modules form a layered graph with no cycle (a test reads the sources and says so).
//! From the bottom up:
//! - leaves: [`vocab`] (the small types everything shares: tabs, selections, drag payloads,
//!   notices), [`text`] (all UI text), [`fonts`] (the shipped CJK font), [`theme`] (design tokens), [`icons`], [`fuzzy`],
//!   [`png`], [`opener`] (the system's opener), [`recovery`] (autosave), [`compare`] (the compare view's builds and their
//!   comparison), [`accuracy`] (the accuracy report of Help → Accuracy…), [`file_browser`] (the built-in file browser), [`advisor`] (the advisor's requirement and its advice), [`document`] (the build with its file, undo history, dirty flag and revision);
//! - [`view`] (the view state), [`derived`] (data derived from the document), [`dialogs`] (file
//!   dialogs), [`command`] (the commands, as data), [`prefs`] (stored preferences);
//! - [`context`] (what a panel reads), then `panels` (one file per panel);
//! - [`state`] (what the app holds, and how it starts), then [`apply`] (the one mutation path),
//!   then [`frame`] (the frame loop: `logic` then `ui`);
//! - this module: [`App`] wraps [`AppState`] as an `eframe::App`; tests drive the same `App`
//!   with egui_kittest, and lay out single panels with [`context::FrameCtx::new`].

pub mod accuracy;
pub mod advisor;
pub mod apply;
pub mod command;
pub mod compare;
pub mod context;
pub mod derived;
pub mod dialogs;
pub mod document;
pub mod file_browser;
pub mod fixes;
pub mod fonts;
pub mod frame;
pub mod fuzzy;
pub mod icons;
pub mod opener;
pub mod panels;
pub mod png;
pub mod prefs;
pub mod recovery;
pub mod state;
pub mod text;
pub mod theme;
pub mod view;
pub mod vocab;

pub use panels::palette::{PaletteState, SortKey};
pub use state::{AppConfig, AppState};

use crate::core::catalog::Catalog;
use dialogs::NativeDialogs;
use std::path::{Path, PathBuf};

/// The eframe app.
pub struct App {
    state: AppState,
}

impl App {
    /// Creates the app: installs the theme, reads the preferences eframe stored.
    #[must_use]
    pub fn new(cc: &eframe::CreationContext<'_>, mut config: AppConfig) -> Self {
        theme::install(&cc.egui_ctx);
        if let Some(prefs) = cc.storage.and_then(|s| eframe::get_value::<prefs::Prefs>(s, prefs::PREFS_KEY)) {
            config.prefs = prefs;
        }
        Self { state: AppState::new(config) }
    }

    #[must_use]
    pub fn state(&self) -> &AppState {
        &self.state
    }

    pub fn state_mut(&mut self) -> &mut AppState {
        &mut self.state
    }
}

impl eframe::App for App {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.state.logic(ctx);
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.state.ui(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, prefs::PREFS_KEY, &self.state.prefs_to_store());
    }

    fn on_exit(&mut self) {
        // A clean exit: the autosave is no longer needed. If it cannot be removed, the next
        // start offers it for restore, which loses nothing.
        let _ = self.state.recovery.close();
    }
}

/// The per-user catalog folder (`~/.local/share/rigplan/catalog` on Linux), used when no
/// `--catalog` is given and the folder exists.
#[must_use]
pub fn user_catalog_dir() -> Option<PathBuf> {
    crate::core::catalog::user_folder().filter(|d| d.is_dir())
}

/// Opens the app window.
///
/// # Errors
/// The window could not be created (no display), or the catalog given with `--catalog`
/// failed to load.
pub fn run(file: Option<&Path>, catalog_dir: Option<&Path>) -> anyhow::Result<()> {
    dialogs::AppLogger::install();
    // A folder named on the command line must load; the per-user folder is optional, and a
    // problem in it is shown in the app while the built-in catalog is used.
    let (catalog, catalog_problem) = match (catalog_dir, user_catalog_dir()) {
        (Some(dir), _) => (Catalog::load_with_overlay(dir)?, None),
        (None, Some(dir)) => match Catalog::load_with_overlay(&dir) {
            Ok(c) => (c, None),
            Err(e) => (Catalog::embedded()?, Some(format!("{}: {e}", dir.display()))),
        },
        (None, None) => (Catalog::embedded()?, None),
    };
    let config = AppConfig {
        catalog,
        catalog_problem,
        user_catalog_dir: catalog_dir.map(Path::to_path_buf).or_else(crate::core::catalog::user_folder),
        file: file.map(Path::to_path_buf),
        prefs: prefs::Prefs::default(),
        recovery_dir: recovery::default_dir(),
        dialogs: Box::new(NativeDialogs { texts: &text::EN, failed: None }),
        lang: crate::core::i18n::Lang::from_env(),
    };
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("rigplan")
        .with_inner_size([1440.0, 900.0])
        .with_min_inner_size([900.0, 560.0])
        .with_drag_and_drop(true);
    match icons::window_icon() {
        Ok(icon) => viewport = viewport.with_icon(icon),
        Err(e) => eprintln!("warning: the window icon did not decode: {e}"),
    }
    let options = eframe::NativeOptions { viewport, ..Default::default() };
    eframe::run_native("rigplan", options, Box::new(|cc| Ok(Box::new(App::new(cc, config)))))
        .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))
}
