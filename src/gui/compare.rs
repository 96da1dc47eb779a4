//! The compare view's state: the builds being compared, and the comparison derived from them.
//!
//! Theory of operation. [`CompareSet`] lists 2–4 builds, each either a build file (loaded
//! once, when it is added) or the current document (read from the document whenever the
//! comparison is computed, so it follows the user's edits). Every change of the set bumps its
//! revision. [`Compared`] is the core's [`compare::compare`] of the set together with the plot
//! series drawn from it; the app recomputes it in `logic` when the set's revision, the chosen
//! model or, for a set that holds the current build, the document's revision moved — and only
//! while the compare view is shown — so the view itself only reads. The set's sources persist
//! with the UI preferences, so that a comparison is still there after a restart.

use crate::core::build::Build;
use crate::core::catalog::Catalog;
use crate::core::compare::{self, CompareOptions, Comparison};
use crate::core::i18n::Lang;
use crate::core::persist;
use egui_plot::PlotPoint;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

pub use crate::core::compare::{MAX_BUILDS, MIN_BUILDS};

/// Where a compared build comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CompareSource {
    /// The build being edited.
    Current,
    /// A build file, read when it was added.
    File(PathBuf),
    /// A build the advisor proposed (its name), held in memory only: it is not kept with the
    /// preferences, since no file holds it.
    Advised(String),
    /// A template build (its slug, see `core::templates`), loaded again at each start.
    Template(String),
}

/// A build of the comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareEntry {
    pub source: CompareSource,
    /// The file's build; `None` for [`CompareSource::Current`], which is read from the document.
    pub build: Option<Build>,
}

/// The builds being compared, in column order, and the model of the speed rows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompareSet {
    pub entries: Vec<CompareEntry>,
    /// Catalog id of the speed rows' model; `None` is the core's default.
    pub model: Option<String>,
    revision: u64,
}

impl CompareSet {
    /// The set the preferences name: files are read again; the ones that no longer load are
    /// left out, each with its message.
    #[must_use]
    pub fn from_sources(sources: &[CompareSource], model: Option<String>) -> (Self, Vec<String>) {
        let mut set = Self { model, ..Self::default() };
        let mut problems = Vec::new();
        for source in sources.iter().take(MAX_BUILDS) {
            let entry = match source {
                CompareSource::Current => CompareEntry { source: CompareSource::Current, build: None },
                // Not stored (see `sources`); a hand-edited preference naming one is skipped.
                CompareSource::Advised(_) => continue,
                CompareSource::Template(slug) => {
                    match crate::core::templates::find(slug).map(crate::core::templates::Template::load) {
                        Some(Ok(b)) => CompareEntry { source: source.clone(), build: Some(b) },
                        Some(Err(e)) => {
                            problems.push(e.to_string());
                            continue;
                        }
                        None => {
                            problems.push(format!("no template named {slug}"));
                            continue;
                        }
                    }
                }
                CompareSource::File(path) => match persist::load_build(path) {
                    Ok(b) => CompareEntry { source: source.clone(), build: Some(b) },
                    Err(e) => {
                        problems.push(e.to_string());
                        continue;
                    }
                },
            };
            if entry.source == CompareSource::Current && set.has_current() {
                continue;
            }
            set.entries.push(entry);
        }
        (set, problems)
    }

    /// The sources, for the preferences: the advisor's builds are left out, since no file
    /// holds them.
    #[must_use]
    pub fn sources(&self) -> Vec<CompareSource> {
        self.entries.iter().map(|e| e.source.clone()).filter(|s| !matches!(s, CompareSource::Advised(_))).collect()
    }

    /// Replaces the entries with these builds (the advisor's "Compare"), at most
    /// [`MAX_BUILDS`]; the model of the speed rows stays.
    pub fn replace(&mut self, entries: Vec<CompareEntry>) {
        self.entries = entries;
        self.entries.truncate(MAX_BUILDS);
        self.revision += 1;
    }

    /// Bumped by every change of the entries or the model.
    #[must_use]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    #[must_use]
    pub fn has_current(&self) -> bool {
        self.entries.iter().any(|e| e.source == CompareSource::Current)
    }

