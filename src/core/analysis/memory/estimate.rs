//! The memory formulas: weights, LoRA adapters, model states by ZeRO stage, activations
//! (Korthikanti et al. 2022, generalized), KV cache, and [`estimate`], which adds them up per
//! GPU.

use super::model::{Layout, ModelSpec, Shape};
use super::workload::{
    Engine, KvType, LoraTargets, Mode, Offload, Optimizer, Recompute, WeightType, Workload, WorkloadError,
};
use super::{CUDA_CONTEXT_BYTES, MemoryEstimate, PerGpuMemory, ZERO3_MAX_LIVE_PARAMS};
use crate::core::catalog::{FfnKind, Role, Transformer};
use crate::core::i18n::Sentence;
use crate::core::units::{Bytes, round_non_negative};
use crate::text;

crate::templates! {
    pub(crate) NOTES;
    NOTE_CONTEXT_TOO_LONG "" {
        en: "context {context} is longer than the model's {max} tokens; the estimate uses {context} as asked",
        zh: "上下文长度 {context} 超过了模型支持的 {max} token；估算仍按要求使用 {context}",
    }
    NOTE_ZERO_INFERENCE "" {
        en: "ZeRO applies to training; ignored for inference",
        zh: "ZeRO 只用于训练，推理时忽略",
    }
    NOTE_LORA_OFFLOAD "" {
        en: "offload moves the adapters' optimizer states to host memory",
        zh: "offload 把适配器的优化器状态移到主机内存",
    }
    NOTE_MEASURED_RECOMPUTE "" {
        en: "recompute is not modelled for measured activation figures",
        zh: "实测的激活值数据不考虑重计算",
    }
    NOTE_PARAMS_ONLY "" {
        en: "only a parameter count is known: model states only (no activations or KV cache)",
        zh: "只知道参数量：仅计算模型状态（不含激活值和 KV 缓存）",
    }
    NOTE_SEQUENCE_PARALLEL "" {
        en: "tensor parallelism is taken with sequence parallelism (Korthikanti et al. 2022)",
        zh: "张量并行按同时启用序列并行计算（Korthikanti et al. 2022）",
    }
    NOTE_WEIGHTS_LINEAR_ONLY "" {
        en: "{weights} applies to linear layers; without a layer description every parameter is counted at that type",
        zh: "{weights} 只作用于线性层；没有层结构描述时，全部参数都按该类型计",
    }
}

fn to_bytes(x: f64) -> Bytes {
    Bytes(round_non_negative(x))
}

/// Weights in bytes for the whole model at `weights`. Float and GGUF types cover every
/// parameter (GGUF bpw are whole-file measurements on dense models); a mixture-of-experts
/// model in a K-quant mix has its routed experts at the mix's base type and the rest at the
/// dense mix's bpw ([`WeightType::moe_expert_bits`]); fp8/int8/int4/nf4 quantize the linear
/// layers and keep embeddings, norms and biases in 16-bit, as GPTQ, AWQ and bitsandbytes do.
/// MXFP4 on a mixture-of-experts model quantizes the routed experts only and keeps attention,
/// router, shared experts and embeddings in 16-bit, as gpt-oss's `modules_to_not_convert`
/// says: 60.8 GiB for gpt-oss-120b and 12.8 GiB for gpt-oss-20b (model card, arXiv
/// 2508.10925, Table 1, checkpoint sizes).
#[must_use]
pub fn weight_bytes(spec: &ModelSpec, weights: WeightType) -> f64 {
    let total = spec.total_params as f64;
    let bpw = weights.bits_per_weight();
    let experts = spec.transformer().map_or(0, Transformer::routed_expert_params).min(spec.total_params);
    if let Some(expert_bits) = weights.moe_expert_bits()
        && experts > 0
    {
        let experts = experts as f64;
        return experts * expert_bits / 8.0 + (total - experts) * bpw / 8.0;
    }
    if weights.covers_all_params() {
        total * bpw / 8.0
    } else if weights == WeightType::Mxfp4 && experts > 0 {
        experts as f64 * bpw / 8.0 + (spec.total_params - experts) as f64 * 2.0
    } else {
        let keep = spec.unquantized_params() as f64;
        (total - keep) * bpw / 8.0 + keep * 2.0
    }
}

