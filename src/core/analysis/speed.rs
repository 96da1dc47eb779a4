//! How fast a workload runs: decode and prefill tokens/s, training tokens/s, training time
//! and GPU-hours, on a GPU type and topology.
//!
//! Theory of operation (sources in `../shared/guide/domain.md` §5):
//! - **Decode** is bound by memory bandwidth: each generated token reads the weights the
//!   token passes through (all of them for dense models, the touched experts for MoE) and the
//!   KV cache of the context, so a step takes `bytes / (efficiency × bandwidth)` plus the
//!   tensor-parallel all-reduces (two per layer, Shoeybi et al. 2019 §3) and pipeline hops.
//! - **Prefill** is compute bound: `2·P + 2·L·S·d_attn` FLOPs per token (Kaplan et al. 2020
//!   Table 1) at `MFU × peak` of the GPUs, plus the all-reduce traffic of the chunk.
//! - **Training** needs `6·P` FLOPs per token (`8·P` with full recompute; `4·P` for LoRA,
//!   whose frozen weights need no weight gradients) at `GPUs × peak × MFU`; tensor-parallel
//!   all-reduces are on the critical path, the pipeline has a 1F1B bubble, and the
//!   data-parallel gradient exchange overlaps the backward pass (Li et al. 2020, PyTorch DDP)
//!   until it is longer than it. Time = tokens / rate; GPU-hours = time × GPUs.
//! - Links: NVLink (bridge or switch) or Infinity Fabric within a node, PCIe otherwise, and
//!   the node's NICs across nodes. A ring all-reduce over `n` ranks moves `2(n−1)/n` of the
//!   message over each link and takes `2(n−1)` latency steps.
//!
//! The efficiency defaults are calibrated against published measurements (tests in
//! `tests/core/speed.rs` cite them); every default can be overridden.

use super::memory::{self, Mode, ModelSpec, Recompute, Shape, WeightType, Workload};
use crate::core::catalog::{Gpu, GpuFormFactor, Interconnect, Precision, Role};
use crate::core::i18n::{Lang, Sentence, localize_all};
use crate::core::units::SECONDS_PER_HOUR;
use crate::text;
use serde::Serialize;

crate::templates! {
    pub(crate) NOTES;
    NOTE_FP32_TRAINING "" {
        en: "fp32 training uses the GPU's non-tensor FP32 rate (TF32 tensor rates are not in the catalog)",
        zh: "fp32 训练按 GPU 的非 Tensor Core FP32 算力计（部件库中没有 TF32 Tensor 算力）",
    }
    NOTE_LAYOUT_NO_NIC "" {
        en: "the layout spans nodes that have no network card; no speed estimate",
        zh: "该布局跨越没有网卡的节点，无法估算速度",
    }
    NOTE_NO_ARCHITECTURE "" {
        en: "without an architecture, decode reads the weights only (no KV cache) and no interconnect cost is counted",
        zh: "没有模型结构时，解码只计读取权重（不含 KV 缓存），也不计互联开销",
    }
    NOTE_PIPELINE_PREFILL "" {
        en: "prefill assumes the pipeline stages overlap across prompt chunks",
        zh: "预填充假定各流水线阶段在提示词分块之间重叠执行",
    }
    NOTE_TP_NO_NIC "" {
        en: "tensor parallelism spans nodes without a network card; no speed estimate",
        zh: "张量并行跨越没有网卡的节点，无法估算速度",
    }
    NOTE_NODES_NO_NIC "" {
        en: "the nodes have no network card, so they cannot train together; no speed estimate",
        zh: "节点没有网卡，无法协同训练，无法估算速度",
    }
    NOTE_MEASURED_TOKENS "" {
        en: "for a measured model --tokens counts samples",
        zh: "对实测模型，--tokens 计的是样本数",
    }
    TOPO_NVLINK_SWITCH "" {
        en: "NVLink {generation} switch, {gbs} GB/s per direction",
        zh: "NVLink {generation} 交换互连，单向 {gbs} GB/s",
    }
    TOPO_NVLINK_BRIDGE "" {
        en: "NVLink {generation} bridges joining {max} GPUs, {gbs} GB/s per direction; PCIe beyond",
        zh: "NVLink {generation} 桥接 {max} 块 GPU，单向 {gbs} GB/s；其余经 PCIe",
    }
    TOPO_INFINITY_FABRIC "" {
        en: "Infinity Fabric, {gbs} GB/s per direction",
        zh: "Infinity Fabric 互连，单向 {gbs} GB/s",
    }
    TOPO_HCCS "" {
        en: "HCCS full mesh, {gbs} GB/s per direction",
        zh: "HCCS 全互联，单向 {gbs} GB/s",
    }
    NOTE_PRECISION_MISSING "" {
        en: "{gpu} has no {precision} tensor units ({precision} runs natively from {since} on; its {arch} runs {native}): no {precision} speed",
        zh: "{gpu} 没有 {precision} Tensor 单元（{precision} 自 {since} 起原生支持；其 {arch} 架构原生支持 {native}）：无法给出 {precision} 速度",
    }
    NOTE_BF16_AS_FP16 "" {
        en: "{gpu} has no BF16 tensor units ({arch}; BF16 from Ampere on): the speed is its FP16 rate, as the same model runs in fp16",
        zh: "{gpu} 没有 BF16 Tensor 单元（{arch} 架构；BF16 自 Ampere 起支持）：速度按其 FP16 算力计，即以 fp16 运行同一模型",
    }
    TOPO_PCIE_ONLY "" {
        en: "PCIe {gen}.0 x{lanes} only, {gbs} GB/s per direction",
        zh: "仅 PCIe {gen}.0 x{lanes}，单向 {gbs} GB/s",
    }
    TOPO_INTEGRATED "" {
        en: "integrated GPU",
        zh: "集成 GPU",
    }
    TOPO_ONE_GPU "" {
        en: "1 GPU per node",
        zh: "每节点 1 块 GPU",
    }
    TOPO_GPUS_OVER "" {
        en: "{n} GPUs per node over {link}",
        zh: "每节点 {n} 块 GPU，经 {link}",
    }
    TOPO_ACROSS_NETWORK "" {
        en: "{nodes} nodes over {gbps} Gb/s of NICs per node ({per_gpu} GB/s per GPU)",
        zh: "{nodes} 个节点，每节点网卡带宽 {gbps} Gb/s（每块 GPU {per_gpu} GB/s）",
    }
    TOPO_NO_NETWORK "" {
        en: "{nodes} nodes with no network card: they cannot work together",
        zh: "{nodes} 个节点均无网卡：无法协同工作",
    }
    TOPO_PARTIAL "" {
        en: "{topology} ({n} of its {total} GPUs used)",
        zh: "{topology}（共 {total} 块 GPU，使用其中 {n} 块）",
    }
    TOPO_JOINED "" {
        en: "{within}; {across}",
        zh: "{within}；{across}",
    }
}

