//! Editing the build with the mouse and keyboard: drag and drop, Add, quantities, Delete,
//! undo and redo.

use crate::common::*;
use egui::{Key, Modifiers, vec2};
use egui_kittest::kittest::Queryable;
use rigplan::core::build::{Build, Location, NodeGroup, PartLine};
use rigplan::core::catalog::PartId;

fn two_nodes_with_gpu() -> Build {
    let mut b = Build::new("Two nodes");
    b.add_node(NodeGroup::new("Node 2")).unwrap();
    b.add_part(Location::Node(0), &PartId::from(RTX_4090), 1).unwrap();
    b
}

#[test]
fn dragging_a_gpu_from_the_palette_onto_a_node_adds_it_and_the_figures_follow() {
    let mut h = app(config());
    assert!(state(&h).derived.report.bom.capex.abs() < 1e-9);
    assert!(h.query_by_label("Capex 0 USD").is_some());
    let from = palette_row(&h, RTX_4090_NAME);
    let to = h.get_by_label_contains("Drag parts here from the catalog").rect().center();
    drag(&mut h, from, to);
    assert_eq!(build(&h).nodes[0].parts, vec![PartLine::new(RTX_4090, 1)]);
    // NVIDIA launch MSRP of the RTX 4090: 1,599 USD (catalog/gpu.ron).
    assert!((state(&h).derived.report.bom.capex - 1599.0).abs() < 1e-9);
    assert_eq!(state(&h).derived.report.gpus, 1);
    assert!(h.query_by_label("Capex 1,599 USD").is_some(), "the status bar shows the new capex");
    assert_eq!(h.get_all_by_label("1 node · 1 GPU").count(), 2, "status bar and summary");
}

#[test]
fn a_plain_click_on_a_palette_row_is_not_a_drop() {
    let mut h = app(config());
    let before = build(&h).clone();
    h.get_all_by_label(RTX_4090_NAME).next().expect("palette row").click();
    h.run();
    assert_eq!(build(&h), &before);
    assert!(!state(&h).doc.is_dirty());
    // Pressing and releasing on the node without moving past the drag threshold is no drop either.
    let row = palette_row(&h, RTX_4090_NAME);
    h.drag_at(row);
    h.run();
    h.drop_at(row + vec2(1.0, 0.0));
    h.run();
    assert_eq!(build(&h), &before);
}

#[test]
fn a_drop_outside_every_target_changes_nothing() {
    let mut h = app(config());
    let before = build(&h).clone();
    let from = palette_row(&h, RTX_4090_NAME);
    // The status bar is no drop target.
    let to = h.get_by_label("Not saved yet").rect().center();
    drag(&mut h, from, to);
    assert_eq!(build(&h), &before);
    assert!(egui::DragAndDrop::payload::<rigplan::gui::command::DragPayload>(&h.ctx).is_none(), "the drag ended");
}

#[test]
fn add_button_and_double_click_add_to_the_selected_node() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Build::new("t");
    b.add_node(NodeGroup::new("Second")).unwrap();
    let (mut h, _) = app_with(&b, dir.path());
    // Select the second node by clicking its card (its name field is inside the card).
    text_field(&h, "Second").click();
    h.run();
    assert_eq!(state(&h).view.selected_node, Location::Node(1));
    click_add(&mut h, RTX_4090_NAME);
    assert_eq!(build(&h).nodes[1].parts, vec![PartLine::new(RTX_4090, 1)]);
    assert!(build(&h).nodes[0].parts.is_empty());
    assert_eq!(notice(&h), Some(format!("Added {RTX_4090_NAME} to Second.")));
}

#[test]
fn double_click_adds_one() {
    let config = config();
    let mut h = egui_kittest::Harness::builder()
        .with_size(vec2(1500.0, 950.0))
        .with_step_dt(0.05)
        .build_eframe(move |cc| rigplan::gui::App::new(cc, config));
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run();
    let row = palette_row(&h, RTX_4090_NAME);
    h.get_all_by_label(RTX_4090_NAME).find(|n| n.rect().center() == row).unwrap().click();
    h.get_all_by_label(RTX_4090_NAME).find(|n| n.rect().center() == row).unwrap().click();
    h.run();
    assert_eq!(build(&h).nodes[0].parts, vec![PartLine::new(RTX_4090, 1)]);
}

