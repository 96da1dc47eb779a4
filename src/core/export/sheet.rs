//! The build sheet: what every export format shows, gathered once from a build and its report.
//!
//! Theory of operation: [`BuildSheet::new`] reads the analysed [`Report`] (it computes nothing
//! the analyses already computed) and arranges it for purchasing: one line per part line with
//! its price basis, the custom line items, the totals with tax, shipping and installation as
//! the TCO analysis computed them, and a summary of the headline results (wall power, heat,
//! compatibility, workload fit and the TCO against the primary cloud option). Every format
//! (CSV, XLSX, Markdown, HTML, JSON) renders this one structure, so they agree line by line.
//! Lists keep the build's order; nothing depends on the clock (the date is an argument).

use super::date::SheetDate;
use super::texts::{SheetTexts, fill};
use crate::core::analysis::Report;
use crate::core::analysis::Severity;
use crate::core::analysis::bom::PriceOrigin;
use crate::core::analysis::prices::{PriceAgePolicy, PriceAges, price_ages};
use crate::core::analysis::summary::Summary;
use crate::core::build::{Build, CostKind};
use crate::core::catalog::{PartId, PartKind};
use crate::core::i18n::Lang;
use crate::core::units::Currency;
use serde::Serialize;

/// Where a line's unit price came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PriceBasis {
    /// The catalog's dated price (USD or CNY) in the sheet's currency.
    Catalog,
    /// A catalog price older than the sheet's threshold (12 months unless set): to be checked
    /// with the vendor before buying.
    StaleCatalog,
    /// The build's price override.
    Override,
    /// Included in the price of another line of the node (a barebone chassis).
    Included,
    /// No price known: the line is not in the totals.
    None,
}

impl PriceBasis {
    /// Short text for a table cell (English).
    #[must_use]
    pub fn label(self) -> &'static str {
        self.label_in(Lang::En)
    }

    /// Short text for a table cell in a language.
    #[must_use]
    pub fn label_in(self, lang: Lang) -> &'static str {
        let [catalog, stale, overridden, included, none] = SheetTexts::of(lang).price_bases;
        match self {
            Self::Catalog => catalog,
            Self::StaleCatalog => stale,
            Self::Override => overridden,
            Self::Included => included,
            Self::None => none,
        }
    }
}

/// One part line of the sheet.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetLine {
    /// The node group's name, or "Cluster".
    pub group: String,
    /// Purchasing category in the sheet's language ([`SheetTexts::category`]).
    pub category: &'static str,
    pub kind: Option<PartKind>,
    pub vendor: String,
    /// The catalog name; for a part the catalog does not know, its id.
    pub name: String,
    pub part: PartId,
    pub sku: Option<String>,
    pub quantity_per_node: u32,
    pub node_count: u32,
    pub total_quantity: u64,
    /// In the sheet's currency.
    pub unit_price: Option<f64>,
    pub extended_price: Option<f64>,
    /// The catalog price's date (`YYYY-MM` or `YYYY-MM-DD`); none for overrides.
    pub price_date: Option<String>,
    pub price_basis: PriceBasis,
    /// The catalog entry's `source`, or the override's note.
    pub source: String,
}

/// A custom line item of the build.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetCustomLine {
    pub name: String,
    /// `capex` lines are in the totals; `opex_per_year` lines are running costs (in the TCO).
    pub kind: CustomKind,
    pub quantity: u32,
    pub unit_amount: f64,
    pub amount: f64,
}

/// A custom line's kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CustomKind {
    Capex,
    OpexPerYear,
}

impl CustomKind {
    /// Short text for a table cell (English).
    #[must_use]
    pub fn label(self) -> &'static str {
        self.label_in(Lang::En)
    }

    /// Short text for a table cell in a language.
    #[must_use]
    pub fn label_in(self, lang: Lang) -> &'static str {
        let [capex, per_year] = SheetTexts::of(lang).custom_kinds;
        match self {
            Self::Capex => capex,
            Self::OpexPerYear => per_year,
        }
    }
}

/// A percentage surcharge on the parts total.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Surcharge {
    pub percent: f64,
    pub amount: f64,
}

/// The sheet's totals, in its currency (as the TCO analysis computes capex).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetTotals {
    /// Sum of the priced part lines.
    pub parts: f64,
    /// Sum of the custom capex lines.
    pub custom: f64,
    /// Present when the build's cost settings set a percentage.
    pub tax: Option<Surcharge>,
    pub shipping: Option<Surcharge>,
    pub installation: Option<Surcharge>,
    /// parts × (1 + tax % + shipping % + installation %) + custom.
    pub capex: f64,
    /// Custom running costs per year (not in capex).
    pub custom_opex_per_year: f64,
    /// Part lines with no price, left out of the totals.
    pub unpriced_lines: usize,
}

/// A finding a buyer must see before ordering (errors and warnings; notes stay in the report).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetFinding {
    pub severity: Severity,
    pub code: String,
    pub message: String,
    pub fix: Option<String>,
}

/// The headline results: the report's [`Summary`] and the findings a buyer must read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SheetSummary {
    #[serde(flatten)]
    pub headline: Summary,
    /// The errors and warnings, most severe first.
    pub findings: Vec<SheetFinding>,
}

