//! Data derived from the document, computed when its revision changes (never inside a
//! panel): the analysis report, each node's slot layout, and, while something is being
//! dragged, the verdict of every drop target.

use crate::core::analysis::fit;
use crate::core::analysis::memory::{self, FitCheck, MemoryEstimate, ModelSpec, Workload};
use crate::core::analysis::serving::{self, ServingEstimate, ServingRequest, Site};
use crate::core::analysis::speed::{self, SpeedEstimate, SpeedSettings};
use crate::core::analysis::{self, Report};
use crate::core::build::{Build, Location};
use crate::core::catalog::{Catalog, PartKind};
use crate::core::i18n::Lang;
use crate::core::placement::{self, NodeSlots, Target, Verdict};
use crate::core::resolve::Resolved;
use crate::core::units::Bytes;
use crate::gui::vocab::{DragPayload, DropTarget};
use egui_plot::PlotPoint;
use std::collections::HashMap;

/// The fit selection, under the names it had when it lived here.
pub use crate::gui::vocab::{FitOverrides, FitSel};

/// The report and layouts of one revision of the build.
#[derive(Clone, Debug)]
pub struct Derived {
    /// The document revision these were computed for.
    pub revision: u64,
    pub report: Report,
    /// Slot layout per node group, in build order.
    pub slots: Vec<NodeSlots>,
    /// Figures per node group, in build order.
    pub nodes: Vec<NodeSummary>,
    pub charts: Charts,
    /// The catalog offers and terms the TCO tab's "Cloud offer" choice lists.
    pub offer_choices: Vec<crate::core::analysis::tco::OfferChoice>,
}

/// A node card's headline figures (per node, not × count).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeSummary {
    /// Capex of one node of the group, in the build's currency (priced lines only).
    pub capex: f64,
    pub gpus: u32,
    pub gpu_memory_gib: f64,
    /// PCIe cards that take NVLink bridges are in the node: its header offers the bridges.
    pub bridgeable: bool,
    /// PSU units per node: more than one, and the header offers redundancy.
    pub psus: u32,
}

impl Derived {
    /// Analyzes the build and lays out its nodes.
    #[must_use]
    pub fn compute(catalog: &Catalog, build: &Build, revision: u64) -> Self {
        let report = analysis::analyze(catalog, build);
        let resolved = Resolved::new(catalog, build);
        let slots = (0..build.nodes.len()).map(|i| placement::node_slots(&resolved, i).unwrap_or_default()).collect();
        let nodes = resolved
            .nodes
            .iter()
            .map(|n| NodeSummary {
                capex: report
                    .bom
                    .lines
                    .iter()
                    .filter(|l| l.location == Location::Node(n.index))
                    .filter_map(|l| l.unit_price.map(|p| p * f64::from(l.quantity_per_node)))
                    .sum(),
                gpus: n.parts.gpu_count(),
                gpu_memory_gib: n.parts.gpu_memory_gib(),
                bridgeable: n.parts.gpus.iter().any(|g| {
                    g.part.form_factor == crate::core::catalog::GpuFormFactor::Pcie
                        && matches!(g.part.interconnect, crate::core::catalog::Interconnect::NvLinkBridge { .. })
                }),
                psus: n.parts.psu_count(),
            })
            .collect();
        let charts = Charts::of(&report);
        let offer_choices = crate::core::analysis::tco::offer_choices(&resolved);
        Self { revision, report, slots, nodes, charts, offer_choices }
    }

    /// Dates the report's catalog prices on today's date (UTC) with the user's threshold, so
    /// that the panels mark stale prices; a clock that cannot give today leaves them undated.
    pub fn date_prices(&mut self, stale_after_months: u32) {
        if let Ok(today) = crate::core::export::SheetDate::today_utc() {
            self.report.date_prices(crate::core::analysis::prices::PriceAgePolicy { as_of: today, stale_after_months });
        }
    }

