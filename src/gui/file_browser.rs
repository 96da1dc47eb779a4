//! The built-in file browser: what every file action uses when the system's file dialog cannot
//! open (a bare X server has no desktop portal and no zenity), or always if the user prefers it
//! (View → "Always use the built-in file browser").
//!
//! Theory of operation. [`crate::gui::apply`] opens a [`FileBrowser`] for a [`FileRequest`]
//! (what the path is for); the frame loop lays it out as a modal window each frame, and when
//! the user confirms or cancels, [`FileBrowser::ui`] returns an [`Outcome`] that the loop turns
//! into a command: `apply` then maps the request and the chosen path to the command that takes
//! the path (open, save as, export …), exactly as a native dialog's answer would be. The
//! browser lists one folder at a time (read once per folder, not per frame): folders first,
//! then the files of the request's types (or all files), with Up, Home and the folders of
//! recent files to jump to. A file name field takes a name, a path or `~/…`; Enter confirms,
//! Escape cancels. Saving adds the type's extension when the name has none of the type's, and
//! asks before replacing a file. Problems (no such file, unreadable folder) show inline.

use crate::core::export::{CompareFormat, Format};
use crate::gui::text::{Texts, fill};
use std::path::{Path, PathBuf};

/// Entries listed at most per folder: a folder with more lists the first ones by name.
pub const MAX_ENTRIES: usize = 5_000;

/// What a path is asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum FileRequest {
    Open,
    SaveAs,
    Export(Format),
    /// A plot's screen region to save as PNG.
    Png {
        rect: egui::Rect,
    },
    CompareAdd,
    CompareExport(CompareFormat),
    ModelConfig,
    PriceList,
    /// A catalog folder, chosen by one of its `.ron` files.
    CatalogFolder,
}

impl FileRequest {
    /// True when the path is written (save, export); false when it is read.
    #[must_use]
    pub fn saves(&self) -> bool {
        matches!(self, Self::SaveAs | Self::Export(_) | Self::Png { .. } | Self::CompareExport(_))
    }

    /// The file types the request is for, by extension (the first is added when saving).
    #[must_use]
    pub fn extensions(&self) -> Vec<&'static str> {
        match self {
            Self::Open | Self::SaveAs | Self::CompareAdd | Self::CatalogFolder => vec!["ron"],
            Self::Export(f) => vec![f.extension()],
            Self::CompareExport(f) => vec![f.extension()],
            Self::Png { .. } => vec!["png"],
            Self::ModelConfig => vec!["json"],
            Self::PriceList => vec!["csv", "xlsx", "xls", "ods"],
        }
    }

    fn title(&self, t: &Texts) -> String {
        let tt = t.tools;
        match self {
            Self::Open => tt.browse_open.to_owned(),
            Self::SaveAs => tt.browse_save.to_owned(),
            Self::Export(f) => fill(tt.browse_export, &[&f.extension().to_uppercase()]),
            Self::CompareExport(f) => fill(tt.browse_export, &[&f.extension().to_uppercase()]),
            Self::Png { .. } => tt.browse_png.to_owned(),
            Self::CompareAdd => tt.browse_compare_add.to_owned(),
            Self::ModelConfig => tt.browse_config.to_owned(),
            Self::PriceList => tt.browse_prices.to_owned(),
            Self::CatalogFolder => t.fixes.browse_catalog_folder.to_owned(),
        }
    }
}

/// How the browser closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Chosen(PathBuf),
    Cancelled,
}

/// One listed entry.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    name: String,
    is_dir: bool,
}

/// The browser's state: the request, the folder shown, the name typed, and what went wrong.
#[derive(Debug)]
pub struct FileBrowser {
    pub request: FileRequest,
    pub dir: PathBuf,
    pub name: String,
    /// Why the system's dialog did not open, shown at the top; None when the user prefers this
    /// browser.
    pub fallback: Option<String>,
    pub show_all: bool,
    /// An inline problem (no such file, unreadable folder).
    pub error: Option<String>,
    /// A file about to be replaced, waiting for "Replace".
    pub confirm_replace: Option<PathBuf>,
    suggested: String,
    recent_dirs: Vec<PathBuf>,
    home: Option<PathBuf>,
    listing: Option<(PathBuf, Result<Vec<Entry>, String>)>,
    focus_name: bool,
}

