//! Power feed rules: the PSUs' GPU and CPU power connectors against what the cards and the
//! board need, the PSU redundancy setting, and the PSUs against the chassis' form factor and
//! bays.

use super::{Attach as _, diag};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::catalog::{Chassis, Gpu, GpuFormFactor, PowerConnector, Psu, PsuFormFactor};
use crate::core::i18n::Text;
use crate::core::resolve::Node;
use crate::text;
use std::collections::BTreeMap;

crate::templates! {
    pub(crate) TEMPLATES;
    SHORT_16PIN "psu-connectors-insufficient" {
        en: "{count} × 16-pin 12V-2x6",
        zh: "{count} 个 16-pin 12V-2x6 供电接口",
    }
    SHORT_PCIE_8PIN "psu-connectors-insufficient" {
        en: "{count} × PCIe 8-pin",
        zh: "{count} 个 PCIe 8-pin 供电接口",
    }
    SHORT_PCIE_6PIN "psu-connectors-insufficient" {
        en: "{count} × PCIe 6-pin",
        zh: "{count} 个 PCIe 6-pin 供电接口",
    }
    SHORT_GPU_EPS "psu-connectors-insufficient" {
        en: "{count} × EPS 8-pin for the GPUs",
        zh: "{count} 个供 GPU 使用的 EPS 8-pin 供电接口",
    }
    PSU_CONNECTORS_INSUFFICIENT "psu-connectors-insufficient" {
        en: "the PSU(s) lack {connectors} that the GPUs need",
        zh: "电源缺少 GPU 所需的 {connectors}",
    }
    PSU_CONNECTORS_INSUFFICIENT_FIX "psu-connectors-insufficient" {
        en: "Use a PSU with enough GPU power connectors (a native 12V-2x6 cable per 16-pin card)",
        zh: "换用显卡供电接口足够的电源（每张 16-pin 显卡配一根原生 12V-2x6 线）",
    }
    PSU_CONNECTOR_ADAPTER "psu-connector-adapter" {
        en: "{count} GPU(s) need the 8-pin to 16-pin adapter; the PSU has no native 12V-2x6 cable for them",
        zh: "{count} 块 GPU 需要 8-pin 转 16-pin 转接线；电源没有为它们提供原生 12V-2x6 线",
    }
    PSU_CONNECTOR_ADAPTER_FIX "psu-connector-adapter" {
        en: "Prefer an ATX 3.x PSU with a native 12V-2x6 cable per card",
        zh: "优先选择每张卡都有原生 12V-2x6 线的 ATX 3.x 电源",
    }
    PSU_EPS_FOR_CPUS "psu-eps-insufficient" {
        en: "the PSU(s) have {eps} EPS 8-pin CPU connector(s) for {cpus} CPU(s)",
        zh: "电源只有 {eps} 个 EPS 8-pin CPU 供电接口，却有 {cpus} 颗 CPU",
    }
    PSU_EPS_FOR_CPUS_FIX "psu-eps-insufficient" {
        en: "Use a PSU with an EPS 8-pin cable per CPU",
        zh: "换用每颗 CPU 都有一根 EPS 8-pin 线的电源",
    }
    PSU_EPS_FOR_BOARD "psu-eps-insufficient" {
        en: "the board has {board} EPS 8-pin input(s) and the GPUs need {gpus}, the PSU(s) provide {eps}; the board runs, with less CPU power headroom",
        zh: "主板有 {board} 个 EPS 8-pin 输入，GPU 需要 {gpus} 个，电源只提供 {eps} 个；主板可以运行，但 CPU 供电余量较小",
    }
    PSU_EPS_FOR_BOARD_FIX "psu-eps-insufficient" {
        en: "Use a PSU with more EPS cables",
        zh: "换用 EPS 线更多的电源",
    }
    PSU_REDUNDANCY_N_PLUS_ONE "psu-redundancy-insufficient" {
        en: "is set to N+1 PSU redundancy with {units} PSU(s); N+1 needs at least 2",
        zh: "设置了 N+1 电源冗余，但只有 {units} 个电源；N+1 至少需要 2 个电源",
    }
    PSU_REDUNDANCY_N_PLUS_ONE_FIX "psu-redundancy-insufficient" {
        en: "Add a PSU, or set PSU redundancy to None in the node's header",
        zh: "增加一个电源，或在节点标题栏中把“电源冗余”设为无",
    }
    PSU_REDUNDANCY_N_PLUS_N "psu-redundancy-insufficient" {
        en: "is set to N+N PSU redundancy with {units} PSU(s); N+N needs an even number, at least 2",
        zh: "设置了 N+N 电源冗余，但有 {units} 个电源；N+N 需要偶数个电源，至少 2 个",
    }
    PSU_REDUNDANCY_N_PLUS_N_FIX "psu-redundancy-insufficient" {
        en: "Use an even number of PSUs, or choose another PSU redundancy in the node's header",
        zh: "使用偶数个电源，或在节点标题栏中为“电源冗余”选择其他方式",
    }
    PSU_FORM_FACTOR_MISMATCH "psu-form-factor-mismatch" {
        en: "{psu} does not fit {chassis}, which takes {form} supplies",
        zh: "{psu} 装不进 {chassis}，该机箱只支持 {form} 电源",
    }
    PSU_FORM_FACTOR_MISMATCH_FIX "psu-form-factor-mismatch" {
        en: "Use a PSU of the chassis' form factor",
        zh: "使用与机箱规格相符的电源",
    }
    PSU_BAYS_EXCEEDED "psu-bays-exceeded" {
        en: "has {units} PSUs but {chassis} has {bays} PSU bay(s)",
        zh: "有 {units} 个电源，但 {chassis} 只有 {bays} 个电源仓位",
    }
    PSU_BAYS_EXCEEDED_FIX "psu-bays-exceeded" {
        en: "Use fewer, larger PSUs",
        zh: "使用数量更少、功率更大的电源",
    }
}

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
    /// The connectors missing, as texts (`2 × 16-pin 12V-2x6`); empty when every card is fed.
    pub short: Vec<Text>,
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
    let mut short: Vec<Text> = Vec::new();
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
            short.push(text!(SHORT_16PIN, count = missing.to_string()));
        }
    }
    let p8 = get(&demand, PowerConnector::Pcie8Pin);
    if p8 > pcie8 {
        short.push(text!(SHORT_PCIE_8PIN, count = (p8 - pcie8).to_string()));
        pcie8 = 0;
    } else {
        pcie8 -= p8;
    }
    let p6 = get(&demand, PowerConnector::Pcie6Pin);
    let six = get(&supply, PowerConnector::Pcie6Pin) + pcie8;
    if p6 > six {
        short.push(text!(SHORT_PCIE_6PIN, count = (p6 - six).to_string()));
    }
    let gpu_eps = get(&demand, PowerConnector::Eps8Pin);
    let eps_supply = get(&supply, PowerConnector::Eps8Pin);
    if !server_psus || gpu_eps > 0 {
        // A server chassis' power board feeds the CPUs itself; ATX units give each CPU one EPS
        // cable first.
        let eps_free_for_gpus = if server_psus { eps_supply } else { eps_supply.saturating_sub(cpus) };
        if gpu_eps > eps_free_for_gpus {
            short.push(text!(SHORT_GPU_EPS, count = (gpu_eps - eps_free_for_gpus).to_string()));
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
                text!(PSU_CONNECTORS_INSUFFICIENT, connectors = short),
            )
            .at_each(i, &p.psus)
            .at_each(i, gpus.iter().copied())
            .with_fix(text!(PSU_CONNECTORS_INSUFFICIENT_FIX)),
        );
    } else if adapters > 0 {
        let d = diag(
            node,
            Severity::Warning,
            "psu-connector-adapter",
            text!(PSU_CONNECTOR_ADAPTER, count = adapters.to_string()),
        )
        .at_each(i, &p.psus);
        out.push(d.with_fix(text!(PSU_CONNECTOR_ADAPTER_FIX)));
    }
    if !server_psus && cpus > 0 {
        if eps_supply < cpus {
            out.push(
                diag(
                    node,
                    Severity::Error,
                    "psu-eps-insufficient",
                    text!(PSU_EPS_FOR_CPUS, eps = eps_supply.to_string(), cpus = cpus.to_string()),
                )
                .at_each(i, &p.psus)
                .with_fix(text!(PSU_EPS_FOR_CPUS_FIX)),
            );
        } else if eps_supply < board_eps + gpu_eps {
            out.push(
                diag(
                    node,
                    Severity::Warning,
                    "psu-eps-insufficient",
                    text!(
                        PSU_EPS_FOR_BOARD,
                        board = board_eps.to_string(),
                        gpus = gpu_eps.to_string(),
                        eps = eps_supply.to_string()
                    ),
                )
                .at_each(i, &p.psus)
                .with_fix(text!(PSU_EPS_FOR_BOARD_FIX)),
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
                text!(PSU_REDUNDANCY_N_PLUS_ONE, units = units.to_string()),
            )
            .with_fix(text!(PSU_REDUNDANCY_N_PLUS_ONE_FIX)),
        ),
        crate::core::build::Redundancy::NPlusN if units < 2 || !units.is_multiple_of(2) => out.push(
            diag(
                node,
                Severity::Error,
                "psu-redundancy-insufficient",
                text!(PSU_REDUNDANCY_N_PLUS_N, units = units.to_string()),
            )
            .with_fix(text!(PSU_REDUNDANCY_N_PLUS_N_FIX)),
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
                text!(
                    PSU_FORM_FACTOR_MISMATCH,
                    psu = &u.part.name,
                    chassis = &ch.name,
                    form = format!("{:?}", ch.psu_form_factor)
                ),
            )
            .at(i, u);
            out.push(d.with_chassis(node).with_fix(text!(PSU_FORM_FACTOR_MISMATCH_FIX)));
        }
    }
    if ch.psu_bays > 0 && units > u32::from(ch.psu_bays) {
        out.push(
            diag(
                node,
                Severity::Error,
                "psu-bays-exceeded",
                text!(PSU_BAYS_EXCEEDED, units = units.to_string(), chassis = &ch.name, bays = ch.psu_bays.to_string()),
            )
            .at_each(i, &p.psus)
            .with_chassis(node)
            .with_fix(text!(PSU_BAYS_EXCEEDED_FIX)),
        );
    }
}
