//! Serving capacity of an inference configuration: the longest context that fits, how many
//! sequences run at once at a context, aggregate and per-user tokens/s at that concurrency,
//! time to first token, how many users a per-user speed target admits, and the energy each
//! generated token costs.
//!
//! Theory of operation (`../shared/guide/domain.md` §7):
//! - **KV budget.** The engine lets the workload use [`Engine::budget_bytes`] of each GPU;
//!   what the weights, activations and overhead leave of it holds the KV cache. Sequences at a
//!   context `c` that run at once = KV budget / (KV bytes per sequence at `c`), the figure vLLM
//!   logs at start-up as its maximum concurrency. A budget below one sequence is no fit.
//! - **Batched decode.** A step serves `B` sequences: it reads the weights once and each
//!   sequence's KV cache, and computes `2·P·B` FLOPs ([`InferenceModel`]). Per-user
//!   tokens/s = 1 / step time; aggregate = B / step time, over all replicas. Small batches are
//!   bandwidth bound; the aggregate stops growing where compute time overtakes memory time.
//! - **Time to first token** of a prompt on an idle replica: the prefill
//!   ([`InferenceModel::ttft_s`]), without queueing.
//! - **Users at a target.** The largest batch per replica whose per-user speed meets the
//!   target and whose KV cache fits, times the replicas.
//! - **Energy per token** = power at the workload / tokens per second. A GPU's board power
//!   under decode is well below its TDP: [`gpu_watts`] interpolates between
//!   [`DECODE_POWER_FLOOR`] of the range idle → TDP for a memory-bound step and the TDP for a
//!   compute-bound one. The rest of the node (`other_watts`) and the site's PUE are added when
//!   a build gives them.
//!
//! Sequences are taken at their full context (the end of each request), a conservative point.

use super::fit::largest_fitting;
use super::memory::{self, Engine, MemoryEstimate, ModelSpec, Workload};
use super::power::{NodePower, PowerReport};
use super::speed::{InferenceModel, SpeedSettings, StepTime, Topology};
use crate::core::catalog::Gpu;
use crate::core::units::Bytes;
use serde::Serialize;

/// Share of the range from idle to TDP a GPU draws while decode is memory bound. Calibration:
/// vLLM serving Llama 3.3 70B FP8 on 4 × H100 SXM (TP 4) drew 480 W per GPU at batch 64 and
/// 520 W at batch 128 (nvitop readings in lhl's "vLLM/Llama 3.3 70B FP8 tokens/joule" gist,
/// 2025-01), which this model reproduces within 5 % with a floor of 0.60.
pub const DECODE_POWER_FLOOR: f64 = 0.60;

/// Largest batch the capacity search considers per replica.
pub const MAX_SERVING_BATCH: u32 = 4096;

/// What to evaluate beside the workload's own batch and context.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ServingRequest {
    /// Prompt tokens for the time to first token; default half the context.
    pub prompt_tokens: Option<u32>,
    /// Concurrent users to spread over the replicas.
    pub users: Option<u32>,
    /// Decode tokens per second each user must get.
    pub tokens_per_user: Option<f64>,
}

/// Power and energy at a load.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Energy {
    /// Board power of each GPU at this load, W.
    pub gpu_watts: f64,
    /// GPUs drawing it.
    pub gpus: u32,
    /// The rest of the node(s) the GPUs sit in, W (0 without a build).
    pub other_watts: f64,
    /// Facility overhead factor (1 without a site).
    pub pue: f64,
    /// Facility energy per generated token, joules.
    pub joules_per_token: f64,
    /// Facility energy per million generated tokens, kWh.
    pub kwh_per_million_tokens: f64,
}

