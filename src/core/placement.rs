//! Drop acceptance and the slot layout of a node, for the app's build canvas.
//!
//! Theory of operation. rigplan never re-implements its compatibility rules for drag and drop.
//! Whether a part may go somewhere is decided in two steps:
//! 1. the coarse "what goes where" of the target itself ([`target_accepts`]): a switch belongs
//!    to the cluster section, DIMM slots take memory modules, a PCIe slot takes a card and not
//!    an SXM module;
//! 2. the edit is applied to a *clone* of the build and the full analysis runs on it: the drop
//!    is refused exactly when it introduces an error-severity finding the build did not already
//!    have, and the refusal carries those findings' messages ([`check_add`], [`check_move`]). An
//!    edit the document itself refuses (a quantity limit, a missing node) is refused with the
//!    edit error's message.
//!
//! A machine is put together one part at a time, so a finding that only says something is
//! still *missing* never refuses a drop: a GPU dropped into an empty node makes the node lack a
//! CPU and a board, which is where every build starts, not a conflict ([`is_incomplete`]).
//! Conflicts refuse: a DDR4 module on a DDR5 board, a card longer than the chassis allows, a
//! fifth card on a board whose slots are full, a GPU the PSU cannot feed.
//!
//! Nothing here changes the caller's build: the app's command layer applies an accepted drop
//! with [`add_at`] or [`move_to`], the same functions the check used on the clone.
//!
//! [`node_slots`] counts a resolved node's parts against the slots of its platform (CPU
//! sockets, DIMM slots, M.2 slots, drive bays, PSU bays, GPU baseboard positions) for the
//! canvas diagram. PCIe cards are not placed here: the compatibility analysis places them
//! (`analysis::compat::NodeLayout`, part of the report) and the canvas draws that layout.

use crate::core::analysis::{self, Diagnostic, Severity};
use crate::core::build::{Build, EditError, Location, MAX_LINES, MAX_QUANTITY, MAX_TOTAL_LINES, PartLine};
use crate::core::catalog::{Catalog, ChassisKind, Part, PartId, PartKind, StorageInterface};
use crate::core::i18n::Text;
use crate::core::resolve::Resolved;
use std::collections::HashMap;

/// Where a part is dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A node group as a whole: the part goes where it belongs in it.
    Node(usize),
    /// One group of same-kind slots of a node (its DIMM slots, its drive bays, …).
    Slots { node: usize, kind: SlotKind },
    /// One PCIe slot of a node's mainboard, by expansion-slot position.
    PcieSlot { node: usize, position: u8 },
    /// The cluster section (switches, shared storage).
    Cluster,
}

impl Target {
    /// The build location the part ends up in.
    #[must_use]
    pub fn location(self) -> Location {
        match self {
            Self::Node(node) | Self::Slots { node, .. } | Self::PcieSlot { node, .. } => Location::Node(node),
            Self::Cluster => Location::Cluster,
        }
    }
}

/// The answer to "may this part go there?".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Accept,
    /// Refused, with one sentence per reason (rendered in the reader's language).
    Refuse(Vec<Text>),
}

impl Verdict {
    #[must_use]
    pub fn is_accept(&self) -> bool {
        matches!(self, Self::Accept)
    }

    /// The reasons of a refusal (empty when accepted).
    #[must_use]
    pub fn reasons(&self) -> &[Text] {
        match self {
            Self::Accept => &[],
            Self::Refuse(r) => r,
        }
    }
}

/// Kinds of slot groups on a node card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SlotKind {
    Chassis,
    Board,
    CpuSocket,
    Cooler,
    Dimm,
    /// SXM/OAM module positions on a GPU baseboard.
    GpuPosition,
    M2,
    /// 2.5" bays (SATA SSDs, U.2/U.3 and EDSFF NVMe).
    Bay25,
    /// 3.5" bays (hard disks).
    Bay35,
    Psu,
    /// Complete systems (DGX, Jetson developer kit).
    System,
}

impl SlotKind {
    /// Every slot kind, in the order a node card shows them.
    pub const ALL: [Self; 11] = [
        Self::Chassis,
        Self::Board,
        Self::CpuSocket,
        Self::Cooler,
        Self::Dimm,
        Self::GpuPosition,
        Self::M2,
        Self::Bay25,
        Self::Bay35,
        Self::Psu,
        Self::System,
    ];
}

/// A noun phrase for a kind of part, for refusal messages ("a GPU", "GPU").
fn kind_noun(kind: PartKind) -> Text {
    Text::new(match kind {
        PartKind::Gpu => &KIND_GPU,
        PartKind::Cpu => &KIND_CPU,
        PartKind::Motherboard => &KIND_BOARD,
        PartKind::Memory => &KIND_MEMORY,
        PartKind::Storage => &KIND_STORAGE,
        PartKind::Psu => &KIND_PSU,
        PartKind::Cooler => &KIND_COOLER,
        PartKind::Chassis => &KIND_CHASSIS,
        PartKind::Nic => &KIND_NIC,
        PartKind::Switch => &KIND_SWITCH,
        PartKind::System => &KIND_SYSTEM,
    })
}

/// What a slot group takes, as a phrase ("DIMM slots take memory modules").
fn slot_takes(kind: SlotKind) -> Text {
    Text::new(match kind {
        SlotKind::Chassis => &TAKES_CHASSIS,
        SlotKind::Board => &TAKES_BOARD,
        SlotKind::CpuSocket => &TAKES_CPU,
        SlotKind::Cooler => &TAKES_COOLER,
        SlotKind::Dimm => &TAKES_DIMM,
        SlotKind::GpuPosition => &TAKES_GPU_MODULE,
        SlotKind::M2 => &TAKES_M2,
        SlotKind::Bay25 => &TAKES_BAY25,
        SlotKind::Bay35 => &TAKES_BAY35,
        SlotKind::Psu => &TAKES_PSU,
        SlotKind::System => &TAKES_SYSTEM,
    })
}

