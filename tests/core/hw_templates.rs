//! The hardware analyses on every template build (real, working systems from the field
//! guides): no error-severity finding, and power and heat figures a reviewer can follow from
//! the parts list.

use crate::cli::run;
use rigplan::core::analysis::{Report, Severity, analyze};
use rigplan::core::catalog::Catalog;
use rigplan::core::templates::{TEMPLATES, find};

fn report_of(slug: &str) -> Report {
    let catalog = Catalog::embedded().expect("embedded catalog");
    let build = find(slug).expect("template").load().expect("loads");
    analyze(&catalog, &build)
}

use crate::approx::close;

#[test]
fn every_template_has_no_error_and_consistent_figures() {
    let catalog = Catalog::embedded().expect("embedded catalog");
    for t in TEMPLATES {
        let build = t.load().expect("template loads");
        let r = analyze(&catalog, &build);
        let errors: Vec<_> = r.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", t.slug);
        let p = &r.power;
        for n in &p.nodes {
            // A node's DC max is the sum of its lines; GPUs inside a system are not lines.
            let sum: f64 = n.parts.iter().map(|x| x.max_watts).sum();
            assert!(close(n.max_watts, sum, 1e-9), "{}", t.slug);
            assert!(n.wall_watts >= n.max_watts - 1e-9, "{}: wall below DC", t.slug);
            assert!(n.idle_watts < n.typical_watts && n.typical_watts < n.max_watts, "{}", t.slug);
        }
        assert!(close(r.thermal.heat_watts, p.wall_watts, 1e-6), "{}: heat = wall draw", t.slug);
        assert!(close(r.thermal.heat_btu_per_hour, p.wall_watts * 3.412_141_6, 1e-3), "{}", t.slug);
        for g in r.thermal.nodes.iter().flat_map(|n| &n.gpus) {
            assert!(g.estimated_temp_c < 85.0, "{}: {} at {:.1} °C", t.slug, g.name, g.estimated_temp_c);
        }
    }
}

/// Entry workstation (RTX 4090, Ryzen 9 7950X, 2 × 32 GB DDR5-5200, 2 TB 990 PRO, NH-D15,
/// Meshify 2 XL, RM1000x on a 220 V circuit): DC max = 450 (card) + 230 (PPT) + 30 (desktop
/// board estimate) + 2 × 5 (DIMMs) + 5.5 (SSD active) + 2 (cooler fans) + 4 (case fans)
/// = 731.5 W. At 73.15 % load the Gold unit on the 230 V table is 0.92 − 0.03 × 0.2315 / 0.5
/// = 0.9061 efficient: 807.3 W at the wall, 2755 BTU/h. PSU: 731.5 × 1.3 = 951 W → 1000 W.
#[test]
fn entry_workstation_figures_by_hand() {
    let r = report_of("entry-workstation");
    let p = &r.power;
    assert!(close(p.max_watts, 731.5, 1e-9), "{}", p.max_watts);
    let eff = 0.92 - 0.03 * (0.7315 - 0.5) / 0.5;
    assert!(close(p.wall_watts, 731.5 / eff, 1e-6), "{}", p.wall_watts);
    let rec = p.nodes[0].recommendation.as_ref().expect("recommendation");
    assert!(close(rec.required_watts, 731.5 * 1.3, 1e-6));
    assert!(close(p.recommended_psu_watts, 1000.0, 1e-9));
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
}

/// The guide's dual H100 + dual CPU system, for which field guide 003 §2.2 recommends a
/// 1600 W 80 PLUS Platinum PSU. rigplan: the two 350 W H100 PCIe and two 350 W Xeon 8480+ draw
/// 1400 W, which 1600 W covers; with the board (60 W estimate), 16 RDIMMs (112 W), two NVMe
/// (13 W) and the chassis fans (60 W) the DC max is 1645 W, 103 % of 1600 W. rigplan therefore
/// recommends 1645 × 1.3 = 2138.5 W → 2200 W; the template's two 2000 W modules (N+1) run at
/// 82 %.
#[test]
fn dual_h100_template_against_the_guides_1600_w() {
    let r = report_of("dual-h100-workstation");
    let n = &r.power.nodes[0];
    let processors: f64 = n
        .parts
        .iter()
        .filter(|x| matches!(x.kind, rigplan::core::catalog::PartKind::Gpu | rigplan::core::catalog::PartKind::Cpu))
        .map(|x| x.max_watts)
        .sum();
    assert!(close(processors, 1400.0, 1e-9));
    assert!(close(n.max_watts, 1645.0, 1e-9), "{}", n.max_watts);
    assert!(n.max_watts > 1600.0, "the guide's 1600 W would run past 100 %");
    let rec = n.recommendation.as_ref().expect("recommendation");
    assert!(close(rec.required_watts, 1645.0 * 1.3, 1e-6));
    assert_eq!(n.recommended_psu_watts, Some(2200.0));
    assert!(close(n.psu_load_fraction.unwrap_or_default(), 1645.0 / 2000.0, 1e-9));
}