/// The user's home folder.
#[must_use]
pub fn home_dir() -> Option<PathBuf> {
    directories::BaseDirs::new().map(|d| d.home_dir().to_path_buf())
}

impl FileBrowser {
    /// A browser for `request`, showing `dir`, with `suggested` in the name field, and the
    /// folders of `recent_files` to jump to.
    #[must_use]
    pub fn new(
        request: FileRequest,
        dir: PathBuf,
        suggested: &str,
        recent_files: &[PathBuf],
        fallback: Option<String>,
    ) -> Self {
        let mut recent_dirs: Vec<PathBuf> = Vec::new();
        for d in recent_files.iter().filter_map(|f| f.parent()) {
            if !d.as_os_str().is_empty() && !recent_dirs.iter().any(|r| r == d) {
                recent_dirs.push(d.to_path_buf());
            }
        }
        Self {
            request,
            dir,
            name: suggested.to_owned(),
            fallback,
            show_all: false,
            error: None,
            confirm_replace: None,
            suggested: suggested.to_owned(),
            recent_dirs,
            home: home_dir(),
            listing: None,
            focus_name: true,
        }
    }

    /// Shows another folder.
    pub fn go_to(&mut self, dir: PathBuf) {
        self.dir = dir;
        self.error = None;
        self.confirm_replace = None;
    }