/// Whether a slot group physically takes a catalog part.
///
/// # Errors
/// A sentence saying what the slots take and what the part is.
pub fn slot_accepts(kind: SlotKind, part: Part<'_>) -> Result<(), Text> {
    let fits = match (kind, part) {
        (SlotKind::Chassis, Part::Chassis(_))
        | (SlotKind::Board, Part::Motherboard(_))
        | (SlotKind::CpuSocket, Part::Cpu(_))
        | (SlotKind::Cooler, Part::Cooler(_))
        | (SlotKind::Dimm, Part::Memory(_))
        | (SlotKind::Psu, Part::Psu(_))
        | (SlotKind::System, Part::System(_)) => true,
        (SlotKind::GpuPosition, Part::Gpu(g)) => g.form_factor.is_module(),
        (SlotKind::M2, Part::Storage(s)) => s.interface == StorageInterface::NvmeM2,
        (SlotKind::Bay25, Part::Storage(s)) => {
            matches!(s.interface, StorageInterface::Sata25 | StorageInterface::NvmeU2 | StorageInterface::NvmeEdsff)
        }
        (SlotKind::Bay35, Part::Storage(s)) => s.interface == StorageInterface::Hdd35,
        _ => false,
    };
    if fits {
        return Ok(());
    }
    let what = match part {
        Part::Gpu(g) => {
            let form = g.form_factor.to_string();
            let template = if article(&form) == "an" { &IS_AN_GPU } else { &IS_A_GPU };
            crate::text!(*template, name = g.name.as_str(), form = form)
        }
        Part::Storage(s) => {
            let interface = s.interface.to_string();
            let template = if article(&interface) == "an" { &IS_AN_DRIVE } else { &IS_A_DRIVE };
            crate::text!(*template, name = s.name.as_str(), interface = interface)
        }
        other => crate::text!(IS_KIND, name = other.name(), kind = kind_noun(other.kind())),
    };
    Err(crate::text!(SLOT_REFUSAL, takes = slot_takes(kind), what = what))
}

/// "a" or "an" before a word, by its first sound as product names are read: initialisms
/// by letter ("an SXM5", "an NVMe", "an HDD"), "SATA" and "PCIe" as words ("a SATA", "a PCIe").
fn article(word: &str) -> &'static str {
    if word.starts_with("SATA") || word.starts_with("PCIe") {
        return "a";
    }
    match word.chars().next().map(|c| c.to_ascii_uppercase()) {
        Some('A' | 'E' | 'I' | 'O' | 'U' | 'S' | 'N' | 'H' | 'F' | 'L' | 'M' | 'R' | 'X') => "an",
        _ => "a",
    }
}

/// The coarse "what goes where" of a target, before any compatibility rule: switches belong
/// to the cluster, the cluster takes only switches and shared storage, a slot group takes its
/// kind of part, a PCIe slot takes a PCIe card.
///
/// A part id the catalog does not know may go into a node or the cluster (the analysis
/// reports it), but not into a specific slot, since rigplan cannot tell what it is.
///
/// # Errors
/// A sentence saying why the target refuses the part.
pub fn target_accepts(catalog: &Catalog, target: Target, part: &PartId) -> Result<(), Text> {
    let Some(p) = catalog.get(part) else {
        return match target {
            Target::Node(_) | Target::Cluster => Ok(()),
            Target::Slots { .. } | Target::PcieSlot { .. } => Err(crate::text!(NOT_IN_CATALOG, part = part)),
        };
    };
    match target {
        Target::Node(_) => match p {
            Part::Switch(s) => Err(crate::text!(SWITCH_ON_NODE, name = s.name.as_str())),
            _ => Ok(()),
        },
        Target::Cluster => match p {
            Part::Switch(_) | Part::Storage(_) => Ok(()),
            Part::Chassis(c) if c.kind == ChassisKind::Jbod => Ok(()),
            other => Err(crate::text!(NOT_FOR_CLUSTER, name = other.name(), kind = kind_noun(other.kind()))),
        },
        Target::Slots { kind, .. } => slot_accepts(kind, p),
        Target::PcieSlot { position, .. } => match p {
            Part::Gpu(g) if g.form_factor.is_module() => Err(crate::text!(
                MODULE_NOT_IN_PCIE,
                name = g.name.as_str(),
                form = g.form_factor.to_string(),
                position = position.to_string()
            )),
            Part::Gpu(g) if g.pcie_lanes == 0 => Err(crate::text!(INTEGRATED_GPU, name = g.name.as_str())),
            Part::Gpu(_) | Part::Nic(_) => Ok(()),
            other => Err(crate::text!(PCIE_TAKES, name = other.name(), kind = kind_noun(other.kind()))),
        },
    }
}

