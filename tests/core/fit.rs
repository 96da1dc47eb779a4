//! The fit matrix on the template builds, the smallest-change search, and `rigplan fit`.

use super::cli::run;
use rigplan::core::analysis::fit::{WorkloadKind, evaluate, suggest};
use rigplan::core::analysis::memory::{Mode, ModelSpec, Verdict, WeightType, Workload};
use rigplan::core::analysis::speed::Topology;
use rigplan::core::analysis::{self, fit::FitMatrix};
use rigplan::core::catalog::Catalog;
use rigplan::core::templates;

fn catalog() -> Catalog {
    Catalog::embedded().expect("embedded catalog")
}

fn matrix_of(slug: &str) -> Vec<FitMatrix> {
    let catalog = catalog();
    let build = templates::find(slug).unwrap_or_else(|| panic!("template {slug}")).load().expect("template loads");
    analysis::analyze(&catalog, &build).fit
}

fn cell<'a>(m: &'a FitMatrix, model: &str, kind: WorkloadKind) -> &'a analysis::fit::FitCell {
    let row = m.rows.iter().find(|r| r.model.as_str() == format!("model/{model}")).unwrap_or_else(|| panic!("{model}"));
    row.cells.iter().find(|c| c.workload == kind).expect("cell")
}

#[test]
fn every_template_with_gpus_gets_a_full_matrix() {
    let models = catalog().models.len();
    for t in &templates::TEMPLATES {
        let fit = matrix_of(t.slug);
        assert!(!fit.is_empty(), "{} has no fit matrix", t.slug);
        for m in &fit {
            assert_eq!(m.rows.len(), models, "{}", t.slug);
            assert!(m.rows.iter().all(|r| r.cells.len() == WorkloadKind::ALL.len()));
            assert!(!m.interconnect.is_empty());
        }
    }
}

#[test]
fn entry_workstation_4090() {
    // One RTX 4090 (24 GiB): Llama 3.1 8B runs in bf16 on one GPU; 70B does not, in bf16 or
    // Q4_K_M (43 GB); GPT-3 never does.
    let fit = matrix_of("entry-workstation");
    let m = fit.first().expect("matrix");
    assert_eq!((m.gpus_per_node, m.nodes), (1, 1));
    let llama8 = cell(m, "meta-llama-3.1-8b", WorkloadKind::InferenceBf16);
    assert_eq!(llama8.verdict, Some(Verdict::Fits));
    assert_eq!(llama8.gpus_used, Some(1));
    assert!(llama8.decode_tokens_per_s.is_some_and(|t| t > 30.0 && t < 70.0));
    for kind in [WorkloadKind::InferenceBf16, WorkloadKind::InferenceQ4km] {
        let c = cell(m, "meta-llama-3.1-70b", kind);
        assert_eq!(c.verdict, Some(Verdict::DoesNotFit));
        assert!(c.note.as_deref().is_some_and(|n| n.contains("needs")), "{c:?}");
    }
    // Workloads that do not apply are marked, not evaluated.
    assert_eq!(cell(m, "resnet-50", WorkloadKind::Lora).verdict, None);
    assert_eq!(cell(m, "google-bert-base", WorkloadKind::InferenceQ4km).verdict, None);
}

