//! A model from its Hugging Face `config.json`: the architecture fields of the common decoder
//! families read into a [`Transformer`], the checkpoint precision from `quantization_config`
//! and `torch_dtype`, and a [`Model`] that `rigplan fit --config` sizes and the app stores in
//! the user catalog.
//!
//! Theory of operation: the JSON is parsed once; multimodal wrappers (Gemma 3, Llama 4,
//! Mistral 3, Kimi K2.5) keep the language model in `text_config`, which is read instead of
//! the top level. `model_type` selects the family's conventions for what its config leaves
//! implicit (Qwen2's QKV biases, Qwen3's and Gemma 3's Q/K norms, which field holds the
//! expert width, whether embeddings are tied by default, how sliding-window layers are
//! listed); the field names themselves are those of the `transformers` configuration classes
//! (`LlamaConfig`, `Qwen3MoeConfig`, `DeepseekV3Config`, `GptOssConfig`, `Gemma3TextConfig`,
//! `Llama4TextConfig`, `Glm4MoeConfig`). A family rigplan does not know is read as a
//! Llama-style decoder when the fields it needs are there, with a note saying so; otherwise
//! the error lists the fields that are missing. Every number is checked (a positive integer
//! where one is needed) and the error names the field.

use super::models::{Architecture, MODELS_FILE_NAME, Models, Role, Transformer};
use super::models::{Checkpoint, FfnKind, MODEL_ID_PREFIX, Mla, Model, ModelId, ModelTask, Moe, NormKind};
use crate::core::i18n::Sentence;
use crate::text;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

crate::templates! {
    pub(crate) NOTES;
    NOTE_MULTIMODAL "" {
        en: "multimodal checkpoint: the language model in `text_config` is sized; its vision encoder is not counted",
        zh: "多模态检查点：只计算 `text_config` 中的语言模型，不含视觉编码器",
    }
    NOTE_UNKNOWN_FAMILY "" {
        en: "model_type `{family}` is not a family rigplan knows: read as a Llama-style decoder (gated FFN, RMSNorm, no biases); check the counts against the model card",
        zh: "rigplan 不认识 model_type `{family}`：按 Llama 式解码器读取（门控 FFN、RMSNorm、无偏置）；请对照模型卡核对参数量",
    }
    NOTE_PER_LAYER_KV "" {
        en: "per-layer KV heads: {sum} over {layers} layers",
        zh: "逐层 KV 头数：{layers} 层共 {sum} 个",
    }
    NOTE_GPT_OSS "" {
        en: "gpt-oss's attention sinks and expert biases (about 0.03 % of the parameters) are not counted",
        zh: "未计入 gpt-oss 的注意力 sink 和专家偏置（约占参数的 0.03 %）",
    }
    NOTE_GEMMA_NORMS "" {
        en: "Gemma's extra post-attention and post-FFN norms (hidden weights each) are not counted",
        zh: "未计入 Gemma 额外的注意力后与 FFN 后归一化层（每个 hidden 个权重）",
    }
    NOTE_CHUNKED "" {
        en: "chunked attention: {chunked} of {layers} layers cache at most {chunk} tokens",
        zh: "分块注意力：{layers} 层中有 {chunked} 层最多缓存 {chunk} 个 token",
    }
    NOTE_HYBRID "" {
        en: "hybrid: {attention} of {layers} layers have attention and a KV cache; the other layers' parameters and fixed-size recurrent state are not counted",
        zh: "混合架构：{layers} 层中有 {attention} 层带注意力和 KV 缓存；其余层的参数和固定大小的循环状态未计入",
    }
    NOTE_SLIDING "" {
        en: "sliding-window attention: {sliding} of {layers} layers cache at most {window} tokens",
        zh: "滑动窗口注意力：{layers} 层中有 {sliding} 层最多缓存 {window} 个 token",
    }
}

/// Largest `config.json` rigplan reads, bytes. Real ones are a few kilobytes (gpt-oss-120b's
/// is 2.09 kB); the limit keeps a stray large file from being read into memory.
pub const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

