//! Parts into the build, however they come (a drop, the Add button, a double-click, more
//! units of a line): each is checked by [`placement`] before anything changes, and a refused
//! edit leaves the build as it was and says why (issue 17: one acceptance check for every way
//! into the build).

use crate::core::build::{EditError, Location};
use crate::core::catalog::PartId;
use crate::core::i18n::Text;
use crate::core::placement::{self, Target, Verdict};
use crate::gui::document::Coalesce;
use crate::gui::state::AppState;
use crate::gui::text::fill;
use crate::gui::vocab::{DragPayload, DropTarget, LineSel, Notice, NoticeKind};

/// A short name for a target, for messages.
pub(super) fn target_name(state: &AppState, target: Target) -> String {
    let t = state.texts;
    let node_name = |i: usize| state.doc.build().nodes.get(i).map_or_else(|| (i + 1).to_string(), |n| n.name.clone());
    match target {
        Target::Node(i) | Target::Slots { node: i, .. } => node_name(i),
        Target::PcieSlot { node, position } => fill(t.pcie_slot_of_node, &[&position, &node_name(node)]),
        Target::Cluster => t.cluster_area.to_owned(),
    }
}

pub(super) fn part_name(state: &AppState, part: &PartId) -> String {
    state.catalog.get(part).map_or_else(|| part.to_string(), |p| p.name().to_owned())
}

pub(super) fn refuse(state: &mut AppState, part: &PartId, target: Target, reasons: &[Text]) {
    let t = state.texts;
    let head = fill(t.drop_refused, &[&part_name(state, part), &target_name(state, target)]);
    let text = std::iter::once(head).chain(reasons.iter().map(|r| r.render(state.lang))).collect::<Vec<_>>().join("\n");
    state.view.notice = Some(Notice { kind: NoticeKind::Refused, text });
}

pub(super) fn add_checked(state: &mut AppState, target: Target, part: &PartId) {
    let verdict =
        placement::check_add(&state.catalog, state.doc.build(), &state.derived.report.diagnostics, target, part, 1);
    match verdict {
        Verdict::Accept => {
            let r = state.doc.edit(None, |b| placement::add_at(b, target, part, 1));
            if let Ok(line) = r {
                state.view.selected_line = Some(LineSel { at: target.location(), line });
                state.view.selected_node = target.location();
                let t = state.texts;
                state.view.notice =
                    Some(Notice::info(&fill(t.added_to, &[&part_name(state, part), &target_name(state, target)])));
            } else {
                report_edit(state, r.map(|_| ()));
            }
        }
        Verdict::Refuse(reasons) => refuse(state, part, target, &reasons),
    }
}

/// More units of a line pass the drop's acceptance check ([`placement::check_quantity`]), so the
/// + button cannot put in what dragging the part would be refused.
pub(super) fn set_quantity_checked(state: &mut AppState, sel: LineSel, quantity: u32) {
    let verdict = placement::check_quantity(
        &state.catalog,
        state.doc.build(),
        &state.derived.report.diagnostics,
        sel.at,
        sel.line,
        quantity,
    );
    match verdict {
        Verdict::Accept => {
            let r = state
                .doc
                .edit(Some(Coalesce::Quantity(sel.at, sel.line)), |b| b.set_quantity(sel.at, sel.line, quantity));
            report_edit(state, r);
        }
        Verdict::Refuse(reasons) => {
            let Some(part) = state.doc.build().lines(sel.at).and_then(|l| l.get(sel.line)).map(|l| l.part.clone())
            else {
                return;
            };
            let target = match sel.at {
                Location::Node(i) => Target::Node(i),
                Location::Cluster => Target::Cluster,
            };
            refuse(state, &part, target, &reasons);
        }
    }
}

pub(super) fn drop_on(state: &mut AppState, payload: DragPayload, target: DropTarget) {
    match (payload, target) {
        (DragPayload::Catalog(part), DropTarget::Place(t)) => add_checked(state, t, &part),
        // Dropping a catalog part back on the palette is not an edit.
        (DragPayload::Catalog(_), DropTarget::Trash) => {}
        (DragPayload::Line { from, line, part, quantity }, target) => {
            // The payload was taken from an earlier frame: make sure it still names that line.
            let current = state.doc.build().lines(from).and_then(|l| l.get(line));
            if current.is_none_or(|l| l.part != part || l.quantity != quantity) {
                state.view.notice = Some(Notice { kind: NoticeKind::Refused, text: state.texts.drag_stale.to_owned() });
                return;
            }
            match target {
                DropTarget::Trash => remove_line(state, LineSel { at: from, line }),
                DropTarget::Place(t) => {
                    let is_slot = matches!(t, Target::PcieSlot { .. });
                    if t.location() == from && !is_slot {
                        return;
                    }
                    let units = if is_slot { 1 } else { quantity };
                    let verdict = placement::check_move(
                        &state.catalog,
                        state.doc.build(),
                        &state.derived.report.diagnostics,
                        from,
                        line,
                        t,
                        units,
                    );
                    match verdict {
                        Verdict::Accept => {
                            let r = state.doc.edit(None, |b| placement::move_to(b, from, line, t, units));
                            if let Ok(dest) = r {
                                state.view.selected_line = Some(LineSel { at: t.location(), line: dest });
                                state.view.selected_node = t.location();
                                state.view.notice = None;
                            } else {
                                report_edit(state, r.map(|_| ()));
                            }
                        }
                        Verdict::Refuse(reasons) => refuse(state, &part, t, &reasons),
                    }
                }
            }
        }
    }
}

/// Shows an edit error as a notice; a successful edit clears the notice.
pub(super) fn report_edit(state: &mut AppState, result: Result<(), EditError>) {
    state.view.notice = match result {
        Ok(()) => None,
        Err(e) => Some(Notice { kind: NoticeKind::Refused, text: e.text().render(state.lang) }),
    };
}

/// Removes a line from the build (the trash target, the × button, the Delete key).
pub(super) fn remove_line(state: &mut AppState, sel: LineSel) {
    let r = state.doc.edit(None, |b| b.remove_part(sel.at, sel.line));
    if r.is_ok() {
        state.view.selected_line = None;
    }
    report_edit(state, r.map(|_| ()));
}
