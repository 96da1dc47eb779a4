//! Compatibility rules: what in a build does not fit, connect, or work together.
//!
//! Theory of operation: each node group is classified first ([`node_role`]): a complete system
//! (DGX, Jetson) needs no separate CPU, board or PSU; a node of cluster-type parts only
//! (switches, disk enclosures) is infrastructure with its own rules; anything else is a compute
//! node that must have its essentials. Then every rule looks at the resolved parts and emits a
//! [`Diagnostic`] with a stable code, a sentence a user understands, the parts and build lines
//! involved, and a fix where one exists. A rule never errors; missing data means the rule has
//! nothing to say.
//!
//! PCIe cards (GPUs, NICs) are placed on the board's slots by position ([`NodeLayout`]): a card
//! `w` slots wide at position `p` covers positions `p..=p+ceil(w)-1`, which may not overlap
//! another card, and the last covered position must be within the chassis' expansion slots.
//! A build line's `slots` are honoured in order; other cards are placed widest first, each in
//! the first free slot that fits (slots wired for the card's full lane count first). GPU server
//! chassis with riser-fed GPU bays (`gpu_slots`) take GPUs in bays instead, one per double-width
//! bay. The placement is part of the report so the GUI can draw it.

use crate::core::analysis::{Diagnostic, Severity};
use crate::core::build::Location;
use crate::core::catalog::{
    BoardFormFactor, CatalogEntry, Chassis, ChassisKind, CoolerKind, DimmKind, GpuFormFactor, GpuSegment, Interconnect,
    NetTech, PartId, PartKind, PcieSlot, PowerConnector, PsuFormFactor, StorageInterface,
};
use crate::core::resolve::{Item, Node, Parts, Resolved};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// System RAM to total VRAM ratio our users' field guides advise ("内存容量应至少为GPU显存的1.5倍",
/// field guide 000 §1.2: at least 1.5× the GPU memory).
pub const RAM_TO_VRAM_RATIO: f64 = 1.5;
/// Lowest per-port speed, Gb/s, that counts as a training fabric for Ethernet (issue 3: InfiniBand
/// or ≥ 100 GbE).
pub const FABRIC_MIN_GBPS: f64 = 100.0;
/// PCIe lanes of one NVMe drive (NVMe over PCIe x4 is the M.2/U.2 norm).
pub const NVME_LANES: u8 = 4;
/// Sockets whose two-socket platforms give the devices the same lane count as one socket,
/// because half of each CPU's lanes link the two sockets (AMD EPYC 7003 and 9004 platform
/// briefs: 128 PCIe lanes in 1P and in 2P configurations).
pub const SHARED_LANE_SOCKETS: [&str; 2] = ["SP3", "SP5"];
/// Width of one NIC in expansion slots where the catalog has no width (every NIC in the
/// catalog is a single-slot card).
pub const NIC_SLOT_WIDTH: f64 = 1.0;
/// PCIe 8-pin connectors a 16-pin adapter needs per 150 W of card power (the adapter NVIDIA
/// ships with 16-pin cards takes 8-pin PCIe plugs at 150 W each, PCIe CEM).
pub const PCIE_8PIN_WATTS: f64 = 150.0;

/// What a node group is, for deciding which rules apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeRole {
    /// Nothing in it.
    Empty,
    /// Built around a complete system (DGX, Jetson).
    System,
    /// A machine assembled from parts.
    Compute,
    /// Switches or disk enclosures only.
    Infrastructure,
}

/// Classifies a node by its parts.
#[must_use]
pub fn node_role(parts: &Parts<'_>) -> NodeRole {
    if parts.is_empty() {
        return NodeRole::Empty;
    }
    if !parts.systems.is_empty() {
        return NodeRole::System;
    }
    let no_compute = parts.cpus.is_empty()
        && parts.boards.is_empty()
        && parts.memory.is_empty()
        && parts.gpus.is_empty()
        && parts.coolers.is_empty();
    let chassis_all_jbod = parts.chassis.iter().all(|c| c.part.kind == ChassisKind::Jbod);
    let has_infra = !parts.switches.is_empty() || parts.chassis.iter().any(|c| c.part.kind == ChassisKind::Jbod);
    if no_compute && chassis_all_jbod && has_infra { NodeRole::Infrastructure } else { NodeRole::Compute }
}

/// Where a card sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SlotKind {
    /// A PCIe slot on the mainboard, by expansion-slot position.
    Board,
    /// A riser-fed double-width GPU bay of a GPU server chassis.
    GpuBay,
}

/// One PCIe card unit and where it was placed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardPlacement {
    pub part: PartId,
    pub name: String,
    pub kind: PartKind,
    pub line: usize,
    /// Unit index within the line (0-based).
    pub unit: u32,
    /// Expansion slots the card covers (its width rounded up).
    pub width_slots: u8,
    /// Lanes the card uses.
    pub lanes: u8,
    pub slot_kind: SlotKind,
    /// First covered position (board) or first bay; None when it could not be placed.
    pub position: Option<u8>,
    /// Last covered position or bay.
    pub last_position: Option<u8>,
    /// Electrical lanes of the slot (board slots).
    pub slot_electrical_lanes: Option<u8>,
    pub slot_pcie_gen: Option<u8>,
    /// True when the build line chose this slot.
    pub user_chosen: bool,
}

/// The PCIe layout of one node group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeLayout {
    pub node: usize,
    /// The mainboard's slots.
    pub board_slots: Vec<PcieSlot>,
    /// Expansion-slot openings of the chassis (None without a chassis).
    pub expansion_slots: Option<u8>,
    /// GPU bays of a GPU server chassis.
    pub gpu_bays: Option<u8>,
    pub cards: Vec<CardPlacement>,
}

/// The compatibility section of the report: the PCIe layouts (the findings are in the
/// report's diagnostics).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Compat {
    pub layouts: Vec<NodeLayout>,
}

/// Runs every compatibility rule.
#[must_use]
pub fn check(resolved: &Resolved<'_>) -> (Compat, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut layouts = Vec::new();
    for node in &resolved.nodes {
        let role = node_role(&node.parts);
        match role {
            NodeRole::Empty => out.push(
                Diagnostic::new(Severity::Warning, "node-empty", format!("{} has no parts", node.name))
                    .in_node(node.index)
                    .with_fix("Add parts, or remove the node"),
            ),
            NodeRole::Compute => essentials(node, &mut out),
            NodeRole::System | NodeRole::Infrastructure => {}
        }
        if matches!(role, NodeRole::Compute | NodeRole::System) {
            duplicates(node, &mut out);
            cpu_rules(node, &mut out);
            memory_rules(node, &mut out);
            module_rules(node, &mut out);
            nvlink_rules(node, &mut out);
            let layout = place_cards(resolved, node, &mut out);
            lane_rules(node, &layout, &mut out);
            gpu_fit_rules(node, &mut out);
            connector_rules(node, &mut out);
            psu_fit_rules(node, &mut out);
            cooler_rules(node, &mut out);
            board_chassis_rules(node, &mut out);
            ram_vram_rule(node, &mut out);
            layouts.push(layout);
        }
        storage_rules(node, &mut out);
    }
    cluster_rules(resolved, &mut out);
    (Compat { layouts }, out)
}

