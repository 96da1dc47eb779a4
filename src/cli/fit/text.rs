//! `rigplan fit`'s text output and the fit section of `rigplan report`.

use super::super::texts::{
    BYTES, CliTexts, ENGINE_BUDGET, FIT_ACTIVE, FIT_MODEL, FIT_ON, FIT_SECTION, FIT_WORKLOAD, HOST_MEMORY, IMAGES,
    KV_PER_TOKEN, NO_SPEED, NOTE, OTHER_CHANGE, SERVING_COMPUTE_BOUND, SERVING_CONCURRENCY, SERVING_HEADING,
    SERVING_KV, SERVING_LOAD, SERVING_OVER_BUDGET, SERVING_TARGET, SERVING_TTFT, SMALLEST_CHANGE, SPEED, TRAIN_COMPUTE,
    TRAIN_ENERGY, TRAIN_ENERGY_SITE, TRAIN_TIME, VERDICT, clip, pad_left, pad_right, push_spaces, width,
};
use super::FitOutput;
use crate::core::analysis::fit::{self, FitMatrix, WorkloadKind};
use crate::core::analysis::memory::Verdict;
use crate::core::analysis::serving::ServingEstimate;
use crate::core::i18n::Lang;
use crate::core::units::{Bytes, format_thousands};
use std::io::Write;

fn bytes_line(out: &mut dyn Write, t: &CliTexts, label: &str, value: Option<Bytes>) -> std::io::Result<()> {
    let label = pad_right(label, 14);
    match value {
        Some(b) => {
            let bytes = t.say(&BYTES, &[("bytes", &format_thousands(b.0 as f64, 0))]);
            writeln!(out, "  {label} {:>12}  {bytes}", b.to_string())
        }
        None => writeln!(out, "  {label} {:>12}", "-"),
    }
}

fn rate(value: f64) -> String {
    let mut s = String::new();
    push_rate(&mut s, value);
    s
}

/// [`rate`] appended to `into`.
fn push_rate(into: &mut String, value: f64) {
    use std::fmt::Write as _;
    if value >= 100.0 {
        into.push_str(&format_thousands(value, 0));
    } else {
        // Writing to a String cannot fail.
        let _ = write!(into, "{value:.1}");
    }
}

