//! Speed estimates against published measurements: llama.cpp and FasterTransformer decode,
//! FasterTransformer prefill, Llama 2 and Llama 3 GPU-hours, GPT-3's training FLOPs; and the
//! interconnect penalties.

use rigplan::core::analysis::memory::{Mode, ModelSpec, Recompute, WeightType, Workload};
use rigplan::core::analysis::speed::{DEFAULT_TRAIN_MFU, SpeedSettings, Topology, estimate_speed, train_flops};
use rigplan::core::catalog::{Catalog, FfnKind, Gpu, Interconnect, NormKind, Role, Transformer};

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
fn llama_cpp_decode_measurements() {
    // llama.cpp `llama-bench` tg128 on a 7B Llama (6.74B parameters), one GPU:
    // - RTX 4090: F16 (12.55 GiB) 61.03 t/s, Q8_0 (6.67 GiB) 98.13 t/s (PR 4766, comment of
    //   2024-01-10);
    // - RTX 3090: F16 48.52 t/s, Q4_0 121.82 t/s (PR 4766 benchmark table);
    // - RTX 3090 Ti: Q4_0 (3.56 GiB) 127.43 t/s (PR 4812).
    // tg128 generates 128 tokens from an empty prompt, so the context is at most 128.
    let catalog = catalog();
    let llama = spec(&catalog, "meta-llama-2-7b");
    for (gpu_id, weights, measured) in [
        ("gpu/nvidia-geforce-rtx-4090", WeightType::Fp16, 61.03),
        ("gpu/nvidia-geforce-rtx-4090", WeightType::Q8_0, 98.13),
        ("gpu/nvidia-geforce-rtx-3090", WeightType::Fp16, 48.52),
        ("gpu/nvidia-geforce-rtx-3090", WeightType::Q4_0, 121.82),
        ("gpu/nvidia-geforce-rtx-3090-ti", WeightType::Q4_0, 127.43),
    ] {
        let g = gpu(&catalog, gpu_id);
        let topo = Topology::new(&g, 1, 1, false, 0.0);
        let tps = decode(&llama, &g, weights, 128, 1, &topo);
        assert!(within(tps, measured, 0.10), "{gpu_id} {weights}: {tps:.1} t/s vs measured {measured}");
    }
}

/// The 13B model of kipply's FasterTransformer benchmark (cli99/llm-analysis
/// `model_configs/test-13b.json`: 40 layers, hidden 5120, 40 heads, FFN 20480, vocab 50272).
fn kipply_13b() -> ModelSpec {
    let t = Transformer {
        role: Role::Decoder,
        layers: 40,
        hidden: 5120,
        heads: 40,
        kv_heads: None,
        head_dim: None,
        ffn: 20480,
        ffn_kind: FfnKind::Plain,
        vocab: 50272,
        max_context: 2048,
        tied_embeddings: true,
        norm: NormKind::LayerNorm,
        linear_biases: true,
        qkv_bias: false,
        qk_norm: false,
        learned_positions: true,
        extra_params: 0,
        sliding_window: None,
        sliding_layers: None,
        kv_heads_total: None,
        attention_layers: None,
        moe: None,
        mla: None,
    };
    ModelSpec::custom(t.total_params(), t)
}

