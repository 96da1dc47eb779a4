//! The candidate space and its search: the parts a node may be built from, the cheapest
//! compatible node for each GPU configuration, and the check every candidate passes.
//!
//! Theory of operation. A *configuration* is what the workload estimates see: a GPU model,
//! GPUs per node, nodes, and the links (NVLink bridge, the NICs' bandwidth). For each
//! configuration the advisor needs only the cheapest complete build that realises it, since
//! any dearer one with the same GPUs is dominated on the front (same speed, more capex).
//!
//! The candidate space of an assembled node is fixed by canonical quantities, so that it is
//! finite and the search is exact over it: one chassis of the site's form, one mainboard (and
//! a GPU baseboard for SXM/OAM modules), one CPU model in every socket with one cooler each,
//! one memory module model in the smallest count (a multiple of the CPU count) that reaches
//! the memory target, one drive model in the smallest count that holds the dataset, one PSU
//! model in any count up to the chassis' bays (none when the chassis ships its PSUs); across
//! nodes one fabric NIC model, one per node or one per GPU, and for more than two nodes one
//! switch of the NICs' technology. A complete system (DGX, Jetson) is a node by itself.
//!
//! The search is a branch and bound over that space in order of cost: every level's options
//! are sorted by price, a branch is cut when its cost so far plus a lower bound of the levels
//! left (the cheapest option of each, at its smallest count) reaches the best complete
//! candidate found, and the options that a compatibility rule refuses outright (a CPU of
//! another socket, DIMMs of another generation, a board the chassis does not take, a cooler
//! for another socket, a PSU of another form factor, modules without their baseboard, drives the
//! bays or M.2 slots do not hold) are
//! skipped before any analysis, each filter mirroring the error rule it names. A complete
//! candidate is then checked by the same analyses the editor runs ([`check`]). The reference
//! [`super::brute`] enumerates the same space without bounds or filters; a property test
//! holds the two equal.

use super::requirement::{MIN_RAM_GIB, MIN_STORAGE_GB, Requirement};
use crate::core::analysis::compat::connector_feed;
use crate::core::analysis::power::{is_high_line, psu_capacity_at};
use crate::core::analysis::{self, Severity};
use crate::core::build::{Build, NodeGroup, PartLine, Redundancy, Site, Usage};
use crate::core::catalog::{
    Catalog, Chassis, Cooler, CoolerKind, Cpu, Gpu, GpuFormFactor, Interconnect, Memory, Motherboard, NetTech, Nic,
    PartId, Psu, PsuFormFactor, Storage, Switch,
};
use crate::core::resolve::Resolved;
use serde::Serialize;

/// Warnings an advisor candidate may not have: a PSU smaller than the power analysis
/// recommends or unable to ride the GPUs' transients, GPUs estimated at or over their maximum
/// temperature, a system run above its rated ambient, air that cannot carry the heat, a node
/// that overloads its circuit. The editor lets a user accept these; the advisor proposes
/// builds that need no such acceptance.
pub const BLOCKING_WARNINGS: [&str; 6] = [
    "psu-below-recommended",
    "psu-transient-risk",
    "gpu-temp-over-max",
    "system-ambient-exceeded",
    "airflow-insufficient",
    "circuit-overload",
];

/// Most drives of one model in a node (the largest U.2 backplanes of the catalog).
pub const MAX_DRIVES: u32 = 24;

use super::pools::sorted;
pub use super::pools::{Pools, Priced, price_day};

/// How the nodes of a multi-node candidate talk: a fabric NIC model and count per node, and
/// for more than two nodes the switches.
#[derive(Clone, Copy, Debug)]
pub struct Fabric<'a> {
    pub nic: Option<(Priced<'a, Nic>, u32)>,
    pub switch: Option<(Priced<'a, Switch>, u32)>,
}

impl Fabric<'_> {
    /// No fabric (one node, or systems that bring their own).
    pub const NONE: Fabric<'static> = Fabric { nic: None, switch: None };

    /// NIC bandwidth per node, Gb/s.
    #[must_use]
    pub fn nic_gbps(&self) -> f64 {
        self.nic.map_or(0.0, |(n, r)| f64::from(r) * f64::from(n.part.ports) * n.part.port_speed_gbps)
    }

    /// Cost per node of the NICs.
    #[must_use]
    pub fn nic_cost(&self) -> f64 {
        self.nic.map_or(0.0, |(n, r)| n.price * f64::from(r))
    }

    /// Cost of the switches.
    #[must_use]
    pub fn switch_cost(&self) -> f64 {
        self.switch.map_or(0.0, |(s, c)| s.price * f64::from(c))
    }
}

