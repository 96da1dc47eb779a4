//! Whether a set of GPUs runs a requested workload, and how well: the layout, the memory per
//! GPU, and the figure the front ranks it by (served tokens/s for inference, training
//! tokens/s for training).
//!
//! Theory of operation. The estimates are the memory and speed analyses' own
//! ([`memory::estimate`], [`memory::check_estimate`], [`speed::estimate_speed`]), called with
//! explicit layouts so that `rigplan fit --build` with the printed flags reproduces them.
//! - **Inference.** A model replica spans `tp` GPUs of a node (tensor parallel; `tp` divides
//!   the attention heads) and `pp` nodes (pipeline stages, at the widest `tp`); the GPUs hold
//!   `⌊GPUs / (tp·pp)⌋` replicas. Each replica decodes a batch of `b` sequences per step
//!   (continuous batching, Kwon et al. 2023, vLLM §4): its memory grows with `b` (KV cache of
//!   `b` contexts) and each user's speed, `decode(b) / b`, falls with it. The largest `b` whose
//!   KV caches fit the engine's budget and whose per-user speed meets the target is the
//!   replica's capacity ([`serving::replica_capacity`], the figures `rigplan fit --users
//!   --tokens-per-user` prints); the configuration serves `replicas × b` users at
//!   `replicas × decode(b)` tokens/s. The layout
//!   with the most capacity wins (then the most tokens/s, then the fewest GPUs per replica).
//! - **Training.** All GPUs train one model: data parallel first (LoRA and QLoRA replicas on
//!   each GPU; full training without ZeRO on one GPU), then ZeRO-3 across them, as the fit
//!   matrix does; full recompute (gradient checkpointing) and FlashAttention, as the fit
//!   matrix's fine-tuning workloads. Time = tokens / training tokens/s.

use super::requirement::{WorkMode, WorkloadReq};
use crate::core::analysis::memory::{self, Mode, ModelSpec, Recompute, Workload};
use crate::core::analysis::serving;
use crate::core::analysis::speed::{self, SpeedSettings, Topology};
use crate::core::catalog::Gpu;
use crate::core::units::{Bytes, SECONDS_PER_HOUR};
use serde::Serialize;

/// The GPUs of one configuration.
#[derive(Clone, Debug)]
pub struct GpuSetup<'a> {
    pub gpu: &'a Gpu,
    pub per_node: u32,
    pub nodes: u32,
    pub topology: Topology,
}

impl GpuSetup<'_> {
    /// Every GPU.
    #[must_use]
    pub fn total(&self) -> u32 {
        self.per_node.saturating_mul(self.nodes)
    }
}

/// How a workload runs on a configuration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorkloadFit {
    /// Index of the workload in the requirement.
    pub workload: usize,
    pub tp: u32,
    pub pp: u32,
    /// ZeRO stage (training).
    pub zero: u8,
    /// Model replicas the GPUs hold (inference), or data-parallel degree (training).
    pub replicas: u32,
    /// Sequences per replica at the requested load (inference) or the micro-batch (training).
    pub batch: u32,
    pub per_gpu_bytes: Bytes,
    pub gpu_memory_bytes: Bytes,
    pub memory_fraction: f64,
    /// Inference: most concurrent users served at the per-user target.
    pub users_capacity: Option<u32>,
    /// Inference: tokens/s each user gets at the requested load.
    pub per_user_tokens_per_s: Option<f64>,
    /// Inference: tokens/s the configuration serves at its capacity (all replicas).
    pub served_tokens_per_s: Option<f64>,
    /// Training: tokens/s over all GPUs.
    pub train_tokens_per_s: Option<f64>,
    /// Training: hours to train the requested tokens.
    pub hours: Option<f64>,
    /// The `rigplan fit` flags (beside `--build FILE`) that reproduce these figures.
    pub fit_args: String,
}

impl WorkloadFit {
    /// The figure the front maximizes: served tokens/s for inference, training tokens/s for
    /// training (time to result falls as it rises).
    #[must_use]
    pub fn score(&self) -> f64 {
        self.served_tokens_per_s.or(self.train_tokens_per_s).unwrap_or(0.0)
    }
}

/// Why a configuration cannot run a workload.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Shortfall {
    /// The model does not fit even one replica's GPUs at batch 1.
    Memory { per_gpu_bytes: Bytes, gpu_memory_bytes: Bytes, gpus: u32 },
    /// Even one user at a time decodes slower than the target.
    Speed { per_user_tokens_per_s: f64, target: f64 },
    /// Fewer users fit at the target than are asked for.
    Users { capacity: u32, users: u32 },
    /// Training takes longer than the deadline.
    Deadline { hours: f64, deadline_hours: f64 },
    /// The model is not one this mode applies to (LoRA needs a transformer).
    NotApplicable,
    /// The GPU's tensor units lack the precision the workload computes in (fp8 inference on
    /// an A100): no speed, so no configuration of it runs the workload
    /// ([`speed::precision_gate`]).
    Precision { precision: String },
}

