//! CSV: the build sheet and the comparison as comma-separated text (csv crate, RFC 4180
//! quoting).
//!
//! A sheet is written as sections one after another (heading, parts table, custom lines,
//! totals, summary, notes), separated by an empty row, so it opens as one readable sheet in a
//! spreadsheet and the parts table can still be cut out by a script. Numbers are plain
//! (`11512.80`, no thousands separators, `.` as the decimal point) so spreadsheets read them as
//! numbers; money has two decimals. Every text field goes through
//! [`super::safety::neutralize_formula`]; numbers rigplan formats itself
//! cannot carry a formula and are written as they are. The text starts with a UTF-8 byte
//! order mark: Excel reads a CSV without one in the system's legacy code page, which garbles
//! names such as "°C" or Chinese text (Microsoft support, "Opening CSV UTF-8 files correctly in
//! Excel").

use super::ExportError;
use super::columns::{PARTS_COLUMNS, Value};
use super::safety::neutralize_formula;
use super::sheet::BuildSheet;
use super::texts::{SheetTexts, fill};
use crate::core::compare::Comparison;
use crate::core::compare::texts::{self as compare_texts, CompareTexts, say};
use std::borrow::Cow;

/// The UTF-8 byte order mark the CSV text starts with.
pub const UTF8_BOM: char = '\u{FEFF}';

/// A CSV writer for mixed sections: rows of text and numbers.
struct Sections {
    writer: ::csv::Writer<Vec<u8>>,
}

/// A cell: text (neutralized) or a number rigplan formatted.
enum Cell<'a> {
    Text(Cow<'a, str>),
    Number(String),
    Empty,
}

fn t(text: &str) -> Cell<'_> {
    Cell::Text(Cow::Borrowed(text))
}

fn owned(text: String) -> Cell<'static> {
    Cell::Text(Cow::Owned(text))
}

/// Rounds to cents; `+ 0.0` turns a negative zero (from sums that cancel) into zero, so no
/// `-0.00` is printed.
fn money(amount: f64) -> Cell<'static> {
    let cents = (amount * 100.0).round() / 100.0 + 0.0;
    Cell::Number(format!("{cents:.2}"))
}

fn money_opt(amount: Option<f64>) -> Cell<'static> {
    amount.map_or(Cell::Empty, money)
}

fn num(value: f64, decimals: usize) -> Cell<'static> {
    Cell::Number(format!("{value:.decimals$}"))
}

fn int(value: u64) -> Cell<'static> {
    Cell::Number(value.to_string())
}

fn signed(value: i64) -> Cell<'static> {
    Cell::Number(value.to_string())
}

impl Sections {
    fn new() -> Self {
        Self { writer: ::csv::WriterBuilder::new().flexible(true).from_writer(Vec::new()) }
    }

