//! GPU memory needed to run or train a model: weights, gradients, optimizer states,
//! activations, KV cache and overhead, per GPU, in bytes.
//!
//! Theory of operation: a [`ModelSpec`] (a catalog model, or a parameter count with an
//! optional architecture) and a [`Workload`] (mode, precisions, batch, context, optimizer,
//! ZeRO stage, offload, tensor/pipeline degrees, recompute, FlashAttention, LoRA rank) go into
//! [`estimate`], which returns a [`MemoryEstimate`]: one integer byte count per line for one
//! GPU, the host memory offload needs, and notes about what was assumed. [`check_estimate`]
//! compares an estimate with a GPU's memory: it does not fit above what the workload may use
//! (all of it for training; for inference the engine's budget, [`Engine::budget_bytes`], with
//! the KV cache of the full context counted), and is tight above the 90 % the field guides
//! advise.
//!
//! The formulas and their sources (see also `../shared/guide/domain.md` §4):
//! - weights: parameters × bits per weight; GGUF block sizes and llama.cpp's measured bpw for
//!   the K-quant mixes (`tools/quantize/README.md`); GPTQ/AWQ/bitsandbytes keep embeddings,
//!   norms and biases in 16-bit; FP8 with block scales and MXFP4 (OCP MX, experts only on MoE
//!   models, as gpt-oss ships) at their scale overheads;
//! - training model states: the ZeRO paper's mixed-precision Adam accounting (Rajbhandari et
//!   al. 2019 §3.1, 2 + 2 + 12 = 16 bytes per parameter, 18 with fp32 gradients) and its
//!   partitioning by stage (§5);
//! - activations: Korthikanti et al. 2022 Table 2, generalized to grouped-query attention, an
//!   explicit head dimension, gated FFNs and experts; FlashAttention and selective recompute
//!   drop the attention-score term, full recompute keeps each layer's input;
//! - KV cache: `2 × attention layers × KV heads × head dim × bytes` per token (per-layer KV
//!   heads summed), MLA's latent without the factor 2, quantized KV block sizes; sliding-window
//!   layers hold at most their window (Mistral's rolling buffer, gpt-oss and Gemma 3's local
//!   layers, Llama 4's chunks);
//! - LoRA (Hu et al. 2021) and QLoRA (Dettmers et al. 2023).
//!
//! By concern: `workload` (what is run: mode, precisions, optimizer, parallelism, and the
//! quantization bit widths), `model` (the model's size and architecture) and `estimate` (the
//! formulas), with the fit verdict here.

mod custom;
mod estimate;
mod model;
mod workload;

pub use custom::CustomArch;
#[cfg(test)]
pub(crate) use estimate::NOTES;
pub use estimate::{
    Scores, estimate, kv_bytes_for_sequence, kv_bytes_per_token, layer_activation_bytes, lora_params,
    optimizer_bytes_per_param, weight_bytes,
};
pub use model::{Layout, MeasuredShape, ModelSpec, Shape};
pub use workload::{
    CUDA_GRAPH_BYTES, Engine, FP8_BLOCK128_BPW, GGUF_IQ1_S_BPW, GGUF_IQ2_XXS_BPW, GGUF_IQ3_XXS_BPW, GGUF_IQ4_XS_BPW,
    GGUF_Q2_K_BPW, GGUF_Q2_K_BPW_BASE, GGUF_Q3_K_BPW, GGUF_Q3_K_M_BPW, GGUF_Q4_0_BPW, GGUF_Q4_K_BPW, GGUF_Q4_K_M_BPW,
    GGUF_Q5_K_BPW, GGUF_Q5_K_M_BPW, GGUF_Q6_K_BPW, GGUF_Q8_0_BPW, GradDtype, INT4_GROUP128_BPW, KvType, LoraTargets,
    MXFP4_BPW, Mode, NF4_BPW, Offload, Optimizer, Recompute, SERVING_CHUNK_TOKENS, TRTLLM_KV_FREE_FRACTION,
    VLLM_MEMORY_UTILIZATION, WeightType, Workload, WorkloadError, checkpoint_weights,
};

use crate::core::catalog::Gpu;
use crate::core::i18n::{Lang, Sentence, localize_all};
use crate::core::units::{Bytes, MIB};
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
    /// CUDA context ([`CUDA_CONTEXT_BYTES`]) and, for inference, the engine's workspace
    /// ([`Engine::workspace_bytes`]: CUDA graphs).
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
    /// The inference engine the estimate assumes ([`Workload::engine_for`]); None for training.
    pub engine: Option<Engine>,
    /// Parameters that receive gradients (all for full training, the adapters for LoRA).
    pub trainable_params: Option<u64>,
    pub layout: Layout,
    /// Assumptions and caveats, in plain sentences (English unless [`Self::localize`]d).
    pub notes: Vec<Sentence>,
}

impl MemoryEstimate {
    /// Renders the notes in `lang`.
    pub fn localize(&mut self, lang: Lang) {
        localize_all(&mut self.notes, lang);
    }
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
    /// What the workload may use of it: the whole memory for training, the inference
    /// engine's budget for inference ([`Engine::budget_bytes`]).
    pub budget_bytes: Bytes,
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
    check_within(total, capacity, capacity)
}

/// `total` against `capacity` when the software may use only `budget` of it: does not fit
/// above the budget, tight above 90 % of the capacity (the field guides' advice), fits below.
fn check_within(total: Bytes, capacity: Bytes, budget: Bytes) -> FitCheck {
    let memory_fraction = if capacity.0 == 0 { f64::INFINITY } else { total.0 as f64 / capacity.0 as f64 };
    let verdict = if total > budget || capacity.0 == 0 {
        Verdict::DoesNotFit
    } else if memory_fraction <= TIGHT_FRACTION {
        Verdict::Fits
    } else {
        Verdict::Tight
    };
    FitCheck { gpu_memory_bytes: capacity, budget_bytes: budget, memory_fraction, verdict }
}

/// The verdict for an estimate of `w` on a GPU of `capacity`. Training runs in PyTorch and may
/// use all of the memory. Inference must fit the engine's budget with the KV cache of the
/// workload's batch at its full context: a configuration without room for one request's KV
/// cache never fits (vLLM refuses to start when its KV budget is below one sequence of
/// `max_model_len`; llama.cpp allocates the whole `n_ctx` up front).
#[must_use]
pub fn check_estimate(e: &MemoryEstimate, w: &Workload, capacity: Bytes) -> FitCheck {
    let total = e.per_gpu.total_bytes;
    if w.mode.is_training() {
        return check_within(total, capacity, capacity);
    }
    let kv = e.per_gpu.kv_cache_bytes.unwrap_or(Bytes(0));
    let fixed = total.0.saturating_sub(kv.0);
    let engine = e.engine.unwrap_or_else(|| w.engine());
    check_within(total, capacity, Bytes(engine.budget_bytes(capacity.0, fixed)))
}

/// [`check_estimate`] on a catalog GPU.
#[must_use]
pub fn check_estimate_on(e: &MemoryEstimate, w: &Workload, gpu: &Gpu) -> FitCheck {
    check_estimate(e, w, Bytes::from_gib(gpu.memory_gib))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::catalog::{FfnKind, NormKind, Role, Transformer};

    #[test]
    fn every_note_has_the_same_placeholders_in_both_languages() {
        crate::core::i18n::assert_table_is_translated(super::NOTES);
    }

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
            sliding_layers: None,
            kv_heads_total: None,
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
