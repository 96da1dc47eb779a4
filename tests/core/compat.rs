//! Compatibility rules: each rule with a build that triggers it and one that does not. The
//! baseline workstation (`hw_fixture::WORKSTATION`) triggers nothing and is the non-triggering
//! case of every rule varied from it; rules with a sharper boundary have their own negative.

use crate::hw_fixture::{add_node, build_of, codes, has, hgx_server, report, workstation_with};
use rigplan::core::analysis::Severity::{Error, Info, Warning};
use rigplan::core::analysis::compat::SlotKind;
use rigplan::core::build::{Location, PartLine, Redundancy};

#[test]
fn baseline_workstation_has_no_findings() {
    let r = report(&workstation_with(&[]));
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
}

#[test]
fn hgx_server_has_no_errors_or_warnings() {
    let r = report(&hgx_server());
    let serious: Vec<_> = r.diagnostics.iter().filter(|d| d.severity != Info).collect();
    assert!(serious.is_empty(), "{serious:#?}");
}

#[test]
fn missing_essentials() {
    let r = report(&build_of(&[("gpu/t-4090", 1)]));
    for code in ["missing-motherboard", "missing-cpu", "missing-memory", "missing-psu"] {
        assert!(has(&r, code, Error), "{code}: {:?}", codes(&r));
    }
    for code in ["missing-storage", "missing-chassis"] {
        assert!(has(&r, code, Warning), "{code}: {:?}", codes(&r));
    }
    let r = report(&workstation_with(&[("cooler/t-aio-360", 0)]));
    assert!(has(&r, "missing-cpu-cooler", Warning));
    assert!(!codes(&r).iter().any(|c| c.starts_with("missing-") && *c != "missing-cpu-cooler"));
}

#[test]
fn complete_systems_and_infrastructure_need_no_cpu_or_psu() {
    let r = report(&build_of(&[("system/t-dgx", 1)]));
    assert!(!codes(&r).iter().any(|c| c.starts_with("missing-")), "{:?}", codes(&r));
    let r = report(&build_of(&[("system/t-orin", 1)]));
    assert!(!codes(&r).iter().any(|c| c.starts_with("missing-")), "{:?}", codes(&r));
    let mut b = build_of(&[("switch/t-ndr", 1)]);
    b.site.circuit_volts = 230.0;
    b.site.circuit_amps = 16.0;
    let r = report(&b);
    assert!(r.diagnostics.is_empty(), "{:?}", codes(&r));
    let r = report(&build_of(&[("chassis/t-jbod", 1), ("storage/t-hdd-20tb", 60)]));
    assert!(r.diagnostics.is_empty(), "{:?}", codes(&r));
}

#[test]
fn empty_node() {
    let r = report(&build_of(&[]));
    assert!(has(&r, "node-empty", Warning));
}

#[test]
fn duplicate_mainboard_and_chassis() {
    let r = report(&workstation_with(&[("motherboard/t-x670e", 2), ("chassis/t-tower", 2)]));
    assert!(has(&r, "multiple-mainboards", Error));
    assert!(has(&r, "multiple-chassis", Error));
}

#[test]
fn cpu_socket_mismatch_names_parts_and_lines() {
    let r = report(&workstation_with(&[("cpu/t-epyc", 1)]));
    let d = r.diagnostics.iter().find(|d| d.code == "cpu-socket-mismatch").expect("finding");
    assert_eq!(d.severity, Error);
    assert!(d.parts.iter().any(|p| p.as_str() == "cpu/t-epyc"));
    assert!(d.parts.iter().any(|p| p.as_str() == "motherboard/t-x670e"));
    assert!(d.lines.iter().all(|l| l.location == Location::Node(0)));
    assert!(d.fix.is_some());
    assert!(d.message.contains("SP5") && d.message.contains("AM5"), "{}", d.message);
}

#[test]
fn cpu_counts_and_models() {
    let r = report(&workstation_with(&[("cpu/t-7950x", 2)]));
    assert!(has(&r, "cpu-count-exceeds-sockets", Error));
    assert!(has(&r, "cpu-multi-socket-unsupported", Error));
    let mut b = workstation_with(&[]);
    b.nodes[0].parts.push(PartLine::new("cpu/t-7700x", 1));
    assert!(has(&report(&b), "cpu-mixed-models", Error));
    // One EPYC on a dual-socket board works, with half the platform unavailable.
    let mut one = hgx_server();
    one.nodes[0].parts[3].quantity = 1;
    one.nodes[0].parts[7].quantity = 1;
    assert!(has(&report(&one), "cpu-sockets-unpopulated", Info));
    assert!(!codes(&report(&hgx_server())).contains(&"cpu-sockets-unpopulated"));
}

