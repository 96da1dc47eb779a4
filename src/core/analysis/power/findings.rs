//! The power findings of a node group: PSU capacity against sustained and transient load,
//! redundancy, the circuit, and PSU lines the node does not use.

use super::PowerReport;
use crate::core::analysis::compat::NodeRole;
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::build::Location;
use crate::core::resolve::{Node, Resolved};

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

pub(super) fn diagnostics(resolved: &Resolved<'_>, report: &PowerReport) -> Vec<Diagnostic> {
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