/// 8 × H100 SXM5 (700 W) + 2 × EPYC 9654 (400 W max) + board 60 + 24 RDIMMs (216) + boot SSD
/// (5.4) + 8 × PM1743 (171.2) + 8 × ConnectX-7 (200) = 7052.6 W, plus the HGX baseboard's 4
/// NVSwitch chips at 100 W and the chassis fans at full speed, 300 W / 0.7³ = 874.64 W:
/// 8327.24 W.
#[test]
fn h100_hgx_node_figures_by_hand() {
    let r = report_of("enterprise-8x-h100-hgx");
    let fans = 300.0 / 0.7_f64.powi(3);
    assert!(close(r.power.max_watts, 7052.6 + 400.0 + fans, 1e-6), "{}", r.power.max_watts);
    let psu = r.power.nodes[0].psu.as_ref().expect("PSUs");
    // Six 3000 W modules, N+N: 9 kW counts.
    assert!(close(psu.capacity_watts, 9000.0, 1e-9));
}

/// A complete system counts once: the Jetson devkit's 60 W max plus the added NVMe (4.1 W);
/// its integrated GPU adds nothing.
#[test]
fn jetson_counts_the_system_once() {
    let r = report_of("edge-jetson-agx-orin");
    assert!(close(r.power.max_watts, 64.1, 1e-9), "{}", r.power.max_watts);
    assert_eq!(r.power.nodes[0].recommended_psu_watts, None);
}

#[test]
fn report_json_and_check_on_every_template() {
    for t in TEMPLATES {
        let (code, out, err) = run(&["report", t.file, "--json"]);
        assert_eq!(code, 0, "{}: {err}", t.slug);
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        for key in [
            "idle_watts",
            "typical_watts",
            "max_watts",
            "peak_transient_watts",
            "wall_watts",
            "wall_idle_watts",
            "recommended_psu_watts",
        ] {
            assert!(v["power"][key].is_number(), "{}: power.{key}", t.slug);
        }
        assert!(v["thermal"]["heat_watts"].is_number() && v["thermal"]["heat_btu_per_hour"].is_number());
        assert!(v["thermal"]["nodes"][0]["gpus"][0]["estimated_temp_c"].is_number(), "{}", t.slug);
        assert!(v["thermal"]["nodes"][0]["gpus"][0]["headroom_c"].is_number(), "{}", t.slug);
        let (code, _, err) = run(&["check", t.file]);
        assert_eq!(code, 0, "{}: {err}", t.slug);
    }
}

/// Findings the templates must not raise, each for a reason a rule encodes:
/// - the HGX H100 node's eight ConnectX-7 sit behind the HGX platform's PCIe switches with the
///   GPUs, so only the drives' 36 lanes count against the EPYCs' 128 (counting the NICs would
///   ask for 164);
/// - the SYS-740GP / 741GE towers have GPU bays with ducted server fans, so their passive A100 /
///   H100 PCIe cards are not "passive cards in a tower";
/// - server PSU modules carry no ATX 3 excursion rating, so 16-pin H100 PCIe spikes are not
///   checked against them, and their vendor-sized capacity below rigplan's desktop margins is
///   info, not a warning.
#[test]
fn server_platform_rules_on_templates() {
    let r = report_of("enterprise-8x-h100-hgx");
    assert!(!r.diagnostics.iter().any(|d| d.code == "pcie-lanes-oversubscribed"), "{:#?}", r.diagnostics);
    for slug in ["professional-2x-a100", "dual-h100-workstation"] {
        let r = report_of(slug);
        for code in ["passive-gpu-in-tower", "psu-transient-risk", "gpu-temp-over-max"] {
            assert!(!r.diagnostics.iter().any(|d| d.code == code), "{slug}: {code}");
        }
    }
    let r = report_of("dual-h100-workstation");
    let d = r.diagnostics.iter().find(|d| d.code == "psu-below-recommended").expect("thin margin noted");
    assert_eq!(d.severity, Severity::Info);
}
