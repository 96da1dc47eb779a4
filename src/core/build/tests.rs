//! Editing a build: adding, moving and removing parts and nodes within the limits, and the
//! edit errors' sentences.

use super::*;

fn gpu() -> PartId {
    PartId::from("gpu/nvidia-geforce-rtx-4090")
}

#[test]
fn add_merges_into_existing_line() {
    let mut b = Build::new("t");
    assert_eq!(b.add_part(Location::Node(0), &gpu(), 1), Ok(0));
    assert_eq!(b.add_part(Location::Node(0), &gpu(), 2), Ok(0));
    assert_eq!(b.nodes[0].parts, vec![PartLine::new(gpu(), 3)]);
}

#[test]
fn add_refuses_bad_quantities_and_nodes() {
    let mut b = Build::new("t");
    assert_eq!(b.add_part(Location::Node(0), &gpu(), 0), Err(EditError::Quantity(0)));
    assert_eq!(b.add_part(Location::Node(3), &gpu(), 1), Err(EditError::NoSuchNode(3)));
    b.add_part(Location::Node(0), &gpu(), MAX_QUANTITY).unwrap();
    assert_eq!(b.add_part(Location::Node(0), &gpu(), 1), Err(EditError::Quantity(u64::from(MAX_QUANTITY) + 1)));
    assert_eq!(b.nodes[0].parts[0].quantity, MAX_QUANTITY, "failed edit leaves the line as it was");
}

#[test]
fn move_whole_and_partial() {
    let mut b = Build::new("t");
    b.add_node(NodeGroup::new("Node 2")).unwrap();
    b.add_part(Location::Node(0), &gpu(), 4).unwrap();
    assert_eq!(b.move_part(Location::Node(0), 0, Location::Node(1), 1), Ok(0));
    assert_eq!(b.nodes[0].parts[0].quantity, 3);
    assert_eq!(b.nodes[1].parts[0].quantity, 1);
    b.move_part(Location::Node(0), 0, Location::Node(1), 3).unwrap();
    assert!(b.nodes[0].parts.is_empty());
    assert_eq!(b.nodes[1].parts[0].quantity, 4);
}

#[test]
fn failed_move_changes_nothing() {
    let mut b = Build::new("t");
    b.add_part(Location::Node(0), &gpu(), 2).unwrap();
    let before = b.clone();
    assert!(b.move_part(Location::Node(0), 0, Location::Node(5), 1).is_err());
    assert!(b.move_part(Location::Node(0), 0, Location::Cluster, 3).is_err());
    assert!(b.move_part(Location::Node(0), 7, Location::Cluster, 1).is_err());
    assert_eq!(b, before);
}

/// An edit error's sentence says in English what its `Display` says (capitalised, with a
/// full stop), and in Chinese something else, for every variant.
#[test]
fn edit_error_sentences_match_their_display() {
    use crate::core::i18n::Lang;
    let all = [
        EditError::NoSuchNode(3),
        EditError::NoSuchLine { location: "node 1".to_owned(), line: 4 },
        EditError::Quantity(0),
        EditError::NodeCount(100_000),
        EditError::TooManyNodes,
        EditError::TooManyTotalNodes(70_000),
        EditError::TooManyLines,
        EditError::TooManyTotalLines,
        EditError::LastNode,
    ];
    for e in all {
        let display = e.to_string();
        let mut chars = display.chars();
        let first: String = chars.next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
        assert_eq!(e.text().render(Lang::En), format!("{first}{}.", chars.as_str()));
        let zh = e.text().render(Lang::ZhCn);
        assert!(zh.ends_with('。') && zh != e.text().render(Lang::En), "{zh}");
    }
}

#[test]
fn set_quantity_and_remove() {
    let mut b = Build::new("t");
    b.add_part(Location::Cluster, &PartId::from("switch/x"), 1).unwrap();
    b.set_quantity(Location::Cluster, 0, 2).unwrap();
    assert_eq!(b.cluster[0].quantity, 2);
    assert_eq!(b.set_quantity(Location::Cluster, 0, 0), Err(EditError::Quantity(0)));
    let removed = b.remove_part(Location::Cluster, 0).unwrap();
    assert_eq!(removed.quantity, 2);
    assert!(b.remove_part(Location::Cluster, 0).is_err());
}

#[test]
fn node_limits() {
    let mut b = Build::new("t");
    assert_eq!(b.remove_node(0), Err(EditError::LastNode));
    b.set_node_count(0, MAX_NODE_COUNT).unwrap();
    assert_eq!(b.set_node_count(0, 0), Err(EditError::NodeCount(0)));
    for _ in 0..3 {
        let mut n = NodeGroup::new("n");
        n.count = MAX_NODE_COUNT;
        b.add_node(n).unwrap();
    }
    assert_eq!(b.total_nodes(), MAX_TOTAL_NODES);
    assert_eq!(b.duplicate_node(0), Err(EditError::TooManyTotalNodes(MAX_TOTAL_NODES + u64::from(MAX_NODE_COUNT))));
    let dup = b.duplicate_node(0);
    assert!(dup.is_err());
    b.set_node_count(1, 1).unwrap();
    assert_eq!(b.duplicate_node(1), Ok(2));
    assert_eq!(b.nodes[2].name, "n (copy)");
}

#[test]
fn circuits() {
    // NEC 80 % rule: 120 V × 15 A = 1800 W nominal, 1440 W continuous; 20 A: 1920 W.
    let mut site = Site::default();
    assert!((site.circuit_nominal_watts() - 1800.0).abs() < 1e-9);
    assert!((site.circuit_continuous_watts() - 1440.0).abs() < 1e-9);
    site.circuit_amps = 20.0;
    assert!((site.circuit_continuous_watts() - 1920.0).abs() < 1e-9);
    // China 380 V three-phase, 32 A: √3 × 380 × 32 = 21,062 W; PSUs see 219.4 V.
    site.circuit_volts = 380.0;
    site.circuit_amps = 32.0;
    site.circuit_phases = 3;
    assert!((site.circuit_nominal_watts() - 21_061.7).abs() < 0.1);
    assert!((site.psu_input_volts() - 219.39).abs() < 0.01);
}

#[test]
fn whole_build_line_limit() {
    let mut b = Build::new("t");
    let full: Vec<PartLine> = (0..MAX_LINES).map(|i| PartLine::new(format!("gpu/x{i}"), 1)).collect();
    b.nodes[0].parts.clone_from(&full);
    for _ in 1..(MAX_TOTAL_LINES / MAX_LINES) {
        let mut n = NodeGroup::new("n");
        n.parts.clone_from(&full);
        b.add_node(n).unwrap();
    }
    assert_eq!(b.total_lines(), MAX_TOTAL_LINES);
    assert_eq!(b.add_part(Location::Cluster, &PartId::from("switch/x"), 1), Err(EditError::TooManyTotalLines));
    assert_eq!(b.duplicate_node(0), Err(EditError::TooManyTotalLines));
    // Raising a quantity adds no line and is still allowed.
    assert_eq!(b.add_part(Location::Node(0), &PartId::from("gpu/x0"), 1), Ok(0));
}

#[test]
fn redundancy_units() {
    assert_eq!(Redundancy::None.active_units(2), 2);
    assert_eq!(Redundancy::NPlusOne.active_units(4), 3);
    assert_eq!(Redundancy::NPlusN.active_units(6), 3);
    assert_eq!(Redundancy::NPlusOne.active_units(0), 0);
}
