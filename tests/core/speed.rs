//! Speed estimates: the behaviours the published measurements imply (decode falling steadily
//! with tensor parallelism on NVSwitch systems, training slowing with context and with cluster
//! size, QLoRA slower than LoRA, decode efficiency by engine, format and memory type), and
//! GPT-3's training FLOPs. Every published figure itself is a vector of the reference set
//! (`catalog/reference/measurements.ron`, checked by `reference.rs`).

use rigplan::core::analysis::memory::{Engine, Mode, ModelSpec, Recompute, WeightType, Workload};
use rigplan::core::analysis::speed::{
    DEFAULT_TRAIN_MFU, LLAMA_CPP_GDDR_NARROW, LLAMA_CPP_GDDR_WIDE, LLAMA_CPP_HBM_NARROW, LLAMA_CPP_HBM_WIDE,
    QLORA_SLOWDOWN, SERVING_WIDE, SpeedSettings, Topology, decode_efficiency, estimate_speed, goodput, train_flops,
    train_mfu,
};
use rigplan::core::catalog::{Catalog, Gpu, GpuMemoryType, Interconnect};

fn catalog() -> Catalog {
    Catalog::embedded().expect("embedded catalog")
}

fn spec(catalog: &Catalog, id: &str) -> ModelSpec {
    ModelSpec::from_model(catalog.models.get(id).unwrap_or_else(|| panic!("{id}")))
}

fn gpu(catalog: &Catalog, id: &str) -> Gpu {
    catalog.gpu(&id.into()).unwrap_or_else(|| panic!("{id} in the GPU catalog")).clone()
}

fn within(actual: f64, expected: f64, tolerance: f64) -> bool {
    (actual - expected).abs() <= tolerance * expected
}

fn decode(spec: &ModelSpec, g: &Gpu, weights: WeightType, context: u32, tp: u32, topo: &Topology) -> f64 {
    let mut w = Workload::defaults(Mode::Inference);
    w.weights = weights;
    w.context = context;
    w.tp = tp;
    estimate_speed(spec, &w, g, topo, &SpeedSettings::default()).decode_tokens_per_s.expect("decode speed")
}

#[test]
fn decode_gets_faster_with_every_tensor_parallel_step_on_nvswitch() {
    // The case: Llama 2 7B fp16 on A100 SXM at TP 1/2/4/8 gave 113/157/125/69 t/s
    // with a flat per-all-reduce charge that grew with the GPU count. Published latencies fall
    // steadily with TP on NVSwitch systems (FasterTransformer 13B: 22.0 → 13.5 ms from TP 1 to
    // 2; LMDeploy: Llama 2 70B at TP 4 33.94 t/s; reference set), with diminishing returns.
    let catalog = catalog();
    let a100 = gpu(&catalog, "gpu/nvidia-a100-sxm4-80gb");
    let llama = spec(&catalog, "meta-llama-2-7b");
    let speeds: Vec<f64> = [1, 2, 4, 8]
        .into_iter()
        .map(|tp| decode(&llama, &a100, WeightType::Fp16, 512, tp, &Topology::new(&a100, tp, 1, false, 0.0)))
        .collect();
    for pair in speeds.windows(2) {
        assert!(pair[1] > pair[0], "{speeds:?}");
    }
    // Diminishing returns: TP 8 is well short of 8 × TP 1.
    assert!(speeds[3] < 4.0 * speeds[0], "{speeds:?}");
    // Llama 2 70B on H100: TP 8 beats TP 4.
    let h100 = gpu(&catalog, "gpu/nvidia-h100-sxm5-80gb");
    let llama70 = spec(&catalog, "meta-llama-2-70b");
    let tp4 = decode(&llama70, &h100, WeightType::Bf16, 4096, 4, &Topology::new(&h100, 4, 1, false, 0.0));
    let tp8 = decode(&llama70, &h100, WeightType::Bf16, 4096, 8, &Topology::new(&h100, 8, 1, false, 0.0));
    assert!(tp8 > tp4 * 1.1, "TP 4 {tp4:.1} t/s, TP 8 {tp8:.1} t/s");
}