#[test]
fn enterprise_h100_node_uses_nvlink_and_tensor_parallelism() {
    let fit = matrix_of("enterprise-8x-h100-hgx");
    let m = fit.first().expect("matrix");
    assert_eq!(m.gpus_per_node, 8);
    assert!(m.interconnect.contains("NVLink"), "{}", m.interconnect);
    // Llama 3.1 70B in bf16 (141 GB) needs two 80 GB GPUs; GPT-3 (349 GB) at least five.
    let llama = cell(m, "meta-llama-3.1-70b", WorkloadKind::InferenceBf16);
    assert_eq!(llama.gpus_used, Some(2));
    let gpt3 = cell(m, "openai-gpt-3-175b", WorkloadKind::InferenceBf16);
    assert!(gpt3.verdict.is_some_and(Verdict::fits));
    assert!(gpt3.gpus_used.is_some_and(|n| n >= 5));
    // Full fine-tuning with ZeRO-3 over 8 GPUs: an 8B model fits (16 B/param × 8B / 8 =
    // 16 GB of states), a 70B model (140 GB of states per GPU) does not.
    assert!(cell(m, "meta-llama-3.1-8b", WorkloadKind::FullFinetune).verdict.is_some_and(Verdict::fits));
    assert_eq!(cell(m, "meta-llama-3.1-70b", WorkloadKind::FullFinetune).verdict, Some(Verdict::DoesNotFit));
}

#[test]
fn matrix_speeds_follow_the_interconnect() {
    // The same model and workload on 2 × H100 PCIe (no bridge in the template) decodes slower
    // than on 2 × H100 SXM over NVLink, and slower with more GPUs than it needs.
    let catalog = catalog();
    let spec = ModelSpec::from_model(catalog.models.get("meta-llama-3.1-70b").expect("model"));
    let sxm = catalog.gpu(&"gpu/nvidia-h100-sxm5-80gb".into()).expect("gpu");
    let pcie = catalog.gpu(&"gpu/nvidia-h100-pcie-80gb".into()).expect("gpu");
    let nv = evaluate(WorkloadKind::InferenceBf16, &spec, sxm, &Topology::new(sxm, 2, 1, false, 0.0));
    let pc = evaluate(WorkloadKind::InferenceBf16, &spec, pcie, &Topology::new(pcie, 2, 1, false, 0.0));
    assert_eq!(nv.gpus_used, Some(2));
    assert_eq!(pc.gpus_used, Some(2));
    assert!(pc.decode_tokens_per_s < nv.decode_tokens_per_s, "{pc:?} vs {nv:?}");
}

#[test]
fn suggestions_find_the_smallest_change() {
    let catalog = catalog();
    let card = catalog.gpu(&"gpu/nvidia-geforce-rtx-3060-12gb".into()).expect("gpu");
    let spec = ModelSpec::from_model(catalog.models.get("google-bert-large").expect("model"));
    let mut w = Workload::defaults(Mode::Train);
    w.weights = WeightType::Fp16;
    w.context = 512;
    w.batch = 8;
    w.flash_attention = false;
    let s = suggest(&spec, &w, 1, card, None);
    let first = s.first().expect("a change fits");
    assert_eq!(first.change, "batch");
    assert!(first.workload.batch < 8 && first.memory_fraction <= 1.0);
    // The batch found is the largest that fits: one more does not.
    let bigger = Workload { batch: first.workload.batch + 1, ..w };
    let e = rigplan::core::analysis::memory::estimate(&spec, &bigger, 1).expect("valid");
    assert!(!rigplan::core::analysis::memory::check_estimate_on(&e, &bigger, card).verdict.fits());
    assert!(s.iter().any(|c| c.change == "recompute"));
    assert!(s.iter().all(|c| c.memory_fraction <= 1.0));

    // Llama 3.1 70B inference on one 4090: no batch or context change is enough. Of the
    // weight types only the 2-bit i-quant is: 70.55B × 2.0625 bits = 18.2 GB of weights
    // (ggml's IQ2_XXS block), which with the KV cache fits 24 GiB; the 3-bit ones do not
    // (IQ3_XXS: 27.0 GB). More GPUs are the other answer.
    let g4090 = catalog.gpu(&"gpu/nvidia-geforce-rtx-4090".into()).expect("gpu");
    let llama = ModelSpec::from_model(catalog.models.get("meta-llama-3.1-70b").expect("model"));
    let s = suggest(&llama, &Workload::defaults(Mode::Inference), 1, g4090, None);
    let weights = s.iter().find(|c| c.change == "weights").expect("a weight type fits");
    assert_eq!(weights.workload.weights, WeightType::Iq2Xxs);
    assert!(s.iter().any(|c| c.change == "tensor-parallel"));
    // On a build of one 4090 more GPUs cannot be had: only a smaller weight type helps.
    let alone = suggest(&llama, &Workload::defaults(Mode::Inference), 1, g4090, Some(1));
    assert!(alone.iter().all(|c| c.change == "weights"), "{:?}", alone.iter().map(|c| c.change).collect::<Vec<_>>());
}

