//! The desktop app (feature `gui`).
//!
//! Layout of the module, after egui's demo app and rerun:
//! - [`state`]: the app state and the frame loop (`logic` then `ui`);
//! - [`command`]: the command enum and the one `apply` function (undo, dirty flag, revision);
//! - [`context`]: the per-frame context panels read from;
//! - [`derived`]: the analysis report and layouts, cached on the document revision;
//! - [`compare`]: the compare view's builds and their comparison, cached on its inputs;
//! - `panels`: one file per panel (menu, palette, canvas, analysis, status, dialogs);
//! - [`theme`] (design tokens), [`text`] (all UI text), [`icons`], [`prefs`], [`recovery`].
//!
//! [`App`] wraps [`AppState`] as an `eframe::App`; tests drive the same `App` with
//! egui_kittest.

pub mod command;
pub mod compare;
pub mod context;
pub mod derived;
pub mod fuzzy;
pub mod icons;
mod panels;
pub mod png;
pub mod prefs;
pub mod recovery;
pub mod state;
pub mod text;
pub mod theme;

pub use panels::palette::{PaletteState, SortKey};
pub use state::{AppConfig, AppState};

use crate::core::catalog::Catalog;
use command::Dialogs;
use std::path::{Path, PathBuf};

/// Native file dialogs (rfd). They only produce paths; the commands take the paths.
#[derive(Debug)]
pub struct NativeDialogs {
    pub texts: &'static text::Texts,
}

impl Dialogs for NativeDialogs {
    fn pick_open(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new().add_filter(self.texts.build_file_type, &["ron"]).pick_file()
    }

    fn pick_save(&mut self, suggested: &str) -> Option<PathBuf> {
        rfd::FileDialog::new().add_filter(self.texts.build_file_type, &["ron"]).set_file_name(suggested).save_file()
    }

    fn pick_png(&mut self, suggested: &str) -> Option<PathBuf> {
        rfd::FileDialog::new().add_filter(self.texts.png_file_type, &["png"]).set_file_name(suggested).save_file()
    }

    fn pick_export(&mut self, suggested: &str, file_type: &str, extension: &str) -> Option<PathBuf> {
        rfd::FileDialog::new().add_filter(file_type, &[extension]).set_file_name(suggested).save_file()
    }
}

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
        self.state.prefs.palette_kind = self.state.palette.kind;
        self.state.prefs.compare = self.state.compare.sources();
        self.state.prefs.compare_model.clone_from(&self.state.compare.model);
        eframe::set_value(storage, prefs::PREFS_KEY, &self.state.prefs);
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
    directories::ProjectDirs::from("", "", "rigplan").map(|d| d.data_dir().join("catalog")).filter(|d| d.is_dir())
}

/// Opens the app window.
///
/// # Errors
/// The window could not be created (no display), or the catalog given with `--catalog`
/// failed to load.
pub fn run(file: Option<&Path>, catalog_dir: Option<&Path>) -> anyhow::Result<()> {
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
        file: file.map(Path::to_path_buf),
        prefs: prefs::Prefs::default(),
        recovery_dir: recovery::default_dir(),
        dialogs: Box::new(NativeDialogs { texts: &text::EN }),
        texts: &text::EN,
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
