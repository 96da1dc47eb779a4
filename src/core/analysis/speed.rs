//! How fast a workload runs: decode and prefill tokens/s, time to first token, training
//! tokens/s, training time and GPU-hours, images per minute of diffusion pipelines, on a GPU
//! type and topology.
//!
//! Theory of operation (sources in `../shared/guide/domain.md` §5 and §7, constants below):
//! - **Decode** ([`InferenceModel::decode_step`]): each step reads the weights the tokens pass
//!   through (all of them for dense models, the touched experts for MoE) and the KV cache of
//!   the context at the engine's share of the memory bandwidth ([`decode_efficiency`]: by
//!   engine, weight format and GDDR/HBM), adds the step's `2·P` FLOPs per sequence at
//!   [`DECODE_MFU`], and waits for two all-reduces per layer of tensor parallelism (Shoeybi et
//!   al. 2019 §3) and a hop per pipeline stage.
//! - **Prefill** ([`InferenceModel::prefill_s`]): `2·P + 2·L·S·d_attn` FLOPs per token (Kaplan
//!   et al. 2020 Table 1) at the prefill MFU, one read of the weights per chunk of the engine,
//!   the chunks' all-reduces. Time to first token is the prefill of the prompt.
//! - **Links**: NVLink (bridge or switch) or Infinity Fabric within a node, PCIe otherwise, and
//!   the node's NICs across nodes. An all-reduce moves `2(n−1)/n` of the message over each
//!   link; its latency grows with log₂ n over all-to-all fabrics and with 2(n−1) ring steps
//!   elsewhere ([`Link::all_reduce_latency_s`]).
//! - **Training** needs `6·P` FLOPs per token (`8·P` with full recompute; `4·P` for LoRA,
//!   whose frozen weights need no weight gradients) plus attention at the context, at
//!   `GPUs × peak × MFU` with a kernel MFU that grows with the hidden size ([`train_mfu`]);
//!   QLoRA pays [`QLORA_SLOWDOWN`]; tensor-parallel all-reduces are on the critical path, the
//!   pipeline has an interleaved 1F1B bubble, the data-parallel gradient exchange overlaps
//!   the backward pass (Li et al. 2020, PyTorch DDP) until it is longer than it, and a job
//!   loses time to failures as its GPU count grows ([`goodput`]). Time = tokens / rate;
//!   GPU-hours = time × GPUs.
//! - **Diffusion pipelines**: an image takes [`DIFFUSION_STEPS`] denoiser passes of
//!   [`GUIDANCE_PASSES`] each at [`DIFFUSION_MFU`].
//!
//! The defaults are calibrated against published measurements, every one of which is a vector
//! of `catalog/reference/measurements.ron` ([`crate::core::reference`], checked by
//! `tests/core/reference.rs`); every default can be overridden.

use super::memory::{self, Engine, Mode, ModelSpec, Recompute, Shape, WeightType, Workload};
use crate::core::catalog::{Gpu, GpuFormFactor, GpuMemoryType, Interconnect, Precision, Role};
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

/// Share of peak memory bandwidth decode reaches, by engine, weight format and memory type
/// ([`decode_efficiency`]). llama.cpp figures are calibrated on llama.cpp's own `llama-bench`
/// results on several GPUs (XiongjieDai/GPU-Benchmarks-on-LLM-Inference README: Llama 2 7B
/// Q4_0 and F16 on RTX 3090, 4090, A6000, 6000 Ada, A100 80GB, H100 PCIe, Dec. 2023; Llama 3
/// 8B Q4_K_M and F16 on RTX 3090 and 4090, May 2024; llama.cpp PR 4766 and 4812); the serving
/// engines' on FasterTransformer and LMDeploy TurboMind, TensorRT-LLM's and LMDeploy's common
/// ancestry (kipply's 13B on A100-40GB; LMDeploy `docs/en/benchmark/a100_fp16.md`). The tests
/// of `tests/core/reference.rs` hold every measurement against the estimate.
///
/// llama.cpp, 16/32-bit weights on GDDR: 70–91 % of peak measured (F16 7B and 8B on RTX 3090,
/// 4090, A6000, 6000 Ada).
pub const LLAMA_CPP_GDDR_WIDE: f64 = 0.80;

/// llama.cpp, Q8_0 on GDDR: 70 % on an RTX 4090 (PR 4766, 98.13 t/s for 6.67 GiB).
pub const LLAMA_CPP_GDDR_BYTE: f64 = 0.70;

/// llama.cpp, sub-8-bit GGUF types on GDDR: Q4_K_M 8B reaches 61–64 % on RTX 3090 and 4090
/// (May 2024), Q4_0 7B 49–57 % on the same cards in Dec. 2023 and 51–55 % on the A6000 and
/// 6000 Ada: builds vary by about ±15 % between releases.
pub const LLAMA_CPP_GDDR_NARROW: f64 = 0.60;

