//! The fit matrices' figures explain themselves (issue 15): the models that fit each workload
//! and the largest that fits (report bases), one matrix cell's speed figures (the bases a
//! comparison's speed rows read), and every compare row's keys.

use crate::approx::assert_close;
use crate::export::{catalog, template};
use rigplan::core::analysis::basis::{self, counts, fit::CellAt};
use rigplan::core::analysis::fit::WorkloadKind;
use rigplan::core::analysis::memory::Verdict;
use rigplan::core::analysis::{Report, analyze};
use rigplan::core::compare::{self, CompareOptions};

fn find<'a>(r: &'a Report, key: &str) -> &'a basis::Basis {
    basis::find(r.basis(), key).unwrap_or_else(|| panic!("no basis {key}"))
}

/// The three step times (ms) of a decode substitution `… (a ms + b ms + c ms) = …`.
fn step_ms(substituted: &str) -> f64 {
    let inner = substituted.split('(').nth(1).and_then(|s| s.split(')').next()).expect("a step in parentheses");
    inner.split('+').map(|t| t.trim().trim_end_matches("ms").trim().parse::<f64>().expect("a number")).sum()
}

/// The entry workstation's one RTX 4090: each workload's count is the rows whose cell fits,
/// counted here from the matrix, and each fitting model is listed; one that does not fit is
/// not. Llama 3.1 70B (140 GB of bf16 weights) cannot fit 24 GB.
#[test]
fn the_models_that_fit_each_workload_are_counted_and_listed() {
    let r = analyze(catalog(), &template("entry-workstation"));
    let m = &r.fit[0];
    let models = m.rows.len();
    for w in WorkloadKind::ALL {
        let fitting: Vec<&str> = m
            .rows
            .iter()
            .filter(|row| row.cells.iter().any(|c| c.workload == w && c.verdict.is_some_and(Verdict::fits)))
            .map(|row| row.model_name.as_str())
            .collect();
        let b = find(&r, &counts::fit_count_key(w));
        assert_close(b.value, fitting.len() as f64, 0.0);
        assert_eq!(b.formula_id, "fit-count-workload");
        assert!(
            b.substituted.starts_with(&format!(
                "{} of {models} models fit {} on 1 × GeForce RTX 4090 (Founders Edition) (Workstation): ",
                fitting.len(),
                w.short()
            )),
            "{}",
            b.substituted
        );
        for name in &fitting {
            assert!(b.inputs.iter().any(|i| i.name == *name), "{} lists {name}", w.id());
        }
        assert_eq!(b.inputs.len(), fitting.len());
    }
    let bf16 = find(&r, &counts::fit_count_key(WorkloadKind::InferenceBf16));
    assert!(bf16.substituted.contains("Llama 3.1 8B"), "{}", bf16.substituted);
    assert!(!bf16.substituted.contains("Llama 3.1 70B"), "{}", bf16.substituted);
}

/// The largest model that fits: its parameter count (the summary's), the workload it fits
/// under and its cell's memory per GPU against the usable memory (total / share) of a 24 GiB
/// card.
#[test]
fn the_largest_model_that_fits_says_which_and_its_memory() {
    let r = analyze(catalog(), &template("entry-workstation"));
    let summary = r.summary.fit.as_ref().expect("a fit summary");
    for (finetune, largest) in [(false, &summary.largest_inference), (true, &summary.largest_finetune)] {
        let l = largest.as_ref().expect("something fits");
        let b = find(&r, counts::largest_key(finetune));
        assert_close(b.value, l.params as f64, 0.0);
        let cell = r.fit[0]
            .rows
            .iter()
            .find(|row| row.model == l.model)
            .and_then(|row| row.cells.iter().find(|c| c.workload == l.workload))
            .expect("its cell");
        let total = cell.per_gpu_total_bytes.expect("a total").gib();
        let share = cell.memory_fraction.expect("a share");
        assert!(share <= 1.0, "it fits");
        let text = format!(
            "{}: {:.1} B parameters; fits {}: {:.1} GiB per GPU of {:.1} GiB usable ({:.0} %) on 1 × GeForce RTX 4090 (Founders Edition) (Workstation, 24 GiB)",
            l.name,
            l.params as f64 / 1e9,
            l.workload.short(),
            total,
            total / share,
            share * 100.0
        );
        assert_eq!(b.substituted, text);
    }
    // By hand: Qwen2.5 32B (32.8 B parameters) at Q4_K_M, 4.85 bits a weight, is 18.5 GiB of
    // weights; its 8k context of KV cache (64 layers × 8 KV heads × 128 × 2 × 2 bytes = 256 KiB
    // a token) 2 GiB more, then the CUDA context and workspaces: about 21.5 GiB of 24.
    let b = find(&r, counts::largest_key(false));
    assert!(
        b.substituted.starts_with("Qwen2.5 32B: 32.8 B parameters; fits q4_k_m 8k: 21.5 GiB per GPU of 24.0 GiB"),
        "{}",
        b.substituted
    );
}

