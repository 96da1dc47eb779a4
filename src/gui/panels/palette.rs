//! The catalog palette: category tabs, fuzzy search, per-kind filters, sorting, and a list in
//! which only the visible rows are laid out. Each row is a drag source; double-click or
//! its Add button adds the part to the selected node; hovering shows every spec and where it
//! came from. The palette is also a drop target that removes build parts dragged onto it.

use crate::core::catalog::{Catalog, ChassisKind, CoolerKind, Part, PartId, PartKind};
use crate::core::units::format_thousands;
use crate::gui::command::Command;
use crate::gui::context::FrameCtx;
use crate::gui::fuzzy;
use crate::gui::text::{Texts, fill, money_whole};
use crate::gui::theme;
use crate::gui::vocab::{DragPayload, DropTarget};
use egui::{Align, Label, Layout, RichText, Sense, TextEdit, UiBuilder};
use std::collections::{BTreeMap, BTreeSet};

/// How the list is sorted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortKey {
    /// Best search match first (by name when the search box is empty).
    #[default]
    Relevance,
    Name,
    Vendor,
    Price,
    /// The kind's key figure (GPU memory, CPU cores, PSU watts, …).
    Figure,
}

/// A filter with a choice of values ("Vendor: NVIDIA").
struct ChoiceFacet {
    label: fn(&Texts) -> &'static str,
    value: fn(Part<'_>, &Texts) -> Option<String>,
}

/// A cooler type as the UI names it.
#[must_use]
pub fn cooler_kind(kind: CoolerKind, t: &Texts) -> &'static str {
    let i = match kind {
        CoolerKind::Air => 0,
        CoolerKind::Aio => 1,
        CoolerKind::CustomLoop => 2,
        CoolerKind::ServerHeatsink => 3,
    };
    t.cooler_kinds.get(i).copied().unwrap_or_default()
}

/// A chassis type as the UI names it.
#[must_use]
pub fn chassis_kind(kind: ChassisKind, t: &Texts) -> &'static str {
    let i = match kind {
        ChassisKind::Tower => 0,
        ChassisKind::Rack => 1,
        ChassisKind::Jbod => 2,
    };
    t.chassis_kinds.get(i).copied().unwrap_or_default()
}

