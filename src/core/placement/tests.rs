//! Drop acceptance, refusals in both languages, and the slot layout, on a small catalog.

use super::texts::TEMPLATES;
use super::*;
use crate::core::analysis::analyze;
use crate::core::build::NodeGroup;
use crate::core::catalog::CatalogProblem;
use crate::core::i18n::{Lang, placeholders};

/// A verdict's reasons in a language.
fn reasons_in(v: &Verdict, lang: Lang) -> Vec<String> {
    v.reasons().iter().map(|t| t.render(lang)).collect()
}

/// A small catalog: a 3-slot PCIe card (RTX 4090 figures from NVIDIA's product page), an
/// SXM5 module, an AM5 CPU (Ryzen 9 7950X figures from AMD's product page), an ATX board
/// with three x16 slots at positions 1, 4 and 7 and one x4 slot at 5, a DDR5 module, an
/// M.2 drive, a switch and a NIC. Only the fields the layout and the target rules read
/// matter here.
fn catalog() -> Catalog {
    let gpu = |id: &str, ff: &str, width: f64, lanes: u8| {
        format!(
            r#"(id: "{id}", name: "{id}", vendor: "NVIDIA", source: "test", architecture: "Ada",
            segment: Consumer, memory_gib: 24.0, memory_type: Gddr6x, memory_bandwidth_gbs: 1008.0,
            fp32_tflops: 82.6, fp16_tensor_tflops: 165.2, tdp_watts: 450.0, idle_watts: 21.0,
            form_factor: {ff}, pcie_gen: 4, pcie_lanes: {lanes}, slot_width: {width}, {length}
            interconnect: None, max_temp_c: 90.0, cooler: OpenAir)"#,
            length = if ff == "Pcie" { "length_mm: 304.0," } else { "" }
        )
    };
    let gpus = format!("[{}, {}]", gpu("gpu/card", "Pcie", 3.0, 16), gpu("gpu/module", "Sxm5", 0.0, 16));
    let board = r#"[(id: "motherboard/atx", name: "ATX board", vendor: "ASUS", source: "test",
        role: Mainboard, form_factor: Atx, socket: "AM5", cpu_sockets: 1, memory_type: Ddr5,
        dimm_kinds: [Udimm], dimm_slots: 4, memory_channels: 2, max_memory_gib: 192.0, m2_slots: 2,
        pcie_slots: [
            (position: 1, pcie_gen: 5, physical_lanes: 16, electrical_lanes: 16),
            (position: 4, pcie_gen: 4, physical_lanes: 16, electrical_lanes: 8),
            (position: 5, pcie_gen: 4, physical_lanes: 4, electrical_lanes: 4),
            (position: 7, pcie_gen: 4, physical_lanes: 16, electrical_lanes: 4),
        ])]"#;
    let memory = r#"[(id: "memory/ddr5", name: "DDR5 32GB", vendor: "Kingston", source: "test",
        memory_type: Ddr5, dimm_kind: Udimm, ecc: false, capacity_gib: 32.0, speed_mts: 5200,
        typical_watts: 3.0),
        (id: "memory/ddr4", name: "DDR4 32GB", vendor: "Crucial", source: "test",
        memory_type: Ddr4, dimm_kind: Udimm, ecc: false, capacity_gib: 32.0, speed_mts: 3200,
        typical_watts: 3.0)]"#;
    let storage = r#"[(id: "storage/m2", name: "M.2 SSD", vendor: "Samsung", source: "test",
        interface: NvmeM2, pcie_gen: 4, pcie_lanes: 4, capacity_gb: 2000.0, seq_read_mbs: 7000.0,
        seq_write_mbs: 5000.0, idle_watts: 0.05, active_watts: 6.0)]"#;
    let switch = r#"[(id: "switch/ib", name: "IB switch", vendor: "NVIDIA", source: "test",
        tech: InfiniBand, ports: 40, port_speed_gbps: 200.0, rack_units: 1, typical_watts: 500.0,
        max_watts: 700.0)]"#;
    let nic = r#"[(id: "nic/cx7", name: "ConnectX-7", vendor: "NVIDIA", source: "test", tech: Vpi,
        ports: 1, port_speed_gbps: 400.0, pcie_gen: 5, pcie_lanes: 16, max_watts: 25.0)]"#;
    let cpu = r#"[(id: "cpu/am5", name: "AM5 CPU", vendor: "AMD", source: "test", cores: 16, threads: 32,
        base_ghz: 4.5, boost_ghz: 5.7, tdp_watts: 170.0, idle_watts: 20.0, socket: "AM5",
        memory_types: [Ddr5], memory_channels: 2, max_memory_gib: 192.0, pcie_gen: 5,
        pcie_lanes: 24, max_sockets: 1, tjmax_c: 95.0)]"#;
    let (cat, problems) = Catalog::from_sources(&[
        (PartKind::Gpu, "gpu".into(), gpus),
        (PartKind::Cpu, "cpu".into(), cpu.into()),
        (PartKind::Motherboard, "mb".into(), board.into()),
        (PartKind::Memory, "mem".into(), memory.into()),
        (PartKind::Storage, "st".into(), storage.into()),
        (PartKind::Switch, "sw".into(), switch.into()),
        (PartKind::Nic, "nic".into(), nic.into()),
    ]);
    assert!(!problems.iter().any(CatalogProblem::is_error), "{problems:?}");
    cat
}