/// The switch a fabric of `ports` NIC ports of technology `tech` needs: the cheapest switch of
/// a matching technology (InfiniBand with InfiniBand or VPI, Ethernet with Ethernet or VPI),
/// as many as carry the ports.
fn switch_for<'a>(pools: &Pools<'a>, tech: NetTech, ports: u64) -> Option<(Priced<'a, Switch>, u32)> {
    let ib = |t: NetTech| matches!(t, NetTech::InfiniBand | NetTech::Vpi);
    pools
        .switches
        .iter()
        .filter(|s| ib(s.part.tech) == ib(tech) || s.part.tech == NetTech::Vpi || tech == NetTech::Vpi)
        .filter_map(|s| {
            let count = u32::try_from(ports.div_ceil(u64::from(s.part.ports.max(1)))).ok()?;
            Some((*s, count.max(1)))
        })
        .min_by(|a, b| (a.0.price * f64::from(a.1)).total_cmp(&(b.0.price * f64::from(b.1))))
}

/// The fabrics a configuration of `nodes` nodes of `per_node` GPUs may use: none for one node;
/// otherwise each fabric NIC, one per node or one per GPU, with the switch for more than two
/// nodes.
#[must_use]
pub fn fabrics<'a>(pools: &Pools<'a>, nodes: u32, per_node: u32) -> Vec<Fabric<'a>> {
    if nodes <= 1 {
        return vec![Fabric::NONE];
    }
    let mut counts = vec![1, per_node.max(1)];
    counts.dedup();
    let mut out = Vec::new();
    for nic in &pools.nics {
        for &r in &counts {
            let switch = if nodes > 2 {
                let ports = u64::from(nodes) * u64::from(r) * u64::from(nic.part.ports);
                match switch_for(pools, nic.part.tech, ports) {
                    Some(s) => Some(s),
                    None => continue,
                }
            } else {
                None
            };
            out.push(Fabric { nic: Some((*nic, r)), switch });
        }
    }
    out
}