/// llama.cpp, F16 on HBM: 46–53 % on A100 80GB and H100 PCIe (Dec. 2023): its F16 path
/// reaches a smaller share of HBM bandwidth than of GDDR.
pub const LLAMA_CPP_HBM_WIDE: f64 = 0.53;

/// llama.cpp, quantized types on HBM: Q4_0 7B reaches 26–27 % on A100 80GB and H100 PCIe
/// (Dec. 2023). Q8_0 and the K-quants on HBM are taken at the same share (an assumption: no
/// published run was found).
pub const LLAMA_CPP_HBM_NARROW: f64 = 0.27;

/// Serving engines (vLLM/SGLang, TensorRT-LLM), 8-bit and wider weights: FasterTransformer
/// decodes a 13B model at 22.0 ms/token on an A100-40GB (75 % of peak), LMDeploy TurboMind a
/// 7B and a 13B at 100.02 and 57.49 t/s on an A100-80GB (66 % and 73 %). vLLM is taken at the
/// same share (an assumption).
pub const SERVING_WIDE: f64 = 0.72;

/// Serving engines, 4-bit weights (AWQ/GPTQ with Marlin-type kernels, GGUF in vLLM): a rigplan
/// assumption, between llama.cpp's narrow GDDR share and the serving engines' wide share (no
/// batch-1 measurement on a catalog GPU was found).
pub const SERVING_NARROW: f64 = 0.55;

/// Plain PyTorch (Hugging Face `generate`, eager kernels, one launch per operator): a rigplan
/// assumption, well below the serving engines, whose CUDA graphs remove the launch overhead.
pub const PYTORCH_FACTOR: f64 = 0.6;

/// Model-FLOPs utilization of decode's matrix multiplications, which add to the memory time
/// (the two do not overlap well at small batches). Calibration: LMDeploy TurboMind on A100-80GB
/// (batch 1 → 64, prompt 1, 128 tokens): Llama 2 7B 100 → 4155 t/s and Llama 2 70B at TP 4
/// 34 → 1426 t/s, whose step times grow by 5.4 and 15.4 ms, what 2·P·B FLOPs at 55 % of peak
/// take.
pub const DECODE_MFU: f64 = 0.55;

/// Model-FLOPs utilization of prefill at 16-bit. Calibration: TensorRT-LLM first-token
/// latency on A100 (v0.5 `docs/source/performance.md`): Llama 7B 2048 tokens 133 ms, Llama 70B
/// TP 4 377 ms; LMDeploy TurboMind's 139 ms for 2048 tokens of Llama 2 7B; FasterTransformer's
/// 63.17 ms for 512 tokens of a 13B (kipply): 70 % of the BF16/FP16 peak.
pub const DEFAULT_PREFILL_MFU: f64 = 0.70;

/// Model-FLOPs utilization of prefill with FP8 weights, of the FP8 peak. Calibration:
/// TensorRT-LLM first-token latency on H100 FP8 (same table): Llama 7B 2048 tokens 36 ms,
/// Llama 70B TP 4 109 ms; NVIDIA NIM 1.8 (TensorRT-LLM), Llama 3.3 70B FP8 on 2 × H100, 5000
/// tokens in 406.77 ms: within 12 % of all three.
pub const FP8_PREFILL_MFU: f64 = 0.50;

/// Kernel-level model-FLOPs utilization of training a transformer with a very wide hidden
/// size, before communication, pipeline bubbles and cluster goodput; [`train_mfu`] scales it
/// down for narrower models. See [`TRAIN_MFU_HIDDEN_HALF`] for the calibration.
pub const TRAIN_MFU_WIDE: f64 = 0.60;

/// Hidden size at which the kernel MFU of training is half of [`TRAIN_MFU_WIDE`]: narrow
/// matrices keep the tensor cores less busy. `0.60 · h / (h + 800)` reproduces Megatron-LM's
/// end-to-end figures from 44 % (1.7B, h 2304, 32 GPUs) to 52 % (1T, h 25600, 3072 GPUs) once
/// its communication and pipeline bubbles are counted (Narayanan et al. 2021, Table 1), and
/// Llama 2's GPU-hours (Touvron et al. 2023, Table 2).
pub const TRAIN_MFU_HIDDEN_HALF: f64 = 800.0;

/// The model-FLOPs utilization default of training when the model's hidden size is not known.
pub const DEFAULT_TRAIN_MFU: f64 = 0.40;

