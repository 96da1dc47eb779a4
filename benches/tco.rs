//! TCO of a 64-node build with its sensitivity sweeps (criterion). The target: well
//! under 10 ms for the whole analysis, utilization sweep and tornado included.
#![allow(clippy::expect_used, reason = "a bench panics on a broken fixture rather than timing nothing")]

use criterion::{Criterion, criterion_group, criterion_main};
use rigplan::core::analysis::bom::bill_of_materials;
use rigplan::core::analysis::tco::{self, PowerInput, WorkloadInput};
use rigplan::core::build::{Build, CustomOffer, CustomPricing, Location};
use rigplan::core::catalog::{Catalog, PartId};
use rigplan::core::resolve::Resolved;

/// 64 nodes of 8× H100 SXM5 with a yearly quote and a per-GPU-hour custom offer beside the
/// catalog's matching offers.
fn cluster() -> Build {
    let mut b = Build::new("64-node H100 cluster");
    b.nodes[0].count = 64;
    b.add_part(Location::Node(0), &PartId::from("gpu/nvidia-h100-sxm5-80gb"), 8).expect("add GPUs");
    b.add_part(Location::Node(0), &PartId::from("cpu/amd-epyc-9654"), 2).expect("add CPUs");
    b.costs.maintenance_percent_per_year = 8.0;
    b.costs.colocation_per_kw_month = 150.0;
    b.costs.discount_rate_percent = 8.0;
    b.costs.spot_overhead_percent = 10.0;
    b.costs.custom_offers = vec![
        CustomOffer {
            id: "quote".to_owned(),
            name: "Yearly quote".to_owned(),
            pricing: CustomPricing::AnnualQuote { per_year: 12_000_000.0 },
        },
        CustomOffer {
            id: "per-gpu".to_owned(),
            name: "Per GPU-hour".to_owned(),
            pricing: CustomPricing::PerGpuHour { price: 2.5, every_hour: false },
        },
    ];
    b
}

/// Maximum wall draw per node: the DGX H100 figure of domain.md §3 (about 10.2 kW). The timing
/// does not depend on the power figures; idle is set to a quarter of this for the benchmark only.
const NODE_MAX_WATTS: f64 = 10_200.0;

fn tco_64_nodes(c: &mut Criterion) {
    let catalog = Catalog::embedded().expect("catalog");
    let build = cluster();
    // Whole-cluster wall power, an input as the power analysis supplies it.
    let power = PowerInput { wall_idle_watts: 64.0 * NODE_MAX_WATTS / 4.0, wall_max_watts: 64.0 * NODE_MAX_WATTS };
    let workload = WorkloadInput { tokens_per_second: 2.0e6, run_tokens: Some(1.0e12) };
    c.bench_function("tco/64-node build with sweeps", |b| {
        b.iter(|| {
            let resolved = Resolved::new(&catalog, &build);
            let bom = bill_of_materials(&resolved);
            tco::analyze(&resolved, &bom, Some(power), Some(workload))
        });
    });
}

criterion_group!(benches, tco_64_nodes);
criterion_main!(benches);