/// Why a configuration has no candidate.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "block", rename_all = "snake_case")]
pub enum Block {
    /// Even the cheapest parts cost more than the budget.
    Budget { cheapest: f64, budget: f64 },
    /// The parts the compatibility rules allow together all cost more than the budget.
    NoneWithinBudget { budget: f64 },
    /// No combination of the catalog's parts passes a check; the cheapest combination's first
    /// finding.
    Finding { code: String, message: String },
    /// The build needs more circuits than the site has.
    Circuits { needed: u64, available: u32 },
    /// The owned TCO is above its ceiling.
    Tco { owned: f64, ceiling: f64 },
    /// No part of a kind the node needs is in the pools (filters or prices).
    NoParts { kind: &'static str },
}

/// Figures of a checked build.
#[derive(Clone, Debug)]
pub struct Checked {
    pub wall_watts: f64,
    pub circuits_needed: u64,
}

/// Checks a candidate build as the editor would, plus the site: no error finding, none of
/// [`BLOCKING_WARNINGS`], no more circuits than the site has, and the TCO ceiling if set.
///
/// # Errors
/// The first thing that fails.
pub fn check(catalog: &Catalog, req: &Requirement, build: &Build) -> Result<Checked, Block> {
    check_full(catalog, req, build).0
}

/// [`check`], and the PSU capacity the first node needs to pass the PSU sizing rules
/// (`psu-capacity-low`, `psu-below-recommended`: the recommendation's required watts, which
/// depend on the node's other parts only), for the search to skip smaller PSU options.
fn check_full(catalog: &Catalog, req: &Requirement, build: &Build) -> (Result<Checked, Block>, Option<f64>) {
    let resolved = Resolved::new(catalog, build);
    let hw = analysis::check_hardware(&resolved);
    let psu_floor = hw.power.nodes.first().and_then(|n| n.recommendation.as_ref()).map(|r| r.required_watts);
    (verdict(&resolved, req, &hw), psu_floor)
}

/// True when the hardware findings of a partial node (chassis, boards, GPUs, NICs) already
/// hold a GPU over its maximum temperature or too little airflow: both only worsen as parts
/// add heat, so no completion of the node passes (unless a custom loop cools the GPUs, which
/// the caller rules out).
fn too_hot(catalog: &Catalog, build: &Build) -> bool {
    let resolved = Resolved::new(catalog, build);
    let hw = analysis::check_hardware(&resolved);
    hw.diagnostics.iter().any(|d| HEAT_LEVEL.contains(&d.code.as_str()))
}

fn verdict(resolved: &Resolved<'_>, req: &Requirement, hw: &analysis::Hardware) -> Result<Checked, Block> {
    // The blocking finding reported is the one that rules out the most (a chassis-level one
    // before a board-level one before the rest), so the search can skip what it rules out.
    let rank = |code: &str| {
        if CHASSIS_LEVEL.contains(&code) {
            0
        } else if BOARD_LEVEL.contains(&code) {
            1
        } else {
            2
        }
    };
    if let Some(d) = hw
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error || BLOCKING_WARNINGS.contains(&d.code.as_str()))
        .min_by_key(|d| rank(d.code.as_str()))
    {
        return Err(Block::Finding { code: d.code.to_string(), message: d.message.clone() });
    }
    let needed = hw.power.rack.circuits_needed;
    if needed > u64::from(req.site.circuits.count) {
        return Err(Block::Circuits { needed, available: req.site.circuits.count });
    }
    if let Some(ceiling) = req.tco_budget {
        let bom = analysis::bom::bill_of_materials(resolved);
        let tco = analysis::analyze_tco(resolved, &bom, &hw.power, None);
        if tco.totals.owned > ceiling {
            return Err(Block::Tco { owned: tco.totals.owned, ceiling });
        }
    }
    Ok(Checked { wall_watts: hw.power.wall_watts, circuits_needed: needed })
}

/// The site, usage and currency of every candidate.
#[must_use]
pub fn site_of(req: &Requirement) -> (Site, Usage) {
    let c = &req.site.circuits;
    let site = Site {
        currency: req.currency.clone(),
        usd_exchange_rate: req.usd_exchange_rate,
        electricity_per_kwh: req.site.electricity_per_kwh,
        pue: req.site.pue,
        ambient_c: req.site.ambient_c,
        circuit_volts: c.volts,
        circuit_amps: c.amps,
        circuit_phases: c.phases,
    };
    (site, Usage { utilization: req.utilization, horizon_years: req.horizon_years, workload: None })
}

/// One node's parts.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeDesign {
    pub lines: Vec<PartLine>,
    pub nvlink_bridge: bool,
    /// Capex of one node, requirement currency.
    pub cost: f64,
}

/// The lines of an assembled node, in build-file order: each part and its count, leaving out
/// the `None`s (no GPU baseboard, PSUs the chassis ships, no fabric NIC).
#[must_use]
pub fn node_lines(parts: &[Option<(&PartId, u32)>]) -> Vec<PartLine> {
    parts.iter().flatten().map(|(id, n)| PartLine::new((*id).clone(), *n)).collect()
}

/// A build of `nodes` copies of `node` with the fabric's switches.
#[must_use]
pub fn assemble(req: &Requirement, name: &str, node: &NodeDesign, nodes: u32, fabric: &Fabric<'_>) -> Build {
    let (site, usage) = site_of(req);
    let mut b = Build::new(name);
    let mut group = NodeGroup::new(if nodes > 1 { "GPU node" } else { "Node" });
    group.count = nodes;
    group.parts.clone_from(&node.lines);
    group.nvlink_bridge = node.nvlink_bridge;
    group.psu_redundancy = Redundancy::None;
    b.nodes = vec![group];
    if let Some((s, count)) = fabric.switch {
        b.cluster = vec![PartLine::new(s.part.id.clone(), count)];
    }
    b.site = site;
    b.usage = usage;
    b
}