/// Attaches the build items a finding is about, as chained calls:
/// `diag(node, Severity::Error, code, msg).at(node.index, cpu).at(node.index, board)`.
trait Attach: Sized {
    /// Records `item`'s part and its build line in node group `node`.
    #[must_use]
    fn at<T: CatalogEntry>(self, node: usize, item: &Item<'_, T>) -> Self;

    /// [`Attach::at`] for every item of `items`.
    #[must_use]
    fn at_each<'i, 'a: 'i, T: CatalogEntry + 'a>(
        self,
        node: usize,
        items: impl IntoIterator<Item = &'i Item<'a, T>>,
    ) -> Self {
        items.into_iter().fold(self, |d, item| d.at(node, item))
    }

    /// [`Attach::at`] the node's (first) chassis, when it has one.
    #[must_use]
    fn with_chassis(self, node: &Node<'_>) -> Self {
        self.at_each(node.index, node.parts.chassis.first())
    }
}

impl Attach for Diagnostic {
    fn at<T: CatalogEntry>(self, node: usize, item: &Item<'_, T>) -> Self {
        self.with_part(item.part.meta().id).with_line(Location::Node(node), item.line)
    }
}

fn diag(node: &Node<'_>, severity: Severity, code: &str, message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::new(severity, code, format!("{}: {message}", node.name)).in_node(node.index)
}

fn essentials(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    let missing = |sev, code: &str, what: &str, fix: &str| {
        diag(node, sev, code, format!("has no {what}")).with_fix(fix.to_owned())
    };
    if p.mainboard().is_none() {
        out.push(missing(Severity::Error, "missing-motherboard", "mainboard", "Add a motherboard for the CPU"));
    }
    if p.cpus.is_empty() {
        out.push(missing(Severity::Error, "missing-cpu", "CPU", "Add a CPU that fits the board's socket"));
    }
    if p.memory.is_empty() {
        out.push(missing(Severity::Error, "missing-memory", "system memory", "Add DIMMs of the board's memory type"));
    }
    if p.psus.is_empty() {
        out.push(missing(Severity::Error, "missing-psu", "power supply", "Add a PSU of the recommended size"));
    }
    if p.storage.is_empty() {
        out.push(missing(
            Severity::Warning,
            "missing-storage",
            "storage drive",
            "Add an NVMe drive for the OS and data",
        ));
    }
    if p.chassis.is_empty() {
        out.push(missing(Severity::Warning, "missing-chassis", "chassis", "Add a case or server chassis"));
    }
    if !p.cpus.is_empty() && p.coolers.is_empty() {
        out.push(missing(
            Severity::Warning,
            "missing-cpu-cooler",
            "CPU cooler",
            "Add a cooler rated for the CPU's power",
        ));
    }
}

fn duplicates(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let mains: Vec<_> =
        node.parts.boards.iter().filter(|b| b.part.role == crate::core::catalog::BoardRole::Mainboard).collect();
    let main_units: u32 = mains.iter().map(|b| b.quantity).sum();
    if main_units > 1 {
        out.push(
            diag(node, Severity::Error, "multiple-mainboards", format!("has {main_units} mainboards; a node has one"))
                .at_each(node.index, mains.iter().copied())
                .with_fix("Keep one mainboard, or split the node into node groups"),
        );
    }
    let chassis_units: u32 = node.parts.chassis.iter().map(|c| c.quantity).sum();
    if chassis_units > 1 {
        out.push(
            diag(node, Severity::Error, "multiple-chassis", format!("has {chassis_units} chassis; a node has one"))
                .at_each(node.index, &node.parts.chassis)
                .with_fix("Keep one chassis, or split the node into node groups"),
        );
    }
}

fn cpu_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    let Some(first) = p.cpus.first() else { return };
    let count = p.cpu_count();
    if p.cpus.iter().any(|c| c.part.id != first.part.id) {
        out.push(
            diag(
                node,
                Severity::Error,
                "cpu-mixed-models",
                "mixes different CPU models; multi-socket boards need identical CPUs".to_owned(),
            )
            .at_each(node.index, &p.cpus)
            .with_fix("Use the same CPU model in every socket"),
        );
    }
    for c in &p.cpus {
        if count > u32::from(c.part.max_sockets) {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "cpu-multi-socket-unsupported",
                    format!(
                        "has {count} × {}, which runs in at most {} socket(s) per system",
                        c.part.name, c.part.max_sockets
                    ),
                )
                .at(node.index, c)
                .with_fix("Use one CPU, or a CPU model made for multi-socket systems"),
            );
        }
    }
    let Some(board_item) = p.boards.iter().find(|b| b.part.role == crate::core::catalog::BoardRole::Mainboard) else {
        return;
    };
    let board = board_item.part;
    for c in &p.cpus {
        if let Some(socket) = &board.socket
            && socket != &c.part.socket
        {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "cpu-socket-mismatch",
                    format!("{} is a {} CPU but {} has socket {socket}", c.part.name, c.part.socket, board.name),
                )
                .at(node.index, c)
                .at(node.index, board_item)
                .with_fix(format!("Choose a board with socket {} or a {socket} CPU", c.part.socket)),
            );
        }
    }
    let sockets = u32::from(board.cpu_sockets);
    if count > sockets {
        out.push(
            diag(
                node,
                Severity::Error,
                "cpu-count-exceeds-sockets",
                format!("has {count} CPUs but {} has {sockets} socket(s)", board.name),
            )
            .at(node.index, board_item)
            .with_fix(format!("Use at most {sockets} CPU(s), or a board with more sockets")),
        );
    } else if count < sockets && count > 0 {
        out.push(
            diag(
                node,
                Severity::Info,
                "cpu-sockets-unpopulated",
                format!(
                    "{} has {sockets} sockets and {count} CPU(s); the memory channels and PCIe lanes of an empty socket are unavailable",
                    board.name
                ),
            )
            .at(node.index, board_item),
        );
    }
}

fn memory_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    if p.memory.is_empty() {
        return;
    }
    let i = node.index;
    let board_item = p.boards.iter().find(|b| b.part.role == crate::core::catalog::BoardRole::Mainboard);
    for m in &p.memory {
        for c in &p.cpus {
            if !c.part.memory_types.contains(&m.part.memory_type) {
                out.push(
                    diag(
                        node,
                        Severity::Error,
                        "memory-type-mismatch",
                        format!(
                            "{} is {} but {} supports {}",
                            m.part.name,
                            m.part.memory_type,
                            c.part.name,
                            join(&c.part.memory_types)
                        ),
                    )
                    .at(i, m)
                    .at(i, c)
                    .with_fix("Use DIMMs of a type the CPU supports"),
                );
            }
        }
        if let Some(b) = board_item {
            if let Some(t) = b.part.memory_type
                && t != m.part.memory_type
            {
                out.push(
                    diag(
                        node,
                        Severity::Error,
                        "memory-type-mismatch",
                        format!("{} is {} but {} takes {t}", m.part.name, m.part.memory_type, b.part.name),
                    )
                    .at(i, m)
                    .at(i, b)
                    .with_fix(format!("Use {t} DIMMs")),
                );
            }
            let accepts = |k: DimmKind| {
                b.part.dimm_kinds.contains(&k)
                    || (k == DimmKind::Lrdimm && b.part.dimm_kinds.contains(&DimmKind::Rdimm))
            };
            if !b.part.dimm_kinds.is_empty() && !accepts(m.part.dimm_kind) {
                out.push(
                    diag(
                        node,
                        Severity::Error,
                        "memory-dimm-kind-mismatch",
                        format!(
                            "{} is a {} module but {} takes {}",
                            m.part.name,
                            m.part.dimm_kind,
                            b.part.name,
                            join(&b.part.dimm_kinds)
                        ),
                    )
                    .at(i, m)
                    .at(i, b)
                    .with_fix(format!("Use {} modules", join(&b.part.dimm_kinds))),
                );
            }
            let registered_only = !b.part.dimm_kinds.is_empty()
                && b.part.dimm_kinds.iter().all(|k| matches!(k, DimmKind::Rdimm | DimmKind::Lrdimm));
            if registered_only && !m.part.ecc {
                out.push(
                    diag(
                        node,
                        Severity::Error,
                        "memory-ecc-required",
                        format!("{} is non-ECC but {} takes registered ECC memory only", m.part.name, b.part.name),
                    )
                    .at(i, m)
                    .with_fix("Use registered ECC DIMMs"),
                );
            }
        }
    }
    let kinds: BTreeSet<DimmKind> = p.memory.iter().map(|m| m.part.dimm_kind).collect();
    if kinds.len() > 1 {
        out.push(
            diag(
                node,
                Severity::Error,
                "memory-kinds-mixed",
                format!("mixes {} modules, which cannot run together", join(&kinds.into_iter().collect::<Vec<_>>())),
            )
            .at_each(i, &p.memory)
            .with_fix("Use one module kind throughout"),
        );
    }
    let ecc: BTreeSet<bool> = p.memory.iter().map(|m| m.part.ecc).collect();
    if ecc.len() > 1 {
        out.push(
            diag(
                node,
                Severity::Warning,
                "memory-ecc-mixed",
                "mixes ECC and non-ECC modules; ECC is disabled for all of them".to_owned(),
            )
            .at_each(i, &p.memory)
            .with_fix("Use ECC modules throughout"),
        );
    }
    let dimms = p.dimm_count();
    let total_gib: f64 = p.memory.iter().map(|m| m.part.capacity_gib * f64::from(m.quantity)).sum();
    if let Some(b) = board_item {
        if b.part.dimm_slots > 0 && dimms > u32::from(b.part.dimm_slots) {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "memory-slots-exceeded",
                    format!("has {dimms} DIMMs but {} has {} slots", b.part.name, b.part.dimm_slots),
                )
                .at(i, b)
                .with_fix("Use fewer, larger DIMMs"),
            );
        }
        if b.part.max_memory_gib > 0.0 && total_gib > b.part.max_memory_gib {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "memory-capacity-exceeds-board",
                    format!(
                        "has {total_gib:.0} GiB of memory; {} supports at most {:.0} GiB",
                        b.part.name, b.part.max_memory_gib
                    ),
                )
                .at(i, b)
                .with_fix(format!("Stay within {:.0} GiB", b.part.max_memory_gib)),
            );
        }
        let cpu_channels: u32 = p.cpus.iter().map(|c| u32::from(c.part.memory_channels) * c.quantity).sum();
        let board_channels = u32::from(b.part.memory_channels);
        let channels = match (cpu_channels, board_channels) {
            (0, b) => b,
            (c, 0) => c,
            (c, b) => c.min(b),
        };
        if channels > 0 && dimms < channels {
            out.push(
                diag(
                    node,
                    Severity::Warning,
                    "memory-channels-underpopulated",
                    format!("{dimms} DIMM(s) populate {dimms} of {channels} memory channels; memory bandwidth is {dimms}/{channels} of what the platform offers"),
                )
                .at(i, b)
                .with_fix(format!("Use at least {channels} DIMMs (one per channel)")),
            );
        }
    }
    let cpu_max_gib: f64 = p.cpus.iter().map(|c| c.part.max_memory_gib * f64::from(c.quantity)).sum();
    if cpu_max_gib > 0.0 && total_gib > cpu_max_gib {
        out.push(
            diag(
                node,
                Severity::Error,
                "memory-capacity-exceeds-cpu",
                format!("has {total_gib:.0} GiB of memory; the CPU(s) address at most {cpu_max_gib:.0} GiB"),
            )
            .at_each(i, &p.cpus)
            .with_fix(format!("Stay within {cpu_max_gib:.0} GiB")),
        );
    }
}