/// The workload of the memory model for a request, at batch 1 and layout 1 × 1.
pub(crate) fn base_workload(spec: &ModelSpec, req: &WorkloadReq) -> Workload {
    let mode = req.mode.mode();
    let mut w = Workload::defaults(mode);
    w.weights = req.weights;
    w.context = spec.transformer().map_or(req.context, |t| req.context.min(t.max_context)).max(1);
    if mode.is_training() {
        w.recompute = Recompute::Full;
    }
    w
}

/// Memory of `w` on a replica of `gpus` GPUs: (per-GPU bytes, fits).
fn memory_at(spec: &ModelSpec, w: &Workload, gpus: u32, gpu: &Gpu) -> Option<(Bytes, f64, bool)> {
    let e = memory::estimate(spec, w, gpus).ok()?;
    let check = memory::check_estimate_on(&e, w, gpu);
    Some((e.per_gpu.total_bytes, check.memory_fraction, check.verdict.fits()))
}

/// Decode tokens/s of one replica of `w` (summed over its batch).
fn decode_at(spec: &ModelSpec, w: &Workload, setup: &GpuSetup<'_>) -> f64 {
    let topo = crate::core::analysis::fit::sub_topology(&setup.topology, w.tp.saturating_mul(w.pp));
    speed::estimate_speed(spec, w, setup.gpu, &topo, &SpeedSettings::default()).decode_tokens_per_s.unwrap_or(0.0)
}

/// Evaluates a workload on a configuration.
///
/// # Errors
/// The first shortfall: memory, per-user speed, users, or the deadline.
pub fn evaluate(
    index: usize,
    spec: &ModelSpec,
    req: &WorkloadReq,
    setup: &GpuSetup<'_>,
    model_flags: &str,
) -> Result<WorkloadFit, Shortfall> {
    if matches!(req.mode, WorkMode::Lora | WorkMode::Qlora) && spec.transformer().is_none() {
        return Err(Shortfall::NotApplicable);
    }
    let base = base_workload(spec, req);
    if let Some((_, true)) = speed::precision_gate(setup.gpu, &base) {
        let precision = speed::compute_precision(&base).map(|p| p.to_string()).unwrap_or_default();
        return Err(Shortfall::Precision { precision });
    }
    if req.mode == WorkMode::Inference {
        inference(index, spec, req, setup, model_flags)
    } else {
        training(index, spec, req, setup, model_flags)
    }
}

/// Inference layouts: (tp, pp) with tp within a node and pp stages across nodes at the
/// widest tp.
fn inference_layouts(spec: &ModelSpec, setup: &GpuSetup<'_>) -> Vec<(u32, u32)> {
    let tps: Vec<u32> = crate::core::analysis::fit::tp_options(spec, setup.per_node).collect();
    let widest = tps.last().copied().unwrap_or(1);
    let layers = spec.transformer().map_or(1, |t| t.layers);
    let mut out: Vec<(u32, u32)> = tps.iter().map(|&t| (t, 1)).collect();
    out.extend((2..=setup.nodes.min(layers)).map(|pp| (widest, pp)));
    out
}

/// One layout's best: (capacity users, batch at capacity, served tokens/s).
struct LayoutResult {
    tp: u32,
    pp: u32,
    replicas: u32,
    capacity_batch: u32,
    served: f64,
}

