//! Vendor price lists: reading a CSV or XLSX list, matching its rows to catalog parts, and the
//! user catalog's `prices.ron` that keeps the imported prices.
//!
//! Theory of operation: a price list is a table whose header row names its columns: the part
//! by `id` or by `name` (or both; the id wins where a row has one), `price`, `currency` (USD or
//! CNY) and `date` (English or Chinese headers; case and spacing do not matter).
//! [`read_price_list`] turns the first sheet of an XLSX file or a CSV file into [`PriceRow`]s
//! with their spreadsheet row numbers; [`match_rows`] matches each row to one catalog part
//! (an id exactly; a name, then a SKU, without regard to case) and checks its price, currency
//! and date, so that every row either matches with a [`Price`] or does not with a reason.
//! The matched prices are kept in the user catalog folder's `prices.ron`
//! ([`PriceListEntry`], merged by part id: a newer import replaces an older price of the same
//! part), which [`super::Catalog::load_dir_overlay`] lays over the parts' own prices. The
//! parts' specifications stay the catalog's, so a later catalog fix still reaches them.

use super::validate::price_problem;
use super::{Catalog, PartId, Price};
use crate::core::export::date::SheetDate;
use crate::core::i18n::{Lang, Sentence};
use crate::core::units::Currency;
use crate::text;
use serde::{Deserialize, Serialize};

/// File name of the imported prices in a user catalog folder.
pub const PRICES_FILE: &str = "prices.ron";

/// Most rows one price list may hold: a distributor's full list is a few thousand lines; the
/// bound keeps a stray huge sheet from being matched row by row against the catalog.
pub const MAX_PRICE_ROWS: usize = 100_000;

/// Days from 1899-12-30, the day spreadsheets count serial dates from (Excel's 1900 date
/// system with its 1900 leap-year bug folded in, ECMA-376 Part 1 §18.17.4.1), to 1970-01-01.
const SPREADSHEET_EPOCH_TO_UNIX_DAYS: i64 = 25_569;

crate::templates! {
    pub(crate) TEMPLATES;
    REASON_NO_KEY "" {
        en: "neither an id nor a name",
        zh: "既没有 ID 也没有名称",
    }
    REASON_UNKNOWN_ID "" {
        en: "no catalog part has the id `{key}`",
        zh: "部件库中没有 ID 为 `{key}` 的部件",
    }
    REASON_UNKNOWN_NAME "" {
        en: "no catalog part is named `{key}` (or has it as SKU)",
        zh: "部件库中没有名称（或 SKU）为 `{key}` 的部件",
    }
    REASON_AMBIGUOUS "" {
        en: "`{key}` names several parts ({parts}); give the id",
        zh: "`{key}` 对应多个部件（{parts}）；请填写 ID",
    }
    REASON_BAD_PRICE "" {
        en: "price `{text}` is not a number",
        zh: "价格 `{text}` 不是数字",
    }
    REASON_BAD_DATE "" {
        en: "date `{text}` is not a date (YYYY-MM-DD or YYYY-MM)",
        zh: "日期 `{text}` 不是日期（YYYY-MM-DD 或 YYYY-MM）",
    }
    REASON_INVALID "" {
        en: "unusable price: {problem}",
        zh: "价格不可用：{problem}",
    }
    REASON_SUPERSEDED "" {
        en: "row {row} prices the same part again; the later row is used",
        zh: "第 {row} 行再次给出了同一部件的价格；以后者为准",
    }
}

/// Why a price list could not be read at all (a row that cannot be used is a
/// [`UnmatchedRow`], not an error).
#[derive(Debug, thiserror::Error)]
pub enum PriceListError {
    #[error("not a readable CSV file: {0}")]
    Csv(String),
    #[error("not a readable spreadsheet: {0}")]
    Spreadsheet(String),
    #[error("the list has no rows")]
    Empty,
    #[error(
        "the header row (row {row}) lacks {missing}; a price list needs columns id or name, price, currency and date"
    )]
    Header { row: usize, missing: String },
    #[error("the list has {0} rows; at most {MAX_PRICE_ROWS} are read")]
    TooLong(usize),
}

/// How a price list file is encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriceListFormat {
    Csv,
    /// XLSX (and the other workbooks calamine reads: XLS, XLSB, ODS): the first sheet.
    Spreadsheet,
}

