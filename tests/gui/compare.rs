//! The compare view: adding the current build and a template file shows both columns with the
//! best values highlighted; the current build follows edits; removing a build; exporting every
//! format; a file that does not load; the comparison restored from the preferences.

use crate::common::*;
use egui_kittest::kittest::{NodeT as _, Queryable};
use rigplan::core::build::{Build, Location};
use rigplan::core::compare::Comparison;
use rigplan::core::export::CompareFormat;
use rigplan::core::persist;
use rigplan::core::templates;
use rigplan::gui::command::{Command, LineSel};
use rigplan::gui::compare::CompareSource;
use rigplan::gui::state::MainView;
use rigplan::gui::text::EN;
use std::path::{Path, PathBuf};

fn template(slug: &str) -> Build {
    templates::find(slug).unwrap().load().unwrap()
}

/// Saves the Intel entry workstation to `dir` and returns its path.
fn intel_file(dir: &Path) -> PathBuf {
    let path = dir.join("intel.ron");
    persist::save_build(&path, &template("entry-workstation-intel")).unwrap();
    path
}

fn open_compare_view(h: &mut egui_kittest::Harness<'static, rigplan::gui::App>) {
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Compare…").click();
    h.run();
    assert_eq!(state(h).prefs.main_view, MainView::Compare);
}

/// How many widgets show exactly this text.
fn shown(h: &egui_kittest::Harness<'static, rigplan::gui::App>, label: &str) -> usize {
    h.query_all_by_label(label).count()
}

fn comparison(h: &egui_kittest::Harness<'static, rigplan::gui::App>) -> Comparison {
    state(h).compared.as_ref().and_then(|c| c.comparison()).cloned().expect("a comparison")
}

