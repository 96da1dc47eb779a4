//! Old build files load forever. `tests/fixtures/v<N>/` holds files written in version N of the
//! format; they are never edited. Each must load to exactly the values written here by hand,
//! through the version dispatch in `persist::parse_build_str`: version 1 parses directly (it is
//! current); when version 2 arrives, the same expectations hold after `migrate_v1_to_v2`.

use crate::cli::run;
use rigplan::core::build::{
    Build, CostKind, Costs, CustomLine, CustomOffer, CustomPricing, NodeGroup, PartLine, PlannedWorkload,
    PriceOverride, Redundancy, Site, Usage,
};
use rigplan::core::catalog::PartId;
use rigplan::core::persist::{BuildFileError, CURRENT_VERSION, build_to_string, load_build, parse_build_str};
use rigplan::core::units::Currency;
use std::path::{Path, PathBuf};

fn v1(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v1").join(file)
}

fn line(part: &str, quantity: u32) -> PartLine {
    PartLine::new(part, quantity)
}

/// `tests/fixtures/v1/full.ron`, written out by hand.
fn expected_full() -> Build {
    let mut gpu_nodes = NodeGroup::new("GPU nodes");
    gpu_nodes.count = 4;
    gpu_nodes.parts = vec![
        PartLine { slots: vec![1, 3, 5, 7], ..line("gpu/nvidia-h100-pcie-80gb", 4) },
        line("cpu/amd-epyc-9654", 2),
        line("memory/does-not-exist-64gb", 24),
    ];
    gpu_nodes.psu_redundancy = Redundancy::NPlusOne;
    gpu_nodes.nvlink_bridge = true;
    let mut head = NodeGroup::new("Head node");
    head.parts = vec![line("cpu/amd-epyc-9654", 1)];
    head.psu_redundancy = Redundancy::NPlusN;
    let mut spare = NodeGroup::new("Spare");
    spare.count = 2;
    let custom = |name: &str, amount: f64, quantity: u32, kind: CostKind| CustomLine {
        name: name.to_owned(),
        amount,
        quantity,
        kind,
    };
    Build {
        name: "Version 1 fixture: two node groups and a cluster".to_owned(),
        description: "Every version-1 field. Quotes \" and backslashes \\ and a tab\tand 中文 survive.".to_owned(),
        nodes: vec![gpu_nodes, head, spare],
        cluster: vec![line("switch/nvidia-quantum-2-qm9700", 2)],
        price_overrides: vec![
            PriceOverride {
                part: PartId::from("gpu/nvidia-h100-pcie-80gb"),
                unit_price: 200_000.0,
                note: "dealer quote 2024-05".to_owned(),
            },
            PriceOverride { part: PartId::from("cpu/amd-epyc-9654"), unit_price: 55_000.5, note: String::new() },
            PriceOverride {
                part: PartId::from("switch/nvidia-quantum-2-qm9700"),
                unit_price: 250_000.0,
                note: String::new(),
            },
        ],
        custom_lines: vec![
            custom("Installation", 8_000.0, 1, CostKind::Capex),
            custom("Cabling", 120.0, 40, CostKind::Capex),
            custom("Support contract", 30_000.0, 1, CostKind::OpexPerYear),
            custom("Rebate", -5_000.0, 1, CostKind::Capex),
        ],
        site: Site {
            currency: Currency("CNY".to_owned()),
            usd_exchange_rate: 7.2,
            electricity_per_kwh: 0.8,
            pue: 1.4,
            ambient_c: 24.5,
            circuit_volts: 380.0,
            circuit_amps: 32.0,
            circuit_phases: 3,
        },
        usage: Usage {
            utilization: 0.85,
            horizon_years: 4.0,
            workload: Some(PlannedWorkload {
                model: "model/meta-llama-3.1-8b".to_owned(),
                workload: "full-ft-zero3".to_owned(),
                run_tokens: Some(2e9),
            }),
        },
        costs: Costs {
            tax_percent: 13.0,
            shipping_percent: 1.5,
            installation_percent: 2.0,
            colocation_per_kw_month: 900.0,
            colocation_includes_power: true,
            maintenance_percent_per_year: 8.0,
            staff_per_year: 120_000.0,
            licences_per_year: 15_000.0,
            depreciation_life_years: 5.0,
            residual_percent: 10.0,
            discount_rate_percent: 6.5,
            annual_owned_cost: Some(267_000.0),
            annual_cost_includes_depreciation: true,
            spot_overhead_percent: 15.0,
            custom_offers: vec![
                CustomOffer {
                    id: "dealer-cloud".to_owned(),
                    name: "Dealer cloud quote".to_owned(),
                    pricing: CustomPricing::PerGpuHour { price: 14.5, every_hour: true },
                },
                CustomOffer {
                    id: "yearly-quote".to_owned(),
                    name: "Yearly quote".to_owned(),
                    pricing: CustomPricing::AnnualQuote { per_year: 450_000.0 },
                },
            ],
            chosen_offer: Some("dealer-cloud".to_owned()),
        },
    }
}

#[test]
fn version_1_full_fixture_loads_to_exactly_what_it_says() {
    assert_eq!(load_build(&v1("full.ron")).expect("the version-1 fixture loads"), expected_full());
}

