//! The analysis panel: every tab renders for every build, and the Issues tab lists what the
//! core reports.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use rigplan::core::analysis;
use rigplan::core::build::{Build, Location, NodeGroup};
use rigplan::core::catalog::PartId;
use rigplan::gui::state::AnalysisTab;

/// The builds every tab must render: every template, plus blank, one GPU, an unknown part,
/// several nodes, and a build with one of every catalog part in a node and in the cluster
/// section.
fn builds() -> Vec<Build> {
    let catalog = rigplan::core::catalog::Catalog::embedded().unwrap();
    let mut one = Build::new("One GPU");
    one.add_part(Location::Node(0), &PartId::from(RTX_4090), 1).unwrap();
    let mut unknown = Build::new("Unknown part");
    unknown.add_part(Location::Node(0), &PartId::from("gpu/not-in-the-catalog"), 2).unwrap();
    let mut many = Build::new("Many nodes");
    for i in 2..=6 {
        let mut n = NodeGroup::new(format!("Node {i}"));
        n.count = i;
        many.add_node(n).unwrap();
    }
    let mut everything = Build::new("Everything");
    for part in catalog.all_parts() {
        everything.add_part(Location::Node(0), part.id(), 1).unwrap();
        everything.add_part(Location::Cluster, part.id(), 1).unwrap();
    }
    let mut all: Vec<Build> =
        rigplan::core::templates::TEMPLATES.iter().map(|t| t.load().expect("templates load")).collect();
    all.extend([Build::new("Blank"), one, unknown, many, everything]);
    all
}

#[test]
fn every_tab_renders_for_every_build() {
    for b in builds() {
        let dir = tempfile::tempdir().unwrap();
        let (mut h, _) = app_with(&b, dir.path());
        for tab in AnalysisTab::ALL {
            let label = match tab {
                AnalysisTab::Summary => "Summary".to_owned(),
                AnalysisTab::Issues => format!("Issues ({})", state(&h).derived.report.diagnostics.len()),
                AnalysisTab::Power => "Power".to_owned(),
                AnalysisTab::Thermal => "Thermal".to_owned(),
                AnalysisTab::Fit => "Memory & speed".to_owned(),
                AnalysisTab::Tco => "TCO".to_owned(),
            };
            h.get_by_label(&label).click();
            h.run();
            assert_eq!(state(&h).prefs.analysis_tab, tab, "{}", b.name);
        }
    }
}

#[test]
fn the_issues_tab_lists_the_core_findings_and_highlights_their_parts() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Build::new("Unknown parts");
    b.add_part(Location::Node(0), &PartId::from(RTX_4090), 1).unwrap();
    b.add_part(Location::Node(0), &PartId::from("gpu/not-in-the-catalog"), 1).unwrap();
    b.add_part(Location::Cluster, &PartId::from("switch/not-either"), 1).unwrap();
    let report = analysis::analyze(&rigplan::core::catalog::Catalog::embedded().unwrap(), &b);
    let unknown: Vec<usize> =
        report.diagnostics.iter().enumerate().filter(|(_, d)| d.code == "unknown-part").map(|(i, _)| i).collect();
    assert_eq!(unknown.len(), 2, "the core reports both unknown ids");
    let (mut h, _) = app_with(&b, dir.path());
    h.get_by_label(&format!("Issues ({})", report.diagnostics.len())).click();
    h.run();
    for d in &report.diagnostics {
        assert!(h.query_by_label(&d.message).is_some(), "{} is listed", d.message);
        assert!(h.get_all_by_label(&d.code).count() >= 1);
    }
    let i = unknown[0];
    let finding = &report.diagnostics[i];
    h.get_by_label(&finding.message).click();
    h.run();
    assert_eq!(state(&h).view.highlight, Some(i));
    let line = &finding.lines[0];
    assert!(rigplan::gui::derived::finding_touches(&state(&h).derived.report, i, line.location, line.line));
    // Clicking it again clears the highlight.
    h.get_by_label(&finding.message).click();
    h.run();
    assert_eq!(state(&h).view.highlight, None);
}

