//! The build canvas: one card per node group with its platform drawn as slots (chassis,
//! board, CPU sockets, DIMM slots, PCIe slots with the positions each card covers, M.2 slots,
//! drive and PSU bays, GPU baseboard positions), its part lines with quantities, and a card
//! for the cluster section.
//!
//! Drag and drop follows egui's "collect during layout, mutate after" pattern: every card,
//! slot group and PCIe slot is a drop target laid out innermost first; while something is
//! dragged each target is outlined by its verdict (computed once per drag by the app, see
//! [`crate::gui::derived::DropPreview`]), the innermost one under the pointer lights up and the
//! drag ghost says what a drop would do or why it is refused; a release pushes a
//! [`Command::Drop`], which the command layer checks again before changing anything.
//!
//! Selecting a finding in the Issues tab highlights its parts and sets a scroll target (its
//! first part line, else its node): the canvas scrolls that row into view once and says so
//! with [`Command::ScrolledToHighlight`].

use crate::core::analysis::Severity;
use crate::core::analysis::compat::{CardPlacement, NodeLayout, SlotKind as CardSlot};
use crate::core::build::{Location, MAX_NODE_COUNT, MAX_QUANTITY, PartLine, Redundancy};
use crate::core::catalog::PartKind;
use crate::core::placement::{NodeSlots, SlotGroup, SlotKind, Target, Verdict};
use crate::core::units::format_thousands;
use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::derived::{finding_touches, finding_touches_node};
use crate::gui::text::{fill, money_whole};
use crate::gui::theme;
use crate::gui::vocab::{DragPayload, DropTarget, LineSel, NoticeKind, ScrollTarget};
use egui::{Align, Frame, Label, Layout, Margin, Response, RichText, Sense, Stroke, StrokeKind, TextEdit, UiBuilder};

/// The central panel.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    notice(ui, fx);
    toolbar(ui, fx);
    ui.add_space(4.0);
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        let count = fx.doc.build().nodes.len();
        for i in 0..count {
            node_card(ui, fx, i);
            ui.add_space(theme::CARD_GAP);
        }
        cluster_card(ui, fx);
    });
}

/// The notice banner (the compare view shows it too).
pub fn notice(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let Some(n) = fx.view.notice.clone() else { return };
    let tk = fx.tokens;
    let fill_color = match n.kind {
        NoticeKind::Info => tk.banner_info,
        NoticeKind::Refused => tk.banner_error,
    };
    Frame::new().fill(fill_color).corner_radius(theme::CARD_RADIUS).inner_margin(Margin::symmetric(10, 6)).show(
        ui,
        |ui| {
            ui.set_width(ui.available_width());
            ui.horizontal(|ui| {
                ui.with_layout(Layout::right_to_left(Align::Min), |ui| {
                    if ui.small_button("×").on_hover_text(fx.texts.dismiss).clicked() {
                        fx.push(Command::DismissNotice);
                    }
                    ui.with_layout(Layout::top_down(Align::Min), |ui| {
                        let mut lines = n.text.lines();
                        if let Some(first) = lines.next() {
                            let head = RichText::new(first).strong();
                            ui.label(if n.kind == NoticeKind::Refused { head.color(tk.error) } else { head });
                        }
                        for rest in lines {
                            ui.label(rest);
                        }
                    });
                });
            });
        },
    );
    ui.add_space(4.0);
}

