//! A small test catalog and builds for the hardware analyses, built in code so the tests do not
//! depend on the shipped catalog. Part figures follow the real parts they are named after
//! (vendor datasheets) closely enough for the rules; ids carry a `t-` prefix so they never
//! collide with catalog ids.

use rigplan::core::analysis::{Report, Severity, analyze};
use rigplan::core::build::{Build, NodeGroup, PartLine};
use rigplan::core::catalog::{Catalog, PartKind};
use std::sync::OnceLock;

const COMMON: &str = r#"vendor: "Test", price_usd: 100.0, price_date: "2025-01", source: "test fixture""#;

#[expect(clippy::too_many_arguments, reason = "one argument per catalog field the rules read")]
fn gpu(
    id: &str,
    segment: &str,
    mem: f64,
    tdp: f64,
    idle: f64,
    form: &str,
    lanes: u8,
    width: f64,
    length: &str,
    conns: &str,
    inter: &str,
    max_c: f64,
    cooler: &str,
) -> String {
    let pcie_gen = if form == "Integrated" { 0 } else { 4 };
    format!(
        r#"(id: "gpu/{id}", name: "{id}", {COMMON}, architecture: "Test", segment: {segment}, memory_gib: {mem:.1}, memory_type: Gddr6x, memory_bandwidth_gbs: 1000.0, fp32_tflops: 80.0, fp16_tensor_tflops: 160.0, tdp_watts: {tdp:.1}, idle_watts: {idle:.1}, form_factor: {form}, pcie_gen: {pcie_gen}, pcie_lanes: {lanes}, slot_width: {width:.1}, length_mm: {length}, power_connectors: [{conns}], interconnect: {inter}, max_temp_c: {max_c:.1}, cooler: {cooler}),"#
    )
}

fn gpus() -> String {
    let hp = "(connector: Hpwr16Pin, count: 1)";
    let eps = "(connector: Eps8Pin, count: 1)";
    let bridge = "NvLinkBridge(generation: 3, bandwidth_gbs: 112.5, max_gpus: 2)";
    let bridge_a100 = "NvLinkBridge(generation: 3, bandwidth_gbs: 600.0, max_gpus: 2)";
    let sw = "NvLinkSwitch(generation: 4, bandwidth_gbs: 900.0)";
    let sw3 = "NvLinkSwitch(generation: 3, bandwidth_gbs: 600.0)";
    [
        // RTX 4090 FE: 450 W, 21 W idle, 3-slot, 304 mm, one 16-pin, 90 °C.
        gpu("t-4090", "Consumer", 24.0, 450.0, 21.0, "Pcie", 16, 3.0, "304.0", hp, "None", 90.0, "OpenAir"),
        // RTX 5090 FE: 575 W, 2-slot, 304 mm, one 16-pin, 90 °C.
        gpu("t-5090", "Consumer", 32.0, 575.0, 30.0, "Pcie", 16, 2.0, "304.0", hp, "None", 90.0, "OpenAir"),
        // RTX A6000: 300 W blower, 2-slot, 267 mm, one EPS 8-pin, NVLink bridge pairs, 93 °C.
        gpu("t-a6000", "Workstation", 48.0, 300.0, 25.0, "Pcie", 16, 2.0, "267.0", eps, bridge, 93.0, "Blower"),
        // A100 80GB PCIe: 300 W passive, 2-slot, 267 mm, one EPS 8-pin, NVLink bridge, 85 °C.
        gpu(
            "t-a100-pcie",
            "Datacenter",
            80.0,
            300.0,
            50.0,
            "Pcie",
            16,
            2.0,
            "267.0",
            eps,
            bridge_a100,
            85.0,
            "Passive",
        ),
        // H100 PCIe: 350 W passive, 2-slot, one 16-pin, 87 °C.
        gpu("t-h100-pcie", "Datacenter", 80.0, 350.0, 50.0, "Pcie", 16, 2.0, "267.0", hp, bridge_a100, 87.0, "Passive"),
        gpu("t-h100-sxm", "Datacenter", 80.0, 700.0, 70.0, "Sxm5", 16, 0.0, "None", "", sw, 87.0, "Passive"),
        gpu("t-a100-sxm", "Datacenter", 80.0, 400.0, 50.0, "Sxm4", 16, 0.0, "None", "", sw3, 85.0, "Passive"),
        gpu("t-orin-gpu", "Embedded", 64.0, 60.0, 5.0, "Integrated", 0, 0.0, "None", "", "None", 99.0, "OpenAir"),
    ]
    .concat()
}

