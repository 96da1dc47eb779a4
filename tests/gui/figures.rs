//! The analysis figures read well (issue 17, points 4 and 6): the TCO tab of the 8 × H100
//! template names every series in a legend under the plot (not over it), and its cloud options
//! show what differs between them (provider and instance, term, total).

use crate::common::*;
use egui::vec2;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigplan::core::analysis::tco::Term;
use rigplan::gui::App;
use rigplan::gui::command::Command;
use rigplan::gui::vocab::AnalysisTab;

fn hgx_at(size: (f32, f32), dir: &std::path::Path) -> Harness<'static, App> {
    let path = dir.join("hgx.ron");
    let b = rigplan::core::templates::find("enterprise-8x-h100-hgx").unwrap().load().unwrap();
    rigplan::core::persist::save_build(&path, &b).unwrap();
    let mut c = config();
    c.file = Some(path);
    let mut h = Harness::builder().with_size(vec2(size.0, size.1)).build_eframe(move |cc| App::new(cc, c));
    h.run();
    h
}

#[test]
fn the_tco_legend_sits_under_the_plot_and_names_every_series_in_full() {
    let dir = tempfile::tempdir().unwrap();
    // Tall enough that the whole first plot and its legend are laid out.
    let mut h = hgx_at((1280.0, 2000.0), dir.path());
    h.state_mut().state_mut().push(Command::SetTab(AnalysisTab::Tco));
    h.run();
    let tco = &state(&h).derived.report.tco;
    assert!(tco.options.len() >= 9, "the template is compared with many cloud options");
    let series = tco.options.len() + 1 + usize::from(tco.break_even_within_horizon);
    let title = format!("Legend ({series})");
    // The cumulative plot's legend is the first (the utilization plot's follows).
    let legend = h
        .get_all_by_label(&title)
        .map(|n| n.rect())
        .min_by(|a, b| a.min.y.total_cmp(&b.min.y))
        .unwrap_or_else(|| panic!("no {title}"));
    let plot_title = h.get_by_label("Cumulative cost: owned against cloud").rect();
    assert!(legend.min.y > plot_title.max.y + theme_plot_height() - 1.0, "the legend is under the plot");
    // Every option by its full name and term, e.g. both Google Cloud a3-highgpu-8g terms.
    for o in &tco.options {
        let label = match o.input.term {
            Term::Custom => o.input.label.clone(),
            term => format!("{}, {}", offer(&h, &o.input.offer), english_term(term)),
        };
        let entries: Vec<egui::Rect> =
            h.get_all_by_label(&label).map(|n| n.rect()).filter(|r| r.min.y > legend.max.y).collect();
        assert!(!entries.is_empty(), "{label} is in a legend under the plot");
    }
}

/// The selected fit cell's GPU count control.
fn count<'h>(h: &'h Harness<'static, App>) -> egui_kittest::Node<'h> {
    h.get_by(|n| n.role() == egui::accesskit::Role::SpinButton && n.label().as_deref() == Some("GPUs"))
}

fn theme_plot_height() -> f32 {
    rigplan::gui::theme::TALL_PLOT_HEIGHT
}

fn offer(h: &Harness<'static, App>, id: &str) -> String {
    let o = state(h).catalog.cloud(id).unwrap();
    format!("{} {}", o.provider, o.instance)
}

fn english_term(term: Term) -> &'static str {
    rigplan::gui::text::figures::EN.term(term)
}

#[test]
fn cloud_options_show_provider_term_and_total_cheapest_first() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = hgx_at((1280.0, 2000.0), dir.path());
    h.state_mut().state_mut().push(Command::SetTab(AnalysisTab::Tco));
    h.run();
    let mut options = state(&h).derived.report.tco.options.clone();
    options.sort_by(|a, b| a.total.total_cmp(&b.total));
    let mut last_y = f32::NEG_INFINITY;
    for o in &options {
        // The row is the total's cell; its term sits on the same row, left of it.
        let total = rigplan::core::units::format_thousands(o.total, 0);
        let cell = h.get_by_label(&total).rect();
        assert!(cell.center().y > last_y, "cheapest first: {total}");
        last_y = cell.center().y;
        let term = english_term(o.input.term);
        assert!(
            h.get_all_by_label(term)
                .any(|n| (n.rect().center().y - cell.center().y).abs() < 2.0 && n.rect().max.x <= cell.min.x),
            "{} {total}: its term {term} is on its row",
            o.input.label
        );
    }
    // The four Google Cloud a3-highgpu-8g rows differ by term, and each term is shown.
    let google: Vec<Term> =
        options.iter().filter(|o| o.input.offer.contains("a3-highgpu-8g")).map(|o| o.input.term).collect();
    assert!(google.len() >= 3, "{google:?}");
    let distinct: std::collections::BTreeSet<Term> = google.iter().copied().collect();
    assert_eq!(distinct.len(), google.len(), "{google:?}");
}