/// Throughput at one concurrency.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Load {
    /// Sequences decoded at once, over all replicas.
    pub users: u32,
    /// Sequences per replica (the largest replica's share).
    pub batch_per_replica: u32,
    /// Tokens per second each user gets.
    pub per_user_tokens_per_s: f64,
    /// Tokens per second over all replicas.
    pub aggregate_tokens_per_s: f64,
    pub step: StepTime,
    /// False when the batch's KV cache does not fit the engine's budget.
    pub fits: bool,
    pub energy: Energy,
}

/// Serving figures of one configuration.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ServingEstimate {
    pub engine: Engine,
    /// Model replicas the GPUs hold (GPUs / (TP × PP)).
    pub replicas: u32,
    pub gpus_per_replica: u32,
    /// Memory the engine gives the workload on each GPU.
    pub budget_bytes: Bytes,
    /// What the weights, activations and overhead leave of it for the KV cache, per GPU.
    pub kv_budget_bytes: Bytes,
    /// Tokens of KV cache one replica holds.
    pub kv_capacity_tokens: u64,
    /// The context each sequence is evaluated at (the workload's).
    pub context_tokens: u32,
    /// Longest context one sequence can have on this configuration (at most the model's).
    pub max_context_tokens: Option<u32>,
    /// Sequences at `context_tokens` one replica runs at once (vLLM's "maximum concurrency").
    pub max_concurrency_per_replica: u32,
    pub prompt_tokens: u32,
    /// Time to first token of one request with `prompt_tokens` on an idle replica.
    pub ttft_s: f64,
    /// One user alone.
    pub single: Load,
    /// Every replica at its maximum concurrency (None when not even one sequence fits).
    pub at_capacity: Option<Load>,
    /// The requested users (`--users`).
    pub requested: Option<Load>,
    /// The per-user target (`--tokens-per-user`).
    pub tokens_per_user_target: Option<f64>,
    /// Most users served at the target, over all replicas.
    pub users_at_target: Option<u32>,
    /// Batch per replica from which a step's compute takes longer than its memory reads:
    /// the aggregate throughput stops rising much beyond it.
    pub compute_bound_from_batch: Option<u32>,
}

/// Board power of `gpu` during a step: idle + (TDP − idle) × (floor + (1 − floor) × the
/// step's compute share), with [`DECODE_POWER_FLOOR`].
#[must_use]
pub fn gpu_watts(gpu: &Gpu, step: &StepTime) -> f64 {
    let busy = DECODE_POWER_FLOOR + (1.0 - DECODE_POWER_FLOOR) * step.compute_share();
    gpu.idle_watts + (gpu.tdp_watts - gpu.idle_watts).max(0.0) * busy
}

/// Energy per token when `gpus` GPUs at `gpu_watts` each, `other_watts` beside them and a PUE
/// of `pue` produce `tokens_per_s`.
#[must_use]
pub fn energy(gpu_watts: f64, gpus: u32, other_watts: f64, pue: f64, tokens_per_s: f64) -> Energy {
    let watts = (gpu_watts * f64::from(gpus) + other_watts) * pue;
    let joules_per_token = if tokens_per_s > 0.0 { watts / tokens_per_s } else { f64::INFINITY };
    Energy {
        gpu_watts,
        gpus,
        other_watts,
        pue,
        joules_per_token,
        kwh_per_million_tokens: joules_per_token * 1.0e6 / 3.6e6,
    }
}

/// Where the GPUs sit: the power of the rest of their nodes and the site's PUE.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Site {
    /// Power of everything but the GPUs in the nodes used, W, at load.
    pub other_watts: f64,
    pub pue: f64,
}

impl Default for Site {
    fn default() -> Self {
        Self { other_watts: 0.0, pue: 1.0 }
    }
}

impl Site {
    /// The site of `nodes_used` nodes of a build's node group `node`: everything but the GPUs
    /// at its typical draw, at the wall ([`NodePower::other_wall_watts`]), and the build's PUE
    /// (1 when it is not a number at least 1).
    #[must_use]
    pub fn of_node(power: &PowerReport, node: usize, nodes_used: u32, pue: f64) -> Self {
        let per_node = power.nodes.iter().find(|p| p.node == node).map_or(0.0, NodePower::other_wall_watts);
        Self {
            other_watts: per_node * f64::from(nodes_used),
            pue: if pue.is_finite() && pue >= 1.0 { pue } else { 1.0 },
        }
    }
}