#[expect(clippy::too_many_arguments, reason = "one argument per catalog field the rules read")]
fn cpu(
    id: &str,
    socket: &str,
    tdp: f64,
    max: &str,
    idle: f64,
    mem: &str,
    ch: u8,
    max_gib: f64,
    lanes: u16,
    sockets: u8,
) -> String {
    format!(
        r#"(id: "cpu/{id}", name: "{id}", {COMMON}, cores: 16, threads: 32, base_ghz: 3.0, boost_ghz: 5.0, tdp_watts: {tdp:.1}, max_power_watts: {max}, idle_watts: {idle:.1}, socket: "{socket}", memory_types: [{mem}], memory_channels: {ch}, max_memory_gib: {max_gib:.1}, pcie_gen: 5, pcie_lanes: {lanes}, max_sockets: {sockets}, tjmax_c: 95.0),"#
    )
}

fn cpus() -> String {
    [
        // Ryzen 9 7950X: 170 W TDP, 230 W PPT, 24 usable PCIe 5.0 lanes, 192 GiB, 2 channels.
        cpu("t-7950x", "AM5", 170.0, "230.0", 25.0, "Ddr5", 2, 192.0, 24, 1),
        // Ryzen 7 7700X: 105 W TDP, 142 W PPT (AMD: PPT = 1.35 × TDP on AM5).
        cpu("t-7700x", "AM5", 105.0, "142.0", 20.0, "Ddr5", 2, 128.0, 24, 1),
        // EPYC 9654: 360 W, SP5, 12 channels, 128 lanes, two sockets.
        cpu("t-epyc", "SP5", 360.0, "None", 100.0, "Ddr5", 12, 6144.0, 128, 2),
    ]
    .concat()
}

fn boards() -> String {
    let desktop_slots = "[(position: 1, pcie_gen: 5, physical_lanes: 16, electrical_lanes: 16), (position: 4, pcie_gen: 5, physical_lanes: 16, electrical_lanes: 8), (position: 6, pcie_gen: 4, physical_lanes: 16, electrical_lanes: 4)]";
    let server_slots = "[(position: 1, pcie_gen: 5, physical_lanes: 16, electrical_lanes: 16), (position: 3, pcie_gen: 5, physical_lanes: 16, electrical_lanes: 16), (position: 5, pcie_gen: 5, physical_lanes: 16, electrical_lanes: 16), (position: 7, pcie_gen: 5, physical_lanes: 16, electrical_lanes: 16)]";
    format!(
        r#"(id: "motherboard/t-x670e", name: "t-x670e", {COMMON}, role: Mainboard, form_factor: Atx, socket: "AM5", cpu_sockets: 1, memory_type: Ddr5, dimm_kinds: [Udimm], dimm_slots: 4, memory_channels: 2, max_memory_gib: 192.0, pcie_slots: {desktop_slots}, m2_slots: 3, sata_ports: 4, eps_connectors: 2),
(id: "motherboard/t-sp5-2p", name: "t-sp5-2p", {COMMON}, role: Mainboard, form_factor: Eatx, socket: "SP5", cpu_sockets: 2, memory_type: Ddr5, dimm_kinds: [Rdimm], dimm_slots: 24, memory_channels: 24, max_memory_gib: 6144.0, pcie_slots: {server_slots}, m2_slots: 2, sata_ports: 8, eps_connectors: 4),
(id: "motherboard/t-hgx-h100", name: "t-hgx-h100", {COMMON}, role: GpuBaseboard, form_factor: GpuBaseboard, baseboard: (form_factor: Sxm5, positions: 8, nvswitch_count: 4)),"#
    )
}

fn memory() -> String {
    let m = |id: &str, t: &str, kind: &str, ecc: bool, gib: f64, w: f64| {
        format!(
            r#"(id: "memory/{id}", name: "{id}", {COMMON}, memory_type: {t}, dimm_kind: {kind}, ecc: {ecc}, capacity_gib: {gib:.1}, speed_mts: 4800, typical_watts: {w:.1}),"#
        )
    };
    [
        m("t-ddr5-32", "Ddr5", "Udimm", false, 32.0, 5.0),
        m("t-ddr5-16", "Ddr5", "Udimm", false, 16.0, 4.0),
        m("t-ddr5-64", "Ddr5", "Udimm", false, 64.0, 6.0),
        m("t-ddr5-32-ecc", "Ddr5", "Udimm", true, 32.0, 5.0),
        m("t-ddr4-32", "Ddr4", "Udimm", false, 32.0, 4.0),
        m("t-rdimm-64", "Ddr5", "Rdimm", true, 64.0, 8.0),
        m("t-rdimm-64-noecc", "Ddr5", "Rdimm", false, 64.0, 8.0),
        m("t-lrdimm-128", "Ddr5", "Lrdimm", true, 128.0, 10.0),
    ]
    .concat()
}

