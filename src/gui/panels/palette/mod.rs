//! The catalog palette: category tabs, fuzzy search, per-kind filters, sorting, and a list in
//! which only the visible rows are laid out. Each row is a drag source; double-click or
//! its Add button adds the part to the selected node; hovering shows every spec and where it
//! came from. The palette is also a drop target that removes build parts dragged onto it.

mod spec;

use spec::stale_hint;
pub use spec::{chassis_kind, cooler_kind, display_name, field_label, field_label_in, key_specs, spec_card, spec_rows};

use crate::core::catalog::{Catalog, Part, PartId, PartKind};
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
    /// Value: price per GiB of GPU memory (GPUs and systems; lowest first).
    PricePerGib,
    /// Value: price per dense 16-bit tensor TFLOPS (GPUs and systems; lowest first).
    PricePerTflops,
}

impl SortKey {
    /// The value sorts, offered where parts carry GPUs.
    const VALUE: [Self; 2] = [Self::PricePerGib, Self::PricePerTflops];
}

/// The GPU memory (GiB) and dense 16-bit tensor throughput (TFLOPS, BF16 where the card has
/// it, else FP16: [`crate::core::catalog::Gpu::dense_16bit_tflops`]) a part brings: a GPU's
/// own, a system's summed over its GPUs (count × the catalog's GPU). None for other kinds or a
/// system whose GPUs the catalog does not hold.
fn gpu_resources(part: Part<'_>, catalog: &Catalog) -> Option<(f64, f64)> {
    match part {
        Part::Gpu(g) => Some((g.memory_gib, g.dense_16bit_tflops())),
        Part::System(s) if !s.gpus.is_empty() => s.gpus.iter().try_fold((0.0, 0.0), |(gib, tflops), sg| {
            let g = catalog.gpu(&sg.gpu)?;
            let n = f64::from(sg.count);
            Some((gib + n * g.memory_gib, tflops + n * g.dense_16bit_tflops()))
        }),
        _ => None,
    }
}

/// A part's value by `key` in USD per unit (price ÷ GiB, or price ÷ TFLOPS): what a buyer
/// compares across cards. None without a price, a resource, or for a non-value key.
#[must_use]
pub fn value_usd(part: Part<'_>, catalog: &Catalog, key: SortKey) -> Option<f64> {
    let price = usd_price(part)?;
    let (gib, tflops) = gpu_resources(part, catalog)?;
    let per = match key {
        SortKey::PricePerGib => gib,
        SortKey::PricePerTflops => tflops,
        _ => return None,
    };
    (per > 0.0 && price.is_finite()).then(|| price / per)
}

/// The sort direction as a square button with an arrow drawn in it (the bundled fonts have no
/// arrow glyph), named by its word for screen readers and on hover.
fn direction_button(ui: &mut egui::Ui, descending: bool, word: &str) -> egui::Response {
    let side = ui.spacing().interact_size.y;
    let (rect, resp) = ui.allocate_exact_size(egui::vec2(side, side), Sense::click());
    resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, word));
    if ui.is_rect_visible(rect) {
        let visuals = ui.style().interact(&resp);
        ui.painter().rect(
            rect,
            visuals.corner_radius,
            visuals.weak_bg_fill,
            visuals.bg_stroke,
            egui::StrokeKind::Inside,
        );
        let c = rect.center();
        let (w, h) = (side * 0.2, side * 0.25);
        let (tip, base) = if descending { (h, -h) } else { (-h, h) };
        let shaft = egui::Stroke::new(1.5, visuals.fg_stroke.color);
        ui.painter().line_segment([egui::pos2(c.x, c.y + base), egui::pos2(c.x, c.y + tip)], shaft);
        ui.painter().line_segment([egui::pos2(c.x - w, c.y + tip - tip * 0.6), egui::pos2(c.x, c.y + tip)], shaft);
        ui.painter().line_segment([egui::pos2(c.x + w, c.y + tip - tip * 0.6), egui::pos2(c.x, c.y + tip)], shaft);
    }
    resp.on_hover_text(word)
}

/// The narrowest a filter's drop-down is made in a narrow palette.
const COMBO_MIN_WIDTH: f32 = 90.0;

