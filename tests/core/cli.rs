//! The CLI run in-process: exit codes and outputs.

use rigplan::cli::main_with_args;

/// Runs the CLI with arguments; returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (u8, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut full = vec!["rigplan"];
    full.extend_from_slice(args);
    let code = main_with_args(full, &mut out, &mut err);
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

#[test]
fn no_subcommand_prints_help_without_gui() {
    let cli = rigplan::cli::Cli { file: None, catalog: None, command: None };
    let mut out = Vec::new();
    let exit = rigplan::cli::run(&cli, &mut out).expect("help renders");
    assert_eq!(exit, rigplan::cli::Exit::Ok);
    assert!(String::from_utf8_lossy(&out).contains("Usage"));
}

#[test]
fn unknown_subcommand_is_bad_input() {
    let (code, _, err) = run(&["frobnicate", "--now"]);
    assert_eq!(code, 2);
    assert!(!err.is_empty());
}

#[test]
fn missing_build_file_is_bad_input_and_names_the_file() {
    let (code, out, err) = run(&["report", "/nonexistent/plan.ron"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("/nonexistent/plan.ron"), "{err}");
}

#[test]
fn catalog_list_and_validate() {
    let (code, out, _) = run(&["catalog", "list", "--kind", "gpu", "--json"]);
    assert_eq!(code, 0);
    let parts: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let list = parts.as_array().expect("array");
    assert!(list.iter().any(|p| p["id"] == "gpu/nvidia-geforce-rtx-4090"));
    assert!(list.iter().all(|p| p["kind"] == "gpu"));
    let (code, out, _) = run(&["catalog", "validate"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 error(s)"), "{out}");
}

#[test]
fn validate_reports_a_broken_user_catalog_with_location() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("gpu.ron"), "[\n  (\n    id: \"gpu/broken\",\n    name: 5,\n  ),\n]\n")
        .expect("write");
    let (code, out, _) = run(&["catalog", "validate", dir.path().to_str().expect("utf-8 path")]);
    assert_eq!(code, 2);
    let expected = format!("{}:4:", dir.path().join("gpu.ron").display());
    assert!(out.contains(&expected), "expected {expected} in:\n{out}");
}

fn template_path(slug: &str) -> String {
    format!("{}/catalog/builds/{slug}.ron", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn report_lists_parts_and_capex_in_the_build_currency() {
    let (code, out, err) = run(&["report", &template_path("entry-workstation"), "--json"]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(report["currency"], "CNY");
    let lines = report["bom"]["lines"].as_array().expect("bom lines");
    assert_eq!(lines.len(), 8);
    // Capex is the sum of the priced lines at the build's 7.2 CNY/USD; the RTX 4090 line is
    // its 1,599 USD launch MSRP × 7.2 = 11,512.8 CNY.
    let gpu = lines.iter().find(|l| l["part"] == "gpu/nvidia-geforce-rtx-4090").expect("GPU line");
    assert!((gpu["extended_price"].as_f64().expect("price") - 1599.0 * 7.2).abs() < 1e-6);
    let sum: f64 = lines.iter().filter_map(|l| l["extended_price"].as_f64()).sum();
    assert!((report["bom"]["capex"].as_f64().expect("capex") - sum).abs() < 1e-6);

    let (code, text, _) = run(&["report", &template_path("entry-workstation")]);
    assert_eq!(code, 0);
    assert!(text.contains("GeForce RTX 4090"), "{text}");
    assert!(text.contains("Capex:"), "{text}");
}

#[test]
fn malformed_build_is_bad_input_with_location() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bad.ron");
    std::fs::write(
        &path,
        "(\n    version: 1,\n    build: (name: \"x\", nodes: [ (name: \"n\", count: -1, parts: []) ]),\n)\n",
    )
    .expect("write");
    let (code, out, err) = run(&["check", path.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("bad.ron:3:"), "{err}");
}
