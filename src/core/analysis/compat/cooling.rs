//! Cooling rules: CPU coolers against the CPUs (count, socket mount, rated heat), custom loops
//! against everything they cool, and cooler height and radiator length against the chassis.

use super::{Attach as _, diag};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::catalog::{Cooler, CoolerKind};
use crate::core::resolve::Node;
use crate::text;

crate::templates! {
    pub(crate) TEMPLATES;
    COOLER_COUNT_LOW "cooler-count-low" {
        en: "has {cpus} CPUs and {coolers} cooler(s)",
        zh: "有 {cpus} 颗 CPU，但只有 {coolers} 个散热器",
    }
    COOLER_COUNT_LOW_FIX "cooler-count-low" {
        en: "Add a cooler per CPU",
        zh: "每颗 CPU 配一个散热器",
    }
    COOLER_SOCKET_MISMATCH "cooler-socket-mismatch" {
        en: "{cooler} does not mount on socket {socket} ({cooler} lists {sockets})",
        zh: "{cooler} 无法安装在 {socket} 插槽上（{cooler} 支持 {sockets}）",
    }
    COOLER_SOCKET_MISMATCH_FIX "cooler-socket-mismatch" {
        en: "Use a cooler with a {socket} mount",
        zh: "换用带 {socket} 扣具的散热器",
    }
    COOLER_BELOW_TDP "cooler-capacity-low" {
        en: "{cooler} is rated for {rated} W, below {cpu}'s {tdp} W TDP",
        zh: "{cooler} 的额定散热能力为 {rated} W，低于 {cpu} 的 {tdp} W TDP",
    }
    COOLER_BELOW_SUSTAINED "cooler-capacity-low" {
        en: "{cooler} is rated for {rated} W; {cpu} draws up to {max} W sustained and will throttle under long all-core loads",
        zh: "{cooler} 的额定散热能力为 {rated} W；{cpu} 持续功耗最高 {max} W，长时间全核负载下会降频",
    }
    COOLER_CAPACITY_FIX "cooler-capacity-low" {
        en: "Use a cooler rated for at least {watts} W",
        zh: "换用额定散热能力不低于 {watts} W 的散热器",
    }
    LOOP_BELOW_LOAD "cooler-capacity-low" {
        en: "the loop {cooler} is rated for {rated} W but cools CPUs and GPUs drawing up to {load} W",
        zh: "水冷回路 {cooler} 的额定散热能力为 {rated} W，但所冷却的 CPU 和 GPU 功耗最高达 {load} W",
    }
    LOOP_BELOW_LOAD_FIX "cooler-capacity-low" {
        en: "Add radiator capacity",
        zh: "增加冷排容量",
    }
    COOLER_TOO_TALL "cooler-too-tall" {
        en: "{cooler} is {height} mm tall; {chassis} fits coolers up to {max} mm",
        zh: "{cooler} 高 {height} mm；{chassis} 最高只能容纳 {max} mm 的散热器",
    }
    COOLER_TOO_TALL_FIX "cooler-too-tall" {
        en: "Use a lower cooler, an AIO, or a larger chassis",
        zh: "换用更矮的散热器、一体式水冷或更大的机箱",
    }
    RADIATOR_TOO_LONG "radiator-too-long" {
        en: "{cooler}'s {length} mm radiator does not fit {chassis}, which takes up to {max} mm",
        zh: "{cooler} 的 {length} mm 冷排装不进 {chassis}，该机箱最长支持 {max} mm",
    }
    RADIATOR_TOO_LONG_FIX "radiator-too-long" {
        en: "Use a shorter radiator or a larger chassis",
        zh: "换用更短的冷排或更大的机箱",
    }
}

/// `cooler-socket-mismatch`: whether a cooler mounts on a socket.
#[must_use]
pub fn cooler_mounts_on(cooler: &Cooler, socket: &str) -> bool {
    cooler.sockets.iter().any(|s| s == socket)
}

