//! Modal dialogs: a file error, "save changes first?", the crash-recovery offer, a price-list
//! import's outcome, About, File → Catalog folders….

use crate::gui::command::{Command, PromptChoice};
use crate::gui::context::FrameCtx;
use crate::gui::text::fill;
use crate::gui::view::Pending;
use egui::{Id, Modal, RichText};

/// Shows whichever dialog is due, most urgent first (one at a time).
pub fn ui(ctx: &egui::Context, fx: &mut FrameCtx<'_>) {
    if fx.view.error.is_some() {
        error(ctx, fx);
    } else if fx.view.prompt.is_some() {
        prompt(ctx, fx);
    } else if fx.recovery.offer().is_some() {
        recovery(ctx, fx);
    } else if fx.view.import_report.is_some() {
        import_report(ctx, fx);
    } else if fx.view.about_open {
        about(ctx, fx);
    } else if fx.view.catalog_folders_open {
        catalog_folders(ctx, fx);
    }
}

/// File → Catalog folders…: the folders laid over the built-in catalog (kept with the
/// preferences), each removable; a folder added by the file dialog (or the built-in browser)
/// or by its typed path; the catalog reloaded on demand.
fn catalog_folders(ctx: &egui::Context, fx: &mut FrameCtx<'_>) {
    let f = fx.texts.fixes;
    let r = Modal::new(Id::unique("catalog-folders")).show(ctx, |ui| {
        ui.set_max_width(560.0);
        ui.heading(f.catalog_folders.trim_end_matches('…'));
        ui.add(egui::Label::new(f.catalog_folders_intro).wrap());
        ui.add_space(4.0);
        if fx.prefs.catalog_folders.is_empty() {
            ui.weak(f.catalog_folders_none);
        }
        for (i, dir) in fx.prefs.catalog_folders.iter().enumerate() {
            ui.horizontal(|ui| {
                if ui.small_button(f.remove).clicked() {
                    fx.push(Command::RemoveCatalogFolder(i));
                }
                ui.add(egui::Label::new(dir.display().to_string()).truncate());
            });
        }
        ui.add_space(4.0);
        let id = Id::unique("catalog-folder-path");
        let mut typed: String = ui.data(|d| d.get_temp(id)).unwrap_or_default();
        ui.horizontal(|ui| {
            let label = ui.label(f.catalog_folder_path);
            ui.add(egui::TextEdit::singleline(&mut typed).desired_width(320.0)).labelled_by(label.id);
            if ui.add_enabled(!typed.trim().is_empty(), egui::Button::new(f.catalog_folder_add_typed)).clicked() {
                fx.push(Command::AddCatalogFolder(std::path::PathBuf::from(typed.trim())));
                typed.clear();
            }
        });
        ui.data_mut(|d| d.insert_temp(id, typed));
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            if ui.button(f.catalog_folder_add).clicked() {
                fx.push(Command::PickCatalogFolder);
            }
            if ui.button(f.catalog_reload).clicked() {
                fx.push(Command::ReloadCatalog);
            }
            ui.button(f.close).clicked()
        })
        .inner
    });
    if r.inner || r.should_close() {
        fx.push(Command::ShowCatalogFolders(false));
    }
}

fn error(ctx: &egui::Context, fx: &mut FrameCtx<'_>) {
    let Some(e) = fx.view.error.clone() else { return };
    let t = fx.texts;
    let r = Modal::new(Id::unique("error-dialog")).show(ctx, |ui| {
        ui.set_max_width(560.0);
        ui.heading(RichText::new(&e.title).color(fx.tokens.error));
        ui.add_space(4.0);
        egui::ScrollArea::vertical().max_height(300.0).show(ui, |ui| {
            ui.add(egui::Label::new(RichText::new(&e.message).monospace()).wrap());
        });
        ui.add_space(4.0);
        ui.weak(t.error_build_untouched);
        ui.add_space(6.0);
        ui.button(t.ok).clicked()
    });
    if r.inner || r.should_close() {
        fx.push(Command::DismissError);
    }
}

