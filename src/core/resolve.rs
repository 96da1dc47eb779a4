//! Resolution of a build's part ids against the catalog, done once per analysis.
//!
//! Every analysis works on a [`Resolved`] build: per node group, the parts sorted by kind with
//! typed references into the catalog, and the ids the catalog does not know set aside. GPUs
//! inside complete systems (a DGX's eight H100s, a Jetson's integrated GPU) are listed among
//! the node's GPUs with `in_system` set, so memory and speed analyses see them like any other
//! GPU while power and cost count the system as one unit. Likewise the PSUs fitted in a server
//! chassis are listed among the node's PSUs with `included_with` set.

use crate::core::build::{Build, Location, Redundancy};
use crate::core::catalog::{
    BoardRole, Catalog, Chassis, Cooler, Cpu, Gpu, Memory, Motherboard, Nic, Part, PartId, PartKind, Psu, Storage,
    Switch, System,
};

/// A resolved part line: the catalog entry, how many per node, and where the line is.
#[derive(Clone, Copy, Debug)]
pub struct Item<'a, T> {
    pub part: &'a T,
    /// Units per node (for cluster items: in the cluster).
    pub quantity: u32,
    /// Index of the build line this came from.
    pub line: usize,
    /// The system this GPU is part of, if it came from a `system` entry.
    pub in_system: Option<&'a System>,
    /// The chassis this PSU ships in, if it came with a server chassis (priced with it).
    pub included_with: Option<&'a Chassis>,
}

/// The parts of one node (or of the cluster section), by kind.
#[derive(Clone, Debug, Default)]
pub struct Parts<'a> {
    pub gpus: Vec<Item<'a, Gpu>>,
    pub cpus: Vec<Item<'a, Cpu>>,
    pub boards: Vec<Item<'a, Motherboard>>,
    pub memory: Vec<Item<'a, Memory>>,
    pub storage: Vec<Item<'a, Storage>>,
    pub psus: Vec<Item<'a, Psu>>,
    pub coolers: Vec<Item<'a, Cooler>>,
    pub chassis: Vec<Item<'a, Chassis>>,
    pub nics: Vec<Item<'a, Nic>>,
    pub switches: Vec<Item<'a, Switch>>,
    pub systems: Vec<Item<'a, System>>,
}

