//! The controls that findings' fixes name (issue 17, point 11): the TCO tab's cloud offer,
//! custom offers, yearly owned cost and circuit, the parts list's price editor, and the
//! one-click "Remove line" of a part the catalog does not know. Each control changes the
//! build, and undo brings it back.

use crate::common::*;
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use rigplan::core::build::{Build, CustomPricing, PartLine};
use rigplan::core::catalog::PartId;
use rigplan::gui::App;
use rigplan::gui::command::Command;
use rigplan::gui::vocab::AnalysisTab;

fn template(slug: &str) -> Build {
    rigplan::core::templates::find(slug).unwrap().load().unwrap()
}

/// The report has a finding with `code`, in the Issues tab or among the TCO tab's notes.
fn has(h: &Harness<'static, App>, code: &str) -> bool {
    let report = &state(h).derived.report;
    report.diagnostics.iter().chain(&report.tco.notes).any(|d| d.code.as_str() == code)
}

fn show_tab(h: &mut Harness<'static, App>, tab: AnalysisTab) {
    h.state_mut().state_mut().push(Command::SetTab(tab));
    h.run();
}

fn undo(h: &mut Harness<'static, App>) {
    h.key_press(egui::Key::Escape);
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    h.run();
}

/// Types `text` into the drag value named `label` (egui edits a focused drag value as text)
/// and leaves it with Enter.
fn type_number(h: &mut Harness<'static, App>, label: &str, text: &str) {
    let label = label.to_owned();
    let field = move |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        n.role() == Role::SpinButton && n.label().as_deref() == Some(label.as_str())
    };
    h.get_by(field.clone()).focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.key_press(egui::Key::Backspace);
    h.run();
    h.get_by(field).type_text(text);
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
}

#[test]
fn the_cloud_offer_choice_changes_the_compared_offer_and_undo_restores_it() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = app_with(&template("enterprise-8x-h100-hgx"), dir.path());
    show_tab(&mut h, AnalysisTab::Tco);
    let tco = |h: &Harness<'static, App>| state(h).derived.report.tco.clone();
    let before = tco(&h);
    let automatic = before.primary_option.clone().expect("an H100 HGX node has on-demand offers");
    assert!(automatic.ends_with(":on_demand"), "{automatic}");
    let choices = state(&h).derived.offer_choices.clone();
    assert!(choices.iter().any(|c| c.id == automatic), "the automatic choice is one of the listed offers");
    h.get_by(|n| n.role() == Role::ComboBox && n.label().as_deref() == Some("Cloud offer")).click();
    h.run();
    // The choice's item (the plot legends name the same option).
    let item = "Google Cloud a3-highgpu-8g, 1-year reserved";
    h.get_by(|n| n.role() == Role::Button && n.label().as_deref() == Some(item)).click();
    h.run();
    assert_eq!(build(&h).costs.chosen_offer.as_deref(), Some("gcp-a3-highgpu-8g:reserved_1y"));
    let after = tco(&h);
    assert_eq!(after.primary_option.as_deref(), Some("gcp-a3-highgpu-8g:reserved_1y"));
    // A reservation bills every hour of the horizon: the compared cloud total is the offer's
    // 61.383672 USD/h × 8,760 h × years (no longer the on-demand one).
    let reserved = after.totals.options["gcp-a3-highgpu-8g:reserved_1y"];
    let expected = 61.383_672 * after.usd_exchange_rate * 8_760.0 * after.horizon_years;
    assert!((reserved - expected).abs() < 1.0, "{reserved} vs {expected}");
    assert_ne!(after.break_even_month, before.break_even_month);
    undo(&mut h);
    assert_eq!(build(&h).costs.chosen_offer, None);
    assert_eq!(tco(&h).primary_option.as_deref(), Some(automatic.as_str()));
}

