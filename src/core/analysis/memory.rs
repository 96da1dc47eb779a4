//! GPU memory needed to run or train a model: weights, gradients, optimizer states,
//! activations, KV cache and overhead, per GPU, in bytes.
//!
//! Theory of operation: a [`ModelSpec`] (a catalog model, or a parameter count with an
//! optional architecture) and a [`Workload`] (mode, precisions, batch, context, optimizer,
//! ZeRO stage, offload, tensor/pipeline degrees, recompute, FlashAttention, LoRA rank) go into
//! [`estimate`], which returns a [`MemoryEstimate`]: one integer byte count per line for one
//! GPU, the host memory offload needs, and notes about what was assumed. [`check_fit`]
//! compares a total with a GPU's memory and gives the verdict the field guides use (keep use
//! under 90 %).
//!
//! The formulas and their sources (see also `../shared/guide/domain.md` §4):
//! - weights: parameters × bits per weight; GGUF block sizes and llama.cpp's measured bpw for
//!   the K-quant mixes (`tools/quantize/README.md`); GPTQ/AWQ/bitsandbytes keep embeddings,
//!   norms and biases in 16-bit;
//! - training model states: the ZeRO paper's mixed-precision Adam accounting (Rajbhandari et
//!   al. 2019 §3.1, 2 + 2 + 12 = 16 bytes per parameter, 18 with fp32 gradients) and its
//!   partitioning by stage (§5);
//! - activations: Korthikanti et al. 2022 Table 2, generalized to grouped-query attention, an
//!   explicit head dimension, gated FFNs and experts; FlashAttention and selective recompute
//!   drop the attention-score term, full recompute keeps each layer's input;
//! - KV cache: `2 × attention layers × KV heads × head dim × bytes` per token, MLA's latent
//!   without the factor 2, quantized KV block sizes;
//! - LoRA (Hu et al. 2021) and QLoRA (Dettmers et al. 2023).

use crate::core::catalog::{Architecture, FfnKind, Gpu, Model, Role, Transformer};
use crate::core::units::{Bytes, MIB, round_non_negative};
use serde::Serialize;
use std::fmt;

/// CUDA context and library workspaces a framework process holds before it allocates any
/// tensor: nvidia-smi shows 781 MiB for a PyTorch process that has only initialized CUDA
/// (pytorch/pytorch issue 34323). rigplan shows it as the explicit `overhead` line.
pub const CUDA_CONTEXT_BYTES: u64 = 781 * MIB;

/// Memory use above which a fit is called tight: the field guides our users read advise
/// keeping GPU memory use under 90 % (../shared/field-guides, "显存占用率（避免>90%）").
pub const TIGHT_FRACTION: f64 = 0.9;

/// Tokens one prefill step processes at once: llama.cpp's default micro-batch (`n_ubatch`
/// 512) sizes its compute buffer for this many tokens.
pub const PREFILL_CHUNK_TOKENS: u64 = 512;

/// Parameters DeepSpeed ZeRO-3 keeps gathered on a GPU at most (`stage3_max_live_parameters`
/// default 1e9, DeepSpeed configuration documentation).
pub const ZERO3_MAX_LIVE_PARAMS: f64 = 1.0e9;

/// Bits per weight of GPTQ/AWQ 4-bit weights with the default group size 128: 4 bits plus an
/// fp16 scale and a 4-bit zero point per group, 4 + 20/128 (Frantar et al. 2023; AutoAWQ).
pub const INT4_GROUP128_BPW: f64 = 4.0 + 20.0 / 128.0;

/// Bits per weight of NF4 with double quantization: 4 + 8/64 + 32/(64·256) = 4.127
/// (Dettmers et al. 2023, QLoRA §3 "Double Quantization").
pub const NF4_BPW: f64 = 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);

/// llama.cpp measured bits per weight of its mixed K-quant types on Llama-3.1-8B
/// (`tools/quantize/README.md`, table "meta-llama/Llama-3.1-8B"): the mixes keep some tensors
/// at higher types, so the effective bpw is above the base block's.
pub const GGUF_Q5_K_M_BPW: f64 = 5.7036;
/// See [`GGUF_Q5_K_M_BPW`].
pub const GGUF_Q4_K_M_BPW: f64 = 4.8944;
/// See [`GGUF_Q5_K_M_BPW`].
pub const GGUF_Q2_K_BPW: f64 = 3.1593;
/// Q3_K_M is not in the Llama-3.1-8B table; the README's earlier Llama-2-7B table lists 3.91.
pub const GGUF_Q3_K_M_BPW: f64 = 3.91;

/// Block formats of ggml (`ggml-common.h`): bytes per block of weights. Q8_0: 32 int8 + fp16
/// scale = 34 B/32; Q6_K: 210 B/256; Q4_0: 32 × 4 bit + fp16 scale = 18 B/32.
pub const GGUF_Q8_0_BPW: f64 = 34.0 * 8.0 / 32.0;
/// See [`GGUF_Q8_0_BPW`].
pub const GGUF_Q6_K_BPW: f64 = 210.0 * 8.0 / 256.0;
/// See [`GGUF_Q8_0_BPW`].
pub const GGUF_Q4_0_BPW: f64 = 18.0 * 8.0 / 32.0;

/// What the GPU is used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Inference,
    /// Full training (pre-training or full fine-tuning).
    Train,
    /// LoRA fine-tuning of a frozen base (Hu et al. 2021).
    Lora,
    /// LoRA on a 4-bit NF4 base (Dettmers et al. 2023).
    Qlora,
}

impl Mode {
    #[must_use]
    pub fn is_training(self) -> bool {
        !matches!(self, Self::Inference)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Inference => "inference",
            Self::Train => "full training",
            Self::Lora => "LoRA",
            Self::Qlora => "QLoRA",
        })
    }
}

/// Storage type of the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WeightType {
    Fp32,
    Fp16,
    Bf16,
    Fp8,
    Int8,
    /// GPTQ/AWQ 4-bit, group size 128.
    Int4,
    /// bitsandbytes NF4 with double quantization (QLoRA).
    Nf4,
    Q8_0,
    Q6K,
    Q5KM,
    Q4KM,
    Q4_0,
    Q3KM,
    Q2K,
}

