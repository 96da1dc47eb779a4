//! `rigplan fit`: memory per GPU, fit verdict and speed of one model and workload, and the
//! short fit section of `rigplan report`.
//!
//! The subcommand turns its flags into a [`ModelSpec`], a [`Workload`] and optionally a GPU
//! topology (from `--gpu`/`--gpus` or a build file), calls the core
//! ([`memory::estimate`], [`memory::check_estimate`], [`speed::estimate_speed`], [`fit::suggest`])
//! and prints text or, with `--json`, one object whose field names are a stable interface
//! (`src/core/analysis/report-schema.md`, "fit --json"). Exit codes: 0 computed (fits, tight, or no GPU
//! given), 1 does not fit, 2 bad input.

use super::texts::{
    BYTES, CliTexts, ENGINE_BUDGET, FIT_ACTIVE, FIT_MODEL, FIT_ON, FIT_SECTION, FIT_WORKLOAD, GPU_ASSUMES_PCIE,
    HOST_MEMORY, IMAGES, KV_PER_TOKEN, NO_SPEED, NOTE, OTHER_CHANGE, SERVING_COMPUTE_BOUND, SERVING_CONCURRENCY,
    SERVING_HEADING, SERVING_KV, SERVING_LOAD, SERVING_OVER_BUDGET, SERVING_TARGET, SERVING_TTFT, SMALLEST_CHANGE,
    SPEED, TRAIN_COMPUTE, TRAIN_ENERGY, TRAIN_ENERGY_SITE, TRAIN_TIME, VERDICT, clip, pad_left, pad_right, parse_lang,
};
use super::{Exit, load_build};
use crate::core::analysis::fit::{self, FitMatrix, Suggestion, WorkloadKind};
use crate::core::analysis::memory::{
    self, CustomArch, Engine, GradDtype, KvType, Layout, LoraTargets, Mode, ModelSpec, Offload, Optimizer,
    PerGpuMemory, Recompute, Verdict, WeightType, Workload,
};
use crate::core::analysis::serving::{self, ServingEstimate, ServingRequest, Site};
use crate::core::analysis::speed::{self, SpeedSettings, Topology};
use crate::core::analysis::tco::MAX_RUN_TOKENS;
use crate::core::catalog::hf_config;
use crate::core::catalog::{Catalog, Checkpoint, Gpu};
use crate::core::catalog::{MAX_PARAMS, MIN_PARAMS};
use crate::core::i18n::{Lang, Sentence};
use crate::core::resolve::Resolved;
use crate::core::units::{Bytes, format_number, format_thousands};
use anyhow::{Context as _, bail};
use clap::ValueEnum;
use serde::Serialize;
use std::io::Write;
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

/// The model the flags describe.
struct FitModel {
    spec: ModelSpec,
    /// The catalog id, for a catalog model.
    id: Option<String>,
    name: String,
    max_context: Option<u32>,
    checkpoint: Checkpoint,
    /// What reading a config.json assumed.
    notes: Vec<Sentence>,
}

