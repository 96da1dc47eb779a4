//! Platform rules: a compute node's essentials, duplicated mainboards or chassis, CPUs against
//! the board's sockets, GPU modules against their baseboards, and the predicates the memory
//! rules ([`super::memory`]) and the advisor share.

use super::{Attach as _, diag};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::catalog::{Chassis, Cpu, DimmKind, GpuFormFactor, Memory, Motherboard};
use crate::core::i18n::{Template, Text};
use crate::core::resolve::Node;
use crate::text;

crate::templates! {
    pub(crate) TEMPLATES;
    MISSING_MOTHERBOARD "missing-motherboard" {
        en: "has no mainboard",
        zh: "缺少主板",
    }
    MISSING_MOTHERBOARD_FIX "missing-motherboard" {
        en: "Add a motherboard for the CPU",
        zh: "为 CPU 添加一块主板",
    }
    MISSING_CPU "missing-cpu" {
        en: "has no CPU",
        zh: "缺少 CPU",
    }
    MISSING_CPU_FIX "missing-cpu" {
        en: "Add a CPU that fits the board's socket",
        zh: "添加一颗与主板插槽匹配的 CPU",
    }
    MISSING_MEMORY "missing-memory" {
        en: "has no system memory",
        zh: "缺少内存",
    }
    MISSING_MEMORY_FIX "missing-memory" {
        en: "Add DIMMs of the board's memory type",
        zh: "添加与主板内存类型相符的内存条",
    }
    MISSING_PSU "missing-psu" {
        en: "has no power supply",
        zh: "缺少电源",
    }
    MISSING_PSU_FIX "missing-psu" {
        en: "Add a PSU of the recommended size",
        zh: "添加一个推荐功率的电源",
    }
    MISSING_STORAGE "missing-storage" {
        en: "has no storage drive",
        zh: "缺少存储硬盘",
    }
    MISSING_STORAGE_FIX "missing-storage" {
        en: "Add an NVMe drive for the OS and data",
        zh: "添加一块 NVMe 硬盘，用于存放系统和数据",
    }
    MISSING_CHASSIS "missing-chassis" {
        en: "has no chassis",
        zh: "缺少机箱",
    }
    MISSING_CHASSIS_FIX "missing-chassis" {
        en: "Add a case or server chassis",
        zh: "添加一个机箱或服务器机箱",
    }
    MISSING_CPU_COOLER "missing-cpu-cooler" {
        en: "has no CPU cooler",
        zh: "缺少 CPU 散热器",
    }
    MISSING_CPU_COOLER_FIX "missing-cpu-cooler" {
        en: "Add a cooler rated for the CPU's power",
        zh: "添加一个额定散热能力满足 CPU 功耗的散热器",
    }
    MULTIPLE_MAINBOARDS "multiple-mainboards" {
        en: "has {count} mainboards; a node has one",
        zh: "有 {count} 块主板；一个节点只能有一块主板",
    }
    MULTIPLE_MAINBOARDS_FIX "multiple-mainboards" {
        en: "Keep one mainboard, or split the node into node groups",
        zh: "只保留一块主板，或将该节点拆分为多个节点组",
    }
    MULTIPLE_CHASSIS "multiple-chassis" {
        en: "has {count} chassis; a node has one",
        zh: "有 {count} 个机箱；一个节点只能有一个机箱",
    }
    MULTIPLE_CHASSIS_FIX "multiple-chassis" {
        en: "Keep one chassis, or split the node into node groups",
        zh: "只保留一个机箱，或将该节点拆分为多个节点组",
    }
    CPU_MIXED_MODELS "cpu-mixed-models" {
        en: "mixes different CPU models; multi-socket boards need identical CPUs",
        zh: "混用了不同型号的 CPU；多路主板需要相同型号的 CPU",
    }
    CPU_MIXED_MODELS_FIX "cpu-mixed-models" {
        en: "Use the same CPU model in every socket",
        zh: "每个插槽都使用同一型号的 CPU",
    }
    CPU_MULTI_SOCKET_UNSUPPORTED "cpu-multi-socket-unsupported" {
        en: "has {count} × {cpu}, which runs in at most {max} socket(s) per system",
        zh: "有 {count} 颗 {cpu}，但该型号每个系统最多支持 {max} 路",
    }
    CPU_MULTI_SOCKET_UNSUPPORTED_FIX "cpu-multi-socket-unsupported" {
        en: "Use one CPU, or a CPU model made for multi-socket systems",
        zh: "只使用一颗 CPU，或换用支持多路系统的 CPU 型号",
    }
    CPU_SOCKET_MISMATCH "cpu-socket-mismatch" {
        en: "{cpu} is a {cpu_socket} CPU but {board} has socket {socket}",
        zh: "{cpu} 是 {cpu_socket} 插槽的 CPU，但 {board} 的插槽是 {socket}",
    }
    CPU_SOCKET_MISMATCH_FIX "cpu-socket-mismatch" {
        en: "Choose a board with socket {cpu_socket} or a {socket} CPU",
        zh: "选择 {cpu_socket} 插槽的主板，或 {socket} 插槽的 CPU",
    }
    CPU_COUNT_EXCEEDS_SOCKETS "cpu-count-exceeds-sockets" {
        en: "has {count} CPUs but {board} has {sockets} socket(s)",
        zh: "有 {count} 颗 CPU，但 {board} 只有 {sockets} 个 CPU 插槽",
    }
    CPU_COUNT_EXCEEDS_SOCKETS_FIX "cpu-count-exceeds-sockets" {
        en: "Use at most {sockets} CPU(s), or a board with more sockets",
        zh: "最多使用 {sockets} 颗 CPU，或换用 CPU 插槽更多的主板",
    }
    CPU_SOCKETS_UNPOPULATED "cpu-sockets-unpopulated" {
        en: "{board} has {sockets} sockets and {count} CPU(s); the memory channels and PCIe lanes of an empty socket are unavailable",
        zh: "{board} 有 {sockets} 个 CPU 插槽，只装了 {count} 颗 CPU；空插槽对应的内存通道和 PCIe 通道无法使用",
    }
    GPU_INTEGRATED_STANDALONE "gpu-integrated-standalone" {
        en: "{gpu} is integrated in a module and cannot be bought or fitted on its own",
        zh: "{gpu} 集成在模块中，无法单独购买或安装",
    }
    GPU_INTEGRATED_STANDALONE_FIX "gpu-integrated-standalone" {
        en: "Add the system that contains it instead",
        zh: "改为添加包含它的整机",
    }
    GPU_MODULE_NEEDS_BASEBOARD "gpu-module-needs-baseboard" {
        en: "{gpu} is an {form} module; it needs a matching GPU baseboard, not a PCIe slot",
        zh: "{gpu} 是 {form} 模块；它需要匹配的 GPU 基板，不能装在 PCIe 插槽上",
    }
    GPU_MODULE_NEEDS_BASEBOARD_FIX "gpu-module-needs-baseboard" {
        en: "Add the matching HGX / OAM baseboard and a GPU server chassis",
        zh: "添加匹配的 HGX / OAM 基板和 GPU 服务器机箱",
    }
    GPU_BASEBOARD_MISMATCH "gpu-baseboard-mismatch" {
        en: "{gpu} is an {form} module but the baseboard takes {forms}",
        zh: "{gpu} 是 {form} 模块，但基板只支持 {forms}",
    }
    GPU_BASEBOARD_MISMATCH_FIX "gpu-baseboard-mismatch" {
        en: "Use an {form} baseboard",
        zh: "使用 {form} 基板",
    }
    GPU_BASEBOARD_POSITIONS_EXCEEDED "gpu-baseboard-positions-exceeded" {
        en: "has {count} GPU modules but the baseboard(s) hold {positions}",
        zh: "有 {count} 个 GPU 模块，但基板只能容纳 {positions} 个",
    }
    GPU_BASEBOARD_POSITIONS_EXCEEDED_FIX "gpu-baseboard-positions-exceeded" {
        en: "Use at most {positions} modules per node",
        zh: "每个节点最多使用 {positions} 个模块",
    }
    GPU_BASEBOARD_CHASSIS_NONE "gpu-baseboard-chassis-mismatch" {
        en: "{board} does not fit {chassis}, which takes no GPU baseboard",
        zh: "{board} 装不进 {chassis}，该机箱不支持 GPU 基板",
    }
    GPU_BASEBOARD_CHASSIS_OTHER "gpu-baseboard-chassis-mismatch" {
        en: "{board} does not fit {chassis}, which takes an {form} baseboard",
        zh: "{board} 装不进 {chassis}，该机箱只支持 {form} 基板",
    }
    GPU_BASEBOARD_CHASSIS_MISMATCH_FIX "gpu-baseboard-chassis-mismatch" {
        en: "Use the GPU server chassis made for this baseboard",
        zh: "使用为该基板设计的 GPU 服务器机箱",
    }
}