fn inference(
    index: usize,
    spec: &ModelSpec,
    req: &WorkloadReq,
    setup: &GpuSetup<'_>,
    model_flags: &str,
) -> Result<WorkloadFit, Shortfall> {
    let base = base_workload(spec, req);
    let total = setup.total();
    let mut best: Option<LayoutResult> = None;
    let mut shortfall: Option<Shortfall> = None;
    for (tp, pp) in inference_layouts(spec, setup) {
        let gpus = tp * pp;
        let replicas = total / gpus;
        if replicas == 0 {
            continue;
        }
        let at = |b: u32| Workload { batch: b, tp, pp, ..base };
        let Some((bytes1, _, fits1)) = memory_at(spec, &at(1), gpus, setup.gpu) else { continue };
        if !fits1 {
            if shortfall.is_none() || matches!(shortfall, Some(Shortfall::Memory { .. })) {
                shortfall = Some(Shortfall::Memory {
                    per_gpu_bytes: bytes1,
                    gpu_memory_bytes: Bytes::from_gib(setup.gpu.memory_gib),
                    gpus,
                });
            }
            continue;
        }
        let replica_topo = crate::core::analysis::fit::sub_topology(&setup.topology, gpus);
        let Some((batch, _)) = serving::replica_capacity(spec, &at(1), setup.gpu, &replica_topo, req.tokens_per_user)
        else {
            // Too slow even alone says more than too little memory on another layout.
            let alone = decode_at(spec, &at(1), setup);
            shortfall = Some(Shortfall::Speed { per_user_tokens_per_s: alone, target: req.tokens_per_user });
            continue;
        };
        let served = f64::from(replicas) * decode_at(spec, &at(batch), setup);
        let r = LayoutResult { tp, pp, replicas, capacity_batch: batch, served };
        let capacity = |l: &LayoutResult| u64::from(l.replicas) * u64::from(l.capacity_batch);
        let better = best.as_ref().is_none_or(|b| {
            (capacity(&r), r.served, std::cmp::Reverse(r.tp * r.pp))
                .partial_cmp(&(capacity(b), b.served, std::cmp::Reverse(b.tp * b.pp)))
                .is_some_and(std::cmp::Ordering::is_gt)
        });
        if better {
            best = Some(r);
        }
    }
    let Some(b) = best else { return Err(shortfall.unwrap_or(Shortfall::NotApplicable)) };
    let used = b.replicas * b.tp * b.pp;
    let capacity = b.replicas.saturating_mul(b.capacity_batch);
    if capacity < req.users {
        return Err(Shortfall::Users { capacity, users: req.users });
    }
    // The requested load: users spread over the replicas.
    let batch = req.users.div_ceil(b.replicas).max(1);
    let w = Workload { batch, tp: b.tp, pp: b.pp, ..base };
    let gpus = b.tp * b.pp;
    let (bytes, fraction, _) = memory_at(spec, &w, gpus, setup.gpu).unwrap_or((Bytes(0), 0.0, false));
    let per_user = decode_at(spec, &w, setup) / f64::from(batch);
    Ok(WorkloadFit {
        workload: index,
        tp: b.tp,
        pp: b.pp,
        zero: 0,
        replicas: b.replicas,
        batch,
        per_gpu_bytes: bytes,
        gpu_memory_bytes: Bytes::from_gib(setup.gpu.memory_gib),
        memory_fraction: fraction,
        users_capacity: Some(capacity),
        per_user_tokens_per_s: Some(per_user),
        served_tokens_per_s: Some(b.served),
        train_tokens_per_s: None,
        hours: None,
        fit_args: format!(
            "{model_flags} --mode inference --weights {} --context {} --tp {} --pp {} --batch {batch} --users {} --tokens-per-user {}{}",
            w.weights.name(),
            w.context,
            b.tp,
            b.pp,
            req.users,
            req.tokens_per_user,
            // Replicas that leave GPUs idle (3 GPUs, 2 per replica): the GPUs they use.
            if used < total { format!(" --gpus {used}") } else { String::new() }
        ),
    })
}

fn training(
    index: usize,
    spec: &ModelSpec,
    req: &WorkloadReq,
    setup: &GpuSetup<'_>,
    model_flags: &str,
) -> Result<WorkloadFit, Shortfall> {
    let base = base_workload(spec, req);
    let total = setup.total().max(1);
    let mut first = base;
    if base.mode == Mode::Train && total > 1 {
        first.zero = 3;
    }
    let mut candidates = vec![first];
    if first.zero != 3 && total > 1 {
        candidates.push(Workload { zero: 3, ..first });
    }
    let mut smallest: Option<(Bytes, u32)> = None;
    for w in candidates {
        let Some((bytes, fraction, fits)) = memory_at(spec, &w, total, setup.gpu) else { continue };
        if !fits {
            if smallest.is_none_or(|(b, _)| bytes < b) {
                smallest = Some((bytes, total));
            }
            continue;
        }
        let settings = SpeedSettings { tokens: req.train_tokens, ..SpeedSettings::default() };
        let s = speed::estimate_speed(spec, &w, setup.gpu, &setup.topology, &settings);
        let tps = s.train_tokens_per_s.unwrap_or(0.0);
        let hours = req.train_tokens.filter(|_| tps > 0.0).map(|t| t / tps / SECONDS_PER_HOUR);
        if let (Some(h), Some(d)) = (hours, req.deadline_hours)
            && h > d
        {
            return Err(Shortfall::Deadline { hours: h, deadline_hours: d });
        }
        let tokens = req.train_tokens.map(|t| format!(" --tokens {t:e}")).unwrap_or_default();
        return Ok(WorkloadFit {
            workload: index,
            tp: w.tp,
            pp: w.pp,
            zero: w.zero,
            replicas: total / w.tp.saturating_mul(w.pp).max(1),
            batch: w.batch,
            per_gpu_bytes: bytes,
            gpu_memory_bytes: Bytes::from_gib(setup.gpu.memory_gib),
            memory_fraction: fraction,
            users_capacity: None,
            per_user_tokens_per_s: None,
            served_tokens_per_s: None,
            train_tokens_per_s: Some(tps),
            hours,
            fit_args: format!(
                "{model_flags} --mode {} --weights {} --context {} --recompute full --zero {}{tokens}",
                w.mode.id(),
                w.weights.name(),
                w.context,
                w.zero
            ),
        });
    }
    Err(match smallest {
        Some((per_gpu_bytes, gpus)) => {
            Shortfall::Memory { per_gpu_bytes, gpu_memory_bytes: Bytes::from_gib(setup.gpu.memory_gib), gpus }
        }
        None => Shortfall::NotApplicable,
    })
}