#[test]
fn selecting_a_finding_scrolls_the_canvas_to_its_part() {
    const UNKNOWN: &str = "gpu/not-in-the-catalog";
    // Eight copies of the entry workstation (which has no findings), the unknown part in the
    // last: far below the first screenful, and the only finding.
    let dir = tempfile::tempdir().unwrap();
    let mut b = rigplan::core::templates::find("entry-workstation").unwrap().load().unwrap();
    for _ in 1..8 {
        b.duplicate_node(0).unwrap();
    }
    b.add_part(Location::Node(7), &PartId::from(UNKNOWN), 1).unwrap();
    let (mut h, _) = app_with(&b, dir.path());
    let report = &state(&h).derived.report;
    let i = report.diagnostics.iter().position(|d| d.code == "unknown-part").expect("the core reports the id");
    let message = report.diagnostics[i].message.clone();
    let issues = format!("Issues ({})", report.diagnostics.len());
    // The window is 950 points tall; the row starts out of sight below it.
    let row_y = |h: &egui_kittest::Harness<'static, rigplan::gui::App>| canvas_rows(h, UNKNOWN).first().map(|p| p.y);
    assert!(row_y(&h).is_none_or(|y| y > 950.0), "{:?}", row_y(&h));
    h.get_by_label(&issues).click();
    h.run();
    // With 11 px small text the finding sits at the foot of the Issues list: scroll to it.
    h.get_by_label(&message).scroll_to_me();
    h.run();
    h.get_by_label(&message).click();
    h.run();
    assert_eq!(state(&h).view.highlight, Some(i));
    assert_eq!(state(&h).view.scroll_to, None, "the canvas scrolled once and said so");
    let y = row_y(&h).expect("the row is laid out");
    assert!((100.0..900.0).contains(&y), "the highlighted row is in view: y = {y}");
    // Scrolling back up by hand is not undone by the highlight.
    h.hover_at(egui::pos2(700.0, 400.0));
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Page,
        delta: egui::vec2(0.0, 20.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::NONE,
    });
    // Wheel scrolling is smooth: let it finish.
    h.run_steps(30);
    assert!(row_y(&h).is_none_or(|y| y > 950.0), "{:?}", row_y(&h));
    assert_eq!(state(&h).view.highlight, Some(i), "still highlighted");
}

#[test]
fn the_summary_shows_the_report_figures() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = Build::new("Two cards");
    b.add_part(Location::Node(0), &PartId::from(RTX_4090), 2).unwrap();
    b.nodes[0].count = 3;
    let (h, _) = app_with(&b, dir.path());
    // 2 cards × 3 nodes × 1,599 USD launch MSRP = 9,594 USD.
    assert!(h.query_by_label("9,594 USD").is_some());
    assert!(h.query_by_label("Bill of materials").is_some());
    assert_eq!(h.get_all_by_label("3 nodes · 6 GPUs").count(), 2);
}