    #[must_use]
    pub fn is_full(&self) -> bool {
        self.entries.len() >= MAX_BUILDS
    }

    /// Appends an entry. False (and no change) when the set is full.
    pub fn push(&mut self, entry: CompareEntry) -> bool {
        if self.is_full() {
            return false;
        }
        self.entries.push(entry);
        self.revision += 1;
        true
    }

    /// Removes entry `i`; false when there is none.
    pub fn remove(&mut self, i: usize) -> bool {
        if i >= self.entries.len() {
            return false;
        }
        self.entries.remove(i);
        self.revision += 1;
        true
    }

    pub fn set_model(&mut self, model: Option<String>) {
        if self.model != model {
            self.model = model;
            self.revision += 1;
        }
    }
}

/// What a comparison was computed from: the set's revision and, when the set holds the current
/// build, the document's revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompareKey {
    pub set_revision: u64,
    pub doc_revision: Option<u64>,
    /// The language of the comparison's labels and notes.
    pub lang: Lang,
}

impl CompareKey {
    #[must_use]
    pub fn of(set: &CompareSet, doc_revision: u64, lang: Lang) -> Self {
        Self { set_revision: set.revision(), doc_revision: set.has_current().then_some(doc_revision), lang }
    }
}

/// One build's cumulative cost curves, ready to plot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CurveSeries {
    /// Column label (A, B, C, D).
    pub label: &'static str,
    pub owned: Vec<PlotPoint>,
    /// The cost of the build's primary cloud option (named in the column header).
    pub primary: Option<Vec<PlotPoint>>,
}

/// Row ids of the wall-power rows the grouped bars show, in bar-group order (idle, typical,
/// max: the order of `Texts::compare_power_levels`).
pub const POWER_ROWS: [&str; 3] = ["wall-idle", "wall-typical", "wall-max"];

/// Width of the group of bars at one power level, in x units (one level per unit).
pub const BAR_GROUP_WIDTH: f64 = 0.8;

/// The plot series of a comparison, prepared once so that plots borrow them every frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompareCharts {
    pub curves: Vec<CurveSeries>,
    /// Per build: (column label, bars as (x, watts)): at x = level index, offset per build.
    pub power_bars: Vec<(&'static str, Vec<(f64, f64)>)>,
    /// Width of one bar, x units.
    pub bar_width: f64,
}

impl CompareCharts {
    /// The series of a comparison.
    #[must_use]
    pub fn of(c: &Comparison) -> Self {
        let monthly = |curve: &[f64]| -> Vec<PlotPoint> {
            curve.iter().enumerate().map(|(m, v)| PlotPoint::new(m as f64, *v)).collect()
        };
        let curves = c
            .curves
            .iter()
            .map(|k| CurveSeries {
                label: k.label,
                owned: monthly(&k.owned),
                primary: k.primary.as_deref().map(monthly),
            })
            .collect();
        let n = c.builds.len().max(1) as f64;
        let bar_width = BAR_GROUP_WIDTH / n;
        let power_bars = c
            .builds
            .iter()
            .enumerate()
            .map(|(i, b)| {
                // Bars of one level sit side by side, centred on the level's x.
                let offset = (i as f64 - (n - 1.0) / 2.0) * bar_width;
                let bars = POWER_ROWS
                    .iter()
                    .enumerate()
                    .filter_map(|(level, id)| {
                        let watts = c.row(id)?.values.get(i).copied().flatten()?;
                        Some((level as f64 + offset, watts))
                    })
                    .collect();
                (b.label, bars)
            })
            .collect();
        Self { curves, power_bars, bar_width }
    }
}

/// What the cost curves are divided by (View prefs, the compare view's "Cost as").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CompareNorm {
    /// The build's own cumulative cost.
    #[default]
    Total,
    /// Divided by the build's GPU count: a workstation and an 8-GPU server side by side.
    PerGpu,
    /// Divided by the first build's owned cost in the same month (1.0 is "as much as A").
    RelativeToFirst,
}