/// Share of peak memory bandwidth decode reaches with 8-bit and wider weights. Calibration:
/// llama.cpp on an RTX 4090 (1008 GB/s) decodes a 7B model at F16 (12.55 GiB) at 61.03 t/s
/// and at Q8_0 (6.67 GiB) at 98.13 t/s (llama.cpp PR 4766 benchmark, 2024-01), i.e. 82 % and
/// 70 % of peak; FasterTransformer decodes a 13B model in fp16 on an A100-40GB SXM in
/// 22.0 ms/token (kipply's "Transformer Inference Arithmetic", as reproduced in
/// cli99/llm-analysis examples/fastertransformer), 78 % of peak.
pub const DECODE_EFFICIENCY_WIDE: f64 = 0.75;

/// Share of peak bandwidth decode reaches with sub-8-bit weights, whose dequantization costs
/// more per byte. Calibration: llama.cpp decodes a 7B Q4_0 model (3.56 GiB) at 127.43 t/s on
/// an RTX 3090 Ti (llama.cpp PR 4812) and at 121.82 t/s on an RTX 3090 (PR 4766), i.e. 48 % and
/// 50 % of peak.
pub const DECODE_EFFICIENCY_NARROW: f64 = 0.50;

/// Model-FLOPs utilization of prefill (large matrix multiplications). Calibration:
/// FasterTransformer prefills 512 tokens of a 13B model on one A100-40GB in 63.17 ms (kipply,
/// via llm-analysis), 67 % of the 312 TFLOPS peak.
pub const DEFAULT_PREFILL_MFU: f64 = 0.65;

/// Model-FLOPs utilization of large training runs. Calibration: Llama 2's reported GPU-hours
/// (Touvron et al. 2023, Table 2: 7B 184,320 h, 70B 1,720,320 h for 2T tokens on A100-80GB)
/// imply 39 % and 43 % of the 312 TFLOPS BF16 peak under 6·P·T; Llama 3 405B reports 38–43 %
/// BF16 MFU on H100 (Dubey et al. 2024, Table 4).
pub const DEFAULT_TRAIN_MFU: f64 = 0.40;

