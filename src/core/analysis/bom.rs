//! Bill of materials and capital cost.
//!
//! One line per build line: the part's catalog data, quantity per node, node count, total
//! quantity, unit price and extended price in the build's currency. Unit prices come from the
//! build's price override when it has one, else from the catalog's dated price (USD or CNY)
//! converted to the build currency ([`convert_price`]).
//! Parts inside complete systems are priced with the system. Unknown parts and parts without a
//! price are listed with no price and counted in `unpriced_lines`, so a total is never silently
//! short.

use crate::core::build::{CostKind, Location};
use crate::core::catalog::{PartId, PartKind};
use crate::core::i18n::Lang;
use crate::core::resolve::Resolved;
use crate::core::units::Currency;
use serde::Serialize;

/// Where a line's unit price came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum PriceOrigin {
    /// The catalog's price in its own currency on its date (USD or CNY; a user catalog's
    /// imported price list included).
    Catalog { amount: f64, currency: Currency, date: String },
    /// The build's override.
    Override { note: String },
    /// Included in the price of another line of the node (a barebone chassis' board or
    /// heatsinks: `price_included_with` in the catalog).
    Included { with: PartId },
    /// No price known.
    Missing,
}

/// One line of the bill of materials.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BomLine {
    pub location: Location,
    /// The node group's name, or "Cluster".
    pub group: String,
    /// Index of the line within its node or the cluster section.
    pub line: usize,
    pub kind: Option<PartKind>,
    pub part: PartId,
    pub vendor: String,
    pub name: String,
    pub sku: Option<String>,
    pub quantity_per_node: u32,
    pub node_count: u32,
    pub total_quantity: u64,
    /// Unit price in the build's currency, if known.
    pub unit_price: Option<f64>,
    /// `unit_price × total_quantity`, if the price is known.
    pub extended_price: Option<f64>,
    pub price_origin: PriceOrigin,
    pub source: String,
}

/// A custom capex line as it enters the totals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CustomCost {
    pub name: String,
    pub quantity: u32,
    pub unit_amount: f64,
    pub amount: f64,
}

/// The bill of materials of a build.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bom {
    pub currency: Currency,
    pub usd_exchange_rate: f64,
    pub lines: Vec<BomLine>,
    pub custom_capex: Vec<CustomCost>,
    /// Sum of priced part lines.
    pub parts_total: f64,
    /// Sum of custom capex lines.
    pub custom_total: f64,
    /// Capital cost: parts plus custom capex lines, in the build's currency.
    pub capex: f64,
    /// Lines with no price (unknown parts, parts without a catalog price).
    pub unpriced_lines: usize,
}

/// Yuan per US dollar used to convert a CNY catalog price into a build currency other than
/// CNY (a CNY build converts with its own `usd_exchange_rate`): 7.2, the round figure the
/// shipped templates state for 2024–2026 (their site notes); the PBOC central parity stayed
/// between 7.0 and 7.3 CNY per USD through 2023–2025 (as recalled, not checked against the
/// CFETS series). A build priced in USD that relies on CNY catalog prices should override them
/// or set its own figures.
pub const REFERENCE_CNY_PER_USD: f64 = 7.2;

/// An amount in `from` (USD or CNY) in the currency `to`, of which there are `to_per_usd` per
/// US dollar: USD × `to_per_usd` (always: the build's rate is the one USD prices convert at,
/// as before prices had a currency); a CNY amount as is in a CNY build, else through USD at
/// [`REFERENCE_CNY_PER_USD`]. `None` for any other source currency (which catalog validation
/// refuses).
#[must_use]
pub fn convert_price(amount: f64, from: &str, to: &Currency, to_per_usd: f64) -> Option<f64> {
    match from {
        "USD" => Some(amount * to_per_usd),
        _ if from == to.0 => Some(amount),
        "CNY" => Some(amount / REFERENCE_CNY_PER_USD * to_per_usd),
        _ => None,
    }
}

/// A catalog entry's unit price in a build's currency (`currency`, with `usd_exchange_rate`
/// of it per USD): the dated catalog price converted by [`convert_price`]; `None` without a
/// price. The one place catalog prices become build amounts (the bill of materials, the
/// advisor and the palette).
#[must_use]
pub fn catalog_unit_price(
    meta: &crate::core::catalog::Meta<'_>,
    currency: &Currency,
    usd_exchange_rate: f64,
) -> Option<f64> {
    let price = meta.dated_price()?;
    convert_price(price.amount, price.currency, currency, usd_exchange_rate)
}