#[test]
fn tensor_parallel_over_pcie_is_slower_than_over_nvlink() {
    let catalog = catalog();
    let llama = spec(&catalog, "meta-llama-3.1-70b");
    let sxm = gpu(&catalog, "gpu/nvidia-a100-sxm4-80gb");
    let mut pcie_only = sxm.clone();
    pcie_only.interconnect = Interconnect::None;
    let nvlink = Topology::new(&sxm, 4, 1, false, 0.0);
    let pcie = Topology::new(&pcie_only, 4, 1, false, 0.0);
    let fast = decode(&llama, &sxm, WeightType::Bf16, 4096, 4, &nvlink);
    let slow = decode(&llama, &pcie_only, WeightType::Bf16, 4096, 4, &pcie);
    assert!(slow < fast * 0.9, "PCIe {slow:.1} t/s vs NVLink {fast:.1} t/s");
    // An NVLink bridge joins only pairs: TP 2 uses it, TP 4 falls back to PCIe.
    let a6000 = gpu(&catalog, "gpu/nvidia-rtx-a6000");
    let bridged = Topology::new(&a6000, 4, 1, true, 0.0);
    let unbridged = Topology::new(&a6000, 4, 1, false, 0.0);
    let qwen = spec(&catalog, "qwen2.5-32b");
    assert!(
        decode(&qwen, &a6000, WeightType::Bf16, 4096, 2, &bridged)
            > decode(&qwen, &a6000, WeightType::Bf16, 4096, 2, &unbridged)
    );
    assert_eq!(bridged.group_link(4), Some(bridged.pcie));
}

#[test]
fn decode_efficiency_depends_on_engine_format_and_memory() {
    // llama.cpp's K-quants reach more of GDDR bandwidth than the old flat 50 % (61–64 % for
    // Q4_K_M 8B on RTX 3090/4090), its F16 path less of HBM than of GDDR (46–53 % on A100 and
    // H100 PCIe against 70–91 % on GeForce cards); serving engines reach 66–75 % on HBM.
    let gddr = GpuMemoryType::Gddr6x;
    let hbm = GpuMemoryType::Hbm2e;
    let k_quant_gddr = decode_efficiency(Engine::LlamaCpp, WeightType::Q4KM, gddr);
    assert!((k_quant_gddr - LLAMA_CPP_GDDR_NARROW).abs() < 1e-12 && k_quant_gddr > 0.5);
    let f16_gddr = decode_efficiency(Engine::LlamaCpp, WeightType::Fp16, gddr);
    let f16_hbm = decode_efficiency(Engine::LlamaCpp, WeightType::Fp16, hbm);
    assert!((f16_gddr - LLAMA_CPP_GDDR_WIDE).abs() < 1e-12);
    assert!((f16_hbm - LLAMA_CPP_HBM_WIDE).abs() < 1e-12 && f16_hbm < f16_gddr);
    assert!((decode_efficiency(Engine::LlamaCpp, WeightType::Q4_0, hbm) - LLAMA_CPP_HBM_NARROW).abs() < 1e-12);
    assert!((decode_efficiency(Engine::Vllm, WeightType::Bf16, hbm) - SERVING_WIDE).abs() < 1e-12);
    assert!(decode_efficiency(Engine::PyTorch, WeightType::Bf16, hbm) < SERVING_WIDE);
    // The default follows the engine a weight type runs on.
    let catalog = catalog();
    let rtx = gpu(&catalog, "gpu/nvidia-geforce-rtx-4090");
    let topo = Topology::new(&rtx, 1, 1, false, 0.0);
    let mut w = Workload::defaults(Mode::Inference);
    w.weights = WeightType::Q4KM;
    let s = estimate_speed(&spec(&catalog, "meta-llama-3.1-8b"), &w, &rtx, &topo, &SpeedSettings::default());
    assert!((s.decode_efficiency - LLAMA_CPP_GDDR_NARROW).abs() < 1e-12);
}