/// A cell's bases are the matrix's own figures: Llama 3.1 8B's bf16 decode on one RTX 4090
/// (the step's three parts add up to 1 / tokens/s), and its LoRA training throughput and the
/// hours for 1B tokens, 10⁹ / (tokens/s × 3,600).
#[test]
fn a_cells_bases_are_its_figures() {
    let r = analyze(catalog(), &template("entry-workstation"));
    let row = r.fit[0].rows.iter().position(|x| x.model.as_str() == "model/meta-llama-3.1-8b").expect("the 8B row");
    let cells = &r.fit[0].rows[row].cells;
    let col = |w: WorkloadKind| cells.iter().position(|c| c.workload == w).expect("a column");
    let at = CellAt { matrix: 0, row, col: col(WorkloadKind::InferenceBf16) };
    let bases = basis::fit::of_cell(catalog(), &r.fit, at, 1.0e9);
    let decode = basis::find(&bases, &format!("fit[0].rows[{row}].cells[0].decode_tokens_per_s")).expect("decode");
    let tps = cells[at.col].decode_tokens_per_s.expect("a decode speed");
    assert_close(decode.value, tps, 0.0);
    assert!((1000.0 / step_ms(&decode.substituted) - tps).abs() / tps < 0.01, "{}", decode.substituted);
    assert!(basis::find(&bases, &at.key("per_gpu.total_bytes")).is_some_and(|b| crate::approx::close(
        b.value,
        cells[at.col].per_gpu_total_bytes.expect("a total").0 as f64,
        0.0
    )));
    let lora = CellAt { col: col(WorkloadKind::Lora), ..at };
    let bases = basis::fit::of_cell(catalog(), &r.fit, lora, 1.0e9);
    let train = cells[lora.col].train_tokens_per_s.expect("a training speed");
    assert_close(basis::find(&bases, &lora.key("train_tokens_per_s")).expect("train").value, train, 0.0);
    let hours = basis::find(&bases, &lora.key("train_hours")).expect("hours");
    assert!((hours.value - 1.0e9 / (train * 3600.0)).abs() < 1e-9, "{} h", hours.value);
    // A cell that does not apply has none; one off the matrix neither.
    assert!(basis::fit::of_cell(catalog(), &r.fit, CellAt { matrix: 3, ..at }, 1.0e9).is_empty());
}

/// Every compare row with a value names the bases of that build's figure, and the bases are
/// in that build's report with the row's value: counts and speeds as they are, hours as
/// shown, the largest model in billions.
#[test]
fn every_compare_value_names_its_basis_in_its_report() {
    let (a, b) = (template("entry-workstation"), template("dual-h100-workstation"));
    let (c, reports) =
        compare::compare_with_reports(catalog(), &[&a, &b], &CompareOptions::default()).expect("compared");
    let mut speed_rows = 0;
    for row in c.groups.iter().flat_map(|g| &g.rows) {
        assert_eq!(row.basis_keys.len(), 2, "{}", row.id);
        for (i, report) in reports.iter().enumerate() {
            let keys = &row.basis_keys[i];
            let is_speed = c.groups.last().is_some_and(|g| g.id == "speed" && g.rows.iter().any(|r| r.id == row.id));
            let Some(value) = row.values[i] else {
                // A speed the build does not have (full fine-tuning of 8B on 24 GB): no basis.
                assert!(!is_speed || keys.is_empty(), "{} of build {i}: {keys:?}", row.id);
                continue;
            };
            assert!(!keys.is_empty(), "{} of build {i} has no basis", row.id);
            let bases: Vec<&basis::Basis> = keys
                .iter()
                .map(|k| basis::find(report.basis(), k).unwrap_or_else(|| panic!("{} of {i}: {k}", row.id)))
                .collect();
            let shown = match row.id.as_str() {
                "largest-inference" | "largest-finetune" => bases[0].value / 1e9,
                id if id.starts_with("fit-") || is_speed => bases[0].value,
                _ => continue,
            };
            assert!((shown - value).abs() <= 1e-9 * value.abs().max(1.0), "{}: {shown} against {value}", row.id);
            if keys[0].starts_with("fit[") {
                speed_rows += 1;
            }
        }
    }
    assert!(speed_rows >= 8, "decode, training and hours rows of both builds: {speed_rows}");
    assert_eq!(c.row("train-full").expect("full row").values[0], None, "8B full fine-tuning needs more than 24 GB");
    let hours = c.row("time-lora").expect("time row");
    let tps = c.row("train-lora").expect("train row").values[0].expect("a rate");
    assert!((hours.values[0].expect("hours") - 1.0e9 / tps / 3600.0).abs() < 1e-9);
}

/// Measured models explain their speed rows too: ResNet-50's inference samples/s is GPUs ×
/// peak × MFU / forward FLOPs per sample (the basis's own inputs give the value), its
/// training samples/s is the training throughput's basis, and Stable Diffusion 1.5's images
/// per minute the images basis; each compare value resolves to its cell's basis.
#[test]
fn measured_models_speed_rows_have_bases() {
    let (a, b) = (template("entry-workstation"), template("dual-h100-workstation"));
    for (model, rows) in [
        ("model/resnet-50", ["samples-inference", "samples-train"]),
        ("model/stable-diffusion-1.5", ["images-per-minute", "samples-train"]),
    ] {
        let options = CompareOptions { model: Some(model.to_owned()), ..CompareOptions::default() };
        let (c, reports) = compare::compare_with_reports(catalog(), &[&a, &b], &options).expect("compared");
        for id in rows {
            let row = c.row(id).unwrap_or_else(|| panic!("{model}: no {id}"));
            for (i, report) in reports.iter().enumerate() {
                let value = row.values[i].unwrap_or_else(|| panic!("{model} {id} of {i}"));
                let b = find(report, &row.basis_keys[i][0]);
                assert_close(b.value, value, 1e-9 * value);
                if id == "samples-inference" {
                    assert_eq!(b.formula_id, "speed-samples");
                    let input = |name: &str| b.inputs.iter().find(|x| x.name == name).expect("an input").value;
                    let hand = input("GPUs") * input("peak") * 1e12 * input("MFU") / input("FLOPs per sample");
                    assert_close(hand, value, 1e-9 * value);
                }
            }
        }
    }
}