fn storage() -> String {
    format!(
        r#"(id: "storage/t-nvme-2tb", name: "t-nvme-2tb", {COMMON}, interface: NvmeM2, pcie_gen: 4, pcie_lanes: 4, capacity_gb: 2000.0, seq_read_mbs: 7000.0, seq_write_mbs: 6000.0, idle_watts: 1.0, active_watts: 7.0),
(id: "storage/t-hdd-20tb", name: "t-hdd-20tb", {COMMON}, interface: Hdd35, capacity_gb: 20000.0, seq_read_mbs: 270.0, seq_write_mbs: 270.0, idle_watts: 5.0, active_watts: 8.0),"#
    )
}

fn psus() -> String {
    let p = |id: &str, form: &str, w: f64, low: &str, tier: &str, atx: &str, conns: &str| {
        format!(
            r#"(id: "psu/{id}", name: "{id}", {COMMON}, form_factor: {form}, rated_watts: {w:.1}, low_line_watts: {low}, efficiency: {tier}, atx_version: {atx}, connectors: [{conns}]),"#
        )
    };
    [
        p(
            "t-1000-atx3",
            "Atx",
            1000.0,
            "None",
            "Gold",
            "\"3.1\"",
            "(connector: Hpwr16Pin, count: 1), (connector: Pcie8Pin, count: 4), (connector: Eps8Pin, count: 2)",
        ),
        p(
            "t-850-atx3",
            "Atx",
            850.0,
            "None",
            "Gold",
            "\"3.1\"",
            "(connector: Hpwr16Pin, count: 1), (connector: Pcie8Pin, count: 4), (connector: Eps8Pin, count: 2)",
        ),
        p(
            "t-850-atx2",
            "Atx",
            850.0,
            "None",
            "Gold",
            "None",
            "(connector: Pcie8Pin, count: 4), (connector: Eps8Pin, count: 2)",
        ),
        p(
            "t-650-bronze",
            "Atx",
            650.0,
            "None",
            "Bronze",
            "None",
            "(connector: Pcie8Pin, count: 2), (connector: Eps8Pin, count: 1)",
        ),
        p("t-no-eps", "Atx", 1000.0, "None", "Gold", "\"3.1\"", "(connector: Hpwr16Pin, count: 1)"),
        p(
            "t-1600-atx3",
            "Atx",
            1600.0,
            "None",
            "Platinum",
            "\"3.1\"",
            "(connector: Hpwr16Pin, count: 2), (connector: Pcie8Pin, count: 6), (connector: Eps8Pin, count: 4)",
        ),
        p("t-crps-3000", "Crps", 3000.0, "1600.0", "Titanium", "None", ""),
    ]
    .concat()
}

fn coolers() -> String {
    let c = |id: &str, kind: &str, socket: &str, w: f64, h: &str, r: &str, gpus: bool, fan: f64| {
        format!(
            r#"(id: "cooler/{id}", name: "{id}", {COMMON}, kind: {kind}, sockets: ["{socket}"], rated_heat_watts: {w:.1}, height_mm: {h}, radiator_mm: {r}, cools_gpus: {gpus}, typical_watts: {fan:.1}),"#
        )
    };
    [
        c("t-aio-360", "Aio", "AM5", 300.0, "None", "360.0", false, 12.0),
        c("t-air-tall", "Air", "AM5", 200.0, "170.0", "None", false, 4.0),
        c("t-air-small", "Air", "AM5", 150.0, "150.0", "None", false, 3.0),
        c("t-sp5-heatsink", "ServerHeatsink", "SP5", 400.0, "None", "None", false, 0.0),
        c("t-loop", "CustomLoop", "AM5", 600.0, "None", "360.0", true, 20.0),
    ]
    .concat()
}

