//! The flags of `rigplan fit` and their ranges.

use super::super::texts::parse_lang;
use crate::core::analysis::memory::{
    self, CustomArch, Engine, GradDtype, KvType, LoraTargets, Mode, Offload, Optimizer, Recompute, WeightType,
};
use crate::core::catalog::Checkpoint;
use crate::core::catalog::{MAX_PARAMS, MIN_PARAMS};
use crate::core::i18n::Lang;
use crate::core::units::format_number;
use anyhow::{Context as _, bail};
use clap::ValueEnum;

use std::path::PathBuf;

/// Arguments of `rigplan fit`.
#[derive(Debug, Clone, clap::Args)]
// Negative numbers are values, so that `--gpus -1` is refused for its value, not taken for a flag.
#[command(
    group(clap::ArgGroup::new("what").required(true).args(["model", "params", "config"])),
    allow_negative_numbers = true
)]
pub struct FitArgs {
    /// A catalog model id (the `model/` prefix may be left out), e.g. meta-llama-3.1-8b.
    #[arg(long, value_name = "ID")]
    pub model: Option<String>,
    /// A Hugging Face config.json (or the folder holding it): the model's architecture and
    /// checkpoint precision are read from it.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["model", "params"])]
    pub config: Option<PathBuf>,
    /// A custom architecture instead of a catalog model.
    #[command(flatten)]
    pub arch: ArchArgs,

    /// A catalog GPU id (the `gpu/` prefix may be left out).
    #[arg(long, value_name = "ID", conflicts_with = "build")]
    pub gpu: Option<String>,
    /// Number of GPUs of --gpu (one node); default 1. With --build, how many of the build's
    /// GPUs the workload uses (default all), e.g. the replicas of a layout that leaves some idle.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_GPUS))]
    pub gpus: Option<u32>,
    /// A build file: its first node group with GPUs gives the GPU type, count, nodes and links.
    #[arg(long, value_name = "FILE")]
    pub build: Option<PathBuf>,

    #[arg(long, value_enum, default_value = "inference")]
    pub mode: ModeArg,
    /// Weight type; default bf16 (nf4 for qlora). `native` is the checkpoint's own precision
    /// (fp8_block for DeepSeek, mxfp4 for gpt-oss).
    #[arg(long, value_enum, value_name = "T")]
    pub weights: Option<WeightArg>,
    #[arg(long, value_enum, value_name = "T", default_value = "fp16")]
    pub kv: KvArg,
    #[arg(long, value_name = "B", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_BATCH))]
    pub batch: u32,
    /// Tokens per sequence; default 4096 for inference and 2048 for training, capped at the
    /// model's maximum.
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u32).range(1..=MAX_CONTEXT))]
    pub context: Option<u32>,
    #[arg(long, value_enum, default_value = "adamw")]
    pub optimizer: OptimizerArg,
    #[arg(long, value_enum, default_value = "fp16")]
    pub grad_dtype: GradArg,
    #[arg(long, value_name = "0..3", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3))]
    pub zero: u8,
    #[arg(long, value_enum, default_value = "none")]
    pub offload: OffloadArg,
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_GPUS))]
    pub tp: u32,
    #[arg(long, value_name = "P", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_GPUS))]
    pub pp: u32,
    #[arg(long, value_enum, default_value = "none")]
    pub recompute: RecomputeArg,
    #[arg(long, value_enum, default_value = "on")]
    pub flash_attention: OnOff,
    /// LoRA rank; default 16 (64 for qlora).
    #[arg(long, value_name = "R", value_parser = clap::value_parser!(u32).range(1..=MAX_LORA_RANK))]
    pub lora_rank: Option<u32>,
    #[arg(long, value_enum, default_value = "all")]
    pub lora_targets: LoraTargetsArg,
    /// Tokens to train on (samples for measured models), e.g. 2e12 or 2T.
    #[arg(long, value_name = "N")]
    pub tokens: Option<String>,
    /// Model-FLOPs utilization for prefill and training (default: calibrated, see docs).
    #[arg(long, value_name = "F")]
    pub mfu: Option<f64>,
    /// Share of peak memory bandwidth decode reaches (default: calibrated, see docs).
    #[arg(long, value_name = "F")]
    pub efficiency: Option<f64>,
    /// Inference engine: its memory budget and decode efficiency (default: llama.cpp for GGUF
    /// weights, vLLM otherwise).
    #[arg(long, value_enum, value_name = "E")]
    pub engine: Option<EngineArg>,
    /// Serving: concurrent users to evaluate (spread over the replicas the GPUs hold).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_BATCH))]
    pub users: Option<u32>,
    /// Serving: decode tokens per second each user must get; prints how many users that admits.
    #[arg(long, value_name = "X")]
    pub tokens_per_user: Option<f64>,
    /// Serving: prompt tokens for the time to first token (default: half the context).
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u32).range(1..=MAX_CONTEXT))]
    pub prompt: Option<u32>,
    #[arg(long)]
    pub json: bool,
    /// After the figures, say where each came from: formula, these numbers, source and
    /// confidence (the JSON always carries them, in `basis`).
    #[arg(long)]
    pub explain: bool,
    /// Language of the text (en, zh-CN; default: the locale).
    #[arg(long, value_name = "LANG", value_parser = parse_lang)]
    pub lang: Option<Lang>,
}

