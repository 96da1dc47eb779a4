//! Comparison of builds: a hand-checked pair of templates, a pair with different GPUs, the
//! row semantics, currency conversion, the speed model choice and the errors.

use crate::export::{catalog, template};
use rigplan::core::analysis;
use rigplan::core::analysis::memory::Verdict;
use rigplan::core::build::Build;
use rigplan::core::compare::{self, CompareError, CompareOptions, Comparison, Direction, Outcome, Row};
use rigplan::core::export::{self, CompareFormat};
use rigplan::core::units::Currency;

use crate::approx::assert_close as close;

fn run(builds: &[&Build]) -> Comparison {
    compare::compare(catalog(), builds, &CompareOptions::default()).expect("comparison")
}

fn row<'a>(c: &'a Comparison, id: &str) -> &'a Row {
    c.row(id).unwrap_or_else(|| panic!("no row {id}"))
}

fn value(r: &Row, i: usize) -> f64 {
    r.values.get(i).copied().flatten().unwrap_or_else(|| panic!("{} has no value for build {i}", r.id))
}

fn delta(r: &Row) -> f64 {
    r.deltas.get(1).copied().flatten().unwrap_or_else(|| panic!("{} has no delta", r.id))
}

/// The two entry workstations differ in CPU, board, PSU, cooler and case; everything else (the
/// RTX 4090, memory, SSD, site, utilization) is the same.
#[test]
fn entry_workstations_hand_checked() {
    let a = template("entry-workstation");
    let b = template("entry-workstation-intel");
    let c = run(&[&a, &b]);
    assert_eq!(c.builds.len(), 2);
    assert_eq!((c.builds[0].label, c.builds[1].label), ("A", "B"));
    assert_eq!(c.currency.0, "CNY");
    assert!(!c.converted_to_usd);

    // Capex. Catalog USD prices of the parts that differ:
    //   A: Ryzen 9 7950X 699 + ProArt X670E 459.99 + Vertex GX-1000 250 + NH-D15 109.95
    //      + Meshify 2 XL 219.99 = 1,738.93
    //   B: Core i7-13700K 409 + ProArt Z790 479.99 + RM1000x 189.99 + Liquid Freezer III 360
    //      109.99 + 7000D AIRFLOW 239.99 = 1,428.96
    // Δ = (1,428.96 − 1,738.93) × 7.2 CNY/USD = −309.97 × 7.2 = −2,231.784 CNY.
    let capex = row(&c, "capex");
    assert_eq!(capex.direction, Direction::Lower);
    close(value(capex, 0), 27_489.024, 1e-6);
    close(delta(capex), -2_231.784, 1e-6);
    assert_eq!(capex.vs_first, vec![None, Some(Outcome::Better)]);
    assert_eq!(capex.best, vec![1]);

    // CPU cooler headroom: A NH-D15 rated 250 W − 7950X PPT 230 W = 20 W; B Liquid Freezer III
    // 360 rated 300 W − i7-13700K max turbo 253 W = 47 W; Δ +27 W, higher is better.
    let cooler = row(&c, "cpu-cooler-headroom");
    close(value(cooler, 0), 20.0, 1e-9);
    close(value(cooler, 1), 47.0, 1e-9);
    close(delta(cooler), 27.0, 1e-9);
    assert_eq!(cooler.vs_first[1], Some(Outcome::Better));
    assert_eq!(cooler.best, vec![1]);

    // Same GPU, same workloads: every fit count and speed is the same, no fit cell differs.
    for id in ["fit-inference-bf16-4k", "fit-lora-r16", "largest-inference", "decode-bf16", "train-lora"] {
        let r = row(&c, id);
        close(delta(r), 0.0, 0.0);
        assert_eq!(r.vs_first[1], Some(Outcome::Same), "{id}");
        assert!(r.best.is_empty(), "{id}: a tie has no best");
    }
    assert!(c.fit_differences.is_empty());
    // Llama 3.1 8B full fine-tuning (16 bytes/parameter × 8.03 B = 128 GB) does not fit 24 GB.
    let full = row(&c, "train-full");
    assert_eq!(full.values, vec![None, None]);
    assert_eq!(full.text, vec!["does not fit".to_owned(), "does not fit".to_owned()]);
    assert_eq!(full.deltas, vec![None, None]);
    assert!(full.missing_is_worst);
    assert_eq!(full.vs_first, vec![None, Some(Outcome::Same)], "neither can: the same");
    assert!(full.best.is_empty());

    // LoRA training time for 1B tokens = 1e9 / tokens per second / 3,600.
    let lora_tps = value(row(&c, "train-lora"), 0);
    close(value(row(&c, "time-lora"), 0), 1.0e9 / lora_tps / 3_600.0, 1e-9);

    // The other deltas are the differences of the two reports (same 3-year horizon).
    let ra = analysis::analyze(catalog(), &a);
    let rb = analysis::analyze(catalog(), &b);
    close(delta(row(&c, "wall-max")), rb.power.wall_watts - ra.power.wall_watts, 1e-9);
    close(delta(row(&c, "tco-owned")), rb.tco.totals.owned - ra.tco.totals.owned, 1e-6);
    close(
        delta(row(&c, "break-even")),
        rb.tco.break_even_month.expect("B breaks even") - ra.tco.break_even_month.expect("A breaks even"),
        1e-9,
    );
    // Same errors and warnings: zero deltas, no best.
    assert!(row(&c, "errors").best.is_empty());
    // Information rows have no direction, hence no verdict.
    assert_eq!(row(&c, "infos").vs_first, vec![None, None]);
    assert_eq!(row(&c, "tco-cloud").direction, Direction::None);

    // Parts difference: five swaps, one unit each way, GPUs/memory/SSD not listed.
    assert_eq!(c.parts_difference.len(), 10);
    let q = |id: &str| {
        let p = c.parts_difference.iter().find(|p| p.part.as_str() == id).unwrap_or_else(|| panic!("{id}"));
        (p.quantities.clone(), p.deltas.clone())
    };
    assert_eq!(q("cpu/amd-ryzen-9-7950x"), (vec![1, 0], vec![0, -1]));
    assert_eq!(q("cpu/intel-core-i7-13700k"), (vec![0, 1], vec![0, 1]));
    assert!(c.parts_difference.iter().all(|p| p.part.as_str() != "gpu/nvidia-geforce-rtx-4090"));
    // Sorted by catalog kind: CPUs first (no GPU differs), chassis last.
    assert_eq!(c.parts_difference.first().map(|p| p.category), Some("CPU"));
    assert_eq!(c.parts_difference.last().map(|p| p.category), Some("Chassis"));
}

