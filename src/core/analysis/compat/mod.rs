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
//!
//! The rules live by concern: `platform` (node essentials, CPUs, memory, GPU modules and
//! baseboards), `pcie` (card placement, lanes, NVLink bridges), `power_feed` (PSU
//! connectors, form factor and redundancy), `cooling` (CPU coolers and loops), `enclosure`
//! (boards, GPUs and drives in the chassis) and `cluster` (fabric, switches, cluster storage).

mod cluster;
mod cooling;
mod enclosure;
mod memory;
mod pcie;
mod platform;
mod power_feed;

pub use cluster::{FABRIC_MIN_GBPS, is_fabric_nic};
pub use cooling::cooler_mounts_on;
pub use enclosure::{DriveCounts, board_holds_m2, chassis_holds_hdds, chassis_holds_small_drives, chassis_takes};
pub use memory::{RAM_TO_VRAM_RATIO, purchasable_gib};
pub use pcie::{NIC_SLOT_WIDTH, NVME_LANES, SHARED_LANE_SOCKETS};
pub use platform::{
    baseboard_takes, board_holds_dimms, board_registered_only, board_takes_dimm_kind, board_takes_ecc,
    board_takes_memory_type, board_takes_socket, chassis_takes_baseboard, cpu_runs_in, cpu_takes_memory,
};
pub use power_feed::{Feed, PCIE_8PIN_WATTS, chassis_takes_psu, connector_feed};

use crate::core::analysis::{Diagnostic, Severity};
use crate::core::build::Location;
use crate::core::catalog::{CatalogEntry, ChassisKind, PartId, PartKind, PcieSlot};
use crate::core::i18n::{Text, in_node};
use crate::core::resolve::{Item, Node, Parts, Resolved};
use crate::text;
use serde::Serialize;

crate::templates! {
    pub(crate) TEMPLATES;
    NODE_EMPTY "node-empty" {
        en: "{node} has no parts",
        zh: "{node} 中没有任何部件",
    }
    NODE_EMPTY_FIX "node-empty" {
        en: "Add parts, or remove the node",
        zh: "添加部件，或删除该节点",
    }
}

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
    pub board_slots: super::Shared<PcieSlot>,
    /// Expansion-slot openings of the chassis (None without a chassis).
    pub expansion_slots: Option<u8>,
    /// GPU bays of a GPU server chassis.
    pub gpu_bays: Option<u8>,
    /// Shared with the node groups identical to this one.
    pub cards: super::Shared<CardPlacement>,
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
    let layouts = super::twins::per_node(
        resolved,
        &mut out,
        |node, out| node_rules(resolved, node, out),
        |layout, node| layout.as_ref().map(|l| NodeLayout { node: node.index, ..l.clone() }),
    );
    cluster::cluster_rules(resolved, &mut out);
    (Compat { layouts: layouts.into_iter().flatten().collect() }, out)
}

/// The rules of one node group, and its PCIe layout when it is a computer.
fn node_rules(resolved: &Resolved<'_>, node: &Node<'_>, out: &mut Vec<Diagnostic>) -> Option<NodeLayout> {
    let role = node_role(&node.parts);
    match role {
        NodeRole::Empty => out.push(
            Diagnostic::new(Severity::Warning, "node-empty", text!(NODE_EMPTY, node = node.name))
                .in_node(node.index)
                .with_fix(text!(NODE_EMPTY_FIX)),
        ),
        NodeRole::Compute => platform::essentials(node, out),
        NodeRole::System | NodeRole::Infrastructure => {}
    }
    let mut layout = None;
    if matches!(role, NodeRole::Compute | NodeRole::System) {
        platform::duplicates(node, out);
        platform::cpu_rules(node, out);
        memory::memory_rules(node, out);
        platform::module_rules(node, out);
        pcie::nvlink_rules(node, out);
        let placed = pcie::place_cards(resolved, node, out);
        pcie::lane_rules(node, &placed, out);
        enclosure::gpu_fit_rules(node, out);
        power_feed::connector_rules(node, out);
        power_feed::psu_fit_rules(node, out);
        cooling::cooler_rules(node, out);
        enclosure::board_chassis_rules(node, out);
        memory::ram_vram_rule(node, out);
        layout = Some(placed);
    }
    enclosure::storage_rules(node, out);
    layout
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

/// A finding about one node group: its text prefixed with the group's name.
fn diag(node: &Node<'_>, severity: Severity, code: &'static str, text: Text) -> Diagnostic {
    Diagnostic::new(severity, code, in_node(node.name, text)).in_node(node.index)
}

/// Every finding template of the compatibility rules, for the registry's tests.
#[cfg(test)]
pub(crate) fn templates() -> Vec<&'static crate::core::i18n::Template> {
    [
        TEMPLATES,
        platform::TEMPLATES,
        memory::TEMPLATES,
        pcie::TEMPLATES,
        power_feed::TEMPLATES,
        cooling::TEMPLATES,
        enclosure::TEMPLATES,
        cluster::TEMPLATES,
    ]
    .concat()
}