/// Families whose conventions rigplan knows, by `model_type`.
pub const KNOWN_FAMILIES: [&str; 19] = [
    "llama",
    "mistral",
    "mixtral",
    "qwen2",
    "qwen2_moe",
    "qwen3",
    "qwen3_moe",
    "gemma",
    "gemma2",
    "gemma3_text",
    "deepseek_v2",
    "deepseek_v3",
    "kimi_k2",
    "gpt_oss",
    "glm4",
    "glm4_moe",
    "llama4_text",
    "phi3",
    "ernie4_5_moe",
];

/// Why a `config.json` cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error("not valid JSON: {message} (line {line}, column {column})")]
    Json { message: String, line: usize, column: usize },
    #[error("the top level must be a JSON object (a config.json is one)")]
    NotAnObject,
    #[error("`{field}` must be {expected}, found {found}")]
    BadField { field: String, expected: &'static str, found: String },
    #[error("model_type `{family}`: the config lacks {}", .missing.join(", "))]
    Missing { family: String, missing: Vec<String> },
    #[error(
        "model_type `{family}` is not a family rigplan knows ({}); reading it as a Llama-style decoder needs {}, which the config lacks",
        KNOWN_FAMILIES.join(", "),
        .missing.join(", ")
    )]
    UnknownFamily { family: String, missing: Vec<String> },
    #[error(
        "`quantization_config.quant_method` `{0}` is not one rigplan knows (fp8, mxfp4, gptq, awq, compressed-tensors, bitsandbytes)"
    )]
    Quantization(String),
    #[error("the architecture the config describes is inconsistent: {0}")]
    Inconsistent(String),
}

/// A model read from a config, with what was assumed in reading it.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportedModel {
    pub model: Model,
    /// The `model_type` the config names.
    pub family: String,
    /// Conventions applied and fields left out of the count (English unless rendered in
    /// another language).
    pub notes: Vec<Sentence>,
}

/// Reads a `config.json`. `fallback_name` names the model when the config does not
/// (`_name_or_path`): the folder or file it came from; `source` says where it was read.
///
/// # Errors
/// Text that is not a JSON object, a field of the wrong type or range (named), fields a family
/// needs that are missing (listed), an unknown `quant_method`, or an inconsistent architecture.
pub fn model_from_config(text: &str, fallback_name: &str, source: &str) -> Result<ImportedModel, ConfigError> {
    let root: Value = serde_json::from_str(text).map_err(|e| ConfigError::Json {
        message: e.to_string().split(" at line").next().unwrap_or_default().to_owned(),
        line: e.line(),
        column: e.column(),
    })?;
    let Value::Object(root) = root else { return Err(ConfigError::NotAnObject) };
    let mut notes = Vec::new();
    let (cfg, prefix) = match root.get("text_config") {
        Some(Value::Object(text_config)) => {
            notes.push(Sentence::new(text!(NOTE_MULTIMODAL)));
            (text_config, "text_config.")
        }
        _ => (&root, ""),
    };
    let reader = Reader { cfg, prefix };
    let family = reader
        .string("model_type")?
        .or_else(|| if prefix.is_empty() { None } else { string_field(&root, "model_type") })
        .filter(|f| !f.is_empty())
        .unwrap_or_else(|| "(none)".to_owned());
    let known = KNOWN_FAMILIES.contains(&family.as_str());
    let transformer = read_transformer(&reader, &family, known, &mut notes)?;
    let problems = transformer.problems();
    if !problems.is_empty() {
        return Err(ConfigError::Inconsistent(problems.join("; ")));
    }
    let checkpoint = read_checkpoint(&root, &reader)?;
    let name = string_field(&root, "_name_or_path")
        .and_then(|p| p.rsplit('/').next().map(str::to_owned))
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| fallback_name.to_owned());
    let total = transformer.total_params();
    #[expect(clippy::cast_precision_loss, reason = "a parameter count, far below 2^52")]
    let published = total as f64;
    let moe = transformer.moe.is_some();
    let model = Model {
        id: ModelId(format!("{MODEL_ID_PREFIX}{}", slug(&name))),
        name,
        vendor: string_field(&root, "_name_or_path")
            .and_then(|p| p.split_once('/').map(|(org, _)| org.to_owned()))
            .unwrap_or_else(|| "config.json".to_owned()),
        task: ModelTask::TextGeneration,
        published_params: published,
        #[expect(clippy::cast_precision_loss, reason = "a parameter count, far below 2^52")]
        published_active_params: moe.then(|| transformer.active_params() as f64),
        source: format!(
            "{source} (model_type `{family}`), read by rigplan; the parameter counts are computed from the config, not published figures"
        ),
        checkpoint,
        architecture: Architecture::Transformer(transformer),
    };
    Ok(ImportedModel { model, family, notes })
}