    /// Reads the folder if it is not the one listed.
    fn refresh(&mut self) {
        if self.listing.as_ref().is_some_and(|(d, _)| *d == self.dir) {
            return;
        }
        let read = std::fs::read_dir(&self.dir).map_err(|e| e.to_string()).map(|entries| {
            let mut list: Vec<Entry> = entries
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    // Hidden files stay hidden, as in the system's dialogs.
                    (!name.starts_with('.')).then(|| Entry { is_dir: e.path().is_dir(), name })
                })
                .collect();
            list.sort_by(|a, b| {
                b.is_dir.cmp(&a.is_dir).then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
            });
            list.truncate(MAX_ENTRIES);
            list
        });
        self.listing = Some((self.dir.clone(), read));
    }

    fn matches(&self, name: &str) -> bool {
        self.show_all || has_extension(Path::new(name), &self.request.extensions())
    }

    /// The path the name field names: a name in the folder shown, an absolute path, or
    /// `~/…`; when saving, with the request's extension added if it has none of them.
    fn target(&self) -> Option<PathBuf> {
        let name = self.name.trim();
        if name.is_empty() {
            return None;
        }
        let path = match (name.strip_prefix("~/"), &self.home) {
            (Some(rest), Some(home)) => home.join(rest),
            _ => self.dir.join(name),
        };
        let extensions = self.request.extensions();
        if self.request.saves() && !path.is_dir() && !has_extension(&path, &extensions) {
            let ext = extensions.first().copied().unwrap_or_default();
            let mut s = path.into_os_string();
            s.push(".");
            s.push(ext);
            return Some(PathBuf::from(s));
        }
        Some(path)
    }

    /// Confirms the name typed: enters a folder, or chooses the file (asking before replacing
    /// one), or says what is wrong.
    pub fn confirm(&mut self, t: &Texts) -> Option<Outcome> {
        let tt = t.tools;
        let Some(path) = self.target() else {
            self.error = Some(tt.browse_no_name.to_owned());
            return None;
        };
        if path.is_dir() {
            self.go_to(path);
            self.name = if self.request.saves() { self.suggested.clone() } else { String::new() };
            return None;
        }
        if self.request.saves() {
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
            if parent.is_some_and(|p| !p.is_dir()) {
                let shown = parent.map(|p| p.display().to_string()).unwrap_or_default();
                self.error = Some(fill(tt.browse_no_folder, &[&shown]));
                return None;
            }
            if path.exists() && self.confirm_replace.as_ref() != Some(&path) {
                self.confirm_replace = Some(path);
                return None;
            }
            return Some(Outcome::Chosen(path));
        }
        if path.is_file() {
            Some(Outcome::Chosen(path))
        } else {
            self.error = Some(fill(tt.browse_not_found, &[&path.display()]));
            None
        }
    }

    /// Lays the browser out as a modal window; returns how it closed, if it did.
    pub fn ui(&mut self, ctx: &egui::Context, t: &Texts, error_color: egui::Color32) -> Option<Outcome> {
        self.refresh();
        let tt = t.tools;
        let saves = self.request.saves();
        let mut outcome = None;
        let modal = egui::Modal::new(egui::Id::unique("file-browser")).show(ctx, |ui| {
            ui.set_width(620.0);
            ui.heading(self.request.title(t));
            if let Some(why) = &self.fallback {
                ui.add(egui::Label::new(egui::RichText::new(fill(tt.browse_fallback, &[why])).weak()).wrap());
            }
            ui.add_space(4.0);
            self.places(ui, t);
            ui.add_space(4.0);
            self.list(ui, t, &mut outcome);
            ui.add_space(4.0);
            ui.horizontal(|ui| {
                let label = ui.label(tt.browse_file_name);
                let field =
                    ui.add(egui::TextEdit::singleline(&mut self.name).desired_width(440.0)).labelled_by(label.id);
                if std::mem::take(&mut self.focus_name) {
                    field.request_focus();
                }
                if field.changed() {
                    self.error = None;
                    self.confirm_replace = None;
                }
            });
            let exts = self.request.extensions().iter().map(|e| format!(".{e}")).collect::<Vec<_>>().join(" ");
            ui.horizontal(|ui| {
                ui.weak(fill(tt.browse_only, &[&exts]));
                if ui.checkbox(&mut self.show_all, tt.browse_show_all).changed() {
                    self.error = None;
                }
            });
            if let Some(e) = &self.error {
                ui.add(egui::Label::new(egui::RichText::new(e).color(error_color)).wrap());
            }
            ui.add_space(6.0);
            let enter = ui.input(|i| i.key_pressed(egui::Key::Enter));
            if let Some(existing) = self.confirm_replace.clone() {
                let file = existing.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                ui.colored_label(error_color, fill(tt.browse_exists, &[&file]));
                ui.horizontal(|ui| {
                    if ui.button(tt.browse_replace).clicked() || enter {
                        outcome = Some(Outcome::Chosen(existing));
                    }
                    if ui.button(t.cancel).clicked() {
                        self.confirm_replace = None;
                    }
                });
            } else {
                ui.horizontal(|ui| {
                    let confirm = if saves { tt.browse_confirm_save } else { tt.browse_confirm_open };
                    if ui.button(confirm).clicked() || enter {
                        outcome = outcome.take().or_else(|| self.confirm(t));
                    }
                    if ui.button(t.cancel).clicked() {
                        outcome = Some(Outcome::Cancelled);
                    }
                });
            }
        });
        if outcome.is_none() && modal.should_close() {
            outcome = Some(Outcome::Cancelled);
        }
        outcome
    }

    /// Up, Home, recent folders, and the folder shown.
    fn places(&mut self, ui: &mut egui::Ui, t: &Texts) {
        let tt = t.tools;
        ui.horizontal(|ui| {
            let parent = self.dir.parent().map(Path::to_path_buf);
            if ui.add_enabled(parent.is_some(), egui::Button::new(tt.browse_up)).clicked()
                && let Some(p) = parent
            {
                self.go_to(p);
            }
            if let Some(home) = self.home.clone()
                && ui.button(tt.browse_home).clicked()
            {
                self.go_to(home);
            }
            let recent = self.recent_dirs.clone();
            ui.add_enabled_ui(!recent.is_empty(), |ui| {
                ui.menu_button(tt.browse_recent, |ui| {
                    for d in recent {
                        if ui.button(d.display().to_string()).clicked() {
                            self.go_to(d);
                            ui.close();
                        }
                    }
                });
            });
        });
        ui.horizontal(|ui| {
            ui.weak(tt.browse_folder);
            ui.add(egui::Label::new(self.dir.display().to_string()).truncate());
        });
    }

    /// The folder's entries: a click on a folder enters it, on a file takes its name, a double
    /// click on a file chooses it.
    fn list(&mut self, ui: &mut egui::Ui, t: &Texts, outcome: &mut Option<Outcome>) {
        let tt = t.tools;
        let entries: Vec<Entry> = match &self.listing {
            Some((_, Ok(list))) => list.iter().filter(|e| e.is_dir || self.matches(&e.name)).cloned().collect(),
            Some((dir, Err(e))) => {
                let message = fill(tt.browse_unreadable, &[&dir.display(), e]);
                ui.colored_label(ui.visuals().error_fg_color, message);
                Vec::new()
            }
            None => Vec::new(),
        };
        let row_height = ui.spacing().interact_size.y;
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_min_height(260.0);
            if entries.is_empty() {
                ui.weak(tt.browse_empty);
            }
            egui::ScrollArea::vertical().max_height(260.0).auto_shrink([false, true]).show_rows(
                ui,
                row_height,
                entries.len(),
                |ui, rows| {
                    for e in entries.get(rows).unwrap_or_default() {
                        let shown = if e.is_dir { format!("{}/", e.name) } else { e.name.clone() };
                        let selected = !e.is_dir && self.name == e.name;
                        let r = ui.selectable_label(selected, shown);
                        if e.is_dir && r.clicked() {
                            self.go_to(self.dir.join(&e.name));
                        } else if r.double_clicked() {
                            self.name.clone_from(&e.name);
                            *outcome = self.confirm(t);
                        } else if r.clicked() {
                            self.name.clone_from(&e.name);
                            self.error = None;
                            self.confirm_replace = None;
                        }
                    }
                },
            );
        });
    }
}