#[test]
fn report_json_has_the_fit_section() {
    let catalog = catalog();
    let build = templates::find("professional-2x-a100").expect("template").load().expect("loads");
    let report = analysis::analyze(&catalog, &build);
    let json = serde_json::to_value(&report).expect("serializes");
    let fit = json["fit"].as_array().expect("fit array");
    let m = fit.first().expect("one matrix");
    assert_eq!(m["gpus_per_node"], 2);
    assert!(m["interconnect"].is_string());
    assert_eq!(m["workloads"].as_array().map(Vec::len), Some(5));
    let row = &m["rows"][0];
    assert!(row["model"].is_string() && row["cells"][0]["verdict"].is_string());
}

#[test]
fn fit_cli_json_fields() {
    let (code, out, err) = run(&["fit", "--model", "meta-llama-3.1-8b", "--gpu", "nvidia-geforce-rtx-4090", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    for field in [
        "weights_bytes",
        "gradients_bytes",
        "optimizer_bytes",
        "activations_bytes",
        "kv_cache_bytes",
        "overhead_bytes",
        "total_bytes",
    ] {
        assert!(v["per_gpu"].get(field).is_some(), "per_gpu.{field}");
    }
    for field in [
        "host_bytes",
        "gpu_memory_bytes",
        "fits",
        "memory_fraction",
        "kv_cache_bytes_per_token",
        "decode_tokens_per_s",
        "prefill_tokens_per_s",
        "train_flops",
        "train_tokens_per_s",
        "train_hours",
        "gpu_hours",
    ] {
        assert!(v.get(field).is_some(), "{field}");
    }
    assert_eq!(v["per_gpu"]["weights_bytes"], 16_060_522_496u64);
    assert_eq!(v["kv_cache_bytes_per_token"], 131_072);
    assert_eq!(v["fits"], true);
    assert!(v["gradients_bytes"].is_null() && v["per_gpu"]["gradients_bytes"].is_null());
    assert!(v["train_tokens_per_s"].is_null());
    assert!(v["decode_tokens_per_s"].as_f64().is_some_and(|t| t > 0.0));
}

#[test]
fn fit_cli_params_only_gives_model_states() {
    let (code, out, err) = run(&["fit", "--params", "7e9", "--mode", "train", "--tokens", "1T", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["per_gpu"]["weights_bytes"], 14_000_000_000u64);
    assert_eq!(v["per_gpu"]["optimizer_bytes"], 84_000_000_000u64);
    assert!(v["per_gpu"]["activations_bytes"].is_null());
    assert!(v["per_gpu"]["kv_cache_bytes"].is_null());
    assert!(v["fits"].is_null() && v["gpu_memory_bytes"].is_null());
    // 6 × 7e9 × 1e12.
    assert_eq!(v["train_flops"].as_f64(), Some(4.2e22));
}

#[test]
fn fit_cli_exit_codes() {
    // Does not fit: exit 1 with the smallest change in the output.
    let (code, out, _) = run(&["fit", "--model", "openai-gpt-3-175b", "--gpu", "nvidia-h100-sxm5-80gb"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("does not fit") && out.contains("Smallest change"), "{out}");
    // Fits with tensor parallelism on 8 GPUs.
    let (code, out, _) =
        run(&["fit", "--model", "openai-gpt-3-175b", "--gpu", "nvidia-h100-sxm5-80gb", "--gpus", "8", "--tp", "8"]);
    assert_eq!(code, 0, "{out}");
    // Bad input: exit 2 with a message that says what is wrong.
    let (code, _, err) = run(&["fit", "--model", "no-such-model"]);
    assert_eq!(code, 2);
    assert!(err.contains("no-such-model") && err.contains("known models"), "{err}");
    let (code, _, err) = run(&["fit", "--params", "7e9", "--layers", "32"]);
    assert_eq!(code, 2);
    assert!(err.contains("--hidden"), "{err}");
    let (code, _, err) =
        run(&["fit", "--model", "meta-llama-3.1-8b", "--gpu", "nvidia-geforce-rtx-4090", "--gpus", "3", "--tp", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("does not divide"), "{err}");
    let (code, _, _) = run(&["fit", "--model", "meta-llama-3.1-8b", "--weights", "q5"]);
    assert_eq!(code, 2);
}

#[test]
fn fit_cli_with_a_build_and_a_custom_architecture() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("h100.ron");
    let text = templates::find("enterprise-8x-h100-hgx").expect("template").text;
    std::fs::write(&path, text).expect("write");
    let (code, out, err) = run(&[
        "fit",
        "--model",
        "meta-llama-3.1-70b",
        "--build",
        path.to_str().expect("utf-8"),
        "--mode",
        "train",
        "--zero",
        "3",
        "--recompute",
        "full",
        "--tokens",
        "1e9",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    assert_eq!(v["gpus"], 8);
    assert!(v["interconnect"].as_str().is_some_and(|s| s.contains("NVLink")));
    // Speed figures only for a configuration that fits.
    assert_eq!(v["gpu_hours"].as_f64().is_some_and(|h| h > 0.0), v["fits"] == true);
    assert_eq!(code, u8::from(v["fits"] != true));
    // A custom GQA architecture gets a KV cache from its KV heads.
    let (code, out, err) = run(&[
        "fit",
        "--params",
        "8e9",
        "--layers",
        "32",
        "--hidden",
        "4096",
        "--heads",
        "32",
        "--kv-heads",
        "8",
        "--ffn",
        "14336",
        "--vocab",
        "128256",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["kv_cache_bytes_per_token"], 131_072);
}

/// `--gpus N` with `--build`: the workload runs on N of the build's GPUs (the advisor's
/// inference layouts that leave a GPU idle print it). One of the two A100s of the
/// professional template needs what one A100 alone needs; more GPUs than the build has is an
/// error that names the count.
#[test]
fn build_with_fewer_gpus_uses_that_many() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/catalog/builds/professional-2x-a100.ron");
    let args = ["--model", "meta-llama-3.1-8b", "--mode", "inference", "--batch", "4", "--json"];
    let mut on_build = vec!["fit", "--build", file, "--gpus", "1"];
    on_build.extend(args);
    let (code, out, err) = run(&on_build);
    assert_eq!(code, 0, "{err}");
    let mut alone = vec!["fit", "--gpu", "nvidia-a100-pcie-80gb", "--gpus", "1"];
    alone.extend(args);
    let (code, single, err) = run(&alone);
    assert_eq!(code, 0, "{err}");
    let a: serde_json::Value = serde_json::from_str(&out).unwrap();
    let b: serde_json::Value = serde_json::from_str(&single).unwrap();
    assert_eq!(a["per_gpu"]["total_bytes"], b["per_gpu"]["total_bytes"]);
    let mut too_many = vec!["fit", "--build", file, "--gpus", "3"];
    too_many.extend(args);
    let (code, _, err) = run(&too_many);
    assert_eq!(code, 2);
    assert!(err.contains("has 2 GPU(s)"), "{err}");
}

/// Runs `rigplan fit` with `args` and the `--json` flag; returns (exit code, JSON).
fn fit_json(args: &[&str]) -> (u8, serde_json::Value) {
    let mut all = vec!["fit"];
    all.extend_from_slice(args);
    all.push("--json");
    let (code, out, err) = run(&all);
    assert!(code != 2, "{args:?}: {err}");
    (code, serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}: {out}")))
}

#[test]
fn every_suggestion_runs_as_given() {
    // The case: "--tp 2" failed when run without "--gpus 2". Each suggestion's flags,
    // appended to the command, must run and fit; with a build, no suggestion needs more GPUs
    // than it has.
    let h100_template = template_path_of("enterprise-8x-h100-hgx");
    let cases: Vec<Vec<&str>> = vec![
        vec!["--model", "meta-llama-3.1-70b", "--gpu", "nvidia-h100-sxm5-80gb"],
        vec![
            "--model",
            "meta-llama-3.1-70b",
            "--gpu",
            "nvidia-h100-sxm5-80gb",
            "--weights",
            "bf16",
            "--engine",
            "vllm",
        ],
        vec!["--model", "meta-llama-3.1-8b", "--mode", "lora", "--weights", "bf16", "--gpu", "nvidia-geforce-rtx-4090"],
        vec!["--model", "meta-llama-3.1-8b", "--mode", "train", "--gpu", "nvidia-a100-sxm4-80gb", "--tp", "1"],
        vec!["--model", "openai-gpt-3-175b", "--build", &h100_template, "--gpus", "4", "--tp", "4"],
    ];
    let mut checked = 0;
    for base in &cases {
        let (code, v) = fit_json(base);
        assert_eq!(code, 1, "{base:?} should not fit");
        let suggestions = v["suggestions"].as_array().expect("suggestions");
        assert!(!suggestions.is_empty(), "{base:?}");
        for s in suggestions {
            let flags = s["flags"].as_str().expect("flags");
            let mut args: Vec<&str> = base.clone();
            args.extend(flags.split_whitespace());
            let (code, after) = fit_json(&args);
            assert_eq!(code, 0, "{args:?} ({}) does not fit: {}", s["change"], after["verdict"]);
            if base.contains(&"--build") {
                assert!(after["gpus"].as_u64().is_some_and(|g| g <= 8), "{args:?}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked}");
}

fn template_path_of(slug: &str) -> String {
    format!("{}/catalog/builds/{slug}.ron", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_misfit_has_no_speed_figures() {
    let (code, v) = fit_json(&["--model", "meta-llama-3.1-70b", "--gpu", "nvidia-geforce-rtx-4090"]);
    assert_eq!(code, 1);
    for field in ["decode_tokens_per_s", "prefill_tokens_per_s", "serving"] {
        assert!(v[field].is_null(), "{field}: {}", v[field]);
    }
    let (_, out, _) =
        run(&["fit", "--model", "meta-llama-3.1-70b", "--gpu", "nvidia-geforce-rtx-4090", "--lang", "en"]);
    assert!(!out.contains("Decode:") && out.contains("No speed figures"), "{out}");
}

#[test]
fn fit_cli_serving_figures() {
    // Llama 3.1 8B bf16 on one H100 with vLLM: the KV budget is 90 % of 80 GiB less the
    // weights (14.96 GiB), activations and the 1.76 GiB of CUDA context and graphs; at 128 KiB
    // per token a replica holds about 440,000 tokens, 107 sequences of 4096.
    let (code, v) = fit_json(&[
        "--model",
        "meta-llama-3.1-8b",
        "--gpu",
        "nvidia-h100-sxm5-80gb",
        "--users",
        "32",
        "--tokens-per-user",
        "30",
        "--prompt",
        "1000",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["engine"], "vllm");
    let s = &v["serving"];
    let budget = s["kv_budget_bytes"].as_f64().expect("budget");
    let per_gpu = v["per_gpu"].clone();
    let fixed =
        per_gpu["total_bytes"].as_f64().unwrap_or_default() - per_gpu["kv_cache_bytes"].as_f64().unwrap_or_default();
    assert!((budget - (0.9 * 80.0 * 1_073_741_824.0 - fixed)).abs() < 2.0, "{budget}");
    let tokens = s["kv_capacity_tokens"].as_f64().expect("tokens");
    assert!((tokens - budget / 131_072.0).abs() <= 1.0, "{tokens}");
    assert_eq!(s["max_concurrency_per_replica"].as_f64(), Some((tokens / 4096.0).floor()));
    assert_eq!(s["prompt_tokens"], 1000);
    assert!(s["ttft_s"].as_f64().is_some_and(|t| t > 0.0 && t < 1.0));
    // Per-user speed falls with the batch, the aggregate rises.
    let one = &s["single"];
    let asked = &s["requested"];
    assert_eq!(asked["users"], 32);
    assert!(asked["per_user_tokens_per_s"].as_f64() < one["per_user_tokens_per_s"].as_f64());
    assert!(asked["aggregate_tokens_per_s"].as_f64() > one["aggregate_tokens_per_s"].as_f64());
    // Users at 30 tokens/s each: more than one, at most the KV capacity.
    let at_target = s["users_at_target"].as_u64().expect("users at target");
    assert!(at_target > 1 && at_target <= s["max_concurrency_per_replica"].as_u64().unwrap_or(0));
    // Energy: board power below TDP under decode, joules per token at that power.
    let e = &one["energy"];
    assert!(e["gpu_watts"].as_f64().is_some_and(|w| w < 700.0 && w > 70.0));
    let jpt = e["gpu_watts"].as_f64().unwrap_or(0.0) / one["aggregate_tokens_per_s"].as_f64().unwrap_or(1.0);
    assert!((e["joules_per_token"].as_f64().unwrap_or(0.0) - jpt).abs() < 1e-9);
    // A smaller engine budget holds fewer sequences: llama.cpp may use it all.
    let (_, cpp) =
        fit_json(&["--model", "meta-llama-3.1-8b", "--gpu", "nvidia-h100-sxm5-80gb", "--engine", "llama.cpp"]);
    assert!(cpp["serving"]["max_concurrency_per_replica"].as_u64() > s["max_concurrency_per_replica"].as_u64());
    // Serving flags are for inference; zero users is bad input.
    for bad in [
        vec!["fit", "--model", "meta-llama-3.1-8b", "--mode", "train", "--users", "4"],
        vec!["fit", "--model", "meta-llama-3.1-8b", "--users", "0"],
        vec!["fit", "--model", "meta-llama-3.1-8b", "--tokens-per-user", "-3"],
    ] {
        assert_eq!(run(&bad).0, 2, "{bad:?}");
    }
}

#[test]
fn fit_cli_energy_and_images() {
    // Training energy: GPU-hours × board power (Touvron et al. 2023 Table 2's accounting).
    let (_, v) = fit_json(&[
        "--model",
        "meta-llama-3.1-8b",
        "--mode",
        "train",
        "--gpu",
        "nvidia-h100-sxm5-80gb",
        "--gpus",
        "8",
        "--zero",
        "3",
        "--tokens",
        "1T",
    ]);
    let hours = v["gpu_hours"].as_f64().expect("GPU-hours");
    assert!((v["train_energy_mwh"].as_f64().unwrap_or(0.0) - hours * 700.0 / 1.0e6).abs() < 1e-6);
    // Diffusion: images per minute at 50 steps, not UNet passes per second.
    let (_, v) = fit_json(&["--model", "stable-diffusion-1.5", "--gpu", "nvidia-a100-sxm4-80gb", "--gpus", "8"]);
    assert!(v["samples_per_s"].is_null());
    assert_eq!(v["denoising_steps"], 50);
    let per_minute = v["images_per_minute"].as_f64().expect("images per minute");
    let seconds = v["seconds_per_image"].as_f64().expect("seconds per image");
    assert!((per_minute - 8.0 * 60.0 / seconds).abs() < 1e-9);
}