crate::templates! {
    pub(crate) TEMPLATES;
    KIND_GPU "" { en: "a GPU", zh: "一块 GPU" }
    KIND_CPU "" { en: "a CPU", zh: "一颗 CPU" }
    KIND_BOARD "" { en: "a board", zh: "一块主板" }
    KIND_MEMORY "" { en: "a memory module", zh: "一条内存" }
    KIND_STORAGE "" { en: "a drive", zh: "一个存储设备" }
    KIND_PSU "" { en: "a power supply", zh: "一个电源" }
    KIND_COOLER "" { en: "a CPU cooler", zh: "一个 CPU 散热器" }
    KIND_CHASSIS "" { en: "a chassis", zh: "一个机箱" }
    KIND_NIC "" { en: "a network adapter", zh: "一块网卡" }
    KIND_SWITCH "" { en: "a switch", zh: "一台交换机" }
    KIND_SYSTEM "" { en: "a complete system", zh: "一台整机" }
    TAKES_CHASSIS "" { en: "The chassis position takes a chassis", zh: "机箱位只能放机箱" }
    TAKES_BOARD "" { en: "The board position takes a mainboard or GPU baseboard", zh: "主板位只能放主板或 GPU 基板" }
    TAKES_CPU "" { en: "CPU sockets take CPUs", zh: "CPU 插槽只能装 CPU" }
    TAKES_COOLER "" { en: "The cooler position takes a CPU cooler", zh: "散热器位只能装 CPU 散热器" }
    TAKES_DIMM "" { en: "DIMM slots take memory modules", zh: "内存插槽只能插内存条" }
    TAKES_GPU_MODULE "" { en: "Baseboard positions take SXM or OAM GPU modules", zh: "基板上的 GPU 位只能装 SXM 或 OAM GPU 模组" }
    TAKES_M2 "" { en: "M.2 slots take M.2 NVMe drives", zh: "M.2 插槽只能装 M.2 NVMe 固态硬盘" }
    TAKES_BAY25 "" { en: "2.5\" bays take SATA, U.2 and EDSFF drives", zh: "2.5 英寸盘位只能装 SATA、U.2 和 EDSFF 硬盘" }
    TAKES_BAY35 "" { en: "3.5\" bays take hard disks", zh: "3.5 英寸盘位只能装机械硬盘" }
    TAKES_PSU "" { en: "PSU bays take power supplies", zh: "电源位只能装电源" }
    TAKES_SYSTEM "" { en: "The system position takes a complete system", zh: "整机位只能放整机" }
    SLOT_REFUSAL "" { en: "{takes}; {what}.", zh: "{takes}；{what}。" }
    IS_A_GPU "" { en: "{name} is a {form} GPU", zh: "{name} 是 {form} GPU" }
    IS_AN_GPU "" { en: "{name} is an {form} GPU", zh: "{name} 是 {form} GPU" }
    IS_A_DRIVE "" { en: "{name} is a {interface} drive", zh: "{name} 是 {interface} 硬盘" }
    IS_AN_DRIVE "" { en: "{name} is an {interface} drive", zh: "{name} 是 {interface} 硬盘" }
    IS_KIND "" { en: "{name} is {kind}", zh: "{name} 是{kind}" }
    NOT_IN_CATALOG "" {
        en: "`{part}` is not in the catalog, so rigplan cannot tell which slot it takes; drop it on the node instead.",
        zh: "部件目录中没有 `{part}`，rigplan 无法判断它该装在哪个插槽；请把它拖到节点上。",
    }
    SWITCH_ON_NODE "" {
        en: "{name} is a switch, a cluster-level part: drop it on the cluster area.",
        zh: "{name} 是交换机，属于集群级部件：请把它拖到集群区。",
    }
    NOT_FOR_CLUSTER "" {
        en: "{name} is {kind}, which goes in a node; the cluster area takes switches, shared drives and disk enclosures.",
        zh: "{name} 是{kind}，应装在节点中；集群区只放交换机、共享存储和磁盘扩展柜。",
    }
    MODULE_NOT_IN_PCIE "" {
        en: "{name} is an {form} module: it mounts on a GPU baseboard, not in PCIe slot {position}.",
        zh: "{name} 是 {form} 模组：它装在 GPU 基板上，不能插入 PCIe 插槽 {position}。",
    }
    INTEGRATED_GPU "" {
        en: "{name} is integrated in a system-on-module; it has no PCIe card to fit a slot.",
        zh: "{name} 集成在核心模组（SoM）中，没有可插入插槽的 PCIe 卡。",
    }
    PCIE_TAKES "" {
        en: "PCIe slots take graphics cards and network adapters; {name} is {kind}.",
        zh: "PCIe 插槽只能插显卡和网卡；{name} 是{kind}。",
    }
}

/// Adds `quantity` of a part at a target. Node, slot-group and cluster targets add through
/// [`Build::add_part`] (merging with a line of the same part). A PCIe slot target places one
/// card in that slot: it joins a line of the same part whose units all have explicit slots,
/// or starts a new line with that slot (within the build's line limits, as `add_part`).
/// Returns the index of the line.
///
/// # Errors
/// As [`Build::add_part`]; a quantity other than 1 for a PCIe slot.
pub fn add_at(build: &mut Build, target: Target, part: &PartId, quantity: u32) -> Result<usize, EditError> {
    let Target::PcieSlot { node, position } = target else {
        return build.add_part(target.location(), part, quantity);
    };
    if quantity != 1 {
        return Err(EditError::Quantity(u64::from(quantity)));
    }
    let total_lines = build.total_lines();
    let lines = &mut build.nodes.get_mut(node).ok_or(EditError::NoSuchNode(node))?.parts;
    let placed =
        lines.iter().position(|l| &l.part == part && !l.slots.is_empty() && l.slots.len() == l.quantity as usize);
    if let Some(i) = placed {
        let Some(line) = lines.get_mut(i) else {
            return Err(EditError::NoSuchLine { location: target.location().to_string(), line: i });
        };
        if line.quantity >= MAX_QUANTITY {
            return Err(EditError::Quantity(u64::from(line.quantity) + 1));
        }
        line.quantity += 1;
        line.slots.push(position);
        return Ok(i);
    }
    if lines.len() >= MAX_LINES {
        return Err(EditError::TooManyLines);
    }
    if total_lines >= MAX_TOTAL_LINES {
        return Err(EditError::TooManyTotalLines);
    }
    lines.push(PartLine { part: part.clone(), quantity: 1, slots: vec![position] });
    Ok(lines.len() - 1)
}

/// Moves `quantity` units of a line to a target. Node and cluster targets move through
/// [`Build::move_part`]; a PCIe slot target takes one unit off the line and places it in the
/// slot (which also re-seats a card within its own node). Returns the destination line index.
///
/// # Errors
/// As [`Build::move_part`] and [`add_at`]; the build is unchanged on error.
pub fn move_to(build: &mut Build, from: Location, line: usize, to: Target, quantity: u32) -> Result<usize, EditError> {
    if !matches!(to, Target::PcieSlot { .. }) {
        return build.move_part(from, line, to.location(), quantity);
    }
    let src = build
        .lines(from)
        .and_then(|l| l.get(line))
        .cloned()
        .ok_or_else(|| EditError::NoSuchLine { location: from.to_string(), line })?;
    if quantity != 1 || src.quantity == 0 {
        return Err(EditError::Quantity(u64::from(quantity)));
    }
    let mut trial = build.clone();
    if src.quantity == 1 {
        trial.remove_part(from, line)?;
    } else {
        trial.set_quantity(from, line, src.quantity - 1)?;
    }
    let dest = add_at(&mut trial, to, &src.part, 1)?;
    *build = trial;
    Ok(dest)
}