fn join<T: std::fmt::Display>(items: &[T]) -> String {
    items.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

fn module_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    let i = node.index;
    let chassis = p.chassis();
    for g in p.gpus.iter().filter(|g| g.in_system.is_none()) {
        if g.part.form_factor == GpuFormFactor::Integrated {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "gpu-integrated-standalone",
                    format!("{} is integrated in a module and cannot be bought or fitted on its own", g.part.name),
                )
                .at(i, g)
                .with_fix("Add the system that contains it instead"),
            );
        }
    }
    let modules: Vec<_> = p.gpus.iter().filter(|g| g.in_system.is_none() && g.part.form_factor.is_module()).collect();
    if modules.is_empty() {
        return;
    }
    let baseboards: Vec<_> = p.boards.iter().filter(|b| b.part.baseboard.is_some()).collect();
    if baseboards.is_empty() {
        out.push(
            diag(
                node,
                Severity::Error,
                "gpu-module-needs-baseboard",
                format!(
                    "{} is an {} module; it needs a matching GPU baseboard, not a PCIe slot",
                    modules.first().map_or("", |g| g.part.name.as_str()),
                    modules.first().map_or(GpuFormFactor::Sxm4, |g| g.part.form_factor)
                ),
            )
            .at_each(i, modules.iter().copied())
            .with_fix("Add the matching HGX / OAM baseboard and a GPU server chassis"),
        );
        return;
    }
    for g in &modules {
        let form = g.part.form_factor;
        if !baseboards.iter().any(|b| b.part.baseboard.as_ref().is_some_and(|bb| bb.form_factor == form)) {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "gpu-baseboard-mismatch",
                    format!(
                        "{} is an {form} module but the baseboard takes {}",
                        g.part.name,
                        baseboards
                            .iter()
                            .filter_map(|b| b.part.baseboard.as_ref().map(|bb| bb.form_factor.to_string()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                )
                .at(i, g)
                .at_each(i, baseboards.iter().copied())
                .with_fix(format!("Use an {form} baseboard")),
            );
        }
    }
    let positions: u32 =
        baseboards.iter().map(|b| b.part.baseboard.as_ref().map_or(0, |bb| u32::from(bb.positions)) * b.quantity).sum();
    let count: u32 = modules.iter().map(|g| g.quantity).sum();
    if count > positions {
        out.push(
            diag(
                node,
                Severity::Error,
                "gpu-baseboard-positions-exceeded",
                format!("has {count} GPU modules but the baseboard(s) hold {positions}"),
            )
            .at_each(i, modules.iter().copied())
            .with_fix(format!("Use at most {positions} modules per node")),
        );
    }
    if let Some(ch) = chassis {
        for b in &baseboards {
            let form = b.part.baseboard.as_ref().map(|bb| bb.form_factor);
            if ch.gpu_baseboard != form {
                let took =
                    ch.gpu_baseboard.map_or_else(|| "no GPU baseboard".to_owned(), |f| format!("an {f} baseboard"));
                let d = diag(
                    node,
                    Severity::Error,
                    "gpu-baseboard-chassis-mismatch",
                    format!("{} does not fit {}, which takes {took}", b.part.name, ch.name),
                )
                .at(i, b);
                out.push(d.with_chassis(node).with_fix("Use the GPU server chassis made for this baseboard"));
            }
        }
    }
}

/// True when every line is the same GPU model (bridges join identical cards).
fn same_model(cards: &[&Item<'_, crate::core::catalog::Gpu>]) -> bool {
    cards.windows(2).all(|w| matches!(w, [a, b] if a.part.id == b.part.id))
}

fn nvlink_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let i = node.index;
    let cards: Vec<_> =
        node.parts.gpus.iter().filter(|g| g.in_system.is_none() && g.part.form_factor == GpuFormFactor::Pcie).collect();
    let count: u32 = cards.iter().map(|g| g.quantity).sum();
    if !node.nvlink_bridge {
        let bridgeable = cards.iter().all(|g| matches!(g.part.interconnect, Interconnect::NvLinkBridge { .. }));
        if count >= 2 && bridgeable && same_model(&cards) {
            out.push(
                diag(
                    node,
                    Severity::Info,
                    "nvlink-bridge-available",
                    format!("the {count} GPUs support NVLink bridges, which the node does not use; bridged pairs exchange data much faster than over PCIe"),
                )
                .at_each(i, cards.iter().copied())
                .with_fix("Add NVLink bridges (set the node's NVLink bridge option)"),
            );
        }
        return;
    }
    if cards.is_empty() {
        out.push(
            diag(
                node,
                Severity::Error,
                "nvlink-bridge-unsupported",
                "is set to use NVLink bridges but has no PCIe GPUs to bridge".to_owned(),
            )
            .with_fix("Turn the NVLink bridge option off"),
        );
        return;
    }
    for g in &cards {
        if !matches!(g.part.interconnect, Interconnect::NvLinkBridge { .. }) {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "nvlink-bridge-unsupported",
                    format!("{} has no NVLink bridge connector", g.part.name),
                )
                .at(i, g)
                .with_fix("Turn the NVLink bridge option off, or use cards that take a bridge (RTX 3090, RTX A6000, A100/H100 PCIe)"),
            );
        }
    }
    if !same_model(&cards) {
        out.push(
            diag(
                node,
                Severity::Error,
                "nvlink-bridge-mixed",
                "bridges different GPU models; NVLink bridges join identical cards".to_owned(),
            )
            .at_each(i, cards.iter().copied())
            .with_fix("Use identical cards"),
        );
    }
    if let Some(Interconnect::NvLinkBridge { max_gpus, .. }) = cards.first().map(|g| &g.part.interconnect) {
        let group = u32::from(*max_gpus).max(2);
        if count < 2 || !count.is_multiple_of(group) {
            out.push(
                diag(
                    node,
                    Severity::Warning,
                    "nvlink-bridge-unpaired",
                    format!(
                        "has {count} bridged GPU(s); bridges join groups of {group}, so {} card(s) stay on PCIe only",
                        count % group
                    ),
                )
                .at_each(i, cards.iter().copied())
                .with_fix(format!("Use a multiple of {group} cards")),
            );
        }
    }
}

