//! System memory rules: DIMMs against the CPUs and the mainboard (type, kind, ECC, slots,
//! capacity, channels), and system memory against GPU memory.

use super::platform::{
    board_holds_dimms, board_takes_dimm_kind, board_takes_ecc, board_takes_memory_type, cpu_takes_memory, names,
};
use super::{Attach as _, diag};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::catalog::DimmKind;
use crate::core::resolve::Node;
use crate::text;
use std::collections::BTreeSet;

crate::templates! {
    pub(crate) TEMPLATES;
    MEMORY_TYPE_CPU "memory-type-mismatch" {
        en: "{memory} is {memory_type} but {cpu} supports {types}",
        zh: "{memory} 是 {memory_type} 内存，但 {cpu} 只支持 {types}",
    }
    MEMORY_TYPE_CPU_FIX "memory-type-mismatch" {
        en: "Use DIMMs of a type the CPU supports",
        zh: "使用 CPU 支持的类型的内存条",
    }
    MEMORY_TYPE_BOARD "memory-type-mismatch" {
        en: "{memory} is {memory_type} but {board} takes {board_type}",
        zh: "{memory} 是 {memory_type} 内存，但 {board} 只支持 {board_type}",
    }
    MEMORY_TYPE_BOARD_FIX "memory-type-mismatch" {
        en: "Use {board_type} DIMMs",
        zh: "使用 {board_type} 内存条",
    }
    MEMORY_DIMM_KIND_MISMATCH "memory-dimm-kind-mismatch" {
        en: "{memory} is a {kind} module but {board} takes {kinds}",
        zh: "{memory} 是 {kind} 内存条，但 {board} 只支持 {kinds}",
    }
    MEMORY_DIMM_KIND_MISMATCH_FIX "memory-dimm-kind-mismatch" {
        en: "Use {kinds} modules",
        zh: "使用 {kinds} 内存条",
    }
    MEMORY_ECC_REQUIRED "memory-ecc-required" {
        en: "{memory} is non-ECC but {board} takes registered ECC memory only",
        zh: "{memory} 不带 ECC，但 {board} 只支持带寄存器的 ECC 内存",
    }
    MEMORY_ECC_REQUIRED_FIX "memory-ecc-required" {
        en: "Use registered ECC DIMMs",
        zh: "使用带寄存器的 ECC 内存条",
    }
    MEMORY_KINDS_MIXED "memory-kinds-mixed" {
        en: "mixes {kinds} modules, which cannot run together",
        zh: "混用了 {kinds} 内存条，它们无法同时工作",
    }
    MEMORY_KINDS_MIXED_FIX "memory-kinds-mixed" {
        en: "Use one module kind throughout",
        zh: "全部使用同一类型的内存条",
    }
    MEMORY_ECC_MIXED "memory-ecc-mixed" {
        en: "mixes ECC and non-ECC modules; ECC is disabled for all of them",
        zh: "混用了 ECC 与非 ECC 内存条；所有内存条的 ECC 都会被禁用",
    }
    MEMORY_ECC_MIXED_FIX "memory-ecc-mixed" {
        en: "Use ECC modules throughout",
        zh: "全部使用 ECC 内存条",
    }
    MEMORY_SLOTS_EXCEEDED "memory-slots-exceeded" {
        en: "has {dimms} DIMMs but {board} has {slots} slots",
        zh: "有 {dimms} 根内存条，但 {board} 只有 {slots} 个内存插槽",
    }
    MEMORY_SLOTS_EXCEEDED_FIX "memory-slots-exceeded" {
        en: "Use fewer, larger DIMMs",
        zh: "使用数量更少、容量更大的内存条",
    }
    MEMORY_CAPACITY_EXCEEDS_BOARD "memory-capacity-exceeds-board" {
        en: "has {total} GiB of memory; {board} supports at most {max} GiB",
        zh: "内存共 {total} GiB；{board} 最多支持 {max} GiB",
    }
    MEMORY_CAPACITY_EXCEEDS_BOARD_FIX "memory-capacity-exceeds-board" {
        en: "Stay within {max} GiB",
        zh: "内存总量不要超过 {max} GiB",
    }
    MEMORY_CHANNELS_UNDERPOPULATED "memory-channels-underpopulated" {
        en: "{dimms} DIMM(s) populate {dimms} of {channels} memory channels; memory bandwidth is {dimms}/{channels} of what the platform offers",
        zh: "{dimms} 根内存条只占用了 {channels} 个内存通道中的 {dimms} 个；内存带宽只有平台可提供的 {dimms}/{channels}",
    }
    MEMORY_CHANNELS_UNDERPOPULATED_FIX "memory-channels-underpopulated" {
        en: "Use at least {channels} DIMMs (one per channel)",
        zh: "至少使用 {channels} 根内存条（每个通道一根）",
    }
    MEMORY_CAPACITY_EXCEEDS_CPU "memory-capacity-exceeds-cpu" {
        en: "has {total} GiB of memory; the CPU(s) address at most {max} GiB",
        zh: "内存共 {total} GiB；CPU 最多支持 {max} GiB",
    }
    MEMORY_CAPACITY_EXCEEDS_CPU_FIX "memory-capacity-exceeds-cpu" {
        en: "Stay within {max} GiB",
        zh: "内存总量不要超过 {max} GiB",
    }
    SYSTEM_MEMORY_BELOW_VRAM "system-memory-below-vram" {
        en: "has {ram} GiB of system memory for {vram} GiB of GPU memory; the field guides advise at least 1.5× ({wanted} GiB)",
        zh: "内存 {ram} GiB，显存 {vram} GiB；实战指南建议内存至少为显存的 1.5 倍（{wanted} GiB）",
    }
    SYSTEM_MEMORY_BELOW_VRAM_FIX "system-memory-below-vram" {
        en: "Fit {rec} GiB of system memory",
        zh: "配置 {rec} GiB 内存",
    }
}

