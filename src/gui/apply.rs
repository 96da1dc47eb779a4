//! The one function that changes the app: [`apply`] takes a [`Command`] and changes the
//! document, the view state, the preferences, the compare view's builds and the window
//! requests accordingly. Nothing else writes them once the app has started.
//!
//! Theory of operation. Document edits call the pure edit operations of the core ([`Build`]'s
//! methods and [`crate::core::placement::add_at`] / [`crate::core::placement::move_to`]) on a copy through
//! [`crate::gui::document::Document`]'s edit, which keeps the exact previous builds for undo and redo, the dirty flag
//! and the revision; when the revision moved, [`apply`] recomputes the derived data (the
//! analysis report, slot layouts) and drops the view state that referred to the old build.
//!
//! Drops, the Add button, a double-click and more units of a line (+, a set quantity) are all
//! checked by [`crate::core::placement::check_add`] / [`crate::core::placement::check_move`] /
//! [`crate::core::placement::check_quantity`] (in `apply/placement_checks.rs`)
//! before anything changes: a refused edit leaves the build as it was and says why. File commands take paths;
//! the dialogs that produce paths sit behind [`crate::gui::dialogs::Dialogs`], so every file
//! path is testable without a dialog. Exports render the cached report (build sheets) or the
//! cached comparison with the core's exporters and write the bytes atomically; they never
//! analyse again.

use crate::core::analysis::Report;
use crate::core::analysis::prices::MAX_STALE_AFTER_MONTHS;
use crate::core::build::{Build, Location, NodeGroup};
use crate::core::catalog::{Catalog, hf_config, price_list};
use crate::core::export::{self, BuildSheet};
use crate::core::persist;
use crate::core::placement::Target;
use crate::core::templates;
use crate::core::units::format_thousands;
use crate::gui::command::{Command, PromptChoice};
use crate::gui::compare::{CompareEntry, CompareSource};
use crate::gui::document::Coalesce;
use crate::gui::file_browser::{FileRequest, Outcome};
use crate::gui::state::AppState;
use crate::gui::text::fill;
use crate::gui::view::Pending;
use crate::gui::vocab::{ErrorView, LineSel, Notice, NoticeKind, ScrollTarget};
use std::path::{Path, PathBuf};

mod catalog;
mod files;
mod placement_checks;
mod settings;

use catalog::recompute;
use placement_checks::{add_checked, drop_on, remove_line, report_edit, set_quantity_checked};

use files::{compare_format_file_type, export_comparison, export_sheet, format_file_type, pick, print_sheet, today};

/// Most recent files remembered.
pub const MAX_RECENT_FILES: usize = 10;

/// Applies one command. The only place where app state changes.
pub fn apply(state: &mut AppState, command: Command) {
    let before = state.doc.revision();
    apply_inner(state, command);
    if state.doc.revision() != before {
        after_document_change(state);
    }
}

/// Brings derived data up to date after the build changed, and drops the view state that
/// referred to the old build.
fn after_document_change(state: &mut AppState) {
    recompute(state);
    state.view.highlight = None;
    state.view.scroll_to = None;
    state.drop_preview = None;
    if let Some(sel) = state.view.selected_line {
        let exists = state.doc.build().lines(sel.at).is_some_and(|l| sel.line < l.len());
        if !exists {
            state.view.selected_line = None;
        }
    }
    let node_exists = match state.view.selected_node {
        Location::Node(i) => i < state.doc.build().nodes.len(),
        Location::Cluster => true,
    };
    if !node_exists {
        state.view.selected_node = Location::Node(0);
    }
}

