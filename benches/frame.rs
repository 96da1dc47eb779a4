//! One whole frame of the desktop app, measured the way egui measures its demo app: the
//! largest template build (or, while no template is larger, every catalog part in each of
//! eight nodes), all panels shown, at 1600×1000 points. Two figures: the frame itself
//! (`logic` + `ui`: input, layout, hit testing) and the frame plus tessellation (the CPU side
//! of what reaches the GPU). Target: under 2 ms per frame on the development machine.

use criterion::{Criterion, criterion_group, criterion_main};
use rigplan::core::build::{Build, Location, NodeGroup};
use rigplan::core::catalog::Catalog;
use rigplan::core::persist;
use rigplan::gui::{AppConfig, AppState};
use std::path::PathBuf;

/// The template with the most part units, if any template beats the synthetic build.
fn largest_template() -> Option<(usize, PathBuf)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog/builds");
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .filter_map(|p| {
            let b = persist::load_build(&p).ok()?;
            let units: usize =
                b.nodes.iter().flat_map(|n| &n.parts).chain(&b.cluster).map(|l| l.quantity as usize).sum();
            Some((units, p))
        })
        .max_by_key(|(u, _)| *u)
}

/// Eight nodes, each with one of every catalog part.
fn everything_build(catalog: &Catalog) -> Build {
    let mut b = Build::new("Bench: every part in eight nodes");
    for i in 1..8 {
        b.add_node(NodeGroup::new(format!("Node {}", i + 1))).expect("within limits");
    }
    for node in 0..8 {
        for part in catalog.all_parts() {
            b.add_part(Location::Node(node), part.id(), 1).expect("within limits");
        }
    }
    b
}

fn frame(c: &mut Criterion) {
    let mut config = AppConfig::headless().expect("the embedded catalog loads");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let synthetic = everything_build(&config.catalog);
    let synthetic_units = synthetic.nodes.iter().map(|n| n.parts.len()).sum::<usize>();
    config.file = Some(match largest_template() {
        Some((units, path)) if units > synthetic_units => path,
        _ => {
            let path = dir.path().join("bench.ron");
            persist::save_build(&path, &synthetic).expect("the bench build saves");
            path
        }
    });
    let mut state = AppState::new(config);
    let ctx = egui::Context::default();
    rigplan::gui::theme::install(&ctx);
    let input = || egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1600.0, 1000.0))),
        ..Default::default()
    };
    // Settle: textures uploaded, fonts laid out, sizes remembered.
    for _ in 0..3 {
        let _ = ctx.run_ui(input(), |ui| {
            state.logic(ui.ctx());
            state.ui(ui);
        });
    }
    c.bench_function("gui/frame", |b| {
        b.iter(|| {
            ctx.run_ui(input(), |ui| {
                state.logic(ui.ctx());
                state.ui(ui);
            })
        });
    });
    c.bench_function("gui/frame+tessellate", |b| {
        b.iter(|| {
            let out = ctx.run_ui(input(), |ui| {
                state.logic(ui.ctx());
                state.ui(ui);
            });
            ctx.tessellate(out.shapes, out.pixels_per_point)
        });
    });
}

criterion_group!(benches, frame);
criterion_main!(benches);
