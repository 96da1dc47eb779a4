//! Builds shared by the benches.

use rigplan::core::build::{Build, NodeGroup, PartLine};
use rigplan::core::catalog::{Catalog, PartKind};

/// 64 node groups, each a GPU server built from the first catalog part of every node kind
/// (8 GPUs, 2 CPUs, 16 DIMMs, 4 drives, 2 NICs …), plus switches: the size of a mid-sized
/// training cluster, compatible or not (the analyses do the same work either way).
pub fn generated_cluster(catalog: &Catalog) -> Build {
    let first = |kind: PartKind| catalog.parts_of(kind).next().map(|p| p.id().clone());
    let per_node = [
        (PartKind::Gpu, 8),
        (PartKind::Cpu, 2),
        (PartKind::Motherboard, 1),
        (PartKind::Memory, 16),
        (PartKind::Storage, 4),
        (PartKind::Psu, 4),
        (PartKind::Cooler, 2),
        (PartKind::Chassis, 1),
        (PartKind::Nic, 2),
    ];
    let parts: Vec<PartLine> = per_node.iter().filter_map(|(k, q)| first(*k).map(|id| PartLine::new(id, *q))).collect();
    let mut build = Build::new("Generated 64-node cluster");
    build.nodes = (0..64)
        .map(|i| {
            let mut n = NodeGroup::new(format!("Node {}", i + 1));
            n.parts.clone_from(&parts);
            n
        })
        .collect();
    if let Some(switch) = first(PartKind::Switch) {
        build.cluster = vec![PartLine::new(switch, 4)];
    }
    build
}
