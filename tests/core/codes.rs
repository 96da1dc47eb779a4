//! The code gallery: for every code in the finding registry (`analysis::codes::CODES`), at
//! every severity the registry gives it, a build that makes `analyze` emit it. A code added to
//! the registry without a build that produces it fails the test, and so does a case whose
//! build stops producing its finding.
//!
//! Hardware findings are produced against the test catalog of `hw_fixture`, from the builds
//! the rule tests vary (`compat.rs`, `power.rs`, `thermal.rs`); the TCO and planned-workload
//! findings need cloud offers and the model catalog, so they use the embedded catalog (the
//! builds of `tco.rs` and `workload_tco.rs`). TCO findings are the report's `tco.notes`; every
//! other finding is in `diagnostics`.

use crate::export::template;
use crate::hw_fixture::{add_node, build_of, hgx_server, workstation_with};
use rigplan::core::analysis::Severity::{self, Error, Info, Warning};
use rigplan::core::analysis::codes::{CODES, lookup};
use rigplan::core::analysis::{Report, analyze};
use rigplan::core::build::{Build, CostKind, CustomLine, Location, PartLine, PlannedWorkload, Redundancy};
use rigplan::core::catalog::{Catalog, PartId};
use std::sync::OnceLock;

/// Registered codes no build can produce, each with the reason (none today). The test checks
/// that each is still registered, has no case, and that the list stays short.
const EXCEPTIONS: &[(&str, &str)] = &[];

/// A build, the catalog it is analyzed against, and the findings (code, severity) it must
/// produce among others.
struct Case {
    name: &'static str,
    build: fn() -> (&'static Catalog, Build),
    finds: &'static [(&'static str, Severity)],
}

fn fixture(build: Build) -> (&'static Catalog, Build) {
    (crate::hw_fixture::catalog(), build)
}

fn embedded(build: Build) -> (&'static Catalog, Build) {
    (crate::export::catalog(), build)
}

/// A build after an edit.
fn edited(mut build: Build, edit: impl FnOnce(&mut Build)) -> Build {
    edit(&mut build);
    build
}

/// The baseline workstation with its RTX 4090 replaced by `gpus`, a 1600 W PSU to feed them,
/// and NVLink bridges set or not.
fn workstation_gpus(gpus: &[(&str, u32)], bridge: bool) -> Build {
    let mut lines = vec![("psu/t-1600-atx3", 1)];
    lines.extend_from_slice(gpus);
    edited(workstation_with(&lines), |b| {
        b.nodes[0].parts.retain(|l| l.part.as_str() != "gpu/t-4090");
        b.nodes[0].nvlink_bridge = bridge;
    })
}

/// A 4U GPU server (8 double-width bays, four included CRPS supplies in N+1) with `count` PCIe
/// GPUs.
fn gpu_server(gpu: &str, count: u32) -> Build {
    edited(
        build_of(&[
            (gpu, count),
            ("motherboard/t-sp5-2p", 1),
            ("cpu/t-epyc", 2),
            ("memory/t-rdimm-64", 24),
            ("storage/t-nvme-2tb", 1),
            ("cooler/t-sp5-heatsink", 2),
            ("chassis/t-4u-gpu", 1),
        ]),
        |b| b.nodes[0].psu_redundancy = Redundancy::NPlusOne,
    )
}

/// `count` nodes of one DGX each.
fn dgx_nodes(count: u32) -> Build {
    edited(build_of(&[("system/t-dgx", 1)]), |b| b.nodes[0].count = count)
}

/// Three InfiniBand-equipped workstations, with the cluster's switches.
fn fabric_nodes(switches: &[(&str, u32)]) -> Build {
    edited(workstation_with(&[("nic/t-cx7", 1), ("storage/t-nvme-2tb", 1)]), |b| {
        b.nodes[0].count = 3;
        b.cluster = switches.iter().map(|(id, q)| PartLine::new(*id, *q)).collect();
    })
}

/// One node of `count` catalog GPUs and nothing else (the TCO tests' builds).
fn gpu_node(gpu: &str, count: u32) -> Build {
    let mut b = Build::new("gallery");
    b.add_part(Location::Node(0), &PartId::from(gpu), count).unwrap();
    b
}

