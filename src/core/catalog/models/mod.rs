//! The model catalog: real architectures whose memory and speed rigplan estimates.
//!
//! Theory of operation: `catalog/models.ron` (embedded in the binary) lists models with the
//! configuration values their publishers give (Hugging Face `config.json` of the official
//! repository, or the paper's architecture table), each with a `source`. A user catalog folder
//! may hold its own `models.ron`, whose entries extend the embedded list or replace entries by
//! id, exactly like the parts files. Loading validates every entry and reports problems with
//! `file:line:col`.
//!
//! Two kinds of entries exist:
//! - [`Architecture::Transformer`]: decoder language models, encoders (BERT) and vision
//!   transformers. Their parameter counts are *computed* from the architecture
//!   ([`Transformer::total_params`]) and checked against the published totals
//!   (`published_params`): a mismatch above [`PARAM_CHECK_TOLERANCE`] is reported, which
//!   catches a mistyped dimension. Memory and speed formulas read the architecture directly
//!   (KV heads, explicit head dim, MLA latent sizes, experts).
//! - [`Architecture::Measured`]: CNNs, detectors, diffusion pipelines and speech models whose
//!   activation memory does not follow a transformer formula. They carry a parameter count and
//!   per-sample activation figures at a stated input size, with the source of those figures.

use super::{CatalogProblem, Origin};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;

/// File name of the model catalog, in `catalog/` and in a user catalog folder.
pub const MODELS_FILE_NAME: &str = "models.ron";

/// The model catalog shipped with rigplan.
pub const EMBEDDED_MODELS: &str = include_str!("../../../../catalog/models.ron");

/// Largest relative difference between a transformer's computed parameter count and the
/// published total before validation warns. Publishers round totals to two or three
/// significant figures (Qwen2.5-32B "32.5B" for 32.76B counted), so 1.5 % separates rounding
/// from a wrong dimension, which moves the count by several percent.
pub const PARAM_CHECK_TOLERANCE: f64 = 0.015;

/// Most parameters a model may have, and the range of `published_params`: GPT-4-class models
/// are reported near 2 × 10¹²; 10¹⁴ leaves fifty times that while every byte count of such a
/// model (16 bytes per parameter for mixed-precision Adam, ZeRO paper Table 1) stays far below
/// `u64::MAX`.
pub const MAX_PARAMS: f64 = 1.0e14;

/// Fewest parameters a catalog model may have (`published_params`).
pub const MIN_PARAMS: f64 = 1.0e5;

/// Largest per-head dimension (published models use 64–256).
const MAX_HEAD_DIM: u32 = 4_096;
/// Most routed experts per layer (DeepSeek-V3 has 256, Kimi K2 384).
const MAX_EXPERTS: u32 = 4_096;
/// Largest forward-pass cost of one sample of a measured model, FLOPs: the shipped measured
/// models cost at most 3.2 × 10¹² per sample (`catalog/models.ron`); 10¹⁸ is far past any of
/// them and keeps every FLOP and time figure finite.
const MAX_FLOPS_PER_SAMPLE: f64 = 1.0e18;
/// Smallest forward-pass cost of one sample of a measured model, FLOPs: the cheapest shipped
/// one (ResNet-50 at 224 × 224) costs 8.2 × 10⁹; a million is far below any network worth
/// sizing a GPU for, and keeps samples per second finite (a cost of 10⁻³⁰⁸ made it infinite).
const MIN_FLOPS_PER_SAMPLE: f64 = 1.0e6;
/// Largest activation figure of one sample of a measured model, bytes (10 TB, thousands of
/// times any real sample), so that batch × activations stays far below `u64::MAX`.
const MAX_ACTIVATION_BYTES_PER_SAMPLE: u64 = 10_000_000_000_000;

/// Id prefix of model entries.
pub const MODEL_ID_PREFIX: &str = "model/";

/// A model id as the catalog writes it: with the `model/` prefix, which users may leave out.
#[must_use]
pub fn full_model_id(id: &str) -> String {
    if id.starts_with(MODEL_ID_PREFIX) { id.to_owned() } else { format!("{MODEL_ID_PREFIX}{id}") }
}

/// A stable model identifier: `model/<slug>`, e.g. `model/meta-llama-3.1-8b`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ModelId(pub String);