#[test]
fn dragging_a_part_between_nodes_moves_it() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = app_with(&two_nodes_with_gpu(), dir.path());
    let rows = canvas_rows(&h, RTX_4090_NAME);
    assert_eq!(rows.len(), 1, "one line in the canvas");
    let to = text_field(&h, "Node 2").rect().center();
    drag(&mut h, rows[0], to);
    assert!(build(&h).nodes[0].parts.is_empty());
    assert_eq!(build(&h).nodes[1].parts, vec![PartLine::new(RTX_4090, 1)]);
    assert_eq!(state(&h).view.selected_node, Location::Node(1));
}

#[test]
fn a_refused_drop_says_why_and_changes_nothing() {
    let mut h = app(config());
    let before = build(&h).clone();
    let from = palette_row(&h, RTX_4090_NAME);
    let cluster = h.get_by_label_contains("Drop switches, shared drives").rect().center();
    hover_drag(&mut h, from, cluster);
    // While dragging, the target under the pointer says why it refuses.
    assert!(h.query_by_label("Cannot go here:").is_some());
    assert!(h.query_by_label_contains("is a GPU, which goes in a node").is_some());
    h.drop_at(cluster + vec2(1.0, 0.0));
    h.run();
    assert_eq!(build(&h), &before);
    assert!(!state(&h).doc.is_dirty());
    let text = notice(&h).expect("a notice explains the refusal");
    assert!(text.starts_with(&format!("{RTX_4090_NAME} cannot go in Cluster; nothing was changed.")), "{text}");
    assert!(text.contains("goes in a node; the cluster area takes switches"), "{text}");
}

#[test]
fn a_drop_that_breaks_a_quantity_limit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Build::new("Full");
    b.add_part(Location::Node(0), &PartId::from(RTX_4090), rigplan::core::build::MAX_QUANTITY).unwrap();
    let (mut h, _) = app_with(&b, dir.path());
    let from = palette_row(&h, RTX_4090_NAME);
    let to = text_field(&h, "Node 1").rect().center();
    drag(&mut h, from, to);
    assert_eq!(build(&h), &b);
    let text = notice(&h).unwrap();
    assert!(text.contains("A quantity must be between 1 and 1024; 1025 is not."), "{text}");
}

#[test]
fn dragging_a_part_to_the_trash_or_the_palette_removes_it() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = app_with(&two_nodes_with_gpu(), dir.path());
    let row = canvas_rows(&h, RTX_4090_NAME)[0];
    let trash = h.get_by_label("Drop here to remove").rect().center();
    drag(&mut h, row, trash);
    assert!(build(&h).nodes[0].parts.is_empty());
    // Undo, then drag it onto the palette.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(build(&h).nodes[0].parts.len(), 1);
    let row = canvas_rows(&h, RTX_4090_NAME)[0];
    let palette = h.get_by_label("Filters").rect().center() + vec2(0.0, 200.0);
    drag(&mut h, row, palette);
    assert!(build(&h).nodes[0].parts.is_empty());
}

#[test]
fn plus_minus_and_delete() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = app_with(&two_nodes_with_gpu(), dir.path());
    h.get_by_label("+").click();
    h.run();
    assert_eq!(build(&h).nodes[0].parts[0].quantity, 2);
    h.get_by_label("−").click();
    h.run();
    assert_eq!(build(&h).nodes[0].parts[0].quantity, 1);
    // The minus button is disabled at 1: quantities never reach 0 this way.
    h.get_by_label("−").click();
    h.run();
    assert_eq!(build(&h).nodes[0].parts[0].quantity, 1);
    // Select the line and press Delete.
    let row = canvas_rows(&h, RTX_4090_NAME)[0];
    h.get_all_by_label(RTX_4090_NAME).find(|n| n.rect().center() == row).unwrap().click();
    h.run();
    assert!(state(&h).view.selected_line.is_some());
    h.key_press(Key::Delete);
    h.run();
    assert!(build(&h).nodes[0].parts.is_empty());
}