fn id(s: &str) -> PartId {
    PartId::from(s)
}

#[test]
fn targets_refuse_the_wrong_kind_with_a_reason() {
    let cat = catalog();
    assert_eq!(target_accepts(&cat, Target::Node(0), &id("gpu/card")), Ok(()));
    let e = target_accepts(&cat, Target::Node(0), &id("switch/ib")).unwrap_err().render(Lang::En);
    assert!(e.contains("cluster-level"), "{e}");
    assert_eq!(target_accepts(&cat, Target::Cluster, &id("switch/ib")), Ok(()));
    assert_eq!(target_accepts(&cat, Target::Cluster, &id("storage/m2")), Ok(()));
    let e = target_accepts(&cat, Target::Cluster, &id("gpu/card")).unwrap_err().render(Lang::En);
    assert!(e.starts_with("gpu/card is a GPU, which goes in a node"), "{e}");
    let dimm = Target::Slots { node: 0, kind: SlotKind::Dimm };
    assert_eq!(target_accepts(&cat, dimm, &id("memory/ddr5")), Ok(()));
    let e = target_accepts(&cat, dimm, &id("gpu/card")).unwrap_err().render(Lang::En);
    assert_eq!(e, "DIMM slots take memory modules; gpu/card is a PCIe GPU.");
    let e = target_accepts(&cat, Target::Slots { node: 0, kind: SlotKind::Bay35 }, &id("storage/m2"))
        .unwrap_err()
        .render(Lang::En);
    assert_eq!(e, "3.5\" bays take hard disks; M.2 SSD is an NVMe M.2 drive.");
    let pcie = Target::PcieSlot { node: 0, position: 1 };
    assert_eq!(target_accepts(&cat, pcie, &id("nic/cx7")), Ok(()));
    let e = target_accepts(&cat, pcie, &id("gpu/module")).unwrap_err().render(Lang::En);
    assert!(e.contains("SXM5 module"), "{e}");
    assert_eq!(target_accepts(&cat, Target::Slots { node: 0, kind: SlotKind::GpuPosition }, &id("gpu/module")), Ok(()));
    // Unknown ids: a node takes them (the analysis reports them), a slot cannot judge them.
    assert_eq!(target_accepts(&cat, Target::Node(0), &id("gpu/unknown")), Ok(()));
    assert!(target_accepts(&cat, pcie, &id("gpu/unknown")).is_err());
}

