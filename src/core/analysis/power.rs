//! Power draw: per part, per node and for the whole build; PSU sizing and the circuit check.
//!
//! Theory of operation. Every part gets three sustained figures, idle, typical and max, plus a
//! transient peak:
//! - GPUs, CPUs, drives and complete systems have idle and max figures in the catalog; their
//!   typical draw is the usual first model `idle + utilization × (max − idle)` with the build's
//!   `usage.utilization` (domain notes §2). A CPU's max is its Intel Maximum Turbo Power / AMD
//!   PPT where the catalog has one, else its TDP.
//! - Boards, DIMMs, fans, coolers and NICs draw a constant: the catalog's typical figure (or the
//!   named board estimates below). They are small and vary little with load; modelling their
//!   idle states would add precision nobody can check.
//! - A GPU's transient peak follows PCIe CEM 5.x as the ATX 3 design guide describes it: cards
//!   on the 16-pin 12VHPWR / 12V-2x6 connector may draw up to 3× their sustained power for
//!   100 µs ([`CEM5_EXCURSION_FACTOR`]). Cards on 6/8-pin connectors and SXM/OAM modules have
//!   no such allowance; a catalog `transient_peak_watts` overrides both.
//!
//! DC load on a node's PSUs becomes wall draw through the PSU's efficiency at that load point,
//! interpolated in the 80 PLUS table of the site's voltage ([`efficiency_at`]). Complete systems
//! (DGX, Jetson) and switches are datasheet figures measured at the input, so they add to the
//! wall draw as they are, and their own PSUs are not modelled twice; GPUs inside a system are
//! never counted on their own.
//!
//! PSU sizing shows each margin separately, all as visible fractions of the DC max load, added
//! rather than multiplied ([`PowerSettings`]): sustained headroom, ageing allowance, and the
//! extra, if any, needed for the transient peak to stay within the PSU's excursion rating.

use crate::core::analysis::compat::{NodeRole, node_role};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::build::{Location, Redundancy};
use crate::core::catalog::{
    BoardRole, Chassis, EfficiencyTier, Gpu, GpuFormFactor, Motherboard, PartId, PartKind, PowerConnector, Psu,
};
use crate::core::resolve::{Node, Parts, Resolved};
use serde::Serialize;

/// Sustained headroom over the DC max load in public PSU calculators: 20–30 % (domain notes §2);
/// rigplan's default is the low end.
pub const DEFAULT_SUSTAINED_HEADROOM_FRACTION: f64 = 0.20;
/// Capacitor ageing allowance: OuterVision's PSU calculator offers 10–30 % (domain notes §2);
/// rigplan's default is the low end.
pub const DEFAULT_AGEING_FRACTION: f64 = 0.10;
/// PCIe CEM 5.x power excursion of an add-in card on the 12VHPWR / 12V-2x6 connector: steps
/// from 100 % to 300 % of sustained power (Intel ATX Version 3 Multi Rail Desktop Platform PSU
/// Design Guide, doc 336521 rev 2.1a, Table 4-3, "+12V3/4 … steps from 100 % to 300 %"), for
/// up to 100 µs.
pub const CEM5_EXCURSION_FACTOR: f64 = 3.0;
/// Peak power an ATX 3.x PSU above 450 W with a 12VHPWR connector must deliver for 100 µs, as a
/// multiple of its rating (ATX 3 design guide, doc 336521, Table 3-3: 200 % / 100 µs, 180 % /
/// 1 ms, 160 % / 10 ms, 120 % / 100 ms). The 100 µs row pairs with the card's 100 µs excursion.
pub const ATX3_EXCURSION_TOLERANCE_100US: f64 = 2.0;
/// Peak multiple an ATX 3.x PSU of 450 W or less, or one without a 12VHPWR connector, must
/// deliver for 100 µs (ATX 3 design guide, Table 3-3: 150 %).
pub const ATX3_SMALL_EXCURSION_TOLERANCE_100US: f64 = 1.5;
/// Rated output of the largest PSU that must meet the 200 % row rather than 150 % (Table 3-3).
pub const ATX3_SMALL_PSU_LIMIT_WATTS: f64 = 450.0;
pub use crate::core::build::CONTINUOUS_LOAD_FRACTION;
/// Lowest line voltage at which rigplan uses the 230 V 80 PLUS table and a server PSU's
/// high-line rating; 100–127 V mains use the 115 V table and low-line rating.
pub const HIGH_LINE_MIN_VOLTS: f64 = 200.0;
/// A single-socket desktop or workstation board (chipset, VRM losses, USB, audio, fans
/// headers): estimate. PSU guides put a desktop board at 25–40 W (hackingnote.com, "Power
/// Supply", motherboard 25–40 W); rigplan takes 30 W. Unverified against a measurement; used
/// only where the catalog board has no `typical_watts`.
pub const DESKTOP_BOARD_WATTS: f64 = 30.0;
/// A dual-socket server board with its BMC: estimate, twice the desktop figure for a second
/// socket's VRMs and the always-on BMC. Unverified; used only where the catalog board has no
/// `typical_watts`.
pub const SERVER_BOARD_WATTS: f64 = 60.0;
/// Standard ATX PSU ratings on sale, W; recommendations are rounded up to one of these.
/// Above the last one, rigplan rounds up to the next 100 W (server supplies, or more than one).
pub const STANDARD_PSU_SIZES_WATTS: [f64; 12] =
    [450.0, 550.0, 650.0, 750.0, 850.0, 1000.0, 1200.0, 1300.0, 1500.0, 1600.0, 2000.0, 2200.0];
/// Efficiency tier assumed where a node has no PSU of its own (so a wall figure still exists):
/// an 80 PLUS Gold unit at its 50 % load point.
pub const ASSUMED_TIER: EfficiencyTier = EfficiencyTier::Gold;