fn tab(h: &mut egui_kittest::Harness<'static, rigplan::gui::App>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

#[test]
fn the_power_tab_follows_a_drop() {
    let mut h = app(config());
    tab(&mut h, "Power");
    assert!(h.query_by_label("Nothing in the build draws power yet.").is_some());
    let from = palette_row(&h, RTX_4090_NAME);
    let to = h.get_by_label_contains("Drag parts here from the catalog").rect().center();
    drag(&mut h, from, to);
    // RTX 4090: 450 W board power (NVIDIA), 21 W idle (TechPowerUp); typical at the default
    // 70 % utilization = 21 + 0.7 × (450 − 21) = 321.3 W.
    assert!(h.query_by_label("idle 21 W · typical 321 W · max 450 W").is_some(), "DC load row");
    assert!(h.query_by_label("Maximum draw by component, per node").is_some());
    let p = &state(&h).derived.report.power;
    assert!((p.max_watts - 450.0).abs() < 1e-9);
}

#[test]
fn the_ambient_slider_changes_the_thermal_figures() {
    let mut h = app_as_started(config());
    tab(&mut h, "Thermal");
    let before = state(&h).derived.report.thermal.nodes[0].gpus[0].estimated_temp_c;
    assert!((state(&h).doc.build().site.ambient_c - 25.0).abs() < 1e-9);
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Ambient").set_value_accesskit(35.0);
    h.run();
    assert!((state(&h).doc.build().site.ambient_c - 35.0).abs() < 1e-9);
    // The estimate is inlet air (ambient + half the chassis rise) plus the cooler's rise:
    // 10 °C warmer air makes the card 10 °C warmer.
    let after = state(&h).derived.report.thermal.nodes[0].gpus[0].estimated_temp_c;
    assert!((after - before - 10.0).abs() < 1e-6, "{before} → {after}");
    // One undo step puts it back.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
    assert!((state(&h).doc.build().site.ambient_c - 25.0).abs() < 1e-9);
}

#[test]
fn tco_settings_are_edited_in_place() {
    let mut h = app_as_started(config());
    tab(&mut h, "TCO");
    let price = state(&h).doc.build().site.electricity_per_kwh;
    let energy = state(&h).derived.report.tco.owned_per_year.energy;
    assert!(energy > 0.0);
    h.get_by_label("Electricity per kWh").set_value_accesskit(price * 2.0);
    h.run();
    assert!((state(&h).doc.build().site.electricity_per_kwh - price * 2.0).abs() < 1e-9);
    // Energy cost is kWh × price: doubling the price doubles it.
    let doubled = state(&h).derived.report.tco.owned_per_year.energy;
    assert!((doubled - 2.0 * energy).abs() < 1e-6 * energy, "{energy} → {doubled}");
    assert!(h.query_by_label("Cumulative cost: owned against cloud").is_some());
    assert!(h.query_by_label("Yearly breakdown").is_some());
}

#[test]
fn a_fit_cell_shows_its_breakdown_and_follows_the_controls() {
    let mut h = app_as_started(config());
    tab(&mut h, "Memory & speed");
    let fit = state(&h).derived.report.fit[0].clone();
    let cell = &fit.rows[0].cells[0];
    let total = cell.per_gpu_total_bytes.expect("the first model fits the entry workstation");
    let label = format!("{:.0} GiB", total.gib());
    let first = h.get_all_by_label(&label).min_by(|a, b| a.rect().center().y.total_cmp(&b.rect().center().y)).unwrap();
    first.click();
    h.run();
    let detail = state(&h).cell_detail.clone().expect("a cell is selected");
    let (est, _, _) = detail.result.clone().expect("the cell evaluates");
    // Without changes, the detail is the matrix cell itself.
    assert_eq!(est.per_gpu.total_bytes, total);
    assert!(h.query_by_label("Precision").is_some());
    assert!(h.get_all_by_label("Weights").count() >= 1, "the breakdown's legend");
    let kv1 = est.per_gpu.kv_cache_bytes.expect("a decoder's inference keeps a KV cache").0;
    // An inference cell that fits has serving figures (drawn below the breakdown) and follows
    // the serving controls through the command path.
    let serving = detail.serving.clone().expect("an inference cell").expect("serving figures");
    assert!(serving.max_concurrency_per_replica >= 1, "{serving:?}");
    h.get_by_label("Users").set_value_accesskit(3.0);
    h.run();
    let detail = state(&h).cell_detail.clone().unwrap();
    assert_eq!(detail.overrides.users, Some(3));
    let serving = detail.serving.expect("an inference cell").expect("serving figures");
    let asked = serving.requested.expect("the users asked for");
    assert_eq!(asked.users, 3);
    assert!(asked.per_user_tokens_per_s < serving.single.per_user_tokens_per_s);
    assert!(h.query_by_label("Engine").is_some());
    h.get_by_label("Batch").set_value_accesskit(4.0);
    h.run();
    let detail = state(&h).cell_detail.clone().unwrap();
    assert_eq!(detail.workload.batch, 4);
    let (est4, _, _) = detail.result.expect("the cell evaluates");
    // The KV cache holds every token of every sequence: four sequences, four times the cache.
    assert_eq!(est4.per_gpu.kv_cache_bytes.unwrap().0, 4 * kv1);
}

#[test]
fn save_as_png_asks_for_a_path_and_requests_a_screenshot() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config();
    c.dialogs = Box::new(Scripted { png: vec![dir.path().join("power.png")], ..Scripted::default() });
    let mut h = app_as_started(c);
    tab(&mut h, "Power");
    h.get_all_by_label("Save as PNG…").next().expect("a plot with a save button").click();
    let mut requested = false;
    for _ in 0..6 {
        h.step();
        requested |= h
            .output()
            .viewport_output
            .values()
            .any(|v| v.commands.iter().any(|c| matches!(c, egui::ViewportCommand::Screenshot(_))));
    }
    assert!(requested, "the app asks the window for a screenshot to crop the plot from");
}

