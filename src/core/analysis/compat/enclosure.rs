//! Enclosure rules: the mainboard's form factor and the GPUs' length against the chassis,
//! consumer cards in rack servers, and drives against the board's M.2 slots and SATA ports and
//! the chassis' drive bays.

use super::{Attach as _, diag, join};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::catalog::{BoardFormFactor, Chassis, ChassisKind, GpuSegment, Motherboard, StorageInterface};
use crate::core::resolve::Node;

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
    if !chassis_holds_hdds(ch, counts) {
        let d = diag(
            node,
            Severity::Error,
            code,
            format!("has {hdd} 3.5\" drives but {} has {bays35} 3.5\" bay(s)", ch.name),
        )
        .at_each(i, drives(|f| f == StorageInterface::Hdd35));
        out.push(d.with_chassis(node).with_fix("Move drives to a disk enclosure (JBOD) or use larger drives"));
    }
    if !chassis_holds_small_drives(ch, counts) {
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