#[test]
fn a_custom_offer_is_added_edited_and_removed_in_the_tco_tab() {
    let dir = tempfile::tempdir().unwrap();
    // No catalog offer rents a Jetson, which the finding says.
    let (mut h, _) = app_with(&template("edge-jetson-agx-orin"), dir.path());
    assert!(has(&h, "tco-no-cloud-match"), "no cloud rents a Jetson");
    show_tab(&mut h, AnalysisTab::Tco);
    assert!(h.get_by_label("Add custom offer").accesskit_node().is_disabled(), "no price yet");
    type_number(&mut h, "Price (CNY)", "0.8");
    h.get_by_label("Add custom offer").click();
    h.run();
    let offers = build(&h).costs.custom_offers.clone();
    assert_eq!(offers.len(), 1);
    assert_eq!(offers[0].id, "custom-1");
    assert_eq!(offers[0].name, "Quote 1");
    assert_eq!(offers[0].pricing, CustomPricing::PerGpuHour { price: 0.8, every_hour: false });
    let tco = &state(&h).derived.report.tco;
    assert_eq!(tco.primary_option.as_deref(), Some("custom-1:custom"), "the only offer is compared");
    assert!(!has(&h, "tco-no-cloud-match") || tco.options.len() == 1);
    // Its price is edited in place.
    let price = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        n.role() == Role::SpinButton && n.label().as_deref() == Some("Price (CNY)")
    };
    assert_eq!(h.get_all_by(price).count(), 2, "the offer's row and the new offer's row");
    h.get_all_by(price).next().unwrap().focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.key_press(egui::Key::Backspace);
    h.run();
    h.get_all_by(price).next().unwrap().type_text("1.25");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    let pricing = &build(&h).costs.custom_offers[0].pricing;
    assert_eq!(pricing, &CustomPricing::PerGpuHour { price: 1.25, every_hour: false });
    let tco = &state(&h).derived.report.tco;
    let total = tco.totals.options["custom-1:custom"];
    // Used hours only: 1.25 per GPU-hour × GPUs rented × 8,760 h × utilization × years.
    let option = tco.options.iter().find(|o| o.input.id == "custom-1:custom").unwrap();
    let expected = 1.25 * option.input.gpus_rented as f64 * 8_760.0 * tco.utilization * tco.horizon_years;
    assert!((total - expected).abs() < 1.0, "{total} vs {expected}");
    // Removed, and undo brings it back.
    h.get_by_label("Remove").click();
    h.run();
    assert!(build(&h).costs.custom_offers.is_empty());
    undo(&mut h);
    assert_eq!(build(&h).costs.custom_offers.len(), 1);
}

#[test]
fn the_yearly_owned_cost_replaces_the_computed_one() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = app_with(&template("enterprise-8x-h100-hgx"), dir.path());
    show_tab(&mut h, AnalysisTab::Tco);
    let computed = state(&h).derived.report.tco.owned_per_year.total;
    h.get_by(|n| n.role() == Role::CheckBox && n.label().as_deref() == Some("Yearly owned cost")).click();
    h.run();
    assert_eq!(build(&h).costs.annual_owned_cost, Some(computed.round()), "starts at the computed figure");
    type_number(&mut h, "Yearly owned cost", "267000");
    assert_eq!(build(&h).costs.annual_owned_cost, Some(267_000.0));
    let owned = state(&h).derived.report.tco.owned_per_year.total;
    assert!((owned - 267_000.0).abs() < 1.0, "{owned}");
    h.get_by(|n| n.role() == Role::CheckBox && n.label().as_deref() == Some("Includes depreciation")).click();
    h.run();
    assert!(build(&h).costs.annual_cost_includes_depreciation);
    undo(&mut h);
    assert!(!build(&h).costs.annual_cost_includes_depreciation);
}

#[test]
fn the_circuit_breaker_setting_decides_the_circuit_finding() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = app_with(&template("dual-h100-workstation"), dir.path());
    show_tab(&mut h, AnalysisTab::Tco);
    let amps = build(&h).site.circuit_amps;
    type_number(&mut h, "Circuit breaker", "1");
    assert!((build(&h).site.circuit_amps - 1.0).abs() < 1e-9);
    assert!(has(&h, "circuit-overload"), "a 1 A breaker cannot feed a dual-H100 workstation");
    type_number(&mut h, "Circuit breaker", "100");
    assert!(!has(&h, "circuit-overload"), "100 A can");
    undo(&mut h);
    assert!((build(&h).site.circuit_amps - amps).abs() < 1e-9, "undo restores the breaker");
    // Three phases: the setting is a choice.
    h.get_by(|n| n.role() == Role::ComboBox && n.label().as_deref() == Some("Circuit phases")).click();
    h.run();
    h.get_by_label("Three-phase").click();
    h.run();
    assert_eq!(build(&h).site.circuit_phases, 3);
}

#[test]
fn a_price_override_changes_the_parts_total_and_clears_back_to_the_catalog() {
    let dir = tempfile::tempdir().unwrap();
    let b = template("entry-workstation");
    let first = b.nodes[0].parts[0].part.clone();
    let (mut h, _) = app_with(&b, dir.path());
    show_tab(&mut h, AnalysisTab::Summary);
    let total = |h: &Harness<'static, App>| state(h).derived.report.bom.parts_total;
    let (before, line) = (total(&h), state(&h).derived.report.bom.lines[0].clone());
    assert_eq!(line.part, first);
    let unit = line.unit_price.expect("a catalog price");
    h.get_all_by_label("Price…").next().unwrap().click();
    h.run();
    type_number(&mut h, "Unit price (CNY)", "1000");
    assert_eq!(build(&h).price_override(&first).map(|o| o.unit_price), Some(1000.0));
    let expected = before + (1000.0 - unit) * line.total_quantity as f64;
    assert!((total(&h) - expected).abs() < 1e-6, "{} vs {expected}", total(&h));
    // The menu stays open while the price is typed; it now offers the catalog price back.
    h.get_by_label("Use catalog price").click();
    h.run();
    assert!(build(&h).price_overrides.is_empty());
    assert!((total(&h) - before).abs() < 1e-6);
    undo(&mut h);
    assert_eq!(build(&h).price_override(&first).map(|o| o.unit_price), Some(1000.0), "undo restores the override");
}

