//! The per-frame context panels read from, and the one way they write: [`FrameCtx::push`].
//!
//! The app builds one context per frame from its whole state. A test can lay out a single
//! panel with [`FrameCtx::new`]: a catalog, a document and its derived data, with everything
//! else at its starting value (no selection or message, default preferences, no autosave, an
//! empty compare view, no icons), any of which the test may point elsewhere.

use crate::core::catalog::Catalog;
use crate::core::placement::Verdict;
use crate::gui::accuracy::AccuracyView;
use crate::gui::advisor::{Advised, AdvisorState};
use crate::gui::command::Command;
use crate::gui::compare::{CompareSet, Compared};
use crate::gui::derived::{CellDetail, Derived, DropPreview};
use crate::gui::document::Document;
use crate::gui::icons::Icons;
use crate::gui::prefs::Prefs;
use crate::gui::recovery::Recovery;
use crate::gui::text::{self, Texts};
use crate::gui::theme::{self, Tokens};
use crate::gui::view::ViewState;
use crate::gui::vocab::DropTarget;
use std::sync::LazyLock;

/// What a panel sees this frame. Built once per frame from the app state; borrowed, never
/// stored.
pub struct FrameCtx<'a> {
    pub catalog: &'a Catalog,
    pub doc: &'a Document,
    pub derived: &'a Derived,
    pub view: &'a ViewState,
    pub prefs: &'a Prefs,
    pub recovery: &'a Recovery,
    /// The template builds (slug, build name).
    pub template_names: &'a [(&'static str, String)],
    /// The builds in the autosave folder, for the compare view's "Add build ▸ Autosaves".
    pub autosaves: &'a [crate::gui::recovery::Autosave],
    /// Drop verdicts while something is being dragged.
    pub drop_preview: Option<&'a DropPreview>,
    /// The selected fit cell's breakdown, when one is selected.
    pub cell_detail: Option<&'a CellDetail>,
    /// The compare view's builds and, while it is shown, their comparison.
    pub compare: &'a CompareSet,
    pub compared: Option<&'a Compared>,
    /// The advisor's requirement and picks and, while its view is shown, its advice.
    pub advisor: &'a AdvisorState,
    pub advised: Option<&'a Advised>,
    /// The accuracy report, once Help → Accuracy… has been opened.
    pub accuracy: Option<&'a AccuracyView>,
    /// The UI language; `texts` is its table.
    pub lang: crate::core::i18n::Lang,
    pub texts: &'static Texts,
    pub tokens: &'static Tokens,
    pub icons: &'a Icons,
    pub(crate) commands: &'a mut Vec<Command>,
    /// The innermost drop target under the pointer while dragging, and its verdict. Set by
    /// the first (innermost) target laid out under the pointer, so that the targets around it
    /// do not also light up; the drag ghost shows the verdict.
    pub(crate) hover: Option<(DropTarget, Option<Verdict>)>,
}

/// The starting values [`FrameCtx::new`] points at. Nothing writes them.
struct Starting {
    view: ViewState,
    prefs: Prefs,
    recovery: Recovery,
    compare: CompareSet,
    advisor: AdvisorState,
    icons: Icons,
}

static STARTING: LazyLock<Starting> = LazyLock::new(|| Starting {
    view: ViewState::default(),
    prefs: Prefs::default(),
    recovery: Recovery::new(None),
    compare: CompareSet::default(),
    advisor: AdvisorState::default(),
    icons: Icons::none(),
});

impl<'a> FrameCtx<'a> {
    /// A context for laying out one panel: the catalog, the document, its derived data and
    /// where pushed commands go; the English texts and the dark theme's tokens; and for the
    /// rest the values the app starts with (see the module docs).
    #[must_use]
    pub fn new(catalog: &'a Catalog, doc: &'a Document, derived: &'a Derived, commands: &'a mut Vec<Command>) -> Self {
        let starting = &*STARTING;
        Self {
            catalog,
            doc,
            derived,
            view: &starting.view,
            prefs: &starting.prefs,
            recovery: &starting.recovery,
            template_names: &[],
            autosaves: &[],
            drop_preview: None,
            cell_detail: None,
            compare: &starting.compare,
            compared: None,
            advisor: &starting.advisor,
            advised: None,
            accuracy: None,
            lang: crate::core::i18n::Lang::En,
            texts: &text::EN,
            tokens: theme::tokens(egui::Theme::Dark),
            icons: &starting.icons,
            commands,
            hover: None,
        }
    }

    /// Queues a command; it is applied at the start of the next frame.
    pub fn push(&mut self, command: Command) {
        self.commands.push(command);
    }

    /// The verdict for a drop target while something is being dragged.
    #[must_use]
    pub fn verdict(&self, target: DropTarget) -> Option<&Verdict> {
        self.drop_preview.and_then(|p| p.verdicts.get(&target))
    }
}
