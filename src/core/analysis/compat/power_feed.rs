//! Power feed rules: the PSUs' GPU and CPU power connectors against what the cards and the
//! board need, the PSU redundancy setting, and the PSUs against the chassis' form factor and
//! bays.

use super::{Attach as _, diag};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::catalog::{Chassis, Gpu, GpuFormFactor, PowerConnector, Psu, PsuFormFactor};
use crate::core::resolve::Node;
use std::collections::BTreeMap;

/// PCIe 8-pin connectors a 16-pin adapter needs per 150 W of card power (the adapter NVIDIA
/// ships with 16-pin cards takes 8-pin PCIe plugs at 150 W each, PCIe CEM).
pub const PCIE_8PIN_WATTS: f64 = 150.0;

/// Connector counts by type.
type Connectors = BTreeMap<PowerConnector, u32>;

fn add_connectors(into: &mut Connectors, list: &[crate::core::catalog::ConnectorCount], times: u32) {
    for c in list {
        *into.entry(c.connector).or_insert(0) += u32::from(c.count) * times;
    }
}

/// What the PSUs' connectors leave unfed.
pub struct Feed {
    /// The connectors missing, in words (`2 × 16-pin 12V-2x6`); empty when every card is fed.
    pub short: Vec<String>,
    /// 16-pin cards fed through NVIDIA's 8-pin adapter.
    pub adapters: u32,
    /// EPS 8-pin connectors of the PSUs.
    pub eps_supply: u32,
    /// EPS 8-pin connectors the GPUs take.
    pub gpu_eps: u32,
}

/// The GPU power connectors `psus` (model, units) and the chassis' power board give against
/// what the PCIe `gpus` (model, count) need, with `cpus` CPUs taking an EPS cable each from
/// ATX units: the rule `psu-connectors-insufficient`, shared with the advisor's search so it
/// can skip PSU options that cannot feed the cards.
#[must_use]
pub fn connector_feed(psus: &[(&Psu, u32)], chassis: Option<&Chassis>, gpus: &[(&Gpu, u32)], cpus: u32) -> Feed {
    let server_psus = !psus.is_empty()
        && psus.iter().all(|(u, _)| matches!(u.form_factor, PsuFormFactor::Crps | PsuFormFactor::ServerModule));
    let mut supply = Connectors::new();
    for (u, quantity) in psus {
        add_connectors(&mut supply, &u.connectors, *quantity);
    }
    if let Some(ch) = chassis {
        add_connectors(&mut supply, &ch.gpu_power_connectors, 1);
    }
    let mut demand = Connectors::new();
    for (g, quantity) in gpus {
        add_connectors(&mut demand, &g.power_connectors, *quantity);
    }
    let get = |m: &Connectors, k| m.get(&k).copied().unwrap_or(0);
    let mut pcie8 = get(&supply, PowerConnector::Pcie8Pin);
    let mut short: Vec<String> = Vec::new();
    let mut adapters = 0u32;
    // 16-pin: native first, then NVIDIA's 8-pin adapter (one 150 W plug per 150 W of card power).
    let hp_demand = get(&demand, PowerConnector::Hpwr16Pin);
    let hp_supply = get(&supply, PowerConnector::Hpwr16Pin);
    if hp_demand > hp_supply {
        let mut missing = hp_demand - hp_supply;
        let per_adapter: u32 = gpus
            .iter()
            .filter(|(g, _)| g.power_connectors.iter().any(|c| c.connector == PowerConnector::Hpwr16Pin))
            .map(|(g, _)| {
                let n = (g.tdp_watts / PCIE_8PIN_WATTS).ceil();
                u32::try_from(crate::core::units::round_non_negative(n)).unwrap_or(4).max(2)
            })
            .max()
            .unwrap_or(4);
        while missing > 0 && pcie8 >= per_adapter {
            pcie8 -= per_adapter;
            missing -= 1;
            adapters += 1;
        }
        if missing > 0 {
            short.push(format!("{missing} × 16-pin 12V-2x6"));
        }
    }
    let p8 = get(&demand, PowerConnector::Pcie8Pin);
    if p8 > pcie8 {
        short.push(format!("{} × PCIe 8-pin", p8 - pcie8));
        pcie8 = 0;
    } else {
        pcie8 -= p8;
    }
    let p6 = get(&demand, PowerConnector::Pcie6Pin);
    let six = get(&supply, PowerConnector::Pcie6Pin) + pcie8;
    if p6 > six {
        short.push(format!("{} × PCIe 6-pin", p6 - six));
    }
    let gpu_eps = get(&demand, PowerConnector::Eps8Pin);
    let eps_supply = get(&supply, PowerConnector::Eps8Pin);
    if !server_psus || gpu_eps > 0 {
        // A server chassis' power board feeds the CPUs itself; ATX units give each CPU one EPS
        // cable first.
        let eps_free_for_gpus = if server_psus { eps_supply } else { eps_supply.saturating_sub(cpus) };
        if gpu_eps > eps_free_for_gpus {
            short.push(format!("{} × EPS 8-pin for the GPUs", gpu_eps - eps_free_for_gpus));
        }
    }
    Feed { short, adapters, eps_supply, gpu_eps }
}