/// The model the flags describe, with its catalog id and name if it is a catalog model.
fn model_spec(catalog: &Catalog, args: &FitArgs) -> anyhow::Result<FitModel> {
    if let Some(path) = &args.config {
        let imported = hf_config::read_config_file(path)?;
        let model = &imported.model;
        return Ok(FitModel {
            spec: ModelSpec::from_model(model),
            id: None,
            name: model.name.clone(),
            max_context: model.transformer().map(|t| t.max_context),
            checkpoint: model.checkpoint,
            notes: imported.notes.clone(),
        });
    }
    if let Some(id) = &args.model {
        let Some(model) = catalog.models.get(id) else {
            let known: Vec<&str> = catalog.models.iter().map(|m| m.id.as_str()).collect();
            bail!("--model `{id}` is not in the model catalog; known models: {}", known.join(", "));
        };
        return Ok(FitModel {
            spec: ModelSpec::from_model(model),
            id: Some(model.id.to_string()),
            name: model.name.clone(),
            max_context: model.transformer().map(|t| t.max_context),
            checkpoint: model.checkpoint,
            notes: Vec::new(),
        });
    }
    let Some(params) = args.arch.params()? else { bail!("give --model ID, --config FILE or --params N") };
    let custom = |spec, name| FitModel {
        spec,
        id: None,
        name,
        max_context: None,
        checkpoint: Checkpoint::default(),
        notes: Vec::new(),
    };
    let Some(arch) = args.arch.arch()? else {
        let name = format!("{} parameters", format_thousands(params as f64, 0));
        return Ok(custom(ModelSpec::params_only(params), name));
    };
    // A custom architecture states no maximum; the requested context is its own limit.
    let context = args.context.unwrap_or_else(|| Workload::defaults(args.mode.into()).context);
    let spec = arch.spec(context).map_err(|e| anyhow::anyhow!(e))?;
    Ok(custom(spec, arch.name()))
}

/// The GPUs a `fit` runs on.
struct Hardware<'a> {
    gpu: &'a Gpu,
    topology: Topology,
    /// GPUs of the build's node group (None with `--gpu`, where any count can be asked for).
    build_gpus: Option<u32>,
    /// The rest of the nodes used and the site's PUE (from a build).
    site: Site,
}

/// The GPU, its topology, and where it sits.
fn hardware<'a>(catalog: &'a Catalog, args: &FitArgs) -> anyhow::Result<Option<Hardware<'a>>> {
    if let Some(id) = &args.gpu {
        let full = if id.starts_with("gpu/") { id.clone() } else { format!("gpu/{id}") };
        let Some(gpu) = catalog.gpu(&full.as_str().into()) else {
            let known: Vec<&str> = catalog.gpus.iter().map(|g| g.id.as_str()).collect();
            bail!("--gpu `{id}` is not in the catalog; known GPUs: {}", known.join(", "));
        };
        let n = args.gpus.unwrap_or(1);
        let topology = Topology::new(gpu, n, 1, false, 0.0);
        return Ok(Some(Hardware { gpu, topology, build_gpus: None, site: Site::default() }));
    }
    let Some(path) = &args.build else {
        if args.gpus.is_some() {
            bail!("--gpus needs --gpu ID or --build FILE");
        }
        return Ok(None);
    };
    let build = load_build(path)?;
    let resolved = Resolved::new(catalog, &build);
    let (power, _) = crate::core::analysis::power::analyze(&resolved);
    for node in &resolved.nodes {
        let Some(found) = fit::node_gpus(node) else { continue };
        // The catalog outlives the resolved build; look the GPU up there for the lifetime.
        let Some(gpu) = catalog.gpu(&found.gpu.id) else { continue };
        let mut topology = found.topology;
        let total = topology.gpus_per_node.saturating_mul(topology.nodes);
        if let Some(n) = args.gpus {
            if n == 0 || n > total {
                bail!("--gpus {n}: the build's node group `{}` has {total} GPU(s)", node.name);
            }
            // The first n GPUs, filling nodes in order; the links stay the node's.
            topology.gpus_per_node = topology.gpus_per_node.min(n);
            topology.nodes = n.div_ceil(topology.gpus_per_node.max(1));
            topology.fast_group = topology.fast_group.min(topology.gpus_per_node);
            if n < total {
                topology.description = Sentence::new(crate::text!(
                    speed::TOPO_PARTIAL,
                    topology = topology.description.text(),
                    n = n.to_string(),
                    total = total.to_string()
                ));
            }
        }
        let site = Site::of_node(&power, node.index, topology.nodes, build.site.pue);
        return Ok(Some(Hardware { gpu, topology, build_gpus: Some(total), site }));
    }
    bail!("the build `{}` has no GPU the catalog knows", path.display())
}

