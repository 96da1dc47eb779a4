//! The published reference set (`catalog/reference/measurements.ron`): every measurement is
//! recomputed with rigplan's analyses and must land within the tolerance the set claims for it;
//! every class holds several measurements.

use rigplan::core::catalog::Catalog;
use rigplan::core::reference::{self, Class, Outcome, Setup, embedded, evaluate, load};
use std::collections::BTreeSet;

fn outcomes() -> Vec<Outcome> {
    let catalog = Catalog::embedded().expect("embedded catalog");
    embedded()
        .expect("the reference set parses")
        .iter()
        .map(|m| evaluate(m, &catalog).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn table(rows: &[&Outcome]) -> String {
    rows.iter()
        .map(|o| {
            format!(
                "{:<48} measured {:>12.3} estimated {:>12.3} error {:>+7.1} % (tolerance {:.0} %)",
                o.id,
                o.measured,
                o.estimated,
                o.error * 100.0,
                o.tolerance * 100.0
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_measurement_is_within_its_tolerance() {
    let all = outcomes();
    eprintln!("{}", table(&all.iter().collect::<Vec<_>>()));
    let failing: Vec<&Outcome> = all.iter().filter(|o| !o.holds()).collect();
    assert!(
        failing.is_empty(),
        "outside tolerance:\n{}\n\nall:\n{}",
        table(&failing),
        table(&all.iter().collect::<Vec<_>>())
    );
}

#[test]
fn every_class_has_several_cited_measurements() {
    let set = embedded().expect("parses");
    for class in Class::ALL {
        let n = set.iter().filter(|m| m.class == class).count();
        assert!(n >= 2, "{class:?} has {n} measurement(s)");
    }
    let ids: BTreeSet<&str> = set.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids.len(), set.len(), "ids are unique");
    for m in &set {
        assert!(m.source.len() > 20, "{} needs a citation", m.id);
        assert!(m.tolerance > 0.0 && m.tolerance <= 0.5, "{}: tolerance {}", m.id, m.tolerance);
        assert!(m.measured.is_finite() && m.measured > 0.0, "{}", m.id);
    }
    // Decode holds several GPUs and engines, not one tuned point.
    let gpus: BTreeSet<&str> = set
        .iter()
        .filter(|m| m.class == Class::Decode)
        .filter_map(|m| match &m.setup {
            Setup::Run(r) => Some(r.gpu.as_str()),
            Setup::Node(_) => None,
        })
        .collect();
    assert!(gpus.len() >= 6, "{gpus:?}");
}

#[test]
fn a_malformed_set_says_where() {
    let err = load("[ (id: \"x\", class: Decode, what: \"w\") ]").expect_err("missing fields");
    assert!(err.starts_with("1:"), "{err}");
    assert!(load("[").is_err());
}

/// The accuracy summary: counts, means and worst errors recomputed by hand from the outcomes.
#[test]
fn the_accuracy_summary_counts_and_averages_each_class() {
    let catalog = Catalog::embedded().expect("embedded catalog");
    let set = reference::embedded().expect("embedded set");
    let acc = reference::accuracy(&set, &catalog);
    assert!(acc.errors.is_empty(), "{:?}", acc.errors);
    assert_eq!(acc.outcomes.len(), set.len());
    let decode: Vec<&Outcome> = acc.outcomes.iter().filter(|o| o.class == Class::Decode).collect();
    let summary = acc.class(Class::Decode).expect("decode measurements");
    assert_eq!(summary.count, decode.len());
    let mean = decode.iter().map(|o| o.error.abs()).sum::<f64>() / decode.len() as f64;
    assert!((summary.mean_abs_error - mean).abs() < 1e-12);
    let worst = decode.iter().map(|o| o.error.abs()).fold(0.0, f64::max);
    assert!((summary.worst_abs_error - worst).abs() < 1e-12);
    assert!(decode.iter().any(|o| o.id == summary.worst_id && (o.error.abs() - worst).abs() < 1e-12));
    assert!(acc.passes(), "{:#?}", acc.classes);
    // A measurement 50 % off fails its class.
    let mut off = set.clone();
    let first = off.iter_mut().find(|m| m.class == Class::Power).expect("a power measurement");
    first.measured *= 2.0;
    let failing = reference::accuracy(&off, &catalog);
    assert!(!failing.class(Class::Power).expect("power").passes());
    assert!(!failing.passes());
}

/// The MPT training measurements describe each model by its architecture; the benchmark table
/// (mosaicml/llm-foundry scripts/train/benchmarking/README.md) gives the parameter count of the
/// runs at sequence 2048: 6,658,859,008 (7B), 12,853,954,560 (13B), 29,975,214,080 (30B) and
/// 64,862,437,376 (70B). The architectures as written (with linear and norm biases and learned
/// positions, which is what makes the counts agree) must count exactly these, or the FLOPs per
/// token behind the estimates would be of another model.
#[test]
fn the_mpt_architectures_count_the_parameters_of_the_benchmark_table() {
    let published = [
        ("mpt-7b", 6_658_859_008),
        ("mpt-13b", 12_853_954_560),
        ("mpt-30b", 29_975_214_080),
        ("mpt-70b", 64_862_437_376),
    ];
    let set = embedded().expect("parses");
    for (model, params) in published {
        let counted: Vec<u64> = set
            .iter()
            .filter_map(|m| match &m.setup {
                Setup::Run(r) if r.model == model => r.architecture.map(|t| t.total_params()),
                _ => None,
            })
            .collect();
        assert!(!counted.is_empty(), "{model} is in the set");
        for c in counted {
            assert_eq!(c, params, "{model}");
        }
    }
}

/// QLoRA's cost over LoRA, held to its two published figures: Google Cloud's Vertex AI tuning
/// guidance ("LoRA is about 66 % faster than QLoRA", 1.66 x) and torchtune's measured Llama 3.1
/// 8B on one RTX 4090 (pytorch/torchtune README, 'Memory and training speed': LoRA 3083 and
/// QLoRA 2413 tokens/s with torch.compile, 1.28 x). rigplan's QLoRA run of the same model,
/// GPU and batch must take between 1.28 and 1.66 times the LoRA run's time per token. (The
/// torchtune rows are not absolute vectors of the set: rigplan's LoRA estimate is about half of
/// them; README, known gaps.)
#[test]
fn qlora_costs_what_the_published_figures_say_over_lora() {
    let run = |id: &str, mode: &str, weights: &str| {
        format!(
            "(id: \"{id}\", class: Training, what: \"w\", setup: Run((model: \"meta-llama-3.1-8b\", \
             gpu: \"gpu/nvidia-geforce-rtx-4090\", mode: \"{mode}\", weights: \"{weights}\", batch: 2, \
             context: 2048, recompute: \"full\")), metric: TrainTokensPerSPerGpu, measured: 1.0, \
             tolerance: 0.5, source: \"torchtune README, Memory and training speed\")"
        )
    };
    let text = format!("[{}, {}]", run("lora", "lora", "bf16"), run("qlora", "qlora", "nf4"));
    let set = load(&text).expect("parses");
    let catalog = Catalog::embedded().expect("embedded catalog");
    let rate: Vec<f64> = set.iter().map(|m| evaluate(m, &catalog).expect("estimates").estimated).collect();
    let slowdown = rate[0] / rate[1];
    // A hair of rounding room at the ends: rigplan takes the 1.66 itself.
    assert!((1.28 - 1e-9..=1.66 + 1e-9).contains(&slowdown), "QLoRA over LoRA: {slowdown:.3}");
}
