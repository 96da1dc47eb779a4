//! Benchmarks of the analysis pipeline (criterion).
use criterion::{Criterion, criterion_group, criterion_main};

fn catalog_load(c: &mut Criterion) {
    c.bench_function("catalog/embedded", |b| b.iter(rigplan::core::catalog::Catalog::embedded));
}

criterion_group!(benches, catalog_load);
criterion_main!(benches);