/// LoRA adapter parameters: `rank × (in + out)` for each targeted matrix (Hu et al. 2021 §4.1),
/// over every layer; with `All`, MoE layers adapt every expert (PEFT `all-linear`).
#[expect(
    clippy::many_single_char_names,
    reason = "s, b, h, a, t follow the papers' notation (Korthikanti et al. 2022)"
)]
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
    // Saturating: the catalog's dimension limits keep the count far below u64::MAX, but a rank
    // is a free input.
    u64::from(rank).saturating_mul(t.attention_layer_count() * attention + ffn)
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
#[expect(
    clippy::many_single_char_names,
    reason = "s, b, h, a, t follow the papers' notation (Korthikanti et al. 2022)"
)]
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
    if !w.mode.is_training() && !w.engine_for(spec).runs(w.weights) {
        return Err(WorkloadError::EngineWeights { engine: w.engine_for(spec), weights: w.weights });
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
/// models without one): every attention layer's K and V (or MLA latent), with per-layer KV
/// heads where the model has them, before any sliding window drops the token.
#[must_use]
pub fn kv_bytes_per_token(spec: &ModelSpec, kv: KvType) -> Option<f64> {
    let t = spec.transformer()?;
    if t.role != Role::Decoder {
        return None;
    }
    let (num, den) = kv.bytes_ratio();
    Some(t.kv_elements_per_token() as f64 * num as f64 / den as f64)
}

/// The KV cache of one sequence of `tokens` tokens for the whole model, bytes, at `kv`:
/// full-attention layers hold every token, sliding-window layers at most their window
/// ([`Transformer::kv_elements_for`]). None for models without a KV cache.
#[must_use]
pub fn kv_bytes_for_sequence(spec: &ModelSpec, kv: KvType, tokens: u64) -> Option<f64> {
    let t = spec.transformer()?;
    if t.role != Role::Decoder {
        return None;
    }
    let (num, den) = kv.bytes_ratio();
    Some(t.kv_elements_for(tokens) as f64 * num as f64 / den as f64)
}

/// KV cache on one GPU: the GPU's layers (1/pp), its KV heads (⌈k / tp⌉: heads are split
/// across tensor-parallel ranks and replicated when there are fewer KV heads than ranks, as
/// vLLM does), and the cached tokens (full-attention layers the whole context, sliding-window
/// layers at most the window, in the model's mix on every pipeline stage). MLA's latent serves
/// every head, so tensor parallelism cannot split it: each rank holds all of it. With
/// per-layer KV heads the average layer's heads are split.
fn kv_cache_per_gpu(t: &Transformer, w: &Workload) -> f64 {
    let attention_layers = t.attention_layer_count().max(1);
    let layers = attention_layers.div_ceil(u64::from(w.pp));
    let per_layer = if t.mla.is_some() {
        t.kv_elements_per_token_per_layer()
    } else {
        let heads = t.kv_heads_all_layers().div_ceil(attention_layers).div_ceil(u64::from(w.tp));
        2 * heads * t.qk_head_dim()
    };
    // Average cached tokens per attention layer for one sequence.
    let tokens = t.cached_layer_tokens(u64::from(w.context)) as f64 / attention_layers as f64 * f64::from(w.batch);
    let (num, den) = w.kv.bytes_ratio();
    (layers * per_layer) as f64 * tokens * num as f64 / den as f64
}

/// Saved activations per GPU in training (transformers), bytes.
///
/// With the 1F1B pipeline schedule the first stage holds `pp` micro-batches of `L/pp` layers,
/// i.e. `L` layers' worth, whatever `pp` is (Korthikanti et al. 2022 §4.2.3); the last stage
/// adds the output layer: final norm and projection inputs `4sbh` and fp32 logits `4sbv`
/// (§4.3). Tensor parallelism is taken with sequence parallelism, dividing everything by `tp`
/// (Table 2, last rows). Full recompute keeps each layer's input `2sbh` plus one layer's full
/// activations while it is recomputed (Chen et al. 2016 §3: checkpoints plus one segment).
#[expect(
    clippy::many_single_char_names,
    reason = "s, b, h, a, t follow the papers' notation (Korthikanti et al. 2022)"
)]
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

/// Transient activations during inference (transformers), bytes per GPU: one prefill chunk
/// (the engine's, [`super::Engine::prefill_chunk_tokens`]) through one layer (the residual
/// stream plus the larger of the attention block, with its score matrix against the whole
/// context unless FlashAttention is on, and the FFN), and fp32 logits of the last token.
/// Encoders process their whole input.
#[expect(
    clippy::many_single_char_names,
    reason = "s, b, h, a, t follow the papers' notation (Korthikanti et al. 2022)"
)]
fn inference_activations(t: &Transformer, w: &Workload, engine: Engine, s: u64) -> f64 {
    let b = f64::from(w.batch);
    let chunk = engine.prefill_chunk_tokens().unwrap_or(s);
    let c = match t.role {
        Role::Decoder => s.min(chunk),
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
        notes.push(Sentence::new(text!(
            NOTE_CONTEXT_TOO_LONG,
            context = w.context.to_string(),
            max = t.max_context.to_string()
        )));
    }
    if !w.mode.is_training() && w.zero > 0 {
        notes.push(Sentence::new(text!(NOTE_ZERO_INFERENCE)));
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
                notes.push(Sentence::new(text!(NOTE_LORA_OFFLOAD)));
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
                (Some(inference_activations(t, w, w.engine_for(spec), seq)), kv)
            }
        }
        Shape::Measured(m) => {
            if w.mode.is_training() && w.recompute != Recompute::None {
                notes.push(Sentence::new(text!(NOTE_MEASURED_RECOMPUTE)));
            }
            let per_sample = if w.mode.is_training() {
                m.train_activation_bytes_per_sample
            } else {
                m.inference_activation_bytes_per_sample
            };
            (Some(per_sample as f64 * f64::from(w.batch)), None)
        }
        Shape::ParamsOnly => {
            notes.push(Sentence::new(text!(NOTE_PARAMS_ONLY)));
            (None, None)
        }
    };
    if w.tp > 1 && w.mode.is_training() {
        notes.push(Sentence::new(text!(NOTE_SEQUENCE_PARALLEL)));
    }
    if !w.weights.covers_all_params() && spec.transformer().is_none() {
        notes.push(Sentence::new(text!(NOTE_WEIGHTS_LINEAR_ONLY, weights = w.weights.to_string())));
    }

    let weights_bytes = to_bytes(weights);
    let gradients_bytes = gradients.map(to_bytes);
    let optimizer_bytes = optimizer.map(to_bytes);
    let activations_bytes = activations.map(to_bytes);
    let kv_cache_bytes = kv_cache.map(to_bytes);
    let engine = (!w.mode.is_training()).then(|| w.engine_for(spec));
    let workspace = engine.map_or(0, Engine::workspace_bytes);
    let overhead_bytes = Bytes(CUDA_CONTEXT_BYTES + workspace);
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
        engine,
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