/// The workload the flags describe.
fn workload(args: &FitArgs, max_context: Option<u32>, checkpoint: Checkpoint) -> Workload {
    let mode = Mode::from(args.mode);
    let mut w = Workload::defaults(mode);
    if let Some(t) = args.weights {
        w.weights = t.resolve(checkpoint);
    }
    w.kv = args.kv.into();
    w.batch = args.batch;
    w.context = args.context.unwrap_or_else(|| max_context.map_or(w.context, |m| w.context.min(m)));
    w.optimizer = args.optimizer.into();
    w.grad_dtype = args.grad_dtype.into();
    w.zero = args.zero;
    w.offload = args.offload.into();
    w.tp = args.tp;
    w.pp = args.pp;
    w.recompute = args.recompute.into();
    w.flash_attention = args.flash_attention.into();
    if let Some(r) = args.lora_rank {
        w.lora_rank = r;
    }
    w.lora_targets = args.lora_targets.into();
    w.engine = args.engine.map(Engine::from);
    w
}

/// `rigplan fit --json`: the stable output object.
#[derive(Serialize)]
struct FitOutput<'a> {
    model: Option<String>,
    model_name: String,
    params: u64,
    active_params: u64,
    /// How the model's published weights are stored (what `--weights native` uses).
    checkpoint: Checkpoint,
    mode: Mode,
    workload: Workload,
    /// The inference engine the figures assume (null for training).
    engine: Option<Engine>,
    gpu: Option<&'a str>,
    gpu_name: Option<&'a str>,
    gpus: u32,
    gpus_per_node: Option<u32>,
    nodes: Option<u32>,
    interconnect: Option<String>,
    layout: Layout,
    per_gpu: PerGpuMemory,
    /// Host memory per node for offloaded states.
    host_bytes: Bytes,
    gpu_memory_bytes: Option<Bytes>,
    /// What the workload may use of each GPU (the engine's budget for inference).
    budget_bytes: Option<Bytes>,
    fits: Option<bool>,
    verdict: Option<Verdict>,
    memory_fraction: Option<f64>,
    kv_cache_bytes_per_token: Option<Bytes>,
    trainable_params: Option<u64>,
    decode_tokens_per_s: Option<f64>,
    prefill_tokens_per_s: Option<f64>,
    samples_per_s: Option<f64>,
    images_per_minute: Option<f64>,
    seconds_per_image: Option<f64>,
    denoising_steps: Option<u32>,
    train_flops: Option<f64>,
    train_tokens_per_s: Option<f64>,
    train_samples_per_s: Option<f64>,
    train_hours: Option<f64>,
    gpu_hours: Option<f64>,
    achieved_mfu: Option<f64>,
    /// Energy of the training run, MWh (GPU board power × GPU-hours, plus the rest of the
    /// build's nodes and its PUE).
    train_energy_mwh: Option<f64>,
    decode_efficiency: Option<f64>,
    mfu: Option<f64>,
    serving: Option<ServingEstimate>,
    #[serde(skip)]
    serving_site: Option<Site>,
    smallest_change: Option<Suggestion>,
    suggestions: Vec<Suggestion>,
    notes: Vec<String>,
}

