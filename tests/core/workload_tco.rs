//! The build's planned workload (`usage.workload`) flows from the fit/speed engine into the
//! TCO: cost per million tokens and per training run.

use rigplan::core::analysis::{self, Severity};
use rigplan::core::build::PlannedWorkload;
use rigplan::core::catalog::Catalog;
use rigplan::core::templates::find;

fn h100_with(model: &str, workload: &str, run_tokens: Option<f64>) -> rigplan::core::build::Build {
    let mut b = find("enterprise-8x-h100-hgx").expect("template").load().expect("loads");
    b.usage.workload = Some(PlannedWorkload { model: model.to_owned(), workload: workload.to_owned(), run_tokens });
    b
}

#[test]
fn training_run_cost_uses_the_matrix_training_throughput() {
    let catalog = Catalog::embedded().expect("catalog");
    let build = h100_with("model/meta-llama-3.1-8b", "full-ft-zero3", Some(1e9));
    let report = analysis::analyze(&catalog, &build);
    let cell = report.fit[0]
        .rows
        .iter()
        .find(|r| r.model.as_str() == "model/meta-llama-3.1-8b")
        .and_then(|r| r.cells.iter().find(|c| c.workload.id() == "full-ft-zero3"))
        .expect("matrix cell");
    let tps = cell.train_tokens_per_s.expect("8B full fine-tune fits 8x H100 80GB under ZeRO-3");
    let w = report.tco.workload.as_ref().expect("workload costs");
    assert!((w.tokens_per_second - tps).abs() < 1e-9);
    // Hand calculation: run hours = tokens / (tokens/s) / 3600; cost per run = owned total over
    // the busy hours of the horizon × run hours (busy hours = 8760 × years × utilization).
    let run_hours = 1e9 / tps / 3600.0;
    assert!((w.run_hours.expect("run hours") - run_hours).abs() < 1e-9);
    let busy = 8760.0 * report.tco.horizon_years * report.tco.utilization;
    let per_run = report.tco.totals.owned / busy * run_hours;
    assert!((w.owned_per_run.expect("per run") - per_run).abs() < 1e-6 * per_run);
    let per_million = report.tco.totals.owned / (tps * 3600.0 * busy) * 1e6;
    assert!((w.owned_per_million_tokens.expect("per 1M") - per_million).abs() < 1e-6 * per_million);
    assert!(!report.diagnostics.iter().any(|d| d.code.starts_with("workload-")));
}

#[test]
fn inference_counts_replicas_of_the_instance() {
    let catalog = Catalog::embedded().expect("catalog");
    let report = analysis::analyze(&catalog, &h100_with("model/meta-llama-3.1-8b", "inference-bf16-4k", None));
    let cell = report.fit[0]
        .rows
        .iter()
        .find(|r| r.model.as_str() == "model/meta-llama-3.1-8b")
        .and_then(|r| r.cells.iter().find(|c| c.workload.id() == "inference-bf16-4k"))
        .expect("cell");
    // Llama 3.1 8B in bf16 (16 GB) runs on one 80 GB H100: 8 replicas on the node.
    assert_eq!(cell.gpus_used, Some(1));
    let w = report.tco.workload.as_ref().expect("workload");
    assert!((w.tokens_per_second - 8.0 * cell.decode_tokens_per_s.expect("decode")).abs() < 1e-9);
    assert!(w.run_hours.is_none(), "no run planned");
}

#[test]
fn a_workload_that_cannot_be_priced_is_a_finding_not_a_number() {
    let catalog = Catalog::embedded().expect("catalog");
    for (model, workload, code) in [
        ("model/openai-gpt-3-175b", "full-ft-zero3", "workload-does-not-fit"),
        ("model/no-such-model", "lora-r16", "workload-unknown-model"),
        ("model/meta-llama-3.1-8b", "pretrain-everything", "workload-unknown"),
    ] {
        let report = analysis::analyze(&catalog, &h100_with(model, workload, Some(1e9)));
        assert!(report.tco.workload.is_none(), "{model} {workload}");
        let d = report.diagnostics.iter().find(|d| d.code == code).unwrap_or_else(|| panic!("{code}"));
        assert_eq!(d.severity, Severity::Warning);
    }
}

#[test]
fn planned_workload_energy_reaches_the_sheets() {
    // Energy while the build runs the workload: its wall power at max × PUE over the
    // throughput, per million tokens and per run.
    let catalog = Catalog::embedded().expect("catalog");
    let build = h100_with("model/meta-llama-3.1-8b", "full-ft-zero3", Some(1e9));
    let report = analysis::analyze(&catalog, &build);
    let w = report.tco.workload.as_ref().expect("workload costs");
    let kw = report.power.wall_watts * build.site.pue / 1000.0;
    let per_million = kw * 1e6 / w.tokens_per_second / 3600.0;
    assert!((w.energy_kwh_per_million_tokens.expect("energy") - per_million).abs() < 1e-9 * per_million);
    let run = kw * w.run_hours.expect("run hours");
    assert!((w.run_energy_kwh.expect("run energy") - run).abs() < 1e-9 * run);
    let date = rigplan::core::export::SheetDate::parse("2026-01-02").expect("date");
    let sheet = rigplan::core::export::BuildSheet::new(&build, &report, date);
    let csv = rigplan::core::export::csv::sheet_to_csv(&sheet).expect("csv");
    assert!(csv.contains("Energy per 1M tokens (planned workload)"), "{csv}");
    assert!(csv.contains("Energy per run (planned workload)"), "{csv}");
    let md = rigplan::core::export::markdown::sheet_to_markdown(&sheet);
    assert!(md.contains("Planned workload"), "{md}");
}
