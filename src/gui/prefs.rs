//! UI preferences persisted across runs with eframe's storage: theme, language, visible panels, the
//! analysis tab, the palette's category, recent files, the build to reopen, and the compare
//! view (whether it is shown, the files compared and the model of its speed rows). Panel sizes
//! persist with egui's own memory. Builds themselves are never stored here: they live only
//! in the user's RON files (and, after a crash, in the recovery folder).

use crate::core::catalog::PartKind;
use crate::core::i18n::Lang;
use crate::gui::compare::{CompareScale, CompareSource};
use crate::gui::theme::ThemeChoice;
use crate::gui::vocab::{AnalysisTab, MainView};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The eframe storage key of the preferences.
pub const PREFS_KEY: &str = "rigplan-prefs";

/// The persisted preferences. Unknown or missing fields fall back to defaults, so older and
/// newer prefs files both load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    pub theme: ThemeChoice,
    /// The UI language the user chose in View → Language; `None` follows the system locale
    /// ([`Lang::from_env`]) at each start.
    pub lang: Option<Lang>,
    pub show_palette: bool,
    pub show_analysis: bool,
    pub analysis_tab: AnalysisTab,
    pub palette_kind: PartKind,
    /// Most recent first.
    pub recent_files: Vec<PathBuf>,
    /// The build that was open at exit, reopened at start.
    pub last_build: Option<PathBuf>,
    pub main_view: MainView,
    /// The compare view's builds, in column order.
    pub compare: Vec<CompareSource>,
    /// The model of the compare view's speed rows (catalog id).
    pub compare_model: Option<String>,
    /// How the compare view plots its cost curves (log axis, normalisation).
    pub compare_scale: CompareScale,
    /// A catalog price older than this many months is marked stale (View menu).
    pub stale_after_months: u32,
    /// Use the built-in file browser even where the system's file dialog works.
    pub builtin_file_browser: bool,
    /// The UI zoom factor (egui's `zoom_factor`), within [`ZOOM_RANGE`].
    pub ui_zoom: f32,
    /// Folders of catalog files laid over the catalog, in order (File → Catalog folders…).
    pub catalog_folders: Vec<PathBuf>,
}

/// The zoom factors offered: 50 % to 250 %, in steps of [`ZOOM_STEP`].
pub const ZOOM_RANGE: std::ops::RangeInclusive<f32> = 0.5..=2.5;
/// One Ctrl+/Ctrl− step (10 %, as browsers and egui's own keyboard zoom step).
pub const ZOOM_STEP: f32 = 0.1;

/// A zoom factor within [`ZOOM_RANGE`], rounded to whole percent (1.0 for NaN).
#[must_use]
pub fn clamp_zoom(zoom: f32) -> f32 {
    if zoom.is_finite() { (zoom.clamp(*ZOOM_RANGE.start(), *ZOOM_RANGE.end()) * 100.0).round() / 100.0 } else { 1.0 }
}

impl Default for Prefs {
    fn default() -> Self {
        Self {
            theme: ThemeChoice::default(),
            lang: None,
            show_palette: true,
            show_analysis: true,
            analysis_tab: AnalysisTab::default(),
            palette_kind: PartKind::Gpu,
            recent_files: Vec::new(),
            last_build: None,
            main_view: MainView::Build,
            compare: Vec::new(),
            compare_model: None,
            compare_scale: CompareScale::default(),
            stale_after_months: crate::core::analysis::prices::DEFAULT_STALE_AFTER_MONTHS,
            builtin_file_browser: false,
            ui_zoom: 1.0,
            catalog_folders: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_fields_take_defaults() {
        let p: Prefs = ron::from_str("(theme: Light, recent_files: [\"/a.ron\"])").unwrap();
        assert_eq!(p.theme, ThemeChoice::Light);
        assert!(p.show_palette);
        assert_eq!(p.recent_files, vec![PathBuf::from("/a.ron")]);
        assert_eq!(p.palette_kind, PartKind::Gpu);
        assert_eq!(p.main_view, MainView::Build);
        let p: Prefs = ron::from_str("(main_view: Compare, compare: [Current, File(\"/b.ron\")])").unwrap();
        assert_eq!(p.compare, vec![CompareSource::Current, CompareSource::File(PathBuf::from("/b.ron"))]);
    }

    #[test]
    fn the_chosen_language_survives_a_round_trip() {
        for lang in [None, Some(Lang::En), Some(Lang::ZhCn)] {
            let prefs = Prefs { lang, ..Prefs::default() };
            let text = ron::to_string(&prefs).unwrap();
            let back: Prefs = ron::from_str(&text).unwrap();
            assert_eq!(back.lang, lang, "{text}");
        }
    }
}
