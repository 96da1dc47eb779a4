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
        assert!(r.basis().len() >= 20, "{}: {}", t.slug, r.basis().len());
        let mut seen = std::collections::HashSet::new();
        for b in r.basis() {
            assert!(seen.insert(b.figure.clone()), "{}: {} twice", t.slug, b.figure);
            assert!(basis::lookup(b.formula_id).is_some(), "{}: {}", t.slug, b.formula_id);
            assert!(b.value.is_finite(), "{}: {}", t.slug, b.figure);
            assert!(!b.substituted.is_empty() && !b.formula.is_empty() && !b.source.is_empty(), "{}", b.figure);
            assert_eq!(b.typical_error.is_some(), b.confidence == Confidence::Calibrated, "{}", b.figure);
        }
    }
}

/// The bases are written when first asked for (issue 19): a report localized to Chinese
/// before anyone asked writes the same bases, rendered back in English, as one asked at once;
/// nothing localized from the other sections leaks into an input's origin.
#[test]
fn bases_asked_for_after_localizing_are_the_same() {
    use rigplan::core::i18n::Lang;
    for t in TEMPLATES {
        let english = report_of(t.slug);
        let mut late = english.clone();
        late.localize(Lang::ZhCn);
        assert!(
            late.basis().iter().any(|b| b.what.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))),
            "{}",
            t.slug
        );
        late.localize(Lang::En);
        let json = |r: &Report| serde_json::to_string(r.basis()).expect("serializes");
        assert_eq!(json(&late), json(&english), "{}", t.slug);
    }
}

