//! HTML: a self-contained, printable page for the build sheet and for a comparison.
//!
//! One file with its style inline, charts as inline SVG ([`super::svg`]), no script and no
//! external asset; a Content Security Policy (`default-src 'none'`) forbids scripts and remote
//! loads even if a browser were to find markup in the text. Every piece of text goes through
//! [`escape_html`](super::safety::escape_html). The print style sheet sets A4 landscape pages,
//! repeats table headers and avoids breaking charts and table rows across pages.

use super::columns::{PARTS_COLUMNS, Value};
use super::markdown::{delta_cell, delta_text, numbered_sources};
use super::safety::escape_html as esc;
use super::sheet::BuildSheet;
use super::texts::{SheetTexts, fill};
use super::{money_text, summary_items, svg};
use crate::core::analysis::Report;
use crate::core::compare::Comparison;
use crate::core::compare::texts::{self as compare_texts, CompareTexts, say};
use crate::core::i18n::Lang;
use std::fmt::Write as _;

/// The page's Content Security Policy: nothing may load or run; inline style only (W3C
/// Content Security Policy Level 3, `default-src`, `style-src`).
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

const STYLE: &str = "\
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:13px;color:#111;margin:24px;}\
h1{font-size:20px;margin:0 0 4px;}h2{font-size:16px;margin:24px 0 8px;border-bottom:1px solid #ccc;}\
table{border-collapse:collapse;margin:4px 0 12px;}th,td{border:1px solid #ccc;padding:3px 6px;vertical-align:top;}\
th{background:#f2f2f2;text-align:left;}td.n{text-align:right;white-space:nowrap;}td.best{font-weight:bold;background:#e8f4ea;}\
dl{display:grid;grid-template-columns:max-content auto;gap:4px 12px;}dt{font-weight:bold;}dd{margin:0;}\
.meta{color:#444;}.notes li{color:#8a4b00;}ol.sources{font-size:11px;color:#444;}figure{margin:8px 0;}\
@page{size:A4 landscape;margin:12mm;}\
@media print{body{margin:0;font-size:11px;}thead{display:table-header-group;}tr,figure,svg{break-inside:avoid;}h2{break-after:avoid;}}";

fn open_page(out: &mut String, title: &str, lang: Lang) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"{CONTENT_SECURITY_POLICY}\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        esc(title)
    );
}

fn close_page(out: &mut String) {
    out.push_str("</body>\n</html>\n");
}

