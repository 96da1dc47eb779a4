//! The power findings of a node group: PSU capacity against sustained and transient load,
//! redundancy, the circuit, and PSU lines the node does not use.

use super::PowerReport;
use crate::core::analysis::compat::NodeRole;
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::build::Location;
use crate::core::i18n::in_node;
use crate::core::resolve::{Node, Resolved};
use crate::text;

crate::templates! {
    pub(crate) TEMPLATES;
    EMPTY "" {
        en: "",
        zh: "",
    }
    PSU_CAPACITY_LOW "psu-capacity-low" {
        en: "the PSUs provide {capacity} W that count (after redundancy) but the parts draw up to {load} W sustained",
        zh: "电源可计入的容量（扣除冗余后）为 {capacity} W，但部件持续功耗最高达 {load} W",
    }
    PSU_CAPACITY_LOW_FIX "psu-capacity-low" {
        en: "Fit at least {watts} W of non-redundant PSU capacity",
        zh: "配置至少 {watts} W 的非冗余电源容量",
    }
    PSU_BELOW_RECOMMENDED "psu-below-recommended" {
        en: "{capacity} W of PSU capacity is below the recommended {required} W (max {max} W + {headroom} W headroom + {ageing} W ageing + {transient} W transient); it runs at {percent} % at max load{why}",
        zh: "电源容量 {capacity} W 低于建议的 {required} W（满载 {max} W + 余量 {headroom} W + 老化 {ageing} W + 瞬时 {transient} W）；满载时负载率 {percent} %{why}",
    }
    PSU_BELOW_RECOMMENDED_SERVER "psu-below-recommended" {
        en: "; the vendor fits these supplies for this platform, so this is a thin margin rather than a fault",
        zh: "；这些电源是厂商为该平台配置的，属于余量偏小而非故障",
    }
    PSU_BELOW_RECOMMENDED_SERVER_FIX "psu-below-recommended" {
        en: "Choose the vendor's higher-rated PSU module (recommended {watts} W)",
        zh: "选用厂商更高额定功率的电源模块（建议 {watts} W）",
    }
    PSU_BELOW_RECOMMENDED_FIX "psu-below-recommended" {
        en: "Use a {watts} W unit",
        zh: "换用 {watts} W 电源",
    }
    PSU_TRANSIENT_ATX3 "psu-transient-risk" {
        en: "GPU power spikes can reach {peak} W for 100 µs, above the {limit} W the ATX 3 PSU is specified to ride ({percent} % of its rating); it may shut down under load",
        zh: "GPU 功耗尖峰可在 100 µs 内达到 {peak} W，超过该 ATX 3 电源规定可承受的 {limit} W（额定功率的 {percent} %）；满载时可能断电保护",
    }
    PSU_TRANSIENT_NOT_ATX3 "psu-transient-risk" {
        en: "GPU power spikes can reach {peak} W for 100 µs; the PSU is not ATX 3.x, so it has no excursion rating above its {capacity} W and may shut down under load",
        zh: "GPU 功耗尖峰可在 100 µs 内达到 {peak} W；该电源不是 ATX 3.x，超出其 {capacity} W 额定功率时没有瞬时过载指标，满载时可能断电保护",
    }
    PSU_TRANSIENT_FIX "psu-transient-risk" {
        en: "Use an ATX 3.x PSU large enough that twice its rating covers the peak",
        zh: "换用额定功率两倍即可覆盖峰值的 ATX 3.x 电源",
    }
    CIRCUIT_MULTIPLE_FEEDS "circuit-multiple-feeds" {
        en: "draws up to {wall} W at the wall, more than one {volts} V / {amps} A circuit carries continuously ({limit} W); spread its {inputs} power inputs over at least {circuits} circuits",
        zh: "墙插功耗最高 {wall} W，超过一路 {volts} V / {amps} A 电路可持续承载的 {limit} W；请将其 {inputs} 路电源输入分接到至少 {circuits} 路电路",
    }
    CIRCUIT_OVERLOAD "circuit-overload" {
        en: "draws up to {wall} W at the wall, more than a {volts} V / {amps} A circuit carries continuously ({limit} W at 80 % of its rating)",
        zh: "墙插功耗最高 {wall} W，超过一路 {volts} V / {amps} A 电路可持续承载的功率（额定值的 80 %，即 {limit} W）",
    }
    CIRCUIT_OVERLOAD_FIX "circuit-overload" {
        en: "Feed the nodes from a higher-rated circuit (e.g. 20 A, or 230 V) or from more circuits",
        zh: "换用更高额定值的电路（如 20 A 或 230 V）供电，或分到更多路电路上",
    }
}