/// The memory a node of `vram_gib` GPU memory gets: the requirement's multiple of it, at least
/// [`MIN_RAM_GIB`].
#[must_use]
pub fn ram_target_gib(req: &Requirement, vram_gib: f64) -> f64 {
    (req.ram_to_vram * vram_gib).max(MIN_RAM_GIB)
}

/// Smallest count of `unit` that reaches `target` (at least 1), as a multiple of `step`.
fn count_for(target: f64, unit: f64, step: u32) -> Option<u32> {
    if !(unit > 0.0 && target.is_finite()) {
        return None;
    }
    let n = (target / unit).ceil().max(1.0);
    if n > 1.0e6 {
        return None;
    }
    let n = crate::core::units::round_non_negative(n);
    let n = u32::try_from(n).ok()?;
    let step = step.max(1);
    Some(n.div_ceil(step) * step)
}

/// Memory DIMMs of a module model for a target (canonical count).
#[must_use]
pub fn dimms_for(m: &Memory, target_gib: f64, cpus: u32) -> Option<u32> {
    count_for(target_gib, m.capacity_gib, cpus)
}

/// Drives of a model for the dataset (canonical count).
#[must_use]
pub fn drives_for(s: &Storage, req: &Requirement) -> Option<u32> {
    let gb = req.dataset_gb.unwrap_or(0.0).max(MIN_STORAGE_GB);
    count_for(gb, s.capacity_gb, 1).filter(|&n| n <= MAX_DRIVES)
}

/// True when a GPU model is NVLink-bridge capable and the node has two or more: the advisor
/// fits the bridges (they raise multi-GPU speed and cost nothing in the catalog).
#[must_use]
pub fn bridged(gpu: &Gpu, per_node: u32) -> bool {
    matches!(gpu.interconnect, Interconnect::NvLinkBridge { .. }) && per_node >= 2
}

/// The compatibility rules the search applies to a pair of parts before any analysis: the
/// rules' own predicates ([`compat`]), composed as the search meets the parts, so that skipping
/// a refused pair loses no candidate (the rule would report an error for it).
pub mod mirror {
    use super::{Chassis, Cooler, Cpu, Gpu, Memory, Motherboard, Psu, Storage};
    use crate::core::analysis::compat;

    /// `board-form-factor-mismatch` (GPU baseboards are not mainboards and go by their own rule).
    #[must_use]
    pub fn chassis_takes_board(c: &Chassis, b: &Motherboard) -> bool {
        b.role != crate::core::catalog::BoardRole::Mainboard
            || compat::chassis_takes(&c.board_form_factors, b.form_factor)
    }

    /// `cpu-socket-mismatch` and `cpu-multi-socket-unsupported` for one CPU per socket.
    #[must_use]
    pub fn board_takes_cpu(b: &Motherboard, cpu: &Cpu) -> bool {
        compat::board_takes_socket(b, cpu) && compat::cpu_runs_in(cpu, u32::from(b.cpu_sockets.max(1)))
    }

    /// `cooler-socket-mismatch`.
    #[must_use]
    pub fn cooler_fits_cpu(q: &Cooler, cpu: &Cpu) -> bool {
        compat::cooler_mounts_on(q, &cpu.socket)
    }

    /// `memory-type-mismatch` (CPU and board), `memory-dimm-kind-mismatch`,
    /// `memory-ecc-required`.
    #[must_use]
    pub fn memory_fits(m: &Memory, b: &Motherboard, cpu: &Cpu) -> bool {
        compat::cpu_takes_memory(cpu, m)
            && compat::board_takes_memory_type(b, m)
            && compat::board_takes_dimm_kind(b, m.dimm_kind)
            && compat::board_takes_ecc(b, m)
    }