impl PriceListFormat {
    /// The format of a file by its extension (`.csv`; `.xlsx`, `.xlsm`, `.xls`, `.xlsb`,
    /// `.ods`), case-insensitive.
    #[must_use]
    pub fn from_path(path: &std::path::Path) -> Option<Self> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "csv" | "txt" => Some(Self::Csv),
            "xlsx" | "xlsm" | "xls" | "xlsb" | "ods" => Some(Self::Spreadsheet),
            _ => None,
        }
    }
}

/// One data row of a price list, as text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PriceRow {
    /// 1-based row number as a spreadsheet shows it (the header is a row too).
    pub row: usize,
    pub id: String,
    pub name: String,
    pub price: String,
    pub currency: String,
    pub date: String,
}

/// The columns of a header row.
#[derive(Default)]
struct Columns {
    id: Option<usize>,
    name: Option<usize>,
    price: Option<usize>,
    currency: Option<usize>,
    date: Option<usize>,
}

/// Which column a header names: English and the Chinese words of Chinese quotes (编号, 型号,
/// 名称, 单价, 币种, 报价日期 …).
fn header_kind(header: &str) -> Option<&'static str> {
    let h: String = header.trim().to_lowercase().chars().filter(|c| !c.is_whitespace() && *c != '_').collect();
    Some(match h.as_str() {
        "id" | "partid" | "part" | "catalogid" | "编号" | "部件id" => "id",
        "name" | "partname" | "model" | "product" | "description" | "名称" | "型号" | "产品" | "产品名称" => {
            "name"
        }
        "price" | "unitprice" | "amount" | "价格" | "单价" | "含税单价" | "报价" => "price",
        "currency" | "币种" | "货币" => "currency",
        "date" | "pricedate" | "quotedate" | "日期" | "报价日期" | "价格日期" => "date",
        _ => return None,
    })
}

/// Reads a price list: the header row (the first non-empty row) and every non-empty row
/// after it.
///
/// # Errors
/// A file that is not CSV or a workbook, a list without rows, a header without the needed
/// columns, or more than [`MAX_PRICE_ROWS`] rows.
pub fn read_price_list(bytes: &[u8], format: PriceListFormat) -> Result<Vec<PriceRow>, PriceListError> {
    let table = match format {
        PriceListFormat::Csv => csv_table(bytes)?,
        PriceListFormat::Spreadsheet => spreadsheet_table(bytes)?,
    };
    let mut rows = table.into_iter().enumerate().filter(|(_, cells)| cells.iter().any(|c| !c.trim().is_empty()));
    let Some((header_index, header)) = rows.next() else { return Err(PriceListError::Empty) };
    let mut cols = Columns::default();
    for (i, cell) in header.iter().enumerate() {
        let slot = match header_kind(cell) {
            Some("id") => &mut cols.id,
            Some("name") => &mut cols.name,
            Some("price") => &mut cols.price,
            Some("currency") => &mut cols.currency,
            Some("date") => &mut cols.date,
            _ => continue,
        };
        slot.get_or_insert(i);
    }
    let mut missing = Vec::new();
    if cols.id.is_none() && cols.name.is_none() {
        missing.push("id or name");
    }
    for (name, col) in [("price", cols.price), ("currency", cols.currency), ("date", cols.date)] {
        if col.is_none() {
            missing.push(name);
        }
    }
    if !missing.is_empty() {
        return Err(PriceListError::Header { row: header_index + 1, missing: missing.join(", ") });
    }
    let cell = |cells: &[String], col: Option<usize>| {
        col.and_then(|c| cells.get(c)).map(|s| s.trim().to_owned()).unwrap_or_default()
    };
    let out: Vec<PriceRow> = rows
        .map(|(i, cells)| PriceRow {
            row: i + 1,
            id: cell(&cells, cols.id),
            name: cell(&cells, cols.name),
            price: cell(&cells, cols.price),
            currency: cell(&cells, cols.currency),
            date: cell(&cells, cols.date),
        })
        .collect();
    if out.len() > MAX_PRICE_ROWS {
        return Err(PriceListError::TooLong(out.len()));
    }
    Ok(out)
}