/// The visible, editable PSU sizing margins.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PowerSettings {
    /// Sustained headroom over the DC max load, fraction.
    pub sustained_headroom_fraction: f64,
    /// Ageing allowance over the DC max load, fraction.
    pub ageing_fraction: f64,
}

impl Default for PowerSettings {
    fn default() -> Self {
        Self {
            sustained_headroom_fraction: DEFAULT_SUSTAINED_HEADROOM_FRACTION,
            ageing_fraction: DEFAULT_AGEING_FRACTION,
        }
    }
}

/// Power figures of one build line (all units of the line in one node).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartPower {
    pub part: PartId,
    pub name: String,
    pub kind: PartKind,
    /// Index of the build line (for GPUs inside a system, the system's line).
    pub line: usize,
    /// Units per node.
    pub quantity: u32,
    pub idle_watts: f64,
    pub typical_watts: f64,
    pub max_watts: f64,
    pub peak_transient_watts: f64,
    /// True for datasheet input power (complete systems, switches): added to the wall draw as
    /// is; false for DC load on the node's PSUs.
    pub at_wall: bool,
    /// How the figures were obtained, in a sentence.
    pub basis: String,
}

/// Idle, typical and max of something.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Levels {
    pub idle_watts: f64,
    pub typical_watts: f64,
    pub max_watts: f64,
}

impl Levels {
    fn add(&mut self, other: Self) {
        self.idle_watts += other.idle_watts;
        self.typical_watts += other.typical_watts;
        self.max_watts += other.max_watts;
    }

    fn scaled(self, k: f64) -> Self {
        Self { idle_watts: self.idle_watts * k, typical_watts: self.typical_watts * k, max_watts: self.max_watts * k }
    }
}

/// The PSUs of a node as the power analysis sees them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PsuSummary {
    /// Installed units (including those fitted in the chassis and redundant spares).
    pub installed_units: u32,
    /// Units that carry load under the node's redundancy scheme.
    pub active_units: u32,
    pub redundancy: Redundancy,
    /// Sum of all installed units' ratings at the site voltage, W (they share the load).
    pub installed_watts: f64,
    /// Capacity that counts: the smallest `active_units` units' ratings at the site voltage, W.
    pub capacity_watts: f64,
    /// Lowest 80 PLUS tier among the units (None for a complete system's own supplies).
    pub tier: Option<EfficiencyTier>,
    /// True when every unit is ATX 3.x.
    pub atx3: bool,
    /// Peak (100 µs) the units are specified to deliver, as a multiple of capacity.
    pub excursion_tolerance: f64,
    /// Where the figures come from (build lines, the chassis, a system's datasheet).
    pub source: String,
}

/// The PSU size a node needs, with every margin shown.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PsuRecommendation {
    /// DC max sustained load the PSUs carry, W.
    pub max_dc_watts: f64,
    pub sustained_headroom_fraction: f64,
    pub sustained_headroom_watts: f64,
    pub ageing_fraction: f64,
    pub ageing_watts: f64,
    /// DC transient peak (100 µs), W.
    pub peak_transient_watts: f64,
    /// The 100 µs excursion multiple assumed for a recommended unit (an ATX 3.x PSU when the
    /// node has 16-pin GPUs).
    pub excursion_tolerance: f64,
    /// Smallest rating whose excursion limit covers the transient peak, W.
    pub transient_required_watts: f64,
    /// What the transient adds beyond max + headroom + ageing (0 when it does not), W.
    pub transient_margin_watts: f64,
    /// max + headroom + ageing + transient margin, W.
    pub required_watts: f64,
    /// `required_watts` rounded up to a rating on sale, W.
    pub recommended_watts: f64,
}

/// A node's wall draw against one site circuit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CircuitCheck {
    pub volts: f64,
    pub amps: f64,
    pub phases: u8,
    /// Nominal capacity × 0.8 (V × A for one phase, √3 × V × A for three), W.
    pub continuous_limit_watts: f64,
    /// Wall draw at max sustained load, W.
    pub wall_watts: f64,
    /// Circuits of this rating the draw needs.
    pub circuits_needed: u64,
    /// Power inputs (PSU cords) the node has to spread its draw over.
    pub power_inputs: u32,
}

/// Power of one node group (figures per node unless named `_total`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodePower {
    pub node: usize,
    pub name: String,
    pub count: u32,
    pub role: NodeRole,
    pub parts: Vec<PartPower>,
    /// DC load (complete systems and switches at their datasheet input figures), W.
    pub idle_watts: f64,
    pub typical_watts: f64,
    pub max_watts: f64,
    /// DC transient peak (100 µs), W.
    pub peak_transient_watts: f64,
    /// Part of the load fed by the node's own PSUs (the rest is at-wall datasheet power).
    pub psu_fed: Levels,
    pub psu: Option<PsuSummary>,
    /// Max sustained load over the PSU capacity that counts (None without PSUs).
    pub psu_load_fraction: Option<f64>,
    /// PSU efficiency at the idle, typical and max load points.
    pub efficiency_idle: f64,
    pub efficiency_typical: f64,
    pub efficiency_max: f64,
    pub wall_idle_watts: f64,
    pub wall_typical_watts: f64,
    /// Wall draw at max sustained load, W.
    pub wall_watts: f64,
    pub recommendation: Option<PsuRecommendation>,
    /// Recommended PSU rating (rounded to a size on sale), W; None for complete systems, which
    /// ship with their own supplies.
    pub recommended_psu_watts: Option<f64>,
    pub circuit: CircuitCheck,
}

/// kW of one node group in the rack view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RackRow {
    pub name: String,
    pub count: u32,
    pub kw_per_node: f64,
    pub kw_total: f64,
}