#[test]
fn the_current_build_and_a_template_file_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let intel = intel_file(dir.path());
    let mut c = config();
    c.dialogs = Box::new(Scripted { open: vec![intel.clone()], ..Scripted::default() });
    // A first start: the AMD entry workstation is the current build.
    let mut h = app_as_started(c);
    open_compare_view(&mut h);
    assert!(h.query_by_label(EN.compare_hint).is_some(), "empty: says what to do");
    assert!(state(&h).compared.as_ref().is_some_and(|c| c.result.is_none()));
    h.get_by_label("Add the current build").click();
    h.run();
    assert!(h.query_by_label(EN.compare_hint).is_some(), "one build is not a comparison yet");
    h.get_by_label("Add from file…").click();
    h.run();

    // Both columns: names, where each comes from.
    let amd = template("entry-workstation");
    let intel_build = template("entry-workstation-intel");
    assert_eq!(shown(&h, &amd.name), 1);
    assert_eq!(shown(&h, &intel_build.name), 1);
    assert_eq!(shown(&h, EN.compare_current), 1);
    assert_eq!(shown(&h, "intel.ron"), 1);
    assert!(h.query_by_label(EN.compare_hint).is_none());

    // Capex: the Intel build's parts cost 309.97 USD less, × 7.2 CNY/USD = 2,231.78 CNY less
    // (the core's hand-checked case): it is the best value, highlighted, and its delta says so.
    let cmp = comparison(&h);
    let capex = cmp.row("capex").unwrap();
    assert_eq!(capex.best, vec![1]);
    assert!((capex.deltas[1].unwrap() + 2_231.784).abs() < 1e-6);
    assert!(shown(&h, &format!("{} (best)", capex.text[1])) >= 1, "the best capex is marked");
    assert_eq!(shown(&h, &format!("{} (best)", capex.text[0])), 0);
    assert!(shown(&h, &capex.text[0]) >= 1, "the other value is shown plainly");
    assert!(shown(&h, "−2,232 (better)") >= 1);
    // Every best value of every row is marked, and nothing else is.
    let marked = cmp.groups.iter().flat_map(|g| &g.rows).map(|r| r.best.len()).sum::<usize>();
    assert!(marked > 1);
    assert_eq!(h.query_all_by_label_contains("(best)").count(), marked);
    // The plots and the differences.
    assert_eq!(h.get_all_by_label("Save as PNG…").count(), 2, "both plots can be saved");
    assert!(h.query_by_label(EN.compare_parts_diff).is_some());
    assert!(!cmp.parts_difference.is_empty(), "the CPUs, boards, PSUs, coolers and cases differ");
    let ryzen = cmp.parts_difference.iter().find(|p| p.part.as_str() == "cpu/amd-ryzen-9-7950x").unwrap();
    assert_eq!(ryzen.quantities, vec![1, 0]);
    assert_eq!(shown(&h, &ryzen.name), 1);

    // The speed rows follow the model chosen.
    assert!(cmp.row("decode-bf16").unwrap().label.starts_with("Llama 3.1 8B:"));
    let big = "model/meta-llama-3.1-70b";
    h.state_mut().state_mut().push(Command::CompareSetModel(Some(big.to_owned())));
    h.run();
    let for_70b = comparison(&h);
    assert_eq!(for_70b.model.as_ref().map(rigplan::core::catalog::ModelId::as_str), Some(big));
    let decode = for_70b.row("decode-bf16").unwrap();
    assert!(decode.label.starts_with("Llama 3.1 70B:"), "{}", decode.label);
    // 70B bf16 weights are 141 GB: no 24 GB card holds them.
    assert_eq!(decode.text, vec!["does not fit", "does not fit"]);
    let choice = h.query_by(|n| n.value().as_deref() == Some("Llama 3.1 70B"));
    assert!(choice.is_some(), "the choice is shown");

    // The current build follows edits: a third 32 GB module raises A's capex by its 95 USD ×
    // 7.2 CNY/USD = 684 CNY.
    h.get_by_label("Back to the build").click();
    h.run();
    let memory = "memory/kingston-fury-beast-ddr5-5200-32gb";
    let line = build(&h).nodes[0].parts.iter().position(|l| l.part.as_str() == memory).unwrap();
    let sel = LineSel { at: Location::Node(0), line };
    h.state_mut().state_mut().push(Command::SetQuantity { sel, quantity: 3 });
    h.run();
    open_compare_view(&mut h);
    let after = comparison(&h);
    let grown = after.row("capex").unwrap().values[0].unwrap() - capex.values[0].unwrap();
    assert!((grown - 684.0).abs() < 1e-6, "{grown}");
    assert_eq!(after.row("capex").unwrap().values[1], capex.values[1], "the file's build is as it was read");

    // Removing a build leaves one: no comparison, the hint again, and nothing to export.
    let mut removes: Vec<_> = h.get_all_by_label("Remove").map(|n| n.rect().center().x).collect();
    removes.sort_by(f32::total_cmp);
    assert_eq!(removes.len(), 2);
    h.get_all_by_label("Remove").min_by(|a, b| a.rect().center().x.total_cmp(&b.rect().center().x)).unwrap().click();
    h.run();
    assert_eq!(state(&h).compare.entries.len(), 1);
    assert_eq!(state(&h).compare.entries[0].source, CompareSource::File(intel));
    assert!(h.query_by_label(EN.compare_hint).is_some());
    assert!(state(&h).compared.as_ref().is_some_and(|c| c.result.is_none()));
}

#[test]
fn a_comparison_exports_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let intel = intel_file(dir.path());
    let picked: Vec<PathBuf> = CompareFormat::ALL.iter().map(|f| dir.path().join(format!("cmp-{f:?}"))).collect();
    let scripted = Scripted { open: vec![intel], export: picked.clone(), ..Scripted::default() };
    let suggested = scripted.suggested.clone();
    let mut c = config();
    c.dialogs = Box::new(scripted);
    let mut h = app_as_started(c);
    open_compare_view(&mut h);
    h.get_by_label("Add the current build").click();
    h.run();
    h.get_by_label("Add from file…").click();
    h.run();
    for label in EN.compare_export_formats {
        h.get_by_label("Export").click();
        h.run();
        h.get_by_label(label).click();
        h.run();
    }
    let written: Vec<PathBuf> =
        CompareFormat::ALL.iter().zip(&picked).map(|(f, p)| p.with_extension(f.extension())).collect();
    let amd = template("entry-workstation").name;
    let intel_name = template("entry-workstation-intel").name;
    let names = suggested.lock().unwrap().clone();
    assert!(names[0].starts_with(&format!("{amd} vs {intel_name}").replace(['(', ')', '+'], "")[..10]), "{names:?}");
    // Markdown: both builds by name.
    let md = std::fs::read_to_string(&written[0]).unwrap();
    assert!(md.starts_with("# Comparison of 2 builds"));
    assert!(md.contains("Entry workstation"), "{md}");
    // CSV: the capex row with both values.
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_path(&written[1]).unwrap();
    let rows: Vec<Vec<String>> = reader.records().map(|r| r.unwrap().iter().map(str::to_owned).collect()).collect();
    assert!(
        rows.iter().any(|r| r.iter().any(|c| c == &amd)) && rows.iter().any(|r| r.iter().any(|c| c == &intel_name))
    );
    // JSON: the comparison the view showed.
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&written[2]).unwrap()).unwrap();
    let shown: serde_json::Value = serde_json::from_str(&serde_json::to_string(&comparison(&h)).unwrap()).unwrap();
    assert_eq!(json.get("comparison").unwrap_or(&json)["builds"], shown["builds"]);
    // HTML: a whole page with the overlaid charts.
    let html = std::fs::read_to_string(&written[3]).unwrap();
    assert!(html.trim_end().ends_with("</html>"));
    assert!(html.contains("<svg"));
    assert_eq!(notice(&h), Some(format!("Exported the HTML page to {}.", written[3].display())));
}