/// The kind's key figure: a "≥" filter and a sort key.
struct FigureFacet {
    label: fn(&Texts) -> &'static str,
    value: fn(Part<'_>) -> Option<f64>,
}

fn choice_facets(kind: PartKind) -> Vec<ChoiceFacet> {
    let mut facets = vec![ChoiceFacet { label: |t| t.filter_vendor, value: |p, _| Some(p.meta().vendor.to_owned()) }];
    let more: &[ChoiceFacet] = match kind {
        PartKind::Gpu => &[
            ChoiceFacet {
                label: |t| t.filter_form_factor,
                value: |p, _| if let Part::Gpu(g) = p { Some(g.form_factor.to_string()) } else { None },
            },
            ChoiceFacet {
                label: |t| t.filter_memory_type,
                value: |p, _| if let Part::Gpu(g) = p { Some(g.memory_type.to_string()) } else { None },
            },
        ],
        PartKind::Cpu => &[ChoiceFacet {
            label: |t| t.filter_socket,
            value: |p, _| if let Part::Cpu(c) = p { Some(c.socket.clone()) } else { None },
        }],
        PartKind::Motherboard => &[
            ChoiceFacet {
                label: |t| t.filter_socket,
                value: |p, _| if let Part::Motherboard(b) = p { b.socket.clone() } else { None },
            },
            ChoiceFacet {
                label: |t| t.filter_form_factor,
                value: |p, _| if let Part::Motherboard(b) = p { Some(b.form_factor.to_string()) } else { None },
            },
            ChoiceFacet {
                label: |t| t.filter_memory_type,
                value: |p, _| if let Part::Motherboard(b) = p { b.memory_type.map(|m| m.to_string()) } else { None },
            },
        ],
        PartKind::Memory => &[
            ChoiceFacet {
                label: |t| t.filter_memory_type,
                value: |p, _| if let Part::Memory(m) = p { Some(m.memory_type.to_string()) } else { None },
            },
            ChoiceFacet {
                label: |t| t.filter_module,
                value: |p, _| if let Part::Memory(m) = p { Some(m.dimm_kind.to_string()) } else { None },
            },
        ],
        PartKind::Storage => &[ChoiceFacet {
            label: |t| t.filter_interface,
            value: |p, _| if let Part::Storage(s) = p { Some(s.interface.to_string()) } else { None },
        }],
        PartKind::Psu => &[ChoiceFacet {
            label: |t| t.filter_efficiency,
            value: |p, _| if let Part::Psu(s) = p { Some(s.efficiency.to_string()) } else { None },
        }],
        PartKind::Cooler => &[ChoiceFacet {
            label: |t| t.filter_type,
            value: |p, t| if let Part::Cooler(c) = p { Some(cooler_kind(c.kind, t).to_owned()) } else { None },
        }],
        PartKind::Chassis => &[ChoiceFacet {
            label: |t| t.filter_type,
            value: |p, t| if let Part::Chassis(c) = p { Some(chassis_kind(c.kind, t).to_owned()) } else { None },
        }],
        PartKind::Nic => &[ChoiceFacet {
            label: |t| t.filter_technology,
            value: |p, _| if let Part::Nic(n) = p { Some(n.tech.to_string()) } else { None },
        }],
        PartKind::Switch => &[ChoiceFacet {
            label: |t| t.filter_technology,
            value: |p, _| if let Part::Switch(s) = p { Some(s.tech.to_string()) } else { None },
        }],
        PartKind::System => &[],
    };
    facets.extend(more.iter().map(|f| ChoiceFacet { label: f.label, value: f.value }));
    facets
}

fn figure_facet(kind: PartKind) -> FigureFacet {
    match kind {
        PartKind::Gpu => FigureFacet {
            label: |t| t.figure_gpu_memory,
            value: |p| if let Part::Gpu(g) = p { Some(g.memory_gib) } else { None },
        },
        PartKind::Cpu => FigureFacet {
            label: |t| t.figure_cores,
            value: |p| if let Part::Cpu(c) = p { Some(f64::from(c.cores)) } else { None },
        },
        PartKind::Motherboard => FigureFacet {
            label: |t| t.figure_pcie_slots,
            value: |p| if let Part::Motherboard(b) = p { Some(b.pcie_slots.len() as f64) } else { None },
        },
        PartKind::Memory => FigureFacet {
            label: |t| t.figure_capacity_gib,
            value: |p| if let Part::Memory(m) = p { Some(m.capacity_gib) } else { None },
        },
        PartKind::Storage => FigureFacet {
            label: |t| t.figure_capacity_tb,
            value: |p| if let Part::Storage(s) = p { Some(s.capacity_gb / 1000.0) } else { None },
        },
        PartKind::Psu => FigureFacet {
            label: |t| t.figure_watts,
            value: |p| if let Part::Psu(s) = p { Some(s.rated_watts) } else { None },
        },
        PartKind::Cooler => FigureFacet {
            label: |t| t.figure_heat_watts,
            value: |p| if let Part::Cooler(c) = p { Some(c.rated_heat_watts) } else { None },
        },
        PartKind::Chassis => FigureFacet {
            label: |t| t.figure_gpu_length,
            value: |p| if let Part::Chassis(c) = p { c.max_gpu_length_mm } else { None },
        },
        PartKind::Nic => FigureFacet {
            label: |t| t.figure_port_speed,
            value: |p| if let Part::Nic(n) = p { Some(n.port_speed_gbps) } else { None },
        },
        PartKind::Switch => FigureFacet {
            label: |t| t.figure_port_speed,
            value: |p| if let Part::Switch(s) = p { Some(s.port_speed_gbps) } else { None },
        },
        PartKind::System => FigureFacet {
            label: |t| t.figure_system_gpus,
            value: |p| {
                if let Part::System(s) = p { Some(s.gpus.iter().map(|g| f64::from(g.count)).sum()) } else { None }
            },
        },
    }
}

/// The filter settings of one kind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filters {
    /// Chosen value per choice facet (None: any).
    pub choices: Vec<Option<String>>,
    /// Key figure at least this (None: any).
    pub figure_min: Option<f64>,
    /// Price range in USD, the catalog's currency (None: unbounded). The panel shows and
    /// takes the bounds in the build's currency at its exchange rate.
    pub price_min_usd: Option<f64>,
    pub price_max_usd: Option<f64>,
}

