//! The analysis panel: one tab per section of the cached report. A tab exists only when the
//! report has its data; nothing here computes, it renders [`crate::core::analysis::Report`].

use crate::core::analysis::basis::counts::{STALE_PRICES_KEY, findings_key};
use crate::core::analysis::bom::PriceOrigin;
use crate::core::analysis::summary::GroupFit;
use crate::core::analysis::tco::Term;
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::units::format_thousands;
use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::text::{fill, money_headline, money_whole};
use crate::gui::theme;
use crate::gui::vocab::AnalysisTab;
use egui::{Align, Frame, Layout, Margin, RichText, Sense, Stroke, StrokeKind, UiBuilder};
use egui_extras::{Column, TableBuilder};

/// The right panel.
pub fn ui(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let t = fx.texts;
    let current = fx.prefs.analysis_tab;
    ui.horizontal_wrapped(|ui| {
        for tab in AnalysisTab::ALL {
            let label = match tab {
                AnalysisTab::Summary => t.tab_summary.to_owned(),
                AnalysisTab::Issues => fill(t.tab_issues, &[&fx.derived.report.diagnostics.len()]),
                AnalysisTab::Power => t.tab_power.to_owned(),
                AnalysisTab::Thermal => t.tab_thermal.to_owned(),
                AnalysisTab::Fit => t.tab_fit.to_owned(),
                AnalysisTab::Tco => t.tab_tco.to_owned(),
            };
            let response = ui.selectable_label(current == tab, label);
            if tab == AnalysisTab::Issues {
                issues_tab_hover(fx, &response);
            }
            if response.clicked() && current != tab {
                fx.push(Command::SetTab(tab));
            }
        }
    });
    ui.separator();
    // The tab draws in the panel's rect and no wider: a wide tab (the fit matrix) scrolls
    // sideways inside it instead of widening the panel, which would squeeze the canvas and
    // keep the panel at its widest tab's width (issue 17).
    let rect = ui.available_rect_before_wrap();
    let mut body = ui.new_child(UiBuilder::new().max_rect(rect).layout(Layout::top_down(Align::Min)));
    body.shrink_clip_rect(rect);
    match current {
        AnalysisTab::Summary => summary(&mut body, fx),
        AnalysisTab::Issues => issues(&mut body, fx),
        AnalysisTab::Power => super::power::ui(&mut body, fx),
        AnalysisTab::Thermal => super::thermal::ui(&mut body, fx),
        AnalysisTab::Fit => super::fit::ui(&mut body, fx),
        AnalysisTab::Tco => super::tco::ui(&mut body, fx),
    }
    ui.advance_cursor_after_rect(rect);
}

/// The Issues tab's hover: its count is the findings of every severity, each count explained
/// by its basis (the rule codes it counts). On hover only, so the report's bases are written
/// only when asked for; a click still switches tabs.
fn issues_tab_hover(fx: &FrameCtx<'_>, response: &egui::Response) {
    if !response.hovered() {
        return;
    }
    let report = &fx.derived.report;
    let severities = [Severity::Error, Severity::Warning, Severity::Info];
    let [errors, warnings, infos] = severities.map(|s| report.count(s));
    let total = fill(fx.texts.figures.issues_total, &[&report.diagnostics.len(), &errors, &warnings, &infos]);
    let bases: Vec<_> = severities
        .iter()
        .filter_map(|&s| crate::core::analysis::basis::find(report.basis(), findings_key(s)))
        .collect();
    super::explain::hover_bases(fx.lang, response, &total, &bases);
}

fn severity_color(fx: &FrameCtx<'_>, s: Severity) -> egui::Color32 {
    match s {
        Severity::Error => fx.tokens.error,
        Severity::Warning => fx.tokens.warn,
        Severity::Info => fx.tokens.info,
    }
}