    fn row(&mut self, cells: &[Cell<'_>]) -> Result<(), ExportError> {
        let fields: Vec<Cow<'_, str>> = cells
            .iter()
            .map(|c| match c {
                Cell::Text(s) => neutralize_formula(s),
                Cell::Number(n) => Cow::Borrowed(n.as_str()),
                Cell::Empty => Cow::Borrowed(""),
            })
            .collect();
        self.writer.write_record(fields.iter().map(|f| f.as_bytes()))?;
        Ok(())
    }

    fn blank(&mut self) -> Result<(), ExportError> {
        self.row(&[Cell::Empty, Cell::Empty])
    }

    fn finish(self) -> Result<String, ExportError> {
        let bytes = self.writer.into_inner().map_err(|e| ::csv::Error::from(e.into_error()))?;
        let mut text = String::with_capacity(bytes.len() + 3);
        text.push(UTF8_BOM);
        text.push_str(&String::from_utf8_lossy(&bytes));
        Ok(text)
    }
}

/// The build sheet as CSV text.
///
/// # Errors
/// Only a failure of the csv writer (it writes to memory).
pub fn sheet_to_csv(sheet: &BuildSheet) -> Result<String, ExportError> {
    let tx = SheetTexts::of(sheet.lang);
    let mut w = Sections::new();
    let cur = sheet.currency.to_string();
    w.row(&[t(tx.build_sheet), t(&sheet.build_name)])?;
    w.row(&[t(tx.date), t(&sheet.date.to_string())])?;
    w.row(&[t(tx.currency), t(&cur)])?;
    w.row(&[t(tx.usd_exchange_rate), num(sheet.usd_exchange_rate, 4), t(&fill(tx.per_usd, &[&cur]))])?;
    w.blank()?;
    let header: Vec<String> = PARTS_COLUMNS.iter().map(|c| c.header_in(sheet.lang, &cur)).collect();
    w.row(&header.iter().map(|h| t(h)).collect::<Vec<_>>())?;
    for l in &sheet.lines {
        let cells: Vec<Cell<'_>> = PARTS_COLUMNS
            .iter()
            .map(|c| match c.value(l, sheet.lang) {
                Value::Text(s) | Value::Label(s) | Value::Source(s) => t(s),
                Value::Count(n) => int(n),
                Value::Money(m) => money_opt(m),
            })
            .collect();
        w.row(&cells)?;
    }
    if !sheet.custom_lines.is_empty() {
        w.blank()?;
        w.row(&[
            t(tx.custom_line_item),
            t(tx.kind),
            t(tx.quantity),
            owned(tx.money_header(tx.unit_amount, &cur)),
            owned(tx.money_header(tx.amount, &cur)),
        ])?;
        for c in &sheet.custom_lines {
            w.row(&[
                t(&c.name),
                t(c.kind.label_in(sheet.lang)),
                int(u64::from(c.quantity)),
                money(c.unit_amount),
                money(c.amount),
            ])?;
        }
    }
    w.blank()?;
    let tot = &sheet.totals;
    w.row(&[t(tx.totals), owned(tx.money_header(tx.amount, &cur))])?;
    w.row(&[t(tx.parts), money(tot.parts)])?;
    for (label, s) in tx.surcharges.iter().zip([&tot.tax, &tot.shipping, &tot.installation]) {
        if let Some(s) = s {
            w.row(&[owned(fill(tx.surcharge_of_parts, &[label, &s.percent])), money(s.amount)])?;
        }
    }
    w.row(&[t(tx.custom_capex), money(tot.custom)])?;
    w.row(&[t(tx.capex), money(tot.capex)])?;
    if tot.custom_opex_per_year != 0.0 {
        w.row(&[t(tx.custom_opex), money(tot.custom_opex_per_year)])?;
    }
    w.row(&[t(tx.unpriced_lines), int(tot.unpriced_lines as u64)])?;
    w.blank()?;
    write_summary(&mut w, sheet, tx)?;
    if !sheet.summary.findings.is_empty() {
        w.blank()?;
        w.row(&[t(tx.findings), t(tx.code), t(tx.message), t(tx.fix)])?;
        for f in &sheet.summary.findings {
            w.row(&[t(tx.severity(f.severity)), t(&f.code), t(&f.message), t(f.fix.as_deref().unwrap_or_default())])?;
        }
    }
    if !sheet.notes.is_empty() {
        w.blank()?;
        w.row(&[t(tx.notes)])?;
        for n in &sheet.notes {
            w.row(&[t(n)])?;
        }
    }
    w.finish()
}

fn write_summary(w: &mut Sections, sheet: &BuildSheet, tx: &SheetTexts) -> Result<(), ExportError> {
    let s = &sheet.summary.headline;
    let cur = sheet.currency.to_string();
    w.row(&[t(tx.summary), t(tx.value), t(tx.unit)])?;
    w.row(&[t(tx.nodes), int(s.nodes)])?;
    w.row(&[t(tx.gpus), int(s.gpus)])?;
    w.row(&[t(tx.wall_max), num(s.wall_watts, 0), t("W")])?;
    w.row(&[t(tx.wall_typical), num(s.wall_typical_watts, 0), t("W")])?;
    w.row(&[t(tx.wall_idle), num(s.wall_idle_watts, 0), t("W")])?;
    w.row(&[t(tx.recommended_psu), num(s.recommended_psu_watts, 0), t("W")])?;
    w.row(&[t(tx.heat_max), num(s.heat_watts, 0), t("W")])?;
    w.row(&[t(tx.heat_max), num(s.heat_btu_per_hour, 0), t("BTU/h")])?;
    w.row(&[t(tx.cooling), num(s.cooling_tons, 2), t(tx.tons)])?;
    let c = &s.compatibility;
    w.row(&[t(tx.compatibility), t(tx.compat_status(c.status))])?;
    w.row(&[t(tx.compat_errors), int(c.errors as u64)])?;
    w.row(&[t(tx.compat_warnings), int(c.warnings as u64)])?;
    w.row(&[t(tx.compat_infos), int(c.infos as u64)])?;
    if let Some(f) = &s.fit {
        w.row(&[t(tx.models_evaluated), int(f.models as u64)])?;
        w.row(&[t(tx.models_inference), int(f.inference_models as u64)])?;
        w.row(&[t(tx.models_finetune), int(f.finetune_models as u64)])?;
        for (label, l) in [(tx.largest_inference, &f.largest_inference), (tx.largest_finetune, &f.largest_finetune)] {
            match l {
                Some(l) => w.row(&[t(label), t(&l.name), t(l.workload.id())])?,
                None => w.row(&[t(label), t(tx.none)])?,
            }
        }
    } else {
        w.row(&[t(tx.workload_fit), t(tx.no_gpus)])?;
    }
    let tco = &s.tco;
    w.row(&[t(tx.tco_horizon), num(tco.horizon_years, 2), t(tx.years)])?;
    w.row(&[t(tx.tco_utilization), num(tco.utilization * 100.0, 0), t("%")])?;
    w.row(&[t(tx.owned_total), money(tco.owned_total), t(&cur)])?;
    match (&tco.primary_label, tco.primary_total) {
        (Some(label), Some(total)) => {
            w.row(&[t(tx.primary_cloud), t(label)])?;
            w.row(&[t(tx.cloud_total), money(total), t(&cur)])?;
            match tco.break_even_month {
                Some(m) => w.row(&[t(tx.break_even_month), num(m, 1), t(tx.month)])?,
                None => w.row(&[t(tx.break_even_month), t(tx.never)])?,
            }
        }
        _ => w.row(&[t(tx.primary_cloud), t(tx.no_cloud_match)])?,
    }
    if let Some(wl) = &tco.workload {
        if let Some(kwh) = wl.energy_kwh_per_million_tokens {
            w.row(&[t(tx.energy_per_million_tokens), num(kwh, 3), t(tx.kwh)])?;
        }
        if let Some(kwh) = wl.run_energy_kwh {
            w.row(&[t(tx.energy_per_run), num(kwh, 1), t(tx.kwh)])?;
        }
    }
    Ok(())
}

/// A comparison as CSV text: the builds, then one row per metric (values, deltas against A,
/// how each fares against A, the best builds), then the fit cells and parts that differ.
///
/// # Errors
/// Only a failure of the csv writer (it writes to memory).
pub fn comparison_to_csv(c: &Comparison) -> Result<String, ExportError> {
    let tx = CompareTexts::of(c.lang);
    let mut w = Sections::new();
    w.row(&[t(tx.comparison), owned(say(&compare_texts::BUILDS, c.lang, &[("count", &c.builds.len().to_string())]))])?;
    w.row(&[t(tx.sheet.currency), t(&c.currency.to_string())])?;
    w.row(&[t(tx.tco_horizon_years), num(c.horizon_years, 2)])?;
    if let (Some(id), Some(name)) = (&c.model, &c.model_name) {
        w.row(&[t(tx.speed_model), t(name), t(id.as_str())])?;
    }
    w.blank()?;
    w.row(&[
        t(tx.sheet.build),
        t(tx.name),
        t(tx.sheet.currency),
        t(tx.sheet.usd_exchange_rate),
        t(tx.sheet.nodes),
        t(tx.sheet.gpus),
        t("GPU"),
        t(tx.utilization),
        t(tx.sheet.primary_cloud),
    ])?;
    for b in &c.builds {
        w.row(&[
            t(b.label),
            t(&b.name),
            t(&b.currency.to_string()),
            num(b.usd_exchange_rate, 4),
            int(b.nodes),
            int(b.gpus),
            t(&b.gpu),
            num(b.utilization, 2),
            t(b.primary_label.as_deref().unwrap_or(tx.sheet.none)),
        ])?;
    }
    w.blank()?;
    let labels: Vec<&str> = c.builds.iter().map(|b| b.label).collect();
    let mut header: Vec<String> =
        [tx.group, tx.metric_id, tx.metric, tx.sheet.unit, tx.direction].map(str::to_owned).to_vec();
    header.extend(labels.iter().map(|l| (*l).to_owned()));
    header.extend(labels.iter().skip(1).map(|l| say(&compare_texts::DELTA_VS_FIRST, c.lang, &[("build", l)])));
    header.extend(labels.iter().skip(1).map(|l| say(&compare_texts::VS_FIRST, c.lang, &[("build", l)])));
    header.push(tx.best.to_owned());
    w.row(&header.iter().map(|h| t(h)).collect::<Vec<_>>())?;
    for g in &c.groups {
        for r in &g.rows {
            let mut cells = vec![t(g.label), t(&r.id), t(&r.label), t(&r.unit), t(tx.direction_label(r.direction))];
            cells.extend(r.values.iter().zip(&r.text).map(|(v, text)| match v {
                Some(v) => Cell::Number(format_value(*v)),
                None => t(text),
            }));
            cells.extend(r.deltas.iter().skip(1).map(|d| d.map_or(Cell::Empty, |d| Cell::Number(format_value(d)))));
            cells.extend(r.vs_first.iter().skip(1).map(|o| t(tx.outcome(*o))));
            let best: Vec<&str> = r.best.iter().filter_map(|&i| labels.get(i).copied()).collect();
            cells.push(owned(best.join(" ")));
            w.row(&cells)?;
        }
    }
    if !c.fit_differences.is_empty() {
        w.blank()?;
        let mut header = vec![t(tx.fit_differences), t(tx.model_id), t(tx.workload)];
        header.extend(labels.iter().map(|l| t(l)));
        w.row(&header)?;
        for d in &c.fit_differences {
            let mut cells = vec![t(&d.model_name), t(d.model.as_str()), t(tx.workload_column(d.workload))];
            cells.extend(d.verdicts.iter().map(|v| t(tx.verdict(*v))));
            w.row(&cells)?;
        }
    }
    if !c.parts_difference.is_empty() {
        w.blank()?;
        let mut header = vec![t(tx.parts_differences), t(tx.part_id), t(tx.category)];
        header.extend(labels.iter().map(|l| t(l)));
        let delta_headers: Vec<String> =
            labels.iter().skip(1).map(|l| say(&compare_texts::DELTA_VS_FIRST, c.lang, &[("build", l)])).collect();
        header.extend(delta_headers.iter().map(|h| t(h)));
        w.row(&header)?;
        for p in &c.parts_difference {
            let mut cells = vec![t(&p.name), t(p.part.as_str()), t(p.category)];
            cells.extend(p.quantities.iter().map(|&q| int(q)));
            cells.extend(p.deltas.iter().skip(1).map(|&d| signed(d)));
            w.row(&cells)?;
        }
    }
    if !c.notes.is_empty() {
        w.blank()?;
        w.row(&[t(tx.sheet.notes)])?;
        for n in &c.notes {
            w.row(&[t(n)])?;
        }
    }
    w.finish()
}

/// A comparison value as a plain number: integers without decimals, others with up to three.
fn format_value(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}
