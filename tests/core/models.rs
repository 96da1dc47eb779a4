//! The model catalog: the shipped entries load cleanly, computed parameter counts match the
//! published totals, and a user folder's models.ron overlays the embedded one.

use rigplan::core::catalog::{Catalog, Models, PARAM_CHECK_TOLERANCE};

fn models() -> Models {
    let (models, problems) = Models::embedded();
    assert!(problems.is_empty(), "the shipped models.ron has problems:\n{problems:#?}");
    models
}

fn total(models: &Models, id: &str) -> u64 {
    models.get(id).unwrap_or_else(|| panic!("{id} in the catalog")).total_params()
}

fn within(actual: f64, expected: f64, tolerance: f64) -> bool {
    (actual - expected).abs() <= tolerance * expected
}

#[test]
fn shipped_models_validate_without_errors_or_warnings() {
    let models = models();
    assert!(models.len() >= 30, "{} models", models.len());
    let catalog = Catalog::embedded().expect("embedded catalog");
    assert_eq!(catalog.models.len(), models.len());
}

#[test]
fn the_issue_list_is_present() {
    let models = models();
    for id in [
        "meta-llama-2-7b",
        "meta-llama-2-13b",
        "meta-llama-2-70b",
        "meta-llama-3.1-8b",
        "meta-llama-3.1-70b",
        "meta-llama-3.1-405b",
        "qwen2.5-7b",
        "qwen2.5-14b",
        "qwen2.5-32b",
        "qwen2.5-72b",
        "qwen3-32b",
        "mistral-7b-v0.1",
        "mixtral-8x7b-v0.1",
        "deepseek-v3",
        "openai-gpt-3-175b",
        "openai-gpt-2",
        "google-bert-base",
        "google-bert-large",
        "google-vit-b-16",
        "google-vit-l-16",
        "resnet-50",
        "resnet-152",
        "ultralytics-yolov5s",
        "stable-diffusion-1.5",
        "stable-diffusion-2.1",
        "stable-diffusion-xl-1.0",
        "openai-whisper-tiny",
        "openai-whisper-base",
        "openai-whisper-small",
        "openai-whisper-medium",
        "openai-whisper-large",
    ] {
        assert!(models.get(id).is_some(), "{id} missing");
    }
    // Qwen3 sets its head dim apart from hidden / heads (5120 / 64 = 80 ≠ 128).
    let qwen3 = models.get("qwen3-32b").and_then(|m| m.transformer().copied()).expect("transformer");
    assert_eq!(qwen3.head_dim, Some(128));
    assert_ne!(u64::from(qwen3.hidden / qwen3.heads), qwen3.qk_head_dim());
}

#[test]
fn computed_counts_match_published_totals() {
    let models = models();
    // Llama 3.1 8B: 8.03B (model card); exact count of the checkpoint 8,030,261,248.
    assert_eq!(total(&models, "meta-llama-3.1-8b"), 8_030_261_248);
    // Llama 3.1 70B ≈ 70.6B (model card), 405B (model card).
    assert!(within(total(&models, "meta-llama-3.1-70b") as f64, 70.6e9, 0.002));
    assert!(within(total(&models, "meta-llama-3.1-405b") as f64, 405.0e9, 0.005));
    // Qwen2.5-32B: a stored parameter-count test of its config.json expects 32,763,876,352.
    assert_eq!(total(&models, "qwen2.5-32b"), 32_763_876_352);
    // Qwen3-32B: model card 32.8B total, 31.2B non-embedding.
    let qwen3 = models.get("qwen3-32b").expect("qwen3");
    let t = qwen3.transformer().expect("transformer");
    assert!(within(qwen3.total_params() as f64, 32.8e9, 0.003));
    assert!(within((qwen3.total_params() - t.embedding_params()) as f64, 31.2e9, 0.003));
    // GPT-3: 175B (Brown et al. 2020 Table 2.1); the architecture counts 174.6B.
    assert!(within(total(&models, "openai-gpt-3-175b") as f64, 175.0e9, 0.003));
    // BERT-base: Hugging Face bert-base-uncased has 109,482,240 parameters (with pooler).
    assert_eq!(total(&models, "google-bert-base"), 109_482_240);
    // ViT-B/16: timm vit_base_patch16_224 reports 86.57M (86,567,656).
    assert_eq!(total(&models, "google-vit-b-16"), 86_567_656);
    // LLaMA 65B: 65.2B (Touvron et al. 2023 Table 2).
    assert!(within(total(&models, "meta-llama-65b") as f64, 65.2e9, 0.003));
}

