//! File dialogs. They only produce paths: the commands that open, save and export take the
//! paths, so that every file operation is testable without a dialog. The app uses the native
//! dialogs ([`NativeDialogs`], rfd); headless runs use [`NoDialogs`], tests scripted answers.
//!
//! A native dialog can fail to open at all: on Linux rfd asks the desktop portal, then runs
//! zenity, and on a bare X server neither exists. rfd then returns `None`, as for a cancel, and
//! reports why only through the `log` facade. [`AppLogger`] (installed by `gui::run`) keeps
//! rfd's warnings and errors; [`NativeDialogs`] reads them after each request, and when the
//! last one is an error it answers [`Dialogs::unavailable`] with it, so that the app shows its
//! own file browser (`gui::file_browser`) instead of doing nothing.

use crate::gui::text::Texts;
use std::path::PathBuf;

/// File dialogs. The app uses native dialogs; tests use scripted answers or none.
pub trait Dialogs {
    /// A build file to open, or None when cancelled.
    fn pick_open(&mut self) -> Option<PathBuf>;
    /// Where to save, or None when cancelled. `suggested` is a file name to start from.
    fn pick_save(&mut self, suggested: &str) -> Option<PathBuf>;
    /// Where to save a PNG image, or None when cancelled.
    fn pick_png(&mut self, suggested: &str) -> Option<PathBuf>;
    /// Where to save an export, or None when cancelled: `suggested` is a file name,
    /// `file_type` the format's name for the dialog's filter, `extension` its extension.
    fn pick_export(&mut self, suggested: &str, file_type: &str, extension: &str) -> Option<PathBuf>;
    /// A model's `config.json` to add to the model catalog, or None when cancelled (no
    /// dialog: cancelled).
    fn pick_config(&mut self) -> Option<PathBuf> {
        None
    }
    /// A vendor price list (CSV, XLSX) to import, or None when cancelled. Dialogs that do not
    /// offer it cancel.
    fn pick_price_list(&mut self) -> Option<PathBuf> {
        None
    }
    /// A folder of catalog files, or None when cancelled. Dialogs that do not offer it cancel.
    fn pick_catalog_folder(&mut self) -> Option<PathBuf> {
        None
    }
    /// Why the last request showed no dialog at all (no desktop portal, no zenity), or None
    /// when it showed one (and the user chose or cancelled). Dialogs that always show say None.
    fn unavailable(&mut self) -> Option<String> {
        None
    }
    /// The language changed: file-type names of later dialogs come from `texts`.
    fn set_texts(&mut self, texts: &'static Texts) {
        let _ = texts;
    }
}

/// No dialogs: every request is cancelled (headless runs, tests that need none).
#[derive(Debug, Default)]
pub struct NoDialogs;

impl Dialogs for NoDialogs {
    fn pick_open(&mut self) -> Option<PathBuf> {
        None
    }
    fn pick_save(&mut self, _suggested: &str) -> Option<PathBuf> {
        None
    }
    fn pick_png(&mut self, _suggested: &str) -> Option<PathBuf> {
        None
    }
    fn pick_export(&mut self, _suggested: &str, _file_type: &str, _extension: &str) -> Option<PathBuf> {
        None
    }
}

/// What rfd logged during the current request (level, message), oldest first.
static RFD_RECORDS: std::sync::Mutex<Vec<(log::Level, String)>> = std::sync::Mutex::new(Vec::new());

/// The app's logger: prints warnings and errors to stderr (as `rigplan: LEVEL target: message`)
/// and keeps rfd's, so that [`NativeDialogs`] can tell a dialog that failed to open from one
/// the user cancelled.
#[derive(Debug)]
pub struct AppLogger;

/// The logger `gui::run` installs.
pub static APP_LOGGER: AppLogger = AppLogger;

impl AppLogger {
    /// Installs the logger (warnings and above). Does nothing if one is already installed.
    pub fn install() {
        if log::set_logger(&APP_LOGGER).is_ok() {
            log::set_max_level(log::LevelFilter::Warn);
        }
    }
}

impl log::Log for AppLogger {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        metadata.level() <= log::Level::Warn
    }

    fn log(&self, record: &log::Record<'_>) {
        if !self.enabled(record.metadata()) {
            return;
        }
        if record.target().starts_with("rfd")
            && let Ok(mut records) = RFD_RECORDS.lock()
        {
            records.push((record.level(), record.args().to_string()));
        }
        eprintln!("rigplan: {} {}: {}", record.level(), record.target(), record.args());
    }

    fn flush(&self) {}
}