impl WeightType {
    /// Every type, from the most to the least precise (the order the fit search walks).
    pub const ALL: [Self; 14] = [
        Self::Fp32,
        Self::Bf16,
        Self::Fp16,
        Self::Fp8,
        Self::Int8,
        Self::Q8_0,
        Self::Q6K,
        Self::Q5KM,
        Self::Q4KM,
        Self::Int4,
        Self::Q4_0,
        Self::Nf4,
        Self::Q3KM,
        Self::Q2K,
    ];

    /// Bits per stored weight (see the constants for sources).
    #[must_use]
    pub fn bits_per_weight(self) -> f64 {
        match self {
            Self::Fp32 => 32.0,
            Self::Fp16 | Self::Bf16 => 16.0,
            Self::Fp8 | Self::Int8 => 8.0,
            Self::Int4 => INT4_GROUP128_BPW,
            Self::Nf4 => NF4_BPW,
            Self::Q8_0 => GGUF_Q8_0_BPW,
            Self::Q6K => GGUF_Q6_K_BPW,
            Self::Q5KM => GGUF_Q5_K_M_BPW,
            Self::Q4KM => GGUF_Q4_K_M_BPW,
            Self::Q4_0 => GGUF_Q4_0_BPW,
            Self::Q3KM => GGUF_Q3_K_M_BPW,
            Self::Q2K => GGUF_Q2_K_BPW,
        }
    }

    /// A llama.cpp GGUF type (whole-file bpw, embeddings included).
    #[must_use]
    pub fn is_gguf(self) -> bool {
        matches!(self, Self::Q8_0 | Self::Q6K | Self::Q5KM | Self::Q4KM | Self::Q4_0 | Self::Q3KM | Self::Q2K)
    }

    /// True when every parameter is stored at this type. Float types and GGUF files cover the
    /// whole model; fp8/int8/int4/nf4 quantize linear layers and keep the rest in 16-bit.
    #[must_use]
    pub fn covers_all_params(self) -> bool {
        matches!(self, Self::Fp32 | Self::Fp16 | Self::Bf16) || self.is_gguf()
    }

    /// The name used on the command line and in JSON.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Fp32 => "fp32",
            Self::Fp16 => "fp16",
            Self::Bf16 => "bf16",
            Self::Fp8 => "fp8",
            Self::Int8 => "int8",
            Self::Int4 => "int4",
            Self::Nf4 => "nf4",
            Self::Q8_0 => "q8_0",
            Self::Q6K => "q6_k",
            Self::Q5KM => "q5_k_m",
            Self::Q4KM => "q4_k_m",
            Self::Q4_0 => "q4_0",
            Self::Q3KM => "q3_k_m",
            Self::Q2K => "q2_k",
        }
    }
}

impl fmt::Display for WeightType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Storage type of the KV cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KvType {
    /// 16-bit (fp16 or bf16).
    Fp16,
    Fp8,
    /// ggml Q8_0 blocks, 34 bytes per 32 values.
    Q8_0,
    /// ggml Q4_0 blocks, 18 bytes per 32 values.
    Q4_0,
}

impl KvType {
    /// Every type, most precise first.
    pub const ALL: [Self; 4] = [Self::Fp16, Self::Fp8, Self::Q8_0, Self::Q4_0];

    /// Bytes per value as a fraction (numerator, denominator), so block formats stay exact.
    #[must_use]
    pub fn bytes_ratio(self) -> (u64, u64) {
        match self {
            Self::Fp16 => (2, 1),
            Self::Fp8 => (1, 1),
            Self::Q8_0 => (34, 32),
            Self::Q4_0 => (18, 32),
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Fp16 => "fp16",
            Self::Fp8 => "fp8",
            Self::Q8_0 => "q8_0",
            Self::Q4_0 => "q4_0",
        }
    }
}

impl fmt::Display for KvType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Optimizer of the trained parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Optimizer {
    /// Adam/AdamW: momentum and variance in fp32, 8 bytes per parameter.
    AdamW,
    /// bitsandbytes 8-bit AdamW: momentum and variance in 8 bits, 2 bytes per parameter
    /// (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization").
    AdamW8bit,
    /// SGD with momentum: one fp32 buffer, 4 bytes per parameter.
    Sgd,
}

impl Optimizer {
    /// Optimizer-state bytes per parameter, without an fp32 master copy.
    #[must_use]
    pub fn state_bytes(self) -> u64 {
        match self {
            Self::AdamW => 8,
            Self::AdamW8bit => 2,
            Self::Sgd => 4,
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::AdamW => "adamw",
            Self::AdamW8bit => "adamw8bit",
            Self::Sgd => "sgd",
        }
    }
}

/// Precision of the gradients in full training: fp16/bf16 (the ZeRO paper's 16 bytes per
/// parameter) or fp32 (the 18-byte convention of the EleutherAI cookbook and llm-analysis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GradDtype {
    Fp16,
    Fp32,
}

impl GradDtype {
    #[must_use]
    pub fn bytes(self) -> u64 {
        match self {
            Self::Fp16 => 2,
            Self::Fp32 => 4,
        }
    }
}

/// DeepSpeed offload of model states to host memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Offload {
    None,
    /// Optimizer states (and the fp32 master copy) live in host memory (ZeRO-Offload).
    Optimizer,
    /// Parameters too (ZeRO-Infinity parameter offload; needs ZeRO-3).
    All,
}

/// Activation recomputation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Recompute {
    None,
    /// Recompute the attention-score part only (Korthikanti et al. 2022 §5).
    Selective,
    /// Keep only each layer's input and recompute the layer (gradient checkpointing).
    Full,
}

/// Which linear layers get LoRA adapters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoraTargets {
    /// Query and value projections (the LoRA paper's setting, Hu et al. 2021 §7.1).
    Qv,
    /// Q, K, V and output projections.
    Attention,
    /// Every linear layer of the blocks, experts included (QLoRA's setting, §4).
    All,
}