/// Share of wall-clock time a training job loses per GPU to failures and restarts: Llama 3's
/// 405B run on 16,384 H100s kept "higher than 90 % effective training time" over 54 days with
/// 466 interruptions (Dubey et al. 2024 §3.3.4), i.e. about 10 % lost at 16,384 GPUs, taken
/// as growing with the GPU count.
pub const LOST_TIME_PER_GPU: f64 = 0.1 / 16_384.0;

/// Step-time factor of QLoRA over LoRA: the 4-bit base is dequantized to 16-bit for every
/// matrix multiplication, forward and backward. Google Cloud's Vertex AI tuning guidance:
/// "LoRA is about 66 % faster than QLoRA in terms of tuning speed" (Model Garden, LoRA and
/// QLoRA recommendations).
pub const QLORA_SLOWDOWN: f64 = 1.66;

/// Virtual pipeline stages per GPU of an interleaved 1F1B schedule, which divides the pipeline
/// bubble by this factor (Narayanan et al. 2021 §2.2.2). Published large runs interleave:
/// NVIDIA's NeMo recipes use 5 to 20 virtual stages (NeMo 24.09 performance summary: Llama 3
/// 70B PP 4 VP 5, GPT-3 175B PP 8 VP 6, Llama 3 405B PP 8 VP 8), Llama 3's own schedule is
/// interleaved (Dubey et al. 2024 §3.3.2). rigplan assumes 4, below those, where each stage
/// has at least 4 layers.
pub const DEFAULT_VIRTUAL_STAGES: u32 = 4;

/// Denoising steps per generated image: the diffusers Stable Diffusion and SDXL pipelines'
/// default `num_inference_steps` (50).
pub const DIFFUSION_STEPS: u32 = 50;

/// Denoiser passes per step: classifier-free guidance (on by default, `guidance_scale` 7.5
/// in diffusers' Stable Diffusion pipelines) runs the UNet on a conditional and an
/// unconditional latent.
pub const GUIDANCE_PASSES: u32 = 2;

/// Model-FLOPs utilization of a diffusion UNet at batch 1 (convolutions, attention, small
/// GEMMs). Calibration: diffusers with PyTorch 2.1 SDPA, 50 steps, on an A100-80GB SXM:
/// SD 1.5 1.591 s and SDXL 5.933 s per image (fal-ai/stable-diffusion-benchmarks README),
/// 13.7 % and 14.7 % of the FP16 peak; SD 1.5 on an A10 in PyTorch, 2.95 s (Deci's
/// DeciDiffusion 1.0 model card), 18.4 %. VAE decoding and text encoding are left out (about
/// 2 % of the UNet's FLOPs at these sizes).
pub const DIFFUSION_MFU: f64 = 0.15;

/// Tokens per optimizer step when a training run's global batch is not given: Llama 2 trains
/// with a global batch of 4M tokens (Touvron et al. 2023 §2.2).
pub const GLOBAL_BATCH_TOKENS: f64 = 4_194_304.0;

/// Fixed latency of a small all-reduce over an NVLink switch or Infinity Fabric, seconds, before
/// the per-round term ([`NVLINK_ROUND_LATENCY_S`]).
pub const NVLINK_BASE_LATENCY_S: f64 = 8.0e-6;

/// Latency of each of the ⌈log₂ n⌉ rounds of a small all-reduce over NVLink, seconds.
/// Calibration (batch-1 decode on A100 NVSwitch systems, whose step times exceed the memory
/// time by the all-reduces): FasterTransformer's 13B at TP 2 (13.5 ms/token), LMDeploy's
/// InternLM-20B at TP 2 (61.14 t/s) and Llama 2 70B at TP 4 (33.94 t/s) leave 22–23 µs per
/// all-reduce at 2 GPUs and 36 µs at 4: `8 + 14·log₂ n` µs. NCCL's tree and NVLS algorithms and
/// TensorRT-LLM's one-shot kernels all finish in a number of rounds that grows with log n, not
/// with n as a ring's 2(n−1) steps do.
pub const NVLINK_ROUND_LATENCY_S: f64 = 14.0e-6;

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

/// A link: bandwidth per direction and latency per step (a ring step over PCIe and networks,
/// a round of the logarithmic algorithms over NVLink switches and Infinity Fabric).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Link {
    pub kind: LinkKind,
    pub bandwidth_gbs: f64,
    pub step_latency_s: f64,
}

impl Link {
    /// True for all-to-all fabrics (NVSwitch, Infinity Fabric), where a small all-reduce
    /// takes a number of rounds that grows with log₂ n.
    /// Every GPU of the node reaches every other over its own links: NVSwitch, AMD's Infinity
    /// Fabric and Huawei's HCCS full mesh (Atlas 800T A2: eight 910B NPUs, each linked to the
    /// other seven).
    fn all_to_all(&self) -> bool {
        matches!(self.kind, LinkKind::NvlinkSwitch | LinkKind::InfinityFabric | LinkKind::Hccs)
    }

