//! File dialogs. They only produce paths: the commands that open, save and export take the
//! paths, so that every file operation is testable without a dialog. The app uses the native
//! dialogs ([`NativeDialogs`], rfd); headless runs use [`NoDialogs`], tests scripted answers.

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

/// Native file dialogs (rfd). They only produce paths; the commands take the paths.
#[derive(Debug)]
pub struct NativeDialogs {
    pub texts: &'static Texts,
}

impl Dialogs for NativeDialogs {
    fn pick_open(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new().add_filter(self.texts.build_file_type, &["ron"]).pick_file()
    }

    fn pick_save(&mut self, suggested: &str) -> Option<PathBuf> {
        rfd::FileDialog::new().add_filter(self.texts.build_file_type, &["ron"]).set_file_name(suggested).save_file()
    }

    fn pick_png(&mut self, suggested: &str) -> Option<PathBuf> {
        rfd::FileDialog::new().add_filter(self.texts.png_file_type, &["png"]).set_file_name(suggested).save_file()
    }

    fn pick_export(&mut self, suggested: &str, file_type: &str, extension: &str) -> Option<PathBuf> {
        rfd::FileDialog::new().add_filter(file_type, &[extension]).set_file_name(suggested).save_file()
    }

    fn pick_config(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new().add_filter(self.texts.config_file_type, &["json"]).pick_file()
    }

    fn pick_price_list(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .add_filter(self.texts.file_import_prices.trim_end_matches('…'), &["csv", "xlsx", "xls", "ods"])
            .pick_file()
    }

    fn set_texts(&mut self, texts: &'static Texts) {
        self.texts = texts;
    }
}
