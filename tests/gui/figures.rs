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
