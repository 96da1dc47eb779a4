//! Thermal: heat load, airflow, cooler headroom and the GPU temperature estimate.

use crate::hw_fixture::{add_node, build_of, has, report, workstation_with};
use rigplan::core::analysis::Severity::Warning;
use rigplan::core::catalog::CoolerStyle;

use crate::approx::close;

/// Heat = wall draw (841.5 W for the baseline); 1 W = 3.412 BTU/h; 12,000 BTU/h = 1 ton.
#[test]
fn heat_load_units() {
    let r = report(&workstation_with(&[]));
    let t = &r.thermal;
    assert!(close(t.heat_watts, r.power.wall_watts, 1e-9));
    assert!(close(t.heat_btu_per_hour, 841.5 * 3.412_141_6, 0.1), "{}", t.heat_btu_per_hour);
    assert!(close(t.cooling_tons, 841.5 * 3.412_141_6 / 12_000.0, 1e-4));
}

/// Airflow: 1.76 × 745 W / 15 °C = 87.4 CFM needed against 150 CFM of fans. The chassis air
/// rises 745 × 1.76 / 150 = 8.74 °C; the GPU inlet sees half: 25 + 4.37 = 29.37 °C, and an
/// open-air card at rated power sits 40 °C above it: 69.4 °C, 20.6 °C below its 90 °C limit.
#[test]
fn workstation_airflow_and_gpu_temperature_by_hand() {
    let t = report(&workstation_with(&[])).thermal;
    let n = &t.nodes[0];
    assert!(close(n.airflow.needed_cfm, 1.76 * 745.0 / 15.0, 1e-9));
    assert!(close(n.airflow.headroom_cfm.unwrap_or_default(), 150.0 - 1.76 * 745.0 / 15.0, 1e-9));
    let inlet = 25.0 + 0.5 * 745.0 * 1.76 / 150.0;
    let g = &n.gpus[0];
    assert!(close(g.inlet_c, inlet, 1e-9));
    assert!(close(g.estimated_temp_c, inlet + 40.0, 1e-9));
    assert!(close(g.headroom_c, 90.0 - inlet - 40.0, 1e-9));
    assert_eq!(g.cooling, CoolerStyle::OpenAir);
    // CPU cooler: 300 W AIO for a 230 W PPT.
    assert!(close(n.cpus[0].headroom_watts.unwrap_or_default(), 70.0, 1e-9));
}

#[test]
fn alert_threshold_and_max_temperature() {
    let at = |ambient: f64| {
        let mut b = workstation_with(&[]);
        b.site.ambient_c = ambient;
        report(&b)
    };
    // 40 °C room: 84.4 °C, under the 85 °C alert; 41 °C: 85.4 °C; 50 °C: 94.4 °C ≥ 90 °C.
    assert!(!at(40.0).diagnostics.iter().any(|d| d.code.starts_with("gpu-temp")));
    assert!(has(&at(41.0), "gpu-temp-high", Warning));
    let hot = at(50.0);
    assert!(has(&hot, "gpu-temp-over-max", Warning));
    assert!(!has(&hot, "gpu-temp-high", Warning), "one finding per card");
}

/// Two 3-slot open-air cards in slots 1–3 and 4–6 feed each other exhaust: +8 °C each.
/// DC max 1195 W: inlet 25 + 0.5 × 1195 × 1.76 / 150 = 32.01 °C; 32.01 + 40 + 8 = 80.0 °C.
#[test]
fn adjacent_open_air_cards_heat_each_other() {
    let r = report(&workstation_with(&[("gpu/t-4090", 2), ("psu/t-1600-atx3", 1)]));
    assert!(has(&r, "gpu-open-air-stacked", Warning));
    let inlet = 25.0 + 0.5 * 1195.0 * 1.76 / 150.0;
    for g in &r.thermal.nodes[0].gpus {
        assert!(close(g.neighbour_c, 8.0, 1e-9));
        assert!(close(g.estimated_temp_c, inlet + 48.0, 1e-9), "{}", g.estimated_temp_c);
    }
    // Blower cards in adjacent slots (4–5 and 6–7) exhaust out of the case: no penalty.
    let mut b = workstation_with(&[("gpu/t-a6000", 2), ("psu/t-1600-atx3", 1)]);
    b.nodes[0].parts.retain(|l| l.part.as_str() != "gpu/t-4090");
    let line = b.nodes[0].parts.iter_mut().find(|l| l.part.as_str() == "gpu/t-a6000").expect("line");
    line.slots = vec![4, 6];
    let r = report(&b);
    assert!(!has(&r, "gpu-open-air-stacked", Warning));
    assert!(r.thermal.nodes[0].gpus.iter().all(|g| g.neighbour_c == 0.0));
    // The same slots with open-air 5090s: penalty.
    let mut b = workstation_with(&[("gpu/t-5090", 2), ("psu/t-1600-atx3", 1)]);
    b.nodes[0].parts[0].slots = vec![4, 6];
    assert!(has(&report(&b), "gpu-open-air-stacked", Warning));
}

/// A custom loop that cools the GPUs: liquid, 18 °C below open-air (field guide 003 §2.1).
#[test]
fn custom_loop_makes_gpus_liquid_cooled() {
    let r = report(&workstation_with(&[("cooler/t-loop", 1)]));
    let g = &r.thermal.nodes[0].gpus[0];
    assert_eq!(g.cooling, CoolerStyle::Liquid);
    let inlet = 25.0 + 0.5 * 753.0 * 1.76 / 150.0;
    assert!(close(g.estimated_temp_c, inlet + 22.0, 1e-9), "{}", g.estimated_temp_c);
}

#[test]
fn passive_cards_need_server_airflow() {
    let mut b = workstation_with(&[("gpu/t-a100-pcie", 1), ("psu/t-1600-atx3", 1)]);
    b.nodes[0].parts.retain(|l| l.part.as_str() != "gpu/t-4090");
    let r = report(&b);
    assert!(has(&r, "passive-gpu-in-tower", Warning));
    assert!(has(&r, "gpu-temp-over-max", Warning));
    let mut s = build_of(&[
        ("gpu/t-a100-pcie", 4),
        ("motherboard/t-sp5-2p", 1),
        ("cpu/t-epyc", 2),
        ("memory/t-rdimm-64", 24),
        ("cooler/t-sp5-heatsink", 2),
        ("chassis/t-4u-gpu", 1),
    ]);
    s.nodes[0].psu_redundancy = rigplan::core::build::Redundancy::NPlusOne;
    let r = report(&s);
    assert!(!has(&r, "passive-gpu-in-tower", Warning));
    assert!(r.thermal.nodes[0].gpus.iter().all(|g| g.estimated_temp_c < 85.0));
}

#[test]
fn airflow_shortfall() {
    // 60 CFM of fans for ~745 W: 87 CFM needed.
    let r = report(&workstation_with(&[("chassis/t-compact", 1)]));
    assert!(has(&r, "airflow-insufficient", Warning));
    assert!(!has(&report(&workstation_with(&[])), "airflow-insufficient", Warning));
}

#[test]
fn system_ambient_limit_and_multi_node_heat() {
    let mut b = build_of(&[]);
    b.nodes.clear();
    add_node(&mut b, "DGX", 2, &[("system/t-dgx", 1)]);
    assert!(!has(&report(&b), "system-ambient-exceeded", Warning));
    let r = report(&b);
    assert!(close(r.thermal.heat_watts, 20_400.0, 1e-9));
    b.site.ambient_c = 40.0;
    assert!(has(&report(&b), "system-ambient-exceeded", Warning));
}