/// Rack view: wall kW at max sustained load.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RackView {
    pub rows: Vec<RackRow>,
    pub cluster_kw: f64,
    pub total_kw: f64,
    /// Circuits of the site's rating the whole build needs at max draw.
    pub circuits_needed: u64,
}

/// The power section of the report (whole-build figures include node counts).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PowerReport {
    pub settings: PowerSettings,
    pub utilization: f64,
    pub site_volts: f64,
    /// "115 V" or "230 V": which 80 PLUS table applies.
    pub efficiency_table: String,
    pub nodes: Vec<NodePower>,
    /// Cluster-level parts (switches, enclosures).
    pub cluster: Vec<PartPower>,
    pub cluster_wall: Levels,
    pub idle_watts: f64,
    pub typical_watts: f64,
    pub max_watts: f64,
    /// Sum of per-node transient peaks (spikes of different nodes rarely coincide).
    pub peak_transient_watts: f64,
    pub wall_idle_watts: f64,
    pub wall_typical_watts: f64,
    pub wall_watts: f64,
    /// PSU-fed max load over PSU capacity, summed over nodes that have PSUs.
    pub psu_load_fraction: Option<f64>,
    /// Sum of the nodes' recommended PSU ratings × node counts, W.
    pub recommended_psu_watts: f64,
    pub rack: RackView,
    /// The model's assumptions, in sentences (shown in the report).
    pub assumptions: Vec<String>,
}

/// 80 PLUS minimum efficiency points (load fraction, efficiency) for 115 V internal
/// non-redundant supplies: 20/50/100 % load; Titanium also 10 %. Bronze 82/85/82, Silver
/// 85/88/85, Gold 87/90/87, Platinum 90/92/89, Titanium 90/92/94/90 (CLEAResult 80 PLUS
/// program requirements, as in domain notes §2); 80 PLUS (standard) 80/80/80.
fn points_115v(tier: EfficiencyTier) -> &'static [(f64, f64)] {
    match tier {
        EfficiencyTier::Standard => &[(0.2, 0.80), (0.5, 0.80), (1.0, 0.80)],
        EfficiencyTier::Bronze => &[(0.2, 0.82), (0.5, 0.85), (1.0, 0.82)],
        EfficiencyTier::Silver => &[(0.2, 0.85), (0.5, 0.88), (1.0, 0.85)],
        EfficiencyTier::Gold => &[(0.2, 0.87), (0.5, 0.90), (1.0, 0.87)],
        EfficiencyTier::Platinum => &[(0.2, 0.90), (0.5, 0.92), (1.0, 0.89)],
        EfficiencyTier::Titanium => &[(0.1, 0.90), (0.2, 0.92), (0.5, 0.94), (1.0, 0.90)],
    }
}

/// 80 PLUS minimum efficiency points for 230 V EU internal supplies: Bronze 85/88/85, Silver
/// 87/90/87, Gold 90/92/89, Platinum 92/94/90, Titanium 90/94/96/94 (10/20/50/100 %; CLEAResult
/// 80 PLUS program, as in domain notes §2); 80 PLUS (standard) 82/85/82.
fn points_230v(tier: EfficiencyTier) -> &'static [(f64, f64)] {
    match tier {
        EfficiencyTier::Standard => &[(0.2, 0.82), (0.5, 0.85), (1.0, 0.82)],
        EfficiencyTier::Bronze => &[(0.2, 0.85), (0.5, 0.88), (1.0, 0.85)],
        EfficiencyTier::Silver => &[(0.2, 0.87), (0.5, 0.90), (1.0, 0.87)],
        EfficiencyTier::Gold => &[(0.2, 0.90), (0.5, 0.92), (1.0, 0.89)],
        EfficiencyTier::Platinum => &[(0.2, 0.92), (0.5, 0.94), (1.0, 0.90)],
        EfficiencyTier::Titanium => &[(0.1, 0.90), (0.2, 0.94), (0.5, 0.96), (1.0, 0.94)],
    }
}

/// True when the site voltage selects the 230 V table and high-line PSU ratings.
#[must_use]
pub fn is_high_line(volts: f64) -> bool {
    volts >= HIGH_LINE_MIN_VOLTS
}

/// PSU efficiency at a load fraction: linear interpolation between the 80 PLUS points of the
/// tier and voltage. Below the lowest certified point rigplan holds that point's efficiency and
/// above full load the 100 % point: 80 PLUS sets no requirement there, and real units fall off
/// at very light load, so idle wall draw is a lower bound.
#[must_use]
pub fn efficiency_at(tier: EfficiencyTier, high_line: bool, load_fraction: f64) -> f64 {
    let points = if high_line { points_230v(tier) } else { points_115v(tier) };
    let load = if load_fraction.is_finite() { load_fraction.max(0.0) } else { 0.0 };
    let (Some(&(first_load, first_eff)), Some(&(_, last_eff))) = (points.first(), points.last()) else {
        return 1.0;
    };
    if load <= first_load {
        return first_eff;
    }
    for pair in points.windows(2) {
        if let [(l0, e0), (l1, e1)] = pair
            && load <= *l1
        {
            return e0 + (e1 - e0) * (load - l0) / (l1 - l0);
        }
    }
    last_eff
}

/// Rounds a required rating up to a PSU size on sale.
#[must_use]
pub fn round_up_psu_size(required_watts: f64) -> f64 {
    if !required_watts.is_finite() || required_watts <= 0.0 {
        return 0.0;
    }
    STANDARD_PSU_SIZES_WATTS
        .iter()
        .copied()
        .find(|&s| s >= required_watts)
        .unwrap_or_else(|| (required_watts / 100.0).ceil() * 100.0)
}

