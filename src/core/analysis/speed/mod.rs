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

use super::memory::{Engine, Mode, ModelSpec, Recompute, Shape, WeightType, Workload};
use crate::core::catalog::{Gpu, GpuMemoryType, Precision, Role};
use crate::core::i18n::{Lang, Sentence, localize_all};
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
/// QLoRA recommendations). A second, measured figure is lower: torchtune's README ('Memory and
/// training speed', 2024-09) gives Llama 3.1 8B on one RTX 4090 at 3083 tokens/s with LoRA and
/// 2413 with QLoRA (torchao NF4, torch.compile, batch 2 x 2048), 1.28 x. The larger factor is
/// kept for the uncompiled bitsandbytes path of Hugging Face PEFT (the original QLoRA
/// implementation, Dettmers et al. 2023), which compiled NF4 kernels beat, an assumption; a
/// test (`tests/core/reference.rs`) holds rigplan's QLoRA/LoRA ratio between the two figures.
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

mod inference;
mod links;
mod training;

pub use inference::{InferenceModel, StepTime};
pub use links::{
    Link, LinkKind, NETWORK_STEP_LATENCY_S, NVLINK_BASE_LATENCY_S, NVLINK_ROUND_LATENCY_S, PCIE_STEP_LATENCY_S,
    Topology, pcie_x16_gbs,
};
pub use training::train_flops;
use training::training;

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
