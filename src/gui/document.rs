//! The document: the build being edited, the file it belongs to, its undo and redo history,
//! whether it differs from that file, and a revision counter that every change bumps (derived
//! data is cached on it). Edits run on a copy and are kept only when they succeed and change
//! something. Only [`crate::gui::apply`] changes a document; panels get it read-only.

use crate::core::build::{Build, EditError, Location};
use std::path::{Path, PathBuf};

/// Most undo steps kept. A build is a few kilobytes, so this bounds memory at about a megabyte
/// for large builds while covering a long editing session.
pub const MAX_UNDO_STEPS: usize = 256;

/// Edits that merge into one undo step when repeated on the same target (typing a name,
/// dragging a count).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Coalesce {
    RenameNode(usize),
    NodeCount(usize),
    Quantity(Location, usize),
    RenameBuild,
    Setting(u16),
    /// A part's price override, by a hash of its id.
    PriceOverride(u64),
}

/// The build being edited, with its file, history, dirty flag and revision.
#[derive(Clone, Debug)]
pub struct Document {
    build: Build,
    path: Option<PathBuf>,
    /// The build as last loaded or saved: the document is dirty when it differs. None when
    /// no file holds this build (a restored recovery copy).
    saved: Option<Build>,
    dirty: bool,
    undo: Vec<Build>,
    redo: Vec<Build>,
    revision: u64,
    last_edit: Option<Coalesce>,
    /// The document this one replaced undoably (the advisor's "Open as build"): undo past
    /// this document's first edit brings it back, whole (file, history, unsaved changes).
    before: Option<Box<Document>>,
    /// The document an undo of such a replacement left, for redo.
    after: Option<Box<Document>>,
}

impl Document {
    /// A clean document.
    #[must_use]
    pub fn new(build: Build, path: Option<PathBuf>) -> Self {
        Self {
            saved: Some(build.clone()),
            build,
            path,
            dirty: false,
            undo: Vec::new(),
            redo: Vec::new(),
            revision: 1,
            last_edit: None,
            before: None,
            after: None,
        }
    }

    #[must_use]
    pub fn build(&self) -> &Build {
        &self.build
    }