fn toolbar(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let t = fx.texts;
    let spacing = ui.spacing().item_spacing.x;
    // The name field takes what the label, Add node and the trash area leave; when that is
    // too little for a name, the trash area goes to a line of its own (never on top of Add
    // node).
    let trash_width = text_width(ui, t.trash, egui::TextStyle::Body) + 2.0 * f32::from(TRASH_MARGIN_X) + 2.0;
    let fixed = text_width(ui, t.build_name, egui::TextStyle::Body) + button_width(ui, t.add_node) + 3.0 * spacing;
    let one_line = ui.available_width() - fixed - trash_width - spacing >= NAME_MIN_WIDTH;
    ui.horizontal(|ui| {
        let label = ui.label(t.build_name);
        let mut name = fx.doc.build().name.clone();
        let reserve = button_width(ui, t.add_node) + spacing + if one_line { trash_width + 2.0 * spacing } else { 0.0 };
        let width = (ui.available_width() - reserve).clamp(NAME_MIN_WIDTH.min(ui.available_width()), 320.0);
        let r =
            ui.add(TextEdit::singleline(&mut name).id_salt("build-name").desired_width(width)).labelled_by(label.id);
        if r.changed() {
            fx.push(Command::RenameBuild(name));
        }
        if ui.button(t.add_node).clicked() {
            fx.push(Command::AddNode);
        }
        if one_line {
            ui.with_layout(Layout::right_to_left(Align::Center), |ui| trash(ui, fx));
        }
    });
    if !one_line {
        ui.with_layout(Layout::right_to_left(Align::Min), |ui| trash(ui, fx));
    }
}

/// The narrowest a name field (the build's, a node's) is made before the controls beside it
/// move to a line of their own.
const NAME_MIN_WIDTH: f32 = 120.0;
/// The trash area's inner margin, left and right.
const TRASH_MARGIN_X: i8 = 10;

/// How wide `text` is drawn in `style`.
fn text_width(ui: &egui::Ui, text: &str, style: egui::TextStyle) -> f32 {
    egui::WidgetText::from(text).into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, style).size().x
}

/// How wide a button reading `text` is.
fn button_width(ui: &egui::Ui, text: &str) -> f32 {
    text_width(ui, text, egui::TextStyle::Button) + 2.0 * ui.spacing().button_padding.x
}

/// Brings a highlighted row into view (the canvas' scroll area takes the request at its end),
/// once.
fn scroll_to(fx: &mut FrameCtx<'_>, resp: &Response, align: Align) {
    resp.scroll_to_me(Some(align));
    fx.push(Command::ScrolledToHighlight);
}

/// A small area parts can be dropped on to remove them.
fn trash(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let t = fx.texts;
    let resp = ui
        .scope_builder(UiBuilder::new().id_salt("trash").sense(Sense::hover()), |ui| {
            Frame::new()
                .stroke(Stroke::new(1.0, fx.tokens.card_stroke))
                .corner_radius(theme::CARD_RADIUS)
                .inner_margin(Margin::symmetric(TRASH_MARGIN_X, 3))
                .show(ui, |ui| ui.weak(t.trash));
        })
        .response;
    drop_target(ui, fx, &resp, DropTarget::Trash);
}

/// Registers a drop target on a laid-out region. Call innermost targets first.
fn drop_target(ui: &egui::Ui, fx: &mut FrameCtx<'_>, resp: &Response, target: DropTarget) {
    if !egui::DragAndDrop::has_payload_of_type::<DragPayload>(ui.ctx()) {
        return;
    }
    let tk = fx.tokens;
    let verdict = fx.verdict(target).cloned();
    let hovered = fx.hover.is_none() && resp.contains_pointer();
    let rect = resp.rect.expand(1.0);
    match &verdict {
        Some(Verdict::Accept) => {
            if hovered {
                ui.painter().rect_filled(rect, theme::CARD_RADIUS, tk.drop_accept_fill);
            }
            let width = if hovered { theme::DROP_STROKE * 1.5 } else { theme::DROP_STROKE * 0.5 };
            ui.painter().rect_stroke(rect, theme::CARD_RADIUS, Stroke::new(width, tk.drop_accept), StrokeKind::Outside);
        }
        Some(Verdict::Refuse(_)) if hovered => {
            ui.painter().rect_filled(rect, theme::CARD_RADIUS, tk.drop_refuse_fill);
            ui.painter().rect_stroke(
                rect,
                theme::CARD_RADIUS,
                Stroke::new(theme::DROP_STROKE, tk.drop_refuse),
                StrokeKind::Outside,
            );
        }
        // Refusing targets stay visibly marked, faintly; the one under the pointer says why
        // (in the drag ghost).
        Some(Verdict::Refuse(_)) => {
            ui.painter().rect_stroke(
                rect,
                theme::CARD_RADIUS,
                Stroke::new(theme::DROP_STROKE * 0.5, tk.drop_refuse.gamma_multiply(0.45)),
                StrokeKind::Outside,
            );
        }
        None => {}
    }
    if hovered {
        fx.hover = Some((target, verdict));
    }
    if let Some(payload) = resp.dnd_release_payload::<DragPayload>() {
        fx.push(Command::Drop { payload: (*payload).clone(), target });
    }
}

