//! The comparison's rows, one group at a time: cost, power, thermal, compatibility, memory
//! fit and speed, each read out of the builds' reports, labelled in the comparison's language
//! ([`CompareTexts`]).

use super::texts::{self, CompareTexts, say};
use super::{
    Analysed, Direction, PARAMS_PER_BILLION, Row, capability_row, count_cell, keys, money_cell, number_cell, row,
};
use crate::core::analysis::Report;
use crate::core::analysis::basis::fit::CellAt;
use crate::core::analysis::fit::{FitCell, WorkloadKind};
use crate::core::analysis::memory::Verdict;
use crate::core::analysis::summary::{CompatSummary, FitSummary, LargestModel, fitting_workloads};
use crate::core::catalog::ModelId;
use crate::core::i18n::Template;
use crate::core::units::{SECONDS_PER_HOUR, format_thousands};

pub(super) fn cost_rows(analysed: &[Analysed<'_>], tx: &CompareTexts, cur: &str, years: f64) -> Vec<Row> {
    let primary_total = |a: &Analysed<'_>| a.report.summary.tco.primary_total;
    let years = years.to_string();
    let years = [("years", years.as_str())];
    vec![
        row(
            "capex",
            tx.capex,
            cur,
            Direction::Lower,
            analysed.iter().map(|a| money_cell(Some(a.report.summary.capex), a.money_factor, "")).collect(),
        ),
        row(
            "unpriced-lines",
            tx.unpriced_lines,
            tx.unit_lines,
            Direction::Lower,
            analysed.iter().map(|a| count_cell(a.report.summary.unpriced_lines)).collect(),
        ),
        row(
            "tco-owned",
            say(&texts::TCO_OWNED, tx.lang, &years),
            cur,
            Direction::Lower,
            analysed.iter().map(|a| money_cell(Some(a.report.summary.tco.owned_total), a.money_factor, "")).collect(),
        ),
        row(
            "tco-cloud",
            say(&texts::TCO_CLOUD, tx.lang, &years),
            cur,
            Direction::None,
            analysed.iter().map(|a| money_cell(primary_total(a), a.money_factor, tx.no_option)).collect(),
        ),
        row(
            "owning-savings",
            tx.owning_savings,
            cur,
            Direction::Higher,
            analysed
                .iter()
                .map(|a| {
                    money_cell(
                        primary_total(a).map(|c| c - a.report.summary.tco.owned_total),
                        a.money_factor,
                        tx.no_option,
                    )
                })
                .collect(),
        ),
        row(
            "break-even",
            tx.break_even,
            tx.sheet.month,
            Direction::Lower,
            analysed
                .iter()
                .map(|a| {
                    let t = &a.report.summary.tco;
                    let missing = if t.primary_option.is_some() { tx.sheet.never } else { tx.no_option };
                    number_cell(t.break_even_month, 1, missing)
                })
                .collect(),
        ),
    ]
}

pub(super) fn power_rows(analysed: &[Analysed<'_>], tx: &CompareTexts) -> Vec<Row> {
    let watts = |f: fn(&Report) -> f64| analysed.iter().map(|a| number_cell(Some(f(&a.report)), 0, "")).collect();
    let s = tx.sheet;
    vec![
        row("wall-max", s.wall_max, "W", Direction::Lower, watts(|r| r.summary.wall_watts)),
        row("wall-typical", s.wall_typical, "W", Direction::Lower, watts(|r| r.summary.wall_typical_watts)),
        row("wall-idle", s.wall_idle, "W", Direction::Lower, watts(|r| r.summary.wall_idle_watts)),
        row("recommended-psu", tx.recommended_psu, "W", Direction::Lower, watts(|r| r.summary.recommended_psu_watts)),
        row(
            "circuits",
            tx.circuits,
            tx.unit_circuits,
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

pub(super) fn thermal_rows(analysed: &[Analysed<'_>], tx: &CompareTexts) -> Vec<Row> {
    fn gpus(r: &Report) -> Vec<&crate::core::analysis::thermal::GpuThermal> {
        r.thermal.nodes.iter().flat_map(|n| &n.gpus).collect()
    }
    vec![
        row(
            "gpu-headroom",
            tx.gpu_headroom,
            "°C",
            Direction::Higher,
            analysed
                .iter()
                .map(|a| number_cell(min_of(gpus(&a.report).iter().map(|g| g.headroom_c)), 0, tx.no_gpu))
                .collect(),
        ),
        row(
            "gpu-temp",
            tx.gpu_temp,
            "°C",
            Direction::Lower,
            analysed
                .iter()
                .map(|a| number_cell(gpus(&a.report).iter().map(|g| g.estimated_temp_c).reduce(f64::max), 0, tx.no_gpu))
                .collect(),
        ),
        row(
            "cpu-cooler-headroom",
            tx.cpu_cooler_headroom,
            "W",
            Direction::Higher,
            analysed
                .iter()
                .map(|a| {
                    let h =
                        min_of(a.report.thermal.nodes.iter().flat_map(|n| &n.cpus).filter_map(|c| c.headroom_watts));
                    number_cell(h, 0, tx.not_applicable)
                })
                .collect(),
        ),
        row(
            "airflow-headroom",
            tx.airflow_headroom,
            "CFM",
            Direction::Higher,
            analysed
                .iter()
                .map(|a| {
                    let h = min_of(a.report.thermal.nodes.iter().filter_map(|n| n.airflow.headroom_cfm));
                    number_cell(h, 0, tx.unknown)
                })
                .collect(),
        ),
        row(
            "heat",
            tx.heat,
            "BTU/h",
            Direction::Lower,
            analysed.iter().map(|a| number_cell(Some(a.report.summary.heat_btu_per_hour), 0, "")).collect(),
        ),
    ]
}

pub(super) fn compat_rows(analysed: &[Analysed<'_>], tx: &CompareTexts) -> Vec<Row> {
    let count = |n: fn(&CompatSummary) -> usize| {
        analysed.iter().map(|a| count_cell(n(&a.report.summary.compatibility))).collect()
    };
    let unit = tx.unit_findings;
    vec![
        row("errors", tx.sheet.compat_errors, unit, Direction::Lower, count(|c| c.errors)),
        row("warnings", tx.sheet.compat_warnings, unit, Direction::Lower, count(|c| c.warnings)),
        row("infos", tx.infos, unit, Direction::None, count(|c| c.infos)),
    ]
}

/// The largest fitting model of a report's summary that `pick` selects, as (params in
/// billions, text).
fn largest(
    report: &Report,
    tx: &CompareTexts,
    pick: fn(&FitSummary) -> Option<&LargestModel>,
) -> (Option<f64>, String) {
    let Some(fit) = &report.summary.fit else { return (None, tx.sheet.no_gpus.to_owned()) };
    match pick(fit) {
        Some(l) => {
            let b = l.params as f64 / PARAMS_PER_BILLION;
            (Some(b), say(&texts::LARGEST_VALUE, tx.lang, &[("name", &l.name), ("params", &format!("{b:.1}"))]))
        }
        None => (None, tx.sheet.none.to_owned()),
    }
}

pub(super) fn fit_rows(analysed: &[Analysed<'_>], tx: &CompareTexts) -> Vec<Row> {
    let mut rows: Vec<Row> = WorkloadKind::ALL
        .into_iter()
        .map(|w| {
            capability_row(
                format!("fit-{}", w.id()),
                say(&texts::FIT_MODELS, tx.lang, &[("workload", &w.label_text().render(tx.lang))]),
                tx.unit_models,
                Direction::Higher,
                analysed
                    .iter()
                    .map(|a| {
                        if a.report.fit.is_empty() {
                            return (None, tx.sheet.no_gpus.to_owned());
                        }
                        count_cell(fitting_workloads(&a.report.fit).values().filter(|ws| ws.contains(&w)).count())
                    })
                    .collect(),
            )
        })
        .collect();
    rows.push(capability_row(
        "largest-inference",
        tx.largest_inference,
        tx.unit_params,
        Direction::Higher,
        analysed.iter().map(|a| largest(&a.report, tx, |f| f.largest_inference.as_ref())).collect(),
    ));
    rows.push(capability_row(
        "largest-finetune",
        tx.largest_finetune,
        tx.unit_params,
        Direction::Higher,
        analysed.iter().map(|a| largest(&a.report, tx, |f| f.largest_finetune.as_ref())).collect(),
    ));
    rows
}

/// The best cell of a model under a workload over a report's node groups, with where it is: a
/// fitting cell with the highest `speed`, else the first cell (for its verdict).
fn best_cell<'r>(
    report: &'r Report,
    model: &ModelId,
    workload: WorkloadKind,
    speed: fn(&FitCell) -> Option<f64>,
) -> Option<(CellAt, &'r FitCell)> {
    let cells: Vec<(CellAt, &FitCell)> = report
        .fit
        .iter()
        .enumerate()
        .filter_map(|(matrix, m)| m.rows.iter().position(|r| &r.model == model).map(|row| (matrix, m, row)))
        .filter_map(|(matrix, m, row)| {
            let cells = &m.rows.get(row)?.cells;
            let col = cells.iter().position(|c| c.workload == workload)?;
            Some((CellAt { matrix, row, col }, cells.get(col)?))
        })
        .collect();
    let fitting = cells
        .iter()
        .filter(|(_, c)| c.verdict.is_some_and(Verdict::fits))
        .max_by(|(_, a), (_, b)| speed(a).unwrap_or(0.0).total_cmp(&speed(b).unwrap_or(0.0)));
    fitting.or(cells.first()).copied()
}

/// The text for a cell with no speed: why.
fn why_none(report: &Report, tx: &CompareTexts, cell: Option<&FitCell>) -> String {
    if report.fit.is_empty() {
        return tx.sheet.no_gpus.to_owned();
    }
    match cell.and_then(|c| c.verdict) {
        Some(Verdict::DoesNotFit) => tx.does_not_fit,
        Some(_) => tx.no_figure,
        None => tx.not_applicable,
    }
    .to_owned()
}

/// Per build, the value and text of a speed row with the cell it was read from (none where
/// there is no value).
type SpeedCells = Vec<(Option<f64>, String, Option<CellAt>)>;

/// A capability row of speed cells: the values, and per build the key of the cell basis that
/// explains the value ([`keys::cell_key`]); the cells are added to `used`, per build (each once).
fn speed_row(
    used: &mut [Vec<CellAt>],
    id: &str,
    label: String,
    unit: &str,
    direction: Direction,
    cells: SpeedCells,
) -> Row {
    for (list, (_, _, at)) in used.iter_mut().zip(&cells) {
        if let Some(at) = at
            && !list.contains(at)
        {
            list.push(*at);
        }
    }
    let keys = cells.iter().map(|(_, _, at)| at.map(|at| keys::cell_key(id, at)).unwrap_or_default()).collect();
    let mut row = capability_row(id, label, unit, direction, cells.into_iter().map(|(v, t, _)| (v, t)).collect());
    row.basis_keys = keys;
    row
}

/// The speed rows of `model` and, per build, the fit cells they read (whose bases the
/// comparison adds to the build's report).
pub(super) fn speed_rows(
    analysed: &[Analysed<'_>],
    tx: &CompareTexts,
    model: &crate::core::catalog::Model,
    train_tokens: f64,
) -> (Vec<Row>, Vec<Vec<CellAt>>) {
    let id = &model.id;
    let rate = |w: WorkloadKind, speed: fn(&FitCell) -> Option<f64>| -> SpeedCells {
        analysed
            .iter()
            .map(|a| {
                let best = best_cell(&a.report, id, w, speed);
                let cell = best.map(|(_, c)| c);
                match best
                    .filter(|(_, c)| c.verdict.is_some_and(Verdict::fits))
                    .and_then(|(at, c)| Some((at, speed(c)?)))
                {
                    Some((at, v)) => (Some(v), format_thousands(v, usize::from(v < 100.0)), Some(at)),
                    None => (None, why_none(&a.report, tx, cell), None),
                }
            })
            .collect()
    };
    // The cells read, per build (each once).
    let mut used = vec![Vec::<CellAt>::new(); analysed.len()];
    let hours = |cells: &SpeedCells| -> SpeedCells {
        cells
            .iter()
            .map(|(tps, why, at)| match tps {
                Some(t) if *t > 0.0 => {
                    let h = train_tokens / t / SECONDS_PER_HOUR;
                    (Some(h), format_thousands(h, 1), *at)
                }
                _ => (None, why.clone(), None),
            })
            .collect()
    };
    let tokens = tokens_text(train_tokens);
    let name = model.name.as_str();
    let lang = tx.lang;
    // A label naming the model and a workload.
    let of = |template: &Template, workload: &str| say(template, lang, &[("model", name), ("workload", workload)]);
    let label = |w: WorkloadKind| w.label_text().render(lang);
    if model.transformer().is_none() {
        let samples_train = rate(WorkloadKind::FullFinetune, |c| c.samples_per_s);
        let inference = if model.task == crate::core::catalog::ModelTask::ImageGeneration {
            let workload = tx.workload_short(WorkloadKind::InferenceBf16);
            let steps = crate::core::analysis::speed::DIFFUSION_STEPS.to_string();
            speed_row(
                &mut used,
                "images-per-minute",
                say(&texts::IMAGES_PER_MINUTE, lang, &[("model", name), ("steps", &steps), ("workload", workload)]),
                tx.unit_images_per_minute,
                Direction::Higher,
                rate(WorkloadKind::InferenceBf16, |c| c.images_per_minute),
            )
        } else {
            speed_row(
                &mut used,
                "samples-inference",
                of(&texts::SAMPLES_INFERENCE, tx.workload_short(WorkloadKind::InferenceBf16)),
                tx.unit_samples,
                Direction::Higher,
                rate(WorkloadKind::InferenceBf16, |c| c.samples_per_s),
            )
        };
        let rows = vec![
            inference,
            speed_row(
                &mut used,
                "samples-train",
                of(&texts::SAMPLES_TRAIN, tx.workload_short(WorkloadKind::FullFinetune)),
                tx.unit_samples,
                Direction::Higher,
                samples_train,
            ),
        ];
        return (rows, used);
    }
    let lora = rate(WorkloadKind::Lora, |c| c.train_tokens_per_s);
    let full = rate(WorkloadKind::FullFinetune, |c| c.train_tokens_per_s);
    let rows = vec![
        speed_row(
            &mut used,
            "decode-bf16",
            of(&texts::DECODE, &label(WorkloadKind::InferenceBf16)),
            "tokens/s",
            Direction::Higher,
            rate(WorkloadKind::InferenceBf16, |c| c.decode_tokens_per_s),
        ),
        speed_row(
            &mut used,
            "decode-q4_k_m",
            of(&texts::DECODE, &label(WorkloadKind::InferenceQ4km)),
            "tokens/s",
            Direction::Higher,
            rate(WorkloadKind::InferenceQ4km, |c| c.decode_tokens_per_s),
        ),
        speed_row(
            &mut used,
            "train-lora",
            of(&texts::TRAIN_THROUGHPUT, &label(WorkloadKind::Lora)),
            "tokens/s",
            Direction::Higher,
            lora.clone(),
        ),
        speed_row(
            &mut used,
            "train-full",
            of(&texts::TRAIN_THROUGHPUT, &label(WorkloadKind::FullFinetune)),
            "tokens/s",
            Direction::Higher,
            full.clone(),
        ),
        speed_row(
            &mut used,
            "time-lora",
            say(&texts::TIME_LORA, lang, &[("model", name), ("tokens", &tokens)]),
            tx.unit_hours,
            Direction::Lower,
            hours(&lora),
        ),
        speed_row(
            &mut used,
            "time-full",
            say(&texts::TIME_FULL, lang, &[("model", name), ("tokens", &tokens)]),
            tx.unit_hours,
            Direction::Lower,
            hours(&full),
        ),
    ];
    (rows, used)
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