/// Runs one native dialog request and says why it showed nothing, if it failed to open: rfd
/// returned nothing and the last thing it logged was an error (its last fallback, zenity,
/// failed). A portal error followed by zenity's dialog ends in a warning ("Using zenity
/// fallback"), so a cancel in zenity stays a cancel.
fn request<T>(f: impl FnOnce() -> Option<T>) -> (Option<T>, Option<String>) {
    if let Ok(mut r) = RFD_RECORDS.lock() {
        r.clear();
    }
    let answer = f();
    let records = RFD_RECORDS.lock().map(|mut r| std::mem::take(&mut *r)).unwrap_or_default();
    let failed = answer.is_none() && records.last().is_some_and(|(level, _)| *level == log::Level::Error);
    let why = failed.then(|| {
        records.iter().filter(|(l, _)| *l == log::Level::Error).map(|(_, m)| m.as_str()).collect::<Vec<_>>().join("; ")
    });
    (answer, why)
}

/// Native file dialogs (rfd). They only produce paths; the commands take the paths.
#[derive(Debug)]
pub struct NativeDialogs {
    pub texts: &'static Texts,
    /// Why the last request showed no dialog ([`Dialogs::unavailable`]).
    pub failed: Option<String>,
}

impl NativeDialogs {
    fn run(&mut self, f: impl FnOnce() -> Option<PathBuf>) -> Option<PathBuf> {
        let (answer, why) = request(f);
        self.failed = why;
        answer
    }
}

impl Dialogs for NativeDialogs {
    fn pick_open(&mut self) -> Option<PathBuf> {
        let t = self.texts;
        self.run(|| rfd::FileDialog::new().add_filter(t.build_file_type, &["ron"]).pick_file())
    }

    fn pick_save(&mut self, suggested: &str) -> Option<PathBuf> {
        let t = self.texts;
        self.run(|| rfd::FileDialog::new().add_filter(t.build_file_type, &["ron"]).set_file_name(suggested).save_file())
    }

    fn pick_png(&mut self, suggested: &str) -> Option<PathBuf> {
        let t = self.texts;
        self.run(|| rfd::FileDialog::new().add_filter(t.png_file_type, &["png"]).set_file_name(suggested).save_file())
    }

    fn pick_export(&mut self, suggested: &str, file_type: &str, extension: &str) -> Option<PathBuf> {
        self.run(|| rfd::FileDialog::new().add_filter(file_type, &[extension]).set_file_name(suggested).save_file())
    }

    fn pick_config(&mut self) -> Option<PathBuf> {
        let t = self.texts;
        self.run(|| rfd::FileDialog::new().add_filter(t.config_file_type, &["json"]).pick_file())
    }

    fn pick_catalog_folder(&mut self) -> Option<PathBuf> {
        self.run(|| rfd::FileDialog::new().pick_folder())
    }

    fn pick_price_list(&mut self) -> Option<PathBuf> {
        let t = self.texts;
        self.run(|| {
            rfd::FileDialog::new()
                .add_filter(t.file_import_prices.trim_end_matches('…'), &["csv", "xlsx", "xls", "ods"])
                .pick_file()
        })
    }

    fn unavailable(&mut self) -> Option<String> {
        self.failed.take()
    }

    fn set_texts(&mut self, texts: &'static Texts) {
        self.texts = texts;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Logs as rfd does, through the installed logger (tests in this binary share it).
    fn rfd_log(level: log::Level, message: &str) {
        AppLogger::install();
        log::logger()
            .log(&log::Record::builder().level(level).target("rfd::backend").args(format_args!("{message}")).build());
    }

    #[test]
    fn a_dialog_that_could_not_open_says_why_and_a_cancel_does_not() {
        // No portal, no zenity: rfd logs the portal error, the fallback warning, then zenity's error.
        let (answer, why) = request::<PathBuf>(|| {
            rfd_log(log::Level::Error, "Failed to connect to session bus");
            rfd_log(log::Level::Warn, "Using zenity fallback");
            rfd_log(log::Level::Error, "Failed to pick file with zenity: No such file or directory");
            None
        });
        assert!(answer.is_none());
        let why = why.expect("a failure");
        assert!(why.contains("zenity: No such file"), "{why}");
        // No portal, and the user cancelled zenity's dialog: the last record is the warning.
        let (_, why) = request::<PathBuf>(|| {
            rfd_log(log::Level::Error, "Failed to connect to session bus");
            rfd_log(log::Level::Warn, "Using zenity fallback");
            None
        });
        assert_eq!(why, None);
        // A plain cancel logs nothing; an answer is never a failure.
        assert_eq!(request::<PathBuf>(|| None).1, None);
        let (answer, why) = request(|| {
            rfd_log(log::Level::Error, "Response object path is missing");
            Some(PathBuf::from("/a.ron"))
        });
        assert_eq!((answer, why), (Some(PathBuf::from("/a.ron")), None));
    }
}