    /// Latency part of one all-reduce over `ranks`: `8 + 14·⌈log₂ n⌉` µs on all-to-all
    /// fabrics ([`NVLINK_BASE_LATENCY_S`], [`NVLINK_ROUND_LATENCY_S`]), `2(n−1)` ring steps
    /// elsewhere (NCCL's ring algorithm).
    #[must_use]
    pub fn all_reduce_latency_s(&self, ranks: u32) -> f64 {
        if ranks <= 1 {
            return 0.0;
        }
        if self.all_to_all() {
            NVLINK_BASE_LATENCY_S + self.step_latency_s * f64::from(ranks).log2().ceil()
        } else {
            2.0 * f64::from(ranks - 1) * self.step_latency_s
        }
    }

    /// All-reduce of `bytes` over `ranks`: the latency part and `2(n−1)/n` of the data over
    /// each link, the bandwidth-optimal volume of ring and reduce-scatter/all-gather schemes
    /// (Patarasuk & Yuan 2009).
    #[must_use]
    pub fn all_reduce_s(&self, ranks: u32, bytes: f64) -> f64 {
        if ranks <= 1 {
            return 0.0;
        }
        let n = f64::from(ranks);
        self.all_reduce_latency_s(ranks) + 2.0 * (n - 1.0) / n * bytes / (self.bandwidth_gbs * 1.0e9)
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
                    step_latency_s: NVLINK_ROUND_LATENCY_S,
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
                    step_latency_s: NVLINK_ROUND_LATENCY_S,
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
                    step_latency_s: NVLINK_ROUND_LATENCY_S,
                }),
                gpus_per_node,
                text!(TOPO_INFINITY_FABRIC, gbs = format!("{:.0}", bandwidth_gbs / 2.0)),
            ),
            Interconnect::Hccs { bandwidth_gbs } => (
                Some(Link {
                    kind: LinkKind::Hccs,
                    bandwidth_gbs: bandwidth_gbs / 2.0,
                    // No published HCCS collective latency was found: taken as NVLink's
                    // (an assumption; Ascend's HCCL reaches every NPU of the mesh in one hop).
                    step_latency_s: NVLINK_ROUND_LATENCY_S,
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
    /// Tokens per optimizer step of a training run (default [`GLOBAL_BATCH_TOKENS`]).
    pub global_batch_tokens: Option<f64>,
}

/// Speed estimates; `None` where a figure does not apply to the mode or model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpeedEstimate {
    /// Generated tokens per second summed over the batch, for one model replica.
    pub decode_tokens_per_s: Option<f64>,
    /// Prompt tokens per second for one model replica.
    pub prefill_tokens_per_s: Option<f64>,
    /// Samples per second over all GPUs, for measured (non-transformer) models other than
    /// diffusion pipelines.
    pub inference_samples_per_s: Option<f64>,
    /// Diffusion pipelines: images per minute over all GPUs at [`Self::denoising_steps`].
    pub images_per_minute: Option<f64>,
    /// Diffusion pipelines: seconds one GPU takes for one image.
    pub seconds_per_image: Option<f64>,
    /// Denoising steps per image the figures assume ([`DIFFUSION_STEPS`]).
    pub denoising_steps: Option<u32>,
    /// Training FLOPs for the given tokens (6·P·T plus attention, 8·P·T with full recompute).
    pub train_flops: Option<f64>,
    pub train_tokens_per_s: Option<f64>,
    pub train_samples_per_s: Option<f64>,
    pub train_hours: Option<f64>,
    pub gpu_hours: Option<f64>,
    pub decode_efficiency: f64,
    pub prefill_mfu: f64,
    /// Kernel-level MFU of training (before communication, bubbles and goodput).
    pub train_mfu: f64,
    /// Model FLOPs (6·P plus attention per token) over the GPUs' peak and the wall-clock
    /// time, communication, pipeline bubbles and lost time included: the figure training
    /// reports publish as MFU.
    pub achieved_mfu: Option<f64>,
    /// Share of wall-clock time a training job keeps after failures and restarts.
    pub goodput: Option<f64>,
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

/// Attention FLOPs per token over a causal context of `seq` tokens, forward pass: the score
/// and value products, `2·n_layer·n_ctx·d_attn` (Kaplan et al. 2020, Table 1), summed over the
/// attention layers with each sliding-window layer's context at most its window
/// ([`Transformer::cached_layer_tokens`](crate::core::catalog::Transformer::cached_layer_tokens)).
fn attention_forward_flops(t: &crate::core::catalog::Transformer, seq: u64) -> f64 {
    2.0 * t.cached_layer_tokens(seq) as f64 * f64::from(t.heads) * t.qk_head_dim() as f64
}

/// FLOPs per trained token (or sample for measured models). Weights: 6·P (8·P with full
/// recompute) for full training (Kaplan et al. 2020 §2.1; Korthikanti et al. 2022 §5 for the
/// extra forward); LoRA and QLoRA skip weight gradients of the frozen base, 4·P (+2·P with
/// full recompute) (Hu et al. 2021 §4.2 report the saving as a 25 % speed-up). Attention:
/// three times its forward FLOPs at the workload's context (the backward pass needs
/// gradients for both operands of each product, whatever is trained), four times with full
/// recompute, so a 32k context costs more per token than a 2k one. Measured models: 3 × their
/// forward FLOPs.
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
    let attention = spec.transformer().map_or(0.0, |t| {
        let passes = if full { 4.0 } else { 3.0 };
        passes * attention_forward_flops(t, spec.sequence_len(w.context))
    });
    factor * spec.active_params as f64 + attention
}

/// Model FLOPs per trained token as training reports count them for MFU: 6·P plus three
/// times the forward attention, without recompute or the LoRA saving.
fn model_flops_per_unit(spec: &ModelSpec, w: &Workload) -> f64 {
    let plain = Workload { mode: Mode::Train, recompute: Recompute::None, ..*w };
    train_flops_per_unit(spec, &plain)
}

/// Memory-bandwidth class of a GPU for decode: GDDR (and LPDDR, taken the same, an
/// assumption) or HBM.
fn is_hbm(memory: GpuMemoryType) -> bool {
    matches!(memory, GpuMemoryType::Hbm2 | GpuMemoryType::Hbm2e | GpuMemoryType::Hbm3 | GpuMemoryType::Hbm3e)
}

/// Share of peak memory bandwidth decode reaches for an engine, weight type and memory type
/// (constants above, with their calibration).
#[must_use]
pub fn decode_efficiency(engine: Engine, weights: WeightType, memory: GpuMemoryType) -> f64 {
    let bits = weights.bits_per_weight();
    let serving = if bits >= 8.0 { SERVING_WIDE } else { SERVING_NARROW };
    match engine {
        Engine::LlamaCpp => match (is_hbm(memory), bits) {
            (false, b) if b >= 16.0 => LLAMA_CPP_GDDR_WIDE,
            (false, b) if b >= 8.0 => LLAMA_CPP_GDDR_BYTE,
            (false, _) => LLAMA_CPP_GDDR_NARROW,
            (true, b) if b >= 16.0 => LLAMA_CPP_HBM_WIDE,
            (true, _) => LLAMA_CPP_HBM_NARROW,
        },
        Engine::Vllm | Engine::TensorRtLlm => serving,
        Engine::PyTorch => serving * PYTORCH_FACTOR,
    }
}

/// The decode efficiency default of a workload of `spec` on a GPU.
#[must_use]
pub fn default_decode_efficiency(spec: &ModelSpec, w: &Workload, gpu: &Gpu) -> f64 {
    decode_efficiency(w.engine_for(spec), w.weights, gpu.memory_type)
}

/// Kernel-level MFU of training a model: [`TRAIN_MFU_WIDE`] `· h / (h + 800)` for a
/// transformer of hidden size `h`, [`DEFAULT_TRAIN_MFU`] without one.
#[must_use]
pub fn train_mfu(spec: &ModelSpec) -> f64 {
    spec.transformer().map_or(DEFAULT_TRAIN_MFU, |t| {
        let h = f64::from(t.hidden);
        TRAIN_MFU_WIDE * h / (h + TRAIN_MFU_HIDDEN_HALF)
    })
}

/// Share of wall-clock time a job on `gpus` GPUs keeps after failures and restarts:
/// `1 / (1 + gpus · LOST_TIME_PER_GPU / 0.9)`, 90 % at 16,384 GPUs (Llama 3).
#[must_use]
pub fn goodput(gpus: u32) -> f64 {
    1.0 / (1.0 + f64::from(gpus) * LOST_TIME_PER_GPU / 0.9)
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

/// The prefill MFU default: [`FP8_PREFILL_MFU`] of the FP8 peak for FP8 weights on a GPU that
/// has FP8 tensor cores, else [`DEFAULT_PREFILL_MFU`].
fn default_prefill_mfu(gpu: &Gpu, w: &Workload) -> f64 {
    if w.weights == WeightType::Fp8 && gpu.fp8_tensor_tflops.is_some() { FP8_PREFILL_MFU } else { DEFAULT_PREFILL_MFU }
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
    let decode_efficiency = settings.decode_efficiency.unwrap_or_else(|| default_decode_efficiency(spec, w, gpu));
    let prefill_mfu = settings.mfu.unwrap_or_else(|| default_prefill_mfu(gpu, w));
    let train_mfu = settings.mfu.unwrap_or_else(|| train_mfu(spec));
    let peak = peak_tflops(gpu, w);
    let mut out = SpeedEstimate {
        decode_tokens_per_s: None,
        prefill_tokens_per_s: None,
        inference_samples_per_s: None,
        images_per_minute: None,
        seconds_per_image: None,
        denoising_steps: None,
        train_flops: None,
        train_tokens_per_s: None,
        train_samples_per_s: None,
        train_hours: None,
        gpu_hours: None,
        decode_efficiency,
        prefill_mfu,
        train_mfu,
        achieved_mfu: None,
        goodput: None,
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
        training(spec, w, topo, peak, train_mfu, settings, &mut out);
        return out;
    }
    if let Shape::Measured(m) = &spec.shape {
        if m.denoiser {
            let mfu = settings.mfu.unwrap_or(DIFFUSION_MFU);
            let image_flops = f64::from(DIFFUSION_STEPS * GUIDANCE_PASSES) * m.forward_flops_per_sample;
            let seconds = image_flops / (peak * 1.0e12 * mfu);
            out.seconds_per_image = Some(seconds);
            out.images_per_minute = Some(60.0 * f64::from(topo.total_gpus()) / seconds);
            out.denoising_steps = Some(DIFFUSION_STEPS);
        } else {
            out.inference_samples_per_s =
                Some(f64::from(topo.total_gpus()) * peak * 1.0e12 * prefill_mfu / m.forward_flops_per_sample);
        }
        return out;
    }
    match InferenceModel::new(spec, w, gpu, topo, settings) {
        Ok(model) => {
            let seq = spec.sequence_len(w.context);
            let b = f64::from(w.batch);
            out.prefill_tokens_per_s = Some(seq as f64 * b / model.prefill_s(seq, w.batch));
            if w.pp > 1 {
                out.notes.push(Sentence::new(text!(NOTE_PIPELINE_PREFILL)));
            }
            if spec.transformer().is_none_or(|t| t.role == Role::Decoder) {
                out.decode_tokens_per_s = Some(b / model.decode_step_s(w.batch, seq as f64));
            }
            if spec.transformer().is_none() {
                out.notes.push(Sentence::new(text!(NOTE_NO_ARCHITECTURE)));
            }
        }
        Err(note) => out.notes.push(note),
    }
    out
}

/// The parts of a step's time, seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StepTime {
    /// Reading weights and KV cache at the engine's share of the memory bandwidth.
    pub memory_s: f64,
    /// The matrix multiplications at the step's MFU.
    pub compute_s: f64,
    /// Tensor-parallel all-reduces and pipeline hops.
    pub communication_s: f64,
}

impl StepTime {
    #[must_use]
    pub fn total_s(&self) -> f64 {
        self.memory_s + self.compute_s + self.communication_s
    }

    /// Share of the step the tensor cores are busy.
    #[must_use]
    pub fn compute_share(&self) -> f64 {
        let t = self.total_s();
        if t > 0.0 { self.compute_s / t } else { 0.0 }
    }
}

/// One inference replica's step times: a decode step of a batch and the prefill of a prompt.
///
/// Theory: a step reads the weights it passes through and the KV cache of its context at the
/// engine's share of the memory bandwidth ([`decode_efficiency`]), computes `2·P` FLOPs per
/// token (plus attention) at its MFU, the two added (they overlap little at serving batch
/// sizes; see [`DECODE_MFU`]), and waits for two all-reduces per layer of tensor parallelism
/// (Shoeybi et al. 2019 §3) and a hop per pipeline stage. Decode processes one token per
/// sequence; prefill the prompt in the engine's chunks, each reading the weights once.
#[derive(Clone, Debug)]
pub struct InferenceModel<'a> {
    spec: &'a ModelSpec,
    w: Workload,
    tp_link: Link,
    pp_link: Link,
    bandwidth_bps: f64,
    peak_flops: f64,
    efficiency: f64,
    prefill_mfu: f64,
}

