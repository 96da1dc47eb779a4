//! Enclosure rules: the mainboard's form factor and the GPUs' length against the chassis,
//! consumer cards in rack servers, and drives against the board's M.2 slots and SATA ports and
//! the chassis' drive bays.

use super::{Attach as _, diag};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::catalog::{BoardFormFactor, Chassis, ChassisKind, GpuSegment, Motherboard, StorageInterface};
use crate::core::i18n::Template;
use crate::core::resolve::Node;
use crate::text;

crate::templates! {
    pub(crate) TEMPLATES;
    GPU_TOO_LONG "gpu-too-long" {
        en: "{gpu} is {length} mm long; {chassis} fits cards up to {max} mm",
        zh: "{gpu} 长 {length} mm；{chassis} 最长只能容纳 {max} mm 的显卡",
    }
    GPU_TOO_LONG_FIX "gpu-too-long" {
        en: "Choose a larger chassis or a shorter card",
        zh: "选择更大的机箱或更短的显卡",
    }
    CONSUMER_GPU_IN_SERVER "consumer-gpu-in-server" {
        en: "{gpu} is a consumer card in a rack server: NVIDIA's GeForce driver licence excludes data-center deployment, and open-air coolers recirculate heat in front-to-back server airflow",
        zh: "{gpu} 是装在机架式服务器中的消费级显卡：NVIDIA 的 GeForce 驱动许可不允许数据中心部署，且开放式散热器在服务器前进后出的风道中会使热风回流",
    }
    CONSUMER_GPU_IN_SERVER_FIX "consumer-gpu-in-server" {
        en: "Consider a data-center or blower workstation card",
        zh: "考虑换用数据中心显卡或涡轮散热的工作站显卡",
    }
    BOARD_FORM_FACTOR_MISMATCH "board-form-factor-mismatch" {
        en: "{board} is {form} but {chassis} takes {forms}",
        zh: "{board} 是 {form} 规格，但 {chassis} 只支持 {forms}",
    }
    BOARD_FORM_FACTOR_MISMATCH_FIX "board-form-factor-mismatch" {
        en: "Use a chassis that takes {form} boards",
        zh: "使用支持 {form} 主板的机箱",
    }
    M2_SLOTS_EXCEEDED "m2-slots-exceeded" {
        en: "has {drives} M.2 drives but {board} has {slots} M.2 slot(s)",
        zh: "有 {drives} 块 M.2 硬盘，但 {board} 只有 {slots} 个 M.2 插槽",
    }
    M2_SLOTS_EXCEEDED_FIX "m2-slots-exceeded" {
        en: "Use a PCIe M.2 carrier card, U.2 drives, or fewer, larger drives",
        zh: "使用 PCIe M.2 转接卡、U.2 硬盘，或数量更少、容量更大的硬盘",
    }
    SATA_PORTS_EXCEEDED "sata-ports-exceeded" {
        en: "has {drives} SATA/SAS drives but {board} has {ports} SATA port(s); an HBA or backplane controller is needed",
        zh: "有 {drives} 块 SATA/SAS 硬盘，但 {board} 只有 {ports} 个 SATA 接口；需要 HBA 卡或背板控制器",
    }
    SATA_PORTS_EXCEEDED_FIX "sata-ports-exceeded" {
        en: "Add an HBA, or use NVMe drives",
        zh: "添加 HBA 卡，或使用 NVMe 硬盘",
    }
    HDD_BAYS_EXCEEDED "drive-bays-exceeded" {
        en: "has {drives} 3.5\" drives but {chassis} has {bays} 3.5\" bay(s)",
        zh: "有 {drives} 块 3.5\" 硬盘，但 {chassis} 只有 {bays} 个 3.5\" 硬盘位",
    }
    HDD_BAYS_EXCEEDED_FIX "drive-bays-exceeded" {
        en: "Move drives to a disk enclosure (JBOD) or use larger drives",
        zh: "将硬盘移到硬盘扩展柜（JBOD），或使用容量更大的硬盘",
    }
    SMALL_BAYS_EXCEEDED "drive-bays-exceeded" {
        en: "has {drives} 2.5\"/U.2/EDSFF drives but {chassis} has {bays} 2.5\" bay(s) and {spare} free 3.5\" bay(s)",
        zh: "有 {drives} 块 2.5\"/U.2/EDSFF 硬盘，但 {chassis} 只有 {bays} 个 2.5\" 硬盘位和 {spare} 个空闲的 3.5\" 硬盘位",
    }
    SMALL_BAYS_EXCEEDED_FIX "drive-bays-exceeded" {
        en: "Use a chassis with more bays or fewer, larger drives",
        zh: "换用硬盘位更多的机箱，或使用数量更少、容量更大的硬盘",
    }
    JBOD_HDD_BAYS_EXCEEDED "jbod-bays-exceeded" {
        en: "has {drives} 3.5\" drives but {chassis} has {bays} 3.5\" bay(s)",
        zh: "有 {drives} 块 3.5\" 硬盘，但硬盘扩展柜 {chassis} 只有 {bays} 个 3.5\" 仓位",
    }
    JBOD_HDD_BAYS_EXCEEDED_FIX "jbod-bays-exceeded" {
        en: "Move drives to a disk enclosure (JBOD) or use larger drives",
        zh: "将硬盘移到硬盘扩展柜（JBOD），或使用容量更大的硬盘",
    }
    JBOD_SMALL_BAYS_EXCEEDED "jbod-bays-exceeded" {
        en: "has {drives} 2.5\"/U.2/EDSFF drives but {chassis} has {bays} 2.5\" bay(s) and {spare} free 3.5\" bay(s)",
        zh: "有 {drives} 块 2.5\"/U.2/EDSFF 硬盘，但硬盘扩展柜 {chassis} 只有 {bays} 个 2.5\" 仓位和 {spare} 个空闲的 3.5\" 仓位",
    }
    JBOD_SMALL_BAYS_EXCEEDED_FIX "jbod-bays-exceeded" {
        en: "Use a chassis with more bays or fewer, larger drives",
        zh: "换用仓位更多的硬盘扩展柜，或使用数量更少、容量更大的硬盘",
    }
}