/// A workload: how the model is run or trained.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Workload {
    pub mode: Mode,
    pub weights: WeightType,
    pub kv: KvType,
    /// Sequences (or samples) per micro-batch per GPU replica.
    pub batch: u32,
    /// Tokens per sequence (prompt plus generated tokens for inference).
    pub context: u32,
    pub optimizer: Optimizer,
    pub grad_dtype: GradDtype,
    /// ZeRO stage 0–3 over the data-parallel GPUs.
    pub zero: u8,
    pub offload: Offload,
    /// Tensor-parallel degree.
    pub tp: u32,
    /// Pipeline-parallel degree.
    pub pp: u32,
    pub recompute: Recompute,
    pub flash_attention: bool,
    pub lora_rank: u32,
    pub lora_targets: LoraTargets,
}

impl Workload {
    /// The defaults of `rigplan fit` for a mode: 16-bit weights (NF4 for QLoRA), fp16 KV,
    /// batch 1, 4096 tokens for inference and 2048 for training, AdamW with 16-bit gradients,
    /// no ZeRO, one GPU, FlashAttention on, LoRA rank 16 (64 for QLoRA, as in Dettmers et al.
    /// 2023 §5) on every linear layer.
    #[must_use]
    pub fn defaults(mode: Mode) -> Self {
        Self {
            mode,
            weights: if mode == Mode::Qlora { WeightType::Nf4 } else { WeightType::Bf16 },
            kv: KvType::Fp16,
            batch: 1,
            context: if mode == Mode::Inference { 4096 } else { 2048 },
            optimizer: Optimizer::AdamW,
            grad_dtype: GradDtype::Fp16,
            zero: 0,
            offload: Offload::None,
            tp: 1,
            pp: 1,
            recompute: Recompute::None,
            flash_attention: true,
            lora_rank: if mode == Mode::Qlora { 64 } else { 16 },
            lora_targets: LoraTargets::All,
        }
    }
}

/// Activation and FLOP figures of a measured (non-transformer) model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredShape {
    pub train_activation_bytes_per_sample: u64,
    pub inference_activation_bytes_per_sample: u64,
    pub forward_flops_per_sample: f64,
}

/// What rigplan knows of a model's structure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Transformer(Transformer),
    Measured(MeasuredShape),
    /// A bare parameter count: model states only.
    ParamsOnly,
}

/// The model being sized: parameter counts and structure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelSpec {
    pub total_params: u64,
    /// Parameters used per token (MoE: active experts only).
    pub active_params: u64,
    pub shape: Shape,
}

impl ModelSpec {
    /// A catalog model.
    #[must_use]
    pub fn from_model(model: &Model) -> Self {
        let shape = match &model.architecture {
            Architecture::Transformer(t) => Shape::Transformer(*t),
            Architecture::Measured(m) => Shape::Measured(MeasuredShape {
                train_activation_bytes_per_sample: m.train_activation_bytes_per_sample,
                inference_activation_bytes_per_sample: m.inference_activation_bytes_per_sample,
                forward_flops_per_sample: m.forward_flops_per_sample,
            }),
        };
        Self { total_params: model.total_params(), active_params: model.active_params(), shape }
    }

    /// A parameter count without an architecture (`rigplan fit --params N`).
    #[must_use]
    pub fn params_only(params: u64) -> Self {
        Self { total_params: params, active_params: params, shape: Shape::ParamsOnly }
    }

    /// A stated parameter count with an architecture for activations and KV cache; the
    /// active count removes the inactive experts the architecture implies.
    #[must_use]
    pub fn custom(params: u64, transformer: Transformer) -> Self {
        let inactive = transformer.total_params().saturating_sub(transformer.active_params());
        Self {
            total_params: params,
            active_params: params.saturating_sub(inactive).max(1),
            shape: Shape::Transformer(transformer),
        }
    }

    #[must_use]
    pub fn transformer(&self) -> Option<&Transformer> {
        match &self.shape {
            Shape::Transformer(t) => Some(t),
            _ => None,
        }
    }

    /// True for autoregressive decoders (they have a KV cache and decode speed).
    #[must_use]
    pub fn is_decoder(&self) -> bool {
        self.transformer().is_some_and(|t| t.role == Role::Decoder)
    }

    /// Parameters kept in 16-bit by weight-only quantization (embeddings, norms), where the
    /// architecture is known.
    #[must_use]
    pub fn unquantized_params(&self) -> u64 {
        self.transformer().map_or(0, |t| t.unquantized_params().min(self.total_params))
    }

    /// Sequence length a workload's `context` means for this model: encoders with a fixed
    /// input (ViT) use their own length, others the requested context.
    #[must_use]
    pub fn sequence_len(&self, context: u32) -> u64 {
        match self.transformer() {
            Some(t) if t.role == Role::Encoder => u64::from(context.min(t.max_context)),
            _ => u64::from(context),
        }
    }
}

/// How the GPUs are split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    pub tp: u32,
    pub pp: u32,
    /// Data-parallel degree = GPUs / (tp × pp).
    pub dp: u32,
}

impl Layout {
    #[must_use]
    pub fn gpus(self) -> u32 {
        self.tp.saturating_mul(self.pp).saturating_mul(self.dp)
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TP {} × PP {} × DP {}", self.tp, self.pp, self.dp)
    }
}

/// One GPU's memory, line by line. Lines that do not apply to the mode are `None` (null in
/// JSON): gradients and optimizer states outside training, KV cache outside inference of a
/// decoder, activations when only a parameter count is known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PerGpuMemory {
    pub weights_bytes: Bytes,
    pub gradients_bytes: Option<Bytes>,
    pub optimizer_bytes: Option<Bytes>,
    pub activations_bytes: Option<Bytes>,
    pub kv_cache_bytes: Option<Bytes>,
    /// CUDA context and workspaces ([`CUDA_CONTEXT_BYTES`]).
    pub overhead_bytes: Bytes,
    pub total_bytes: Bytes,
}

/// The memory a workload needs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MemoryEstimate {
    pub per_gpu: PerGpuMemory,
    /// Host memory each GPU's offloaded states take.
    pub host_bytes_per_gpu: Bytes,
    /// KV cache per token of one sequence for the whole model, at the workload's KV type.
    pub kv_cache_bytes_per_token: Option<Bytes>,
    /// Parameters that receive gradients (all for full training, the adapters for LoRA).
    pub trainable_params: Option<u64>,
    pub layout: Layout,
    /// Assumptions and caveats, in plain sentences.
    pub notes: Vec<String>,
}