    /// `m2-slots-exceeded` and `drive-bays-exceeded` for `count` drives of one model, the
    /// node's only drives.
    #[must_use]
    pub fn drives_fit(c: &Chassis, b: &Motherboard, s: &Storage, count: u32) -> bool {
        let d = compat::DriveCounts::of([(s.interface, count)]);
        compat::board_holds_m2(b, d) && compat::chassis_holds_hdds(c, d) && compat::chassis_holds_small_drives(c, d)
    }

    /// `memory-slots-exceeded`.
    #[must_use]
    pub fn dimms_fit(b: &Motherboard, dimms: u32) -> bool {
        compat::board_holds_dimms(b, dimms)
    }

    /// `psu-form-factor-mismatch`.
    #[must_use]
    pub fn psu_fits_chassis(p: &Psu, c: &Chassis) -> bool {
        compat::chassis_takes_psu(c, p.form_factor)
    }

    /// `gpu-baseboard-mismatch`, `gpu-baseboard-chassis-mismatch` and
    /// `gpu-baseboard-positions-exceeded` for `count` modules on one baseboard.
    #[must_use]
    pub fn baseboard_fits(base: &Motherboard, gpu: &Gpu, count: u32, c: &Chassis) -> bool {
        compat::baseboard_takes(base, gpu.form_factor)
            && compat::chassis_takes_baseboard(c, base)
            && base.baseboard.as_ref().is_some_and(|bb| u32::from(bb.positions) >= count)
    }
}

/// Per-level cheapest costs, for the lower bounds of the branch and bound.
struct Floors {
    cooler: f64,
    memory: f64,
    storage: f64,
}

fn floors(pools: &Pools<'_>, req: &Requirement, ram_gib: f64) -> Floors {
    let min = |it: &mut dyn Iterator<Item = f64>| it.fold(f64::INFINITY, f64::min);
    Floors {
        cooler: min(&mut pools.coolers.iter().map(|c| c.price)),
        memory: min(&mut pools
            .memory
            .iter()
            .filter_map(|m| dimms_for(m.part, ram_gib, 1).map(|d| m.price * f64::from(d)))),
        storage: min(&mut pools.storage.iter().filter_map(|s| drives_for(s.part, req).map(|d| s.price * f64::from(d)))),
    }
}

/// Counters of the search, for the benchmark and the user.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// GPU configurations (GPU model, GPUs per node, nodes, fabric) considered.
    pub configurations: u64,
    /// Configurations ruled out before any estimate because their GPUs (and NICs) alone cost
    /// more than the budget.
    pub bounded: u64,
    /// Configurations whose workloads were estimated.
    pub estimated: u64,
    /// Complete candidate builds checked with the analyses.
    pub checked: u64,
    /// Chassis and board pairs ruled out by the heat of their GPUs alone, before any CPU,
    /// memory, drive or PSU was tried.
    pub probed_hot: u64,
}

/// The search for the cheapest complete node of one configuration.
pub struct NodeSearch<'p, 'a> {
    pub catalog: &'a Catalog,
    pub req: &'p Requirement,
    pub pools: &'p Pools<'a>,
    pub stats: &'p mut Stats,
}

