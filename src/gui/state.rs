//! What the app holds ([`AppState`]) and what it starts with ([`AppConfig`]).
//!
//! [`AppState::new`] builds the first state (the file to open, the recovery scan, the compare
//! view's builds, and the messages about any of them); from then on only
//! [`crate::gui::apply::apply`] changes the document, the view state and the preferences, and
//! the frame loop in [`crate::gui::frame`] refreshes the caches derived from them.

use crate::core::catalog::Catalog;
use crate::core::i18n::Lang;
use crate::core::persist;
use crate::core::templates;
use crate::gui::accuracy::AccuracyView;
use crate::gui::advisor::{Advised, AdvisorState};
use crate::gui::command::Command;
use crate::gui::compare::{CompareKey, CompareSet, Compared};
use crate::gui::derived::{CellDetail, Derived, DropPreview};
use crate::gui::dialogs::{Dialogs, NoDialogs};
use crate::gui::document::Document;
use crate::gui::icons::Icons;
use crate::gui::panels::palette::PaletteState;
use crate::gui::prefs::Prefs;
use crate::gui::recovery::Recovery;
use crate::gui::text::{self, Texts, fill};
use crate::gui::theme::ThemeChoice;
use crate::gui::view::ViewState;
use crate::gui::vocab::{ErrorView, Notice, NoticeKind};
use std::path::PathBuf;

/// The tabs and views, under the names they had when they lived here.
pub use crate::gui::vocab::{AnalysisTab, MainView};

/// Requests for the window, sent at the end of `logic`.
#[derive(Clone, Debug, Default)]
pub struct Outbox {
    pub close: bool,
    /// A screen region to save as PNG, and where.
    pub screenshot: Option<(egui::Rect, PathBuf)>,
    /// Text to put on the clipboard.
    pub copy: Option<String>,
    /// A file to open with the system's opener (the build sheet to print).
    pub open: Option<PathBuf>,
}

/// Results of screenshots taken for "Save as PNG", filled by the screenshot callback.
pub type ScreenshotResults = std::sync::Arc<std::sync::Mutex<Vec<Result<PathBuf, String>>>>;

/// What the app starts with.
pub struct AppConfig {
    pub catalog: Catalog,
    /// A problem with the user catalog folder, shown at start (the embedded catalog is used).
    pub catalog_problem: Option<String>,
    /// The user catalog folder (`--catalog DIR`, else the per-user catalog folder, created
    /// when first written): models added from a config.json go to its `models.ron`, imported
    /// price lists to its `prices.ron`. None: neither is offered a place (headless runs).
    pub user_catalog_dir: Option<PathBuf>,
    /// A build file to open (`rigplan FILE`).
    pub file: Option<PathBuf>,
    pub prefs: Prefs,
    /// The autosave folder; None disables autosave (tests that do not need it).
    pub recovery_dir: Option<PathBuf>,
    pub dialogs: Box<dyn Dialogs>,
    /// The language to start in when the preferences name none (the system locale in the
    /// app, English in tests).
    pub lang: Lang,
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
            user_catalog_dir: None,
            file: None,
            prefs: Prefs::default(),
            recovery_dir: None,
            dialogs: Box::new(NoDialogs),
            lang: Lang::En,
        })
    }
}

/// The folders laid over the built-in catalog, in order: the user catalog folder when it
/// exists, then the folders of File → Catalog folders… (each once).
#[must_use]
pub fn catalog_dirs(user_dir: Option<&std::path::Path>, folders: &[PathBuf]) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> =
        user_dir.filter(|d| d.is_dir()).map(std::path::Path::to_path_buf).into_iter().collect();
    for d in folders {
        if !dirs.contains(d) {
            dirs.push(d.clone());
        }
    }
    dirs
}