pub(super) fn gpu_fit_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let Some(ch) = node.parts.chassis() else { return };
    for g in node.parts.gpus.iter().filter(|g| g.in_system.is_none()) {
        if let (Some(len), Some(max)) = (g.part.length_mm, ch.max_gpu_length_mm)
            && len > max
        {
            let d = diag(
                node,
                Severity::Error,
                "gpu-too-long",
                text!(
                    GPU_TOO_LONG,
                    gpu = &g.part.name,
                    length = format!("{len:.0}"),
                    chassis = &ch.name,
                    max = format!("{max:.0}")
                ),
            )
            .at(node.index, g);
            out.push(d.with_chassis(node).with_fix(text!(GPU_TOO_LONG_FIX)));
        }
        if g.part.segment == GpuSegment::Consumer && ch.kind == ChassisKind::Rack {
            let d =
                diag(node, Severity::Info, "consumer-gpu-in-server", text!(CONSUMER_GPU_IN_SERVER, gpu = &g.part.name))
                    .at(node.index, g);
            out.push(d.with_fix(text!(CONSUMER_GPU_IN_SERVER_FIX)));
        }
    }
}

/// The form factors a chassis listing `listed` takes: smaller standard boards fit a case made
/// for a larger one (ATX cases take Micro-ATX and Mini-ITX; E-ATX and SSI-EEB cases take ATX).
#[must_use]
pub fn chassis_takes(listed: &[BoardFormFactor], board: BoardFormFactor) -> bool {
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

pub(super) fn board_chassis_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let Some(ch) = node.parts.chassis() else { return };
    for b in node.parts.boards.iter().filter(|b| b.part.role == crate::core::catalog::BoardRole::Mainboard) {
        if !chassis_takes(&ch.board_form_factors, b.part.form_factor) {
            let d = diag(
                node,
                Severity::Error,
                "board-form-factor-mismatch",
                text!(
                    BOARD_FORM_FACTOR_MISMATCH,
                    board = &b.part.name,
                    form = b.part.form_factor.to_string(),
                    chassis = &ch.name,
                    forms = ch.board_form_factors.iter().map(ToString::to_string).collect::<Vec<_>>()
                ),
            )
            .at(node.index, b);
            out.push(
                d.with_chassis(node)
                    .with_fix(text!(BOARD_FORM_FACTOR_MISMATCH_FIX, form = b.part.form_factor.to_string())),
            );
        }
    }
}

/// A node's drives counted by where they go: M.2 slots on the board, 3.5" bays, and 2.5"-class
/// bays (2.5" SATA, U.2, EDSFF; they may also use free 3.5" bays), and SATA ports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DriveCounts {
    pub m2: u32,
    pub hdd: u32,
    pub small: u32,
    pub sata: u32,
}

impl DriveCounts {
    /// The counts of drives given as (interface, quantity).
    #[must_use]
    pub fn of(drives: impl IntoIterator<Item = (StorageInterface, u32)>) -> Self {
        let mut c = Self::default();
        for (f, n) in drives {
            match f {
                StorageInterface::NvmeM2 => c.m2 += n,
                StorageInterface::Hdd35 => c.hdd += n,
                StorageInterface::Sata25 | StorageInterface::NvmeU2 | StorageInterface::NvmeEdsff => c.small += n,
            }
            if matches!(f, StorageInterface::Sata25 | StorageInterface::Hdd35) {
                c.sata += n;
            }
        }
        c
    }
}