/// Tokens per optimizer step when a training run's global batch is not given: Llama 2 trains
/// with a global batch of 4M tokens (Touvron et al. 2023 §2.2).
pub const GLOBAL_BATCH_TOKENS: f64 = 4_194_304.0;

/// Latency of one ring step of a small all-reduce over NVLink, seconds. Calibration: the
/// FasterTransformer 13B run above decodes at 13.5 ms/token with tensor parallelism 2 over
/// NVLink against 11.0 ms for half the bytes, 2.5 ms for 80 all-reduces of 2 ring steps each.
pub const NVLINK_STEP_LATENCY_S: f64 = 15.0e-6;

/// Latency of one ring step over PCIe, seconds: an estimate, twice the NVLink figure, since
/// GeForce cards without peer-to-peer stage every transfer through host memory (unverified;
/// vLLM users report tensor parallelism over PCIe without P2P slowing decode markedly).
pub const PCIE_STEP_LATENCY_S: f64 = 30.0e-6;

/// Latency of one ring step across nodes over InfiniBand/RoCE, seconds: an estimate of the
/// same order as PCIe (the NIC sits behind a PCIe switch), unverified.
pub const NETWORK_STEP_LATENCY_S: f64 = 30.0e-6;

/// PCIe x16 bandwidth per direction, GB/s, by generation: 3.0 ≈ 16, 4.0 ≈ 32, 5.0 ≈ 64,
/// 6.0 ≈ 128 (PCI-SIG base specifications: 8, 16, 32, 64 GT/s per lane; domain.md §1).
#[must_use]
pub fn pcie_x16_gbs(generation: u8) -> f64 {
    match generation {
        0..=2 => 8.0,
        3 => 16.0,
        4 => 32.0,
        5 => 64.0,
        _ => 128.0,
    }
}

/// Kind of link between GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    NvlinkSwitch,
    NvlinkBridge,
    InfinityFabric,
    Hccs,
    Pcie,
    Network,
}

/// A link: bandwidth per direction and latency per ring step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Link {
    pub kind: LinkKind,
    pub bandwidth_gbs: f64,
    pub step_latency_s: f64,
}

impl Link {
    /// Ring all-reduce of `bytes` over `ranks`: `2(n−1)` latency steps and `2(n−1)/n` of the
    /// data over each link (Patarasuk & Yuan 2009; NCCL's ring algorithm).
    #[must_use]
    pub fn all_reduce_s(&self, ranks: u32, bytes: f64) -> f64 {
        if ranks <= 1 {
            return 0.0;
        }
        let n = f64::from(ranks);
        2.0 * (n - 1.0) * self.step_latency_s + 2.0 * (n - 1.0) / n * bytes / (self.bandwidth_gbs * 1.0e9)
    }

    /// One point-to-point transfer.
    #[must_use]
    pub fn p2p_s(&self, bytes: f64) -> f64 {
        self.step_latency_s + bytes / (self.bandwidth_gbs * 1.0e9)
    }
}

/// GPUs, nodes and the links between them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Topology {
    pub gpus_per_node: u32,
    pub nodes: u32,
    /// NVLink / Infinity Fabric within a node, if the GPUs have it.
    pub fast: Option<Link>,
    /// Most GPUs the fast link joins all-to-all (the node for switches, the bridge group for
    /// NVLink bridges).
    pub fast_group: u32,
    /// PCIe between GPUs of a node.
    pub pcie: Link,
    /// Each GPU's share of the node's network bandwidth, if the node has NICs.
    pub network: Option<Link>,
    /// One line for people: "8 GPUs per node over NVLink 4 switch (450 GB/s per direction)…",
    /// in any language.
    pub description: Sentence,
}

