//! The bases of a report's counts and settings: nodes and GPUs, each GPU group's GPUs per node
//! and memory per GPU, the models that fit each standard workload and the largest that fits
//! ([`fit_count_key`], [`largest_key`]), the findings by severity, the unpriced lines, the
//! exchange rate, and (once a front end dated the prices) the stale catalog prices. Like the
//! other bases they are read off the finished report and compute nothing the analyses did not.

use super::{Basis, num};
use crate::core::analysis::Report;
use crate::core::analysis::bom::PriceOrigin;
use crate::core::analysis::fit::{FitCell, FitMatrix, WorkloadKind};
use crate::core::analysis::memory::Verdict;
use crate::core::analysis::prices::PriceAges;
use crate::core::analysis::summary::LargestModel;
use crate::core::analysis::{Diagnostic, Severity};
use crate::core::catalog::ModelId;

/// The key of the stale-price count's basis: it exists only once the report's prices are
/// dated ([`Report::date_prices`]), which may happen after the other bases were written.
pub const STALE_PRICES_KEY: &str = "prices.stale_lines";

/// The keys of the findings' counts by severity (the app's Summary tab and status bar).
#[must_use]
pub fn findings_key(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "diagnostics.errors",
        Severity::Warning => "diagnostics.warnings",
        Severity::Info => "diagnostics.infos",
    }
}

/// `a + b + c` of several terms, `0` for none.
fn sum_text(terms: &[String]) -> String {
    if terms.is_empty() { "0".to_owned() } else { terms.join(" + ") }
}

/// Every count and setting basis of a report, in the order of the module's docs (the stale
/// prices only when the report is dated).
#[must_use]
pub fn of_counts(r: &Report) -> Vec<Basis> {
    let mut out = Vec::new();
    node_and_gpu_counts(r, &mut out);
    fit_bases(r, &mut out);
    for s in [Severity::Error, Severity::Warning, Severity::Info] {
        out.push(findings_count(&r.diagnostics, s));
    }
    unpriced_and_rate(r, &mut out);
    if let Some(ages) = &r.prices {
        out.push(of_price_ages(ages));
    }
    out
}

fn node_and_gpu_counts(r: &Report, out: &mut Vec<Basis>) {
    let groups = &r.power.nodes;
    let terms: Vec<String> = groups.iter().map(|n| format!("{} ({})", n.count, n.name)).collect();
    let mut nodes = Basis::new("nodes", "count-nodes", r.nodes as f64, "").substituted(format!(
        "{} = {}",
        sum_text(&terms),
        r.nodes
    ));
    for n in groups {
        nodes = nodes.input(&n.name, f64::from(n.count), "", format!("nodes[{}].count", n.node));
    }
    out.push(nodes);
    let terms: Vec<String> =
        r.fit.iter().map(|m| format!("{} × {} ({}, {})", m.gpus_per_node, m.nodes, m.gpu_name, m.node_name)).collect();
    let mut gpus =
        Basis::new("gpus", "count-gpus", r.gpus as f64, "").substituted(format!("{} = {}", sum_text(&terms), r.gpus));
    for (i, m) in r.fit.iter().enumerate() {
        gpus = gpus
            .input(
                &format!("{} per node", m.gpu_name),
                f64::from(m.gpus_per_node),
                "",
                format!("fit[{i}].gpus_per_node"),
            )
            .input(&format!("{} nodes", m.node_name), f64::from(m.nodes), "", format!("nodes[{}].count", m.node));
    }
    out.push(gpus);
    for (i, m) in r.fit.iter().enumerate() {
        // The GPU's own lines in the node group; what they do not account for is inside
        // complete systems (a DGX's eight GPUs), counted from the system's datasheet.
        let lines: Vec<(usize, u32)> = r
            .power
            .nodes
            .iter()
            .filter(|n| n.node == m.node)
            .flat_map(|n| n.parts.iter())
            .filter(|p| p.part == m.gpu)
            .map(|p| (p.line, p.quantity))
            .collect();
        let in_lines: u32 = lines.iter().map(|(_, q)| q).sum();
        let mut terms: Vec<String> = lines.iter().map(|(line, q)| format!("{q} (line {})", line + 1)).collect();
        let in_systems = m.gpus_per_node.saturating_sub(in_lines);
        if in_systems > 0 {
            terms.push(format!("{in_systems} (in complete systems)"));
        }
        out.push(
            Basis::new(format!("fit[{i}].gpus_per_node"), "count-gpus-per-node", f64::from(m.gpus_per_node), "")
                .substituted(format!("{} = {} × {} in {}", sum_text(&terms), m.gpus_per_node, m.gpu_name, m.node_name))
                .input("GPUs", f64::from(m.gpus_per_node), "", m.gpu.to_string()),
        );
        let gib = m.gpu_memory_bytes.gib();
        out.push(
            Basis::new(format!("fit[{i}].gpu_memory_bytes"), "gpu-memory", gib, "GiB")
                .substituted(format!("{} ({}, catalog id {})", num(gib, 0, "GiB"), m.gpu_name, m.gpu))
                .input("memory", gib, "GiB", m.gpu.to_string()),
        );
    }
}

