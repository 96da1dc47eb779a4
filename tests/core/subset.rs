//! The part of the embedded catalog a command reads (`Catalog::embedded_subset`, issue 19):
//! every analysis and every CLI output of a build or a fit is the same as with the whole
//! catalog, so that reading a dozen entries instead of hundreds changes nothing a user sees.

use crate::cli::run;
use rigplan::core::analysis::analyze;
use rigplan::core::catalog::{Catalog, CloudSet, ModelSet, PartId, Subset};
use rigplan::core::templates::TEMPLATES;

fn whole() -> Catalog {
    Catalog::embedded().expect("the shipped catalog loads")
}

/// Every template's report (its JSON, with the explained figures) from the build's subset is
/// the report from the whole catalog.
#[test]
fn every_template_reports_the_same_from_its_subset() {
    let whole = whole();
    for t in TEMPLATES {
        let build = t.load().expect("template loads");
        let subset = Catalog::embedded_subset(&build.catalog_subset())
            .unwrap_or_else(|| panic!("{}: every part of a template is in the catalog", t.slug));
        assert!(subset.len() < whole.len() / 4, "{}: {} of {} parts read", t.slug, subset.len(), whole.len());
        let from_subset = serde_json::to_value(analyze(&subset, &build)).expect("serializes");
        let from_whole = serde_json::to_value(analyze(&whole, &build)).expect("serializes");
        assert_eq!(from_subset, from_whole, "{}", t.slug);
    }
}

/// A subset holds what its parts name: the Jetson devkit (a complete system) brings no other
/// part, a system naming its GPUs brings them, and parts nobody named stay out.
#[test]
fn a_subset_holds_the_parts_its_parts_name() {
    let whole = whole();
    let system = whole
        .systems
        .iter()
        .find(|s| s.gpus.len() == 1)
        .expect("the catalog has a system with one GPU type of the catalog");
    let gpu = system.gpus[0].gpu.clone();
    let want = Subset { parts: vec![system.id.clone()], models: ModelSet::Only(Vec::new()), clouds: CloudSet::None };
    let subset = Catalog::embedded_subset(&want).expect("the system is in the catalog");
    assert!(subset.get(&system.id).is_some());
    assert!(subset.gpu(&gpu).is_some(), "{} names {}", system.id.as_str(), gpu.as_str());
    assert_eq!(subset.len(), 2, "the system and its GPU only");
    assert!(subset.models.iter().next().is_none() && subset.clouds.is_empty());
    // The origins point at the RON source as the whole catalog's do.
    assert_eq!(subset.origins.get(&gpu), whole.origins.get(&gpu));
}

/// A part or model the catalog lacks gives no subset: the caller loads the whole catalog,
/// whose messages list what there is.
#[test]
fn an_unknown_id_gives_no_subset() {
    let unknown = Subset { parts: vec![PartId::new("gpu/no-such-card")], ..Subset::default() };
    assert!(Catalog::embedded_subset(&unknown).is_none());
    let bad_kind = Subset { parts: vec![PartId::new("widget/x")], ..Subset::default() };
    assert!(Catalog::embedded_subset(&bad_kind).is_none());
    let model = Subset { models: ModelSet::Only(vec!["no-such-model".to_owned()]), ..Subset::default() };
    assert!(Catalog::embedded_subset(&model).is_none());
    let known = Subset {
        models: ModelSet::Only(vec!["meta-llama-3.1-8b".to_owned(), "model/meta-llama-2-7b".to_owned()]),
        ..Subset::default()
    };
    let two = Catalog::embedded_subset(&known).expect("both models are in the catalog");
    // In catalog order, whichever order they were asked in.
    let ids: Vec<&str> = two.models.iter().map(|m| m.id.0.as_str()).collect();
    assert_eq!(ids, ["model/meta-llama-2-7b", "model/meta-llama-3.1-8b"]);
}

