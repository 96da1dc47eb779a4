//! The advisor: its front equals brute force on a small catalog, its builds reload with the
//! figures it showed, its CLI files pass `check` and `fit --build`, and for each field-guide
//! tier it is no dearer than the shipped template or says why not.

use crate::cli::run;
use proptest::prelude::*;
use rigplan::core::advisor::{
    self, Circuits, Form, Objective, Preset, Requirement, WorkMode, WorkloadReq, brute,
    requirement::DEFAULT_CNY_PER_USD,
};
use rigplan::core::analysis::memory::WeightType;
use rigplan::core::analysis::{self, Severity};
use rigplan::core::catalog::{Catalog, ModelId, PartId};
use rigplan::core::persist;
use rigplan::core::templates;
use rigplan::core::units::Currency;

/// The small catalog of the brute-force comparison: four GPUs, two of every platform part,
/// three PSUs (2 × 2 × 2 × 2 × 2 × 2 × 3 platforms per GPU configuration).
const SMALL: [&str; 19] = [
    "gpu/nvidia-geforce-rtx-4090",
    "gpu/nvidia-geforce-rtx-3090",
    "gpu/nvidia-geforce-rtx-4060-ti-16gb",
    "gpu/nvidia-geforce-rtx-5090",
    "chassis/fractal-design-meshify-2-xl",
    "chassis/corsair-7000d-airflow",
    "motherboard/asus-proart-x670e-creator-wifi",
    "motherboard/asus-proart-z790-creator-wifi",
    "cpu/amd-ryzen-9-7950x",
    "cpu/intel-core-i9-13900k",
    "cooler/noctua-nh-d15",
    "cooler/noctua-nh-u12s",
    "memory/kingston-fury-beast-ddr5-5200-32gb",
    "memory/gskill-trident-z5-ddr5-6000-32gb",
    "storage/samsung-990-pro-1tb",
    "storage/samsung-990-pro-2tb",
    "psu/corsair-rm850x-2024",
    "psu/seasonic-vertex-gx-1000",
    "psu/corsair-hx1500i-2023",
];

fn small_catalog() -> Catalog {
    let mut c = Catalog::embedded().unwrap();
    c.retain_parts(|id| SMALL.contains(&id.as_str()));
    assert_eq!(c.len(), SMALL.len(), "every part of the small catalog is in the shipped one");
    c
}

fn workload(model: &str, mode: WorkMode) -> WorkloadReq {
    WorkloadReq::new(ModelId(format!("model/{model}")), mode)
}

const MODELS: [&str; 4] = ["meta-llama-3.1-8b", "qwen2.5-7b", "mistral-7b-v0.1", "meta-llama-2-13b"];

fn requirement_strategy() -> impl Strategy<Value = Requirement> {
    (
        0..MODELS.len(),
        prop_oneof![Just(WorkMode::Inference), Just(WorkMode::Lora), Just(WorkMode::Qlora)],
        prop_oneof![Just(WeightType::Bf16), Just(WeightType::Int4), Just(WeightType::Q4KM)],
        1u32..=16,
        5.0f64..40.0,
        2_000.0f64..12_000.0,
        prop_oneof![Just(10.0), Just(16.0)],
        0..Objective::ALL.len(),
        1u32..=3,
    )
        .prop_map(|(m, mode, weights, users, tps, budget, amps, objective, max_gpus)| {
            let mut w = workload(MODELS[m], mode);
            if mode != WorkMode::Qlora {
                w.weights = weights;
            }
            w.users = users;
            w.tokens_per_user = tps;
            if mode != WorkMode::Inference {
                w.train_tokens = Some(1.0e7);
            }
            let mut r = Requirement::new(vec![w], budget, Currency::default(), 1.0);
            r.site.circuits = Circuits { volts: 220.0, amps, phases: 1, count: 1 };
            r.objective = Objective::ALL[objective];
            r.filters.max_gpus_per_node = Some(max_gpus);
            r
        })
}