/// Everything a build sheet shows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BuildSheet {
    /// The language of the sheet's words (headers, categories, findings, notes); JSON keys
    /// stay English whatever it is.
    pub lang: Lang,
    pub build_name: String,
    pub description: String,
    pub date: SheetDate,
    pub currency: Currency,
    /// Units of `currency` per USD, the rate catalog prices were converted at.
    pub usd_exchange_rate: f64,
    pub lines: Vec<SheetLine>,
    pub custom_lines: Vec<SheetCustomLine>,
    pub totals: SheetTotals,
    pub summary: SheetSummary,
    /// The age of the catalog prices on the sheet's date (the report's, when it was dated with
    /// a threshold of the user's).
    pub prices: PriceAges,
    /// Caveats a buyer must read (unpriced lines, unknown parts, stale prices), in sentences.
    pub notes: Vec<String>,
}

/// A percentage only when it is set.
fn surcharge(percent: f64, amount: f64) -> Option<Surcharge> {
    (percent > 0.0).then_some(Surcharge { percent, amount })
}

impl BuildSheet {
    /// Gathers the English sheet of `build` from its `report` (from
    /// [`crate::core::analysis::analyze`] on the same catalog and build); `date` is printed on
    /// the sheet.
    #[must_use]
    pub fn new(build: &Build, report: &Report, date: SheetDate) -> Self {
        Self::new_in(build, report, date, Lang::En)
    }

    /// As [`Self::new`], with the sheet's words (categories, price notes, findings, notes) in
    /// `lang`.
    #[must_use]
    pub fn new_in(build: &Build, report: &Report, date: SheetDate, lang: Lang) -> Self {
        let t = SheetTexts::of(lang);
        let bom = &report.bom;
        let policy = report.prices.as_ref().map_or_else(|| PriceAgePolicy::at(date), |p| p.policy);
        let prices = price_ages(bom, policy);
        let lines: Vec<SheetLine> = bom
            .lines
            .iter()
            .map(|l| {
                let (price_date, price_basis, source) = match &l.price_origin {
                    PriceOrigin::Catalog { date, .. } => {
                        let basis = if policy.is_stale(date) { PriceBasis::StaleCatalog } else { PriceBasis::Catalog };
                        (Some(date.clone()).filter(|d| !d.is_empty()), basis, l.source.clone())
                    }
                    PriceOrigin::Override { note } => (None, PriceBasis::Override, note.clone()),
                    PriceOrigin::Included { with } => {
                        (None, PriceBasis::Included, fill(t.included_in, &[with, &l.source]))
                    }
                    PriceOrigin::Missing => (None, PriceBasis::None, l.source.clone()),
                };
                SheetLine {
                    group: l.group.clone(),
                    category: t.category(l.kind),
                    kind: l.kind,
                    vendor: l.vendor.clone(),
                    name: l.name.clone(),
                    part: l.part.clone(),
                    sku: l.sku.clone(),
                    quantity_per_node: l.quantity_per_node,
                    node_count: l.node_count,
                    total_quantity: l.total_quantity,
                    unit_price: l.unit_price,
                    extended_price: l.extended_price,
                    price_date,
                    price_basis,
                    source,
                }
            })
            .collect();
        let custom_lines: Vec<SheetCustomLine> = build
            .custom_lines
            .iter()
            .map(|c| SheetCustomLine {
                name: c.name.clone(),
                kind: match c.kind {
                    CostKind::Capex => CustomKind::Capex,
                    CostKind::OpexPerYear => CustomKind::OpexPerYear,
                },
                quantity: c.quantity,
                unit_amount: c.amount,
                amount: c.amount * f64::from(c.quantity),
            })
            .collect();
        let tco = &report.tco;
        let c = &tco.capex_lines;
        let totals = SheetTotals {
            parts: c.parts,
            custom: c.custom,
            tax: surcharge(build.costs.tax_percent, c.tax),
            shipping: surcharge(build.costs.shipping_percent, c.shipping),
            installation: surcharge(build.costs.installation_percent, c.installation),
            capex: tco.capex,
            custom_opex_per_year: custom_lines
                .iter()
                .filter(|l| l.kind == CustomKind::OpexPerYear)
                .map(|l| l.amount)
                .sum(),
            unpriced_lines: bom.unpriced_lines,
        };
        let mut notes = Vec::new();
        if bom.unpriced_lines > 0 {
            notes.push(fill(t.note_unpriced, &[&bom.unpriced_lines]));
        }
        let unknown = lines.iter().filter(|l| l.kind.is_none()).count();
        if unknown > 0 {
            notes.push(fill(t.note_unknown, &[&unknown]));
        }
        if prices.stale_lines() > 0 {
            notes.push(fill(
                t.note_stale,
                &[&prices.stale_lines(), &prices.dated_lines, &policy.stale_after_months, &policy.as_of],
            ));
        }
        Self {
            lang,
            build_name: build.name.clone(),
            description: build.description.clone(),
            date,
            currency: bom.currency.clone(),
            usd_exchange_rate: bom.usd_exchange_rate,
            lines,
            custom_lines,
            totals,
            summary: summary(report, lang),
            prices,
            notes,
        }
    }
}

fn summary(report: &Report, lang: Lang) -> SheetSummary {
    SheetSummary {
        headline: report.summary.clone(),
        findings: report
            .diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Info)
            .map(|d| SheetFinding {
                severity: d.severity,
                code: d.code.to_string(),
                message: d.message_in(lang),
                fix: d.fix_in(lang),
            })
            .collect(),
    }
}