#[derive(Clone, Debug)]
struct Card {
    part: PartId,
    name: String,
    kind: PartKind,
    line: usize,
    unit: u32,
    width: u8,
    lanes: u8,
    is_gpu: bool,
    chosen: Option<u8>,
}

fn width_slots(w: f64) -> u8 {
    let c = w.ceil();
    if c.is_nan() || c < 1.0 {
        1
    } else if c > 16.0 {
        16
    } else {
        crate::core::units::round_non_negative(c).try_into().unwrap_or(16)
    }
}

fn cards_of(resolved: &Resolved<'_>, node: &Node<'_>) -> Vec<Card> {
    let lines = resolved.build.nodes.get(node.index).map(|n| n.parts.as_slice()).unwrap_or_default();
    let chosen = |line: usize, unit: u32| lines.get(line).and_then(|l| l.slots.get(unit as usize).copied());
    let mut cards = Vec::new();
    for g in node.parts.gpus.iter().filter(|g| g.in_system.is_none() && g.part.form_factor == GpuFormFactor::Pcie) {
        for unit in 0..g.quantity.min(crate::core::build::MAX_QUANTITY) {
            cards.push(Card {
                part: g.part.id.clone(),
                name: g.part.name.clone(),
                kind: PartKind::Gpu,
                line: g.line,
                unit,
                width: width_slots(g.part.slot_width),
                lanes: g.part.pcie_lanes,
                is_gpu: true,
                chosen: chosen(g.line, unit),
            });
        }
    }
    for n in &node.parts.nics {
        for unit in 0..n.quantity.min(crate::core::build::MAX_QUANTITY) {
            cards.push(Card {
                part: n.part.id.clone(),
                name: n.part.name.clone(),
                kind: PartKind::Nic,
                line: n.line,
                unit,
                width: width_slots(NIC_SLOT_WIDTH),
                lanes: n.part.pcie_lanes,
                is_gpu: false,
                chosen: chosen(n.line, unit),
            });
        }
    }
    cards
}

/// Why a card could not go into a slot.
enum Misfit {
    Narrow,
    Overlap,
    BeyondChassis,
}

fn try_slot(slot: &PcieSlot, card: &Card, covered: &BTreeSet<u8>, limit: Option<u8>) -> Result<u8, Misfit> {
    if slot.physical_lanes < card.lanes.min(16) {
        return Err(Misfit::Narrow);
    }
    let last = slot.position.saturating_add(card.width - 1);
    if (slot.position..=last).any(|p| covered.contains(&p)) {
        return Err(Misfit::Overlap);
    }
    if limit.is_some_and(|l| last > l) {
        return Err(Misfit::BeyondChassis);
    }
    Ok(last)
}

fn place_cards(resolved: &Resolved<'_>, node: &Node<'_>, out: &mut Vec<Diagnostic>) -> NodeLayout {
    let board = node.parts.mainboard();
    let chassis: Option<&Chassis> = node.parts.chassis();
    let mut slots: Vec<PcieSlot> = board.map(|b| b.pcie_slots.clone()).unwrap_or_default();
    slots.sort_by_key(|s| s.position);
    let limit = chassis.map(|c| c.expansion_slots);
    let gpu_bays = chassis.and_then(|c| c.gpu_slots);
    let mut cards = cards_of(resolved, node);
    let mut placements: Vec<CardPlacement> = Vec::new();
    let mut covered: BTreeSet<u8> = BTreeSet::new();
    // (code, line) → (count, first message detail)
    let mut failures: BTreeMap<(&'static str, usize), (u32, Card, String)> = BTreeMap::new();
    let mut fail = |code: &'static str, card: &Card, why: String| {
        failures.entry((code, card.line)).and_modify(|e| e.0 += 1).or_insert((1, card.clone(), why));
    };
    let placed = |card: &Card, kind: SlotKind, pos: Option<(u8, u8)>, slot: Option<&PcieSlot>| CardPlacement {
        part: card.part.clone(),
        name: card.name.clone(),
        kind: card.kind,
        line: card.line,
        unit: card.unit,
        width_slots: card.width,
        lanes: card.lanes,
        slot_kind: kind,
        position: pos.map(|p| p.0),
        last_position: pos.map(|p| p.1),
        slot_electrical_lanes: slot.map(|s| s.electrical_lanes),
        slot_pcie_gen: slot.map(|s| s.pcie_gen),
        user_chosen: card.chosen.is_some(),
    };
    // GPU bays first: riser-fed GPU positions of a GPU server take the GPUs.
    if let Some(bays) = gpu_bays {
        let mut next: u8 = 1;
        for card in cards.iter().filter(|c| c.is_gpu) {
            let need = card.width.div_ceil(2).max(1);
            let last = next.saturating_add(need - 1);
            if last <= bays {
                placements.push(placed(card, SlotKind::GpuBay, Some((next, last)), None));
                next = last.saturating_add(1);
            } else {
                fail(
                    "gpu-bays-exceeded",
                    card,
                    format!("{} has {bays} double-width GPU bays", chassis.map_or("", |c| c.name.as_str())),
                );
                placements.push(placed(card, SlotKind::GpuBay, None, None));
            }
        }
        cards.retain(|c| !c.is_gpu);
    }
    // User-chosen slots, in line order.
    let (chosen, mut auto): (Vec<Card>, Vec<Card>) = cards.into_iter().partition(|c| c.chosen.is_some());
    for card in &chosen {
        let pos = card.chosen.unwrap_or_default();
        let Some(slot) = slots.iter().find(|s| s.position == pos) else {
            fail("pcie-slot-invalid", card, format!("the board has no PCIe slot at position {pos}"));
            placements.push(placed(card, SlotKind::Board, None, None));
            continue;
        };
        match try_slot(slot, card, &covered, limit) {
            Ok(last) => {
                covered.extend(slot.position..=last);
                placements.push(placed(card, SlotKind::Board, Some((slot.position, last)), Some(slot)));
            }
            Err(Misfit::BeyondChassis) => {
                fail(
                    "expansion-slots-exceeded",
                    card,
                    format!(
                        "in slot {pos} it would reach past the chassis' {} expansion slots",
                        limit.unwrap_or_default()
                    ),
                );
                placements.push(placed(card, SlotKind::Board, None, None));
            }
            Err(Misfit::Narrow) => {
                fail(
                    "pcie-slot-invalid",
                    card,
                    format!("slot {pos} is physically x{}, too short for an x{} card", slot.physical_lanes, card.lanes),
                );
                placements.push(placed(card, SlotKind::Board, None, None));
            }
            Err(Misfit::Overlap) => {
                fail("pcie-slot-invalid", card, format!("slot {pos} is covered by another card"));
                placements.push(placed(card, SlotKind::Board, None, None));
            }
        }
    }
    auto.sort_by(|a, b| {
        b.width.cmp(&a.width).then(b.lanes.cmp(&a.lanes)).then(a.line.cmp(&b.line)).then(a.unit.cmp(&b.unit))
    });
    for card in &auto {
        let full =
            slots.iter().find(|s| s.electrical_lanes >= card.lanes && try_slot(s, card, &covered, limit).is_ok());
        let any = full.or_else(|| slots.iter().find(|s| try_slot(s, card, &covered, limit).is_ok()));
        if let Some(slot) = any
            && let Ok(last) = try_slot(slot, card, &covered, limit)
        {
            covered.extend(slot.position..=last);
            placements.push(placed(card, SlotKind::Board, Some((slot.position, last)), Some(slot)));
            continue;
        }
        let beyond = slots.iter().any(|s| try_slot(s, card, &covered, None).is_ok());
        if beyond {
            fail(
                "expansion-slots-exceeded",
                card,
                format!(
                    "the only free slot would make it reach past the chassis' {} expansion slots",
                    limit.unwrap_or_default()
                ),
            );
        } else if slots.is_empty() {
            fail("pcie-slot-unavailable", card, "the node has no board with PCIe slots listed".to_owned());
        } else {
            fail(
                "pcie-slot-unavailable",
                card,
                format!("no free x{} slot has room for a {}-slot card", card.lanes.min(16), card.width),
            );
        }
        placements.push(placed(card, SlotKind::Board, None, None));
    }
    for ((code, _), (count, card, why)) in failures {
        let units = if count > 1 { format!("{count} × {}", card.name) } else { card.name.clone() };
        let fix = match code {
            "gpu-bays-exceeded" => "Use fewer GPUs, or a chassis with more GPU bays",
            "expansion-slots-exceeded" => "Use a chassis with more expansion slots, or narrower cards",
            "pcie-slot-invalid" => "Choose another slot, or clear the slot choice to place it automatically",
            _ => "Use fewer or narrower cards, a board with more x16 slots, or a GPU server chassis",
        };
        let d = diag(node, Severity::Error, code, format!("{units} cannot be fitted: {why}"))
            .with_part(&card.part)
            .with_line(Location::Node(node.index), card.line)
            .with_fix(fix);
        out.push(d.with_chassis(node));
    }
    let mut reduced: BTreeMap<usize, (u32, &CardPlacement)> = BTreeMap::new();
    for p in &placements {
        if let Some(e) = p.slot_electrical_lanes
            && e < p.lanes
        {
            reduced.entry(p.line).and_modify(|r| r.0 += 1).or_insert((1, p));
        }
    }
    for (count, p) in reduced.values() {
        out.push(
            diag(
                node,
                Severity::Warning,
                "pcie-slot-lanes-reduced",
                format!(
                    "{}{} sits in slot {} wired x{}; it runs at x{} instead of x{}",
                    if *count > 1 { format!("{count} × ") } else { String::new() },
                    p.name,
                    p.position.unwrap_or_default(),
                    p.slot_electrical_lanes.unwrap_or_default(),
                    p.slot_electrical_lanes.unwrap_or_default(),
                    p.lanes
                ),
            )
            .with_part(&p.part)
            .with_line(Location::Node(node.index), p.line)
            .with_fix("Move it to a slot wired for its full width"),
        );
    }
    placements.sort_by_key(|p| (p.slot_kind == SlotKind::Board, p.position.unwrap_or(u8::MAX), p.line, p.unit));
    NodeLayout { node: node.index, board_slots: slots, expansion_slots: limit, gpu_bays, cards: placements }
}

