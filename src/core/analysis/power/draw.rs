//! What each part draws (idle, typical, max and transient peak) and what a node group adds up
//! to, on its PSUs and at the wall.

use super::psu::{ASSUMED_TIER, efficiency_at, is_high_line, psu_summary, recommend};
use super::{CircuitCheck, Levels, NodePower, PartPower, PowerSettings};
use crate::core::analysis::compat::{NodeRole, node_role};
use crate::core::catalog::{BoardRole, ChassisKind, Gpu, GpuFormFactor, Motherboard, PartId, PartKind, PowerConnector};
use crate::core::resolve::{Node, Parts, Resolved};

/// PCIe CEM 5.x power excursion of an add-in card on the 12VHPWR / 12V-2x6 connector: steps
/// from 100 % to 300 % of sustained power (Intel ATX Version 3 Multi Rail Desktop Platform PSU
/// Design Guide, doc 336521 rev 2.1a, Table 4-3, "+12V3/4 … steps from 100 % to 300 %"), for
/// up to 100 µs.
pub const CEM5_EXCURSION_FACTOR: f64 = 3.0;

/// A single-socket desktop or workstation board (chipset, VRM losses, USB, audio, fans
/// headers): estimate. PSU guides put a desktop board at 25–40 W (hackingnote.com, "Power
/// Supply", motherboard 25–40 W); rigplan takes 30 W. Unverified against a measurement; used
/// only where the catalog board has no `typical_watts`.
pub const DESKTOP_BOARD_WATTS: f64 = 30.0;

/// A dual-socket server board with its BMC: estimate, twice the desktop figure for a second
/// socket's VRMs and the always-on BMC. Unverified; used only where the catalog board has no
/// `typical_watts`.
pub const SERVER_BOARD_WATTS: f64 = 60.0;

/// Power of one NVSwitch chip on a GPU baseboard, W: the first-generation NVSwitch is rated
/// at 100 W (WikiChip, NVSwitch; "less than 100 watts per chip", The Next Platform,
/// 2018-04-13). NVIDIA publishes no figure for the later generations; rigplan applies the same
/// 100 W to each chip of every HGX baseboard (an assumption).
pub const NVSWITCH_WATTS: f64 = 100.0;

/// Fan speed at typical duty as a share of full speed: a rigplan assumption (server fans run
/// at part speed until the GPUs load up).
pub const FAN_TYPICAL_SPEED: f64 = 0.7;

/// Fan power at full speed over fan power at typical duty: fan power goes with the cube of
/// speed (the fan affinity laws, e.g. ASHRAE Handbook — HVAC Systems and Equipment, "Fans"),
/// `1 / 0.7³ ≈ 2.9`.
#[must_use]
pub fn fan_max_over_typical() -> f64 {
    1.0 / FAN_TYPICAL_SPEED.powi(3)
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
    let switches = board.baseboard.as_ref().map_or(0, |b| b.nvswitch_count);
    match board.typical_watts {
        Some(w) => (w, "catalog typical board power".to_owned()),
        None if board.role == BoardRole::GpuBaseboard && switches > 0 => (
            f64::from(switches) * NVSWITCH_WATTS,
            format!("{switches} NVSwitch chips at {NVSWITCH_WATTS:.0} W each; the GPU modules' TDPs cover the modules"),
        ),
        None if board.role == BoardRole::GpuBaseboard => (
            0.0,
            "no switch chips and no published baseboard power; the GPU modules' TDPs cover the modules".to_owned(),
        ),
        None if board.cpu_sockets >= 2 => {
            (SERVER_BOARD_WATTS, format!("estimate {SERVER_BOARD_WATTS} W (server board)"))
        }
        None => (DESKTOP_BOARD_WATTS, format!("estimate {DESKTOP_BOARD_WATTS} W (desktop board)")),
    }
}

/// Per-line power of a node or the cluster section.
pub(super) fn part_powers(parts: &Parts<'_>, utilization: f64) -> Vec<PartPower> {
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
        // A rack server's BMC ramps its fans as the GPUs load up; a tower's case fans draw a
        // few watts, often at a fixed duty.
        if c.part.kind == ChassisKind::Rack {
            let max = w * fan_max_over_typical();
            let t = typical(w, max, utilization);
            let basis = format!(
                "catalog fan power at typical duty when idle, full speed at max load ({:.1} ×, fan affinity law)",
                fan_max_over_typical()
            );
            push(&c.part.id, &c.part.name, PartKind::Chassis, c.line, c.quantity, [w, t, max, max], false, basis);
        } else {
            let basis = "catalog fan power at typical duty, held constant".to_owned();
            push(&c.part.id, &c.part.name, PartKind::Chassis, c.line, c.quantity, [w, w, w, w], false, basis);
        }
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

pub(super) fn power_inputs(node: &Node<'_>) -> u32 {
    let psus = node.parts.psu_count();
    if psus > 0 {
        return psus;
    }
    node.parts.systems.iter().map(|s| u32::from(s.part.psu_count).saturating_mul(s.quantity)).sum::<u32>().max(1)
}

pub(super) fn node_power(
    node: &Node<'_>,
    resolved: &Resolved<'_>,
    settings: &PowerSettings,
    utilization: f64,
) -> NodePower {
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
        parts: parts.into(),
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
