//! Thermal: heat load, CPU cooler headroom, chassis airflow and a per-GPU temperature estimate.
//!
//! Theory of operation:
//! - **Heat.** All electrical power ends as heat in the room, so a node's heat load is its wall
//!   draw (PSU losses included) at max sustained load; BTU/h and cooling tons via
//!   [`crate::core::units`] (1 W = 3.412 BTU/h; 12,000 BTU/h = 1 ton).
//! - **Airflow.** Air carrying `W` watts with a temperature rise `ΔT` needs
//!   CFM ≈ 1.76 × W / ΔT (sea-level air, 0.569 W per CFM per °C; domain notes §3). rigplan
//!   sizes the chassis fans for the DC heat released inside the chassis at a stated design rise
//!   ([`DEFAULT_AIR_TEMP_RISE_C`]) and compares with the fans' summed free-air rating, which
//!   overstates real airflow against filters and heatsinks: treat a small headroom as none.
//! - **GPU temperature** (an estimate, not a measurement). Every GPU is taken at sustained full
//!   load (its board power). Its temperature is
//!   `inlet + rise(cooler style) + neighbours`, where
//!   - inlet = ambient + half the chassis air rise (the chassis air rise is the DC heat inside
//!     the chassis over 0.569 × the fans' CFM; the GPU sees mixed air about halfway through);
//!   - rise(style) is the temperature a cooler of that style holds its card above inlet air at
//!     the card's rated power: coolers are designed for their card's power, so the rise is a
//!     per-style constant rather than a per-watt one. Liquid is 18 °C below open-air (the
//!     field guides' measured difference); fanless (passive) cards rely on server airflow and
//!     run twice their rise in a tower case without GPU bays;
//!   - neighbours: an open-air card takes in the exhaust of each directly adjacent open-air or
//!     passive card ([`NEIGHBOUR_PENALTY_C`] each); blower and liquid cards exhaust out of the
//!     chassis and neither give nor take this penalty; GPU-bay and baseboard GPUs sit in
//!     server airflow and take none.
//!
//!   The style constants are rigplan's estimates, chosen so that a flagship open-air card in a
//!   25 °C room lands in the high 60s °C, a blower workstation card near 80 °C and a
//!   water-cooled card near 50 °C, the ranges the field guides and reviews report. They are not
//!   calibrated against one measured card.
//!
//! - **Warnings.** A GPU estimated at or above the alert threshold (the field guides alert at
//!   85 °C) is warned about; at or above its maximum operating temperature it will throttle.

use crate::core::analysis::compat::{Compat, NodeLayout, SlotKind};
use crate::core::analysis::power::PowerReport;
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::build::Location;
use crate::core::catalog::{ChassisKind, CoolerKind, CoolerStyle, GpuFormFactor, PartId};
use crate::core::i18n::{Lang, Sentence, in_node, localize_all};
use crate::core::resolve::{Node, Resolved};
use crate::core::units::{watts_to_btu_per_hour, watts_to_cooling_tons};
use crate::text;
use serde::Serialize;