/// Whether a workload fits a GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// At most [`TIGHT_FRACTION`] of the memory.
    Fits,
    /// Above 90 % but within the memory.
    Tight,
    DoesNotFit,
}

impl Verdict {
    /// Tight still fits.
    #[must_use]
    pub fn fits(self) -> bool {
        self != Self::DoesNotFit
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Fits => "fits",
            Self::Tight => "tight (above 90 %)",
            Self::DoesNotFit => "does not fit",
        })
    }
}

/// A total compared with a GPU's memory.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FitCheck {
    pub gpu_memory_bytes: Bytes,
    pub memory_fraction: f64,
    pub verdict: Verdict,
}

/// The verdict for `total` on `gpu`: fits up to 90 % of its memory (the field guides'
/// advice), tight up to 100 %, else does not fit. GPU memory is binary (GiB), as HBM and
/// GDDR capacities are.
#[must_use]
pub fn check_fit(total: Bytes, gpu: &Gpu) -> FitCheck {
    check_fit_bytes(total, Bytes::from_gib(gpu.memory_gib))
}

/// [`check_fit`] against a capacity in bytes.
#[must_use]
pub fn check_fit_bytes(total: Bytes, capacity: Bytes) -> FitCheck {
    let memory_fraction = if capacity.0 == 0 { f64::INFINITY } else { total.0 as f64 / capacity.0 as f64 };
    let verdict = if memory_fraction <= TIGHT_FRACTION {
        Verdict::Fits
    } else if memory_fraction <= 1.0 {
        Verdict::Tight
    } else {
        Verdict::DoesNotFit
    };
    FitCheck { gpu_memory_bytes: capacity, memory_fraction, verdict }
}

/// A workload that cannot be evaluated as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkloadError {
    #[error("the GPU count must be at least 1")]
    NoGpus,
    #[error(
        "--tp {tp} × --pp {pp} = {product} does not divide the {gpus} GPU(s); the data-parallel degree is GPUs / (tp × pp)"
    )]
    Layout { tp: u32, pp: u32, product: u64, gpus: u32 },
    #[error("--batch and --context must be at least 1")]
    EmptyBatch,
    #[error("ZeRO stage {0} does not exist; use 0, 1, 2 or 3")]
    ZeroStage(u8),
    #[error("--offload {0} needs ZeRO ({1})")]
    Offload(&'static str, &'static str),
    #[error("{weights} weights cannot be trained in full; use fp32, bf16 or fp16 (or LoRA/QLoRA on a quantized base)")]
    TrainWeights { weights: WeightType },
    #[error("LoRA cannot train on {weights} (a llama.cpp inference format); use a 16-bit, fp8, int8 or int4/nf4 base")]
    LoraWeights { weights: WeightType },
    #[error("QLoRA uses a 4-bit base: --weights nf4 (or int4), not {weights}")]
    QloraWeights { weights: WeightType },
    #[error(
        "{mode} needs the model's layers (LoRA adapters attach to them); give --layers, --hidden and --heads or pick a catalog transformer"
    )]
    NeedsArchitecture { mode: Mode },
    #[error("tensor parallelism splits attention heads: --tp {tp} must divide the {heads} heads")]
    TensorParallel { tp: u32, heads: u32 },
    #[error("--pp {pp} is more than the model's {layers} layers")]
    PipelineParallel { pp: u32, layers: u32 },
    #[error(
        "tensor and pipeline parallelism need a layer description; this model has measured figures only, so use data parallelism (--tp 1 --pp 1)"
    )]
    MeasuredParallel,
    #[error("--lora-rank must be at least 1")]
    LoraRank,
}

fn to_bytes(x: f64) -> Bytes {
    Bytes(round_non_negative(x))
}

/// Weights in bytes for the whole model at `weights`. Float and GGUF types cover every
/// parameter (GGUF bpw are whole-file measurements); fp8/int8/int4/nf4 quantize the linear
/// layers and keep embeddings, norms and biases in 16-bit, as GPTQ, AWQ and bitsandbytes do.
#[must_use]
pub fn weight_bytes(spec: &ModelSpec, weights: WeightType) -> f64 {
    let total = spec.total_params as f64;
    let bpw = weights.bits_per_weight();
    if weights.covers_all_params() {
        total * bpw / 8.0
    } else {
        let keep = spec.unquantized_params() as f64;
        (total - keep) * bpw / 8.0 + keep * 2.0
    }
}

/// LoRA adapter parameters: `rank × (in + out)` for each targeted matrix (Hu et al. 2021 §4.1),
/// over every layer; with `All`, MoE layers adapt every expert (PEFT `all-linear`).
#[allow(clippy::many_single_char_names)] // s, b, h, a, t follow the papers' notation (Korthikanti et al. 2022)
#[must_use]
pub fn lora_params(t: &Transformer, rank: u32, targets: LoraTargets) -> u64 {
    let h = u64::from(t.hidden);
    let a = u64::from(t.heads);
    let (q, k, v, o) = if let Some(m) = t.mla {
        let qk = u64::from(m.qk_nope_head_dim) + u64::from(m.rope_head_dim);
        let q = match m.q_lora_rank {
            Some(r) => (h + u64::from(r)) + (u64::from(r) + a * qk),
            None => h + a * qk,
        };
        let kv_lora = u64::from(m.kv_lora_rank);
        let kv_a = h + kv_lora + u64::from(m.rope_head_dim);
        let kv_b = kv_lora + a * (u64::from(m.qk_nope_head_dim) + u64::from(m.v_head_dim));
        // The latent projections serve K and V together; count them once under "v".
        (q, 0, kv_a + kv_b, a * u64::from(m.v_head_dim) + h)
    } else {
        let d = t.qk_head_dim();
        let kd = u64::from(t.kv_heads()) * d;
        (h + a * d, h + kd, h + kd, a * d + h)
    };
    let attention = match targets {
        LoraTargets::Qv => q + v,
        LoraTargets::Attention | LoraTargets::All => q + k + v + o,
    };
    let per_ffn = |width: u32| -> u64 {
        let f = u64::from(width);
        match t.ffn_kind {
            FfnKind::Gated => 3 * (h + f),
            FfnKind::Plain => 2 * (h + f),
        }
    };
    let ffn = if targets == LoraTargets::All {
        let dense = t.dense_ffn_layers() * per_ffn(t.ffn);
        let moe = t.moe.map_or(0, |m| {
            t.moe_layers() * (u64::from(m.experts) + u64::from(m.shared_experts)) * per_ffn(m.expert_ffn)
        });
        dense + moe
    } else {
        0
    };
    u64::from(rank) * (t.attention_layer_count() * attention + ffn)
}