impl<'a> InferenceModel<'a> {
    /// The model of `w` on `topo`, or why there is none (a layout across nodes without NICs).
    ///
    /// # Errors
    /// The note that says why no estimate is possible.
    pub fn new(
        spec: &'a ModelSpec,
        w: &Workload,
        gpu: &Gpu,
        topo: &Topology,
        settings: &SpeedSettings,
    ) -> Result<Self, Sentence> {
        let (Some(tp_link), Some(pp_link)) = (topo.group_link(w.tp), topo.group_link(w.tp.saturating_mul(w.pp))) else {
            return Err(Sentence::new(text!(NOTE_LAYOUT_NO_NIC)));
        };
        Ok(Self {
            spec,
            w: *w,
            tp_link,
            pp_link,
            bandwidth_bps: gpu.memory_bandwidth_gbs * 1.0e9,
            peak_flops: peak_tflops(gpu, w) * 1.0e12,
            efficiency: settings.decode_efficiency.unwrap_or_else(|| default_decode_efficiency(spec, w, gpu)),
            prefill_mfu: settings.mfu.unwrap_or_else(|| default_prefill_mfu(gpu, w)),
        })
    }

    fn tp(&self) -> f64 {
        f64::from(self.w.tp)
    }

    /// Weight bytes one GPU reads per step when `batch` sequences route their tokens (all
    /// of them for dense models; for MoE the experts some sequence of the batch routes to,
    /// with uniform routing), and the parameters that step computes with per token.
    fn weights_read(&self, batch: f64) -> f64 {
        let total = self.spec.total_params as f64;
        let weights_total = memory::weight_bytes(self.spec, self.w.weights);
        let read_params = match self.spec.transformer().and_then(|t| t.moe.map(|m| (t, m))) {
            Some((t, m)) if t.moe_layers() > 0 => {
                let per_expert = t.ffn_params(m.expert_ffn) as f64;
                let routed_total = t.moe_layers() as f64 * f64::from(m.experts) * per_expert;
                let share = f64::from(m.active_experts) / f64::from(m.experts);
                let touched = 1.0 - (1.0 - share).powf(batch);
                total - routed_total * (1.0 - touched)
            }
            _ => total,
        };
        weights_total * read_params / total / self.tp()
    }

