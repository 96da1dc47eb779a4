//! Prices in the app: File → Import price list… writes the user catalog's prices, reloads the
//! catalog and says what matched; stale catalog prices are marked, after the months the user
//! sets in the View menu.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use rigplan::core::catalog::price_list::PRICES_FILE;
use rigplan::gui::command::Command;
use rigplan::gui::text::{EN, fill};

#[test]
fn a_price_list_imports_from_the_file_menu_and_reprices_the_build() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("quote.csv");
    std::fs::write(
        &list,
        "id,price,currency,date\ngpu/nvidia-geforce-rtx-4090,13999,CNY,2026-11-30\ngpu/nope,1,USD,2026-11-30\n",
    )
    .unwrap();
    let folder = dir.path().join("catalog");
    let mut c = config();
    c.dialogs = Box::new(Scripted { price_list: vec![list], ..Scripted::default() });
    c.user_catalog_dir = Some(folder.clone());
    // The entry workstation template, whose 4090 is priced at its USD launch price × 7.2.
    let mut h = app_as_started(c);
    let unit = |h: &egui_kittest::Harness<'static, rigplan::gui::App>| {
        let bom = &state(h).derived.report.bom;
        bom.lines.iter().find(|l| l.part.as_str() == RTX_4090).and_then(|l| l.unit_price)
    };
    assert_eq!(unit(&h), Some(1599.0 * 7.2));
    h.get_by_label("File").click();
    h.run();
    h.get_by_label(EN.file_import_prices).click();
    h.run();
    h.run();
    let report = state(&h).view.import_report.clone().expect("the import's outcome is shown");
    assert_eq!((report.outcome.matched.len(), report.outcome.unmatched.len()), (1, 1));
    assert!(folder.join(PRICES_FILE).exists());
    assert_eq!(unit(&h), Some(13_999.0), "the catalog is reloaded and the build repriced");
    assert!(h.query_by_label(&format!("{} (1)", EN.import_unmatched)).is_some());
    h.get_by_label(EN.ok).click();
    h.run();
    assert!(state(&h).view.import_report.is_none());
}

#[test]
fn without_a_user_catalog_folder_an_import_says_so_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("quote.csv");
    std::fs::write(&list, "id,price,currency,date\ngpu/nvidia-geforce-rtx-4090,13999,CNY,2026-11-30\n").unwrap();
    let mut h = app_as_started(config());
    let before = state(&h).derived.report.bom.capex;
    h.state_mut().state_mut().push(Command::ImportPrices(list));
    h.run();
    let error = state(&h).view.error.clone().expect("an error is shown");
    assert_eq!((error.title.as_str(), error.message.as_str()), (EN.import_failed, EN.import_no_folder));
    assert!((state(&h).derived.report.bom.capex - before).abs() < f64::EPSILON);
}

#[test]
fn stale_prices_are_marked_after_the_months_the_user_sets() {
    // The entry workstation's prices date from 2022–2024, all older than 12 months today.
    let mut h = app_as_started(config());
    let ages = state(&h).derived.report.prices.clone().expect("the app dates its prices");
    assert_eq!(ages.policy.stale_after_months, 12);
    assert_eq!(ages.stale_lines(), ages.dated_lines);
    let stale_label = fill(EN.summary_prices_stale, &[&ages.dated_lines, &ages.dated_lines, &12]);
    assert!(h.query_by_label(&stale_label).is_some(), "{stale_label}");
    h.state_mut().state_mut().push(Command::SetStaleMonths(1200));
    h.run();
    assert_eq!(state(&h).prefs.stale_after_months, 120, "kept within 1–120 months");
    let ages = state(&h).derived.report.prices.clone().expect("dated");
    assert_eq!(ages.stale_lines(), 0);
    assert!(h.query_by_label(&fill(EN.summary_prices_fresh, &[&ages.dated_lines, &120])).is_some());
}

#[test]
fn an_fp8_override_on_a_card_without_fp8_units_shows_no_speed_and_says_why() {
    use rigplan::core::analysis::memory::WeightType;
    use rigplan::core::build::{Build, Location};
    use rigplan::core::catalog::PartId;
    use rigplan::gui::vocab::{FitOverrides, FitSel};
    let dir = tempfile::tempdir().unwrap();
    let mut b = Build::new("A800");
    b.add_part(Location::Node(0), &PartId::from("gpu/nvidia-a800-pcie-80gb"), 1).unwrap();
    let (mut h, _) = app_with(&b, dir.path());
    // The first model's bf16 inference cell, with fp8 weights instead.
    let sel = FitSel { matrix: 0, row: 0, col: 0 };
    h.state_mut().state_mut().push(Command::SelectFitCell(Some(sel)));
    let fp8 = FitOverrides { weights: Some(WeightType::Fp8), ..FitOverrides::default() };
    h.state_mut().state_mut().push(Command::SetFitOverrides(fp8));
    h.run();
    h.run();
    let detail = state(&h).cell_detail.clone().expect("the cell is evaluated");
    let (_, _, speed) = detail.result.expect("the memory estimate runs");
    assert!(speed.decode_tokens_per_s.is_none() && speed.prefill_tokens_per_s.is_none());
    let notes: Vec<String> = speed.notes.iter().map(|n| n.render(rigplan::core::i18n::Lang::En)).collect();
    assert!(notes.iter().any(|n| n.starts_with("A800 80GB PCIe has no FP8 tensor units")), "{notes:?}");
    // The same cell at its own bf16 has a speed.
    h.state_mut().state_mut().push(Command::SetFitOverrides(FitOverrides::default()));
    h.run();
    h.run();
    let detail = state(&h).cell_detail.clone().expect("evaluated");
    assert!(detail.result.expect("runs").2.decode_tokens_per_s.is_some());
}
