//! The advisor: "what should I buy?" answered with whole builds from the catalog.
//!
//! Theory of operation. The user states workloads that must all run (a model, a mode, a
//! precision, a context, and a target: concurrent users at a per-user decode speed, or tokens
//! to train by a deadline), a capex budget (and optionally a TCO ceiling), a site (circuits,
//! ambient, form) and an objective. [`advise`] then:
//! 1. builds the [`search::Pools`] of parts the requirement allows;
//! 2. walks every *configuration* — GPU model × GPUs per node × nodes × fabric, and every
//!    complete system × nodes — cheapest bounds first: a configuration whose GPUs alone cost
//!    more than the budget is dropped unseen; one whose GPUs cannot hold or run a workload is
//!    dropped after the workload estimates ([`workloads`]) and before any platform search;
//! 3. for each configuration left, finds the cheapest complete, compatible node that passes
//!    the editor's checks and the site's limits ([`search::NodeSearch::cheapest`], a branch
//!    and bound that is exact over the candidate space described in [`search`]);
//! 4. keeps the Pareto front of capex against each workload's figure (served tokens/s for
//!    inference, training tokens/s — the inverse of time to result — for training), ranks it
//!    by the objective, analyses each front build in full (its figures are the report's own),
//!    and says in words which constraint binds each one and why a named part is not there.
//!
//! [`brute`] enumerates the same space without bounds, filters or shortcuts; a property test
//! holds its front equal to [`advise`]'s on small catalogs.

pub mod brute;
pub mod explain;
pub mod pools;
pub mod reasons;
pub mod requirement;
pub mod search;
pub mod workloads;

pub use reasons::Reason;
pub use requirement::{
    Circuits, Filters, Form, Objective, Preset, Requirement, RequirementError, SiteReq, WorkMode, WorkloadReq,
};

use crate::core::analysis::memory::ModelSpec;
use crate::core::analysis::speed::Topology;
use crate::core::analysis::{self, tco};
use crate::core::build::Build;
use crate::core::catalog::{Catalog, Gpu, PartId, System};
use crate::core::resolve::Resolved;
use search::{Block, Fabric, NodeDesign, NodeSearch, Pools, Priced, Stats};
use serde::Serialize;
use std::collections::HashMap;
use workloads::{GpuSetup, Shortfall, WorkloadFit};

/// Most front members the advisor returns (the front of a large catalog and many node counts
/// can be long; the ranked first ones are the answer).
pub const MAX_FRONT: usize = 40;

/// What a configuration is: the GPUs and their links, and the system it comes as, if any.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct ConfigKey {
    pub gpu: PartId,
    pub per_node: u32,
    pub nodes: u32,
    /// The fabric NIC and its count per node (multi-node assembled builds).
    pub nic: Option<(PartId, u32)>,
    pub system: Option<PartId>,
}

impl ConfigKey {
    /// The key of an assembled configuration: GPUs, counts and the fabric's NICs.
    #[must_use]
    pub fn assembled(gpu: &Gpu, per_node: u32, nodes: u32, fabric: &Fabric<'_>) -> Self {
        Self {
            gpu: gpu.id.clone(),
            per_node,
            nodes,
            nic: fabric.nic.map(|(n, r)| (n.part.id.clone(), r)),
            system: None,
        }
    }
}

/// What became of a configuration.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// Its GPUs (and NICs) alone cost more than the budget.
    OverBudget { gpus_cost: f64 },
    /// A workload does not run on it.
    Workload { workload: usize, shortfall: Shortfall },
    /// No complete build of it passes the checks within the budget.
    Blocked { block: Block },
    /// A candidate (index into the candidates).
    Candidate { index: usize },
}