fn train_rate(spec: &ModelSpec, w: &Workload, g: &Gpu, topo: &Topology) -> f64 {
    estimate_speed(spec, w, g, topo, &SpeedSettings::default()).train_tokens_per_s.expect("rate")
}

#[test]
fn training_slows_down_with_context() {
    // Attention's FLOPs grow with the sequence (Kaplan et al. 2020 Table 1: 2·n_layer·n_ctx·
    // d_attn per token forward, three times that for training): at 32k tokens Llama 3.1 8B
    // spends 6·32·32768·4096 = 25.8 GFLOP per token on attention beside 6·P = 48.2 GFLOP.
    let catalog = catalog();
    let h100 = gpu(&catalog, "gpu/nvidia-h100-sxm5-80gb");
    let topo = Topology::new(&h100, 8, 1, false, 0.0);
    let llama = spec(&catalog, "meta-llama-3.1-8b");
    let rate = |context: u32| {
        let mut w = Workload::defaults(Mode::Train);
        w.zero = 3;
        w.context = context;
        train_rate(&llama, &w, &h100, &topo)
    };
    let (short, medium, long) = (rate(2048), rate(4096), rate(32_768));
    assert!(short > medium && medium > long, "{short:.0} {medium:.0} {long:.0}");
    let flops = |s: f64| 6.0 * llama.active_params as f64 + 6.0 * 32.0 * s * 4096.0;
    assert!(within(short / long, flops(32_768.0) / flops(2048.0), 0.05), "{}", short / long);
}

#[test]
fn training_mfu_depends_on_model_size_and_cluster_size() {
    let catalog = catalog();
    // Narrow models keep the tensor cores less busy (Megatron-LM's weak scaling: 41 % for the
    // smallest model to 47–48 % for the largest, README "Training Speed and Scalability").
    let small = train_mfu(&spec(&catalog, "meta-llama-3.1-8b"));
    let large = train_mfu(&spec(&catalog, "meta-llama-3.1-405b"));
    assert!(small < large, "{small} {large}");
    assert!((train_mfu(&ModelSpec::params_only(7_000_000_000)) - DEFAULT_TRAIN_MFU).abs() < 1e-12);
    // Llama 3: about 10 % of the time lost to interruptions at 16,384 GPUs.
    assert!(within(goodput(16_384), 0.9, 1e-9));
    assert!(goodput(8) > 0.999);
    // A small model on thousands of GPUs runs far below its MFU on one node: with the same 4M
    // tokens per step, each GPU computes little between gradient exchanges.
    let h100 = gpu(&catalog, "gpu/nvidia-h100-sxm5-80gb");
    let llama = spec(&catalog, "meta-llama-3.1-8b");
    let w = Workload { zero: 1, ..Workload::defaults(Mode::Train) };
    let mfu = |nodes: u32| {
        let topo = Topology::new(&h100, 8, nodes, false, 3200.0);
        estimate_speed(&llama, &w, &h100, &topo, &SpeedSettings::default()).achieved_mfu.expect("MFU")
    };
    let (node, cluster) = (mfu(1), mfu(1024));
    assert!(cluster < 0.6 * node, "1 node {node:.3}, 1024 nodes {cluster:.3}");
}

#[test]
fn qlora_dequantization_costs_time() {
    // Google Cloud's Vertex AI guidance: LoRA tunes about 66 % faster than QLoRA.
    let catalog = catalog();
    let g = gpu(&catalog, "gpu/nvidia-geforce-rtx-4090");
    let topo = Topology::new(&g, 1, 1, false, 0.0);
    let llama = spec(&catalog, "meta-llama-3.1-8b");
    let mut lora = Workload::defaults(Mode::Lora);
    lora.recompute = Recompute::Full;
    let mut qlora = Workload::defaults(Mode::Qlora);
    qlora.recompute = Recompute::Full;
    qlora.lora_rank = lora.lora_rank;
    let ratio = train_rate(&llama, &lora, &g, &topo) / train_rate(&llama, &qlora, &g, &topo);
    assert!(within(ratio, QLORA_SLOWDOWN, 0.02), "{ratio}");
}

