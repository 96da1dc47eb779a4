//! The accuracy report behind Help → Accuracy…: the shipped report, the built-in reference set
//! (`catalog/reference/measurements.ron`) recomputed by [`reference::accuracy`] on the built-in
//! catalog ([`reference::shipped_accuracy`]), the report `rigplan validate` prints and the one
//! every figure's typical error quotes. When the app's catalog (with the user's catalog
//! folders) changes an estimate of the set, the same measurements on it are a second, labelled
//! report ([`AccuracyView::with_catalog`]): two numbers for one class are never shown without
//! saying which catalog each is on.
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
    /// "Decode speed: mean error 6.3 % over 29 measurements, worst 19.5 % (id)".
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
    /// The set on the app's catalog, when it changes an estimate; `None` when the app's catalog
    /// gives the shipped report.
    pub with_catalog: Option<CatalogAccuracy>,
}

/// The reference set on the app's catalog, where the user's catalog folders change it.
#[derive(Clone, Debug, PartialEq)]
pub struct CatalogAccuracy {
    /// Measurements whose estimate (or whether it computes) differs from the shipped report.
    pub changed: usize,
    pub accuracy: Accuracy,
    /// The classes whose summary differs from the shipped report's, in the UI language.
    pub classes: Vec<ClassLine>,
}

fn class_line(c: &reference::ClassSummary, lang: Lang) -> ClassLine {
    ClassLine {
        class: c.class,
        summary: c.sentence(lang),
        meaning: c.class.meaning(lang),
        threshold: format!("{:.0}", c.threshold * 100.0),
        passes: c.passes(),
    }
}

impl AccuracyView {
    /// The shipped report, and the built-in reference set on the app's `catalog` where that
    /// changes an estimate.
    #[must_use]
    pub fn compute(catalog: &Catalog, lang: Lang) -> Self {
        let failed = |e: String| Self {
            lang,
            failed: Some(e),
            measurements: 0,
            accuracy: Accuracy { outcomes: Vec::new(), errors: Vec::new(), classes: Vec::new() },
            classes: Vec::new(),
            rows: Vec::new(),
            with_catalog: None,
        };
        let set = match reference::embedded() {
            Ok(set) => set,
            Err(e) => return failed(e),
        };
        let shipped = match reference::shipped_accuracy() {
            Ok(a) => a.clone(),
            Err(e) => return failed(e.to_owned()),
        };
        let mut view = Self::of_accuracy(&set, shipped, lang);
        view.compare_catalog(&set, catalog);
        view
    }

    /// Recomputes `set` on the app's `catalog` and keeps it when it differs from the report
    /// shown.
    fn compare_catalog(&mut self, set: &[Measurement], catalog: &Catalog) {
        let yours = reference::accuracy(set, catalog);
        let shipped: HashMap<&str, &reference::Outcome> =
            self.accuracy.outcomes.iter().map(|o| (o.id.as_str(), o)).collect();
        let mut changed = yours.outcomes.iter().filter(|o| shipped.get(o.id.as_str()) != Some(o)).count();
        changed += yours.errors.iter().filter(|e| !self.accuracy.errors.contains(e)).count();
        changed += self.accuracy.outcomes.len().saturating_sub(yours.outcomes.len());
        self.with_catalog = (changed > 0).then(|| CatalogAccuracy { changed, accuracy: yours, classes: Vec::new() });
        self.localize(self.lang);
    }

    /// Recomputes a reference set against `catalog`.
    #[must_use]
    pub fn of(set: &[Measurement], catalog: &Catalog, lang: Lang) -> Self {
        Self::of_accuracy(set, reference::accuracy(set, catalog), lang)
    }

    /// The view of a report of `set`.
    fn of_accuracy(set: &[Measurement], accuracy: Accuracy, lang: Lang) -> Self {
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
        let mut view = Self {
            lang,
            failed: None,
            measurements: set.len(),
            accuracy,
            classes: Vec::new(),
            rows,
            with_catalog: None,
        };
        view.localize(lang);
        view
    }

    /// Writes each class's line in `lang`.
    pub fn localize(&mut self, lang: Lang) {
        self.lang = lang;
        self.classes = self.accuracy.classes.iter().map(|c| class_line(c, lang)).collect();
        let shipped = &self.accuracy.classes;
        if let Some(yours) = &mut self.with_catalog {
            yours.classes = yours
                .accuracy
                .classes
                .iter()
                .filter(|c| !shipped.iter().any(|s| s == *c))
                .map(|c| class_line(c, lang))
                .collect();
        }
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

    /// The window shows the shipped report, the one the figures' typical errors quote; the
    /// embedded catalog changes nothing, so there is no second report.
    #[test]
    fn the_view_is_the_shipped_report_and_the_built_in_catalog_adds_nothing() {
        let catalog = Catalog::embedded().expect("the embedded catalog");
        let view = AccuracyView::compute(&catalog, Lang::En);
        assert_eq!(&view.accuracy, reference::shipped_accuracy().expect("shipped"));
        assert_eq!(view.with_catalog, None);
        let decode = view.accuracy.class(Class::Decode).expect("decode");
        let typical = crate::core::analysis::basis::typical_error(Class::Decode).expect("a typical error");
        assert_eq!((typical.count, typical.mean_abs_error), (decode.count, decode.mean_abs_error));
    }

    /// A catalog whose H100 SXM5 has half its memory bandwidth (as a user's folder might
    /// override it) moves the decode estimates on it: the view keeps the shipped lines and
    /// adds the changed classes on the user's catalog, labelled apart.
    #[test]
    fn a_catalog_that_moves_an_estimate_gives_a_second_labelled_report() {
        let mut catalog = Catalog::embedded().expect("the embedded catalog");
        let gpu =
            catalog.gpus.iter_mut().find(|g| g.id.as_str() == "gpu/nvidia-h100-sxm5-80gb").expect("the H100 SXM5");
        gpu.memory_bandwidth_gbs /= 2.0;
        let view = AccuracyView::compute(&catalog, Lang::En);
        assert_eq!(&view.accuracy, reference::shipped_accuracy().expect("shipped"), "the shipped lines stay");
        let yours = view.with_catalog.expect("a second report");
        assert!(yours.changed >= 1);
        let decode = yours.classes.iter().find(|c| c.class == Class::Decode).expect("decode moved");
        let shipped = view.classes.iter().find(|c| c.class == Class::Decode).expect("decode");
        assert_ne!(decode.summary, shipped.summary);
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
