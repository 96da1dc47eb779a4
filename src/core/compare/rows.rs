//! The comparison's rows, one group at a time: cost, power, thermal, compatibility, memory
//! fit and speed, each read out of the builds' reports.

use super::{Analysed, Direction, PARAMS_PER_BILLION, Row, capability_row, count_cell, money_cell, number_cell, row};
use crate::core::analysis::Report;
use crate::core::analysis::fit::{FitCell, WorkloadKind};
use crate::core::analysis::memory::Verdict;
use crate::core::analysis::summary::{CompatSummary, FitSummary, LargestModel, fitting_workloads};
use crate::core::catalog::ModelId;
use crate::core::units::{SECONDS_PER_HOUR, format_thousands};

pub(super) fn cost_rows(analysed: &[Analysed<'_>], cur: &str, years: f64) -> Vec<Row> {
    let primary_total = |a: &Analysed<'_>| a.report.summary.tco.primary_total;
    vec![
        row(
            "capex",
            "Capex (parts, tax, shipping, installation, custom lines)",
            cur,
            Direction::Lower,
            analysed.iter().map(|a| money_cell(Some(a.report.summary.capex), a.money_factor, "")).collect(),
        ),
        row(
            "unpriced-lines",
            "Part lines without a price (not in capex)",
            "lines",
            Direction::Lower,
            analysed.iter().map(|a| count_cell(a.report.summary.unpriced_lines)).collect(),
        ),
        row(
            "tco-owned",
            format!("Owned total over {years} years (net of the value left)"),
            cur,
            Direction::Lower,
            analysed.iter().map(|a| money_cell(Some(a.report.summary.tco.owned_total), a.money_factor, "")).collect(),
        ),
        row(
            "tco-cloud",
            format!("Primary cloud option over {years} years"),
            cur,
            Direction::None,
            analysed.iter().map(|a| money_cell(primary_total(a), a.money_factor, "no option")).collect(),
        ),
        row(
            "owning-savings",
            "Saving from owning (cloud total − owned total)",
            cur,
            Direction::Higher,
            analysed
                .iter()
                .map(|a| {
                    money_cell(
                        primary_total(a).map(|c| c - a.report.summary.tco.owned_total),
                        a.money_factor,
                        "no option",
                    )
                })
                .collect(),
        ),
        row(
            "break-even",
            "Break-even against the primary cloud option",
            "month",
            Direction::Lower,
            analysed
                .iter()
                .map(|a| {
                    let t = &a.report.summary.tco;
                    let missing = if t.primary_option.is_some() { "never" } else { "no option" };
                    number_cell(t.break_even_month, 1, missing)
                })
                .collect(),
        ),
    ]
}

pub(super) fn power_rows(analysed: &[Analysed<'_>]) -> Vec<Row> {
    let watts = |f: fn(&Report) -> f64| analysed.iter().map(|a| number_cell(Some(f(&a.report)), 0, "")).collect();
    vec![
        row("wall-max", "Wall power at max", "W", Direction::Lower, watts(|r| r.summary.wall_watts)),
        row("wall-typical", "Wall power, typical", "W", Direction::Lower, watts(|r| r.summary.wall_typical_watts)),
        row("wall-idle", "Wall power, idle", "W", Direction::Lower, watts(|r| r.summary.wall_idle_watts)),
        row(
            "recommended-psu",
            "Recommended PSU capacity (all nodes)",
            "W",
            Direction::Lower,
            watts(|r| r.summary.recommended_psu_watts),
        ),
        row(
            "circuits",
            "Circuits needed at max draw",
            "circuits",
            Direction::Lower,
            analysed
                .iter()
                .map(|a| {
                    let n = a.report.power.rack.circuits_needed as f64;
                    (Some(n), a.report.power.rack.circuits_needed.to_string())
                })
                .collect(),
        ),
    ]
}

/// The smallest of some values, if any.
fn min_of(values: impl Iterator<Item = f64>) -> Option<f64> {
    values.reduce(f64::min)
}

pub(super) fn thermal_rows(analysed: &[Analysed<'_>]) -> Vec<Row> {
    fn gpus(r: &Report) -> Vec<&crate::core::analysis::thermal::GpuThermal> {
        r.thermal.nodes.iter().flat_map(|n| &n.gpus).collect()
    }
    vec![
        row(
            "gpu-headroom",
            "Worst GPU temperature headroom (limit − estimate)",
            "°C",
            Direction::Higher,
            analysed
                .iter()
                .map(|a| number_cell(min_of(gpus(&a.report).iter().map(|g| g.headroom_c)), 0, "no GPU"))
                .collect(),
        ),
        row(
            "gpu-temp",
            "Hottest GPU, estimated at sustained load",
            "°C",
            Direction::Lower,
            analysed
                .iter()
                .map(|a| number_cell(gpus(&a.report).iter().map(|g| g.estimated_temp_c).reduce(f64::max), 0, "no GPU"))
                .collect(),
        ),
        row(
            "cpu-cooler-headroom",
            "Worst CPU cooler headroom",
            "W",
            Direction::Higher,
            analysed
                .iter()
                .map(|a| {
                    let h =
                        min_of(a.report.thermal.nodes.iter().flat_map(|n| &n.cpus).filter_map(|c| c.headroom_watts));
                    number_cell(h, 0, "n/a")
                })
                .collect(),
        ),
        row(
            "airflow-headroom",
            "Worst chassis airflow headroom (fans' rating − need)",
            "CFM",
            Direction::Higher,
            analysed
                .iter()
                .map(|a| {
                    let h = min_of(a.report.thermal.nodes.iter().filter_map(|n| n.airflow.headroom_cfm));
                    number_cell(h, 0, "unknown")
                })
                .collect(),
        ),
        row(
            "heat",
            "Heat load at max",
            "BTU/h",
            Direction::Lower,
            analysed.iter().map(|a| number_cell(Some(a.report.summary.heat_btu_per_hour), 0, "")).collect(),
        ),
    ]
}

pub(super) fn compat_rows(analysed: &[Analysed<'_>]) -> Vec<Row> {
    let count = |n: fn(&CompatSummary) -> usize| {
        analysed.iter().map(|a| count_cell(n(&a.report.summary.compatibility))).collect()
    };
    vec![
        row("errors", "Compatibility errors", "findings", Direction::Lower, count(|c| c.errors)),
        row("warnings", "Compatibility warnings", "findings", Direction::Lower, count(|c| c.warnings)),
        row("infos", "Notes (info)", "findings", Direction::None, count(|c| c.infos)),
    ]
}

/// The largest fitting model of a report's summary that `pick` selects, as (params in
/// billions, text).
fn largest(report: &Report, pick: fn(&FitSummary) -> Option<&LargestModel>) -> (Option<f64>, String) {
    let Some(fit) = &report.summary.fit else { return (None, "no GPUs".to_owned()) };
    match pick(fit) {
        Some(l) => {
            let b = l.params as f64 / PARAMS_PER_BILLION;
            (Some(b), format!("{} ({b:.1} B)", l.name))
        }
        None => (None, "none".to_owned()),
    }
}

pub(super) fn fit_rows(analysed: &[Analysed<'_>]) -> Vec<Row> {
    let mut rows: Vec<Row> = WorkloadKind::ALL
        .into_iter()
        .map(|w| {
            capability_row(
                format!("fit-{}", w.id()),
                format!("Models that fit: {}", w.label()),
                "models",
                Direction::Higher,
                analysed
                    .iter()
                    .map(|a| {
                        if a.report.fit.is_empty() {
                            return (None, "no GPUs".to_owned());
                        }
                        count_cell(fitting_workloads(&a.report.fit).values().filter(|ws| ws.contains(&w)).count())
                    })
                    .collect(),
            )
        })
        .collect();
    rows.push(capability_row(
        "largest-inference",
        "Largest model that fits for inference",
        "B params",
        Direction::Higher,
        analysed.iter().map(|a| largest(&a.report, |f| f.largest_inference.as_ref())).collect(),
    ));
    rows.push(capability_row(
        "largest-finetune",
        "Largest model that fits for fine-tuning",
        "B params",
        Direction::Higher,
        analysed.iter().map(|a| largest(&a.report, |f| f.largest_finetune.as_ref())).collect(),
    ));
    rows
}

/// The best cell of a model under a workload over a report's node groups: a fitting cell with
/// the highest `speed`, else the first cell (for its verdict).
fn best_cell<'r>(
    report: &'r Report,
    model: &ModelId,
    workload: WorkloadKind,
    speed: fn(&FitCell) -> Option<f64>,
) -> Option<&'r FitCell> {
    let cells: Vec<&FitCell> = report
        .fit
        .iter()
        .filter_map(|m| m.rows.iter().find(|r| &r.model == model))
        .filter_map(|r| r.cells.iter().find(|c| c.workload == workload))
        .collect();
    let fitting = cells
        .iter()
        .filter(|c| c.verdict.is_some_and(Verdict::fits))
        .max_by(|a, b| speed(a).unwrap_or(0.0).total_cmp(&speed(b).unwrap_or(0.0)));
    fitting.or(cells.first()).copied()
}

/// The text for a cell with no speed: why.
fn why_none(report: &Report, cell: Option<&FitCell>) -> String {
    if report.fit.is_empty() {
        return "no GPUs".to_owned();
    }
    match cell.and_then(|c| c.verdict) {
        Some(Verdict::DoesNotFit) => "does not fit".to_owned(),
        Some(_) => "no figure".to_owned(),
        None => "n/a".to_owned(),
    }
}

pub(super) fn speed_rows(
    analysed: &[Analysed<'_>],
    model: &crate::core::catalog::Model,
    train_tokens: f64,
) -> Vec<Row> {
    let id = &model.id;
    let rate = |w: WorkloadKind, speed: fn(&FitCell) -> Option<f64>| -> Vec<(Option<f64>, String)> {
        analysed
            .iter()
            .map(|a| {
                let cell = best_cell(&a.report, id, w, speed);
                match cell.filter(|c| c.verdict.is_some_and(Verdict::fits)).and_then(speed) {
                    Some(v) => (Some(v), format_thousands(v, usize::from(v < 100.0))),
                    None => (None, why_none(&a.report, cell)),
                }
            })
            .collect()
    };
    let hours = |cells: &[(Option<f64>, String)]| -> Vec<(Option<f64>, String)> {
        cells
            .iter()
            .map(|(tps, why)| match tps {
                Some(t) if *t > 0.0 => {
                    let h = train_tokens / t / SECONDS_PER_HOUR;
                    (Some(h), format_thousands(h, 1))
                }
                _ => (None, why.clone()),
            })
            .collect()
    };
    let tokens = tokens_text(train_tokens);
    let name = &model.name;
    if model.transformer().is_none() {
        return vec![
            capability_row(
                "samples-inference",
                format!("{name}: inference samples per second ({})", WorkloadKind::InferenceBf16.short()),
                "samples/s",
                Direction::Higher,
                rate(WorkloadKind::InferenceBf16, |c| c.samples_per_s),
            ),
            capability_row(
                "samples-train",
                format!("{name}: training samples per second ({})", WorkloadKind::FullFinetune.short()),
                "samples/s",
                Direction::Higher,
                rate(WorkloadKind::FullFinetune, |c| c.samples_per_s),
            ),
        ];
    }
    let lora = rate(WorkloadKind::Lora, |c| c.train_tokens_per_s);
    let full = rate(WorkloadKind::FullFinetune, |c| c.train_tokens_per_s);
    vec![
        capability_row(
            "decode-bf16",
            format!("{name}: decode, {}", WorkloadKind::InferenceBf16.label()),
            "tokens/s",
            Direction::Higher,
            rate(WorkloadKind::InferenceBf16, |c| c.decode_tokens_per_s),
        ),
        capability_row(
            "decode-q4_k_m",
            format!("{name}: decode, {}", WorkloadKind::InferenceQ4km.label()),
            "tokens/s",
            Direction::Higher,
            rate(WorkloadKind::InferenceQ4km, |c| c.decode_tokens_per_s),
        ),
        capability_row(
            "train-lora",
            format!("{name}: training throughput, {}", WorkloadKind::Lora.label()),
            "tokens/s",
            Direction::Higher,
            lora.clone(),
        ),
        capability_row(
            "train-full",
            format!("{name}: training throughput, {}", WorkloadKind::FullFinetune.label()),
            "tokens/s",
            Direction::Higher,
            full.clone(),
        ),
        capability_row(
            "time-lora",
            format!("{name}: LoRA training time for {tokens} tokens"),
            "h",
            Direction::Lower,
            hours(&lora),
        ),
        capability_row(
            "time-full",
            format!("{name}: full fine-tune training time for {tokens} tokens"),
            "h",
            Direction::Lower,
            hours(&full),
        ),
    ]
}

/// A token count in words: `1B`, `2.5B`, `500M`, `20,000`.
#[must_use]
pub fn tokens_text(tokens: f64) -> String {
    let short = |v: f64, suffix: &str| {
        let text = format!("{v:.2}");
        format!("{}{suffix}", text.trim_end_matches('0').trim_end_matches('.'))
    };
    if tokens >= 1.0e12 {
        short(tokens / 1.0e12, "T")
    } else if tokens >= 1.0e9 {
        short(tokens / 1.0e9, "B")
    } else if tokens >= 1.0e6 {
        short(tokens / 1.0e6, "M")
    } else {
        format_thousands(tokens, 0)
    }
}