crate::templates! {
    pub(crate) TEMPLATES;
    AIRFLOW_INSUFFICIENT "airflow-insufficient" {
        en: "{heat} W inside the chassis needs about {needed} CFM at a {rise} °C air rise; the fans are rated {rated} CFM (air would rise about {actual} °C)",
        zh: "机箱内 {heat} W 的发热量在 {rise} °C 温升下需要约 {needed} CFM 风量；风扇额定风量为 {rated} CFM（空气温升约 {actual} °C）",
    }
    AIRFLOW_INSUFFICIENT_FIX "airflow-insufficient" {
        en: "Add or upgrade case fans, or choose a chassis with more airflow",
        zh: "增加或升级机箱风扇，或选择风量更大的机箱",
    }
    GPU_TEMP_OVER_MAX "gpu-temp-over-max" {
        en: "{gpu} #{unit} is estimated at {estimated} °C under sustained load, at or above its {max} °C limit; it will throttle",
        zh: "{gpu} #{unit} 持续满载时估算温度为 {estimated} °C，达到或超过其 {max} °C 上限，将会降频",
    }
    GPU_TEMP_OVER_MAX_FIX "gpu-temp-over-max" {
        en: "Space the cards apart, use blower or liquid-cooled cards, or improve case airflow",
        zh: "拉开显卡间距、换用涡轮或水冷显卡，或改善机箱风道",
    }
    GPU_TEMP_HIGH "gpu-temp-high" {
        en: "{gpu} #{unit} is estimated at {estimated} °C under sustained load, above the {alert} °C alert; {headroom} °C below its limit",
        zh: "{gpu} #{unit} 持续满载时估算温度为 {estimated} °C，高于 {alert} °C 警戒线；距其上限还有 {headroom} °C",
    }
    GPU_TEMP_HIGH_FIX "gpu-temp-high" {
        en: "Space the cards apart, use blower or liquid-cooled cards, or improve case airflow",
        zh: "拉开显卡间距、换用涡轮或水冷显卡，或改善机箱风道",
    }
    GPU_OPEN_AIR_STACKED "gpu-open-air-stacked" {
        en: "open-air GPUs sit in adjacent slots and take in each other's exhaust, a known cause of throttling",
        zh: "开放式散热 GPU 插在相邻插槽上，互相吸入对方排出的热风，这是常见的降频原因",
    }
    GPU_OPEN_AIR_STACKED_FIX "gpu-open-air-stacked" {
        en: "Leave a free slot between cards, or use blower or liquid-cooled cards for dense builds",
        zh: "显卡之间空出一个插槽，或在高密度配置中换用涡轮或水冷显卡",
    }
    PASSIVE_GPU_IN_TOWER "passive-gpu-in-tower" {
        en: "fanless data-center GPUs depend on server airflow; in a tower case they overheat without ducted fans",
        zh: "无风扇的数据中心 GPU 依赖服务器风道散热；装在塔式机箱中且没有导风风扇时会过热",
    }
    PASSIVE_GPU_IN_TOWER_FIX "passive-gpu-in-tower" {
        en: "Use a GPU server chassis, ducted fans made for the card, or actively cooled workstation cards",
        zh: "换用 GPU 服务器机箱、为该卡设计的导风风扇，或主动散热的工作站显卡",
    }
    SYSTEM_AMBIENT_EXCEEDED "system-ambient-exceeded" {
        en: "the site's {ambient} °C inlet air is above {system}'s {max} °C operating limit",
        zh: "现场 {ambient} °C 的进风温度高于 {system} 的 {max} °C 工作温度上限",
    }
    SYSTEM_AMBIENT_EXCEEDED_FIX "system-ambient-exceeded" {
        en: "Cool the room or rack inlet",
        zh: "降低机房或机柜进风温度",
    }
}