fn chassis() -> String {
    format!(
        r#"(id: "chassis/t-tower", name: "t-tower", {COMMON}, kind: Tower, board_form_factors: [Eatx], expansion_slots: 7, max_gpu_length_mm: 360.0, max_cooler_height_mm: 165.0, max_radiator_mm: 360.0, bays_35: 2, bays_25: 2, airflow_cfm: 150.0, fan_watts: 6.0, psu_form_factor: Atx, psu_bays: 1),
(id: "chassis/t-compact", name: "t-compact", {COMMON}, kind: Tower, board_form_factors: [Atx], expansion_slots: 7, max_gpu_length_mm: 280.0, max_cooler_height_mm: 165.0, max_radiator_mm: 240.0, bays_35: 2, bays_25: 2, airflow_cfm: 60.0, fan_watts: 3.0, psu_form_factor: Atx, psu_bays: 1),
(id: "chassis/t-4u-gpu", name: "t-4u-gpu", {COMMON}, kind: Rack, rack_units: 4, board_form_factors: [Eatx, SsiEeb], expansion_slots: 11, max_gpu_length_mm: 330.0, bays_35: 0, bays_25: 8, gpu_slots: 8, airflow_cfm: 800.0, fan_watts: 120.0, psu_form_factor: Crps, psu_bays: 4, gpu_power_connectors: [(connector: Eps8Pin, count: 8), (connector: Hpwr16Pin, count: 8)], included_psus: [(part: "psu/t-crps-3000", count: 4)]),
(id: "chassis/t-hgx", name: "t-hgx", {COMMON}, kind: Rack, rack_units: 8, board_form_factors: [Eatx], expansion_slots: 10, bays_25: 8, gpu_baseboard: Sxm5, airflow_cfm: 1500.0, fan_watts: 400.0, psu_form_factor: Crps, psu_bays: 8),
(id: "chassis/t-jbod", name: "t-jbod", {COMMON}, kind: Jbod, board_form_factors: [], expansion_slots: 0, bays_35: 60, airflow_cfm: 200.0, fan_watts: 40.0, psu_form_factor: Crps, psu_bays: 2),"#
    )
}

fn network() -> (String, String) {
    (
        format!(
            r#"(id: "nic/t-cx7", name: "t-cx7", {COMMON}, tech: InfiniBand, ports: 1, port_speed_gbps: 400.0, pcie_gen: 5, pcie_lanes: 16, max_watts: 25.0),
(id: "nic/t-10g", name: "t-10g", {COMMON}, tech: Ethernet, ports: 2, port_speed_gbps: 10.0, pcie_gen: 3, pcie_lanes: 8, max_watts: 10.0),"#
        ),
        format!(
            r#"(id: "switch/t-ndr", name: "t-ndr", {COMMON}, tech: InfiniBand, ports: 64, port_speed_gbps: 400.0, rack_units: 1, typical_watts: 700.0, max_watts: 1700.0),
(id: "switch/t-eth", name: "t-eth", {COMMON}, tech: Ethernet, ports: 48, port_speed_gbps: 100.0, rack_units: 1, typical_watts: 300.0, max_watts: 400.0),"#
        ),
    )
}

fn systems() -> String {
    format!(
        r#"(id: "system/t-dgx", name: "t-dgx", {COMMON}, gpus: [(gpu: "gpu/t-h100-sxm", count: 8)], cpu_description: "2x Xeon", cpu_cores: 112, memory_gib: 2048.0, storage_gb: 30000.0, network_description: "8x 400G", fabric_gbps: 3200.0, max_watts: 10200.0, idle_watts: 2000.0, rack_units: 8, psu_count: 6, psu_rated_watts: 3300.0, psu_redundant: 2, airflow_cfm: 1105.0, max_ambient_c: 35.0),
(id: "system/t-orin", name: "t-orin", {COMMON}, gpus: [(gpu: "gpu/t-orin-gpu", count: 1)], cpu_description: "12-core Arm", cpu_cores: 12, memory_gib: 64.0, unified_memory: true, storage_gb: 64.0, network_description: "10 GbE", max_watts: 60.0, idle_watts: 15.0, max_ambient_c: 35.0),"#
    )
}

/// The RON text of each catalog file of the fixture.
#[must_use]
pub fn sources() -> Vec<(PartKind, String, String)> {
    let (nics, switches) = network();
    let wrap = |s: String| format!("[{s}]");
    vec![
        (PartKind::Gpu, "gpu.ron".into(), wrap(gpus())),
        (PartKind::Cpu, "cpu.ron".into(), wrap(cpus())),
        (PartKind::Motherboard, "motherboard.ron".into(), wrap(boards())),
        (PartKind::Memory, "memory.ron".into(), wrap(memory())),
        (PartKind::Storage, "storage.ron".into(), wrap(storage())),
        (PartKind::Psu, "psu.ron".into(), wrap(psus())),
        (PartKind::Cooler, "cooler.ron".into(), wrap(coolers())),
        (PartKind::Chassis, "chassis.ron".into(), wrap(chassis())),
        (PartKind::Nic, "nic.ron".into(), wrap(nics)),
        (PartKind::Switch, "switch.ron".into(), wrap(switches)),
        (PartKind::System, "system.ron".into(), wrap(systems())),
    ]
}