fn node_card(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, i: usize) {
    let (doc, derived, t, tk) = (fx.doc, fx.derived, fx.texts, fx.tokens);
    let Some(node) = doc.build().nodes.get(i) else { return };
    let selected = fx.view.selected_node == Location::Node(i);
    let highlighted = fx.view.highlight.is_some_and(|f| finding_touches_node(&derived.report, f, i));
    let stroke = if highlighted {
        Stroke::new(2.0, tk.highlight)
    } else if selected {
        Stroke::new(1.5, tk.selected)
    } else {
        Stroke::new(1.0, tk.card_stroke)
    };
    let resp = ui
        .scope_builder(UiBuilder::new().id_salt(("node", i)).sense(Sense::click()), |ui| {
            Frame::new()
                .fill(tk.card_fill)
                .stroke(stroke)
                .corner_radius(theme::CARD_RADIUS)
                .inner_margin(theme::CARD_PADDING)
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    node_header(ui, fx, i, &node.name, node.count);
                    ui.add_space(4.0);
                    let slots = derived.slots.get(i).cloned().unwrap_or_default();
                    if node.parts.is_empty() {
                        ui.weak(t.node_empty_hint);
                    }
                    if ui.available_width() > 720.0 {
                        ui.columns(2, |cols| {
                            if let [left, right] = cols {
                                slot_diagram(left, fx, i, &slots);
                                part_lines(right, fx, Location::Node(i), &node.parts);
                            }
                        });
                    } else {
                        slot_diagram(ui, fx, i, &slots);
                        ui.add_space(4.0);
                        part_lines(ui, fx, Location::Node(i), &node.parts);
                    }
                });
        })
        .response;
    if resp.clicked() {
        fx.push(Command::SelectNode(Location::Node(i)));
    }
    if fx.view.scroll_to == Some(ScrollTarget::Node(i)) {
        scroll_to(fx, &resp, Align::Min);
    }
    drop_target(ui, fx, &resp, DropTarget::Place(Target::Node(i)));
}