/// One feasible configuration with its cheapest build.
#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    /// 1 for the first of the ranking.
    pub rank: usize,
    /// A file-name slug (`2x-geforce-rtx-4090-tower`).
    pub slug: String,
    pub key: ConfigKey,
    pub gpu_name: String,
    pub build: Build,
    /// Capex of the build (the report's), requirement currency.
    pub capex: f64,
    /// Owned TCO over the horizon (the report's).
    pub tco_owned: f64,
    /// Wall draw of the whole build at maximum load, W.
    pub wall_watts: f64,
    pub circuits_needed: u64,
    pub workloads: Vec<WorkloadFit>,
    /// Per workload: owned cost per 1M tokens (inference at the requested load) or per
    /// training run, from the TCO analysis.
    pub cost_per_million_tokens: Vec<Option<f64>>,
    pub cost_per_run: Vec<Option<f64>>,
    /// Why this build and not a neighbour: the constraints that bind it.
    pub reasons: Vec<Reason>,
    /// The analysis of `build` the figures above are read from: where a front end finds their
    /// bases (`Report::basis`, written when first asked for). Not serialized.
    #[serde(skip)]
    pub report: std::sync::Arc<analysis::Report>,
    /// Per workload, the TCO priced with its throughput, whose bases explain the cost per 1M
    /// tokens. Not serialized.
    #[serde(skip)]
    pub priced: std::sync::Arc<Vec<tco::Tco>>,
    /// Where the workloads' figures come from ([`explain::of_workload`], [`explain::of_cost`]):
    /// keys `workloads[k].served_tokens_per_s`, `.per_user_tokens_per_s`,
    /// `.train_tokens_per_s`, `.hours` and `cost_per_million_tokens[k]`, the JSON paths of the
    /// figures in the candidate.
    pub bases: Vec<crate::core::analysis::basis::Basis>,
}

/// "Why not this part?"
#[derive(Clone, Debug, Serialize)]
pub struct WhyNot {
    pub part: PartId,
    pub name: String,
    pub reason: Reason,
}

/// The advisor's answer.
#[derive(Clone, Debug, Serialize)]
pub struct Advice {
    /// The Pareto front, ranked by the objective (at most [`MAX_FRONT`]).
    pub front: Vec<Candidate>,
    /// Front members left out past [`MAX_FRONT`].
    pub front_left_out: usize,
    pub stats: Stats,
    /// When the front is empty: the constraint that failed for the most promising
    /// configuration.
    pub failure: Option<Reason>,
    pub why_not: Vec<WhyNot>,
    /// Catalog parts left out because they have no price.
    pub unpriced: Vec<PartId>,
}

/// One workload's model, resolved.
pub(crate) struct Work {
    pub spec: ModelSpec,
    /// The model's name, for reasons.
    pub name: String,
    /// The `rigplan fit` flags that name the model (`--model ID`, or a custom architecture's
    /// `--params … --layers …`).
    pub flags: String,
}

/// The figures of a configuration's workloads, cached by configuration.
pub(crate) type PerfCache = HashMap<(PartId, u32, u32, u64, bool), Result<Vec<WorkloadFit>, (usize, Shortfall)>>;

/// Evaluates every workload on a configuration's GPUs (cached).
#[expect(clippy::too_many_arguments, reason = "the configuration's fields and the cache, as the search holds them")]
pub(crate) fn perf(
    cache: &mut PerfCache,
    works: &[Work],
    req: &Requirement,
    gpu: &Gpu,
    per_node: u32,
    nodes: u32,
    nic_gbps: f64,
    bridge: bool,
) -> Result<Vec<WorkloadFit>, (usize, Shortfall)> {
    let key = (gpu.id.clone(), per_node, nodes, nic_gbps.to_bits(), bridge);
    if let Some(r) = cache.get(&key) {
        return r.clone();
    }
    let topology = Topology::new(gpu, per_node, nodes, bridge, nic_gbps);
    let setup = GpuSetup { gpu, per_node, nodes, topology };
    let result = works
        .iter()
        .zip(&req.workloads)
        .enumerate()
        .map(|(i, (w, r))| workloads::evaluate(i, &w.spec, r, &setup, &w.flags).map_err(|s| (i, s)))
        .collect::<Result<Vec<_>, _>>();
    cache.insert(key, result.clone());
    result
}

