//! Benchmark of the fit matrix: every catalog model × the standard workloads on an 8-GPU
//! build (the 8 × H100 SXM5 HGX template), the figure `rigplan report` computes per node group.
//! Target: well under 1 ms.
use criterion::{Criterion, criterion_group, criterion_main};
use rigplan::core::analysis::fit::{build_fit, fit_matrix};
use rigplan::core::analysis::speed::Topology;
use rigplan::core::catalog::Catalog;
use rigplan::core::resolve::Resolved;
use rigplan::core::templates;
use std::hint::black_box;

fn fit(c: &mut Criterion) {
    let Ok(catalog) = Catalog::embedded() else { panic!("the embedded catalog loads") };
    let Some(template) = templates::find("enterprise-8x-h100-hgx") else { panic!("the 8 × H100 template exists") };
    let Ok(build) = template.load() else { panic!("the template loads") };
    let Some(gpu) = catalog.gpu(&"gpu/nvidia-h100-sxm5-80gb".into()) else { panic!("H100 SXM5 in the catalog") };
    let topo = Topology::new(gpu, 8, 1, false, 0.0);
    c.bench_function("fit/matrix-all-models-8x-h100", |b| {
        b.iter(|| fit_matrix(black_box(&catalog.models), black_box(gpu), black_box(&topo)));
    });
    c.bench_function("fit/build-8x-h100-template", |b| {
        b.iter(|| build_fit(&Resolved::new(black_box(&catalog), black_box(&build))));
    });
}

criterion_group!(benches, fit);
criterion_main!(benches);
