//! The per-frame context panels read from, and the one way they write: [`FrameCtx::push`].

use crate::core::catalog::Catalog;
use crate::core::placement::Verdict;
use crate::gui::command::Command;
use crate::gui::compare::{CompareSet, Compared};
use crate::gui::derived::{CellDetail, Derived, DropPreview};
use crate::gui::document::Document;
use crate::gui::icons::Icons;
use crate::gui::prefs::Prefs;
use crate::gui::recovery::Recovery;
use crate::gui::text::Texts;
use crate::gui::theme::Tokens;
use crate::gui::view::ViewState;
use crate::gui::vocab::DropTarget;

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
    /// Drop verdicts while something is being dragged.
    pub drop_preview: Option<&'a DropPreview>,
    /// The selected fit cell's breakdown, when one is selected.
    pub cell_detail: Option<&'a CellDetail>,
    /// The compare view's builds and, while it is shown, their comparison.
    pub compare: &'a CompareSet,
    pub compared: Option<&'a Compared>,
    pub texts: &'static Texts,
    pub tokens: &'static Tokens,
    pub icons: &'a Icons,
    pub(crate) commands: &'a mut Vec<Command>,
    /// The innermost drop target under the pointer while dragging, and its verdict. Set by
    /// the first (innermost) target laid out under the pointer, so that the targets around it
    /// do not also light up; the drag ghost shows the verdict.
    pub(crate) hover: Option<(DropTarget, Option<Verdict>)>,
}

impl FrameCtx<'_> {
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