/// Everything the app holds.
pub struct AppState {
    pub catalog: Catalog,
    /// The user catalog folder (`--catalog DIR`, else the per-user folder): where models added
    /// from a config.json and imported price lists go ([`AppConfig::user_catalog_dir`]).
    pub user_catalog_dir: Option<PathBuf>,
    pub doc: Document,
    pub derived: Derived,
    pub view: ViewState,
    pub prefs: Prefs,
    pub palette: PaletteState,
    /// The builds of the compare view.
    pub compare: CompareSet,
    /// Their comparison, computed in `logic` while the compare view is shown.
    pub compared: Option<Compared>,
    pub recovery: Recovery,
    /// The advisor's requirement and what the user picked among its answers.
    pub advisor: AdvisorState,
    /// Its advice, computed in `logic` while the Advisor view is shown.
    pub advised: Option<Advised>,
    /// The accuracy report of Help → Accuracy…, computed in `logic` when the window is first
    /// opened and kept until the catalog is reloaded.
    pub accuracy: Option<AccuracyView>,
    pub drop_preview: Option<DropPreview>,
    /// The selected fit cell under the user's overrides, computed in `logic`.
    pub cell_detail: Option<CellDetail>,
    pub queue: Vec<Command>,
    pub outbox: Outbox,
    pub dialogs: Box<dyn Dialogs>,
    /// The builds in the autosave folder (this instance's and crashed ones'), newest first,
    /// read when the compare view is shown, for its "Add build ▸ Autosaves".
    pub autosaves: Vec<crate::gui::recovery::Autosave>,
    /// The built-in file browser, while it is open.
    pub file_browser: Option<crate::gui::file_browser::FileBrowser>,
    /// The UI language; `texts` is its table.
    pub lang: Lang,
    pub texts: &'static Texts,
    /// The template builds (slug, build name), for File → New from template.
    pub template_names: Vec<(&'static str, String)>,
    pub(crate) icons: Option<Icons>,
    pub(crate) screenshots: ScreenshotResults,
    pub(crate) applied_theme: Option<ThemeChoice>,
    pub(crate) applied_zoom: Option<f32>,
    /// The system's opener (program and arguments), for printing the build sheet; tests set
    /// their own.
    pub opener: Vec<String>,
    pub(crate) opened: crate::gui::opener::OpenResults,
    pub(crate) title_sent: String,
}

impl AppState {
    /// Starts the app: opens the file given on the command line, else the build that was open
    /// last time, else a new build; looks for a recovery copy left by a crash.
    #[must_use]
    pub fn new(config: AppConfig) -> Self {
        let AppConfig { catalog, catalog_problem, user_catalog_dir, file, prefs, recovery_dir, mut dialogs, lang } =
            config;
        let lang = prefs.lang.unwrap_or(lang);
        let texts = text::for_lang(lang);
        dialogs.set_texts(texts);
        let mut view = ViewState::default();
        let mut prefs = prefs;
        if let Some(problem) = catalog_problem {
            view.error = Some(ErrorView { title: texts.catalog_failed.to_owned(), message: problem });
        }
        // The folders of File → Catalog folders… are laid over the catalog given at start; a
        // catalog that no longer loads with them is shown, and the one given is used.
        let mut catalog = catalog;
        if !prefs.catalog_folders.is_empty() {
            match Catalog::load_with_overlays(&catalog_dirs(user_catalog_dir.as_deref(), &prefs.catalog_folders)) {
                Ok(c) => catalog = c,
                Err(e) => {
                    view.error = Some(ErrorView { title: texts.catalog_failed.to_owned(), message: e.to_string() });
                }
            }
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
            Document::new(start.unwrap_or_else(|| text::blank_build(texts)), None)
        });
        let template_names =
            templates::TEMPLATES.iter().filter_map(|t| t.load().ok().map(|b| (t.slug, b.name))).collect();
        let mut recovery = Recovery::new(recovery_dir);
        if let Err(e) = recovery.scan() {
            view.error = Some(ErrorView { title: texts.recovery_failed.to_owned(), message: e });
        }
        let mut derived = Derived::compute(&catalog, doc.build(), doc.revision());
        derived.date_prices(prefs.stale_after_months);
        derived.localize(lang);
        let palette = PaletteState::new(&catalog, prefs.palette_kind, texts);
        let prefs_compare = prefs.main_view == crate::gui::vocab::MainView::Compare;
        let autosaves = if prefs_compare { recovery.autosaves() } else { Vec::new() };
        let (compare, left_out) = CompareSet::from_sources(&prefs.compare, prefs.compare_model.clone());
        if !left_out.is_empty() && view.notice.is_none() {
            view.notice = Some(Notice {
                kind: NoticeKind::Refused,
                text: left_out.iter().map(|e| fill(texts.compare_left_out, &[e])).collect::<Vec<_>>().join("\n"),
            });
        }
        Self {
            catalog,
            user_catalog_dir,
            doc,
            derived,
            view,
            prefs,
            palette,
            compare,
            compared: None,
            recovery,
            advisor: AdvisorState::default(),
            advised: None,
            accuracy: None,
            drop_preview: None,
            cell_detail: None,
            queue: Vec::new(),
            screenshots: ScreenshotResults::default(),
            outbox: Outbox::default(),
            dialogs,
            file_browser: None,
            autosaves,
            lang,
            texts,
            template_names,
            icons: None,
            applied_theme: None,
            applied_zoom: None,
            opener: crate::gui::opener::system_opener(),
            opened: crate::gui::opener::OpenResults::default(),
            title_sent: String::new(),
        }
    }