/// CFM per (W/°C) for sea-level air: CFM ≈ 1.76 × W / ΔT (domain notes §3; from air's
/// 1.08 BTU/h per CFM per °F: 3.412 / (1.08 × 1.8) = 1.755).
pub const CFM_PER_WATT_PER_C: f64 = 1.76;
/// Design air temperature rise through a chassis, °C: rigplan's stated assumption for sizing
/// fans (servers are designed for roughly 10–20 °C front-to-back; 15 °C is the middle).
pub const DEFAULT_AIR_TEMP_RISE_C: f64 = 15.0;
/// GPU temperature alert: the field guides alert above 85 °C ("当GPU温度超过85℃…触发维护流程",
/// field guide 003 §5.1).
pub const DEFAULT_GPU_ALERT_C: f64 = 85.0;
/// Water cooling runs a GPU about 18 °C cooler than air under sustained load (field guide 003
/// §2.1; domain notes §3).
pub const LIQUID_ADVANTAGE_C: f64 = 18.0;
/// Rise of an open-air cooled card over its inlet air at rated power, °C: rigplan estimate
/// (see the module docs).
pub const OPEN_AIR_RISE_C: f64 = 40.0;
/// Rise of a blower card over its inlet air at rated power, °C: rigplan estimate (blowers trade
/// temperature for exhausting out of the case).
pub const BLOWER_RISE_C: f64 = 50.0;
/// Rise of a fanless data-center card or module in server airflow at rated power, °C: rigplan
/// estimate.
pub const PASSIVE_RISE_C: f64 = 40.0;
/// Multiplier on a fanless card's rise in a tower case, which has no directed server airflow:
/// rigplan estimate.
pub const PASSIVE_IN_TOWER_FACTOR: f64 = 2.0;
/// Added to an open-air card per directly adjacent open-air or passive card whose exhaust it
/// takes in, °C: rigplan estimate.
pub const NEIGHBOUR_PENALTY_C: f64 = 8.0;
/// Fraction of the chassis air rise a GPU's inlet sees (mixed case air, about halfway).
pub const INLET_MIX_FRACTION: f64 = 0.5;
/// Watts carried per CFM per °C of air rise (the inverse form of [`CFM_PER_WATT_PER_C`]).
pub const WATTS_PER_CFM_PER_C: f64 = 1.0 / CFM_PER_WATT_PER_C;

/// Visible thermal settings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThermalSettings {
    /// Design air temperature rise through a chassis, °C.
    pub air_temp_rise_c: f64,
    /// GPU temperature alert threshold, °C.
    pub gpu_alert_c: f64,
}

impl Default for ThermalSettings {
    fn default() -> Self {
        Self { air_temp_rise_c: DEFAULT_AIR_TEMP_RISE_C, gpu_alert_c: DEFAULT_GPU_ALERT_C }
    }
}

/// One CPU and its cooler.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CpuCooling {
    pub cpu: PartId,
    pub cooler: Option<PartId>,
    /// Max sustained CPU power (max turbo / PPT, else TDP), W.
    pub cpu_max_watts: f64,
    /// The cooler's rated heat, W (a loop's rating less the GPUs it also cools).
    pub cooler_rated_watts: Option<f64>,
    pub headroom_watts: Option<f64>,
}

/// Chassis airflow of a node.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Airflow {
    /// DC heat released inside the chassis at max sustained load, W.
    pub heat_in_chassis_watts: f64,
    pub design_rise_c: f64,
    /// 1.76 × heat / design rise, CFM.
    pub needed_cfm: f64,
    /// Fans' summed free-air rating (or the system's published airflow), CFM.
    pub available_cfm: Option<f64>,
    pub headroom_cfm: Option<f64>,
    /// Air temperature rise through the chassis at the available airflow, °C.
    pub chassis_air_rise_c: f64,
}

/// The temperature estimate of one GPU.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GpuThermal {
    pub part: PartId,
    pub name: String,
    pub line: usize,
    pub unit: u32,
    /// The cooling the model used (liquid when a custom loop cools the GPUs).
    pub cooling: CoolerStyle,
    /// First slot or bay position, where placed.
    pub position: Option<u8>,
    pub power_watts: f64,
    pub inlet_c: f64,
    pub cooler_rise_c: f64,
    pub neighbour_c: f64,
    pub estimated_temp_c: f64,
    pub max_temp_c: f64,
    /// max_temp_c − estimated_temp_c.
    pub headroom_c: f64,
}

/// Thermal figures of one node group (per node unless named otherwise).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeThermal {
    pub node: usize,
    pub name: String,
    pub count: u32,
    /// Heat at max sustained load (= wall draw), W.
    pub heat_watts: f64,
    /// Heat at typical load, W.
    pub heat_typical_watts: f64,
    pub heat_btu_per_hour: f64,
    pub cooling_tons: f64,
    pub airflow: Airflow,
    /// Shared with the node groups identical to this one (as are the GPUs).
    pub cpus: super::Shared<CpuCooling>,
    pub gpus: super::Shared<GpuThermal>,
}

