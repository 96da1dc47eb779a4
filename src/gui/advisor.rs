//! The Advisor view's state: the requirement being edited, the candidate selected and the
//! ones ticked for comparison, and the advice derived from the requirement.
//!
//! Theory of operation. [`AdvisorState`] holds the requirement; every change of it bumps its
//! revision. [`Advised`] is the core's [`advisor::advise`] of one revision, with the scatter
//! plot's points drawn from its front; the app recomputes it in `logic` when the revision
//! moved, and only while the Advisor view is shown, so the view itself only reads. The
//! search over the whole shipped catalog takes tens of milliseconds for one workload and one
//! node (benches/advise.rs), so the front follows the inputs live. Candidates are named by
//! their slug, so a selection survives a change of the requirement that keeps the build on
//! the front.

use crate::core::advisor::{self, Advice, Candidate, Preset, Requirement, WorkMode};
use crate::core::catalog::Catalog;
use egui_plot::PlotPoint;
use std::time::Instant;

/// The requirement and what the user picked among its answers.
#[derive(Clone, Debug, PartialEq)]
pub struct AdvisorState {
    pub req: Requirement,
    /// The preset the requirement started from, until it is edited.
    pub preset: Option<Preset>,
    /// Slug of the selected candidate.
    pub selected: Option<String>,
    /// Slugs of the candidates ticked for comparison, in the order ticked.
    pub marked: Vec<String>,
    /// The workload whose speed the plot's y axis shows.
    pub plot_workload: usize,
    revision: u64,
}

impl Default for AdvisorState {
    /// The entry tier of the field guides: the question most readers arrive with.
    fn default() -> Self {
        Self {
            req: Preset::Entry.requirement(),
            preset: Some(Preset::Entry),
            selected: None,
            marked: Vec::new(),
            plot_workload: 0,
            revision: 1,
        }
    }
}

impl AdvisorState {
    /// Bumped by every change of the requirement.
    #[must_use]
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Replaces the requirement (an edit of the form); no change when it is the same.
    pub fn set_requirement(&mut self, req: Requirement) {
        if req != self.req {
            self.req = req;
            self.preset = None;
            self.plot_workload = self.plot_workload.min(self.req.workloads.len().saturating_sub(1));
            self.revision += 1;
        }
    }

    /// Starts again from a preset.
    pub fn set_preset(&mut self, preset: Preset) {
        self.set_requirement(preset.requirement());
        self.preset = Some(preset);
    }

    /// Ticks or unticks a candidate for comparison. False (and no change) when ticking
    /// would pass [`crate::gui::compare::MAX_BUILDS`].
    pub fn mark(&mut self, slug: &str, marked: bool) -> bool {
        let at = self.marked.iter().position(|s| s == slug);
        match (marked, at) {
            (true, None) if self.marked.len() >= crate::gui::compare::MAX_BUILDS => false,
            (true, None) => {
                self.marked.push(slug.to_owned());
                true
            }
            (false, Some(i)) => {
                self.marked.remove(i);
                true
            }
            _ => true,
        }
    }
}

/// What the plot's y axis shows for a workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpeedAxis {
    /// Inference: tokens/s served at capacity.
    Served,
    /// Training with a token count: hours to train (lower is better).
    Hours,
    /// Training "as fast as possible" without a token count: training tokens/s.
    TrainRate,
}

impl SpeedAxis {
    /// The axis of workload `i` of a requirement.
    #[must_use]
    pub fn of(req: &Requirement, i: usize) -> Self {
        match req.workloads.get(i) {
            Some(w) if w.mode == WorkMode::Inference => Self::Served,
            Some(w) if w.train_tokens.is_some() => Self::Hours,
            _ => Self::TrainRate,
        }
    }

    /// The field of a candidate's workload figure this axis plots (the key of its basis is
    /// `workloads[i].<field>`, [`crate::core::advisor::explain::key`]).
    #[must_use]
    pub fn field(self) -> &'static str {
        match self {
            Self::Served => "served_tokens_per_s",
            Self::Hours => "hours",
            Self::TrainRate => "train_tokens_per_s",
        }
    }

    /// A candidate's value on this axis for workload `i`.
    #[must_use]
    pub fn value(self, c: &Candidate, i: usize) -> Option<f64> {
        let fit = c.workloads.iter().find(|f| f.workload == i)?;
        match self {
            Self::Served => fit.served_tokens_per_s,
            Self::Hours => fit.hours,
            Self::TrainRate => fit.train_tokens_per_s,
        }
        .filter(|v| v.is_finite())
    }
}