/// How attention scores are kept for the backward pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scores {
    /// Softmax output, dropout mask and dropout output: `5·a·s²·b` bytes (Korthikanti Table 2).
    Materialized,
    /// FlashAttention keeps only the fp32 log-sum-exp per row, `4·a·s·b` (Dao et al. 2022 §3.1).
    Flash,
    /// Selective recompute keeps nothing and recomputes them (Korthikanti et al. 2022 §5).
    Recomputed,
}

/// Saved activations of one transformer layer for the backward pass, bytes, before tensor
/// parallelism divides them (Korthikanti et al. 2022 Table 2 and §4.1, 16-bit activations,
/// 1-byte dropout masks), generalized: Q, K, V and the attention output are sized by their
/// actual widths (grouped-query KV heads, explicit head dim, MLA latents), a gated FFN saves
/// its two up-projections and their product (Megatron's fused SwiGLU), an MoE layer saves one
/// expert FFN per routed and shared expert a token uses. For MHA with `d = h / a` and a 4h
/// GELU FFN this is exactly `sbh(34 + 5as/h)` with [`Scores::Materialized`].
#[allow(clippy::many_single_char_names)] // s, b, h, a, t follow the papers' notation (Korthikanti et al. 2022)
#[must_use]
pub fn layer_activation_bytes(t: &Transformer, s: u64, b: u64, with_attention: bool, scores: Scores) -> f64 {
    let sb = (s * b) as f64;
    let h = f64::from(t.hidden);
    let a = f64::from(t.heads);
    let norms = 4.0 * sb * h;
    let attention = if with_attention {
        let d_qk = t.qk_head_dim() as f64;
        let d_v = t.v_head_dim() as f64;
        let (k_width, v_width, latents) = if let Some(m) = t.mla {
            let latent = f64::from(m.q_lora_rank.unwrap_or(0)) + f64::from(m.kv_lora_rank) + f64::from(m.rope_head_dim);
            (a * d_qk, a * d_v, 2.0 * sb * latent)
        } else {
            let k = f64::from(t.kv_heads());
            (k * d_qk, k * d_v, 0.0)
        };
        let projections = 2.0 * sb * h + 2.0 * sb * (a * d_qk + k_width + v_width + a * d_v) + sb * h + latents;
        let score_bytes = match scores {
            Scores::Materialized => 5.0 * a * (s as f64) * sb,
            Scores::Flash => 4.0 * a * sb,
            Scores::Recomputed => 0.0,
        };
        projections + score_bytes
    } else {
        0.0
    };
    let ffn_saved = |width: u32| -> f64 {
        let f = f64::from(width);
        match t.ffn_kind {
            FfnKind::Gated => 6.0 * sb * f,
            FfnKind::Plain => 4.0 * sb * f,
        }
    };
    let ffn = match t.moe {
        Some(m) if t.moe_layers() > 0 => {
            let experts = f64::from(m.active_experts + m.shared_experts);
            sb * h + experts * (2.0 * sb * h + ffn_saved(m.expert_ffn)) + 4.0 * sb * f64::from(m.experts)
        }
        _ => 3.0 * sb * h + ffn_saved(t.ffn),
    };
    norms + attention + ffn
}

fn validate(spec: &ModelSpec, w: &Workload, gpus: u32) -> Result<Layout, WorkloadError> {
    if gpus == 0 {
        return Err(WorkloadError::NoGpus);
    }
    let product = u64::from(w.tp) * u64::from(w.pp);
    if w.tp == 0 || w.pp == 0 || u64::from(gpus) % product != 0 {
        return Err(WorkloadError::Layout { tp: w.tp, pp: w.pp, product, gpus });
    }
    if w.batch == 0 || w.context == 0 {
        return Err(WorkloadError::EmptyBatch);
    }
    if w.zero > 3 {
        return Err(WorkloadError::ZeroStage(w.zero));
    }
    match w.offload {
        Offload::Optimizer if w.zero == 0 => return Err(WorkloadError::Offload("optimizer", "--zero 1, 2 or 3")),
        Offload::All if w.zero != 3 => return Err(WorkloadError::Offload("all", "--zero 3")),
        _ => {}
    }
    match w.mode {
        Mode::Train if !w.weights.covers_all_params() || w.weights.is_gguf() => {
            return Err(WorkloadError::TrainWeights { weights: w.weights });
        }
        Mode::Lora if w.weights.is_gguf() => return Err(WorkloadError::LoraWeights { weights: w.weights }),
        Mode::Qlora if !matches!(w.weights, WeightType::Nf4 | WeightType::Int4) => {
            return Err(WorkloadError::QloraWeights { weights: w.weights });
        }
        _ => {}
    }
    if matches!(w.mode, Mode::Lora | Mode::Qlora) {
        if spec.transformer().is_none() {
            return Err(WorkloadError::NeedsArchitecture { mode: w.mode });
        }
        if w.lora_rank == 0 {
            return Err(WorkloadError::LoraRank);
        }
    }
    match &spec.shape {
        Shape::Transformer(t) => {
            if t.heads % w.tp != 0 {
                return Err(WorkloadError::TensorParallel { tp: w.tp, heads: t.heads });
            }
            if w.pp > t.layers {
                return Err(WorkloadError::PipelineParallel { pp: w.pp, layers: t.layers });
            }
        }
        Shape::Measured(_) if w.tp > 1 || w.pp > 1 => return Err(WorkloadError::MeasuredParallel),
        _ => {}
    }
    let dp = u32::try_from(u64::from(gpus) / product).map_err(|_| WorkloadError::NoGpus)?;
    Ok(Layout { tp: w.tp, pp: w.pp, dp })
}