    /// One all-reduce per attention and FFN block of every layer for `tokens` activations.
    fn tp_comm_s(&self, tokens: f64, steps: f64) -> f64 {
        let Some(t) = self.spec.transformer() else { return 0.0 };
        if self.w.tp <= 1 {
            return 0.0;
        }
        let bytes = tokens * f64::from(t.hidden) * 2.0;
        let n = self.tp();
        2.0 * f64::from(t.layers)
            * (steps * self.tp_link.all_reduce_latency_s(self.w.tp)
                + 2.0 * (n - 1.0) / n * bytes / (self.tp_link.bandwidth_gbs * 1.0e9))
    }

    fn pp_comm_s(&self, tokens: f64) -> f64 {
        let Some(t) = self.spec.transformer() else { return 0.0 };
        f64::from(self.w.pp.saturating_sub(1)) * self.pp_link.p2p_s(tokens * f64::from(t.hidden) * 2.0)
    }

    /// Seconds of one decode step of `batch` sequences with `cached` tokens each in the KV
    /// cache.
    #[must_use]
    pub fn decode_step_s(&self, batch: u32, cached: f64) -> f64 {
        self.decode_step(batch, cached).total_s()
    }

    /// One decode step of `batch` sequences with `cached` tokens each, by part.
    #[must_use]
    pub fn decode_step(&self, batch: u32, cached: f64) -> StepTime {
        let b = f64::from(batch);
        let tokens = crate::core::units::round_non_negative(cached);
        // Sliding-window layers hold at most their window (`memory::kv_bytes_for_sequence`).
        let kv_total = memory::kv_bytes_for_sequence(self.spec, self.w.kv, tokens).unwrap_or(0.0) * b;
        let attention = self.spec.transformer().map_or(0.0, |t| attention_forward_flops(t, tokens));
        // MLA's latent is replicated on every tensor-parallel rank; GQA heads are split.
        let mla = self.spec.transformer().is_some_and(|t| t.mla.is_some());
        let kv_per_gpu = if mla { kv_total } else { kv_total / self.tp() };
        let flops = b * (2.0 * self.spec.active_params as f64 + attention);
        StepTime {
            memory_s: (self.weights_read(b) + kv_per_gpu) / (self.efficiency * self.bandwidth_bps),
            compute_s: flops / (self.tp() * self.peak_flops * DECODE_MFU),
            communication_s: self.tp_comm_s(b, 1.0) + self.pp_comm_s(b),
        }
    }