fn node_header(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, i: usize, name: &str, count: u32) {
    let (t, derived) = (fx.texts, fx.derived);
    let nodes = fx.doc.build().nodes.len();
    let spacing = ui.spacing().item_spacing.x;
    // The name field takes what the ×N count and the two buttons leave; when that is too
    // little for a name, the buttons go to a line of their own (never on top of the fields).
    let label_width = text_width(ui, t.node_name, egui::TextStyle::Small) + spacing;
    let count_width = text_width(ui, "×", egui::TextStyle::Body)
        + ui.spacing().interact_size.x.max(text_width(ui, "0000", egui::TextStyle::Button))
        + 3.0 * spacing;
    let buttons_width = button_width(ui, t.duplicate_node) + button_width(ui, t.remove_node) + 2.0 * spacing;
    let one_line = ui.available_width() - label_width - count_width - buttons_width >= NAME_MIN_WIDTH;
    let buttons = |ui: &mut egui::Ui, fx: &mut FrameCtx<'_>| {
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            if ui.add_enabled(nodes > 1, egui::Button::new(t.remove_node)).clicked() {
                fx.push(Command::RemoveNode(i));
            }
            if ui.button(t.duplicate_node).clicked() {
                fx.push(Command::DuplicateNode(i));
            }
        });
    };
    ui.horizontal(|ui| {
        let label = ui.label(RichText::new(t.node_name).small());
        let mut text = name.to_owned();
        let reserve = count_width + if one_line { buttons_width } else { 0.0 };
        let width = (ui.available_width() - reserve).clamp(NAME_MIN_WIDTH.min(ui.available_width()), 260.0);
        let r = ui
            .add(
                TextEdit::singleline(&mut text)
                    .id_salt(("node-name", i))
                    .desired_width(width)
                    .font(egui::TextStyle::Heading),
            )
            .labelled_by(label.id);
        if r.changed() {
            fx.push(Command::RenameNode(i, text));
        }
        // Working on a node's name selects the node, as clicking its card does.
        if r.gained_focus() && fx.view.selected_node != Location::Node(i) {
            fx.push(Command::SelectNode(Location::Node(i)));
        }
        let label = ui.label("×");
        let mut n = count;
        let r = ui
            .add(egui::DragValue::new(&mut n).range(1..=MAX_NODE_COUNT).speed(0.1))
            .labelled_by(label.id)
            .on_hover_text(t.node_count_hint);
        if r.changed() && n != count {
            fx.push(Command::SetNodeCount(i, n));
        }
        if one_line {
            buttons(ui, fx);
        }
    });
    if !one_line {
        ui.horizontal(|ui| buttons(ui, fx));
    }
    node_options(ui, fx, i);
    if let Some(s) = derived.nodes.get(i) {
        ui.weak(fill(
            t.node_summary,
            &[
                &t.n_gpus.count(s.gpus),
                &format_thousands(s.gpu_memory_gib, 0),
                &money_whole(t, s.capex, &derived.report.currency),
            ],
        ));
    }
}

/// The node's NVLink bridges and PSU redundancy, where they apply (cards that take bridges, or
/// bridges already on; more than one PSU, or a redundancy already set): the controls the fixes
/// of `nvlink-bridge-*` and `psu-redundancy-insufficient` name.
fn node_options(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, i: usize) {
    let f = fx.texts.fixes;
    let Some(node) = fx.doc.build().nodes.get(i) else { return };
    let summary = fx.derived.nodes.get(i);
    let bridges = node.nvlink_bridge || summary.is_some_and(|s| s.bridgeable);
    let redundancy = node.psu_redundancy != Redundancy::None || summary.is_some_and(|s| s.psus > 1);
    if !bridges && !redundancy {
        return;
    }
    let (on, current) = (node.nvlink_bridge, node.psu_redundancy);
    ui.horizontal_wrapped(|ui| {
        if bridges {
            let mut checked = on;
            if ui.checkbox(&mut checked, f.nvlink).on_hover_text(f.nvlink_hint).changed() {
                fx.push(Command::SetNodeNvlink(i, checked));
            }
        }
        if redundancy {
            let label = ui.label(RichText::new(f.redundancy).small());
            egui::ComboBox::from_id_salt(("psu-redundancy", i))
                .selected_text(f.redundancy_name(current))
                .show_ui(ui, |ui| {
                    for r in [Redundancy::None, Redundancy::NPlusOne, Redundancy::NPlusN] {
                        if ui.selectable_label(r == current, f.redundancy_name(r)).clicked() && r != current {
                            fx.push(Command::SetNodeRedundancy(i, r));
                        }
                    }
                })
                .response
                .labelled_by(label.id)
                .on_hover_text(f.redundancy_hint);
        }
    });
}

/// A small label in a column of fixed width, so that the rows of a diagram line up.
fn fixed_label(ui: &mut egui::Ui, width: f32, height: f32, text: &str) {
    ui.allocate_ui_with_layout(egui::vec2(width, height), Layout::left_to_right(Align::Center), |ui| {
        ui.set_min_size(egui::vec2(width, height));
        ui.add(Label::new(RichText::new(text).small()).truncate().selectable(false));
    });
}

