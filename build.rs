//! Compiles the embedded catalog for a fast start.
//!
//! Theory of operation: every rigplan process that analyses anything starts by loading the
//! embedded catalog (`catalog/*.ron`, about 300 KB). Parsing RON was most of the time of a
//! whole `rigplan fit` process, so this script translates each catalog file, lexically and
//! without knowing rigplan's types, into JSON, which serde deserializes into the same types
//! several times faster (`src/core/catalog/compiled.rs`). Each entry of a file becomes
//! `[line, col, entry]`, the position of its `id:` value in the RON file, so that messages
//! and hover cards still point at the RON source. `catalog-index.rs` lists each entry's id and
//! byte range in its JSON, so that a command reads only the entries it needs.
//!
//! The translation (`src/core/catalog/ron_to_json.rs`, unit-tested there) keeps serde's data
//! model. A file it cannot translate (a syntax it does not know, or a file being edited)
//! becomes an empty output, and the catalog then loads from its RON text, which reports the
//! problem with its position. `tests/core/catalog.rs` holds the two loads equal.

use std::fmt::Write as _;
use std::path::Path;

#[path = "src/core/catalog/ron_to_json.rs"]
mod ron_to_json;

/// The catalog files the binary embeds (`src/core/catalog/mod.rs`, `models.rs`,
/// `clouds.rs`).
const FILES: [&str; 13] = [
    "gpu",
    "cpu",
    "motherboard",
    "memory",
    "storage",
    "psu",
    "cooler",
    "chassis",
    "nic",
    "switch",
    "system",
    "models",
    "clouds",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/core/catalog/ron_to_json.rs");
    let out_dir = std::env::var("OUT_DIR")?;
    let mut index =
        String::from("// Written by build.rs: each compiled catalog file's entries as (id, start, end) byte ranges.\n");
    for name in FILES {
        let source = format!("catalog/{name}.ron");
        println!("cargo:rerun-if-changed={source}");
        let text = std::fs::read_to_string(&source)?;
        let (json, spans) = match ron_to_json::translate_indexed(&text) {
            Ok(translated) => translated,
            Err(e) => {
                println!("cargo:warning={source}: not compiled ({e}); the app parses it at start");
                (String::new(), Vec::new())
            }
        };
        std::fs::write(Path::new(&out_dir).join(format!("catalog-{name}.json")), json)?;
        // Cloud offers are chosen by the GPU they rent, as well as by id.
        if name == "clouds" {
            write!(index, "pub(super) const CLOUDS: &[(&str, &str, usize, usize)] = &[")?;
            for s in &spans {
                let gpu = s.gpu.as_deref().unwrap_or_default();
                write!(index, "({:?}, {gpu:?}, {}, {}),", s.id, s.start, s.end)?;
            }
            index.push_str("];\n");
            continue;
        }
        write!(index, "pub(super) const {}: &[(&str, usize, usize)] = &[", name.to_uppercase())?;
        for s in &spans {
            write!(index, "({:?}, {}, {}),", s.id, s.start, s.end)?;
        }
        index.push_str("];\n");
    }
    std::fs::write(Path::new(&out_dir).join("catalog-index.rs"), index)?;
    Ok(())
}