/// The transient peak of one GPU (100 µs), W, and how it was obtained.
#[must_use]
pub fn gpu_transient_watts(gpu: &Gpu) -> (f64, &'static str) {
    if let Some(peak) = gpu.transient_peak_watts {
        return (peak, "catalog transient peak");
    }
    let on_16_pin = gpu.power_connectors.iter().any(|c| c.connector == PowerConnector::Hpwr16Pin);
    if gpu.form_factor == GpuFormFactor::Pcie && on_16_pin {
        (gpu.tdp_watts * CEM5_EXCURSION_FACTOR, "PCIe CEM 5 excursion: 3 × board power for 100 µs")
    } else {
        (gpu.tdp_watts, "no CEM 5 excursion allowance (not a 16-pin card): board power")
    }
}

fn typical(idle: f64, max: f64, utilization: f64) -> f64 {
    idle + utilization * (max - idle)
}

fn mainboard_watts(board: &Motherboard) -> (f64, String) {
    match board.typical_watts {
        Some(w) => (w, "catalog typical board power".to_owned()),
        None if board.role == BoardRole::GpuBaseboard => {
            (0.0, "no published baseboard power; the GPU modules' TDPs cover the modules".to_owned())
        }
        None if board.cpu_sockets >= 2 => {
            (SERVER_BOARD_WATTS, format!("estimate {SERVER_BOARD_WATTS} W (server board)"))
        }
        None => (DESKTOP_BOARD_WATTS, format!("estimate {DESKTOP_BOARD_WATTS} W (desktop board)")),
    }
}

/// Per-line power of a node or the cluster section.
fn part_powers(parts: &Parts<'_>, utilization: f64) -> Vec<PartPower> {
    let mut out = Vec::new();
    let mut push = |id: &PartId, name: &str, kind, line, quantity: u32, per_unit: [f64; 4], at_wall, basis: String| {
        let q = f64::from(quantity);
        out.push(PartPower {
            part: id.clone(),
            name: name.to_owned(),
            kind,
            line,
            quantity,
            idle_watts: per_unit[0] * q,
            typical_watts: per_unit[1] * q,
            max_watts: per_unit[2] * q,
            peak_transient_watts: per_unit[3] * q,
            at_wall,
            basis,
        });
    };
    for s in &parts.systems {
        let p = s.part;
        let t = typical(p.idle_watts, p.max_watts, utilization);
        let basis = "system datasheet idle and max power (input); its GPUs are not counted again".to_owned();
        push(
            &p.id,
            &p.name,
            PartKind::System,
            s.line,
            s.quantity,
            [p.idle_watts, t, p.max_watts, p.max_watts],
            true,
            basis,
        );
    }
    for g in parts.gpus.iter().filter(|g| g.in_system.is_none()) {
        let p = g.part;
        let (peak, how) = gpu_transient_watts(p);
        let t = typical(p.idle_watts, p.tdp_watts, utilization);
        let basis = format!("catalog idle and board power; transient: {how}");
        push(&p.id, &p.name, PartKind::Gpu, g.line, g.quantity, [p.idle_watts, t, p.tdp_watts, peak], false, basis);
    }
    for c in &parts.cpus {
        let p = c.part;
        let max = p.max_power_watts.unwrap_or(p.tdp_watts);
        let t = typical(p.idle_watts, max, utilization);
        let basis = if p.max_power_watts.is_some() {
            "catalog idle; max = maximum turbo power / PPT".to_owned()
        } else {
            "catalog idle; max = TDP".to_owned()
        };
        push(&p.id, &p.name, PartKind::Cpu, c.line, c.quantity, [p.idle_watts, t, max, max], false, basis);
    }
    for b in &parts.boards {
        let (w, basis) = mainboard_watts(b.part);
        push(&b.part.id, &b.part.name, PartKind::Motherboard, b.line, b.quantity, [w, w, w, w], false, basis);
    }
    for m in &parts.memory {
        let w = m.part.typical_watts;
        let basis = "catalog typical per module, held constant".to_owned();
        push(&m.part.id, &m.part.name, PartKind::Memory, m.line, m.quantity, [w, w, w, w], false, basis);
    }
    for s in &parts.storage {
        let p = s.part;
        let t = typical(p.idle_watts, p.active_watts, utilization);
        let basis = "catalog idle and active power".to_owned();
        push(
            &p.id,
            &p.name,
            PartKind::Storage,
            s.line,
            s.quantity,
            [p.idle_watts, t, p.active_watts, p.active_watts],
            false,
            basis,
        );
    }
    for c in &parts.coolers {
        let w = c.part.typical_watts;
        let basis = "catalog fan and pump power, held constant".to_owned();
        push(&c.part.id, &c.part.name, PartKind::Cooler, c.line, c.quantity, [w, w, w, w], false, basis);
    }
    for c in &parts.chassis {
        let w = c.part.fan_watts;
        let basis = "catalog fan power at typical duty, held constant".to_owned();
        push(&c.part.id, &c.part.name, PartKind::Chassis, c.line, c.quantity, [w, w, w, w], false, basis);
    }
    for n in &parts.nics {
        let w = n.part.max_watts;
        let basis = "catalog max power, held constant".to_owned();
        push(&n.part.id, &n.part.name, PartKind::Nic, n.line, n.quantity, [w, w, w, w], false, basis);
    }
    for s in &parts.switches {
        let p = s.part;
        let basis = "datasheet typical and max power (input); idle taken as typical".to_owned();
        push(
            &p.id,
            &p.name,
            PartKind::Switch,
            s.line,
            s.quantity,
            [p.typical_watts, p.typical_watts, p.max_watts, p.max_watts],
            true,
            basis,
        );
    }
    out
}