macro_rules! value_enum {
    ($name:ident => $target:ty { $($variant:ident $(= $text:literal)? => $value:expr),+ $(,)? }) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
        pub enum $name {
            $($(#[value(name = $text)])? $variant),+
        }
        impl From<$name> for $target {
            fn from(v: $name) -> Self {
                match v {
                    $($name::$variant => $value),+
                }
            }
        }
    };
}

value_enum!(ModeArg => Mode { Inference => Mode::Inference, Train => Mode::Train, Lora => Mode::Lora, Qlora => Mode::Qlora });
/// `--weights`: a weight type, or the checkpoint's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum WeightArg {
    Native,
    Fp32,
    Fp16,
    Bf16,
    Fp8,
    #[value(name = "fp8_block")]
    Fp8Block,
    Int8,
    Mxfp4,
    Int4,
    Nf4,
    #[value(name = "q8_0")]
    Q8_0,
    #[value(name = "q6_k")]
    Q6K,
    #[value(name = "q5_k_m")]
    Q5KM,
    #[value(name = "q4_k_m")]
    Q4KM,
    #[value(name = "q4_0")]
    Q4_0,
    #[value(name = "q3_k_m")]
    Q3KM,
    #[value(name = "q2_k")]
    Q2K,
    #[value(name = "iq4_xs")]
    Iq4Xs,
    #[value(name = "iq3_xxs")]
    Iq3Xxs,
    #[value(name = "iq2_xxs")]
    Iq2Xxs,
    #[value(name = "iq1_s")]
    Iq1S,
}