/// True when the path's extension is one of `extensions` (any case).
#[must_use]
pub fn has_extension(path: &Path, extensions: &[&str]) -> bool {
    path.extension().is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::text::EN;

    fn browser(request: FileRequest, dir: &Path, name: &str) -> FileBrowser {
        FileBrowser::new(request, dir.to_path_buf(), name, &[], None)
    }

    #[test]
    fn saving_adds_the_extension_and_asks_before_replacing() {
        let dir = tempfile::tempdir().unwrap();
        let mut b = browser(FileRequest::SaveAs, dir.path(), "rig");
        assert_eq!(b.confirm(&EN), Some(Outcome::Chosen(dir.path().join("rig.ron"))));
        // A dot in the name is not an extension of the type.
        b.name = "v1.2".into();
        assert_eq!(b.confirm(&EN), Some(Outcome::Chosen(dir.path().join("v1.2.ron"))));
        std::fs::write(dir.path().join("rig.ron"), "x").unwrap();
        b.name = "rig.ron".into();
        assert_eq!(b.confirm(&EN), None, "asks first");
        assert_eq!(b.confirm_replace, Some(dir.path().join("rig.ron")));
        assert_eq!(b.confirm(&EN), Some(Outcome::Chosen(dir.path().join("rig.ron"))), "confirmed");
    }

    #[test]
    fn opening_needs_an_existing_file_and_a_folder_name_enters_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("sub/a.ron"), "x").unwrap();
        std::fs::write(dir.path().join("sub/b.txt"), "x").unwrap();
        let mut b = browser(FileRequest::Open, dir.path(), "");
        assert_eq!(b.confirm(&EN), None);
        assert_eq!(b.error.as_deref(), Some(EN.tools.browse_no_name));
        b.name = "sub".into();
        assert_eq!(b.confirm(&EN), None);
        assert_eq!(b.dir, dir.path().join("sub"));
        assert_eq!(b.name, "");
        b.name = "missing.ron".into();
        assert_eq!(b.confirm(&EN), None);
        assert!(b.error.as_deref().is_some_and(|e| e.contains("missing.ron")), "{:?}", b.error);
        b.refresh();
        let shown: Vec<&str> = match &b.listing {
            Some((_, Ok(list))) => list.iter().filter(|e| b.matches(&e.name)).map(|e| e.name.as_str()).collect(),
            _ => panic!("listed"),
        };
        assert_eq!(shown, ["a.ron"], "the type filter hides b.txt");
        b.name = "a.ron".into();
        assert_eq!(b.confirm(&EN), Some(Outcome::Chosen(dir.path().join("sub/a.ron"))));
    }

    #[test]
    fn saving_into_a_missing_folder_is_refused_inline() {
        let dir = tempfile::tempdir().unwrap();
        let mut b = browser(FileRequest::Export(Format::Csv), dir.path(), "nope/sheet");
        assert_eq!(b.confirm(&EN), None);
        assert!(b.error.as_deref().is_some_and(|e| e.contains("nope")), "{:?}", b.error);
    }
}