/// Runs `rigplan fit`.
///
/// # Errors
/// Unknown model or GPU ids, inconsistent flags, an unreadable build file, or a workload that
/// cannot be evaluated (each message says which flag).
pub fn run_fit(out: &mut dyn Write, catalog: &Catalog, args: &FitArgs) -> anyhow::Result<Exit> {
    let FitModel { spec, id: model_id, name: model_name, max_context, checkpoint, notes: import_notes } =
        model_spec(catalog, args)?;
    let hw = hardware(catalog, args)?;
    let w = workload(args, max_context, checkpoint);
    for (flag, value) in [("--mfu", args.mfu), ("--efficiency", args.efficiency)] {
        if let Some(v) = value
            && !(v > 0.0 && v <= 1.0)
        {
            bail!("{flag} {v} must be a fraction in (0, 1]");
        }
    }
    if let Some(x) = args.tokens_per_user
        && !(x.is_finite() && x > 0.0 && x <= MAX_TOKENS_PER_USER)
    {
        bail!("--tokens-per-user {x} must be a number of tokens per second in (0, 10,000]");
    }
    let serving_flags = args.users.is_some() || args.tokens_per_user.is_some() || args.prompt.is_some();
    if serving_flags && w.mode.is_training() {
        bail!("--users, --tokens-per-user and --prompt describe serving; use them with --mode inference");
    }
    let tokens =
        args.tokens.as_deref().map(|t| parse_count_within(t, 1.0, MAX_RUN_TOKENS)).transpose().context("--tokens")?;
    let gpus = hw.as_ref().map_or_else(|| w.tp.saturating_mul(w.pp), |h| h.topology.total_gpus());
    let estimate = memory::estimate(&spec, &w, gpus)?;
    let check = hw.as_ref().map(|h| memory::check_estimate_on(&estimate, &w, h.gpu));
    let fits = check.is_none_or(|c| c.verdict.fits());
    let settings =
        SpeedSettings { decode_efficiency: args.efficiency, mfu: args.mfu, tokens, ..SpeedSettings::default() };
    // A configuration that does not fit runs at no speed: no figures for it.
    let speed = hw.as_ref().filter(|_| fits).map(|h| speed::estimate_speed(&spec, &w, h.gpu, &h.topology, &settings));
    let lang = args.lang.unwrap_or_else(Lang::from_env);
    let request =
        ServingRequest { prompt_tokens: args.prompt, users: args.users, tokens_per_user: args.tokens_per_user };
    let serving = match &hw {
        Some(h) if fits && !w.mode.is_training() && spec.is_decoder() => {
            Some(serving::estimate(&spec, &w, h.gpu, &h.topology, &request, h.site).map_err(|e| anyhow::anyhow!(e))?)
        }
        _ => None,
    };
    let mut suggestions = match (&hw, check) {
        (Some(h), Some(c)) if c.verdict == Verdict::DoesNotFit => fit::suggest(&spec, &w, gpus, h.gpu, h.build_gpus),
        _ => Vec::new(),
    };
    for s in &mut suggestions {
        s.localize(lang);
    }
    let mut notes: Vec<String> = import_notes.iter().map(|n| n.render(lang)).collect();
    notes.extend(estimate.notes.iter().map(|n| n.render(lang)));
    if let Some(s) = &speed {
        notes.extend(s.notes.iter().map(|n| n.render(lang)));
    }
    if let Some(h) = &hw
        && args.gpu.is_some()
        && gpus > 1
        && matches!(h.gpu.interconnect, crate::core::catalog::Interconnect::NvLinkBridge { .. })
    {
        notes.push(CliTexts::of(lang).say(&GPU_ASSUMES_PCIE, &[("name", &h.gpu.name)]));
    }
    let train_flops = match (&speed, tokens) {
        (Some(s), _) if s.train_flops.is_some() => s.train_flops,
        (_, Some(t)) if w.mode.is_training() => Some(speed::train_flops(&spec, &w, t)),
        _ => None,
    };
    let train_energy_mwh = match (&hw, speed.as_ref().and_then(|s| s.gpu_hours)) {
        (Some(h), Some(hours)) => Some(serving::train_energy_mwh(hours, h.gpu, h.site, gpus)),
        _ => None,
    };
    let gpus_per_node = hw.as_ref().map(|h| h.topology.gpus_per_node);
    let output = FitOutput {
        model: model_id,
        model_name,
        params: spec.total_params,
        active_params: spec.active_params,
        checkpoint,
        mode: w.mode,
        workload: w,
        engine: estimate.engine,
        gpu: hw.as_ref().map(|h| h.gpu.id.as_str()),
        gpu_name: hw.as_ref().map(|h| h.gpu.name.as_str()),
        gpus,
        gpus_per_node,
        nodes: hw.as_ref().map(|h| h.topology.nodes),
        interconnect: hw.as_ref().map(|h| h.topology.description.render(lang)),
        layout: estimate.layout,
        per_gpu: estimate.per_gpu.clone(),
        host_bytes: Bytes(estimate.host_bytes_per_gpu.0.saturating_mul(u64::from(gpus_per_node.unwrap_or(gpus)))),
        gpu_memory_bytes: check.map(|c| c.gpu_memory_bytes),
        budget_bytes: check.map(|c| c.budget_bytes),
        fits: check.map(|c| c.verdict.fits()),
        verdict: check.map(|c| c.verdict),
        memory_fraction: check.map(|c| c.memory_fraction),
        kv_cache_bytes_per_token: estimate.kv_cache_bytes_per_token,
        trainable_params: estimate.trainable_params,
        decode_tokens_per_s: speed.as_ref().and_then(|s| s.decode_tokens_per_s),
        prefill_tokens_per_s: speed.as_ref().and_then(|s| s.prefill_tokens_per_s),
        samples_per_s: speed.as_ref().and_then(|s| s.inference_samples_per_s),
        images_per_minute: speed.as_ref().and_then(|s| s.images_per_minute),
        seconds_per_image: speed.as_ref().and_then(|s| s.seconds_per_image),
        denoising_steps: speed.as_ref().and_then(|s| s.denoising_steps),
        train_flops,
        train_tokens_per_s: speed.as_ref().and_then(|s| s.train_tokens_per_s),
        train_samples_per_s: speed.as_ref().and_then(|s| s.train_samples_per_s),
        train_hours: speed.as_ref().and_then(|s| s.train_hours),
        gpu_hours: speed.as_ref().and_then(|s| s.gpu_hours),
        achieved_mfu: speed.as_ref().and_then(|s| s.achieved_mfu),
        train_energy_mwh,
        decode_efficiency: speed.as_ref().filter(|_| !w.mode.is_training()).map(|s| s.decode_efficiency),
        mfu: speed.as_ref().map(|s| if w.mode.is_training() { s.train_mfu } else { s.prefill_mfu }),
        serving,
        serving_site: hw.as_ref().map(|h| h.site),
        smallest_change: suggestions.first().cloned(),
        suggestions,
        notes,
    };
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &output)?;
        writeln!(out)?;
    } else {
        write_fit_text(out, &output, lang)?;
    }
    Ok(if output.fits == Some(false) { Exit::Findings } else { Exit::Ok })
}

