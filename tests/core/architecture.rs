//! The core stays UI-free: no file under `src/core` names a GUI crate.

use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/core is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn core_never_names_gui_crates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.len() >= 8, "expected the core's source files, found {}", files.len());
    let mut offenders = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable source");
        for (n, line) in text.lines().enumerate() {
            if names_gui_crate(line) {
                offenders.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
            }
        }
    }
    assert!(offenders.is_empty(), "src/core must stay UI-free:\n{}", offenders.join("\n"));
}

/// True when the code part of a line (before any `//`) uses a GUI crate.
fn names_gui_crate(line: &str) -> bool {
    const GUI_CRATES: [&str; 6] = ["egui", "eframe", "egui_plot", "egui_extras", "rfd", "egui_kittest"];
    let code = line.split("//").next().unwrap_or("");
    GUI_CRATES.iter().any(|name| code.contains(&format!("{name}::")) || code.contains(&format!("use {name}")))
}

#[test]
fn detector_catches_uses_and_ignores_comments() {
    assert!(names_gui_crate("use egui::Ui;"));
    assert!(names_gui_crate("    let p = egui_plot::Line::new(\"a\", pts);"));
    assert!(names_gui_crate("use rfd;"));
    assert!(!names_gui_crate("// the GUI uses egui::Ui here"));
    assert!(!names_gui_crate("let reguide = 1;"));
}