#[test]
fn entry_workstations_markdown_snapshot() {
    let c = run(&[&template("entry-workstation"), &template("entry-workstation-intel")]);
    let md = String::from_utf8(export::render_comparison(CompareFormat::Markdown, &c).expect("md")).expect("utf-8");
    insta::assert_snapshot!("compare-entry-workstations.md", md);
}

#[test]
fn different_gpus_differ_in_fit_and_parts() {
    let a = template("entry-workstation");
    let b = template("enterprise-8x-h100-hgx");
    let c = run(&[&a, &b]);
    // Llama 2 70B in bf16 (≈ 138 GB of weights) does not fit one 24 GB RTX 4090 but fits two
    // 80 GB H100s of the HGX node.
    let d = c
        .fit_differences
        .iter()
        .find(|d| d.model.as_str() == "model/meta-llama-2-70b" && d.workload.id() == "inference-bf16-4k")
        .expect("Llama 2 70B bf16 differs");
    assert_eq!(d.verdicts, vec![Some(Verdict::DoesNotFit), Some(Verdict::Fits)]);
    let gpus: Vec<_> = c.parts_difference.iter().filter(|p| p.category == "GPU").collect();
    assert_eq!(gpus.len(), 2);
    assert!(gpus.iter().any(|p| p.part.as_str() == "gpu/nvidia-h100-sxm5-80gb" && p.quantities == vec![0, 8]));
    // H100 decodes Llama 3.1 8B faster (3.35 TB/s vs 1.0 TB/s of memory bandwidth).
    let decode = row(&c, "decode-bf16");
    assert!(value(decode, 1) > value(decode, 0));
    assert_eq!(decode.best, vec![1]);
    // Full fine-tuning of Llama 3.1 8B (128 GB of model states under ZeRO-3) needs more than
    // one 24 GB card but fits 8 × 80 GB: a build that cannot do it ranks below one that can.
    let full = row(&c, "train-full");
    assert_eq!(full.text.first().map(String::as_str), Some("does not fit"));
    assert!(value(full, 1) > 0.0);
    assert_eq!(full.vs_first, vec![None, Some(Outcome::Better)]);
    assert_eq!(full.best, vec![1]);
    // The H100 node fits more models; the 4090 costs less.
    assert_eq!(row(&c, "largest-inference").best, vec![1]);
    assert_eq!(row(&c, "capex").best, vec![0]);
    assert_eq!(row(&c, "gpu-headroom").direction, Direction::Higher);
    assert!(c.notes.iter().any(|n| n.contains("utilizations")), "{:?}", c.notes);
}

