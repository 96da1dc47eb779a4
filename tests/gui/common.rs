//! Helpers: building the app in a harness, dragging, file drops, scripted dialogs.

use egui::{Pos2, vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rigplan::core::build::Build;
use rigplan::core::persist;
use rigplan::gui::command::Dialogs;
use rigplan::gui::{App, AppConfig, AppState};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const RTX_4090: &str = "gpu/nvidia-geforce-rtx-4090";
pub const RTX_4090_NAME: &str = "GeForce RTX 4090 (Founders Edition)";

/// The embedded catalog, default preferences, no autosave, no dialogs.
pub fn config() -> AppConfig {
    AppConfig::headless().expect("the embedded catalog loads")
}

/// The app in a harness the size of a laptop window, as it starts (a first start opens the
/// entry workstation template).
pub fn app_as_started(config: AppConfig) -> Harness<'static, App> {
    let mut h = Harness::builder().with_size(vec2(1500.0, 950.0)).build_eframe(move |cc| App::new(cc, config));
    h.run();
    h
}

/// The app with a new, blank build (File → New build, Ctrl+N, right after start).
pub fn app(config: AppConfig) -> Harness<'static, App> {
    let mut h = app_as_started(config);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::N);
    h.run();
    let blank = rigplan::gui::text::blank_build(state(&h).texts);
    assert_eq!(build(&h), &blank, "a clean start needs no prompt to start afresh");
    h
}

/// The app with a build already open (saved to `dir` first, as `rigplan FILE` would open it).
pub fn app_with(build: &Build, dir: &Path) -> (Harness<'static, App>, PathBuf) {
    let path = dir.join("start.ron");
    persist::save_build(&path, build).expect("the starting build saves");
    let mut c = config();
    c.file = Some(path.clone());
    (app_as_started(c), path)
}

pub fn state<'a>(h: &'a Harness<'static, App>) -> &'a AppState {
    h.state().state()
}

pub fn build<'a>(h: &'a Harness<'static, App>) -> &'a Build {
    state(h).doc.build()
}

/// Press at `from`, move past the drag threshold, move to `to`, release.
pub fn drag(h: &mut Harness<'static, App>, from: Pos2, to: Pos2) {
    hover_drag(h, from, to);
    h.drop_at(to);
    h.run();
}

/// Press at `from` and move to `to` without releasing.
pub fn hover_drag(h: &mut Harness<'static, App>, from: Pos2, to: Pos2) {
    h.drag_at(from);
    h.run();
    h.hover_at(from + vec2(10.0, 10.0));
    h.run();
    h.hover_at(to);
    h.run();
    // One more frame: drop verdicts are computed at the start of a frame with the payload.
    h.hover_at(to + vec2(1.0, 0.0));
    h.run();
}

/// The palette's search box (named by its hint text).
pub fn search_field<'h>(h: &'h Harness<'static, App>) -> egui_kittest::Node<'h> {
    h.get_by(|n| n.data().placeholder() == Some("Search the catalog"))
}

/// Types a search into the palette.
pub fn search(h: &mut Harness<'static, App>, query: &str) {
    let field = search_field(h);
    field.focus();
    field.type_text(query);
    h.run();
    // Leave the field so that keyboard shortcuts reach the app again.
    h.key_press(egui::Key::Escape);
    h.run();
}

/// Empties the palette's search box.
pub fn clear_search(h: &mut Harness<'static, App>) {
    search_field(h).focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.key_press(egui::Key::Backspace);
    h.key_press(egui::Key::Escape);
    h.run();
}

/// The centre of the palette row of a part (the leftmost widget with that label).
pub fn palette_row(h: &Harness<'static, App>, name: &str) -> Pos2 {
    h.get_all_by_label(name)
        .map(|n| n.rect().center())
        .min_by(|a, b| a.x.total_cmp(&b.x))
        .expect("the part is in the palette")
}

/// The centre of the canvas row of a part (the rightmost-but-not-analysis widget: the
/// canvas sits between the palette and the analysis panel).
pub fn canvas_rows(h: &Harness<'static, App>, name: &str) -> Vec<Pos2> {
    let mut rows: Vec<Pos2> =
        h.get_all_by_label(name).map(|n| n.rect().center()).filter(|p| p.x > 400.0 && p.x < 1100.0).collect();
    rows.sort_by(|a, b| a.y.total_cmp(&b.y));
    rows
}

