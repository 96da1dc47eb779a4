//! Which reason applies: the constraint that binds a front build (from the outcomes of the
//! configurations beside it), why nothing meets a requirement (the most promising
//! configuration's outcome), and why a named part is not on the front.

use super::Reason;
use crate::core::advisor::search::Block;
use crate::core::advisor::workloads::Shortfall;
use crate::core::advisor::{Candidate, ConfigKey, Outcome, Requirement, Searched, WhyNot, Work};
use crate::core::catalog::{Catalog, PartId};
use crate::core::units::format_thousands;

/// An amount in the requirement's currency, as reasons print it (`200,000 CNY`).
fn money(req: &Requirement, amount: f64) -> String {
    format!("{} {}", format_thousands(amount, 0), req.currency)
}

fn one_decimal(x: f64) -> String {
    format_thousands(x, 1)
}

fn gpu_name(catalog: &Catalog, id: &PartId) -> String {
    catalog.get(id).map_or_else(|| id.to_string(), |p| p.name().to_owned())
}

/// The outcome of a configuration, if the search walked it.
fn outcome<'s>(searched: &'s Searched, key: &ConfigKey) -> Option<&'s Outcome> {
    searched.outcomes.iter().find(|(k, _)| k == key).map(|(_, o)| o)
}

/// The reason a shortfall on `gpus` × `gpu` gives for needing more of them.
fn fewer_reason(
    works: &[Work],
    req: &Requirement,
    workload: usize,
    shortfall: &Shortfall,
    fewer: u32,
    gpu: &str,
) -> Option<Reason> {
    let w = works.get(workload)?;
    let r = req.workloads.get(workload)?;
    Some(match shortfall {
        Shortfall::Memory { gpu_memory_bytes, .. } => Reason::NeedsGpusForMemory {
            model: w.name.clone(),
            weights: r.weights.name().to_owned(),
            gpus: fewer + 1,
            gpu: gpu.to_owned(),
            gib: format!("{:.0}", gpu_memory_bytes.gib()),
        },
        Shortfall::Users { capacity, users } => Reason::NeedsGpusForUsers {
            model: w.name.clone(),
            fewer,
            capacity: *capacity,
            users: *users,
            target: one_decimal(r.tokens_per_user),
        },
        Shortfall::Speed { per_user_tokens_per_s, target } => Reason::NeedsGpusForSpeed {
            model: w.name.clone(),
            fewer,
            per_user: one_decimal(*per_user_tokens_per_s),
            target: one_decimal(*target),
        },
        Shortfall::Deadline { hours, deadline_hours } => Reason::NeedsGpusForDeadline {
            model: w.name.clone(),
            fewer,
            hours: one_decimal(*hours),
            deadline: one_decimal(*deadline_hours),
        },
        Shortfall::NotApplicable | Shortfall::Precision { .. } => return None,
    })
}

/// What binds a front build: why not fewer GPUs, why not more, and (for the first) which
/// faster GPUs the budget rules out.
pub(crate) fn reasons(
    catalog: &Catalog,
    req: &Requirement,
    works: &[Work],
    c: &Candidate,
    searched: &Searched,
) -> Vec<Reason> {
    let mut out = Vec::new();
    let gpu = c.gpu_name.clone();
    let key = &c.key;
    if key.system.is_none() {
        if key.per_node > 1 {
            let fewer = ConfigKey { per_node: key.per_node - 1, ..key.clone() };
            let fewer = if fewer.nic.is_some() {
                ConfigKey { nic: key.nic.clone().map(|(n, r)| (n, r.min(key.per_node - 1))), ..fewer }
            } else {
                fewer
            };
            if let Some(Outcome::Workload { workload, shortfall }) = outcome(searched, &fewer)
                && let Some(r) = fewer_reason(works, req, *workload, shortfall, key.per_node - 1, &gpu)
            {
                out.push(r);
            }
        }
        let more = ConfigKey { per_node: key.per_node + 1, ..key.clone() };
        match outcome(searched, &more) {
            Some(
                Outcome::OverBudget { .. }
                | Outcome::Blocked { block: Block::Budget { .. } | Block::NoneWithinBudget { .. } },
            ) => {
                out.push(Reason::BudgetCaps {
                    more: key.per_node + 1,
                    gpu: gpu.clone(),
                    budget: money(req, req.budget),
                });
            }
            Some(Outcome::Blocked { block: Block::Circuits { needed, available } }) => {
                out.push(Reason::CircuitCaps { gpus: key.per_node, needed: *needed, available: *available });
            }
            Some(Outcome::Blocked { block: Block::Finding { code, message } }) if code == "circuit-overload" => {
                out.push(Reason::CircuitLimit { gpus: key.per_node, code: code.clone(), finding: message.clone() });
            }
            Some(Outcome::Blocked { block: Block::Finding { code, message } }) => {
                out.push(Reason::PlatformCaps {
                    more: key.per_node + 1,
                    gpu: gpu.clone(),
                    code: code.clone(),
                    finding: message.clone(),
                });
            }
            _ => {}
        }
    }
    if c.rank == 1 {
        let my_bw = catalog.gpu(&key.gpu).map_or(0.0, |g| g.memory_bandwidth_gbs);
        let mut ruled: Vec<(f64, f64, String)> = Vec::new();
        for g in &catalog.gpus {
            if g.memory_bandwidth_gbs <= my_bw || g.id == key.gpu {
                continue;
            }
            let mine: Vec<&Outcome> = searched.outcomes.iter().filter(|(k, _)| k.gpu == g.id).map(|(_, o)| o).collect();
            if mine.is_empty() || !mine.iter().all(|o| matches!(o, Outcome::OverBudget { .. })) {
                continue;
            }
            let cheapest = mine
                .iter()
                .filter_map(|o| if let Outcome::OverBudget { gpus_cost } = o { Some(*gpus_cost) } else { None })
                .fold(f64::INFINITY, f64::min);
            ruled.push((g.memory_bandwidth_gbs, cheapest, g.name.clone()));
        }
        // The two cheapest of the faster GPUs: the ones the user would try next.
        ruled.sort_by(|a, b| a.1.total_cmp(&b.1).then(b.0.total_cmp(&a.0)));
        ruled.truncate(2);
        if !ruled.is_empty() {
            let cheapest = ruled.iter().map(|r| r.1).fold(f64::INFINITY, f64::min);
            out.push(Reason::BudgetRulesOut {
                gpus: ruled.iter().map(|r| r.2.clone()).collect::<Vec<_>>().join(", "),
                cheapest: money(req, cheapest),
                budget: money(req, req.budget),
            });
        }
    }
    out
}

