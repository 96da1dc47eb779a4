//! The palette's search, price filter and value sorts (issue 17, points 8, 9 and 15).

use crate::common::*;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable};
use rigplan::core::catalog::PartKind;
use rigplan::gui::App;
use rigplan::gui::panels::palette::value_usd;
use rigplan::gui::{SortKey, text::EN};

fn shown_names(h: &Harness<'static, App>) -> Vec<String> {
    let s = state(h);
    s.palette
        .visible_ids(&s.catalog)
        .into_iter()
        .filter_map(|id| s.catalog.get(id))
        .map(|p| p.name().to_owned())
        .collect()
}

/// The price field (`0`: from, `1`: to), found by its "Any" hint, left to right.
fn price_field<'h>(h: &'h Harness<'static, App>, i: usize) -> egui_kittest::Node<'h> {
    let mut fields: Vec<_> = h
        .get_all_by(|n| n.role() == egui::accesskit::Role::TextInput && n.data().placeholder() == Some(EN.any))
        .collect();
    fields.sort_by(|a, b| a.rect().center().x.total_cmp(&b.rect().center().x));
    fields.swap_remove(i)
}

fn type_into(h: &mut Harness<'static, App>, i: usize, text: &str) {
    price_field(h, i).focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.key_press(egui::Key::Backspace);
    h.run();
    if !text.is_empty() {
        price_field(h, i).type_text(text);
    }
    h.run();
    h.key_press(egui::Key::Escape);
    h.run();
}

#[test]
fn a_model_number_finds_that_model_and_nothing_else() {
    let mut h = app(config());
    search(&mut h, "4090");
    let names = shown_names(&h);
    assert!(!names.is_empty());
    // The report: A40, H100 NVL and A100 SXM4 came up for "4090".
    for name in &names {
        assert!(name.contains("4090"), "{name} does not hold the model number 4090");
    }
    assert_eq!(state(&h).palette.visible_ids(&state(&h).catalog).first().map(|id| id.as_str()), Some(RTX_4090));
    clear_search(&mut h);
    search(&mut h, "a40");
    let names = shown_names(&h);
    assert!(names.iter().any(|n| n.contains("A40")), "{names:?}");
    assert!(names.iter().all(|n| !n.contains("4090")), "{names:?}");
}

#[test]
fn an_emptied_price_field_means_any_and_reset_clears_every_filter() {
    let mut h = app(config());
    let all = shown_names(&h).len();
    assert!(h.get_by_label(EN.reset_filters).accesskit_node().is_disabled(), "nothing to reset yet");
    type_into(&mut h, 1, "2,000");
    let cheap = shown_names(&h).len();
    assert!(cheap > 0 && cheap < all, "{cheap} of {all} GPUs at most 2,000 USD");
    assert!(shown_names(&h).iter().all(|n| !n.contains("H100")), "no H100 costs 2,000 USD");
    // Emptying the field (the issue: only typing 0 used to clear it) lifts the bound.
    type_into(&mut h, 1, "");
    assert_eq!(shown_names(&h).len(), all, "an empty field is any price");
    // Text that is no amount leaves the bound as it was.
    type_into(&mut h, 0, "1000");
    let dear = shown_names(&h).len();
    assert!(dear < all);
    price_field(&h, 0).focus();
    h.run();
    h.key_press(egui::Key::End);
    price_field(&h, 0).type_text("x");
    h.run();
    assert_eq!(price_field(&h, 0).value().as_deref(), Some("1,000x"), "the field shows the bound with separators");
    assert_eq!(shown_names(&h).len(), dear, "an unreadable amount changes nothing");
    h.key_press(egui::Key::Escape);
    h.run();
    assert_eq!(price_field(&h, 0).value().as_deref(), Some("1,000"), "left, the field shows the bound in force");
    // Reset: the price bound goes, the search stays.
    search(&mut h, "nvidia");
    h.get_by_label(EN.reset_filters).click();
    h.run();
    assert!(!state(&h).palette.filtered());
    assert_eq!(state(&h).palette.query, "nvidia");
    let s = state(&h);
    let nvidia = s.catalog.parts_of(PartKind::Gpu).filter(|p| p.meta().vendor == "NVIDIA").count();
    assert!(shown_names(&h).len() >= nvidia);
    assert!(price_field(&h, 0).value().is_none_or(|v| v.is_empty()), "the field shows the reset");
    assert!(h.get_by_label(EN.reset_filters).accesskit_node().is_disabled());
}

#[test]
fn gpus_sort_by_price_per_gib_and_per_tflops() {
    let mut h = app(config());
    let s = state(&h);
    let rtx = s.catalog.get(&rigplan::core::catalog::PartId::new(RTX_4090)).unwrap();
    // RTX 4090 FE: 1,599 USD launch price over 24 GiB = 66.625 USD/GiB, over 165.2 dense
    // BF16 tensor TFLOPS (Ada whitepaper v2.1, appendix A) = 9.679 USD/TFLOPS.
    assert!((value_usd(rtx, &s.catalog, SortKey::PricePerGib).unwrap() - 66.625).abs() < 1e-9);
    assert!((value_usd(rtx, &s.catalog, SortKey::PricePerTflops).unwrap() - 1599.0 / 165.2).abs() < 1e-9);
    assert!(value_usd(rtx, &s.catalog, SortKey::Price).is_none(), "only the value keys are values");
    for (key, label) in
        [(SortKey::PricePerGib, EN.sort_price_per_gib), (SortKey::PricePerTflops, EN.sort_price_per_tflops)]
    {
        h.get_by_label(EN.sort_by).click();
        h.run();
        h.get_by_label(label).click();
        h.run();
        assert_eq!(state(&h).palette.sort, key);
        let s = state(&h);
        let values: Vec<Option<f64>> = s
            .palette
            .visible_ids(&s.catalog)
            .into_iter()
            .map(|id| value_usd(s.catalog.get(id).unwrap(), &s.catalog, key))
            .collect();
        assert_eq!(values.len(), s.catalog.gpus.len(), "a sort hides nothing");
        let priced: Vec<f64> = values.iter().map_while(|v| *v).collect();
        assert!(priced.len() > 10, "most GPUs have a price");
        assert!(priced.windows(2).all(|w| w[0] <= w[1]), "{key:?}: cheapest per unit first");
        assert!(values.iter().skip(priced.len()).all(Option::is_none), "unpriced parts last");
    }
    // PSUs have no GPU: the value sorts are not offered there.
    h.get_by_label("PSUs").click();
    h.run();
    h.get_by_label(EN.sort_by).click();
    h.run();
    assert!(h.query_by_label(EN.sort_price_per_gib).is_none());
    assert_eq!(state(&h).palette.sort, SortKey::Relevance);
}
