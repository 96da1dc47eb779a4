//! XLSX: the build sheet as an Excel workbook (rust_xlsxwriter), built in memory.
//!
//! Two worksheets:
//! - **Parts**: a heading block (build, date as a real date cell, currency, exchange rate),
//!   the parts table with quantities as numbers and prices as numbers in a currency number
//!   format (`#,##0.00 "CNY"`), the custom line items, and the totals below the price column.
//! - **Summary**: one metric per row with its value as a number (or text where it is a name)
//!   and its unit.
//!
//! Every text cell goes through [`super::safety::neutralize_formula`] and
//! is written as a string cell (never a formula); text longer than Excel's cell limit is cut.
//! The workbook's creation date is the sheet's date, so the same inputs give the same bytes.

use super::ExportError;
use super::columns::{PARTS_COLUMNS, PartsColumn, Value as Column};
use super::safety::neutralize_formula;
use super::sheet::BuildSheet;
use super::texts::{SheetTexts, fill};
use crate::core::i18n::Lang;
use rust_xlsxwriter::{DocProperties, ExcelDateTime, Format, FormatAlign, FormatBorder, Workbook, Worksheet};

/// Most characters Excel holds in one cell (Microsoft, "Excel specifications and limits":
/// 32,767 characters).
pub const MAX_CELL_CHARS: usize = 32_767;

/// Name of the parts worksheet.
pub const PARTS_SHEET: &str = "Parts";
/// Name of the summary worksheet.
pub const SUMMARY_SHEET: &str = "Summary";
/// The worksheets' names in a language: parts, summary ([`PARTS_SHEET`] and
/// [`SUMMARY_SHEET`] in English).
#[must_use]
pub fn sheet_names(lang: Lang) -> [&'static str; 2] {
    let t = SheetTexts::of(lang);
    [t.parts, t.summary]
}

/// Row of the parts table's header (0-based); the heading block is above it.
pub const PARTS_HEADER_ROW: u32 = 5;

/// Column width of a parts-table column, in Excel character units.
fn column_width(column: PartsColumn) -> f64 {
    match column {
        PartsColumn::Nodes => 8.0,
        PartsColumn::TotalQty => 10.0,
        PartsColumn::PriceBasis => 11.0,
        PartsColumn::Category | PartsColumn::QtyPerNode | PartsColumn::PriceDate => 12.0,
        PartsColumn::Vendor => 14.0,
        PartsColumn::Group | PartsColumn::UnitPrice => 18.0,
        PartsColumn::Sku | PartsColumn::ExtendedPrice => 20.0,
        PartsColumn::PartId => 36.0,
        PartsColumn::Part => 40.0,
        PartsColumn::Source => 80.0,
    }
}

/// Spreadsheet columns (0-based) of the parts table's price columns, where the custom lines
/// and totals below the table put their amounts (checked against [`PARTS_COLUMNS`] in a test).
const COL_UNIT_PRICE: u16 = 9;
const COL_EXTENDED: u16 = 10;

/// The formats of the workbook.
struct Styles {
    bold: Format,
    header: Format,
    money: Format,
    money_bold: Format,
    integer: Format,
    rate: Format,
    date: Format,
    label_right: Format,
    label_right_bold: Format,
}

impl Styles {
    fn new(currency: &str) -> Self {
        // The currency code goes into the number format as a quoted literal; keep only the
        // letters and digits of an ISO 4217 code so the format string stays well-formed.
        let code: String = currency.chars().filter(char::is_ascii_alphanumeric).collect();
        let money_format = format!("#,##0.00 \"{code}\"");
        Self {
            bold: Format::new().set_bold(),
            header: Format::new().set_bold().set_border_bottom(FormatBorder::Thin).set_text_wrap(),
            money: Format::new().set_num_format(&money_format),
            money_bold: Format::new().set_num_format(&money_format).set_bold(),
            integer: Format::new().set_num_format("#,##0"),
            rate: Format::new().set_num_format("0.0000"),
            date: Format::new().set_num_format("yyyy-mm-dd").set_align(FormatAlign::Left),
            label_right: Format::new().set_align(FormatAlign::Right),
            label_right_bold: Format::new().set_align(FormatAlign::Right).set_bold(),
        }
    }
}