/// Computes the bill of materials.
#[must_use]
pub fn bill_of_materials(resolved: &Resolved<'_>) -> Bom {
    let build = resolved.build;
    let rate = build.site.usd_exchange_rate;
    let mut lines = Vec::new();
    let groups = build
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (Location::Node(i), n.name.as_str(), n.count, &n.parts))
        .chain(std::iter::once((Location::Cluster, "Cluster", 1, &build.cluster)));
    for (location, group, node_count, parts) in groups {
        let in_group = |id: &PartId| parts.iter().any(|l| &l.part == id);
        for (i, line) in parts.iter().enumerate() {
            let part = resolved.catalog.get(&line.part);
            let meta = part.map(crate::core::catalog::Part::meta);
            let included = part.and_then(|p| p.price_included_with().iter().find(|with| in_group(with)));
            let total_quantity = u64::from(line.quantity) * u64::from(node_count);
            let (unit_price, price_origin) = if let Some(o) = build.price_override(&line.part) {
                (Some(o.unit_price), PriceOrigin::Override { note: o.note.clone() })
            } else if let Some(with) = included {
                (Some(0.0), PriceOrigin::Included { with: with.clone() })
            } else if let Some((dated, price)) = meta.and_then(|m| {
                let dated = m.dated_price()?;
                Some((dated, catalog_unit_price(&m, &build.site.currency, rate)?))
            }) {
                (
                    Some(price),
                    PriceOrigin::Catalog {
                        amount: dated.amount,
                        currency: Currency(dated.currency.to_owned()),
                        date: dated.date.to_owned(),
                    },
                )
            } else {
                (None, PriceOrigin::Missing)
            };
            let extended_price = unit_price.map(|p| p * total_quantity as f64);
            lines.push(BomLine {
                location,
                group: group.to_owned(),
                line: i,
                kind: part.map(crate::core::catalog::Part::kind),
                part: line.part.clone(),
                vendor: meta.map(|m| m.vendor.to_owned()).unwrap_or_default(),
                name: meta.map_or_else(|| line.part.to_string(), |m| m.name.to_owned()),
                sku: meta.and_then(|m| m.sku.map(str::to_owned)),
                quantity_per_node: line.quantity,
                node_count,
                total_quantity,
                unit_price,
                extended_price,
                price_origin,
                source: meta.map(|m| m.source.to_owned()).unwrap_or_default(),
            });
        }
    }
    let custom_capex: Vec<CustomCost> = build
        .custom_lines
        .iter()
        .filter(|c| c.kind == CostKind::Capex)
        .map(|c| CustomCost {
            name: c.name.clone(),
            quantity: c.quantity,
            unit_amount: c.amount,
            amount: c.amount * f64::from(c.quantity),
        })
        .collect();
    let parts_total: f64 = lines.iter().filter_map(|l| l.extended_price).sum();
    let custom_total: f64 = custom_capex.iter().map(|c| c.amount).sum();
    let unpriced_lines = lines.iter().filter(|l| l.unit_price.is_none()).count();
    Bom {
        currency: build.site.currency.clone(),
        usd_exchange_rate: rate,
        lines,
        custom_capex,
        parts_total,
        custom_total,
        capex: parts_total + custom_total,
        unpriced_lines,
    }
}

/// The purchasing category of a part kind in English, as a bill of materials and a sheet
/// print it.
#[must_use]
pub fn category_label(kind: Option<PartKind>) -> &'static str {
    category_label_in(kind, Lang::En)
}

/// The purchasing category of a part kind in a language (Chinese terms from `zh-terms.md`:
/// GPU (显卡), 主板, 电源 …); `None` is a part the catalog does not know.
#[must_use]
pub fn category_label_in(kind: Option<PartKind>, lang: Lang) -> &'static str {
    let (en, zh) = match kind {
        Some(PartKind::Gpu) => ("GPU", "GPU (显卡)"),
        Some(PartKind::Cpu) => ("CPU", "CPU (处理器)"),
        Some(PartKind::Motherboard) => ("Motherboard", "主板"),
        Some(PartKind::Memory) => ("Memory", "内存"),
        Some(PartKind::Storage) => ("Storage", "存储"),
        Some(PartKind::Psu) => ("PSU", "电源"),
        Some(PartKind::Cooler) => ("Cooler", "散热器"),
        Some(PartKind::Chassis) => ("Chassis", "机箱"),
        Some(PartKind::Nic) => ("NIC", "网卡"),
        Some(PartKind::Switch) => ("Switch", "交换机"),
        Some(PartKind::System) => ("System", "整机"),
        None => ("Unknown part", "未知部件"),
    };
    match lang {
        Lang::En => en,
        Lang::ZhCn => zh,
    }
}