pub(super) fn write_fit_text(out: &mut dyn Write, o: &FitOutput<'_>, lang: Lang) -> anyhow::Result<()> {
    let t = CliTexts::of(lang);
    let active = if o.active_params == o.params {
        String::new()
    } else {
        t.say(&FIT_ACTIVE, &[("active", &format_thousands(o.active_params as f64, 0))])
    };
    writeln!(
        out,
        "{}",
        t.say(
            &FIT_MODEL,
            &[
                ("model", &o.model_name),
                ("params", &format_thousands(o.params as f64, 0)),
                ("active", &active),
                ("mode", t.mode(o.mode)),
            ]
        )
    )?;
    let w = &o.workload;
    writeln!(
        out,
        "{}",
        t.say(
            &FIT_WORKLOAD,
            &[
                ("weights", &w.weights.to_string()),
                ("kv", &w.kv.to_string()),
                ("batch", &w.batch.to_string()),
                ("context", &w.context.to_string()),
                ("layout", &o.layout.to_string()),
            ]
        )
    )?;
    if let (Some(name), Some(ic)) = (o.gpu_name, &o.interconnect) {
        writeln!(out, "{}", t.say(&FIT_ON, &[("gpus", &o.gpus.to_string()), ("name", name), ("interconnect", ic)]))?;
    }
    writeln!(out)?;
    writeln!(out, "{}", t.per_gpu)?;
    let p = &o.per_gpu;
    let [weights, gradients, optimizer, activations, kv_cache, overhead, total] = t.memory_parts;
    bytes_line(out, t, weights, Some(p.weights_bytes))?;
    bytes_line(out, t, gradients, p.gradients_bytes)?;
    bytes_line(out, t, optimizer, p.optimizer_bytes)?;
    bytes_line(out, t, activations, p.activations_bytes)?;
    bytes_line(out, t, kv_cache, p.kv_cache_bytes)?;
    bytes_line(out, t, overhead, Some(p.overhead_bytes))?;
    bytes_line(out, t, total, Some(p.total_bytes))?;
    if o.host_bytes.0 > 0 {
        writeln!(out, "{}", t.say(&HOST_MEMORY, &[("bytes", &o.host_bytes.to_string())]))?;
    }
    if let Some(kv) = o.kv_cache_bytes_per_token {
        writeln!(
            out,
            "{}",
            t.say(&KV_PER_TOKEN, &[("size", &kv.to_string()), ("bytes", &format_thousands(kv.0 as f64, 0))])
        )?;
    }
    if let (Some(cap), Some(v), Some(f)) = (o.gpu_memory_bytes, o.verdict, o.memory_fraction) {
        writeln!(
            out,
            "{}",
            t.say(
                &VERDICT,
                &[("verdict", t.verdict(v)), ("percent", &format!("{:.1}", f * 100.0)), ("capacity", &cap.to_string())]
            )
        )?;
        if let (Some(engine), Some(budget)) = (o.engine, o.budget_bytes) {
            let engine = engine.to_string();
            writeln!(out, "  {}", t.say(&ENGINE_BUDGET, &[("engine", &engine), ("budget", &budget.to_string())]))?;
        }
    }
    if let Some(s) = &o.smallest_change {
        let percent = format!("{:.0}", s.memory_fraction * 100.0);
        writeln!(out, "{}", t.say(&SMALLEST_CHANGE, &[("change", &s.description), ("percent", &percent)]))?;
        for other in o.suggestions.iter().skip(1) {
            let percent = format!("{:.0}", other.memory_fraction * 100.0);
            writeln!(out, "{}", t.say(&OTHER_CHANGE, &[("change", &other.description), ("percent", &percent)]))?;
        }
    } else if o.fits == Some(false) {
        writeln!(out, "{}", t.no_single_change)?;
    }
    writeln!(out)?;
    if o.fits == Some(false) {
        writeln!(out, "{}", t.say(&NO_SPEED, &[]))?;
    }
    let speeds = [
        (t.speed_decode, o.decode_tokens_per_s, "tokens/s"),
        (t.speed_prefill, o.prefill_tokens_per_s, "tokens/s"),
        (t.speed_inference, o.samples_per_s, t.unit_samples_all_gpus),
        (t.speed_training, o.train_tokens_per_s, "tokens/s"),
        (t.speed_training, o.train_samples_per_s, t.unit_samples),
    ];
    for (label, value, unit) in speeds {
        if let Some(v) = value {
            writeln!(out, "{}", t.say(&SPEED, &[("label", label), ("value", &rate(v)), ("unit", unit)]))?;
        }
    }
    if let Some(f) = o.train_flops {
        writeln!(out, "{}", t.say(&TRAIN_COMPUTE, &[("flops", &format!("{f:.3e}"))]))?;
    }
    if let (Some(h), Some(g)) = (o.train_hours, o.gpu_hours) {
        writeln!(
            out,
            "{}",
            t.say(
                &TRAIN_TIME,
                &[("hours", &rate(h)), ("days", &format!("{:.1}", h / 24.0)), ("gpu_hours", &format_thousands(g, 0))]
            )
        )?;
    }
    if let Some(mwh) = o.train_energy_mwh {
        let site = o
            .serving_site
            .filter(|s| s.other_watts > 0.0 || s.pue > 1.0)
            .map(|s| t.say(&TRAIN_ENERGY_SITE, &[("pue", &format!("{:.2}", s.pue))]))
            .unwrap_or_default();
        writeln!(out, "{}", t.say(&TRAIN_ENERGY, &[("mwh", &rate(mwh)), ("site", &site)]))?;
    }
    if let (Some(per_minute), Some(seconds), Some(steps)) =
        (o.images_per_minute, o.seconds_per_image, o.denoising_steps)
    {
        writeln!(
            out,
            "{}",
            t.say(
                &IMAGES,
                &[
                    ("per_minute", &rate(per_minute)),
                    ("steps", &steps.to_string()),
                    ("seconds", &format!("{seconds:.2}"))
                ]
            )
        )?;
    }
    if let Some(s) = &o.serving {
        write_serving(out, t, s)?;
    }
    for note in &o.notes {
        writeln!(out, "{}", t.say(&NOTE, &[("note", note)]))?;
    }
    Ok(())
}