/// How many slot boxes of `step` points fit in `width` (at least a few, so a narrow card
/// still shows the row).
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a box count from a positive pixel width, far below u32::MAX"
)]
fn boxes_that_fit(width: f32, step: f32) -> u32 {
    const MIN_BOXES: f32 = 4.0;
    if !(width.is_finite() && step > 0.0) {
        return MIN_BOXES as u32;
    }
    (width / step).floor().clamp(MIN_BOXES, theme::MAX_SLOT_BOXES as f32) as u32
}

fn slot_name(fx: &FrameCtx<'_>, kind: SlotKind) -> &'static str {
    let i = SlotKind::ALL.iter().position(|k| *k == kind).unwrap_or_default();
    fx.texts.slot_names.get(i).copied().unwrap_or_default()
}

fn slot_icon(kind: SlotKind) -> PartKind {
    match kind {
        SlotKind::Chassis => PartKind::Chassis,
        SlotKind::Board => PartKind::Motherboard,
        SlotKind::CpuSocket => PartKind::Cpu,
        SlotKind::Cooler => PartKind::Cooler,
        SlotKind::Dimm => PartKind::Memory,
        SlotKind::GpuPosition => PartKind::Gpu,
        SlotKind::M2 | SlotKind::Bay25 | SlotKind::Bay35 => PartKind::Storage,
        SlotKind::Psu => PartKind::Psu,
        SlotKind::System => PartKind::System,
    }
}

fn slot_diagram(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, node: usize, slots: &NodeSlots) {
    for group in &slots.groups {
        slot_group(ui, fx, node, group);
    }
    let derived = fx.derived;
    if let Some(layout) = derived.report.compat.layouts.iter().find(|l| l.node == node) {
        pcie_layout(ui, fx, node, layout);
    }
}

/// The PCIe cards as the compatibility analysis placed them: GPU bays of a GPU server chassis,
/// then the board's slots by position, then the cards that found no place.
fn pcie_layout(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, node: usize, layout: &NodeLayout) {
    let t = fx.texts;
    let covering = |kind: CardSlot, p: u8| {
        layout.cards.iter().find(|c| {
            c.slot_kind == kind && c.position.is_some_and(|first| first < p) && c.last_position.is_some_and(|l| l >= p)
        })
    };
    let seated = |kind: CardSlot, p: u8| layout.cards.iter().find(|c| c.slot_kind == kind && c.position == Some(p));
    if let Some(bays) = layout.gpu_bays.filter(|b| *b > 0) {
        ui.add_space(2.0);
        ui.label(RichText::new(t.gpu_bays).small().strong());
        for bay in 1..=bays {
            let label = fill(t.gpu_bay_label, &[&bay]);
            let row =
                SlotRow { label, card: seated(CardSlot::GpuBay, bay), covered_by: covering(CardSlot::GpuBay, bay) };
            // A bay is not a slot the build names: dropping on it adds to the node.
            card_slot(ui, fx, node, &row, ("bay", bay), None);
        }
    }
    if !layout.board_slots.is_empty() {
        ui.add_space(2.0);
        ui.label(RichText::new(t.pcie_slots).small().strong());
        for s in &layout.board_slots {
            let label = fill(t.pcie_slot_label, &[&s.position, &s.physical_lanes, &s.electrical_lanes, &s.pcie_gen]);
            let row = SlotRow {
                label,
                card: seated(CardSlot::Board, s.position),
                covered_by: covering(CardSlot::Board, s.position),
            };
            let target = Target::PcieSlot { node, position: s.position };
            card_slot(ui, fx, node, &row, ("pcie", s.position), Some(target));
        }
    }
    for card in layout.cards.iter().filter(|c| c.position.is_none()) {
        ui.colored_label(fx.tokens.error, fill(t.no_free_slot, &[&card.name]));
    }
}

/// One slot row of the PCIe diagram.
struct SlotRow<'a> {
    label: String,
    card: Option<&'a CardPlacement>,
    /// The card whose width covers this slot.
    covered_by: Option<&'a CardPlacement>,
}

