//! The desktop app (feature `gui`).

use std::path::Path;

/// Opens the app window.
///
/// # Errors
/// The window could not be created (no display), or the catalog failed to load.
pub fn run(file: Option<&Path>, catalog_dir: Option<&Path>) -> anyhow::Result<()> {
    let catalog = crate::cli::load_catalog(catalog_dir)?;
    let build = match file {
        Some(p) => Some(crate::core::persist::load_build(p)?),
        None => None,
    };
    let title = build.as_ref().map_or_else(|| "rigplan".to_owned(), |b| format!("{} — rigplan", b.name));
    let parts = catalog.len();
    eframe::run_ui_native(&title, eframe::NativeOptions::default(), move |ui, _frame| {
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("rigplan");
            ui.label(format!("{parts} catalog parts loaded."));
            if let Some(b) = &build {
                ui.label(format!("Build: {} ({} node groups)", b.name, b.nodes.len()));
            }
        });
    })
    .map_err(|e| anyhow::anyhow!("cannot open the window: {e}"))
}