pub(super) fn cooler_rules(node: &Node<'_>, out: &mut Vec<Diagnostic>) {
    let p = &node.parts;
    let i = node.index;
    let chassis = p.chassis();
    let cpus = p.cpu_count();
    let coolers: u32 = p.coolers.iter().map(|c| c.quantity).sum();
    if coolers > 0 && coolers < cpus {
        out.push(
            diag(
                node,
                Severity::Warning,
                "cooler-count-low",
                text!(COOLER_COUNT_LOW, cpus = cpus.to_string(), coolers = coolers.to_string()),
            )
            .at_each(i, &p.coolers)
            .with_fix(text!(COOLER_COUNT_LOW_FIX)),
        );
    }
    for c in &p.coolers {
        let cooler = c.part;
        for cpu in &p.cpus {
            if !cooler_mounts_on(cooler, &cpu.part.socket) {
                out.push(
                    diag(
                        node,
                        Severity::Error,
                        "cooler-socket-mismatch",
                        text!(
                            COOLER_SOCKET_MISMATCH,
                            cooler = &cooler.name,
                            socket = &cpu.part.socket,
                            sockets = cooler.sockets.clone()
                        ),
                    )
                    .at(i, c)
                    .at(i, cpu)
                    .with_fix(text!(COOLER_SOCKET_MISMATCH_FIX, socket = &cpu.part.socket)),
                );
            }
            let max = cpu.part.max_power_watts.unwrap_or(cpu.part.tdp_watts);
            if cooler.kind != CoolerKind::CustomLoop || !cooler.cools_gpus {
                if cooler.rated_heat_watts < cpu.part.tdp_watts {
                    out.push(
                        diag(
                            node,
                            Severity::Error,
                            "cooler-capacity-low",
                            text!(
                                COOLER_BELOW_TDP,
                                cooler = &cooler.name,
                                rated = format!("{:.0}", cooler.rated_heat_watts),
                                cpu = &cpu.part.name,
                                tdp = format!("{:.0}", cpu.part.tdp_watts)
                            ),
                        )
                        .at(i, c)
                        .at(i, cpu)
                        .with_fix(text!(COOLER_CAPACITY_FIX, watts = format!("{max:.0}"))),
                    );
                } else if cooler.rated_heat_watts < max {
                    out.push(
                        diag(
                            node,
                            Severity::Warning,
                            "cooler-capacity-low",
                            text!(
                                COOLER_BELOW_SUSTAINED,
                                cooler = &cooler.name,
                                rated = format!("{:.0}", cooler.rated_heat_watts),
                                cpu = &cpu.part.name,
                                max = format!("{max:.0}")
                            ),
                        )
                        .at(i, c)
                        .at(i, cpu)
                        .with_fix(text!(COOLER_CAPACITY_FIX, watts = format!("{max:.0}"))),
                    );
                }
            }
        }
        if cooler.kind == CoolerKind::CustomLoop && cooler.cools_gpus {
            let cpu_w: f64 =
                p.cpus.iter().map(|c| c.part.max_power_watts.unwrap_or(c.part.tdp_watts) * f64::from(c.quantity)).sum();
            let gpu_w: f64 =
                p.gpus.iter().filter(|g| g.in_system.is_none()).map(|g| g.part.tdp_watts * f64::from(g.quantity)).sum();
            let load = cpu_w + gpu_w;
            if cooler.rated_heat_watts * f64::from(c.quantity) < load {
                out.push(
                    diag(
                        node,
                        Severity::Warning,
                        "cooler-capacity-low",
                        text!(
                            LOOP_BELOW_LOAD,
                            cooler = &cooler.name,
                            rated = format!("{:.0}", cooler.rated_heat_watts * f64::from(c.quantity)),
                            load = format!("{load:.0}")
                        ),
                    )
                    .at(i, c)
                    .with_fix(text!(LOOP_BELOW_LOAD_FIX)),
                );
            }
        }
        if let Some(ch) = chassis {
            if let (Some(h), Some(max)) = (cooler.height_mm, ch.max_cooler_height_mm)
                && h > max
            {
                let d = diag(
                    node,
                    Severity::Error,
                    "cooler-too-tall",
                    text!(
                        COOLER_TOO_TALL,
                        cooler = &cooler.name,
                        height = format!("{h:.0}"),
                        chassis = &ch.name,
                        max = format!("{max:.0}")
                    ),
                )
                .at(i, c);
                out.push(d.with_chassis(node).with_fix(text!(COOLER_TOO_TALL_FIX)));
            }
            if let (Some(r), Some(max)) = (cooler.radiator_mm, ch.max_radiator_mm)
                && r > max
            {
                let d = diag(
                    node,
                    Severity::Error,
                    "radiator-too-long",
                    text!(
                        RADIATOR_TOO_LONG,
                        cooler = &cooler.name,
                        length = format!("{r:.0}"),
                        chassis = &ch.name,
                        max = format!("{max:.0}")
                    ),
                )
                .at(i, c);
                out.push(d.with_chassis(node).with_fix(text!(RADIATOR_TOO_LONG_FIX)));
            }
        }
    }
}