/// One workload's scatter of the front: (capex, speed) of each member that has a speed.
#[derive(Clone, Debug, Default)]
pub struct PlotSeries {
    /// The front index of each point.
    pub index: Vec<usize>,
    pub points: Vec<PlotPoint>,
    /// The same points by capex, for the line through the front.
    pub line: Vec<PlotPoint>,
}

impl PlotSeries {
    fn of(advice: &Advice, axis: SpeedAxis, workload: usize) -> Self {
        let (index, points): (Vec<usize>, Vec<PlotPoint>) = advice
            .front
            .iter()
            .enumerate()
            .filter_map(|(i, c)| Some((i, PlotPoint::new(c.capex, axis.value(c, workload)?))))
            .filter(|(_, p)| p.x.is_finite())
            .unzip();
        let mut line = points.clone();
        line.sort_by(|p, q| p.x.total_cmp(&q.x));
        Self { index, points, line }
    }
}

/// The advice for one revision of the requirement, and its plot series.
#[derive(Clone, Debug)]
pub struct Advised {
    /// The requirement revision this answers.
    pub revision: u64,
    /// The advice, or the requirement field that is out of range.
    pub result: Result<Advice, String>,
    /// Per workload, the plot's series (drawn from the front once, borrowed every frame).
    pub series: Vec<PlotSeries>,
    /// Wall-clock milliseconds the search took.
    pub millis: f64,
}

impl Advised {
    /// Runs the advisor on the state's requirement.
    #[must_use]
    pub fn compute(catalog: &Catalog, state: &AdvisorState) -> Self {
        let started = Instant::now();
        let result = advisor::advise(catalog, &state.req).map_err(|e| e.to_string());
        let millis = started.elapsed().as_secs_f64() * 1e3;
        let series = match &result {
            Ok(advice) => (0..state.req.workloads.len())
                .map(|w| PlotSeries::of(advice, SpeedAxis::of(&state.req, w), w))
                .collect(),
            Err(_) => Vec::new(),
        };
        Self { revision: state.revision, result, series, millis }
    }

    /// The advice, when the requirement was valid.
    #[must_use]
    pub fn advice(&self) -> Option<&Advice> {
        self.result.as_ref().ok()
    }

    /// The front member with this slug.
    #[must_use]
    pub fn candidate(&self, slug: &str) -> Option<&Candidate> {
        self.advice()?.front.iter().find(|c| c.slug == slug)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editing_bumps_the_revision_once_and_leaves_the_preset() {
        let mut s = AdvisorState::default();
        let r = s.revision();
        s.set_requirement(s.req.clone());
        assert_eq!(s.revision(), r, "the same requirement is no change");
        let mut req = s.req.clone();
        req.budget = 30_000.0;
        s.set_requirement(req);
        assert_eq!(s.revision(), r + 1);
        assert_eq!(s.preset, None);
        s.set_preset(Preset::Edge);
        assert_eq!(s.preset, Some(Preset::Edge));
        assert_eq!(s.req, Preset::Edge.requirement());
    }

    #[test]
    fn at_most_four_candidates_are_ticked() {
        let mut s = AdvisorState::default();
        for slug in ["a", "b", "c", "d"] {
            assert!(s.mark(slug, true));
        }
        assert!(!s.mark("e", true));
        assert!(s.mark("b", false));
        assert!(s.mark("e", true));
        assert_eq!(s.marked, ["a", "c", "d", "e"]);
    }

    #[test]
    fn the_entry_preset_plots_every_front_member_of_each_workload() {
        let catalog = Catalog::embedded().unwrap();
        let s = AdvisorState::default();
        let a = Advised::compute(&catalog, &s);
        let advice = a.advice().expect("the entry requirement is valid");
        assert!(!advice.front.is_empty(), "the entry tier has an answer: {:?}", advice.failure);
        assert_eq!(a.series.len(), s.req.workloads.len());
        // Workload 0 is the LoRA run with a token count (hours), workload 1 the serving one.
        assert_eq!(SpeedAxis::of(&s.req, 0), SpeedAxis::Hours);
        assert_eq!(SpeedAxis::of(&s.req, 1), SpeedAxis::Served);
        for (w, series) in a.series.iter().enumerate() {
            assert_eq!(series.points.len(), advice.front.len(), "workload {w}");
            for (i, p) in series.index.iter().zip(&series.points) {
                let c = &advice.front[*i];
                assert!((p.x - c.capex).abs() < 1e-9);
                assert_eq!(Some(p.y), SpeedAxis::of(&s.req, w).value(c, w));
            }
            assert!(series.line.windows(2).all(|q| q[0].x <= q[1].x), "the line runs by capex");
        }
    }
}