/// Error-severity findings of `after` that `before` does not have (counted as a multiset of
/// code, node and sentence, so a second identical error is new too), in `after`'s order. The
/// sentence is compared as its template and arguments, not as rendered: `before` is the app's
/// report, whose messages are in the UI language, while `after` is fresh, in English.
#[must_use]
pub fn new_errors<'a>(before: &[Diagnostic], after: &'a [Diagnostic]) -> Vec<&'a Diagnostic> {
    let mut seen: HashMap<(&str, Option<usize>, &Text), usize> = HashMap::new();
    for d in before.iter().filter(|d| d.severity == Severity::Error) {
        *seen.entry((d.code.as_str(), d.node, d.text())).or_default() += 1;
    }
    after
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .filter(|d| match seen.get_mut(&(d.code.as_str(), d.node, d.text())) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect()
}

/// Findings that report a part the build does not have yet rather than a conflict between
/// parts it has (codes of `analysis::compat`): the essentials of a compute node, a GPU module
/// waiting for its baseboard, a cluster waiting for its fabric.
pub const INCOMPLETE_CODES: [&str; 11] = [
    "missing-cpu",
    "missing-memory",
    "missing-motherboard",
    "missing-psu",
    "missing-chassis",
    "missing-storage",
    "missing-cpu-cooler",
    "node-empty",
    "gpu-module-needs-baseboard",
    "fabric-missing",
    "switch-missing",
];

/// True when a finding only says that something is missing: its code is one of
/// [`INCOMPLETE_CODES`], or it is a PCIe placement finding (`pcie-slot-*`) in a node that has
/// no mainboard yet (the cards are placed once there is a board to place them on).
#[must_use]
pub fn is_incomplete(d: &Diagnostic, resolved: &Resolved<'_>) -> bool {
    if INCOMPLETE_CODES.contains(&d.code.as_str()) {
        return true;
    }
    let boardless = d.node.and_then(|i| resolved.nodes.get(i)).is_some_and(|n| n.parts.mainboard().is_none());
    d.code.starts_with("pcie-slot-") && boardless
}

/// What a drop would do, before it is a verdict: refused outright (the target does not take
/// the part, or the edit is not possible), or the errors it would add, as findings.
#[derive(Clone, Debug, PartialEq)]
pub enum Trial {
    /// Refused before any analysis, one sentence per reason.
    Refused(Vec<Text>),
    /// The errors the edited build has that the build did not (none: accepted).
    Adds(Vec<Diagnostic>),
}

impl Trial {
    /// The verdict: accepted when the edit is possible and adds no error.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        match self {
            Self::Refused(reasons) => Verdict::Refuse(reasons.clone()),
            Self::Adds(errors) if errors.is_empty() => Verdict::Accept,
            Self::Adds(errors) => Verdict::Refuse(errors.iter().map(|d| d.text().clone()).collect()),
        }
    }

    /// The same edit made on node group `to` instead of its twin `from` (identical groups,
    /// [`Resolved::twins`]): the added errors about `from` become errors about `to`. `None`
    /// for a refusal, whose sentence may name the group: the caller checks that edit itself.
    #[must_use]
    pub fn for_twin(&self, from: &crate::core::resolve::Node<'_>, to: &crate::core::resolve::Node<'_>) -> Option<Self> {
        match self {
            Self::Refused(_) => None,
            Self::Adds(errors) => Some(Self::Adds(errors.iter().map(|d| d.moved_to(from, to)).collect())),
        }
    }
}

/// The errors of a trial build that `before` did not have, but for those that only say a
/// part is still missing ([`is_incomplete`]); only the hardware stage runs (the fit matrix
/// and TCO add no errors).
fn added_errors(catalog: &Catalog, before: &[Diagnostic], trial: &Build) -> Trial {
    let resolved = Resolved::new(catalog, trial);
    let after = analysis::check_hardware(&resolved);
    Trial::Adds(
        new_errors(before, &after.diagnostics).into_iter().filter(|d| !is_incomplete(d, &resolved)).cloned().collect(),
    )
}

/// What dropping `quantity` of `part` on `target` would do ([`check_add`] as a [`Trial`]).
#[must_use]
pub fn trial_add(
    catalog: &Catalog,
    build: &Build,
    before: &[Diagnostic],
    target: Target,
    part: &PartId,
    quantity: u32,
) -> Trial {
    if let Err(reason) = target_accepts(catalog, target, part) {
        return Trial::Refused(vec![reason]);
    }
    let mut trial = build.clone();
    if let Err(e) = add_at(&mut trial, target, part, quantity) {
        return Trial::Refused(vec![e.text()]);
    }
    added_errors(catalog, before, &trial)
}

/// May `quantity` of `part` be dropped on `target`? `before` is the findings of `build` as it
/// is (the app passes its cached report), so that only errors the drop would introduce count.
#[must_use]
pub fn check_add(
    catalog: &Catalog,
    build: &Build,
    before: &[Diagnostic],
    target: Target,
    part: &PartId,
    quantity: u32,
) -> Verdict {
    trial_add(catalog, build, before, target, part, quantity).verdict()
}

/// What moving `quantity` units of line `line` at `from` to `target` would do
/// ([`check_move`] as a [`Trial`]).
#[must_use]
pub fn trial_move(
    catalog: &Catalog,
    build: &Build,
    before: &[Diagnostic],
    from: Location,
    line: usize,
    target: Target,
    quantity: u32,
) -> Trial {
    let Some(src) = build.lines(from).and_then(|l| l.get(line)) else {
        return Trial::Refused(vec![EditError::NoSuchLine { location: from.to_string(), line }.text()]);
    };
    if let Err(reason) = target_accepts(catalog, target, &src.part) {
        return Trial::Refused(vec![reason]);
    }
    let mut trial = build.clone();
    if let Err(e) = move_to(&mut trial, from, line, target, quantity) {
        return Trial::Refused(vec![e.text()]);
    }
    added_errors(catalog, before, &trial)
}

