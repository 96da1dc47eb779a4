//! Power draw: per part, per node and for the whole build; PSU sizing and the circuit check.
//!
//! Theory of operation. Every part gets three sustained figures, idle, typical and max, plus a
//! transient peak:
//! - GPUs, CPUs, drives and complete systems have idle and max figures in the catalog; their
//!   typical draw is the usual first model `idle + utilization × (max − idle)` with the build's
//!   `usage.utilization` (domain notes §2). A CPU's max is its Intel Maximum Turbo Power / AMD
//!   PPT where the catalog has one, else its TDP.
//! - Boards, DIMMs, coolers and NICs draw a constant: the catalog's typical figure (or the
//!   named board estimates below); an HGX baseboard draws its NVSwitch chips
//!   ([`NVSWITCH_WATTS`] each). Rack chassis fans run at typical duty when idle and at full
//!   speed at max load ([`fan_max_over_typical`]); tower case fans are a constant load. The constant loads are small and vary little with
//!   load; modelling their idle states would add precision nobody can check.
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
//!
//! By concern: `draw` (each part's and each node's draw), `psu` (efficiency, PSU sizing and
//! transient tolerance) and `findings` (the power diagnostics), with the report types and
//! the whole-build analysis here.

mod draw;
mod findings;
mod psu;

pub use psu::psu_capacity_at;

pub use crate::core::build::CONTINUOUS_LOAD_FRACTION;
pub use draw::{
    CEM5_EXCURSION_FACTOR, DESKTOP_BOARD_WATTS, FAN_TYPICAL_SPEED, NVSWITCH_WATTS, SERVER_BOARD_WATTS,
    fan_max_over_typical, gpu_transient_watts,
};
pub use psu::{
    ASSUMED_TIER, ATX3_EXCURSION_TOLERANCE_100US, ATX3_SMALL_EXCURSION_TOLERANCE_100US, ATX3_SMALL_PSU_LIMIT_WATTS,
    HIGH_LINE_MIN_VOLTS, STANDARD_PSU_SIZES_WATTS, efficiency_at, excursion_tolerance, is_high_line, recommend,
    round_up_psu_size,
};

use crate::core::analysis::Diagnostic;
use crate::core::analysis::compat::NodeRole;
use crate::core::build::Redundancy;
use crate::core::catalog::{EfficiencyTier, PartId, PartKind};
use crate::core::i18n::{Lang, Sentence, localize_all};
use crate::core::resolve::Resolved;
use crate::text;
use draw::{node_power, part_powers};
use findings::diagnostics;
use serde::Serialize;

/// Sustained headroom over the DC max load in public PSU calculators: 20–30 % (domain notes §2);
/// rigplan's default is the low end.
pub const DEFAULT_SUSTAINED_HEADROOM_FRACTION: f64 = 0.20;

/// Capacitor ageing allowance: OuterVision's PSU calculator offers 10–30 % (domain notes §2);
/// rigplan's default is the low end.
pub const DEFAULT_AGEING_FRACTION: f64 = 0.10;

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
    pub source: Sentence,
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
    /// Shared with the node groups identical to this one.
    pub parts: super::Shared<PartPower>,
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

impl NodePower {
    /// What everything but the GPUs draws at typical load, at the wall, W: the parts' typical
    /// DC draw through the PSUs' efficiency at that load point (datasheet input figures as
    /// they are). The serving analysis adds it to the GPUs' own draw.
    #[must_use]
    pub fn other_wall_watts(&self) -> f64 {
        self.parts
            .iter()
            .filter(|p| p.kind != PartKind::Gpu)
            .map(|p| {
                if p.at_wall || self.efficiency_typical <= 0.0 {
                    p.typical_watts
                } else {
                    p.typical_watts / self.efficiency_typical
                }
            })
            .sum()
    }
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
    /// The model's assumptions, in sentences (shown in the report; English unless
    /// [`Self::localize`]d).
    pub assumptions: Vec<Sentence>,
}

impl PowerReport {
    /// Renders the assumptions in `lang`.
    pub fn localize(&mut self, lang: Lang) {
        localize_all(&mut self.assumptions, lang);
        for psu in self.nodes.iter_mut().filter_map(|n| n.psu.as_mut()) {
            psu.source.localize(lang);
        }
    }
}