/// The thermal section of the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThermalReport {
    pub settings: ThermalSettings,
    pub ambient_c: f64,
    pub nodes: Vec<NodeThermal>,
    /// Whole build at max sustained load (nodes × counts, plus the cluster section), W.
    pub heat_watts: f64,
    pub heat_typical_watts: f64,
    pub heat_btu_per_hour: f64,
    pub cooling_tons: f64,
    /// The model's assumptions, in sentences (English unless [`Self::localize`]d).
    pub assumptions: Vec<Sentence>,
}

impl ThermalReport {
    /// Renders the assumptions in `lang`.
    pub fn localize(&mut self, lang: Lang) {
        localize_all(&mut self.assumptions, lang);
    }
}

crate::templates! {
    pub(crate) ASSUMPTIONS;
    ASSUMPTION_HEAT "" {
        en: "Heat load = wall draw at max sustained load: all electrical power ends as heat (1 W = 3.412 BTU/h; 12,000 BTU/h = 1 ton).",
        zh: "发热量 = 持续满载时的墙插功耗：电能最终全部变为热量（1 W = 3.412 BTU/h；12,000 BTU/h = 1 冷吨）。",
    }
    ASSUMPTION_AIRFLOW "" {
        en: "Airflow needed = 1.76 × W / ΔT with a design air rise of {rise} °C, compared with the fans' free-air rating (which overstates real airflow).",
        zh: "所需风量 = 1.76 × W / ΔT，设计空气温升取 {rise} °C，与风扇的自由风量额定值比较（额定值高于实际风量）。",
    }
    ASSUMPTION_GPU_TEMP "" {
        en: "GPU temperatures are estimates at sustained full load: inlet (ambient {ambient} °C + half the chassis air rise) + a per-cooler-style rise at rated power (open-air {open_air} °C, blower {blower} °C, passive in server airflow {passive} °C and doubled in a tower, liquid {liquid} °C = open-air − 18 °C) + {neighbour} °C per adjacent open-air/passive card feeding an open-air card its exhaust. The style rises are rigplan estimates, not measurements.",
        zh: "GPU 温度是持续满载下的估算值：进风温度（环境温度 {ambient} °C + 机箱空气温升的一半）+ 按散热器类型计的额定功率温升（开放式 {open_air} °C，涡轮 {blower} °C，被动散热在服务器风道中 {passive} °C、在塔式机箱中加倍，水冷 {liquid} °C = 开放式 − 18 °C）+ 每块把热风排向开放式显卡的相邻开放式/被动散热卡再加 {neighbour} °C。各类型的温升是 rigplan 的估算，不是实测值。",
    }
    ASSUMPTION_ALERT "" {
        en: "GPUs at or above {alert} °C are flagged (the field guides' alert).",
        zh: "GPU 温度达到或超过 {alert} °C 时标出（装机指南的告警线）。",
    }
}

/// A cooler style's rise over inlet at rated power.
#[must_use]
pub fn cooler_rise_c(style: CoolerStyle) -> f64 {
    match style {
        CoolerStyle::OpenAir => OPEN_AIR_RISE_C,
        CoolerStyle::Blower => BLOWER_RISE_C,
        CoolerStyle::Passive => PASSIVE_RISE_C,
        CoolerStyle::Liquid => OPEN_AIR_RISE_C - LIQUID_ADVANTAGE_C,
    }
}

/// Computes the thermal section with default settings.
#[must_use]
pub fn analyze(resolved: &Resolved<'_>, power: &PowerReport, compat: &Compat) -> (ThermalReport, Vec<Diagnostic>) {
    analyze_with(resolved, power, compat, &ThermalSettings::default())
}

