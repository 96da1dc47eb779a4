//! One whole frame of the desktop app, measured the way egui measures its demo app: the
//! largest template build, all panels shown, at 1600×1000 points. Two figures: the frame itself
//! (`logic` + `ui`: input, layout, hit testing) and the frame plus tessellation (the CPU side
//! of what reaches the GPU). Target: under 2 ms per frame on the development machine. A third
//! figure is the compare view with four builds (the largest template as the current build and
//! three template files), whose comparison is cached like the report: the frame only lays out.
//!
//! Time to first frame: a new context, the app started on the largest template and its first
//! frame (fonts loaded, glyphs rasterized into the atlas), with egui's own fonts only and with
//! the shipped CJK font added.
#![allow(clippy::expect_used, reason = "a bench panics on a broken fixture rather than timing nothing")]

use criterion::{Criterion, criterion_group, criterion_main};
use rigplan::core::build::Build;
use rigplan::core::persist;
use rigplan::gui::compare::CompareSource;
use rigplan::gui::state::MainView;
use rigplan::gui::{AppConfig, AppState};

/// The template with the most part units (nodes × quantities).
fn largest_template() -> Build {
    rigplan::core::templates::TEMPLATES
        .iter()
        .filter_map(|t| t.load().ok())
        .max_by_key(|b| {
            b.nodes
                .iter()
                .map(|n| u64::from(n.count) * n.parts.iter().map(|l| u64::from(l.quantity)).sum::<u64>())
                .sum::<u64>()
        })
        .expect("the templates load")
}

/// The app with the largest template open; with `compare`, in the compare view with three
/// more templates.
fn app(dir: &std::path::Path, compare: bool) -> AppState {
    let mut config = AppConfig::headless().expect("the embedded catalog loads");
    let path = dir.join("bench.ron");
    let build = largest_template();
    persist::save_build(&path, &build).expect("the bench build saves");
    config.file = Some(path);
    if compare {
        config.prefs.main_view = MainView::Compare;
        config.prefs.compare.push(CompareSource::Current);
        for slug in ["entry-workstation", "dual-h100-workstation", "enterprise-8x-a100-hgx"] {
            let file = dir.join(format!("{slug}.ron"));
            let b = rigplan::core::templates::find(slug).and_then(|t| t.load().ok()).expect("the template loads");
            persist::save_build(&file, &b).expect("the template saves");
            config.prefs.compare.push(CompareSource::File(file));
        }
    }
    AppState::new(config)
}

fn frame(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let build = largest_template();
    println!("bench build: {} ({} node groups)", build.name, build.nodes.len());
    bench_view(c, &mut app(dir.path(), false), "gui/frame");
    bench_view(c, &mut app(dir.path(), true), "gui/compare-frame");
    first_frame(c, dir.path());
}

/// Context, app and first frame, from nothing: `cjk` adds the shipped CJK font.
fn first_frame(c: &mut Criterion, dir: &std::path::Path) {
    let mut group = c.benchmark_group("gui");
    // A first frame takes tens of milliseconds: ten samples keep the run short.
    group.sample_size(10);
    for (name, cjk) in [("first-frame-no-cjk-font", false), ("first-frame", true)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                let ctx = egui::Context::default();
                if cjk {
                    rigplan::gui::theme::install(&ctx);
                } else {
                    rigplan::gui::theme::install_style(&ctx);
                }
                let mut state = app(dir, false);
                let mut out = ctx.run_ui(input(), |ui| {
                    state.logic(ui.ctx());
                    state.ui(ui);
                });
                out.textures_delta.clear();
                ctx.tessellate(out.shapes, out.pixels_per_point)
            });
        });
    }
    group.finish();
}

/// A 1600×1000-point screen.
fn input() -> egui::RawInput {
    egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(1600.0, 1000.0))),
        ..Default::default()
    }
}

fn bench_view(c: &mut Criterion, state: &mut AppState, name: &str) {
    let ctx = egui::Context::default();
    rigplan::gui::theme::install(&ctx);
    let mut frame = || {
        let mut out = ctx.run_ui(input(), |ui| {
            state.logic(ui.ctx());
            state.ui(ui);
        });
        // No renderer here: texture uploads (fonts, icons) are acknowledged and dropped.
        out.textures_delta.clear();
        out
    };
    // Settle: textures uploaded, fonts laid out, sizes remembered.
    for _ in 0..3 {
        let _ = frame();
    }
    c.bench_function(name, |b| b.iter(&mut frame));
    c.bench_function(&format!("{name}+tessellate"), |b| {
        b.iter(|| {
            let out = frame();
            ctx.tessellate(out.shapes, out.pixels_per_point)
        });
    });
}

criterion_group!(benches, frame);
criterion_main!(benches);
