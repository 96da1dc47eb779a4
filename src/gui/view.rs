//! The view state panels share: the selection, the highlighted finding, the messages, the
//! question waiting for an answer, the dialogs that are open and the fit cell being examined.
//! Panels read it through the frame context; only [`crate::gui::apply`] changes it.

use crate::core::build::Location;
use crate::gui::recovery::Recovered;
use crate::gui::vocab::{ErrorView, FitOverrides, FitSel, LineSel, Notice, ScrollTarget};
use std::path::PathBuf;

/// An action waiting for the answer to "save changes first?".
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    New(Option<&'static str>),
    Open(PathBuf),
    OpenBytes {
        path: PathBuf,
        bytes: Vec<u8>,
    },
    Close,
    Restore(Box<Recovered>),
    /// Open an advisor candidate (its rank, its build) as a new unsaved build.
    Adopt(usize, Box<crate::core::build::Build>),
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
    /// Help → Accuracy…: the accuracy window is open.
    pub accuracy_open: bool,
    /// File → Catalog folders…: its window is open.
    pub catalog_folders_open: bool,
    /// The node group whose fit matrix the Memory & speed tab shows.
    pub fit_matrix: usize,
    pub fit_cell: Option<FitSel>,
    pub fit_overrides: FitOverrides,
    /// The outcome of the last price-list import, shown until dismissed.
    pub import_report: Option<crate::core::catalog::price_list::FolderImport>,
    /// The figures (basis keys, `power.wall_watts`) whose explanations are pinned in the side
    /// panel, in the order they were pinned.
    pub pinned_bases: Vec<String>,
    /// What "save changes first?" was asked for, while the built-in file browser asks where to
    /// save: done once the build is saved there, dropped if the browser is cancelled.
    pub after_save: Option<Pending>,
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
            accuracy_open: false,
            catalog_folders_open: false,
            fit_matrix: 0,
            fit_cell: None,
            fit_overrides: FitOverrides::default(),
            import_report: None,
            pinned_bases: Vec::new(),
            after_save: None,
        }
    }
}

/// Most figure explanations pinned at once: more would scroll past what a side panel shows.
pub const MAX_PINNED_BASES: usize = 12;

impl ViewState {
    /// Pins a figure's explanation, once, up to [`MAX_PINNED_BASES`].
    pub fn pin_basis(&mut self, key: String) {
        if !self.pinned_bases.contains(&key) && self.pinned_bases.len() < MAX_PINNED_BASES {
            self.pinned_bases.push(key);
        }
    }

    /// Clears what referred to the previous document.
    pub fn reset_for_new_document(&mut self) {
        self.selected_node = Location::Node(0);
        self.selected_line = None;
        self.highlight = None;
        self.scroll_to = None;
    }
}