/// A unit's rating at the site voltage; a `low_line_watts` of 0 marks a high-line-only module,
/// which delivers nothing on a 100–127 V feed.
fn psu_capacity_at(psu: &Psu, high_line: bool) -> f64 {
    if high_line { psu.rated_watts } else { psu.low_line_watts.unwrap_or(psu.rated_watts).max(0.0) }
}

fn is_atx3(psu: &Psu) -> bool {
    psu.atx_version.as_deref().is_some_and(|v| v.trim_start().starts_with('3'))
}

/// The 100 µs excursion multiple a PSU is specified for: ATX 3.x per Table 3-3 of the ATX 3
/// design guide; 1.0 for older and server units (no excursion specification).
#[must_use]
pub fn excursion_tolerance(psu: &Psu) -> f64 {
    if !is_atx3(psu) {
        return 1.0;
    }
    let has_16_pin = psu.connectors.iter().any(|c| c.connector == PowerConnector::Hpwr16Pin && c.count > 0);
    if psu.rated_watts > ATX3_SMALL_PSU_LIMIT_WATTS && has_16_pin {
        ATX3_EXCURSION_TOLERANCE_100US
    } else {
        ATX3_SMALL_EXCURSION_TOLERANCE_100US
    }
}

fn psu_summary(node: &Node<'_>, high_line: bool) -> Option<PsuSummary> {
    let parts = &node.parts;
    let mut units: Vec<(&Psu, Option<&Chassis>)> = Vec::new();
    for item in &parts.psus {
        for _ in 0..item.quantity.min(crate::core::build::MAX_QUANTITY) {
            units.push((item.part, item.included_with));
        }
    }
    if units.is_empty() {
        // A complete system's own supplies.
        let sys = parts.systems.first()?;
        let s = sys.part;
        if s.psu_count == 0 || s.psu_rated_watts <= 0.0 {
            return None;
        }
        let installed = u32::from(s.psu_count) * sys.quantity;
        let active = u32::from(s.psu_count.saturating_sub(s.psu_redundant)) * sys.quantity;
        return Some(PsuSummary {
            installed_units: installed,
            active_units: active,
            redundancy: node.redundancy,
            installed_watts: f64::from(installed) * s.psu_rated_watts,
            capacity_watts: f64::from(active) * s.psu_rated_watts,
            tier: None,
            atx3: false,
            excursion_tolerance: 1.0,
            source: format!(
                "{} datasheet: {} × {} W, {} redundant",
                s.name, s.psu_count, s.psu_rated_watts, s.psu_redundant
            ),
        });
    }
    let installed = u32::try_from(units.len()).unwrap_or(u32::MAX);
    let active = node.redundancy.active_units(installed);
    let mut capacities: Vec<f64> = units.iter().map(|(p, _)| psu_capacity_at(p, high_line)).collect();
    capacities.sort_by(f64::total_cmp);
    let capacity: f64 = capacities.iter().take(active as usize).sum();
    let installed_watts: f64 = capacities.iter().sum();
    let tier = units.iter().map(|(p, _)| p.efficiency).min();
    let atx3 = units.iter().all(|(p, _)| is_atx3(p));
    let tolerance = units.iter().map(|(p, _)| excursion_tolerance(p)).fold(f64::INFINITY, f64::min);
    let in_chassis = units.iter().filter(|(_, c)| c.is_some()).count();
    let source = if in_chassis > 0 {
        format!("{installed} unit(s), {in_chassis} fitted in the chassis")
    } else {
        format!("{installed} unit(s) on the build's lines")
    };
    Some(PsuSummary {
        installed_units: installed,
        active_units: active,
        redundancy: node.redundancy,
        installed_watts,
        capacity_watts: capacity,
        tier,
        atx3,
        excursion_tolerance: if tolerance.is_finite() { tolerance } else { 1.0 },
        source,
    })
}

/// Sizes the PSU for a DC max load and transient peak, with each margin visible.
#[must_use]
pub fn recommend(max_dc_watts: f64, peak_transient_watts: f64, settings: &PowerSettings) -> PsuRecommendation {
    let sustained_headroom_watts = max_dc_watts * settings.sustained_headroom_fraction;
    let ageing_watts = max_dc_watts * settings.ageing_fraction;
    let sustained = max_dc_watts + sustained_headroom_watts + ageing_watts;
    // A recommended unit is ATX 3.x: only those carry an excursion rating.
    let excursion_tolerance = ATX3_EXCURSION_TOLERANCE_100US;
    let transient_required_watts = peak_transient_watts / excursion_tolerance;
    let transient_margin_watts = (transient_required_watts - sustained).max(0.0);
    let required_watts = sustained + transient_margin_watts;
    PsuRecommendation {
        max_dc_watts,
        sustained_headroom_fraction: settings.sustained_headroom_fraction,
        sustained_headroom_watts,
        ageing_fraction: settings.ageing_fraction,
        ageing_watts,
        peak_transient_watts,
        excursion_tolerance,
        transient_required_watts,
        transient_margin_watts,
        required_watts,
        recommended_watts: round_up_psu_size(required_watts),
    }
}

fn power_inputs(node: &Node<'_>) -> u32 {
    let psus = node.parts.psu_count();
    if psus > 0 {
        return psus;
    }
    node.parts.systems.iter().map(|s| u32::from(s.part.psu_count).saturating_mul(s.quantity)).sum::<u32>().max(1)
}