#[test]
fn a_part_the_catalog_does_not_know_is_removed_in_one_click() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = template("entry-workstation");
    b.nodes[0].parts.push(PartLine { part: PartId("gpu/not-in-any-catalog".into()), quantity: 1, slots: Vec::new() });
    let lines = b.nodes[0].parts.len();
    let (mut h, _) = app_with(&b, dir.path());
    assert!(has(&h, "unknown-part"));
    show_tab(&mut h, AnalysisTab::Issues);
    h.get_by_label("Remove line").click();
    h.run();
    assert_eq!(build(&h).nodes[0].parts.len(), lines - 1);
    assert!(!has(&h, "unknown-part"));
    undo(&mut h);
    assert!(has(&h, "unknown-part"));
}

/// A user catalog folder holding one GPU: the embedded catalog's first GPU under `id`.
fn catalog_folder_with_gpu(dir: &std::path::Path, id: &str) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/catalog/gpu.ron")).unwrap();
    let start = text.find("    (\n        id:").unwrap();
    let end = start + text[start..].find("\n    ),").unwrap() + "\n    ),".len();
    let entry = &text[start..end];
    let first_id = entry.split('"').nth(1).unwrap();
    let entry = entry.replacen(first_id, id, 1);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("gpu.ron"), format!("[\n{entry}\n]\n")).unwrap();
}

#[test]
fn a_catalog_folder_added_in_the_app_makes_an_unknown_part_known() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("my-parts");
    catalog_folder_with_gpu(&folder, "gpu/my-own-card");
    let mut b = template("entry-workstation");
    b.nodes[0].parts.push(PartLine { part: PartId("gpu/my-own-card".into()), quantity: 1, slots: Vec::new() });
    let (mut h, _) = app_with(&b, dir.path());
    assert!(has(&h, "unknown-part"));
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Catalog folders…").click();
    h.run();
    assert!(h.query_by_label("No catalog folders: the built-in catalog is used.").is_some());
    let field = h.get_by(|n| n.role() == Role::TextInput && n.label().as_deref() == Some("Folder path"));
    field.focus();
    field.type_text(folder.to_str().unwrap());
    h.run();
    h.get_by_label("Add folder").click();
    h.run();
    assert_eq!(state(&h).prefs.catalog_folders, vec![folder.clone()], "kept with the preferences");
    assert!(state(&h).catalog.get(&PartId("gpu/my-own-card".into())).is_some());
    assert!(!has(&h, "unknown-part"), "the folder's GPU is known now");
    // A path that is no folder is refused and changes nothing.
    h.state_mut().state_mut().push(Command::AddCatalogFolder(dir.path().join("nope")));
    h.run();
    assert_eq!(state(&h).prefs.catalog_folders.len(), 1);
    // Removed: the part is unknown again.
    h.get_by_label("Remove").click();
    h.run();
    assert!(state(&h).prefs.catalog_folders.is_empty());
    assert!(has(&h, "unknown-part"));
}

/// Without a system folder dialog (a bare X server), Browse… opens the built-in file browser:
/// a file chosen in the folder adds its folder.
#[test]
fn a_catalog_folder_is_added_through_the_built_in_browser() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("browsed-parts");
    catalog_folder_with_gpu(&folder, "gpu/browsed-card");
    let mut c = config();
    c.prefs.builtin_file_browser = true;
    let mut h = app(c);
    h.state_mut().state_mut().push(Command::ShowCatalogFolders(true));
    h.run();
    h.get_by_label("Browse…").click();
    h.run();
    assert!(state(&h).file_browser.is_some(), "the built-in browser opens");
    assert!(h.query_by_label("Choose a file in the catalog folder to add").is_some());
    let name = || {
        |n: &egui_kittest::kittest::AccessKitNode<'_>| {
            n.role() == Role::TextInput && n.label().as_deref() == Some("File name")
        }
    };
    h.get_by(name()).focus();
    h.run();
    h.get_by(name()).type_text(&folder.join("gpu.ron").display().to_string());
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.run();
    assert!(state(&h).file_browser.is_none());
    assert_eq!(state(&h).prefs.catalog_folders, vec![folder]);
    assert!(state(&h).catalog.get(&PartId("gpu/browsed-card".into())).is_some());
}