fn csv_table(bytes: &[u8]) -> Result<Vec<Vec<String>>, PriceListError> {
    // A UTF-8 byte order mark (Excel writes one in "CSV UTF-8") is not part of the first header.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(bytes);
    let mut table = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| PriceListError::Csv(e.to_string()))?;
        table.push(record.iter().map(str::to_owned).collect());
        if table.len() > MAX_PRICE_ROWS + 1 {
            return Err(PriceListError::TooLong(table.len()));
        }
    }
    Ok(table)
}

fn spreadsheet_table(bytes: &[u8]) -> Result<Vec<Vec<String>>, PriceListError> {
    use calamine::{Data, Reader};
    let mut book = calamine::open_workbook_auto_from_rs(std::io::Cursor::new(bytes))
        .map_err(|e| PriceListError::Spreadsheet(e.to_string()))?;
    let range = book
        .worksheet_range_at(0)
        .ok_or_else(|| PriceListError::Spreadsheet("the workbook has no sheet".to_owned()))?
        .map_err(|e| PriceListError::Spreadsheet(e.to_string()))?;
    if range.height() > MAX_PRICE_ROWS + 1 {
        return Err(PriceListError::TooLong(range.height()));
    }
    // Rows of the range start at its first used row; keep the spreadsheet's numbering.
    let first_row = range.start().map_or(0, |(r, _)| r as usize);
    let first_col = range.start().map_or(0, |(_, c)| c as usize);
    let mut table = vec![Vec::new(); first_row];
    for row in range.rows() {
        let mut cells = vec![String::new(); first_col];
        cells.extend(row.iter().map(|cell| match cell {
            Data::Empty | Data::Error(_) => String::new(),
            Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => s.clone(),
            Data::Int(i) => i.to_string(),
            Data::Float(f) => f.to_string(),
            Data::Bool(b) => b.to_string(),
            Data::DateTime(d) => serial_date(d.as_f64()).unwrap_or_else(|| d.as_f64().to_string()),
        }));
        table.push(cells);
    }
    Ok(table)
}

/// A spreadsheet serial date (days since 1899-12-30) as `YYYY-MM-DD`.
#[expect(clippy::cast_possible_truncation, reason = "the serial is checked to be a finite day count below 10^7")]
fn serial_date(serial: f64) -> Option<String> {
    if !serial.is_finite() || !(1.0..10_000_000.0).contains(&serial) {
        return None;
    }
    let day = serial.floor() as i64 - SPREADSHEET_EPOCH_TO_UNIX_DAYS;
    SheetDate::from_days_since_unix_epoch(day).ok().map(|d| d.to_string())
}

/// How a row found its part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchedBy {
    Id,
    Name,
    Sku,
}

/// A row that names one catalog part with a usable price.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchedRow {
    pub row: usize,
    pub part: PartId,
    pub name: String,
    pub by: MatchedBy,
    pub price: Price,
}

/// A row that does not, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnmatchedRow {
    pub row: usize,
    /// What the row named the part by (its id, else its name).
    pub key: String,
    pub reason: Sentence,
}

/// What an import matched and what it did not.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ImportOutcome {
    pub matched: Vec<MatchedRow>,
    pub unmatched: Vec<UnmatchedRow>,
}

impl ImportOutcome {
    /// Renders the reasons in `lang`.
    pub fn localize(&mut self, lang: Lang) {
        self.unmatched.iter_mut().for_each(|u| u.reason.localize(lang));
    }
}

/// A price as a vendor writes it: digits with thousands separators and a currency sign or
/// word around them (`¥12,999`, `12999 元`, `$1,599.00`, `CNY 12999`).
fn parse_amount(text: &str) -> Option<f64> {
    let cleaned: String = text
        .replace("RMB", "")
        .replace("CNY", "")
        .replace("USD", "")
        .chars()
        .filter(|c| !matches!(c, ',' | '，' | '¥' | '￥' | '$' | '元' | ' ' | '\u{a0}'))
        .collect();
    cleaned.parse::<f64>().ok()
}

/// A currency as a price list writes it: the ISO code in any case, or its sign or word.
fn parse_currency(text: &str) -> String {
    match text.trim() {
        "¥" | "￥" | "元" | "人民币" | "RMB" | "rmb" => "CNY".to_owned(),
        "$" | "美元" | "US$" => "USD".to_owned(),
        other => other.to_ascii_uppercase(),
    }
}