/// `psu-form-factor-mismatch`: whether a chassis takes a PSU form factor (an ATX bay takes an
/// SFX unit).
#[must_use]
pub fn chassis_takes_psu(chassis: &Chassis, form: PsuFormFactor) -> bool {
    form == chassis.psu_form_factor || (form == PsuFormFactor::Sfx && chassis.psu_form_factor == PsuFormFactor::Atx)
}

pub(super) fn connector_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    if p.psus.is_empty() {
        return;
    }
    let i = node.index;
    let server_psus =
        p.psus.iter().all(|u| matches!(u.part.form_factor, PsuFormFactor::Crps | PsuFormFactor::ServerModule));
    let gpus: Vec<_> =
        p.gpus.iter().filter(|g| g.in_system.is_none() && g.part.form_factor == GpuFormFactor::Pcie).collect();
    let psu_units: Vec<(&Psu, u32)> = p.psus.iter().map(|u| (u.part, u.quantity)).collect();
    let gpu_units: Vec<(&Gpu, u32)> = gpus.iter().map(|g| (g.part, g.quantity)).collect();
    let cpus = p.cpu_count();
    let Feed { short, adapters, eps_supply, gpu_eps } = connector_feed(&psu_units, p.chassis(), &gpu_units, cpus);
    let board_eps = p.mainboard().map_or(0, |b| u32::from(b.eps_connectors));
    if !short.is_empty() {
        out.push(
            diag(
                node,
                Severity::Error,
                "psu-connectors-insufficient",
                format!("the PSU(s) lack {} that the GPUs need", short.join(", ")),
            )
            .at_each(i, &p.psus)
            .at_each(i, gpus.iter().copied())
            .with_fix("Use a PSU with enough GPU power connectors (a native 12V-2x6 cable per 16-pin card)"),
        );
    } else if adapters > 0 {
        let d = diag(
            node,
            Severity::Warning,
            "psu-connector-adapter",
            format!("{adapters} GPU(s) need the 8-pin to 16-pin adapter; the PSU has no native 12V-2x6 cable for them"),
        )
        .at_each(i, &p.psus);
        out.push(d.with_fix("Prefer an ATX 3.x PSU with a native 12V-2x6 cable per card"));
    }
    if !server_psus && cpus > 0 {
        if eps_supply < cpus {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "psu-eps-insufficient",
                    format!("the PSU(s) have {eps_supply} EPS 8-pin CPU connector(s) for {cpus} CPU(s)"),
                )
                .at_each(i, &p.psus)
                .with_fix("Use a PSU with an EPS 8-pin cable per CPU"),
            );
        } else if eps_supply < board_eps + gpu_eps {
            out.push(
                diag(
                    node,
                    Severity::Warning,
                    "psu-eps-insufficient",
                    format!("the board has {board_eps} EPS 8-pin input(s) and the GPUs need {gpu_eps}, the PSU(s) provide {eps_supply}; the board runs, with less CPU power headroom"),
                )
                .at_each(i, &p.psus)
                .with_fix("Use a PSU with more EPS cables"),
            );
        }
    }
}

pub(super) fn psu_fit_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    let i = node.index;
    let units = p.psu_count();
    if units == 0 && !p.systems.is_empty() {
        // A complete system's own supplies and redundancy come from its datasheet.
        return;
    }
    match node.redundancy {
        crate::core::build::Redundancy::NPlusOne if units < 2 => out.push(
            diag(
                node,
                Severity::Error,
                "psu-redundancy-insufficient",
                format!("is set to N+1 PSU redundancy with {units} PSU(s); N+1 needs at least 2"),
            )
            .with_fix("Add a PSU, or set redundancy to none"),
        ),
        crate::core::build::Redundancy::NPlusN if units < 2 || !units.is_multiple_of(2) => out.push(
            diag(
                node,
                Severity::Error,
                "psu-redundancy-insufficient",
                format!("is set to N+N PSU redundancy with {units} PSU(s); N+N needs an even number, at least 2"),
            )
            .with_fix("Use an even number of PSUs, or another redundancy setting"),
        ),
        _ => {}
    }
    let Some(ch) = p.chassis() else { return };
    for u in p.psus.iter().filter(|u| u.included_with.is_none()) {
        if !chassis_takes_psu(ch, u.part.form_factor) {
            let d = diag(
                node,
                Severity::Error,
                "psu-form-factor-mismatch",
                format!("{} does not fit {}, which takes {:?} supplies", u.part.name, ch.name, ch.psu_form_factor),
            )
            .at(i, u);
            out.push(d.with_chassis(node).with_fix("Use a PSU of the chassis' form factor"));
        }
    }
    if ch.psu_bays > 0 && units > u32::from(ch.psu_bays) {
        out.push(
            diag(
                node,
                Severity::Error,
                "psu-bays-exceeded",
                format!("has {units} PSUs but {} has {} PSU bay(s)", ch.name, ch.psu_bays),
            )
            .at_each(i, &p.psus)
            .with_chassis(node)
            .with_fix("Use fewer, larger PSUs"),
        );
    }
}