#[test]
fn up_to_four_builds_and_ties() {
    let a = template("entry-workstation");
    let c = run(&[&a, &a, &template("entry-workstation-intel"), &a]);
    assert_eq!(c.builds.iter().map(|b| b.label).collect::<Vec<_>>(), vec!["A", "B", "C", "D"]);
    let capex = row(&c, "capex");
    assert_eq!(capex.best, vec![2]);
    assert_eq!(capex.vs_first, vec![None, Some(Outcome::Same), Some(Outcome::Better), Some(Outcome::Same)]);
    // Wall power: A, B and D tie for best (lower) against C.
    assert_eq!(row(&c, "wall-max").best, vec![0, 1, 3]);
    assert_eq!(c.curves.len(), 4);
}

#[test]
fn different_currencies_convert_to_usd() {
    let a = template("entry-workstation");
    let mut b = a.clone();
    b.site.currency = Currency("USD".to_owned());
    b.site.usd_exchange_rate = 1.0;
    b.site.electricity_per_kwh = a.site.electricity_per_kwh / a.site.usd_exchange_rate;
    let c = run(&[&a, &b]);
    assert!(c.converted_to_usd);
    assert_eq!(c.currency.0, "USD");
    // Catalog prices are USD: A's 27,489.024 CNY at 7.2 is 3,817.92 USD, B's capex exactly.
    let capex = row(&c, "capex");
    close(value(capex, 0), 3_817.92, 1e-6);
    close(value(capex, 1), 3_817.92, 1e-6);
    assert_eq!(capex.vs_first[1], Some(Outcome::Same));
    assert!(c.notes.iter().any(|n| n.contains("different currencies")));
}

#[test]
fn model_and_horizon_options() {
    let a = template("entry-workstation");
    let b = template("dual-h100-workstation");
    let default = run(&[&a, &b]);
    assert_eq!(default.model.as_ref().map(rigplan::core::catalog::ModelId::as_str), Some(compare::DEFAULT_MODEL));
    assert!(default.row("decode-bf16").is_some());
    // A measured model gets samples-per-second rows instead of tokens.
    let options = CompareOptions { model: Some("resnet-50".to_owned()), ..CompareOptions::default() };
    let resnet = compare::compare(catalog(), &[&a, &b], &options).expect("comparison");
    assert!(resnet.row("decode-bf16").is_none());
    assert!(value(row(&resnet, "samples-inference"), 0) > 0.0);
    // The horizon sets the TCO rows: one year has 12 months of curve.
    let options = CompareOptions { horizon_years: 1.0, ..CompareOptions::default() };
    let one = compare::compare(catalog(), &[&a, &b], &options).expect("comparison");
    assert_eq!(one.curves.first().map(|k| k.owned.len()), Some(13));
    assert!(row(&one, "tco-owned").label.contains("1 years"));
}

#[test]
fn bad_requests_are_errors() {
    let a = template("entry-workstation");
    let opts = CompareOptions::default();
    assert_eq!(compare::compare(catalog(), &[&a], &opts), Err(CompareError::Count(1)));
    assert_eq!(compare::compare(catalog(), &[&a, &a, &a, &a, &a], &opts), Err(CompareError::Count(5)));
    let unknown = CompareOptions { model: Some("model/nope".to_owned()), ..CompareOptions::default() };
    assert_eq!(
        compare::compare(catalog(), &[&a, &a], &unknown),
        Err(CompareError::UnknownModel("model/nope".to_owned()))
    );
    let horizon = CompareOptions { horizon_years: 0.1, ..CompareOptions::default() };
    assert_eq!(compare::compare(catalog(), &[&a, &a], &horizon), Err(CompareError::Horizon(0.1)));
    let mut usd = a.clone();
    usd.site.currency = Currency("USD".to_owned());
    let mut broken = a.clone();
    broken.site.usd_exchange_rate = 0.0;
    assert!(matches!(
        compare::compare(catalog(), &[&usd, &broken], &opts),
        Err(CompareError::ExchangeRate { rate, .. }) if rate == 0.0
    ));
    let tokens = CompareOptions { train_tokens: 0.0, ..CompareOptions::default() };
    assert!(matches!(compare::compare(catalog(), &[&a, &a], &tokens), Err(CompareError::TrainTokens(_))));
}