fn bytes_line(out: &mut dyn Write, t: &CliTexts, label: &str, value: Option<Bytes>) -> std::io::Result<()> {
    let label = pad_right(label, 14);
    match value {
        Some(b) => {
            let bytes = t.say(&BYTES, &[("bytes", &format_thousands(b.0 as f64, 0))]);
            writeln!(out, "  {label} {:>12}  {bytes}", b.to_string())
        }
        None => writeln!(out, "  {label} {:>12}", "-"),
    }
}

fn rate(value: f64) -> String {
    if value >= 100.0 { format_thousands(value, 0) } else { format!("{value:.1}") }
}

fn write_fit_text(out: &mut dyn Write, o: &FitOutput<'_>, lang: Lang) -> anyhow::Result<()> {
    let t = CliTexts::of(lang);
    let active = if o.active_params == o.params {
        String::new()
    } else {
        t.say(&FIT_ACTIVE, &[("active", &format_thousands(o.active_params as f64, 0))])
    };
    writeln!(
        out,
        "{}",
        t.say(
            &FIT_MODEL,
            &[
                ("model", &o.model_name),
                ("params", &format_thousands(o.params as f64, 0)),
                ("active", &active),
                ("mode", t.mode(o.mode)),
            ]
        )
    )?;
    let w = &o.workload;
    writeln!(
        out,
        "{}",
        t.say(
            &FIT_WORKLOAD,
            &[
                ("weights", &w.weights.to_string()),
                ("kv", &w.kv.to_string()),
                ("batch", &w.batch.to_string()),
                ("context", &w.context.to_string()),
                ("layout", &o.layout.to_string()),
            ]
        )
    )?;
    if let (Some(name), Some(ic)) = (o.gpu_name, &o.interconnect) {
        writeln!(out, "{}", t.say(&FIT_ON, &[("gpus", &o.gpus.to_string()), ("name", name), ("interconnect", ic)]))?;
    }
    writeln!(out)?;
    writeln!(out, "{}", t.per_gpu)?;
    let p = &o.per_gpu;
    let [weights, gradients, optimizer, activations, kv_cache, overhead, total] = t.memory_parts;
    bytes_line(out, t, weights, Some(p.weights_bytes))?;
    bytes_line(out, t, gradients, p.gradients_bytes)?;
    bytes_line(out, t, optimizer, p.optimizer_bytes)?;
    bytes_line(out, t, activations, p.activations_bytes)?;
    bytes_line(out, t, kv_cache, p.kv_cache_bytes)?;
    bytes_line(out, t, overhead, Some(p.overhead_bytes))?;
    bytes_line(out, t, total, Some(p.total_bytes))?;
    if o.host_bytes.0 > 0 {
        writeln!(out, "{}", t.say(&HOST_MEMORY, &[("bytes", &o.host_bytes.to_string())]))?;
    }
    if let Some(kv) = o.kv_cache_bytes_per_token {
        writeln!(
            out,
            "{}",
            t.say(&KV_PER_TOKEN, &[("size", &kv.to_string()), ("bytes", &format_thousands(kv.0 as f64, 0))])
        )?;
    }
    if let (Some(cap), Some(v), Some(f)) = (o.gpu_memory_bytes, o.verdict, o.memory_fraction) {
        writeln!(
            out,
            "{}",
            t.say(
                &VERDICT,
                &[("verdict", t.verdict(v)), ("percent", &format!("{:.1}", f * 100.0)), ("capacity", &cap.to_string())]
            )
        )?;
        if let (Some(engine), Some(budget)) = (o.engine, o.budget_bytes) {
            let engine = engine.to_string();
            writeln!(out, "  {}", t.say(&ENGINE_BUDGET, &[("engine", &engine), ("budget", &budget.to_string())]))?;
        }
    }
    if let Some(s) = &o.smallest_change {
        let percent = format!("{:.0}", s.memory_fraction * 100.0);
        writeln!(out, "{}", t.say(&SMALLEST_CHANGE, &[("change", &s.description), ("percent", &percent)]))?;
        for other in o.suggestions.iter().skip(1) {
            let percent = format!("{:.0}", other.memory_fraction * 100.0);
            writeln!(out, "{}", t.say(&OTHER_CHANGE, &[("change", &other.description), ("percent", &percent)]))?;
        }
    } else if o.fits == Some(false) {
        writeln!(out, "{}", t.no_single_change)?;
    }
    writeln!(out)?;
    if o.fits == Some(false) {
        writeln!(out, "{}", t.say(&NO_SPEED, &[]))?;
    }
    let speeds = [
        (t.speed_decode, o.decode_tokens_per_s, "tokens/s"),
        (t.speed_prefill, o.prefill_tokens_per_s, "tokens/s"),
        (t.speed_inference, o.samples_per_s, t.unit_samples_all_gpus),
        (t.speed_training, o.train_tokens_per_s, "tokens/s"),
        (t.speed_training, o.train_samples_per_s, t.unit_samples),
    ];
    for (label, value, unit) in speeds {
        if let Some(v) = value {
            writeln!(out, "{}", t.say(&SPEED, &[("label", label), ("value", &rate(v)), ("unit", unit)]))?;
        }
    }
    if let Some(f) = o.train_flops {
        writeln!(out, "{}", t.say(&TRAIN_COMPUTE, &[("flops", &format!("{f:.3e}"))]))?;
    }
    if let (Some(h), Some(g)) = (o.train_hours, o.gpu_hours) {
        writeln!(
            out,
            "{}",
            t.say(
                &TRAIN_TIME,
                &[("hours", &rate(h)), ("days", &format!("{:.1}", h / 24.0)), ("gpu_hours", &format_thousands(g, 0))]
            )
        )?;
    }
    if let Some(mwh) = o.train_energy_mwh {
        let site = o
            .serving_site
            .filter(|s| s.other_watts > 0.0 || s.pue > 1.0)
            .map(|s| t.say(&TRAIN_ENERGY_SITE, &[("pue", &format!("{:.2}", s.pue))]))
            .unwrap_or_default();
        writeln!(out, "{}", t.say(&TRAIN_ENERGY, &[("mwh", &rate(mwh)), ("site", &site)]))?;
    }
    if let (Some(per_minute), Some(seconds), Some(steps)) =
        (o.images_per_minute, o.seconds_per_image, o.denoising_steps)
    {
        writeln!(
            out,
            "{}",
            t.say(
                &IMAGES,
                &[
                    ("per_minute", &rate(per_minute)),
                    ("steps", &steps.to_string()),
                    ("seconds", &format!("{seconds:.2}"))
                ]
            )
        )?;
    }
    if let Some(s) = &o.serving {
        write_serving(out, t, s)?;
    }
    for note in &o.notes {
        writeln!(out, "{}", t.say(&NOTE, &[("note", note)]))?;
    }
    Ok(())
}