    /// Renders the report's findings (messages and fixes) in `lang`, once, so that panels
    /// show `message` and `fix` as they are.
    pub fn localize(&mut self, lang: Lang) {
        self.report.localize(lang);
    }
}

/// The verdict of every drop target for one payload and one revision.
#[derive(Clone, Debug)]
pub struct DropPreview {
    pub revision: u64,
    pub payload: DragPayload,
    pub verdicts: HashMap<DropTarget, Verdict>,
}

impl DropPreview {
    /// Checks every target the canvas shows: each node, its slot groups and PCIe slots, and
    /// the cluster area. A slot group's edit is the same as its node's, so it reuses the
    /// node's verdict after its own kind check. A node group identical to an earlier one (a
    /// cluster of one server design) takes the earlier group's outcome for the same edit,
    /// moved to it ([`placement::Trial::for_twin`]): a 64-group cluster is checked as one
    /// group, not 64.
    #[must_use]
    pub fn compute(catalog: &Catalog, build: &Build, derived: &Derived, payload: DragPayload) -> Self {
        let before = &derived.report.diagnostics;
        let resolved = crate::core::resolve::Resolved::new(catalog, build);
        let check = |target: Target| -> placement::Trial {
            match &payload {
                DragPayload::Catalog(part) => placement::trial_add(catalog, build, before, target, part, 1),
                DragPayload::Line { from, line, quantity, .. } => {
                    let units = if matches!(target, Target::PcieSlot { .. }) { 1 } else { *quantity };
                    placement::trial_move(catalog, build, before, *from, *line, target, units)
                }
            }
        };
        // A line moved out of one of the two groups breaks their symmetry.
        let twin_of = |i: usize| -> Option<usize> {
            let j = resolved.twins.get(i).copied().flatten()?;
            let moves_out_of =
                |k: usize| matches!(&payload, DragPayload::Line { from, .. } if *from == Location::Node(k));
            (!moves_out_of(i) && !moves_out_of(j)).then_some(j)
        };
        let mut trials: HashMap<Target, placement::Trial> = HashMap::new();
        let mut trial_of = |target: Target| -> Verdict {
            let copied = node_of(target).and_then(|i| {
                let j = twin_of(i)?;
                let on_twin = trials.get(&retarget(target, j))?;
                on_twin.for_twin(resolved.nodes.get(j)?, resolved.nodes.get(i)?)
            });
            let trial = copied.unwrap_or_else(|| check(target));
            let verdict = trial.verdict();
            trials.insert(target, trial);
            verdict
        };
        let mut verdicts = HashMap::new();
        let same_place = |t: Target| matches!(&payload, DragPayload::Line { from, .. } if *from == t.location());
        for (i, slots) in derived.slots.iter().enumerate() {
            let node = Target::Node(i);
            // Moving a line onto its own node is not a change: no verdict, no highlight.
            let node_verdict = (!same_place(node)).then(|| trial_of(node));
            if let Some(v) = &node_verdict {
                verdicts.insert(DropTarget::Place(node), v.clone());
            }
            for group in &slots.groups {
                let target = Target::Slots { node: i, kind: group.kind };
                let verdict = match placement::target_accepts(catalog, target, payload.part()) {
                    Err(reason) => Some(Verdict::Refuse(vec![reason])),
                    Ok(()) => node_verdict.clone(),
                };
                if let Some(v) = verdict {
                    verdicts.insert(DropTarget::Place(target), v);
                }
            }
            let layout = derived.report.compat.layouts.iter().find(|l| l.node == i);
            for slot in layout.map(|l| &*l.board_slots).unwrap_or_default() {
                let target = Target::PcieSlot { node: i, position: slot.position };
                verdicts.insert(DropTarget::Place(target), trial_of(target));
            }
        }
        if !same_place(Target::Cluster) {
            verdicts.insert(DropTarget::Place(Target::Cluster), check(Target::Cluster).verdict());
        }
        if matches!(payload, DragPayload::Line { .. }) {
            verdicts.insert(DropTarget::Trash, Verdict::Accept);
        }
        Self { revision: derived.revision, payload, verdicts }
    }
}