/// A build's subset holds the cloud offers that rent its GPUs, sorted by id as the whole
/// catalog keeps them, and its chosen offer even when that rents another GPU; a chosen
/// offer the catalog lacks gives no subset.
#[test]
fn a_subset_holds_the_offers_for_its_gpus_and_the_chosen_one() {
    let whole = whole();
    let mut build = rigplan::core::templates::find("entry-workstation").expect("template").load().expect("loads");
    let subset = Catalog::embedded_subset(&build.catalog_subset()).expect("subset");
    let gpu = subset.gpus.first().expect("the workstation has a GPU").id.clone();
    let renting: Vec<&str> = whole.clouds.iter().filter(|o| o.gpu == gpu).map(|o| o.id.as_str()).collect();
    assert!(!renting.is_empty(), "the catalog rents {}", gpu.as_str());
    let held: Vec<&str> = subset.clouds.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(held, renting);
    let other = whole.clouds.iter().find(|o| o.gpu != gpu).expect("an offer for another GPU");
    build.costs.chosen_offer = Some(format!("{}:on_demand", other.id));
    let with_chosen = Catalog::embedded_subset(&build.catalog_subset()).expect("subset");
    assert!(with_chosen.cloud(&other.id).is_some());
    assert_eq!(with_chosen.clouds.len(), renting.len() + 1);
    assert_eq!(
        serde_json::to_value(analyze(&with_chosen, &build)).expect("serializes"),
        serde_json::to_value(analyze(&whole, &build)).expect("serializes")
    );
    build.costs.chosen_offer = Some("no-such-offer".to_owned());
    assert!(Catalog::embedded_subset(&build.catalog_subset()).is_none());
    let all = Subset { clouds: CloudSet::All, models: ModelSet::Only(Vec::new()), ..Subset::default() };
    assert_eq!(Catalog::embedded_subset(&all).expect("subset").clouds, whole.clouds);
}

/// The CLI reads subsets for `report`, `check`, `tco`, `export` and `fit`; an empty user
/// catalog folder makes it read the whole catalog. Both print the same, byte for byte,
/// errors included.
#[test]
fn cli_outputs_are_the_same_with_the_whole_catalog() {
    let empty = tempfile::tempdir().expect("temp dir");
    let folder = empty.path().to_str().expect("utf-8 path");
    let mut cases: Vec<Vec<String>> = Vec::new();
    for t in TEMPLATES {
        let file = format!("{}/{}", env!("CARGO_MANIFEST_DIR"), t.file);
        for args in [
            vec!["report", &file, "--date", "2026-12-07"],
            vec!["report", &file, "--json", "--date", "2026-12-07"],
            vec!["report", &file, "--explain", "--lang", "zh-CN", "--date", "2026-12-07"],
            vec!["check", &file],
            vec!["tco", &file, "--json"],
            vec!["tco", &file, "--offer", "aws-p5-48xlarge:reserved_1y"],
            vec!["tco", &file, "--offer", "no-such-offer"],
        ] {
            cases.push(args.into_iter().map(str::to_owned).collect());
        }
    }
    for args in [
        "fit --model meta-llama-3.1-8b --gpu nvidia-h100-sxm5-80gb",
        "fit --model meta-llama-3.1-70b --gpu nvidia-geforce-rtx-4090 --json",
        "fit --model meta-llama-3.1-70b --gpu gpu/nvidia-a100-sxm4-80gb --gpus 8 --explain",
        "fit --params 7e9 --gpu nvidia-geforce-rtx-4090",
        "fit --model meta-llama-3.1-8b",
        "fit --model no-such-model --gpu nvidia-geforce-rtx-4090",
        "fit --model meta-llama-3.1-8b --gpu no-such-gpu",
        "fit --model qwen3-30b-a3b --gpu nvidia-geforce-rtx-4090 --users 8 --json",
    ] {
        cases.push(args.split(' ').map(str::to_owned).collect());
    }
    for args in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let subset = run(&args);
        let whole = run(&[&["--catalog", folder][..], &args].concat());
        assert_eq!(subset, whole, "rigplan {}", args.join(" "));
    }
}
