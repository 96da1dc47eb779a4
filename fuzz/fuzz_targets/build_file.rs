//! Fuzz target: arbitrary bytes as a build file. Loading must never panic; a file it accepts
//! must analyze without panicking and with finite figures, and must save and load back to the
//! same build.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;
use rigplan::core::analysis;
use rigplan::core::catalog::Catalog;
use rigplan::core::persist::{build_to_string, parse_build_bytes, parse_build_str};
use std::sync::LazyLock;

static CATALOG: LazyLock<Catalog> = LazyLock::new(|| Catalog::embedded().expect("the shipped catalog loads"));

fuzz_target!(|data: &[u8]| {
    let build = match parse_build_bytes("fuzz.ron", data) {
        Ok(build) => build,
        Err(e) => {
            // Rendering the message must not panic either.
            assert!(e.to_string().starts_with("fuzz.ron"));
            return;
        }
    };
    let report = analysis::analyze(&CATALOG, &build);
    common::assert_finite(&report);
    serde_json::to_string(&report).expect("the report serializes as JSON");
    let text = build_to_string(&build).expect("an accepted build serializes");
    let again = parse_build_str("again.ron", &text).expect("a saved build loads");
    assert!(again == build, "save → load changed the build:\n{text}");
});