/// A figure in whole units, as the findings print watts, volts, amps and percentages.
fn w0(x: f64) -> String {
    format!("{x:.0}")
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

pub(super) fn diagnostics(resolved: &Resolved<'_>, report: &PowerReport) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    super::super::twins::per_node(
        resolved,
        &mut out,
        |node, out| {
            if let Some(np) = report.nodes.get(node.index) {
                node_findings(node, np, out);
            }
        },
        |(), _| (),
    );
    out
}

/// The PSU, connector and circuit findings of one node group.
fn node_findings(node: &Node<'_>, np: &super::NodePower, out: &mut Vec<Diagnostic>) {
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
                    in_node(node.name, text!(PSU_CAPACITY_LOW, capacity = w0(psu.capacity_watts), load = w0(load))),
                )
                .in_node(i)
                .with_fix(text!(PSU_CAPACITY_LOW_FIX, watts = w0(np.recommended_psu_watts.unwrap_or(load)))),
            ));
        } else if let Some(rec) = &np.recommendation
            && psu.capacity_watts < rec.required_watts
        {
            // Server PSU modules come with the chassis, sized by the vendor to the platform's
            // measured maximum rather than to desktop calculator margins: worth knowing, not a
            // defect of the build.
            let server = server_modules_only(node);
            let (severity, why) = if server {
                (Severity::Info, text!(PSU_BELOW_RECOMMENDED_SERVER))
            } else {
                (Severity::Warning, text!(EMPTY))
            };
            out.push(psu_lines(
                node,
                Diagnostic::new(
                    severity,
                    "psu-below-recommended",
                    in_node(
                        node.name,
                        text!(
                            PSU_BELOW_RECOMMENDED,
                            capacity = w0(psu.capacity_watts),
                            required = w0(rec.required_watts),
                            max = w0(rec.max_dc_watts),
                            headroom = w0(rec.sustained_headroom_watts),
                            ageing = w0(rec.ageing_watts),
                            transient = w0(rec.transient_margin_watts),
                            percent = w0(load / psu.capacity_watts * 100.0),
                            why = why
                        ),
                    ),
                )
                .in_node(i)
                .with_fix(if server {
                    text!(PSU_BELOW_RECOMMENDED_SERVER_FIX, watts = w0(rec.recommended_watts))
                } else {
                    text!(PSU_BELOW_RECOMMENDED_FIX, watts = w0(rec.recommended_watts))
                }),
            ));
        }
        let fed_peak = np.peak_transient_watts - (np.max_watts - np.psu_fed.max_watts);
        let limit = psu.capacity_watts * psu.excursion_tolerance;
        // Server modules publish no ATX 3 excursion rating; their transient response is
        // the vendor's to qualify, so only ATX units are checked.
        if fed_peak > limit && fed_peak > load && !server_modules_only(node) {
            let message = if psu.atx3 {
                text!(
                    PSU_TRANSIENT_ATX3,
                    peak = w0(fed_peak),
                    limit = w0(limit),
                    percent = w0(psu.excursion_tolerance * 100.0)
                )
            } else {
                text!(PSU_TRANSIENT_NOT_ATX3, peak = w0(fed_peak), capacity = w0(psu.capacity_watts))
            };
            let message = in_node(node.name, message);
            out.push(psu_lines(
                node,
                Diagnostic::new(Severity::Warning, "psu-transient-risk", message)
                    .in_node(i)
                    .with_fix(text!(PSU_TRANSIENT_FIX)),
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
                in_node(
                    node.name,
                    text!(
                        CIRCUIT_MULTIPLE_FEEDS,
                        wall = w0(c.wall_watts),
                        volts = w0(c.volts),
                        amps = w0(c.amps),
                        limit = w0(c.continuous_limit_watts),
                        inputs = c.power_inputs.to_string(),
                        circuits = c.circuits_needed.to_string()
                    ),
                ),
            )
        } else {
            Diagnostic::new(
                Severity::Warning,
                "circuit-overload",
                in_node(
                    node.name,
                    text!(
                        CIRCUIT_OVERLOAD,
                        wall = w0(c.wall_watts),
                        volts = w0(c.volts),
                        amps = w0(c.amps),
                        limit = w0(c.continuous_limit_watts)
                    ),
                ),
            )
            .with_fix(text!(CIRCUIT_OVERLOAD_FIX))
        };
        out.push(d.in_node(i));
    }
}
