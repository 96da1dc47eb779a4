//! Where every figure comes from: the basis of each number a front end shows.
//!
//! Theory of operation: a [`Basis`] says of one figure what it is, the formula (symbolic, from
//! the registry in [`formulas`]), the same formula with the build's own inputs substituted,
//! each input with where it came from (a catalog part, a build setting, a rigplan constant),
//! the source (paper and table, datasheet, standard) and a [`Confidence`] class. A figure of
//! class [`Confidence::Calibrated`] also carries the typical error of its class of estimates
//! over the reference set of published measurements ([`typical_error`], read off
//! [`crate::core::reference::shipped_accuracy`], the report `rigplan validate` prints).
//!
//! The bases are read off the finished sections of a report (they compute nothing the
//! analyses did not): [`report::of_report`] for the priced lines of the bill of materials, power,
//! thermal, TCO and the summary, stored in
//! `Report::basis` with [`counts::of_counts`] (the node, GPU and finding counts, each GPU
//! group's GPUs per node and memory, the unpriced lines, the exchange rate, the stale prices);
//! [`fit::of_fit`] for the memory, speed and serving figures of one model and
//! workload (`rigplan fit`, the app's Memory & speed tab). Every formula id a basis uses is in
//! the registry (a test scans the sources), and every registered id is documented in
//! `report-schema.md`.

pub mod counts;
pub mod findings;
pub mod fit;
pub mod formulas;
pub mod report;

pub use formulas::{FORMULAS, Formula, lookup};

use crate::core::i18n::Lang;
use crate::core::reference::Class;
use serde::Serialize;

/// How good a figure is, from best to least checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    /// A value from a datasheet or a vendor's page (or a sum of such values).
    Datasheet,
    /// A published measurement, cited.
    Measured,
    /// Computed by a formula from datasheet values and the build's settings.
    Derived,
    /// An estimate whose constants are calibrated against published measurements; its typical
    /// error over the reference set is given.
    Calibrated,
    /// rigplan's own assumption or rule of thumb, not calibrated against a measurement.
    Assumption,
}

impl Confidence {
    /// Every class, best checked first.
    pub const ALL: [Self; 5] = [Self::Datasheet, Self::Measured, Self::Derived, Self::Calibrated, Self::Assumption];

    /// The stable id JSON uses.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::Datasheet => "datasheet",
            Self::Measured => "measured",
            Self::Derived => "derived",
            Self::Calibrated => "calibrated",
            Self::Assumption => "assumption",
        }
    }

    /// The class's name in a language.
    #[must_use]
    pub fn label(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Self::Datasheet, Lang::En) => "datasheet value",
            (Self::Datasheet, Lang::ZhCn) => "规格书数值",
            (Self::Measured, Lang::En) => "measured",
            (Self::Measured, Lang::ZhCn) => "实测",
            (Self::Derived, Lang::En) => "derived by formula",
            (Self::Derived, Lang::ZhCn) => "公式推导",
            (Self::Calibrated, Lang::En) => "calibrated estimate",
            (Self::Calibrated, Lang::ZhCn) => "校准估算",
            (Self::Assumption, Lang::En) => "rigplan assumption",
            (Self::Assumption, Lang::ZhCn) => "rigplan 假设",
        }
    }
}

/// The typical error of a class of estimates over the reference set.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TypicalError {
    /// The reference class (`decode`, `prefill`, `training`, …).
    #[serde(serialize_with = "class_id")]
    pub class: Class,
    /// Mean of |estimate − measured| / measured over the class's measurements.
    pub mean_abs_error: f64,
    /// Measurements of the class.
    pub count: usize,
}

#[expect(clippy::trivially_copy_pass_by_ref, reason = "serde's `serialize_with` passes a reference")]
fn class_id<S: serde::Serializer>(class: &Class, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(class.id())
}

/// One input of a figure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BasisInput {
    /// What it is (a symbol of the formula: `P_dc`, `η`, `u`).
    pub name: String,
    pub value: f64,
    /// Its unit (`W`, `°C`, `GB/s`; empty for a pure number).
    pub unit: &'static str,
    /// Where it came from: a catalog part id, a build setting (`usage.utilization`), another
    /// figure (`power.nodes[0].max_watts`) or a rigplan constant.
    pub from: String,
}