/// How far a configuration got: higher is closer to a candidate.
fn stage(o: &Outcome) -> u8 {
    match o {
        Outcome::OverBudget { .. } => 1,
        Outcome::Workload {
            shortfall: Shortfall::Memory { .. } | Shortfall::NotApplicable | Shortfall::Precision { .. },
            ..
        } => 0,
        Outcome::Workload { .. } => 2,
        Outcome::Blocked { .. } => 3,
        Outcome::Candidate { .. } => 4,
    }
}

/// The reason for one outcome of `key`.
fn outcome_reason(catalog: &Catalog, req: &Requirement, works: &[Work], key: &ConfigKey, o: &Outcome) -> Reason {
    let gpus = key.per_node.saturating_mul(key.nodes);
    let gpu = gpu_name(catalog, key.system.as_ref().unwrap_or(&key.gpu));
    let model = |i: usize| works.get(i).map_or_else(String::new, |w| w.name.clone());
    match o {
        Outcome::OverBudget { gpus_cost } => {
            Reason::OverBudget { gpus, gpu, cost: money(req, *gpus_cost), budget: money(req, req.budget) }
        }
        Outcome::Workload { workload, shortfall } => {
            let r = req.workloads.get(*workload);
            match shortfall {
                Shortfall::Memory { gpu_memory_bytes, .. } => Reason::DoesNotFit {
                    model: model(*workload),
                    weights: r.map_or_else(String::new, |r| r.weights.name().to_owned()),
                    gpus,
                    gpu,
                    gib: format!("{:.0}", gpu_memory_bytes.gib()),
                },
                Shortfall::Users { capacity, users } => Reason::TooFewUsers {
                    model: model(*workload),
                    capacity: *capacity,
                    users: *users,
                    target: r.map_or_else(String::new, |r| one_decimal(r.tokens_per_user)),
                    gpus,
                    gpu,
                },
                Shortfall::Speed { per_user_tokens_per_s, target } => Reason::TooSlow {
                    model: model(*workload),
                    per_user: one_decimal(*per_user_tokens_per_s),
                    target: one_decimal(*target),
                    gpus,
                    gpu,
                },
                Shortfall::Deadline { hours, deadline_hours } => Reason::MissesDeadline {
                    model: model(*workload),
                    hours: one_decimal(*hours),
                    deadline: one_decimal(*deadline_hours),
                    gpus,
                    gpu,
                },
                Shortfall::NotApplicable => Reason::NotApplicable { model: model(*workload) },
                Shortfall::Precision { precision } => {
                    Reason::LacksPrecision { model: model(*workload), precision: precision.clone(), gpu }
                }
            }
        }
        Outcome::Blocked { block } => match block {
            Block::Budget { cheapest, budget } => {
                Reason::OverBudget { gpus, gpu, cost: money(req, *cheapest), budget: money(req, *budget) }
            }
            Block::NoneWithinBudget { budget } => Reason::NoneWithinBudget { gpus, gpu, budget: money(req, *budget) },
            Block::Finding { code, message } => {
                Reason::Blocked { gpus, gpu, code: code.clone(), finding: message.clone() }
            }
            Block::Circuits { needed, available } => {
                Reason::Circuits { gpus, gpu, needed: *needed, available: *available }
            }
            Block::Tco { owned, ceiling } => {
                Reason::TcoOver { gpus, gpu, owned: money(req, *owned), ceiling: money(req, *ceiling) }
            }
            Block::NoParts { .. } => Reason::NoParts,
        },
        Outcome::Candidate { .. } => Reason::OnFront { rank: 0 },
    }
}

