//! Benchmarks of the analysis pipeline (criterion): catalog loading, the full report of every
//! template build (`core::templates`), and a generated 64-node cluster. Target: well under
//! 1 ms per single-node report (issue 3).
use criterion::{Criterion, criterion_group, criterion_main};
use rigplan::core::analysis::analyze;
use rigplan::core::build::{Build, NodeGroup, PartLine};
use rigplan::core::catalog::{Catalog, PartKind};
use std::hint::black_box;

fn catalog_load(c: &mut Criterion) {
    c.bench_function("catalog/embedded", |b| b.iter(Catalog::embedded));
}

/// The template builds shipped with rigplan (`core::templates`), by slug.
fn templates() -> Vec<(String, Build)> {
    rigplan::core::templates::TEMPLATES
        .iter()
        .filter_map(|t| match t.load() {
            Ok(b) => Some((t.slug.to_owned(), b)),
            Err(e) => {
                eprintln!("skipping {}: {e}", t.file);
                None
            }
        })
        .collect()
}

/// 64 node groups, each a GPU server built from the first catalog part of every node kind
/// (8 GPUs, 2 CPUs, 16 DIMMs, 4 drives, 2 NICs …), plus switches: the size of a mid-sized
/// training cluster, compatible or not (the analyses do the same work either way).
fn generated_cluster(catalog: &Catalog) -> Build {
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

fn reports(c: &mut Criterion) {
    let Ok(catalog) = Catalog::embedded() else {
        eprintln!("the embedded catalog does not load; no report benchmarks");
        return;
    };
    for (name, build) in templates() {
        c.bench_function(&format!("report/template/{name}"), |b| {
            b.iter(|| analyze(black_box(&catalog), black_box(&build)));
        });
    }
    let cluster = generated_cluster(&catalog);
    c.bench_function("report/generated-64-node-cluster", |b| {
        b.iter(|| analyze(black_box(&catalog), black_box(&cluster)));
    });
}

criterion_group!(benches, catalog_load, reports);
criterion_main!(benches);