/// Distinct values of a kind's facets, for the filter menus.
#[derive(Clone, Debug, Default)]
struct FacetValues {
    choices: Vec<Vec<String>>,
    figures: Vec<f64>,
}

/// The distinct values of every kind's facets, named in `texts`' language.
fn facet_values(catalog: &Catalog, texts: &Texts) -> BTreeMap<PartKind, FacetValues> {
    let mut values = BTreeMap::new();
    for k in PartKind::ALL {
        let choices = choice_facets(k)
            .iter()
            .map(|f| {
                catalog.parts_of(k).filter_map(|p| (f.value)(p, texts)).collect::<BTreeSet<_>>().into_iter().collect()
            })
            .collect();
        let value = figure_facet(k).value;
        let mut figures: Vec<f64> = catalog.parts_of(k).filter_map(value).filter(|v| v.is_finite()).collect();
        figures.sort_by(f64::total_cmp);
        figures.dedup();
        values.insert(k, FacetValues { choices, figures });
    }
    values
}

/// The palette's own UI state.
pub struct PaletteState {
    pub kind: PartKind,
    pub query: String,
    pub filters: BTreeMap<PartKind, Filters>,
    pub sort: SortKey,
    pub descending: bool,
    values: BTreeMap<PartKind, FacetValues>,
    /// Indices into `catalog.parts_of(kind)` of the rows to show, recomputed when a control
    /// changes.
    rows: Vec<usize>,
    stale: bool,
}

impl PaletteState {
    /// A palette on a catalog, showing `kind`.
    #[must_use]
    pub fn new(catalog: &Catalog, kind: PartKind, texts: &Texts) -> Self {
        let values = facet_values(catalog, texts);
        Self {
            kind,
            query: String::new(),
            filters: BTreeMap::new(),
            sort: SortKey::default(),
            descending: false,
            values,
            rows: Vec::new(),
            stale: true,
        }
    }

    /// The language changed: the filter menus' values (which hold translated names such as
    /// a cooler's kind) are gathered again in `texts`; a chosen value of the old language
    /// would match nothing, so choice filters are cleared, while the search, the sort and the
    /// figure and price filters stay.
    pub fn relabel(&mut self, catalog: &Catalog, texts: &Texts) {
        self.values = facet_values(catalog, texts);
        for f in self.filters.values_mut() {
            f.choices.iter_mut().for_each(|c| *c = None);
        }
        self.stale = true;
    }