/// The most promising failure among `outcomes`: the one that got furthest; ties go to the
/// cheapest over-budget configuration, the largest one that ran out of memory, and otherwise
/// the first.
fn most_promising<'s>(outcomes: impl Iterator<Item = &'s (ConfigKey, Outcome)>) -> Option<&'s (ConfigKey, Outcome)> {
    let mut best: Option<&(ConfigKey, Outcome)> = None;
    for item in outcomes {
        let better = match best {
            None => true,
            Some(prev) => match stage(&item.1).cmp(&stage(&prev.1)) {
                std::cmp::Ordering::Greater => true,
                std::cmp::Ordering::Less => false,
                std::cmp::Ordering::Equal => match (&item.1, &prev.1) {
                    (Outcome::OverBudget { gpus_cost: mine }, Outcome::OverBudget { gpus_cost: theirs }) => {
                        mine < theirs
                    }
                    (Outcome::Workload { shortfall: Shortfall::Memory { .. }, .. }, _) => {
                        item.0.per_node * item.0.nodes > prev.0.per_node * prev.0.nodes
                    }
                    _ => false,
                },
            },
        };
        if better {
            best = Some(item);
        }
    }
    best
}

/// Why nothing meets the requirement.
pub(crate) fn failure(catalog: &Catalog, req: &Requirement, works: &[Work], searched: &Searched) -> Reason {
    match most_promising(searched.outcomes.iter()) {
        Some((key, o)) => outcome_reason(catalog, req, works, key, o),
        None => Reason::NoParts,
    }
}

/// Why a named part is not on the front (or that it is).
pub(crate) fn why_not(
    catalog: &Catalog,
    req: &Requirement,
    works: &[Work],
    searched: &Searched,
    front: &[Candidate],
    front_left_out: usize,
    part: &PartId,
) -> WhyNot {
    let name = gpu_name(catalog, part);
    let done = |reason| WhyNot { part: part.clone(), name: name.clone(), reason };
    if let Some(c) = front.iter().find(|c| c.build.nodes.iter().any(|n| n.parts.iter().any(|l| &l.part == part))) {
        return done(Reason::OnFront { rank: c.rank });
    }
    let is_gpu_or_system = catalog.gpu(part).is_some() || catalog.systems.iter().any(|s| &s.id == part);
    // A GPU or system: its configurations are in the search already. Any other part: search
    // again with the part required.
    let own_search;
    let searched_for: &Searched = if is_gpu_or_system {
        searched
    } else {
        let mut r = req.clone();
        r.filters.require_parts.push(part.clone());
        let pools = crate::core::advisor::search::Pools::new(catalog, &r);
        own_search = crate::core::advisor::search_all(catalog, &r, &pools, works);
        &own_search
    };
    let mine: Vec<&(ConfigKey, Outcome)> = searched_for
        .outcomes
        .iter()
        .filter(|(k, _)| !is_gpu_or_system || &k.gpu == part || k.system.as_ref() == Some(part))
        .collect();
    if mine.is_empty() {
        return done(Reason::Excluded);
    }
    // Its feasible builds: the best is dominated by some front build.
    let feasible: Vec<&crate::core::advisor::Found> = mine
        .iter()
        .filter_map(|(_, o)| if let Outcome::Candidate { index } = o { searched_for.found.get(*index) } else { None })
        .collect();
    if let Some(best) = feasible.iter().min_by(|a, b| a.capex.total_cmp(&b.capex)) {
        let scores = best.scores();
        let by = front
            .iter()
            .find(|c| c.capex <= best.capex && c.workloads.iter().zip(&scores).all(|(w, s)| w.score() >= *s));
        if let Some(by) = by {
            return done(Reason::Dominated { rank: by.rank, extra: money(req, best.capex - by.capex) });
        }
        // Not dominated by a shown member: the front was cut at MAX_FRONT before it.
        return done(Reason::NotShown { shown: front.len(), total: front.len() + front_left_out });
    }
    match most_promising(mine.into_iter()) {
        Some((key, o)) => done(outcome_reason(catalog, req, works, key, o)),
        None => done(Reason::Excluded),
    }
}