/// (configuration, capex rounded to cents) of a front, sorted.
fn keyed(items: impl Iterator<Item = (advisor::ConfigKey, f64)>) -> Vec<(advisor::ConfigKey, i64)> {
    #[expect(clippy::cast_possible_truncation, reason = "test capexes are far inside i64")]
    let mut v: Vec<_> = items.map(|(k, c)| (k, (c * 100.0).round() as i64)).collect();
    v.sort();
    v
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    /// The branch and bound is exact: its front is the brute-force front over every
    /// combination of the small catalog (same configurations, same capex).
    #[test]
    fn front_equals_brute_force(req in requirement_strategy()) {
        let catalog = small_catalog();
        let advice = advisor::advise(&catalog, &req).unwrap();
        prop_assert_eq!(advice.front_left_out, 0);
        let brute = brute::front(&catalog, &req).unwrap();
        let fast = keyed(advice.front.iter().map(|c| (c.key.clone(), c.capex)));
        let slow = keyed(brute.into_iter().map(|(k, c, _)| (k, c)));
        prop_assert_eq!(fast, slow);
    }
}

/// The small rack catalog: two GPU servers that ship their PSUs (one with 16-pin GPU
/// cables, one with none), their CPU boards, CPUs, coolers and memory, an M.2, a U.2 and a
/// 3.5" drive (neither server has 3.5" bays), and three PCIe cards of different power
/// connectors: the rules the search applies early (drive bays, connectors of shipped PSUs)
/// against brute force.
const SMALL_RACK: [&str; 17] = [
    "gpu/nvidia-rtx-pro-6000-blackwell",
    "gpu/nvidia-l40s",
    "gpu/nvidia-a100-pcie-80gb",
    "chassis/supermicro-sys-420gp-tnar",
    "chassis/supermicro-as-4125gs-tnrt",
    "motherboard/supermicro-x12dpg-oa6",
    "motherboard/supermicro-h13dsg-om",
    "cpu/intel-xeon-platinum-8380",
    "cpu/amd-epyc-9654",
    "cooler/supermicro-lga4189-passive-heatsink",
    "cooler/supermicro-sp5-passive-heatsink",
    "memory/samsung-ddr4-3200-rdimm-32gb",
    "memory/samsung-ddr5-4800-rdimm-32gb",
    "storage/kingston-kc3000-512gb",
    "storage/samsung-pm9a3-7.68tb",
    "storage/seagate-exos-x20-20tb",
    "psu/supermicro-2200w-titanium-module",
];

fn small_rack_catalog() -> Catalog {
    let mut c = Catalog::embedded().unwrap();
    let keep = |id: &PartId| SMALL_RACK.contains(&id.as_str()) || id.as_str() == "psu/supermicro-2000w-titanium-module";
    c.retain_parts(keep);
    assert_eq!(c.len(), SMALL_RACK.len() + 1, "every part of the small rack catalog is in the shipped one");
    c
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() })]

    /// The same exactness on rack servers with shipped PSUs and datasets that need many drives.
    #[test]
    fn rack_front_equals_brute_force(
        users in 1u32..=40,
        weights in prop_oneof![Just(WeightType::Bf16), Just(WeightType::Int4)],
        budget in 40_000.0f64..160_000.0,
        dataset in prop_oneof![Just(None), Just(Some(20_000.0)), Just(Some(60_000.0))],
        max_gpus in 1u32..=4,
    ) {
        let catalog = small_rack_catalog();
        let mut w = workload("meta-llama-3.1-70b", WorkMode::Inference);
        w.weights = weights;
        w.users = users;
        w.tokens_per_user = 10.0;
        let mut req = Requirement::new(vec![w], budget, Currency::default(), 1.0);
        req.site.form = Form::Rack;
        req.site.circuits = Circuits { volts: 380.0, amps: 32.0, phases: 3, count: 1 };
        req.filters.max_nodes = Some(1);
        req.filters.max_gpus_per_node = Some(max_gpus);
        req.dataset_gb = dataset;
        let advice = advisor::advise(&catalog, &req).unwrap();
        let brute = brute::front(&catalog, &req).unwrap();
        let fast = keyed(advice.front.iter().map(|c| (c.key.clone(), c.capex)));
        let slow = keyed(brute.into_iter().map(|(k, c, _)| (k, c)));
        prop_assert_eq!(fast, slow);
    }
}