/// One row of same-kind slots: label, boxes (filled ones first), occupants.
fn slot_group(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, node: usize, group: &SlotGroup) {
    let (t, tk) = (fx.texts, fx.tokens);
    let highlight = fx.view.highlight;
    let derived = fx.derived;
    let report = &derived.report;
    let touched = highlight
        .is_some_and(|f| group.occupants.iter().any(|o| finding_touches(report, f, Location::Node(node), o.line)));
    let resp = ui
        .scope_builder(UiBuilder::new().id_salt(("slots", node, group.kind)).sense(Sense::hover()), |ui| {
            ui.horizontal(|ui| {
                let tint = ui.visuals().weak_text_color();
                if let Some(img) = fx.icons.kind(slot_icon(group.kind), theme::ICON_SIZE, tint) {
                    ui.add(img);
                }
                fixed_label(ui, theme::SLOT_LABEL_WIDTH, theme::SLOT_BOX.y, slot_name(fx, group.kind));
                if let Some(capacity) = group.capacity {
                    let step = theme::SLOT_BOX.x + ui.spacing().item_spacing.x;
                    let fit = boxes_that_fit(ui.available_width() - theme::SLOT_TEXT_RESERVE, step);
                    let shown = capacity.max(group.used).min(theme::MAX_SLOT_BOXES).min(fit);
                    for k in 0..shown {
                        let (r, _) = ui.allocate_exact_size(theme::SLOT_BOX, Sense::hover());
                        let color = if k >= capacity {
                            tk.slot_over
                        } else if k < group.used {
                            tk.slot_filled
                        } else {
                            tk.slot_empty
                        };
                        ui.painter().rect_filled(r, 2.0, color);
                    }
                    let extra = capacity.max(group.used).saturating_sub(shown);
                    if extra > 0 {
                        ui.weak(fill(t.more_slots, &[&extra]));
                    }
                    ui.label(RichText::new(fill(t.slots_used, &[&group.used, &capacity])).small());
                }
                let names: Vec<String> = group
                    .occupants
                    .iter()
                    .map(|o| if o.units > 1 { format!("{} ×{}", o.name, o.units) } else { o.name.clone() })
                    .collect();
                let text = if names.is_empty() { t.slot_empty.to_owned() } else { names.join(", ") };
                let color = if names.is_empty() { tk.muted } else { ui.visuals().text_color() };
                ui.add(Label::new(RichText::new(text).small().color(color)).truncate().selectable(false));
            });
        })
        .response;
    if touched {
        ui.painter().rect_stroke(resp.rect.expand(1.0), 3.0, Stroke::new(2.0, tk.highlight), StrokeKind::Outside);
    }
    drop_target(ui, fx, &resp, DropTarget::Place(Target::Slots { node, kind: group.kind }));
}