#[test]
fn memory_type_and_kind() {
    let r = report(&workstation_with(&[("memory/t-ddr4-32", 2)]));
    assert!(has(&r, "memory-type-mismatch", Error));
    let r = report(&workstation_with(&[("memory/t-rdimm-64", 2)]));
    assert!(has(&r, "memory-dimm-kind-mismatch", Error));
    assert!(!codes(&r).contains(&"memory-type-mismatch"));
}

#[test]
fn memory_ecc_and_mixing() {
    let mut b = hgx_server();
    b.nodes[0].parts[4] = PartLine::new("memory/t-rdimm-64-noecc", 24);
    assert!(has(&report(&b), "memory-ecc-required", Error));
    let mut b = hgx_server();
    b.nodes[0].parts[4].quantity = 12;
    b.nodes[0].parts.push(PartLine::new("memory/t-lrdimm-128", 12));
    let r = report(&b);
    assert!(has(&r, "memory-kinds-mixed", Error));
    // LRDIMMs alone are accepted where RDIMMs are.
    assert!(!codes(&r).contains(&"memory-dimm-kind-mismatch"));
    let mut b = workstation_with(&[("memory/t-ddr5-32", 1)]);
    b.nodes[0].parts.push(PartLine::new("memory/t-ddr5-32-ecc", 1));
    assert!(has(&report(&b), "memory-ecc-mixed", Warning));
}

#[test]
fn memory_slots_capacity_and_channels() {
    let r = report(&workstation_with(&[("memory/t-ddr5-32", 6)]));
    assert!(has(&r, "memory-slots-exceeded", Error));
    assert!(!has(&report(&workstation_with(&[("memory/t-ddr5-32", 4)])), "memory-slots-exceeded", Error));
    // 4 × 64 GiB = 256 GiB > the board's and the CPU's 192 GiB.
    let r = report(&workstation_with(&[("memory/t-ddr5-64", 4)]));
    assert!(has(&r, "memory-capacity-exceeds-board", Error));
    assert!(has(&r, "memory-capacity-exceeds-cpu", Error));
    // 3 × 64 = 192 GiB fits the board but not the 7700X's 128 GiB.
    let r = report(&workstation_with(&[("memory/t-ddr5-64", 3), ("cpu/t-7700x", 1)]));
    assert!(!has(&r, "memory-capacity-exceeds-board", Error));
    assert!(has(&r, "memory-capacity-exceeds-cpu", Error));
    let r = report(&workstation_with(&[("memory/t-ddr5-64", 1)]));
    assert!(has(&r, "memory-channels-underpopulated", Warning));
}

#[test]
fn system_memory_vs_vram_recommends_a_purchasable_size() {
    // 2 × 16 GiB = 32 GiB for a 24 GiB card: below 1.5 × 24 = 36 GiB; the next size on sale
    // is 48 GiB.
    let r = report(&workstation_with(&[("memory/t-ddr5-16", 2)]));
    let d = r.diagnostics.iter().find(|d| d.code == "system-memory-below-vram").expect("finding");
    assert_eq!(d.severity, Info);
    assert_eq!(d.fix.as_deref(), Some("Fit 48 GiB of system memory"));
    // 64 GiB ≥ 36 GiB: the baseline is quiet.
    assert!(!codes(&report(&workstation_with(&[]))).contains(&"system-memory-below-vram"));
}

#[test]
fn gpu_modules_need_their_baseboard() {
    let r = report(&workstation_with(&[("gpu/t-h100-sxm", 1)]));
    assert!(has(&r, "gpu-module-needs-baseboard", Error));
    let mut b = hgx_server();
    b.nodes[0].parts[0] = PartLine::new("gpu/t-a100-sxm", 8);
    assert!(has(&report(&b), "gpu-baseboard-mismatch", Error));
    let mut b = hgx_server();
    b.nodes[0].parts[0].quantity = 9;
    assert!(has(&report(&b), "gpu-baseboard-positions-exceeded", Error));
    let mut b = hgx_server();
    b.nodes[0].parts[9] = PartLine::new("chassis/t-tower", 1);
    assert!(has(&report(&b), "gpu-baseboard-chassis-mismatch", Error));
    let r = report(&workstation_with(&[("gpu/t-orin-gpu", 1)]));
    assert!(has(&r, "gpu-integrated-standalone", Error));
}