impl ModelId {
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for ModelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for ModelId {
    fn from(s: &str) -> Self {
        Self(s.to_owned())
    }
}

/// What a model does; decides which standard workloads apply to it. JSON spells the tasks in
/// snake_case; RON files are read in either spelling, so that a model rigplan writes into a
/// user catalog (the app's "Add model from config.json…") reads back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all(serialize = "snake_case"))]
pub enum ModelTask {
    /// Autoregressive text generation (decoder LMs).
    #[serde(alias = "text_generation")]
    TextGeneration,
    /// Text encoders (BERT).
    #[serde(alias = "text_encoding")]
    TextEncoding,
    #[serde(alias = "image_classification")]
    ImageClassification,
    #[serde(alias = "object_detection")]
    ObjectDetection,
    /// Text-to-image diffusion pipelines.
    #[serde(alias = "image_generation")]
    ImageGeneration,
    /// Speech recognition (Whisper).
    #[serde(alias = "speech_recognition")]
    SpeechRecognition,
}

/// Whether attention is causal with a KV cache (decoder) or bidirectional over a fixed input
/// (encoder).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Role {
    Decoder,
    Encoder,
}

/// The feed-forward block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FfnKind {
    /// Gated (SwiGLU / GeGLU): gate, up and down projections, three `hidden × ffn` matrices.
    Gated,
    /// Two matrices with a GELU between them (GPT-2/3, BERT, ViT).
    Plain,
}

/// Normalization layers (LayerNorm has a weight and a bias, RMSNorm a weight only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NormKind {
    RmsNorm,
    LayerNorm,
}

/// Mixture-of-experts feed-forward layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Moe {
    /// Routed experts per MoE layer.
    pub experts: u32,
    /// Routed experts each token uses (top-k).
    pub active_experts: u32,
    /// Shared experts every token uses (DeepSeek), 0 for none.
    #[serde(default)]
    pub shared_experts: u32,
    /// Intermediate width of one expert.
    pub expert_ffn: u32,
    /// Layers that keep a dense FFN of width `ffn`: DeepSeek-V3's leading
    /// `first_k_dense_replace`, Llama 4 Maverick's every other layer
    /// (`interleave_moe_layer_step` 2). Only their number matters to the counts.
    #[serde(default)]
    pub dense_layers: u32,
}

/// Multi-head latent attention (DeepSeek-V2/V3): keys and values are compressed into a latent
/// of `kv_lora_rank` plus a decoupled RoPE key of `rope_head_dim`, which is all the KV cache
/// holds (DeepSeek-V2 paper, arXiv 2405.04434, §2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mla {
    /// Rank of the query compression (None: queries are projected directly).
    #[serde(default)]
    pub q_lora_rank: Option<u32>,
    pub kv_lora_rank: u32,
    /// Per-head query/key dimension without position encoding.
    pub qk_nope_head_dim: u32,
    /// Per-head decoupled RoPE dimension (shared key part cached once per token).
    pub rope_head_dim: u32,
    pub v_head_dim: u32,
}

/// A transformer's configuration, as in its `config.json`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transformer {
    pub role: Role,
    pub layers: u32,
    pub hidden: u32,
    /// Attention (query) heads.
    pub heads: u32,
    /// Key/value heads (grouped-query attention); None means equal to `heads` (MHA).
    #[serde(default)]
    pub kv_heads: Option<u32>,
    /// Per-head dimension where the model sets it apart from `hidden / heads` (Qwen3).
    #[serde(default)]
    pub head_dim: Option<u32>,
    /// Intermediate width of the dense FFN.
    pub ffn: u32,
    pub ffn_kind: FfnKind,
    /// Vocabulary size (0 for models without a token embedding, e.g. ViT).
    pub vocab: u32,
    /// Longest sequence the model accepts (for ViT, its fixed token count).
    pub max_context: u32,
    /// True when the output projection shares the input embedding matrix.
    pub tied_embeddings: bool,
    pub norm: NormKind,
    /// Biases on every linear layer (GPT-2/3, BERT, ViT).
    #[serde(default)]
    pub linear_biases: bool,
    /// Biases on the Q, K and V projections only (Qwen2/2.5).
    #[serde(default)]
    pub qkv_bias: bool,
    /// Per-head RMSNorm on queries and keys (Qwen3).
    #[serde(default)]
    pub qk_norm: bool,
    /// A learned position-embedding table of `max_context` rows (GPT-2/3, BERT, ViT).
    #[serde(default)]
    pub learned_positions: bool,
    /// Parameters outside the transformer blocks and embeddings (ViT patch embedding and
    /// classifier, BERT pooler, state-space mixers of hybrids); the source says what they are.
    #[serde(default)]
    pub extra_params: u64,
    /// Sliding-window attention span; the KV cache of a windowed layer holds at most this many
    /// tokens (Mistral 7B rolling buffer cache, Jiang et al. 2023 §2). Llama 4's chunked
    /// attention (`attention_chunk_size`) caches at most one chunk and is given here too.
    #[serde(default)]
    pub sliding_window: Option<u32>,
    /// Attention layers that use `sliding_window`, where only some do and the others attend over
    /// the whole context: `layer_types` of gpt-oss (every other layer) and Gemma 3 (five local
    /// layers per global one), Llama 4's chunked layers (three of four). None: every attention
    /// layer uses the window (Mistral 7B).
    #[serde(default)]
    pub sliding_layers: Option<u32>,
    /// KV heads summed over the attention layers, for models whose KV-head count differs by
    /// layer (a per-layer `num_key_value_heads` list, as OpenELM's config gives it). None:
    /// `kv_heads` in every attention layer.
    #[serde(default)]
    pub kv_heads_total: Option<u32>,
    /// Layers that have attention, in hybrids whose other layers are state-space mixers;
    /// None means every layer.
    #[serde(default)]
    pub attention_layers: Option<u32>,
    #[serde(default)]
    pub moe: Option<Moe>,
    #[serde(default)]
    pub mla: Option<Mla>,
}