fn card_slot(
    ui: &mut egui::Ui,
    fx: &mut FrameCtx<'_>,
    node: usize,
    row: &SlotRow<'_>,
    id: (&str, u8),
    target: Option<Target>,
) {
    let (t, tk) = (fx.texts, fx.tokens);
    let derived = fx.derived;
    let report = &derived.report;
    let highlight = fx.view.highlight;
    let resp = ui
        .scope_builder(UiBuilder::new().id_salt((id, node)).sense(Sense::hover()), |ui| {
            ui.horizontal(|ui| {
                let width = theme::SLOT_LABEL_WIDTH + theme::ICON_SIZE + ui.spacing().item_spacing.x;
                fixed_label(ui, width, theme::PCIE_ROW_HEIGHT, &row.label);
                let width = ui.available_width().max(40.0);
                let (bar, bar_resp) =
                    ui.allocate_exact_size(egui::vec2(width, theme::PCIE_ROW_HEIGHT), Sense::click_and_drag());
                let painter = ui.painter();
                let font = egui::TextStyle::Small.resolve(ui.style());
                let text_at = bar.left_center() + egui::vec2(6.0, 0.0);
                match (row.card, row.covered_by) {
                    (Some(card), _) => {
                        let touched =
                            highlight.is_some_and(|f| finding_touches(report, f, Location::Node(node), card.line));
                        painter.rect_filled(bar, 3.0, tk.slot_filled);
                        if touched {
                            painter.rect_stroke(bar, 3.0, Stroke::new(2.0, tk.highlight), StrokeKind::Outside);
                        }
                        let label = fill(t.card_in_slot, &[&card.name, &card.width_slots]);
                        painter.text(text_at, egui::Align2::LEFT_CENTER, label, font, egui::Color32::WHITE);
                        // The card can be dragged to another slot or node.
                        let doc = fx.doc;
                        if let Some(line) = doc.build().nodes.get(node).and_then(|n| n.parts.get(card.line)) {
                            bar_resp.dnd_set_drag_payload(DragPayload::Line {
                                from: Location::Node(node),
                                line: card.line,
                                part: line.part.clone(),
                                quantity: line.quantity,
                            });
                        }
                        if bar_resp.clicked() {
                            fx.push(Command::SelectLine(Some(LineSel { at: Location::Node(node), line: card.line })));
                        }
                    }
                    (None, Some(by)) => {
                        painter.rect_filled(bar, 3.0, tk.slot_covered);
                        let text = fill(t.slot_covered, &[&by.name]);
                        painter.text(text_at, egui::Align2::LEFT_CENTER, text, font, tk.muted);
                    }
                    (None, None) => {
                        painter.rect_stroke(bar, 3.0, Stroke::new(1.0, tk.slot_empty), StrokeKind::Inside);
                        painter.text(text_at, egui::Align2::LEFT_CENTER, t.slot_empty, font, tk.muted);
                    }
                }
            });
        })
        .response;
    if let Some(target) = target {
        drop_target(ui, fx, &resp, DropTarget::Place(target));
    }
}

fn part_lines(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, at: Location, lines: &[PartLine]) {
    for (i, line) in lines.iter().enumerate() {
        part_line(ui, fx, at, i, line);
    }
}

/// One part line: icon, name, quantity with − and +, remove. Click selects; drag moves it.
fn part_line(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, at: Location, i: usize, line: &PartLine) {
    let (t, tk, catalog) = (fx.texts, fx.tokens, fx.catalog);
    let part = catalog.get(&line.part);
    let name = part.map_or_else(|| line.part.to_string(), |p| p.name().to_owned());
    let sel = LineSel { at, line: i };
    let selected = fx.view.selected_line == Some(sel);
    let derived = fx.derived;
    let highlighted = fx.view.highlight.is_some_and(|f| finding_touches(&derived.report, f, at, i));
    let has_finding = derived
        .report
        .diagnostics
        .iter()
        .filter(|d| d.lines.iter().any(|l| l.location == at && l.line == i))
        .map(|d| d.severity)
        .min();
    let resp = ui
        .scope_builder(UiBuilder::new().id_salt(("line", at, i)).sense(Sense::click_and_drag()), |ui| {
            ui.horizontal(|ui| {
                let tint = ui.visuals().text_color();
                match part.and_then(|p| fx.icons.kind(p.kind(), theme::ICON_SIZE, tint)) {
                    Some(img) => {
                        ui.add(img);
                    }
                    None => {
                        ui.add_space(theme::ICON_SIZE);
                    }
                }
                let mut text = RichText::new(&name);
                if let Some(sev) = has_finding {
                    text = text.color(match sev {
                        Severity::Error => tk.error,
                        Severity::Warning => tk.warn,
                        Severity::Info => ui.visuals().text_color(),
                    });
                }
                ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
                    if ui.small_button("×").on_hover_text(t.remove_part).clicked() {
                        fx.push(Command::RemoveLine(sel));
                    }
                    if ui
                        .add_enabled(line.quantity < MAX_QUANTITY, egui::Button::new("+").small())
                        .on_hover_text(t.quantity_more)
                        .clicked()
                    {
                        fx.push(Command::SetQuantity { sel, quantity: line.quantity + 1 });
                    }
                    ui.label(RichText::new(fill(t.quantity, &[&line.quantity])).monospace());
                    if ui
                        .add_enabled(line.quantity > 1, egui::Button::new("−").small())
                        .on_hover_text(t.quantity_less)
                        .clicked()
                    {
                        fx.push(Command::SetQuantity { sel, quantity: line.quantity - 1 });
                    }
                    // The name takes what the controls leave, from the left.
                    ui.with_layout(Layout::left_to_right(Align::Center), |ui| {
                        ui.add(Label::new(text).truncate().selectable(false));
                    });
                });
            });
        })
        .response;
    resp.dnd_set_drag_payload(DragPayload::Line {
        from: at,
        line: i,
        part: line.part.clone(),
        quantity: line.quantity,
    });
    if resp.clicked() {
        fx.push(Command::SelectLine(Some(sel)));
    }
    if fx.view.scroll_to == Some(ScrollTarget::Line(sel)) {
        scroll_to(fx, &resp, Align::Center);
    }
    let stroke = if highlighted {
        Some(Stroke::new(2.0, tk.highlight))
    } else if selected {
        Some(Stroke::new(1.5, tk.selected))
    } else {
        None
    };
    if let Some(s) = stroke {
        ui.painter().rect_stroke(resp.rect.expand(1.0), 3.0, s, StrokeKind::Outside);
    }
    if let Some(p) = part {
        resp.on_hover_ui(|ui| super::palette::spec_card(ui, fx, p));
    }
}

