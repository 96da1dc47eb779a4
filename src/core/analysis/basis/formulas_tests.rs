//! The registry's tests: ids unique and in both languages, every id used by a basis and
//! documented in `report-schema.md`.

use super::*;
use std::path::Path;

fn has_chinese(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

#[test]
fn ids_are_unique_and_every_formula_is_in_both_languages() {
    let mut seen = std::collections::HashSet::new();
    for f in &FORMULAS {
        assert!(seen.insert(f.id), "{} twice", f.id);
        assert!(f.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{}", f.id);
        for pair in [f.what, f.formula, f.source] {
            assert!(!pair[0].is_empty(), "{}", f.id);
            assert!(has_chinese(pair[1]), "{}: {}", f.id, pair[1]);
        }
        // Only calibrated estimates have a reference class, and every one has one.
        assert_eq!(f.class.is_some(), f.confidence == Confidence::Calibrated, "{}", f.id);
    }
}

/// Every `.rs` file under `dir`, with its text outside tests.
fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or_default().to_owned();
            out.push((path.display().to_string(), code));
        }
    }
}

/// The formula ids the bases name: every kebab-case string literal (lowercase words joined
/// by hyphens) of the basis sources other than this registry, whether passed to
/// `Basis::new` or listed in a table of figures.
fn used() -> Vec<(String, String)> {
    let mut files = Vec::new();
    sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core/analysis/basis"), &mut files);
    let mut out = Vec::new();
    // `findings.rs` names finding codes (kebab-case too), checked against their registry.
    let skip = ["formulas.rs", "formulas_counts.rs", "formulas_tests.rs", "mod.rs", "findings.rs"];
    for (file, code) in files.iter().filter(|(f, _)| !skip.iter().any(|s| f.ends_with(s))) {
        for literal in code.split('"').skip(1).step_by(2) {
            let kebab = literal.contains('-')
                && literal.split('-').all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase()));
            if kebab {
                out.push((file.clone(), literal.to_owned()));
            }
        }
    }
    out
}

#[test]
fn every_formula_used_is_registered_and_every_registered_one_is_used_and_documented() {
    let found = used();
    assert!(found.len() >= 30, "the scan finds the bases: {}", found.len());
    for (file, id) in &found {
        assert!(lookup(id).is_some(), "{file}: the formula `{id}` is not in the registry");
    }
    let schema = include_str!("../report-schema.md");
    for f in &FORMULAS {
        assert!(found.iter().any(|(_, id)| id == f.id), "`{}` is registered but no basis uses it", f.id);
        assert!(schema.contains(&format!("`{}`", f.id)), "`{}` is not in report-schema.md", f.id);
    }
}