/// Every refusal the target rules give reads in Chinese too: the slot, cluster and PCIe
/// rules' sentences and the kind nouns inside them.
#[test]
fn refusals_read_in_chinese() {
    let cat = catalog();
    let zh = |target, part: &str| target_accepts(&cat, target, &id(part)).unwrap_err().render(Lang::ZhCn);
    assert_eq!(
        zh(Target::Slots { node: 0, kind: SlotKind::Dimm }, "gpu/card"),
        "内存插槽只能插内存条；gpu/card 是 PCIe GPU。"
    );
    assert_eq!(
        zh(Target::Cluster, "gpu/card"),
        "gpu/card 是一块 GPU，应装在节点中；集群区只放交换机、共享存储和磁盘扩展柜。"
    );
    assert_eq!(zh(Target::Node(0), "switch/ib"), "IB switch 是交换机，属于集群级部件：请把它拖到集群区。");
    assert!(zh(Target::PcieSlot { node: 0, position: 1 }, "gpu/module").contains("SXM5 模组"));
    assert!(zh(Target::PcieSlot { node: 0, position: 1 }, "gpu/unknown").contains("部件目录中没有 `gpu/unknown`"));
}

#[test]
fn every_refusal_template_has_the_same_placeholders_in_both_languages() {
    for t in TEMPLATES.iter().chain(crate::core::build::EDIT_TEMPLATES) {
        let (mut en, mut zh) = (placeholders(t.en), placeholders(t.zh));
        en.sort_unstable();
        zh.sort_unstable();
        assert_eq!(en, zh, "{}", t.en);
    }
}

#[test]
fn check_add_refuses_edit_errors_and_leaves_the_build_alone() {
    let cat = catalog();
    let mut b = Build::new("t");
    b.add_part(Location::Node(0), &id("gpu/card"), MAX_QUANTITY).unwrap();
    let before = b.clone();
    let report = analyze(&cat, &b);
    let v = check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("gpu/card"), 1);
    assert_eq!(
        reasons_in(&v, Lang::En),
        [format!("A quantity must be between 1 and {MAX_QUANTITY}; {} is not.", MAX_QUANTITY + 1)]
    );
    assert_eq!(
        reasons_in(&v, Lang::ZhCn),
        [format!("数量须在 1 到 {MAX_QUANTITY} 之间；{} 不在此范围内。", MAX_QUANTITY + 1)]
    );
    let v = check_add(&cat, &b, &report.diagnostics, Target::Node(3), &id("gpu/card"), 1);
    assert_eq!(reasons_in(&v, Lang::En), ["There is no node 3 in this build."]);
    assert!(check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("memory/ddr5"), 2).is_accept());
    assert_eq!(b, before, "checking never edits the build");
}

#[test]
fn an_incomplete_node_takes_parts_and_a_conflict_is_refused_with_its_reason() {
    let cat = catalog();
    let mut b = Build::new("t");
    // Into an empty node: the node lacks a CPU, a board, memory and a PSU afterwards, and
    // the card has no board to sit on yet; none of that is a conflict.
    let report = analyze(&cat, &b);
    assert!(check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("gpu/card"), 1).is_accept());
    b.add_part(Location::Node(0), &id("motherboard/atx"), 1).unwrap();
    let report = analyze(&cat, &b);
    assert!(check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("memory/ddr5"), 2).is_accept());
    // DDR4 on the DDR5 board: the compatibility rule's own message is the reason.
    let v = check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("memory/ddr4"), 2);
    let reasons = reasons_in(&v, Lang::En);
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert!(reasons[0].contains("DDR4") && reasons[0].contains("DDR5"), "{reasons:?}");
    // Three 3-slot cards fill the x16 slots at 1, 4 and 7 (the x4 slot at 5 is covered);
    // a fourth has no slot.
    b.add_part(Location::Node(0), &id("gpu/card"), 3).unwrap();
    let report = analyze(&cat, &b);
    let v = check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("gpu/card"), 1);
    assert!(!v.is_accept(), "a card with no free slot is refused");
    assert!(reasons_in(&v, Lang::En).iter().any(|r| r.contains("cannot be fitted")), "{:?}", v.reasons());
    // The same refusal in Chinese is the finding's Chinese sentence.
    let zh = reasons_in(&v, Lang::ZhCn);
    assert!(zh.iter().all(|r| r.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))), "{zh:?}");
}