#[test]
fn fastertransformer_13b_on_a100() {
    // kipply, "Transformer Inference Arithmetic", as reproduced in cli99/llm-analysis
    // examples/fastertransformer/README.md: 13B model, fp16, batch 1, 512-token context, A100
    // 40GB: prefill 63.17 ms, decode 22.0 ms/token on 1 GPU; decode 13.5 ms/token on 2 GPUs
    // with tensor parallelism (NVLink).
    let catalog = catalog();
    let a100 = gpu(&catalog, "gpu/nvidia-a100-sxm4-40gb");
    let spec = kipply_13b();
    let one = Topology::new(&a100, 1, 1, false, 0.0);
    let two = Topology::new(&a100, 2, 1, false, 0.0);
    let ms_per_token = 1000.0 / decode(&spec, &a100, WeightType::Fp16, 512, 1, &one);
    assert!(within(ms_per_token, 22.0, 0.08), "{ms_per_token:.2} ms");
    let ms_tp2 = 1000.0 / decode(&spec, &a100, WeightType::Fp16, 512, 2, &two);
    assert!(within(ms_tp2, 13.5, 0.08), "{ms_tp2:.2} ms");
    let mut w = Workload::defaults(Mode::Inference);
    w.weights = WeightType::Fp16;
    w.context = 512;
    let prefill =
        estimate_speed(&spec, &w, &a100, &one, &SpeedSettings::default()).prefill_tokens_per_s.expect("prefill");
    let prefill_ms = 512.0 / prefill * 1000.0;
    assert!(within(prefill_ms, 63.17, 0.08), "{prefill_ms:.1} ms");
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
fn cross_node_training_uses_the_nic_bandwidth() {
    // Full fine-tuning with ZeRO-3 over 16 GPUs: two 8-GPU NVLink nodes joined by one 100 Gb/s
    // NIC each are slower than the same nodes with 8 × 400 Gb/s (InfiniBand NDR per GPU).
    let catalog = catalog();
    let h100 = gpu(&catalog, "gpu/nvidia-h100-sxm5-80gb");
    let llama = spec(&catalog, "meta-llama-3.1-8b");
    let mut w = Workload::defaults(Mode::Train);
    w.zero = 3;
    w.recompute = Recompute::Full;
    let rate = |nic_gbps: f64| {
        let topo = Topology::new(&h100, 8, 2, false, nic_gbps);
        estimate_speed(&llama, &w, &h100, &topo, &SpeedSettings::default()).train_tokens_per_s.expect("rate")
    };
    let slow = rate(100.0);
    let fast = rate(3200.0);
    assert!(slow < fast * 0.8, "{slow:.0} vs {fast:.0} tokens/s");
    // Without any NIC the nodes cannot train together.
    let topo = Topology::new(&h100, 8, 2, false, 0.0);
    assert!(estimate_speed(&llama, &w, &h100, &topo, &SpeedSettings::default()).train_tokens_per_s.is_none());
}

#[test]
fn llama_2_gpu_hours() {
    // Touvron et al. 2023 (Llama 2) Table 2: A100-80GB GPU-hours for 2T tokens: 7B 184,320;
    // 13B 368,640; 70B 1,720,320. Computed with 6·P·T over peak × the default MFU (a data-
    // parallel 8-GPU NVLink node, whose gradient exchange hides behind compute).
    let catalog = catalog();
    let a100 = gpu(&catalog, "gpu/nvidia-a100-sxm4-80gb");
    let topo = Topology::new(&a100, 8, 1, false, 0.0);
    let mut w = Workload::defaults(Mode::Train);
    w.context = 4096;
    let settings = SpeedSettings { tokens: Some(2.0e12), ..SpeedSettings::default() };
    for (id, published) in
        [("meta-llama-2-7b", 184_320.0), ("meta-llama-2-13b", 368_640.0), ("meta-llama-2-70b", 1_720_320.0)]
    {
        let s = estimate_speed(&spec(&catalog, id), &w, &a100, &topo, &settings);
        let gpu_hours = s.gpu_hours.expect("GPU-hours");
        assert!(within(gpu_hours, published, 0.10), "{id}: {gpu_hours:.0} vs {published}");
    }
}

#[test]
fn llama_3_1_405b_gpu_hours() {
    // Llama 3.1 model card: 30.84M H100-80GB GPU-hours for 405B; Dubey et al. 2024: 15.6T
    // tokens, 38–43 % BF16 MFU (Table 4). The card's hours include restarts and long-context
    // training, so the estimate at the default 40 % MFU comes out below it.
    let catalog = catalog();
    let h100 = gpu(&catalog, "gpu/nvidia-h100-sxm5-80gb");
    let topo = Topology::new(&h100, 8, 1, false, 0.0);
    let w = Workload::defaults(Mode::Train);
    let settings = SpeedSettings { tokens: Some(15.6e12), ..SpeedSettings::default() };
    let s = estimate_speed(&spec(&catalog, "meta-llama-3.1-405b"), &w, &h100, &topo, &settings);
    let gpu_hours = s.gpu_hours.expect("GPU-hours");
    assert!(within(gpu_hours, 30.84e6, 0.15) && gpu_hours < 30.84e6, "{gpu_hours:.3e}");
    assert!((0.38..=0.43).contains(&DEFAULT_TRAIN_MFU));
}

#[test]
fn gpt3_training_flops() {
    // Brown et al. 2020, Table D.1: GPT-3 175B took 3.14e23 training FLOPs (300B tokens).
    let catalog = catalog();
    let flops = train_flops(&spec(&catalog, "openai-gpt-3-175b"), &Workload::defaults(Mode::Train), 300.0e9);
    assert!(within(flops, 3.14e23, 0.005), "{flops:.4e}");
    // Full recompute adds a forward pass: 8·P·T.
    let mut w = Workload::defaults(Mode::Train);
    w.recompute = Recompute::Full;
    let with_recompute = train_flops(&spec(&catalog, "openai-gpt-3-175b"), &w, 300.0e9);
    assert!(within(with_recompute / flops, 8.0 / 6.0, 1e-9));
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
    let ideal_active = 0.75 * 3350.0e9 / (mixtral.active_params as f64 * 2.0);
    let ideal_total = 0.75 * 3350.0e9 / (mixtral.total_params as f64 * 2.0);
    assert!(tps > 2.5 * ideal_total && tps < ideal_active, "{tps}");
    // Training FLOPs follow the active parameters.
    let f = train_flops(&mixtral, &Workload::defaults(Mode::Train), 1.0);
    assert!(within(f, 6.0 * mixtral.active_params as f64, 1e-12));
}

#[test]
fn overrides_change_the_estimates_proportionally() {
    let catalog = catalog();
    let g = gpu(&catalog, "gpu/nvidia-geforce-rtx-4090");
    let topo = Topology::new(&g, 1, 1, false, 0.0);
    let s = spec(&catalog, "meta-llama-3.1-8b");
    let w = Workload::defaults(Mode::Train);
    let base = estimate_speed(&s, &w, &g, &topo, &SpeedSettings::default()).train_tokens_per_s.expect("rate");
    let half = estimate_speed(
        &s,
        &w,
        &g,
        &topo,
        &SpeedSettings { mfu: Some(DEFAULT_TRAIN_MFU / 2.0), ..SpeedSettings::default() },
    )
    .train_tokens_per_s
    .expect("rate");
    assert!(within(half, base / 2.0, 1e-9));
    let w = Workload::defaults(Mode::Inference);
    let d = estimate_speed(
        &s,
        &w,
        &g,
        &topo,
        &SpeedSettings { decode_efficiency: Some(0.375), ..SpeedSettings::default() },
    );
    let base = estimate_speed(&s, &w, &g, &topo, &SpeedSettings::default());
    assert!(within(d.decode_tokens_per_s.expect("decode"), base.decode_tokens_per_s.expect("decode") / 2.0, 1e-9));
}