/// The node group a target is in (`None` for the cluster area).
fn node_of(target: Target) -> Option<usize> {
    match target {
        Target::Node(i) | Target::Slots { node: i, .. } | Target::PcieSlot { node: i, .. } => Some(i),
        Target::Cluster => None,
    }
}

/// The same target in node group `node`.
fn retarget(target: Target, node: usize) -> Target {
    match target {
        Target::Node(_) => Target::Node(node),
        Target::Slots { kind, .. } => Target::Slots { node, kind },
        Target::PcieSlot { position, .. } => Target::PcieSlot { node, position },
        Target::Cluster => Target::Cluster,
    }
}

/// True when a finding is about a build line.
#[must_use]
pub fn finding_touches(report: &Report, finding: usize, at: Location, line: usize) -> bool {
    report.diagnostics.get(finding).is_some_and(|d| d.lines.iter().any(|l| l.location == at && l.line == line))
}

/// True when a finding is about a node group as a whole or any of its lines.
#[must_use]
pub fn finding_touches_node(report: &Report, finding: usize, node: usize) -> bool {
    report
        .diagnostics
        .get(finding)
        .is_some_and(|d| d.node == Some(node) || d.lines.iter().any(|l| l.location == Location::Node(node)))
}

/// Plot series drawn from the report, prepared once per revision so that the plots borrow
/// them every frame (`PlotPoints::Borrowed`) instead of rebuilding them.
#[derive(Clone, Debug, Default)]
pub struct Charts {
    /// Maximum draw per node by part kind: for each kind in the build, (node index, watts).
    pub power_by_kind: Vec<(PartKind, Vec<(f64, f64)>)>,
    /// Cumulative owned cost by month.
    pub tco_owned: Vec<PlotPoint>,
    /// Cumulative cost by month of each cloud option: (option id, curve, break-even month).
    pub tco_options: Vec<(String, Vec<PlotPoint>, Option<f64>)>,
    /// Owned total over the horizon against utilization (%).
    pub util_owned: Vec<PlotPoint>,
    /// Each option's total against utilization (%): (option id, curve).
    pub util_options: Vec<(String, Vec<PlotPoint>)>,
    /// Each GPU's estimated temperature and its limit: (label, estimated °C, limit °C).
    pub gpu_temps: Vec<(String, f64, f64)>,
    /// The limits again as plot points (bar index, °C), for the limit markers.
    pub gpu_limits: Vec<PlotPoint>,
}