/// Clicks the Add button of a part's palette row.
pub fn click_add(h: &mut Harness<'static, App>, name: &str) {
    let row = palette_row(h, name);
    h.get_all_by_label("Add")
        .filter(|n| n.rect().center().x < 500.0)
        .min_by(|a, b| (a.rect().center().y - row.y).abs().total_cmp(&(b.rect().center().y - row.y).abs()))
        .expect("an Add button on the row")
        .click();
    h.run();
}

/// The single-line text field showing `value` (node names, the build name).
pub fn text_field<'h>(h: &'h Harness<'static, App>, value: &'h str) -> egui_kittest::Node<'h> {
    h.get_by(move |n| n.role() == egui::accesskit::Role::TextInput && n.value().as_deref() == Some(value))
}

/// Every widget with this label, top to bottom.
pub fn all_by_label<'h>(h: &'h Harness<'static, App>, label: &'h str) -> Vec<egui_kittest::Node<'h>> {
    let mut nodes: Vec<_> = h.get_all_by_label(label).collect();
    nodes.sort_by(|a, b| a.rect().center().y.total_cmp(&b.rect().center().y));
    nodes
}

/// A file dropped on the window.
#[derive(Debug)]
pub struct TestFile {
    pub path: PathBuf,
    pub bytes: Vec<u8>,
}

impl egui::DroppedFile for TestFile {
    fn path(&self) -> &Path {
        &self.path
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        Ok(self.bytes.clone())
    }
}

pub fn drop_file(h: &mut Harness<'static, App>, path: &Path, bytes: Vec<u8>) {
    h.input_mut().dropped_files.push(Arc::new(TestFile { path: path.to_path_buf(), bytes }));
    h.run();
}

/// Dialogs that answer from a script.
#[derive(Debug, Default)]
pub struct Scripted {
    pub open: Vec<PathBuf>,
    pub save: Vec<PathBuf>,
    pub png: Vec<PathBuf>,
    pub export: Vec<PathBuf>,
    /// config.json files to answer "Add model from config.json…" with.
    pub config: Vec<PathBuf>,
    pub price_list: Vec<PathBuf>,
    /// The file names the app suggested for exports, in order.
    pub suggested: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Dialogs for Scripted {
    fn pick_open(&mut self) -> Option<PathBuf> {
        (!self.open.is_empty()).then(|| self.open.remove(0))
    }
    fn pick_save(&mut self, _suggested: &str) -> Option<PathBuf> {
        (!self.save.is_empty()).then(|| self.save.remove(0))
    }
    fn pick_png(&mut self, _suggested: &str) -> Option<PathBuf> {
        (!self.png.is_empty()).then(|| self.png.remove(0))
    }
    fn pick_config(&mut self) -> Option<PathBuf> {
        (!self.config.is_empty()).then(|| self.config.remove(0))
    }
    fn pick_export(&mut self, suggested: &str, _file_type: &str, _extension: &str) -> Option<PathBuf> {
        if let Ok(mut s) = self.suggested.lock() {
            s.push(suggested.to_owned());
        }
        (!self.export.is_empty()).then(|| self.export.remove(0))
    }
    fn pick_price_list(&mut self) -> Option<PathBuf> {
        (!self.price_list.is_empty()).then(|| self.price_list.remove(0))
    }
}

/// The text of the notice banner, if one shows.
pub fn notice(h: &Harness<'static, App>) -> Option<String> {
    state(h).view.notice.as_ref().map(|n| n.text.clone())
}

/// The rect of the first "Save as PNG…" button below `top`: the bottom-right corner of the plot
/// a heading at `top` titles (its legend and save button sit under it), for hovering the plot.
pub fn save_button_below(h: &Harness<'static, App>, top: f32) -> egui::Rect {
    h.get_all_by_label("Save as PNG…")
        .map(|n| n.rect())
        .filter(|r| r.top() > top)
        .min_by(|a, b| a.top().total_cmp(&b.top()))
        .expect("the plot's save button")
}

/// Hovers each widget whose label contains `label` until one shows `expected`.
pub fn hover_shows(h: &mut Harness<'static, App>, label: &str, expected: &str) -> bool {
    let centers: Vec<Pos2> = h.get_all_by_label_contains(label).map(|n| n.rect().center()).collect();
    for c in centers {
        h.hover_at(c);
        h.run();
        if h.query_by_label_contains(expected).is_some() {
            return true;
        }
    }
    false
}