#[test]
fn more_units_of_a_line_pass_the_drops_check_and_fewer_always_pass() {
    let cat = catalog();
    let mut b = Build::new("t");
    b.add_part(Location::Node(0), &id("motherboard/atx"), 1).unwrap();
    b.add_part(Location::Node(0), &id("gpu/card"), 3).unwrap();
    let card = b.nodes[0].parts.iter().position(|l| l.part.as_str() == "gpu/card").unwrap();
    let report = analyze(&cat, &b);
    // Three 3-slot cards fill the board's x16 slots (as in the drop test above): a fourth unit
    // by quantity is refused with the reason a dropped fourth card gets.
    let by_quantity = check_quantity(&cat, &b, &report.diagnostics, Location::Node(0), card, 4);
    let by_drop = check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("gpu/card"), 1);
    assert!(!by_quantity.is_accept());
    assert_eq!(reasons_in(&by_quantity, Lang::En), reasons_in(&by_drop, Lang::En));
    // Fewer units, or as many, are accepted.
    assert!(check_quantity(&cat, &b, &report.diagnostics, Location::Node(0), card, 2).is_accept());
    assert!(check_quantity(&cat, &b, &report.diagnostics, Location::Node(0), card, 3).is_accept());
    // An edit the document refuses (over the quantity limit, no such line) says so.
    let v = check_quantity(&cat, &b, &report.diagnostics, Location::Node(0), card, MAX_QUANTITY + 1);
    assert_eq!(
        reasons_in(&v, Lang::En),
        [format!("A quantity must be between 1 and {MAX_QUANTITY}; {} is not.", MAX_QUANTITY + 1)]
    );
    assert!(!check_quantity(&cat, &b, &report.diagnostics, Location::Node(0), 9, 1).is_accept());
    // From two cards, a third unit fits the third x16 slot.
    b.set_quantity(Location::Node(0), card, 2).unwrap();
    let report = analyze(&cat, &b);
    assert!(check_quantity(&cat, &b, &report.diagnostics, Location::Node(0), card, 3).is_accept());
}

#[test]
fn new_errors_is_a_multiset_difference_over_errors_only() {
    use crate::core::analysis::Diagnostic;
    crate::templates! {
        T;
        ONE "a" { en: "one", zh: "一" }
        TWO "b" { en: "two", zh: "二" }
        WARNING "w" { en: "a warning", zh: "警告" }
    }
    let _ = T; // the macro's list of the templates, which this test names one by one
    let e = |code: &'static str, msg: &'static crate::core::i18n::Template| {
        Diagnostic::new(Severity::Error, code, crate::core::i18n::Text::new(msg))
    };
    let w = Diagnostic::new(Severity::Warning, "w", crate::text!(WARNING));
    let before = vec![e("a", &ONE), w.clone()];
    let after = vec![e("a", &ONE), e("a", &ONE), e("b", &TWO), w.clone(), w];
    let fresh: Vec<&str> = new_errors(&before, &after).iter().map(|d| d.message.as_str()).collect();
    assert_eq!(fresh, ["one", "two"], "the second `one` and `two` are new; warnings never count");
    assert!(new_errors(&after, &before).is_empty());
    let mut in_other_node = e("a", &ONE);
    in_other_node.node = Some(1);
    assert_eq!(new_errors(&before, &[in_other_node]).len(), 1);
}

/// The app's report is localized (its messages in Chinese) while a trial's findings are
/// fresh English: the errors the build already has are still not new.
#[test]
fn errors_the_build_has_are_not_new_whatever_the_reports_language() {
    let cat = catalog();
    let mut b = Build::new("t");
    b.add_part(Location::Node(0), &id("motherboard/atx"), 1).unwrap();
    b.add_part(Location::Node(0), &id("memory/ddr4"), 2).unwrap();
    let mut report = analyze(&cat, &b);
    assert!(report.count(Severity::Error) > 0, "DDR4 on a DDR5 board is an error");
    report.localize(crate::core::i18n::Lang::ZhCn);
    let fresh = analyze(&cat, &b);
    assert!(new_errors(&report.diagnostics, &fresh.diagnostics).is_empty());
    assert!(check_add(&cat, &b, &report.diagnostics, Target::Node(0), &id("gpu/card"), 1).is_accept());
}