/// Reads a model's config.json, appends the model to the user catalog's models.ron and loads
/// the catalog again, so that the fit matrix lists it. Any failure (no folder to store in, a
/// config the reader cannot take, a models.ron that does not load) is shown and changes
/// nothing: the file is written only once the new text loads.
fn add_model_from_config(state: &mut AppState, path: &Path) {
    let t = state.texts;
    let outcome = (|| -> Result<String, String> {
        let dir = state.user_catalog_dir.clone().ok_or_else(|| t.model_add_no_folder.to_owned())?;
        let imported = hf_config::read_config_file(path).map_err(|e| e.to_string())?;
        let (file, model) = hf_config::store_in_user_catalog(&dir, &imported.model).map_err(|e| e.to_string())?;
        let catalog = Catalog::load_with_overlays(&catalog::catalog_dirs(state)).map_err(|e| e.to_string())?;
        state.catalog = catalog;
        state.accuracy = None;
        let params = format_thousands(model.total_params() as f64 / 1.0e9, 2);
        Ok(fill(t.model_added, &[&model.name, &params, &file.display()]))
    })();
    match outcome {
        Ok(message) => {
            recompute(state);
            state.compared = None;
            state.advised = None;
            state.view.notice = Some(Notice::info(&message));
        }
        Err(message) => state.view.error = Some(ErrorView { title: t.model_add_failed.to_owned(), message }),
    }
}

/// Imports a price list into the user catalog folder, reloads the catalog from it (the
/// palette and the analyses then use the new prices) and shows what matched and what did not;
/// a list that cannot be used, or a folder that cannot be written, shows its error and changes
/// nothing.
fn import_prices(state: &mut AppState, path: &Path) {
    let t = state.texts;
    let Some(dir) = state.user_catalog_dir.clone() else {
        state.view.error =
            Some(ErrorView { title: t.import_failed.to_owned(), message: t.import_no_folder.to_owned() });
        return;
    };
    match price_list::import_into_folder(&state.catalog, path, &dir) {
        Ok(mut report) => {
            report.outcome.localize(state.lang);
            if report.written.is_some() {
                catalog::reload(state);
            }
            state.view.import_report = Some(report);
        }
        Err(e) => state.view.error = Some(ErrorView { title: t.import_failed.to_owned(), message: e.to_string() }),
    }
}

