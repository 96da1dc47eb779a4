//! Markdown: the build sheet and the comparison as CommonMark with GitHub-style tables.
//!
//! Every piece of user text goes through [`escape_markdown`](super::safety::escape_markdown),
//! so a name shows as written and never becomes a link, raw HTML or a broken table. Long
//! catalog sources are listed once under the table and referenced by number, which keeps the
//! parts table readable.

use super::columns::{PARTS_COLUMNS, Value};
use super::safety::escape_markdown as esc;
use super::sheet::BuildSheet;
use super::texts::{SheetTexts, fill};
use super::{money_text, summary_items};
use crate::core::compare::Comparison;
use crate::core::compare::texts::{self as compare_texts, CompareTexts, say};
use crate::core::i18n::Lang;
use crate::core::units::format_thousands;
use std::fmt::Write as _;

/// Numbers the distinct sources of the sheet's lines in order of first use; returns each
/// line's reference number (none for an empty source) and the list.
#[must_use]
pub fn numbered_sources(sheet: &BuildSheet) -> (Vec<Option<usize>>, Vec<&str>) {
    let mut list: Vec<&str> = Vec::new();
    let refs = sheet
        .lines
        .iter()
        .map(|l| {
            if l.source.is_empty() {
                return None;
            }
            if let Some(i) = list.iter().position(|s| *s == l.source) {
                Some(i + 1)
            } else {
                list.push(&l.source);
                Some(list.len())
            }
        })
        .collect();
    (refs, list)
}

/// The parts table (the sheet's parts columns, one row per line) appended to `out`; returns
/// the sources its rows cite by number, in order.
fn parts_table<'s>(out: &mut String, sheet: &'s BuildSheet) -> Vec<&'s str> {
    let t = SheetTexts::of(sheet.lang);
    let cur_plain = sheet.currency.to_string();
    let header: Vec<String> = PARTS_COLUMNS.iter().map(|c| esc(&c.header_in(sheet.lang, &cur_plain))).collect();
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let rule: Vec<&str> = PARTS_COLUMNS.iter().map(|c| if c.is_numeric() { "---:" } else { "---" }).collect();
    let _ = writeln!(out, "| {} |", rule.join(" | "));
    let (refs, sources) = numbered_sources(sheet);
    for (l, r) in sheet.lines.iter().zip(&refs) {
        let cells: Vec<String> = PARTS_COLUMNS
            .iter()
            .map(|c| match c.value(l, sheet.lang) {
                Value::Text(s) => esc(s),
                Value::Label(s) => s.to_owned(),
                Value::Count(n) => n.to_string(),
                Value::Money(m) => m.map_or_else(|| t.no_price.to_owned(), money_text),
                Value::Source(_) => r.map_or_else(String::new, |n| format!("\\[{n}\\]")),
            })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    sources
}

/// The parts list alone, to paste into a chat or a forum post (PCPartPicker's "Markdown"
/// list): the build's name, the sheet's parts table, the total capex and the sources the
/// table cites. The same cells as [`sheet_to_markdown`]'s parts section.
#[must_use]
pub fn parts_list_to_markdown(sheet: &BuildSheet) -> String {
    let t = SheetTexts::of(sheet.lang);
    let mut out = String::new();
    let _ = writeln!(out, "**{}**\n", esc(&fill(t.build_sheet_title, &[&sheet.build_name])));
    let sources = parts_table(&mut out, sheet);
    let cur = sheet.currency.to_string();
    let _ = writeln!(out, "\n**{}:** {} {}", t.capex, money_text(sheet.totals.capex), esc(&cur));
    if !sources.is_empty() {
        let _ = writeln!(out);
        for (i, s) in sources.iter().enumerate() {
            let _ = writeln!(out, "{}. {}", i + 1, esc(s));
        }
    }
    out
}