/// Figures for a model whose memory is not computed from an architecture formula.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Measured {
    /// Total parameters (all components of a pipeline).
    pub params: u64,
    /// The input the figures below are for, e.g. "224×224 RGB image".
    pub sample: String,
    /// Forward-pass FLOPs per sample (2 × multiply-accumulates).
    pub forward_flops_per_sample: f64,
    /// Activations kept for the backward pass per sample in 16-bit mixed-precision training,
    /// without activation checkpointing, bytes.
    pub train_activation_bytes_per_sample: u64,
    /// Peak transient activation memory per sample during inference, bytes.
    pub inference_activation_bytes_per_sample: u64,
    /// Where the activation and FLOP figures come from, and how they were derived.
    pub figures_source: String,
}

/// How the publisher's checkpoint stores the weights: the precision a model is served at
/// without any further quantization.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Checkpoint {
    /// 16-bit brain float, the format of most open checkpoints (`torch_dtype: bfloat16`).
    #[default]
    Bf16,
    Fp16,
    Fp32,
    /// FP8 linear layers with one scale per tensor or channel, the rest in BF16.
    Fp8,
    /// 8-bit integer linear layers (GPTQ/AWQ/compressed-tensors at 8 bits).
    Int8,
    /// 4-bit integer linear layers with group scales (GPTQ/AWQ/compressed-tensors at 4 bits).
    Int4,
    /// FP8 (E4M3) linear layers with one fp32 scale per 128 × 128 block, the rest in BF16
    /// (DeepSeek-V3 technical report, arXiv 2412.19437, §3.3.2; `quantization_config`
    /// `weight_block_size: [128, 128]`).
    Fp8Block,
    /// MXFP4 expert weights (OCP Microscaling Formats v1.0: 32 FP4 values share one 8-bit
    /// scale), everything else in BF16, as gpt-oss ships (`quant_method: mxfp4`,
    /// `modules_to_not_convert`: attention, router, embeddings, output).
    Mxfp4Experts,
}

impl Checkpoint {
    /// True for the default, so that RON written for a model leaves it out.
    #[must_use]
    pub fn is_default(&self) -> bool {
        *self == Self::Bf16
    }
}

impl fmt::Display for Checkpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Bf16 => "bf16",
            Self::Fp16 => "fp16",
            Self::Fp32 => "fp32",
            Self::Fp8 => "fp8",
            Self::Int8 => "int8",
            Self::Int4 => "int4",
            Self::Fp8Block => "fp8 (128×128 block scales)",
            Self::Mxfp4Experts => "mxfp4 experts, bf16 elsewhere",
        })
    }
}

/// How a model is described.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Architecture {
    Transformer(Transformer),
    Measured(Measured),
}

/// A model in the catalog.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    pub id: ModelId,
    pub name: String,
    /// Who publishes it.
    pub vendor: String,
    pub task: ModelTask,
    /// The total parameter count as published (model card, paper); for transformers it checks
    /// the computed count, for measured models it is the count used.
    pub published_params: f64,
    /// Parameters active per token as published, for mixture-of-experts models.
    #[serde(default)]
    pub published_active_params: Option<f64>,
    /// Where the configuration values come from.
    pub source: String,
    /// How the published weights are stored (BF16 unless said).
    #[serde(default, skip_serializing_if = "Checkpoint::is_default")]
    pub checkpoint: Checkpoint,
    pub architecture: Architecture,
}