/// System RAM to total VRAM ratio our users' field guides advise ("内存容量应至少为GPU显存的1.5倍",
/// field guide 000 §1.2: at least 1.5× the GPU memory).
pub const RAM_TO_VRAM_RATIO: f64 = 1.5;

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
                        text!(
                            MEMORY_TYPE_CPU,
                            memory = &m.part.name,
                            memory_type = m.part.memory_type.to_string(),
                            cpu = &c.part.name,
                            types = names(&c.part.memory_types)
                        ),
                    )
                    .at(i, m)
                    .at(i, c)
                    .with_fix(text!(MEMORY_TYPE_CPU_FIX)),
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
                        text!(
                            MEMORY_TYPE_BOARD,
                            memory = &m.part.name,
                            memory_type = m.part.memory_type.to_string(),
                            board = &b.part.name,
                            board_type = t.to_string()
                        ),
                    )
                    .at(i, m)
                    .at(i, b)
                    .with_fix(text!(MEMORY_TYPE_BOARD_FIX, board_type = t.to_string())),
                );
            }
            if !board_takes_dimm_kind(b.part, m.part.dimm_kind) {
                out.push(
                    diag(
                        node,
                        Severity::Error,
                        "memory-dimm-kind-mismatch",
                        text!(
                            MEMORY_DIMM_KIND_MISMATCH,
                            memory = &m.part.name,
                            kind = m.part.dimm_kind.to_string(),
                            board = &b.part.name,
                            kinds = names(&b.part.dimm_kinds)
                        ),
                    )
                    .at(i, m)
                    .at(i, b)
                    .with_fix(text!(MEMORY_DIMM_KIND_MISMATCH_FIX, kinds = names(&b.part.dimm_kinds))),
                );
            }
            if !board_takes_ecc(b.part, m.part) {
                out.push(
                    diag(
                        node,
                        Severity::Error,
                        "memory-ecc-required",
                        text!(MEMORY_ECC_REQUIRED, memory = &m.part.name, board = &b.part.name),
                    )
                    .at(i, m)
                    .with_fix(text!(MEMORY_ECC_REQUIRED_FIX)),
                );
            }
        }
    }
    let kinds: BTreeSet<DimmKind> = p.memory.iter().map(|m| m.part.dimm_kind).collect();
    if kinds.len() > 1 {
        out.push(
            diag(node, Severity::Error, "memory-kinds-mixed", text!(MEMORY_KINDS_MIXED, kinds = names(kinds)))
                .at_each(i, &p.memory)
                .with_fix(text!(MEMORY_KINDS_MIXED_FIX)),
        );
    }
    let ecc: BTreeSet<bool> = p.memory.iter().map(|m| m.part.ecc).collect();
    if ecc.len() > 1 {
        out.push(
            diag(node, Severity::Warning, "memory-ecc-mixed", text!(MEMORY_ECC_MIXED))
                .at_each(i, &p.memory)
                .with_fix(text!(MEMORY_ECC_MIXED_FIX)),
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
                    text!(
                        MEMORY_SLOTS_EXCEEDED,
                        dimms = dimms.to_string(),
                        board = &b.part.name,
                        slots = b.part.dimm_slots.to_string()
                    ),
                )
                .at(i, b)
                .with_fix(text!(MEMORY_SLOTS_EXCEEDED_FIX)),
            );
        }
        if b.part.max_memory_gib > 0.0 && total_gib > b.part.max_memory_gib {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "memory-capacity-exceeds-board",
                    text!(
                        MEMORY_CAPACITY_EXCEEDS_BOARD,
                        total = format!("{total_gib:.0}"),
                        board = &b.part.name,
                        max = format!("{:.0}", b.part.max_memory_gib)
                    ),
                )
                .at(i, b)
                .with_fix(text!(MEMORY_CAPACITY_EXCEEDS_BOARD_FIX, max = format!("{:.0}", b.part.max_memory_gib))),
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
                    text!(MEMORY_CHANNELS_UNDERPOPULATED, dimms = dimms.to_string(), channels = channels.to_string()),
                )
                .at(i, b)
                .with_fix(text!(MEMORY_CHANNELS_UNDERPOPULATED_FIX, channels = channels.to_string())),
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
                text!(
                    MEMORY_CAPACITY_EXCEEDS_CPU,
                    total = format!("{total_gib:.0}"),
                    max = format!("{cpu_max_gib:.0}")
                ),
            )
            .at_each(i, &p.cpus)
            .with_fix(text!(MEMORY_CAPACITY_EXCEEDS_CPU_FIX, max = format!("{cpu_max_gib:.0}"))),
        );
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
                text!(
                    SYSTEM_MEMORY_BELOW_VRAM,
                    ram = format!("{ram:.0}"),
                    vram = format!("{vram:.0}"),
                    wanted = format!("{wanted:.0}")
                ),
            )
            .at_each(node.index, &p.memory)
            .with_fix(text!(SYSTEM_MEMORY_BELOW_VRAM_FIX, rec = format!("{rec:.0}"))),
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
