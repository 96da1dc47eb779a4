//! Drag start at scale (issue 19): when a drag begins, the app checks every drop target the
//! canvas shows (each node group, its PCIe slots, the cluster area) for the dragged part
//! ([`DropPreview::compute`]). Target: every target of the generated 64-group cluster within
//! one 60 Hz frame, 16 ms, on the project's 2-core machine. Two payloads: a GPU from the
//! palette (a slot check per PCIe slot) and a line moved out of one group (which breaks that
//! group's twin symmetry).
use criterion::{Criterion, criterion_group, criterion_main};
use rigplan::core::build::Location;
use rigplan::core::catalog::{Catalog, PartKind};
use rigplan::gui::derived::{Derived, DropPreview};
use rigplan::gui::vocab::DragPayload;
use std::hint::black_box;

mod common;

fn drop_preview(c: &mut Criterion) {
    let Ok(catalog) = Catalog::embedded() else {
        eprintln!("the embedded catalog does not load; no drop benchmarks");
        return;
    };
    let build = common::generated_cluster(&catalog);
    let derived = Derived::compute(&catalog, &build, 1);
    let Some(gpu) = catalog.parts_of(PartKind::Gpu).next().map(|p| p.id().clone()) else { return };
    let line = &build.nodes[5].parts[0];
    let payloads = [
        ("catalog-gpu", DragPayload::Catalog(gpu)),
        (
            "move-line",
            DragPayload::Line { from: Location::Node(5), line: 0, part: line.part.clone(), quantity: line.quantity },
        ),
    ];
    for (name, payload) in payloads {
        let targets = DropPreview::compute(&catalog, &build, &derived, payload.clone()).verdicts.len();
        eprintln!("drop/generated-64-node-cluster/{name}: {targets} targets");
        c.bench_function(&format!("drop/generated-64-node-cluster/{name}"), |b| {
            b.iter(|| {
                DropPreview::compute(black_box(&catalog), black_box(&build), black_box(&derived), payload.clone())
            });
        });
    }
}

criterion_group!(benches, drop_preview);
criterion_main!(benches);