#[test]
fn gpt3_training_flops() {
    // Brown et al. 2020, Table D.1: GPT-3 175B took 3.14e23 training FLOPs (300B tokens),
    // counted as 6·P·T. rigplan adds attention, 6 · 96 layers · 2048 · 12288 per token: 1.4 %.
    let catalog = catalog();
    let gpt3 = spec(&catalog, "openai-gpt-3-175b");
    let flops = train_flops(&gpt3, &Workload::defaults(Mode::Train), 300.0e9);
    let attention = 6.0 * 96.0 * 2048.0 * 12288.0 * 300.0e9;
    assert!(within(flops - attention, 3.14e23, 0.005), "{flops:.4e}");
    assert!(within(flops / (flops - attention), 1.0138, 0.001), "{}", flops / (flops - attention));
    // Full recompute adds a forward pass: 8·P·T and a fourth pass of attention.
    let mut w = Workload::defaults(Mode::Train);
    w.recompute = Recompute::Full;
    let with_recompute = train_flops(&gpt3, &w, 300.0e9);
    assert!(within(with_recompute, (flops - attention) * 8.0 / 6.0 + attention * 4.0 / 3.0, 1e-9));
}

#[test]
fn moe_decode_reads_active_experts_and_trains_on_active_flops() {
    let catalog = catalog();
    let h100 = gpu(&catalog, "gpu/nvidia-h100-sxm5-80gb");
    let topo = Topology::new(&h100, 1, 1, false, 0.0);
    let mixtral = spec(&catalog, "mixtral-8x7b-v0.1");
    // Batch 1 reads the 12.9B active parameters, not 46.7B: the speed is close to that of a
    // 12.9B dense model of the same bytes.
    let tps = decode(&mixtral, &h100, WeightType::Bf16, 128, 1, &topo);
    let ideal_active = SERVING_WIDE * 3350.0e9 / (mixtral.active_params as f64 * 2.0);
    let ideal_total = SERVING_WIDE * 3350.0e9 / (mixtral.total_params as f64 * 2.0);
    assert!(tps > 2.5 * ideal_total && tps < ideal_active, "{tps}");
    // Training FLOPs follow the active parameters (plus attention at the context).
    let w = Workload::defaults(Mode::Train);
    let f = train_flops(&mixtral, &w, 1.0);
    let attention = 6.0 * 32.0 * f64::from(w.context) * 4096.0;
    assert!(within(f, 6.0 * mixtral.active_params as f64 + attention, 1e-12));
}

#[test]
fn overrides_change_the_estimates_as_the_model_says() {
    let catalog = catalog();
    let g = gpu(&catalog, "gpu/nvidia-geforce-rtx-4090");
    let topo = Topology::new(&g, 1, 1, false, 0.0);
    let s = spec(&catalog, "meta-llama-3.1-8b");
    let w = Workload::defaults(Mode::Train);
    let settings = SpeedSettings { mfu: Some(0.2), ..SpeedSettings::default() };
    let half = estimate_speed(&s, &w, &g, &topo, &settings).train_tokens_per_s.expect("rate");
    let settings = SpeedSettings { mfu: Some(0.4), ..SpeedSettings::default() };
    let base = estimate_speed(&s, &w, &g, &topo, &settings).train_tokens_per_s.expect("rate");
    assert!(within(half, base / 2.0, 1e-9));
    // Halving the decode efficiency doubles the memory part of a decode step only.
    let w = Workload::defaults(Mode::Inference);
    let step = |eff: f64| {
        let settings = SpeedSettings { decode_efficiency: Some(eff), ..SpeedSettings::default() };
        1.0 / estimate_speed(&s, &w, &g, &topo, &settings).decode_tokens_per_s.expect("decode")
    };
    let (t1, t2, t4) = (step(0.8), step(0.4), step(0.2));
    assert!(within(t4 - t2, 2.0 * (t2 - t1), 1e-9), "{t1} {t2} {t4}");
}
