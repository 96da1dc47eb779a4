//! One acceptance check for every way into the build (issue 17, point 10): a drop, the Add
//! button, a double-click and the + button all refuse a ninth H100 on the eight-GPU HGX
//! baseboard of the 8 × H100 template, with the same reason, and all accept a part that fits.

use crate::common::*;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigplan::core::build::{Build, Location};
use rigplan::gui::App;
use rigplan::gui::command::{Command, LineSel};

const H100: &str = "gpu/nvidia-h100-sxm5-80gb";

fn hgx() -> Build {
    rigplan::core::templates::find("enterprise-8x-h100-hgx").unwrap().load().unwrap()
}

/// The 8 × H100 template open in a harness whose frames are short enough (50 ms) for two
/// clicks to make a double-click.
fn hgx_app(dir: &std::path::Path) -> Harness<'static, App> {
    let path = dir.join("hgx.ron");
    rigplan::core::persist::save_build(&path, &hgx()).unwrap();
    let mut c = config();
    c.file = Some(path);
    let mut h = Harness::builder()
        .with_size(egui::vec2(1500.0, 950.0))
        .with_step_dt(0.05)
        .build_eframe(move |cc| App::new(cc, c));
    h.run();
    h
}

fn h100s(h: &Harness<'static, App>) -> u32 {
    build(h).nodes[0].parts.iter().filter(|l| l.part.as_str() == H100).map(|l| l.quantity).sum()
}

fn h100_name(h: &Harness<'static, App>) -> String {
    state(h).catalog.get(&rigplan::core::catalog::PartId::new(H100)).unwrap().name().to_owned()
}

/// The refusal the app shows, which must name the baseboard's eight positions.
fn refused(h: &Harness<'static, App>) -> String {
    let text = notice(h).expect("a refusal is shown");
    assert!(text.contains("cannot go in HGX H100 node; nothing was changed."), "{text}");
    assert!(text.contains("has 9 GPU modules but the baseboard(s) hold 8"), "{text}");
    text
}

fn dismiss(h: &mut Harness<'static, App>) {
    h.state_mut().state_mut().push(Command::DismissNotice);
    h.run();
    assert!(notice(h).is_none());
}

#[test]
fn a_drop_the_add_button_a_double_click_and_plus_all_refuse_a_ninth_h100() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = hgx_app(dir.path());
    let name = h100_name(&h);
    assert_eq!(h100s(&h), 8);
    assert!(
        state(&h).derived.report.diagnostics.iter().all(|d| d.severity != rigplan::core::analysis::Severity::Error),
        "the template is sound"
    );
    search(&mut h, "h100 sxm5");

    // A drop onto the node's H100 line.
    let target = canvas_rows(&h, &name)[0];
    let from = palette_row(&h, &name);
    drag(&mut h, from, target);
    assert_eq!(h100s(&h), 8, "the drop is refused");
    let by_drop = refused(&h);
    dismiss(&mut h);

    // The Add button and a double-click on the palette row.
    click_add(&mut h, &name);
    assert_eq!(h100s(&h), 8, "Add is refused");
    assert_eq!(refused(&h), by_drop, "with the drop's reason");
    dismiss(&mut h);
    let row = palette_row(&h, &name);
    h.get_all_by_label(&name).find(|n| n.rect().center() == row).unwrap().click();
    h.get_all_by_label(&name).find(|n| n.rect().center() == row).unwrap().click();
    h.run();
    assert_eq!(h100s(&h), 8, "a double-click is refused");
    assert_eq!(refused(&h), by_drop, "with the drop's reason");
    dismiss(&mut h);

    // The + button of the H100 line (the issue: it used to take a ninth).
    let line_y = canvas_rows(&h, &name)[0].y;
    h.get_all_by_label("+")
        .min_by(|a, b| (a.rect().center().y - line_y).abs().total_cmp(&(b.rect().center().y - line_y).abs()))
        .unwrap()
        .click();
    h.run();
    assert_eq!(h100s(&h), 8, "+ is refused");
    let by_plus = refused(&h);
    let reason = |s: &str| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(reason(&by_plus), reason(&by_drop), "+ gives the drop's reasons");

    // A quantity set by command (as a typed quantity would) is checked the same way.
    let line = build(&h).nodes[0].parts.iter().position(|l| l.part.as_str() == H100).unwrap();
    let sel = LineSel { at: Location::Node(0), line };
    h.state_mut().state_mut().push(Command::SetQuantity { sel, quantity: 12 });
    h.run();
    assert_eq!(h100s(&h), 8);
    // Fewer is always allowed, and then + may put the eighth back.
    h.state_mut().state_mut().push(Command::SetQuantity { sel, quantity: 7 });
    h.run();
    assert_eq!(h100s(&h), 7);
    h.state_mut().state_mut().push(Command::SetQuantity { sel, quantity: 8 });
    h.run();
    assert_eq!(h100s(&h), 8, "the eighth fits the eighth position");
}

#[test]
fn plus_still_adds_what_fits() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = hgx();
    b.nodes[0].parts.retain(|l| l.part.as_str() != H100);
    b.nodes[0].parts.insert(0, rigplan::core::build::PartLine::new(H100, 1));
    let (mut h, _) = app_with(&b, dir.path());
    let name = h100_name(&h);
    let line_y = canvas_rows(&h, &name)[0].y;
    for expected in 2..=8 {
        h.get_all_by_label("+")
            .min_by(|a, b| (a.rect().center().y - line_y).abs().total_cmp(&(b.rect().center().y - line_y).abs()))
            .unwrap()
            .click();
        h.run();
        assert_eq!(h100s(&h), expected);
    }
}