/// Where one figure comes from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Basis {
    /// The stable key of the figure (`power.wall_watts`, `power.nodes[0].psu_load_fraction`,
    /// `fit.decode_tokens_per_s`): the JSON path of the value where it has one.
    pub figure: String,
    /// The figure's value, in `unit`.
    pub value: f64,
    pub unit: &'static str,
    /// The registry id of the formula (`power-wall`).
    pub formula_id: &'static str,
    /// What the figure is, in the report's language (the registry's text, shared by every
    /// figure of the formula rather than copied into each).
    pub what: &'static str,
    /// The formula, symbolic, in the report's language.
    pub formula: &'static str,
    /// The formula with this build's inputs substituted (numbers and units only).
    pub substituted: String,
    pub inputs: Vec<BasisInput>,
    /// Paper and table, datasheet or standard, in the report's language.
    pub source: &'static str,
    pub confidence: Confidence,
    /// For a calibrated estimate: the typical error of its class over the reference set.
    pub typical_error: Option<TypicalError>,
}

impl Basis {
    /// A basis of `figure` by the registered formula `formula_id`, in English; a formula id
    /// the registry does not hold gives an empty formula and source (the registry's test
    /// refuses such an id in the sources).
    #[must_use]
    pub fn new(figure: impl Into<String>, formula_id: &'static str, value: f64, unit: &'static str) -> Self {
        let f = lookup(formula_id);
        let confidence = f.map_or(Confidence::Derived, |f| f.confidence);
        let typical_error = f.and_then(|f| f.class).and_then(typical_error);
        let mut basis = Self {
            figure: figure.into(),
            value,
            unit,
            formula_id,
            what: "",
            formula: "",
            substituted: String::new(),
            inputs: Vec::new(),
            source: "",
            confidence,
            typical_error,
        };
        basis.localize(Lang::En);
        basis
    }

    /// Adds an input.
    #[must_use]
    pub fn input(mut self, name: &str, value: f64, unit: &'static str, from: impl Into<String>) -> Self {
        self.inputs.push(BasisInput { name: name.to_owned(), value, unit, from: from.into() });
        self
    }

    /// Sets the substituted formula.
    #[must_use]
    pub fn substituted(mut self, text: impl Into<String>) -> Self {
        self.substituted = text.into();
        self
    }

    /// Renders what the figure is, its formula and its source in `lang` from the registry.
    pub fn localize(&mut self, lang: Lang) {
        if let Some(f) = lookup(self.formula_id) {
            self.what = f.what(lang);
            self.formula = f.formula(lang);
            self.source = f.source(lang);
        }
    }

    /// The typical error in words (`typical error ±6.3 % (mean over 29 published
    /// measurements)`), if it has one: one decimal, as Help ▸ Accuracy… and `rigplan validate`
    /// print the class's mean error.
    #[must_use]
    pub fn typical_error_text(&self, lang: Lang) -> Option<String> {
        let e = self.typical_error?;
        let pct = e.mean_abs_error * 100.0;
        Some(match lang {
            Lang::En => format!("typical error ±{pct:.1} % (mean over {} published measurements)", e.count),
            Lang::ZhCn => format!("典型误差 ±{pct:.1} %（{} 项公开实测的平均）", e.count),
        })
    }

    /// The confidence class in words, with the typical error of a calibrated estimate.
    #[must_use]
    pub fn confidence_text(&self, lang: Lang) -> String {
        let label = self.confidence.label(lang);
        let comma = if lang == Lang::ZhCn { "，" } else { ", " };
        match self.typical_error_text(lang) {
            Some(e) => format!("{label}{comma}{e}"),
            None => label.to_owned(),
        }
    }
}

/// Renders every basis in `lang`.
pub fn localize_all(bases: &mut [Basis], lang: Lang) {
    for b in bases {
        b.localize(lang);
    }
}

/// The basis of `figure` in a list, if it has one.
#[must_use]
pub fn find<'a>(bases: &'a [Basis], figure: &str) -> Option<&'a Basis> {
    bases.iter().find(|b| b.figure == figure)
}