/// The key of the count of catalog models that fit a standard workload
/// (`fit.models_fitting.inference-bf16-4k`; a comparison's `fit-<workload id>` row).
#[must_use]
pub fn fit_count_key(workload: WorkloadKind) -> String {
    format!("fit.models_fitting.{}", workload.id())
}

/// The key of the largest model that fits for inference, or for fine-tuning
/// (`summary.fit.largest_inference.params`, the JSON path of its parameter count).
#[must_use]
pub fn largest_key(finetune: bool) -> &'static str {
    if finetune { "summary.fit.largest_finetune.params" } else { "summary.fit.largest_inference.params" }
}

/// The matrices with rows of their own: node groups of one GPU and topology share their rows
/// (a 64-group cluster of one design has one set), and their cells are the same.
fn distinct(fit: &[FitMatrix]) -> Vec<&FitMatrix> {
    let mut out: Vec<&FitMatrix> = Vec::new();
    for m in fit {
        if !out.iter().any(|d| std::sync::Arc::ptr_eq(&d.rows, &m.rows)) {
            out.push(m);
        }
    }
    out
}

/// A fitting cell of `model` under `workload` in a report's matrices, with the most memory to
/// spare (the smallest share of its budget), and its matrix.
fn roomiest_fit<'r>(
    fit: &[&'r FitMatrix],
    model: &ModelId,
    workload: WorkloadKind,
) -> Option<(&'r FitMatrix, &'r FitCell)> {
    fit.iter()
        .copied()
        .filter_map(|m| {
            let row = m.rows.iter().find(|r| &r.model == model)?;
            let cell = row.cells.iter().find(|c| c.workload == workload && c.verdict.is_some_and(Verdict::fits))?;
            Some((m, cell))
        })
        .min_by(|a, b| a.1.memory_fraction.unwrap_or(1.0).total_cmp(&b.1.memory_fraction.unwrap_or(1.0)))
}

/// `15.3 GiB per GPU of 21.6 GiB usable (71 %) on 1 × GeForce RTX 4090 (Node 1, 24 GiB)`:
/// a fitting cell's memory against its GPUs' usable memory (the cell's total over its share
/// of the budget).
fn cell_memory_text(m: &FitMatrix, c: &FitCell) -> String {
    let total = c.per_gpu_total_bytes.map_or(0.0, crate::core::units::Bytes::gib);
    let fraction = c.memory_fraction.unwrap_or(0.0);
    let usable = if fraction > 0.0 { total / fraction } else { 0.0 };
    format!(
        "{} per GPU of {} usable ({:.0} %) on {} × {} ({}, {})",
        num(total, 1, "GiB"),
        num(usable, 1, "GiB"),
        fraction * 100.0,
        c.gpus_used.unwrap_or(1),
        m.gpu_name,
        m.node_name,
        num(m.gpu_memory_bytes.gib(), 0, "GiB")
    )
}

/// The models that fit each standard workload, and the largest model that fits for inference
/// and for fine-tuning, read off the fit matrices (the summary's own choice of model).
fn fit_bases(r: &Report, out: &mut Vec<Basis>) {
    if r.fit.is_empty() {
        return;
    }
    let fitting = crate::core::analysis::summary::fitting_workloads(&r.fit);
    let models = fitting.len();
    let matrices = distinct(&r.fit);
    // The GPU groups, alike node groups (one matrix's rows) once.
    let groups: Vec<String> = r
        .summary
        .fit
        .iter()
        .flat_map(|f| &f.groups)
        .map(|g| {
            let alike = if g.alike > 0 { format!(" + {} alike", g.alike) } else { String::new() };
            format!("{} × {} ({}{alike})", g.gpus_per_node, g.gpu_name, g.node_name)
        })
        .collect();
    for w in WorkloadKind::ALL {
        let of: Vec<&ModelId> = fitting.iter().filter(|(_, ws)| ws.contains(&w)).map(|(id, _)| *id).collect();
        let mut listed = Vec::new();
        let mut b = Basis::new(fit_count_key(w), "fit-count-workload", of.len() as f64, "");
        for id in &of {
            let Some((m, c)) = roomiest_fit(&matrices, id, w) else { continue };
            let name = m.rows.iter().find(|row| &row.model == *id).map_or(id.as_str(), |row| row.model_name.as_str());
            listed.push(name.to_owned());
            b = b.input(name, c.memory_fraction.unwrap_or(0.0), "", format!("{}: {}", id, cell_memory_text(m, c)));
        }
        let list = if listed.is_empty() { String::new() } else { format!(": {}", listed.join(", ")) };
        out.push(b.substituted(format!(
            "{} of {models} models fit {} on {}{list}",
            of.len(),
            w.short(),
            groups.join(", ")
        )));
    }
    let Some(summary) = &r.summary.fit else { return };
    for (finetune, largest) in [(false, &summary.largest_inference), (true, &summary.largest_finetune)] {
        if let Some(l) = largest {
            out.extend(largest_basis(&matrices, finetune, l));
        }
    }
}