#[test]
fn undo_and_redo_restore_the_exact_builds() {
    let mut h = app(config());
    let mut snapshots = vec![build(&h).clone()];
    click_add(&mut h, RTX_4090_NAME);
    snapshots.push(build(&h).clone());
    h.get_by_label("+").click();
    h.run();
    snapshots.push(build(&h).clone());
    h.get_by_label("Add node").click();
    h.run();
    snapshots.push(build(&h).clone());
    h.get_all_by_label("Duplicate").next().unwrap().click();
    h.run();
    snapshots.push(build(&h).clone());
    assert_eq!(build(&h).nodes.len(), 3);
    assert!(snapshots.windows(2).all(|w| w[0] != w[1]), "every step changed the build");
    for expected in snapshots.iter().rev().skip(1) {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
        assert_eq!(build(&h), expected);
    }
    assert!(!state(&h).doc.is_dirty(), "all the way back: clean again");
    for (i, expected) in snapshots.iter().enumerate().skip(1) {
        let redo =
            if i % 2 == 0 { (Modifiers::COMMAND | Modifiers::SHIFT, Key::Z) } else { (Modifiers::COMMAND, Key::Y) };
        h.key_press_modifiers(redo.0, redo.1);
        h.run();
        assert_eq!(build(&h), expected);
    }
}

#[test]
fn renaming_a_node_is_one_undo_step() {
    let mut h = app(config());
    let field = text_field(&h, "Node 1");
    field.focus();
    field.type_text(" alpha");
    h.run();
    assert_eq!(build(&h).nodes[0].name, "Node 1 alpha");
    // Leave the field, then undo: the whole rename goes at once.
    h.key_press(Key::Escape);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(build(&h).nodes[0].name, "Node 1");
}

#[test]
fn an_incompatible_drop_is_refused_with_the_compatibility_rule_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Build::new("DDR5 board");
    b.add_part(Location::Node(0), &PartId::from("motherboard/asus-proart-x670e-creator-wifi"), 1).unwrap();
    let (mut h, _) = app_with(&b, dir.path());
    h.get_by_label("Memory").click();
    h.run();
    search(&mut h, "ddr4 3200 udimm");
    let from = palette_row(&h, "DDR4-3200 32GB UDIMM");
    // Over the node's DIMM slots the ghost says why they refuse, in the rule's own words.
    let dimms = h.get_by_label("DIMM slots").rect().center();
    hover_drag(&mut h, from, dimms);
    assert!(h.query_by_label("Cannot go here:").is_some());
    let reason = "DDR4-3200 32GB UDIMM is DDR4 but ProArt X670E-CREATOR WIFI takes DDR5";
    assert!(h.query_by_label_contains(reason).is_some(), "the memory-type rule explains the refusal");
    h.drop_at(dimms + vec2(1.0, 0.0));
    h.run();
    assert_eq!(build(&h), &b, "a refused drop changes nothing");
    assert!(!state(&h).doc.is_dirty());
    let text = notice(&h).expect("a notice explains the refusal");
    assert!(text.contains(reason), "{text}");
    // The compatible module goes in.
    clear_search(&mut h);
    let ddr5 = "FURY Beast DDR5-5200 32GB UDIMM";
    let from = palette_row(&h, ddr5);
    let dimms = h.get_by_label("DIMM slots").rect().center();
    drag(&mut h, from, dimms);
    assert_eq!(build(&h).nodes[0].parts.len(), 2);
    assert_eq!(build(&h).nodes[0].parts[1], PartLine::new("memory/kingston-fury-beast-ddr5-5200-32gb", 1));
}