#[test]
fn the_summary_says_the_cheapest_cloud_is_a_spot_price_before_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let h = hgx_at((1280.0, 800.0), dir.path());
    let report = &state(&h).derived.report;
    let cheapest = report.summary.tco.cheapest.clone().unwrap();
    assert_eq!(cheapest.term, Term::Spot, "the template's cheapest option is a spot price");
    let amount = rigplan::core::units::format_thousands(cheapest.total, 0);
    let value = h.get_by_label_contains(&format!("{amount} CNY · spot · ")).rect();
    let row = h.get_by_label("Cheapest cloud").rect();
    assert!((value.min.y - row.min.y).abs() < 2.0, "the value is on the Cheapest cloud row");
    // The primary option is named with its term too.
    let primary = report.tco.options.iter().find(|o| Some(&o.input.id) == report.tco.primary_option.as_ref()).unwrap();
    let term = english_term(primary.input.term);
    assert!(h.query_by_label_contains(&format!(" CNY · {term} · ")).is_some(), "{term}");
}

#[test]
fn a_fit_cell_follows_its_precision_and_gpu_count() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = hgx_at((1600.0, 1400.0), dir.path());
    h.state_mut().state_mut().push(Command::SetTab(AnalysisTab::Fit));
    h.run();
    // The first model's first (bf16 inference) cell.
    let sel = rigplan::gui::vocab::FitSel { matrix: 0, row: 0, col: 0 };
    h.state_mut().state_mut().push(Command::SelectFitCell(Some(sel)));
    h.run();
    let detail = state(&h).cell_detail.clone().expect("a cell is selected");
    assert!(h.query_by_label_contains("bf16 weights").is_some(), "the column's workload");
    // fp8 weights: the subtitle says fp8, not the column's bf16.
    let overrides = rigplan::gui::vocab::FitOverrides {
        weights: Some(rigplan::core::analysis::memory::WeightType::Fp8),
        ..detail.overrides
    };
    h.state_mut().state_mut().push(Command::SetFitOverrides(overrides));
    h.run();
    assert!(h.query_by_label_contains("bf16 weights").is_none());
    assert!(h.query_by_label_contains("Inference, fp8 weights, 4,096-token context, batch 1").is_some());
    // The GPU count is a control of the cell, up to the node group's eight GPUs.
    count(&h).set_value_accesskit(2.0);
    h.run();
    let two = state(&h).cell_detail.clone().unwrap();
    assert_eq!(two.overrides.gpus, Some(2));
    assert_eq!((two.gpus, two.workload.tp, two.workload.pp), (2, 2, 1), "two-way tensor parallel");
    assert_eq!(two.max_gpus, 8);
    let one = two.result.clone().unwrap().0.per_gpu.weights_bytes.0;
    count(&h).set_value_accesskit(4.0);
    h.run();
    let four = state(&h).cell_detail.clone().unwrap();
    assert_eq!(four.gpus, 4);
    // The weights split over four GPUs instead of two: half as many bytes per GPU (within
    // rounding of the per-layer split).
    let per_gpu = four.result.unwrap().0.per_gpu.weights_bytes.0;
    assert!((per_gpu as f64 / one as f64 - 0.5).abs() < 0.02, "{one} → {per_gpu}");
    // The breakdown's legend sits under the plot.
    assert!(h.query_by_label_contains("Legend (").is_some());
}

#[test]
fn the_summary_says_which_gpu_group_a_model_count_is_for() {
    let dir = tempfile::tempdir().unwrap();
    // One GPU group: its counts name it.
    let mut b = rigplan::core::templates::find("professional-2x-a100").unwrap().load().unwrap();
    let (h, _) = app_with(&b, dir.path());
    let fit = state(&h).derived.report.summary.fit.clone().expect("GPUs");
    let group = &fit.groups[0];
    let one = format!("{} of {}, on 2 × {} in {}", fit.inference_models, fit.models, group.gpu_name, group.node_name);
    assert!(h.query_by_label(&one).is_some(), "{one}");
    drop(h);
    // Two 16 GB cards beside the A100 pair: the build's count stays, says "any GPU group",
    // and each group's own counts follow.
    b.nodes[0].parts.push(rigplan::core::build::PartLine::new(
        rigplan::core::catalog::PartId::new("gpu/nvidia-geforce-rtx-4060-ti-16gb"),
        2,
    ));
    let (h, _) = app_with(&b, dir.path());
    let mixed = state(&h).derived.report.summary.fit.clone().expect("GPUs");
    assert_eq!(mixed.inference_models, fit.inference_models, "adding a small card does not lower the count");
    let any = format!("{} of {}, on any GPU group", mixed.inference_models, mixed.models);
    assert!(h.query_by_label(&any).is_some(), "{any}");
    assert!(h.query_by_label("Models that fit, by GPU group").is_some());
    for g in &mixed.groups {
        let name = format!("{} × {} in {}", g.gpus_per_node, g.gpu_name, g.node_name);
        assert!(h.query_by_label(&name).is_some(), "{name}");
        let counts = format!("{} inference · {} fine-tuning", g.inference_models, g.finetune_models);
        assert!(h.query_by_label(&counts).is_some(), "{counts}");
    }
}
