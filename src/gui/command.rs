//! Commands: everything that changes the app, as data.
//!
//! Panels never change state: they push a [`Command`] while they lay themselves out, the frame
//! loop turns shortcuts, dropped files and its own findings (a failed autosave, a saved plot)
//! into commands too, and [`crate::gui::apply::apply`] carries each one out at the start of the
//! next frame. This module holds only the commands and their arguments; it names no state.

use crate::core::advisor::{Preset, Requirement};
use crate::core::build::{CustomOffer, Location};
use crate::core::catalog::PartId;
use crate::core::export::{CompareFormat, Format};
use crate::core::i18n::Lang;
use crate::gui::file_browser::Outcome;
use crate::gui::theme::ThemeChoice;
use crate::gui::vocab::{AnalysisTab, ErrorView, FitOverrides, FitSel, MainView, Notice};
use std::path::PathBuf;

/// The file dialogs, under the name they had when they lived here.
pub use crate::gui::dialogs::Dialogs;
/// Vocabulary that commands carry, under the names it had when it lived here.
pub use crate::gui::vocab::{DragPayload, DropTarget, LineSel};

/// The answer to "save changes first?".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptChoice {
    Save,
    Discard,
    Cancel,
}

/// A site or usage setting edited in the analysis panel.
#[derive(Clone, Debug, PartialEq)]
pub enum Setting {
    /// Inlet air temperature, °C.
    AmbientC(f64),
    /// Electricity price per kWh, in the build's currency.
    ElectricityPerKwh(f64),
    Pue(f64),
    /// Average utilization, 0–1.
    Utilization(f64),
    HorizonYears(f64),
    /// ISO 4217 currency code.
    Currency(String),
    /// Units of the build's currency per USD.
    UsdExchangeRate(f64),
    /// Circuit voltage, V (phase-to-neutral single-phase, line-to-line three-phase).
    CircuitVolts(f64),
    /// Circuit breaker rating, A.
    CircuitAmps(f64),
    /// 1 (single-phase outlet) or 3 (three-phase rack feed).
    CircuitPhases(u8),
    /// The yearly owned cost entered as one figure, in the build's currency; None computes
    /// energy and maintenance from the build.
    AnnualOwnedCost(Option<f64>),
    /// The entered yearly owned cost already includes depreciation.
    AnnualCostIncludesDepreciation(bool),
    /// The cloud offer the TCO compares against (`<offer id>` or `<offer id>:<term>`); None
    /// picks the cheapest matching on-demand offer.
    ChosenOffer(Option<String>),
    /// Replace custom cloud offer `i` (its name or pricing edited).
    CustomOffer(usize, CustomOffer),
}

