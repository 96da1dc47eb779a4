//! Validation of model entries: ids, text fields, dimension ranges and consistency, and the
//! computed parameter count against the published total.

use super::super::validate::{MAX_NAME_CHARS, MAX_TEXT_CHARS, text_too_long};
use super::super::{CatalogProblem, Origin, ProblemSeverity};
use super::{
    Architecture, MAX_ACTIVATION_BYTES_PER_SAMPLE, MAX_EXPERTS, MAX_FLOPS_PER_SAMPLE, MAX_HEAD_DIM, MAX_PARAMS,
    MIN_FLOPS_PER_SAMPLE, MIN_PARAMS, MODEL_ID_PREFIX, MODELS_FILE_NAME, Model, ModelId, PARAM_CHECK_TOLERANCE, Role,
    Transformer,
};
use crate::core::units::format_number;
use std::fmt;

fn problem(
    severity: ProblemSeverity,
    origin: Option<&Origin>,
    id: &ModelId,
    message: impl fmt::Display,
) -> CatalogProblem {
    CatalogProblem {
        severity,
        file: origin.map_or_else(|| format!("catalog/{MODELS_FILE_NAME}"), |o| o.file.clone()),
        line: origin.map(|o| o.line),
        col: origin.map(|o| o.col),
        message: format!("{id}: {message}"),
    }
}

/// Checks one model: id, text fields, dimension ranges and consistency, and the computed
/// parameter count against the published total.
pub(super) fn validate(model: &Model, origin: Option<&Origin>) -> Vec<CatalogProblem> {
    let mut out = Vec::new();
    let mut error = |message: String| out.push(problem(ProblemSeverity::Error, origin, &model.id, message));
    let slug_ok = model.id.0.strip_prefix(MODEL_ID_PREFIX).is_some_and(|slug| {
        !slug.is_empty()
            && slug.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '_'))
    });
    if !slug_ok {
        error(format!("id must be `{MODEL_ID_PREFIX}` followed by a slug of a-z, 0-9, '-', '.', '_'"));
    }
    for (field, value) in [("name", &model.name), ("vendor", &model.vendor), ("source", &model.source)] {
        if value.trim().is_empty() {
            error(format!("{field} is empty"));
        }
    }
    for (field, value, max) in [
        ("id", model.id.as_str(), MAX_NAME_CHARS),
        ("name", &model.name, MAX_NAME_CHARS),
        ("vendor", &model.vendor, MAX_NAME_CHARS),
        ("source", &model.source, MAX_TEXT_CHARS),
    ] {
        if let Some(message) = text_too_long(field, value, max) {
            error(message);
        }
    }
    if !(MIN_PARAMS..=MAX_PARAMS).contains(&model.published_params) {
        error(format!("published_params = {} is outside 1e5–1e14", format_number(model.published_params)));
    }
    if let Some(active) = model.published_active_params
        && !(MIN_PARAMS..=model.published_params.max(MIN_PARAMS)).contains(&active)
    {
        error(format!("published_active_params = {} is outside 1e5–published_params", format_number(active)));
    }
    match &model.architecture {
        Architecture::Transformer(t) => validate_transformer(t, &mut error),
        Architecture::Measured(m) => {
            #[expect(clippy::cast_precision_loss, reason = "compared with a bound of 1e14, far below 2^53")]
            let params = m.params as f64;
            if !(MIN_PARAMS..=MAX_PARAMS).contains(&params) {
                error(format!("params = {} is outside 1e5–1e14", m.params));
            }
            if !(MIN_FLOPS_PER_SAMPLE..=MAX_FLOPS_PER_SAMPLE).contains(&m.forward_flops_per_sample) {
                error(format!(
                    "forward_flops_per_sample = {} is outside 1e6–1e18",
                    format_number(m.forward_flops_per_sample)
                ));
            }
            for (field, bytes) in [
                ("train_activation_bytes_per_sample", m.train_activation_bytes_per_sample),
                ("inference_activation_bytes_per_sample", m.inference_activation_bytes_per_sample),
            ] {
                if bytes == 0 || bytes > MAX_ACTIVATION_BYTES_PER_SAMPLE {
                    error(format!("{field} = {bytes} is outside 1–{MAX_ACTIVATION_BYTES_PER_SAMPLE}"));
                }
            }
            for (field, value) in [("sample", &m.sample), ("figures_source", &m.figures_source)] {
                if let Some(message) = text_too_long(field, value, MAX_TEXT_CHARS) {
                    error(message);
                }
            }
            if m.sample.trim().is_empty() || m.figures_source.trim().is_empty() {
                error(
                    "sample and figures_source must say what the figures are for and where they come from".to_owned(),
                );
            }
        }
    }
    if out.is_empty() && model.total_params() as f64 > MAX_PARAMS {
        out.push(problem(
            ProblemSeverity::Error,
            origin,
            &model.id,
            format!(
                "the dimensions give {} parameters, above the limit of 1e14; check the dimensions",
                format_number(model.total_params() as f64)
            ),
        ));
    }
    if out.is_empty() {
        let computed = model.total_params() as f64;
        let published = model.published_params;
        let off = (computed - published).abs() / published;
        if off > PARAM_CHECK_TOLERANCE {
            out.push(problem(
                ProblemSeverity::Warning,
                origin,
                &model.id,
                format!(
                    "computed parameter count {computed:.4e} differs from published_params {published:.4e} by {:.1} %; check the dimensions",
                    off * 100.0
                ),
            ));
        }
        if let (Some(published_active), Architecture::Transformer(t)) =
            (model.published_active_params, &model.architecture)
        {
            let active = t.active_params() as f64;
            let off = active_count_offset(t, published_active);
            if off > PARAM_CHECK_TOLERANCE * 2.0 {
                out.push(problem(
                    ProblemSeverity::Warning,
                    origin,
                    &model.id,
                    format!(
                        "computed active parameters {active:.4e} differ from published_active_params {published_active:.4e} by {:.1} %",
                        off * 100.0
                    ),
                ));
            }
        }
    }
    out
}