fn total<T>(items: &[Item<'_, T>]) -> u32 {
    items.iter().map(|i| i.quantity).fold(0u32, u32::saturating_add)
}

impl<'a> Parts<'a> {
    /// GPUs per node, including those inside systems.
    #[must_use]
    pub fn gpu_count(&self) -> u32 {
        total(&self.gpus)
    }

    /// CPUs per node (not counting CPUs inside systems).
    #[must_use]
    pub fn cpu_count(&self) -> u32 {
        total(&self.cpus)
    }

    /// DIMMs per node.
    #[must_use]
    pub fn dimm_count(&self) -> u32 {
        total(&self.memory)
    }

    /// PSU units per node.
    #[must_use]
    pub fn psu_count(&self) -> u32 {
        total(&self.psus)
    }

    /// The node's mainboard (the first one if there are several; compatibility reports extras).
    #[must_use]
    pub fn mainboard(&self) -> Option<&'a Motherboard> {
        self.boards.iter().map(|b| b.part).find(|b| b.role == BoardRole::Mainboard)
    }

    /// The node's GPU baseboard (HGX / OAM UBB), if any.
    #[must_use]
    pub fn baseboard(&self) -> Option<&'a Motherboard> {
        self.boards.iter().map(|b| b.part).find(|b| b.role == BoardRole::GpuBaseboard)
    }

    /// The node's chassis (the first one).
    #[must_use]
    pub fn chassis(&self) -> Option<&'a Chassis> {
        self.chassis.first().map(|c| c.part)
    }

    /// System memory per node in GiB (DIMMs, plus the memory of complete systems).
    #[must_use]
    pub fn system_memory_gib(&self) -> f64 {
        let dimms: f64 = self.memory.iter().map(|m| m.part.capacity_gib * f64::from(m.quantity)).sum();
        let systems: f64 = self.systems.iter().map(|s| s.part.memory_gib * f64::from(s.quantity)).sum();
        dimms + systems
    }

    /// Total GPU memory per node in GiB.
    #[must_use]
    pub fn gpu_memory_gib(&self) -> f64 {
        self.gpus.iter().map(|g| g.part.memory_gib * f64::from(g.quantity)).sum()
    }

    /// Network bandwidth the node has for cross-node traffic, Gb/s: every NIC port at its
    /// speed, plus the fabric of complete systems (a DGX's ConnectX ports).
    #[must_use]
    pub fn fabric_gbps(&self) -> f64 {
        let nics: f64 =
            self.nics.iter().map(|n| f64::from(n.quantity) * f64::from(n.part.ports) * n.part.port_speed_gbps).sum();
        let systems: f64 = self.systems.iter().map(|s| f64::from(s.quantity) * s.part.fabric_gbps).sum();
        nics + systems
    }

    /// The node's GPU types with their counts, in order of first appearance.
    #[must_use]
    pub fn gpu_types(&self) -> Vec<(&'a Gpu, u32)> {
        let mut counts: Vec<(&'a Gpu, u32)> = Vec::new();
        for item in &self.gpus {
            match counts.iter_mut().find(|(g, _)| g.id == item.part.id) {
                Some((_, n)) => *n = n.saturating_add(item.quantity),
                None => counts.push((item.part, item.quantity)),
            }
        }
        counts
    }

    /// True when the node has nothing in it.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.gpus.is_empty()
            && self.cpus.is_empty()
            && self.boards.is_empty()
            && self.memory.is_empty()
            && self.storage.is_empty()
            && self.psus.is_empty()
            && self.coolers.is_empty()
            && self.chassis.is_empty()
            && self.nics.is_empty()
            && self.switches.is_empty()
            && self.systems.is_empty()
    }

    fn push(&mut self, part: Part<'a>, quantity: u32, line: usize) {
        macro_rules! item {
            ($p:expr) => {
                Item { part: $p, quantity, line, in_system: None, included_with: None }
            };
        }
        match part {
            Part::Gpu(p) => self.gpus.push(item!(p)),
            Part::Cpu(p) => self.cpus.push(item!(p)),
            Part::Motherboard(p) => self.boards.push(item!(p)),
            Part::Memory(p) => self.memory.push(item!(p)),
            Part::Storage(p) => self.storage.push(item!(p)),
            Part::Psu(p) => self.psus.push(item!(p)),
            Part::Cooler(p) => self.coolers.push(item!(p)),
            Part::Chassis(p) => self.chassis.push(item!(p)),
            Part::Nic(p) => self.nics.push(item!(p)),
            Part::Switch(p) => self.switches.push(item!(p)),
            Part::System(p) => self.systems.push(item!(p)),
        }
    }
}

/// One resolved node group.
#[derive(Clone, Debug)]
pub struct Node<'a> {
    pub index: usize,
    pub name: &'a str,
    pub count: u32,
    pub redundancy: Redundancy,
    pub nvlink_bridge: bool,
    pub parts: Parts<'a>,
}

/// A part id the catalog does not know, and where the build uses it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPart {
    pub id: PartId,
    pub location: Location,
    pub line: usize,
}

/// A build resolved against a catalog.
#[derive(Clone, Debug)]
pub struct Resolved<'a> {
    pub build: &'a Build,
    pub catalog: &'a Catalog,
    pub nodes: Vec<Node<'a>>,
    pub cluster: Parts<'a>,
    pub unknown: Vec<UnknownPart>,
    /// System GPU references that do not resolve (a catalog problem, reported once).
    pub unknown_system_gpus: Vec<(PartId, PartId)>,
    /// Per node group, the first earlier group identical to it but for its name (same
    /// count, lines, slot choices, PSU redundancy and NVLink bridge), if any. Every per-node
    /// analysis finds the same for both, so it analyses the first and copies the result
    /// (a 64-group cluster of one server design is one analysis, not 64).
    pub twins: Vec<Option<usize>>,
}