impl Topology {
    /// The topology of `gpus_per_node` GPUs of one type in each of `nodes` nodes.
    /// `nvlink_bridge` says whether the build fits NVLink bridges; `nic_gbps_per_node` is the
    /// node's total network bandwidth in Gb/s (0 for none).
    #[must_use]
    pub fn new(gpu: &Gpu, gpus_per_node: u32, nodes: u32, nvlink_bridge: bool, nic_gbps_per_node: f64) -> Self {
        let lanes = if gpu.pcie_lanes == 0 { 16.0 } else { f64::from(gpu.pcie_lanes) };
        let pcie = Link {
            kind: LinkKind::Pcie,
            bandwidth_gbs: pcie_x16_gbs(gpu.pcie_gen) * lanes / 16.0,
            step_latency_s: PCIE_STEP_LATENCY_S,
        };
        let (fast, fast_group, fast_text) = match &gpu.interconnect {
            Interconnect::NvLinkSwitch { generation, bandwidth_gbs } => (
                Some(Link {
                    kind: LinkKind::NvlinkSwitch,
                    bandwidth_gbs: bandwidth_gbs / 2.0,
                    step_latency_s: NVLINK_STEP_LATENCY_S,
                }),
                gpus_per_node,
                text!(
                    TOPO_NVLINK_SWITCH,
                    generation = generation.to_string(),
                    gbs = format!("{:.0}", bandwidth_gbs / 2.0)
                ),
            ),
            Interconnect::NvLinkBridge { generation, bandwidth_gbs, max_gpus } if nvlink_bridge => (
                Some(Link {
                    kind: LinkKind::NvlinkBridge,
                    bandwidth_gbs: bandwidth_gbs / 2.0,
                    step_latency_s: NVLINK_STEP_LATENCY_S,
                }),
                u32::from(*max_gpus).min(gpus_per_node),
                text!(
                    TOPO_NVLINK_BRIDGE,
                    generation = generation.to_string(),
                    max = max_gpus.to_string(),
                    gbs = format!("{:.0}", bandwidth_gbs / 2.0)
                ),
            ),
            Interconnect::InfinityFabric { bandwidth_gbs } => (
                Some(Link {
                    kind: LinkKind::InfinityFabric,
                    bandwidth_gbs: bandwidth_gbs / 2.0,
                    step_latency_s: NVLINK_STEP_LATENCY_S,
                }),
                gpus_per_node,
                text!(TOPO_INFINITY_FABRIC, gbs = format!("{:.0}", bandwidth_gbs / 2.0)),
            ),
            Interconnect::Hccs { bandwidth_gbs } => (
                Some(Link {
                    kind: LinkKind::Hccs,
                    bandwidth_gbs: bandwidth_gbs / 2.0,
                    step_latency_s: NVLINK_STEP_LATENCY_S,
                }),
                gpus_per_node,
                text!(TOPO_HCCS, gbs = format!("{:.0}", bandwidth_gbs / 2.0)),
            ),
            _ => (
                None,
                1,
                text!(
                    TOPO_PCIE_ONLY,
                    gen = gpu.pcie_gen.to_string(),
                    lanes = gpu.pcie_lanes.to_string(),
                    gbs = format!("{:.0}", pcie.bandwidth_gbs)
                ),
            ),
        };
        let network = (nic_gbps_per_node > 0.0 && nodes > 1).then(|| Link {
            kind: LinkKind::Network,
            bandwidth_gbs: nic_gbps_per_node / 8.0 / f64::from(gpus_per_node.max(1)),
            step_latency_s: NETWORK_STEP_LATENCY_S,
        });
        let gpu_text = if gpu.form_factor == GpuFormFactor::Integrated { text!(TOPO_INTEGRATED) } else { fast_text };
        let mut description = if gpus_per_node <= 1 {
            text!(TOPO_ONE_GPU)
        } else {
            text!(TOPO_GPUS_OVER, n = gpus_per_node.to_string(), link = gpu_text)
        };
        if nodes > 1 {
            let across = match &network {
                Some(n) => text!(
                    TOPO_ACROSS_NETWORK,
                    nodes = nodes.to_string(),
                    gbps = format!("{nic_gbps_per_node:.0}"),
                    per_gpu = format!("{:.1}", n.bandwidth_gbs)
                ),
                None => text!(TOPO_NO_NETWORK, nodes = nodes.to_string()),
            };
            description = text!(TOPO_JOINED, within = description, across = across);
        }
        Self { gpus_per_node, nodes, fast, fast_group, pcie, network, description: Sentence::new(description) }
    }

    /// Every GPU.
    #[must_use]
    pub fn total_gpus(&self) -> u32 {
        self.gpus_per_node.saturating_mul(self.nodes)
    }

    /// The link a group of `size` consecutive GPUs talks over: the fast link when the group
    /// fits in it, PCIe within a node, the network beyond (None if the nodes have no NIC).
    #[must_use]
    pub fn group_link(&self, size: u32) -> Option<Link> {
        if size <= 1 {
            return Some(self.fast.unwrap_or(self.pcie));
        }
        if size > self.gpus_per_node {
            return self.network;
        }
        match self.fast {
            Some(link) if size <= self.fast_group => Some(link),
            _ => Some(self.pcie),
        }
    }
}

/// Overrides of the calibrated defaults, and the training token count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpeedSettings {
    /// Share of peak bandwidth decode reaches.
    pub decode_efficiency: Option<f64>,
    /// Model-FLOPs utilization for prefill and training.
    pub mfu: Option<f64>,
    /// Tokens (samples for measured models) to train on.
    pub tokens: Option<f64>,
}