fn write_serving(out: &mut dyn Write, t: &CliTexts, s: &ServingEstimate) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(
        out,
        "{}",
        t.say(
            &SERVING_HEADING,
            &[
                ("engine", &s.engine.to_string()),
                ("replicas", &s.replicas.to_string()),
                ("gpus", &s.gpus_per_replica.to_string()),
                ("context", &format_thousands(f64::from(s.context_tokens), 0)),
            ]
        )
    )?;
    let max_context = s.max_context_tokens.map_or_else(|| "-".to_owned(), |c| format_thousands(f64::from(c), 0));
    writeln!(
        out,
        "{}",
        t.say(
            &SERVING_KV,
            &[
                ("budget", &s.kv_budget_bytes.to_string()),
                ("tokens", &format_thousands(s.kv_capacity_tokens as f64, 0)),
                ("max_context", &max_context),
            ]
        )
    )?;
    let total = s.max_concurrency_per_replica.saturating_mul(s.replicas);
    writeln!(
        out,
        "{}",
        t.say(
            &SERVING_CONCURRENCY,
            &[
                ("context", &format_thousands(f64::from(s.context_tokens), 0)),
                ("per_replica", &s.max_concurrency_per_replica.to_string()),
                ("total", &total.to_string()),
            ]
        )
    )?;
    let ms = format!("{:.0}", s.ttft_s * 1000.0);
    writeln!(out, "{}", t.say(&SERVING_TTFT, &[("prompt", &s.prompt_tokens.to_string()), ("ms", &ms)]))?;
    let loads = [(t.load_single, Some(s.single)), (t.load_capacity, s.at_capacity), (t.load_requested, s.requested)];
    for (label, load) in loads {
        let Some(l) = load else { continue };
        let fit = if l.fits { String::new() } else { t.say(&SERVING_OVER_BUDGET, &[]) };
        writeln!(
            out,
            "{}",
            t.say(
                &SERVING_LOAD,
                &[
                    ("label", label),
                    ("users", &l.users.to_string()),
                    ("per_user", &rate(l.per_user_tokens_per_s)),
                    ("aggregate", &rate(l.aggregate_tokens_per_s)),
                    ("joules", &format!("{:.2}", l.energy.joules_per_token)),
                    ("gpu_watts", &format!("{:.0}", l.energy.gpu_watts)),
                    ("fit", &fit),
                ]
            )
        )?;
    }
    if let (Some(target), Some(users)) = (s.tokens_per_user_target, s.users_at_target) {
        writeln!(out, "{}", t.say(&SERVING_TARGET, &[("target", &rate(target)), ("users", &users.to_string())]))?;
    }
    if let Some(b) = s.compute_bound_from_batch {
        writeln!(out, "{}", t.say(&SERVING_COMPUTE_BOUND, &[("batch", &b.to_string())]))?;
    }
    Ok(())
}

/// Width of the model column of the report's fit table, display columns.
const NAME_WIDTH: usize = 34;

/// A matrix cell's text (verdict, GPUs used, speed) written into `into`.
fn write_cell(into: &mut String, t: &CliTexts, cell: &fit::FitCell) {
    use std::fmt::Write as _;
    match (cell.verdict, cell.gpus_used) {
        (None, _) => into.push('-'),
        (Some(Verdict::DoesNotFit), _) => into.push_str(t.cell_no_fit),
        (Some(v), Some(n)) => {
            let word = if v == Verdict::Tight { t.cell_tight } else { t.cell_fits };
            // Writing to a String cannot fail.
            let _ = write!(into, "{word}×{n}");
            let (value, unit) = match (cell.decode_tokens_per_s.or(cell.train_tokens_per_s), cell.samples_per_s) {
                (Some(tps), _) => (tps, "t/s"),
                (None, Some(sps)) => (sps, "/s"),
                (None, None) => return,
            };
            into.push(' ');
            push_rate(into, value);
            into.push_str(unit);
        }
        (Some(_), None) => into.push('?'),
    }
}

/// The short fit section of `rigplan report` in `lang`: per node group, one line per model
/// with each standard workload's verdict, GPUs used and speed.
///
/// # Errors
/// Output failures.
pub fn write_fit_section(out: &mut dyn Write, matrices: &[FitMatrix], lang: Lang) -> std::io::Result<()> {
    let t = CliTexts::of(lang);
    let cell = t.cell_columns;
    for m in matrices {
        writeln!(
            out,
            "{}",
            t.say(
                &FIT_SECTION,
                &[
                    ("node", &m.node_name),
                    ("gpus", &m.gpus_per_node.to_string()),
                    ("gpu", &m.gpu_name),
                    ("nodes", &m.nodes.to_string()),
                    ("memory", &m.gpu_memory_bytes.to_string()),
                    ("interconnect", &m.interconnect),
                ]
            )
        )?;
        write!(out, "  {}", pad_right(t.model, NAME_WIDTH))?;
        for k in WorkloadKind::ALL {
            write!(out, " {}", pad_left(t.compare.workload_short(k), cell))?;
        }
        writeln!(out)?;
        // Each row is composed in one buffer and written at once: a report's table has
        // hundreds of cells, and a string and a formatted write per cell were a tenth of a
        // `rigplan report` process (issue 19).
        let (mut line, mut text) = (String::new(), String::new());
        for row in m.rows.iter() {
            line.clear();
            line.push_str("  ");
            line.push_str(&pad_right(&clip(&row.model_name, NAME_WIDTH), NAME_WIDTH));
            for c in &row.cells {
                text.clear();
                write_cell(&mut text, t, c);
                line.push(' ');
                push_spaces(&mut line, cell.saturating_sub(width(&text)));
                line.push_str(&text);
            }
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        writeln!(out, "  {}", t.fit_legend)?;
        for note in &m.notes {
            writeln!(out, "  {}", t.say(&NOTE, &[("note", note)]))?;
        }
        writeln!(out)?;
    }
    Ok(())
}