fn apply_inner(state: &mut AppState, command: Command) {
    let t = state.texts;
    match command {
        Command::Drop { payload, target } => drop_on(state, payload, target),
        Command::AddToSelected(part) => {
            let target = match state.view.selected_node {
                Location::Node(i) => Target::Node(i),
                Location::Cluster => Target::Cluster,
            };
            add_checked(state, target, &part);
        }
        Command::RemoveLine(sel) => remove_line(state, sel),
        Command::RemoveSelected => {
            if let Some(sel) = state.view.selected_line {
                remove_line(state, sel);
            }
        }
        Command::SetQuantity { sel, quantity } => set_quantity_checked(state, sel, quantity),
        Command::AddNode => {
            let name = fill(t.node_default_name, &[&(state.doc.build().nodes.len() + 1)]);
            let r = state.doc.edit(None, |b| b.add_node(NodeGroup::new(name)));
            if let Ok(i) = r {
                state.view.selected_node = Location::Node(i);
            }
            report_edit(state, r.map(|_| ()));
        }
        Command::DuplicateNode(i) => {
            let r = state.doc.edit(None, |b| b.duplicate_node(i));
            if let Ok(j) = r {
                state.view.selected_node = Location::Node(j);
            }
            report_edit(state, r.map(|_| ()));
        }
        Command::RemoveNode(i) => {
            let r = state.doc.edit(None, |b| b.remove_node(i));
            report_edit(state, r.map(|_| ()));
        }
        Command::RenameNode(i, name) => {
            let r = state.doc.edit(Some(Coalesce::RenameNode(i)), |b| b.rename_node(i, &name));
            report_edit(state, r);
        }
        Command::SetNodeCount(i, count) => {
            let r = state.doc.edit(Some(Coalesce::NodeCount(i)), |b| b.set_node_count(i, count));
            report_edit(state, r);
        }
        Command::SetNodeNvlink(i, on) => {
            let r = state.doc.edit(None, |b| b.set_nvlink_bridge(i, on));
            report_edit(state, r);
        }
        Command::SetNodeRedundancy(i, redundancy) => {
            let r = state.doc.edit(None, |b| b.set_psu_redundancy(i, redundancy));
            report_edit(state, r);
        }
        Command::RenameBuild(name) => {
            let name: String = name.chars().take(crate::core::build::MAX_TEXT_CHARS).collect();
            let r = state.doc.edit(Some(Coalesce::RenameBuild), |b| {
                b.name = name;
                Ok(())
            });
            report_edit(state, r);
        }
        Command::SetSetting(setting) => settings::set_setting_checked(state, &setting),
        Command::AddCustomOffer(offer) => settings::add_custom_offer(state, &offer),
        Command::RemoveCustomOffer(i) => settings::remove_custom_offer(state, i),
        Command::SetPriceOverride(part, price) => settings::set_price_override(state, &part, price),
        // A message about the edit undone ("Added …", a refusal) no longer holds: it goes.
        Command::Undo => {
            state.view.notice = (!state.doc.undo()).then(|| Notice::info(t.nothing_to_undo));
        }
        Command::Redo => {
            state.view.notice = (!state.doc.redo()).then(|| Notice::info(t.nothing_to_redo));
        }
        Command::New(template) => guarded(state, Pending::New(template)),
        Command::Open(path) => guarded(state, Pending::Open(path)),
        Command::OpenBytes { path, bytes } => guarded(state, Pending::OpenBytes { path, bytes }),
        Command::PickOpen => {
            if let Some(path) = pick(state, FileRequest::Open, "", |d| d.pick_open()) {
                apply_inner(state, Command::Open(path));
            }
        }
        Command::Save => {
            save(state);
        }
        Command::SaveAs(path) => {
            if save_to(state, &with_ron_extension(path))
                && let Some(pending) = state.view.after_save.take()
            {
                perform(state, pending);
            }
        }
        Command::PickSaveAs => {
            pick_and_save(state);
        }
        Command::Quit => guarded(state, Pending::Close),
        Command::Prompt(choice) => {
            let Some(pending) = state.view.prompt.take() else { return };
            match choice {
                PromptChoice::Cancel => {}
                PromptChoice::Discard => perform(state, pending),
                PromptChoice::Save => {
                    if save(state) {
                        perform(state, pending);
                    } else if state.file_browser.is_some() {
                        // The built-in browser asks where; the action waits for the save.
                        state.view.after_save = Some(pending);
                    }
                }
            }
        }
        Command::RestoreRecovery => {
            if let Some(found) = state.recovery.take_offer() {
                guarded(state, Pending::Restore(Box::new(found)));
            }
        }
        Command::DiscardRecovery => {
            if let Some(found) = state.recovery.take_offer()
                && let Err(e) = state.recovery.discard(&found)
            {
                state.view.error = Some(ErrorView { title: t.recovery_failed.to_owned(), message: e.to_string() });
            }
        }
        Command::SelectNode(at) => {
            state.view.selected_node = at;
        }
        Command::SelectLine(sel) => {
            state.view.selected_line = sel;
            if let Some(s) = sel {
                state.view.selected_node = s.at;
            }
        }
        Command::Highlight(i) => {
            state.view.highlight = i.filter(|&i| i < state.derived.report.diagnostics.len());
            state.view.scroll_to = state.view.highlight.and_then(|f| scroll_target(&state.derived.report, f));
        }
        Command::ScrolledToHighlight => state.view.scroll_to = None,
        Command::SetTab(tab) => {
            state.prefs.analysis_tab = tab;
        }
        Command::SetTheme(choice) => state.prefs.theme = choice,
        Command::SetLanguage(lang) => state.set_language(lang),
        Command::TogglePalette => state.prefs.show_palette = !state.prefs.show_palette,
        Command::ToggleAnalysis => state.prefs.show_analysis = !state.prefs.show_analysis,
        Command::Notify(notice) => state.view.notice = Some(notice),
        Command::DismissNotice => state.view.notice = None,
        Command::ShowError(error) => state.view.error = Some(error),
        Command::DismissError => state.view.error = None,
        Command::ShowAbout(open) => state.view.about_open = open,
        Command::ShowAccuracy(open) => state.view.accuracy_open = open,
        Command::ShowCatalogFolders(open) => state.view.catalog_folders_open = open,
        Command::PickCatalogFolder => {
            if let Some(path) = pick(state, FileRequest::CatalogFolder, "", |d| d.pick_catalog_folder()) {
                catalog::add_folder(state, path);
            }
        }
        Command::AddCatalogFolder(path) => catalog::add_folder(state, path),
        Command::RemoveCatalogFolder(i) => catalog::remove_folder(state, i),
        Command::ReloadCatalog => catalog::reload_and_tell(state),
        Command::PickModelConfig => {
            if let Some(path) = pick(state, FileRequest::ModelConfig, "", |d| d.pick_config()) {
                apply_inner(state, Command::AddModelFromConfig(path));
            }
        }
        Command::AddModelFromConfig(path) => add_model_from_config(state, &path),
        Command::SelectFitMatrix(i) => {
            state.view.fit_matrix = i;
            state.view.fit_cell = None;
        }
        Command::SelectFitCell(sel) => state.view.fit_cell = sel,
        Command::SetFitOverrides(o) => state.view.fit_overrides = o,
        Command::PinBasis(key) => state.view.pin_basis(key),
        Command::UnpinBasis(key) => state.view.pinned_bases.retain(|k| k != &key),
        Command::SavePlot { rect, name } => {
            let suggested = format!("{}.png", export::sanitize_file_name(&name));
            if let Some(path) = pick(state, FileRequest::Png { rect }, &suggested, |d| d.pick_png(&suggested)) {
                state.outbox.screenshot = Some((rect, path));
            }
        }
        Command::FileBrowser(outcome) => browser_closed(state, outcome),
        Command::SetBuiltinFileBrowser(on) => state.prefs.builtin_file_browser = on,
        Command::SetZoom(zoom) => state.prefs.ui_zoom = crate::gui::prefs::clamp_zoom(zoom),
        Command::PickExport(format) => match today() {
            Ok(date) => {
                let suggested = export::default_file_name(&state.doc.build().name, date, format.extension());
                let file_type = format_file_type(state, format);
                let ext = format.extension();
                let request = FileRequest::Export(format);
                if let Some(path) = pick(state, request, &suggested, |d| d.pick_export(&suggested, file_type, ext)) {
                    export_sheet(state, format, &path, date);
                }
            }
            Err(message) => state.view.error = Some(ErrorView { title: t.export_failed.to_owned(), message }),
        },
        Command::CopyPartsMarkdown => match today() {
            Ok(date) => {
                let report = &state.derived.report;
                let sheet = BuildSheet::new_in(state.doc.build(), report, date, state.lang);
                state.outbox.copy = Some(export::markdown::parts_list_to_markdown(&sheet));
                state.view.notice = Some(Notice::info(&fill(t.tools.copied_markdown, &[&sheet.build_name])));
            }
            Err(message) => state.view.error = Some(ErrorView { title: t.export_failed.to_owned(), message }),
        },
        Command::PrintSheet => print_sheet(state),
        Command::Export { format, path } => match today() {
            Ok(date) => export_sheet(state, format, &path, date),
            Err(message) => state.view.error = Some(ErrorView { title: t.export_failed.to_owned(), message }),
        },
        Command::PickImportPrices => {
            if let Some(path) = pick(state, FileRequest::PriceList, "", |d| d.pick_price_list()) {
                import_prices(state, &path);
            }
        }
        Command::ImportPrices(path) => import_prices(state, &path),
        Command::DismissImportReport => state.view.import_report = None,
        Command::SetStaleMonths(months) => {
            state.prefs.stale_after_months = months.clamp(1, MAX_STALE_AFTER_MONTHS);
            state.derived.date_prices(state.prefs.stale_after_months);
        }
        Command::ShowView(view) => {
            state.prefs.main_view = view;
            if view == crate::gui::vocab::MainView::Compare {
                state.autosaves = state.recovery.autosaves();
            }
        }
        Command::CompareAddCurrent => {
            if state.compare.has_current() {
                state.view.notice = Some(Notice::info(t.compare_current_already));
            } else {
                add_to_comparison(state, CompareEntry { source: CompareSource::Current, build: None });
            }
        }
        Command::PickCompareFile => {
            if state.compare.is_full() {
                compare_full(state);
            } else if let Some(path) = pick(state, FileRequest::CompareAdd, "", |d| d.pick_open()) {
                apply_inner(state, Command::CompareAddFile(path));
            }
        }
        Command::CompareAddFile(path) => match persist::load_build(&path) {
            Ok(build) => {
                add_to_comparison(state, CompareEntry { source: CompareSource::File(path), build: Some(build) });
            }
            Err(e) => {
                state.view.error = Some(ErrorView { title: t.compare_add_failed.to_owned(), message: e.to_string() });
            }
        },
        Command::SetCompareScale(scale) => state.prefs.compare_scale = scale,
        Command::CompareAddTemplate(slug) => match templates::find(slug).map(templates::Template::load) {
            Some(Ok(build)) => {
                let source = CompareSource::Template(slug.to_owned());
                add_to_comparison(state, CompareEntry { source, build: Some(build) });
            }
            Some(Err(e)) => {
                state.view.error = Some(ErrorView { title: t.compare_add_failed.to_owned(), message: e.to_string() });
            }
            None => {
                let message = fill(t.template_unknown, &[&slug]);
                state.view.error = Some(ErrorView { title: t.compare_add_failed.to_owned(), message });
            }
        },
        Command::CompareRemove(i) => {
            state.compare.remove(i);
        }
        Command::CompareSetModel(model) => state.compare.set_model(model),
        Command::SetRequirement(req) => state.advisor.set_requirement(*req),
        Command::AdvisorPreset(preset) => state.advisor.set_preset(preset),
        Command::AdvisorSelect(slug) => state.advisor.selected = slug,
        Command::AdvisorMark { slug, marked } => {
            if !state.advisor.mark(&slug, marked) {
                compare_full(state);
            }
        }
        Command::AdvisorPlotWorkload(w) => {
            state.advisor.plot_workload = w.min(state.advisor.req.workloads.len().saturating_sub(1));
        }
        Command::AdvisorOpen(slug) => {
            state.refresh_advice();
            let found = state.advised.as_ref().and_then(|a| a.candidate(&slug));
            if let Some(c) = found {
                let pending = Pending::Adopt(c.rank, Box::new(c.build.clone()));
                guarded(state, pending);
            }
        }
        Command::AdvisorCompare => advisor_compare(state),
        Command::PickCompareExport(format) => {
            state.refresh_comparison();
            let names =
                state.compared.as_ref().and_then(|c| c.comparison()).map(|c| {
                    c.builds.iter().map(|b| b.name.as_str()).collect::<Vec<_>>().join(t.compare_file_name_joiner)
                });
            let name = names.unwrap_or_else(|| t.compare_title.to_owned());
            let suggested = match today() {
                Ok(d) => export::default_file_name(&name, d, format.extension()),
                Err(_) => format!("{}.{}", export::sanitize_file_name(&name), format.extension()),
            };
            let file_type = compare_format_file_type(state, format);
            let ext = format.extension();
            let request = FileRequest::CompareExport(format);
            if let Some(path) = pick(state, request, &suggested, |d| d.pick_export(&suggested, file_type, ext)) {
                export_comparison(state, format, &path);
            }
        }
        Command::ExportComparison { format, path } => export_comparison(state, format, &path),
    }
}