impl CompareNorm {
    pub const ALL: [Self; 3] = [Self::Total, Self::PerGpu, Self::RelativeToFirst];
}

/// How the compare view plots its cost curves: normalised, and on a log axis or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompareScale {
    /// Plot log10 of the values (the axis reads the values themselves), so that curves of
    /// 30,000 and 2,300,000 are both legible.
    pub log: bool,
    pub norm: CompareNorm,
}

/// The cost curves of `charts` under `scale`: each value divided as [`CompareNorm`] says, then
/// log10 of it for a log axis. A point with no value under the scale (a build with no GPU per
/// GPU, a value ≤ 0 on a log axis) is left out, and a series with none left is empty.
#[must_use]
pub fn scaled_curves(charts: &CompareCharts, c: &Comparison, scale: CompareScale) -> Vec<CurveSeries> {
    let first = charts.curves.first().map(|s| s.owned.clone()).unwrap_or_default();
    let scale_curve = |points: &[PlotPoint], gpus: Option<u64>| -> Vec<PlotPoint> {
        points
            .iter()
            .enumerate()
            .filter_map(|(m, p)| {
                let divisor = match scale.norm {
                    CompareNorm::Total => 1.0,
                    CompareNorm::PerGpu => gpus.filter(|&g| g > 0)? as f64,
                    CompareNorm::RelativeToFirst => first.get(m).map(|f| f.y).filter(|f| *f > 0.0)?,
                };
                let y = p.y / divisor;
                let y = if scale.log { (y > 0.0).then(|| y.log10())? } else { y };
                Some(PlotPoint::new(p.x, y))
            })
            .collect()
    };
    charts
        .curves
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let gpus = c.builds.get(i).map(|b| b.gpus);
            CurveSeries {
                label: s.label,
                owned: scale_curve(&s.owned, gpus),
                primary: s.primary.as_deref().map(|p| scale_curve(p, gpus)),
            }
        })
        .collect()
}

/// A comparison of the set, or why there is none.
#[derive(Clone, Debug)]
pub struct Compared {
    pub key: CompareKey,
    /// `None` while the set has fewer than [`MIN_BUILDS`] builds.
    pub result: Option<Result<Comparison, String>>,
    /// Each compared build's report, in column order (its figures' bases, in the build's own
    /// currency at the comparison's horizon); empty without a comparison.
    pub reports: std::sync::Arc<Vec<crate::core::analysis::Report>>,
    pub charts: CompareCharts,
    /// The cost curves as plotted: [`scaled_curves`] under `scale`.
    pub curves: Vec<CurveSeries>,
    pub scale: CompareScale,
}

impl Compared {
    /// Compares the set's builds (the current build as `current`).
    #[must_use]
    pub fn compute(catalog: &Catalog, set: &CompareSet, current: &Build, key: CompareKey) -> Self {
        if set.entries.len() < MIN_BUILDS {
            return Self {
                key,
                result: None,
                reports: std::sync::Arc::default(),
                charts: CompareCharts::default(),
                curves: Vec::new(),
                scale: CompareScale::default(),
            };
        }
        let builds: Vec<&Build> = set.entries.iter().map(|e| e.build.as_ref().unwrap_or(current)).collect();
        let options = CompareOptions { model: set.model.clone(), lang: key.lang, ..CompareOptions::default() };
        let (result, reports) = match compare::compare_with_reports(catalog, &builds, &options) {
            Ok((c, reports)) => (Ok(c), reports),
            Err(e) => (Err(e.message_in(key.lang)), Vec::new()),
        };
        let charts = result.as_ref().map(CompareCharts::of).unwrap_or_default();
        let curves = charts.curves.clone();
        let reports = std::sync::Arc::new(reports);
        Self { key, result: Some(result), reports, charts, curves, scale: CompareScale::default() }
    }

    /// Plots the cost curves under `scale` (once per change of scale or comparison).
    pub fn rescale(&mut self, scale: CompareScale) {
        let Some(Ok(c)) = &self.result else { return };
        self.curves = scaled_curves(&self.charts, c, scale);
        self.scale = scale;
    }

