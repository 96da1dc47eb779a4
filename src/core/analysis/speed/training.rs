//! Training: step time, throughput, MFU and GPU-hours of a run.

use super::super::memory::{self, Mode, ModelSpec, Recompute, Shape, WeightType, Workload};
use super::{
    DEFAULT_VIRTUAL_STAGES, GLOBAL_BATCH_TOKENS, NOTE_MEASURED_TOKENS, NOTE_NODES_NO_NIC, NOTE_TP_NO_NIC,
    QLORA_SLOWDOWN, SpeedEstimate, SpeedSettings, Topology, goodput, model_flops_per_unit, train_flops_per_unit,
};
use crate::core::i18n::Sentence;
use crate::core::units::SECONDS_PER_HOUR;
use crate::text;

pub(super) fn training(
    spec: &ModelSpec,
    w: &Workload,
    topo: &Topology,
    peak_tflops: f64,
    mfu: f64,
    settings: &SpeedSettings,
    out: &mut SpeedEstimate,
) {
    let peak = peak_tflops * 1.0e12;
    let gpus = topo.total_gpus();
    let dp = gpus / w.tp.saturating_mul(w.pp).max(1);
    let flops_per_unit = train_flops_per_unit(spec, w);
    let measured = matches!(spec.shape, Shape::Measured(_));
    let units_per_microbatch =
        if measured { f64::from(w.batch) } else { f64::from(w.batch) * spec.sequence_len(w.context) as f64 };
    let global = if measured {
        units_per_microbatch * f64::from(dp)
    } else {
        settings.global_batch_tokens.unwrap_or(GLOBAL_BATCH_TOKENS).max(units_per_microbatch * f64::from(dp))
    };
    let microbatches = (global / (units_per_microbatch * f64::from(dp))).max(1.0);
    let tp = f64::from(w.tp);
    let pp = f64::from(w.pp);

    let Some(tp_link) = topo.group_link(w.tp) else {
        out.notes.push(Sentence::new(text!(NOTE_TP_NO_NIC)));
        return;
    };
    let Some(dp_link) = topo.group_link(gpus) else {
        if gpus > topo.gpus_per_node {
            out.notes.push(Sentence::new(text!(NOTE_NODES_NO_NIC)));
        }
        return;
    };

    // One micro-batch on one pipeline stage; QLoRA dequantizes its 4-bit base on the way.
    let slowdown = if w.mode == Mode::Qlora { QLORA_SLOWDOWN } else { 1.0 };
    let compute_mb = slowdown * flops_per_unit * units_per_microbatch / (tp * pp * peak * mfu);
    let (tp_comm, pp_comm) = match spec.transformer() {
        Some(t) => {
            let h = f64::from(t.hidden);
            let activation_bytes = units_per_microbatch * h * 2.0;
            // Two all-reduces forward and two backward per layer (Shoeybi et al. 2019 §3), two
            // more when full recompute repeats the forward.
            let per_layer = if w.recompute == Recompute::Full { 6.0 } else { 4.0 };
            let tp_comm = f64::from(t.layers) / pp * per_layer * tp_link.all_reduce_s(w.tp, activation_bytes);
            let pp_comm = if w.pp > 1 {
                topo.group_link(w.tp.saturating_mul(w.pp))
                    .map_or(f64::INFINITY, |l| 2.0 * l.p2p_s(activation_bytes / tp))
            } else {
                0.0
            };
            (tp_comm, pp_comm)
        }
        None => (0.0, 0.0),
    };
    let virtual_stages =
        if w.pp > 1 { spec.transformer().map_or(1, |t| (t.layers / w.pp).clamp(1, DEFAULT_VIRTUAL_STAGES)) } else { 1 };
    let v = f64::from(virtual_stages);
    // Interleaving sends each micro-batch across v times as many stage boundaries.
    let microbatch_time = compute_mb + tp_comm + v * pp_comm;
    // 1F1B schedule: m micro-batches take (m + (p − 1) / v) slots (Narayanan et al. 2021
    // §2.2, interleaved with v virtual stages).
    let pipeline_time = (microbatches + (pp - 1.0) / v) * microbatch_time;

    // Data-parallel exchange per optimizer step.
    let trainable = match w.mode {
        Mode::Lora | Mode::Qlora => {
            spec.transformer().map_or(0.0, |t| memory::lora_params(t, w.lora_rank, w.lora_targets) as f64)
        }
        _ => spec.total_params as f64,
    };
    let shard = trainable / (tp * pp);
    let grad_bytes = match w.mode {
        Mode::Lora => 4.0,
        Mode::Qlora => 2.0,
        _ if w.weights == WeightType::Fp32 => 4.0,
        _ => w.grad_dtype.bytes() as f64,
    };
    let n = f64::from(dp);
    let (dp_time, overlap) = if dp <= 1 {
        (0.0, 1.0)
    } else if w.zero >= 3 {
        // ZeRO-3 gathers parameters forward and backward and reduce-scatters gradients every
        // micro-step: 1.5× the all-reduce volume (Rajbhandari et al. 2019 §7.2.2), hidden
        // behind the whole computation by prefetching.
        let per_micro = 3.0 * (n - 1.0) / n * shard * 2.0 / (dp_link.bandwidth_gbs * 1.0e9)
            + 1.5 * dp_link.all_reduce_latency_s(dp);
        (microbatches * per_micro, 1.0)
    } else {
        // Gradients are exchanged once per step, overlapped with the backward pass (two
        // thirds of the compute).
        (dp_link.all_reduce_s(dp, shard * grad_bytes), 2.0 / 3.0)
    };
    let exposed = (dp_time - overlap * pipeline_time).max(0.0);
    let step = pipeline_time + exposed;
    let pure_compute = microbatches * compute_mb;
    let kept = goodput(gpus);
    let rate = global / step * kept;
    out.goodput = Some(kept);
    out.communication_share = Some(((step - pure_compute) / step).clamp(0.0, 1.0));
    out.achieved_mfu = Some(rate * model_flops_per_unit(spec, w) / (f64::from(gpus) * peak));
    if measured {
        out.train_samples_per_s = Some(rate);
    } else {
        out.train_tokens_per_s = Some(rate);
    }
    if let Some(units) = settings.tokens {
        out.train_flops = Some(flops_per_unit * units);
        let hours = units / rate / SECONDS_PER_HOUR;
        out.train_hours = Some(hours);
        out.gpu_hours = Some(hours * f64::from(gpus));
        if measured {
            out.notes.push(Sentence::new(text!(NOTE_MEASURED_TOKENS)));
        }
    }
}

/// Training FLOPs of `tokens` without a GPU: 6·P·T (8·P·T with full recompute) plus attention.
#[must_use]
pub fn train_flops(spec: &ModelSpec, w: &Workload, tokens: f64) -> f64 {
    train_flops_per_unit(spec, w) * tokens
}