/// A lowercase slug of a-z, 0-9, '-', '.', '_' for a model id.
#[must_use]
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_') {
            out.push(c);
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    let trimmed = out.trim_matches('-');
    if trimmed.is_empty() { "imported".to_owned() } else { trimmed.to_owned() }
}

fn string_field(map: &Map<String, Value>, key: &str) -> Option<String> {
    map.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// Typed access to one config object, naming fields with their path in errors.
struct Reader<'a> {
    cfg: &'a Map<String, Value>,
    prefix: &'static str,
}

impl Reader<'_> {
    fn path(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }

    fn get(&self, key: &str) -> Option<&Value> {
        self.cfg.get(key).filter(|v| !v.is_null())
    }

    fn bad(&self, key: &str, expected: &'static str, found: &Value) -> ConfigError {
        ConfigError::BadField { field: self.path(key), expected, found: found.to_string() }
    }

    /// A positive integer that fits a u32, if present.
    fn count(&self, key: &str) -> Result<Option<u32>, ConfigError> {
        let Some(v) = self.get(key) else { return Ok(None) };
        match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) if n > 0 => Ok(Some(n)),
            _ => Err(self.bad(key, "a positive integer", v)),
        }
    }

    /// A non-negative integer (0 allowed: `first_k_dense_replace`, `n_shared_experts`).
    fn count0(&self, key: &str) -> Result<Option<u32>, ConfigError> {
        let Some(v) = self.get(key) else { return Ok(None) };
        v.as_u64().and_then(|n| u32::try_from(n).ok()).map(Some).ok_or_else(|| self.bad(key, "an integer ≥ 0", v))
    }

    fn flag(&self, key: &str) -> Result<Option<bool>, ConfigError> {
        let Some(v) = self.get(key) else { return Ok(None) };
        v.as_bool().map(Some).ok_or_else(|| self.bad(key, "true or false", v))
    }

    fn string(&self, key: &str) -> Result<Option<String>, ConfigError> {
        let Some(v) = self.get(key) else { return Ok(None) };
        v.as_str().map(|s| Some(s.to_owned())).ok_or_else(|| self.bad(key, "a string", v))
    }

    /// A list of strings (`layer_types`).
    fn strings(&self, key: &str) -> Result<Option<Vec<String>>, ConfigError> {
        let Some(v) = self.get(key) else { return Ok(None) };
        let list = v.as_array().ok_or_else(|| self.bad(key, "a list of strings", v))?;
        list.iter()
            .map(|item| item.as_str().map(str::to_owned).ok_or_else(|| self.bad(key, "a list of strings", v)))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// A list of non-negative integers (`no_rope_layers`, `mlp_only_layers`, per-layer KV heads).
    fn integers(&self, key: &str) -> Result<Option<Vec<u32>>, ConfigError> {
        let Some(v) = self.get(key) else { return Ok(None) };
        let list = v.as_array().ok_or_else(|| self.bad(key, "a list of integers", v))?;
        list.iter()
            .map(|item| {
                item.as_u64().and_then(|n| u32::try_from(n).ok()).ok_or_else(|| self.bad(key, "a list of integers", v))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }
}

/// The fields every family needs, with their alternative spellings.
const REQUIRED: [(&str, &[&str]); 5] = [
    ("num_hidden_layers", &["n_layer", "num_layers"]),
    ("hidden_size", &["n_embd", "d_model"]),
    ("num_attention_heads", &["n_head"]),
    ("vocab_size", &[]),
    ("max_position_embeddings", &["n_positions", "max_sequence_length"]),
];

fn first_count(r: &Reader<'_>, key: &str, alternatives: &[&str]) -> Result<Option<u32>, ConfigError> {
    if let Some(v) = r.count(key)? {
        return Ok(Some(v));
    }
    for alt in alternatives {
        if let Some(v) = r.count(alt)? {
            return Ok(Some(v));
        }
    }
    Ok(None)
}

#[expect(clippy::too_many_lines, reason = "one reading of each family's fields, in the order of the Transformer")]
fn read_transformer(
    r: &Reader<'_>,
    family: &str,
    known: bool,
    notes: &mut Vec<Sentence>,
) -> Result<Transformer, ConfigError> {
    let mut values = [0u32; 5];
    let mut missing = Vec::new();
    for (slot, (key, alternatives)) in values.iter_mut().zip(REQUIRED) {
        match first_count(r, key, alternatives)? {
            Some(v) => *slot = v,
            None => missing.push(r.path(key)),
        }
    }
    let is = |names: &[&str]| names.contains(&family);
    let experts = match family {
        "deepseek_v2" | "deepseek_v3" | "kimi_k2" | "glm4_moe" => r.count("n_routed_experts")?,
        "qwen2_moe" | "qwen3_moe" | "ernie4_5_moe" => r.count("num_experts")?,
        _ => r.count("num_local_experts")?.or(r.count("num_experts")?),
    };
    let active_experts = r.count("num_experts_per_tok")?.or(r.count("experts_per_token")?);
    // The dense FFN width: Llama 4 names it intermediate_size_mlp (intermediate_size is an
    // expert's); MoE families without dense layers (Mixtral, gpt-oss) give the expert width.
    let expert_ffn_key = match family {
        "mixtral" | "gpt_oss" | "llama4_text" => "intermediate_size",
        _ => "moe_intermediate_size",
    };
    let dense_ffn_key = if family == "llama4_text" { "intermediate_size_mlp" } else { "intermediate_size" };
    let dense_ffn = r.count(dense_ffn_key)?;
    let expert_ffn = if experts.is_some() { r.count(expert_ffn_key)? } else { None };
    if experts.is_none() && dense_ffn.is_none() {
        missing.push(r.path(dense_ffn_key));
    }
    if experts.is_some() {
        if active_experts.is_none() {
            missing.push(r.path("num_experts_per_tok"));
        }
        if expert_ffn.is_none() {
            missing.push(r.path(expert_ffn_key));
        }
    }
    if !missing.is_empty() {
        return Err(if known {
            ConfigError::Missing { family: family.to_owned(), missing }
        } else {
            ConfigError::UnknownFamily { family: family.to_owned(), missing }
        });
    }
    if !known {
        notes.push(Sentence::new(text!(NOTE_UNKNOWN_FAMILY, family = family)));
    }
    let [layers, hidden, heads, vocab, max_context] = values;

    let (kv_heads, kv_heads_total) = match r.get("num_key_value_heads") {
        Some(Value::Array(_)) => {
            let list = r.integers("num_key_value_heads")?.unwrap_or_default();
            if list.len() != layers as usize || list.contains(&0) {
                return Err(r.bad(
                    "num_key_value_heads",
                    "a positive count per layer (num_hidden_layers of them)",
                    r.get("num_key_value_heads").unwrap_or(&Value::Null),
                ));
            }
            let sum: u64 = list.iter().map(|&k| u64::from(k)).sum();
            let most = list.iter().copied().max().unwrap_or(1);
            notes.push(Sentence::new(text!(NOTE_PER_LAYER_KV, sum = sum.to_string(), layers = layers.to_string())));
            (
                Some(most),
                Some(u32::try_from(sum).map_err(|_| r.bad("num_key_value_heads", "a smaller count", &Value::Null))?),
            )
        }
        _ => (r.count("num_key_value_heads")?, None),
    };
    // A per-layer KV list keeps the largest count as `kv_heads` only for validation; the sum
    // is what the counts use. With a uniform count, GQA divides the heads.
    let kv_heads = match (kv_heads, kv_heads_total) {
        (Some(k), None) if k == heads => None,
        (k, None) => k,
        (_, Some(_)) => None,
    };

    let mla = match r.count("kv_lora_rank")? {
        Some(kv_lora_rank) => {
            let need = |key: &str| -> Result<u32, ConfigError> {
                r.count(key)?
                    .ok_or_else(|| ConfigError::Missing { family: family.to_owned(), missing: vec![r.path(key)] })
            };
            Some(Mla {
                q_lora_rank: r.count("q_lora_rank")?,
                kv_lora_rank,
                qk_nope_head_dim: need("qk_nope_head_dim")?,
                rope_head_dim: need("qk_rope_head_dim")?,
                v_head_dim: need("v_head_dim")?,
            })
        }
        None => None,
    };

    let moe = match (experts, active_experts, expert_ffn) {
        (Some(experts), Some(active_experts), Some(expert_ffn)) => {
            let shared_experts = match family {
                "llama4_text" => 1,
                "qwen2_moe" => {
                    // Qwen2-MoE's one shared expert is wider than a routed one; count it as
                    // that many routed-expert widths.
                    let width = r.count("shared_expert_intermediate_size")?.unwrap_or(0);
                    width.div_ceil(expert_ffn)
                }
                _ => r.count0("n_shared_experts")?.unwrap_or(0),
            };
            let mut dense_layers = r.count0("first_k_dense_replace")?.unwrap_or(0);
            if let Some(step) = r.count("interleave_moe_layer_step")?.or(r.count("decoder_sparse_step")?)
                && step > 1
            {
                dense_layers += layers - layers / step;
            }
            if let Some(list) = r.integers("mlp_only_layers")? {
                dense_layers += u32::try_from(list.len()).unwrap_or(u32::MAX);
            }
            Some(Moe { experts, active_experts, shared_experts, expert_ffn, dense_layers: dense_layers.min(layers) })
        }
        _ => None,
    };
    if moe.is_some_and(|m| m.dense_layers > 0) && dense_ffn.is_none() {
        return Err(ConfigError::Missing { family: family.to_owned(), missing: vec![r.path(dense_ffn_key)] });
    }

    let tied_default = is(&["gemma", "gemma2", "gemma3_text"]);
    let tied_embeddings = r.flag("tie_word_embeddings")?.unwrap_or(tied_default);
    let attention_bias = r.flag("attention_bias")?.unwrap_or(false);
    let qkv_bias = attention_bias || r.flag("qkv_bias")?.unwrap_or(is(&["qwen2", "qwen2_moe"]));
    let qk_norm = r.flag("use_qk_norm")?.or(r.flag("qk_layernorm")?).unwrap_or(is(&["qwen3", "qwen3_moe", "gemma3_text"]))
        // Llama 4's QK norm is an L2 norm without weights: nothing to count.
        && family != "llama4_text";

    let attention_layers = read_hybrid(r, layers, notes)?;
    let (sliding_window, sliding_layers) = read_windows(r, family, layers, notes)?;
    let head_dim = r.count("head_dim")?;
    if family == "gpt_oss" {
        notes.push(Sentence::new(text!(NOTE_GPT_OSS)));
    }
    if is(&["gemma2", "gemma3_text"]) {
        notes.push(Sentence::new(text!(NOTE_GEMMA_NORMS)));
    }
    Ok(Transformer {
        role: Role::Decoder,
        layers,
        hidden,
        heads,
        kv_heads,
        // Kept where it differs from hidden / heads (Qwen3, Gemma 3), as the catalog does.
        head_dim: head_dim.filter(|&d| mla.is_none() && u64::from(d) * u64::from(heads) != u64::from(hidden)),
        ffn: dense_ffn.or(expert_ffn).unwrap_or(hidden),
        ffn_kind: FfnKind::Gated,
        vocab,
        max_context,
        tied_embeddings,
        norm: NormKind::RmsNorm,
        linear_biases: false,
        qkv_bias,
        qk_norm,
        learned_positions: false,
        extra_params: 0,
        sliding_window,
        sliding_layers,
        attention_layers,
        kv_heads_total,
        moe,
        mla,
    })
}

/// Layers with attention in a hybrid whose other layers carry a fixed-size recurrent state
/// instead of a KV cache: `layer_types` entries other than `full_attention` and
/// `sliding_attention` (Qwen3-Next's `linear_attention`), or Nemotron-H's
/// `hybrid_override_pattern` (`*` an attention layer, `M` a Mamba-2 layer, `-` an MLP).
/// None when every layer has attention.
fn read_hybrid(r: &Reader<'_>, layers: u32, notes: &mut Vec<Sentence>) -> Result<Option<u32>, ConfigError> {
    let attention = if let Some(types) = r.strings("layer_types")? {
        if types.len() != layers as usize {
            return Err(r.bad(
                "layer_types",
                "one entry per layer (num_hidden_layers of them)",
                r.get("layer_types").unwrap_or(&Value::Null),
            ));
        }
        types.iter().filter(|t| matches!(t.as_str(), "full_attention" | "sliding_attention")).count()
    } else if let Some(pattern) = r.string("hybrid_override_pattern")? {
        pattern.chars().filter(|&c| c == '*').count()
    } else {
        return Ok(None);
    };
    let attention = u32::try_from(attention).unwrap_or(layers);
    if attention >= layers {
        return Ok(None);
    }
    if attention == 0 {
        return Err(r.bad("layer_types", "at least one attention layer", r.get("layer_types").unwrap_or(&Value::Null)));
    }
    notes.push(Sentence::new(text!(NOTE_HYBRID, attention = attention.to_string(), layers = layers.to_string())));
    Ok(Some(attention))
}

/// The sliding window and how many layers use it: `layer_types` (gpt-oss, newer Gemma 3 and
/// Qwen configs), Gemma 3's `sliding_window_pattern` (every Nth layer global), Llama 4's
/// `attention_chunk_size` on the RoPE layers (`no_rope_layers` 1; every fourth layer is NoPE
/// and global by default), Qwen's `use_sliding_window` switch, else every layer (Mistral).
fn read_windows(
    r: &Reader<'_>,
    family: &str,
    layers: u32,
    notes: &mut Vec<Sentence>,
) -> Result<(Option<u32>, Option<u32>), ConfigError> {
    if family == "llama4_text" {
        let Some(chunk) = r.count("attention_chunk_size")? else { return Ok((None, None)) };
        let chunked = match r.integers("no_rope_layers")? {
            Some(list) if !list.is_empty() => list.iter().filter(|&&v| v == 1).count(),
            _ => {
                let interval = r.count("no_rope_layer_interval")?.unwrap_or(4);
                (layers - layers / interval) as usize
            }
        };
        notes.push(Sentence::new(text!(
            NOTE_CHUNKED,
            chunked = chunked.to_string(),
            layers = layers.to_string(),
            chunk = chunk.to_string()
        )));
        let chunked = u32::try_from(chunked).unwrap_or(layers);
        return Ok((Some(chunk), (chunked < layers).then_some(chunked).filter(|&n| n > 0)));
    }
    if r.flag("use_sliding_window")? == Some(false) {
        return Ok((None, None));
    }
    let Some(window) = r.count("sliding_window")? else { return Ok((None, None)) };
    let sliding = if let Some(types) = r.strings("layer_types")? {
        if types.len() != layers as usize {
            return Err(r.bad(
                "layer_types",
                "one entry per layer (num_hidden_layers of them)",
                r.get("layer_types").unwrap_or(&Value::Null),
            ));
        }
        types.iter().filter(|t| t.as_str() == "sliding_attention").count()
    } else if let Some(pattern) = r.count("sliding_window_pattern")? {
        // Gemma 3: layer i is global when (i + 1) is a multiple of the pattern.
        (layers - layers / pattern) as usize
    } else if family == "gemma3_text" {
        // Gemma3TextConfig's default pattern of 6.
        (layers - layers / 6) as usize
    } else if family == "gemma2" {
        // Gemma 2 alternates local and global layers.
        (layers / 2) as usize
    } else {
        layers as usize
    };
    if sliding == 0 {
        return Ok((None, None));
    }
    notes.push(Sentence::new(text!(
        NOTE_SLIDING,
        sliding = sliding.to_string(),
        layers = layers.to_string(),
        window = window.to_string()
    )));
    let sliding = u32::try_from(sliding).unwrap_or(layers);
    Ok((Some(window), (sliding < layers).then_some(sliding)))
}

/// The checkpoint precision: `quantization_config` first, then `torch_dtype` (or `dtype`,
/// its newer name).
fn read_checkpoint(root: &Map<String, Value>, r: &Reader<'_>) -> Result<Checkpoint, ConfigError> {
    let quant = root.get("quantization_config").or_else(|| r.get("quantization_config"));
    if let Some(Value::Object(q)) = quant {
        let method = q.get("quant_method").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
        let bits = q
            .get("bits")
            .and_then(Value::as_u64)
            .or_else(|| {
                q.get("config_groups")
                    .and_then(Value::as_object)
                    .and_then(|groups| groups.values().next())
                    .and_then(|g| g.get("weights"))
                    .and_then(|w| w.get("num_bits"))
                    .and_then(Value::as_u64)
            })
            .unwrap_or(4);
        return match method.as_str() {
            "fp8" | "fbgemm_fp8" => {
                Ok(if q.get("weight_block_size").is_some() { Checkpoint::Fp8Block } else { Checkpoint::Fp8 })
            }
            "mxfp4" => Ok(Checkpoint::Mxfp4Experts),
            "gptq" | "awq" | "compressed-tensors" | "compressed_tensors" => {
                Ok(if bits >= 8 { Checkpoint::Int8 } else { Checkpoint::Int4 })
            }
            "bitsandbytes" => Ok(if q.get("load_in_8bit").and_then(Value::as_bool) == Some(true) {
                Checkpoint::Int8
            } else {
                Checkpoint::Int4
            }),
            _ => Err(ConfigError::Quantization(method)),
        };
    }
    let dtype = root
        .get("torch_dtype")
        .or_else(|| root.get("dtype"))
        .or_else(|| r.get("torch_dtype"))
        .and_then(Value::as_str)
        .unwrap_or("bfloat16");
    Ok(match dtype {
        "float16" => Checkpoint::Fp16,
        "float32" => Checkpoint::Fp32,
        _ => Checkpoint::Bf16,
    })
}

/// Why a config file cannot be read, or a model not stored in the user catalog.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    #[error("{path}: cannot read: {message}")]
    Read { path: String, message: String },
    #[error("{path}: {size} bytes is too large for a config.json (at most {MAX_CONFIG_BYTES})")]
    TooLarge { path: String, size: u64 },
    #[error("{path}: {error}")]
    Config { path: String, error: ConfigError },
    /// `message` says where in the file (`path:line:col`) where it can.
    #[error("{message}; the model was not added and the file is unchanged")]
    Catalog { path: String, message: String },
    #[error("{path}: cannot write: {message}")]
    Write { path: String, message: String },
}

/// Reads a Hugging Face `config.json`, or `DIR/config.json` when given its folder. The model
/// is named after `_name_or_path`, else the folder the file is in.
///
/// # Errors
/// A file that cannot be read or is over [`MAX_CONFIG_BYTES`], or a config
/// [`model_from_config`] cannot take (with the file's path).
pub fn read_config_file(path: &Path) -> Result<ImportedModel, ImportError> {
    let file = if path.is_dir() { path.join("config.json") } else { path.to_path_buf() };
    let label = file.display().to_string();
    let read_error = |e: std::io::Error| ImportError::Read { path: label.clone(), message: e.to_string() };
    let size = std::fs::metadata(&file).map_err(read_error)?.len();
    if size > MAX_CONFIG_BYTES {
        return Err(ImportError::TooLarge { path: label, size });
    }
    let text = std::fs::read_to_string(&file).map_err(read_error)?;
    let fallback = file
        .parent()
        .and_then(Path::file_name)
        .or_else(|| file.file_stem())
        .map_or_else(|| "imported model".to_owned(), |n| n.to_string_lossy().into_owned());
    model_from_config(&text, &fallback, &label).map_err(|error| ImportError::Config { path: label, error })
}

/// Adds `model` to the user catalog folder's `models.ron`, creating the folder and the file
/// when they do not exist, and returns the file and the id the model got. The entry is
/// appended to the file's text, so the entries and comments already there stay as they are; an
/// id already taken gets a numbered suffix (`-2`, `-3` …). The new text is loaded and checked
/// before it is written (atomically, keeping a `.bak`): a file that does not load is left
/// unchanged.
///
/// # Errors
/// The folder or file cannot be read or written, or the existing file does not load.
pub fn store_in_user_catalog(dir: &Path, model: &Model) -> Result<(PathBuf, Model), ImportError> {
    let path = dir.join(MODELS_FILE_NAME);
    let label = path.display().to_string();
    let write_error = |message: String| ImportError::Write { path: label.clone(), message };
    std::fs::create_dir_all(dir).map_err(|e| write_error(e.to_string()))?;
    let existing = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => "[\n]\n".to_owned(),
        Err(e) => return Err(ImportError::Read { path: label, message: e.to_string() }),
    };
    let (current, problems) = Models::from_sources(&[(label.clone(), existing.clone())]);
    if let Some(p) = problems.iter().find(|p| p.is_error()) {
        return Err(ImportError::Catalog { path: label, message: p.to_string() });
    }
    let mut model = model.clone();
    let base = model.id.0.clone();
    let mut n = 2;
    while current.iter().any(|m| m.id == model.id) {
        model.id = ModelId(format!("{base}-{n}"));
        n += 1;
    }
    let entry = ron::ser::to_string_pretty(&model, ron::ser::PrettyConfig::new().indentor("    ".to_owned()))
        .map_err(|e| write_error(e.to_string()))?;
    let trimmed = existing.trim_end();
    let Some(body) = trimmed.strip_suffix(']') else {
        return Err(ImportError::Catalog {
            message: format!("{label}: the file does not end with the `]` of its list"),
            path: label,
        });
    };
    let body = body.trim_end();
    let separator = if body.ends_with('[') || body.ends_with(',') { "" } else { "," };
    let indented: Vec<String> = entry.lines().map(|l| format!("    {l}")).collect();
    let text = format!("{body}{separator}\n{},\n]\n", indented.join("\n"));
    let (_, problems) = Models::from_sources(&[(label.clone(), text.clone())]);
    if let Some(p) = problems.iter().find(|p| p.is_error()) {
        return Err(ImportError::Catalog { path: label, message: p.to_string() });
    }
    crate::core::persist::write_atomic(&path, text.as_bytes(), true).map_err(|e| write_error(e.to_string()))?;
    Ok((path, model))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_note_has_the_same_placeholders_in_both_languages() {
        crate::core::i18n::assert_table_is_translated(super::NOTES);
    }
}
