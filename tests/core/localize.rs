//! The sentences a report holds besides its findings (power and thermal assumptions, fit
//! notes, the TCO reading, memory and speed notes, the smallest changes) in Chinese: every
//! one re-rendered by `localize`, none left in English, and the JSON keeping its shape.

use super::export::{catalog, template};
use rigplan::core::analysis::fit::suggest;
use rigplan::core::analysis::memory::{self, Mode, ModelSpec, Workload};
use rigplan::core::analysis::speed::{self, SpeedSettings, Topology};
use rigplan::core::analysis::{self, Report};
use rigplan::core::i18n::{Lang, Sentence};

fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

/// Every sentence of a report besides the findings, in order.
fn sentences(r: &Report) -> Vec<String> {
    let mut out: Vec<String> =
        r.power.assumptions.iter().chain(&r.thermal.assumptions).map(ToString::to_string).collect();
    for m in &r.fit {
        out.push(m.interconnect.to_string());
        out.extend(m.notes.iter().map(ToString::to_string));
        for row in m.rows.iter() {
            out.extend(row.cells.iter().filter_map(|c| c.note.as_ref()).map(ToString::to_string));
        }
    }
    out.push(r.tco.reading_note.to_string());
    out
}

fn assert_all_chinese(zh: &[String], en: &[String]) {
    assert_eq!(zh.len(), en.len());
    for (z, e) in zh.iter().zip(en) {
        assert!(has_chinese(z), "not Chinese: {z}");
        assert_ne!(z, e, "left in English");
    }
}

#[test]
fn a_chinese_report_has_no_english_assumption_or_fit_note() {
    // The Jetson's integrated GPU adds a matrix note (its memory is shared); the workstation's
    // 24 GiB card leaves 70B models unfit, with a note on what they would need.
    for slug in ["entry-workstation", "edge-jetson-agx-orin"] {
        let english = analysis::analyze(catalog(), &template(slug));
        let mut report = english.clone();
        report.localize(Lang::ZhCn);
        assert_eq!(report.power.assumptions.len(), 7, "{slug}");
        assert_eq!(report.thermal.assumptions.len(), 4, "{slug}");
        let cell_notes =
            report.fit.iter().flat_map(|m| m.rows.iter()).flat_map(|r| &r.cells).filter(|c| c.note.is_some());
        assert!(cell_notes.count() > 0, "{slug}: some cells have notes");
        let (zh, en) = (sentences(&report), sentences(&english));
        assert_all_chinese(&zh, &en);
        if slug == "edge-jetson-agx-orin" {
            let note = report.fit[0].notes.first().expect("the shared-memory note");
            assert!(note.contains("与 CPU 和操作系统共享"), "{note}");
        }
        // English again is the report as computed, byte for byte; the JSON shape is the same.
        let zh_json = serde_json::to_value(&report).unwrap();
        assert!(
            zh_json["power"]["assumptions"].as_array().unwrap().iter().all(|a| a.as_str().is_some_and(has_chinese))
        );
        assert!(zh_json["tco"]["reading_note"].as_str().is_some_and(has_chinese));
        report.localize(Lang::En);
        assert_eq!(serde_json::to_string(&report).unwrap(), serde_json::to_string(&english).unwrap(), "{slug}");
    }
}

#[test]
fn english_sentences_read_as_before() {
    let report = analysis::analyze(catalog(), &template("entry-workstation"));
    let p = &report.power.assumptions;
    assert!(p[0].starts_with("Typical draw = idle + utilization × (max − idle) at utilization "), "{}", p[0]);
    assert!(
        p[6].starts_with("Circuit: wall draw at max against the circuit's continuous capacity, ")
            && p[6].ends_with(" continuous-load rule)."),
        "{}",
        p[6]
    );
    assert_eq!(
        report.tco.reading_note.as_str(),
        "every owned cost line is computed from the build and its cost settings"
    );
    let json = serde_json::to_value(&report.thermal.assumptions).unwrap();
    assert_eq!(json.as_array().map(Vec::len), Some(4), "an array of strings, as before");
    assert!(json[3].as_str().is_some_and(|a| a.starts_with("GPUs at or above ")), "{json}");
}

#[test]
fn estimate_speed_and_suggestion_sentences_render_in_chinese() {
    let catalog = catalog();
    let model = catalog.models.get("model/meta-llama-3.1-70b").expect("model");
    let gpu = catalog.gpu(&"gpu/nvidia-geforce-rtx-4090".into()).expect("gpu");
    let spec = ModelSpec::from_model(model);
    // Full training with tensor parallelism: the sequence-parallel note; fp32 adds the speed note.
    let w = Workload { tp: 2, weights: memory::WeightType::Fp32, ..Workload::defaults(Mode::Train) };
    let est = memory::estimate(&spec, &w, 2).expect("estimate");
    let topo = Topology::new(gpu, 2, 1, false, 0.0);
    let speed = speed::estimate_speed(&spec, &w, gpu, &topo, &SpeedSettings::default());
    let notes: Vec<&Sentence> = est.notes.iter().chain(&speed.notes).collect();
    assert!(notes.iter().any(|n| n.contains("sequence parallelism")), "{notes:?}");
    assert!(notes.iter().any(|n| n.starts_with("fp32 training")), "{notes:?}");
    for n in &notes {
        assert!(has_chinese(&n.render(Lang::ZhCn)), "{n}");
    }
    let (mut est_zh, mut speed_zh) = (est.clone(), speed.clone());
    est_zh.localize(Lang::ZhCn);
    speed_zh.localize(Lang::ZhCn);
    assert!(est_zh.notes.iter().chain(&speed_zh.notes).all(|n| has_chinese(n)));
    let mut changes = suggest(&spec, &Workload::defaults(Mode::Inference), 1, gpu, None);
    assert!(!changes.is_empty(), "a 70B model on one 24 GiB card has fixes");
    let english: Vec<String> = changes.iter().map(|c| c.description.to_string()).collect();
    for c in &mut changes {
        c.localize(Lang::ZhCn);
    }
    let zh: Vec<String> = changes.iter().map(|c| c.description.to_string()).collect();
    assert_all_chinese(&zh, &english);
    let spread = changes.iter().find(|c| c.change == "tensor-parallel").expect("more GPUs help");
    assert!(spread.description.starts_with("把模型分布到 "), "{}", spread.description);
}

/// The fit tab's interconnect line in Chinese: eight H100 SXM5 on NVLink 4 switches, 900 GB/s
/// per GPU both ways (NVIDIA H100 datasheet), 450 GB/s per direction.
#[test]
fn the_interconnect_line_reads_in_chinese() {
    let english = analysis::analyze(catalog(), &template("enterprise-8x-h100-hgx"));
    let mut report = english.clone();
    report.localize(Lang::ZhCn);
    let (en, zh) = (english.fit[0].interconnect.as_str(), report.fit[0].interconnect.as_str());
    assert_eq!(en, "8 GPUs per node over NVLink 4 switch, 450 GB/s per direction");
    assert_eq!(zh, "每节点 8 块 GPU，经 NVLink 4 交换互连，单向 450 GB/s");
}
