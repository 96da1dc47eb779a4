//! The parts table of a build sheet: its columns, their headers and each line's value, in one
//! table that every format (CSV, XLSX, Markdown, HTML) renders. A format only decides how a
//! [`Value`] is written (escaping, number cells, a footnote number for the source).

use super::sheet::SheetLine;
use super::texts::SheetTexts;
use crate::core::i18n::Lang;

/// A column of the parts table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PartsColumn {
    Group,
    Category,
    Vendor,
    Part,
    PartId,
    Sku,
    QtyPerNode,
    Nodes,
    TotalQty,
    UnitPrice,
    ExtendedPrice,
    PriceDate,
    PriceBasis,
    Source,
}

/// The columns in sheet order.
pub const PARTS_COLUMNS: [PartsColumn; 14] = [
    PartsColumn::Group,
    PartsColumn::Category,
    PartsColumn::Vendor,
    PartsColumn::Part,
    PartsColumn::PartId,
    PartsColumn::Sku,
    PartsColumn::QtyPerNode,
    PartsColumn::Nodes,
    PartsColumn::TotalQty,
    PartsColumn::UnitPrice,
    PartsColumn::ExtendedPrice,
    PartsColumn::PriceDate,
    PartsColumn::PriceBasis,
    PartsColumn::Source,
];

/// One cell of the parts table, before a format writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// User or catalog text (escaped or neutralized by the format).
    Text(&'a str),
    /// A label of rigplan's own (category, price basis).
    Label(&'static str),
    Count(u64),
    /// An amount in the sheet's currency; `None` when the line has no price.
    Money(Option<f64>),
    /// The catalog entry's source or the override's note (Markdown and HTML print a footnote
    /// number instead).
    Source(&'a str),
}

impl PartsColumn {
    /// The English header, with the currency in the price columns (`Unit price (CNY)`).
    #[must_use]
    pub fn header(self, currency: &str) -> String {
        self.header_in(Lang::En, currency)
    }

    /// The header in a language, with the currency in the price columns (`单价（CNY）`).
    #[must_use]
    pub fn header_in(self, lang: Lang, currency: &str) -> String {
        let t = SheetTexts::of(lang);
        let i = PARTS_COLUMNS.iter().position(|&c| c == self).unwrap_or_default();
        let name = t.columns.get(i).copied().unwrap_or_default();
        if self.is_money() { t.money_header(name, currency) } else { name.to_owned() }
    }

    /// True for the columns that hold amounts.
    #[must_use]
    pub fn is_money(self) -> bool {
        matches!(self, Self::UnitPrice | Self::ExtendedPrice)
    }

    /// True for the columns a table aligns to the right (counts and amounts).
    #[must_use]
    pub fn is_numeric(self) -> bool {
        self.is_money() || matches!(self, Self::QtyPerNode | Self::Nodes | Self::TotalQty)
    }

    /// A line's value in this column; labels of rigplan's own (the price basis) in `lang`.
    #[must_use]
    pub fn value(self, line: &SheetLine, lang: Lang) -> Value<'_> {
        match self {
            Self::Group => Value::Text(&line.group),
            Self::Category => Value::Label(line.category),
            Self::Vendor => Value::Text(&line.vendor),
            Self::Part => Value::Text(&line.name),
            Self::PartId => Value::Text(line.part.as_str()),
            Self::Sku => Value::Text(line.sku.as_deref().unwrap_or_default()),
            Self::QtyPerNode => Value::Count(u64::from(line.quantity_per_node)),
            Self::Nodes => Value::Count(u64::from(line.node_count)),
            Self::TotalQty => Value::Count(line.total_quantity),
            Self::UnitPrice => Value::Money(line.unit_price),
            Self::ExtendedPrice => Value::Money(line.extended_price),
            Self::PriceDate => Value::Text(line.price_date.as_deref().unwrap_or_default()),
            Self::PriceBasis => Value::Label(line.price_basis.label_in(lang)),
            Self::Source => Value::Source(&line.source),
        }
    }
}
