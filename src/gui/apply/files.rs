//! The file side of [`super::apply`]: asking for a path (the system's dialog, else the built-in
//! browser), today's date for sheets, and writing exports and the sheet to print. None of it
//! applies commands; `apply` calls it.

use crate::core::export::{self, BuildSheet, CompareFormat, Format, SheetDate};
use crate::core::persist;
use crate::gui::dialogs::Dialogs;
use crate::gui::file_browser::{FileBrowser, FileRequest};
use crate::gui::state::AppState;
use crate::gui::text::fill;
use crate::gui::vocab::{ErrorView, Notice};
use std::path::{Path, PathBuf};

/// Asks for a path: with the system's dialog, unless the user prefers the built-in browser;
/// when the dialog could not open at all, says why in the log and opens the built-in browser.
/// None when cancelled or when the browser is now open: its answer comes back later as
/// [`Command::FileBrowser`] and is carried out as `request`.
pub(super) fn pick(
    state: &mut AppState,
    request: FileRequest,
    suggested: &str,
    native: impl FnOnce(&mut dyn Dialogs) -> Option<PathBuf>,
) -> Option<PathBuf> {
    let fallback = if state.prefs.builtin_file_browser {
        None
    } else {
        if let Some(path) = native(state.dialogs.as_mut()) {
            return Some(path);
        }
        let why = state.dialogs.unavailable()?;
        log::warn!("the system file dialog did not open ({why}); showing the built-in file browser");
        Some(why)
    };
    let start = state
        .doc
        .path()
        .or_else(|| state.prefs.recent_files.first().map(PathBuf::as_path))
        .and_then(Path::parent)
        .filter(|d| d.is_dir())
        .map(Path::to_path_buf)
        .or_else(crate::gui::file_browser::home_dir)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("/"));
    state.file_browser = Some(FileBrowser::new(request, start, suggested, &state.prefs.recent_files, fallback));
    None
}

/// Today's date (UTC) for a build sheet: the core takes the date as an argument.
pub(super) fn today() -> Result<SheetDate, String> {
    SheetDate::today_utc().map_err(|e| e.to_string())
}

pub(super) fn format_file_type(state: &AppState, format: Format) -> &'static str {
    let i = Format::ALL.iter().position(|f| *f == format).unwrap_or_default();
    state.texts.export_file_types.get(i).copied().unwrap_or_default()
}

pub(super) fn compare_format_file_type(state: &AppState, format: CompareFormat) -> &'static str {
    let i = CompareFormat::ALL.iter().position(|f| *f == format).unwrap_or_default();
    state.texts.compare_export_file_types.get(i).copied().unwrap_or_default()
}

/// The path with `extension`, unless it already ends with it (any case).
pub(super) fn with_extension(path: &Path, extension: &str) -> PathBuf {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case(extension)) {
        path.to_path_buf()
    } else {
        let mut name = path.as_os_str().to_os_string();
        name.push(".");
        name.push(extension);
        PathBuf::from(name)
    }
}

/// Writes bytes atomically and says so, or shows why not. An export never replaces the open
/// build's file nor any other build file ([`persist::write_export`]).
pub(super) fn write_export(state: &mut AppState, file_type: &str, path: &Path, bytes: Result<Vec<u8>, String>) {
    let t = state.texts;
    let inputs: Vec<&Path> = state.doc.path().into_iter().collect();
    match bytes.and_then(|b| persist::write_export(path, &b, &inputs).map_err(|e| e.to_string())) {
        Ok(()) => state.view.notice = Some(Notice::info(&fill(t.exported_to, &[&file_type, &path.display()]))),
        Err(message) => state.view.error = Some(ErrorView { title: t.export_failed.to_owned(), message }),
    }
}

/// Renders the build sheet of the current build from the cached report, in the UI language,
/// and writes it.
pub(super) fn export_sheet(state: &mut AppState, format: Format, path: &Path, date: SheetDate) {
    let path = with_extension(path, format.extension());
    let report = &state.derived.report;
    // The report's findings are already in the UI language (`Derived::localize`); the sheet's
    // own words follow it too, so a Chinese UI exports a Chinese sheet.
    let sheet = BuildSheet::new_in(state.doc.build(), report, date, state.lang);
    let bytes = export::render(format, &sheet, report).map_err(|e| e.to_string());
    write_export(state, format_file_type(state, format), &path, bytes);
}

/// Writes the printable HTML sheet to the temporary folder (`rigplan-print/`, named as an
/// export would be) and asks the frame loop to open it with the system's opener.
pub(super) fn print_sheet(state: &mut AppState) {
    let t = state.texts;
    let date = match today() {
        Ok(d) => d,
        Err(message) => {
            state.view.error = Some(ErrorView { title: t.tools.print_write_failed.to_owned(), message });
            return;
        }
    };
    let report = &state.derived.report;
    let sheet = BuildSheet::new_in(state.doc.build(), report, date, state.lang);
    let name = export::default_file_name(&state.doc.build().name, date, Format::Html.extension());
    let path = std::env::temp_dir().join("rigplan-print").join(name);
    let written = export::render(Format::Html, &sheet, report).map_err(|e| e.to_string()).and_then(|bytes| {
        let dir = path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        persist::write_atomic(&path, &bytes, false).map_err(|e| e.to_string())
    });
    match written {
        Ok(()) => state.outbox.open = Some(path),
        Err(message) => state.view.error = Some(ErrorView { title: t.tools.print_write_failed.to_owned(), message }),
    }
}

/// Renders the comparison (brought up to date first) and writes it.
pub(super) fn export_comparison(state: &mut AppState, format: CompareFormat, path: &Path) {
    let t = state.texts;
    let path = with_extension(path, format.extension());
    state.refresh_comparison();
    let bytes = match state.compared.as_ref().and_then(|c| c.result.as_ref()) {
        Some(Ok(c)) => export::render_comparison(format, c).map_err(|e| e.to_string()),
        Some(Err(e)) => Err(e.clone()),
        None => Err(t.compare_hint.to_owned()),
    };
    write_export(state, compare_format_file_type(state, format), &path, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn export_paths_get_their_extension_once() {
        assert_eq!(with_extension(Path::new("/x/sheet"), "xlsx"), PathBuf::from("/x/sheet.xlsx"));
        assert_eq!(with_extension(Path::new("/x/sheet.XLSX"), "xlsx"), PathBuf::from("/x/sheet.XLSX"));
        // A dot in the name is not an extension to replace.
        assert_eq!(with_extension(Path::new("/x/v1.2"), "md"), PathBuf::from("/x/v1.2.md"));
    }

    #[test]
    fn today_agrees_with_the_clock() {
        // A mean Gregorian year is 365.2425 days = 31,556,952 s; near New Year the estimate
        // may be a year off.
        let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
        let estimate = 1970 + secs / 31_556_952;
        let year = u64::from(today().unwrap().year());
        assert!(year.abs_diff(estimate) <= 1, "{year} against about {estimate}");
    }
}