fn lane_rules(node: &Node<'_>, layout: &NodeLayout, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    let Some(first) = p.cpus.first() else { return };
    let count = p.cpu_count();
    let per_socket = u32::from(first.part.pcie_lanes);
    let available = if count >= 2 && SHARED_LANE_SOCKETS.contains(&first.part.socket.as_str()) {
        per_socket
    } else {
        per_socket * count
    };
    // HGX servers put the GPU-side NICs behind PCIe switches shared with the GPU modules (one
    // NIC per GPU in NVIDIA's DGX H100 / HGX reference design), so up to one NIC per module
    // draws on the switches, not on the CPUs' lanes.
    let hgx_server = p.chassis().is_some_and(|c| c.gpu_baseboard.is_some());
    let modules: u32 = p.gpus.iter().filter(|g| g.part.form_factor.is_module()).map(|g| g.quantity).sum();
    let mut behind_switches = if hgx_server { modules } else { 0 };
    let card_lanes: u32 = layout
        .cards
        .iter()
        .filter(|c| {
            if c.kind == PartKind::Nic && behind_switches > 0 {
                behind_switches -= 1;
                false
            } else {
                true
            }
        })
        .map(|c| u32::from(c.slot_electrical_lanes.unwrap_or(c.lanes).min(c.lanes)))
        .sum();
    let nvme: u32 = p
        .storage
        .iter()
        .filter(|s| {
            matches!(
                s.part.interface,
                StorageInterface::NvmeM2 | StorageInterface::NvmeU2 | StorageInterface::NvmeEdsff
            )
        })
        .map(|s| u32::from(s.part.pcie_lanes.unwrap_or(NVME_LANES)) * s.quantity)
        .sum();
    let wanted = card_lanes + nvme;
    if wanted > available {
        out.push(
            diag(
                node,
                Severity::Warning,
                "pcie-lanes-oversubscribed",
                format!("the GPUs, NICs and NVMe drives ask for {wanted} PCIe lanes ({card_lanes} for cards, {nvme} for drives) but the CPU(s) provide {available}; some cards will run at x8 or share lanes through the chipset or a PCIe switch"),
            )
            .at_each(node.index, &p.cpus)
            .with_fix("Use a CPU with more lanes (Threadripper PRO, Xeon W, EPYC), or fewer cards"),
        );
    }
}

fn gpu_fit_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let Some(ch) = node.parts.chassis() else { return };
    for g in node.parts.gpus.iter().filter(|g| g.in_system.is_none()) {
        if let (Some(len), Some(max)) = (g.part.length_mm, ch.max_gpu_length_mm)
            && len > max
        {
            let d = diag(
                node,
                Severity::Error,
                "gpu-too-long",
                format!("{} is {len:.0} mm long; {} fits cards up to {max:.0} mm", g.part.name, ch.name),
            )
            .at(node.index, g);
            out.push(d.with_chassis(node).with_fix("Choose a larger chassis or a shorter card"));
        }
        if g.part.segment == GpuSegment::Consumer && ch.kind == ChassisKind::Rack {
            let d = diag(
                node,
                Severity::Info,
                "consumer-gpu-in-server",
                format!(
                    "{} is a consumer card in a rack server: NVIDIA's GeForce driver licence excludes data-center deployment, and open-air coolers recirculate heat in front-to-back server airflow",
                    g.part.name
                ),
            )
            .at(node.index, g);
            out.push(d.with_fix("Consider a data-center or blower workstation card"));
        }
    }
}

/// Connector counts by type.
type Connectors = BTreeMap<PowerConnector, u32>;

fn add_connectors(into: &mut Connectors, list: &[crate::core::catalog::ConnectorCount], times: u32) {
    for c in list {
        *into.entry(c.connector).or_insert(0) += u32::from(c.count) * times;
    }
}