#[test]
fn every_plot_has_its_save_as_png_button() {
    // The entry workstation template has data for every plot: Power (draw by component),
    // Thermal (GPU temperatures), TCO (cumulative cost, cost against utilization), Memory &
    // speed (a selected cell's breakdown).
    let mut h = app_as_started(config());
    let saves = |h: &egui_kittest::Harness<'static, rigplan::gui::App>| h.query_all_by_label("Save as PNG…").count();
    for (label, plots) in [("Summary", 0), ("Power", 1), ("Thermal", 1), ("TCO", 2), ("Memory & speed", 0)] {
        tab(&mut h, label);
        assert_eq!(saves(&h), plots, "{label}");
    }
    let cell = rigplan::gui::derived::FitSel { matrix: 0, row: 0, col: 0 };
    h.state_mut().state_mut().push(rigplan::gui::command::Command::SelectFitCell(Some(cell)));
    h.run();
    assert_eq!(saves(&h), 1, "a selected cell's memory breakdown");
}

#[test]
fn the_summary_gathers_every_section() {
    let h = app_as_started(config());
    let report = &state(&h).derived.report;
    let sf = &report.summary;
    // Read off the report's own sections: the wall draw, the fit matrix, the TCO options.
    assert!((sf.wall_watts - report.power.wall_watts).abs() < 1e-9);
    let fit = sf.fit.as_ref().unwrap();
    assert_eq!(fit.models, report.fit[0].rows.len());
    assert!(fit.inference_models >= fit.finetune_models, "a model that can be fine-tuned can be served");
    let cheapest = report.tco.options.iter().map(|o| o.total).fold(f64::INFINITY, f64::min);
    assert!((sf.tco.cheapest.as_ref().unwrap().total - cheapest).abs() < 1e-9);
    for label in
        ["Wall power at max", "Worst GPU headroom", "Models that fit, inference", "TCO owned", "Cheapest cloud"]
    {
        assert!(h.query_by_label(label).is_some(), "{label}");
    }
    let wall = format!("{} W", rigplan::core::units::format_thousands(report.power.wall_watts, 0));
    assert!(h.query_by_label(&wall).is_some(), "{wall}");
}

fn config_fixture(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/configs").join(name).join("config.json")
}