    /// The ids of the rows shown, in order (for tests and the bench).
    #[must_use]
    pub fn visible_ids<'c>(&self, catalog: &'c Catalog) -> Vec<&'c PartId> {
        let parts: Vec<Part<'c>> = catalog.parts_of(self.kind).collect();
        self.rows.iter().filter_map(|&i| parts.get(i).map(|p| p.id())).collect()
    }

    fn refresh(&mut self, catalog: &Catalog, texts: &Texts) {
        if !self.stale {
            return;
        }
        self.stale = false;
        let filters = self.filters.get(&self.kind).cloned().unwrap_or_default();
        let facets = choice_facets(self.kind);
        let figure = figure_facet(self.kind);
        let mut scored: Vec<(usize, u32, Part<'_>)> = catalog
            .parts_of(self.kind)
            .enumerate()
            .filter(|(_, p)| {
                let choice_ok = facets.iter().zip(&filters.choices).all(|(f, chosen)| match chosen {
                    Some(want) => (f.value)(*p, texts).as_ref() == Some(want),
                    None => true,
                });
                let figure_ok = filters.figure_min.is_none_or(|min| (figure.value)(*p).is_some_and(|v| v >= min));
                let price = usd_price(*p);
                let price_ok = filters.price_min_usd.is_none_or(|min| price.is_some_and(|v| v >= min))
                    && filters.price_max_usd.is_none_or(|max| price.is_some_and(|v| v <= max));
                choice_ok && figure_ok && price_ok
            })
            .filter_map(|(i, p)| {
                let m = p.meta();
                let hay = format!("{} {} {} {} {}", m.name, m.vendor, m.id, m.sku.unwrap_or(""), key_specs(p, texts));
                fuzzy::score(&self.query, &hay).map(|s| (i, s, p))
            })
            .collect();
        let name = |p: &Part<'_>| p.meta().name.to_lowercase();
        match self.sort {
            // Stable: equal scores (all of them, with an empty search) keep the catalog's own
            // order, which groups related parts.
            SortKey::Relevance => scored.sort_by_key(|a| std::cmp::Reverse(a.1)),
            SortKey::Name => scored.sort_by_key(|a| name(&a.2)),
            SortKey::Vendor => scored.sort_by_key(|a| (a.2.meta().vendor.to_lowercase(), name(&a.2))),
            SortKey::Price => scored.sort_by(|a, b| {
                let (pa, pb) = (usd_price(a.2), usd_price(b.2));
                // Parts without a price sort last either way.
                match (pa, pb) {
                    (Some(x), Some(y)) => x.total_cmp(&y),
                    (Some(_), None) => std::cmp::Ordering::Less,
                    (None, Some(_)) => std::cmp::Ordering::Greater,
                    (None, None) => std::cmp::Ordering::Equal,
                }
                .then_with(|| name(&a.2).cmp(&name(&b.2)))
            }),
            SortKey::Figure => {
                let v = |p: Part<'_>| (figure.value)(p).unwrap_or(f64::NEG_INFINITY);
                scored.sort_by(|a, b| v(a.2).total_cmp(&v(b.2)).then_with(|| name(&a.2).cmp(&name(&b.2))));
            }
        }
        if self.descending {
            scored.reverse();
        }
        self.rows = scored.into_iter().map(|(i, _, _)| i).collect();
    }

    /// Lays out the palette.
    pub fn ui(&mut self, ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
        let t = fx.texts;
        let panel_rect = ui.max_rect();
        self.tabs(ui, fx);
        ui.add_space(4.0);
        ui.horizontal(|ui| {
            let search = ui.add(
                TextEdit::singleline(&mut self.query)
                    .hint_text(t.search_hint)
                    .desired_width(ui.available_width() - 28.0),
            );
            if search.changed() {
                self.stale = true;
            }
            if ui
                .add_enabled(!self.query.is_empty(), egui::Button::new("×").small())
                .on_hover_text(t.search_clear)
                .clicked()
            {
                self.query.clear();
                self.stale = true;
            }
        });
        self.filters_ui(ui, fx);
        self.refresh(fx.catalog, t);
        let total = fx.catalog.parts_of(self.kind).count();
        ui.weak(fill(t.palette_count, &[&self.rows.len(), &total]));
        ui.separator();
        self.list(ui, fx);
        trash_zone(ui, fx, panel_rect);
    }

    fn tabs(&mut self, ui: &mut egui::Ui, fx: &FrameCtx<'_>) {
        let t = fx.texts;
        let tint = ui.visuals().text_color();
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing = egui::vec2(4.0, 4.0);
            for (i, kind) in PartKind::ALL.into_iter().enumerate() {
                let label = t.kind_names.get(i).copied().unwrap_or_default();
                let button = match fx.icons.kind(kind, theme::ICON_SIZE, tint) {
                    Some(img) => egui::Button::image_and_text(img, label),
                    None => egui::Button::new(label),
                };
                if ui.add(button.selected(self.kind == kind)).clicked() && self.kind != kind {
                    self.kind = kind;
                    self.stale = true;
                }
            }
        });
    }

    fn filters_ui(&mut self, ui: &mut egui::Ui, fx: &FrameCtx<'_>) {
        let t = fx.texts;
        let kind = self.kind;
        let facets = choice_facets(kind);
        let figure = figure_facet(kind);
        let values = self.values.get(&kind).cloned().unwrap_or_default();
        let filters = self.filters.entry(kind).or_default();
        filters.choices.resize(facets.len(), None);
        let before = filters.clone();
        egui::CollapsingHeader::new(t.filters).id_salt(("filters", kind)).default_open(true).show(ui, |ui| {
            egui::Grid::new(("filter-grid", kind)).num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
                for (i, facet) in facets.iter().enumerate() {
                    let label = ui.label((facet.label)(t));
                    let chosen = filters.choices.get(i).cloned().flatten();
                    let shown = chosen.clone().unwrap_or_else(|| t.any.to_owned());
                    egui::ComboBox::from_id_salt(("choice", kind, i))
                        .selected_text(shown)
                        .width(170.0)
                        .show_ui(ui, |ui| {
                            if ui.selectable_label(chosen.is_none(), t.any).clicked()
                                && let Some(c) = filters.choices.get_mut(i)
                            {
                                *c = None;
                            }
                            for v in values.choices.get(i).map(Vec::as_slice).unwrap_or_default() {
                                if ui.selectable_label(chosen.as_ref() == Some(v), v).clicked()
                                    && let Some(c) = filters.choices.get_mut(i)
                                {
                                    *c = Some(v.clone());
                                }
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    ui.end_row();
                }
                {
                    let label = ui.label(fill(t.at_least, &[&(figure.label)(t)]));
                    let shown = filters.figure_min.map_or_else(|| t.any.to_owned(), |v| format_thousands(v, 0));
                    egui::ComboBox::from_id_salt(("figure", kind))
                        .selected_text(shown)
                        .width(170.0)
                        .show_ui(ui, |ui| {
                            if ui.selectable_label(filters.figure_min.is_none(), t.any).clicked() {
                                filters.figure_min = None;
                            }
                            for &v in &values.figures {
                                if ui.selectable_label(filters.figure_min == Some(v), format_thousands(v, 0)).clicked()
                                {
                                    filters.figure_min = Some(v);
                                }
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    ui.end_row();
                }
                let site = &fx.doc.build().site;
                let label = ui.label(fill(t.filter_price, &[&site.currency]));
                let rate = site.usd_exchange_rate;
                ui.horizontal(|ui| {
                    price_bound(ui, &mut filters.price_min_usd, rate, t.price_from, t.any, label.id);
                    price_bound(ui, &mut filters.price_max_usd, rate, t.price_to, t.any, label.id);
                });
                ui.end_row();
                let label = ui.label(t.sort_by);
                ui.horizontal(|ui| {
                    let name = |k: SortKey| match k {
                        SortKey::Relevance => t.sort_relevance.to_owned(),
                        SortKey::Name => t.sort_name.to_owned(),
                        SortKey::Vendor => t.sort_vendor.to_owned(),
                        SortKey::Price => t.sort_price.to_owned(),
                        SortKey::Figure => (figure.label)(t).to_owned(),
                    };
                    let keys = [SortKey::Relevance, SortKey::Name, SortKey::Vendor, SortKey::Price, SortKey::Figure];
                    egui::ComboBox::from_id_salt("sort")
                        .selected_text(name(self.sort))
                        .width(120.0)
                        .show_ui(ui, |ui| {
                            for k in keys {
                                if ui.selectable_label(self.sort == k, name(k)).clicked() {
                                    self.sort = k;
                                    self.stale = true;
                                }
                            }
                        })
                        .response
                        .labelled_by(label.id);
                    let arrow = if self.descending { t.sort_descending } else { t.sort_ascending };
                    if ui.button(arrow).clicked() {
                        self.descending = !self.descending;
                        self.stale = true;
                    }
                });
                ui.end_row();
            });
        });
        if *filters != before {
            self.stale = true;
        }
    }

    fn list(&mut self, ui: &mut egui::Ui, fx: &mut FrameCtx<'_>) {
        let t = fx.texts;
        let parts: Vec<Part<'_>> = fx.catalog.parts_of(self.kind).collect();
        if self.rows.is_empty() {
            ui.weak(if parts.is_empty() { t.palette_kind_empty } else { t.palette_no_match });
            return;
        }
        let rows = &self.rows;
        egui::ScrollArea::vertical().auto_shrink([false, false]).show_rows(
            ui,
            theme::PALETTE_ROW_HEIGHT,
            rows.len(),
            |ui, range| {
                for &i in rows.get(range).unwrap_or_default() {
                    if let Some(part) = parts.get(i) {
                        row(ui, fx, *part);
                    }
                }
            },
        );
    }
}

/// A price bound kept in USD and shown in the build's currency (`rate` units per USD): the
/// field reads and takes amounts in that currency, and 0 is "any".
fn price_bound(
    ui: &mut egui::Ui,
    bound_usd: &mut Option<f64>,
    rate: f64,
    prefix: &str,
    any: &'static str,
    label: egui::Id,
) {
    let rate = if rate.is_finite() && rate > 0.0 { rate } else { 1.0 };
    let mut v = bound_usd.map_or(0.0, |usd| usd * rate);
    let r = ui
        .add(
            egui::DragValue::new(&mut v)
                .speed(50.0 * rate)
                .range(0.0..=1_000_000.0 * rate)
                .prefix(prefix)
                .custom_formatter(move |n, _| if n <= 0.0 { any.to_owned() } else { format_thousands(n, 0) }),
        )
        .labelled_by(label);
    if r.changed() {
        *bound_usd = (v > 0.0).then_some(v / rate);
    }
}

/// What to say of a stale catalog price (older than the user's threshold on the report's
/// date): its date and the threshold; `None` for a fresh price, no price, or an undated report.
fn stale_hint(fx: &FrameCtx<'_>, meta: &crate::core::catalog::Meta<'_>) -> Option<String> {
    let (price, ages) = meta.dated_price().zip(fx.derived.report.prices.as_ref())?;
    ages.policy
        .is_stale(price.date)
        .then(|| fill(fx.texts.stale_price_hint, &[&price.date, &ages.policy.stale_after_months]))
}

/// A part's catalog price in USD (the unit the price filter keeps its bounds in), whatever
/// currency the catalog gives it in.
fn usd_price(part: Part<'_>) -> Option<f64> {
    crate::core::analysis::bom::catalog_unit_price(&part.meta(), &crate::core::units::Currency::default(), 1.0)
}

/// One palette row: a drag source showing name, key specs and price, with an Add button.
fn row(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, part: Part<'_>) {
    let t = fx.texts;
    let tk = fx.tokens;
    let meta = part.meta();
    let width = ui.available_width();
    let (rect, resp) = ui.allocate_exact_size(egui::vec2(width, theme::PALETTE_ROW_HEIGHT), Sense::click_and_drag());
    resp.dnd_set_drag_payload(DragPayload::Catalog(meta.id.clone()));
    if resp.double_clicked() {
        fx.push(Command::AddToSelected(meta.id.clone()));
    }
    if resp.hovered() || resp.dragged() {
        ui.painter().rect_filled(rect, 4.0, ui.visuals().widgets.hovered.weak_bg_fill);
    }
    let site = &fx.doc.build().site;
    let price = crate::core::analysis::bom::catalog_unit_price(&meta, &site.currency, site.usd_exchange_rate)
        .map_or_else(|| t.no_price.to_owned(), |p| money_whole(t, p, &site.currency));
    let mut child = ui.new_child(
        UiBuilder::new().max_rect(rect.shrink2(egui::vec2(6.0, 2.0))).layout(Layout::left_to_right(Align::Center)),
    );
    if let Some(img) = fx.icons.kind(part.kind(), theme::ICON_SIZE, child.visuals().weak_text_color()) {
        child.add(img);
    }
    child.with_layout(Layout::right_to_left(Align::Center), |ui| {
        let add = ui.small_button(t.add).on_hover_text(fill(t.add_hint, &[&selected_name(fx)]));
        if add.clicked() {
            fx.push(Command::AddToSelected(meta.id.clone()));
        }
        match stale_hint(fx, &meta) {
            Some(hint) => {
                ui.add(
                    Label::new(RichText::new(format!("{price} · {}", t.stale_mark)).monospace().color(tk.warn))
                        .selectable(false),
                )
                .on_hover_text(hint);
            }
            None => {
                ui.add(Label::new(RichText::new(price).monospace()).selectable(false));
            }
        }
        ui.with_layout(Layout::top_down(Align::Min), |ui| {
            ui.spacing_mut().item_spacing.y = 1.0;
            ui.add(Label::new(RichText::new(meta.name).strong()).truncate().selectable(false));
            ui.add(Label::new(RichText::new(key_specs(part, t)).small().color(tk.muted)).truncate().selectable(false));
        });
    });
    resp.on_hover_ui(|ui| spec_card(ui, fx, part));
}

fn selected_name(fx: &FrameCtx<'_>) -> String {
    match fx.view.selected_node {
        crate::core::build::Location::Node(i) => {
            fx.doc.build().nodes.get(i).map_or_else(String::new, |n| n.name.clone())
        }
        crate::core::build::Location::Cluster => fx.texts.cluster_area.to_owned(),
    }
}

/// Drop a build part on the palette to remove it from the build.
fn trash_zone(ui: &mut egui::Ui, fx: &mut FrameCtx<'_>, rect: egui::Rect) {
    let resp = ui.interact(rect, ui.make_persistent_id("palette-trash"), Sense::hover());
    let dragging_line =
        matches!(egui::DragAndDrop::payload::<DragPayload>(ui.ctx()).as_deref(), Some(DragPayload::Line { .. }));
    if dragging_line && resp.contains_pointer() {
        let tk = fx.tokens;
        ui.painter().rect_filled(rect, 0.0, tk.drop_refuse_fill);
        ui.painter().text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            fx.texts.drop_to_remove,
            egui::FontId::proportional(16.0),
            tk.error,
        );
    }
    if let Some(p) = resp.dnd_release_payload::<DragPayload>() {
        fx.push(Command::Drop { payload: (*p).clone(), target: DropTarget::Trash });
    }
}

/// The short spec line of a palette row.
#[must_use]
pub fn key_specs(part: Part<'_>, t: &Texts) -> String {
    let n = |v: f64| format_thousands(v, 0);
    match part {
        Part::Gpu(g) => {
            let mut s = fill(
                t.spec_gpu,
                &[&n(g.memory_gib), &g.memory_type, &n(g.memory_bandwidth_gbs), &n(g.tdp_watts), &g.form_factor],
            );
            if g.slot_width > 0.0 {
                s.push_str(&fill(t.spec_slot_width, &[&g.slot_width]));
            }
            s
        }
        Part::Cpu(c) => fill(t.spec_cpu, &[&c.cores, &c.threads, &c.socket, &n(c.tdp_watts)]),
        Part::Motherboard(b) => match &b.baseboard {
            Some(bb) => fill(t.spec_baseboard, &[&bb.form_factor, &bb.positions]),
            None => fill(
                t.spec_board,
                &[&b.socket.as_deref().unwrap_or("-"), &b.form_factor, &b.dimm_slots, &b.pcie_slots.len()],
            ),
        },
        Part::Memory(m) => {
            let ecc = if m.ecc { t.spec_ecc } else { "" };
            fill(t.spec_memory, &[&n(m.capacity_gib), &m.memory_type, &m.dimm_kind, &m.speed_mts, &ecc])
        }
        Part::Storage(s) => {
            fill(t.spec_storage, &[&format_thousands(s.capacity_gb / 1000.0, 1), &s.interface, &n(s.seq_read_mbs)])
        }
        Part::Psu(p) => fill(t.spec_psu, &[&n(p.rated_watts), &p.efficiency]),
        Part::Cooler(c) => fill(t.spec_cooler, &[&cooler_kind(c.kind, t), &n(c.rated_heat_watts)]),
        Part::Chassis(c) => fill(t.spec_chassis, &[&chassis_kind(c.kind, t), &c.expansion_slots, &n(c.airflow_cfm)]),
        Part::Nic(x) => fill(t.spec_nic, &[&x.ports, &n(x.port_speed_gbps), &x.tech]),
        Part::Switch(s) => fill(t.spec_switch, &[&s.ports, &n(s.port_speed_gbps), &s.tech, &s.rack_units]),
        Part::System(s) => {
            let gpus: u32 = s.gpus.iter().map(|g| u32::from(g.count)).sum();
            fill(t.spec_system, &[&t.n_gpus.count(gpus), &n(s.memory_gib), &n(s.max_watts)])
        }
    }
}

/// Every field of a part as (label, value) rows, from its serialized form, so nothing the
/// catalog says is left out.
#[must_use]
pub fn spec_rows(part: Part<'_>, t: &Texts) -> Vec<(String, String)> {
    let value = match part {
        Part::Gpu(p) => serde_json::to_value(p),
        Part::Cpu(p) => serde_json::to_value(p),
        Part::Motherboard(p) => serde_json::to_value(p),
        Part::Memory(p) => serde_json::to_value(p),
        Part::Storage(p) => serde_json::to_value(p),
        Part::Psu(p) => serde_json::to_value(p),
        Part::Cooler(p) => serde_json::to_value(p),
        Part::Chassis(p) => serde_json::to_value(p),
        Part::Nic(p) => serde_json::to_value(p),
        Part::Switch(p) => serde_json::to_value(p),
        Part::System(p) => serde_json::to_value(p),
    };
    let Ok(serde_json::Value::Object(map)) = value else { return Vec::new() };
    map.into_iter()
        .filter(|(k, v)| !matches!(k.as_str(), "id" | "name" | "source") && !v.is_null())
        .map(|(k, v)| (field_label(&k), value_text(&v, t)))
        .collect()
}

/// `tdp_watts` → `TDP (W)`: acronyms upper-cased, the unit suffix as a symbol.
#[must_use]
pub fn field_label(field: &str) -> String {
    const UNITS: [(&str, &str); 16] = [
        ("watts", "W"),
        ("gib", "GiB"),
        ("gbs", "GB/s"),
        ("mbs", "MB/s"),
        ("gbps", "Gb/s"),
        ("gb", "GB"),
        ("mm", "mm"),
        ("usd", "USD"),
        ("c", "°C"),
        ("tflops", "TFLOPS"),
        ("tops", "TOPS"),
        ("ghz", "GHz"),
        ("mts", "MT/s"),
        ("cfm", "CFM"),
        ("mb", "MB"),
        ("tb", "TB"),
    ];
    const ACRONYMS: [(&str, &str); 17] = [
        ("tdp", "TDP"),
        ("pcie", "PCIe"),
        ("fp32", "FP32"),
        ("fp16", "FP16"),
        ("bf16", "BF16"),
        ("fp8", "FP8"),
        ("int8", "INT8"),
        ("sku", "SKU"),
        ("cpu", "CPU"),
        ("gpu", "GPU"),
        ("psu", "PSU"),
        ("eps", "EPS"),
        ("atx", "ATX"),
        ("dimm", "DIMM"),
        ("ecc", "ECC"),
        ("nvswitch", "NVSwitch"),
        ("tjmax", "Tjmax"),
    ];
    let words: Vec<&str> = field.split('_').collect();
    let (body, unit) = match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => match UNITS.iter().find(|(k, _)| k == last) {
            Some((_, sym)) => (rest.to_vec(), Some(*sym)),
            None => (words.clone(), None),
        },
        _ => (words.clone(), None),
    };
    let mut text = body
        .iter()
        .map(|w| ACRONYMS.iter().find(|(k, _)| k == w).map_or_else(|| (*w).to_owned(), |(_, v)| (*v).to_owned()))
        .collect::<Vec<_>>()
        .join(" ");
    if let Some(first) = text.get(..1) {
        text = first.to_uppercase() + text.get(1..).unwrap_or_default();
    }
    match unit {
        Some(u) => format!("{text} ({u})"),
        None => text,
    }
}

fn value_text(v: &serde_json::Value, t: &Texts) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Bool(b) => if *b { t.yes } else { t.no }.to_owned(),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::Null => String::new(),
        serde_json::Value::Array(items) => items.iter().map(|i| value_text(i, t)).collect::<Vec<_>>().join("; "),
        serde_json::Value::Object(map) => map
            .iter()
            .map(|(k, v)| format!("{}: {}", k.replace('_', " "), value_text(v, t)))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// The hover card: every spec, the price and its date, the source, where it is defined.
pub fn spec_card(ui: &mut egui::Ui, fx: &FrameCtx<'_>, part: Part<'_>) {
    let t = fx.texts;
    let meta = part.meta();
    ui.set_max_width(420.0);
    ui.strong(meta.name);
    ui.weak(meta.id.as_str());
    egui::Grid::new(("spec", meta.id.as_str())).num_columns(2).striped(true).show(ui, |ui| {
        for (k, v) in spec_rows(part, t) {
            ui.weak(k);
            ui.label(v);
            ui.end_row();
        }
    });
    if let Some(hint) = stale_hint(fx, &meta) {
        ui.colored_label(fx.tokens.warn, hint);
    }
    ui.separator();
    ui.label(RichText::new(fill(t.source, &[&meta.source])).small());
    if let Some(origin) = fx.catalog.origins.get(meta.id) {
        ui.label(RichText::new(fill(t.defined_at, &[origin])).small().color(fx.tokens.muted));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_labels_read_well() {
        assert_eq!(field_label("tdp_watts"), "TDP (W)");
        assert_eq!(field_label("memory_bandwidth_gbs"), "Memory bandwidth (GB/s)");
        assert_eq!(field_label("max_temp_c"), "Max temp (°C)");
        assert_eq!(field_label("fp16_tensor_tflops"), "FP16 tensor (TFLOPS)");
        assert_eq!(field_label("vendor"), "Vendor");
        assert_eq!(field_label("pcie_lanes"), "PCIe lanes");
    }
}