/// Bytes per parameter of optimizer state in full training: the fp32 master copy (4 bytes)
/// when weights are 16-bit, plus the optimizer's own state (ZeRO paper §3.1: K = 12 for
/// mixed-precision Adam).
#[must_use]
pub fn optimizer_bytes_per_param(weights: WeightType, optimizer: Optimizer) -> u64 {
    let master = if weights == WeightType::Fp32 { 0 } else { 4 };
    master + optimizer.state_bytes()
}

/// The KV cache per token of one sequence for the whole model, bytes, at `kv` (None for
/// models without one).
#[must_use]
pub fn kv_bytes_per_token(spec: &ModelSpec, kv: KvType) -> Option<f64> {
    let t = spec.transformer()?;
    if t.role != Role::Decoder {
        return None;
    }
    let (num, den) = kv.bytes_ratio();
    let elements = t.attention_layer_count() * t.kv_elements_per_token_per_layer();
    Some(elements as f64 * num as f64 / den as f64)
}

/// KV cache on one GPU: the GPU's layers (1/pp), its KV heads (⌈k / tp⌉: heads are split
/// across tensor-parallel ranks and replicated when there are fewer KV heads than ranks, as
/// vLLM does), and the cached tokens (at most the sliding window). MLA's latent serves every
/// head, so tensor parallelism cannot split it: each rank holds all of it.
fn kv_cache_per_gpu(t: &Transformer, w: &Workload) -> f64 {
    let layers = t.attention_layer_count().div_ceil(u64::from(w.pp));
    let per_layer = if t.mla.is_some() {
        t.kv_elements_per_token_per_layer()
    } else {
        let heads = u64::from(t.kv_heads()).div_ceil(u64::from(w.tp));
        2 * heads * t.qk_head_dim()
    };
    let tokens = u64::from(t.sliding_window.map_or(w.context, |win| win.min(w.context))) * u64::from(w.batch);
    let (num, den) = w.kv.bytes_ratio();
    (layers * per_layer) as f64 * tokens as f64 * num as f64 / den as f64
}

/// Saved activations per GPU in training (transformers), bytes.
///
/// With the 1F1B pipeline schedule the first stage holds `pp` micro-batches of `L/pp` layers,
/// i.e. `L` layers' worth, whatever `pp` is (Korthikanti et al. 2022 §4.2.3); the last stage
/// adds the output layer: final norm and projection inputs `4sbh` and fp32 logits `4sbv`
/// (§4.3). Tensor parallelism is taken with sequence parallelism, dividing everything by `tp`
/// (Table 2, last rows). Full recompute keeps each layer's input `2sbh` plus one layer's full
/// activations while it is recomputed (Chen et al. 2016 §3: checkpoints plus one segment).
#[allow(clippy::many_single_char_names)] // s, b, h, a, t follow the papers' notation (Korthikanti et al. 2022)
fn train_activations(t: &Transformer, w: &Workload, s: u64) -> f64 {
    let b = u64::from(w.batch);
    let tp = f64::from(w.tp);
    let kept = if w.flash_attention { Scores::Flash } else { Scores::Materialized };
    let scores = if w.recompute == Recompute::Selective && !w.flash_attention { Scores::Recomputed } else { kept };
    let with_attn = layer_activation_bytes(t, s, b, true, scores);
    let without_attn = layer_activation_bytes(t, s, b, false, scores);
    let attn_layers = t.attention_layer_count() as f64;
    let other_layers = f64::from(t.layers) - attn_layers;
    let h = f64::from(t.hidden);
    let sb = (s * b) as f64;
    let stored = match w.recompute {
        Recompute::Full => {
            let recomputing = layer_activation_bytes(t, s, b, true, kept);
            f64::from(t.layers) * 2.0 * sb * h + recomputing
        }
        Recompute::None | Recompute::Selective => attn_layers * with_attn + other_layers * without_attn,
    };
    let output = 4.0 * sb * h + 4.0 * sb * f64::from(t.vocab);
    let embedding_mask = sb * h;
    let first_stage = stored + embedding_mask;
    let total = if w.pp <= 1 {
        first_stage + output
    } else {
        let last_stage = stored / f64::from(w.pp) + output;
        first_stage.max(last_stage)
    };
    total / tp
}

/// Transient activations during inference (transformers), bytes per GPU: one chunk of
/// [`PREFILL_CHUNK_TOKENS`] tokens through one layer (the residual stream plus the larger of
/// the attention block, with its score matrix against the whole context unless FlashAttention
/// is on, and the FFN), and fp32 logits of the last token. Encoders process their whole input.
#[allow(clippy::many_single_char_names)] // s, b, h, a, t follow the papers' notation (Korthikanti et al. 2022)
fn inference_activations(t: &Transformer, w: &Workload, s: u64) -> f64 {
    let b = f64::from(w.batch);
    let c = match t.role {
        Role::Decoder => s.min(PREFILL_CHUNK_TOKENS),
        Role::Encoder => s,
    } as f64;
    let h = f64::from(t.hidden);
    let a = f64::from(t.heads);
    let d_qk = t.qk_head_dim() as f64;
    let d_v = t.v_head_dim() as f64;
    let k = f64::from(t.kv_heads());
    let qkv = 2.0 * c * b * (a * d_qk + 2.0 * k * d_qk.max(d_v) + a * d_v);
    let score_bytes = if w.flash_attention { 0.0 } else { 2.0 * a * c * (s as f64) * b };
    let ffn_width = t.moe.map_or(f64::from(t.ffn), |m| {
        if t.moe_layers() > 0 {
            f64::from(m.expert_ffn) * f64::from(m.active_experts + m.shared_experts)
        } else {
            f64::from(t.ffn)
        }
    });
    let ffn = match t.ffn_kind {
        FfnKind::Gated => 6.0 * c * b * ffn_width,
        FfnKind::Plain => 4.0 * c * b * ffn_width,
    };
    let residual = 2.0 * 2.0 * c * b * h;
    let logits = if t.role == Role::Decoder { 4.0 * b * f64::from(t.vocab) } else { 0.0 };
    (residual + (qkv + score_bytes).max(ffn)) / f64::from(w.tp) + logits
}