/// Speed estimates; `None` where a figure does not apply to the mode or model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpeedEstimate {
    /// Generated tokens per second summed over the batch, for one model replica.
    pub decode_tokens_per_s: Option<f64>,
    /// Prompt tokens per second for one model replica.
    pub prefill_tokens_per_s: Option<f64>,
    /// Samples per second over all GPUs, for measured (non-transformer) models.
    pub inference_samples_per_s: Option<f64>,
    /// Training FLOPs for the given tokens (6·P·T, 8·P·T with full recompute).
    pub train_flops: Option<f64>,
    pub train_tokens_per_s: Option<f64>,
    pub train_samples_per_s: Option<f64>,
    pub train_hours: Option<f64>,
    pub gpu_hours: Option<f64>,
    pub decode_efficiency: f64,
    pub prefill_mfu: f64,
    pub train_mfu: f64,
    /// Dense peak the compute-bound figures use, TFLOPS per GPU; 0 when the precision gate
    /// withholds the speed ([`precision_gate`]).
    pub peak_tflops: f64,
    /// Share of a training step spent in communication that compute does not hide.
    pub communication_share: Option<f64>,
    /// Assumptions and caveats (English unless [`Self::localize`]d).
    pub notes: Vec<Sentence>,
}

impl SpeedEstimate {
    /// Renders the notes in `lang`.
    pub fn localize(&mut self, lang: Lang) {
        localize_all(&mut self.notes, lang);
    }
}

/// FLOPs per trained token (or sample for measured models): 6·P (8·P with full recompute)
/// for full training (Kaplan et al. 2020 §2.1; Korthikanti et al. 2022 §5 for the extra
/// forward); LoRA and QLoRA skip weight gradients of the frozen base, 4·P (+2·P with full
/// recompute) (Hu et al. 2021 §4.2 report the saving as a 25 % speed-up); measured models 3 ×
/// their forward FLOPs.
#[must_use]
pub fn train_flops_per_unit(spec: &ModelSpec, w: &Workload) -> f64 {
    if let Shape::Measured(m) = &spec.shape {
        return 3.0 * m.forward_flops_per_sample;
    }
    let full = w.recompute == Recompute::Full;
    let factor = match w.mode {
        Mode::Lora | Mode::Qlora => {
            if full {
                6.0
            } else {
                4.0
            }
        }
        _ => {
            if full {
                8.0
            } else {
                6.0
            }
        }
    };
    factor * spec.active_params as f64
}

/// The decode efficiency default for a weight type.
#[must_use]
pub fn default_decode_efficiency(weights: WeightType) -> f64 {
    if weights.bits_per_weight() >= 8.0 { DECODE_EFFICIENCY_WIDE } else { DECODE_EFFICIENCY_NARROW }
}

/// The precision a workload's matrix multiplications run in, where it asks for one the GPU
/// may lack: fp8 inference (per-tensor or block-scaled) runs fp8 GEMMs (Transformer Engine; vLLM's fp8 path; DeepGEMM for block scales), bf16 weights
/// run bf16 GEMMs. Other formats are weight-only (int8/int4/GGUF/NF4 dequantized to 16 bits,
/// and an fp8 base under LoRA), computed at the 16-bit rate every tensor unit has.
#[must_use]
pub fn compute_precision(w: &Workload) -> Option<Precision> {
    match w.weights {
        WeightType::Fp8 | WeightType::Fp8Block if !w.mode.is_training() => Some(Precision::Fp8),
        WeightType::Bf16 => Some(Precision::Bf16),
        _ => None,
    }
}

/// Why `gpu` gives no speed for `w`: the precision gate. A workload computed in a precision
/// the GPU's tensor units lack ([`Gpu::supports`]) has no speed rather than one borrowed from
/// another format, except BF16, which runs as FP16 on a GPU without it (same bytes, the FP16
/// rate; a note says so). Returns the note and whether the speed is withheld.
#[must_use]
pub fn precision_gate(gpu: &Gpu, w: &Workload) -> Option<(crate::core::i18n::Text, bool)> {
    let precision = compute_precision(w)?;
    if gpu.supports(precision) {
        return None;
    }
    if precision == Precision::Bf16 {
        return Some((text!(NOTE_BF16_AS_FP16, gpu = &gpu.name, arch = &gpu.architecture), false));
    }
    let native: Vec<String> = gpu.tensor_precisions().iter().map(ToString::to_string).collect();
    Some((
        text!(
            NOTE_PRECISION_MISSING,
            gpu = &gpu.name,
            precision = precision.to_string(),
            since = precision.introduced_with(),
            arch = &gpu.architecture,
            native = native.join(", ")
        ),
        true,
    ))
}