#[test]
fn a_file_that_does_not_load_is_not_added_and_the_set_is_capped_at_four() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ron");
    std::fs::write(&bad, "(version: 1, build: (name: ").unwrap();
    let good = intel_file(dir.path());
    let mut c = config();
    c.dialogs = Box::new(Scripted {
        open: vec![bad.clone(), good.clone(), good.clone(), good.clone(), good],
        ..Scripted::default()
    });
    let mut h = app_as_started(c);
    open_compare_view(&mut h);
    h.get_by_label("Add from file…").click();
    h.run();
    let error = state(&h).view.error.clone().expect("an error dialog");
    assert_eq!(error.title, EN.compare_add_failed);
    assert!(error.message.starts_with(&bad.display().to_string()), "{}", error.message);
    assert!(state(&h).compare.entries.is_empty());
    h.get_by_label("OK").click();
    h.run();
    for _ in 0..4 {
        h.get_by_label("Add from file…").click();
        h.run();
    }
    assert_eq!(state(&h).compare.entries.len(), 4);
    // Full: the buttons are disabled and the command refuses.
    assert!(h.get_by_label("Add from file…").accesskit_node().is_disabled());
    assert!(h.get_by_label("Add the current build").accesskit_node().is_disabled());
    h.state_mut().state_mut().push(Command::CompareAddCurrent);
    h.run();
    assert_eq!(state(&h).compare.entries.len(), 4);
    assert!(notice(&h).is_some_and(|n| n.contains("at most 4 builds")));
}

#[test]
fn the_comparison_comes_back_from_the_preferences() {
    let dir = tempfile::tempdir().unwrap();
    let intel = intel_file(dir.path());
    let mut c = config();
    c.prefs.main_view = MainView::Compare;
    c.prefs.compare =
        vec![CompareSource::Current, CompareSource::File(intel), CompareSource::File(dir.path().join("gone.ron"))];
    let h = app_as_started(c);
    assert_eq!(state(&h).compare.entries.len(), 2, "the file that is gone is left out");
    assert!(notice(&h).is_some_and(|n| n.starts_with("Left out of the comparison:") && n.contains("gone.ron")));
    let cmp = comparison(&h);
    assert_eq!(cmp.builds.len(), 2);
    assert_eq!(shown(&h, &template("entry-workstation-intel").name), 1);
}

#[test]
fn an_idle_compare_view_neither_repaints_nor_compares_again() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config();
    c.prefs.main_view = MainView::Compare;
    c.prefs.compare = vec![CompareSource::Current, CompareSource::File(intel_file(dir.path()))];
    let mut h = app_as_started(c);
    // The comparison's rows, by address: a recomputed comparison is a new allocation.
    let rows = |h: &egui_kittest::Harness<'static, rigplan::gui::App>| comparison_rows_ptr(h);
    let before = rows(&h);
    h.remove_cursor();
    h.run();
    h.step();
    h.step();
    let delay = h.output().viewport_output.get(&egui::ViewportId::ROOT).map(|v| v.repaint_delay);
    assert_eq!(delay, Some(std::time::Duration::MAX), "nothing scheduled while idle");
    assert_eq!(rows(&h), before, "the same inputs: not compared again");
}

fn comparison_rows_ptr(h: &egui_kittest::Harness<'static, rigplan::gui::App>) -> usize {
    let c = state(h).compared.as_ref().and_then(|c| c.comparison()).expect("a comparison");
    c.groups.as_ptr() as usize
}
