//! Cooling rules: CPU coolers against the CPUs (count, socket mount, rated heat), custom loops
//! against everything they cool, and cooler height and radiator length against the chassis.

use super::{Attach as _, diag};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::catalog::{Cooler, CoolerKind};
use crate::core::resolve::Node;

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
            diag(node, Severity::Warning, "cooler-count-low", format!("has {cpus} CPUs and {coolers} cooler(s)"))
                .at_each(i, &p.coolers)
                .with_fix("Add a cooler per CPU"),
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
                        format!(
                            "{} does not mount on socket {} ({} lists {})",
                            cooler.name,
                            cpu.part.socket,
                            cooler.name,
                            cooler.sockets.join(", ")
                        ),
                    )
                    .at(i, c)
                    .at(i, cpu)
                    .with_fix(format!("Use a cooler with a {} mount", cpu.part.socket)),
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
                            format!(
                                "{} is rated for {:.0} W, below {}'s {:.0} W TDP",
                                cooler.name, cooler.rated_heat_watts, cpu.part.name, cpu.part.tdp_watts
                            ),
                        )
                        .at(i, c)
                        .at(i, cpu)
                        .with_fix(format!("Use a cooler rated for at least {max:.0} W")),
                    );
                } else if cooler.rated_heat_watts < max {
                    out.push(
                        diag(
                            node,
                            Severity::Warning,
                            "cooler-capacity-low",
                            format!(
                                "{} is rated for {:.0} W; {} draws up to {max:.0} W sustained and will throttle under long all-core loads",
                                cooler.name, cooler.rated_heat_watts, cpu.part.name
                            ),
                        )
                        .at(i, c)
                        .at(i, cpu)
                        .with_fix(format!("Use a cooler rated for at least {max:.0} W")),
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
                        format!(
                            "the loop {} is rated for {:.0} W but cools CPUs and GPUs drawing up to {load:.0} W",
                            cooler.name,
                            cooler.rated_heat_watts * f64::from(c.quantity)
                        ),
                    )
                    .at(i, c)
                    .with_fix("Add radiator capacity"),
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
                    format!("{} is {h:.0} mm tall; {} fits coolers up to {max:.0} mm", cooler.name, ch.name),
                )
                .at(i, c);
                out.push(d.with_chassis(node).with_fix("Use a lower cooler, an AIO, or a larger chassis"));
            }
            if let (Some(r), Some(max)) = (cooler.radiator_mm, ch.max_radiator_mm)
                && r > max
            {
                let d = diag(
                    node,
                    Severity::Error,
                    "radiator-too-long",
                    format!(
                        "{}'s {r:.0} mm radiator does not fit {}, which takes up to {max:.0} mm",
                        cooler.name, ch.name
                    ),
                )
                .at(i, c);
                out.push(d.with_chassis(node).with_fix("Use a shorter radiator or a larger chassis"));
            }
        }
    }
}