#[test]
fn a_model_added_from_its_config_is_stored_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    let catalog_dir = dir.path().join("catalog");
    // A user models.ron with a comment and an entry: both stay as they are.
    std::fs::create_dir_all(&catalog_dir).unwrap();
    let mine = "// my models\n[\n    (id: \"model/mine\", name: \"Mine\", vendor: \"Me\", task: TextGeneration, published_params: 1.0e6, source: \"test\",\n     architecture: Measured((params: 1000000, sample: \"x\", forward_flops_per_sample: 1.0e6,\n         train_activation_bytes_per_sample: 1000, inference_activation_bytes_per_sample: 100, figures_source: \"test\"))),\n]\n";
    std::fs::write(catalog_dir.join("models.ron"), mine).unwrap();
    let mut c = config();
    c.catalog = rigplan::core::catalog::Catalog::load_with_overlay(&catalog_dir).unwrap();
    c.user_catalog_dir = Some(catalog_dir.clone());
    c.dialogs = Box::new(Scripted { config: vec![config_fixture("gpt-oss-20b")], ..Scripted::default() });
    let mut h = app_as_started(c);
    tab(&mut h, "Memory & speed");
    let rows_before = state(&h).derived.report.fit[0].rows.len();
    h.get_by_label("Add model from config.json…").click();
    h.run();
    let s = state(&h);
    assert!(s.view.error.is_none(), "{:?}", s.view.error);
    let model = s.catalog.models.get("model/gpt-oss-20b").expect("the imported model is in the catalog");
    // gpt-oss-20b model card (arXiv 2508.10925) Table 1: 20.91B parameters.
    assert!((model.total_params() as f64 - 20.91e9).abs() < 0.01e9);
    assert_eq!(s.derived.report.fit[0].rows.len(), rows_before + 1, "the matrix lists the new model");
    let notice = notice(&h).expect("a notice says what was added");
    assert!(notice.contains("gpt-oss-20b") && notice.contains("20.91 B"), "{notice}");
    let text = std::fs::read_to_string(catalog_dir.join("models.ron")).unwrap();
    assert!(text.starts_with("// my models\n"), "{text}");
    assert!(text.contains("model/mine") && text.contains("model/gpt-oss-20b") && text.contains("Mxfp4Experts"));
    let (models, problems) = rigplan::core::catalog::Models::from_sources(&[("models.ron".to_owned(), text.clone())]);
    assert!(problems.iter().all(|p| !p.is_error()), "{problems:#?}");
    assert_eq!(models.len(), 2);

    // The same config again: a second entry with its own id, the first untouched.
    h.state_mut().state_mut().dialogs =
        Box::new(Scripted { config: vec![config_fixture("gpt-oss-20b")], ..Scripted::default() });
    h.get_by_label("Add model from config.json…").click();
    h.run();
    assert!(state(&h).catalog.models.get("model/gpt-oss-20b-2").is_some());
}

#[test]
fn a_config_that_cannot_be_read_changes_nothing_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("config.json");
    std::fs::write(&bad, r#"{"model_type": "qwen3", "num_hidden_layers": 36}"#).unwrap();
    let catalog_dir = dir.path().join("catalog");
    let mut c = config();
    c.user_catalog_dir = Some(catalog_dir.clone());
    c.dialogs = Box::new(Scripted { config: vec![bad], ..Scripted::default() });
    let mut h = app_as_started(c);
    tab(&mut h, "Memory & speed");
    let models = state(&h).catalog.models.len();
    h.get_by_label("Add model from config.json…").click();
    h.run();
    let error = state(&h).view.error.clone().expect("an error is shown");
    assert_eq!(error.title, "Cannot add the model");
    assert!(error.message.contains("hidden_size") && error.message.contains("config.json"), "{}", error.message);
    assert_eq!(state(&h).catalog.models.len(), models);
    assert!(!catalog_dir.join("models.ron").exists());
    // Without a user catalog folder the app says where it would need one.
    let mut c = config();
    c.dialogs = Box::new(Scripted { config: vec![config_fixture("qwen3-8b")], ..Scripted::default() });
    let mut h = app_as_started(c);
    tab(&mut h, "Memory & speed");
    h.get_by_label("Add model from config.json…").click();
    h.run();
    let error = state(&h).view.error.clone().expect("an error is shown");
    assert!(error.message.contains("--catalog"), "{}", error.message);
}