impl WeightArg {
    /// The weight type, `native` resolved against the model's checkpoint (BF16 for a model
    /// that states none).
    #[must_use]
    pub fn resolve(self, checkpoint: Checkpoint) -> WeightType {
        match self {
            Self::Native => memory::checkpoint_weights(checkpoint),
            Self::Fp32 => WeightType::Fp32,
            Self::Fp16 => WeightType::Fp16,
            Self::Bf16 => WeightType::Bf16,
            Self::Fp8 => WeightType::Fp8,
            Self::Fp8Block => WeightType::Fp8Block,
            Self::Int8 => WeightType::Int8,
            Self::Mxfp4 => WeightType::Mxfp4,
            Self::Int4 => WeightType::Int4,
            Self::Nf4 => WeightType::Nf4,
            Self::Q8_0 => WeightType::Q8_0,
            Self::Q6K => WeightType::Q6K,
            Self::Q5KM => WeightType::Q5KM,
            Self::Q4KM => WeightType::Q4KM,
            Self::Q4_0 => WeightType::Q4_0,
            Self::Q3KM => WeightType::Q3KM,
            Self::Q2K => WeightType::Q2K,
            Self::Iq4Xs => WeightType::Iq4Xs,
            Self::Iq3Xxs => WeightType::Iq3Xxs,
            Self::Iq2Xxs => WeightType::Iq2Xxs,
            Self::Iq1S => WeightType::Iq1S,
        }
    }
}
value_enum!(KvArg => KvType { Fp16 => KvType::Fp16, Fp8 => KvType::Fp8, Q8_0 = "q8_0" => KvType::Q8_0, Q4_0 = "q4_0" => KvType::Q4_0 });
value_enum!(OptimizerArg => Optimizer { Adamw => Optimizer::AdamW, Adamw8bit = "adamw8bit" => Optimizer::AdamW8bit, Sgd => Optimizer::Sgd });
value_enum!(GradArg => GradDtype { Fp16 => GradDtype::Fp16, Fp32 => GradDtype::Fp32 });
value_enum!(OffloadArg => Offload { None => Offload::None, Optimizer => Offload::Optimizer, All => Offload::All });
value_enum!(RecomputeArg => Recompute { None => Recompute::None, Selective => Recompute::Selective, Full => Recompute::Full });
value_enum!(OnOff => bool { On => true, Off => false });
value_enum!(EngineArg => Engine {
    LlamaCpp = "llama.cpp" => Engine::LlamaCpp, Vllm = "vllm" => Engine::Vllm, Sglang = "sglang" => Engine::Vllm,
    TensorrtLlm = "tensorrt-llm" => Engine::TensorRtLlm, Pytorch = "pytorch" => Engine::PyTorch,
});
value_enum!(LoraTargetsArg => LoraTargets { Qv => LoraTargets::Qv, Attention => LoraTargets::Attention, All => LoraTargets::All });

/// Most GPUs, and the largest tensor or pipeline degree, the flags accept: a build holds at
/// most 4,096 nodes of at most a few dozen GPUs; 2²⁰ is far past that and keeps every product
/// of counts exact.
pub const MAX_GPUS: i64 = 1 << 20;
/// Largest `--batch`: sequences per step. Serving batches are in the hundreds, training
/// batches of sequences in the thousands (Llama 3 405B: 16M tokens = 2,048 sequences of 8K).
pub const MAX_BATCH: i64 = 1 << 20;
/// Longest `--context`, tokens: the model catalog's bound on `max_context`.
pub const MAX_CONTEXT: i64 = 100_000_000;
/// Largest `--lora-rank` (LoRA ranks are 4–256 in practice; Hu et al. 2021 §7.2).
pub const MAX_LORA_RANK: i64 = 1 << 16;
/// Largest `--tokens-per-user`, tokens per second: a reader takes about 5–10 tokens/s, and
/// the fastest single-stream decode announced (Cerebras Inference, Llama 3.1 8B, about 1,800
/// tokens/s, August 2024) is well below 10,000.
pub const MAX_TOKENS_PER_USER: f64 = 10_000.0;

/// Parses a count such as `7e9`, `8.03B`, `350M`, `2T`, `125k` or `1_000_000`.
///
/// # Errors
/// Text that is not a positive finite number with an optional k/M/B/T suffix.
pub fn parse_count(text: &str) -> anyhow::Result<f64> {
    let t = text.trim().replace('_', "");
    let scale_of = |c: char| match c {
        'k' | 'K' => Some(1.0e3),
        'm' | 'M' => Some(1.0e6),
        'b' | 'B' | 'g' | 'G' => Some(1.0e9),
        't' | 'T' => Some(1.0e12),
        _ => None,
    };
    let (number, scale) = match t.chars().last().and_then(|c| scale_of(c).map(|s| (c, s))) {
        Some((suffix, scale)) => (t.strip_suffix(suffix).unwrap_or(&t), scale),
        None => (t.as_str(), 1.0),
    };
    let value: f64 =
        number.parse().map_err(|_| anyhow::anyhow!("`{text}` is not a number (examples: 7e9, 8.03B, 350M)"))?;
    let value = value * scale;
    if !value.is_finite() || value < 1.0 {
        bail!("`{text}` must be a positive count");
    }
    Ok(value)
}