impl Charts {
    /// The series of a report.
    #[must_use]
    pub fn of(report: &Report) -> Self {
        let mut by_kind: Vec<(PartKind, Vec<(f64, f64)>)> = Vec::new();
        for (i, node) in report.power.nodes.iter().enumerate() {
            for kind in PartKind::ALL {
                let watts: f64 = node.parts.iter().filter(|p| p.kind == kind).map(|p| p.max_watts).sum();
                if watts <= 0.0 {
                    continue;
                }
                let x = i as f64;
                match by_kind.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, bars)) => bars.push((x, watts)),
                    None => by_kind.push((kind, vec![(x, watts)])),
                }
            }
        }
        by_kind.sort_by_key(|(k, _)| *k);
        let tco = &report.tco;
        let monthly = |curve: &[f64]| -> Vec<PlotPoint> {
            curve.iter().enumerate().map(|(m, v)| PlotPoint::new(m as f64, *v)).collect()
        };
        let tco_options = tco
            .monthly_cumulative
            .options
            .iter()
            .map(|(id, curve)| {
                let option = tco.options.iter().find(|o| &o.input.id == id);
                (id.clone(), monthly(curve), option.and_then(|o| o.break_even_month))
            })
            .collect();
        let sweep = &tco.sensitivity.utilization;
        let util_owned = sweep.iter().map(|p| PlotPoint::new(p.utilization * 100.0, p.owned)).collect();
        let mut util_options: Vec<(String, Vec<PlotPoint>)> = Vec::new();
        for point in sweep {
            for (id, total) in &point.options {
                let p = PlotPoint::new(point.utilization * 100.0, *total);
                match util_options.iter_mut().find(|(i, _)| i == id) {
                    Some((_, pts)) => pts.push(p),
                    None => util_options.push((id.clone(), vec![p])),
                }
            }
        }
        let gpu_temps: Vec<(String, f64, f64)> = report
            .thermal
            .nodes
            .iter()
            .flat_map(|n| {
                n.gpus.iter().map(move |g| {
                    (format!("{} · {} #{}", n.name, g.name, g.unit + 1), g.estimated_temp_c, g.max_temp_c)
                })
            })
            .collect();
        let gpu_limits = gpu_temps.iter().enumerate().map(|(i, (_, _, max))| PlotPoint::new(i as f64, *max)).collect();
        Self {
            power_by_kind: by_kind,
            tco_owned: monthly(&tco.monthly_cumulative.owned),
            tco_options,
            util_owned,
            util_options,
            gpu_temps,
            gpu_limits,
        }
    }
}

/// The layout of a cell the user gave `n` GPUs (of `per_node` × `nodes`): training runs data
/// parallel on all of them (tensor and pipeline degree 1, memory shared by the ZeRO stage);
/// inference splits the model tensor-parallel within a node, over the most GPUs up to `n`
/// that divide the attention heads (Megatron-LM's constraint, Shoeybi et al. 2019 §3; a model
/// without attention heads runs on one), and in pipeline stages across whole nodes beyond one
/// node, as the fit matrix's own search does (`core::analysis::fit`).
/// Returns (tensor degree, pipeline degree, GPUs used).
#[must_use]
pub fn layout_on(spec: &ModelSpec, training: bool, n: u32, per_node: u32, nodes: u32) -> (u32, u32, u32) {
    let per_node = per_node.max(1);
    let n = n.clamp(1, per_node * nodes.max(1));
    if training {
        return (1, 1, n);
    }
    let tp = fit::tp_options(spec, n.min(per_node)).last().unwrap_or(1);
    // One pipeline stage per whole node, at most one per layer (the matrix's bound).
    let layers = spec.transformer().map_or(1, |t| t.layers.max(1));
    let pp = if n > per_node { (n / per_node).min(layers) } else { 1 };
    (tp, pp, tp * pp)
}

/// The memory breakdown and speed of one fit cell under the user's overrides.
#[derive(Clone, Debug)]
pub struct CellDetail {
    pub revision: u64,
    pub sel: FitSel,
    pub overrides: FitOverrides,
    pub model_name: String,
    /// The workload's label, rendered in the UI language by the panel.
    pub workload_label: crate::core::i18n::Text,
    pub gpu_name: String,
    pub capacity: Bytes,
    /// The workload as evaluated (the cell's own, with the overrides applied).
    pub workload: Workload,
    pub gpus: u32,
    /// The GPUs of the cell's node group (per node × nodes), the most the cell may use.
    pub max_gpus: u32,
    pub result: Result<(MemoryEstimate, FitCheck, SpeedEstimate), String>,
    /// Serving figures of an inference cell that fits (or why there are none).
    pub serving: Option<Result<ServingEstimate, String>>,
    /// Energy of the training run over `overrides.train_tokens`, MWh.
    pub train_energy_mwh: Option<f64>,
    /// Where each memory, speed and serving figure comes from (`fit.` keys).
    pub bases: Vec<crate::core::analysis::basis::Basis>,
}