/// The shipped accuracy report's mean absolute error and measurement count per class, exactly
/// as `rigplan validate` prints them for the built-in reference set on the built-in catalog
/// ([`crate::core::reference::shipped_accuracy`], also shown by Help ▸ Accuracy…).
///
/// Held as a table so that a figure's typical error costs nothing at run time: recomputing the
/// reference set took a third of a whole `rigplan fit` process. It is not an independent
/// guess: the test `typical_errors_are_the_shipped_report` recomputes the report and fails
/// (printing the rows to paste here) whenever a model, the catalog or the reference set moves
/// a class's error or count.
const SHIPPED_TYPICAL_ERRORS: [(Class, f64, usize); 7] = [
    (Class::Memory, 0.008_441_381_526_344_28, 12),
    (Class::Decode, 0.063_214_150_696_542_22, 29),
    (Class::Prefill, 0.124_203_276_647_016_23, 17),
    (Class::Serving, 0.107_808_403_361_562_26, 12),
    (Class::Training, 0.118_010_291_100_616_96, 13),
    (Class::Power, 0.098_650_646_291_424_27, 6),
    (Class::Images, 0.112_824_458_788_209_42, 3),
];

/// The typical error of a reference class: its mean absolute error over rigplan's shipped
/// accuracy report ([`SHIPPED_TYPICAL_ERRORS`], the summary `rigplan validate` prints and
/// Help ▸ Accuracy… shows). `None` when the set has no measurement of the class: a figure
/// then has no typical error rather than a made-up one.
#[must_use]
pub fn typical_error(class: Class) -> Option<TypicalError> {
    SHIPPED_TYPICAL_ERRORS
        .iter()
        .find(|(c, _, count)| *c == class && *count > 0)
        .map(|&(class, mean_abs_error, count)| TypicalError { class, mean_abs_error, count })
}

/// `1,234 W`: a figure with thousands separators and its unit.
pub(crate) fn num(value: f64, decimals: usize, unit: &str) -> String {
    let n = crate::core::units::format_thousands(value, decimals);
    if unit.is_empty() { n } else { format!("{n} {unit}") }
}

#[cfg(test)]
mod tests {
    #[test]
    fn typical_errors_are_the_shipped_report() {
        let report = crate::core::reference::shipped_accuracy().expect("the built-in reference set computes");
        let rows: Vec<String> = report
            .classes
            .iter()
            .map(|c| format!("(Class::{:?}, {:?}, {}),", c.class, c.mean_abs_error, c.count))
            .collect();
        let table: Vec<String> = super::SHIPPED_TYPICAL_ERRORS
            .iter()
            .map(|(class, mean, count)| format!("(Class::{class:?}, {mean:?}, {count}),"))
            .collect();
        assert_eq!(
            table,
            rows,
            "SHIPPED_TYPICAL_ERRORS is not the shipped accuracy report; its rows now are:\n{}",
            rows.join("\n")
        );
    }

    use super::*;

    #[test]
    fn a_calibrated_formula_carries_its_class_error_from_the_reference_set() {
        let b = Basis::new("fit.decode_tokens_per_s", "speed-decode", 50.0, "tokens/s");
        assert_eq!(b.confidence, Confidence::Calibrated);
        let e = b.typical_error.expect("the reference set has decode measurements");
        assert_eq!(e.class, Class::Decode);
        let set = crate::core::reference::embedded().unwrap();
        let catalog = crate::core::catalog::Catalog::embedded().unwrap();
        let acc = crate::core::reference::accuracy(&set, &catalog);
        let decode = acc.class(Class::Decode).unwrap();
        assert_eq!(e.count, decode.count);
        assert!((e.mean_abs_error - decode.mean_abs_error).abs() < 1e-12);
        assert!(b.typical_error_text(Lang::En).unwrap().contains(&format!("over {} published", decode.count)));
        // A derived figure has none.
        assert_eq!(Basis::new("power.max_watts", "power-dc-max", 1.0, "W").typical_error, None);
    }

    #[test]
    fn a_basis_renders_in_both_languages() {
        let mut b = Basis::new("power.wall_watts", "power-wall", 1000.0, "W");
        assert!(b.formula.contains('η'), "{}", b.formula);
        let en = b.what;
        b.localize(Lang::ZhCn);
        assert_ne!(b.what, en);
        assert!(b.what.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{}", b.what);
        assert_eq!(b.confidence_text(Lang::ZhCn).split('，').next(), Some("校准估算"));
    }

    #[test]
    fn numbers_are_grouped_with_their_unit() {
        assert_eq!(num(1234.4, 0, "W"), "1,234 W");
        assert_eq!(num(0.875, 3, ""), "0.875");
    }
}