/// The built-in browser closed: carries out its request with the chosen path.
fn browser_closed(state: &mut AppState, outcome: Outcome) {
    let Some(browser) = state.file_browser.take() else { return };
    let Outcome::Chosen(path) = outcome else {
        state.view.after_save = None;
        return;
    };
    let command = match browser.request {
        FileRequest::Open => Command::Open(path),
        FileRequest::SaveAs => Command::SaveAs(path),
        FileRequest::Export(format) => Command::Export { format, path },
        FileRequest::Png { rect } => {
            state.outbox.screenshot = Some((rect, path));
            return;
        }
        FileRequest::CompareAdd => Command::CompareAddFile(path),
        FileRequest::CompareExport(format) => Command::ExportComparison { format, path },
        FileRequest::ModelConfig => Command::AddModelFromConfig(path),
        FileRequest::PriceList => Command::ImportPrices(path),
        FileRequest::CatalogFolder => Command::AddCatalogFolder(path),
    };
    apply_inner(state, command);
}

/// Where the canvas should scroll for a finding: its first part line, else its node.
fn scroll_target(report: &Report, finding: usize) -> Option<ScrollTarget> {
    let d = report.diagnostics.get(finding)?;
    match (d.lines.first(), d.node) {
        (Some(l), _) => Some(ScrollTarget::Line(LineSel { at: l.location, line: l.line })),
        (None, Some(node)) => Some(ScrollTarget::Node(node)),
        (None, None) => None,
    }
}