/// The wall draw's basis is the report's figure, and its substitution is the arithmetic that
/// gives it: entry workstation, 732 W DC at max through a Gold PSU at 73 % load (90.6 % on the
/// 80 PLUS 230 V table, interpolated between 92 % at 50 % and 89 % at 100 %) = 807 W.
#[test]
fn the_wall_draw_basis_shows_the_numbers_that_give_it() {
    let r = report_of("entry-workstation");
    let n = &r.power.nodes[0];
    let b = basis::find(r.basis(), "power.nodes[0].wall_watts").expect("a basis");
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
    let load = basis::find(r.basis(), "power.nodes[0].psu_load_fraction").unwrap();
    assert!(load.substituted.contains("/ 1,000 W"), "{}", load.substituted);
    // A GPU temperature is a rigplan assumption, with no typical error.
    let temp = basis::find(r.basis(), "thermal.nodes[0].gpus[0].estimated_temp_c").unwrap();
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
    let b = basis::find(r.basis(), "tco.depreciation_per_year").expect("a basis");
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
        let b = basis::find(r.basis(), &format!("bom.lines[{i}].extended_price")).expect("a basis");
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

/// One source of truth: the typical error a calibrated figure carries is the class summary
/// `rigplan validate` prints for the built-in reference set (same mean, same count, the same
/// one-decimal percent in the text and the JSON), and the shipped accuracy both read.
#[test]
fn typical_errors_are_the_validate_summary() {
    use rigplan::core::reference::{self, Class};
    let (code, out, err) = run(&["validate", "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let (_, text, _) = run(&["validate", "--lang", "en"]);
    let shipped = reference::shipped_accuracy().expect("the built-in set recomputes");
    let classes = v["classes"].as_array().expect("classes");
    assert_eq!(classes.len(), Class::ALL.len());
    for c in classes {
        let id = c["class"].as_str().expect("class id");
        let class = *Class::ALL.iter().find(|k| k.id() == id).expect("a known class");
        let e = basis::typical_error(class).expect("every class has measurements");
        let mean = c["mean_abs_error"].as_f64().expect("mean");
        assert!((e.mean_abs_error - mean).abs() < 1e-12, "{id}: {} vs {mean}", e.mean_abs_error);
        assert_eq!(e.count as u64, c["count"].as_u64().expect("count"), "{id}");
        let s = shipped.class(class).expect("shipped class");
        assert_eq!((s.mean_abs_error, s.count), (e.mean_abs_error, e.count), "{id}");
        // The summary line (JSON and the text table) and the words a figure's hover shows
        // carry the same percent.
        let pct = format!("{:.1} %", mean * 100.0);
        let summary = c["summary"].as_str().expect("summary");
        assert!(summary.contains(&format!("mean error {pct} over {} measurements", e.count)), "{summary}");
        let name = class.name(rigplan::core::i18n::Lang::En);
        let row = text.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{name}\n{text}"));
        assert!(row.contains(&format!(" {} ", e.count)) && row.contains(&format!(" {pct} ")), "{row}");
        let formula = basis::FORMULAS.iter().find(|f| f.class == Some(class));
        if let Some(f) = formula {
            let b = basis::Basis::new("x", f.id, 1.0, "");
            let words = b.typical_error_text(rigplan::core::i18n::Lang::En).expect("calibrated");
            assert!(words.contains(&format!("±{pct} (mean over {} published", e.count)), "{words}");
        }
    }
}

/// The engine's memory budget, the KV cache it leaves and the users served at a per-user
/// target explain themselves, with the values `rigplan fit --json` prints. Llama 3.1 8B on an
/// RTX 4090 (24 GiB) under vLLM: a budget of 0.9 × 24 GiB.
#[test]
fn fit_serving_explains_the_budget_the_kv_cache_and_the_users_at_a_target() {
    let args = [
        "fit",
        "--model",
        "meta-llama-3.1-8b",
        "--gpu",
        "nvidia-geforce-rtx-4090",
        "--engine",
        "vllm",
        "--tokens-per-user",
        "20",
        "--lang",
        "en",
    ];
    let (code, out, err) = run(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let bases = v["basis"].as_array().unwrap();
    let find = |k: &str| bases.iter().find(|b| b["figure"] == k).unwrap_or_else(|| panic!("{k}"));
    let budget = find("fit.budget_bytes");
    assert!(close(budget["value"].as_f64().unwrap(), (0.9 * 24.0 * 1024f64.powi(3)).floor(), 0.0), "{budget}");
    assert!(close(budget["value"].as_f64().unwrap(), v["budget_bytes"].as_f64().unwrap(), 0.0));
    assert_eq!(budget["formula_id"], "mem-budget");
    assert!(budget["substituted"].as_str().unwrap().starts_with("vLLM/SGLang: 0.9 × 24.00 GiB = "), "{budget}");
    let kv = find("fit.serving.kv_budget_bytes");
    assert!(close(kv["value"].as_f64().unwrap(), v["serving"]["kv_budget_bytes"].as_f64().unwrap(), 0.0));
    let tokens = rigplan::core::units::format_thousands(v["serving"]["kv_capacity_tokens"].as_f64().unwrap(), 0);
    assert!(kv["substituted"].as_str().unwrap().contains(&format!("= {tokens} tokens per replica")), "{kv}");
    let users = find("fit.serving.users_at_target");
    assert!(close(users["value"].as_f64().unwrap(), v["serving"]["users_at_target"].as_f64().unwrap(), 0.0));
    assert!(users["value"].as_f64().unwrap() >= 1.0, "a 4090 serves an 8B model at 20 tokens/s: {users}");
    assert_eq!(users["typical_error"]["class"], "serving");
    let (code, out, _) = run(&[&args[..], &["--explain"]].concat());
    assert_eq!(code, 0);
    assert!(out.contains("fit.budget_bytes: the memory the engine lets the workload use on each GPU"), "{out}");
    assert!(out.contains("fit.serving.users_at_target: users served at the per-user speed target"), "{out}");
}

/// A GPU's temperature limit is its datasheet figure; the parts total adds up the priced
/// lines; a custom cost is its unit amount × quantity; the energy of a planned run is the
/// wall draw at max × PUE over the run's hours.
#[test]
fn limits_totals_custom_costs_and_a_run_energy_explain_themselves() {
    use rigplan::core::build::{CostKind, CustomLine, PlannedWorkload};
    let catalog = Catalog::embedded().unwrap();
    let mut build = find("entry-workstation").unwrap().load().unwrap();
    build.custom_lines.push(CustomLine {
        name: "Rack rails".to_owned(),
        amount: 125.0,
        quantity: 4,
        kind: CostKind::Capex,
    });
    build.usage.workload = Some(PlannedWorkload {
        model: "model/meta-llama-3.1-8b".to_owned(),
        workload: "lora-r16".to_owned(),
        run_tokens: Some(1.0e9),
    });
    let r = analyze(&catalog, &build);
    let g = &r.thermal.nodes[0].gpus[0];
    let b = basis::find(r.basis(), "thermal.nodes[0].gpus[0].max_temp_c").expect("the limit is explained");
    assert_eq!(b.confidence, Confidence::Datasheet);
    assert!(close(b.value, catalog.gpu(&g.part).expect("a catalog GPU").max_temp_c, 0.0));
    let total = basis::find(r.basis(), "bom.parts_total").expect("the parts total");
    let sum: f64 = total.inputs.iter().map(|i| i.value).sum();
    assert!(close(sum, r.bom.parts_total, 1e-9), "{}", total.substituted);
    assert_eq!(total.inputs.len(), r.bom.lines.iter().filter(|l| l.extended_price.is_some()).count());
    let custom = basis::find(r.basis(), "bom.custom_capex[0].amount").expect("the custom cost");
    assert!(close(custom.value, 500.0, 0.0));
    let cur = r.bom.currency.to_string();
    assert!(custom.substituted.starts_with(&format!("125.00 {cur} × 4 = 500.00 {cur}")), "{}", custom.substituted);
    let wl = r.tco.workload.as_ref().expect("the planned workload is priced");
    let run_kwh = wl.run_energy_kwh.expect("a run's energy");
    let run = basis::find(r.basis(), "tco.workload.run_energy_kwh").expect("the run's energy is explained");
    assert!(close(run.value, run_kwh, 1e-12));
    let input = |name: &str| run.inputs.iter().find(|i| i.name == name).unwrap().value;
    let by_hand = input("P_wall,max") * input("PUE") / 1000.0 * input("run tokens") / input("tokens/s") / 3600.0;
    assert!(close(by_hand, run_kwh, 1e-9), "{}", run.substituted);
}

/// A finding that quotes computed figures names them, so that its numbers can be explained;
/// one about datasheet facts names none.
#[test]
fn a_power_finding_names_the_figures_it_quotes() {
    use rigplan::core::analysis::basis::findings::figures_of;
    let catalog = Catalog::embedded().unwrap();
    let mut found = false;
    for t in TEMPLATES {
        let r = report_of(t.slug);
        for d in &r.diagnostics {
            let keys = figures_of(d, r.basis());
            for k in &keys {
                assert!(basis::find(r.basis(), k).is_some(), "{}: {k}", t.slug);
            }
            if d.code.as_str().starts_with("cpu-socket") || d.code.as_str().starts_with("missing-") {
                assert!(keys.is_empty(), "{}: {}", t.slug, d.code.as_str());
            }
        }
    }
    // The entry workstation (732 W DC at max on a 1,000 W PSU) with a second RTX 4090 (450 W):
    // the PSU is too small, and the finding names the node's PSU load and DC max draw.
    let mut build = find("entry-workstation").unwrap().load().unwrap();
    for line in &mut build.nodes[0].parts {
        if line.part.kind() == Some(rigplan::core::catalog::PartKind::Gpu) {
            line.quantity = 2;
            found = true;
        }
    }
    assert!(found, "the template has a GPU line");
    let r = analyze(&catalog, &build);
    let d = r.diagnostics.iter().find(|d| d.code.as_str() == "psu-capacity-low").expect("too small a PSU");
    assert_eq!(figures_of(d, r.basis()), ["power.nodes[0].psu_load_fraction", "power.nodes[0].max_watts"]);
}

/// README shows an explained figure and the validate summary of this build: both are what the
/// commands print now (a changed estimate or reference set must update README).
#[test]
fn readme_shows_this_builds_explained_figure_and_validate_summary() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let (code, explain, _) = run(&["report", &template_path("entry-workstation"), "--explain", "--lang", "en"]);
    assert_eq!(code, 0);
    let key = "  power.nodes[0].wall_watts: ";
    let shown: Vec<&str> = readme.lines().skip_while(|l| !l.starts_with(key)).take(5).collect();
    assert_eq!(shown.len(), 5, "README has the explained wall draw");
    let printed: Vec<&str> = explain.lines().skip_while(|l| !l.starts_with(key)).take(5).collect();
    assert_eq!(shown, printed);
    let (code, validate, _) = run(&["validate", "--lang", "en"]);
    assert_eq!(code, 0);
    let summary = |text: &str| -> Vec<String> {
        text.lines()
            .skip_while(|l| !l.starts_with("Summary per class"))
            .take_while(|l| !l.starts_with("Every class"))
            .map(str::to_owned)
            .collect()
    };
    assert!(summary(&validate).len() >= 9, "{validate}");
    assert_eq!(summary(&readme), summary(&validate));
    assert!(readme.contains(validate.lines().next().unwrap()), "the count of measurements");
}

/// The counts and settings explain themselves (issue 15): the 8 × H100 HGX template is one
/// node of eight 80 GiB H100 SXM5s priced in CNY at 7.2 per USD; made three nodes, it has
/// 3 nodes and 8 × 3 = 24 GPUs. Dated 2026-12-01 with a 12-month threshold, its H100 price
/// (dated 2023-08) is 3 years and 4 months = 40 months old, so stale.
#[test]
#[expect(clippy::float_cmp, reason = "counts are whole numbers, exact in an f64")]
fn counts_and_settings_have_bases_with_the_builds_numbers() {
    use rigplan::core::analysis::prices::PriceAgePolicy;
    use rigplan::core::export::date::SheetDate;
    let catalog = Catalog::embedded().expect("embedded catalog");
    let mut build = find("enterprise-8x-h100-hgx").expect("template").load().expect("loads");
    build.nodes[0].count = 3;
    let mut r = analyze(&catalog, &build);
    let bases = r.basis();
    let get = |key: &str| basis::find(bases, key).unwrap_or_else(|| panic!("no basis of {key}")).clone();
    let nodes = get("nodes");
    assert_eq!((nodes.formula_id, nodes.value), ("count-nodes", 3.0));
    assert!(nodes.substituted.ends_with("= 3"), "{}", nodes.substituted);
    let gpus = get("gpus");
    assert_eq!((gpus.formula_id, gpus.value), ("count-gpus", 24.0));
    assert!(gpus.substituted.starts_with("8 × 3 (") && gpus.substituted.ends_with("= 24"), "{}", gpus.substituted);
    let per_node = get("fit[0].gpus_per_node");
    assert_eq!((per_node.formula_id, per_node.value), ("count-gpus-per-node", 8.0));
    assert!(per_node.substituted.starts_with("8 (line 1) = 8 ×"), "{}", per_node.substituted);
    let memory = get("fit[0].gpu_memory_bytes");
    assert_eq!((memory.formula_id, memory.value, memory.unit), ("gpu-memory", 80.0, "GiB"));
    assert_eq!(memory.confidence, Confidence::Datasheet);
    assert_eq!(memory.inputs[0].from, "gpu/nvidia-h100-sxm5-80gb");
    let rate = get("bom.usd_exchange_rate");
    assert_eq!((rate.formula_id, rate.value), ("exchange-rate", 7.2));
    assert!(rate.substituted.starts_with("1 USD = 7.2"), "{}", rate.substituted);
    let unpriced = get("bom.unpriced_lines");
    assert_eq!(unpriced.value, r.bom.unpriced_lines as f64);
    for (key, severity) in [
        ("diagnostics.errors", rigplan::core::analysis::Severity::Error),
        ("diagnostics.warnings", rigplan::core::analysis::Severity::Warning),
    ] {
        let b = get(key);
        assert_eq!((b.formula_id, b.value), ("count-findings", r.count(severity) as f64), "{key}");
        assert_eq!(b.inputs.len(), r.count(severity), "{key}: one input per finding");
    }
    // No stale count before the prices are dated; dating adds it to bases already written.
    assert!(basis::find(r.basis(), "prices.stale_lines").is_none());
    let as_of = SheetDate::new(2026, 12, 1).expect("a date");
    r.date_prices(PriceAgePolicy { as_of, stale_after_months: 12 });
    let stale = basis::find(r.basis(), "prices.stale_lines").expect("dated: a stale count").clone();
    assert_eq!(stale.formula_id, "price-stale");
    assert_eq!(stale.confidence, Confidence::Assumption);
    let ages = r.prices.as_ref().expect("dated");
    assert_eq!(stale.value, ages.stale_lines() as f64);
    let h100 =
        stale.inputs.iter().find(|i| i.from.starts_with("gpu/nvidia-h100-sxm5-80gb")).expect("the H100 is stale");
    assert_eq!(h100.value, 40.0, "2023-08-01 to 2026-12-01");
    assert_eq!(stale.inputs[0].value, 12.0, "the threshold");
    // Dated again with a threshold nothing passes: the count is replaced, not added.
    r.date_prices(PriceAgePolicy { as_of, stale_after_months: 120 });
    let again: Vec<_> = r.basis().iter().filter(|b| b.figure == "prices.stale_lines").collect();
    assert_eq!(again.len(), 1);
    assert_eq!(again[0].value, 0.0);
}