/// The 8× H100 HGX template planned for a workload.
fn planned(model: &str, workload: &str) -> Build {
    edited(template("enterprise-8x-h100-hgx"), |b| {
        b.usage.workload =
            Some(PlannedWorkload { model: model.to_owned(), workload: workload.to_owned(), run_tokens: Some(1e9) });
    })
}

/// The test catalog without the H100 SXM module its DGX lists: `Catalog::from_sources` would
/// report the dangling reference as an error, but `retain_parts` makes such a catalog.
fn catalog_without_dgx_gpu() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let mut c = crate::hw_fixture::catalog().clone();
        c.retain_parts(|id| id.as_str() != "gpu/t-h100-sxm");
        c
    })
}

#[expect(clippy::too_many_lines, reason = "one table row per build of the gallery")]
fn cases() -> Vec<Case> {
    vec![
        // Compatibility: the node's essentials.
        Case {
            name: "empty node",
            build: || fixture(build_of(&[])),
            finds: &[("node-empty", Warning), ("tco-power-unknown", Warning)],
        },
        Case {
            name: "a GPU alone",
            build: || fixture(build_of(&[("gpu/t-4090", 1)])),
            finds: &[
                ("missing-motherboard", Error),
                ("missing-cpu", Error),
                ("missing-memory", Error),
                ("missing-psu", Error),
                ("missing-storage", Warning),
                ("missing-chassis", Warning),
            ],
        },
        Case {
            name: "workstation without its cooler",
            build: || fixture(workstation_with(&[("cooler/t-aio-360", 0)])),
            finds: &[("missing-cpu-cooler", Warning)],
        },
        Case {
            name: "two boards, two chassis",
            build: || fixture(workstation_with(&[("motherboard/t-x670e", 2), ("chassis/t-tower", 2)])),
            finds: &[("multiple-mainboards", Error), ("multiple-chassis", Error)],
        },
        // CPUs.
        Case {
            name: "EPYC on an AM5 board",
            build: || fixture(workstation_with(&[("cpu/t-epyc", 1)])),
            finds: &[("cpu-socket-mismatch", Error)],
        },
        Case {
            name: "two desktop CPUs",
            build: || fixture(workstation_with(&[("cpu/t-7950x", 2)])),
            finds: &[("cpu-count-exceeds-sockets", Error), ("cpu-multi-socket-unsupported", Error)],
        },
        Case {
            name: "two CPU models",
            build: || {
                fixture(edited(workstation_with(&[]), |b| b.nodes[0].parts.push(PartLine::new("cpu/t-7700x", 1))))
            },
            finds: &[("cpu-mixed-models", Error)],
        },
        Case {
            name: "one EPYC on a dual-socket board",
            build: || {
                fixture(edited(hgx_server(), |b| {
                    b.nodes[0].parts[3].quantity = 1;
                    b.nodes[0].parts[7].quantity = 1;
                }))
            },
            finds: &[("cpu-sockets-unpopulated", Info)],
        },
        // Memory.
        Case {
            name: "DDR4 on a DDR5 board",
            build: || fixture(workstation_with(&[("memory/t-ddr4-32", 2)])),
            finds: &[("memory-type-mismatch", Error)],
        },
        Case {
            name: "RDIMMs on a UDIMM board",
            build: || fixture(workstation_with(&[("memory/t-rdimm-64", 2)])),
            finds: &[("memory-dimm-kind-mismatch", Error)],
        },
        Case {
            name: "non-ECC RDIMMs in the server",
            build: || {
                fixture(edited(hgx_server(), |b| b.nodes[0].parts[4] = PartLine::new("memory/t-rdimm-64-noecc", 24)))
            },
            finds: &[("memory-ecc-required", Error)],
        },
        Case {
            name: "RDIMMs and LRDIMMs",
            build: || {
                fixture(edited(hgx_server(), |b| {
                    b.nodes[0].parts[4].quantity = 12;
                    b.nodes[0].parts.push(PartLine::new("memory/t-lrdimm-128", 12));
                }))
            },
            finds: &[("memory-kinds-mixed", Error)],
        },
        Case {
            name: "ECC and non-ECC UDIMMs",
            build: || {
                fixture(edited(workstation_with(&[("memory/t-ddr5-32", 1)]), |b| {
                    b.nodes[0].parts.push(PartLine::new("memory/t-ddr5-32-ecc", 1));
                }))
            },
            finds: &[("memory-ecc-mixed", Warning)],
        },
        Case {
            name: "six DIMMs in four slots",
            build: || fixture(workstation_with(&[("memory/t-ddr5-32", 6)])),
            finds: &[("memory-slots-exceeded", Error)],
        },
        Case {
            name: "256 GiB for a 192 GiB platform",
            build: || fixture(workstation_with(&[("memory/t-ddr5-64", 4)])),
            finds: &[("memory-capacity-exceeds-board", Error), ("memory-capacity-exceeds-cpu", Error)],
        },
        Case {
            name: "one 16 GiB DIMM for a 24 GiB card",
            build: || fixture(workstation_with(&[("memory/t-ddr5-16", 1)])),
            finds: &[("memory-channels-underpopulated", Warning), ("system-memory-below-vram", Info)],
        },
        // GPU modules and baseboards.
        Case {
            name: "integrated GPU on its own",
            build: || fixture(workstation_with(&[("gpu/t-orin-gpu", 1)])),
            finds: &[("gpu-integrated-standalone", Error)],
        },
        Case {
            name: "SXM module in a workstation",
            build: || fixture(workstation_with(&[("gpu/t-h100-sxm", 1)])),
            finds: &[("gpu-module-needs-baseboard", Error)],
        },
        Case {
            name: "SXM4 modules on an SXM5 baseboard",
            build: || fixture(edited(hgx_server(), |b| b.nodes[0].parts[0] = PartLine::new("gpu/t-a100-sxm", 8))),
            finds: &[("gpu-baseboard-mismatch", Error)],
        },
        Case {
            name: "nine modules on eight positions",
            build: || fixture(edited(hgx_server(), |b| b.nodes[0].parts[0].quantity = 9)),
            finds: &[("gpu-baseboard-positions-exceeded", Error)],
        },
        Case {
            name: "HGX baseboard in a tower",
            build: || fixture(edited(hgx_server(), |b| b.nodes[0].parts[9] = PartLine::new("chassis/t-tower", 1))),
            finds: &[("gpu-baseboard-chassis-mismatch", Error)],
        },
        // NVLink bridges.
        Case {
            name: "bridges on a card without a connector",
            build: || fixture(edited(workstation_with(&[]), |b| b.nodes[0].nvlink_bridge = true)),
            finds: &[("nvlink-bridge-unsupported", Error)],
        },
        Case {
            name: "bridged A6000 and A100",
            build: || fixture(workstation_gpus(&[("gpu/t-a6000", 1), ("gpu/t-a100-pcie", 1)], true)),
            finds: &[("nvlink-bridge-mixed", Error)],
        },
        Case {
            name: "three bridged A6000s",
            build: || fixture(workstation_gpus(&[("gpu/t-a6000", 3)], true)),
            finds: &[("nvlink-bridge-unpaired", Warning)],
        },
        Case {
            name: "two unbridged A6000s",
            build: || fixture(workstation_gpus(&[("gpu/t-a6000", 2)], false)),
            finds: &[("nvlink-bridge-available", Info)],
        },
        // PCIe slots and lanes.
        Case {
            name: "two 4090s",
            build: || fixture(workstation_with(&[("gpu/t-4090", 2), ("psu/t-1600-atx3", 1)])),
            finds: &[("pcie-slot-lanes-reduced", Warning), ("gpu-open-air-stacked", Warning)],
        },
        Case {
            name: "three 4090s",
            build: || fixture(workstation_with(&[("gpu/t-4090", 3), ("psu/t-1600-atx3", 1)])),
            finds: &[("pcie-slot-unavailable", Error)],
        },
        Case {
            name: "card placed in a missing slot",
            build: || fixture(edited(workstation_with(&[]), |b| b.nodes[0].parts[0].slots = vec![2])),
            finds: &[("pcie-slot-invalid", Error)],
        },
        Case {
            name: "3-slot card in the last slot",
            build: || fixture(edited(workstation_with(&[]), |b| b.nodes[0].parts[0].slots = vec![6])),
            finds: &[("expansion-slots-exceeded", Error)],
        },
        Case {
            name: "nine GPUs in eight bays",
            build: || fixture(gpu_server("gpu/t-a100-pcie", 9)),
            finds: &[("gpu-bays-exceeded", Error)],
        },
        Case {
            name: "four NVMe drives",
            build: || fixture(workstation_with(&[("storage/t-nvme-2tb", 4)])),
            finds: &[("m2-slots-exceeded", Error), ("pcie-lanes-oversubscribed", Warning)],
        },
        // The enclosure.
        Case {
            name: "compact tower",
            build: || fixture(workstation_with(&[("chassis/t-compact", 1)])),
            finds: &[("gpu-too-long", Error), ("radiator-too-long", Error), ("airflow-insufficient", Warning)],
        },
        Case {
            name: "GeForce cards in a rack server",
            build: || fixture(gpu_server("gpu/t-4090", 2)),
            finds: &[("consumer-gpu-in-server", Info)],
        },
        Case {
            name: "E-ATX board in an ATX chassis",
            build: || fixture(edited(hgx_server(), |b| b.nodes[0].parts[9] = PartLine::new("chassis/t-compact", 1))),
            finds: &[("board-form-factor-mismatch", Error)],
        },
        Case {
            name: "five HDDs in two bays",
            build: || {
                fixture(edited(workstation_with(&[]), |b| {
                    b.nodes[0].parts.push(PartLine::new("storage/t-hdd-20tb", 5));
                }))
            },
            finds: &[("drive-bays-exceeded", Error), ("sata-ports-exceeded", Warning)],
        },
        // PSU connectors and fit.
        Case {
            name: "ATX 2 PSU for a 16-pin card",
            build: || fixture(workstation_with(&[("psu/t-850-atx2", 1)])),
            finds: &[("psu-connector-adapter", Warning), ("psu-transient-risk", Warning)],
        },
        Case {
            name: "650 W bronze PSU",
            build: || fixture(workstation_with(&[("psu/t-650-bronze", 1)])),
            finds: &[
                ("psu-connectors-insufficient", Error),
                ("psu-eps-insufficient", Warning),
                ("psu-capacity-low", Error),
            ],
        },
        Case {
            name: "PSU without EPS cables",
            build: || fixture(workstation_with(&[("psu/t-no-eps", 1)])),
            finds: &[("psu-eps-insufficient", Error)],
        },
        Case {
            name: "CRPS module in an ATX tower",
            build: || fixture(workstation_with(&[("psu/t-crps-3000", 1)])),
            finds: &[("psu-form-factor-mismatch", Error)],
        },
        Case {
            name: "two PSUs in one bay",
            build: || fixture(workstation_with(&[("psu/t-1000-atx3", 2)])),
            finds: &[("psu-bays-exceeded", Error)],
        },
        Case {
            name: "N+1 with one PSU",
            build: || fixture(edited(workstation_with(&[]), |b| b.nodes[0].psu_redundancy = Redundancy::NPlusOne)),
            finds: &[("psu-redundancy-insufficient", Error)],
        },
        // CPU coolers.
        Case {
            name: "SP5 heatsink on AM5",
            build: || fixture(workstation_with(&[("cooler/t-sp5-heatsink", 1)])),
            finds: &[("cooler-socket-mismatch", Error)],
        },
        Case {
            name: "170 mm cooler under 165 mm",
            build: || fixture(workstation_with(&[("cooler/t-air-tall", 1)])),
            finds: &[("cooler-too-tall", Error), ("cooler-capacity-low", Warning)],
        },
        Case {
            name: "150 W cooler for a 170 W CPU",
            build: || fixture(workstation_with(&[("cooler/t-air-small", 1)])),
            finds: &[("cooler-capacity-low", Error)],
        },
        Case {
            name: "one heatsink for two EPYCs",
            build: || fixture(edited(hgx_server(), |b| b.nodes[0].parts[7].quantity = 1)),
            finds: &[("cooler-count-low", Warning)],
        },
        // The cluster.
        Case {
            name: "61 HDDs in a 60-bay JBOD",
            build: || fixture(build_of(&[("chassis/t-jbod", 1), ("storage/t-hdd-20tb", 61)])),
            finds: &[("jbod-bays-exceeded", Error)],
        },
        Case {
            name: "cluster drives without an enclosure",
            build: || {
                fixture(edited(workstation_with(&[]), |b| b.cluster = vec![PartLine::new("storage/t-hdd-20tb", 10)]))
            },
            finds: &[("cluster-storage-no-enclosure", Warning)],
        },
        Case {
            name: "two GPU nodes without fabric",
            build: || fixture(edited(workstation_with(&[]), |b| b.nodes[0].count = 2)),
            finds: &[("fabric-missing", Warning)],
        },
        Case {
            name: "three InfiniBand nodes without a switch",
            build: || fixture(fabric_nodes(&[])),
            finds: &[("switch-missing", Warning)],
        },
        Case {
            name: "InfiniBand nodes on an Ethernet switch",
            build: || fixture(fabric_nodes(&[("switch/t-eth", 1)])),
            finds: &[("switch-tech-mismatch", Warning)],
        },
        Case {
            name: "nine DGX on a 64-port switch",
            build: || fixture(edited(dgx_nodes(9), |b| b.cluster = vec![PartLine::new("switch/t-ndr", 1)])),
            finds: &[("switch-ports-insufficient", Error)],
        },
        // Power.
        Case {
            name: "850 W PSU for 968.5 W recommended",
            build: || fixture(workstation_with(&[("psu/t-850-atx3", 1)])),
            finds: &[("psu-below-recommended", Warning)],
        },
        Case {
            name: "six server modules below the margins",
            build: || fixture(edited(hgx_server(), |b| b.nodes[0].parts[8].quantity = 6)),
            finds: &[("psu-below-recommended", Info)],
        },
        Case {
            name: "two 5090s on a 15 A outlet",
            build: || fixture(workstation_with(&[("gpu/t-5090", 2), ("psu/t-1600-atx3", 1)])),
            finds: &[("circuit-overload", Warning)],
        },
        Case {
            name: "DGX nodes on 230 V / 16 A",
            build: || {
                fixture(edited(dgx_nodes(4), |b| {
                    b.site.circuit_volts = 230.0;
                    b.site.circuit_amps = 16.0;
                }))
            },
            finds: &[("circuit-multiple-feeds", Info)],
        },
        // Thermal.
        Case {
            name: "workstation in a 41 °C room",
            build: || fixture(edited(workstation_with(&[]), |b| b.site.ambient_c = 41.0)),
            finds: &[("gpu-temp-high", Warning)],
        },
        Case {
            name: "passive A100 in a tower",
            build: || fixture(workstation_gpus(&[("gpu/t-a100-pcie", 1)], false)),
            finds: &[("passive-gpu-in-tower", Warning), ("gpu-temp-over-max", Warning)],
        },
        Case {
            name: "DGX in a 40 °C room",
            build: || fixture(edited(dgx_nodes(2), |b| b.site.ambient_c = 40.0)),
            finds: &[("system-ambient-exceeded", Warning)],
        },
        // The catalog.
        Case {
            name: "a part the catalog does not know",
            build: || {
                fixture(edited(workstation_with(&[]), |b| b.nodes[0].parts.push(PartLine::new("nic/no-such-nic", 1))))
            },
            finds: &[("unknown-part", Warning), ("tco-unpriced-lines", Warning)],
        },
        Case {
            name: "a DGX whose GPU the catalog lacks",
            build: || (catalog_without_dgx_gpu(), build_of(&[("system/t-dgx", 1)])),
            finds: &[("unknown-system-gpu", Warning)],
        },
        // TCO (embedded catalog: cloud offers).
        Case {
            name: "8× H100 SXM node",
            build: || embedded(gpu_node("gpu/nvidia-h100-sxm5-80gb", 8)),
            finds: &[("tco-spot-overhead-unset", Info)],
        },
        Case {
            name: "8× H100 SXM against an A100 offer",
            build: || {
                embedded(edited(gpu_node("gpu/nvidia-h100-sxm5-80gb", 8), |b| {
                    b.costs.chosen_offer = Some("aws-p4d-24xlarge".to_owned());
                }))
            },
            finds: &[("tco-offer-gpu-differs", Info)],
        },
        Case {
            name: "an offer the catalog does not hold",
            build: || {
                embedded(edited(gpu_node("gpu/nvidia-h100-sxm5-80gb", 8), |b| {
                    b.costs.chosen_offer = Some("no-such-offer".to_owned());
                }))
            },
            finds: &[("tco-offer-unknown", Warning)],
        },
        Case {
            name: "H100 and L4 nodes",
            build: || {
                embedded(edited(gpu_node("gpu/nvidia-h100-sxm5-80gb", 8), |b| {
                    add_node(b, "Other", 1, &[("gpu/nvidia-l4", 2)]);
                }))
            },
            finds: &[("tco-mixed-gpus", Info)],
        },
        Case {
            name: "two L4s",
            build: || embedded(gpu_node("gpu/nvidia-l4", 2)),
            finds: &[("tco-no-cloud-match", Info)],
        },
        Case {
            name: "one RTX 4090 against its pod",
            build: || embedded(gpu_node("gpu/nvidia-geforce-rtx-4090", 1)),
            finds: &[("tco-price-unverified", Info)],
        },
        Case {
            name: "yearly cost below the depreciation it includes",
            build: || {
                embedded(edited(Build::new("gallery"), |b| {
                    b.custom_lines.push(CustomLine {
                        name: "cluster".to_owned(),
                        amount: 800_000.0,
                        quantity: 1,
                        kind: CostKind::Capex,
                    });
                    b.costs.annual_owned_cost = Some(100_000.0);
                    b.costs.annual_cost_includes_depreciation = true;
                }))
            },
            finds: &[("tco-entered-cost-below-depreciation", Warning)],
        },
        // The planned workload (embedded catalog: models).
        Case {
            name: "a workload the matrix does not know",
            build: || embedded(planned("model/meta-llama-3.1-8b", "pretrain-everything")),
            finds: &[("workload-unknown", Warning)],
        },
        Case {
            name: "a model the catalog does not know",
            build: || embedded(planned("model/no-such-model", "lora-r16")),
            finds: &[("workload-unknown-model", Warning)],
        },
        Case {
            name: "a workload on a build without GPUs",
            build: || {
                embedded(edited(Build::new("gallery"), |b| {
                    b.usage.workload = Some(PlannedWorkload {
                        model: "model/meta-llama-3.1-8b".to_owned(),
                        workload: "lora-r16".to_owned(),
                        run_tokens: None,
                    });
                }))
            },
            finds: &[("workload-no-gpus", Warning)],
        },
        Case {
            name: "GPT-3 full fine-tune on 8× H100",
            build: || embedded(planned("model/openai-gpt-3-175b", "full-ft-zero3")),
            finds: &[("workload-does-not-fit", Warning)],
        },
    ]
}