fn compare_full(state: &mut AppState) {
    let text = fill(state.texts.compare_full, &[&crate::gui::compare::MAX_BUILDS]);
    state.view.notice = Some(Notice { kind: NoticeKind::Refused, text });
}

/// The advisor's "Compare": the ticked candidates that are still on the front replace the
/// compare view's builds, and the compare view is shown. Fewer than two is a notice.
fn advisor_compare(state: &mut AppState) {
    state.refresh_advice();
    let t = state.texts;
    let entries: Vec<CompareEntry> = state
        .advisor
        .marked
        .iter()
        .filter_map(|slug| state.advised.as_ref()?.candidate(slug))
        .map(|c| CompareEntry { source: CompareSource::Advised(c.build.name.clone()), build: Some(c.build.clone()) })
        .collect();
    if entries.len() < crate::gui::compare::MIN_BUILDS {
        state.view.notice = Some(Notice { kind: NoticeKind::Refused, text: t.advisor.compare_hint.to_owned() });
        return;
    }
    let n = entries.len();
    state.compare.replace(entries);
    state.prefs.main_view = crate::gui::vocab::MainView::Compare;
    state.view.notice = Some(Notice::info(&fill(t.advisor.compared, &[&n])));
}

fn add_to_comparison(state: &mut AppState, entry: CompareEntry) {
    if !state.compare.push(entry) {
        compare_full(state);
    }
}

