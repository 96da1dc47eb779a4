//! Fuzz target: arbitrary text as a user catalog file. The first byte chooses the part kind
//! (its value modulo the number of kinds) and, when its high bit is set, lays the file over the
//! shipped catalog as a user catalog folder does. Loading must never panic; when the result has
//! no errors, every template build must analyze with finite figures.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use rigplan::core::analysis;
use rigplan::core::catalog::{Catalog, EMBEDDED_FILES, PartKind};
use rigplan::core::templates::TEMPLATES;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let kind = PartKind::ALL[usize::from(selector) % PartKind::ALL.len()];
    let mut sources: Vec<(PartKind, String, String)> = Vec::new();
    if selector & 0x80 != 0 {
        sources.extend(EMBEDDED_FILES.iter().map(|(k, t)| (*k, format!("catalog/{}", k.file_name()), (*t).to_owned())));
    }
    sources.push((kind, format!("user/{}", kind.file_name()), text.to_owned()));
    let (catalog, problems) = Catalog::from_sources(&sources);
    for p in &problems {
        assert!(!p.to_string().is_empty());
    }
    if problems.iter().any(|p| p.is_error()) {
        return;
    }
    for template in &TEMPLATES {
        let build = template.load().expect("templates load");
        let report = analysis::analyze(&catalog, &build);
        common::assert_finite(&report);
    }
});