/// Writes neutralized text as a string cell.
fn text(ws: &mut Worksheet, row: u32, col: u16, value: &str, format: Option<&Format>) -> Result<(), ExportError> {
    let safe = neutralize_formula(value);
    let cut: String;
    let safe: &str = if safe.chars().count() > MAX_CELL_CHARS {
        cut = safe.chars().take(MAX_CELL_CHARS).collect();
        &cut
    } else {
        &safe
    };
    match format {
        Some(f) => ws.write_string_with_format(row, col, safe, f)?,
        None => ws.write_string(row, col, safe)?,
    };
    Ok(())
}

fn number(ws: &mut Worksheet, row: u32, col: u16, value: f64, format: &Format) -> Result<(), ExportError> {
    ws.write_number_with_format(row, col, value, format)?;
    Ok(())
}

fn count(ws: &mut Worksheet, row: u32, col: u16, value: u64, styles: &Styles) -> Result<(), ExportError> {
    number(ws, row, col, value as f64, &styles.integer)
}

/// The build sheet as XLSX bytes.
///
/// # Errors
/// A failure of rust_xlsxwriter (it writes to memory; the limits it checks are kept here).
pub fn sheet_to_xlsx(sheet: &BuildSheet) -> Result<Vec<u8>, ExportError> {
    let mut workbook = Workbook::new();
    let created = ExcelDateTime::from_ymd(
        u16::try_from(sheet.date.year()).unwrap_or(1970),
        u8::try_from(sheet.date.month()).unwrap_or(1),
        u8::try_from(sheet.date.day()).unwrap_or(1),
    )?;
    let title: String = neutralize_formula(&sheet.build_name).chars().take(MAX_CELL_CHARS).collect();
    workbook.set_properties(
        &DocProperties::new()
            .set_title(fill(SheetTexts::of(sheet.lang).build_sheet_title, &[&title]))
            .set_author("rigplan")
            .set_creation_datetime(&created),
    );
    let cur = sheet.currency.to_string();
    let styles = Styles::new(&cur);
    parts_sheet(workbook.add_worksheet(), sheet, &styles, &created)?;
    summary_sheet(workbook.add_worksheet(), sheet, &styles)?;
    Ok(workbook.save_to_buffer()?)
}