fn node_power(node: &Node<'_>, resolved: &Resolved<'_>, settings: &PowerSettings, utilization: f64) -> NodePower {
    let site = &resolved.build.site;
    let high_line = is_high_line(site.psu_input_volts());
    let parts = part_powers(&node.parts, utilization);
    let mut psu_fed = Levels::default();
    let mut at_wall = Levels::default();
    let mut peak_transient = 0.0;
    for p in &parts {
        let l = Levels { idle_watts: p.idle_watts, typical_watts: p.typical_watts, max_watts: p.max_watts };
        if p.at_wall {
            at_wall.add(l);
        } else {
            psu_fed.add(l);
        }
        peak_transient += p.peak_transient_watts;
    }
    let psu = psu_summary(node, high_line);
    let own_psus = node.parts.psu_count() > 0;
    let (eff_idle, eff_typical, eff_max) = match (&psu, own_psus) {
        (Some(s), true) if s.installed_watts > 0.0 => {
            let tier = s.tier.unwrap_or(ASSUMED_TIER);
            let at = |w: f64| efficiency_at(tier, high_line, w / s.installed_watts);
            (at(psu_fed.idle_watts), at(psu_fed.typical_watts), at(psu_fed.max_watts))
        }
        _ => {
            let e = efficiency_at(ASSUMED_TIER, high_line, 0.5);
            (e, e, e)
        }
    };
    let wall = |dc: f64, eff: f64, direct: f64| if eff > 0.0 { dc / eff + direct } else { dc + direct };
    let wall_idle = wall(psu_fed.idle_watts, eff_idle, at_wall.idle_watts);
    let wall_typical = wall(psu_fed.typical_watts, eff_typical, at_wall.typical_watts);
    let wall_max = wall(psu_fed.max_watts, eff_max, at_wall.max_watts);
    let psu_load_fraction = psu.as_ref().filter(|s| s.capacity_watts > 0.0).map(|s| {
        let load = if own_psus { psu_fed.max_watts } else { psu_fed.max_watts + at_wall.max_watts };
        load / s.capacity_watts
    });
    let role = node_role(&node.parts);
    let recommendation = (node.parts.systems.is_empty() && psu_fed.max_watts > 0.0 && role != NodeRole::Infrastructure)
        .then(|| recommend(psu_fed.max_watts, peak_transient - at_wall.max_watts, settings));
    let limit = site.circuit_continuous_watts();
    let circuits_needed =
        if limit > 0.0 { crate::core::units::round_non_negative((wall_max / limit).ceil()) } else { 0 };
    NodePower {
        node: node.index,
        name: node.name.to_owned(),
        count: node.count,
        role,
        idle_watts: psu_fed.idle_watts + at_wall.idle_watts,
        typical_watts: psu_fed.typical_watts + at_wall.typical_watts,
        max_watts: psu_fed.max_watts + at_wall.max_watts,
        peak_transient_watts: peak_transient,
        parts,
        psu_fed,
        psu,
        psu_load_fraction,
        efficiency_idle: eff_idle,
        efficiency_typical: eff_typical,
        efficiency_max: eff_max,
        wall_idle_watts: wall_idle,
        wall_typical_watts: wall_typical,
        wall_watts: wall_max,
        recommended_psu_watts: recommendation.as_ref().map(|r| r.recommended_watts),
        recommendation,
        circuit: CircuitCheck {
            volts: site.circuit_volts,
            amps: site.circuit_amps,
            phases: site.circuit_phases,
            continuous_limit_watts: limit,
            wall_watts: wall_max,
            circuits_needed,
            power_inputs: power_inputs(node),
        },
    }
}

/// Computes the power section with the default margins.
#[must_use]
pub fn analyze(resolved: &Resolved<'_>) -> (PowerReport, Vec<Diagnostic>) {
    analyze_with(resolved, &PowerSettings::default())
}

