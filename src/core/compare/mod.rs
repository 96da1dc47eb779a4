//! Side-by-side comparison of 2–4 builds.
//!
//! Theory of operation: [`compare`] analyses each build once (over a common TCO horizon, 3
//! years unless set, so totals are comparable) and reads rows out of the reports, grouped as
//! cost, power, thermal, compatibility, memory fit and speed. Each [`Row`] holds one value per
//! build, the delta of each build against the first, and, where the metric has a direction
//! (lower capex, higher temperature headroom, more models that fit), how each build fares
//! against the first and which builds are best, and per build the keys of the bases in that
//! build's report that explain the value ([`keys`]). Beside the rows: the fit-matrix cells whose
//! verdicts differ ([`FitDifference`]), the parts whose quantities differ
//! ([`PartDifference`]), and the owned and primary-cloud cumulative cost curves for overlaid
//! plots. Money is in the builds' common currency; when the builds use different currencies,
//! every amount is converted to USD at each build's own exchange rate, and the comparison says
//! so.
//!
//! Speed rows are for one model: [`DEFAULT_MODEL`] unless the caller names another. Training
//! time is given for a fixed token count ([`DEFAULT_TRAIN_TOKENS`], a normalising unit rather
//! than a dataset size) at the fit matrix's training throughput.
//!
//! A comparison is computed in one language ([`CompareOptions::lang`], English unless set):
//! its group and row labels, units in words, the reasons a value is missing, the notes and
//! the part categories are rendered in it ([`texts`]), and the exports print their headings in
//! it. Ids (groups, rows, workloads, parts) and JSON keys stay English in every language.

use crate::core::analysis::fit::WorkloadKind;
use crate::core::analysis::memory::Verdict;
use crate::core::analysis::{self, Report, basis};
use crate::core::build::Build;
use crate::core::catalog::{Catalog, ModelId, PartId};
use crate::core::i18n::Lang;
use crate::core::units::{Currency, format_thousands};
use serde::Serialize;

mod differences;
pub mod keys;
mod rows;
pub mod texts;

use differences::{fit_differences, parts_difference};
pub use rows::tokens_text;
use rows::{compat_rows, cost_rows, fit_rows, power_rows, speed_rows, thermal_rows};
pub use texts::CompareTexts;
use texts::say;

/// Fewest builds a comparison takes.
pub const MIN_BUILDS: usize = 2;
/// Most builds a comparison takes (the 2–4; four columns still fit a printed page).
pub const MAX_BUILDS: usize = 4;
/// The model of the speed rows unless another is chosen: Llama 3.1 8B, an 8B-class decoder
/// whose bf16 weights (16 GB) fit one 24 GB card, so every GPU template has figures for it.
pub const DEFAULT_MODEL: &str = "model/meta-llama-3.1-8b";
/// Tokens the training-time rows are given for: one billion, a normalising unit (hours per
/// 1B tokens scale linearly to any dataset).
pub const DEFAULT_TRAIN_TOKENS: f64 = 1.0e9;
/// Horizon of the comparison's TCO rows, years: the "3-year TCO" and the field guides'
/// three-year hardware cycle ([`crate::core::build::DEFAULT_DEPRECIATION_LIFE_YEARS`]).
pub const DEFAULT_HORIZON_YEARS: f64 = 3.0;
/// Shortest and longest horizon accepted, years (the build file's limits).
pub const HORIZON_YEARS_RANGE: std::ops::RangeInclusive<f64> = 0.25..=15.0;
/// Parameters in a billion.
const PARAMS_PER_BILLION: f64 = 1.0e9;
/// Relative tolerance under which two values are the same (float noise in sums of money).
const SAME_RELATIVE: f64 = 1e-9;
/// Column labels of the builds.
const LABELS: [&str; MAX_BUILDS] = ["A", "B", "C", "D"];

/// What to compare on.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareOptions {
    /// The model of the speed rows (catalog id; the `model/` prefix may be left out); `None`
    /// uses [`DEFAULT_MODEL`], or the catalog's first model if that one is missing.
    pub model: Option<String>,
    /// Tokens the training-time rows are given for.
    pub train_tokens: f64,
    /// TCO horizon, years.
    pub horizon_years: f64,
    /// The language of every text of the comparison (labels, units in words, notes).
    pub lang: Lang,
}