/// The defaults an old file relies on are part of what it means: a version-1 file without
/// `site`, `usage`, `costs` or `psu_redundancy` is a US office (USD, 120 V / 15 A, 0.13 USD/kWh, PUE 1,
/// 25 °C) used 70 % of the time over 3 years, with no redundant PSU. Changing any of these
/// defaults changes old files and needs a migration.
#[test]
fn version_1_minimal_fixture_loads_with_the_version_1_defaults() {
    let b = load_build(&v1("minimal.ron")).expect("loads");
    let mut node = NodeGroup::new("Node 1");
    node.parts = vec![line("gpu/nvidia-geforce-rtx-4090", 1)];
    assert_eq!(b.nodes, vec![node]);
    assert_eq!(b.description, "");
    assert!(b.cluster.is_empty() && b.price_overrides.is_empty() && b.custom_lines.is_empty());
    let s = &b.site;
    assert_eq!(s.currency.to_string(), "USD");
    assert_eq!(
        (s.usd_exchange_rate, s.electricity_per_kwh, s.pue, s.ambient_c, s.circuit_volts, s.circuit_amps),
        (1.0, 0.13, 1.0, 25.0, 120.0, 15.0)
    );
    assert_eq!(s.circuit_phases, 1);
    assert_eq!((b.usage.utilization, b.usage.horizon_years), (0.7, 3.0));
    assert!(b.usage.workload.is_none(), "no planned workload");
    assert_eq!(b.nodes[0].psu_redundancy, Redundancy::None);
    // No cost settings: no percentages or running costs, a 3-year depreciation life to zero,
    // the cheapest matching on-demand cloud offer.
    assert_eq!(b.costs, Costs::default());
    assert!(b.costs.annual_owned_cost.is_none() && b.costs.chosen_offer.is_none());
    let c = &b.costs;
    assert_eq!(
        (c.depreciation_life_years, c.tax_percent, c.residual_percent, c.discount_rate_percent),
        (3.0, 0.0, 0.0, 0.0)
    );
    assert!(!b.nodes[0].nvlink_bridge);
}

/// Every version up to the current one has a fixture folder whose files load; a new version
/// without its folder fails here, as does a version whose dispatch arm is missing.
#[test]
fn every_version_has_fixtures_that_load() {
    for version in 1..=CURRENT_VERSION {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/v{version}"));
        let files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.expect("entry").path())
            .collect();
        assert!(files.len() >= 2, "{}: keep at least a full and a minimal file", dir.display());
        for f in files {
            let text = std::fs::read_to_string(&f).expect("UTF-8");
            assert!(text.contains(&format!("version: {version},")), "{} is a version-{version} file", f.display());
            load_build(&f).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// Old files are written back in the current version, with nothing lost: the saved text
/// parses to the same build.
#[test]
fn old_files_are_saved_in_the_current_version() {
    let b = load_build(&v1("full.ron")).expect("loads");
    let text = build_to_string(&b).expect("serializes");
    assert!(text.starts_with(&format!("(\n    version: {CURRENT_VERSION},")), "{text}");
    assert_eq!(parse_build_str("again", &text).expect("parses"), b);
}

/// The dispatch: version 0 and a missing version are not build files, a version above the
/// current one is refused as newer, and the `version` field may stand anywhere in the envelope.
#[test]
fn the_version_dispatch() {
    let body = "build: (name: \"x\", nodes: [(name: \"n\", count: 1, parts: [])])";
    let parse = |text: &str| parse_build_str("f.ron", text);
    assert!(parse(&format!("(version: 1, {body})")).is_ok());
    assert!(parse(&format!("({body}, version: 1)")).is_ok(), "field order does not matter");
    assert!(matches!(parse(&format!("(version: 0, {body})")), Err(BuildFileError::BadVersion { found: 0, .. })));
    assert!(matches!(parse(&format!("({body})")), Err(BuildFileError::MissingVersion { .. })));
    let next = CURRENT_VERSION + 1;
    let err = parse(&format!("(version: {next}, {body})")).expect_err("newer");
    assert!(
        matches!(err, BuildFileError::FutureVersion { found, supported, .. } if found == next && supported == CURRENT_VERSION)
    );
    assert_eq!(
        err.to_string(),
        format!(
            "f.ron: the file is version {next}, newer than this rigplan reads (up to 1); update rigplan to open it"
        )
    );
    // A newer file is refused on its version alone, even if its body is something this
    // version cannot parse: the message says "update rigplan", not a confusing syntax error.
    let err = parse(&format!("(version: {next}, build: (name: \"x\", gpus_v2: {{\"a\": 1}}))")).expect_err("newer");
    assert!(matches!(err, BuildFileError::FutureVersion { .. }), "{err}");
}

#[test]
fn the_cli_reports_the_version_1_fixture() {
    let (code, out, err) = run(&["report", v1("full.ron").to_str().expect("UTF-8"), "--json"]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    // Hand calculation, independent of catalog prices (every known part is overridden):
    // 200,000 × 4 GPUs × 4 nodes = 3,200,000; 55,000.5 × (2 × 4 + 1) = 495,004.5; switches
    // 250,000 × 2 = 500,000; custom capex 8,000 + 120 × 40 − 5,000 = 7,800; the unknown memory
    // has no price. Total 4,202,804.5 CNY.
    let capex = report["bom"]["capex"].as_f64().expect("capex");
    assert!((capex - 4_202_804.5).abs() < 1e-6, "{capex}");
    assert_eq!(report["bom"]["unpriced_lines"], 1);
    assert_eq!(report["nodes"], 7);
    assert_eq!(report["gpus"], 16);
}