/// The build sheet as Markdown, in the sheet's language.
#[must_use]
pub fn sheet_to_markdown(sheet: &BuildSheet) -> String {
    let t = SheetTexts::of(sheet.lang);
    let mut out = String::new();
    let cur_plain = sheet.currency.to_string();
    let cur = esc(&cur_plain);
    let _ = writeln!(out, "# {}\n", esc(&fill(t.build_sheet_title, &[&sheet.build_name])));
    if !sheet.description.is_empty() {
        let _ = writeln!(out, "**{}:** {}\n", t.description, esc(&sheet.description));
    }
    let _ = writeln!(out, "| | |\n| --- | --- |");
    let _ = writeln!(out, "| {} | {} |", t.date, sheet.date);
    let _ = writeln!(out, "| {} | {cur} |", t.currency);
    let _ = writeln!(
        out,
        "| {} | {} |",
        t.usd_exchange_rate,
        esc(&fill(t.usd_rate_note, &[&sheet.usd_exchange_rate, &cur_plain]))
    );
    let _ = writeln!(out, "\n## {}\n", t.parts);
    let sources = parts_table(&mut out, sheet);
    if !sheet.custom_lines.is_empty() {
        let _ = writeln!(out, "\n## {}\n", t.custom_lines);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            t.item,
            t.kind,
            t.quantity,
            esc(&t.money_header(t.unit_amount, &cur_plain)),
            esc(&t.money_header(t.amount, &cur_plain))
        );
        let _ = writeln!(out, "| --- | --- | ---: | ---: | ---: |");
        for c in &sheet.custom_lines {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                esc(&c.name),
                c.kind.label_in(sheet.lang),
                c.quantity,
                money_text(c.unit_amount),
                money_text(c.amount)
            );
        }
    }
    let tot = &sheet.totals;
    let _ = writeln!(out, "\n## {}\n", t.totals);
    let _ = writeln!(out, "| | {} |\n| --- | ---: |", esc(&t.money_header(t.amount, &cur_plain)));
    let _ = writeln!(out, "| {} | {} |", t.parts, money_text(tot.parts));
    for (label, s) in t.surcharges.iter().zip([&tot.tax, &tot.shipping, &tot.installation]) {
        if let Some(s) = s {
            let _ =
                writeln!(out, "| {} | {} |", fill(t.surcharge_of_parts, &[label, &s.percent]), money_text(s.amount));
        }
    }
    let _ = writeln!(out, "| {} | {} |", t.custom_capex, money_text(tot.custom));
    let _ = writeln!(out, "| **{}** | **{}** |", t.capex, money_text(tot.capex));
    if tot.custom_opex_per_year != 0.0 {
        let _ = writeln!(out, "| {} | {} |", t.custom_opex, money_text(tot.custom_opex_per_year));
    }
    let _ = writeln!(out, "\n## {}\n", t.summary);
    for (label, text) in summary_items(sheet) {
        let _ = writeln!(out, "- **{label}:** {}", esc(&text));
    }
    if !sheet.summary.findings.is_empty() {
        let _ = writeln!(out, "\n## {}\n", t.findings);
        for f in &sheet.summary.findings {
            let fix = f.fix.as_ref().map(|x| fill(t.fix_suffix, &[&esc(x)])).unwrap_or_default();
            let _ = writeln!(out, "- **{}** \\[{}\\]: {}{fix}", t.severity(f.severity), esc(&f.code), esc(&f.message));
        }
    }
    if !sheet.notes.is_empty() {
        let _ = writeln!(out, "\n## {}\n", t.notes);
        for n in &sheet.notes {
            let _ = writeln!(out, "- {}", esc(n));
        }
    }
    if !sources.is_empty() {
        let _ = writeln!(out, "\n## {}\n", t.sources);
        for (i, s) in sources.iter().enumerate() {
            let _ = writeln!(out, "{}. {}", i + 1, esc(s));
        }
    }
    out
}

/// A value cell of a comparison: the text, marked bold where the build is among the best.
fn value_cell(text: &str, best: bool) -> String {
    if best { format!("**{}**", esc(text)) } else { esc(text) }
}

/// A signed delta as text (`+1,234`, `−56.5`, `0`).
#[must_use]
pub fn delta_text(delta: Option<f64>) -> String {
    match delta {
        None => String::new(),
        Some(0.0) => "0".to_owned(),
        Some(d) => {
            let whole = (d - d.round()).abs() < 1e-9 || d.abs() >= 100.0;
            let decimals = usize::from(!whole);
            let sign = if d > 0.0 { "+" } else { "−" };
            format!("{sign}{}", format_thousands(d.abs(), decimals))
        }
    }
}

/// A delta with how it fares against the first (`+1,234 (better)`; `+1,234（更优）`).
#[must_use]
pub fn delta_cell(delta: Option<f64>, outcome: &str, lang: Lang) -> String {
    match (delta_text(delta), outcome) {
        (d, "") => d,
        (d, o) if d.is_empty() => o.to_owned(),
        (d, o) => say(&compare_texts::WITH_OUTCOME, lang, &[("delta", &d), ("outcome", o)]),
    }
}