/// Computes the thermal section.
#[must_use]
pub fn analyze_with(
    resolved: &Resolved<'_>,
    power: &PowerReport,
    compat: &Compat,
    settings: &ThermalSettings,
) -> (ThermalReport, Vec<Diagnostic>) {
    let ambient = resolved.build.site.ambient_c;
    let mut out = Vec::new();
    let mut nodes = Vec::with_capacity(resolved.nodes.len());
    let mut heat = power.cluster_wall.max_watts;
    let mut heat_typical = power.cluster_wall.typical_watts;
    let per_node = super::twins::per_node(
        resolved,
        &mut out,
        |node, out| {
            let layout = compat.layouts.iter().find(|l| l.node == node.index);
            power.nodes.get(node.index).map(|np| node_thermal(node, np, layout, ambient, settings, out))
        },
        |nt, node| nt.as_ref().map(|nt| NodeThermal { node: node.index, name: node.name.to_owned(), ..nt.clone() }),
    );
    for nt in per_node.into_iter().flatten() {
        heat += nt.heat_watts * f64::from(nt.count);
        heat_typical += nt.heat_typical_watts * f64::from(nt.count);
        nodes.push(nt);
    }
    let assumptions = vec![
        text!(ASSUMPTION_HEAT),
        text!(ASSUMPTION_AIRFLOW, rise = format!("{:.0}", settings.air_temp_rise_c)),
        text!(
            ASSUMPTION_GPU_TEMP,
            ambient = format!("{ambient:.0}"),
            open_air = format!("{OPEN_AIR_RISE_C:.0}"),
            blower = format!("{BLOWER_RISE_C:.0}"),
            passive = format!("{PASSIVE_RISE_C:.0}"),
            liquid = format!("{:.0}", OPEN_AIR_RISE_C - LIQUID_ADVANTAGE_C),
            neighbour = format!("{NEIGHBOUR_PENALTY_C:.0}")
        ),
        text!(ASSUMPTION_ALERT, alert = format!("{:.0}", settings.gpu_alert_c)),
    ]
    .into_iter()
    .map(Sentence::new)
    .collect();
    let report = ThermalReport {
        settings: settings.clone(),
        ambient_c: ambient,
        nodes,
        heat_watts: heat,
        heat_typical_watts: heat_typical,
        heat_btu_per_hour: watts_to_btu_per_hour(heat),
        cooling_tons: watts_to_cooling_tons(heat),
        assumptions,
    };
    (report, out)
}

/// One GPU unit of a node, as the temperature model sees it.
struct GpuUnit<'a> {
    part: &'a crate::core::catalog::Gpu,
    line: usize,
    unit: u32,
    style: CoolerStyle,
    board_range: Option<(u8, u8)>,
    position: Option<u8>,
}

/// The thermal view of one node group: its airflow, CPU cooler headroom and GPU temperature
/// estimates, with their findings.
fn node_thermal(
    node: &Node<'_>,
    np: &crate::core::analysis::power::NodePower,
    layout: Option<&NodeLayout>,
    ambient: f64,
    settings: &ThermalSettings,
    out: &mut Vec<Diagnostic>,
) -> NodeThermal {
    let airflow = airflow(node, np, settings, out);
    let cpus = cpu_cooling(node);
    let inlet = ambient + INLET_MIX_FRACTION * airflow.chassis_air_rise_c;
    let gpus = gpu_temperatures(node, layout, inlet, settings, out);
    system_ambient_rules(node, ambient, out);
    NodeThermal {
        node: node.index,
        name: node.name.to_owned(),
        count: node.count,
        heat_watts: np.wall_watts,
        heat_typical_watts: np.wall_typical_watts,
        heat_btu_per_hour: watts_to_btu_per_hour(np.wall_watts),
        cooling_tons: watts_to_cooling_tons(np.wall_watts),
        airflow,
        cpus: cpus.into(),
        gpus: gpus.into(),
    }
}

