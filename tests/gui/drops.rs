//! Drop verdicts of a build with identical node groups: the preview checks one group of each
//! design and moves the outcome to its twins; every verdict must equal checking that target
//! on its own.

use rigplan::core::build::{Build, Location, NodeGroup};
use rigplan::core::catalog::{Catalog, PartId};
use rigplan::core::placement::{self, Target};
use rigplan::gui::derived::{Derived, DropPreview};
use rigplan::gui::vocab::{DragPayload, DropTarget};

/// The entry workstation three times over, one copy with a second GPU in between (not a
/// twin), and a group whose name extends another's (`Workstation 1` / `Workstation 10`).
fn cluster() -> Build {
    let mut b = rigplan::core::templates::find("entry-workstation").expect("template").load().expect("loads");
    let first = b.nodes[0].clone();
    let mut other = NodeGroup { name: "Workstation 2".to_owned(), ..first.clone() };
    other.parts[0].quantity = 2;
    "Workstation 1".clone_into(&mut b.nodes[0].name);
    b.nodes.push(other);
    for name in ["Workstation 10", "Workstation 3"] {
        b.nodes.push(NodeGroup { name: name.to_owned(), ..first.clone() });
    }
    b
}

fn direct(
    catalog: &Catalog,
    build: &Build,
    derived: &Derived,
    payload: &DragPayload,
    target: Target,
) -> placement::Verdict {
    let before = &derived.report.diagnostics;
    match payload {
        DragPayload::Catalog(part) => placement::check_add(catalog, build, before, target, part, 1),
        DragPayload::Line { from, line, quantity, .. } => {
            let units = if matches!(target, Target::PcieSlot { .. }) { 1 } else { *quantity };
            placement::check_move(catalog, build, before, *from, *line, target, units)
        }
    }
}

#[test]
fn twin_groups_take_the_verdicts_checking_each_target_gives() {
    let catalog = Catalog::embedded().expect("the embedded catalog loads");
    let build = cluster();
    assert_eq!(rigplan::core::resolve::twins(&build), [None, None, Some(0), Some(0)]);
    let derived = Derived::compute(&catalog, &build, 1);
    let line = |node: usize, i: usize| DragPayload::Line {
        from: Location::Node(node),
        line: i,
        part: build.nodes[node].parts[i].part.clone(),
        quantity: build.nodes[node].parts[i].quantity,
    };
    let payloads = [
        DragPayload::Catalog(PartId::from("gpu/nvidia-geforce-rtx-4090")),
        DragPayload::Catalog(PartId::from("cpu/amd-ryzen-9-7950x")),
        DragPayload::Catalog(PartId::from("memory/kingston-fury-beast-ddr5-5200-32gb")),
        line(1, 0),
        line(2, 1),
    ];
    let (mut compared, mut refused) = (0, 0);
    for payload in payloads {
        let preview = DropPreview::compute(&catalog, &build, &derived, payload.clone());
        for (target, verdict) in &preview.verdicts {
            let DropTarget::Place(target @ (Target::Node(_) | Target::PcieSlot { .. })) = *target else { continue };
            assert_eq!(verdict, &direct(&catalog, &build, &derived, &payload, target), "{payload:?} on {target:?}");
            compared += 1;
            refused += usize::from(!verdict.is_accept());
        }
    }
    assert!(compared > 40, "every node and slot of four groups, five payloads: {compared}");
    assert!(refused > 4 && refused < compared, "some drops refused, some accepted: {refused} of {compared}");
}