#[test]
fn nvlink_bridges() {
    let mut b = workstation_with(&[]);
    b.nodes[0].nvlink_bridge = true;
    assert!(has(&report(&b), "nvlink-bridge-unsupported", Error));
    let pair = |gpus: &[(&str, u32)], bridge: bool| {
        let mut lines = vec![("psu/t-1600-atx3", 1)];
        lines.extend_from_slice(gpus);
        let mut b = workstation_with(&lines);
        b.nodes[0].parts.retain(|l| l.part.as_str() != "gpu/t-4090");
        b.nodes[0].nvlink_bridge = bridge;
        report(&b)
    };
    let r = pair(&[("gpu/t-a6000", 2)], true);
    assert!(!codes(&r).iter().any(|c| c.starts_with("nvlink")), "{:?}", codes(&r));
    assert!(has(&pair(&[("gpu/t-a6000", 2)], false), "nvlink-bridge-available", Info));
    assert!(has(&pair(&[("gpu/t-a6000", 1), ("gpu/t-a100-pcie", 1)], true), "nvlink-bridge-mixed", Error));
    assert!(has(&pair(&[("gpu/t-a6000", 3)], true), "nvlink-bridge-unpaired", Warning));
}

#[test]
fn cards_are_placed_by_width_and_cover_the_slots_under_them() {
    // Board slots at 1 (x16), 4 (x8 electrical), 6 (x4). Two 3-slot cards take 1–3 and 4–6; a
    // third has nowhere to go.
    let r = report(&workstation_with(&[("gpu/t-4090", 2), ("psu/t-1600-atx3", 1)]));
    let layout = &r.compat.layouts[0];
    let pos: Vec<_> = layout.cards.iter().map(|c| (c.position, c.last_position)).collect();
    assert_eq!(pos, vec![(Some(1), Some(3)), (Some(4), Some(6))]);
    assert!(layout.cards.iter().all(|c| c.slot_kind == SlotKind::Board));
    assert!(!codes(&r).contains(&"pcie-slot-unavailable"));
    assert!(has(&r, "pcie-slot-lanes-reduced", Warning), "the second card sits in the x8-wired slot");
    let r = report(&workstation_with(&[("gpu/t-4090", 3), ("psu/t-1600-atx3", 1)]));
    assert!(has(&r, "pcie-slot-unavailable", Error));
    // A NIC after two 3-slot cards: slot 6 is under the second card.
    let r = report(&workstation_with(&[("gpu/t-4090", 2), ("psu/t-1600-atx3", 1), ("nic/t-10g", 1)]));
    let d = r.diagnostics.iter().find(|d| d.code == "pcie-slot-unavailable").expect("NIC unplaced");
    assert!(d.parts.iter().any(|p| p.as_str() == "nic/t-10g"));
}

#[test]
fn chosen_slots_are_honoured_and_checked() {
    let mut b = workstation_with(&[]);
    b.nodes[0].parts[0].slots = vec![4];
    let r = report(&b);
    assert_eq!(r.compat.layouts[0].cards[0].position, Some(4));
    assert!(r.compat.layouts[0].cards[0].user_chosen);
    b.nodes[0].parts[0].slots = vec![2];
    assert!(has(&report(&b), "pcie-slot-invalid", Error));
    // A 3-slot card in slot 6 reaches position 8, past the tower's 7 expansion slots.
    b.nodes[0].parts[0].slots = vec![6];
    assert!(has(&report(&b), "expansion-slots-exceeded", Error));
}

#[test]
fn lanes_oversubscribed() {
    // 16 lanes for the card + 3 × 4 for NVMe = 28 > the 7950X's 24.
    let r = report(&workstation_with(&[("storage/t-nvme-2tb", 3)]));
    assert!(has(&r, "pcie-lanes-oversubscribed", Warning));
    assert!(!has(&report(&workstation_with(&[("storage/t-nvme-2tb", 2)])), "pcie-lanes-oversubscribed", Warning));
}

