//! `rigplan validate` run in-process: the built-in reference set passes with at least 60
//! measurements in every class, a user's own set with a wrong measurement fails its class
//! (exit 1) and names the source, a malformed file says where (exit 2), the JSON's shape, the
//! Chinese text, and control characters from a user's file neutralised.

use crate::cli::run;

/// One measurement in the reference format: Llama 2 7B F16 on an RTX 4090 with llama.cpp,
/// 60.78 tokens/s (XiongjieDai/GPU-Benchmarks-on-LLM-Inference, the built-in
/// `llamacpp-llama2-7b-f16-4090`), with the figure given as `measured` and `what` as given.
fn user_set(measured: f64, what: &str) -> String {
    format!(
        r#"[
    (
        id: "my-4090",
        class: Decode,
        what: "{what}",
        setup: Run((model: "meta-llama-2-7b", gpu: "gpu/nvidia-geforce-rtx-4090", mode: "inference", weights: "fp16", engine: "llama.cpp", context: 1024)),
        metric: DecodeTokensPerS,
        measured: {measured:?},
        tolerance: 0.15,
        source: "my own run: llama-bench on my desktop, 2026-12-01",
    ),
]
"#
    )
}

fn write(dir: &tempfile::TempDir, text: &str) -> String {
    let path = dir.path().join("mine.ron");
    std::fs::write(&path, text).expect("write the reference file");
    path.to_str().expect("utf-8 path").to_owned()
}

