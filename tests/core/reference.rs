//! The published reference set (`catalog/reference/measurements.ron`): every measurement is
//! recomputed with rigplan's analyses and must land within the tolerance the set claims for it;
//! every class holds several measurements.

use rigplan::core::catalog::Catalog;
use rigplan::core::reference::{Class, Outcome, Setup, embedded, evaluate, load};
use std::collections::BTreeSet;

fn outcomes() -> Vec<Outcome> {
    let catalog = Catalog::embedded().expect("embedded catalog");
    embedded()
        .expect("the reference set parses")
        .iter()
        .map(|m| evaluate(m, &catalog).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn table(rows: &[&Outcome]) -> String {
    rows.iter()
        .map(|o| {
            format!(
                "{:<48} measured {:>12.3} estimated {:>12.3} error {:>+7.1} % (tolerance {:.0} %)",
                o.id,
                o.measured,
                o.estimated,
                o.error * 100.0,
                o.tolerance * 100.0
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_measurement_is_within_its_tolerance() {
    let all = outcomes();
    eprintln!("{}", table(&all.iter().collect::<Vec<_>>()));
    let failing: Vec<&Outcome> = all.iter().filter(|o| !o.holds()).collect();
    assert!(
        failing.is_empty(),
        "outside tolerance:\n{}\n\nall:\n{}",
        table(&failing),
        table(&all.iter().collect::<Vec<_>>())
    );
}

#[test]
fn every_class_has_several_cited_measurements() {
    let set = embedded().expect("parses");
    for class in Class::ALL {
        let n = set.iter().filter(|m| m.class == class).count();
        assert!(n >= 2, "{class:?} has {n} measurement(s)");
    }
    let ids: BTreeSet<&str> = set.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids.len(), set.len(), "ids are unique");
    for m in &set {
        assert!(m.source.len() > 20, "{} needs a citation", m.id);
        assert!(m.tolerance > 0.0 && m.tolerance <= 0.5, "{}: tolerance {}", m.id, m.tolerance);
        assert!(m.measured.is_finite() && m.measured > 0.0, "{}", m.id);
    }
    // Decode holds several GPUs and engines, not one tuned point.
    let gpus: BTreeSet<&str> = set
        .iter()
        .filter(|m| m.class == Class::Decode)
        .filter_map(|m| match &m.setup {
            Setup::Run(r) => Some(r.gpu.as_str()),
            Setup::Node(_) => None,
        })
        .collect();
    assert!(gpus.len() >= 6, "{gpus:?}");
}

#[test]
fn a_malformed_set_says_where() {
    let err = load("[ (id: \"x\", class: Decode, what: \"w\") ]").expect_err("missing fields");
    assert!(err.starts_with("1:"), "{err}");
    assert!(load("[").is_err());
}