fn parts_sheet(ws: &mut Worksheet, sheet: &BuildSheet, s: &Styles, created: &ExcelDateTime) -> Result<(), ExportError> {
    let t = SheetTexts::of(sheet.lang);
    ws.set_name(sheet_names(sheet.lang)[0])?;
    ws.set_landscape();
    ws.set_print_fit_to_pages(1, 0);
    let cur = sheet.currency.to_string();
    text(ws, 0, 0, t.build_sheet, Some(&s.bold))?;
    text(ws, 0, 1, &sheet.build_name, Some(&s.bold))?;
    text(ws, 1, 0, t.date, None)?;
    ws.write_date_with_format(1, 1, created, &s.date)?;
    text(ws, 2, 0, t.currency, None)?;
    text(ws, 2, 1, &cur, None)?;
    text(ws, 3, 0, t.usd_exchange_rate, None)?;
    number(ws, 3, 1, sheet.usd_exchange_rate, &s.rate)?;
    text(ws, 3, 2, &fill(t.per_usd_note, &[&cur]), None)?;

    for (i, c) in (0u16..).zip(PARTS_COLUMNS) {
        ws.set_column_width(i, column_width(c))?;
        text(ws, PARTS_HEADER_ROW, i, &c.header_in(sheet.lang, &cur), Some(&s.header))?;
    }
    ws.set_freeze_panes(PARTS_HEADER_ROW + 1, 0)?;
    let mut row = PARTS_HEADER_ROW + 1;
    for l in &sheet.lines {
        for (i, c) in (0u16..).zip(PARTS_COLUMNS) {
            match c.value(l, sheet.lang) {
                Column::Text("") | Column::Money(None) => {}
                Column::Text(v) | Column::Label(v) | Column::Source(v) => text(ws, row, i, v, None)?,
                Column::Count(n) => count(ws, row, i, n, s)?,
                Column::Money(Some(p)) => number(ws, row, i, p, &s.money)?,
            }
        }
        row += 1;
    }
    if !sheet.custom_lines.is_empty() {
        row += 1;
        text(ws, row, 3, t.custom_line_item, Some(&s.header))?;
        text(ws, row, 8, t.quantity, Some(&s.header))?;
        text(ws, row, COL_UNIT_PRICE, &t.money_header(t.unit_amount, &cur), Some(&s.header))?;
        text(ws, row, COL_EXTENDED, &t.money_header(t.amount, &cur), Some(&s.header))?;
        text(ws, row, 12, t.kind, Some(&s.header))?;
        row += 1;
        for c in &sheet.custom_lines {
            text(ws, row, 3, &c.name, None)?;
            count(ws, row, 8, u64::from(c.quantity), s)?;
            number(ws, row, COL_UNIT_PRICE, c.unit_amount, &s.money)?;
            number(ws, row, COL_EXTENDED, c.amount, &s.money)?;
            text(ws, row, 12, c.kind.label_in(sheet.lang), None)?;
            row += 1;
        }
    }
    row += 1;
    let tot = &sheet.totals;
    let mut total = |row: &mut u32, label: &str, amount: f64, bold: bool| -> Result<(), ExportError> {
        text(ws, *row, COL_UNIT_PRICE, label, Some(if bold { &s.label_right_bold } else { &s.label_right }))?;
        number(ws, *row, COL_EXTENDED, amount, if bold { &s.money_bold } else { &s.money })?;
        *row += 1;
        Ok(())
    };
    total(&mut row, t.parts, tot.parts, false)?;
    for (label, sur) in t.surcharges.iter().zip([&tot.tax, &tot.shipping, &tot.installation]) {
        if let Some(sur) = sur {
            total(&mut row, &fill(t.surcharge_of_parts, &[label, &sur.percent]), sur.amount, false)?;
        }
    }
    total(&mut row, t.custom_capex, tot.custom, false)?;
    total(&mut row, t.capex, tot.capex, true)?;
    if tot.custom_opex_per_year != 0.0 {
        total(&mut row, t.custom_opex_short, tot.custom_opex_per_year, false)?;
    }
    text(ws, row, COL_UNIT_PRICE, t.unpriced_lines_short, Some(&s.label_right))?;
    count(ws, row, COL_EXTENDED, tot.unpriced_lines as u64, s)?;
    row += 2;
    for n in &sheet.notes {
        text(ws, row, 0, n, None)?;
        row += 1;
    }
    Ok(())
}