impl Default for CompareOptions {
    fn default() -> Self {
        Self { model: None, train_tokens: DEFAULT_TRAIN_TOKENS, horizon_years: DEFAULT_HORIZON_YEARS, lang: Lang::En }
    }
}

/// Why a comparison could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CompareError {
    #[error("a comparison takes {MIN_BUILDS} to {MAX_BUILDS} builds; {0} given")]
    Count(usize),
    #[error("model `{0}` is not in the model catalog")]
    UnknownModel(String),
    #[error("the horizon must be between 0.25 and 15 years; {0} is not")]
    Horizon(f64),
    #[error("the training token count must be a positive number; {0} is not")]
    TrainTokens(f64),
    #[error("build `{name}` has the exchange rate {rate}, which cannot convert its amounts to USD")]
    ExchangeRate { name: String, rate: f64 },
}

impl CompareError {
    /// The message in a language (`Display` is the English one).
    #[must_use]
    pub fn message_in(&self, lang: Lang) -> String {
        match self {
            Self::Count(n) => say(
                &texts::ERR_COUNT,
                lang,
                &[("min", &MIN_BUILDS.to_string()), ("max", &MAX_BUILDS.to_string()), ("given", &n.to_string())],
            ),
            Self::UnknownModel(m) => say(&texts::ERR_UNKNOWN_MODEL, lang, &[("model", m)]),
            Self::Horizon(y) => say(&texts::ERR_HORIZON, lang, &[("years", &y.to_string())]),
            Self::TrainTokens(t) => say(&texts::ERR_TRAIN_TOKENS, lang, &[("tokens", &t.to_string())]),
            Self::ExchangeRate { name, rate } => {
                say(&texts::ERR_EXCHANGE_RATE, lang, &[("name", name), ("rate", &rate.to_string())])
            }
        }
    }
}

/// Which way a metric is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    Lower,
    Higher,
    /// No direction (a count for information, a price of the alternative).
    None,
}

/// How a build fares against the first on a metric with a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Better,
    Worse,
    Same,
}

/// One metric across the builds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Stable id (`capex`, `wall-max`, `fit-inference-bf16-4k`, …).
    pub id: String,
    pub label: String,
    /// Unit of the values (`CNY`, `W`, `°C`, `models`, `tokens/s`, `h`, …).
    pub unit: String,
    pub direction: Direction,
    /// True for capabilities (speeds, the largest model that fits): a missing value means the
    /// build cannot do it and ranks below any value. Otherwise a missing value is unknown and
    /// is not ranked.
    pub missing_is_worst: bool,
    /// One per build; `None` where the metric has no value (no cloud option, no GPU, a model
    /// that does not fit).
    pub values: Vec<Option<f64>>,
    /// The values as text, with the reason where there is none ("never", "does not fit").
    pub text: Vec<String>,
    /// value − first value, per build; the first entry is `None`, as is any entry where either
    /// value is missing.
    pub deltas: Vec<Option<f64>>,
    /// Per build, against the first; `None` for the first, without a direction, or where a
    /// value is missing (unless `missing_is_worst`).
    pub vs_first: Vec<Option<Outcome>>,
    /// Indices of the best builds (ties included); empty without a direction, when fewer than
    /// two builds can be ranked, or when all builds are the same.
    pub best: Vec<usize>,
    /// Per build, the keys of the bases in that build's report that explain its value
    /// ([`keys`]): the report's figures, or for a speed row the fit cell it was read from.
    pub basis_keys: Vec<Vec<String>>,
}

/// Rows of one concern.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Group {
    /// `cost`, `power`, `thermal`, `compatibility`, `fit`, `speed`.
    pub id: &'static str,
    /// In the comparison's language.
    pub label: &'static str,
    pub rows: Vec<Row>,
}

/// A build in the comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ComparedBuild {
    /// Column label: A, B, C, D.
    pub label: &'static str,
    pub name: String,
    pub currency: Currency,
    pub usd_exchange_rate: f64,
    pub nodes: u64,
    pub gpus: u64,
    /// GPU model names of the fit matrices, joined.
    pub gpu: String,
    pub utilization: f64,
    /// The TCO's primary cloud option (`<offer>:<term>`) and its label.
    pub primary_option: Option<String>,
    pub primary_label: Option<String>,
}