/// Every finding of a report: the build's (`diagnostics`) and the TCO's (`tco.notes`).
fn findings(report: &Report) -> impl Iterator<Item = (&str, Severity)> {
    report.diagnostics.iter().chain(&report.tco.notes).map(|d| (d.code.as_str(), d.severity))
}

#[test]
fn every_registered_code_is_produced_by_some_build() {
    let cases = cases();
    let mut failures = Vec::new();
    for case in &cases {
        let (catalog, build) = (case.build)();
        let report = analyze(catalog, &build);
        let found: Vec<(&str, Severity)> = findings(&report).collect();
        for &(code, severity) in case.finds {
            if !found.contains(&(code, severity)) {
                failures.push(format!("{}: no `{code}` ({severity:?}) among {found:?}", case.name));
            }
        }
        // Whatever else the gallery's builds find is registered, at a registered severity.
        for &(code, severity) in &found {
            match lookup(code) {
                None => failures.push(format!("{}: `{code}` is not registered", case.name)),
                Some(c) if !c.severities.contains(&severity) => failures
                    .push(format!("{}: `{code}` is found as {severity:?}, registered {:?}", case.name, c.severities)),
                Some(_) => {}
            }
        }
    }
    assert!(failures.is_empty(), "{} case finding(s) failed:\n{}", failures.len(), failures.join("\n"));

    let produced: Vec<(&str, Severity)> = cases.iter().flat_map(|c| c.finds.iter().copied()).collect();
    for &(code, severity) in &produced {
        let registered = lookup(code).is_some_and(|c| c.severities.contains(&severity));
        assert!(registered, "the gallery expects `{code}` as {severity:?}, which the registry does not give it");
    }
    assert!(EXCEPTIONS.len() <= 3, "the exceptions are few: {EXCEPTIONS:?}");
    for &(code, reason) in EXCEPTIONS {
        assert!(lookup(code).is_some(), "the exception `{code}` is not registered");
        assert!(!reason.is_empty(), "the exception `{code}` says why");
        assert!(!produced.iter().any(|(c, _)| *c == code), "`{code}` is produced; drop it from the exceptions");
    }
    for code in &CODES {
        if EXCEPTIONS.iter().any(|(c, _)| *c == code.id) {
            continue;
        }
        for severity in code.severities {
            assert!(
                produced.contains(&(code.id, *severity)),
                "`{}` ({severity:?}) has no build in the gallery that produces it",
                code.id
            );
        }
    }
}