/// The items of `list` as strings, for a list argument.
pub(super) fn names<T: std::fmt::Display>(list: impl IntoIterator<Item = T>) -> Vec<String> {
    list.into_iter().map(|t| t.to_string()).collect()
}

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
    let missing = |sev, code: &'static str, what: &'static Template, fix: &'static Template| {
        diag(node, sev, code, Text::new(what)).with_fix(Text::new(fix))
    };
    if p.mainboard().is_none() {
        out.push(missing(Severity::Error, "missing-motherboard", &MISSING_MOTHERBOARD, &MISSING_MOTHERBOARD_FIX));
    }
    if p.cpus.is_empty() {
        out.push(missing(Severity::Error, "missing-cpu", &MISSING_CPU, &MISSING_CPU_FIX));
    }
    if p.memory.is_empty() {
        out.push(missing(Severity::Error, "missing-memory", &MISSING_MEMORY, &MISSING_MEMORY_FIX));
    }
    if p.psus.is_empty() {
        out.push(missing(Severity::Error, "missing-psu", &MISSING_PSU, &MISSING_PSU_FIX));
    }
    if p.storage.is_empty() {
        out.push(missing(Severity::Warning, "missing-storage", &MISSING_STORAGE, &MISSING_STORAGE_FIX));
    }
    if p.chassis.is_empty() {
        out.push(missing(Severity::Warning, "missing-chassis", &MISSING_CHASSIS, &MISSING_CHASSIS_FIX));
    }
    if !p.cpus.is_empty() && p.coolers.is_empty() {
        out.push(missing(Severity::Warning, "missing-cpu-cooler", &MISSING_CPU_COOLER, &MISSING_CPU_COOLER_FIX));
    }
}