fn connector_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    if p.psus.is_empty() {
        return;
    }
    let i = node.index;
    let server_psus =
        p.psus.iter().all(|u| matches!(u.part.form_factor, PsuFormFactor::Crps | PsuFormFactor::ServerModule));
    let mut supply = Connectors::new();
    for u in &p.psus {
        add_connectors(&mut supply, &u.part.connectors, u.quantity);
    }
    if let Some(ch) = p.chassis() {
        add_connectors(&mut supply, &ch.gpu_power_connectors, 1);
    }
    let gpus: Vec<_> =
        p.gpus.iter().filter(|g| g.in_system.is_none() && g.part.form_factor == GpuFormFactor::Pcie).collect();
    let mut demand = Connectors::new();
    for g in &gpus {
        add_connectors(&mut demand, &g.part.power_connectors, g.quantity);
    }
    let get = |m: &Connectors, k| m.get(&k).copied().unwrap_or(0);
    let mut pcie8 = get(&supply, PowerConnector::Pcie8Pin);
    let mut short: Vec<String> = Vec::new();
    let mut adapters = 0u32;
    // 16-pin: native first, then NVIDIA's 8-pin adapter (one 150 W plug per 150 W of card power).
    let hp_demand = get(&demand, PowerConnector::Hpwr16Pin);
    let hp_supply = get(&supply, PowerConnector::Hpwr16Pin);
    if hp_demand > hp_supply {
        let mut missing = hp_demand - hp_supply;
        let per_adapter: u32 = gpus
            .iter()
            .filter(|g| g.part.power_connectors.iter().any(|c| c.connector == PowerConnector::Hpwr16Pin))
            .map(|g| {
                let n = (g.part.tdp_watts / PCIE_8PIN_WATTS).ceil();
                u32::try_from(crate::core::units::round_non_negative(n)).unwrap_or(4).max(2)
            })
            .max()
            .unwrap_or(4);
        while missing > 0 && pcie8 >= per_adapter {
            pcie8 -= per_adapter;
            missing -= 1;
            adapters += 1;
        }
        if missing > 0 {
            short.push(format!("{missing} × 16-pin 12V-2x6"));
        }
    }
    let p8 = get(&demand, PowerConnector::Pcie8Pin);
    if p8 > pcie8 {
        short.push(format!("{} × PCIe 8-pin", p8 - pcie8));
        pcie8 = 0;
    } else {
        pcie8 -= p8;
    }
    let p6 = get(&demand, PowerConnector::Pcie6Pin);
    let six = get(&supply, PowerConnector::Pcie6Pin) + pcie8;
    if p6 > six {
        short.push(format!("{} × PCIe 6-pin", p6 - six));
    }
    let gpu_eps = get(&demand, PowerConnector::Eps8Pin);
    let eps_supply = get(&supply, PowerConnector::Eps8Pin);
    let board_eps = p.mainboard().map_or(0, |b| u32::from(b.eps_connectors));
    let cpus = p.cpu_count();
    if !server_psus || gpu_eps > 0 {
        // A server chassis' power board feeds the CPUs itself; ATX units give each CPU one EPS
        // cable first.
        let eps_free_for_gpus = if server_psus { eps_supply } else { eps_supply.saturating_sub(cpus) };
        if gpu_eps > eps_free_for_gpus {
            short.push(format!("{} × EPS 8-pin for the GPUs", gpu_eps - eps_free_for_gpus));
        }
    }
    if !short.is_empty() {
        out.push(
            diag(
                node,
                Severity::Error,
                "psu-connectors-insufficient",
                format!("the PSU(s) lack {} that the GPUs need", short.join(", ")),
            )
            .at_each(i, &p.psus)
            .at_each(i, gpus.iter().copied())
            .with_fix("Use a PSU with enough GPU power connectors (a native 12V-2x6 cable per 16-pin card)"),
        );
    } else if adapters > 0 {
        let d = diag(
            node,
            Severity::Warning,
            "psu-connector-adapter",
            format!("{adapters} GPU(s) need the 8-pin to 16-pin adapter; the PSU has no native 12V-2x6 cable for them"),
        )
        .at_each(i, &p.psus);
        out.push(d.with_fix("Prefer an ATX 3.x PSU with a native 12V-2x6 cable per card"));
    }
    if !server_psus && cpus > 0 {
        if eps_supply < cpus {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "psu-eps-insufficient",
                    format!("the PSU(s) have {eps_supply} EPS 8-pin CPU connector(s) for {cpus} CPU(s)"),
                )
                .at_each(i, &p.psus)
                .with_fix("Use a PSU with an EPS 8-pin cable per CPU"),
            );
        } else if eps_supply < board_eps + gpu_eps {
            out.push(
                diag(
                    node,
                    Severity::Warning,
                    "psu-eps-insufficient",
                    format!("the board has {board_eps} EPS 8-pin input(s) and the GPUs need {gpu_eps}, the PSU(s) provide {eps_supply}; the board runs, with less CPU power headroom"),
                )
                .at_each(i, &p.psus)
                .with_fix("Use a PSU with more EPS cables"),
            );
        }
    }
}

fn psu_fit_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    let i = node.index;
    let units = p.psu_count();
    if units == 0 && !p.systems.is_empty() {
        // A complete system's own supplies and redundancy come from its datasheet.
        return;
    }
    match node.redundancy {
        crate::core::build::Redundancy::NPlusOne if units < 2 => out.push(
            diag(
                node,
                Severity::Error,
                "psu-redundancy-insufficient",
                format!("is set to N+1 PSU redundancy with {units} PSU(s); N+1 needs at least 2"),
            )
            .with_fix("Add a PSU, or set redundancy to none"),
        ),
        crate::core::build::Redundancy::NPlusN if units < 2 || !units.is_multiple_of(2) => out.push(
            diag(
                node,
                Severity::Error,
                "psu-redundancy-insufficient",
                format!("is set to N+N PSU redundancy with {units} PSU(s); N+N needs an even number, at least 2"),
            )
            .with_fix("Use an even number of PSUs, or another redundancy setting"),
        ),
        _ => {}
    }
    let Some(ch) = p.chassis() else { return };
    let fits = |f: PsuFormFactor| {
        f == ch.psu_form_factor || (f == PsuFormFactor::Sfx && ch.psu_form_factor == PsuFormFactor::Atx)
    };
    for u in p.psus.iter().filter(|u| u.included_with.is_none()) {
        if !fits(u.part.form_factor) {
            let d = diag(
                node,
                Severity::Error,
                "psu-form-factor-mismatch",
                format!("{} does not fit {}, which takes {:?} supplies", u.part.name, ch.name, ch.psu_form_factor),
            )
            .at(i, u);
            out.push(d.with_chassis(node).with_fix("Use a PSU of the chassis' form factor"));
        }
    }
    if ch.psu_bays > 0 && units > u32::from(ch.psu_bays) {
        out.push(
            diag(
                node,
                Severity::Error,
                "psu-bays-exceeded",
                format!("has {units} PSUs but {} has {} PSU bay(s)", ch.name, ch.psu_bays),
            )
            .at_each(i, &p.psus)
            .with_chassis(node)
            .with_fix("Use fewer, larger PSUs"),
        );
    }
}

fn cooler_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    let i = node.index;
    let chassis = p.chassis();
    let cpus = p.cpu_count();
    let coolers: u32 = p.coolers.iter().map(|c| c.quantity).sum();
    if coolers > 0 && coolers < cpus {
        out.push(
            diag(node, Severity::Warning, "cooler-count-low", format!("has {cpus} CPUs and {coolers} cooler(s)"))
                .at_each(i, &p.coolers)
                .with_fix("Add a cooler per CPU"),
        );
    }
    for c in &p.coolers {
        let cooler = c.part;
        for cpu in &p.cpus {
            if !cooler.sockets.iter().any(|s| s == &cpu.part.socket) {
                out.push(
                    diag(
                        node,
                        Severity::Error,
                        "cooler-socket-mismatch",
                        format!(
                            "{} does not mount on socket {} ({} lists {})",
                            cooler.name,
                            cpu.part.socket,
                            cooler.name,
                            cooler.sockets.join(", ")
                        ),
                    )
                    .at(i, c)
                    .at(i, cpu)
                    .with_fix(format!("Use a cooler with a {} mount", cpu.part.socket)),
                );
            }
            let max = cpu.part.max_power_watts.unwrap_or(cpu.part.tdp_watts);
            if cooler.kind != CoolerKind::CustomLoop || !cooler.cools_gpus {
                if cooler.rated_heat_watts < cpu.part.tdp_watts {
                    out.push(
                        diag(
                            node,
                            Severity::Error,
                            "cooler-capacity-low",
                            format!(
                                "{} is rated for {:.0} W, below {}'s {:.0} W TDP",
                                cooler.name, cooler.rated_heat_watts, cpu.part.name, cpu.part.tdp_watts
                            ),
                        )
                        .at(i, c)
                        .at(i, cpu)
                        .with_fix(format!("Use a cooler rated for at least {max:.0} W")),
                    );
                } else if cooler.rated_heat_watts < max {
                    out.push(
                        diag(
                            node,
                            Severity::Warning,
                            "cooler-capacity-low",
                            format!(
                                "{} is rated for {:.0} W; {} draws up to {max:.0} W sustained and will throttle under long all-core loads",
                                cooler.name, cooler.rated_heat_watts, cpu.part.name
                            ),
                        )
                        .at(i, c)
                        .at(i, cpu)
                        .with_fix(format!("Use a cooler rated for at least {max:.0} W")),
                    );
                }
            }
        }
        if cooler.kind == CoolerKind::CustomLoop && cooler.cools_gpus {
            let cpu_w: f64 =
                p.cpus.iter().map(|c| c.part.max_power_watts.unwrap_or(c.part.tdp_watts) * f64::from(c.quantity)).sum();
            let gpu_w: f64 =
                p.gpus.iter().filter(|g| g.in_system.is_none()).map(|g| g.part.tdp_watts * f64::from(g.quantity)).sum();
            let load = cpu_w + gpu_w;
            if cooler.rated_heat_watts * f64::from(c.quantity) < load {
                out.push(
                    diag(
                        node,
                        Severity::Warning,
                        "cooler-capacity-low",
                        format!(
                            "the loop {} is rated for {:.0} W but cools CPUs and GPUs drawing up to {load:.0} W",
                            cooler.name,
                            cooler.rated_heat_watts * f64::from(c.quantity)
                        ),
                    )
                    .at(i, c)
                    .with_fix("Add radiator capacity"),
                );
            }
        }
        if let Some(ch) = chassis {
            if let (Some(h), Some(max)) = (cooler.height_mm, ch.max_cooler_height_mm)
                && h > max
            {
                let d = diag(
                    node,
                    Severity::Error,
                    "cooler-too-tall",
                    format!("{} is {h:.0} mm tall; {} fits coolers up to {max:.0} mm", cooler.name, ch.name),
                )
                .at(i, c);
                out.push(d.with_chassis(node).with_fix("Use a lower cooler, an AIO, or a larger chassis"));
            }
            if let (Some(r), Some(max)) = (cooler.radiator_mm, ch.max_radiator_mm)
                && r > max
            {
                let d = diag(
                    node,
                    Severity::Error,
                    "radiator-too-long",
                    format!(
                        "{}'s {r:.0} mm radiator does not fit {}, which takes up to {max:.0} mm",
                        cooler.name, ch.name
                    ),
                )
                .at(i, c);
                out.push(d.with_chassis(node).with_fix("Use a shorter radiator or a larger chassis"));
            }
        }
    }
}