#[test]
fn gpu_length_and_consumer_cards_in_servers() {
    let r = report(&workstation_with(&[("chassis/t-compact", 1)]));
    assert!(has(&r, "gpu-too-long", Error));
    let server = |gpu: &str| {
        let mut b = hgx_server();
        b.nodes[0].parts = vec![
            PartLine::new(gpu, 2),
            PartLine::new("motherboard/t-sp5-2p", 1),
            PartLine::new("cpu/t-epyc", 2),
            PartLine::new("memory/t-rdimm-64", 24),
            PartLine::new("storage/t-nvme-2tb", 1),
            PartLine::new("cooler/t-sp5-heatsink", 2),
            PartLine::new("chassis/t-4u-gpu", 1),
        ];
        b.nodes[0].psu_redundancy = Redundancy::NPlusOne;
        report(&b)
    };
    let r = server("gpu/t-4090");
    assert!(has(&r, "consumer-gpu-in-server", Info));
    assert_eq!(r.compat.layouts[0].cards[0].slot_kind, SlotKind::GpuBay);
    let r = server("gpu/t-a100-pcie");
    assert!(!codes(&r).contains(&"consumer-gpu-in-server"));
    let serious: Vec<_> = r.diagnostics.iter().filter(|d| d.severity != Info).collect();
    assert!(serious.is_empty(), "{serious:#?}");
    let r = server_with_count("gpu/t-a100-pcie", 9);
    assert!(has(&r, "gpu-bays-exceeded", Error));
}

fn server_with_count(gpu: &str, n: u32) -> rigplan::core::analysis::Report {
    let mut b = build_of(&[
        (gpu, n),
        ("motherboard/t-sp5-2p", 1),
        ("cpu/t-epyc", 2),
        ("memory/t-rdimm-64", 24),
        ("cooler/t-sp5-heatsink", 2),
        ("chassis/t-4u-gpu", 1),
    ]);
    b.nodes[0].psu_redundancy = Redundancy::NPlusOne;
    report(&b)
}

#[test]
fn psu_connectors() {
    // No 16-pin cable, four 8-pin: the adapter takes 3 (450 W / 150 W).
    let r = report(&workstation_with(&[("psu/t-850-atx2", 1)]));
    assert!(has(&r, "psu-connector-adapter", Warning));
    assert!(!has(&r, "psu-connectors-insufficient", Error));
    // Two 8-pin plugs cannot feed a 450 W 16-pin card.
    let r = report(&workstation_with(&[("psu/t-650-bronze", 1)]));
    assert!(has(&r, "psu-connectors-insufficient", Error));
    // One EPS cable for a board with two inputs: runs, with a warning; none at all: error.
    assert!(has(&r, "psu-eps-insufficient", Warning));
    let r = report(&workstation_with(&[("psu/t-no-eps", 1)]));
    assert!(has(&r, "psu-eps-insufficient", Error));
    // Two A6000s take an EPS 8-pin each on top of the CPU's.
    let mut b = workstation_with(&[("gpu/t-a6000", 2)]);
    b.nodes[0].parts.retain(|l| l.part.as_str() != "gpu/t-4090");
    assert!(has(&report(&b), "psu-connectors-insufficient", Error));
}

#[test]
fn psu_fit_and_redundancy() {
    let r = report(&workstation_with(&[("psu/t-crps-3000", 1)]));
    assert!(has(&r, "psu-form-factor-mismatch", Error));
    let r = report(&workstation_with(&[("psu/t-1000-atx3", 2)]));
    assert!(has(&r, "psu-bays-exceeded", Error));
    let mut b = workstation_with(&[]);
    b.nodes[0].psu_redundancy = Redundancy::NPlusOne;
    assert!(has(&report(&b), "psu-redundancy-insufficient", Error));
    let mut b = hgx_server();
    b.nodes[0].parts[8].quantity = 7;
    assert!(has(&report(&b), "psu-redundancy-insufficient", Error), "N+N needs an even count");
}

#[test]
fn coolers() {
    let r = report(&workstation_with(&[("cooler/t-sp5-heatsink", 1)]));
    assert!(has(&r, "cooler-socket-mismatch", Error));
    let r = report(&workstation_with(&[("cooler/t-air-tall", 1)]));
    assert!(has(&r, "cooler-too-tall", Error), "170 mm cooler, 165 mm clearance");
    // 200 W: above the 7950X's 170 W TDP, below its 230 W PPT.
    assert!(has(&r, "cooler-capacity-low", Warning));
    let r = report(&workstation_with(&[("cooler/t-air-small", 1)]));
    assert!(has(&r, "cooler-capacity-low", Error), "150 W < 170 W TDP");
    assert!(!codes(&r).contains(&"cooler-too-tall"));
    let r = report(&workstation_with(&[("chassis/t-compact", 1)]));
    assert!(has(&r, "radiator-too-long", Error));
    // A 600 W loop cooling a 230 W CPU and a 450 W GPU.
    let r = report(&workstation_with(&[("cooler/t-loop", 1)]));
    assert!(has(&r, "cooler-capacity-low", Warning));
    let mut b = hgx_server();
    b.nodes[0].parts[7].quantity = 1;
    assert!(has(&report(&b), "cooler-count-low", Warning));
}