/// Resolves the workloads' models.
///
/// # Errors
/// A model the catalog does not know.
pub(crate) fn works(catalog: &Catalog, req: &Requirement) -> Result<Vec<Work>, RequirementError> {
    req.workloads
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if let Some(arch) = &w.custom {
                let spec = arch
                    .spec(w.context)
                    .map_err(|message| RequirementError { field: format!("workloads[{i}].custom"), message })?;
                return Ok(Work { spec, name: arch.name(), flags: arch.flags() });
            }
            let model = catalog.models.get(w.model.as_str()).ok_or_else(|| RequirementError {
                field: format!("workloads[{i}].model"),
                message: format!("`{}` is not in the model catalog (rigplan catalog list --kind model)", w.model),
            })?;
            let id = model.id.as_str().strip_prefix("model/").unwrap_or(model.id.as_str());
            Ok(Work { spec: ModelSpec::from_model(model), name: model.name.clone(), flags: format!("--model {id}") })
        })
        .collect()
}

/// A feasible configuration before ranking.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub key: ConfigKey,
    pub gpu_name: String,
    pub design: NodeDesign,
    pub switch: Option<(PartId, u32)>,
    /// Capex as the search priced it.
    pub capex: f64,
    pub fits: Vec<WorkloadFit>,
    /// The GPUs' links the workloads were estimated on.
    pub topology: Topology,
}

impl Found {
    pub fn scores(&self) -> Vec<f64> {
        self.fits.iter().map(WorkloadFit::score).collect()
    }
}

/// Indices of the Pareto front of `items` (capex, scores): an item is dropped when another
/// costs no more and scores no less on every workload, and is better somewhere; of items with
/// equal figures the first is kept.
#[must_use]
pub fn pareto(items: &[(f64, Vec<f64>)]) -> Vec<usize> {
    let dominates = |a: &(f64, Vec<f64>), b: &(f64, Vec<f64>)| {
        a.0 <= b.0
            && a.1.iter().zip(&b.1).all(|(x, y)| x >= y)
            && (a.0 < b.0 || a.1.iter().zip(&b.1).any(|(x, y)| x > y))
    };
    let mut out: Vec<usize> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if items.iter().any(|o| dominates(o, item)) {
            continue;
        }
        if out.iter().any(|&j| items.get(j).is_some_and(|o| o == item)) {
            continue;
        }
        out.push(i);
    }
    out
}

/// The search over every configuration: the feasible ones and the outcome of each.
pub(crate) struct Searched {
    pub found: Vec<Found>,
    pub outcomes: Vec<(ConfigKey, Outcome)>,
    pub stats: Stats,
}

/// Walks the configurations of a requirement (see the module docs).
pub(crate) fn search_all(catalog: &Catalog, req: &Requirement, pools: &Pools<'_>, works: &[Work]) -> Searched {
    let mut stats = Stats::default();
    let mut cache = PerfCache::new();
    let mut found = Vec::new();
    let mut outcomes = Vec::new();
    let max_k = req.max_gpus_per_node();
    let max_n = req.max_nodes();
    for gpu in &pools.gpus {
        for per_node in 1..=max_k {
            for nodes in 1..=max_n {
                for fabric in search::fabrics(pools, nodes, per_node) {
                    stats.configurations += 1;
                    let key = ConfigKey::assembled(gpu.part, per_node, nodes, &fabric);
                    let gpus_cost =
                        (gpu.price * f64::from(per_node) + fabric.nic_cost()) * f64::from(nodes) + fabric.switch_cost();
                    if gpus_cost > req.budget {
                        stats.bounded += 1;
                        outcomes.push((key, Outcome::OverBudget { gpus_cost }));
                        continue;
                    }
                    stats.estimated += 1;
                    let bridge = search::bridged(gpu.part, per_node);
                    let fits = match perf(&mut cache, works, req, gpu.part, per_node, nodes, fabric.nic_gbps(), bridge)
                    {
                        Ok(f) => f,
                        Err((workload, shortfall)) => {
                            outcomes.push((key, Outcome::Workload { workload, shortfall }));
                            continue;
                        }
                    };
                    let mut ns = NodeSearch { catalog, req, pools, stats: &mut stats };
                    match ns.cheapest(*gpu, per_node, nodes, &fabric, req.budget) {
                        Ok((design, _)) => {
                            let capex = design.cost * f64::from(nodes) + fabric.switch_cost();
                            outcomes.push((key.clone(), Outcome::Candidate { index: found.len() }));
                            found.push(Found {
                                key,
                                gpu_name: gpu.part.name.clone(),
                                design,
                                switch: fabric.switch.map(|(s, c)| (s.part.id.clone(), c)),
                                capex,
                                fits,
                                topology: Topology::new(gpu.part, per_node, nodes, bridge, fabric.nic_gbps()),
                            });
                        }
                        Err(block) => outcomes.push((key, Outcome::Blocked { block })),
                    }
                }
            }
        }
    }
    for system in &pools.systems {
        for nodes in 1..=max_n {
            systems_config(
                catalog,
                req,
                pools,
                works,
                system,
                nodes,
                &mut cache,
                &mut stats,
                &mut found,
                &mut outcomes,
            );
        }
    }
    Searched { found, outcomes, stats }
}