/// [`Resolved::twins`] of a build, without resolving it.
#[must_use]
pub fn twins(build: &Build) -> Vec<Option<usize>> {
    (0..build.nodes.len()).map(|i| twin_of(&build.nodes, i)).collect()
}

/// The first group before `i` that [`Resolved::twins`] counts as identical to group `i`.
fn twin_of(nodes: &[crate::core::build::NodeGroup], i: usize) -> Option<usize> {
    let n = nodes.get(i)?;
    nodes.get(..i)?.iter().position(|m| {
        m.count == n.count
            && m.psu_redundancy == n.psu_redundancy
            && m.nvlink_bridge == n.nvlink_bridge
            && m.parts == n.parts
    })
}

impl<'a> Resolved<'a> {
    /// Resolves every line of the build.
    #[must_use]
    pub fn new(catalog: &'a Catalog, build: &'a Build) -> Self {
        let mut unknown = Vec::new();
        let mut unknown_system_gpus = Vec::new();
        // The parts of some lines, and whether every id in them resolved.
        let mut resolve_lines = |lines: &'a [crate::core::build::PartLine], location: Location| {
            let mut parts = Parts::default();
            let mut all_known = true;
            for (i, line) in lines.iter().enumerate() {
                let Some(part) = catalog.get(&line.part) else {
                    all_known = false;
                    unknown.push(UnknownPart { id: line.part.clone(), location, line: i });
                    continue;
                };
                parts.push(part, line.quantity, i);
                if let Part::System(sys) = part {
                    for sg in &sys.gpus {
                        if let Some(gpu) = catalog.gpu(&sg.gpu) {
                            parts.gpus.push(Item {
                                part: gpu,
                                quantity: line.quantity.saturating_mul(u32::from(sg.count)),
                                line: i,
                                in_system: Some(sys),
                                included_with: None,
                            });
                        } else {
                            all_known = false;
                            unknown_system_gpus.push((sys.id.clone(), sg.gpu.clone()));
                        }
                    }
                }
                if let Part::Chassis(ch) = part {
                    for inc in &ch.included_psus {
                        if let Some(Part::Psu(psu)) = catalog.get(&inc.part) {
                            parts.psus.push(Item {
                                part: psu,
                                quantity: line.quantity.saturating_mul(u32::from(inc.count)),
                                line: i,
                                in_system: None,
                                included_with: Some(ch),
                            });
                        }
                    }
                }
            }
            (parts, all_known)
        };
        let twins = twins(build);
        let mut nodes: Vec<Node<'a>> = Vec::with_capacity(build.nodes.len());
        // Groups that resolved without an unknown id: an identical group after one of them
        // takes a copy of its parts instead of looking every id up again.
        let mut clean: Vec<bool> = Vec::with_capacity(build.nodes.len());
        for (i, n) in build.nodes.iter().enumerate() {
            let twin = twins.get(i).copied().flatten().filter(|&j| clean.get(j) == Some(&true));
            let (parts, is_clean) = match twin.and_then(|j| nodes.get(j)) {
                Some(first) => (first.parts.clone(), true),
                None => resolve_lines(&n.parts, Location::Node(i)),
            };
            clean.push(is_clean);
            nodes.push(Node {
                index: i,
                name: &n.name,
                count: n.count,
                redundancy: n.psu_redundancy,
                nvlink_bridge: n.nvlink_bridge,
                parts,
            });
        }
        let (cluster, _) = resolve_lines(&build.cluster, Location::Cluster);
        Self { build, catalog, nodes, cluster, unknown, unknown_system_gpus, twins }
    }

    /// GPUs in the whole build (per-node GPUs × node counts).
    #[must_use]
    pub fn total_gpus(&self) -> u64 {
        self.nodes.iter().map(|n| u64::from(n.parts.gpu_count()) * u64::from(n.count)).sum()
    }

    /// Total nodes.
    #[must_use]
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| u64::from(n.count)).sum()
    }

    /// The kind of a build line's part, if the catalog knows it.
    #[must_use]
    pub fn kind_of(&self, id: &PartId) -> Option<PartKind> {
        self.catalog.get(id).map(Part::kind)
    }
}