pub(super) fn duplicates(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let mains: Vec<_> =
        node.parts.boards.iter().filter(|b| b.part.role == crate::core::catalog::BoardRole::Mainboard).collect();
    let main_units: u32 = mains.iter().map(|b| b.quantity).sum();
    if main_units > 1 {
        out.push(
            diag(
                node,
                Severity::Error,
                "multiple-mainboards",
                text!(MULTIPLE_MAINBOARDS, count = main_units.to_string()),
            )
            .at_each(node.index, mains.iter().copied())
            .with_fix(text!(MULTIPLE_MAINBOARDS_FIX)),
        );
    }
    let chassis_units: u32 = node.parts.chassis.iter().map(|c| c.quantity).sum();
    if chassis_units > 1 {
        out.push(
            diag(node, Severity::Error, "multiple-chassis", text!(MULTIPLE_CHASSIS, count = chassis_units.to_string()))
                .at_each(node.index, &node.parts.chassis)
                .with_fix(text!(MULTIPLE_CHASSIS_FIX)),
        );
    }
}

pub(super) fn cpu_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    let Some(first) = p.cpus.first() else { return };
    let count = p.cpu_count();
    if p.cpus.iter().any(|c| c.part.id != first.part.id) {
        out.push(
            diag(node, Severity::Error, "cpu-mixed-models", text!(CPU_MIXED_MODELS))
                .at_each(node.index, &p.cpus)
                .with_fix(text!(CPU_MIXED_MODELS_FIX)),
        );
    }
    for c in &p.cpus {
        if !cpu_runs_in(c.part, count) {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "cpu-multi-socket-unsupported",
                    text!(
                        CPU_MULTI_SOCKET_UNSUPPORTED,
                        count = count.to_string(),
                        cpu = &c.part.name,
                        max = c.part.max_sockets.to_string()
                    ),
                )
                .at(node.index, c)
                .with_fix(text!(CPU_MULTI_SOCKET_UNSUPPORTED_FIX)),
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
                    text!(
                        CPU_SOCKET_MISMATCH,
                        cpu = &c.part.name,
                        cpu_socket = &c.part.socket,
                        board = &board.name,
                        socket = socket
                    ),
                )
                .at(node.index, c)
                .at(node.index, board_item)
                .with_fix(text!(CPU_SOCKET_MISMATCH_FIX, cpu_socket = &c.part.socket, socket = socket)),
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
                text!(
                    CPU_COUNT_EXCEEDS_SOCKETS,
                    count = count.to_string(),
                    board = &board.name,
                    sockets = sockets.to_string()
                ),
            )
            .at(node.index, board_item)
            .with_fix(text!(CPU_COUNT_EXCEEDS_SOCKETS_FIX, sockets = sockets.to_string())),
        );
    } else if count < sockets && count > 0 {
        out.push(
            diag(
                node,
                Severity::Info,
                "cpu-sockets-unpopulated",
                text!(
                    CPU_SOCKETS_UNPOPULATED,
                    board = &board.name,
                    sockets = sockets.to_string(),
                    count = count.to_string()
                ),
            )
            .at(node.index, board_item),
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
                    text!(GPU_INTEGRATED_STANDALONE, gpu = &g.part.name),
                )
                .at(i, g)
                .with_fix(text!(GPU_INTEGRATED_STANDALONE_FIX)),
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
                text!(
                    GPU_MODULE_NEEDS_BASEBOARD,
                    gpu = modules.first().map_or("", |g| g.part.name.as_str()),
                    form = modules.first().map_or(GpuFormFactor::Sxm4, |g| g.part.form_factor).to_string()
                ),
            )
            .at_each(i, modules.iter().copied())
            .with_fix(text!(GPU_MODULE_NEEDS_BASEBOARD_FIX)),
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
                    text!(
                        GPU_BASEBOARD_MISMATCH,
                        gpu = &g.part.name,
                        form = form.to_string(),
                        forms =
                            names(baseboards.iter().filter_map(|b| b.part.baseboard.as_ref().map(|bb| bb.form_factor)))
                    ),
                )
                .at(i, g)
                .at_each(i, baseboards.iter().copied())
                .with_fix(text!(GPU_BASEBOARD_MISMATCH_FIX, form = form.to_string())),
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
                text!(GPU_BASEBOARD_POSITIONS_EXCEEDED, count = count.to_string(), positions = positions.to_string()),
            )
            .at_each(i, modules.iter().copied())
            .with_fix(text!(GPU_BASEBOARD_POSITIONS_EXCEEDED_FIX, positions = positions.to_string())),
        );
    }
    if let Some(ch) = chassis {
        for b in &baseboards {
            if !chassis_takes_baseboard(ch, b.part) {
                let message = match ch.gpu_baseboard {
                    None => text!(GPU_BASEBOARD_CHASSIS_NONE, board = &b.part.name, chassis = &ch.name),
                    Some(f) => text!(
                        GPU_BASEBOARD_CHASSIS_OTHER,
                        board = &b.part.name,
                        chassis = &ch.name,
                        form = f.to_string()
                    ),
                };
                let d = diag(node, Severity::Error, "gpu-baseboard-chassis-mismatch", message).at(i, b);
                out.push(d.with_chassis(node).with_fix(text!(GPU_BASEBOARD_CHASSIS_MISMATCH_FIX)));
            }
        }
    }
}