/// A date as a price list writes it: `YYYY-MM-DD`, `YYYY/M/D`, `YYYY.MM.DD`, `YYYY年M月D日`,
/// or the month alone (`YYYY-MM`), as the catalog writes dates.
fn parse_date(text: &str) -> Option<String> {
    let normalized: String =
        text.trim().chars().map(|c| if matches!(c, '/' | '.' | '年' | '月') { '-' } else { c }).collect();
    let normalized = normalized.trim_end_matches('日').trim_end_matches('-');
    // A date-and-time keeps its date.
    let date = normalized.split(['T', ' ']).next().unwrap_or_default();
    let parts: Vec<&str> = date.split('-').collect();
    let num = |s: &str| s.parse::<u32>().ok().filter(|_| !s.is_empty() && s.len() <= 4);
    match parts.as_slice() {
        [y, m] if y.len() == 4 => {
            let (y, m) = (num(y)?, num(m)?);
            (1..=12).contains(&m).then(|| format!("{y:04}-{m:02}"))
        }
        [y, m, d] if y.len() == 4 => SheetDate::new(num(y)?, num(m)?, num(d)?).ok().map(|d| d.to_string()),
        _ => None,
    }
}

/// Matches every row to a catalog part and checks its price (see the module docs). A part
/// priced by several rows takes the last of them; the earlier rows are reported unmatched.
#[must_use]
pub fn match_rows(catalog: &Catalog, rows: &[PriceRow]) -> ImportOutcome {
    let mut out = ImportOutcome::default();
    for row in rows {
        let key = if row.id.is_empty() { row.name.clone() } else { row.id.clone() };
        let unmatched = |reason| UnmatchedRow { row: row.row, key: key.clone(), reason: Sentence::new(reason) };
        let found = if !row.id.is_empty() {
            let id = PartId::new(row.id.trim().to_lowercase());
            match catalog.get(&id) {
                Some(p) => Ok((p.id().clone(), p.name().to_owned(), MatchedBy::Id)),
                // A "part" column that holds names rather than `kind/slug` ids.
                None if !row.id.contains('/') => by_name(catalog, &row.id),
                None => Err(text!(REASON_UNKNOWN_ID, key = &row.id)),
            }
        } else if !row.name.is_empty() {
            // A name column that holds an id matches it as an id.
            match catalog.get(&PartId::new(row.name.trim().to_lowercase())) {
                Some(p) => Ok((p.id().clone(), p.name().to_owned(), MatchedBy::Id)),
                None => by_name(catalog, &row.name),
            }
        } else {
            Err(text!(REASON_NO_KEY))
        };
        let (part, name, by) = match found {
            Ok(f) => f,
            Err(reason) => {
                out.unmatched.push(unmatched(reason));
                continue;
            }
        };
        let Some(amount) = parse_amount(&row.price) else {
            out.unmatched.push(unmatched(text!(REASON_BAD_PRICE, text = &row.price)));
            continue;
        };
        let Some(date) = parse_date(&row.date) else {
            out.unmatched.push(unmatched(text!(REASON_BAD_DATE, text = &row.date)));
            continue;
        };
        let currency = parse_currency(&row.currency);
        if let Some(problem) = price_problem(amount, &currency, &date) {
            out.unmatched.push(unmatched(text!(REASON_INVALID, problem = problem)));
            continue;
        }
        if let Some(i) = out.matched.iter().position(|m| m.part == part) {
            let earlier = out.matched.remove(i);
            out.unmatched.push(UnmatchedRow {
                row: earlier.row,
                key: earlier.part.to_string(),
                reason: Sentence::new(text!(REASON_SUPERSEDED, row = row.row.to_string())),
            });
        }
        out.matched.push(MatchedRow {
            row: row.row,
            part,
            name,
            by,
            price: Price { amount, currency: Currency(currency), date },
        });
    }
    out.unmatched.sort_by_key(|u| u.row);
    out
}

