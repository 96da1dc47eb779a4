//! Fuzz target: arbitrary text as a user catalog file. The first byte chooses the file: its
//! low seven bits modulo 13 pick a part kind (0–10, in `PartKind::ALL` order), `clouds.ron`
//! (11) or `models.ron` (12); its high bit lays the file over the shipped catalog, as a user
//! catalog folder does, instead of loading it alone. Loading must never panic; when the result
//! has no errors, every template build must analyze with finite figures.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use rigplan::core::analysis;
use rigplan::core::catalog::{
    Catalog, CatalogProblem, EMBEDDED_FILES, EMBEDDED_MODELS, MODELS_FILE_NAME, Models, PartKind,
};
use rigplan::core::templates::TEMPLATES;

/// Part kinds, then the cloud offers, then the models.
const FILES: usize = PartKind::ALL.len() + 2;

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let overlay = selector & 0x80 != 0;
    let file = usize::from(selector & 0x7f) % FILES;
    let mut parts: Vec<(PartKind, String, String)> = Vec::new();
    let mut models: Vec<(String, String)> = Vec::new();
    let mut clouds: Vec<(String, String)> = Vec::new();
    if overlay {
        parts.extend(EMBEDDED_FILES.iter().map(|(k, t)| (*k, format!("catalog/{}", k.file_name()), (*t).to_owned())));
        models.push((format!("catalog/{MODELS_FILE_NAME}"), EMBEDDED_MODELS.to_owned()));
        clouds.extend(Catalog::embedded_cloud_sources());
    }
    match PartKind::ALL.get(file) {
        Some(kind) => parts.push((*kind, format!("user/{}", kind.file_name()), text.to_owned())),
        None if file == PartKind::ALL.len() => clouds.push(("user/clouds.ron".to_owned(), text.to_owned())),
        None => models.push(("user/models.ron".to_owned(), text.to_owned())),
    }
    let (mut catalog, mut problems) = Catalog::from_sources(&parts);
    let (loaded_models, more) = Models::from_sources(&models);
    catalog.models = loaded_models;
    problems.extend(more);
    problems.extend(catalog.load_clouds(&clouds));
    for p in &problems {
        assert!(!p.to_string().is_empty());
    }
    if problems.iter().any(CatalogProblem::is_error) {
        return;
    }
    for template in &TEMPLATES {
        let build = template.load().expect("templates load");
        let report = analysis::analyze(&catalog, &build);
        common::assert_finite(&report);
    }
});