fn cluster_card(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let (t, tk) = (fx.texts, fx.tokens);
    let lines = fx.doc.build().cluster.clone();
    let selected = fx.view.selected_node == Location::Cluster;
    let resp = ui
        .scope_builder(UiBuilder::new().id_salt("cluster").sense(Sense::click()), |ui| {
            Frame::new()
                .fill(tk.card_fill)
                .stroke(Stroke::new(
                    if selected { 1.5 } else { 1.0 },
                    if selected { tk.selected } else { tk.card_stroke },
                ))
                .corner_radius(theme::CARD_RADIUS)
                .inner_margin(theme::CARD_PADDING)
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.horizontal(|ui| {
                        let tint = ui.visuals().text_color();
                        if let Some(img) = fx.icons.kind(PartKind::Switch, theme::ICON_SIZE, tint) {
                            ui.add(img);
                        }
                        ui.heading(t.cluster_area);
                    });
                    if lines.is_empty() {
                        ui.weak(t.cluster_hint);
                    }
                    part_lines(ui, fx, Location::Cluster, &lines);
                });
        })
        .response;
    if resp.clicked() {
        fx.push(Command::SelectNode(Location::Cluster));
    }
    drop_target(ui, fx, &resp, DropTarget::Place(Target::Cluster));
}

/// The dragged part follows the pointer, with what a drop here would do.
pub fn drag_ghost(ctx: &egui::Context, fx: &FrameCtx<'_>) {
    let Some(payload) = egui::DragAndDrop::payload::<DragPayload>(ctx) else { return };
    let Some(pos) = ctx.pointer_interact_pos() else { return };
    let (t, tk) = (fx.texts, fx.tokens);
    let name = fx.catalog.get(payload.part()).map_or_else(|| payload.part().to_string(), |p| p.name().to_owned());
    egui::Area::new(egui::Id::unique("drag-ghost"))
        .order(egui::Order::Tooltip)
        .fixed_pos(pos + egui::vec2(14.0, 10.0))
        .interactable(false)
        .show(ctx, |ui| {
            Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_max_width(360.0);
                ui.strong(name);
                match &fx.hover {
                    Some((DropTarget::Trash, _)) => {
                        if matches!(*payload, DragPayload::Line { .. }) {
                            ui.colored_label(tk.error, t.drop_to_remove);
                        }
                    }
                    Some((_, Some(Verdict::Accept))) => {
                        ui.colored_label(tk.ok, t.drop_accepted);
                    }
                    Some((_, Some(Verdict::Refuse(reasons)))) => {
                        ui.colored_label(tk.error, t.drop_refused_here);
                        for r in reasons {
                            ui.label(r.render(fx.lang));
                        }
                    }
                    Some((_, None)) | None => {}
                }
            });
        });
}