/// Everything that changes state.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    // Document edits (undoable).
    Drop {
        payload: DragPayload,
        target: DropTarget,
    },
    /// Add one unit of a part to the selected node (the palette's Add button, double-click).
    AddToSelected(PartId),
    RemoveLine(LineSel),
    /// Remove the selected line, if any (the Delete key).
    RemoveSelected,
    SetQuantity {
        sel: LineSel,
        quantity: u32,
    },
    AddNode,
    DuplicateNode(usize),
    RemoveNode(usize),
    RenameNode(usize, String),
    SetNodeCount(usize, u32),
    /// A node group's NVLink bridges on or off (its header's checkbox, or a finding's fix).
    SetNodeNvlink(usize, bool),
    /// A node group's PSU redundancy (its header's choice, or a finding's fix).
    SetNodeRedundancy(usize, crate::core::build::Redundancy),
    RenameBuild(String),
    /// Change a site or usage setting (checked against the build file's own limits).
    SetSetting(Setting),
    /// Add a custom cloud offer (the TCO tab's editor), checked like every setting.
    AddCustomOffer(CustomOffer),
    /// Remove custom cloud offer `i` (and the choice of it as the compared offer).
    RemoveCustomOffer(usize),
    /// A part's unit price in the build's currency, replacing the catalog's for every line of
    /// the part (the parts list's price editor); None goes back to the catalog price.
    SetPriceOverride(PartId, Option<f64>),
    Undo,
    Redo,

    // Files.
    /// A new build: blank, or a copy of a template (by slug, see `core::templates`).
    New(Option<&'static str>),
    Open(PathBuf),
    /// A file dropped on the window: its path and its bytes.
    OpenBytes {
        path: PathBuf,
        bytes: Vec<u8>,
    },
    /// Ask for a file to open (a dialog), then open it.
    PickOpen,
    Save,
    SaveAs(PathBuf),
    /// Ask for a path (a dialog), then save there.
    PickSaveAs,
    /// The window's close button, or File → Quit.
    Quit,
    Prompt(PromptChoice),
    RestoreRecovery,
    DiscardRecovery,

    // View.
    SelectNode(Location),
    SelectLine(Option<LineSel>),
    /// Highlight the parts of finding `i` of the current report (None clears).
    Highlight(Option<usize>),
    SetTab(AnalysisTab),
    SetTheme(ThemeChoice),
    /// View → Language: switch every text of the app at once and remember the choice.
    SetLanguage(Lang),
    TogglePalette,
    ToggleAnalysis,
    /// Show a message at the top of the canvas (replacing the one shown).
    Notify(Notice),
    DismissNotice,
    /// Show an error the user must acknowledge.
    ShowError(ErrorView),
    DismissError,
    ShowAbout(bool),
    /// Help → Accuracy…: open or close the accuracy window (its report is computed on the
    /// first opening).
    ShowAccuracy(bool),
    /// File → Catalog folders…: open or close its window.
    ShowCatalogFolders(bool),
    /// Ask for a catalog folder (a folder dialog, or the built-in browser, where a file in
    /// the folder is chosen), then add it.
    PickCatalogFolder,
    /// Lay a folder of catalog files over the catalog (kept with the preferences) and
    /// reload; a file stands for its folder.
    AddCatalogFolder(PathBuf),
    RemoveCatalogFolder(usize),
    /// Load the catalog again from its folders (after their files changed).
    ReloadCatalog,
    /// Ask for a model's config.json (a dialog), then add the model.
    PickModelConfig,
    /// Add the model a Hugging Face config.json describes to the user catalog's models.ron;
    /// the fit matrix then shows it.
    AddModelFromConfig(PathBuf),
    /// Show one node group's fit matrix.
    SelectFitMatrix(usize),
    SelectFitCell(Option<FitSel>),
    SetFitOverrides(FitOverrides),
    /// Save the screen region of a plot as a PNG (asks where).
    SavePlot {
        rect: egui::Rect,
        name: String,
    },
    /// Pin a figure's explanation (its basis key) in the side panel.
    PinBasis(String),
    /// Close a pinned explanation.
    UnpinBasis(String),
    /// The canvas brought the highlighted finding's part into view.
    ScrolledToHighlight,

    /// The built-in file browser closed: with a path (carried out as the request it was
    /// opened for), or cancelled.
    FileBrowser(Outcome),
    /// View → "Always use the built-in file browser".
    SetBuiltinFileBrowser(bool),
    /// The UI zoom factor (View → Zoom, Ctrl +/−/0), kept within [`crate::gui::prefs::ZOOM_RANGE`].
    SetZoom(f32),

    // Exports.
    /// Put the parts list on the clipboard as Markdown (to paste into a chat).
    CopyPartsMarkdown,
    /// Write the printable HTML build sheet to a temporary file and open it in the browser,
    /// whose print dialog prints it.
    PrintSheet,
    /// Ask where to save the build sheet (a dialog), then export it.
    PickExport(Format),
    /// Write the current build's sheet (from the cached report) to a file.
    Export {
        format: Format,
        path: PathBuf,
    },

    // Prices.
    /// Ask for a vendor price list (a dialog), then import it.
    PickImportPrices,
    /// Import a price list (CSV, XLSX) into the user catalog folder, reload the catalog and
    /// show what matched and what did not.
    ImportPrices(PathBuf),
    DismissImportReport,
    /// View → the months after which a catalog price is stale (1–120).
    SetStaleMonths(u32),

    // Compare view.
    ShowView(MainView),
    /// Add the build being edited to the comparison (it follows the edits).
    CompareAddCurrent,
    /// Ask for a build file (a dialog), then add it to the comparison.
    PickCompareFile,
    CompareAddFile(PathBuf),
    /// How the compare view plots its cost curves (kept with the preferences).
    SetCompareScale(crate::gui::compare::CompareScale),
    /// Add a template build (by slug) to the comparison.
    CompareAddTemplate(&'static str),
    CompareRemove(usize),
    /// The model of the speed rows (catalog id); None is the core's default.
    CompareSetModel(Option<String>),
    /// Ask where to save the comparison (a dialog), then export it.
    PickCompareExport(CompareFormat),
    ExportComparison {
        format: CompareFormat,
        path: PathBuf,
    },

    // Advisor view.
    /// Replace the advisor's requirement (an edit of its form).
    SetRequirement(Box<Requirement>),
    /// Start the requirement again from one of the field guides' tiers.
    AdvisorPreset(Preset),
    /// Select a candidate (by slug), or none.
    AdvisorSelect(Option<String>),
    /// Tick or untick a candidate (by slug) for comparison.
    AdvisorMark {
        slug: String,
        marked: bool,
    },
    /// Show this workload's speed on the plot's y axis.
    AdvisorPlotWorkload(usize),
    /// Open a candidate (by slug) as a new unsaved build.
    AdvisorOpen(String),
    /// Send the ticked candidates (2–4) to the compare view and show it.
    AdvisorCompare,
}