/// Runs an action that replaces or closes the build, asking first when there are unsaved
/// changes.
fn guarded(state: &mut AppState, pending: Pending) {
    if state.doc.is_dirty() {
        state.view.prompt = Some(pending);
    } else {
        perform(state, pending);
    }
}

fn perform(state: &mut AppState, pending: Pending) {
    let t = state.texts;
    match pending {
        Pending::New(template) => {
            let build = match template.map(|slug| templates::find(slug).ok_or(slug)) {
                None => Ok(crate::gui::text::blank_build(t)),
                Some(Ok(tpl)) => tpl.load().map_err(|e| e.to_string()),
                Some(Err(slug)) => Err(fill(t.template_unknown, &[&slug])),
            };
            match build {
                Ok(build) => {
                    state.doc.replace(build, None);
                    state.prefs.last_build = None;
                    state.view.reset_for_new_document();
                }
                Err(message) => {
                    state.view.error = Some(ErrorView { title: t.template_failed.to_owned(), message });
                }
            }
        }
        Pending::Open(path) => match persist::load_build(&path) {
            Ok(build) => opened(state, build, &path),
            Err(e) => state.view.error = Some(ErrorView { title: t.open_failed.to_owned(), message: e.to_string() }),
        },
        Pending::OpenBytes { path, bytes } => {
            let is_ron = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("ron"));
            if !is_ron {
                state.view.error = Some(ErrorView {
                    title: t.open_failed.to_owned(),
                    message: fill(t.not_a_build_file, &[&path.display()]),
                });
                return;
            }
            match persist::parse_build_bytes(&path.display().to_string(), &bytes) {
                Ok(build) => opened(state, build, &path),
                Err(e) => {
                    state.view.error = Some(ErrorView { title: t.open_failed.to_owned(), message: e.to_string() });
                }
            }
        }
        Pending::Adopt(rank, build) => {
            // Undoable: undo past the new build's edits brings back the document it replaced.
            state.doc.replace_undoable(*build);
            state.recovery.forget_last_autosave();
            state.prefs.last_build = None;
            state.prefs.main_view = crate::gui::vocab::MainView::Build;
            state.view.reset_for_new_document();
            state.view.notice = Some(Notice::info(&fill(t.advisor.opened, &[&rank])));
        }
        Pending::Close => {
            state.view.allow_close = true;
            state.outbox.close = true;
        }
        Pending::Restore(found) => {
            // The restored build is not what is in its file (if it has one): it is unsaved.
            state.doc.replace_unsaved(found.build.clone(), found.original_path.clone());
            state.recovery.forget_last_autosave();
            state.view.reset_for_new_document();
            if let Err(e) = state.recovery.discard(&found) {
                state.view.error = Some(ErrorView { title: t.recovery_failed.to_owned(), message: e.to_string() });
            } else {
                state.view.notice = Some(Notice::info(t.recovery_restored));
            }
        }
    }
}

