//! The catalog the app uses: the built-in one overlaid with the user catalog folder
//! (`--catalog DIR`, else the per-user folder, when it exists) and then with the folders of
//! File → Catalog folders… (kept with the preferences), in that order. Adding, removing or
//! reloading a folder loads the whole catalog again; a catalog that does not load is shown
//! with its problems and the one in use stays.

use crate::core::catalog::Catalog;
use crate::gui::derived::Derived;
use crate::gui::panels::palette::PaletteState;
use crate::gui::state::AppState;
use crate::gui::text::fill;
use crate::gui::vocab::{ErrorView, Notice, NoticeKind};
use std::path::PathBuf;

/// Analyses the build again (the report, its price ages, its sentences in the UI language).
pub(super) fn recompute(state: &mut AppState) {
    state.derived = Derived::compute(&state.catalog, state.doc.build(), state.doc.revision());
    state.derived.date_prices(state.prefs.stale_after_months);
    state.derived.localize(state.lang);
}

/// The folders laid over the built-in catalog, in order.
pub(super) fn catalog_dirs(state: &AppState) -> Vec<PathBuf> {
    crate::gui::state::catalog_dirs(state.user_catalog_dir.as_deref(), &state.prefs.catalog_folders)
}

/// Loads the catalog from [`catalog_dirs`] and puts it in use (the palette, the analyses,
/// the comparison and the advice follow). On failure shows why and returns false.
pub(super) fn reload(state: &mut AppState) -> bool {
    let t = state.texts;
    match Catalog::load_with_overlays(&catalog_dirs(state)) {
        Ok(catalog) => {
            state.catalog = catalog;
            state.accuracy = None;
            state.palette = PaletteState::new(&state.catalog, state.palette.kind, t);
            recompute(state);
            state.compared = None;
            state.advised = None;
            true
        }
        Err(e) => {
            state.view.error = Some(ErrorView { title: t.catalog_failed.to_owned(), message: e.to_string() });
            false
        }
    }
}

/// Reloads and says how many parts the catalog now holds.
pub(super) fn reload_and_tell(state: &mut AppState) {
    if reload(state) {
        let folders = catalog_dirs(state).len();
        let text = fill(state.texts.fixes.catalog_reloaded, &[&state.catalog.len(), &folders]);
        state.view.notice = Some(Notice::info(&text));
    }
}

/// Adds a catalog folder (a file's folder when a file inside it was chosen) and reloads; a
/// folder whose catalog does not load is not kept.
pub(super) fn add_folder(state: &mut AppState, path: PathBuf) {
    let t = state.texts;
    let dir = if path.is_file() { path.parent().map(std::path::Path::to_path_buf).unwrap_or(path) } else { path };
    if !dir.is_dir() {
        let text = fill(t.fixes.catalog_not_a_folder, &[&dir.display()]);
        state.view.notice = Some(Notice { kind: NoticeKind::Refused, text });
        return;
    }
    if state.prefs.catalog_folders.contains(&dir) {
        return;
    }
    state.prefs.catalog_folders.push(dir);
    if !reload(state) {
        state.prefs.catalog_folders.pop();
        return;
    }
    reload_and_tell(state);
}

/// Removes catalog folder `i` and reloads.
pub(super) fn remove_folder(state: &mut AppState, i: usize) {
    if i < state.prefs.catalog_folders.len() {
        let removed = state.prefs.catalog_folders.remove(i);
        if !reload(state) {
            state.prefs.catalog_folders.insert(i, removed);
            return;
        }
        reload_and_tell(state);
    }
}
