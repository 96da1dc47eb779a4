//! `rigplan validate`: rigplan's estimates held against published measurements.
//!
//! Theory of operation: the reference set (the built-in `catalog/reference/measurements.ron`,
//! or a user's own file in the same format with `--reference FILE`) is recomputed by
//! [`reference::accuracy`], which gives every measurement's error and a summary per class. The
//! text prints a table of every measurement, the summary per class, and the source of each
//! measurement outside its tolerance, so a reader can check the figure. `--json` prints the
//! same as the object documented in `src/core/analysis/report-schema.md` ("validate").
//!
//! Exit codes: 0 when every class passes ([`reference::Accuracy::passes`]), 1 when a class
//! fails, 2 when the reference file cannot be read or parsed (with `line:col`), names a part or
//! model the catalog does not have, or holds no measurement of the asked class.

use super::Exit;
use super::texts::{clip, pad_left, pad_right, parse_lang};
use crate::core::catalog::Catalog;
use crate::core::i18n::{Lang, say};
use crate::core::reference::{self, Accuracy, Class, ClassSummary, Measurement, Outcome, figure};
use anyhow::Context as _;
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::path::PathBuf;

/// `rigplan validate` arguments.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// Print the report as JSON (schema: src/core/analysis/report-schema.md, validate section).
    #[arg(long)]
    pub json: bool,
    /// Language of the text (en, zh-CN; default: the locale).
    #[arg(long, value_name = "LANG", value_parser = parse_lang)]
    pub lang: Option<Lang>,
    /// Only the measurements of one class.
    #[arg(long, value_enum, value_name = "CLASS")]
    pub class: Option<ClassArg>,
    /// Validate against your own measurements: a RON file in the format of the built-in set
    /// (catalog/reference/measurements.ron).
    #[arg(long, value_name = "FILE")]
    pub reference: Option<PathBuf>,
}

/// The classes on the command line.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum ClassArg {
    Memory,
    Decode,
    Prefill,
    Serving,
    Training,
    Power,
    Images,
}

impl From<ClassArg> for Class {
    fn from(c: ClassArg) -> Self {
        match c {
            ClassArg::Memory => Self::Memory,
            ClassArg::Decode => Self::Decode,
            ClassArg::Prefill => Self::Prefill,
            ClassArg::Serving => Self::Serving,
            ClassArg::Training => Self::Training,
            ClassArg::Power => Self::Power,
            ClassArg::Images => Self::Images,
        }
    }
}

/// The words of `rigplan validate` in one language.
struct ValidateTexts {
    built_in: &'static str,
    /// Id, what, measured, estimated, error, tolerance.
    columns: [&'static str; 6],
    summary_title: &'static str,
    /// Class, count, mean |error|, worst, threshold, result.
    class_columns: [&'static str; 6],
    pass: &'static str,
    fail: &'static str,
    sources_title: &'static str,
    errors_title: &'static str,
    passes: &'static str,
}

static EN: ValidateTexts = ValidateTexts {
    built_in: "the built-in reference set",
    columns: ["id", "what", "measured", "estimated", "error", "tolerance"],
    summary_title: "Summary per class",
    class_columns: ["class", "count", "mean |error|", "worst", "threshold", "result"],
    pass: "pass",
    fail: "FAIL",
    sources_title: "Measurements outside their tolerance, and where they are published:",
    errors_title: "Measurements that could not be recomputed:",
    passes: "Every class is within its threshold.",
};

static ZH: ValidateTexts = ValidateTexts {
    built_in: "内置参考数据集",
    columns: ["编号", "内容", "实测", "估算", "误差", "容差"],
    summary_title: "各类汇总",
    class_columns: ["类别", "数量", "平均 |误差|", "最大误差", "阈值", "结果"],
    pass: "通过",
    fail: "未通过",
    sources_title: "超出容差的实测值及其来源：",
    errors_title: "无法重新计算的实测值：",
    passes: "所有类别均在阈值之内。",
};

impl ValidateTexts {
    fn of(lang: Lang) -> &'static Self {
        match lang {
            Lang::En => &EN,
            Lang::ZhCn => &ZH,
        }
    }
}

crate::templates! {
    TEMPLATES;
    HEADER "" {
        en: "rigplan's estimates against {count} published measurements ({set})",
        zh: "rigplan 的估算与 {count} 个公开实测值对比（{set}）",
    }
    FAILS "" {
        en: "Failing: {classes} (a class fails when its mean error exceeds its threshold or a measurement is outside its tolerance).",
        zh: "未通过：{classes}（平均误差超过阈值，或有实测值超出其容差）。",
    }
}

/// One measurement in the JSON: what it is, where it is published, and how rigplan fares.
#[derive(Serialize)]
struct JsonOutcome<'a> {
    id: &'a str,
    class: &'static str,
    what: &'a str,
    metric: reference::Metric,
    unit: &'static str,
    measured: f64,
    estimated: f64,
    error: f64,
    tolerance: f64,
    holds: bool,
    source: &'a str,
}