fn largest_basis(matrices: &[&FitMatrix], finetune: bool, l: &LargestModel) -> Option<Basis> {
    let (m, c) = roomiest_fit(matrices, &l.model, l.workload)?;
    let billions = l.params as f64 / 1.0e9;
    Some(
        Basis::new(largest_key(finetune), "fit-largest", l.params as f64, "")
            .substituted(format!(
                "{}: {billions:.1} B parameters; fits {}: {}",
                l.name,
                l.workload.short(),
                cell_memory_text(m, c)
            ))
            .input("parameters", l.params as f64, "", l.model.to_string())
            .input(
                "memory per GPU",
                c.per_gpu_total_bytes.map_or(0.0, |b| b.0 as f64),
                "B",
                format!("{} on {}", l.workload.id(), m.gpu),
            )
            .input("GPU memory", m.gpu_memory_bytes.0 as f64, "B", m.gpu.to_string()),
    )
}

fn findings_count(diagnostics: &[Diagnostic], severity: Severity) -> Basis {
    let of: Vec<&Diagnostic> = diagnostics.iter().filter(|d| d.severity == severity).collect();
    let codes: Vec<&str> = of.iter().map(|d| d.code.as_str()).collect();
    let text = if codes.is_empty() { "0".to_owned() } else { format!("{} ({})", of.len(), codes.join(", ")) };
    let mut b = Basis::new(findings_key(severity), "count-findings", of.len() as f64, "").substituted(text);
    for d in of {
        b = b.input(d.code.as_str(), 1.0, "", d.parts.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "));
    }
    b
}

fn unpriced_and_rate(r: &Report, out: &mut Vec<Basis>) {
    let bom = &r.bom;
    let unpriced: Vec<(usize, &crate::core::analysis::bom::BomLine)> =
        bom.lines.iter().enumerate().filter(|(_, l)| l.extended_price.is_none()).collect();
    let names: Vec<&str> = unpriced.iter().map(|(_, l)| l.name.as_str()).collect();
    let text = if names.is_empty() {
        "0".to_owned()
    } else {
        format!("{} of {} lines: {}", bom.unpriced_lines, bom.lines.len(), names.join(", "))
    };
    let mut b = Basis::new("bom.unpriced_lines", "bom-unpriced", bom.unpriced_lines as f64, "").substituted(text);
    for (i, l) in unpriced {
        b = b.input(&l.name, 0.0, "", format!("bom.lines[{i}]: {}", l.part));
    }
    out.push(b);
    let cur = bom.currency.to_string();
    let cny_prices = bom
        .lines
        .iter()
        .any(|l| matches!(&l.price_origin, PriceOrigin::Catalog { currency, .. } if currency.0 == "CNY"));
    let mut text = format!("1 USD = {} {cur}", num(bom.usd_exchange_rate, 4, ""));
    let mut b = Basis::new("bom.usd_exchange_rate", "exchange-rate", bom.usd_exchange_rate, "").input(
        "rate",
        bom.usd_exchange_rate,
        "",
        "site.usd_exchange_rate",
    );
    if cny_prices && cur != "CNY" {
        let reference = crate::core::analysis::bom::REFERENCE_CNY_PER_USD;
        text = format!("{text}; CNY catalog prices: 1 USD = {reference} CNY");
        b = b.input("CNY per USD", reference, "", "REFERENCE_CNY_PER_USD");
    }
    out.push(b.substituted(text));
}

/// The stale catalog prices' count under the report's price-age policy.
#[must_use]
pub fn of_price_ages(ages: &PriceAges) -> Basis {
    let months = ages.policy.stale_after_months;
    let listed: Vec<String> =
        ages.stale.iter().map(|s| format!("{} ({}, {} months)", s.name, s.date, s.age_months)).collect();
    let mut text = format!(
        "{} of {} dated catalog prices older than {months} months on {}",
        ages.stale_lines(),
        ages.dated_lines,
        ages.policy.as_of
    );
    if !listed.is_empty() {
        text = format!("{text}: {}", listed.join(", "));
    }
    let mut b = Basis::new(STALE_PRICES_KEY, "price-stale", ages.stale_lines() as f64, "")
        .substituted(text)
        .input("threshold", f64::from(months), "months", "View > Prices stale after (months)")
        .input("dated lines", ages.dated_lines as f64, "", "bom: catalog prices with a date");
    for s in &ages.stale {
        b = b.input(&s.name, f64::from(s.age_months), "months", format!("{} ({})", s.part, s.date));
    }
    b
}