/// `m2-slots-exceeded` passes: the board has an M.2 slot for each M.2 drive.
#[must_use]
pub fn board_holds_m2(b: &Motherboard, drives: DriveCounts) -> bool {
    drives.m2 <= u32::from(b.m2_slots)
}

/// `drive-bays-exceeded` (`jbod-bays-exceeded`) passes for the 3.5" drives: a 3.5" bay each.
#[must_use]
pub fn chassis_holds_hdds(ch: &Chassis, drives: DriveCounts) -> bool {
    drives.hdd <= u32::from(ch.bays_35)
}

/// `drive-bays-exceeded` (`jbod-bays-exceeded`) passes for the 2.5"-class drives: a 2.5" bay
/// or a 3.5" bay the 3.5" drives leave free, each.
#[must_use]
pub fn chassis_holds_small_drives(ch: &Chassis, drives: DriveCounts) -> bool {
    drives.small <= u32::from(ch.bays_25) + u32::from(ch.bays_35).saturating_sub(drives.hdd)
}

pub(super) fn storage_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    let i = node.index;
    let counts = DriveCounts::of(p.storage.iter().map(|s| (s.part.interface, s.quantity)));
    let DriveCounts { m2, hdd, small, sata } = counts;
    let drives = |pred: fn(StorageInterface) -> bool| p.storage.iter().filter(move |s| pred(s.part.interface));
    if let Some(b) = p.mainboard()
        && !board_holds_m2(b, counts)
    {
        out.push(
            diag(
                node,
                Severity::Error,
                "m2-slots-exceeded",
                text!(M2_SLOTS_EXCEEDED, drives = m2.to_string(), board = &b.name, slots = b.m2_slots.to_string()),
            )
            .at_each(i, drives(|f| f == StorageInterface::NvmeM2))
            .with_fix(text!(M2_SLOTS_EXCEEDED_FIX)),
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
                text!(
                    SATA_PORTS_EXCEEDED,
                    drives = sata.to_string(),
                    board = &b.name,
                    ports = b.sata_ports.to_string()
                ),
            )
            .at_each(i, drives(|f| matches!(f, StorageInterface::Sata25 | StorageInterface::Hdd35)))
            .with_fix(text!(SATA_PORTS_EXCEEDED_FIX)),
        );
    }
    let Some(ch) = p.chassis() else { return };
    let bays35 = u32::from(ch.bays_35);
    let bays25 = u32::from(ch.bays_25);
    let spare35 = bays35.saturating_sub(hdd);
    let code = if ch.kind == ChassisKind::Jbod { "jbod-bays-exceeded" } else { "drive-bays-exceeded" };
    // The sentences of each code: (3.5" drives, its fix, 2.5"-class drives, its fix).
    let [hdd_text, hdd_fix, small_text, small_fix]: [&'static Template; 4] = if ch.kind == ChassisKind::Jbod {
        [&JBOD_HDD_BAYS_EXCEEDED, &JBOD_HDD_BAYS_EXCEEDED_FIX, &JBOD_SMALL_BAYS_EXCEEDED, &JBOD_SMALL_BAYS_EXCEEDED_FIX]
    } else {
        [&HDD_BAYS_EXCEEDED, &HDD_BAYS_EXCEEDED_FIX, &SMALL_BAYS_EXCEEDED, &SMALL_BAYS_EXCEEDED_FIX]
    };
    if !chassis_holds_hdds(ch, counts) {
        let d = diag(
            node,
            Severity::Error,
            code,
            text!(*hdd_text, drives = hdd.to_string(), chassis = &ch.name, bays = bays35.to_string()),
        )
        .at_each(i, drives(|f| f == StorageInterface::Hdd35));
        out.push(d.with_chassis(node).with_fix(text!(*hdd_fix)));
    }
    if !chassis_holds_small_drives(ch, counts) {
        let d = diag(
            node,
            Severity::Error,
            code,
            text!(
                *small_text,
                drives = small.to_string(),
                chassis = &ch.name,
                bays = bays25.to_string(),
                spare = spare35.to_string()
            ),
        )
        .at_each(
            i,
            drives(|f| matches!(f, StorageInterface::Sata25 | StorageInterface::NvmeU2 | StorageInterface::NvmeEdsff)),
        );
        out.push(d.with_chassis(node).with_fix(text!(*small_fix)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smaller_boards_fit_larger_cases() {
        use BoardFormFactor as F;
        assert!(chassis_takes(&[F::Atx], F::MicroAtx));
        assert!(chassis_takes(&[F::Eatx], F::Atx));
        assert!(!chassis_takes(&[F::Atx], F::Eatx));
        assert!(!chassis_takes(&[F::Atx], F::Proprietary));
        assert!(chassis_takes(&[F::Proprietary], F::Proprietary));
    }
}