/// One class in the JSON.
#[derive(Serialize)]
struct JsonClass<'a> {
    class: &'static str,
    name: &'static str,
    count: usize,
    mean_abs_error: f64,
    worst_abs_error: f64,
    worst_id: &'a str,
    threshold: f64,
    within_tolerance: usize,
    passes: bool,
    summary: String,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    /// `built-in`, or the path of the user's file.
    reference: String,
    measurements: usize,
    passes: bool,
    outcomes: Vec<JsonOutcome<'a>>,
    errors: &'a [String],
    classes: Vec<JsonClass<'a>>,
}

/// The reference set the arguments name, narrowed to the asked class.
fn measurements(args: &ValidateArgs) -> anyhow::Result<Vec<Measurement>> {
    let set = match &args.reference {
        None => reference::embedded().map_err(|e| anyhow::anyhow!("the built-in reference set: {e}"))?,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the reference file {}", path.display()))?;
            reference::load(&text).map_err(|e| anyhow::anyhow!("{}:{e}", path.display()))?
        }
    };
    let mut seen = BTreeSet::new();
    if let Some(twice) = set.iter().find(|m| !seen.insert(m.id.as_str())) {
        anyhow::bail!("the reference set has two measurements with the id `{}`; ids must be unique", twice.id);
    }
    let set: Vec<Measurement> = match args.class {
        Some(c) => set.into_iter().filter(|m| m.class == Class::from(c)).collect(),
        None => set,
    };
    if set.is_empty() {
        let class = args.class.map_or("", |c| Class::from(c).id());
        anyhow::bail!("the reference set has no {class} measurements to validate");
    }
    Ok(set)
}

/// `rigplan validate`.
///
/// # Errors
/// An unreadable or malformed reference file, one that names what the catalog lacks, output
/// failures.
pub(super) fn run_validate(out: &mut dyn Write, catalog: &Catalog, args: &ValidateArgs) -> anyhow::Result<Exit> {
    let lang = args.lang.unwrap_or_else(Lang::from_env);
    let set = measurements(args)?;
    let accuracy = reference::accuracy(&set, catalog);
    let by_id: HashMap<&str, &Measurement> = set.iter().map(|m| (m.id.as_str(), m)).collect();
    if args.json {
        write_json(out, args, &set, &by_id, &accuracy, lang)?;
    } else {
        write_text(out, args, &set, &by_id, &accuracy, lang)?;
    }
    Ok(if !accuracy.errors.is_empty() {
        Exit::BadInput
    } else if accuracy.passes() {
        Exit::Ok
    } else {
        Exit::Findings
    })
}

fn set_name(args: &ValidateArgs, lang: Lang) -> String {
    args.reference.as_ref().map_or_else(|| ValidateTexts::of(lang).built_in.to_owned(), |p| p.display().to_string())
}

fn write_json(
    out: &mut dyn Write,
    args: &ValidateArgs,
    set: &[Measurement],
    by_id: &HashMap<&str, &Measurement>,
    accuracy: &Accuracy,
    lang: Lang,
) -> anyhow::Result<()> {
    let outcomes = accuracy
        .outcomes
        .iter()
        .filter_map(|o| {
            let m = by_id.get(o.id.as_str())?;
            Some(JsonOutcome {
                id: &o.id,
                class: o.class.id(),
                what: &m.what,
                metric: m.metric,
                unit: m.metric.unit(),
                measured: o.measured,
                estimated: o.estimated,
                error: o.error,
                tolerance: o.tolerance,
                holds: o.holds(),
                source: &m.source,
            })
        })
        .collect();
    let classes = accuracy
        .classes
        .iter()
        .map(|c| JsonClass {
            class: c.class.id(),
            name: c.class.name(lang),
            count: c.count,
            mean_abs_error: c.mean_abs_error,
            worst_abs_error: c.worst_abs_error,
            worst_id: &c.worst_id,
            threshold: c.threshold,
            within_tolerance: c.within_tolerance,
            passes: c.passes(),
            summary: c.sentence(lang),
        })
        .collect();
    let reference = args.reference.as_ref().map_or_else(|| "built-in".to_owned(), |p| p.display().to_string());
    let report = JsonReport {
        reference,
        measurements: set.len(),
        passes: accuracy.passes(),
        outcomes,
        errors: &accuracy.errors,
        classes,
    };
    serde_json::to_writer_pretty(&mut *out, &report)?;
    writeln!(out)?;
    Ok(())
}

