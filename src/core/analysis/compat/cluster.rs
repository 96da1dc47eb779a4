//! Cluster rules, across node groups: a training fabric adapter on every GPU node, switch ports
//! for every fabric port, adapters and switches of the same technology, and the cluster
//! section's drives in its disk enclosures.

use super::{Attach as _, diag};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::build::Location;
use crate::core::catalog::{ChassisKind, GpuSegment, NetTech};
use crate::core::resolve::{Item, Node, Resolved};

/// Lowest per-port speed, Gb/s, that counts as a training fabric for Ethernet (issue 3: InfiniBand
/// or ≥ 100 GbE).
pub const FABRIC_MIN_GBPS: f64 = 100.0;

#[must_use]
pub fn is_fabric_nic(nic: &crate::core::catalog::Nic) -> bool {
    matches!(nic.tech, NetTech::InfiniBand | NetTech::Vpi) || nic.port_speed_gbps >= FABRIC_MIN_GBPS
}

pub(super) fn cluster_rules(resolved: &Resolved<'_>, out: &mut Vec<Diagnostic>) {
    // Training nodes: GPUs other than embedded modules (a fleet of Jetsons is not a training
    // cluster).
    let gpu_nodes: Vec<&Node<'_>> =
        resolved.nodes.iter().filter(|n| n.parts.gpus.iter().any(|g| g.part.segment != GpuSegment::Embedded)).collect();
    let gpu_node_count: u64 = gpu_nodes.iter().map(|n| u64::from(n.count)).sum();
    if gpu_node_count > 1 {
        for n in &gpu_nodes {
            let nic_fabric = n.parts.nics.iter().any(|x| is_fabric_nic(x.part));
            let sys_fabric = n.parts.systems.iter().any(|s| s.part.fabric_gbps >= FABRIC_MIN_GBPS);
            if !nic_fabric && !sys_fabric {
                out.push(
                    diag(
                        n,
                        Severity::Warning,
                        "fabric-missing",
                        format!("is one of {gpu_node_count} GPU nodes but has no InfiniBand or ≥ 100 GbE adapter; multi-node training will be bound by the network"),
                    )
                    .with_fix("Add an InfiniBand HDR/NDR or 100+ GbE adapter per node (one per GPU pair or GPU for large training)"),
                );
            }
        }
    }
    // Switches anywhere in the build (cluster section or infrastructure nodes).
    let mut switches: Vec<(&crate::core::catalog::Switch, u64, Location, usize)> =
        resolved.cluster.switches.iter().map(|s| (s.part, u64::from(s.quantity), Location::Cluster, s.line)).collect();
    for n in &resolved.nodes {
        for s in &n.parts.switches {
            switches.push((s.part, u64::from(s.quantity) * u64::from(n.count), Location::Node(n.index), s.line));
        }
    }
    let fabric_nic_ports = |want_ib: bool| -> u64 {
        resolved
            .nodes
            .iter()
            .map(|n| {
                let nic_ports: u64 = n
                    .parts
                    .nics
                    .iter()
                    .filter(|x| {
                        is_fabric_nic(x.part)
                            && (matches!(x.part.tech, NetTech::InfiniBand | NetTech::Vpi) == want_ib
                                || x.part.tech == NetTech::Vpi)
                    })
                    .map(|x| u64::from(x.part.ports) * u64::from(x.quantity))
                    .sum();
                nic_ports * u64::from(n.count)
            })
            .sum()
    };
    let ib_nics: u64 = fabric_nic_ports(true);
    let eth_nics: u64 = fabric_nic_ports(false);
    for (want_ib, label) in [(true, "InfiniBand"), (false, "Ethernet")] {
        let group: Vec<_> =
            switches.iter().filter(|s| matches!(s.0.tech, NetTech::InfiniBand | NetTech::Vpi) == want_ib).collect();
        if group.is_empty() {
            continue;
        }
        let port_speed = group.iter().map(|s| s.0.port_speed_gbps).fold(0.0_f64, f64::max);
        let system_ports: u64 = resolved
            .nodes
            .iter()
            .map(|n| {
                let per: u64 = n
                    .parts
                    .systems
                    .iter()
                    .filter(|s| s.part.fabric_gbps > 0.0 && port_speed > 0.0)
                    .map(|s| {
                        crate::core::units::round_non_negative((s.part.fabric_gbps / port_speed).ceil())
                            * u64::from(s.quantity)
                    })
                    .sum();
                if want_ib { per * u64::from(n.count) } else { 0 }
            })
            .sum();
        let demand = if want_ib { ib_nics } else { eth_nics } + system_ports;
        let supply: u64 = group.iter().map(|s| u64::from(s.0.ports) * s.1).sum();
        if demand > supply {
            let mut d = Diagnostic::new(
                Severity::Error,
                "switch-ports-insufficient",
                format!(
                    "the nodes have {demand} {label} fabric ports to connect but the {label} switches have {supply}"
                ),
            );
            for s in &group {
                d = d.with_part(&s.0.id).with_line(s.2, s.3);
            }
            out.push(d.with_fix("Add switches (a leaf–spine fabric also needs ports for uplinks)"));
        }
    }
    let has_ib_switch = switches.iter().any(|s| matches!(s.0.tech, NetTech::InfiniBand | NetTech::Vpi));
    let ib_only_nics: Vec<(&Node<'_>, &Item<'_, crate::core::catalog::Nic>)> = resolved
        .nodes
        .iter()
        .flat_map(|n| n.parts.nics.iter().filter(|x| x.part.tech == NetTech::InfiniBand).map(move |x| (n, x)))
        .collect();
    if !switches.is_empty()
        && !has_ib_switch
        && let Some((n, x)) = ib_only_nics.first()
    {
        out.push(
            diag(
                n,
                Severity::Warning,
                "switch-tech-mismatch",
                format!("{} is an InfiniBand adapter but the build has only Ethernet switches", x.part.name),
            )
            .at(n.index, x)
            .with_fix("Add an InfiniBand switch, or use Ethernet/VPI adapters"),
        );
    }
    if switches.is_empty() && gpu_node_count > 2 && (ib_nics + eth_nics) > 0 {
        out.push(
            Diagnostic::new(
                Severity::Warning,
                "switch-missing",
                format!("{gpu_node_count} GPU nodes have fabric adapters but the build has no switch to connect them"),
            )
            .with_fix("Add InfiniBand or Ethernet switches to the cluster section"),
        );
    }
    // Cluster-section storage goes into the cluster's disk enclosures.
    let c = &resolved.cluster;
    let drives: u32 = c.storage.iter().map(|s| s.quantity).sum();
    if drives > 0 {
        let jbods: Vec<_> = c.chassis.iter().filter(|x| x.part.kind == ChassisKind::Jbod).collect();
        let bays: u32 =
            jbods.iter().map(|j| (u32::from(j.part.bays_35) + u32::from(j.part.bays_25)) * j.quantity).sum();
        let at_cluster = |mut d: Diagnostic| {
            for s in &c.storage {
                d = d.with_part(&s.part.id).with_line(Location::Cluster, s.line);
            }
            d
        };
        if jbods.is_empty() {
            out.push(
                at_cluster(Diagnostic::new(
                    Severity::Warning,
                    "cluster-storage-no-enclosure",
                    format!("the cluster section has {drives} drive(s) but no disk enclosure (JBOD) to hold them"),
                ))
                .with_fix("Add a JBOD enclosure to the cluster section"),
            );
        } else if drives > bays {
            let mut d = at_cluster(Diagnostic::new(
                Severity::Error,
                "jbod-bays-exceeded",
                format!("the cluster section has {drives} drives but its enclosures have {bays} bays"),
            ));
            for j in &jbods {
                d = d.with_part(&j.part.id).with_line(Location::Cluster, j.line);
            }
            out.push(d.with_fix("Add enclosures or use larger drives"));
        }
    }
}