/// Memory one GPU needs for `w` on `gpus` GPUs.
///
/// # Errors
/// A workload that cannot be evaluated as given (see [`WorkloadError`]).
#[allow(clippy::too_many_lines)]
pub fn estimate(spec: &ModelSpec, w: &Workload, gpus: u32) -> Result<MemoryEstimate, WorkloadError> {
    let layout = validate(spec, w, gpus)?;
    let mut notes = Vec::new();
    let shards = f64::from(w.tp) * f64::from(w.pp);
    let dp = f64::from(layout.dp);
    let params = spec.total_params as f64;
    let seq = spec.sequence_len(w.context);
    if let Some(t) = spec.transformer()
        && t.role == Role::Decoder
        && w.context > t.max_context
    {
        notes.push(format!(
            "context {} is longer than the model's {} tokens; the estimate uses {} as asked",
            w.context, t.max_context, w.context
        ));
    }
    if !w.mode.is_training() && w.zero > 0 {
        notes.push("ZeRO applies to training; ignored for inference".to_owned());
    }

    let mut host = 0.0;
    let (weights, gradients, optimizer, trainable) = match w.mode {
        Mode::Inference => (weight_bytes(spec, w.weights) / shards, None, None, None),
        Mode::Train => {
            let shard = params / shards;
            let w_bytes = if w.weights == WeightType::Fp32 { 4.0 } else { 2.0 };
            let g_bytes = if w.weights == WeightType::Fp32 { 4.0 } else { w.grad_dtype.bytes() as f64 };
            let o_bytes = optimizer_bytes_per_param(w.weights, w.optimizer) as f64;
            let mut weights = shard * w_bytes / if w.zero >= 3 { dp } else { 1.0 };
            let gradients = shard * g_bytes / if w.zero >= 2 { dp } else { 1.0 };
            let mut optimizer = shard * o_bytes / if w.zero >= 1 { dp } else { 1.0 };
            if w.zero >= 3 {
                weights += zero3_live_bytes(spec, w_bytes, shards);
            }
            match w.offload {
                Offload::None => {}
                Offload::Optimizer => {
                    host += optimizer;
                    optimizer = 0.0;
                }
                Offload::All => {
                    host += optimizer + shard * w_bytes / dp;
                    optimizer = 0.0;
                    weights = zero3_live_bytes(spec, w_bytes, shards);
                }
            }
            (weights, Some(gradients), Some(optimizer), Some(spec.total_params))
        }
        Mode::Lora | Mode::Qlora => {
            let Some(t) = spec.transformer() else {
                return Err(WorkloadError::NeedsArchitecture { mode: w.mode });
            };
            let adapters = lora_params(t, w.lora_rank, w.lora_targets) as f64 / shards;
            // PEFT keeps LoRA weights and gradients in fp32 by default; QLoRA casts the
            // adapters to bf16 (Dettmers et al. 2023, qlora.py) and keeps 32-bit optimizer
            // states (paged AdamW).
            let adapter_bytes = if w.mode == Mode::Qlora { 2.0 } else { 4.0 };
            let mut base = weight_bytes(spec, w.weights) / shards;
            if w.zero >= 3 {
                base /= dp;
            }
            let weights = base + adapters * adapter_bytes / if w.zero >= 3 { dp } else { 1.0 };
            let gradients = adapters * adapter_bytes / if w.zero >= 2 { dp } else { 1.0 };
            let mut optimizer = adapters * w.optimizer.state_bytes() as f64 / if w.zero >= 1 { dp } else { 1.0 };
            if w.offload != Offload::None {
                host += optimizer;
                optimizer = 0.0;
                notes.push("offload moves the adapters' optimizer states to host memory".to_owned());
            }
            (weights, Some(gradients), Some(optimizer), Some(lora_params(t, w.lora_rank, w.lora_targets)))
        }
    };

    let (activations, kv_cache) = match &spec.shape {
        Shape::Transformer(t) => {
            if w.mode.is_training() {
                (Some(train_activations(t, w, seq)), None)
            } else {
                let kv = (t.role == Role::Decoder).then(|| kv_cache_per_gpu(t, w));
                (Some(inference_activations(t, w, seq)), kv)
            }
        }
        Shape::Measured(m) => {
            if w.mode.is_training() && w.recompute != Recompute::None {
                notes.push("recompute is not modelled for measured activation figures".to_owned());
            }
            let per_sample = if w.mode.is_training() {
                m.train_activation_bytes_per_sample
            } else {
                m.inference_activation_bytes_per_sample
            };
            (Some(per_sample as f64 * f64::from(w.batch)), None)
        }
        Shape::ParamsOnly => {
            notes.push("only a parameter count is known: model states only (no activations or KV cache)".to_owned());
            (None, None)
        }
    };
    if w.tp > 1 && w.mode.is_training() {
        notes.push("tensor parallelism is taken with sequence parallelism (Korthikanti et al. 2022)".to_owned());
    }
    if !w.weights.covers_all_params() && spec.transformer().is_none() {
        notes.push(format!(
            "{} applies to linear layers; without a layer description every parameter is counted at that type",
            w.weights
        ));
    }

    let weights_bytes = to_bytes(weights);
    let gradients_bytes = gradients.map(to_bytes);
    let optimizer_bytes = optimizer.map(to_bytes);
    let activations_bytes = activations.map(to_bytes);
    let kv_cache_bytes = kv_cache.map(to_bytes);
    let overhead_bytes = Bytes(CUDA_CONTEXT_BYTES);
    let total_bytes = [Some(weights_bytes), gradients_bytes, optimizer_bytes, activations_bytes, kv_cache_bytes]
        .into_iter()
        .flatten()
        .sum::<Bytes>()
        + overhead_bytes;
    Ok(MemoryEstimate {
        per_gpu: PerGpuMemory {
            weights_bytes,
            gradients_bytes,
            optimizer_bytes,
            activations_bytes,
            kv_cache_bytes,
            overhead_bytes,
            total_bytes,
        },
        host_bytes_per_gpu: to_bytes(host),
        kv_cache_bytes_per_token: kv_bytes_per_token(spec, w.kv).map(to_bytes),
        trainable_params: trainable,
        layout,
        notes,
    })
}