/// Airflow the heat inside the chassis needs at the design air rise, against the fans'
/// rating; `airflow-insufficient` when the fans fall short.
fn airflow(
    node: &Node<'_>,
    np: &crate::core::analysis::power::NodePower,
    settings: &ThermalSettings,
    out: &mut Vec<Diagnostic>,
) -> Airflow {
    let p = &node.parts;
    let i = node.index;
    let chassis = p.chassis();
    let heat_in = np.max_watts;
    let rise = if settings.air_temp_rise_c > 0.0 { settings.air_temp_rise_c } else { DEFAULT_AIR_TEMP_RISE_C };
    let needed_cfm = CFM_PER_WATT_PER_C * heat_in / rise;
    let available = chassis
        .map(|c| c.airflow_cfm)
        .filter(|c| *c > 0.0)
        .or_else(|| p.systems.iter().find_map(|s| s.part.airflow_cfm.map(|c| c * f64::from(s.quantity))));
    let chassis_air_rise_c = match available {
        Some(cfm) => heat_in * CFM_PER_WATT_PER_C / cfm,
        None => rise,
    };
    let airflow = Airflow {
        heat_in_chassis_watts: heat_in,
        design_rise_c: rise,
        needed_cfm,
        available_cfm: available,
        headroom_cfm: available.map(|a| a - needed_cfm),
        chassis_air_rise_c,
    };
    if let Some(a) = available
        && needed_cfm > a
        && heat_in > 0.0
    {
        let mut d = Diagnostic::new(
            Severity::Warning,
            "airflow-insufficient",
            in_node(
                node.name,
                text!(
                    AIRFLOW_INSUFFICIENT,
                    heat = format!("{heat_in:.0}"),
                    needed = format!("{needed_cfm:.0}"),
                    rise = format!("{rise:.0}"),
                    rated = format!("{a:.0}"),
                    actual = format!("{chassis_air_rise_c:.0}")
                ),
            ),
        )
        .in_node(i)
        .with_fix(text!(AIRFLOW_INSUFFICIENT_FIX));
        if let Some(c) = p.chassis.first() {
            d = d.with_part(&c.part.id).with_line(Location::Node(i), c.line);
        }
        out.push(d);
    }
    airflow
}

/// CPU cooler headroom: each CPU unit paired with a cooler unit in order, a custom loop that
/// also cools the GPUs counting only what the GPUs leave of its rating.
fn cpu_cooling(node: &Node<'_>) -> Vec<CpuCooling> {
    let p = &node.parts;
    let loop_gpu_watts: f64 =
        p.gpus.iter().filter(|g| g.in_system.is_none()).map(|g| g.part.tdp_watts * f64::from(g.quantity)).sum();
    let mut cooler_units = p.coolers.iter().flat_map(|c| std::iter::repeat_n(c, c.quantity.min(64) as usize));
    let mut cpus = Vec::new();
    for c in &p.cpus {
        for _ in 0..c.quantity.min(64) {
            let max = c.part.max_power_watts.unwrap_or(c.part.tdp_watts);
            let cooler = cooler_units.next();
            let rated = cooler.map(|k| {
                if k.part.kind == CoolerKind::CustomLoop && k.part.cools_gpus {
                    (k.part.rated_heat_watts - loop_gpu_watts).max(0.0)
                } else {
                    k.part.rated_heat_watts
                }
            });
            cpus.push(CpuCooling {
                cpu: c.part.id.clone(),
                cooler: cooler.map(|k| k.part.id.clone()),
                cpu_max_watts: max,
                cooler_rated_watts: rated,
                headroom_watts: rated.map(|r| r - max),
            });
        }
    }
    cpus
}