    /// The comparison, when there is one.
    #[must_use]
    pub fn comparison(&self) -> Option<&Comparison> {
        self.result.as_ref().and_then(|r| r.as_ref().ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::templates;

    fn template(slug: &str) -> Build {
        templates::find(slug).unwrap().load().unwrap()
    }

    #[test]
    fn the_set_holds_at_most_four_builds_and_counts_its_changes() {
        let mut set = CompareSet::default();
        assert!(set.push(CompareEntry { source: CompareSource::Current, build: None }));
        for i in 0..3 {
            let path = PathBuf::from(format!("/plans/{i}.ron"));
            assert!(set.push(CompareEntry { source: CompareSource::File(path), build: Some(Build::new("x")) }));
        }
        assert_eq!(set.revision(), 4);
        assert!(set.is_full());
        assert!(!set.push(CompareEntry { source: CompareSource::Current, build: None }));
        assert_eq!(set.revision(), 4, "a refused push changes nothing");
        assert!(set.remove(0));
        assert!(!set.has_current());
        assert!(!set.remove(7));
        set.set_model(None);
        assert_eq!(set.revision(), 5, "setting the same model is not a change");
    }

    #[test]
    fn the_key_follows_the_document_only_with_the_current_build() {
        let mut set = CompareSet::default();
        set.push(CompareEntry { source: CompareSource::File("/a.ron".into()), build: Some(Build::new("a")) });
        assert_eq!(
            CompareKey::of(&set, 7, Lang::En),
            CompareKey::of(&set, 8, Lang::En),
            "edits do not touch a set of files"
        );
        set.push(CompareEntry { source: CompareSource::Current, build: None });
        assert_ne!(CompareKey::of(&set, 7, Lang::En), CompareKey::of(&set, 8, Lang::En));
        assert_ne!(
            CompareKey::of(&set, 7, Lang::En),
            CompareKey::of(&set, 7, Lang::ZhCn),
            "a language switch relabels"
        );
    }

    #[test]
    fn charts_group_the_wall_power_bars_by_level() {
        let catalog = Catalog::embedded().unwrap();
        let a = template("entry-workstation");
        let mut set = CompareSet::default();
        set.push(CompareEntry { source: CompareSource::Current, build: None });
        set.push(CompareEntry {
            source: CompareSource::File("/b.ron".into()),
            build: Some(template("entry-workstation-intel")),
        });
        let compared = Compared::compute(&catalog, &set, &a, CompareKey::of(&set, 1, Lang::En));
        let c = compared.comparison().expect("two templates compare");
        let charts = &compared.charts;
        // Two builds: each level's group of 0.8 holds two bars of 0.4, centred on the level.
        assert!((charts.bar_width - 0.4).abs() < 1e-12);
        let (label, bars) = &charts.power_bars[1];
        assert_eq!(*label, "B");
        let max = c.row("wall-max").unwrap().values[1].unwrap();
        assert_eq!(bars[2], (2.0 + 0.2, max));
        assert!((charts.power_bars[0].1[0].0 - (-0.2)).abs() < 1e-12);
        // One cumulative point per month, months 0…36 of the 3-year horizon.
        assert_eq!(charts.curves[0].owned.len(), 37);
        assert!((charts.curves[0].owned[36].y - c.curves[0].owned[36]).abs() < 1e-9);
    }

    #[test]
    fn fewer_than_two_builds_is_no_comparison_and_files_that_vanished_are_left_out() {
        let catalog = Catalog::embedded().unwrap();
        let sources = [CompareSource::Current, CompareSource::File("/no/such/file.ron".into()), CompareSource::Current];
        let (set, problems) = CompareSet::from_sources(&sources, None);
        assert_eq!(set.entries.len(), 1, "the missing file and the second current build are left out");
        assert_eq!(problems.len(), 1);
        assert!(problems[0].contains("/no/such/file.ron"), "{}", problems[0]);
        let compared = Compared::compute(&catalog, &set, &Build::new("x"), CompareKey::of(&set, 1, Lang::En));
        assert!(compared.result.is_none());
    }
}