fn peak_tflops(gpu: &Gpu, w: &Workload) -> f64 {
    match w.weights {
        // A GPU without an FP8 rate never gets this far: the precision gate withholds the speed.
        WeightType::Fp8 | WeightType::Fp8Block if !w.mode.is_training() => gpu.fp8_tensor_tflops.unwrap_or(0.0),
        WeightType::Fp32 if w.mode == Mode::Train => gpu.fp32_tflops,
        _ => gpu.dense_16bit_tflops(),
    }
}

/// Estimates the speed of `w` for `spec` on `topo` (all its GPUs) of `gpu`. The layout must be
/// valid (as [`memory::estimate`] checks).
#[must_use]
pub fn estimate_speed(
    spec: &ModelSpec,
    w: &Workload,
    gpu: &Gpu,
    topo: &Topology,
    settings: &SpeedSettings,
) -> SpeedEstimate {
    let decode_efficiency = settings.decode_efficiency.unwrap_or_else(|| default_decode_efficiency(w.weights));
    let prefill_mfu = settings.mfu.unwrap_or(DEFAULT_PREFILL_MFU);
    let train_mfu = settings.mfu.unwrap_or(DEFAULT_TRAIN_MFU);
    let peak = peak_tflops(gpu, w);
    let mut out = SpeedEstimate {
        decode_tokens_per_s: None,
        prefill_tokens_per_s: None,
        inference_samples_per_s: None,
        train_flops: None,
        train_tokens_per_s: None,
        train_samples_per_s: None,
        train_hours: None,
        gpu_hours: None,
        decode_efficiency,
        prefill_mfu,
        train_mfu,
        peak_tflops: peak,
        communication_share: None,
        notes: Vec::new(),
    };
    if w.weights == WeightType::Fp32 && w.mode == Mode::Train {
        out.notes.push(Sentence::new(text!(NOTE_FP32_TRAINING)));
    }
    if let Some((note, withheld)) = precision_gate(gpu, w) {
        out.notes.push(Sentence::new(note));
        if withheld {
            out.peak_tflops = 0.0;
            return out;
        }
    }
    if w.mode.is_training() {
        training(spec, w, gpu, topo, peak, train_mfu, settings.tokens, &mut out);
    } else {
        inference(spec, w, gpu, topo, peak, decode_efficiency, prefill_mfu, &mut out);
    }
    out
}