/// The one part a name (or, failing that, a SKU) names, without regard to case or spacing.
fn by_name(catalog: &Catalog, name: &str) -> Result<(PartId, String, MatchedBy), crate::core::i18n::Text> {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    let wanted = norm(name);
    for (by, field) in [(MatchedBy::Name, false), (MatchedBy::Sku, true)] {
        let hits: Vec<_> = catalog
            .all_parts()
            .filter(|p| {
                let m = p.meta();
                if field { m.sku.is_some_and(|s| norm(s) == wanted) } else { norm(m.name) == wanted }
            })
            .collect();
        match hits.as_slice() {
            [] => {}
            [one] => return Ok((one.id().clone(), one.name().to_owned(), by)),
            many => {
                let ids: Vec<String> = many.iter().map(|p| p.id().to_string()).collect();
                return Err(text!(REASON_AMBIGUOUS, key = name, parts = ids));
            }
        }
    }
    Err(text!(REASON_UNKNOWN_NAME, key = name))
}

/// One imported price in `prices.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceListEntry {
    pub part: PartId,
    pub amount: f64,
    pub currency: Currency,
    pub date: String,
    /// Where the price came from (the list's file name and row).
    #[serde(default)]
    pub source: String,
}

/// `existing` entries with the matched rows of an import laid over them by part id, sorted by
/// id; `list` names the imported file in each new entry's source.
#[must_use]
pub fn merge_entries(existing: Vec<PriceListEntry>, outcome: &ImportOutcome, list: &str) -> Vec<PriceListEntry> {
    let mut entries = existing;
    for m in &outcome.matched {
        let entry = PriceListEntry {
            part: m.part.clone(),
            amount: m.price.amount,
            currency: m.price.currency.clone(),
            date: m.price.date.clone(),
            source: format!("price list {list}, row {}", m.row),
        };
        match entries.iter_mut().find(|e| e.part == entry.part) {
            Some(e) => *e = entry,
            None => entries.push(entry),
        }
    }
    entries.sort_by(|a, b| a.part.cmp(&b.part));
    entries
}

/// `prices.ron` text for `entries`, with a comment that says what the file is.
///
/// # Errors
/// Serialization failure (not expected for these plain values).
pub fn prices_file_text(entries: &[PriceListEntry]) -> Result<String, ron::Error> {
    let body = ron::ser::to_string_pretty(entries, ron::ser::PrettyConfig::default())?;
    Ok(format!(
        "// Prices imported into this user catalog (`rigplan catalog import-prices`, or File → Import price list…\n// in the app). Each entry replaces the price of the catalog part `part`; its specifications stay\n// the catalog's. currency is USD or CNY; date is YYYY-MM or YYYY-MM-DD.\n{body}\n"
    ))
}

/// Why an import wrote nothing.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: the file is larger than {limit} bytes, the limit for a price list")]
    TooLarge { path: String, limit: u64 },
    #[error("{path}: not a price list file: use .csv or .xlsx (also .xls, .xlsb, .ods)")]
    Format { path: String },
    #[error("{path}: {source}")]
    List {
        path: String,
        #[source]
        source: PriceListError,
    },
    #[error("{path} cannot be merged into, so nothing was written; fix or remove it first:\n{problems}")]
    Existing { path: String, problems: String },
    #[error("cannot create the user catalog folder {path}: {source}")]
    Folder {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Write(#[from] crate::core::persist::BuildFileError),
}

/// What an import into a folder did: the outcome of every row, and the prices file written
/// (`None` when no row matched, so nothing was written).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FolderImport {
    pub list: String,
    pub written: Option<String>,
    /// Entries in the prices file after the import (earlier imports included).
    pub entries: usize,
    #[serde(flatten)]
    pub outcome: ImportOutcome,
}