#[test]
fn every_compare_format_renders_and_escapes() {
    let mut a = template("entry-workstation");
    a.name = "=cmd|' /C calc'!A0 <script>alert(1)</script>".to_owned();
    let c = run(&[&a, &template("edge-jetson-agx-orin")]);
    for format in CompareFormat::ALL {
        let bytes = export::render_comparison(format, &c).expect("renders");
        let text = String::from_utf8(bytes).expect("utf-8");
        match format {
            CompareFormat::Json => {
                let v: serde_json::Value = serde_json::from_str(&text).expect("json");
                assert_eq!(v["builds"][0]["name"], a.name);
                assert_eq!(v["groups"].as_array().map(Vec::len), Some(6));
            }
            CompareFormat::Csv => {
                let mut reader = ::csv::ReaderBuilder::new()
                    .has_headers(false)
                    .flexible(true)
                    .from_reader(text.trim_start_matches('\u{feff}').as_bytes());
                let fields: Vec<String> = reader
                    .records()
                    .flat_map(|r| r.expect("csv parses").iter().map(str::to_owned).collect::<Vec<_>>())
                    .collect();
                assert!(fields.iter().any(|f| f == &format!("'{}", a.name)), "the name is there, neutralized");
                assert!(!fields.iter().any(|f| f.starts_with(['=', '@', '+'])), "{text}");
            }
            CompareFormat::Html => {
                assert!(text.contains("<svg") && text.contains("&lt;script&gt;"));
                assert!(!text.contains("<script>"), "HTML leaks a tag");
            }
            CompareFormat::Markdown => {
                assert!(text.contains("\\<script\\>"));
                assert!(!text.contains("<script>"), "Markdown leaks a tag");
            }
        }
    }
    // The Jetson has no matching cloud option: no break-even, said in words, and not ranked.
    let be = row(&c, "break-even");
    assert_eq!(be.text.get(1).map(String::as_str), Some("no option"));
    assert!(!be.missing_is_worst);
    assert_eq!(be.vs_first, vec![None, None]);
    assert!(be.best.is_empty());
}

/// A comparison in Chinese: every format's headings, row labels, direction words and chart
/// labels come from the Chinese table, and none of the English ones is left (JSON keys stay
/// English; part and model names are the catalog's).
#[test]
fn comparison_in_chinese() {
    use rigplan::core::compare::texts::{EN, ZH};
    use rigplan::core::i18n::Lang;
    let options = CompareOptions { lang: Lang::ZhCn, ..CompareOptions::default() };
    let c = compare::compare(catalog(), &[&template("entry-workstation"), &template("edge-jetson-agx-orin")], &options)
        .expect("comparison");
    assert_eq!(row(&c, "break-even").text.get(1).map(String::as_str), Some(ZH.no_option));
    let english = [
        EN.capex,
        EN.break_even,
        EN.recommended_psu,
        EN.gpu_headroom,
        EN.parts_differences,
        EN.fit_differences,
        EN.lower_is_better,
        EN.higher_is_better,
        EN.power_title,
        EN.cumulative_cost,
        EN.part_id,
        EN.metric_id,
        ": owned",
        " break-even",
    ];
    for format in [CompareFormat::Csv, CompareFormat::Markdown, CompareFormat::Html] {
        let text = String::from_utf8(export::render_comparison(format, &c).expect("renders")).expect("utf-8");
        for zh in [ZH.group_cost, ZH.capex, ZH.break_even, ZH.parts_differences, ZH.category] {
            assert!(text.contains(zh), "{format:?} lacks {zh}");
        }
        for en in english {
            assert!(!text.contains(en), "{format:?} still says {en:?}");
        }
        if format == CompareFormat::Html {
            assert!(text.contains("lang=\"zh-CN\""), "the page declares its language");
            for zh in [ZH.power_title, ZH.power_idle, "：自建"] {
                assert!(text.contains(zh), "the charts lack {zh}");
            }
        }
    }
    // The same comparison in English has none of these Chinese labels.
    let en = compare::compare(
        catalog(),
        &[&template("entry-workstation"), &template("edge-jetson-agx-orin")],
        &CompareOptions::default(),
    )
    .expect("comparison");
    let md = String::from_utf8(export::render_comparison(CompareFormat::Markdown, &en).expect("md")).expect("utf-8");
    assert!(md.contains(EN.capex) && !md.contains(ZH.capex));
}