/// The fixture catalog (loaded once).
pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let (catalog, problems) = Catalog::from_sources(&sources());
        let errors: Vec<_> = problems.iter().filter(|p| p.is_error()).collect();
        assert!(errors.is_empty(), "fixture catalog problems: {errors:#?}");
        catalog
    })
}

/// A one-node build from (id, quantity) lines.
#[must_use]
pub fn build_of(lines: &[(&str, u32)]) -> Build {
    let mut b = Build::new("test");
    if let Some(n) = b.nodes.first_mut() {
        n.parts = lines.iter().map(|(id, q)| PartLine::new(*id, *q)).collect();
    }
    b
}

/// The lines of the baseline workstation: the field guides' entry build (RTX 4090, Ryzen 9
/// 7950X, 2 × 32 GB DDR5, 2 TB NVMe) in a tower with a 360 mm AIO and a 1000 W ATX 3.1 Gold
/// PSU. It triggers no rule: the non-triggering case of every rule it is varied from.
pub const WORKSTATION: [(&str, u32); 8] = [
    ("gpu/t-4090", 1),
    ("cpu/t-7950x", 1),
    ("motherboard/t-x670e", 1),
    ("memory/t-ddr5-32", 2),
    ("storage/t-nvme-2tb", 1),
    ("psu/t-1000-atx3", 1),
    ("cooler/t-aio-360", 1),
    ("chassis/t-tower", 1),
];

/// The baseline workstation with some lines replaced (by kind prefix) or added.
#[must_use]
pub fn workstation_with(replace: &[(&str, u32)]) -> Build {
    let mut lines: Vec<(&str, u32)> = WORKSTATION.to_vec();
    let mut replaced = [false; WORKSTATION.len()];
    for (id, q) in replace {
        let prefix = id.split('/').next().unwrap_or_default();
        let slot = lines
            .iter()
            .enumerate()
            .take(WORKSTATION.len())
            .position(|(i, (lid, _))| !replaced[i] && lid.split('/').next() == Some(prefix));
        match slot {
            Some(i) => {
                lines[i] = (id, *q);
                replaced[i] = true;
            }
            None => lines.push((id, *q)),
        }
    }
    lines.retain(|(_, q)| *q > 0);
    build_of(&lines)
}

/// An 8× H100 SXM5 HGX server with two EPYCs, 24 RDIMMs, N+N CRPS supplies and one NDR NIC.
#[must_use]
pub fn hgx_server() -> Build {
    let mut b = build_of(&[
        ("gpu/t-h100-sxm", 8),
        ("motherboard/t-hgx-h100", 1),
        ("motherboard/t-sp5-2p", 1),
        ("cpu/t-epyc", 2),
        ("memory/t-rdimm-64", 24),
        ("storage/t-nvme-2tb", 2),
        ("nic/t-cx7", 2),
        ("cooler/t-sp5-heatsink", 2),
        ("psu/t-crps-3000", 8),
        ("chassis/t-hgx", 1),
    ]);
    if let Some(n) = b.nodes.first_mut() {
        n.psu_redundancy = rigplan::core::build::Redundancy::NPlusN;
    }
    b.site.circuit_volts = 230.0;
    b.site.circuit_amps = 32.0;
    b
}

/// Analyzes a build against the fixture catalog.
#[must_use]
pub fn report(build: &Build) -> Report {
    analyze(catalog(), build)
}

/// The codes of a report's findings.
#[must_use]
pub fn codes(r: &Report) -> Vec<&str> {
    r.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

/// True when a finding with this code and severity is present.
#[must_use]
pub fn has(r: &Report, code: &str, severity: Severity) -> bool {
    r.diagnostics.iter().any(|d| d.code == code && d.severity == severity)
}

/// Adds a node group to a build.
pub fn add_node(b: &mut Build, name: &str, count: u32, lines: &[(&str, u32)]) {
    let mut n = NodeGroup::new(name);
    n.count = count;
    n.parts = lines.iter().map(|(id, q)| PartLine::new(*id, *q)).collect();
    b.nodes.push(n);
}