/// A fit-matrix cell whose verdict differs between builds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitDifference {
    pub model: ModelId,
    pub model_name: String,
    pub workload: WorkloadKind,
    /// Per build, the best verdict over its node groups; `None` where the workload does not
    /// apply or the build has no GPUs.
    pub verdicts: Vec<Option<Verdict>>,
}

/// A part whose total quantity differs between builds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PartDifference {
    pub part: PartId,
    pub name: String,
    /// The purchasing category, in the comparison's language.
    pub category: &'static str,
    /// Total quantity per build (all node groups × counts, and the cluster section).
    pub quantities: Vec<u64>,
    /// quantity − first quantity, per build (0 for the first).
    pub deltas: Vec<i64>,
}

/// Cumulative cost curves of one build, months 0…horizon, in the comparison's currency.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CostCurves {
    pub label: &'static str,
    pub owned: Vec<f64>,
    pub primary_label: Option<String>,
    pub primary: Option<Vec<f64>>,
    pub break_even_month: Option<f64>,
}

/// The comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Comparison {
    pub builds: Vec<ComparedBuild>,
    /// Currency of every amount.
    pub currency: Currency,
    /// True when the builds' currencies differ and amounts were converted to USD.
    pub converted_to_usd: bool,
    pub horizon_years: f64,
    /// The speed rows' model, if the catalog has models.
    pub model: Option<ModelId>,
    pub model_name: Option<String>,
    pub train_tokens: f64,
    pub groups: Vec<Group>,
    pub fit_differences: Vec<FitDifference>,
    pub parts_difference: Vec<PartDifference>,
    pub curves: Vec<CostCurves>,
    /// Caveats, in sentences.
    pub notes: Vec<String>,
    /// The language of the texts (labels, units in words, notes, categories).
    pub lang: Lang,
}

impl Comparison {
    /// A row by id.
    #[must_use]
    pub fn row(&self, id: &str) -> Option<&Row> {
        self.groups.iter().flat_map(|g| &g.rows).find(|r| r.id == id)
    }
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= SAME_RELATIVE * a.abs().max(b.abs()).max(1.0)
}

/// A row whose missing values are unknown (not comparable).
fn row(
    id: impl Into<String>,
    label: impl Into<String>,
    unit: impl Into<String>,
    direction: Direction,
    cells: Vec<(Option<f64>, String)>,
) -> Row {
    make_row(id.into(), label.into(), unit.into(), direction, cells, false)
}

/// A row of a capability (a speed, the largest model that fits) whose missing values mean the
/// build cannot do it, which is worse than any value.
fn capability_row(
    id: impl Into<String>,
    label: impl Into<String>,
    unit: impl Into<String>,
    direction: Direction,
    cells: Vec<(Option<f64>, String)>,
) -> Row {
    make_row(id.into(), label.into(), unit.into(), direction, cells, true)
}

/// A row from values and their texts: deltas, outcomes and the best builds.
fn make_row(
    id: String,
    label: String,
    unit: String,
    direction: Direction,
    cells: Vec<(Option<f64>, String)>,
    missing_is_worst: bool,
) -> Row {
    let (values, text): (Vec<Option<f64>>, Vec<String>) = cells.into_iter().unzip();
    let first = values.first().copied().flatten();
    let deltas = values
        .iter()
        .enumerate()
        .map(|(i, v)| match (i, first, v) {
            (0, ..) | (_, None, _) | (_, _, None) => None,
            (_, Some(f), Some(v)) => Some(if same(*v, f) { 0.0 } else { v - f }),
        })
        .collect();
    let better = |a: f64, b: f64| match direction {
        Direction::Lower => a < b,
        Direction::Higher => a > b,
        Direction::None => false,
    };
    let vs_first = values
        .iter()
        .enumerate()
        .map(|(i, v)| match (i, direction, first, v) {
            (0, ..) | (_, Direction::None, ..) => None,
            (_, _, Some(f), Some(v)) if same(*v, f) => Some(Outcome::Same),
            (_, _, Some(f), Some(v)) => Some(if better(*v, f) { Outcome::Better } else { Outcome::Worse }),
            (_, _, None, Some(_)) if missing_is_worst => Some(Outcome::Better),
            (_, _, Some(_), None) if missing_is_worst => Some(Outcome::Worse),
            (_, _, None, None) if missing_is_worst => Some(Outcome::Same),
            _ => None,
        })
        .collect();
    let present: Vec<(usize, f64)> = values.iter().enumerate().filter_map(|(i, v)| v.map(|v| (i, v))).collect();
    // Everyone present and equal, or too few to rank: no best. A build that cannot do a
    // capability ranks below every one that can.
    let rankable = if missing_is_worst { values.len() >= 2 } else { present.len() >= 2 };
    let best = match present.iter().map(|&(_, v)| v).reduce(|a, b| if better(b, a) { b } else { a }) {
        Some(top) if direction != Direction::None && rankable => {
            let winners: Vec<usize> = present.iter().filter(|&&(_, v)| same(v, top)).map(|&(i, _)| i).collect();
            if winners.len() == values.len() { Vec::new() } else { winners }
        }
        _ => Vec::new(),
    };
    Row { id, label, unit, direction, missing_is_worst, values, text, deltas, vs_first, best, basis_keys: Vec::new() }
}