/// The rack catalog has answers, so the equality above is not only of empty fronts: the
/// RTX PRO 6000 is fed only by the server with 16-pin cables, and 20 TB of data fits only on
/// U.2 drives (the 3.5" disk has no bay).
#[test]
fn rack_brute_force_equality_covers_real_fronts() {
    let catalog = small_rack_catalog();
    let mut w = workload("meta-llama-3.1-70b", WorkMode::Inference);
    w.weights = WeightType::Int4;
    w.users = 8;
    let mut req = Requirement::new(vec![w], 150_000.0, Currency::default(), 1.0);
    req.site.form = Form::Rack;
    req.site.circuits = Circuits { volts: 380.0, amps: 32.0, phases: 3, count: 1 };
    req.filters.max_nodes = Some(1);
    req.filters.max_gpus_per_node = Some(2);
    req.dataset_gb = Some(20_000.0);
    let advice = advisor::advise(&catalog, &req).unwrap();
    assert!(!advice.front.is_empty(), "{:?}", advice.failure);
    let brute = brute::front(&catalog, &req).unwrap();
    assert_eq!(
        keyed(advice.front.iter().map(|c| (c.key.clone(), c.capex))),
        keyed(brute.into_iter().map(|(k, c, _)| (k, c)))
    );
    for c in &advice.front {
        let drives: Vec<_> =
            c.build.nodes[0].parts.iter().filter(|l| l.part.as_str().starts_with("storage/")).collect();
        assert_eq!(drives.len(), 1);
        assert_eq!(drives[0].part.as_str(), "storage/samsung-pm9a3-7.68tb", "the only drive the bays hold for 20 TB");
        let rtx_pro = c.build.nodes[0].parts.iter().any(|l| l.part.as_str() == "gpu/nvidia-rtx-pro-6000-blackwell");
        let chassis = c.build.nodes[0].parts.iter().find(|l| l.part.as_str().starts_with("chassis/")).unwrap();
        if rtx_pro {
            assert_eq!(chassis.part.as_str(), "chassis/supermicro-as-4125gs-tnrt", "the server with 16-pin cables");
        }
    }
}

/// A case the random requirements must cover at least once: a front with more than one
/// member (two speeds at two prices), so the equality above is not only of empty fronts.
#[test]
fn brute_force_equality_covers_a_real_front() {
    let catalog = small_catalog();
    let mut w = workload("meta-llama-3.1-8b", WorkMode::Inference);
    w.users = 8;
    w.tokens_per_user = 20.0;
    let mut req = Requirement::new(vec![w], 9_000.0, Currency::default(), 1.0);
    req.site.circuits = Circuits { volts: 220.0, amps: 16.0, phases: 1, count: 1 };
    req.filters.max_gpus_per_node = Some(2);
    let advice = advisor::advise(&catalog, &req).unwrap();
    assert!(advice.front.len() >= 2, "{:#?}", advice.front.iter().map(|c| &c.key).collect::<Vec<_>>());
    let brute = brute::front(&catalog, &req).unwrap();
    assert_eq!(
        keyed(advice.front.iter().map(|c| (c.key.clone(), c.capex))),
        keyed(brute.into_iter().map(|(k, c, _)| (k, c)))
    );
    // The cheapest and the fastest say so.
    let by_capex_first = advice.front.iter().min_by(|a, b| a.capex.total_cmp(&b.capex)).unwrap();
    assert!(by_capex_first.reasons.contains(&advisor::Reason::Cheapest), "{:?}", by_capex_first.reasons);
    let fastest = advice.front.iter().max_by(|a, b| a.workloads[0].score().total_cmp(&b.workloads[0].score())).unwrap();
    assert!(fastest.reasons.contains(&advisor::Reason::Fastest), "{:?}", fastest.reasons);
    assert_eq!(advice.front.iter().filter(|c| c.reasons.contains(&advisor::Reason::Cheapest)).count(), 1);
    // The front is a front: dearer members are faster.
    let mut by_capex: Vec<_> = advice.front.iter().map(|c| (c.capex, c.workloads[0].score())).collect();
    by_capex.sort_by(|a, b| a.0.total_cmp(&b.0));
    for pair in by_capex.windows(2) {
        assert!(pair[1].1 > pair[0].1, "{pair:?}");
    }
}