/// The switch a cluster of `nodes` systems needs (more than two nodes), as for NICs.
#[expect(clippy::option_option, reason = "None: no switch connects them; Some(None): none is needed")]
fn system_switch<'a>(
    pools: &Pools<'a>,
    system: &System,
    nodes: u32,
) -> Option<Option<(Priced<'a, crate::core::catalog::Switch>, u32)>> {
    if nodes <= 2 {
        return Some(None);
    }
    pools
        .switches
        .iter()
        .filter(|s| s.part.port_speed_gbps > 0.0)
        .filter_map(|s| {
            let per_node =
                crate::core::units::round_non_negative((system.fabric_gbps / s.part.port_speed_gbps).ceil()).max(1);
            let ports = per_node.checked_mul(u64::from(nodes))?;
            let count = u32::try_from(ports.div_ceil(u64::from(s.part.ports.max(1)))).ok()?.max(1);
            Some((*s, count))
        })
        .min_by(|a, b| (a.0.price * f64::from(a.1)).total_cmp(&(b.0.price * f64::from(b.1))))
        .map(Some)
}

#[expect(clippy::too_many_arguments, reason = "the search's shared state, passed down one level")]
pub(crate) fn systems_config<'a>(
    catalog: &'a Catalog,
    req: &Requirement,
    pools: &Pools<'a>,
    works: &[Work],
    system: &Priced<'a, System>,
    nodes: u32,
    cache: &mut PerfCache,
    stats: &mut Stats,
    found: &mut Vec<Found>,
    outcomes: &mut Vec<(ConfigKey, Outcome)>,
) {
    let s = system.part;
    let Some(first) = s.gpus.first() else { return };
    let Some(gpu) = catalog.gpu(&first.gpu) else { return };
    let per_node = u32::from(first.count);
    if per_node == 0 {
        return;
    }
    stats.configurations += 1;
    let key = ConfigKey { gpu: gpu.id.clone(), per_node, nodes, nic: None, system: Some(s.id.clone()) };
    if nodes > 1 && s.fabric_gbps <= 0.0 {
        return;
    }
    let Some(switch) = system_switch(pools, s, nodes) else { return };
    let fabric = Fabric { nic: None, switch };
    let capex = system.price * f64::from(nodes) + fabric.switch_cost();
    if capex > req.budget {
        stats.bounded += 1;
        outcomes.push((key, Outcome::OverBudget { gpus_cost: capex }));
        return;
    }
    stats.estimated += 1;
    let bridge = search::bridged(gpu, per_node);
    let fits = match perf(cache, works, req, gpu, per_node, nodes, s.fabric_gbps, bridge) {
        Ok(f) => f,
        Err((workload, shortfall)) => {
            outcomes.push((key, Outcome::Workload { workload, shortfall }));
            return;
        }
    };
    let design = NodeDesign {
        lines: vec![crate::core::build::PartLine::new(s.id.clone(), 1)],
        nvlink_bridge: false,
        cost: system.price,
    };
    let build = search::assemble(req, "candidate", &design, nodes, &fabric);
    stats.checked += 1;
    match search::check(catalog, req, &build) {
        Ok(_) => {
            outcomes.push((key.clone(), Outcome::Candidate { index: found.len() }));
            found.push(Found {
                key,
                gpu_name: gpu.name.clone(),
                design,
                switch: fabric.switch.map(|(sw, c)| (sw.part.id.clone(), c)),
                capex,
                fits,
                topology: Topology::new(gpu, per_node, nodes, bridge, s.fabric_gbps),
            });
        }
        Err(block) => outcomes.push((key, Outcome::Blocked { block })),
    }
}