fn summary_sheet(ws: &mut Worksheet, sheet: &BuildSheet, styles: &Styles) -> Result<(), ExportError> {
    let t = SheetTexts::of(sheet.lang);
    ws.set_name(sheet_names(sheet.lang)[1])?;
    ws.set_column_width(0, 36)?;
    ws.set_column_width(1, 24)?;
    ws.set_column_width(2, 40)?;
    let cur = sheet.currency.to_string();
    let sum = &sheet.summary.headline;
    text(ws, 0, 0, t.summary, Some(&styles.header))?;
    text(ws, 0, 1, t.value, Some(&styles.header))?;
    text(ws, 0, 2, t.unit, Some(&styles.header))?;
    let mut row = 1;
    let watts = Format::new().set_num_format("#,##0");
    let two = Format::new().set_num_format("0.00");
    let one = Format::new().set_num_format("0.0");
    let mut put = |label: &str, value: Value<'_>, unit: &str| -> Result<(), ExportError> {
        text(ws, row, 0, label, None)?;
        match value {
            Value::Number(v, f) => number(ws, row, 1, v, f)?,
            Value::Text(v) => text(ws, row, 1, v, None)?,
        }
        if !unit.is_empty() {
            text(ws, row, 2, unit, None)?;
        }
        row += 1;
        Ok(())
    };
    let whole = |v: u64| Value::Number(v as f64, &styles.integer);
    put(t.build, Value::Text(&sheet.build_name), "")?;
    put(t.nodes, whole(sum.nodes), "")?;
    put(t.gpus, whole(sum.gpus), "")?;
    put(t.wall_max, Value::Number(sum.wall_watts, &watts), "W")?;
    put(t.wall_typical, Value::Number(sum.wall_typical_watts, &watts), "W")?;
    put(t.wall_idle, Value::Number(sum.wall_idle_watts, &watts), "W")?;
    put(t.recommended_psu, Value::Number(sum.recommended_psu_watts, &watts), "W")?;
    put(t.heat_max, Value::Number(sum.heat_btu_per_hour, &watts), "BTU/h")?;
    put(t.cooling, Value::Number(sum.cooling_tons, &two), t.tons)?;
    let compat = &sum.compatibility;
    put(t.compatibility, Value::Text(t.compat_status(compat.status)), "")?;
    put(t.compat_errors, whole(compat.errors as u64), "")?;
    put(t.compat_warnings, whole(compat.warnings as u64), "")?;
    put(t.compat_infos, whole(compat.infos as u64), "")?;
    match &sum.fit {
        Some(fit) => {
            put(t.models_evaluated, whole(fit.models as u64), "")?;
            put(t.models_inference, whole(fit.inference_models as u64), "")?;
            put(t.models_finetune, whole(fit.finetune_models as u64), "")?;
            for (label, l) in
                [(t.largest_inference, &fit.largest_inference), (t.largest_finetune, &fit.largest_finetune)]
            {
                match l {
                    Some(l) => put(label, Value::Text(&l.name), l.workload.id())?,
                    None => put(label, Value::Text(t.none), "")?,
                }
            }
        }
        None => put(t.workload_fit, Value::Text(t.no_gpus), "")?,
    }
    let tco = &sum.tco;
    put(t.tco_horizon, Value::Number(tco.horizon_years, &two), t.years)?;
    put(t.tco_utilization, Value::Number(tco.utilization * 100.0, &watts), "%")?;
    put(t.capex, Value::Number(sheet.totals.capex, &styles.money), &cur)?;
    put(t.owned_total, Value::Number(tco.owned_total, &styles.money), &cur)?;
    match (&tco.primary_label, tco.primary_total) {
        (Some(label), Some(total)) => {
            put(t.primary_cloud, Value::Text(label), "")?;
            put(t.cloud_total, Value::Number(total, &styles.money), &cur)?;
            match tco.break_even_month {
                Some(m) => put(t.break_even_month, Value::Number(m, &one), t.month)?,
                None => put(t.break_even_month, Value::Text(t.never), "")?,
            }
        }
        _ => put(t.primary_cloud, Value::Text(t.no_cloud_match), "")?,
    }
    if let Some(wl) = &tco.workload {
        if let Some(kwh) = wl.energy_kwh_per_million_tokens {
            put(t.energy_per_million_tokens, Value::Number(kwh, &two), t.kwh)?;
        }
        if let Some(kwh) = wl.run_energy_kwh {
            put(t.energy_per_run, Value::Number(kwh, &one), t.kwh)?;
        }
    }
    for f in &sheet.summary.findings {
        let label = fill(t.finding_of_severity, &[&t.severity(f.severity)]);
        put(&label, Value::Text(&f.code), &f.message)?;
    }
    Ok(())
}

/// A summary value.
enum Value<'a> {
    Number(f64, &'a Format),
    Text(&'a str),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_price_columns_are_where_the_totals_put_their_amounts() {
        assert_eq!(PARTS_COLUMNS.get(usize::from(COL_UNIT_PRICE)), Some(&PartsColumn::UnitPrice));
        assert_eq!(PARTS_COLUMNS.get(usize::from(COL_EXTENDED)), Some(&PartsColumn::ExtendedPrice));
    }
}