/// Parameters ZeRO-3 holds gathered at once on a GPU: the largest layer (or the embedding
/// matrix) being used plus the next one being prefetched, at most
/// [`ZERO3_MAX_LIVE_PARAMS`]. Without a layer description (measured models, a bare parameter
/// count) the working set is unknown and left out, as the ZeRO paper's model-state figures do.
fn zero3_live_bytes(spec: &ModelSpec, bytes_per_param: f64, shards: f64) -> f64 {
    let Some(t) = spec.transformer() else { return 0.0 };
    let layer = (spec.total_params.saturating_sub(t.embedding_params())) as f64 / f64::from(t.layers.max(1));
    let embedding = f64::from(t.vocab) * f64::from(t.hidden);
    (2.0 * layer.max(embedding)).min(ZERO3_MAX_LIVE_PARAMS) * bytes_per_param / shards
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::catalog::NormKind;

    fn gpt_like(layers: u32, hidden: u32, heads: u32, vocab: u32, ctx: u32) -> Transformer {
        Transformer {
            role: Role::Decoder,
            layers,
            hidden,
            heads,
            kv_heads: None,
            head_dim: None,
            ffn: 4 * hidden,
            ffn_kind: FfnKind::Plain,
            vocab,
            max_context: ctx,
            tied_embeddings: true,
            norm: NormKind::LayerNorm,
            linear_biases: true,
            qkv_bias: false,
            qk_norm: false,
            learned_positions: true,
            extra_params: 0,
            sliding_window: None,
            attention_layers: None,
            moe: None,
            mla: None,
        }
    }

    #[test]
    fn generalized_layer_formula_reduces_to_korthikanti_table_2() {
        // Korthikanti et al. 2022 Table 2, no parallelism: sbh(34 + 5as/h) bytes per layer.
        let t = gpt_like(24, 1024, 16, 50257, 2048);
        let (s, b) = (2048u64, 4u64);
        let sbh = (s * b) as f64 * 1024.0;
        let expected = sbh * (34.0 + 5.0 * 16.0 * 2048.0 / 1024.0);
        assert!((layer_activation_bytes(&t, s, b, true, Scores::Materialized) - expected).abs() < 1.0);
        // Selective recompute drops 5as/h; FlashAttention keeps its 4·a·s·b log-sum-exp.
        assert!((layer_activation_bytes(&t, s, b, true, Scores::Recomputed) - sbh * 34.0).abs() < 1.0);
        let flash = sbh * 34.0 + 4.0 * 16.0 * (s * b) as f64;
        assert!((layer_activation_bytes(&t, s, b, true, Scores::Flash) - flash).abs() < 1.0);
    }

    #[test]
    fn kv_types_use_block_sizes() {
        assert_eq!(KvType::Q8_0.bytes_ratio(), (34, 32));
        assert_eq!(KvType::Q4_0.bytes_ratio(), (18, 32));
        assert!((GGUF_Q4_0_BPW - 4.5).abs() < 1e-12 && (GGUF_Q8_0_BPW - 8.5).abs() < 1e-12);
        assert!((GGUF_Q6_K_BPW - 6.5625).abs() < 1e-12);
        assert!((NF4_BPW - 4.127).abs() < 0.001);
    }

    #[test]
    fn verdict_thresholds() {
        let cap = Bytes(1000);
        assert_eq!(check_fit_bytes(Bytes(900), cap).verdict, Verdict::Fits);
        assert_eq!(check_fit_bytes(Bytes(901), cap).verdict, Verdict::Tight);
        assert_eq!(check_fit_bytes(Bytes(1000), cap).verdict, Verdict::Tight);
        assert_eq!(check_fit_bytes(Bytes(1001), cap).verdict, Verdict::DoesNotFit);
        assert!(!check_fit_bytes(Bytes(1), Bytes(0)).verdict.fits());
    }

    #[test]
    fn invalid_workloads_are_errors() {
        let spec = ModelSpec::custom(1_000_000_000, gpt_like(24, 2048, 16, 50257, 2048));
        let mut w = Workload::defaults(Mode::Train);
        w.tp = 3;
        assert!(matches!(estimate(&spec, &w, 6), Err(WorkloadError::TensorParallel { .. })));
        w.tp = 2;
        assert!(matches!(estimate(&spec, &w, 3), Err(WorkloadError::Layout { .. })));
        let mut w = Workload::defaults(Mode::Train);
        w.weights = WeightType::Q4KM;
        assert!(matches!(estimate(&spec, &w, 1), Err(WorkloadError::TrainWeights { .. })));
        let mut w = Workload::defaults(Mode::Train);
        w.offload = Offload::All;
        w.zero = 2;
        assert!(matches!(estimate(&spec, &w, 8), Err(WorkloadError::Offload(..))));
        let w = Workload::defaults(Mode::Lora);
        assert!(matches!(
            estimate(&ModelSpec::params_only(1_000_000), &w, 1),
            Err(WorkloadError::NeedsArchitecture { .. })
        ));
        let mut w = Workload::defaults(Mode::Qlora);
        w.weights = WeightType::Bf16;
        assert!(matches!(estimate(&spec, &w, 1), Err(WorkloadError::QloraWeights { .. })));
    }

    #[test]
    fn params_only_gives_model_states_only() {
        let spec = ModelSpec::params_only(7_000_000_000);
        let e = estimate(&spec, &Workload::defaults(Mode::Train), 1).expect("valid");
        assert_eq!(e.per_gpu.weights_bytes, Bytes(14_000_000_000));
        assert_eq!(e.per_gpu.gradients_bytes, Some(Bytes(14_000_000_000)));
        assert_eq!(e.per_gpu.optimizer_bytes, Some(Bytes(84_000_000_000)));
        assert_eq!(e.per_gpu.activations_bytes, None);
        assert_eq!(e.per_gpu.kv_cache_bytes, None);
        assert_eq!(e.per_gpu.total_bytes, Bytes(112_000_000_000 + CUDA_CONTEXT_BYTES));
    }
}