fn severity_name(fx: &FrameCtx<'_>, s: Severity) -> &'static str {
    match s {
        Severity::Error => fx.texts.severity_error,
        Severity::Warning => fx.texts.severity_warning,
        Severity::Info => fx.texts.severity_info,
    }
}

fn summary(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let (t, tk, derived) = (fx.texts, fx.tokens, fx.derived);
    let report = &derived.report;
    let bom = &report.bom;
    ui.heading(&report.build_name);
    let counts = ui.label(fill(t.summary_nodes_gpus, &[&t.n_nodes.count(report.nodes), &t.n_gpus.count(report.gpus)]));
    super::explain::attach(ui, fx, &counts, &["nodes".to_owned(), "gpus".to_owned()]);
    ui.add_space(6.0);
    ui.label(RichText::new(t.summary_capex).small());
    let (headline, exact) = money_headline(t, bom.capex, &bom.currency);
    let resp = ui.label(RichText::new(headline).size(26.0).strong());
    super::explain::attach_with_value(ui, fx, &resp, exact.as_deref().unwrap_or_default(), &["tco.capex".to_owned()]);
    let parts = ui.weak(fill(
        t.summary_capex_parts,
        &[&format_thousands(bom.parts_total, 0), &format_thousands(bom.custom_total, 0)],
    ));
    super::explain::attach(ui, fx, &parts, &["bom.parts_total".to_owned(), "tco.capex".to_owned()]);
    if (bom.usd_exchange_rate - 1.0).abs() > f64::EPSILON {
        let rate = ui.weak(fill(t.summary_exchange, &[&bom.usd_exchange_rate, &bom.currency]));
        super::explain::attach(ui, fx, &rate, &["bom.usd_exchange_rate".to_owned()]);
    }
    if bom.unpriced_lines > 0 {
        let unpriced = ui.colored_label(tk.warn, t.summary_unpriced.count(bom.unpriced_lines));
        super::explain::attach(ui, fx, &unpriced, &["bom.unpriced_lines".to_owned()]);
    }
    if let Some(ages) = &report.prices {
        let months = ages.policy.stale_after_months;
        // The basis lists the stale lines with their dates, and the threshold.
        let line = if ages.stale.is_empty() {
            ui.weak(fill(t.summary_prices_fresh, &[&ages.dated_lines, &months]))
        } else {
            ui.colored_label(tk.warn, fill(t.summary_prices_stale, &[&ages.stale_lines(), &ages.dated_lines, &months]))
        };
        super::explain::attach(ui, fx, &line, &[STALE_PRICES_KEY.to_owned()]);
    }
    ui.add_space(6.0);
    let sf = &report.summary;
    let key = |k: &str| vec![k.to_owned()];
    let mut rows: Vec<(&str, String, Vec<String>)> =
        vec![(t.summary_wall, format!("{} W", format_thousands(sf.wall_watts, 0)), key("power.wall_watts"))];
    let mut group_rows: Vec<(String, String)> = Vec::new();
    if let Some(g) = &sf.worst_gpu_headroom {
        rows.push((
            t.summary_gpu_headroom,
            fill(t.summary_headroom_c, &[&format!("{:+.0}", g.headroom_c), &g.name]),
            key("summary.worst_gpu_headroom.headroom_c"),
        ));
    }
    if let Some(c) = &sf.worst_cooler_headroom {
        rows.push((
            t.summary_cooler_headroom,
            fill(t.summary_headroom_w, &[&format!("{:+.0}", c.headroom_watts), &c.name]),
            key("summary.worst_cooler_headroom.headroom_watts"),
        ));
    }
    if let Some(f) = &sf.fit {
        // Which GPUs a count is for: the one GPU group by name, else any group, with each
        // group's own counts under it (issue 17: a count that fell when a small card was added
        // did not say whose it was).
        let group_name = |g: &GroupFit| {
            let mut name = fill(t.figures.group_gpus, &[&g.gpus_per_node, &g.gpu_name]);
            if g.nodes > 1 {
                name = fill(t.figures.group_nodes, &[&name, &t.n_nodes.count(g.nodes)]);
            }
            let name = fill(t.figures.group_in, &[&name, &g.node_name]);
            if g.alike > 0 { fill(t.figures.group_alike, &[&name, &g.alike]) } else { name }
        };
        let on = |count: String| match f.groups.as_slice() {
            [one] => fill(t.figures.models_on, &[&count, &group_name(one)]),
            _ => fill(t.figures.models_on_any, &[&count]),
        };
        rows.push((
            t.summary_models_inference,
            on(fill(t.summary_models_of, &[&f.inference_models, &f.models])),
            key("summary.fit.inference_models"),
        ));
        rows.push((
            t.summary_models_finetune,
            on(fill(t.summary_models_of, &[&f.finetune_models, &f.models])),
            key("summary.fit.finetune_models"),
        ));
        if f.groups.len() > 1 {
            for g in &f.groups {
                group_rows
                    .push((group_name(g), fill(t.figures.group_counts, &[&g.inference_models, &g.finetune_models])));
            }
        }
    }
    let horizon = format!("{:.1}", sf.tco.horizon_years);
    rows.push((
        t.summary_tco_owned,
        fill(t.summary_money_over, &[&money_whole(t, sf.tco.owned_total, &report.currency), &horizon]),
        key("tco.totals.owned"),
    ));
    // A cloud option by amount, then term, then offer: a spot price says so before the offer's
    // name, however narrow the panel.
    let catalog = fx.catalog;
    let option = |id: &str, label: &str, term: Term, total: f64| {
        let offer = id.rsplit_once(':').map_or(id, |(offer, _)| offer);
        let name = super::tco::offer_name(catalog, offer, label);
        let amount = money_whole(t, total, &report.currency);
        // A custom offer has no term beyond its own name.
        if term == Term::Custom {
            format!("{amount} · {name}")
        } else {
            fill(t.figures.option_value, &[&amount, &t.figures.term(term), &name])
        }
    };
    let primary = sf.tco.primary_option.as_deref().and_then(|id| report.tco.options.iter().find(|o| o.input.id == id));
    if let (Some(p), Some(total)) = (primary, sf.tco.primary_total) {
        rows.push((
            t.summary_tco_primary,
            option(&p.input.id, &p.input.label, p.input.term, total),
            vec![format!("tco.totals.options.{}", p.input.id), "tco.break_even_month".to_owned()],
        ));
    }
    if let Some(c) = &sf.tco.cheapest {
        rows.push((
            t.summary_tco_cloud,
            option(&c.id, &c.label, c.term, c.total),
            vec![format!("tco.totals.options.{}", c.id)],
        ));
    }
    super::explain::figures(ui, fx, "summary-figures", &rows);
    if !group_rows.is_empty() {
        ui.add_space(4.0);
        ui.label(RichText::new(t.figures.groups_title).small().strong());
        super::plots::figures(ui, "summary-groups", &group_rows);
    }
    ui.add_space(6.0);
    ui.label(RichText::new(t.summary_findings).small());
    ui.horizontal(|ui| {
        for s in [Severity::Error, Severity::Warning, Severity::Info] {
            let n = report.count(s);
            let color = if n > 0 { severity_color(fx, s) } else { tk.muted };
            let count =
                ui.label(RichText::new(fill(t.severity_count, &[&n, &severity_name(fx, s)])).color(color).strong());
            super::explain::attach(ui, fx, &count, &[findings_key(s).to_owned()]);
        }
        if !report.diagnostics.is_empty() && ui.button(t.show_issues).clicked() {
            fx.push(Command::SetTab(AnalysisTab::Issues));
        }
    });
    ui.add_space(6.0);
    ui.separator();
    // Wrapped: on a narrow panel the buttons go under the title rather than past the edge
    // (which would widen the table below it too).
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(t.summary_bom).strong());
        // The parts list leaves the app from here: as Markdown for a chat, or printed.
        if ui.small_button(t.tools.copy_markdown).clicked() {
            fx.push(Command::CopyPartsMarkdown);
        }
        if ui.small_button(t.tools.print_sheet).clicked() {
            fx.push(Command::PrintSheet);
        }
    });
    if bom.lines.is_empty() && bom.custom_capex.is_empty() {
        ui.weak(t.summary_bom_empty);
        return;
    }
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    let lines = &bom.lines;
    let price_key = |i: usize| vec![format!("bom.lines[{i}].extended_price")];
    // The price editor's button, measured so that the table keeps to the panel's width.
    let edit_width = egui::WidgetText::from(t.fixes.edit_price)
        .into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, egui::TextStyle::Button)
        .size()
        .x
        + 2.0 * ui.spacing().button_padding.x
        + 2.0;
    TableBuilder::new(ui)
        .id_salt("bom")
        .striped(true)
        .resizable(false)
        .cell_layout(Layout::left_to_right(Align::Center))
        .column(Column::remainder().at_least(120.0).clip(true))
        .column(Column::exact(56.0))
        .column(Column::exact(96.0))
        .column(Column::exact(edit_width))
        .header(row_height, |mut h| {
            h.col(|ui| {
                ui.strong(t.bom_part);
            });
            h.col(|ui| {
                ui.strong(t.bom_quantity);
            });
            h.col(|ui| {
                ui.strong(fill(t.bom_total, &[&bom.currency]));
            });
            h.col(|_| {});
        })
        .body(|body| {
            body.rows(row_height, lines.len() + bom.custom_capex.len(), |mut row| {
                let i = row.index();
                if let Some(l) = lines.get(i) {
                    row.col(|ui| {
                        let text = format!("{} · {}", l.group, l.name);
                        // One tooltip: the line in full with its part id.
                        ui.add(egui::Label::new(&text).truncate().show_tooltip_when_elided(false))
                            .on_hover_text(format!("{text} ({})", l.part.as_str()));
                    });
                    row.col(|ui| {
                        // The quantity is the line's quantity per node × nodes, which its
                        // price's basis writes out.
                        super::explain::explained(ui, fx, &format_thousands(l.total_quantity as f64, 0), &price_key(i));
                    });
                    row.col(|ui| match l.extended_price {
                        Some(p) => {
                            let stale = match (&l.price_origin, &report.prices) {
                                (PriceOrigin::Catalog { date, .. }, Some(ages)) if ages.policy.is_stale(date) => {
                                    Some((date, ages.policy.stale_after_months))
                                }
                                _ => None,
                            };
                            match stale {
                                Some((date, months)) => {
                                    let hint = fill(t.stale_price_hint, &[date, &months]);
                                    let response = ui.colored_label(tk.warn, format!("{} *", format_thousands(p, 0)));
                                    super::explain::attach_with_value(ui, fx, &response, &hint, &price_key(i));
                                }
                                None => {
                                    super::explain::explained(ui, fx, &format_thousands(p, 0), &price_key(i));
                                }
                            }
                        }
                        None => {
                            ui.colored_label(tk.warn, t.no_price);
                        }
                    });
                    row.col(|ui| price_editor(ui, fx, &l.part, l.unit_price, &bom.currency.0));
                } else if let Some(c) = bom.custom_capex.get(i - lines.len()) {
                    row.col(|ui| {
                        ui.add(egui::Label::new(&c.name).truncate());
                    });
                    let key = [format!("bom.custom_capex[{}].amount", i - lines.len())];
                    row.col(|ui| {
                        super::explain::explained(ui, fx, &c.quantity.to_string(), &key);
                    });
                    row.col(|ui| {
                        super::explain::explained(ui, fx, &format_thousands(c.amount, 0), &key);
                    });
                    row.col(|_| {});
                }
            });
        });
}