#[test]
fn board_form_factor() {
    let mut b = hgx_server();
    b.nodes[0].parts[9] = PartLine::new("chassis/t-compact", 1);
    assert!(has(&report(&b), "board-form-factor-mismatch", Error));
    // An ATX board in an E-ATX tower fits.
    assert!(!codes(&report(&workstation_with(&[]))).contains(&"board-form-factor-mismatch"));
}

#[test]
fn storage_slots_and_bays() {
    let r = report(&workstation_with(&[("storage/t-nvme-2tb", 4)]));
    assert!(has(&r, "m2-slots-exceeded", Error));
    let mut b = workstation_with(&[]);
    b.nodes[0].parts.push(PartLine::new("storage/t-hdd-20tb", 3));
    let r = report(&b);
    assert!(has(&r, "drive-bays-exceeded", Error), "3 HDDs, 2 bays");
    assert!(!codes(&r).contains(&"sata-ports-exceeded"));
    b.nodes[0].parts.last_mut().expect("line").quantity = 5;
    assert!(has(&report(&b), "sata-ports-exceeded", Warning));
    b.nodes[0].parts.last_mut().expect("line").quantity = 2;
    assert!(!codes(&report(&b)).iter().any(|c| c.contains("bays") || c.contains("sata")));
}

#[test]
fn cluster_storage_and_enclosures() {
    let r = report(&build_of(&[("chassis/t-jbod", 1), ("storage/t-hdd-20tb", 61)]));
    assert!(has(&r, "jbod-bays-exceeded", Error));
    let mut b = workstation_with(&[]);
    b.cluster = vec![PartLine::new("storage/t-hdd-20tb", 10)];
    assert!(has(&report(&b), "cluster-storage-no-enclosure", Warning));
    b.cluster.push(PartLine::new("chassis/t-jbod", 1));
    assert!(!codes(&report(&b)).iter().any(|c| c.contains("jbod") || c.contains("enclosure")));
    b.cluster[0].quantity = 61;
    assert!(has(&report(&b), "jbod-bays-exceeded", Error));
}

#[test]
fn fabric_and_switches() {
    let mut b = workstation_with(&[]);
    b.nodes[0].count = 2;
    assert!(has(&report(&b), "fabric-missing", Warning));
    let mut b = workstation_with(&[("nic/t-cx7", 1), ("storage/t-nvme-2tb", 1)]);
    b.nodes[0].count = 2;
    let r = report(&b);
    assert!(!codes(&r).contains(&"fabric-missing"), "{:?}", codes(&r));
    // Three nodes with fabric adapters and no switch.
    b.nodes[0].count = 3;
    assert!(has(&report(&b), "switch-missing", Warning));
    // InfiniBand adapters with only an Ethernet switch.
    b.cluster = vec![PartLine::new("switch/t-eth", 1)];
    assert!(has(&report(&b), "switch-tech-mismatch", Warning));
    b.cluster = vec![PartLine::new("switch/t-ndr", 1)];
    let r = report(&b);
    assert!(!codes(&r).iter().any(|c| c.starts_with("switch-")), "{:?}", codes(&r));
}

#[test]
fn switch_ports_count_system_fabric() {
    // A DGX's 3200 Gb/s fabric is 8 NDR ports: 8 DGX fill a 64-port switch, 9 do not.
    let mut b = build_of(&[]);
    b.nodes.clear();
    add_node(&mut b, "DGX", 8, &[("system/t-dgx", 1)]);
    b.cluster = vec![PartLine::new("switch/t-ndr", 1)];
    assert!(!codes(&report(&b)).contains(&"switch-ports-insufficient"));
    b.nodes[0].count = 9;
    assert!(has(&report(&b), "switch-ports-insufficient", Error));
}

#[test]
fn embedded_fleets_and_complete_systems_skip_training_and_psu_rules() {
    // Three Jetsons are an edge fleet, not a training cluster.
    let mut b = build_of(&[("system/t-orin", 1)]);
    b.nodes[0].count = 3;
    assert!(!codes(&report(&b)).contains(&"fabric-missing"));
    // A DGX's supplies and their redundancy come from its datasheet.
    let mut b = build_of(&[("system/t-dgx", 1)]);
    b.nodes[0].psu_redundancy = Redundancy::NPlusOne;
    assert!(!codes(&report(&b)).contains(&"psu-redundancy-insufficient"));
    // Two DGX without a fabric switch are still flagged for a switch only past two nodes.
    b.nodes[0].count = 2;
    assert!(!codes(&report(&b)).contains(&"fabric-missing"), "the DGX's own 3.2 Tb/s fabric counts");
}