/// GPU temperature estimates at sustained full load, in line and unit order, with the
/// `gpu-temp-over-max`, `gpu-temp-high`, `gpu-open-air-stacked` and `passive-gpu-in-tower`
/// findings. `inlet` is the air temperature at the cards.
fn gpu_temperatures(
    node: &Node<'_>,
    layout: Option<&NodeLayout>,
    inlet: f64,
    settings: &ThermalSettings,
    out: &mut Vec<Diagnostic>,
) -> Vec<GpuThermal> {
    let p = &node.parts;
    let i = node.index;
    // A tower without GPU bays: GPU workstation towers with bays (Supermicro SYS-740GP) have
    // server fans ducted over their passive cards.
    let tower = p.chassis().is_some_and(|c| c.kind == ChassisKind::Tower && c.gpu_slots.is_none());
    let loop_cools_gpus = p.coolers.iter().any(|c| c.part.kind == CoolerKind::CustomLoop && c.part.cools_gpus);
    // Positions of the PCIe GPUs from the layout.
    let placed = |line: usize, unit: u32| {
        layout.and_then(|l| {
            l.cards.iter().find(|c| c.line == line && c.unit == unit && c.kind == crate::core::catalog::PartKind::Gpu)
        })
    };
    let mut units: Vec<GpuUnit<'_>> = Vec::new();
    for g in &p.gpus {
        for unit in 0..g.quantity.min(crate::core::build::MAX_QUANTITY) {
            let style = if loop_cools_gpus && g.in_system.is_none() { CoolerStyle::Liquid } else { g.part.cooler };
            let card = if g.in_system.is_none() && g.part.form_factor == GpuFormFactor::Pcie {
                placed(g.line, unit)
            } else {
                None
            };
            let board_range =
                card.filter(|c| c.slot_kind == SlotKind::Board).and_then(|c| Some((c.position?, c.last_position?)));
            units.push(GpuUnit {
                part: g.part,
                line: g.line,
                unit,
                style,
                board_range,
                position: card.and_then(|c| c.position),
            });
        }
    }
    let mut gpus = Vec::new();
    let mut stacked = false;
    let mut passive_in_tower = false;
    for u in &units {
        let mut rise_c = cooler_rise_c(u.style);
        if u.style == CoolerStyle::Passive && tower {
            rise_c *= PASSIVE_IN_TOWER_FACTOR;
            passive_in_tower = true;
        }
        let neighbours = match (u.style, u.board_range) {
            (CoolerStyle::OpenAir, Some((first, last))) => units
                .iter()
                .filter(|o| matches!(o.style, CoolerStyle::OpenAir | CoolerStyle::Passive))
                .filter_map(|o| o.board_range)
                .filter(|&(of, ol)| ol.saturating_add(1) == first || last.saturating_add(1) == of)
                .count(),
            _ => 0,
        };
        let neighbour_c = NEIGHBOUR_PENALTY_C * neighbours as f64;
        if neighbours > 0 {
            stacked = true;
        }
        let estimated = inlet + rise_c + neighbour_c;
        let headroom = u.part.max_temp_c - estimated;
        let line_ref = |d: Diagnostic| d.with_part(&u.part.id).with_line(Location::Node(i), u.line).in_node(i);
        if estimated >= u.part.max_temp_c {
            out.push(
                line_ref(Diagnostic::new(
                    Severity::Warning,
                    "gpu-temp-over-max",
                    in_node(
                        node.name,
                        text!(
                            GPU_TEMP_OVER_MAX,
                            gpu = &u.part.name,
                            unit = (u.unit + 1).to_string(),
                            estimated = format!("{estimated:.0}"),
                            max = format!("{:.0}", u.part.max_temp_c)
                        ),
                    ),
                ))
                .with_fix(text!(GPU_TEMP_OVER_MAX_FIX)),
            );
        } else if estimated >= settings.gpu_alert_c {
            out.push(
                line_ref(Diagnostic::new(
                    Severity::Warning,
                    "gpu-temp-high",
                    in_node(
                        node.name,
                        text!(
                            GPU_TEMP_HIGH,
                            gpu = &u.part.name,
                            unit = (u.unit + 1).to_string(),
                            estimated = format!("{estimated:.0}"),
                            alert = format!("{:.0}", settings.gpu_alert_c),
                            headroom = format!("{headroom:.0}")
                        ),
                    ),
                ))
                .with_fix(text!(GPU_TEMP_HIGH_FIX)),
            );
        }
        gpus.push(GpuThermal {
            part: u.part.id.clone(),
            name: u.part.name.clone(),
            line: u.line,
            unit: u.unit,
            cooling: u.style,
            position: u.position,
            power_watts: u.part.tdp_watts,
            inlet_c: inlet,
            cooler_rise_c: rise_c,
            neighbour_c,
            estimated_temp_c: estimated,
            max_temp_c: u.part.max_temp_c,
            headroom_c: headroom,
        });
    }
    if stacked {
        let mut d =
            Diagnostic::new(Severity::Warning, "gpu-open-air-stacked", in_node(node.name, text!(GPU_OPEN_AIR_STACKED)))
                .in_node(i)
                .with_fix(text!(GPU_OPEN_AIR_STACKED_FIX));
        for g in p.gpus.iter().filter(|g| g.part.cooler == CoolerStyle::OpenAir) {
            d = d.with_part(&g.part.id).with_line(Location::Node(i), g.line);
        }
        out.push(d);
    }
    if passive_in_tower {
        let mut d =
            Diagnostic::new(Severity::Warning, "passive-gpu-in-tower", in_node(node.name, text!(PASSIVE_GPU_IN_TOWER)))
                .in_node(i)
                .with_fix(text!(PASSIVE_GPU_IN_TOWER_FIX));
        for g in p.gpus.iter().filter(|g| g.part.cooler == CoolerStyle::Passive) {
            d = d.with_part(&g.part.id).with_line(Location::Node(i), g.line);
        }
        out.push(d);
    }
    gpus.sort_by_key(|g| (g.line, g.unit));
    gpus
}

