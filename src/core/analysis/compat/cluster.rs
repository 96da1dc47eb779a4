//! Cluster rules, across node groups: a training fabric adapter on every GPU node, switch ports
//! for every fabric port, adapters and switches of the same technology, and the cluster
//! section's drives in its disk enclosures.

use super::{Attach as _, diag};
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::build::Location;
use crate::core::catalog::{ChassisKind, GpuSegment, NetTech};
use crate::core::i18n::Template;
use crate::core::resolve::{Item, Node, Resolved};
use crate::text;

crate::templates! {
    pub(crate) TEMPLATES;
    FABRIC_MISSING "fabric-missing" {
        en: "is one of {nodes} GPU nodes but has no InfiniBand or ≥ 100 GbE adapter; multi-node training will be bound by the network",
        zh: "是 {nodes} 个 GPU 节点之一，但没有 InfiniBand 或 ≥ 100 GbE 网卡；多节点训练将受限于网络",
    }
    FABRIC_MISSING_FIX "fabric-missing" {
        en: "Add an InfiniBand HDR/NDR or 100+ GbE adapter per node (one per GPU pair or GPU for large training)",
        zh: "每个节点添加一块 InfiniBand HDR/NDR 或 100+ GbE 网卡（大规模训练时每两块 GPU 或每块 GPU 配一块）",
    }
    SWITCH_PORTS_INFINIBAND "switch-ports-insufficient" {
        en: "the nodes have {demand} InfiniBand fabric ports to connect but the InfiniBand switches have {supply}",
        zh: "各节点共有 {demand} 个 InfiniBand 网络端口需要连接，但 InfiniBand 交换机只有 {supply} 个端口",
    }
    SWITCH_PORTS_ETHERNET "switch-ports-insufficient" {
        en: "the nodes have {demand} Ethernet fabric ports to connect but the Ethernet switches have {supply}",
        zh: "各节点共有 {demand} 个以太网网络端口需要连接，但以太网交换机只有 {supply} 个端口",
    }
    SWITCH_PORTS_INSUFFICIENT_FIX "switch-ports-insufficient" {
        en: "Add switches (a leaf–spine fabric also needs ports for uplinks)",
        zh: "添加交换机（叶脊架构的网络还需要上行链路端口）",
    }
    SWITCH_TECH_MISMATCH "switch-tech-mismatch" {
        en: "{nic} is an InfiniBand adapter but the build has only Ethernet switches",
        zh: "{nic} 是 InfiniBand 网卡，但配置方案中只有以太网交换机",
    }
    SWITCH_TECH_MISMATCH_FIX "switch-tech-mismatch" {
        en: "Add an InfiniBand switch, or use Ethernet/VPI adapters",
        zh: "添加 InfiniBand 交换机，或换用以太网/VPI 网卡",
    }
    SWITCH_MISSING "switch-missing" {
        en: "{nodes} GPU nodes have fabric adapters but the build has no switch to connect them",
        zh: "{nodes} 个 GPU 节点装有高速网卡，但配置方案中没有连接它们的交换机",
    }
    SWITCH_MISSING_FIX "switch-missing" {
        en: "Add InfiniBand or Ethernet switches to the cluster section",
        zh: "在集群部分添加 InfiniBand 或以太网交换机",
    }
    CLUSTER_STORAGE_NO_ENCLOSURE "cluster-storage-no-enclosure" {
        en: "the cluster section has {drives} drive(s) but no disk enclosure (JBOD) to hold them",
        zh: "集群部分有 {drives} 块硬盘，但没有容纳它们的硬盘扩展柜（JBOD）",
    }
    CLUSTER_STORAGE_NO_ENCLOSURE_FIX "cluster-storage-no-enclosure" {
        en: "Add a JBOD enclosure to the cluster section",
        zh: "在集群部分添加 JBOD 硬盘扩展柜",
    }
    CLUSTER_JBOD_BAYS_EXCEEDED "jbod-bays-exceeded" {
        en: "the cluster section has {drives} drives but its enclosures have {bays} bays",
        zh: "集群部分有 {drives} 块硬盘，但其硬盘扩展柜只有 {bays} 个仓位",
    }
    CLUSTER_JBOD_BAYS_EXCEEDED_FIX "jbod-bays-exceeded" {
        en: "Add enclosures or use larger drives",
        zh: "添加硬盘扩展柜，或使用容量更大的硬盘",
    }
}

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
        // Node group index → its finding, for the identical groups after it (`Resolved::twins`).
        let mut found: Vec<(usize, usize)> = Vec::new();
        for n in &gpu_nodes {
            let twin = resolved.twins.get(n.index).copied().flatten();
            let copy = twin.and_then(|j| {
                let (_, at) = found.iter().find(|(node, _)| *node == j)?;
                Some(out.get(*at)?.moved_to(resolved.nodes.get(j)?, n))
            });
            if let Some(d) = copy {
                found.push((n.index, out.len()));
                out.push(d);
                continue;
            }
            let nic_fabric = n.parts.nics.iter().any(|x| is_fabric_nic(x.part));
            let sys_fabric = n.parts.systems.iter().any(|s| s.part.fabric_gbps >= FABRIC_MIN_GBPS);
            if !nic_fabric && !sys_fabric {
                found.push((n.index, out.len()));
                out.push(
                    diag(
                        n,
                        Severity::Warning,
                        "fabric-missing",
                        text!(FABRIC_MISSING, nodes = gpu_node_count.to_string()),
                    )
                    .with_fix(text!(FABRIC_MISSING_FIX)),
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
    let groups: [(bool, &'static Template); 2] = [(true, &SWITCH_PORTS_INFINIBAND), (false, &SWITCH_PORTS_ETHERNET)];
    for (want_ib, sentence) in groups {
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
                text!(*sentence, demand = demand.to_string(), supply = supply.to_string()),
            );
            for s in &group {
                d = d.with_part(&s.0.id).with_line(s.2, s.3);
            }
            out.push(d.with_fix(text!(SWITCH_PORTS_INSUFFICIENT_FIX)));
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
            diag(n, Severity::Warning, "switch-tech-mismatch", text!(SWITCH_TECH_MISMATCH, nic = &x.part.name))
                .at(n.index, x)
                .with_fix(text!(SWITCH_TECH_MISMATCH_FIX)),
        );
    }
    if switches.is_empty() && gpu_node_count > 2 && (ib_nics + eth_nics) > 0 {
        out.push(
            Diagnostic::new(
                Severity::Warning,
                "switch-missing",
                text!(SWITCH_MISSING, nodes = gpu_node_count.to_string()),
            )
            .with_fix(text!(SWITCH_MISSING_FIX)),
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
                    text!(CLUSTER_STORAGE_NO_ENCLOSURE, drives = drives.to_string()),
                ))
                .with_fix(text!(CLUSTER_STORAGE_NO_ENCLOSURE_FIX)),
            );
        } else if drives > bays {
            let mut d = at_cluster(Diagnostic::new(
                Severity::Error,
                "jbod-bays-exceeded",
                text!(CLUSTER_JBOD_BAYS_EXCEEDED, drives = drives.to_string(), bays = bays.to_string()),
            ));
            for j in &jbods {
                d = d.with_part(&j.part.id).with_line(Location::Cluster, j.line);
            }
            out.push(d.with_fix(text!(CLUSTER_JBOD_BAYS_EXCEEDED_FIX)));
        }
    }
}
