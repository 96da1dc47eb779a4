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

/// A word that reads like a Rust enum's code name: a capital, lower-case letters, then a digit
/// or another capital (`Ddr5`, `Gddr6x`, `Hpwr16Pin`, `NvLinkBridge`, `OpenAir`).
fn camel_code(word: &str) -> bool {
    let mut chars = word.chars();
    if !chars.next().is_some_and(|c| c.is_ascii_uppercase()) {
        return false;
    }
    let rest: Vec<char> = chars.collect();
    let lower = rest.iter().take_while(|c| c.is_ascii_lowercase()).count();
    lower > 0 && rest.get(lower).is_some_and(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
}

/// A number written as Rust's `Debug`/JSON writes a float: "1599.0", or more than three
/// decimals ("0.30000000000000004").
fn raw_float(text: &str) -> bool {
    let b = text.as_bytes();
    (0..b.len()).any(|i| {
        let digits_after = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        b[i] == b'.'
            && i > 0
            && b[i - 1].is_ascii_digit()
            && ((digits_after == 1 && b[i + 1] == b'0') || digits_after > 3)
    })
}

#[test]
fn every_parts_spec_card_names_values_for_people() {
    // Code names the camel-case rule cannot see (one hump), as serde writes them.
    const ONE_HUMP: [&str; 14] = [
        "Pcie",
        "Oam",
        "Udimm",
        "Rdimm",
        "Lrdimm",
        "Sodimm",
        "Eatx",
        "Sfx",
        "Crps",
        "Vpi",
        "Datacenter",
        "Hccs",
        "Aio",
        "Jbod",
    ];
    // Issue 17, point 7: the hover cards said "Ddr5", "Pcie", "Gddr6x", "Hpwr16Pin", "1599.0".
    let catalog = rigplan::core::catalog::Catalog::embedded().unwrap();
    // Words the catalog itself writes in names, vendors and SKUs ("GeForce", "InfiniBand").
    let mut written: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for part in catalog.all_parts() {
        let m = part.meta();
        for text in [Some(m.name), Some(m.vendor), m.sku].into_iter().flatten() {
            written.extend(text.split(|c: char| !c.is_ascii_alphanumeric()).map(str::to_owned));
        }
    }
    assert!(camel_code("Gddr6x") && camel_code("Hpwr16Pin") && camel_code("NvLinkBridge") && !camel_code("GDDR6X"));
    assert!(raw_float("1599.0 W") && raw_float("0.30000000000000004") && !raw_float("1,599") && !raw_float("2.5"));
    // Text the catalog's authors wrote (RON strings are quoted; enum values are not): a version
    // "3.0", a DGX's "2.0 GHz base" CPU line, "10 GbE".
    let mut authored: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/catalog")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "ron") {
            let text = std::fs::read_to_string(&path).unwrap();
            // Every other piece between quotes is a string (the catalog escapes none).
            authored.extend(text.split('"').skip(1).step_by(2).map(str::to_owned));
        }
    }
    // Binary units are written that way on purpose.
    written.extend(["KiB", "MiB", "GiB", "TiB"].map(str::to_owned));
    let mut checked = 0;
    let mut wrong: Vec<String> = Vec::new();
    for t in [&rigplan::gui::text::EN, &rigplan::gui::text::ZH] {
        for part in catalog.all_parts() {
            let rows = rigplan::gui::panels::palette::spec_rows(part, t);
            let line = rigplan::gui::panels::palette::key_specs(part, t);
            // A list's items are joined with "; " (an authored string may hold one itself).
            let pieces = rows
                .iter()
                .filter(|(_, v)| !authored.contains(v))
                .flat_map(|(_, v)| v.split("; "))
                .chain([line.as_str()]);
            for text in pieces.filter(|p| !authored.contains(*p)) {
                checked += 1;
                let id = part.meta().id;
                if raw_float(text) {
                    wrong.push(format!("{id}: {text}"));
                }
                for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
                    if (camel_code(word) && !written.contains(word)) || ONE_HUMP.contains(&word) {
                        wrong.push(format!("{id}: `{word}` in {text:?}"));
                    }
                }
            }
        }
    }
    wrong.dedup();
    assert!(wrong.is_empty(), "{} code names or raw numbers:\n{}", wrong.len(), wrong.join("\n"));
    assert!(checked > 1000, "every part's rows in both languages: {checked}");
}

/// Issue 17, point 3: at 1280–1600 px the palette's price and stale-price labels took the
/// room of GPU names, which were cut. At 1280×800 the long GPU names (the longest the catalog
/// has, and "H100 NVL 94GB" with a stale price) are laid out in full on their own line.
#[test]
fn long_gpu_names_are_not_cut_at_1280_by_800() {
    let mut c = config();
    // Every catalog price is stale after one month: each row shows its price with the mark.
    c.prefs.stale_after_months = 1;
    let mut h = Harness::builder().with_size(egui::vec2(1280.0, 800.0)).build_eframe(move |cc| App::new(cc, c));
    h.run();
    let catalog = state(&h).catalog.clone();
    let mut names: Vec<String> = catalog.parts_of(PartKind::Gpu).map(|p| p.meta().name.to_owned()).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.chars().count()));
    let longest = names[0].clone();
    for name in [longest.as_str(), "H100 NVL 94GB"] {
        clear_search(&mut h);
        search(&mut h, name);
        // The row's name label is as wide as the name written out in the body font (strong).
        let font = h.ctx.global_style().text_styles[&egui::TextStyle::Body].clone();
        let full = h.ctx.fonts_mut(|f| f.layout_no_wrap(name.to_owned(), font, egui::Color32::WHITE).size().x);
        let label = h.get_by(|n| n.value().as_deref() == Some(name) && n.role() == egui::accesskit::Role::Label);
        let shown = label.rect().width();
        assert!(shown + 0.5 >= full, "`{name}` is cut: {shown:.1} of {full:.1} points");
        assert!(h.query_all_by_label_contains("stale").next().is_some(), "the stale mark is shown beside the price");
    }
}