/// `system-ambient-exceeded`: the site's inlet air above a complete system's operating limit.
fn system_ambient_rules(node: &Node<'_>, ambient: f64, out: &mut Vec<Diagnostic>) {
    let i = node.index;
    for s in &node.parts.systems {
        if ambient > s.part.max_ambient_c {
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    "system-ambient-exceeded",
                    in_node(
                        node.name,
                        text!(
                            SYSTEM_AMBIENT_EXCEEDED,
                            ambient = format!("{ambient:.0}"),
                            system = &s.part.name,
                            max = format!("{:.0}", s.part.max_ambient_c)
                        ),
                    ),
                )
                .with_part(&s.part.id)
                .with_line(Location::Node(i), s.line)
                .in_node(i)
                .with_fix(text!(SYSTEM_AMBIENT_EXCEEDED_FIX)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_assumption_has_the_same_placeholders_in_both_languages() {
        crate::core::i18n::assert_table_is_translated(ASSUMPTIONS);
    }

    #[test]
    fn airflow_formula() {
        // 1000 W at a 15 °C rise: 1.76 × 1000 / 15 = 117.3 CFM (domain notes §3).
        assert!((CFM_PER_WATT_PER_C * 1000.0 / 15.0 - 117.33).abs() < 0.01);
    }

    #[test]
    fn liquid_is_eighteen_below_open_air() {
        // Field guide 003 §2.1: water cooling runs about 18 °C cooler than air.
        assert!((cooler_rise_c(CoolerStyle::OpenAir) - cooler_rise_c(CoolerStyle::Liquid) - 18.0).abs() < 1e-9);
        assert!(cooler_rise_c(CoolerStyle::Blower) > cooler_rise_c(CoolerStyle::OpenAir));
    }
}