impl Model {
    /// Total parameters: computed from the architecture for transformers, the stated count for
    /// measured models.
    #[must_use]
    pub fn total_params(&self) -> u64 {
        match &self.architecture {
            Architecture::Transformer(t) => t.total_params(),
            Architecture::Measured(m) => m.params,
        }
    }

    /// Parameters used per token (differs from the total only for mixture-of-experts models).
    #[must_use]
    pub fn active_params(&self) -> u64 {
        match &self.architecture {
            Architecture::Transformer(t) => t.active_params(),
            Architecture::Measured(m) => m.params,
        }
    }

    /// The transformer configuration, if the model has one.
    #[must_use]
    pub fn transformer(&self) -> Option<&Transformer> {
        match &self.architecture {
            Architecture::Transformer(t) => Some(t),
            Architecture::Measured(_) => None,
        }
    }
}

mod checks;
mod transformer;

pub use checks::active_count_offset;
use checks::{validate, validate_transformer};

/// The loaded model catalog with the origin of each entry. Its entries never change once it is
/// built (the list is private and nothing here mutates it after construction), which is what
/// lets analyses memoize results per catalog ([`Self::generation`]).
#[derive(Clone, Debug)]
pub struct Models {
    list: Vec<Model>,
    origins: HashMap<ModelId, Origin>,
    /// Unique to this catalog among those built in the process; a clone shares it (it holds
    /// the same models).
    generation: u64,
}