#[test]
fn pcie_slot_adds_and_moves_record_the_slot() {
    let mut b = Build::new("t");
    b.add_node(NodeGroup::new("Node 2")).unwrap();
    let slot4 = Target::PcieSlot { node: 0, position: 4 };
    assert_eq!(add_at(&mut b, slot4, &id("gpu/card"), 1), Ok(0));
    assert_eq!(add_at(&mut b, Target::PcieSlot { node: 0, position: 1 }, &id("gpu/card"), 1), Ok(0));
    assert_eq!(b.nodes[0].parts, vec![PartLine { part: id("gpu/card"), quantity: 2, slots: vec![4, 1] }]);
    assert_eq!(add_at(&mut b, slot4, &id("gpu/card"), 2), Err(EditError::Quantity(2)));
    // An automatically placed line is not merged into: the slot gets its own line.
    b.add_part(Location::Node(1), &id("gpu/card"), 1).unwrap();
    assert_eq!(add_at(&mut b, Target::PcieSlot { node: 1, position: 7 }, &id("gpu/card"), 1), Ok(1));
    // Moving one placed card into node 2's slot 4 takes it off the first line.
    let to = Target::PcieSlot { node: 1, position: 4 };
    assert_eq!(move_to(&mut b, Location::Node(0), 0, to, 1), Ok(1));
    assert_eq!(b.nodes[0].parts[0].quantity, 1);
    assert_eq!(b.nodes[1].parts[1], PartLine { part: id("gpu/card"), quantity: 2, slots: vec![7, 4] });
    let before = b.clone();
    assert!(move_to(&mut b, Location::Node(0), 5, to, 1).is_err());
    assert!(move_to(&mut b, Location::Node(0), 0, to, 2).is_err());
    assert_eq!(b, before, "failed moves change nothing");
}

#[test]
fn slot_groups_count_parts_against_the_platform() {
    let cat = catalog();
    let mut b = Build::new("t");
    for (part, q) in [("motherboard/atx", 1), ("memory/ddr5", 2), ("storage/m2", 1), ("cpu/am5", 1)] {
        b.add_part(Location::Node(0), &id(part), q).unwrap();
    }
    let resolved = Resolved::new(&cat, &b);
    let slots = node_slots(&resolved, 0).unwrap();
    let count = |k: SlotKind| slots.group(k).map(|g| (g.capacity, g.used));
    // The test board: 1 socket, 4 DIMM slots, 2 M.2 slots; no chassis, so bays are unknown.
    assert_eq!(count(SlotKind::CpuSocket), Some((Some(1), 1)));
    assert_eq!(count(SlotKind::Dimm), Some((Some(4), 2)));
    assert_eq!(count(SlotKind::M2), Some((Some(2), 1)));
    assert_eq!(count(SlotKind::Bay25), Some((None, 0)));
    assert_eq!(count(SlotKind::Chassis), Some((Some(1), 0)));
    let dimm = slots.group(SlotKind::Dimm).unwrap();
    assert_eq!(dimm.occupants, vec![Occupant { line: 1, part: id("memory/ddr5"), name: "DDR5 32GB".into(), units: 2 }]);
    assert!(slots.group(SlotKind::GpuPosition).is_none(), "no baseboard, no modules: not shown");
    assert!(slots.group(SlotKind::System).is_none());
    // SXM modules show as baseboard positions, even before a baseboard is added.
    b.add_part(Location::Node(0), &id("gpu/module"), 8).unwrap();
    let resolved = Resolved::new(&cat, &b);
    let slots = node_slots(&resolved, 0).unwrap();
    assert_eq!(slots.group(SlotKind::GpuPosition).map(|g| (g.capacity, g.used)), Some((None, 8)));
    assert!(node_slots(&resolved, 1).is_none());
}

#[test]
fn articles_follow_how_names_are_read() {
    assert_eq!(article("SXM5"), "an");
    assert_eq!(article("NVMe M.2"), "an");
    assert_eq!(article("HDD 3.5\""), "an");
    assert_eq!(article("SATA 2.5\""), "a");
    assert_eq!(article("PCIe"), "a");
    assert_eq!(article("integrated"), "an");
}