    /// Switches every text of the app to `lang` at once (View → Language) and remembers the
    /// choice: the text table, the file dialogs' type names, the palette's filter values and
    /// the findings of the current report. Nothing of the build changes.
    pub fn set_language(&mut self, lang: Lang) {
        self.prefs.lang = Some(lang);
        if self.lang == lang {
            return;
        }
        self.lang = lang;
        self.texts = text::for_lang(lang);
        self.dialogs.set_texts(self.texts);
        self.palette.relabel(&self.catalog, self.texts);
        self.derived.localize(lang);
        if let Some(a) = self.accuracy.as_mut() {
            a.localize(lang);
        }
    }

    /// Queues a command for the next `logic`.
    pub fn push(&mut self, command: Command) {
        self.queue.push(command);
    }

    /// The window title: build name, unsaved marker, app name.
    #[must_use]
    pub fn title(&self) -> String {
        let marker = if self.doc.is_dirty() { self.texts.unsaved_marker } else { "" };
        fill(self.texts.window_title, &[&self.doc.build().name, &marker])
    }

    /// Compares the compare view's builds again if they, their model or (for a set holding the
    /// current build) the document changed since the last comparison.
    pub fn refresh_comparison(&mut self) {
        let key = CompareKey::of(&self.compare, self.doc.revision(), self.lang);
        if self.compared.as_ref().is_none_or(|c| c.key != key) {
            let mut compared = Compared::compute(&self.catalog, &self.compare, self.doc.build(), key);
            compared.rescale(self.prefs.compare_scale);
            self.compared = Some(compared);
        }
        if let Some(c) = self.compared.as_mut()
            && c.scale != self.prefs.compare_scale
        {
            c.rescale(self.prefs.compare_scale);
        }
    }

    /// Runs the advisor again if its requirement changed since the last advice.
    pub fn refresh_advice(&mut self) {
        if self.advised.as_ref().is_none_or(|a| a.revision != self.advisor.revision()) {
            self.advised = Some(Advised::compute(&self.catalog, &self.advisor));
        }
    }

    /// Computes the accuracy report the first time the accuracy window is open (see
    /// [`crate::gui::accuracy`]); afterwards it is kept.
    pub fn refresh_accuracy(&mut self) {
        if self.view.accuracy_open && self.accuracy.is_none() {
            self.accuracy = Some(AccuracyView::compute(&self.catalog, self.lang));
        }
    }

    /// The preferences to store at exit: the preferences with the palette's category and the
    /// compare view's builds as they are now (those live with their panels, not in `prefs`).
    #[must_use]
    pub fn prefs_to_store(&self) -> Prefs {
        Prefs {
            palette_kind: self.palette.kind,
            compare: self.compare.sources(),
            compare_model: self.compare.model.clone(),
            ..self.prefs.clone()
        }
    }
}