/// A part's own unit price (issue 17: the `tco-unpriced-lines` fix names it): a menu beside
/// the line's price with the price field and, when the build overrides the catalog price, a
/// way back to it. The price applies to every line of the part.
fn price_editor(
    ui: &mut egui::Ui,
    fx: &mut FrameCtx<'_>,
    part: &crate::core::catalog::PartId,
    unit_price: Option<f64>,
    currency: &str,
) {
    use egui::containers::menu::{MenuButton, MenuConfig};
    let f = fx.texts.fixes;
    let overridden = fx.doc.build().price_override(part).is_some();
    // The menu stays open while the price is typed or dragged; a click outside closes it.
    let config = MenuConfig::new().close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside);
    let (button, _) = MenuButton::new(f.edit_price).config(config).ui(ui, |ui| {
        let label = ui.label(format!("{} ({currency})", f.unit_price));
        let now = unit_price.unwrap_or(0.0);
        let mut v = now;
        let field =
            egui::DragValue::new(&mut v).range(0.0..=crate::core::persist::MAX_COST_AMOUNT).speed(1.0).max_decimals(2);
        let r = ui.add(field).labelled_by(label.id);
        if r.changed() && (v - now).abs() > f64::EPSILON {
            fx.push(Command::SetPriceOverride(part.clone(), Some(v)));
        }
        if overridden && ui.button(f.use_catalog_price).clicked() {
            fx.push(Command::SetPriceOverride(part.clone(), None));
            ui.close();
        }
    });
    button.on_hover_text(f.edit_price_hint);
}