crate::templates! {
    pub(crate) ASSUMPTIONS;
    PSU_FROM_SYSTEM "" {
        en: "{system} datasheet: {count} × {watts} W, {redundant} redundant",
        zh: "{system} 规格书：{count} × {watts} W，其中 {redundant} 个冗余",
    }
    PSU_IN_CHASSIS "" {
        en: "{installed} unit(s), {in_chassis} fitted in the chassis",
        zh: "{installed} 个电源，其中 {in_chassis} 个为机箱自带",
    }
    PSU_ON_LINES "" {
        en: "{installed} unit(s) on the build's lines",
        zh: "配置方案中的 {installed} 个电源",
    }
    ASSUMPTION_TYPICAL "" {
        en: "Typical draw = idle + utilization × (max − idle) at utilization {utilization}; boards (with their NVSwitch chips), DIMMs, coolers and NICs are constant loads; rack-server fans run at typical duty when idle and at full speed at max load.",
        zh: "典型功耗 = 待机 + 利用率 × (满载 − 待机)，利用率取 {utilization}；主板（含 NVSwitch 芯片）、内存条、散热器和网卡按恒定负载计；机架服务器风扇待机时按典型转速、满载时按全速计。",
    }
    ASSUMPTION_WALL "" {
        en: "Wall draw uses the 80 PLUS {table} minimum-efficiency points, interpolated at each load point (PSUs fed {volts} V); below the lowest certified point the efficiency is held, so idle wall draw is a lower bound.",
        zh: "墙插功耗按 80 PLUS {table} 的最低转换效率点计算，在各负载点之间插值（电源输入 {volts} V）；低于最低认证负载点时效率保持不变，因此待机墙插功耗是下限。",
    }
    ASSUMPTION_REDUNDANT "" {
        en: "Redundant PSUs share the load (efficiency at load over all installed units) but only non-redundant capacity counts for sizing.",
        zh: "冗余电源共同分担负载（转换效率按负载均摊到全部已装电源计），但电源选型只计非冗余部分的容量。",
    }
    ASSUMPTION_TRANSIENT "" {
        en: "GPU transient peaks: 16-pin PCIe cards 3 × board power for 100 µs (PCIe CEM 5 via the ATX 3 design guide); an ATX 3.x PSU above 450 W rides 200 % of its rating for 100 µs. Server PSU modules publish no such rating and are not checked for transients.",
        zh: "GPU 瞬时峰值：16-pin 供电的 PCIe 显卡按 3 × 板卡功耗、持续 100 µs 计（PCIe CEM 5，见 ATX 3 设计指南）；450 W 以上的 ATX 3.x 电源能承受 100 µs 的 200 % 额定功率。服务器电源模块没有公布这类指标，不做瞬时峰值检查。",
    }
    ASSUMPTION_RECOMMENDED "" {
        en: "Recommended PSU = DC max + {headroom} % sustained headroom + {ageing} % ageing (both of DC max, added, not multiplied) + any extra the transient peak needs; rounded up to a size on sale.",
        zh: "推荐电源 = 直流满载功耗 + {headroom} % 持续负载余量 + {ageing} % 老化余量（两者都按直流满载功耗计，相加而非相乘）+ 瞬时峰值需要的额外容量；向上取到市售规格。",
    }
    ASSUMPTION_AT_INPUT "" {
        en: "Complete systems (DGX, Jetson) and switches count at their datasheet input power; parts without a PSU of their own assume an 80 PLUS Gold unit at 50 % load.",
        zh: "整机（DGX、Jetson）和交换机按规格书的输入功率计；没有自带电源的部件按 80 PLUS 金牌电源、50 % 负载计。",
    }
    ASSUMPTION_CIRCUIT "" {
        en: "Circuit: wall draw at max against the circuit's continuous capacity, {limit} W ({volts} V, {amps} A, {phases} phase(s), × {fraction} continuous-load rule).",
        zh: "电路：满载墙插功耗与电路的持续负载容量 {limit} W 比较（{volts} V、{amps} A、{phases} 相，按 × {fraction} 的持续负载规则）。",
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
    let nodes: Vec<NodePower> = super::twins::per_group(
        resolved,
        |n| node_power(n, resolved, settings, utilization),
        |first, n| NodePower { node: n.index, name: n.name.to_owned(), ..first.clone() },
    );
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
        text!(ASSUMPTION_TYPICAL, utilization = format!("{utilization:.2}")),
        text!(ASSUMPTION_WALL, table = table, volts = format!("{:.0}", build.site.psu_input_volts())),
        text!(ASSUMPTION_REDUNDANT),
        text!(ASSUMPTION_TRANSIENT),
        text!(
            ASSUMPTION_RECOMMENDED,
            headroom = format!("{:.0}", settings.sustained_headroom_fraction * 100.0),
            ageing = format!("{:.0}", settings.ageing_fraction * 100.0)
        ),
        text!(ASSUMPTION_AT_INPUT),
        text!(
            ASSUMPTION_CIRCUIT,
            limit = format!("{limit:.0}"),
            volts = build.site.circuit_volts.to_string(),
            amps = build.site.circuit_amps.to_string(),
            phases = build.site.circuit_phases.to_string(),
            fraction = CONTINUOUS_LOAD_FRACTION.to_string()
        ),
    ]
    .into_iter()
    .map(Sentence::new)
    .collect();
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

/// Every finding template of the power analysis, for the registry's tests.
#[cfg(test)]
pub(crate) fn templates() -> Vec<&'static crate::core::i18n::Template> {
    findings::TEMPLATES.iter().chain(ASSUMPTIONS).copied().collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_assumption_has_the_same_placeholders_in_both_languages() {
        crate::core::i18n::assert_table_is_translated(super::ASSUMPTIONS);
    }
}