/// The form factors a chassis listing `listed` takes: smaller standard boards fit a case made
/// for a larger one (ATX cases take Micro-ATX and Mini-ITX; E-ATX and SSI-EEB cases take ATX).
fn chassis_takes(listed: &[BoardFormFactor], board: BoardFormFactor) -> bool {
    use BoardFormFactor as F;
    let rank = |f: F| match f {
        F::MiniItx => Some(1),
        F::MicroAtx => Some(2),
        F::Atx => Some(3),
        F::SsiCeb => Some(4),
        F::Eatx | F::SsiEeb => Some(5),
        F::Proprietary | F::GpuBaseboard => None,
    };
    if listed.contains(&board) {
        return true;
    }
    let Some(b) = rank(board) else { return false };
    listed.iter().filter_map(|f| rank(*f)).any(|r| r >= b)
}

fn board_chassis_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let Some(ch) = node.parts.chassis() else { return };
    for b in node.parts.boards.iter().filter(|b| b.part.role == crate::core::catalog::BoardRole::Mainboard) {
        if !chassis_takes(&ch.board_form_factors, b.part.form_factor) {
            let d = diag(
                node,
                Severity::Error,
                "board-form-factor-mismatch",
                format!(
                    "{} is {} but {} takes {}",
                    b.part.name,
                    b.part.form_factor,
                    ch.name,
                    join(&ch.board_form_factors)
                ),
            )
            .at(node.index, b);
            out.push(d.with_chassis(node).with_fix(format!("Use a chassis that takes {} boards", b.part.form_factor)));
        }
    }
}

/// Smallest purchasable memory size at or above `gib`: kits come in powers of two and 1.5×
/// powers of two (24, 48, 96 GB DDR5 modules; 192, 384, 768 GiB server configurations).
#[must_use]
pub fn purchasable_gib(gib: f64) -> f64 {
    if !gib.is_finite() || gib <= 8.0 {
        return 8.0;
    }
    let mut size = 8.0_f64;
    while size < gib {
        let half_step = size * 1.5;
        if half_step >= gib {
            return half_step;
        }
        size *= 2.0;
    }
    size
}

fn ram_vram_rule(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    if !p.systems.is_empty() {
        return;
    }
    let vram = p.gpu_memory_gib();
    let ram = p.system_memory_gib();
    if vram <= 0.0 || ram <= 0.0 {
        return;
    }
    let wanted = RAM_TO_VRAM_RATIO * vram;
    if ram < wanted {
        let rec = purchasable_gib(wanted);
        out.push(
            diag(
                node,
                Severity::Info,
                "system-memory-below-vram",
                format!("has {ram:.0} GiB of system memory for {vram:.0} GiB of GPU memory; the field guides advise at least 1.5× ({wanted:.0} GiB)"),
            )
            .at_each(node.index, &p.memory)
            .with_fix(format!("Fit {rec:.0} GiB of system memory")),
        );
    }
}

fn storage_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    let i = node.index;
    let count = |pred: &dyn Fn(StorageInterface) -> bool| -> u32 {
        p.storage.iter().filter(|s| pred(s.part.interface)).map(|s| s.quantity).sum()
    };
    let m2 = count(&|f| f == StorageInterface::NvmeM2);
    let hdd = count(&|f| f == StorageInterface::Hdd35);
    let small =
        count(&|f| matches!(f, StorageInterface::Sata25 | StorageInterface::NvmeU2 | StorageInterface::NvmeEdsff));
    let sata = count(&|f| matches!(f, StorageInterface::Sata25 | StorageInterface::Hdd35));
    let drives = |pred: fn(StorageInterface) -> bool| p.storage.iter().filter(move |s| pred(s.part.interface));
    if let Some(b) = p.mainboard()
        && m2 > u32::from(b.m2_slots)
    {
        out.push(
            diag(
                node,
                Severity::Error,
                "m2-slots-exceeded",
                format!("has {m2} M.2 drives but {} has {} M.2 slot(s)", b.name, b.m2_slots),
            )
            .at_each(i, drives(|f| f == StorageInterface::NvmeM2))
            .with_fix("Use a PCIe M.2 carrier card, U.2 drives, or fewer, larger drives"),
        );
    }
    if let Some(b) = p.mainboard()
        && sata > u32::from(b.sata_ports)
    {
        out.push(
            diag(
                node,
                Severity::Warning,
                "sata-ports-exceeded",
                format!(
                    "has {sata} SATA/SAS drives but {} has {} SATA port(s); an HBA or backplane controller is needed",
                    b.name, b.sata_ports
                ),
            )
            .at_each(i, drives(|f| matches!(f, StorageInterface::Sata25 | StorageInterface::Hdd35)))
            .with_fix("Add an HBA, or use NVMe drives"),
        );
    }
    let Some(ch) = p.chassis() else { return };
    let bays35 = u32::from(ch.bays_35);
    let bays25 = u32::from(ch.bays_25);
    let spare35 = bays35.saturating_sub(hdd);
    let code = if ch.kind == ChassisKind::Jbod { "jbod-bays-exceeded" } else { "drive-bays-exceeded" };
    if hdd > bays35 {
        let d = diag(
            node,
            Severity::Error,
            code,
            format!("has {hdd} 3.5\" drives but {} has {bays35} 3.5\" bay(s)", ch.name),
        )
        .at_each(i, drives(|f| f == StorageInterface::Hdd35));
        out.push(d.with_chassis(node).with_fix("Move drives to a disk enclosure (JBOD) or use larger drives"));
    }
    if small > bays25 + spare35 {
        let d = diag(
            node,
            Severity::Error,
            code,
            format!(
                "has {small} 2.5\"/U.2/EDSFF drives but {} has {bays25} 2.5\" bay(s) and {spare35} free 3.5\" bay(s)",
                ch.name
            ),
        )
        .at_each(
            i,
            drives(|f| matches!(f, StorageInterface::Sata25 | StorageInterface::NvmeU2 | StorageInterface::NvmeEdsff)),
        );
        out.push(d.with_chassis(node).with_fix("Use a chassis with more bays or fewer, larger drives"));
    }
}

fn is_fabric_nic(nic: &crate::core::catalog::Nic) -> bool {
    matches!(nic.tech, NetTech::InfiniBand | NetTech::Vpi) || nic.port_speed_gbps >= FABRIC_MIN_GBPS
}