/// A filter with a choice of values ("Vendor: NVIDIA").
struct ChoiceFacet {
    label: fn(&Texts) -> &'static str,
    value: fn(Part<'_>, &Texts) -> Option<String>,
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
            SortKey::Price => scored
                .sort_by(|a, b| by_amount(usd_price(a.2), usd_price(b.2)).then_with(|| name(&a.2).cmp(&name(&b.2)))),
            key @ (SortKey::PricePerGib | SortKey::PricePerTflops) => scored.sort_by(|a, b| {
                by_amount(value_usd(a.2, catalog, key), value_usd(b.2, catalog, key))
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

    /// Clears every filter of the shown kind (choices, key figure, price range); the search and
    /// the sort stay.
    pub fn reset_filters(&mut self) {
        if let Some(f) = self.filters.get_mut(&self.kind) {
            *f = Filters { choices: vec![None; f.choices.len()], ..Filters::default() };
        }
        self.stale = true;
    }

    /// Whether the shown kind has any filter set.
    #[must_use]
    pub fn filtered(&self) -> bool {
        self.filters.get(&self.kind).is_some_and(|f| {
            f.choices.iter().any(Option::is_some)
                || f.figure_min.is_some()
                || f.price_min_usd.is_some()
                || f.price_max_usd.is_some()
        })
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
            // The controls' column is sized from the panel and the widest label in this frame
            // (not from the grid's cells, whose widths settle a frame later).
            let site = &fx.doc.build().site;
            let font = egui::TextStyle::Body.resolve(ui.style());
            let mut labels: Vec<String> = facets.iter().map(|f| (f.label)(t).to_owned()).collect();
            labels.push(fill(t.at_least, &[&(figure.label)(t)]));
            labels.push(fill(t.filter_price, &[&site.currency]));
            labels.push(t.sort_by.to_owned());
            let widest = ui.fonts_mut(|f| {
                labels
                    .into_iter()
                    .map(|l| f.layout_no_wrap(l, font.clone(), egui::Color32::WHITE).size().x)
                    .fold(0.0, f32::max)
            });
            let controls = (ui.available_width() - widest - 8.0).max(COMBO_MIN_WIDTH);
            egui::Grid::new(("filter-grid", kind)).num_columns(2).spacing([8.0, 4.0]).show(ui, |ui| {
                for (i, facet) in facets.iter().enumerate() {
                    let label = ui.label((facet.label)(t));
                    let chosen = filters.choices.get(i).cloned().flatten();
                    let shown = chosen.clone().unwrap_or_else(|| t.any.to_owned());
                    egui::ComboBox::from_id_salt(("choice", kind, i))
                        .selected_text(shown)
                        .width(controls.min(170.0))
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
                        .width(controls.min(170.0))
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
                let label = ui.label(fill(t.filter_price, &[&site.currency]));
                let rate = site.usd_exchange_rate;
                ui.horizontal(|ui| {
                    // Two fields and a dash between them share the cell, so that a narrow palette
                    // keeps both; which is which says itself on hover.
                    let width = ((controls - 3.0 * ui.spacing().item_spacing.x - 8.0) / 2.0
                        - 2.0 * ui.spacing().button_padding.x)
                        .clamp(40.0, 80.0);
                    let bound = (rate, width);
                    price_bound(
                        ui,
                        ("price-min", kind),
                        &mut filters.price_min_usd,
                        bound,
                        (t.any, t.price_from),
                        label.id,
                    );
                    ui.label("–");
                    price_bound(
                        ui,
                        ("price-max", kind),
                        &mut filters.price_max_usd,
                        bound,
                        (t.any, t.price_to),
                        label.id,
                    );
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
                        SortKey::PricePerGib => t.sort_price_per_gib.to_owned(),
                        SortKey::PricePerTflops => t.sort_price_per_tflops.to_owned(),
                    };
                    let mut keys =
                        vec![SortKey::Relevance, SortKey::Name, SortKey::Vendor, SortKey::Price, SortKey::Figure];
                    let has_gpus = matches!(kind, PartKind::Gpu | PartKind::System);
                    if has_gpus {
                        keys.extend(SortKey::VALUE);
                    } else if SortKey::VALUE.contains(&self.sort) {
                        // A value sort chosen on GPUs means nothing for, say, PSUs.
                        self.sort = SortKey::Relevance;
                        self.stale = true;
                    }
                    // The direction is an arrow (its word on hover), so that the row fits a narrow
                    // palette.
                    let direction = if self.descending { t.sort_descending } else { t.sort_ascending };
                    let arrow_width = ui.spacing().interact_size.y + ui.spacing().item_spacing.x;
                    egui::ComboBox::from_id_salt("sort")
                        .selected_text(name(self.sort))
                        .width((controls - arrow_width - ui.spacing().icon_width).clamp(COMBO_MIN_WIDTH, 150.0))
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
                    if direction_button(ui, self.descending, direction).clicked() {
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
        if ui.add_enabled(self.filtered(), egui::Button::new(t.reset_filters).small()).clicked() {
            self.reset_filters();
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

/// A price bound kept in USD and shown in the build's currency (`rate` units per USD), in a
/// field `width` points wide: a text
/// field that reads and takes an amount in that currency. Empty (or 0) is "any", shown by the
/// field's hint; thousands separators and spaces are allowed; text that is no amount is marked
/// and leaves the bound as it was. While the field is not being edited it shows the bound, so a
/// reset shows at once and unreadable text gives way to the bound in force.
fn price_bound(
    ui: &mut egui::Ui,
    salt: impl std::hash::Hash + std::fmt::Debug,
    bound_usd: &mut Option<f64>,
    (rate, width): (f64, f32),
    (any, which): (&'static str, &'static str),
    label: egui::Id,
) {
    let rate = if rate.is_finite() && rate > 0.0 { rate } else { 1.0 };
    let id = ui.make_persistent_id(salt);
    let shown = |b: Option<f64>| b.map_or_else(String::new, |usd| format_thousands(usd * rate, 0));
    let mut text = ui.data_mut(|d| d.get_temp::<String>(id)).unwrap_or_else(|| shown(*bound_usd));
    let parsed = parse_amount(&text);
    let mut edit = TextEdit::singleline(&mut text).id(id.with("edit")).hint_text(any).desired_width(width);
    if parsed == Amount::Unreadable {
        edit = edit.text_color(ui.visuals().error_fg_color);
    }
    let r = ui.add(edit).labelled_by(label).on_hover_text(which);
    if r.changed() {
        match parse_amount(&text) {
            Amount::Any => *bound_usd = None,
            Amount::At(v) => *bound_usd = (v > 0.0).then_some(v / rate),
            Amount::Unreadable => {}
        }
    }
    if !r.has_focus() {
        text = shown(*bound_usd);
    }
    ui.data_mut(|d| d.insert_temp(id, text));
}

/// What a price field holds.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Amount {
    /// Empty: no bound.
    Any,
    /// A finite, non-negative number.
    At(f64),
    /// Text that is no amount.
    Unreadable,
}

/// Reads a typed amount; separators `,`, `_` and spaces are allowed.
fn parse_amount(text: &str) -> Amount {
    let digits: String = text.chars().filter(|c| !matches!(c, ',' | '_' | ' ' | '\u{a0}')).collect();
    if digits.is_empty() {
        return Amount::Any;
    }
    match digits.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Amount::At(v),
        _ => Amount::Unreadable,
    }
}

/// Ascending amounts, parts without one last either way.
fn by_amount(a: Option<f64>, b: Option<f64>) -> std::cmp::Ordering {
    match (a, b) {
        (Some(x), Some(y)) => x.total_cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    }
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
    // The name has a line of its own, the whole width of the row (issue 17: at 1280–1600 px
    // the price and its stale mark left too little room and GPU names were cut); the key
    // specs share the second line with the price and the Add button.
    child.vertical(|ui| {
        ui.spacing_mut().item_spacing.y = 1.0;
        ui.add(Label::new(RichText::new(meta.name).strong()).truncate().selectable(false));
        ui.with_layout(Layout::right_to_left(Align::Center), |ui| {
            let add = ui.small_button(t.add).on_hover_text(fill(t.add_hint, &[&selected_name(fx)]));
            if add.clicked() {
                fx.push(Command::AddToSelected(meta.id.clone()));
            }
            match stale_hint(fx, &meta) {
                Some(hint) => {
                    let text = format!("{price} · {}", t.stale_mark);
                    ui.add(Label::new(RichText::new(text).small().monospace().color(tk.warn)).selectable(false))
                        .on_hover_text(hint);
                }
                None => {
                    ui.add(Label::new(RichText::new(price).small().monospace()).selectable(false));
                }
            }
            ui.with_layout(Layout::left_to_right(Align::Center), |ui| {
                ui.add(
                    Label::new(RichText::new(key_specs(part, t)).small().color(tk.muted)).truncate().selectable(false),
                );
            });
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
