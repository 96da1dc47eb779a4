//! Drop acceptance and the slot layout of a node, for the app's build canvas.
//!
//! Theory of operation. rigplan never re-implements its compatibility rules for drag and drop.
//! Whether a part may go somewhere is decided in two steps:
//! 1. the coarse "what goes where" of the target itself ([`target_accepts`]): a switch belongs
//!    to the cluster section, DIMM slots take memory modules, a PCIe slot takes a card and not
//!    an SXM module;
//! 2. the edit is applied to a *clone* of the build and the full analysis runs on it: the drop
//!    is refused exactly when it introduces an error-severity finding the build did not already
//!    have, and the refusal carries those findings' messages ([`check_add`], [`check_move`],
//!    and [`check_quantity`] for more units of a line, so that the + button and a typed
//!    quantity cannot put in what a drop would be refused). An
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
use texts::{
    INTEGRATED_GPU, IS_A_DRIVE, IS_A_GPU, IS_AN_DRIVE, IS_AN_GPU, IS_KIND, KIND_BOARD, KIND_CHASSIS, KIND_COOLER,
    KIND_CPU, KIND_GPU, KIND_MEMORY, KIND_NIC, KIND_PSU, KIND_STORAGE, KIND_SWITCH, KIND_SYSTEM, MODULE_NOT_IN_PCIE,
    NOT_FOR_CLUSTER, NOT_IN_CATALOG, PCIE_TAKES, SLOT_REFUSAL, SWITCH_ON_NODE, TAKES_BAY25, TAKES_BAY35, TAKES_BOARD,
    TAKES_CHASSIS, TAKES_COOLER, TAKES_CPU, TAKES_DIMM, TAKES_GPU_MODULE, TAKES_M2, TAKES_PSU, TAKES_SYSTEM,
};

mod texts;

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

/// What an edit that puts `part` on `target` would do: refused when the target does not take
/// the part or the edit fails on a clone of the build, else the errors the edited clone adds.
fn trial_edit(
    catalog: &Catalog,
    build: &Build,
    before: &[Diagnostic],
    target: Target,
    part: &PartId,
    edit: impl FnOnce(&mut Build) -> Result<usize, EditError>,
) -> Trial {
    if let Err(reason) = target_accepts(catalog, target, part) {
        return Trial::Refused(vec![reason]);
    }
    let mut trial = build.clone();
    if let Err(e) = edit(&mut trial) {
        return Trial::Refused(vec![e.text()]);
    }
    added_errors(catalog, before, &trial)
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
    trial_edit(catalog, build, before, target, part, |b| add_at(b, target, part, quantity))
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
    trial_edit(catalog, build, before, target, &src.part, |b| move_to(b, from, line, target, quantity))
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

/// What setting line `line` at `at` to `quantity` units would do ([`check_quantity`] as a
/// [`Trial`]).
#[must_use]
pub fn trial_quantity(
    catalog: &Catalog,
    build: &Build,
    before: &[Diagnostic],
    at: Location,
    line: usize,
    quantity: u32,
) -> Trial {
    let Some(current) = build.lines(at).and_then(|l| l.get(line)) else {
        return Trial::Refused(vec![EditError::NoSuchLine { location: at.to_string(), line }.text()]);
    };
    let mut trial = build.clone();
    if let Err(e) = trial.set_quantity(at, line, quantity) {
        return Trial::Refused(vec![e.text()]);
    }
    if quantity <= current.quantity {
        // Fewer units is a removal, which is never refused (as dragging a line to the palette).
        return Trial::Adds(Vec::new());
    }
    let target = match at {
        Location::Node(node) => Target::Node(node),
        Location::Cluster => Target::Cluster,
    };
    if let Err(reason) = target_accepts(catalog, target, &current.part) {
        return Trial::Refused(vec![reason]);
    }
    added_errors(catalog, before, &trial)
}

/// May line `line` at `at` hold `quantity` units (the canvas's + button, a typed quantity)?
/// More units are more of the part going into the build, so they pass the same acceptance
/// check as a drop ([`check_add`]): refused when the edit fails or adds an error (a ninth
/// H100 on an eight-GPU baseboard). Fewer units are always accepted.
#[must_use]
pub fn check_quantity(
    catalog: &Catalog,
    build: &Build,
    before: &[Diagnostic],
    at: Location,
    line: usize,
    quantity: u32,
) -> Verdict {
    trial_quantity(catalog, build, before, at, line, quantity).verdict()
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
mod tests;