#[test]
fn the_built_in_set_passes_with_every_class_present() {
    let (code, out, err) = run(&["validate", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["reference"], "built-in");
    assert_eq!(v["passes"], true);
    let outcomes = v["outcomes"].as_array().expect("outcomes");
    assert!(outcomes.len() >= 60, "{} measurements", outcomes.len());
    assert_eq!(v["measurements"].as_u64(), Some(outcomes.len() as u64));
    for o in outcomes {
        for field in ["id", "class", "what", "metric", "unit", "source"] {
            assert!(o[field].is_string(), "{field} of {o}");
        }
        for field in ["measured", "estimated", "error", "tolerance"] {
            assert!(o[field].is_f64(), "{field} of {o}");
        }
        let (measured, estimated) = (o["measured"].as_f64().unwrap(), o["estimated"].as_f64().unwrap());
        let error = o["error"].as_f64().unwrap();
        assert!((error - (estimated - measured) / measured).abs() < 1e-9, "{o}");
        assert_eq!(o["holds"], error.abs() <= o["tolerance"].as_f64().unwrap(), "{o}");
    }
    let classes: Vec<&str> =
        v["classes"].as_array().expect("classes").iter().map(|c| c["class"].as_str().unwrap()).collect();
    assert_eq!(classes, ["memory", "decode", "prefill", "serving", "training", "power", "images"]);
    let counted: u64 = v["classes"].as_array().unwrap().iter().map(|c| c["count"].as_u64().unwrap()).sum();
    assert_eq!(counted, outcomes.len() as u64);
    let decode = &v["classes"][1];
    let n = outcomes.iter().filter(|o| o["class"] == "decode").count();
    assert_eq!(decode["count"].as_u64(), Some(n as u64));
    assert!(decode["summary"].as_str().unwrap().starts_with("Decode speed: mean error "), "{decode}");
    assert!(decode["summary"].as_str().unwrap().contains(&format!("over {n} measurements")), "{decode}");
    assert_eq!(decode["threshold"].as_f64(), Some(0.20));
    assert!(v["errors"].as_array().unwrap().is_empty());
}

#[test]
fn the_text_lists_every_measurement_and_each_class() {
    let (code, out, _) = run(&["validate", "--lang", "en"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("llamacpp-llama2-7b-f16-4090"), "{out}");
    assert!(out.contains("dgx-h100-max-power"), "{out}");
    assert!(out.contains("Summary per class"), "{out}");
    for name in ["Memory and file sizes", "Decode speed", "Prefill speed", "Training", "Power"] {
        assert!(out.lines().any(|l| l.starts_with(name) && l.ends_with("pass")), "{name} in\n{out}");
    }
    assert!(out.contains("Every class is within its threshold."), "{out}");
}

#[test]
fn one_class_only() {
    let (code, out, _) = run(&["validate", "--class", "power", "--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert!(v["outcomes"].as_array().unwrap().iter().all(|o| o["class"] == "power"));
    assert_eq!(v["classes"].as_array().unwrap().len(), 1);
}

/// Measured 60.78 tokens/s; rigplan estimates about 57 (the built-in entry's -6 %). Claimed
/// as 120 tokens/s the estimate is about 52 % low, outside the 15 % tolerance: the class fails
/// and the source is printed.
#[test]
fn a_users_wrong_measurement_fails_its_class_with_exit_1() {
    let dir = tempfile::tempdir().expect("temp dir");
    let good = write(&dir, &user_set(60.78, "Llama 2 7B F16 on my 4090"));
    let (code, out, err) = run(&["validate", "--reference", &good, "--lang", "en"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(&good), "{out}");
    let bad = write(&dir, &user_set(120.0, "Llama 2 7B F16 on my 4090"));
    let (code, out, _) = run(&["validate", "--reference", &bad, "--lang", "en"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("✗"), "{out}");
    assert!(out.contains("my-4090: my own run: llama-bench on my desktop"), "{out}");
    assert!(out.contains("Failing: Decode speed"), "{out}");
    let (code, out, _) = run(&["validate", "--reference", &bad, "--json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["passes"], false);
    assert_eq!(v["classes"][0]["passes"], false);
    let error = v["outcomes"][0]["error"].as_f64().unwrap();
    assert!((-0.6..-0.4).contains(&error), "{error}");
}

#[test]
fn a_malformed_or_unknown_reference_file_is_bad_input_and_says_where() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = user_set(60.78, "x").replace("metric: DecodeTokensPerS,", "metric: Furlongs,");
    let path = write(&dir, &text);
    let (code, out, err) = run(&["validate", "--reference", &path]);
    assert_eq!(code, 2, "{out}");
    // line 7 of the file is `metric: Furlongs,`, column 17 the value.
    assert!(err.contains(&format!("{path}:7:17:")), "{err}");
    let unknown = write(&dir, &user_set(60.78, "x").replace("gpu/nvidia-geforce-rtx-4090", "gpu/no-such-card"));
    let (code, out, _) = run(&["validate", "--reference", &unknown, "--lang", "en"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("my-4090: unknown GPU `gpu/no-such-card`"), "{out}");
    let (code, _, err) = run(&["validate", "--reference", "/nonexistent/mine.ron"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/mine.ron"), "{err}");
    let (code, _, err) = run(&["validate", "--reference", &path, "--class", "watts"]);
    assert_eq!(code, 2, "{err}");
    let empty = write(&dir, "[]");
    let (code, _, err) = run(&["validate", "--reference", &empty]);
    assert_eq!(code, 2);
    assert!(err.contains("no"), "{err}");
}

#[test]
fn the_text_in_chinese() {
    let (code, out, _) = run(&["validate", "--lang", "zh-CN", "--class", "decode"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("公开实测值对比"), "{out}");
    assert!(out.contains("各类汇总"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("解码速度") && l.ends_with("通过")), "{out}");
    assert!(out.contains("所有类别均在阈值之内。"), "{out}");
}

#[test]
fn control_characters_from_a_users_file_are_neutralised() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write(&dir, &user_set(60.78, "evil \\u{1b}]0;pwned\\u{7}"));
    let (code, out, _) = run(&["validate", "--reference", &path, "--lang", "en"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains('\u{1b}'), "{out:?}");
    assert!(out.contains("evil ␛]0;pwned"), "{out}");
}