/// Every candidate saved and reloaded gives the report's figures the advisor showed, with no
/// error finding and none of the warnings the advisor refuses.
#[test]
fn candidates_reload_with_the_figures_shown() {
    let catalog = Catalog::embedded().unwrap();
    let mut w = workload("meta-llama-3.1-70b", WorkMode::Inference);
    w.weights = WeightType::Int4;
    w.users = 4;
    w.tokens_per_user = 10.0;
    let mut req = Requirement::new(vec![w], 60_000.0, Currency::default(), 1.0);
    req.site.circuits = Circuits { volts: 220.0, amps: 16.0, phases: 1, count: 2 };
    let advice = advisor::advise(&catalog, &req).unwrap();
    assert!(!advice.front.is_empty(), "{:?}", advice.failure);
    for c in &advice.front {
        let text = persist::build_to_string(&c.build).unwrap();
        let back = persist::parse_build_str("candidate.ron", &text).unwrap();
        assert_eq!(back, c.build);
        let report = analysis::analyze(&catalog, &back);
        assert_eq!(report.count(Severity::Error), 0, "{}: {:#?}", c.slug, report.diagnostics);
        for d in &report.diagnostics {
            assert!(
                !advisor::search::BLOCKING_WARNINGS.contains(&d.code.as_str()),
                "{} has {}: {}",
                c.slug,
                d.code,
                d.message
            );
        }
        assert!((report.summary.capex - c.capex).abs() < 1e-6, "{}", c.slug);
        assert!((report.summary.wall_watts - c.wall_watts).abs() < 1e-6, "{}", c.slug);
        assert!((report.summary.tco.owned_total - c.tco_owned).abs() < 1e-6, "{}", c.slug);
        assert!(c.capex <= req.budget + 1e-6);
        // System memory at least 1.5 × the node's GPU memory (field guide 000 §1.2).
        let node = &back.nodes[0];
        let gpu_gib: f64 =
            node.parts.iter().filter_map(|l| catalog.gpu(&l.part).map(|g| g.memory_gib * f64::from(l.quantity))).sum();
        let ram_gib: f64 = node
            .parts
            .iter()
            .filter_map(|l| match catalog.get(&l.part) {
                Some(rigplan::core::catalog::Part::Memory(m)) => Some(m.capacity_gib * f64::from(l.quantity)),
                _ => None,
            })
            .sum();
        assert!(ram_gib >= 1.5 * gpu_gib - 1e-9, "{}: {ram_gib} GiB RAM for {gpu_gib} GiB VRAM", c.slug);
    }
}

fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// The example, and `-o DIR`: every file passes `rigplan check` and `rigplan fit
/// --build` confirms the per-GPU memory the advisor showed.
#[test]
fn cli_files_pass_check_and_fit() {
    let dir = temp_dir();
    let out_dir = dir.path().join("advice");
    let (code, out, err) = run(&[
        "advise",
        "--model",
        "meta-llama-3.1-70b",
        "--mode",
        "inference",
        "--users",
        "20",
        "--tokens-per-user",
        "15",
        "--budget",
        "400000",
        "--currency",
        "CNY",
        "--circuit",
        "220V:16A:2",
        "--form",
        "tower",
        "--weights",
        "int4",
        "--json",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let front = json["front"].as_array().unwrap();
    assert!(!front.is_empty());
    for (i, c) in front.iter().enumerate() {
        assert_eq!(c["rank"].as_u64(), Some(i as u64 + 1));
        let file = c["file"].as_str().unwrap();
        assert!(file.ends_with(&format!("{:02}-{}.ron", i + 1, c["slug"].as_str().unwrap())), "{file}");
        let (code, text, err) = run(&["check", file]);
        assert_eq!(code, 0, "{file}: {text}{err}");
        let fit = &c["workloads"][0];
        let mut args = vec!["fit", "--build", file, "--json"];
        let fit_args = fit["fit_args"].as_str().unwrap().to_owned();
        args.extend(fit_args.split_whitespace());
        let (code, text, err) = run(&args);
        assert_eq!(code, 0, "{file} {fit_args}: {err}");
        let shown: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(shown["per_gpu"]["total_bytes"], fit["per_gpu_bytes"], "{file}");
        assert_eq!(shown["fits"], serde_json::Value::Bool(true));
        assert!(!c["reasons_text"].as_array().unwrap().is_empty());
    }
}

/// A model that is not in the catalog, by its architecture (Llama 3.1 8B's config.json as
/// flags, on the command line and as `--workload` keys): the advisor sizes it as it sizes the
/// catalog model with that shape, and `rigplan fit --build FILE` with the printed flags
/// confirms its per-GPU memory, for inference and for LoRA.
#[test]
fn custom_architectures_are_advised_and_confirmed_by_fit() {
    let dir = temp_dir();
    let out_dir = dir.path().join("custom");
    let shape = [
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
    ];
    let mut args = vec!["advise", "--params", "8030261248"];
    args.extend(shape);
    args.extend([
        "--users",
        "4",
        "--budget",
        "6000",
        "--workload",
        "params=8030261248,layers=32,hidden=4096,heads=32,kv-heads=8,ffn=14336,vocab=128256,mode=lora,train-tokens=1e7",
        "--json",
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}{out}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let front = json["front"].as_array().unwrap();
    assert!(!front.is_empty());
    for c in front {
        let file = c["file"].as_str().unwrap();
        for fit in c["workloads"].as_array().unwrap() {
            let fit_args = fit["fit_args"].as_str().unwrap().to_owned();
            assert!(fit_args.starts_with("--params 8030261248 --layers 32"), "{fit_args}");
            let mut args = vec!["fit", "--build", file, "--json"];
            args.extend(fit_args.split_whitespace());
            let (code, text, err) = run(&args);
            assert_eq!(code, 0, "{file} {fit_args}: {err}");
            let shown: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert_eq!(shown["per_gpu"]["total_bytes"], fit["per_gpu_bytes"], "{file} {fit_args}");
        }
    }
    // The catalog model of the same shape gets the same front (configurations and capex).
    let (code, catalog_out, err) = run(&[
        "advise",
        "--model",
        "meta-llama-3.1-8b",
        "--users",
        "4",
        "--budget",
        "6000",
        "--workload",
        "model=meta-llama-3.1-8b,mode=lora,train-tokens=1e7",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let catalog_json: serde_json::Value = serde_json::from_str(&catalog_out).unwrap();
    let keys = |j: &serde_json::Value| -> Vec<(String, String)> {
        j["front"].as_array().unwrap().iter().map(|c| (c["key"].to_string(), c["capex"].to_string())).collect()
    };
    assert_eq!(keys(&json), keys(&catalog_json));
    // An architecture without its shape is refused, naming what is missing.
    let (code, _, err) = run(&["advise", "--params", "7e9", "--budget", "6000"]);
    assert_eq!(code, 2);
    assert!(err.contains("--layers, --hidden and --heads"), "{err}");
}

#[test]
fn cli_text_table_and_why_not() {
    let (code, out, err) = run(&[
        "advise",
        "--model",
        "meta-llama-3.1-8b",
        "--budget",
        "4000",
        "--why-not",
        "gpu/nvidia-h100-sxm5-80gb",
        "--lang",
        "en",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("#1 "), "{out}");
    assert!(out.contains("capex"), "{out}");
    assert!(out.contains("Why not H100 80GB SXM5? "), "{out}");
    assert!(out.contains("over the budget of 4,000 USD"), "{out}");
}

#[test]
fn cli_nothing_meets_the_requirement_exits_1_naming_the_constraint() {
    let (code, out, err) = run(&["advise", "--model", "meta-llama-3.1-405b", "--budget", "5000", "--lang", "en"]);
    assert_eq!(code, 1, "{err}{out}");
    assert!(out.contains("Nothing meets the requirement: "), "{out}");
    let (code, out, _) = run(&["advise", "--model", "meta-llama-3.1-405b", "--budget", "5000", "--json"]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(json["failure"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{out}");
}

#[test]
fn cli_bad_input_exits_2_and_says_what() {
    for (args, needle) in [
        (vec!["advise", "--model", "no-such-model", "--budget", "1000"], "no-such-model"),
        (vec!["advise", "--model", "meta-llama-3.1-8b"], "--budget"),
        (vec!["advise", "--budget", "1000"], "name a workload"),
        (vec!["advise", "--model", "meta-llama-3.1-8b", "--budget", "1000", "--circuit", "220:x"], "220:x"),
        (vec!["advise", "--model", "meta-llama-3.1-8b", "--budget=-5"], "budget"),
        (vec!["advise", "--model", "meta-llama-3.1-8b", "--budget", "1000", "--currency", "EUR"], "--usd-rate"),
        (vec!["advise", "--model", "meta-llama-3.1-8b", "--budget", "1000", "--require", "gpu/nope"], "gpu/nope"),
        (vec!["advise", "--workload", "model=meta-llama-3.1-8b,colour=red", "--budget", "1000"], "colour"),
        (vec!["advise", "--model", "meta-llama-3.1-8b", "--budget", "1000", "--priced-since", "May"], "May"),
        (vec!["advise", "--model", "meta-llama-3.1-8b", "--budget", "NaN"], "budget"),
        (vec!["advise", "--model", "meta-llama-3.1-8b", "--budget", "1000", "--max-nodes", "100000"], "max_nodes"),
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn circuit_flag_parses_count_and_phases() {
    let (code, out, err) = run(&[
        "advise",
        "--model",
        "meta-llama-3.1-8b",
        "--budget",
        "20000",
        "--circuit",
        "380V:32A:3:3p",
        "--form",
        "rack",
        "--json",
    ]);
    assert!(code <= 1, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let c = &json["requirement"]["site"]["circuits"];
    assert_eq!(c["volts"], 380.0);
    assert_eq!(c["amps"], 32.0);
    assert_eq!(c["count"], 3);
    assert_eq!(c["phases"], 3);
}

/// For each field-guide tier, the advisor's cheapest answer is no dearer than the shipped
/// template of the tier, or the advisor says why the template's GPU is not on the front.
#[test]
fn tiers_no_dearer_than_their_templates_or_say_why() {
    let catalog = Catalog::embedded().unwrap();
    for preset in Preset::ALL {
        let template = templates::find(preset.template()).unwrap().load().unwrap();
        let template_capex = analysis::analyze(&catalog, &template).summary.capex;
        let gpu = template.nodes[0]
            .parts
            .iter()
            .map(|l| l.part.clone())
            .find(|p| p.as_str().starts_with("gpu/") || p.as_str().starts_with("system/"))
            .unwrap();
        let mut req = preset.requirement();
        assert_eq!(req.currency.0, "CNY");
        assert!((req.usd_exchange_rate - DEFAULT_CNY_PER_USD).abs() < 1e-12);
        req.why_not = vec![gpu.clone()];
        let advice = advisor::advise(&catalog, &req).unwrap();
        let cheapest = advice.front.iter().map(|c| c.capex).fold(f64::INFINITY, f64::min);
        let on_front = advice.front.iter().any(|c| c.key.gpu == gpu || c.key.system.as_ref() == Some(&gpu));
        let why = &advice.why_not[0];
        assert_eq!(why.part, gpu);
        let said = why.reason.render(rigplan::core::i18n::Lang::En);
        if cheapest > template_capex {
            // Dearer than the template: the template's card is not on the front, and the advisor
            // names the constraint that keeps it off (not "excluded" or "unknown").
            assert!(!on_front, "{}: {gpu} is on the front yet the cheapest answer is dearer", preset.id());
            assert!(
                !matches!(why.reason, advisor::Reason::OnFront { .. } | advisor::Reason::Excluded),
                "{}: cheapest {cheapest} vs template {template_capex}; why not {gpu}: {said}",
                preset.id()
            );
        }
        if preset == Preset::Entry {
            // The entry template (one RTX 4090) costs more than the guide's 20,000 CNY at catalog
            // prices, so the advisor must answer with something cheaper that runs the workloads.
            assert!(template_capex > req.budget);
            assert!(!advice.front.is_empty(), "{:?}", advice.failure);
            assert!(cheapest <= req.budget);
        }
        if preset == Preset::Edge {
            assert!(!advice.front.is_empty(), "{:?}", advice.failure);
            assert_eq!(req.site.form, Form::Edge);
        }
    }
}

/// Required parts appear in every candidate; excluded ones in none.
#[test]
fn require_and_exclude_filters_hold() {
    let catalog = Catalog::embedded().unwrap();
    let mut req =
        Requirement::new(vec![workload("meta-llama-3.1-8b", WorkMode::Inference)], 8_000.0, Currency::default(), 1.0);
    let gpu = PartId("gpu/nvidia-geforce-rtx-4090".to_owned());
    req.filters.require_parts = vec![gpu.clone()];
    let advice = advisor::advise(&catalog, &req).unwrap();
    assert!(!advice.front.is_empty());
    assert!(advice.front.iter().all(|c| c.key.gpu == gpu));
    req.filters.require_parts.clear();
    req.filters.exclude_parts = vec![gpu.clone()];
    let advice = advisor::advise(&catalog, &req).unwrap();
    assert!(advice.front.iter().all(|c| c.build.nodes.iter().all(|n| n.parts.iter().all(|l| l.part != gpu))));
}

/// The three step times (ms) of a decode substitution `… (a ms + b ms + c ms) = …`.
fn step_ms(substituted: &str) -> f64 {
    let inner = substituted.split('(').nth(1).and_then(|s| s.split(')').next()).expect("a step in parentheses");
    inner.split('+').map(|t| t.trim().trim_end_matches("ms").trim().parse::<f64>().expect("a number")).sum()
}

/// The advisor's workload figures explain themselves: served tokens/s is replicas × B over the
/// step time (the text's numbers give the value), per-user tokens/s is 1 over the step at the
/// requested batch, and a training workload's hours are tokens / (tokens/s × 3,600).
#[test]
fn the_advisors_workload_figures_have_bases() {
    let mut serve = workload("meta-llama-3.1-8b", WorkMode::Inference);
    serve.weights = WeightType::Bf16;
    serve.users = 4;
    serve.tokens_per_user = 10.0;
    let mut train = workload("meta-llama-3.1-8b", WorkMode::Qlora);
    train.train_tokens = Some(1.0e8);
    let mut req = Requirement::new(vec![serve, train], 60_000.0, Currency::default(), 1.0);
    req.site.circuits = Circuits { volts: 220.0, amps: 16.0, phases: 1, count: 2 };
    let advice = advisor::advise(&Catalog::embedded().unwrap(), &req).expect("advice");
    assert!(!advice.front.is_empty(), "{:?}", advice.failure);
    for c in &advice.front {
        let key = |k: usize, f: &str| advisor::explain::key(k, f);
        let (s, t) = (&c.workloads[0], &c.workloads[1]);
        let served = rigplan::core::analysis::basis::find(&c.bases, &key(0, "served_tokens_per_s")).expect("served");
        assert_eq!(Some(served.value), s.served_tokens_per_s);
        let batch = s.users_capacity.expect("capacity") / s.replicas;
        let hand = f64::from(s.replicas * batch) / (step_ms(&served.substituted) / 1000.0);
        assert!((hand - served.value).abs() / served.value < 0.01, "{}: {}", c.slug, served.substituted);
        let user = rigplan::core::analysis::basis::find(&c.bases, &key(0, "per_user_tokens_per_s")).expect("per user");
        assert_eq!(Some(user.value), s.per_user_tokens_per_s);
        assert!((1000.0 / step_ms(&user.substituted) - user.value).abs() / user.value < 0.01, "{}", user.substituted);
        let rate = rigplan::core::analysis::basis::find(&c.bases, &key(1, "train_tokens_per_s")).expect("training");
        assert_eq!(Some(rate.value), t.train_tokens_per_s);
        let hours = rigplan::core::analysis::basis::find(&c.bases, &key(1, "hours")).expect("hours");
        assert!((hours.value - 1.0e8 / (rate.value * 3600.0)).abs() < 1e-9);
        assert_eq!(Some(hours.value), t.hours);
        assert_eq!(hours.formula_id, "train-time");
        assert!(hours.typical_error.is_some(), "a calibrated estimate with its typical error");
        // The serving workload's cost per 1M tokens is explained under its JSON path; the
        // training workload has none (it is costed per run).
        let cost_key = advisor::explain::cost_key;
        let cost = rigplan::core::analysis::basis::find(&c.bases, &cost_key(0)).expect("cost per 1M tokens");
        assert_eq!(Some(cost.value), c.cost_per_million_tokens[0]);
        assert!(rigplan::core::analysis::basis::find(&c.bases, &cost_key(1)).is_none());
    }
}