/// May `quantity` units of line `line` at `from` be moved to `target`? As [`check_add`].
#[must_use]
pub fn check_move(
    catalog: &Catalog,
    build: &Build,
    before: &[Diagnostic],
    from: Location,
    line: usize,
    target: Target,
    quantity: u32,
) -> Verdict {
    trial_move(catalog, build, before, from, line, target, quantity).verdict()
}

// ---------------------------------------------------------------------------------------------
// Slot layout

/// A build line shown in a slot group.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Occupant {
    /// Index of the line in the node.
    pub line: usize,
    pub part: PartId,
    pub name: String,
    /// Units of this line in the group (per node).
    pub units: u32,
}

/// One group of same-kind slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SlotGroup {
    pub kind: SlotKind,
    /// How many slots the platform has (None when it does not say, e.g. no board yet).
    pub capacity: Option<u32>,
    /// Units in the group.
    pub used: u32,
    pub occupants: Vec<Occupant>,
}

/// A node's parts counted against the slots of its platform.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeSlots {
    pub groups: Vec<SlotGroup>,
}

impl NodeSlots {
    /// The group of a kind, if the card shows it.
    #[must_use]
    pub fn group(&self, kind: SlotKind) -> Option<&SlotGroup> {
        self.groups.iter().find(|g| g.kind == kind)
    }
}

