//! Benchmark of the advisor over the whole shipped catalog (issue 12 targets on the project's
//! 2-core machine): one LLM workload on a tower or on one rack node, the full front in under
//! 100 ms, so that the Advisor view follows its inputs live; four workloads with multi-node
//! rack candidates in under 1 s. Throughput is GPU configurations considered per second
//! (criterion's "elements/s"), the advisor's own `stats.configurations`.
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rigplan::core::advisor::{self, Circuits, Form, Requirement, WorkMode, WorkloadReq};
use rigplan::core::analysis::memory::WeightType;
use rigplan::core::catalog::{Catalog, ModelId};
use rigplan::core::units::Currency;
use std::hint::black_box;

fn workload(model: &str, mode: WorkMode) -> WorkloadReq {
    WorkloadReq::new(ModelId(format!("model/{model}")), mode)
}

fn cny(workloads: Vec<WorkloadReq>, budget: f64) -> Requirement {
    Requirement::new(workloads, budget, Currency("CNY".to_owned()), advisor::requirement::DEFAULT_CNY_PER_USD)
}

/// The requirements of the targets: (name, requirement).
fn cases() -> Vec<(&'static str, Requirement)> {
    // The tower example: Llama 3.1 70B to 20 users at 15 tokens/s, 4-bit, two
    // 220 V / 16 A outlets, 400,000 CNY.
    let mut serve70 = workload("meta-llama-3.1-70b", WorkMode::Inference);
    serve70.weights = WeightType::Int4;
    serve70.users = 20;
    serve70.tokens_per_user = 15.0;
    let mut tower = cny(vec![serve70.clone()], 400_000.0);
    tower.site.circuits = Circuits { volts: 220.0, amps: 16.0, phases: 1, count: 2 };

    // One rack node serving the 70B at bf16.
    let mut serve70_bf16 = serve70.clone();
    serve70_bf16.weights = WeightType::Bf16;
    let mut rack1 = cny(vec![serve70_bf16.clone()], 2_000_000.0);
    rack1.site.form = Form::Rack;
    rack1.site.circuits = Circuits { volts: 380.0, amps: 32.0, phases: 3, count: 2 };
    rack1.filters.max_nodes = Some(1);

    // Four workloads on up to four rack nodes.
    let mut lora = workload("meta-llama-3.1-8b", WorkMode::Lora);
    lora.train_tokens = Some(1.0e8);
    let mut full = workload("meta-llama-3.1-8b", WorkMode::FullFinetune);
    full.train_tokens = Some(1.0e9);
    let mut serve8 = workload("qwen2.5-7b", WorkMode::Inference);
    serve8.users = 50;
    let mut four = cny(vec![serve70_bf16, lora, full, serve8], 5_000_000.0);
    four.site.form = Form::Rack;
    four.site.circuits = Circuits { volts: 380.0, amps: 32.0, phases: 3, count: 8 };
    four.filters.max_nodes = Some(4);
    vec![("tower-70b-int4-20-users", tower), ("rack-1-node-70b-bf16", rack1), ("rack-4-workloads-4-nodes", four)]
}

fn advise(c: &mut Criterion) {
    let Ok(catalog) = Catalog::embedded() else { panic!("the embedded catalog loads") };
    let mut group = c.benchmark_group("advise");
    group.sample_size(10);
    for (name, req) in cases() {
        let Ok(first) = advisor::advise(&catalog, &req) else { panic!("{name}: the requirement is valid") };
        assert!(!first.front.is_empty(), "{name}: the benchmark requirement has an answer");
        group.throughput(Throughput::Elements(first.stats.configurations));
        group.bench_function(name, |b| b.iter(|| advisor::advise(black_box(&catalog), black_box(&req))));
    }
    group.finish();
}

criterion_group!(benches, advise);
criterion_main!(benches);