/// [`parse_count`] within `min..=max`: a count out of range is refused, never clamped.
///
/// # Errors
/// As [`parse_count`], and a count outside the range.
pub fn parse_count_within(text: &str, min: f64, max: f64) -> anyhow::Result<f64> {
    let value = parse_count(text)?;
    if !(min..=max).contains(&value) {
        bail!("`{text}` is outside {}–{}", format_number(min), format_number(max));
    }
    Ok(value)
}

/// A model that is not in the catalog: a parameter count and, for activations and the KV
/// cache, its shape (`rigplan fit` and `rigplan advise`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ArchArgs {
    /// A parameter count instead of a catalog model (7e9, 7B, 350M); alone it gives model
    /// states only, with --layers --hidden --heads also activations and KV cache.
    #[arg(long, value_name = "N", conflicts_with = "model")]
    pub params: Option<String>,
    #[arg(long, value_name = "L", requires = "params")]
    pub layers: Option<u32>,
    #[arg(long, value_name = "H", requires = "params")]
    pub hidden: Option<u32>,
    #[arg(long, value_name = "A", requires = "params")]
    pub heads: Option<u32>,
    #[arg(long, value_name = "K", requires = "params")]
    pub kv_heads: Option<u32>,
    #[arg(long, value_name = "D", requires = "params")]
    pub head_dim: Option<u32>,
    /// FFN width of a gated (SwiGLU) FFN; without it a 4×hidden GELU FFN is assumed.
    #[arg(long, value_name = "F", requires = "params")]
    pub ffn: Option<u32>,
    #[arg(long, value_name = "V", requires = "params")]
    pub vocab: Option<u32>,
    #[arg(long, value_name = "E", requires = "params")]
    pub experts: Option<u32>,
    #[arg(long, value_name = "K", requires = "params")]
    pub active_experts: Option<u32>,
    #[arg(long, value_name = "R", requires = "params")]
    pub kv_lora_rank: Option<u32>,
    #[arg(long, value_name = "R", requires = "params")]
    pub rope_dim: Option<u32>,
}

impl ArchArgs {
    /// The parameter count, when `--params` is given.
    ///
    /// # Errors
    /// A count that does not parse.
    pub fn params(&self) -> anyhow::Result<Option<u64>> {
        self.params
            .as_deref()
            .map(|text| {
                parse_count_within(text, MIN_PARAMS, MAX_PARAMS)
                    .context("--params")
                    .map(crate::core::units::round_non_negative)
            })
            .transpose()
    }

    /// The architecture, when `--params` comes with `--layers`, `--hidden` and `--heads`
    /// (`None` without shape flags).
    ///
    /// # Errors
    /// A count that does not parse, or shape flags without the three that make a shape.
    pub fn arch(&self) -> anyhow::Result<Option<CustomArch>> {
        let Some(params) = self.params()? else { return Ok(None) };
        let optional_given = [
            self.kv_heads,
            self.head_dim,
            self.ffn,
            self.vocab,
            self.experts,
            self.active_experts,
            self.kv_lora_rank,
            self.rope_dim,
        ];
        let (Some(layers), Some(hidden), Some(heads)) = (self.layers, self.hidden, self.heads) else {
            if [self.layers, self.hidden, self.heads].iter().any(Option::is_some)
                || optional_given.iter().any(Option::is_some)
            {
                bail!(
                    "an architecture needs --layers, --hidden and --heads together (the other shape flags refine it)"
                );
            }
            return Ok(None);
        };
        Ok(Some(CustomArch {
            params,
            layers,
            hidden,
            heads,
            kv_heads: self.kv_heads,
            head_dim: self.head_dim,
            ffn: self.ffn,
            vocab: self.vocab,
            experts: self.experts,
            active_experts: self.active_experts,
            kv_lora_rank: self.kv_lora_rank,
            rope_dim: self.rope_dim,
        }))
    }
}