#[expect(
    clippy::too_many_arguments,
    clippy::many_single_char_names,
    reason = "each argument is an independent input of the estimate; b, h, t: the papers' notation"
)]
fn inference(
    spec: &ModelSpec,
    w: &Workload,
    gpu: &Gpu,
    topo: &Topology,
    peak_tflops: f64,
    efficiency: f64,
    mfu: f64,
    out: &mut SpeedEstimate,
) {
    let peak = peak_tflops * 1.0e12;
    let bandwidth = gpu.memory_bandwidth_gbs * 1.0e9;
    let tp = f64::from(w.tp);
    let b = f64::from(w.batch);
    let tp_link = topo.group_link(w.tp);
    let pp_link = topo.group_link(w.tp.saturating_mul(w.pp));
    if let Shape::Measured(m) = &spec.shape {
        out.inference_samples_per_s = Some(f64::from(topo.total_gpus()) * peak * mfu / m.forward_flops_per_sample);
        return;
    }
    let (Some(tp_link), Some(pp_link)) = (tp_link, pp_link) else {
        out.notes.push(Sentence::new(text!(NOTE_LAYOUT_NO_NIC)));
        return;
    };
    let total = spec.total_params as f64;
    let weights_total = memory::weight_bytes(spec, w.weights);
    let seq = spec.sequence_len(w.context) as f64;
    let Some(t) = spec.transformer() else {
        let time_memory = weights_total / tp / (efficiency * bandwidth);
        let time_compute = 2.0 * spec.active_params as f64 * b / (tp * peak * mfu);
        out.decode_tokens_per_s = Some(b / time_memory.max(time_compute));
        out.prefill_tokens_per_s = Some(tp * f64::from(w.pp) * peak * mfu / (2.0 * spec.active_params as f64));
        out.notes.push(Sentence::new(text!(NOTE_NO_ARCHITECTURE)));
        return;
    };
    let h = f64::from(t.hidden);
    let layers = f64::from(t.layers);
    let attn_layers = t.attention_layer_count() as f64;
    let d_attn = f64::from(t.heads) * t.qk_head_dim() as f64;
    // Prefill: Kaplan et al. 2020 Table 1, forward FLOPs per token 2N + 2·n_layer·n_ctx·d_attn.
    let flops_per_token = 2.0 * spec.active_params as f64 + 2.0 * attn_layers * seq * d_attn;
    let compute = seq * b * flops_per_token / (tp * f64::from(w.pp) * peak * mfu);
    let chunks = (seq / memory::PREFILL_CHUNK_TOKENS as f64).ceil().max(1.0);
    let comm = if w.tp > 1 {
        2.0 * layers
            * (chunks * 2.0 * (tp - 1.0) * tp_link.step_latency_s
                + 2.0 * (tp - 1.0) / tp * seq * b * h * 2.0 / (tp_link.bandwidth_gbs * 1.0e9))
    } else {
        0.0
    };
    out.prefill_tokens_per_s = Some(seq * b / (compute + comm));
    if w.pp > 1 {
        out.notes.push(Sentence::new(text!(NOTE_PIPELINE_PREFILL)));
    }
    if t.role != Role::Decoder {
        return;
    }
    // Decode: bytes read per step.
    let read_params = match t.moe {
        Some(m) if t.moe_layers() > 0 => {
            let per_expert = t.ffn_params(m.expert_ffn) as f64;
            let routed_total = t.moe_layers() as f64 * f64::from(m.experts) * per_expert;
            let share = f64::from(m.active_experts) / f64::from(m.experts);
            // Expected share of experts some sequence of the batch routes to, with uniform routing.
            let touched = 1.0 - (1.0 - share).powf(b);
            total - routed_total * (1.0 - touched)
        }
        _ => total,
    };
    let weights_read = weights_total * read_params / total;
    // Sliding-window layers read at most their window (Transformer::kv_elements_for).
    let kv_total = memory::kv_bytes_for_sequence(spec, w.kv, spec.sequence_len(w.context)).unwrap_or(0.0) * b;
    // MLA's latent is replicated on every tensor-parallel rank; GQA heads are split.
    let kv_per_gpu = if t.mla.is_some() { kv_total } else { kv_total / tp };
    let time_memory = (weights_read / tp + kv_per_gpu) / (efficiency * bandwidth);
    let time_compute = 2.0 * read_params * b / (tp * peak * mfu);
    let mut comm = 2.0 * layers * tp_link.all_reduce_s(w.tp, b * h * 2.0);
    if w.pp > 1 {
        comm += f64::from(w.pp - 1) * pp_link.p2p_s(b * h * 2.0);
    }
    out.decode_tokens_per_s = Some(b / (time_memory.max(time_compute) + comm));
}