fn percent(fraction: f64) -> String {
    format!("{:.1} %", fraction * 100.0)
}

const ID_COLUMNS: usize = 44;
const WHAT_COLUMNS: usize = 48;
const FIGURE_COLUMNS: usize = 16;
const PERCENT_COLUMNS: usize = 9;

fn outcome_row(o: &Outcome, m: Option<&&Measurement>) -> String {
    let unit = m.map_or("", |m| m.metric.unit());
    let what = m.map_or("", |m| m.what.as_str());
    let mark = if o.holds() { "✓" } else { "✗" };
    format!(
        "{} {} {} {} {} {} {mark}",
        pad_right(&clip(&o.id, ID_COLUMNS), ID_COLUMNS),
        pad_right(&clip(what, WHAT_COLUMNS), WHAT_COLUMNS),
        pad_left(&format!("{} {unit}", figure(o.measured)), FIGURE_COLUMNS + 8),
        pad_left(&figure(o.estimated), FIGURE_COLUMNS - 4),
        pad_left(&format!("{:+.1} %", o.error * 100.0), PERCENT_COLUMNS),
        pad_left(&format!("±{:.0} %", o.tolerance * 100.0), PERCENT_COLUMNS + 2),
    )
}

fn class_row(c: &ClassSummary, lang: Lang, t: &ValidateTexts) -> String {
    let worst = format!("{} ({})", percent(c.worst_abs_error), c.worst_id);
    format!(
        "{} {} {} {} {} {}",
        pad_right(&clip(c.class.name(lang), 22), 22),
        pad_left(&c.count.to_string(), 6),
        pad_left(&percent(c.mean_abs_error), 13),
        pad_right(&clip(&worst, 58), 58),
        pad_left(&percent(c.threshold), 9),
        if c.passes() { t.pass } else { t.fail },
    )
}

fn write_text(
    out: &mut dyn Write,
    args: &ValidateArgs,
    set: &[Measurement],
    by_id: &HashMap<&str, &Measurement>,
    accuracy: &Accuracy,
    lang: Lang,
) -> anyhow::Result<()> {
    let t = ValidateTexts::of(lang);
    let header = say(&HEADER, lang, &[("count", &set.len().to_string()), ("set", &set_name(args, lang))]);
    writeln!(out, "{header}\n")?;
    let [id, what, measured, estimated, error, tolerance] = t.columns;
    writeln!(
        out,
        "{} {} {} {} {} {}",
        pad_right(id, ID_COLUMNS),
        pad_right(what, WHAT_COLUMNS),
        pad_left(measured, FIGURE_COLUMNS + 8),
        pad_left(estimated, FIGURE_COLUMNS - 4),
        pad_left(error, PERCENT_COLUMNS),
        pad_left(tolerance, PERCENT_COLUMNS + 2),
    )?;
    for o in &accuracy.outcomes {
        writeln!(out, "{}", outcome_row(o, by_id.get(o.id.as_str())))?;
    }
    writeln!(out, "\n{}", t.summary_title)?;
    let [class, count, mean, worst, threshold, result] = t.class_columns;
    writeln!(
        out,
        "{} {} {} {} {} {result}",
        pad_right(class, 22),
        pad_left(count, 6),
        pad_left(mean, 13),
        pad_right(worst, 58),
        pad_left(threshold, 9),
    )?;
    for c in &accuracy.classes {
        writeln!(out, "{}", class_row(c, lang, t))?;
    }
    let failing: Vec<&Outcome> = accuracy.outcomes.iter().filter(|o| !o.holds()).collect();
    if !failing.is_empty() {
        writeln!(out, "\n{}", t.sources_title)?;
        for o in failing {
            let source = by_id.get(o.id.as_str()).map_or("", |m| m.source.as_str());
            writeln!(out, "  {}: {source}", o.id)?;
        }
    }
    if !accuracy.errors.is_empty() {
        writeln!(out, "\n{}", t.errors_title)?;
        for e in &accuracy.errors {
            writeln!(out, "  {e}")?;
        }
    }
    let failing_classes: Vec<&str> =
        accuracy.classes.iter().filter(|c| !c.passes()).map(|c| c.class.name(lang)).collect();
    writeln!(out)?;
    if failing_classes.is_empty() && accuracy.errors.is_empty() {
        writeln!(out, "{}", t.passes)?;
    } else if !failing_classes.is_empty() {
        let separator = if lang == Lang::ZhCn { "、" } else { ", " };
        writeln!(out, "{}", say(&FAILS, lang, &[("classes", &failing_classes.join(separator))]))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_is_translated() {
        crate::core::i18n::assert_table_is_translated(TEMPLATES);
    }
}
