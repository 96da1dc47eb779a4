//! `rigplan export` and `rigplan compare` run in-process: outputs, files and exit codes.

use crate::cli::run;

fn template_path(slug: &str) -> String {
    format!("{}/catalog/builds/{slug}.ron", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn export_text_formats_go_to_stdout() {
    let build = template_path("entry-workstation");
    let (code, out, err) = run(&["export", &build, "--format", "csv", "--date", "2025-01-15"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("\u{feff}Build sheet,Entry workstation"), "{out}");
    assert!(out.contains("Date,2025-01-15"));
    let (code, out, _) = run(&["export", &build, "--format", "md", "--date", "2025-01-15"]);
    assert_eq!(code, 0);
    assert!(out.contains("| Date | 2025-01-15 |"));
    let (code, out, _) = run(&["export", &build, "--format", "html", "--date", "2025-01-15"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("<!DOCTYPE html>") && out.contains("<svg"));
    let (code, out, _) = run(&["export", &build, "--format", "json", "--date", "2025-01-15"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["sheet"]["date"], "2025-01-15");
    assert_eq!(v["report"]["build_name"], v["sheet"]["build_name"]);
}

#[test]
fn export_without_date_prints_today() {
    let (code, out, _) = run(&["export", &template_path("entry-workstation"), "--format", "md"]);
    assert_eq!(code, 0);
    let today = rigplan::cli::today_utc().expect("clock").to_string();
    assert!(out.contains(&format!("| Date | {today} |")), "{today}");
}

#[test]
fn xlsx_needs_a_file() {
    let build = template_path("entry-workstation");
    let (code, out, err) = run(&["export", &build, "--format", "xlsx"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("-o FILE"), "{err}");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("sheet.xlsx");
    let path_text = path.to_str().expect("utf-8 path");
    let (code, out, err) = run(&["export", &build, "--format", "xlsx", "-o", path_text, "--date", "2025-01-15"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("sheet.xlsx"), "{out}");
    let bytes = std::fs::read(&path).expect("written");
    assert!(bytes.starts_with(b"PK\x03\x04"), "an XLSX is a zip archive");
}

#[test]
fn export_bad_inputs_exit_2() {
    let (code, _, err) = run(&["export", "/nonexistent/plan.ron", "--format", "csv"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/plan.ron"), "{err}");
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, "(version: 1, build: (name: 5))").expect("write");
    let (code, _, err) = run(&["export", bad.to_str().expect("path"), "--format", "md"]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.ron:1:"), "{err}");
    let build = template_path("entry-workstation");
    let (code, _, err) = run(&["export", &build, "--format", "md", "--date", "2025-02-30"]);
    assert_eq!(code, 2);
    assert!(err.contains("2025-02-30"), "{err}");
    let (code, _, _) = run(&["export", &build, "--format", "pdf"]);
    assert_eq!(code, 2);
    let (code, _, _) = run(&["export", &build]);
    assert_eq!(code, 2, "--format is required");
    let (code, _, err) = run(&["export", &build, "--format", "csv", "-o", "/nonexistent-dir/x.csv"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent-dir/x.csv"), "{err}");
}

#[test]
fn compare_prints_markdown_and_writes_files() {
    let a = template_path("entry-workstation");
    let b = template_path("entry-workstation-intel");
    let (code, out, err) = run(&["compare", &a, &b]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# Comparison of 2 builds"), "{out}");
    assert!(out.contains("| Capex (parts, tax, shipping, installation, custom lines) | CNY | 27,489 | **25,257** | −2,232 (better) | lower |"), "{out}");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("cmp.csv");
    let (code, _, err) = run(&["compare", &a, &b, "--format", "csv", "-o", path.to_str().expect("path")]);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&path).expect("written");
    assert!(text.contains("Cost,capex,"), "{text}");
    let (code, out, _) =
        run(&["compare", &a, &b, &a, "--format", "json", "--model", "qwen2.5-7b", "--train-tokens", "2B"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["builds"].as_array().map(Vec::len), Some(3));
    assert_eq!(v["model"], "model/qwen2.5-7b");
    assert_eq!(v["train_tokens"], 2.0e9);
    let (code, out, _) = run(&["compare", &a, &b, "--format", "html", "--years", "5"]);
    assert_eq!(code, 0);
    assert!(out.contains("TCO over 5 years"));
}

#[test]
fn compare_speaks_chinese_with_lang() {
    let a = template_path("entry-workstation");
    let b = template_path("entry-workstation-intel");
    let (code, out, err) = run(&["compare", &a, &b, "--lang", "zh-CN"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# 2 套配置方案对比"), "{out}");
    assert!(!out.contains("Capex"), "{out}");
    let (code, _, err) = run(&["compare", &a, &a, "--model", "model/nope", "--lang", "zh-CN"]);
    assert_eq!(code, 2);
    assert!(err.contains("模型库中没有模型 `model/nope`"), "{err}");
}

#[test]
fn compare_bad_inputs_exit_2() {
    let a = template_path("entry-workstation");
    let (code, _, _) = run(&["compare", &a]);
    assert_eq!(code, 2, "one build is not a comparison");
    let (code, _, _) = run(&["compare", &a, &a, &a, &a, &a]);
    assert_eq!(code, 2, "five builds are too many");
    let (code, _, err) = run(&["compare", &a, "/nonexistent/b.ron"]);
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/b.ron"), "{err}");
    let (code, _, err) = run(&["compare", &a, &a, "--model", "model/nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("model/nope"), "{err}");
    let (code, _, _) = run(&["compare", &a, &a, "--years", "40"]);
    assert_eq!(code, 2);
    let (code, _, _) = run(&["compare", &a, &a, "--train-tokens", "lots"]);
    assert_eq!(code, 2);
}