/// The build sheet as one HTML page in the sheet's language. `report` gives the power
/// breakdown and TCO curves.
#[must_use]
pub fn sheet_to_html(sheet: &BuildSheet, report: &Report) -> String {
    let t = SheetTexts::of(sheet.lang);
    let mut out = String::new();
    let cur_plain = sheet.currency.to_string();
    let cur = esc(&cur_plain);
    let title = fill(t.build_sheet_title, &[&sheet.build_name]);
    open_page(&mut out, &title, sheet.lang);
    let _ = writeln!(out, "<header>\n<h1>{}</h1>", esc(&title));
    let _ = writeln!(
        out,
        "<p class=\"meta\">{}</p>",
        esc(&fill(t.html_meta, &[&sheet.date, &cur_plain, &sheet.usd_exchange_rate, &cur_plain]))
    );
    if !sheet.description.is_empty() {
        let _ = writeln!(out, "<p>{}</p>", esc(&sheet.description));
    }
    out.push_str("</header>\n");

    let _ = write!(out, "<h2>{}</h2>\n<table>\n<thead><tr>", esc(t.parts));
    for c in PARTS_COLUMNS {
        let _ = write!(out, "<th>{}</th>", esc(&c.header_in(sheet.lang, &cur_plain)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    let (refs, sources) = numbered_sources(sheet);
    for (l, r) in sheet.lines.iter().zip(&refs) {
        out.push_str("<tr>");
        for c in PARTS_COLUMNS {
            let text = match c.value(l, sheet.lang) {
                Value::Text(s) | Value::Label(s) => esc(s),
                Value::Count(n) => n.to_string(),
                Value::Money(m) => m.map_or_else(|| esc(t.no_price), money_text),
                Value::Source(_) => r.map_or_else(String::new, |n| format!("[{n}]")),
            };
            let class = if c.is_numeric() { " class=\"n\"" } else { "" };
            let _ = write!(out, "<td{class}>{text}</td>");
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n");

    if !sheet.custom_lines.is_empty() {
        let _ = writeln!(
            out,
            "<h2>{}</h2>\n<table>\n<thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead>\n<tbody>",
            esc(t.custom_lines),
            esc(t.item),
            esc(t.kind),
            esc(t.quantity),
            esc(&t.money_header(t.unit_amount, &cur_plain)),
            esc(&t.money_header(t.amount, &cur_plain)),
        );
        for c in &sheet.custom_lines {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>",
                esc(&c.name),
                esc(c.kind.label_in(sheet.lang)),
                c.quantity,
                money_text(c.unit_amount),
                money_text(c.amount)
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }

    let tot = &sheet.totals;
    let _ = writeln!(out, "<h2>{}</h2>\n<table>\n<tbody>", esc(t.totals));
    let mut total = |label: &str, amount: f64, strong: bool| {
        let (a, b) = if strong { ("<strong>", "</strong>") } else { ("", "") };
        let _ = writeln!(
            out,
            "<tr><th>{a}{}{b}</th><td class=\"n\">{a}{} {cur}{b}</td></tr>",
            esc(label),
            money_text(amount)
        );
    };
    total(t.parts, tot.parts, false);
    for (label, s) in t.surcharges.iter().zip([&tot.tax, &tot.shipping, &tot.installation]) {
        if let Some(s) = s {
            total(&fill(t.surcharge_of_parts, &[label, &s.percent]), s.amount, false);
        }
    }
    total(t.custom_capex, tot.custom, false);
    total(t.capex, tot.capex, true);
    if tot.custom_opex_per_year != 0.0 {
        total(t.custom_opex, tot.custom_opex_per_year, false);
    }
    out.push_str("</tbody>\n</table>\n");

    let _ = writeln!(out, "<h2>{}</h2>\n<dl>", esc(t.summary));
    for (label, text) in summary_items(sheet) {
        let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", esc(label), esc(&text));
    }
    out.push_str("</dl>\n");
    if !sheet.summary.findings.is_empty() {
        let _ = writeln!(out, "<h2>{}</h2>\n<ul class=\"notes\">", esc(t.findings));
        for f in &sheet.summary.findings {
            let fix = f.fix.as_ref().map(|x| fill(t.fix_suffix, &[&esc(x)])).unwrap_or_default();
            let _ = writeln!(
                out,
                "<li><strong>{}</strong> [{}]: {}{fix}</li>",
                esc(t.severity(f.severity)),
                esc(&f.code),
                esc(&f.message)
            );
        }
        out.push_str("</ul>\n");
    }
    if !sheet.notes.is_empty() {
        out.push_str("<ul class=\"notes\">\n");
        for n in &sheet.notes {
            let _ = writeln!(out, "<li>{}</li>", esc(n));
        }
        out.push_str("</ul>\n");
    }

    if let Some(chart) = svg::power_breakdown_in(&report.power, t) {
        let _ = writeln!(out, "<h2>{}</h2>\n<figure>{chart}</figure>", esc(t.power_by_component));
    }
    if let Some(chart) = svg::tco_curves_in(&report.tco, t) {
        let _ = writeln!(out, "<h2>{}</h2>\n<figure>{chart}</figure>", esc(t.tco_heading));
    }
    if !sources.is_empty() {
        let _ = writeln!(out, "<h2>{}</h2>\n<ol class=\"sources\">", esc(t.sources));
        for s in &sources {
            let _ = writeln!(out, "<li>{}</li>", esc(s));
        }
        out.push_str("</ol>\n");
    }
    close_page(&mut out);
    out
}

/// A comparison as one HTML page, with the overlaid TCO curves and grouped power bars.
#[must_use]
pub fn comparison_to_html(c: &Comparison) -> String {
    let tx = CompareTexts::of(c.lang);
    let sh = tx.sheet;
    let mut out = String::new();
    let labels: Vec<&str> = c.builds.iter().map(|b| b.label).collect();
    let title = say(&compare_texts::TITLE, c.lang, &[("count", &c.builds.len().to_string())]);
    open_page(&mut out, &title, c.lang);
    let _ = writeln!(out, "<h1>{}</h1>", esc(&title));
    let speed =
        c.model_name.as_ref().map(|m| say(&compare_texts::HTML_SPEED, c.lang, &[("model", m)])).unwrap_or_default();
    let meta = say(
        &compare_texts::HTML_META,
        c.lang,
        &[("currency", &c.currency.to_string()), ("years", &c.horizon_years.to_string()), ("speed", &speed)],
    );
    let _ = writeln!(out, "<p class=\"meta\">{}</p>", esc(&meta));
    let _ = writeln!(
        out,
        "<table>\n<thead><tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>GPU</th><th>{}</th><th>{}</th></tr></thead>\n<tbody>",
        esc(sh.build),
        esc(tx.name),
        esc(sh.nodes),
        esc(sh.gpus),
        esc(tx.utilization),
        esc(sh.primary_cloud)
    );
    for b in &c.builds {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td><td class=\"n\">{:.0} %</td><td>{}</td></tr>",
            esc(b.label),
            esc(&b.name),
            b.nodes,
            b.gpus,
            esc(&b.gpu),
            b.utilization * 100.0,
            esc(b.primary_label.as_deref().unwrap_or(sh.none))
        );
    }
    out.push_str("</tbody>\n</table>\n");
    for g in &c.groups {
        if g.rows.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "<h2>{}</h2>\n<table>\n<thead><tr><th>{}</th><th>{}</th>",
            esc(g.label),
            esc(tx.metric),
            esc(sh.unit)
        );
        for (i, l) in labels.iter().enumerate() {
            let _ = write!(out, "<th>{}</th>", esc(l));
            if i > 0 {
                let _ = write!(out, "<th>Δ {}</th>", esc(l));
            }
        }
        let _ = writeln!(out, "<th>{}</th></tr></thead>\n<tbody>", esc(tx.better));
        for r in &g.rows {
            let _ = write!(out, "<tr><td>{}</td><td>{}</td>", esc(&r.label), esc(&r.unit));
            for (i, text) in r.text.iter().enumerate() {
                let class = if r.best.contains(&i) { "n best" } else { "n" };
                let _ = write!(out, "<td class=\"{class}\">{}</td>", esc(text));
                if i > 0 {
                    let cell = delta_cell(
                        r.deltas.get(i).copied().flatten(),
                        tx.outcome(r.vs_first.get(i).copied().flatten()),
                        c.lang,
                    );
                    let _ = write!(out, "<td class=\"n\">{}</td>", esc(&cell));
                }
            }
            let _ = writeln!(out, "<td>{}</td></tr>", esc(tx.direction_word(r.direction)));
        }
        out.push_str("</tbody>\n</table>\n");
    }
    if let Some(chart) = svg::compare_tco_curves(c) {
        let _ = writeln!(out, "<h2>{}</h2>\n<figure>{chart}</figure>", esc(tx.cumulative_cost));
    }
    if let Some(chart) = svg::compare_power_bars(c) {
        let _ = writeln!(out, "<h2>{}</h2>\n<figure>{chart}</figure>", esc(sh.wall_power));
    }
    let _ = writeln!(out, "<h2>{}</h2>", esc(tx.fit_differences));
    if c.fit_differences.is_empty() {
        let _ = writeln!(out, "<p>{}</p>", esc(tx.fit_same));
    } else {
        let _ = write!(out, "<table>\n<thead><tr><th>{}</th><th>{}</th>", esc(tx.model), esc(tx.workload));
        for l in &labels {
            let _ = write!(out, "<th>{}</th>", esc(l));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for d in &c.fit_differences {
            let _ = write!(out, "<tr><td>{}</td><td>{}</td>", esc(&d.model_name), esc(tx.workload_column(d.workload)));
            for v in &d.verdicts {
                let _ = write!(out, "<td>{}</td>", esc(tx.verdict(*v)));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
    }
    let _ = writeln!(out, "<h2>{}</h2>", esc(tx.parts_differences));
    if c.parts_difference.is_empty() {
        let _ = writeln!(out, "<p>{}</p>", esc(tx.parts_same));
    } else {
        let _ = write!(out, "<table>\n<thead><tr><th>{}</th><th>{}</th>", esc(tx.part), esc(tx.category));
        for l in &labels {
            let _ = write!(out, "<th>{}</th>", esc(l));
        }
        for l in labels.iter().skip(1) {
            let _ = write!(out, "<th>Δ {}</th>", esc(l));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for p in &c.parts_difference {
            let _ = write!(out, "<tr><td>{}</td><td>{}</td>", esc(&p.name), esc(p.category));
            for q in &p.quantities {
                let _ = write!(out, "<td class=\"n\">{q}</td>");
            }
            for d in p.deltas.iter().skip(1) {
                let d = delta_text(Some(*d as f64));
                let _ = write!(out, "<td class=\"n\">{}</td>", esc(&d));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody>\n</table>\n");
    }
    if !c.notes.is_empty() {
        out.push_str("<ul class=\"notes\">\n");
        for n in &c.notes {
            let _ = writeln!(out, "<li>{}</li>", esc(n));
        }
        out.push_str("</ul>\n");
    }
    close_page(&mut out);
    out
}