impl<'a> NodeSearch<'_, 'a> {
    /// The cheapest assembled node for `per_node` × `gpu` in `nodes` nodes with `fabric` that
    /// passes [`check`] and keeps the whole build within `budget`; the block of the cheapest
    /// combination tried when there is none.
    ///
    /// # Errors
    /// Why there is no such node.
    pub fn cheapest(
        &mut self,
        gpu: Priced<'a, Gpu>,
        per_node: u32,
        nodes: u32,
        fabric: &Fabric<'a>,
        budget: f64,
    ) -> Result<(NodeDesign, Checked), Block> {
        let pools = self.pools;
        let req = self.req;
        let n = f64::from(nodes);
        let module = gpu.part.form_factor.is_module();
        let ram_gib = ram_target_gib(req, gpu.part.memory_gib * f64::from(per_node));
        let fl = floors(pools, req, ram_gib);
        let fixed = gpu.price * f64::from(per_node) + fabric.nic_cost();
        // Whole-build cost from a node cost.
        let total = |node: f64| node * n + fabric.switch_cost();
        let floor_node = fixed
            + pools.chassis.first().map_or(0.0, |c| c.price)
            + pools.mainboards.first().map_or(0.0, |b| b.price)
            + pools.cpus.first().map_or(0.0, |c| c.price)
            + fl.cooler
            + fl.memory
            + fl.storage;
        if total(floor_node) > budget {
            return Err(Block::Budget { cheapest: total(floor_node), budget });
        }
        let mut best: Option<(NodeDesign, Checked)> = None;
        let mut bound = budget;
        let mut first_block: Option<(f64, Block)> = None;
        let bridge = bridged(gpu.part, per_node);
        // A custom loop that cools the GPUs lowers their temperature below what the partial
        // node shows, so the heat probe is only exact without one in the pool.
        let gpu_loop = pools.coolers.iter().any(|q| q.part.kind == CoolerKind::CustomLoop && q.part.cools_gpus);
        let high_line = is_high_line(site_of(req).0.psu_input_volts());
        let pcie_gpus: Vec<(&Gpu, u32)> =
            if gpu.part.form_factor == GpuFormFactor::Pcie { vec![(gpu.part, per_node)] } else { Vec::new() };
        'chassis: for c in &pools.chassis {
            let after_c = fixed + c.price;
            let boards = sorted(
                pools
                    .mainboards
                    .iter()
                    .filter_map(|b| b.in_chassis(&c.part.id))
                    .filter(|b| mirror::chassis_takes_board(c.part, b.part))
                    .collect(),
            );
            let coolers = sorted(pools.coolers.iter().filter_map(|q| q.in_chassis(&c.part.id)).collect());
            if total(after_c + fl.memory + fl.storage) > bound {
                break;
            }
            let baseboards: Vec<Option<Priced<'a, Motherboard>>> = if module {
                pools
                    .baseboards
                    .iter()
                    .filter(|b| mirror::baseboard_fits(b.part, gpu.part, per_node, c.part))
                    .map(|b| Some(*b))
                    .collect()
            } else {
                vec![None]
            };
            for base in &baseboards {
                let after_base = after_c + base.map_or(0.0, |b| b.price);
                'board: for b in &boards {
                    let after_b = after_base + b.price;
                    if total(after_b + fl.memory + fl.storage) > bound {
                        break;
                    }
                    if !gpu_loop {
                        let lines = node_lines(&[
                            Some((&gpu.part.id, per_node)),
                            base.map(|x| (&x.part.id, 1)),
                            Some((&b.part.id, 1)),
                            fabric.nic.map(|(n, r)| (&n.part.id, r)),
                            Some((&c.part.id, 1)),
                        ]);
                        let probe = NodeDesign { lines, nvlink_bridge: bridge, cost: 0.0 };
                        if too_hot(self.catalog, &assemble(req, "probe", &probe, nodes, fabric)) {
                            self.stats.probed_hot += 1;
                            continue 'board;
                        }
                    }
                    let sockets = u32::from(b.part.cpu_sockets.max(1));
                    // The drive options the board's M.2 slots and the chassis' bays hold.
                    let drives = sorted_by_cost(pools.storage.iter().filter_map(|s| {
                        drives_for(s.part, req)
                            .filter(|&d| mirror::drives_fit(c.part, b.part, s.part, d))
                            .map(|d| (*s, d, s.price * f64::from(d)))
                    }));
                    for cpu in pools.cpus.iter().filter(|x| mirror::board_takes_cpu(b.part, x.part)) {
                        let after_cpu = after_b + cpu.price * f64::from(sockets);
                        if total(after_cpu + fl.cooler + fl.memory + fl.storage) > bound {
                            break;
                        }
                        for q in coolers.iter().filter(|q| mirror::cooler_fits_cpu(q.part, cpu.part)) {
                            let after_q = after_cpu + q.price * f64::from(sockets);
                            if total(after_q + fl.memory + fl.storage) > bound {
                                break;
                            }
                            let mems: Vec<(Priced<'a, Memory>, u32, f64)> = sorted_by_cost(
                                pools
                                    .memory
                                    .iter()
                                    .filter(|m| mirror::memory_fits(m.part, b.part, cpu.part))
                                    .filter_map(|m| {
                                        dimms_for(m.part, ram_gib, sockets).map(|d| (*m, d, m.price * f64::from(d)))
                                    })
                                    .filter(|(_, d, _)| mirror::dimms_fit(b.part, *d)),
                            );
                            for (m, d, mcost) in &mems {
                                let after_m = after_q + mcost;
                                if total(after_m + fl.storage) > bound {
                                    break;
                                }
                                for (s, sd, scost) in &drives {
                                    let after_s = after_m + scost;
                                    if total(after_s) > bound {
                                        break;
                                    }
                                    let psus = psu_options(pools, c.part);
                                    // The PSU capacity the PSU sizing rules ask of these parts,
                                    // learnt from the first PSU tried.
                                    let mut psu_floor = 0.0;
                                    for (psu, u, pcost) in &psus {
                                        let node_cost = after_s + pcost;
                                        let cost = total(node_cost);
                                        if cost > bound || best.as_ref().is_some_and(|_| cost >= bound) {
                                            break;
                                        }
                                        // Below the recommendation a desktop unit is refused
                                        // (`psu-below-recommended` blocks); a server module only
                                        // below the load (`psu-capacity-low`), so it is tried.
                                        // PSU options whose connectors cannot feed the cards: the
                                        // rule `psu-connectors-insufficient` itself.
                                        if let Some(p) = psu
                                            && !connector_feed(&[(p.part, *u)], Some(c.part), &pcie_gpus, sockets)
                                                .short
                                                .is_empty()
                                        {
                                            continue;
                                        }
                                        if let Some(p) = psu
                                            && matches!(p.part.form_factor, PsuFormFactor::Atx | PsuFormFactor::Sfx)
                                            && f64::from(*u) * psu_capacity_at(p.part, high_line) < psu_floor
                                        {
                                            continue;
                                        }
                                        let lines = node_lines(&[
                                            Some((&gpu.part.id, per_node)),
                                            base.map(|x| (&x.part.id, 1)),
                                            Some((&b.part.id, 1)),
                                            Some((&cpu.part.id, sockets)),
                                            Some((&q.part.id, sockets)),
                                            Some((&m.part.id, *d)),
                                            Some((&s.part.id, *sd)),
                                            psu.map(|p| (&p.part.id, *u)),
                                            fabric.nic.map(|(n, r)| (&n.part.id, r)),
                                            Some((&c.part.id, 1)),
                                        ]);
                                        let design = NodeDesign { lines, nvlink_bridge: bridge, cost: node_cost };
                                        let build = assemble(req, "candidate", &design, nodes, fabric);
                                        self.stats.checked += 1;
                                        let (verdict, floor) = check_full(self.catalog, req, &build);
                                        match verdict {
                                            Ok(checked) => {
                                                bound = cost;
                                                best = Some((design, checked));
                                                break;
                                            }
                                            Err(block) => {
                                                if let Some(f) = floor {
                                                    psu_floor = f64::max(psu_floor, f);
                                                }
                                                let level = level_of(&block, psu.is_none());
                                                if first_block.as_ref().is_none_or(|(c0, _)| cost < *c0) {
                                                    first_block = Some((cost, block));
                                                }
                                                match level {
                                                    Level::Chassis => continue 'chassis,
                                                    Level::Board => continue 'board,
                                                    // Another PSU does not change the finding.
                                                    Level::BeforePsu => break,
                                                    Level::Part => {}
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        match best {
            Some(found) => Ok(found),
            None => Err(match first_block {
                Some((_, block)) => block,
                None if pools.chassis.is_empty() => Block::NoParts { kind: "chassis" },
                None if pools.mainboards.is_empty() => Block::NoParts { kind: "motherboard" },
                None => Block::NoneWithinBudget { budget },
            }),
        }
    }
}

/// Findings whose outcome depends only on the chassis and the GPUs (the card length and the
/// GPU bays): every other part of the node leaves them as they are.
const CHASSIS_LEVEL: [&str; 2] = ["gpu-too-long", "gpu-bays-exceeded"];

/// Findings whose outcome depends only on the chassis, the boards and the cards (GPUs and
/// NICs): the PCIe slot placement (`compat::pcie`), which no CPU, cooler, memory, drive or PSU
/// changes.
const BOARD_LEVEL: [&str; 3] = ["pcie-slot-unavailable", "pcie-slot-invalid", "expansion-slots-exceeded"];

/// Which part of the node a failed check rules out: the chassis (with everything in it), the
/// chassis and board pair, or only the combination.
enum Level {
    Chassis,
    Board,
    /// Every part but the PSUs: the finding is one no PSU changes.
    BeforePsu,
    Part,
}

/// Findings that grow with the heat inside the chassis (the DC draw of its parts, which no PSU
/// choice changes) and fall with nothing the search adds but a GPU-cooling custom loop.
const HEAT_LEVEL: [&str; 2] = ["gpu-temp-over-max", "airflow-insufficient"];

/// Whether a finding can depend on the PSUs: their own rules (`psu-…`), and what the PSU's
/// efficiency changes (the wall draw, hence the circuits).
fn psu_dependent(code: &str) -> bool {
    code.starts_with("psu-") || code.contains("circuit")
}

/// Findings of the PSU connector rules (`compat::power_feed`), which read only the PSUs, the
/// chassis' own GPU power connectors, the PCIe GPUs and the CPU count: with the PSUs a chassis
/// ships, one set per chassis and board.
const CONNECTOR_LEVEL: [&str; 2] = ["psu-connectors-insufficient", "psu-eps-insufficient"];

/// What a failed check rules out; `shipped_psus` when the node's PSUs are the chassis' own.
fn level_of(block: &Block, shipped_psus: bool) -> Level {
    match block {
        Block::Finding { code, .. } if CHASSIS_LEVEL.contains(&code.as_str()) => Level::Chassis,
        Block::Finding { code, .. } if BOARD_LEVEL.contains(&code.as_str()) => Level::Board,
        Block::Finding { code, .. } if shipped_psus && CONNECTOR_LEVEL.contains(&code.as_str()) => Level::Board,
        Block::Finding { code, .. } if !psu_dependent(code) => Level::BeforePsu,
        _ => Level::Part,
    }
}

fn sorted_by_cost<T>(it: impl Iterator<Item = (T, u32, f64)>) -> Vec<(T, u32, f64)> {
    let mut v: Vec<_> = it.collect();
    v.sort_by(|a, b| a.2.total_cmp(&b.2));
    v
}

/// The PSU options of a chassis, cheapest first: nothing when it ships its PSUs, else each
/// PSU of its form factor in 1 to `psu_bays` units.
fn psu_options<'a>(pools: &Pools<'a>, c: &Chassis) -> Vec<(Option<Priced<'a, Psu>>, u32, f64)> {
    psu_options_where(pools, c, |p| mirror::psu_fits_chassis(p, c))
}

/// [`psu_options`] without the form-factor filter: every PSU of the pool (the brute force's
/// space).
#[must_use]
pub fn psu_options_all<'a>(pools: &Pools<'a>, c: &Chassis) -> Vec<(Option<Priced<'a, Psu>>, u32, f64)> {
    psu_options_where(pools, c, |_| true)
}

fn psu_options_where<'a>(
    pools: &Pools<'a>,
    c: &Chassis,
    keep: impl Fn(&Psu) -> bool,
) -> Vec<(Option<Priced<'a, Psu>>, u32, f64)> {
    if !c.included_psus.is_empty() {
        return vec![(None, 0, 0.0)];
    }
    let mut v: Vec<(Option<Priced<'a, Psu>>, u32, f64)> = pools
        .psus
        .iter()
        .filter(|p| keep(p.part))
        .flat_map(|p| (1..=u32::from(c.psu_bays.max(1))).map(move |u| (Some(*p), u, p.price * f64::from(u))))
        .collect();
    v.sort_by(|a, b| a.2.total_cmp(&b.2));
    v
}