fn write_serving(out: &mut dyn Write, t: &CliTexts, s: &ServingEstimate) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        t.say(
            &SERVING_HEADING,
            &[
                ("engine", &s.engine.to_string()),
                ("replicas", &s.replicas.to_string()),
                ("gpus", &s.gpus_per_replica.to_string()),
                ("context", &format_thousands(f64::from(s.context_tokens), 0)),
            ]
        )
    )?;
    let max_context = s.max_context_tokens.map_or_else(|| "-".to_owned(), |c| format_thousands(f64::from(c), 0));
    writeln!(
        out,
        "{}",
        t.say(
            &SERVING_KV,
            &[
                ("budget", &s.kv_budget_bytes.to_string()),
                ("tokens", &format_thousands(s.kv_capacity_tokens as f64, 0)),
                ("max_context", &max_context),
            ]
        )
    )?;
    let total = s.max_concurrency_per_replica.saturating_mul(s.replicas);
    writeln!(
        out,
        "{}",
        t.say(
            &SERVING_CONCURRENCY,
            &[
                ("context", &format_thousands(f64::from(s.context_tokens), 0)),
                ("per_replica", &s.max_concurrency_per_replica.to_string()),
                ("total", &total.to_string()),
            ]
        )
    )?;
    let ms = format!("{:.0}", s.ttft_s * 1000.0);
    writeln!(out, "{}", t.say(&SERVING_TTFT, &[("prompt", &s.prompt_tokens.to_string()), ("ms", &ms)]))?;
    let loads = [(t.load_single, Some(s.single)), (t.load_capacity, s.at_capacity), (t.load_requested, s.requested)];
    for (label, load) in loads {
        let Some(l) = load else { continue };
        let fit = if l.fits { String::new() } else { t.say(&SERVING_OVER_BUDGET, &[]) };
        writeln!(
            out,
            "{}",
            t.say(
                &SERVING_LOAD,
                &[
                    ("label", label),
                    ("users", &l.users.to_string()),
                    ("per_user", &rate(l.per_user_tokens_per_s)),
                    ("aggregate", &rate(l.aggregate_tokens_per_s)),
                    ("joules", &format!("{:.2}", l.energy.joules_per_token)),
                    ("gpu_watts", &format!("{:.0}", l.energy.gpu_watts)),
                    ("fit", &fit),
                ]
            )
        )?;
    }
    if let (Some(target), Some(users)) = (s.tokens_per_user_target, s.users_at_target) {
        writeln!(out, "{}", t.say(&SERVING_TARGET, &[("target", &rate(target)), ("users", &users.to_string())]))?;
    }
    if let Some(b) = s.compute_bound_from_batch {
        writeln!(out, "{}", t.say(&SERVING_COMPUTE_BOUND, &[("batch", &b.to_string())]))?;
    }
    Ok(())
}

