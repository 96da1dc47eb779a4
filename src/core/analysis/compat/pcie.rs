//! PCIe rules: where the node's cards (GPUs, NICs) sit on the board's slots or in a GPU
//! server's bays ([`super::NodeLayout`]), slots wired narrower than a card, CPU lanes against
//! what the cards and NVMe drives ask for, and NVLink bridges between PCIe cards.

use super::{Attach as _, diag};
use super::{CardPlacement, NodeLayout, SlotKind};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::build::Location;
use crate::core::catalog::{Chassis, GpuFormFactor, Interconnect, PartId, PartKind, PcieSlot, StorageInterface};
use crate::core::i18n::{Template, Text};
use crate::core::resolve::{Item, Node, Resolved};
use crate::text;
use std::collections::{BTreeMap, BTreeSet};

crate::templates! {
    pub(crate) TEMPLATES;
    NVLINK_BRIDGE_AVAILABLE "nvlink-bridge-available" {
        en: "the {count} GPUs support NVLink bridges, which the node does not use; bridged pairs exchange data much faster than over PCIe",
        zh: "这 {count} 块 GPU 支持 NVLink 桥接，但该节点未使用；桥接的显卡之间交换数据比通过 PCIe 快得多",
    }
    NVLINK_BRIDGE_AVAILABLE_FIX "nvlink-bridge-available" {
        en: "Turn on NVLink bridges in the node's header",
        zh: "在节点标题栏中打开“NVLink 桥接”",
    }
    NVLINK_BRIDGE_NO_CARDS "nvlink-bridge-unsupported" {
        en: "is set to use NVLink bridges but has no PCIe GPUs to bridge",
        zh: "设置了使用 NVLink 桥接，但没有可桥接的 PCIe GPU",
    }
    NVLINK_BRIDGE_NO_CARDS_FIX "nvlink-bridge-unsupported" {
        en: "Turn off NVLink bridges in the node's header",
        zh: "在节点标题栏中关闭“NVLink 桥接”",
    }
    NVLINK_BRIDGE_UNSUPPORTED "nvlink-bridge-unsupported" {
        en: "{gpu} has no NVLink bridge connector",
        zh: "{gpu} 没有 NVLink 桥接接口",
    }
    NVLINK_BRIDGE_UNSUPPORTED_FIX "nvlink-bridge-unsupported" {
        en: "Turn off NVLink bridges in the node's header, or use cards that take a bridge (RTX 3090, RTX A6000, A100/H100 PCIe)",
        zh: "在节点标题栏中关闭“NVLink 桥接”，或换用支持桥接的显卡（RTX 3090、RTX A6000、A100/H100 PCIe）",
    }
    NVLINK_BRIDGE_MIXED "nvlink-bridge-mixed" {
        en: "bridges different GPU models; NVLink bridges join identical cards",
        zh: "桥接了不同型号的 GPU；NVLink 桥接只能连接相同型号的显卡",
    }
    NVLINK_BRIDGE_MIXED_FIX "nvlink-bridge-mixed" {
        en: "Use identical cards",
        zh: "使用相同型号的显卡",
    }
    NVLINK_BRIDGE_UNPAIRED "nvlink-bridge-unpaired" {
        en: "has {count} bridged GPU(s); bridges join groups of {group}, so {left} card(s) stay on PCIe only",
        zh: "有 {count} 块桥接的 GPU；桥接以 {group} 块为一组，因此有 {left} 块显卡只能通过 PCIe 通信",
    }
    NVLINK_BRIDGE_UNPAIRED_FIX "nvlink-bridge-unpaired" {
        en: "Use a multiple of {group} cards",
        zh: "显卡数量使用 {group} 的整数倍",
    }
    GPU_BAYS_EXCEEDED "gpu-bays-exceeded" {
        en: "{cards} cannot be fitted: {chassis} has {bays} double-width GPU bays",
        zh: "{cards} 无法安装：{chassis} 只有 {bays} 个双宽 GPU 槽位",
    }
    GPU_BAYS_EXCEEDED_FIX "gpu-bays-exceeded" {
        en: "Use fewer GPUs, or a chassis with more GPU bays",
        zh: "减少 GPU 数量，或换用 GPU 槽位更多的机箱",
    }
    PCIE_SLOT_ABSENT "pcie-slot-invalid" {
        en: "{cards} cannot be fitted: the board has no PCIe slot at position {slot}",
        zh: "{cards} 无法安装：主板在位置 {slot} 上没有 PCIe 插槽",
    }
    PCIE_SLOT_TOO_SHORT "pcie-slot-invalid" {
        en: "{cards} cannot be fitted: slot {slot} is physically x{physical}, too short for an x{lanes} card",
        zh: "{cards} 无法安装：插槽 {slot} 的物理长度为 x{physical}，装不下 x{lanes} 的卡",
    }
    PCIE_SLOT_COVERED "pcie-slot-invalid" {
        en: "{cards} cannot be fitted: slot {slot} is covered by another card",
        zh: "{cards} 无法安装：插槽 {slot} 被另一张卡遮挡",
    }
    PCIE_SLOT_INVALID_FIX "pcie-slot-invalid" {
        en: "Drag the card onto another PCIe slot of the node, or remove it and add it again to place it automatically",
        zh: "把该卡拖到节点的其他 PCIe 插槽上，或删除后重新添加以自动安排位置",
    }
    EXPANSION_SLOTS_CHOSEN "expansion-slots-exceeded" {
        en: "{cards} cannot be fitted: in slot {slot} it would reach past the chassis' {limit} expansion slots",
        zh: "{cards} 无法安装：装在插槽 {slot} 上会超出机箱的 {limit} 个扩展槽位",
    }
    EXPANSION_SLOTS_ONLY_FREE "expansion-slots-exceeded" {
        en: "{cards} cannot be fitted: the only free slot would make it reach past the chassis' {limit} expansion slots",
        zh: "{cards} 无法安装：装在唯一空闲的插槽上会超出机箱的 {limit} 个扩展槽位",
    }
    EXPANSION_SLOTS_EXCEEDED_FIX "expansion-slots-exceeded" {
        en: "Use a chassis with more expansion slots, or narrower cards",
        zh: "换用扩展槽位更多的机箱，或更窄的卡",
    }
    PCIE_SLOTS_UNLISTED "pcie-slot-unavailable" {
        en: "{cards} cannot be fitted: the node has no board with PCIe slots listed",
        zh: "{cards} 无法安装：该节点没有列出 PCIe 插槽的主板",
    }
    PCIE_SLOT_NO_ROOM "pcie-slot-unavailable" {
        en: "{cards} cannot be fitted: no free x{lanes} slot has room for a {width}-slot card",
        zh: "{cards} 无法安装：没有空闲的 x{lanes} 插槽能容纳占 {width} 个槽位的卡",
    }
    PCIE_SLOT_UNAVAILABLE_FIX "pcie-slot-unavailable" {
        en: "Use fewer or narrower cards, a board with more x16 slots, or a GPU server chassis",
        zh: "减少卡的数量或换用更窄的卡，换用 x16 插槽更多的主板，或使用 GPU 服务器机箱",
    }
    PCIE_SLOT_LANES_REDUCED "pcie-slot-lanes-reduced" {
        en: "{card} sits in slot {slot} wired x{wired}; it runs at x{wired} instead of x{lanes}",
        zh: "{card} 所在的插槽 {slot} 只接了 x{wired} 通道；它以 x{wired} 而不是 x{lanes} 运行",
    }
    PCIE_SLOT_LANES_REDUCED_FIX "pcie-slot-lanes-reduced" {
        en: "Move it to a slot wired for its full width",
        zh: "将它移到通道数满足其全部宽度的插槽",
    }
    PCIE_LANES_OVERSUBSCRIBED "pcie-lanes-oversubscribed" {
        en: "the GPUs, NICs and NVMe drives ask for {wanted} PCIe lanes ({cards} for cards, {drives} for drives) but the CPU(s) provide {available}; some cards will run at x8 or share lanes through the chipset or a PCIe switch",
        zh: "GPU、网卡和 NVMe 硬盘共需要 {wanted} 条 PCIe 通道（扩展卡 {cards} 条，硬盘 {drives} 条），但 CPU 只提供 {available} 条；部分卡将以 x8 运行，或通过芯片组或 PCIe 交换芯片共享通道",
    }
    PCIE_LANES_OVERSUBSCRIBED_FIX "pcie-lanes-oversubscribed" {
        en: "Use a CPU with more lanes (Threadripper PRO, Xeon W, EPYC), or fewer cards",
        zh: "换用 PCIe 通道更多的 CPU（Threadripper PRO、Xeon W、EPYC），或减少扩展卡",
    }
}

