//! Benchmarks of the analysis pipeline (criterion): catalog loading (the embedded catalog, and
//! generated user files of 1–8 MiB, whose time must grow linearly with their size: issue 18
//! found an 8 MiB `gpu.ron` taking 32 s), the full report of every template build
//! (`core::templates`), and a generated 64-node cluster. Target: well under 1 ms per
//! single-node report (issue 3).
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rigplan::core::analysis::analyze;
use rigplan::core::build::Build;
use rigplan::core::catalog::{Catalog, EMBEDDED_FILES, PartKind};
use std::hint::black_box;

mod common;
use common::generated_cluster;

fn catalog_load(c: &mut Criterion) {
    c.bench_function("catalog/embedded", |b| b.iter(Catalog::embedded));
}

/// A catalog file of about `bytes` bytes: copies of the one entry of `file` (a test fixture),
/// its id `id` numbered so that every copy is a new entry.
fn generated_file(file: &str, id: &str, bytes: usize) -> String {
    let entry = file.trim().trim_start_matches('[').trim_end_matches(']').trim().trim_end_matches(',');
    let mut out = String::from("[\n");
    for i in 0.. {
        if out.len() >= bytes {
            break;
        }
        out.push_str(&entry.replace(&format!("\"{id}\""), &format!("\"{id}-{i}\"")));
        out.push_str(",\n");
    }
    out.push(']');
    out
}

/// The embedded part files as `Catalog::from_sources` takes them, followed by `extra`.
fn sources_with(extra: Option<(PartKind, String)>) -> Vec<(PartKind, String, String)> {
    let mut sources: Vec<_> =
        EMBEDDED_FILES.iter().map(|(k, t)| (*k, format!("catalog/{}", k.file_name()), (*t).to_owned())).collect();
    sources.extend(extra.map(|(k, t)| (k, "user/file.ron".to_owned(), t)));
    sources
}

/// Loading a large user `gpu.ron` and `clouds.ron` over the embedded catalog; criterion
/// reports bytes per second, which stays flat from 1 to 8 MiB when loading is linear.
fn catalog_large(c: &mut Criterion) {
    let gpu = include_str!("../tests/fixtures/catalog-good/gpu.ron");
    let clouds = include_str!("../tests/fixtures/catalog-good/clouds.ron");
    let (base, _) = Catalog::from_sources(&sources_with(None));
    let mut group = c.benchmark_group("catalog/generated");
    group.sample_size(10);
    for mib in [1_usize, 2, 4, 8] {
        let text = generated_file(gpu, "gpu/fixture-card", mib << 20);
        group.throughput(Throughput::Bytes(text.len() as u64));
        let sources = sources_with(Some((PartKind::Gpu, text.clone())));
        group.bench_with_input(BenchmarkId::new("gpu.ron", format!("{mib}MiB")), &sources, |b, s| {
            b.iter(|| Catalog::from_sources(s));
        });
        // Ids written with an escape do not occur literally in the text; locating them by a
        // search of the file made a 4 MiB file take 32 s.
        let escaped = text.replace("\"gpu/fixture-card-", "\"gpu\\u{2f}fixture-card-");
        let sources = sources_with(Some((PartKind::Gpu, escaped)));
        group.bench_with_input(BenchmarkId::new("gpu.ron-escaped-ids", format!("{mib}MiB")), &sources, |b, s| {
            b.iter(|| Catalog::from_sources(s));
        });
        let text = generated_file(clouds, "fixture-cloud-8x-h100", mib << 20);
        group.throughput(Throughput::Bytes(text.len() as u64));
        let offers = vec![("user/clouds.ron".to_owned(), text)];
        group.bench_with_input(BenchmarkId::new("clouds.ron", format!("{mib}MiB")), &offers, |b, o| {
            b.iter(|| base.clone().load_clouds(o));
        });
    }
    group.finish();
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

criterion_group!(benches, catalog_load, catalog_large, reports);
criterion_main!(benches);