/// Relative difference between a transformer's active parameters and a published active
/// count, under the convention closest to it: publishers differ on whether embeddings count as
/// active. DeepSeek-V3's 37B counts both matrices, OpenAI's 5.13B for gpt-oss-120b leaves the
/// output projection out (model card, arXiv 2508.10925, Table 1), Zhipu's 32B for GLM-4.5
/// leaves out both.
#[must_use]
pub fn active_count_offset(t: &Transformer, published_active: f64) -> f64 {
    let active = t.active_params();
    let h = u64::from(t.hidden);
    let table = u64::from(t.vocab).saturating_mul(h);
    let output = if t.tied_embeddings { 0 } else { table };
    [active, active.saturating_sub(output), active.saturating_sub(output).saturating_sub(table)]
        .into_iter()
        .map(|count| (count as f64 - published_active).abs() / published_active)
        .fold(f64::INFINITY, f64::min)
}

pub(super) fn validate_transformer(t: &Transformer, error: &mut impl FnMut(String)) {
    // Loose bounds on every dimension, far past any published model (DeepSeek-V3: 61 layers,
    // 7,168 hidden, 128 heads, 256 routed experts; Llama 3.1 405B: 16,384 hidden, 53,248 FFN),
    // so that a mistyped digit string is refused and the counts stay within range.
    let mut ranges: Vec<(&str, u32, u32, u32)> = vec![
        ("layers", t.layers, 1, 1_000),
        ("hidden", t.hidden, 8, 200_000),
        ("heads", t.heads, 1, 1_024),
        ("ffn", t.ffn, 1, 1_000_000),
        ("max_context", t.max_context, 1, 100_000_000),
    ];
    if let Some(d) = t.head_dim {
        ranges.push(("head_dim", d, 1, MAX_HEAD_DIM));
    }
    if let Some(m) = t.moe {
        ranges.extend([
            ("moe.experts", m.experts, 1, MAX_EXPERTS),
            ("moe.shared_experts", m.shared_experts, 0, MAX_EXPERTS),
            ("moe.expert_ffn", m.expert_ffn, 1, 1_000_000),
        ]);
    }
    if let Some(m) = t.mla {
        ranges.extend([
            ("mla.kv_lora_rank", m.kv_lora_rank, 1, 200_000),
            ("mla.qk_nope_head_dim", m.qk_nope_head_dim, 1, MAX_HEAD_DIM),
            ("mla.rope_head_dim", m.rope_head_dim, 0, MAX_HEAD_DIM),
            ("mla.v_head_dim", m.v_head_dim, 1, MAX_HEAD_DIM),
        ]);
        if let Some(r) = m.q_lora_rank {
            ranges.push(("mla.q_lora_rank", r, 1, 200_000));
        }
    }
    for (field, value, min, max) in ranges {
        if value < min || value > max {
            error(format!("{field} = {value} is outside {min}–{max}"));
        }
    }
    #[expect(clippy::cast_precision_loss, reason = "compared with a bound of 1e14, far below 2^53")]
    let extra = t.extra_params as f64;
    if extra > MAX_PARAMS {
        error(format!("extra_params = {} is above 1e14", t.extra_params));
    }
    if t.vocab > 10_000_000 {
        error(format!("vocab = {} is above 10,000,000", t.vocab));
    }
    let k = t.kv_heads();
    if k == 0 || k > t.heads || !t.heads.is_multiple_of(k) {
        error(format!("kv_heads = {k} must divide heads = {}", t.heads));
    }
    if t.head_dim.is_none() && t.mla.is_none() && t.heads > 0 && !t.hidden.is_multiple_of(t.heads) {
        error(format!("hidden {} is not a multiple of heads {}; set head_dim", t.hidden, t.heads));
    }
    if t.head_dim == Some(0) {
        error("head_dim must be positive".to_owned());
    }
    if let Some(w) = t.sliding_window
        && (w == 0 || w > t.max_context)
    {
        error(format!("sliding_window = {w} must be within 1–max_context"));
    }
    if let Some(n) = t.attention_layers
        && (n == 0 || n > t.layers)
    {
        error(format!("attention_layers = {n} must be within 1–layers"));
    }
    let attention_layers = t.attention_layer_count();
    if let Some(n) = t.sliding_layers {
        if t.sliding_window.is_none() {
            error(format!("sliding_layers = {n} needs sliding_window"));
        } else if n == 0 || u64::from(n) > attention_layers {
            error(format!("sliding_layers = {n} must be within 1–{attention_layers} (the attention layers)"));
        }
    }
    if let Some(total) = t.kv_heads_total {
        let most = u64::from(t.heads).saturating_mul(attention_layers);
        if t.mla.is_some() {
            error("kv_heads_total does not apply to MLA (its latent serves every head)".to_owned());
        } else if u64::from(total) < attention_layers || u64::from(total) > most {
            error(format!(
                "kv_heads_total = {total} must be within {attention_layers}–{most} (1 to heads KV heads in each of the {attention_layers} attention layers)"
            ));
        }
    }
    if let Some(m) = t.moe {
        if m.experts == 0 || m.active_experts == 0 || m.active_experts > m.experts {
            error(format!("moe: active_experts {} must be within 1–experts {}", m.active_experts, m.experts));
        }
        if m.expert_ffn == 0 || m.dense_layers >= t.layers {
            error("moe: expert_ffn must be positive and dense_layers below layers".to_owned());
        }
    }
    if let Some(m) = t.mla
        && (m.kv_lora_rank == 0 || m.qk_nope_head_dim == 0 || m.v_head_dim == 0 || m.q_lora_rank == Some(0))
    {
        error("mla: ranks and head dims must be positive".to_owned());
    }
    if t.role == Role::Encoder && t.moe.is_some() {
        error("encoder models with experts are not supported".to_owned());
    }
}
