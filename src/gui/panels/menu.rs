//! The menu bar: File (with Export ▸ each build-sheet format), Edit, View (with the compare
//! view), Help. Every item pushes a command.

use crate::core::export::Format;
use crate::core::i18n::Lang;
use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::text::fill;
use crate::gui::theme::ThemeChoice;
use crate::gui::vocab::MainView;
use egui::{Button, Key, KeyboardShortcut, Modifiers};

const SHIFT_CMD: Modifiers = Modifiers { shift: true, ..Modifiers::COMMAND };

fn item(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, label: &str, shortcut: Option<(Modifiers, Key)>, command: Command) {
    item_enabled(ui, fx, true, label, shortcut, command);
}

fn item_enabled(
    ui: &mut egui::Ui,
    fx: &mut FrameCtx<'_>,
    enabled: bool,
    label: &str,
    shortcut: Option<(Modifiers, Key)>,
    command: Command,
) {
    let mut button = Button::new(label);
    if let Some((m, k)) = shortcut {
        button = button.shortcut_text(ui.ctx().format_shortcut(&KeyboardShortcut::new(m, k)));
    }
    if ui.add_enabled(enabled, button).clicked() {
        fx.push(command);
        ui.close();
    }
}

/// The top panel with the menu bar.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let t = fx.texts;
    egui::Panel::top("menu").show(ui, |ui| {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button(t.menu_file, |ui| {
                item(ui, fx, t.file_new, Some((Modifiers::COMMAND, Key::N)), Command::New(None));
                let templates = fx.template_names;
                ui.menu_button(t.file_new_from_template, |ui| {
                    for (slug, name) in templates {
                        item(ui, fx, name, None, Command::New(Some(slug)));
                    }
                });
                item(ui, fx, t.file_open, Some((Modifiers::COMMAND, Key::O)), Command::PickOpen);
                let recent = fx.prefs.recent_files.clone();
                ui.add_enabled_ui(!recent.is_empty(), |ui| {
                    ui.menu_button(t.file_open_recent, |ui| {
                        for path in recent {
                            let label = path.display().to_string();
                            item(ui, fx, &label, None, Command::Open(path));
                        }
                    });
                });
                ui.separator();
                item(ui, fx, t.file_save, Some((Modifiers::COMMAND, Key::S)), Command::Save);
                item(ui, fx, t.file_save_as, Some((SHIFT_CMD, Key::S)), Command::PickSaveAs);
                ui.menu_button(t.file_export, |ui| {
                    for (format, label) in Format::ALL.into_iter().zip(t.export_formats) {
                        item(ui, fx, label, None, Command::PickExport(format));
                    }
                });
                item(ui, fx, t.tools.print_sheet, Some((Modifiers::COMMAND, Key::P)), Command::PrintSheet);
                item(ui, fx, t.file_import_prices, None, Command::PickImportPrices);
                item(ui, fx, t.fixes.catalog_folders, None, Command::ShowCatalogFolders(true));
                ui.separator();
                item(ui, fx, t.file_quit, None, Command::Quit);
            });
            ui.menu_button(t.menu_edit, |ui| {
                let (can_undo, can_redo) = (fx.doc.can_undo(), fx.doc.can_redo());
                item_enabled(ui, fx, can_undo, t.edit_undo, Some((Modifiers::COMMAND, Key::Z)), Command::Undo);
                item_enabled(ui, fx, can_redo, t.edit_redo, Some((SHIFT_CMD, Key::Z)), Command::Redo);
                ui.separator();
                item(ui, fx, t.tools.copy_markdown, None, Command::CopyPartsMarkdown);
                ui.separator();
                item(ui, fx, t.edit_add_node, None, Command::AddNode);
                let has_sel = fx.view.selected_line.is_some();
                item_enabled(
                    ui,
                    fx,
                    has_sel,
                    t.edit_remove_part,
                    Some((Modifiers::NONE, Key::Delete)),
                    Command::RemoveSelected,
                );
            });
            ui.menu_button(t.menu_view, |ui| {
                ui.label(t.view_theme);
                for (choice, label) in [
                    (ThemeChoice::System, t.theme_system),
                    (ThemeChoice::Dark, t.theme_dark),
                    (ThemeChoice::Light, t.theme_light),
                ] {
                    if ui.radio(fx.prefs.theme == choice, label).clicked() {
                        fx.push(Command::SetTheme(choice));
                        ui.close();
                    }
                }
                ui.separator();
                ui.label(t.view_language);
                for lang in Lang::ALL {
                    if ui.radio(fx.lang == lang, lang.native_name()).clicked() {
                        fx.push(Command::SetLanguage(lang));
                        ui.close();
                    }
                }
                ui.separator();
                let mut palette = fx.prefs.show_palette;
                if ui.checkbox(&mut palette, t.view_palette).clicked() {
                    fx.push(Command::TogglePalette);
                }
                let mut analysis = fx.prefs.show_analysis;
                if ui.checkbox(&mut analysis, t.view_analysis).clicked() {
                    fx.push(Command::ToggleAnalysis);
                }
                let mut builtin = fx.prefs.builtin_file_browser;
                if ui.checkbox(&mut builtin, t.tools.view_builtin_browser).clicked() {
                    fx.push(Command::SetBuiltinFileBrowser(builtin));
                }
                ui.separator();
                let zoom = fx.prefs.ui_zoom;
                ui.weak(fill(t.tools.view_zoom, &[&format!("{:.0}", zoom * 100.0)]));
                let step = crate::gui::prefs::ZOOM_STEP;
                item(
                    ui,
                    fx,
                    t.tools.view_zoom_in,
                    Some((Modifiers::COMMAND, Key::Plus)),
                    Command::SetZoom(zoom + step),
                );
                item(
                    ui,
                    fx,
                    t.tools.view_zoom_out,
                    Some((Modifiers::COMMAND, Key::Minus)),
                    Command::SetZoom(zoom - step),
                );
                item(ui, fx, t.tools.view_zoom_reset, Some((Modifiers::COMMAND, Key::Num0)), Command::SetZoom(1.0));
                ui.separator();
                ui.horizontal(|ui| {
                    let label = ui.label(t.view_stale_months);
                    let mut months = fx.prefs.stale_after_months;
                    let range = 1..=crate::core::analysis::prices::MAX_STALE_AFTER_MONTHS;
                    if ui.add(egui::DragValue::new(&mut months).range(range)).labelled_by(label.id).changed() {
                        fx.push(Command::SetStaleMonths(months));
                    }
                });
                ui.separator();
                let view = fx.prefs.main_view;
                if view != MainView::Build {
                    item(ui, fx, t.view_back_to_build, None, Command::ShowView(MainView::Build));
                }
                if view != MainView::Compare {
                    item(ui, fx, t.view_compare, None, Command::ShowView(MainView::Compare));
                }
                if view != MainView::Advisor {
                    item(ui, fx, t.advisor.menu_item, None, Command::ShowView(MainView::Advisor));
                }
            });
            ui.menu_button(t.menu_help, |ui| {
                item(ui, fx, t.accuracy.menu_item, None, Command::ShowAccuracy(true));
                item(ui, fx, &fill(t.help_about, &[&t.app_name]), None, Command::ShowAbout(true));
            });
        });
    });
}
