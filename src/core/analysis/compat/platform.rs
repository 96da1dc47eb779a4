//! Platform rules: a compute node's essentials, duplicated mainboards or chassis, CPUs against
//! the board's sockets, system memory against the CPUs and the board, GPU modules against their
//! baseboards, and system memory against GPU memory.

use super::{Attach as _, diag, join};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::catalog::{Chassis, Cpu, DimmKind, GpuFormFactor, Memory, Motherboard};
use crate::core::resolve::Node;
use std::collections::BTreeSet;

/// System RAM to total VRAM ratio our users' field guides advise ("内存容量应至少为GPU显存的1.5倍",
/// field guide 000 §1.2: at least 1.5× the GPU memory).
pub const RAM_TO_VRAM_RATIO: f64 = 1.5;

/// `cpu-socket-mismatch`: a board of no stated socket takes any CPU.
#[must_use]
pub fn board_takes_socket(board: &Motherboard, cpu: &Cpu) -> bool {
    board.socket.as_ref().is_none_or(|s| s == &cpu.socket)
}

/// `cpu-multi-socket-unsupported`: whether `count` of a CPU model may share one system.
#[must_use]
pub fn cpu_runs_in(cpu: &Cpu, count: u32) -> bool {
    count <= u32::from(cpu.max_sockets)
}

/// `memory-type-mismatch` against the CPU.
#[must_use]
pub fn cpu_takes_memory(cpu: &Cpu, m: &Memory) -> bool {
    cpu.memory_types.contains(&m.memory_type)
}

/// `memory-type-mismatch` against the board (a board of no stated type takes any).
#[must_use]
pub fn board_takes_memory_type(board: &Motherboard, m: &Memory) -> bool {
    board.memory_type.is_none_or(|t| t == m.memory_type)
}

/// `memory-dimm-kind-mismatch`: a board that lists no kinds takes any; one that takes RDIMMs
/// takes LRDIMMs.
#[must_use]
pub fn board_takes_dimm_kind(board: &Motherboard, kind: DimmKind) -> bool {
    board.dimm_kinds.is_empty()
        || board.dimm_kinds.contains(&kind)
        || (kind == DimmKind::Lrdimm && board.dimm_kinds.contains(&DimmKind::Rdimm))
}

/// Whether a board takes registered (RDIMM or LRDIMM) ECC memory only.
#[must_use]
pub fn board_registered_only(board: &Motherboard) -> bool {
    !board.dimm_kinds.is_empty() && board.dimm_kinds.iter().all(|k| matches!(k, DimmKind::Rdimm | DimmKind::Lrdimm))
}

/// `memory-ecc-required`.
#[must_use]
pub fn board_takes_ecc(board: &Motherboard, m: &Memory) -> bool {
    !board_registered_only(board) || m.ecc
}

/// `memory-slots-exceeded` (a board of no stated slot count takes any).
#[must_use]
pub fn board_holds_dimms(board: &Motherboard, dimms: u32) -> bool {
    board.dimm_slots == 0 || dimms <= u32::from(board.dimm_slots)
}

/// `gpu-baseboard-mismatch`: whether a GPU baseboard takes modules of this form factor.
#[must_use]
pub fn baseboard_takes(board: &Motherboard, form: GpuFormFactor) -> bool {
    board.baseboard.as_ref().is_some_and(|bb| bb.form_factor == form)
}

/// `gpu-baseboard-chassis-mismatch`: whether a chassis takes a GPU baseboard.
#[must_use]
pub fn chassis_takes_baseboard(chassis: &Chassis, board: &Motherboard) -> bool {
    chassis.gpu_baseboard == board.baseboard.as_ref().map(|bb| bb.form_factor)
}

pub(super) fn essentials(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
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

pub(super) fn duplicates(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
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

pub(super) fn cpu_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
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
        if !cpu_runs_in(c.part, count) {
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
            && !board_takes_socket(board, c.part)
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

pub(super) fn memory_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    if p.memory.is_empty() {
        return;
    }
    let i = node.index;
    let board_item = p.boards.iter().find(|b| b.part.role == crate::core::catalog::BoardRole::Mainboard);
    for m in &p.memory {
        for c in &p.cpus {
            if !cpu_takes_memory(c.part, m.part) {
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
                && !board_takes_memory_type(b.part, m.part)
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
            if !board_takes_dimm_kind(b.part, m.part.dimm_kind) {
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
            if !board_takes_ecc(b.part, m.part) {
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
        if !board_holds_dimms(b.part, dimms) {
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

pub(super) fn module_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
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
        if !baseboards.iter().any(|b| baseboard_takes(b.part, form)) {
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
            if !chassis_takes_baseboard(ch, b.part) {
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

pub(super) fn ram_vram_rule(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
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
}