/// Width of the model column of the report's fit table, display columns.
const NAME_WIDTH: usize = 34;

fn cell_text(t: &CliTexts, cell: &fit::FitCell) -> String {
    match (cell.verdict, cell.gpus_used) {
        (None, _) => "-".to_owned(),
        (Some(Verdict::DoesNotFit), _) => t.cell_no_fit.to_owned(),
        (Some(v), Some(n)) => {
            let word = if v == Verdict::Tight { t.cell_tight } else { t.cell_fits };
            match (cell.decode_tokens_per_s.or(cell.train_tokens_per_s), cell.samples_per_s) {
                (Some(tps), _) => format!("{word}×{n} {}t/s", rate(tps)),
                (None, Some(sps)) => format!("{word}×{n} {}/s", rate(sps)),
                (None, None) => format!("{word}×{n}"),
            }
        }
        (Some(_), None) => "?".to_owned(),
    }
}

/// The short fit section of `rigplan report` in `lang`: per node group, one line per model
/// with each standard workload's verdict, GPUs used and speed.
///
/// # Errors
/// Output failures.
pub fn write_fit_section(out: &mut dyn Write, matrices: &[FitMatrix], lang: Lang) -> std::io::Result<()> {
    let t = CliTexts::of(lang);
    let cell = t.cell_columns;
    for m in matrices {
        writeln!(
            out,
            "{}",
            t.say(
                &FIT_SECTION,
                &[
                    ("node", &m.node_name),
                    ("gpus", &m.gpus_per_node.to_string()),
                    ("gpu", &m.gpu_name),
                    ("nodes", &m.nodes.to_string()),
                    ("memory", &m.gpu_memory_bytes.to_string()),
                    ("interconnect", &m.interconnect),
                ]
            )
        )?;
        write!(out, "  {}", pad_right(t.model, NAME_WIDTH))?;
        for k in WorkloadKind::ALL {
            write!(out, " {}", pad_left(t.compare.workload_short(k), cell))?;
        }
        writeln!(out)?;
        for row in m.rows.iter() {
            write!(out, "  {}", pad_right(&clip(&row.model_name, NAME_WIDTH), NAME_WIDTH))?;
            for c in &row.cells {
                write!(out, " {}", pad_left(&cell_text(t, c), cell))?;
            }
            writeln!(out)?;
        }
        writeln!(out, "  {}", t.fit_legend)?;
        for note in &m.notes {
            writeln!(out, "  {}", t.say(&NOTE, &[("note", note)]))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_count;

    #[test]
    fn counts_with_suffixes() {
        let cases = [
            ("7e9", 7.0e9),
            ("8.03B", 8.03e9),
            ("350M", 3.5e8),
            ("2T", 2.0e12),
            ("125k", 1.25e5),
            ("1_000_000", 1.0e6),
        ];
        for (text, value) in cases {
            let parsed = parse_count(text).expect("parses");
            assert!((parsed - value).abs() <= value * 1e-12, "{text}");
        }
        for bad in ["", "B", "seven", "-5", "0", "7X", "nan"] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }
}
