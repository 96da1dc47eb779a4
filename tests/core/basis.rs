//! Every figure explains itself: the bases a report, `rigplan fit` and `rigplan tco` carry, in
//! JSON and with `--explain`.

use crate::approx::close;
use crate::cli::run;
use rigplan::core::analysis::basis::{self, Confidence};
use rigplan::core::analysis::{Report, analyze};
use rigplan::core::catalog::Catalog;
use rigplan::core::templates::{TEMPLATES, find};

fn report_of(slug: &str) -> Report {
    let catalog = Catalog::embedded().expect("embedded catalog");
    let build = find(slug).expect("template").load().expect("loads");
    analyze(&catalog, &build)
}

fn template_path(slug: &str) -> String {
    format!("{}/catalog/builds/{slug}.ron", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_template_basis_is_registered_finite_and_filled_in() {
    for t in TEMPLATES {
        let r = report_of(t.slug);
        assert!(r.basis.len() >= 20, "{}: {}", t.slug, r.basis.len());
        let mut seen = std::collections::HashSet::new();
        for b in &r.basis {
            assert!(seen.insert(b.figure.clone()), "{}: {} twice", t.slug, b.figure);
            assert!(basis::lookup(b.formula_id).is_some(), "{}: {}", t.slug, b.formula_id);
            assert!(b.value.is_finite(), "{}: {}", t.slug, b.figure);
            assert!(!b.substituted.is_empty() && !b.formula.is_empty() && !b.source.is_empty(), "{}", b.figure);
            assert_eq!(b.typical_error.is_some(), b.confidence == Confidence::Calibrated, "{}", b.figure);
        }
    }
}

/// The wall draw's basis is the report's figure, and its substitution is the arithmetic that
/// gives it: entry workstation, 732 W DC at max through a Gold PSU at 73 % load (90.6 % on the
/// 80 PLUS 230 V table, interpolated between 92 % at 50 % and 89 % at 100 %) = 807 W.
#[test]
fn the_wall_draw_basis_shows_the_numbers_that_give_it() {
    let r = report_of("entry-workstation");
    let n = &r.power.nodes[0];
    let b = basis::find(&r.basis, "power.nodes[0].wall_watts").expect("a basis");
    assert!(close(b.value, n.wall_watts, 1e-12));
    assert_eq!(b.formula_id, "power-wall");
    assert_eq!(b.confidence, Confidence::Calibrated);
    let e = b.typical_error.expect("the reference set's power class");
    assert!(e.count >= 1 && e.mean_abs_error > 0.0 && e.mean_abs_error < 0.15, "{e:?}");
    // `732 W / 0.906 = 807 W`: DC over efficiency.
    let (lhs, rhs) = b.substituted.split_once(" = ").expect("an equation");
    let (dc, eff) = lhs.split_once(" / ").expect("a quotient");
    let dc: f64 = dc.trim_end_matches(" W").replace(',', "").parse().unwrap();
    let eff: f64 = eff.parse().unwrap();
    let wall: f64 = rhs.trim_end_matches(" W").replace(',', "").parse().unwrap();
    assert!((dc / eff - wall).abs() <= 1.5, "{}", b.substituted);
    assert!((wall - n.wall_watts).abs() <= 0.5);
    assert!((eff - n.efficiency_max).abs() < 0.0005);
    // The PSU load: 732 W over the 1,000 W unit.
    let load = basis::find(&r.basis, "power.nodes[0].psu_load_fraction").unwrap();
    assert!(load.substituted.contains("/ 1,000 W"), "{}", load.substituted);
    // A GPU temperature is a rigplan assumption, with no typical error.
    let temp = basis::find(&r.basis, "thermal.nodes[0].gpus[0].estimated_temp_c").unwrap();
    assert_eq!(temp.confidence, Confidence::Assumption);
    assert_eq!(temp.typical_error, None);
}

#[test]
fn report_explain_prints_each_figure_with_its_formula_in_both_languages() {
    let path = template_path("entry-workstation");
    let (code, out, _) = run(&["report", &path, "--explain", "--lang", "en"]);
    assert_eq!(code, 0);
    assert!(out.contains("Where the figures come from"), "{out}");
    assert!(out.contains("power.nodes[0].wall_watts: wall draw"), "{out}");
    assert!(out.contains("formula:    P_wall = P_dc(PSU-fed) / η"), "{out}");
    assert!(out.contains("confidence: calibrated estimate, typical error ±"), "{out}");
    let (_, plain, _) = run(&["report", &path, "--lang", "en"]);
    assert!(!plain.contains("Where the figures come from"), "only with --explain");
    let (code, zh, _) = run(&["report", &path, "--explain", "--lang", "zh-CN"]);
    assert_eq!(code, 0);
    assert!(zh.contains("各项数据的来源"), "{zh}");
    assert!(zh.contains("墙插功耗"), "{zh}");
    assert!(zh.contains("可信度：    校准估算，典型误差 ±"), "{zh}");
}

#[test]
fn report_json_carries_the_basis_of_each_figure() {
    let (code, out, _) = run(&["report", &template_path("entry-workstation"), "--json", "--lang", "zh-CN"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let bases = v["basis"].as_array().expect("a basis array");
    let wall = bases.iter().find(|b| b["figure"] == "power.wall_watts").expect("the build's wall draw");
    assert_eq!(wall["value"], v["power"]["wall_watts"]);
    assert_eq!(wall["formula_id"], "power-wall");
    assert_eq!(wall["confidence"], "calibrated");
    assert_eq!(wall["typical_error"]["class"], "power");
    assert!(wall["what"].as_str().unwrap().contains("墙插功耗"), "in the --lang language");
    let capex = bases.iter().find(|b| b["figure"] == "tco.capex").unwrap();
    assert_eq!(capex["confidence"], "datasheet");
    assert!(capex["typical_error"].is_null());
    assert!(capex["inputs"].as_array().unwrap().iter().any(|i| i["from"] == "costs.tax_percent"));
}

#[test]
fn fit_json_and_explain_carry_memory_and_speed_bases() {
    let args = ["fit", "--model", "meta-llama-3.1-8b", "--gpu", "nvidia-geforce-rtx-4090", "--lang", "en"];
    let (code, out, _) = run(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let bases = v["basis"].as_array().unwrap();
    let decode = bases.iter().find(|b| b["figure"] == "fit.decode_tokens_per_s").expect("decode");
    assert_eq!(decode["value"], v["decode_tokens_per_s"]);
    assert_eq!(decode["typical_error"]["class"], "decode");
    let total = bases.iter().find(|b| b["figure"] == "fit.per_gpu.total_bytes").expect("memory");
    assert!((total["value"].as_f64().unwrap() - v["per_gpu"]["total_bytes"].as_f64().unwrap()).abs() < 0.5);
    assert_eq!(total["typical_error"]["class"], "memory");
    // The decode step adds up: b / (memory + compute + communication) = tokens/s.
    let text = decode["substituted"].as_str().unwrap();
    let inner = text.split_once("/ (").unwrap().1.split_once(')').unwrap().0;
    let ms: f64 = inner.split(" + ").map(|t| t.trim_end_matches(" ms").parse::<f64>().unwrap()).sum();
    let tps = v["decode_tokens_per_s"].as_f64().unwrap();
    assert!((1000.0 / ms - tps).abs() / tps < 0.01, "{text}");
    let (code, out, _) = run(&[&args[..], &["--explain"]].concat());
    assert_eq!(code, 0);
    assert!(out.contains("fit.decode_tokens_per_s: decode speed"), "{out}");
    assert!(out.contains("Kaplan et al. 2020, Table 1"), "{out}");
}

#[test]
fn tco_json_and_explain_carry_the_cost_bases() {
    let path = template_path("entry-workstation");
    let (code, out, _) = run(&["tco", &path, "--json", "--lang", "en"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let bases = v["basis"].as_array().unwrap();
    let owned = bases.iter().find(|b| b["figure"] == "tco.totals.owned").expect("owned total");
    assert_eq!(owned["value"], v["totals"]["owned"]);
    assert!(bases.iter().all(|b| b["figure"].as_str().unwrap().starts_with("tco.")));
    let (code, out, _) = run(&["tco", &path, "--explain", "--years", "2", "--lang", "en"]);
    assert_eq!(code, 0);
    assert!(out.contains("tco.totals.owned: owned total over the horizon"), "{out}");
    assert!(out.contains("× 2.00 −"), "the override's horizon is substituted: {out}");
}

/// Straight-line depreciation, from the build's residual and life: (capex − residual) / life.
#[test]
fn the_depreciation_basis_is_the_tco_figure() {
    let r = report_of("entry-workstation");
    let b = basis::find(&r.basis, "tco.depreciation_per_year").expect("a basis");
    assert!(close(b.value, r.tco.depreciation_per_year, 1e-12));
    let input = |name: &str| b.inputs.iter().find(|i| i.name == name).unwrap().value;
    let by_hand = (input("capex") - input("residual")) / input("life");
    assert!(close(by_hand, r.tco.depreciation_per_year, 1e-9), "{}", b.substituted);
}

/// A priced line of the bill of materials: unit price × quantity per node × nodes, with the
/// catalog's amount, currency and date named.
#[test]
fn every_priced_bom_line_explains_its_price() {
    let r = report_of("entry-workstation");
    let priced: Vec<_> = r.bom.lines.iter().enumerate().filter(|(_, l)| l.extended_price.is_some()).collect();
    assert!(!priced.is_empty());
    for (i, l) in priced {
        let b = basis::find(&r.basis, &format!("bom.lines[{i}].extended_price")).expect("a basis");
        assert_eq!(b.confidence, Confidence::Datasheet);
        let input = |name: &str| b.inputs.iter().find(|x| x.name == name).unwrap().value;
        let by_hand = input("unit price") * input("quantity") * input("nodes");
        assert!(close(by_hand, l.extended_price.unwrap(), 1e-9), "{}", b.substituted);
        if let rigplan::core::analysis::bom::PriceOrigin::Catalog { date, .. } = &l.price_origin {
            assert!(b.substituted.contains(date.as_str()), "{}", b.substituted);
        }
    }
}

/// A training run's time and energy explain themselves, and their figures are the output's.
#[test]
fn fit_training_explains_its_throughput_time_and_energy() {
    let args = [
        "fit",
        "--model",
        "meta-llama-3.1-8b",
        "--gpu",
        "nvidia-h100-sxm5-80gb",
        "--gpus",
        "8",
        "--mode",
        "lora",
        "--tokens",
        "1e9",
        "--json",
        "--lang",
        "en",
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let bases = v["basis"].as_array().unwrap();
    let find = |k: &str| bases.iter().find(|b| b["figure"] == k).unwrap_or_else(|| panic!("{k}: {bases:#?}"));
    for (key, field, class) in [
        ("fit.train_tokens_per_s", "train_tokens_per_s", "training"),
        ("fit.train_hours", "train_hours", "training"),
        ("fit.train_energy_mwh", "train_energy_mwh", "power"),
    ] {
        let b = find(key);
        assert!((b["value"].as_f64().unwrap() - v[field].as_f64().unwrap()).abs() < 1e-9, "{key}");
        assert_eq!(b["typical_error"]["class"], class, "{key}");
    }
    // GPU-hours × TDP (700 W for the H100 SXM5), no node beside it and PUE 1 without a build.
    let e = find("fit.train_energy_mwh");
    let hours = v["gpu_hours"].as_f64().unwrap();
    assert!((hours * 700.0 / 1e6 - v["train_energy_mwh"].as_f64().unwrap()).abs() < 1e-9);
    assert!(e["substituted"].as_str().unwrap().contains("× (700 W + 0 W) × 1 ="), "{e}");
}