/// Imports the price list at `list` into the user catalog folder `folder`: reads and matches
/// it against `catalog` (the catalog the user sees, that folder's parts included), merges the
/// matched prices into the folder's `prices.ron` by part id and writes it atomically, keeping
/// the previous file as `prices.ron.bak`. The folder is created when missing. A `prices.ron`
/// already there that does not parse is left untouched and the import refused.
///
/// # Errors
/// An unreadable, oversized or unrecognised list, a list without the needed columns, a
/// broken existing `prices.ron`, or a failed write ([`ImportError`]).
pub fn import_into_folder(
    catalog: &Catalog,
    list: &std::path::Path,
    folder: &std::path::Path,
) -> Result<FolderImport, ImportError> {
    let path = list.display().to_string();
    let format = PriceListFormat::from_path(list).ok_or_else(|| ImportError::Format { path: path.clone() })?;
    let limit = super::MAX_CATALOG_FILE_BYTES;
    let mut bytes = Vec::new();
    std::fs::File::open(list)
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, limit + 1), &mut bytes))
        .map_err(|source| ImportError::Read { path: path.clone(), source })?;
    if bytes.len() as u64 > limit {
        return Err(ImportError::TooLarge { path, limit });
    }
    let rows = read_price_list(&bytes, format).map_err(|source| ImportError::List { path: path.clone(), source })?;
    let outcome = match_rows(catalog, &rows);
    let target = folder.join(PRICES_FILE);
    let label = target.display().to_string();
    let existing = if target.exists() {
        let text = super::read_limited(&target)
            .map_err(|p| ImportError::Existing { path: label.clone(), problems: p.to_string() })?;
        let mut problems = Vec::new();
        let Some(entries) = super::parse_list::<PriceListEntry>(&label, &text, &mut problems) else {
            let problems = problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n");
            return Err(ImportError::Existing { path: label, problems });
        };
        entries
    } else {
        Vec::new()
    };
    let file_name = list.file_name().map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned());
    if outcome.matched.is_empty() {
        return Ok(FolderImport { list: path, written: None, entries: existing.len(), outcome });
    }
    let entries = merge_entries(existing, &outcome, &file_name);
    let text = prices_file_text(&entries).map_err(|e| crate::core::persist::BuildFileError::Write {
        path: label.clone(),
        error: std::io::Error::other(e.to_string()),
    })?;
    std::fs::create_dir_all(folder)
        .map_err(|source| ImportError::Folder { path: folder.display().to_string(), source })?;
    crate::core::persist::write_atomic(&target, text.as_bytes(), true)?;
    Ok(FolderImport { list: path, written: Some(label), entries: entries.len(), outcome })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_currencies_and_dates_as_vendors_write_them() {
        assert_eq!(parse_amount("¥12,999"), Some(12_999.0));
        assert_eq!(parse_amount("12999 元"), Some(12_999.0));
        assert_eq!(parse_amount("$1,599.00"), Some(1_599.0));
        assert_eq!(parse_amount("CNY 8888"), Some(8_888.0));
        assert_eq!(parse_amount("call us"), None);
        assert_eq!(parse_currency("rmb"), "CNY");
        assert_eq!(parse_currency("￥"), "CNY");
        assert_eq!(parse_currency("usd"), "USD");
        assert_eq!(parse_date("2026/1/5").as_deref(), Some("2026-01-05"));
        assert_eq!(parse_date("2026年11月3日").as_deref(), Some("2026-11-03"));
        assert_eq!(parse_date("2026-11").as_deref(), Some("2026-11"));
        assert_eq!(parse_date("2026-11-03T08:00:00").as_deref(), Some("2026-11-03"));
        assert_eq!(parse_date("2026-02-30"), None);
        assert_eq!(parse_date("Nov 2026"), None);
        // Spreadsheet serial 46000 is 2025-12-09 (25,569 days to 1970-01-01, then 20,431 days).
        assert_eq!(serial_date(46_000.0).as_deref(), Some("2025-12-09"));
    }

    #[test]
    fn headers_in_english_and_chinese() {
        let csv = "\u{feff}型号,单价,币种,报价日期\nRTX 4090 D,\"¥12,999\",CNY,2026-11-01\n";
        let rows = read_price_list(csv.as_bytes(), PriceListFormat::Csv).expect("a list");
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].row, rows[0].name.as_str(), rows[0].price.as_str()), (2, "RTX 4090 D", "¥12,999"));
        let err = read_price_list(b"id,price\ngpu/x,1\n", PriceListFormat::Csv).expect_err("no currency or date");
        assert_eq!(
            err.to_string(),
            "the header row (row 1) lacks currency, date; a price list needs columns id or name, price, currency and date"
        );
    }

    #[test]
    fn reasons_are_translated() {
        crate::core::i18n::assert_table_is_translated(TEMPLATES);
    }
}