    /// Seconds to prefill `prompt` tokens for each of `batch` sequences: the chunks' FLOPs
    /// (Kaplan et al. 2020 Table 1, `2N + 2·n_layer·n_ctx·d_attn` per token) at the prefill
    /// MFU, one read of the weights per chunk, and the chunks' all-reduces. Pipeline stages
    /// overlap across chunks.
    #[must_use]
    pub fn prefill_s(&self, prompt: u64, batch: u32) -> f64 {
        let b = f64::from(batch);
        let tokens = prompt as f64 * b;
        let attention = self.spec.transformer().map_or(0.0, |t| attention_forward_flops(t, prompt));
        let flops = tokens * (2.0 * self.spec.active_params as f64 + attention);
        let stages = f64::from(self.w.pp);
        let compute = flops / (self.tp() * stages * self.peak_flops * self.prefill_mfu);
        let chunk = self.w.engine_for(self.spec).prefill_chunk_tokens().unwrap_or(prompt).max(1);
        let chunks = (tokens / chunk as f64).ceil().max(1.0);
        let reads = chunks * self.weights_read(b.min(chunk as f64)) / stages / (self.efficiency * self.bandwidth_bps);
        compute + reads + self.tp_comm_s(tokens, chunks) + self.pp_comm_s(tokens.min(chunk as f64))
    }