/// What a price-list import matched (row, part, price) and what it did not (row, what the row
/// named, why), as [`crate::core::catalog::price_list::import_into_folder`] reported it.
fn import_report(ctx: &egui::Context, fx: &mut FrameCtx<'_>) {
    let Some(report) = &fx.view.import_report else { return };
    let t = fx.texts;
    let file = std::path::Path::new(&report.list)
        .file_name()
        .map_or_else(|| report.list.clone(), |n| n.to_string_lossy().into_owned());
    let [row_h, part_h, price_h, why_h] = t.import_columns;
    let r = Modal::new(Id::unique("import-dialog")).show(ctx, |ui| {
        ui.set_max_width(720.0);
        ui.heading(t.import_title);
        ui.add_space(4.0);
        match &report.written {
            Some(path) => {
                ui.label(fill(t.import_written, &[&report.outcome.matched.len(), &file, path, &report.entries]))
            }
            None => ui.label(fill(t.import_nothing, &[&file])),
        };
        egui::ScrollArea::vertical().max_height(360.0).show(ui, |ui| {
            if !report.outcome.matched.is_empty() {
                ui.add_space(6.0);
                ui.strong(format!("{} ({})", t.import_matched, report.outcome.matched.len()));
                egui::Grid::new("import-matched").striped(true).show(ui, |ui| {
                    for h in [row_h, part_h, price_h] {
                        ui.weak(h);
                    }
                    ui.end_row();
                    for m in &report.outcome.matched {
                        ui.label(m.row.to_string());
                        ui.label(&m.name).on_hover_text(m.part.as_str());
                        ui.label(format!(
                            "{} {} ({})",
                            crate::core::units::format_thousands(m.price.amount, 2),
                            m.price.currency,
                            m.price.date
                        ));
                        ui.end_row();
                    }
                });
            }
            if !report.outcome.unmatched.is_empty() {
                ui.add_space(6.0);
                ui.label(
                    RichText::new(format!("{} ({})", t.import_unmatched, report.outcome.unmatched.len()))
                        .strong()
                        .color(fx.tokens.warn),
                );
                egui::Grid::new("import-unmatched").striped(true).show(ui, |ui| {
                    for h in [row_h, part_h, why_h] {
                        ui.weak(h);
                    }
                    ui.end_row();
                    for u in &report.outcome.unmatched {
                        ui.label(u.row.to_string());
                        ui.label(&u.key);
                        ui.label(u.reason.render(fx.lang));
                        ui.end_row();
                    }
                });
            }
        });
        ui.add_space(6.0);
        ui.button(t.ok).clicked()
    });
    if r.inner || r.should_close() {
        fx.push(Command::DismissImportReport);
    }
}

fn prompt(ctx: &egui::Context, fx: &mut FrameCtx<'_>) {
    let Some(pending) = &fx.view.prompt else { return };
    let t = fx.texts;
    let action = match pending {
        Pending::New(_) | Pending::Adopt(..) => t.prompt_before_new,
        Pending::Open(_) | Pending::OpenBytes { .. } => t.prompt_before_open,
        Pending::Close => t.prompt_before_close,
        Pending::Restore(_) => t.prompt_before_restore,
    };
    let name = fx.doc.build().name.clone();
    let r = Modal::new(Id::unique("unsaved-dialog")).show(ctx, |ui| {
        ui.set_max_width(460.0);
        ui.heading(fill(t.prompt_title, &[&name]));
        ui.label(action);
        ui.add_space(8.0);
        let mut choice = None;
        ui.horizontal(|ui| {
            if ui.button(t.prompt_save).clicked() {
                choice = Some(PromptChoice::Save);
            }
            if ui.button(t.prompt_discard).clicked() {
                choice = Some(PromptChoice::Discard);
            }
            if ui.button(t.cancel).clicked() {
                choice = Some(PromptChoice::Cancel);
            }
        });
        choice
    });
    let choice = r.inner.or_else(|| r.should_close().then_some(PromptChoice::Cancel));
    if let Some(c) = choice {
        fx.push(Command::Prompt(c));
    }
}

fn recovery(ctx: &egui::Context, fx: &mut FrameCtx<'_>) {
    let Some(found) = fx.recovery.offer() else { return };
    let t = fx.texts;
    let r = Modal::new(Id::unique("recovery-dialog")).show(ctx, |ui| {
        ui.set_max_width(480.0);
        ui.heading(t.recovery_title);
        ui.label(fill(t.recovery_body, &[&found.build.name]));
        if let Some(p) = &found.original_path {
            ui.weak(fill(t.recovery_from, &[&p.display()]));
        }
        ui.weak(found.file.display().to_string());
        ui.add_space(8.0);
        let mut cmd = None;
        ui.horizontal(|ui| {
            if ui.button(t.recovery_restore).clicked() {
                cmd = Some(Command::RestoreRecovery);
            }
            if ui.button(t.recovery_discard).clicked() {
                cmd = Some(Command::DiscardRecovery);
            }
        });
        cmd
    });
    if let Some(c) = r.inner {
        fx.push(c);
    }
}

fn about(ctx: &egui::Context, fx: &mut FrameCtx<'_>) {
    let t = fx.texts;
    let r = Modal::new(Id::unique("about-dialog")).show(ctx, |ui| {
        ui.set_max_width(440.0);
        ui.horizontal(|ui| {
            if let Some(app) = &fx.icons.app {
                ui.add(egui::Image::new(egui::load::SizedTexture::new(app.id(), egui::vec2(48.0, 48.0))));
            }
            ui.vertical(|ui| {
                ui.heading(t.app_name);
                ui.weak(fill(t.about_version, &[&env!("CARGO_PKG_VERSION")]));
            });
        });
        ui.label(t.about_body);
        ui.add_space(4.0);
        ui.label(RichText::new(t.about_shortcuts).strong());
        egui::Grid::new("shortcuts").num_columns(2).show(ui, |ui| {
            for (keys, what) in t.shortcuts {
                ui.monospace(*keys);
                ui.label(*what);
                ui.end_row();
            }
        });
        ui.add_space(6.0);
        ui.button(t.ok).clicked()
    });
    if r.inner || r.should_close() {
        fx.push(Command::ShowAbout(false));
    }
}
