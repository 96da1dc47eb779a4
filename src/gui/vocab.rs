//! The GUI's shared vocabulary: the small types that panels, commands, the view state and the
//! derived data all speak (tabs and views, selections, drag payloads and drop targets, notices
//! and errors, the fit selection). Plain data with no behaviour beyond constructors; this
//! module names no other GUI module, so that every other one may name it.

use crate::core::analysis::memory::{Engine, WeightType};
use crate::core::build::Location;
use crate::core::catalog::PartId;
use crate::core::placement::Target;
use serde::{Deserialize, Serialize};

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
    /// The advisor: a requirement, and the whole builds that meet it.
    Advisor,
}

/// A line selection: which part line is selected for Delete and highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSel {
    pub at: Location,
    pub line: usize,
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

    /// A notice that a change was refused (or failed) and nothing changed.
    #[must_use]
    pub fn refused(text: String) -> Self {
        Self { kind: NoticeKind::Refused, text }
    }
}

/// An error the user must acknowledge (a file that cannot be opened or saved).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorView {
    pub title: String,
    pub message: String,
}

impl ErrorView {
    #[must_use]
    pub fn new(title: &str, message: String) -> Self {
        Self { title: title.to_owned(), message }
    }
}

/// What is being dragged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DragPayload {
    /// A catalog part from the palette.
    Catalog(PartId),
    /// A whole part line of the build.
    Line { from: Location, line: usize, part: PartId, quantity: u32 },
}

impl DragPayload {
    #[must_use]
    pub fn part(&self) -> &PartId {
        match self {
            Self::Catalog(p) | Self::Line { part: p, .. } => p,
        }
    }
}

/// Where something is dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DropTarget {
    /// Into the build.
    Place(Target),
    /// Out of the build: the palette or the trash area.
    Trash,
}

/// A cell of a fit matrix: which matrix (node group), model row and workload column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FitSel {
    pub matrix: usize,
    pub row: usize,
    pub col: usize,
}

/// The user's changes to a selected cell's workload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOverrides {
    pub weights: Option<WeightType>,
    pub batch: Option<u32>,
    pub context: Option<u32>,
    pub zero: Option<u8>,
    /// GPUs the cell runs on (None: the layout the fit matrix found).
    pub gpus: Option<u32>,
    /// Tokens to train on, for the training time.
    pub train_tokens: f64,
    /// Inference engine (None: the default for the weights).
    pub engine: Option<Engine>,
    /// Serving: users to evaluate, the per-user speed target, the prompt for the TTFT.
    pub users: Option<u32>,
    pub tokens_per_user: Option<f64>,
    pub prompt: Option<u32>,
}

/// Tokens the training time is shown for until the user picks another count: one billion, a
/// common fine-tuning budget (e.g. the 1B-token runs of Hu et al. 2021's LoRA experiments are
/// of this order) and a round figure to scale from.
pub const DEFAULT_TRAIN_TOKENS: f64 = 1e9;

impl Default for FitOverrides {
    fn default() -> Self {
        Self {
            weights: None,
            batch: None,
            context: None,
            zero: None,
            gpus: None,
            train_tokens: DEFAULT_TRAIN_TOKENS,
            engine: None,
            users: None,
            tokens_per_user: None,
            prompt: None,
        }
    }
}
