//! The accuracy report behind Help → Accuracy…: the built-in reference set
//! (`catalog/reference/measurements.ron`) recomputed by [`reference::accuracy`] against the
//! app's catalog, the same report `rigplan validate` prints.
//!
//! Theory of operation: nothing is computed until the window is first opened; then
//! [`crate::gui::state::AppState::refresh_accuracy`] (in `logic`, never in `ui()`) computes an
//! [`AccuracyView`] and keeps it: the figures as the rows show them and each class's line in the
//! UI language. A language switch only rewrites the class lines; a catalog reload (a model
//! added, a price list imported) drops the view, so the next opening recomputes it.

use crate::core::catalog::Catalog;
use crate::core::i18n::Lang;
use crate::core::reference::{self, Accuracy, Class, Measurement, figure};
use std::collections::HashMap;

/// One measurement as the window's table shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct AccuracyRow {
    pub id: String,
    pub class: Class,
    pub what: String,
    /// The published figure with its unit ("60.78 tokens/s").
    pub measured: String,
    /// rigplan's estimate ("57.12").
    pub estimated: String,
    /// Signed, one decimal ("−6.0 %").
    pub error: String,
    /// "±15 %".
    pub tolerance: String,
    pub holds: bool,
    pub source: String,
}

/// One class as the window shows it, in the UI language.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassLine {
    pub class: Class,
    /// "Decode speed: mean error 5.9 % over 28 measurements, worst 17.4 % (id)".
    pub summary: String,
    /// What the class's measurements are of.
    pub meaning: &'static str,
    /// The class threshold in percent ("20").
    pub threshold: String,
    pub passes: bool,
}

/// The accuracy report, computed once and kept while the catalog stays the same.
#[derive(Clone, Debug, PartialEq)]
pub struct AccuracyView {
    /// The language of `classes`.
    pub lang: Lang,
    /// The built-in set did not load (a build defect): why. The rest is then empty.
    pub failed: Option<String>,
    /// Measurements in the set.
    pub measurements: usize,
    pub accuracy: Accuracy,
    pub classes: Vec<ClassLine>,
    /// One per measurement recomputed, in the set's order.
    pub rows: Vec<AccuracyRow>,
}

impl AccuracyView {
    /// Recomputes the built-in reference set against `catalog`.
    #[must_use]
    pub fn compute(catalog: &Catalog, lang: Lang) -> Self {
        match reference::embedded() {
            Ok(set) => Self::of(&set, catalog, lang),
            Err(e) => Self {
                lang,
                failed: Some(e),
                measurements: 0,
                accuracy: Accuracy { outcomes: Vec::new(), errors: Vec::new(), classes: Vec::new() },
                classes: Vec::new(),
                rows: Vec::new(),
            },
        }
    }

    /// Recomputes a reference set against `catalog`.
    #[must_use]
    pub fn of(set: &[Measurement], catalog: &Catalog, lang: Lang) -> Self {
        let accuracy = reference::accuracy(set, catalog);
        let by_id: HashMap<&str, &Measurement> = set.iter().map(|m| (m.id.as_str(), m)).collect();
        let rows = accuracy
            .outcomes
            .iter()
            .filter_map(|o| {
                let m = by_id.get(o.id.as_str())?;
                Some(AccuracyRow {
                    id: o.id.clone(),
                    class: o.class,
                    what: m.what.clone(),
                    measured: format!("{} {}", figure(o.measured), m.metric.unit()),
                    estimated: figure(o.estimated),
                    error: format!("{:+.1} %", o.error * 100.0).replace('-', "−"),
                    tolerance: format!("±{:.0} %", o.tolerance * 100.0),
                    holds: o.holds(),
                    source: m.source.clone(),
                })
            })
            .collect();
        let mut view = Self { lang, failed: None, measurements: set.len(), accuracy, classes: Vec::new(), rows };
        view.localize(lang);
        view
    }

    /// Writes each class's line in `lang`.
    pub fn localize(&mut self, lang: Lang) {
        self.lang = lang;
        self.classes = self
            .accuracy
            .classes
            .iter()
            .map(|c| ClassLine {
                class: c.class,
                summary: c.sentence(lang),
                meaning: c.class.meaning(lang),
                threshold: format!("{:.0}", c.threshold * 100.0),
                passes: c.passes(),
            })
            .collect();
    }

    /// True when every class passes and every measurement was recomputed.
    #[must_use]
    pub fn passes(&self) -> bool {
        self.failed.is_none() && self.accuracy.passes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in set against the embedded catalog: every measurement becomes a row, every
    /// class a line, and the decode line counts the decode rows.
    #[test]
    fn the_built_in_set_gives_a_row_per_measurement_and_a_line_per_class() {
        let catalog = Catalog::embedded().expect("the embedded catalog");
        let view = AccuracyView::compute(&catalog, Lang::En);
        assert_eq!(view.failed, None);
        assert!(view.measurements >= 60, "{}", view.measurements);
        assert_eq!(view.rows.len(), view.measurements);
        assert_eq!(view.classes.len(), Class::ALL.len());
        assert!(view.passes());
        let decode = view.rows.iter().filter(|r| r.class == Class::Decode).count();
        let line = view.classes.iter().find(|c| c.class == Class::Decode).expect("decode");
        assert!(line.summary.contains(&format!("over {decode} measurements")), "{}", line.summary);
        assert_eq!(line.threshold, "20");
    }

    /// A switch of language rewrites the class lines and leaves the figures.
    #[test]
    fn localize_rewrites_the_lines_only() {
        let catalog = Catalog::embedded().expect("the embedded catalog");
        let mut view = AccuracyView::compute(&catalog, Lang::En);
        let rows = view.rows.clone();
        view.localize(Lang::ZhCn);
        assert_eq!(view.lang, Lang::ZhCn);
        assert!(view.classes[0].summary.starts_with("显存与文件大小："), "{}", view.classes[0].summary);
        assert_eq!(view.rows, rows);
    }
}