/// A replica's KV arithmetic: what one sequence at the workload's context takes and what the
/// engine leaves for the cache, per GPU.
struct Kv {
    budget: u64,
    for_cache: u64,
    per_sequence: u64,
}

fn kv_of(e: &MemoryEstimate, w: &Workload, capacity: Bytes) -> Kv {
    let kv = e.per_gpu.kv_cache_bytes.map_or(0, |b| b.0);
    let fixed = e.per_gpu.total_bytes.0.saturating_sub(kv);
    let budget = e.engine.unwrap_or_else(|| w.engine()).budget_bytes(capacity.0, fixed);
    Kv { budget, for_cache: budget.saturating_sub(fixed), per_sequence: kv / u64::from(w.batch.max(1)) }
}

/// Serving figures of `w` (its tensor and pipeline degrees, its context) on `topo` of `gpu`.
/// The workload's batch is ignored: every concurrency is evaluated.
///
/// # Errors
/// A workload the memory model rejects, a model without a KV cache (not an autoregressive
/// decoder), or a layout whose links cannot carry it (the message says which).
pub fn estimate(
    spec: &ModelSpec,
    w: &Workload,
    gpu: &Gpu,
    topo: &Topology,
    request: &ServingRequest,
    site: Site,
) -> Result<ServingEstimate, String> {
    if !spec.is_decoder() {
        return Err("serving figures apply to autoregressive decoders".to_owned());
    }
    let one = Workload { batch: 1, ..*w };
    let per_replica = one.tp.saturating_mul(one.pp).max(1);
    let replicas = (topo.total_gpus() / per_replica).max(1);
    let capacity = Bytes::from_gib(gpu.memory_gib);
    let e = memory::estimate(spec, &one, per_replica).map_err(|err| err.to_string())?;
    let kv = kv_of(&e, &one, capacity);
    let replica_topo = super::fit::sub_topology(topo, per_replica);
    let model =
        InferenceModel::new(spec, &one, gpu, &replica_topo, &SpeedSettings::default()).map_err(|n| n.to_string())?;
    let context = f64::from(one.context);
    let per_seq = kv.per_sequence.max(1);
    let max_concurrency = u32::try_from(kv.for_cache / per_seq).unwrap_or(u32::MAX).min(MAX_SERVING_BATCH);
    let per_token_per_gpu = kv.per_sequence as f64 / context.max(1.0);
    let kv_capacity_tokens = if per_token_per_gpu > 0.0 {
        crate::core::units::round_non_negative((kv.for_cache as f64 / per_token_per_gpu).floor())
    } else {
        0
    };
    let fits_at = |c: u32| -> bool {
        memory::estimate(spec, &Workload { context: c, ..one }, per_replica)
            .is_ok_and(|e| memory::check_estimate(&e, &one, capacity).verdict.fits())
    };
    let model_max = spec.transformer().map_or(one.context, |t| t.max_context.max(one.context));
    let max_context = largest_fitting(model_max, fits_at);
    let load = |batch_per_replica: u32, users: u32| -> Load {
        let step = model.decode_step(batch_per_replica, context);
        let per_user = 1.0 / step.total_s();
        let aggregate = per_user * f64::from(users);
        let gpus_busy = per_replica * users.div_ceil(batch_per_replica.max(1)).min(replicas);
        Load {
            users,
            batch_per_replica,
            per_user_tokens_per_s: per_user,
            aggregate_tokens_per_s: aggregate,
            step,
            fits: batch_per_replica <= max_concurrency,
            energy: energy(gpu_watts(gpu, &step), gpus_busy, site.other_watts, site.pue, aggregate),
        }
    };
    let single = load(1, 1);
    let at_capacity = (max_concurrency > 0).then(|| load(max_concurrency, max_concurrency.saturating_mul(replicas)));
    let requested = request.users.filter(|&u| u > 0).map(|u| load(u.div_ceil(replicas), u));
    let users_at_target = request.tokens_per_user.map(|target| {
        largest_fitting(max_concurrency, |b| 1.0 / model.decode_step_s(b, context) >= target)
            .map_or(0, |b| b.saturating_mul(replicas))
    });
    let compute_bound_from_batch = largest_fitting(MAX_SERVING_BATCH, |b| {
        let s = model.decode_step(b, context);
        s.compute_s < s.memory_s
    })
    .map(|b| b.saturating_add(1))
    .filter(|&b| b <= MAX_SERVING_BATCH);
    let prompt = request.prompt_tokens.unwrap_or(one.context / 2).max(1);
    Ok(ServingEstimate {
        engine: one.engine_for(spec),
        replicas,
        gpus_per_replica: per_replica,
        budget_bytes: Bytes(kv.budget),
        kv_budget_bytes: Bytes(kv.for_cache),
        kv_capacity_tokens,
        context_tokens: one.context,
        max_context_tokens: max_context,
        max_concurrency_per_replica: max_concurrency,
        prompt_tokens: prompt,
        ttft_s: model.ttft_s(u64::from(prompt)),
        single,
        at_capacity,
        requested,
        tokens_per_user_target: request.tokens_per_user,
        users_at_target,
        compute_bound_from_batch,
    })
}