/// Computes the power section with the given margins.
#[must_use]
pub fn analyze_with(resolved: &Resolved<'_>, settings: &PowerSettings) -> (PowerReport, Vec<Diagnostic>) {
    let build = resolved.build;
    let utilization = if build.usage.utilization.is_finite() { build.usage.utilization.clamp(0.0, 1.0) } else { 0.0 };
    let high_line = is_high_line(build.site.psu_input_volts());
    let nodes: Vec<NodePower> = resolved.nodes.iter().map(|n| node_power(n, resolved, settings, utilization)).collect();
    let cluster = part_powers(&resolved.cluster, utilization);
    let assumed_eff = efficiency_at(ASSUMED_TIER, high_line, 0.5);
    let mut cluster_wall = Levels::default();
    let mut cluster_dc = Levels::default();
    for p in &cluster {
        let l = Levels { idle_watts: p.idle_watts, typical_watts: p.typical_watts, max_watts: p.max_watts };
        cluster_dc.add(l);
        cluster_wall.add(if p.at_wall { l } else { l.scaled(1.0 / assumed_eff) });
    }
    let mut dc = cluster_dc;
    let mut wall = cluster_wall;
    let mut peak_transient = cluster_dc.max_watts;
    let mut fed_max = 0.0;
    let mut capacity = 0.0;
    let mut recommended = 0.0;
    let mut rows = Vec::new();
    for n in &nodes {
        let k = f64::from(n.count);
        dc.add(Levels { idle_watts: n.idle_watts, typical_watts: n.typical_watts, max_watts: n.max_watts }.scaled(k));
        wall.add(
            Levels { idle_watts: n.wall_idle_watts, typical_watts: n.wall_typical_watts, max_watts: n.wall_watts }
                .scaled(k),
        );
        peak_transient += n.peak_transient_watts * k;
        if let Some(psu) = &n.psu
            && psu.capacity_watts > 0.0
        {
            let own = n.parts.iter().all(|p| p.kind != PartKind::System);
            fed_max += k * if own { n.psu_fed.max_watts } else { n.max_watts };
            capacity += k * psu.capacity_watts;
        }
        recommended += k * n.recommended_psu_watts.unwrap_or(0.0);
        rows.push(RackRow {
            name: n.name.clone(),
            count: n.count,
            kw_per_node: n.wall_watts / 1000.0,
            kw_total: n.wall_watts * k / 1000.0,
        });
    }
    let limit = build.site.circuit_continuous_watts();
    let rack = RackView {
        rows,
        cluster_kw: cluster_wall.max_watts / 1000.0,
        total_kw: wall.max_watts / 1000.0,
        circuits_needed: if limit > 0.0 {
            crate::core::units::round_non_negative((wall.max_watts / limit).ceil())
        } else {
            0
        },
    };
    let table = if high_line { "230 V" } else { "115 V" };
    let assumptions = vec![
        format!(
            "Typical draw = idle + utilization × (max − idle) at utilization {utilization:.2}; boards, DIMMs, fans, coolers and NICs are constant loads."
        ),
        format!(
            "Wall draw uses the 80 PLUS {table} minimum-efficiency points, interpolated at each load point (PSUs fed {:.0} V); below the lowest certified point the efficiency is held, so idle wall draw is a lower bound.",
            build.site.psu_input_volts()
        ),
        "Redundant PSUs share the load (efficiency at load over all installed units) but only non-redundant capacity counts for sizing.".to_owned(),
        "GPU transient peaks: 16-pin PCIe cards 3 × board power for 100 µs (PCIe CEM 5 via the ATX 3 design guide); an ATX 3.x PSU above 450 W rides 200 % of its rating for 100 µs. Server PSU modules publish no such rating and are not checked for transients.".to_owned(),
        format!(
            "Recommended PSU = DC max + {:.0} % sustained headroom + {:.0} % ageing (both of DC max, added, not multiplied) + any extra the transient peak needs; rounded up to a size on sale.",
            settings.sustained_headroom_fraction * 100.0,
            settings.ageing_fraction * 100.0
        ),
        "Complete systems (DGX, Jetson) and switches count at their datasheet input power; parts without a PSU of their own assume an 80 PLUS Gold unit at 50 % load.".to_owned(),
        format!(
            "Circuit: wall draw at max against the circuit's continuous capacity, {:.0} W ({} V, {} A, {} phase(s), × {CONTINUOUS_LOAD_FRACTION} continuous-load rule).",
            limit, build.site.circuit_volts, build.site.circuit_amps, build.site.circuit_phases
        ),
    ];
    let report = PowerReport {
        settings: settings.clone(),
        utilization,
        site_volts: build.site.circuit_volts,
        efficiency_table: table.to_owned(),
        idle_watts: dc.idle_watts,
        typical_watts: dc.typical_watts,
        max_watts: dc.max_watts,
        peak_transient_watts: peak_transient,
        wall_idle_watts: wall.idle_watts,
        wall_typical_watts: wall.typical_watts,
        wall_watts: wall.max_watts,
        psu_load_fraction: (capacity > 0.0).then(|| fed_max / capacity),
        recommended_psu_watts: recommended,
        rack,
        assumptions,
        cluster,
        cluster_wall,
        nodes,
    };
    let diagnostics = diagnostics(resolved, &report);
    (report, diagnostics)
}

/// True when every PSU of the node is a server module (CRPS or vendor hot-swap).
fn server_modules_only(node: &Node<'_>) -> bool {
    !node.parts.psus.is_empty()
        && node.parts.psus.iter().all(|p| {
            matches!(
                p.part.form_factor,
                crate::core::catalog::PsuFormFactor::Crps | crate::core::catalog::PsuFormFactor::ServerModule
            )
        })
}

fn psu_lines(node: &Node<'_>, mut d: Diagnostic) -> Diagnostic {
    for p in &node.parts.psus {
        d = d.with_part(&p.part.id).with_line(Location::Node(node.index), p.line);
    }
    d
}