/// Answers a requirement.
///
/// # Errors
/// A requirement field out of range, or a model the catalog does not know.
pub fn advise(catalog: &Catalog, req: &Requirement) -> Result<Advice, RequirementError> {
    req.validate()?;
    let works = works(catalog, req)?;
    let pools = Pools::new(catalog, req);
    let searched = search_all(catalog, req, &pools, &works);
    let items: Vec<(f64, Vec<f64>)> = searched.found.iter().map(|f| (f.capex, f.scores())).collect();
    let front_idx = pareto(&items);
    let mut front: Vec<Candidate> =
        front_idx.iter().filter_map(|&i| searched.found.get(i)).map(|f| finalize(catalog, req, &works, f)).collect();
    rank(&mut front, req);
    let front_left_out = front.len().saturating_sub(MAX_FRONT);
    // The extremes of the whole front, before it is cut to what is shown.
    let best = best_scores(&front, req.workloads.len());
    let cheapest = front.iter().min_by(|a, b| a.capex.total_cmp(&b.capex)).map(|c| c.key.clone());
    let fastest = front.iter().max_by(|a, b| speed(&best, a).total_cmp(&speed(&best, b))).map(|c| c.key.clone());
    front.truncate(MAX_FRONT);
    for c in &mut front {
        if cheapest.as_ref() == Some(&c.key) {
            c.reasons.push(Reason::Cheapest);
        }
        if fastest.as_ref() == Some(&c.key) {
            c.reasons.push(Reason::Fastest);
        }
        c.reasons.extend(reasons::reasons(catalog, req, &works, c, &searched));
    }
    let failure = front.is_empty().then(|| reasons::failure(catalog, req, &works, &searched));
    let why_not = req
        .why_not
        .iter()
        .map(|p| reasons::why_not(catalog, req, &works, &searched, &front, front_left_out, p))
        .collect();
    Ok(Advice { front, front_left_out, stats: searched.stats, failure, why_not, unpriced: pools.unpriced.clone() })
}

/// The candidate of a feasible configuration, analysed in full: its build, the report's
/// figures and the workloads' costs.
fn finalize(catalog: &Catalog, req: &Requirement, works: &[Work], f: &Found) -> Candidate {
    let name = build_name(f);
    let mut build = search::assemble(req, &name, &f.design, f.key.nodes, &Fabric::NONE);
    if let Some((s, c)) = &f.switch {
        build.cluster = vec![crate::core::build::PartLine::new(s.clone(), *c)];
    }
    build.description = format!(
        "Proposed by rigplan advise for {}, at catalog prices (each part's price date is in the sheet).",
        req.workloads.iter().map(|w| w.model.as_str().trim_start_matches("model/")).collect::<Vec<_>>().join(", ")
    );
    let report = analysis::analyze(catalog, &build);
    let resolved = Resolved::new(catalog, &build);
    let price = |fit: &WorkloadFit, w: &WorkloadReq| -> tco::Tco {
        let tokens_per_second = match w.mode {
            WorkMode::Inference => fit.per_user_tokens_per_s.unwrap_or(0.0) * f64::from(w.users),
            _ => fit.train_tokens_per_s.unwrap_or(0.0),
        };
        let input =
            (tokens_per_second > 0.0).then_some(tco::WorkloadInput { tokens_per_second, run_tokens: w.train_tokens });
        analysis::analyze_tco(&resolved, &report.bom, &report.power, input)
    };
    let priced: Vec<tco::Tco> = f.fits.iter().zip(&req.workloads).map(|(fit, w)| price(fit, w)).collect();
    let mut bases = catalog.gpu(&f.key.gpu).map_or_else(Vec::new, |gpu| {
        let setup = GpuSetup { gpu, per_node: f.key.per_node, nodes: f.key.nodes, topology: f.topology.clone() };
        f.fits
            .iter()
            .zip(works.iter().zip(&req.workloads))
            .enumerate()
            .flat_map(|(k, (fit, (work, w)))| explain::of_workload(k, &work.spec, w, &setup, fit))
            .collect()
    });
    bases.extend(
        priced
            .iter()
            .zip(&req.workloads)
            .enumerate()
            .filter(|(_, (_, w))| w.mode == WorkMode::Inference)
            .filter_map(|(k, (t, _))| explain::of_cost(k, &build.site, t)),
    );
    Candidate {
        rank: 0,
        slug: slug(f, req),
        key: f.key.clone(),
        gpu_name: f.gpu_name.clone(),
        capex: report.summary.capex,
        tco_owned: report.summary.tco.owned_total,
        wall_watts: report.summary.wall_watts,
        circuits_needed: report.power.rack.circuits_needed,
        workloads: f.fits.clone(),
        cost_per_million_tokens: priced
            .iter()
            .zip(&req.workloads)
            .map(|(t, w)| {
                if w.mode == WorkMode::Inference {
                    t.workload.as_ref().and_then(|x| x.owned_per_million_tokens)
                } else {
                    None
                }
            })
            .collect(),
        cost_per_run: priced.iter().map(|t| t.workload.as_ref().and_then(|x| x.owned_per_run)).collect(),
        reasons: Vec::new(),
        build,
        report: std::sync::Arc::new(report),
        priced: std::sync::Arc::new(priced),
        bases,
    }
}