#[test]
fn moe_totals_and_active_parameters() {
    let models = models();
    // DeepSeek-V3: 671B total, 37B activated per token (technical report, arXiv 2412.19437).
    let ds = models.get("deepseek-v3").expect("deepseek");
    assert!(within(ds.total_params() as f64, 671.0e9, 0.001), "{}", ds.total_params());
    assert!(within(ds.active_params() as f64, 37.0e9, 0.02), "{}", ds.active_params());
    // Mixtral 8x7B: 46.7B total, 12.9B active (Mistral AI release).
    let mx = models.get("mixtral-8x7b-v0.1").expect("mixtral");
    assert!(within(mx.total_params() as f64, 46.7e9, 0.002));
    assert!(within(mx.active_params() as f64, 12.9e9, 0.002));
    // Dense models: active = total.
    let llama = models.get("meta-llama-2-7b").expect("llama");
    assert_eq!(llama.total_params(), llama.active_params());
}

#[test]
fn every_transformer_is_within_the_check_tolerance() {
    for model in models().iter() {
        if model.transformer().is_some() {
            let off = (model.total_params() as f64 - model.published_params).abs() / model.published_params;
            assert!(off <= PARAM_CHECK_TOLERANCE, "{}: {:.2} % off", model.id, off * 100.0);
        }
    }
}

#[test]
fn user_models_file_overrides_by_id_and_extends() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = r#"[
    (
        id: "model/meta-llama-3.1-8b",
        name: "Llama 3.1 8B (local copy)",
        vendor: "Meta",
        task: TextGeneration,
        published_params: 8.03e9,
        source: "test override",
        architecture: Transformer((
            role: Decoder, layers: 32, hidden: 4096, heads: 32, kv_heads: 8, ffn: 14336, ffn_kind: Gated,
            vocab: 128256, max_context: 8192, tied_embeddings: false, norm: RmsNorm,
        )),
    ),
    (
        id: "model/my-cnn",
        name: "My CNN",
        vendor: "Me",
        task: ImageClassification,
        published_params: 1.0e6,
        source: "test",
        architecture: Measured((
            params: 1000000, sample: "64×64 image", forward_flops_per_sample: 1.0e8,
            train_activation_bytes_per_sample: 1000000, inference_activation_bytes_per_sample: 100000,
            figures_source: "test",
        )),
    ),
]"#;
    std::fs::write(dir.path().join("models.ron"), text).expect("write");
    let catalog = Catalog::load_with_overlay(dir.path()).expect("overlay loads");
    let base = Models::embedded().0.len();
    assert_eq!(catalog.models.len(), base + 1);
    let llama = catalog.models.get("meta-llama-3.1-8b").expect("overridden");
    assert_eq!(llama.name, "Llama 3.1 8B (local copy)");
    assert_eq!(llama.transformer().map(|t| t.max_context), Some(8192));
    assert!(catalog.models.get("my-cnn").is_some());
}

#[test]
fn broken_user_models_file_is_reported_with_location() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("models.ron"),
        "[\n  (\n    id: \"model/x\",\n    name: \"X\",\n    vendor: \"Y\",\n    task: Painting,\n  ),\n]\n",
    )
    .expect("write");
    let (code, out, _) = super::cli::run(&["catalog", "validate", dir.path().to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{out}");
    let expected = format!("{}:6:", dir.path().join("models.ron").display());
    assert!(out.contains(&expected), "expected {expected} in:\n{out}");
}