fn cluster_rules(resolved: &Resolved<'_>, out: &mut Vec<Diagnostic>) {
    // Training nodes: GPUs other than embedded modules (a fleet of Jetsons is not a training
    // cluster).
    let gpu_nodes: Vec<&Node<'_>> =
        resolved.nodes.iter().filter(|n| n.parts.gpus.iter().any(|g| g.part.segment != GpuSegment::Embedded)).collect();
    let gpu_node_count: u64 = gpu_nodes.iter().map(|n| u64::from(n.count)).sum();
    if gpu_node_count > 1 {
        for n in &gpu_nodes {
            let nic_fabric = n.parts.nics.iter().any(|x| is_fabric_nic(x.part));
            let sys_fabric = n.parts.systems.iter().any(|s| s.part.fabric_gbps >= FABRIC_MIN_GBPS);
            if !nic_fabric && !sys_fabric {
                out.push(
                    diag(
                        n,
                        Severity::Warning,
                        "fabric-missing",
                        format!("is one of {gpu_node_count} GPU nodes but has no InfiniBand or ≥ 100 GbE adapter; multi-node training will be bound by the network"),
                    )
                    .with_fix("Add an InfiniBand HDR/NDR or 100+ GbE adapter per node (one per GPU pair or GPU for large training)"),
                );
            }
        }
    }
    // Switches anywhere in the build (cluster section or infrastructure nodes).
    let mut switches: Vec<(&crate::core::catalog::Switch, u64, Location, usize)> =
        resolved.cluster.switches.iter().map(|s| (s.part, u64::from(s.quantity), Location::Cluster, s.line)).collect();
    for n in &resolved.nodes {
        for s in &n.parts.switches {
            switches.push((s.part, u64::from(s.quantity) * u64::from(n.count), Location::Node(n.index), s.line));
        }
    }
    let fabric_nic_ports = |want_ib: bool| -> u64 {
        resolved
            .nodes
            .iter()
            .map(|n| {
                let nic_ports: u64 = n
                    .parts
                    .nics
                    .iter()
                    .filter(|x| {
                        is_fabric_nic(x.part)
                            && (matches!(x.part.tech, NetTech::InfiniBand | NetTech::Vpi) == want_ib
                                || x.part.tech == NetTech::Vpi)
                    })
                    .map(|x| u64::from(x.part.ports) * u64::from(x.quantity))
                    .sum();
                nic_ports * u64::from(n.count)
            })
            .sum()
    };
    let ib_nics: u64 = fabric_nic_ports(true);
    let eth_nics: u64 = fabric_nic_ports(false);
    for (want_ib, label) in [(true, "InfiniBand"), (false, "Ethernet")] {
        let group: Vec<_> =
            switches.iter().filter(|s| matches!(s.0.tech, NetTech::InfiniBand | NetTech::Vpi) == want_ib).collect();
        if group.is_empty() {
            continue;
        }
        let port_speed = group.iter().map(|s| s.0.port_speed_gbps).fold(0.0_f64, f64::max);
        let system_ports: u64 = resolved
            .nodes
            .iter()
            .map(|n| {
                let per: u64 = n
                    .parts
                    .systems
                    .iter()
                    .filter(|s| s.part.fabric_gbps > 0.0 && port_speed > 0.0)
                    .map(|s| {
                        crate::core::units::round_non_negative((s.part.fabric_gbps / port_speed).ceil())
                            * u64::from(s.quantity)
                    })
                    .sum();
                if want_ib { per * u64::from(n.count) } else { 0 }
            })
            .sum();
        let demand = if want_ib { ib_nics } else { eth_nics } + system_ports;
        let supply: u64 = group.iter().map(|s| u64::from(s.0.ports) * s.1).sum();
        if demand > supply {
            let mut d = Diagnostic::new(
                Severity::Error,
                "switch-ports-insufficient",
                format!(
                    "the nodes have {demand} {label} fabric ports to connect but the {label} switches have {supply}"
                ),
            );
            for s in &group {
                d = d.with_part(&s.0.id).with_line(s.2, s.3);
            }
            out.push(d.with_fix("Add switches (a leaf–spine fabric also needs ports for uplinks)"));
        }
    }
    let has_ib_switch = switches.iter().any(|s| matches!(s.0.tech, NetTech::InfiniBand | NetTech::Vpi));
    let ib_only_nics: Vec<(&Node<'_>, &Item<'_, crate::core::catalog::Nic>)> = resolved
        .nodes
        .iter()
        .flat_map(|n| n.parts.nics.iter().filter(|x| x.part.tech == NetTech::InfiniBand).map(move |x| (n, x)))
        .collect();
    if !switches.is_empty()
        && !has_ib_switch
        && let Some((n, x)) = ib_only_nics.first()
    {
        out.push(
            diag(
                n,
                Severity::Warning,
                "switch-tech-mismatch",
                format!("{} is an InfiniBand adapter but the build has only Ethernet switches", x.part.name),
            )
            .at(n.index, x)
            .with_fix("Add an InfiniBand switch, or use Ethernet/VPI adapters"),
        );
    }
    if switches.is_empty() && gpu_node_count > 2 && (ib_nics + eth_nics) > 0 {
        out.push(
            Diagnostic::new(
                Severity::Warning,
                "switch-missing",
                format!("{gpu_node_count} GPU nodes have fabric adapters but the build has no switch to connect them"),
            )
            .with_fix("Add InfiniBand or Ethernet switches to the cluster section"),
        );
    }
    // Cluster-section storage goes into the cluster's disk enclosures.
    let c = &resolved.cluster;
    let drives: u32 = c.storage.iter().map(|s| s.quantity).sum();
    if drives > 0 {
        let jbods: Vec<_> = c.chassis.iter().filter(|x| x.part.kind == ChassisKind::Jbod).collect();
        let bays: u32 =
            jbods.iter().map(|j| (u32::from(j.part.bays_35) + u32::from(j.part.bays_25)) * j.quantity).sum();
        let at_cluster = |mut d: Diagnostic| {
            for s in &c.storage {
                d = d.with_part(&s.part.id).with_line(Location::Cluster, s.line);
            }
            d
        };
        if jbods.is_empty() {
            out.push(
                at_cluster(Diagnostic::new(
                    Severity::Warning,
                    "cluster-storage-no-enclosure",
                    format!("the cluster section has {drives} drive(s) but no disk enclosure (JBOD) to hold them"),
                ))
                .with_fix("Add a JBOD enclosure to the cluster section"),
            );
        } else if drives > bays {
            let mut d = at_cluster(Diagnostic::new(
                Severity::Error,
                "jbod-bays-exceeded",
                format!("the cluster section has {drives} drives but its enclosures have {bays} bays"),
            ));
            for j in &jbods {
                d = d.with_part(&j.part.id).with_line(Location::Cluster, j.line);
            }
            out.push(d.with_fix("Add enclosures or use larger drives"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn purchasable_sizes() {
        // 1.5 × 24 GiB = 36 → 48; 1.5 × 80 = 120 → 128; 1.5 × 2 × 80 = 240 → 256;
        // 1.5 × 8 × 80 = 960 → 1024.
        assert!((purchasable_gib(36.0) - 48.0).abs() < 1e-9);
        assert!((purchasable_gib(120.0) - 128.0).abs() < 1e-9);
        assert!((purchasable_gib(240.0) - 256.0).abs() < 1e-9);
        assert!((purchasable_gib(960.0) - 1024.0).abs() < 1e-9);
        assert!((purchasable_gib(64.0) - 64.0).abs() < 1e-9);
        assert!((purchasable_gib(65.0) - 96.0).abs() < 1e-9);
    }

    #[test]
    fn smaller_boards_fit_larger_cases() {
        use BoardFormFactor as F;
        assert!(chassis_takes(&[F::Atx], F::MicroAtx));
        assert!(chassis_takes(&[F::Eatx], F::Atx));
        assert!(!chassis_takes(&[F::Atx], F::Eatx));
        assert!(!chassis_takes(&[F::Atx], F::Proprietary));
        assert!(chassis_takes(&[F::Proprietary], F::Proprietary));
    }

    #[test]
    fn slot_width_rounds_up() {
        assert_eq!(width_slots(3.5), 4);
        assert_eq!(width_slots(2.0), 2);
        assert_eq!(width_slots(0.0), 1);
        assert_eq!(width_slots(f64::NAN), 1);
    }
}