/// "2 × GeForce RTX 4090 workstation" / "4 nodes × 8 × H100 SXM5".
fn build_name(f: &Found) -> String {
    let gpus = format!("{} × {}", f.key.per_node, f.gpu_name);
    if f.key.nodes > 1 { format!("{} nodes × {gpus}", f.key.nodes) } else { gpus }
}

/// A file-name slug: nodes, GPUs, the GPU's id and the form.
fn slug(f: &Found, req: &Requirement) -> String {
    let gpu = f.key.system.as_ref().unwrap_or(&f.key.gpu);
    let tail = gpu.as_str().split_once('/').map_or(gpu.as_str(), |(_, t)| t);
    let nodes = if f.key.nodes > 1 { format!("{}n-", f.key.nodes) } else { String::new() };
    let count = if f.key.system.is_some() { String::new() } else { format!("{}x-", f.key.per_node) };
    format!("{nodes}{count}{tail}-{}", req.site.form.id())
}

/// The front's best score of each workload.
fn best_scores(front: &[Candidate], workloads: usize) -> Vec<f64> {
    (0..workloads)
        .map(|i| front.iter().filter_map(|c| c.workloads.get(i)).map(WorkloadFit::score).fold(0.0, f64::max))
        .collect()
}

/// A candidate's speed over all workloads: the sum of its scores, each relative to the front's
/// best of that workload (so that tokens/s of different models add up fairly).
fn speed(best: &[f64], c: &Candidate) -> f64 {
    c.workloads.iter().zip(best).map(|(w, b)| if *b > 0.0 { w.score() / b } else { 0.0 }).sum()
}

/// Orders the front by the objective (ties by capex, then by the configuration) and numbers it.
fn rank(front: &mut [Candidate], req: &Requirement) {
    let best = best_scores(front, req.workloads.len());
    let speed = |c: &Candidate| speed(&best, c);
    front.sort_by(|a, b| {
        let primary = match req.objective {
            Objective::Capex => a.capex.total_cmp(&b.capex),
            Objective::Tco => a.tco_owned.total_cmp(&b.tco_owned),
            Objective::Fastest => speed(b).total_cmp(&speed(a)),
            Objective::Power => a.wall_watts.total_cmp(&b.wall_watts),
        };
        primary.then(a.capex.total_cmp(&b.capex)).then_with(|| a.key.cmp(&b.key))
    });
    for (i, c) in front.iter_mut().enumerate() {
        c.rank = i + 1;
    }
}