impl CellDetail {
    /// Evaluates a cell with the memory and speed models of the core: the cell's standard
    /// workload and layout, with the overrides applied. None when the selection does not name
    /// an applicable cell.
    #[must_use]
    pub fn compute(
        catalog: &Catalog,
        report: &Report,
        pue: f64,
        revision: u64,
        sel: FitSel,
        overrides: FitOverrides,
    ) -> Option<Self> {
        let matrix = report.fit.get(sel.matrix)?;
        let row = matrix.rows.get(sel.row)?;
        let cell = row.cells.get(sel.col)?;
        let kind = cell.workload;
        let model = catalog.models.get(row.model.as_str())?;
        let gpu = catalog.gpu(&matrix.gpu)?;
        let spec = ModelSpec::from_model(model);
        let mut w = kind.workload(&spec)?;
        if let Some(layout) = cell.layout {
            w.tp = layout.tp;
            w.pp = layout.pp;
        }
        if let Some(v) = overrides.weights {
            w.weights = v;
        }
        if let Some(v) = overrides.batch {
            w.batch = v;
        }
        if let Some(v) = overrides.context {
            w.context = v;
        }
        if let Some(v) = overrides.zero {
            w.zero = v;
        }
        if !w.mode.is_training() {
            w.engine = overrides.engine;
        }
        let mut gpus = cell.gpus_used.unwrap_or(1).max(1);
        if let Some(n) = overrides.gpus {
            let (tp, pp, used) = layout_on(&spec, w.mode.is_training(), n, matrix.gpus_per_node, matrix.nodes);
            (w.tp, w.pp, gpus) = (tp, pp, used);
        }
        let topology = fit::sub_topology(&matrix.topology, gpus);
        let site = Site::of_node(&report.power, matrix.node, topology.nodes, pue);
        let settings = SpeedSettings { tokens: Some(overrides.train_tokens), ..SpeedSettings::default() };
        let result = memory::estimate(&spec, &w, gpus).map_err(|e| e.to_string()).map(|est| {
            let check = memory::check_estimate_on(&est, &w, gpu);
            let speed = speed::estimate_speed(&spec, &w, gpu, &topology, &settings);
            (est, check, speed)
        });
        let fits = result.as_ref().is_ok_and(|(_, check, _)| check.verdict.fits());
        let serving = (fits && !w.mode.is_training() && spec.is_decoder()).then(|| {
            let request = ServingRequest {
                prompt_tokens: overrides.prompt,
                users: overrides.users,
                tokens_per_user: overrides.tokens_per_user,
            };
            serving::estimate(&spec, &w, gpu, &topology, &request, site)
        });
        let train_energy_mwh = result
            .as_ref()
            .ok()
            .filter(|_| fits)
            .and_then(|(_, _, s)| s.gpu_hours)
            .map(|h| serving::train_energy_mwh(h, gpu, site, gpus));
        let bases = result.as_ref().map_or_else(
            |_| Vec::new(),
            |(estimate, check, speed)| {
                crate::core::analysis::basis::fit::of_fit(&crate::core::analysis::basis::fit::FitInputs {
                    spec: &spec,
                    workload: &w,
                    gpu: Some((gpu, &topology)),
                    settings: &settings,
                    estimate,
                    check: Some(check),
                    speed: Some(speed).filter(|_| fits),
                    serving: serving.as_ref().and_then(|s| s.as_ref().ok()),
                    site: Some(site),
                })
            },
        );
        Some(Self {
            revision,
            sel,
            overrides,
            model_name: row.model_name.clone(),
            workload_label: kind.label_text(),
            gpu_name: matrix.gpu_name.clone(),
            capacity: matrix.gpu_memory_bytes,
            workload: w,
            gpus,
            max_gpus: matrix.gpus_per_node.max(1) * matrix.nodes.max(1),
            result,
            serving,
            train_energy_mwh,
            bases,
        })
    }
}