fn issues(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
    let (t, derived) = (fx.texts, fx.derived);
    let diagnostics = &derived.report.diagnostics;
    if diagnostics.is_empty() {
        ui.label(RichText::new(t.issues_none).color(fx.tokens.ok));
        return;
    }
    ui.weak(t.issues_hint);
    egui::ScrollArea::both().auto_shrink([false, false]).show(ui, |ui| {
        for (i, d) in diagnostics.iter().enumerate() {
            finding(ui, fx, i, d);
        }
    });
}

fn finding(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, i: usize, d: &Diagnostic) {
    let (t, tk) = (fx.texts, fx.tokens);
    let selected = fx.view.highlight == Some(i);
    let color = severity_color(fx, d.severity);
    let resp = ui
        .scope_builder(UiBuilder::new().id_salt(("finding", i)).sense(Sense::click()), |ui| {
            Frame::new()
                .inner_margin(Margin::symmetric(8, 5))
                .corner_radius(theme::CARD_RADIUS)
                .fill(if selected {
                    ui.visuals().selection.bg_fill.gamma_multiply(0.4)
                } else {
                    egui::Color32::TRANSPARENT
                })
                .show(ui, |ui| {
                    ui.set_width(ui.available_width());
                    ui.horizontal(|ui| {
                        let i = match d.severity {
                            Severity::Error => 0,
                            Severity::Warning => 1,
                            Severity::Info => 2,
                        };
                        let heading = t.severity_labels.get(i).copied().unwrap_or_default();
                        ui.label(RichText::new(heading).color(color).strong());
                        ui.weak(d.code.as_str());
                    });
                    ui.add(egui::Label::new(&d.message).wrap().selectable(false));
                    if let Some(fix) = &d.fix {
                        ui.add(egui::Label::new(RichText::new(fill(t.fix, &[fix])).small()).wrap().selectable(false));
                    }
                    // A fix that is a node option is one click away.
                    if let Some((label, command)) = crate::gui::fixes::one_click(d, fx.doc.build(), t)
                        && ui.small_button(label).clicked()
                    {
                        fx.push(command);
                    }
                    super::explain::finding_figures(ui, fx, d);
                });
        })
        .response;
    if resp.hovered() {
        ui.painter().rect_stroke(resp.rect, theme::CARD_RADIUS, Stroke::new(1.0, tk.card_stroke), StrokeKind::Inside);
    }
    if resp.clicked() {
        fx.push(Command::Highlight(if selected { None } else { Some(i) }));
    }
}