fn opened(state: &mut AppState, build: Build, path: &Path) {
    state.doc.replace(build, Some(path.to_path_buf()));
    state.view.reset_for_new_document();
    remember(state, path);
    state.view.notice = Some(Notice::info(&fill(state.texts.opened, &[&path.display()])));
}

/// Adds a path to the recent files and makes it the build to reopen next time.
fn remember(state: &mut AppState, path: &Path) {
    let recent = &mut state.prefs.recent_files;
    recent.retain(|p| p != path);
    recent.insert(0, path.to_path_buf());
    recent.truncate(MAX_RECENT_FILES);
    state.prefs.last_build = Some(path.to_path_buf());
}

/// Saves to the document's file, or asks where. True when the build was saved.
fn save(state: &mut AppState) -> bool {
    match state.doc.path().map(Path::to_path_buf) {
        Some(path) => save_to(state, &path),
        None => pick_and_save(state),
    }
}

fn pick_and_save(state: &mut AppState) -> bool {
    let suggested = format!("{}.ron", export::sanitize_file_name(&state.doc.build().name));
    match pick(state, FileRequest::SaveAs, &suggested, |d| d.pick_save(&suggested)) {
        Some(path) => save_to(state, &with_ron_extension(path)),
        None => false,
    }
}

fn save_to(state: &mut AppState, path: &Path) -> bool {
    let t = state.texts;
    match persist::save_build(path, state.doc.build()) {
        Ok(()) => {
            state.doc.mark_saved(path.to_path_buf());
            remember(state, path);
            state.view.notice = Some(Notice::info(&fill(t.saved_to, &[&path.display()])));
            true
        }
        Err(e) => {
            state.view.error = Some(ErrorView { title: t.save_failed.to_owned(), message: e.to_string() });
            false
        }
    }
}

fn with_ron_extension(path: PathBuf) -> PathBuf {
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("ron")) { path } else { path.with_extension("ron") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_stems() {
        assert_eq!(with_ron_extension(PathBuf::from("a/b")), PathBuf::from("a/b.ron"));
        assert_eq!(with_ron_extension(PathBuf::from("a/b.RON")), PathBuf::from("a/b.RON"));
    }
}
