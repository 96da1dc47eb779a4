//! Benchmarks of the analysis pipeline (criterion): catalog loading, the full report of every
//! template build (`core::templates`), and a generated 64-node cluster. Target: well under
//! 1 ms per single-node report (issue 3).
use criterion::{Criterion, criterion_group, criterion_main};
use rigplan::core::analysis::analyze;
use rigplan::core::build::Build;
use rigplan::core::catalog::Catalog;
use std::hint::black_box;

mod common;
use common::generated_cluster;

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