    /// Time to first token of one request with `prompt` tokens on an idle replica, seconds:
    /// the prefill, whose last position gives the first token (no queueing).
    #[must_use]
    pub fn ttft_s(&self, prompt: u64) -> f64 {
        self.prefill_s(prompt.max(1), 1)
    }
}

fn training(
    spec: &ModelSpec,
    w: &Workload,
    topo: &Topology,
    peak_tflops: f64,
    mfu: f64,
    settings: &SpeedSettings,
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
        settings.global_batch_tokens.unwrap_or(GLOBAL_BATCH_TOKENS).max(units_per_microbatch * f64::from(dp))
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

    // One micro-batch on one pipeline stage; QLoRA dequantizes its 4-bit base on the way.
    let slowdown = if w.mode == Mode::Qlora { QLORA_SLOWDOWN } else { 1.0 };
    let compute_mb = slowdown * flops_per_unit * units_per_microbatch / (tp * pp * peak * mfu);
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
    let virtual_stages =
        if w.pp > 1 { spec.transformer().map_or(1, |t| (t.layers / w.pp).clamp(1, DEFAULT_VIRTUAL_STAGES)) } else { 1 };
    let v = f64::from(virtual_stages);
    // Interleaving sends each micro-batch across v times as many stage boundaries.
    let microbatch_time = compute_mb + tp_comm + v * pp_comm;
    // 1F1B schedule: m micro-batches take (m + (p − 1) / v) slots (Narayanan et al. 2021
    // §2.2, interleaved with v virtual stages).
    let pipeline_time = (microbatches + (pp - 1.0) / v) * microbatch_time;

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
            + 1.5 * dp_link.all_reduce_latency_s(dp);
        (microbatches * per_micro, 1.0)
    } else {
        // Gradients are exchanged once per step, overlapped with the backward pass (two
        // thirds of the compute).
        (dp_link.all_reduce_s(dp, shard * grad_bytes), 2.0 / 3.0)
    };
    let exposed = (dp_time - overlap * pipeline_time).max(0.0);
    let step = pipeline_time + exposed;
    let pure_compute = microbatches * compute_mb;
    let kept = goodput(gpus);
    let rate = global / step * kept;
    out.goodput = Some(kept);
    out.communication_share = Some(((step - pure_compute) / step).clamp(0.0, 1.0));
    out.achieved_mfu = Some(rate * model_flops_per_unit(spec, w) / (f64::from(gpus) * peak));
    if measured {
        out.train_samples_per_s = Some(rate);
    } else {
        out.train_tokens_per_s = Some(rate);
    }
    if let Some(units) = settings.tokens {
        out.train_flops = Some(flops_per_unit * units);
        let hours = units / rate / SECONDS_PER_HOUR;
        out.train_hours = Some(hours);
        out.gpu_hours = Some(hours * f64::from(gpus));
        if measured {
            out.notes.push(Sentence::new(text!(NOTE_MEASURED_TOKENS)));
        }
    }
}

/// Training FLOPs of `tokens` without a GPU: 6·P·T (8·P·T with full recompute) plus attention.
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
        // Over a switch the latency grows with log₂ n: 8 + 14·log₂ n µs (22, 36, 50 at 2, 4, 8).
        let switch =
            Link { kind: LinkKind::NvlinkSwitch, bandwidth_gbs: 300.0, step_latency_s: NVLINK_ROUND_LATENCY_S };
        for (n, us) in [(2, 22.0), (4, 36.0), (8, 50.0)] {
            assert!((switch.all_reduce_latency_s(n) * 1e6 - us).abs() < 1e-9, "{n}");
        }
    }

    #[test]
    fn pcie_generations() {
        assert!((pcie_x16_gbs(4) - 32.0).abs() < 1e-12);
        assert!((pcie_x16_gbs(5) - 64.0).abs() < 1e-12);
        assert!(pcie_x16_gbs(3) < pcie_x16_gbs(4));
    }
}