/// The comparison as Markdown.
#[must_use]
pub fn comparison_to_markdown(c: &Comparison) -> String {
    let tx = CompareTexts::of(c.lang);
    let sh = tx.sheet;
    let mut out = String::new();
    let labels: Vec<&str> = c.builds.iter().map(|b| b.label).collect();
    let _ = writeln!(out, "# {}\n", say(&compare_texts::TITLE, c.lang, &[("count", &c.builds.len().to_string())]));
    let _ = writeln!(
        out,
        "| {} | {} | {} | {} | GPU | {} | {} |",
        sh.build, tx.name, sh.nodes, sh.gpus, tx.utilization, sh.primary_cloud
    );
    let _ = writeln!(out, "| --- | --- | ---: | ---: | --- | ---: | --- |");
    for b in &c.builds {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:.0} % | {} |",
            b.label,
            esc(&b.name),
            b.nodes,
            b.gpus,
            esc(&b.gpu),
            b.utilization * 100.0,
            esc(b.primary_label.as_deref().unwrap_or(sh.none))
        );
    }
    let intro = say(
        &compare_texts::MD_INTRO,
        c.lang,
        &[("currency", &esc(&c.currency.to_string())), ("years", &c.horizon_years.to_string())],
    );
    let _ = writeln!(out, "\n{intro}");
    if let Some(name) = &c.model_name {
        let _ = writeln!(out, "{}", say(&compare_texts::MD_SPEED, c.lang, &[("model", &esc(name))]));
    }
    for g in &c.groups {
        if g.rows.is_empty() {
            continue;
        }
        let _ = writeln!(out, "\n## {}\n", g.label);
        let mut header = format!("| {} | {} |", tx.metric, sh.unit);
        let mut rule = String::from("| --- | --- |");
        for (i, l) in labels.iter().enumerate() {
            let _ = write!(header, " {l} |");
            rule.push_str(" ---: |");
            if i > 0 {
                let _ = write!(header, " Δ {l} |");
                rule.push_str(" ---: |");
            }
        }
        let _ = write!(header, " {} |", tx.better);
        rule.push_str(" --- |");
        let _ = writeln!(out, "{header}\n{rule}");
        for r in &g.rows {
            let mut line = format!("| {} | {} |", esc(&r.label), esc(&r.unit));
            for (i, text) in r.text.iter().enumerate() {
                let _ = write!(line, " {} |", value_cell(text, r.best.contains(&i)));
                if i > 0 {
                    let delta = r.deltas.get(i).copied().flatten();
                    let outcome = tx.outcome(r.vs_first.get(i).copied().flatten());
                    let cell = delta_cell(delta, outcome, c.lang);
                    let _ = write!(line, " {cell} |");
                }
            }
            let better = tx.direction_word(r.direction);
            let _ = write!(line, " {better} |");
            let _ = writeln!(out, "{line}");
        }
    }
    let _ = writeln!(out, "\n## {}\n", tx.fit_differences);
    if c.fit_differences.is_empty() {
        let _ = writeln!(out, "{}", tx.fit_same);
    } else {
        let _ = writeln!(out, "| {} | {} | {} |", tx.model, tx.workload, labels.join(" | "));
        let _ = writeln!(out, "| --- | --- |{}", " --- |".repeat(labels.len()));
        for d in &c.fit_differences {
            let verdicts: Vec<&str> = d.verdicts.iter().map(|v| tx.verdict(*v)).collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                esc(&d.model_name),
                esc(tx.workload_column(d.workload)),
                verdicts.join(" | ")
            );
        }
    }
    let _ = writeln!(out, "\n## {}\n", tx.parts_differences);
    if c.parts_difference.is_empty() {
        let _ = writeln!(out, "{}", tx.parts_same);
    } else {
        let deltas: Vec<String> = labels.iter().skip(1).map(|l| format!("Δ {l}")).collect();
        let _ = writeln!(out, "| {} | {} | {} | {} |", tx.part, tx.category, labels.join(" | "), deltas.join(" | "));
        let _ = writeln!(out, "| --- | --- |{}", " ---: |".repeat(labels.len() * 2 - 1));
        for p in &c.parts_difference {
            let q: Vec<String> = p.quantities.iter().map(ToString::to_string).collect();
            let d: Vec<String> = p.deltas.iter().skip(1).map(|d| delta_text(Some(*d as f64))).collect();
            let _ = writeln!(out, "| {} | {} | {} | {} |", esc(&p.name), p.category, q.join(" | "), d.join(" | "));
        }
    }
    if !c.notes.is_empty() {
        let _ = writeln!(out, "\n## {}\n", sh.notes);
        for n in &c.notes {
            let _ = writeln!(out, "- {}", esc(n));
        }
    }
    out
}