fn diagnostics(resolved: &Resolved<'_>, report: &PowerReport) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (node, np) in resolved.nodes.iter().zip(&report.nodes) {
        let i = node.index;
        let own_psus = node.parts.psu_count() > 0;
        if let (Some(psu), true) = (&np.psu, own_psus) {
            let load = np.psu_fed.max_watts;
            if load > psu.capacity_watts {
                out.push(psu_lines(
                    node,
                    Diagnostic::new(
                        Severity::Error,
                        "psu-capacity-low",
                        format!(
                            "{}: the PSUs provide {:.0} W that count (after redundancy) but the parts draw up to {:.0} W sustained",
                            node.name, psu.capacity_watts, load
                        ),
                    )
                    .in_node(i)
                    .with_fix(format!(
                        "Fit at least {:.0} W of non-redundant PSU capacity",
                        np.recommended_psu_watts.unwrap_or(load)
                    )),
                ));
            } else if let Some(rec) = &np.recommendation
                && psu.capacity_watts < rec.required_watts
            {
                // Server PSU modules come with the chassis, sized by the vendor to the platform's
                // measured maximum rather than to desktop calculator margins: worth knowing, not a
                // defect of the build.
                let server = server_modules_only(node);
                let (severity, why) = if server {
                    (
                        Severity::Info,
                        "; the vendor fits these supplies for this platform, so this is a thin margin rather than a fault",
                    )
                } else {
                    (Severity::Warning, "")
                };
                out.push(psu_lines(
                    node,
                    Diagnostic::new(
                        severity,
                        "psu-below-recommended",
                        format!(
                            "{}: {:.0} W of PSU capacity is below the recommended {:.0} W (max {:.0} W + {:.0} W headroom + {:.0} W ageing + {:.0} W transient); it runs at {:.0} % at max load{why}",
                            node.name,
                            psu.capacity_watts,
                            rec.required_watts,
                            rec.max_dc_watts,
                            rec.sustained_headroom_watts,
                            rec.ageing_watts,
                            rec.transient_margin_watts,
                            load / psu.capacity_watts * 100.0
                        ),
                    )
                    .in_node(i)
                    .with_fix(if server {
                        format!("Check the vendor's higher-rated PSU option (recommended {:.0} W)", rec.recommended_watts)
                    } else {
                        format!("Use a {:.0} W unit", rec.recommended_watts)
                    }),
                ));
            }
            let fed_peak = np.peak_transient_watts - (np.max_watts - np.psu_fed.max_watts);
            let limit = psu.capacity_watts * psu.excursion_tolerance;
            // Server modules publish no ATX 3 excursion rating; their transient response is
            // the vendor's to qualify, so only ATX units are checked.
            if fed_peak > limit && fed_peak > load && !server_modules_only(node) {
                let message = if psu.atx3 {
                    format!(
                        "{}: GPU power spikes can reach {:.0} W for 100 µs, above the {:.0} W the ATX 3 PSU is specified to ride ({:.0} % of its rating); it may shut down under load",
                        node.name,
                        fed_peak,
                        limit,
                        psu.excursion_tolerance * 100.0
                    )
                } else {
                    format!(
                        "{}: GPU power spikes can reach {:.0} W for 100 µs; the PSU is not ATX 3.x, so it has no excursion rating above its {:.0} W and may shut down under load",
                        node.name, fed_peak, psu.capacity_watts
                    )
                };
                out.push(psu_lines(
                    node,
                    Diagnostic::new(Severity::Warning, "psu-transient-risk", message)
                        .in_node(i)
                        .with_fix("Use an ATX 3.x PSU large enough that twice its rating covers the peak"),
                ));
            }
        }
        let c = &np.circuit;
        if c.continuous_limit_watts > 0.0 && c.wall_watts > c.continuous_limit_watts && np.role != NodeRole::Empty {
            let spread = c.power_inputs > 1 && c.circuits_needed <= u64::from(c.power_inputs);
            let d = if spread {
                Diagnostic::new(
                    Severity::Info,
                    "circuit-multiple-feeds",
                    format!(
                        "{}: draws up to {:.0} W at the wall, more than one {:.0} V / {:.0} A circuit carries continuously ({:.0} W); spread its {} power inputs over at least {} circuits",
                        node.name,
                        c.wall_watts,
                        c.volts,
                        c.amps,
                        c.continuous_limit_watts,
                        c.power_inputs,
                        c.circuits_needed
                    ),
                )
            } else {
                Diagnostic::new(
                    Severity::Warning,
                    "circuit-overload",
                    format!(
                        "{}: draws up to {:.0} W at the wall, more than a {:.0} V / {:.0} A circuit carries continuously ({:.0} W at 80 % of its rating)",
                        node.name, c.wall_watts, c.volts, c.amps, c.continuous_limit_watts
                    ),
                )
                .with_fix("Use a higher-rated circuit (e.g. 20 A, or 230 V), or lower the GPUs' power limits")
            };
            out.push(d.in_node(i));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 80 PLUS table points (CLEAResult 80 PLUS program; domain notes §2): Gold 115 V is 87 %
    /// at 20 %, 90 % at 50 %, 87 % at 100 % load; Titanium 230 V is 90/94/96/94 at 10/20/50/100.
    #[test]
    fn eighty_plus_points() {
        assert!((efficiency_at(EfficiencyTier::Gold, false, 0.2) - 0.87).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Gold, false, 0.5) - 0.90).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Gold, false, 1.0) - 0.87).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Platinum, false, 0.5) - 0.92).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Platinum, true, 0.5) - 0.94).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Titanium, true, 0.1) - 0.90).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Titanium, true, 1.0) - 0.94).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Bronze, true, 0.2) - 0.85).abs() < 1e-12);
    }

    #[test]
    fn efficiency_interpolates_and_holds_at_the_ends() {
        // Halfway between Gold 115 V 50 % (0.90) and 100 % (0.87): 0.885 at 75 %.
        assert!((efficiency_at(EfficiencyTier::Gold, false, 0.75) - 0.885).abs() < 1e-12);
        // 35 % is halfway between 20 % (0.87) and 50 % (0.90).
        assert!((efficiency_at(EfficiencyTier::Gold, false, 0.35) - 0.885).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Gold, false, 0.05) - 0.87).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Gold, false, 1.4) - 0.87).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Gold, false, f64::NAN) - 0.87).abs() < 1e-12);
    }

    #[test]
    fn psu_sizes_round_up_to_units_on_sale() {
        assert!((round_up_psu_size(848.0) - 850.0).abs() < 1e-9);
        assert!((round_up_psu_size(850.1) - 1000.0).abs() < 1e-9);
        assert!((round_up_psu_size(2250.0) - 2300.0).abs() < 1e-9);
        assert!(round_up_psu_size(f64::NAN).abs() < 1e-9);
    }

    #[test]
    fn recommendation_adds_margins_without_stacking() {
        // 700 W max: +140 W headroom, +70 W ageing = 910 W; transient 1500 W / 2 = 750 W
        // stays below, so it adds nothing.
        let r = recommend(700.0, 1500.0, &PowerSettings::default());
        assert!((r.sustained_headroom_watts - 140.0).abs() < 1e-9);
        assert!((r.ageing_watts - 70.0).abs() < 1e-9);
        assert!(r.transient_margin_watts.abs() < 1e-9);
        assert!((r.required_watts - 910.0).abs() < 1e-9);
        assert!((r.recommended_watts - 1000.0).abs() < 1e-9);
        // A 2400 W peak needs 1200 W of rating: 290 W beyond the 910 W sustained figure.
        let r = recommend(700.0, 2400.0, &PowerSettings::default());
        assert!((r.transient_margin_watts - 290.0).abs() < 1e-9);
        assert!((r.required_watts - 1200.0).abs() < 1e-9);
    }
}