/// One analysed build with its money conversion factor.
struct Analysed<'a> {
    build: &'a Build,
    report: Report,
    /// Multiplies the build's amounts into the comparison's currency.
    money_factor: f64,
}

fn money_cell(amount: Option<f64>, factor: f64, missing: &str) -> (Option<f64>, String) {
    match amount {
        Some(a) => (Some(a * factor), format_thousands(a * factor, 0)),
        None => (None, missing.to_owned()),
    }
}

fn number_cell(value: Option<f64>, decimals: usize, missing: &str) -> (Option<f64>, String) {
    match value {
        Some(v) => (Some(v), format_thousands(v, decimals)),
        None => (None, missing.to_owned()),
    }
}

fn count_cell(count: usize) -> (Option<f64>, String) {
    (Some(count as f64), count.to_string())
}

/// Compares 2–4 builds.
///
/// # Errors
/// A build count outside 2–4, an unknown `--model`, a horizon outside 0.25–15 years, a
/// non-positive training token count, or (when currencies differ) an exchange rate that is
/// not a positive number.
pub fn compare(catalog: &Catalog, builds: &[&Build], options: &CompareOptions) -> Result<Comparison, CompareError> {
    compare_with_reports(catalog, builds, options).map(|(c, _)| c)
}

/// [`compare`], with the report of each build it analysed (at the comparison's horizon, in
/// the build's own currency): where a front end finds the bases of the compared figures.
///
/// # Errors
/// As [`compare`].
pub fn compare_with_reports(
    catalog: &Catalog,
    builds: &[&Build],
    options: &CompareOptions,
) -> Result<(Comparison, Vec<Report>), CompareError> {
    if !(MIN_BUILDS..=MAX_BUILDS).contains(&builds.len()) {
        return Err(CompareError::Count(builds.len()));
    }
    if !HORIZON_YEARS_RANGE.contains(&options.horizon_years) {
        return Err(CompareError::Horizon(options.horizon_years));
    }
    if !(options.train_tokens.is_finite() && options.train_tokens > 0.0) {
        return Err(CompareError::TrainTokens(options.train_tokens));
    }
    let model = match &options.model {
        Some(id) => Some(catalog.models.get(id).ok_or_else(|| CompareError::UnknownModel(id.clone()))?),
        None => catalog.models.get(DEFAULT_MODEL).or_else(|| catalog.models.iter().next()),
    };
    let currencies: Vec<&Currency> = builds.iter().map(|b| &b.site.currency).collect();
    let converted_to_usd = currencies.windows(2).any(|w| w.first() != w.get(1));
    let currency = if converted_to_usd {
        Currency("USD".to_owned())
    } else {
        builds.first().map(|b| b.site.currency.clone()).unwrap_or_default()
    };
    if converted_to_usd
        && let Some(b) =
            builds.iter().find(|b| !(b.site.usd_exchange_rate.is_finite() && b.site.usd_exchange_rate > 0.0))
    {
        return Err(CompareError::ExchangeRate { name: b.name.clone(), rate: b.site.usd_exchange_rate });
    }
    let mut analysed: Vec<Analysed<'_>> = builds
        .iter()
        .map(|b| {
            let mut build = (*b).clone();
            build.usage.horizon_years = options.horizon_years;
            let report = analysis::analyze(catalog, &build);
            let money_factor = if converted_to_usd { 1.0 / b.site.usd_exchange_rate } else { 1.0 };
            Analysed { build: b, report, money_factor }
        })
        .collect();
    let tx = CompareTexts::of(options.lang);

    let compared: Vec<ComparedBuild> = analysed
        .iter()
        .zip(LABELS)
        .map(|(a, label)| {
            let r = &a.report;
            let mut gpus: Vec<&str> = r.fit.iter().map(|m| m.gpu_name.as_str()).collect();
            gpus.dedup();
            ComparedBuild {
                label,
                name: a.build.name.clone(),
                currency: a.build.site.currency.clone(),
                usd_exchange_rate: a.build.site.usd_exchange_rate,
                nodes: r.nodes,
                gpus: r.gpus,
                gpu: if gpus.is_empty() { tx.sheet.none.to_owned() } else { gpus.join(tx.list_separator) },
                utilization: r.tco.utilization,
                primary_option: r.summary.tco.primary_option.clone(),
                primary_label: r.summary.tco.primary_label.clone(),
            }
        })
        .collect();

    let cur = currency.to_string();
    let years = options.horizon_years;
    let mut groups = vec![
        Group { id: "cost", label: tx.group_cost, rows: cost_rows(&analysed, tx, &cur, years) },
        Group { id: "power", label: tx.group_power, rows: power_rows(&analysed, tx) },
        Group { id: "thermal", label: tx.group_thermal, rows: thermal_rows(&analysed, tx) },
        Group { id: "compatibility", label: tx.group_compatibility, rows: compat_rows(&analysed, tx) },
        Group { id: "fit", label: tx.group_fit, rows: fit_rows(&analysed, tx) },
    ];
    for row in groups.iter_mut().flat_map(|g| &mut g.rows) {
        row.basis_keys = analysed.iter().map(|a| keys::report_keys(&row.id, &a.report)).collect();
    }
    let (speed, cells) = model.map(|m| speed_rows(&analysed, tx, m, options.train_tokens)).unwrap_or_default();
    groups.push(Group { id: "speed", label: tx.group_speed, rows: speed });
    // The speed rows' cells explain themselves in their build's report.
    for (a, cells) in analysed.iter_mut().zip(cells) {
        let bases: Vec<_> = cells
            .into_iter()
            .flat_map(|at| basis::fit::of_cell(catalog, &a.report.fit, at, options.train_tokens))
            .collect();
        a.report.add_bases(bases);
    }

    let mut notes = Vec::new();
    if converted_to_usd {
        let list = currencies.iter().map(ToString::to_string).collect::<Vec<_>>().join(tx.list_separator);
        notes.push(say(&texts::NOTE_CURRENCIES, options.lang, &[("currencies", &list)]));
    }
    let utilizations: Vec<f64> = compared.iter().map(|b| b.utilization).collect();
    if utilizations.windows(2).any(|w| matches!(w, [a, b] if !same(*a, *b))) {
        let list = compared
            .iter()
            .map(|b| format!("{} {:.0} %", b.label, b.utilization * 100.0))
            .collect::<Vec<_>>()
            .join(tx.list_separator);
        notes.push(say(&texts::NOTE_UTILIZATIONS, options.lang, &[("utilizations", &list)]));
    }
    let options_differ = compared.windows(2).any(|w| matches!(w, [a, b] if a.primary_option != b.primary_option));
    if options_differ {
        notes.push(tx.note_options.to_owned());
    }
    if model.is_none() {
        notes.push(tx.note_no_models.to_owned());
    }

    let comparison = Comparison {
        builds: compared,
        currency,
        converted_to_usd,
        horizon_years: years,
        model: model.map(|m| m.id.clone()),
        model_name: model.map(|m| m.name.clone()),
        train_tokens: options.train_tokens,
        groups,
        fit_differences: fit_differences(&analysed, catalog),
        parts_difference: parts_difference(&analysed, options.lang),
        curves: analysed
            .iter()
            .zip(LABELS)
            .map(|(a, label)| {
                let t = &a.report.tco;
                let f = a.money_factor;
                CostCurves {
                    label,
                    owned: t.monthly_cumulative.owned.iter().map(|v| v * f).collect(),
                    primary_label: a.report.summary.tco.primary_label.clone(),
                    primary: t
                        .primary_option
                        .as_ref()
                        .and_then(|id| t.monthly_cumulative.options.get(id))
                        .map(|c| c.iter().map(|v| v * f).collect()),
                    break_even_month: t.break_even_month,
                }
            })
            .collect(),
        notes,
        lang: options.lang,
    };
    Ok((comparison, analysed.into_iter().map(|a| a.report).collect()))
}