/// Counts node `node` of a resolved build against its platform's slots. None when there is no
/// such node.
#[must_use]
pub fn node_slots(resolved: &Resolved<'_>, node: usize) -> Option<NodeSlots> {
    let n = resolved.nodes.get(node)?;
    let parts = &n.parts;
    let board = parts.mainboard();
    let chassis = parts.chassis();
    let has_system = !parts.systems.is_empty();

    let occupant = |line: usize, id: &PartId, name: &str, units: u32| Occupant {
        line,
        part: id.clone(),
        name: name.to_owned(),
        units,
    };
    let mut groups = Vec::new();
    let mut push = |kind: SlotKind, capacity: Option<u32>, occupants: Vec<Occupant>| {
        let used = occupants.iter().map(|o| o.units).fold(0u32, u32::saturating_add);
        // A complete system brings its own platform: its node shows only the groups in use.
        let shown = match kind {
            SlotKind::System => has_system,
            SlotKind::GpuPosition => used > 0 || capacity.is_some_and(|c| c > 0),
            _ => !has_system || used > 0,
        };
        if shown {
            groups.push(SlotGroup { kind, capacity, used, occupants });
        }
    };
    push(
        SlotKind::Chassis,
        Some(1),
        parts.chassis.iter().map(|c| occupant(c.line, &c.part.id, &c.part.name, c.quantity)).collect(),
    );
    push(
        SlotKind::Board,
        None,
        parts.boards.iter().map(|b| occupant(b.line, &b.part.id, &b.part.name, b.quantity)).collect(),
    );
    push(
        SlotKind::CpuSocket,
        board.map(|b| u32::from(b.cpu_sockets)),
        parts.cpus.iter().map(|c| occupant(c.line, &c.part.id, &c.part.name, c.quantity)).collect(),
    );
    push(
        SlotKind::Cooler,
        None,
        parts.coolers.iter().map(|c| occupant(c.line, &c.part.id, &c.part.name, c.quantity)).collect(),
    );
    push(
        SlotKind::Dimm,
        board.map(|b| u32::from(b.dimm_slots)),
        parts.memory.iter().map(|m| occupant(m.line, &m.part.id, &m.part.name, m.quantity)).collect(),
    );
    let positions: u32 = parts
        .boards
        .iter()
        .filter_map(|b| b.part.baseboard.as_ref().map(|bb| u32::from(bb.positions).saturating_mul(b.quantity)))
        .fold(0, u32::saturating_add);
    push(
        SlotKind::GpuPosition,
        (positions > 0).then_some(positions),
        parts
            .gpus
            .iter()
            .filter(|g| g.in_system.is_none() && g.part.form_factor.is_module())
            .map(|g| occupant(g.line, &g.part.id, &g.part.name, g.quantity))
            .collect(),
    );
    let drives = |pred: fn(StorageInterface) -> bool| -> Vec<Occupant> {
        parts
            .storage
            .iter()
            .filter(|s| pred(s.part.interface))
            .map(|s| occupant(s.line, &s.part.id, &s.part.name, s.quantity))
            .collect()
    };
    push(SlotKind::M2, board.map(|b| u32::from(b.m2_slots)), drives(|i| i == StorageInterface::NvmeM2));
    push(
        SlotKind::Bay25,
        chassis.map(|c| u32::from(c.bays_25)),
        drives(|i| matches!(i, StorageInterface::Sata25 | StorageInterface::NvmeU2 | StorageInterface::NvmeEdsff)),
    );
    push(SlotKind::Bay35, chassis.map(|c| u32::from(c.bays_35)), drives(|i| i == StorageInterface::Hdd35));
    push(
        SlotKind::Psu,
        chassis.map(|c| u32::from(c.psu_bays)),
        parts.psus.iter().map(|p| occupant(p.line, &p.part.id, &p.part.name, p.quantity)).collect(),
    );
    push(
        SlotKind::System,
        None,
        parts.systems.iter().map(|s| occupant(s.line, &s.part.id, &s.part.name, s.quantity)).collect(),
    );

    Some(NodeSlots { groups })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::analysis::analyze;
    use crate::core::build::NodeGroup;
    use crate::core::catalog::CatalogProblem;
    use crate::core::i18n::{Lang, placeholders};

    /// A verdict's reasons in a language.
    fn reasons_in(v: &Verdict, lang: Lang) -> Vec<String> {
        v.reasons().iter().map(|t| t.render(lang)).collect()
    }

    /// A small catalog: a 3-slot PCIe card (RTX 4090 figures from NVIDIA's product page), an
    /// SXM5 module, an AM5 CPU (Ryzen 9 7950X figures from AMD's product page), an ATX board
    /// with three x16 slots at positions 1, 4 and 7 and one x4 slot at 5, a DDR5 module, an
    /// M.2 drive, a switch and a NIC. Only the fields the layout and the target rules read
    /// matter here.
    fn catalog() -> Catalog {
        let gpu = |id: &str, ff: &str, width: f64, lanes: u8| {
            format!(
                r#"(id: "{id}", name: "{id}", vendor: "NVIDIA", source: "test", architecture: "Ada",
                segment: Consumer, memory_gib: 24.0, memory_type: Gddr6x, memory_bandwidth_gbs: 1008.0,
                fp32_tflops: 82.6, fp16_tensor_tflops: 165.2, tdp_watts: 450.0, idle_watts: 21.0,
                form_factor: {ff}, pcie_gen: 4, pcie_lanes: {lanes}, slot_width: {width}, {length}
                interconnect: None, max_temp_c: 90.0, cooler: OpenAir)"#,
                length = if ff == "Pcie" { "length_mm: 304.0," } else { "" }
            )
        };
        let gpus = format!("[{}, {}]", gpu("gpu/card", "Pcie", 3.0, 16), gpu("gpu/module", "Sxm5", 0.0, 16));
        let board = r#"[(id: "motherboard/atx", name: "ATX board", vendor: "ASUS", source: "test",
            role: Mainboard, form_factor: Atx, socket: "AM5", cpu_sockets: 1, memory_type: Ddr5,
            dimm_kinds: [Udimm], dimm_slots: 4, memory_channels: 2, max_memory_gib: 192.0, m2_slots: 2,
            pcie_slots: [
                (position: 1, pcie_gen: 5, physical_lanes: 16, electrical_lanes: 16),
                (position: 4, pcie_gen: 4, physical_lanes: 16, electrical_lanes: 8),
                (position: 5, pcie_gen: 4, physical_lanes: 4, electrical_lanes: 4),
                (position: 7, pcie_gen: 4, physical_lanes: 16, electrical_lanes: 4),
            ])]"#;
        let memory = r#"[(id: "memory/ddr5", name: "DDR5 32GB", vendor: "Kingston", source: "test",
            memory_type: Ddr5, dimm_kind: Udimm, ecc: false, capacity_gib: 32.0, speed_mts: 5200,
            typical_watts: 3.0),
            (id: "memory/ddr4", name: "DDR4 32GB", vendor: "Crucial", source: "test",
            memory_type: Ddr4, dimm_kind: Udimm, ecc: false, capacity_gib: 32.0, speed_mts: 3200,
            typical_watts: 3.0)]"#;
        let storage = r#"[(id: "storage/m2", name: "M.2 SSD", vendor: "Samsung", source: "test",
            interface: NvmeM2, pcie_gen: 4, pcie_lanes: 4, capacity_gb: 2000.0, seq_read_mbs: 7000.0,
            seq_write_mbs: 5000.0, idle_watts: 0.05, active_watts: 6.0)]"#;
        let switch = r#"[(id: "switch/ib", name: "IB switch", vendor: "NVIDIA", source: "test",
            tech: InfiniBand, ports: 40, port_speed_gbps: 200.0, rack_units: 1, typical_watts: 500.0,
            max_watts: 700.0)]"#;
        let nic = r#"[(id: "nic/cx7", name: "ConnectX-7", vendor: "NVIDIA", source: "test", tech: Vpi,
            ports: 1, port_speed_gbps: 400.0, pcie_gen: 5, pcie_lanes: 16, max_watts: 25.0)]"#;
        let cpu = r#"[(id: "cpu/am5", name: "AM5 CPU", vendor: "AMD", source: "test", cores: 16, threads: 32,
            base_ghz: 4.5, boost_ghz: 5.7, tdp_watts: 170.0, idle_watts: 20.0, socket: "AM5",
            memory_types: [Ddr5], memory_channels: 2, max_memory_gib: 192.0, pcie_gen: 5,
            pcie_lanes: 24, max_sockets: 1, tjmax_c: 95.0)]"#;
        let (cat, problems) = Catalog::from_sources(&[
            (PartKind::Gpu, "gpu".into(), gpus),
            (PartKind::Cpu, "cpu".into(), cpu.into()),
            (PartKind::Motherboard, "mb".into(), board.into()),
            (PartKind::Memory, "mem".into(), memory.into()),
            (PartKind::Storage, "st".into(), storage.into()),
            (PartKind::Switch, "sw".into(), switch.into()),
            (PartKind::Nic, "nic".into(), nic.into()),
        ]);
        assert!(!problems.iter().any(CatalogProblem::is_error), "{problems:?}");
        cat
    }

    fn id(s: &str) -> PartId {
        PartId::from(s)
    }

    #[test]
    fn targets_refuse_the_wrong_kind_with_a_reason() {
        let cat = catalog();
        assert_eq!(target_accepts(&cat, Target::Node(0), &id("gpu/card")), Ok(()));
        let e = target_accepts(&cat, Target::Node(0), &id("switch/ib")).unwrap_err().render(Lang::En);
        assert!(e.contains("cluster-level"), "{e}");
        assert_eq!(target_accepts(&cat, Target::Cluster, &id("switch/ib")), Ok(()));
        assert_eq!(target_accepts(&cat, Target::Cluster, &id("storage/m2")), Ok(()));
        let e = target_accepts(&cat, Target::Cluster, &id("gpu/card")).unwrap_err().render(Lang::En);
        assert!(e.starts_with("gpu/card is a GPU, which goes in a node"), "{e}");
        let dimm = Target::Slots { node: 0, kind: SlotKind::Dimm };
        assert_eq!(target_accepts(&cat, dimm, &id("memory/ddr5")), Ok(()));
        let e = target_accepts(&cat, dimm, &id("gpu/card")).unwrap_err().render(Lang::En);
        assert_eq!(e, "DIMM slots take memory modules; gpu/card is a PCIe GPU.");
        let e = target_accepts(&cat, Target::Slots { node: 0, kind: SlotKind::Bay35 }, &id("storage/m2"))
            .unwrap_err()
            .render(Lang::En);
        assert_eq!(e, "3.5\" bays take hard disks; M.2 SSD is an NVMe M.2 drive.");
        let pcie = Target::PcieSlot { node: 0, position: 1 };
        assert_eq!(target_accepts(&cat, pcie, &id("nic/cx7")), Ok(()));
        let e = target_accepts(&cat, pcie, &id("gpu/module")).unwrap_err().render(Lang::En);
        assert!(e.contains("SXM5 module"), "{e}");
        assert_eq!(
            target_accepts(&cat, Target::Slots { node: 0, kind: SlotKind::GpuPosition }, &id("gpu/module")),
            Ok(())
        );
        // Unknown ids: a node takes them (the analysis reports them), a slot cannot judge them.
        assert_eq!(target_accepts(&cat, Target::Node(0), &id("gpu/unknown")), Ok(()));
        assert!(target_accepts(&cat, pcie, &id("gpu/unknown")).is_err());
    }

    /// Every refusal the target rules give reads in Chinese too: the slot, cluster and PCIe
    /// rules' sentences and the kind nouns inside them.
    #[test]
    fn refusals_read_in_chinese() {
        let cat = catalog();
        let zh = |target, part: &str| target_accepts(&cat, target, &id(part)).unwrap_err().render(Lang::ZhCn);
        assert_eq!(
            zh(Target::Slots { node: 0, kind: SlotKind::Dimm }, "gpu/card"),
            "内存插槽只能插内存条；gpu/card 是 PCIe GPU。"
        );
        assert_eq!(
            zh(Target::Cluster, "gpu/card"),
            "gpu/card 是一块 GPU，应装在节点中；集群区只放交换机、共享存储和磁盘扩展柜。"
        );
        assert_eq!(zh(Target::Node(0), "switch/ib"), "IB switch 是交换机，属于集群级部件：请把它拖到集群区。");
        assert!(zh(Target::PcieSlot { node: 0, position: 1 }, "gpu/module").contains("SXM5 模组"));
        assert!(zh(Target::PcieSlot { node: 0, position: 1 }, "gpu/unknown").contains("部件目录中没有 `gpu/unknown`"));
    }

    #[test]
    fn every_refusal_template_has_the_same_placeholders_in_both_languages() {
        for t in TEMPLATES.iter().chain(crate::core::build::EDIT_TEMPLATES) {
            let (mut en, mut zh) = (placeholders(t.en), placeholders(t.zh));
            en.sort_unstable();
            zh.sort_unstable();
            assert_eq!(en, zh, "{}", t.en);
        }
    }

    #[test]
    fn check_add_refuses_edit_errors_and_leaves_the_build_alone() {
        let cat = catalog();
        let mut b = Build::new("t");
        b.add_part(Location::Node(0), &id("gpu/card"), MAX_QUANTITY).unwrap();
        let before = b.clone();
        let report = analyze(&cat, &b);
        let v = check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("gpu/card"), 1);
        assert_eq!(
            reasons_in(&v, Lang::En),
            [format!("A quantity must be between 1 and {MAX_QUANTITY}; {} is not.", MAX_QUANTITY + 1)]
        );
        assert_eq!(
            reasons_in(&v, Lang::ZhCn),
            [format!("数量须在 1 到 {MAX_QUANTITY} 之间；{} 不在此范围内。", MAX_QUANTITY + 1)]
        );
        let v = check_add(&cat, &b, &report.diagnostics, Target::Node(3), &id("gpu/card"), 1);
        assert_eq!(reasons_in(&v, Lang::En), ["There is no node 3 in this build."]);
        assert!(check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("memory/ddr5"), 2).is_accept());
        assert_eq!(b, before, "checking never edits the build");
    }

    #[test]
    fn an_incomplete_node_takes_parts_and_a_conflict_is_refused_with_its_reason() {
        let cat = catalog();
        let mut b = Build::new("t");
        // Into an empty node: the node lacks a CPU, a board, memory and a PSU afterwards, and
        // the card has no board to sit on yet; none of that is a conflict.
        let report = analyze(&cat, &b);
        assert!(check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("gpu/card"), 1).is_accept());
        b.add_part(Location::Node(0), &id("motherboard/atx"), 1).unwrap();
        let report = analyze(&cat, &b);
        assert!(check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("memory/ddr5"), 2).is_accept());
        // DDR4 on the DDR5 board: the compatibility rule's own message is the reason.
        let v = check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("memory/ddr4"), 2);
        let reasons = reasons_in(&v, Lang::En);
        assert_eq!(reasons.len(), 1, "{reasons:?}");
        assert!(reasons[0].contains("DDR4") && reasons[0].contains("DDR5"), "{reasons:?}");
        // Three 3-slot cards fill the x16 slots at 1, 4 and 7 (the x4 slot at 5 is covered);
        // a fourth has no slot.
        b.add_part(Location::Node(0), &id("gpu/card"), 3).unwrap();
        let report = analyze(&cat, &b);
        let v = check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("gpu/card"), 1);
        assert!(!v.is_accept(), "a card with no free slot is refused");
        assert!(reasons_in(&v, Lang::En).iter().any(|r| r.contains("cannot be fitted")), "{:?}", v.reasons());
        // The same refusal in Chinese is the finding's Chinese sentence.
        let zh = reasons_in(&v, Lang::ZhCn);
        assert!(zh.iter().all(|r| r.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))), "{zh:?}");
    }

    #[test]
    fn new_errors_is_a_multiset_difference_over_errors_only() {
        use crate::core::analysis::Diagnostic;
        crate::templates! {
            T;
            ONE "a" { en: "one", zh: "一" }
            TWO "b" { en: "two", zh: "二" }
            WARNING "w" { en: "a warning", zh: "警告" }
        }
        let _ = T; // the macro's list of the templates, which this test names one by one
        let e = |code: &str, msg: &'static crate::core::i18n::Template| {
            Diagnostic::new(Severity::Error, code, crate::core::i18n::Text::new(msg))
        };
        let w = Diagnostic::new(Severity::Warning, "w", crate::text!(WARNING));
        let before = vec![e("a", &ONE), w.clone()];
        let after = vec![e("a", &ONE), e("a", &ONE), e("b", &TWO), w.clone(), w];
        let fresh: Vec<&str> = new_errors(&before, &after).iter().map(|d| d.message.as_str()).collect();
        assert_eq!(fresh, ["one", "two"], "the second `one` and `two` are new; warnings never count");
        assert!(new_errors(&after, &before).is_empty());
        let mut in_other_node = e("a", &ONE);
        in_other_node.node = Some(1);
        assert_eq!(new_errors(&before, &[in_other_node]).len(), 1);
    }

    /// The app's report is localized (its messages in Chinese) while a trial's findings are
    /// fresh English: the errors the build already has are still not new.
    #[test]
    fn errors_the_build_has_are_not_new_whatever_the_reports_language() {
        let cat = catalog();
        let mut b = Build::new("t");
        b.add_part(Location::Node(0), &id("motherboard/atx"), 1).unwrap();
        b.add_part(Location::Node(0), &id("memory/ddr4"), 2).unwrap();
        let mut report = analyze(&cat, &b);
        assert!(report.count(Severity::Error) > 0, "DDR4 on a DDR5 board is an error");
        report.localize(crate::core::i18n::Lang::ZhCn);
        let fresh = analyze(&cat, &b);
        assert!(new_errors(&report.diagnostics, &fresh.diagnostics).is_empty());
        assert!(check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("gpu/card"), 1).is_accept());
    }

    #[test]
    fn pcie_slot_adds_and_moves_record_the_slot() {
        let mut b = Build::new("t");
        b.add_node(NodeGroup::new("Node 2")).unwrap();
        let slot4 = Target::PcieSlot { node: 0, position: 4 };
        assert_eq!(add_at(&mut b, slot4, &id("gpu/card"), 1), Ok(0));
        assert_eq!(add_at(&mut b, Target::PcieSlot { node: 0, position: 1 }, &id("gpu/card"), 1), Ok(0));
        assert_eq!(b.nodes[0].parts, vec![PartLine { part: id("gpu/card"), quantity: 2, slots: vec![4, 1] }]);
        assert_eq!(add_at(&mut b, slot4, &id("gpu/card"), 2), Err(EditError::Quantity(2)));
        // An automatically placed line is not merged into: the slot gets its own line.
        b.add_part(Location::Node(1), &id("gpu/card"), 1).unwrap();
        assert_eq!(add_at(&mut b, Target::PcieSlot { node: 1, position: 7 }, &id("gpu/card"), 1), Ok(1));
        // Moving one placed card into node 2's slot 4 takes it off the first line.
        let to = Target::PcieSlot { node: 1, position: 4 };
        assert_eq!(move_to(&mut b, Location::Node(0), 0, to, 1), Ok(1));
        assert_eq!(b.nodes[0].parts[0].quantity, 1);
        assert_eq!(b.nodes[1].parts[1], PartLine { part: id("gpu/card"), quantity: 2, slots: vec![7, 4] });
        let before = b.clone();
        assert!(move_to(&mut b, Location::Node(0), 5, to, 1).is_err());
        assert!(move_to(&mut b, Location::Node(0), 0, to, 2).is_err());
        assert_eq!(b, before, "failed moves change nothing");
    }

    #[test]
    fn slot_groups_count_parts_against_the_platform() {
        let cat = catalog();
        let mut b = Build::new("t");
        for (part, q) in [("motherboard/atx", 1), ("memory/ddr5", 2), ("storage/m2", 1), ("cpu/am5", 1)] {
            b.add_part(Location::Node(0), &id(part), q).unwrap();
        }
        let resolved = Resolved::new(&cat, &b);
        let slots = node_slots(&resolved, 0).unwrap();
        let count = |k: SlotKind| slots.group(k).map(|g| (g.capacity, g.used));
        // The test board: 1 socket, 4 DIMM slots, 2 M.2 slots; no chassis, so bays are unknown.
        assert_eq!(count(SlotKind::CpuSocket), Some((Some(1), 1)));
        assert_eq!(count(SlotKind::Dimm), Some((Some(4), 2)));
        assert_eq!(count(SlotKind::M2), Some((Some(2), 1)));
        assert_eq!(count(SlotKind::Bay25), Some((None, 0)));
        assert_eq!(count(SlotKind::Chassis), Some((Some(1), 0)));
        let dimm = slots.group(SlotKind::Dimm).unwrap();
        assert_eq!(
            dimm.occupants,
            vec![Occupant { line: 1, part: id("memory/ddr5"), name: "DDR5 32GB".into(), units: 2 }]
        );
        assert!(slots.group(SlotKind::GpuPosition).is_none(), "no baseboard, no modules: not shown");
        assert!(slots.group(SlotKind::System).is_none());
        // SXM modules show as baseboard positions, even before a baseboard is added.
        b.add_part(Location::Node(0), &id("gpu/module"), 8).unwrap();
        let resolved = Resolved::new(&cat, &b);
        let slots = node_slots(&resolved, 0).unwrap();
        assert_eq!(slots.group(SlotKind::GpuPosition).map(|g| (g.capacity, g.used)), Some((None, 8)));
        assert!(node_slots(&resolved, 1).is_none());
    }

    #[test]
    fn articles_follow_how_names_are_read() {
        assert_eq!(article("SXM5"), "an");
        assert_eq!(article("NVMe M.2"), "an");
        assert_eq!(article("HDD 3.5\""), "an");
        assert_eq!(article("SATA 2.5\""), "a");
        assert_eq!(article("PCIe"), "a");
        assert_eq!(article("integrated"), "an");
    }
}