/// The most sequences one replica of `w` serves on `topo` with each at `target` tokens/s or
/// more and their KV caches in the engine's budget, and the per-user speed at that batch;
/// None when even one sequence does not fit.
#[must_use]
pub fn replica_capacity(spec: &ModelSpec, w: &Workload, gpu: &Gpu, topo: &Topology, target: f64) -> Option<(u32, f64)> {
    let est = estimate(spec, w, gpu, topo, &ServingRequest::default(), Site::default()).ok()?;
    let one = Workload { batch: 1, ..*w };
    let per_replica = one.tp.saturating_mul(one.pp).max(1);
    let replica_topo = super::fit::sub_topology(topo, per_replica);
    let model = InferenceModel::new(spec, &one, gpu, &replica_topo, &SpeedSettings::default()).ok()?;
    let context = f64::from(one.context);
    let b = largest_fitting(est.max_concurrency_per_replica, |b| 1.0 / model.decode_step_s(b, context) >= target)?;
    Some((b, 1.0 / model.decode_step_s(b, context)))
}

/// Energy of a training run at the GPUs' board power (TDP), MWh: GPU-hours × TDP, the
/// accounting of Touvron et al. 2023 Table 2 (400 W per A100) and of BLOOM's 433 MWh for
/// 1,082,990 A100-hours; the rest of the node and the PUE are added when a build gives them.
#[must_use]
pub fn train_energy_mwh(gpu_hours: f64, gpu: &Gpu, site: Site, gpus: u32) -> f64 {
    let per_gpu_other = if gpus > 0 { site.other_watts / f64::from(gpus) } else { 0.0 };
    gpu_hours * (gpu.tdp_watts + per_gpu_other) * site.pue / 1.0e6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn energy_per_token_is_power_over_rate() {
        // 4 GPUs at 500 W, 1 kW beside them, PUE 1.5, 1000 tokens/s: 4.5 J per token.
        let e = energy(500.0, 4, 1000.0, 1.5, 1000.0);
        assert!((e.joules_per_token - 4.5).abs() < 1e-12);
        assert!((e.kwh_per_million_tokens - 1.25).abs() < 1e-12);
        assert!(energy(500.0, 1, 0.0, 1.0, 0.0).joules_per_token.is_infinite());
    }
}