    /// The file the build was loaded from or last saved to.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// True when the build differs from what was last loaded or saved.
    #[must_use]
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// Bumped by every change of the build (edits, undo, redo, opening another build).
    #[must_use]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    #[must_use]
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty() || self.before.is_some()
    }

    #[must_use]
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty() || self.after.is_some()
    }

    /// Applies an edit to a copy and keeps it if it succeeds and changes something. Returns
    /// the edit's value.
    pub(crate) fn edit<T>(
        &mut self,
        coalesce: Option<Coalesce>,
        f: impl FnOnce(&mut Build) -> Result<T, EditError>,
    ) -> Result<T, EditError> {
        let mut next = self.build.clone();
        let out = f(&mut next)?;
        if next == self.build {
            return Ok(out);
        }
        let merge = coalesce.is_some() && coalesce == self.last_edit && !self.undo.is_empty();
        let previous = std::mem::replace(&mut self.build, next);
        if !merge {
            self.undo.push(previous);
            if self.undo.len() > MAX_UNDO_STEPS {
                self.undo.remove(0);
            }
        }
        self.redo.clear();
        self.after = None;
        self.last_edit = coalesce;
        self.changed();
        Ok(out)
    }

    pub(crate) fn undo(&mut self) -> bool {
        let Some(previous) = self.undo.pop() else {
            // Back to the document this one replaced; redo returns here.
            let Some(before) = self.before.take() else { return false };
            let revision = self.revision;
            let left = std::mem::replace(self, *before);
            self.after = Some(Box::new(left));
            self.revision = revision + 1;
            return true;
        };
        self.redo.push(std::mem::replace(&mut self.build, previous));
        self.last_edit = None;
        self.changed();
        true
    }

    pub(crate) fn redo(&mut self) -> bool {
        // The replacement an undo took back is the latest step forward, before this
        // document's own redo steps (which predate the replacement).
        if let Some(after) = self.after.take() {
            let revision = self.revision;
            let restored = std::mem::replace(self, *after);
            self.before = Some(Box::new(restored));
            self.revision = revision + 1;
            return true;
        }
        let Some(next) = self.redo.pop() else { return false };
        self.undo.push(std::mem::replace(&mut self.build, next));
        self.last_edit = None;
        self.changed();
        true
    }

    /// Replaces the whole document (New, Open, restore): history starts afresh.
    pub(crate) fn replace(&mut self, build: Build, path: Option<PathBuf>) {
        let revision = self.revision;
        *self = Self::new(build, path);
        self.revision = revision + 1;
    }

    /// Replaces the document with a build that no file holds, undoably: undo past the new
    /// build's edits brings back this document as it was (its file, history and unsaved
    /// changes), and redo returns to the new one. One level is kept: a document this one had
    /// replaced undoably is let go.
    pub(crate) fn replace_undoable(&mut self, build: Build) {
        let revision = self.revision;
        let mut previous = std::mem::replace(self, Self::new(build, None));
        previous.before = None;
        previous.after = None;
        self.saved = None;
        self.dirty = true;
        self.before = Some(Box::new(previous));
        self.revision = revision + 1;
    }

    /// Replaces the document with a build that no file holds: dirty until saved.
    pub(crate) fn replace_unsaved(&mut self, build: Build, path: Option<PathBuf>) {
        self.replace(build, path);
        self.saved = None;
        self.dirty = true;
    }

    pub(crate) fn mark_saved(&mut self, path: PathBuf) {
        self.saved = Some(self.build.clone());
        self.path = Some(path);
        self.dirty = false;
        self.last_edit = None;
    }

    fn changed(&mut self) {
        self.revision += 1;
        self.dirty = self.saved.as_ref() != Some(&self.build);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::build::NodeGroup;
    use crate::core::catalog::PartId;

    fn gpu() -> PartId {
        PartId::from("gpu/nvidia-geforce-rtx-4090")
    }

    #[test]
    fn edits_undo_redo_restore_exact_builds() {
        let mut d = Document::new(Build::new("t"), None);
        let b0 = d.build().clone();
        d.edit(None, |b| b.add_part(Location::Node(0), &gpu(), 1)).unwrap();
        let b1 = d.build().clone();
        d.edit(None, |b| b.add_part(Location::Node(0), &gpu(), 2)).unwrap();
        assert_eq!(d.revision(), 3);
        assert!(d.is_dirty());
        assert!(d.undo());
        assert_eq!(d.build(), &b1);
        assert!(d.undo());
        assert_eq!(d.build(), &b0);
        assert!(!d.is_dirty(), "back at the loaded build");
        assert!(!d.undo());
        assert!(d.redo());
        assert_eq!(d.build(), &b1);
        // A new edit drops the redo branch.
        d.edit(None, |b| b.add_node(NodeGroup::new("n"))).unwrap();
        assert!(!d.can_redo());
    }

    #[test]
    fn failed_and_no_op_edits_leave_no_trace() {
        let mut d = Document::new(Build::new("t"), None);
        assert!(d.edit(None, |b| b.remove_node(0)).is_err());
        d.edit(None, |b| b.rename_node(0, "Node 1")).unwrap();
        assert_eq!(d.revision(), 1);
        assert!(!d.can_undo());
        assert!(!d.is_dirty());
    }

    #[test]
    fn typing_a_name_is_one_undo_step() {
        let mut d = Document::new(Build::new("t"), None);
        for name in ["W", "Wo", "Wor", "Work"] {
            d.edit(Some(Coalesce::RenameNode(0)), |b| b.rename_node(0, name)).unwrap();
        }
        d.edit(Some(Coalesce::RenameBuild), |b| {
            b.name = "x".into();
            Ok(())
        })
        .unwrap();
        assert!(d.undo());
        assert_eq!(d.build().nodes[0].name, "Work");
        assert!(d.undo());
        assert_eq!(d.build().nodes[0].name, "Node 1");
        assert!(!d.can_undo());
    }

    #[test]
    fn an_undoable_replacement_undoes_to_the_whole_previous_document_and_redoes() {
        let mut d = Document::new(Build::new("mine"), Some(PathBuf::from("/plans/mine.ron")));
        d.edit(None, |b| b.add_part(Location::Node(0), &gpu(), 1)).unwrap();
        let mine = d.build().clone();
        let mut advised = Build::new("advised");
        advised.add_part(Location::Node(0), &gpu(), 2).unwrap();
        d.replace_undoable(advised.clone());
        assert_eq!(d.build(), &advised);
        assert_eq!(d.path(), None);
        assert!(d.is_dirty(), "no file holds the new build");
        d.edit(None, |b| b.rename_node(0, "A")).unwrap();
        let r = d.revision();
        assert!(d.undo(), "first the edit");
        assert_eq!(d.build(), &advised);
        assert!(d.undo(), "then the replacement");
        assert!(d.revision() > r);
        assert_eq!(d.build(), &mine);
        assert_eq!(d.path(), Some(Path::new("/plans/mine.ron")));
        assert!(d.is_dirty(), "its unsaved edit is still there");
        assert!(d.can_undo(), "and so is its own history");
        assert!(d.redo(), "redo goes forward to the advised build first");
        assert_eq!(d.build(), &advised);
        assert!(d.redo());
        assert_eq!(d.build().nodes[0].name, "A");
        // A new edit on the previous document drops the way forward.
        assert!(d.undo() && d.undo());
        d.edit(None, |b| b.rename_node(0, "B")).unwrap();
        assert!(!d.can_redo());
    }

    #[test]
    fn saving_clears_dirty_and_keeps_history() {
        let mut d = Document::new(Build::new("t"), None);
        d.edit(None, |b| b.add_part(Location::Node(0), &gpu(), 1)).unwrap();
        d.mark_saved(PathBuf::from("/tmp/x.ron"));
        assert!(!d.is_dirty());
        assert!(d.undo());
        assert!(d.is_dirty(), "undoing past the save makes it differ from the file");
    }
}
