//! The reference the advisor's search is tested against: every combination of the candidate
//! space (see [`super::search`]) built and checked, with no bounds, no filters and no
//! shortcuts, and the Pareto front taken over all of them. It is exponential in the catalog's
//! size and meant for small test catalogs only.

use super::search::{
    self, Fabric, NodeDesign, Pools, Priced, assemble, bridged, check, dimms_for, drives_for, ram_target_gib,
};
use super::{ConfigKey, Requirement, RequirementError, pareto, perf, works};
use crate::core::catalog::{Catalog, Gpu, Motherboard};

/// The front by brute force: (configuration, capex, scores) of every front member, in the
/// order of [`pareto`] over the configurations in search order.
///
/// # Errors
/// As [`super::advise`].
pub fn front(catalog: &Catalog, req: &Requirement) -> Result<Vec<(ConfigKey, f64, Vec<f64>)>, RequirementError> {
    req.validate()?;
    let works = works(catalog, req)?;
    let pools = Pools::new(catalog, req);
    let mut cache = super::PerfCache::new();
    let mut found: Vec<(ConfigKey, f64, Vec<f64>)> = Vec::new();
    for gpu in &pools.gpus {
        for per_node in 1..=req.max_gpus_per_node() {
            for nodes in 1..=req.max_nodes() {
                for fabric in search::fabrics(&pools, nodes, per_node) {
                    let bridge = bridged(gpu.part, per_node);
                    let Ok(fits) = perf(&mut cache, &works, req, gpu.part, per_node, nodes, fabric.nic_gbps(), bridge)
                    else {
                        continue;
                    };
                    if let Some(capex) = cheapest(catalog, req, &pools, *gpu, per_node, nodes, &fabric) {
                        let key = ConfigKey::assembled(gpu.part, per_node, nodes, &fabric);
                        found.push((key, capex, fits.iter().map(super::WorkloadFit::score).collect()));
                    }
                }
            }
        }
    }
    // Complete systems: each one is its only platform.
    let mut searched = super::Searched { found: Vec::new(), outcomes: Vec::new(), stats: search::Stats::default() };
    let mut stats = search::Stats::default();
    for system in &pools.systems {
        for nodes in 1..=req.max_nodes() {
            super::systems_config(
                catalog,
                req,
                &pools,
                &works,
                system,
                nodes,
                &mut cache,
                &mut stats,
                &mut searched.found,
                &mut searched.outcomes,
            );
        }
    }
    found.extend(searched.found.into_iter().map(|f| {
        let scores = f.scores();
        (f.key, f.capex, scores)
    }));
    let items: Vec<(f64, Vec<f64>)> = found.iter().map(|(_, c, s)| (*c, s.clone())).collect();
    Ok(pareto(&items).into_iter().filter_map(|i| found.get(i).cloned()).collect())
}

/// The cheapest passing build of one configuration within the budget, by trying every
/// combination.
fn cheapest(
    catalog: &Catalog,
    req: &Requirement,
    pools: &Pools<'_>,
    gpu: Priced<'_, Gpu>,
    per_node: u32,
    nodes: u32,
    fabric: &Fabric<'_>,
) -> Option<f64> {
    let ram = ram_target_gib(req, gpu.part.memory_gib * f64::from(per_node));
    let bases: Vec<Option<Priced<'_, Motherboard>>> =
        if gpu.part.form_factor.is_module() { pools.baseboards.iter().map(|b| Some(*b)).collect() } else { vec![None] };
    let mut best: Option<f64> = None;
    for c in &pools.chassis {
        for base in &bases {
            for b in pools.mainboards.iter().filter_map(|b| b.in_chassis(&c.part.id)) {
                let sockets = u32::from(b.part.cpu_sockets.max(1));
                for cpu in &pools.cpus {
                    for q in pools.coolers.iter().filter_map(|q| q.in_chassis(&c.part.id)) {
                        for m in &pools.memory {
                            let Some(d) = dimms_for(m.part, ram, sockets) else { continue };
                            for s in &pools.storage {
                                let Some(sd) = drives_for(s.part, req) else { continue };
                                for (psu, u, pcost) in search::psu_options_all(pools, c.part) {
                                    let node_cost = gpu.price * f64::from(per_node)
                                        + fabric.nic_cost()
                                        + c.price
                                        + base.map_or(0.0, |x| x.price)
                                        + b.price
                                        + cpu.price * f64::from(sockets)
                                        + q.price * f64::from(sockets)
                                        + m.price * f64::from(d)
                                        + s.price * f64::from(sd)
                                        + pcost;
                                    let cost = node_cost * f64::from(nodes) + fabric.switch_cost();
                                    if cost > req.budget || best.is_some_and(|x| cost >= x) {
                                        continue;
                                    }
                                    let lines = search::node_lines(&[
                                        Some((&gpu.part.id, per_node)),
                                        base.map(|x| (&x.part.id, 1)),
                                        Some((&b.part.id, 1)),
                                        Some((&cpu.part.id, sockets)),
                                        Some((&q.part.id, sockets)),
                                        Some((&m.part.id, d)),
                                        Some((&s.part.id, sd)),
                                        psu.map(|p| (&p.part.id, u)),
                                        fabric.nic.map(|(n, r)| (&n.part.id, r)),
                                        Some((&c.part.id, 1)),
                                    ]);
                                    let design = NodeDesign {
                                        lines,
                                        nvlink_bridge: bridged(gpu.part, per_node),
                                        cost: node_cost,
                                    };
                                    let build = assemble(req, "brute", &design, nodes, fabric);
                                    if check(catalog, req, &build).is_ok() {
                                        best = Some(cost);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    best
}