impl Default for Models {
    fn default() -> Self {
        /// The next unused generation.
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Self {
            list: Vec::new(),
            origins: HashMap::new(),
            generation: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }
}

impl Models {
    /// A number that no other model catalog built in this process has: two catalogs with the
    /// same generation hold the same models, so a result computed from one holds for the other
    /// (the fit matrix's memo, `crate::core::analysis::fit`).
    #[must_use]
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Every model, in catalog order.
    pub fn iter(&self) -> impl Iterator<Item = &Model> {
        self.list.iter()
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Looks a model up by id; the `model/` prefix may be left out.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<&Model> {
        let full = full_model_id(id);
        self.list.iter().find(|m| m.id.0 == full)
    }

    /// Where a model was defined.
    #[must_use]
    pub fn origin(&self, id: &ModelId) -> Option<&Origin> {
        self.origins.get(id)
    }

    /// The embedded model catalog with every problem found.
    #[must_use]
    pub fn embedded() -> (Self, Vec<CatalogProblem>) {
        Self::from_sources(&[(format!("catalog/{MODELS_FILE_NAME}"), EMBEDDED_MODELS.to_owned())])
    }

    /// The model catalog of entries already read, with their origins (the compiled embedded
    /// catalog: its ids are unique, as the tests of the embedded files check).
    pub(super) fn from_located(entries: Vec<(Model, Origin)>) -> Self {
        let mut models = Self::default();
        for (model, origin) in entries {
            models.origins.insert(model.id.clone(), origin);
            models.list.push(model);
        }
        models
    }

    /// Builds the model catalog from `(file label, text)` sources in order: an entry whose id
    /// appeared in an earlier file replaces it; a repeated id within one file is an error.
    #[must_use]
    pub fn from_sources(sources: &[(String, String)]) -> (Self, Vec<CatalogProblem>) {
        let mut models = Self::default();
        let mut problems = Vec::new();
        // Where each id is in the list, so that merging stays linear in the entries.
        let mut at: HashMap<ModelId, usize> = HashMap::new();
        for (label, text) in sources {
            let Some(entries) = super::parse_list::<Model>(label, text, &mut problems) else { continue };
            let mut seen: HashMap<ModelId, Origin> = HashMap::new();
            let mut ids = super::IdLocator::new(text);
            for model in entries {
                let (line, col) = ids.locate(model.id.as_str());
                let origin = Origin { file: label.clone(), line, col };
                if let Some(first) = seen.get(&model.id) {
                    problems.push(CatalogProblem::error(
                        label.clone(),
                        Some((line, col)),
                        format!("duplicate id `{}` (first defined at {first})", model.id),
                    ));
                    continue;
                }
                seen.insert(model.id.clone(), origin.clone());
                models.origins.insert(model.id.clone(), origin);
                if let Some(existing) = at.get(&model.id).and_then(|&i| models.list.get_mut(i)) {
                    *existing = model;
                } else {
                    at.insert(model.id.clone(), models.list.len());
                    models.list.push(model);
                }
            }
        }
        for model in &models.list {
            problems.extend(validate(model, models.origins.get(&model.id)));
        }
        (models, problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn llama31_8b() -> Transformer {
        Transformer {
            role: Role::Decoder,
            layers: 32,
            hidden: 4096,
            heads: 32,
            kv_heads: Some(8),
            head_dim: None,
            ffn: 14336,
            ffn_kind: FfnKind::Gated,
            vocab: 128_256,
            max_context: 131_072,
            tied_embeddings: false,
            norm: NormKind::RmsNorm,
            linear_biases: false,
            qkv_bias: false,
            qk_norm: false,
            learned_positions: false,
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
    fn llama_3_1_8b_count_by_hand() {
        // Embeddings 2 × 128256 × 4096 = 1,050,673,152; per layer attention 2·4096² + 2·4096·1024
        // = 41,943,040, SwiGLU 3·4096·14336 = 176,160,768, norms 8,192 → 218,112,000 × 32
        // = 6,979,584,000; final norm 4,096. Total 8,030,261,248 (model card: 8.03B).
        assert_eq!(llama31_8b().total_params(), 8_030_261_248);
        assert_eq!(llama31_8b().kv_elements_per_token_per_layer(), 2 * 8 * 128);
    }

    #[test]
    fn hybrid_counts_attention_only_in_attention_layers() {
        let mut t = llama31_8b();
        let full = t.total_params();
        t.attention_layers = Some(4);
        assert_eq!(full - t.total_params(), 28 * 41_943_040);
    }

    #[test]
    fn bad_dimensions_are_errors_with_location() {
        let text = r#"[
    (
        id: "model/broken",
        name: "Broken",
        vendor: "Test",
        task: TextGeneration,
        published_params: 8.0e9,
        source: "test",
        architecture: Transformer((
            role: Decoder, layers: 32, hidden: 4096, heads: 32, kv_heads: 5, ffn: 14336,
            ffn_kind: Gated, vocab: 128256, max_context: 8192, tied_embeddings: false, norm: RmsNorm,
        )),
    ),
]"#;
        let (models, problems) = Models::from_sources(&[("models.ron".to_owned(), text.to_owned())]);
        assert_eq!(models.len(), 1);
        let p = problems.iter().find(|p| p.message.contains("kv_heads")).expect("kv_heads problem");
        assert_eq!((p.line, p.col), (Some(3), Some(13)));
        assert!(p.is_error());
    }

    #[test]
    fn wrong_dimension_is_caught_by_the_published_count() {
        // Llama 3.1 8B with ffn mistyped as 13436: the count drops by 3·4096·900·32 = 354M (4.4 %).
        let text = r#"[(
        id: "model/typo",
        name: "Typo",
        vendor: "Test",
        task: TextGeneration,
        published_params: 8.03e9,
        source: "test",
        architecture: Transformer((
            role: Decoder, layers: 32, hidden: 4096, heads: 32, kv_heads: 8, ffn: 13436,
            ffn_kind: Gated, vocab: 128256, max_context: 8192, tied_embeddings: false, norm: RmsNorm,
        )),
    )]"#;
        let (_, problems) = Models::from_sources(&[("models.ron".to_owned(), text.to_owned())]);
        assert!(problems.iter().any(|p| !p.is_error() && p.message.contains("computed parameter count")));
    }

    /// Issue 18: 4 × 10⁹ experts of width 10⁶ is about 1.6 × 10²¹ parameters; counted in u64 it
    /// wrapped to a few billion and "fit" one GPU, with more active than total parameters.
    #[test]
    fn counts_do_not_wrap_and_absurd_models_are_refused() {
        let mut t = llama31_8b();
        t.moe = Some(Moe {
            experts: 4_000_000_000,
            active_experts: 8,
            shared_experts: 0,
            expert_ffn: 1_000_000,
            dense_layers: 0,
        });
        assert_eq!(t.total_params(), u64::MAX, "saturates instead of wrapping");
        assert!(t.active_params() < t.total_params());
        assert!(
            t.problems().iter().any(|p| p.contains("moe.experts = 4000000000 is outside 1–4096")),
            "{:?}",
            t.problems()
        );
    }

    #[test]
    fn lookup_with_or_without_prefix() {
        let (models, _) = Models::embedded();
        assert!(models.get("meta-llama-3.1-8b").is_some());
        assert!(models.get("model/meta-llama-3.1-8b").is_some());
        assert!(models.get("model/nope").is_none());
    }
}