/// PCIe lanes of one NVMe drive (NVMe over PCIe x4 is the M.2/U.2 norm).
pub const NVME_LANES: u8 = 4;

/// Sockets whose two-socket platforms give the devices the same lane count as one socket,
/// because half of each CPU's lanes link the two sockets (AMD EPYC 7003 and 9004 platform
/// briefs: 128 PCIe lanes in 1P and in 2P configurations).
pub const SHARED_LANE_SOCKETS: [&str; 2] = ["SP3", "SP5"];

/// Width of one NIC in expansion slots where the catalog has no width (every NIC in the
/// catalog is a single-slot card).
pub const NIC_SLOT_WIDTH: f64 = 1.0;

/// True when every line is the same GPU model (bridges join identical cards).
fn same_model(cards: &[&Item<'_, crate::core::catalog::Gpu>]) -> bool {
    cards.windows(2).all(|w| matches!(w, [a, b] if a.part.id == b.part.id))
}

pub(super) fn nvlink_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
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
                    text!(NVLINK_BRIDGE_AVAILABLE, count = count.to_string()),
                )
                .at_each(i, cards.iter().copied())
                .with_fix(text!(NVLINK_BRIDGE_AVAILABLE_FIX)),
            );
        }
        return;
    }
    if cards.is_empty() {
        out.push(
            diag(node, Severity::Error, "nvlink-bridge-unsupported", text!(NVLINK_BRIDGE_NO_CARDS))
                .with_fix(text!(NVLINK_BRIDGE_NO_CARDS_FIX)),
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
                    text!(NVLINK_BRIDGE_UNSUPPORTED, gpu = &g.part.name),
                )
                .at(i, g)
                .with_fix(text!(NVLINK_BRIDGE_UNSUPPORTED_FIX)),
            );
        }
    }
    if !same_model(&cards) {
        out.push(
            diag(node, Severity::Error, "nvlink-bridge-mixed", text!(NVLINK_BRIDGE_MIXED))
                .at_each(i, cards.iter().copied())
                .with_fix(text!(NVLINK_BRIDGE_MIXED_FIX)),
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
                    text!(
                        NVLINK_BRIDGE_UNPAIRED,
                        count = count.to_string(),
                        group = group.to_string(),
                        left = (count % group).to_string()
                    ),
                )
                .at_each(i, cards.iter().copied())
                .with_fix(text!(NVLINK_BRIDGE_UNPAIRED_FIX, group = group.to_string())),
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

pub(super) fn place_cards(resolved: &Resolved<'_>, node: &Node<'_>, out: &mut Vec<Diagnostic>) -> NodeLayout {
    let board = node.parts.mainboard();
    let chassis: Option<&Chassis> = node.parts.chassis();
    let mut slots: Vec<PcieSlot> = board.map(|b| b.pcie_slots.clone()).unwrap_or_default();
    slots.sort_by_key(|s| s.position);
    let limit = chassis.map(|c| c.expansion_slots);
    let gpu_bays = chassis.and_then(|c| c.gpu_slots);
    let mut cards = cards_of(resolved, node);
    let mut placements: Vec<CardPlacement> = Vec::new();
    let mut covered: BTreeSet<u8> = BTreeSet::new();
    // (code, line) → (count, first message, without its `{cards}`)
    let mut failures: BTreeMap<(&'static str, usize), (u32, Card, Text)> = BTreeMap::new();
    let mut fail = |code: &'static str, card: &Card, why: Text| {
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
                    text!(
                        GPU_BAYS_EXCEEDED,
                        chassis = chassis.map_or("", |c| c.name.as_str()),
                        bays = bays.to_string()
                    ),
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
            fail("pcie-slot-invalid", card, text!(PCIE_SLOT_ABSENT, slot = pos.to_string()));
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
                    text!(
                        EXPANSION_SLOTS_CHOSEN,
                        slot = pos.to_string(),
                        limit = limit.unwrap_or_default().to_string()
                    ),
                );
                placements.push(placed(card, SlotKind::Board, None, None));
            }
            Err(Misfit::Narrow) => {
                fail(
                    "pcie-slot-invalid",
                    card,
                    text!(
                        PCIE_SLOT_TOO_SHORT,
                        slot = pos.to_string(),
                        physical = slot.physical_lanes.to_string(),
                        lanes = card.lanes.to_string()
                    ),
                );
                placements.push(placed(card, SlotKind::Board, None, None));
            }
            Err(Misfit::Overlap) => {
                fail("pcie-slot-invalid", card, text!(PCIE_SLOT_COVERED, slot = pos.to_string()));
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
                text!(EXPANSION_SLOTS_ONLY_FREE, limit = limit.unwrap_or_default().to_string()),
            );
        } else if slots.is_empty() {
            fail("pcie-slot-unavailable", card, text!(PCIE_SLOTS_UNLISTED));
        } else {
            fail(
                "pcie-slot-unavailable",
                card,
                text!(PCIE_SLOT_NO_ROOM, lanes = card.lanes.min(16).to_string(), width = card.width.to_string()),
            );
        }
        placements.push(placed(card, SlotKind::Board, None, None));
    }
    for ((code, _), (count, card, why)) in failures {
        let units = if count > 1 { format!("{count} × {}", card.name) } else { card.name.clone() };
        let fix: &'static Template = match code {
            "gpu-bays-exceeded" => &GPU_BAYS_EXCEEDED_FIX,
            "expansion-slots-exceeded" => &EXPANSION_SLOTS_EXCEEDED_FIX,
            "pcie-slot-invalid" => &PCIE_SLOT_INVALID_FIX,
            _ => &PCIE_SLOT_UNAVAILABLE_FIX,
        };
        let d = diag(node, Severity::Error, code, why.arg("cards", units))
            .with_part(&card.part)
            .with_line(Location::Node(node.index), card.line)
            .with_fix(Text::new(fix));
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
                text!(
                    PCIE_SLOT_LANES_REDUCED,
                    card = if *count > 1 { format!("{count} × {}", p.name) } else { p.name.clone() },
                    slot = p.position.unwrap_or_default().to_string(),
                    wired = p.slot_electrical_lanes.unwrap_or_default().to_string(),
                    lanes = p.lanes.to_string()
                ),
            )
            .with_part(&p.part)
            .with_line(Location::Node(node.index), p.line)
            .with_fix(text!(PCIE_SLOT_LANES_REDUCED_FIX)),
        );
    }
    placements.sort_by_key(|p| (p.slot_kind == SlotKind::Board, p.position.unwrap_or(u8::MAX), p.line, p.unit));
    NodeLayout {
        node: node.index,
        board_slots: slots.into(),
        expansion_slots: limit,
        gpu_bays,
        cards: placements.into(),
    }
}

pub(super) fn lane_rules(node: &Node<'_>, layout: &NodeLayout, out: &mut Vec<Diagnostic>) {
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
                text!(
                    PCIE_LANES_OVERSUBSCRIBED,
                    wanted = wanted.to_string(),
                    cards = card_lanes.to_string(),
                    drives = nvme.to_string(),
                    available = available.to_string()
                ),
            )
            .at_each(node.index, &p.cpus)
            .with_fix(text!(PCIE_LANES_OVERSUBSCRIBED_FIX)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slot_width_rounds_up() {
        assert_eq!(width_slots(3.5), 4);
        assert_eq!(width_slots(2.0), 2);
        assert_eq!(width_slots(0.0), 1);
        assert_eq!(width_slots(f64::NAN), 1);
    }
}