#[expect(clippy::too_many_arguments, reason = "each argument is an independent input of the estimate")]
fn training(
    spec: &ModelSpec,
    w: &Workload,
    _gpu: &Gpu,
    topo: &Topology,
    peak_tflops: f64,
    mfu: f64,
    tokens: Option<f64>,
    out: &mut SpeedEstimate,
) {
    let peak = peak_tflops * 1.0e12;
    let gpus = topo.total_gpus();
    let dp = gpus / w.tp.saturating_mul(w.pp).max(1);
    let flops_per_unit = train_flops_per_unit(spec, w);
    let measured = matches!(spec.shape, Shape::Measured(_));
    let units_per_microbatch =
        if measured { f64::from(w.batch) } else { f64::from(w.batch) * spec.sequence_len(w.context) as f64 };
    let global = if measured {
        units_per_microbatch * f64::from(dp)
    } else {
        GLOBAL_BATCH_TOKENS.max(units_per_microbatch * f64::from(dp))
    };
    let microbatches = (global / (units_per_microbatch * f64::from(dp))).max(1.0);
    let tp = f64::from(w.tp);
    let pp = f64::from(w.pp);

    let Some(tp_link) = topo.group_link(w.tp) else {
        out.notes.push(Sentence::new(text!(NOTE_TP_NO_NIC)));
        return;
    };
    let Some(dp_link) = topo.group_link(gpus) else {
        if gpus > topo.gpus_per_node {
            out.notes.push(Sentence::new(text!(NOTE_NODES_NO_NIC)));
        }
        return;
    };

    // One micro-batch on one pipeline stage.
    let compute_mb = flops_per_unit * units_per_microbatch / (tp * pp * peak * mfu);
    let (tp_comm, pp_comm) = match spec.transformer() {
        Some(t) => {
            let h = f64::from(t.hidden);
            let activation_bytes = units_per_microbatch * h * 2.0;
            // Two all-reduces forward and two backward per layer (Shoeybi et al. 2019 §3), two
            // more when full recompute repeats the forward.
            let per_layer = if w.recompute == Recompute::Full { 6.0 } else { 4.0 };
            let tp_comm = f64::from(t.layers) / pp * per_layer * tp_link.all_reduce_s(w.tp, activation_bytes);
            let pp_comm = if w.pp > 1 {
                topo.group_link(w.tp.saturating_mul(w.pp))
                    .map_or(f64::INFINITY, |l| 2.0 * l.p2p_s(activation_bytes / tp))
            } else {
                0.0
            };
            (tp_comm, pp_comm)
        }
        None => (0.0, 0.0),
    };
    let microbatch_time = compute_mb + tp_comm + pp_comm;
    // 1F1B schedule: m micro-batches take (m + p − 1) slots (Narayanan et al. 2021 §2.2).
    let pipeline_time = (microbatches + pp - 1.0) * microbatch_time;

    // Data-parallel exchange per optimizer step.
    let trainable = match w.mode {
        Mode::Lora | Mode::Qlora => {
            spec.transformer().map_or(0.0, |t| memory::lora_params(t, w.lora_rank, w.lora_targets) as f64)
        }
        _ => spec.total_params as f64,
    };
    let shard = trainable / (tp * pp);
    let grad_bytes = match w.mode {
        Mode::Lora => 4.0,
        Mode::Qlora => 2.0,
        _ if w.weights == WeightType::Fp32 => 4.0,
        _ => w.grad_dtype.bytes() as f64,
    };
    let n = f64::from(dp);
    let (dp_time, overlap) = if dp <= 1 {
        (0.0, 1.0)
    } else if w.zero >= 3 {
        // ZeRO-3 gathers parameters forward and backward and reduce-scatters gradients every
        // micro-step: 1.5× the all-reduce volume (Rajbhandari et al. 2019 §7.2.2), hidden
        // behind the whole computation by prefetching.
        let per_micro = 3.0 * (n - 1.0) / n * shard * 2.0 / (dp_link.bandwidth_gbs * 1.0e9)
            + 3.0 * (n - 1.0) * dp_link.step_latency_s;
        (microbatches * per_micro, 1.0)
    } else {
        // Gradients are exchanged once per step, overlapped with the backward pass (two
        // thirds of the compute).
        (dp_link.all_reduce_s(dp, shard * grad_bytes), 2.0 / 3.0)
    };
    let exposed = (dp_time - overlap * pipeline_time).max(0.0);
    let step = pipeline_time + exposed;
    let pure_compute = microbatches * compute_mb;
    let rate = global / step;
    out.communication_share = Some(((step - pure_compute) / step).clamp(0.0, 1.0));
    if measured {
        out.train_samples_per_s = Some(rate);
    } else {
        out.train_tokens_per_s = Some(rate);
    }
    if let Some(units) = tokens {
        out.train_flops = Some(flops_per_unit * units);
        let hours = units / rate / SECONDS_PER_HOUR;
        out.train_hours = Some(hours);
        out.gpu_hours = Some(hours * f64::from(gpus));
        if measured {
            out.notes.push(Sentence::new(text!(NOTE_MEASURED_TOKENS)));
        }
    }
}

/// Training FLOPs of `tokens` without a GPU: 6·P·T (8·P·T with full recompute).
#[must_use]
pub fn train_flops(spec: &ModelSpec, w: &Workload, tokens: f64) -> f64 {
    train_flops_per_unit(spec, w) * tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_note_has_the_same_placeholders_in_both_languages() {
        crate::core::i18n::assert_table_is_translated(NOTES);
    }

    #[test]
    fn ring_all_reduce_cost() {
        let link = Link { kind: LinkKind::Pcie, bandwidth_gbs: 32.0, step_latency_s: 10.0e-6 };
        assert!(link.all_reduce_s(1, 1.0e9).abs() < 1e-15);
        // 4 ranks: 6 steps of 10 µs and 1.5 × 32 MB at 32 GB/s = 1.5 ms.
        let t = link.all_reduce_s(4, 32.0e6);
        assert!((t - (60.0e-6 + 1.5e-3)).abs() < 1e-9, "{t}");
    }

    #[test]
    fn pcie_generations() {
        assert!((pcie_x16_gbs(4) - 32.0).abs() < 1e-12);
        assert!((pcie_x16_gbs(5) - 64.0).abs() < 1e-12);
        assert!(pcie_x16_gbs(3) < pcie_x16_gbs(4));
    }
}
