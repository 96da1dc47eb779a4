//! Inference step times: decode steps, prefill, time to first token.

use super::super::memory::{self, ModelSpec, Workload};
use super::{
    DECODE_MFU, Link, NOTE_LAYOUT_NO_NIC, SpeedSettings, Topology, attention_forward_flops, default_decode_efficiency,
    default_prefill_mfu, peak_tflops,
};
use crate::core::catalog::Gpu;
use crate::core::i18n::Sentence;
use crate::text;
use serde::Serialize;

/// The parts of a step's time, seconds.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StepTime {
    /// Reading weights and KV cache at the engine's share of the memory bandwidth.
    pub memory_s: f64,
    /// The matrix multiplications at the step's MFU.
    pub compute_s: f64,
    /// Tensor-parallel all-reduces and pipeline hops.
    pub communication_s: f64,
}

impl StepTime {
    #[must_use]
    pub fn total_s(&self) -> f64 {
        self.memory_s + self.compute_s + self.communication_s
    }

    /// Share of the step the tensor cores are busy.
    #[must_use]
    pub fn compute_share(&self) -> f64 {
        let t = self.total_s();
        if t > 0.0 { self.compute_s / t } else { 0.0 }
    }
}

/// One inference replica's step times: a decode step of a batch and the prefill of a prompt.
///
/// Theory: a step reads the weights it passes through and the KV cache of its context at the
/// engine's share of the memory bandwidth ([`decode_efficiency`]), computes `2·P` FLOPs per
/// token (plus attention) at its MFU, the two added (they overlap little at serving batch
/// sizes; see [`DECODE_MFU`]), and waits for two all-reduces per layer of tensor parallelism
/// (Shoeybi et al. 2019 §3) and a hop per pipeline stage. Decode processes one token per
/// sequence; prefill the prompt in the engine's chunks, each reading the weights once.
#[derive(Clone, Debug)]
pub struct InferenceModel<'a> {
    spec: &'a ModelSpec,
    w: Workload,
    tp_link: Link,
    pp_link: Link,
    bandwidth_bps: f64,
    peak_flops: f64,
    efficiency: f64,
    prefill_mfu: f64,
}

impl<'a> InferenceModel<'a> {
    /// The model of `w` on `topo`, or why there is none (a layout across nodes without NICs).
    ///
    /// # Errors
    /// The note that says why no estimate is possible.
    pub fn new(
        spec: &'a ModelSpec,
        w: &Workload,
        gpu: &Gpu,
        topo: &Topology,
        settings: &SpeedSettings,
    ) -> Result<Self, Sentence> {
        let (Some(tp_link), Some(pp_link)) = (topo.group_link(w.tp), topo.group_link(w.tp.saturating_mul(w.pp))) else {
            return Err(Sentence::new(text!(NOTE_LAYOUT_NO_NIC)));
        };
        Ok(Self {
            spec,
            w: *w,
            tp_link,
            pp_link,
            bandwidth_bps: gpu.memory_bandwidth_gbs * 1.0e9,
            peak_flops: peak_tflops(gpu, w) * 1.0e12,
            efficiency: settings.decode_efficiency.unwrap_or_else(|| default_decode_efficiency(spec, w, gpu)),
            prefill_mfu: settings.mfu.unwrap_or_else(|| default_prefill_mfu(gpu, w)),
        })
    }

    fn tp(&self) -> f64 {
        f64::from(self.w.tp)
    }

    /// Weight bytes one GPU reads per step when `batch` sequences route their tokens (all
    /// of them for dense models; for MoE the experts some sequence of the batch routes to,
    /// with uniform routing), and the parameters that step computes with per token.
    fn weights_read(&self, batch: f64) -> f64 {
        let total = self.spec.total_params as f64;
        let weights_total = memory::weight_bytes(self.spec, self.w.weights);
        let read_params = match self.spec.transformer().and_then(|t| t.moe.map(|m| (t, m))) {
            Some((t, m)) if t.moe_layers() > 0 => {
                let per_expert = t.ffn_params(m.expert_ffn) as f64;
                let routed_total = t.moe_layers() as f64 * f64::from(m.experts) * per_expert;
                let share = f64::from(m.active_experts) / f64::from(m.experts);
                let touched = 1.0 - (1.0 - share).powf(batch);
                total - routed_total * (1.0 - touched)
            }
            _ => total,
        };
        weights_total * read_params / total / self.tp()
    }

    /// One all-reduce per attention and FFN block of every layer for `tokens` activations.
    fn tp_comm_s(&self, tokens: f64, steps: f64) -> f64 {
        let Some(t) = self.spec.transformer() else { return 0.0 };
        if self.w.tp <= 1 {
            return 0.0;
        }
        let bytes = tokens * f64::from(t.hidden) * 2.0;
        let n = self.tp();
        2.0 * f64::from(t.layers)
            * (steps * self.tp_link.all_reduce_latency_s(self.w.tp)
                + 2.0 * (n - 1.0) / n * bytes / (self.tp_link.bandwidth_gbs * 1.0e9))
    }

    fn pp_comm_s(&self, tokens: f64) -> f64 {
        let Some(t) = self.spec.transformer() else { return 0.0 };
        f64::from(self.w.pp.saturating_sub(1)) * self.pp_link.p2p_s(tokens * f64::from(t.hidden) * 2.0)
    }

    /// Seconds of one decode step of `batch` sequences with `cached` tokens each in the KV
    /// cache.
    #[must_use]
    pub fn decode_step_s(&self, batch: u32, cached: f64) -> f64 {
        self.decode_step(batch, cached).total_s()
    }

    /// One decode step of `batch` sequences with `cached` tokens each, by part.
    #[must_use]
    pub fn decode_step(&self, batch: u32, cached: f64) -> StepTime {
        let b = f64::from(batch);
        let tokens = crate::core::units::round_non_negative(cached);
        // Sliding-window layers hold at most their window (`memory::kv_bytes_for_sequence`).
        let kv_total = memory::kv_bytes_for_sequence(self.spec, self.w.kv, tokens).unwrap_or(0.0) * b;
        let attention = self.spec.transformer().map_or(0.0, |t| attention_forward_flops(t, tokens));
        // MLA's latent is replicated on every tensor-parallel rank; GQA heads are split.
        let mla = self.spec.transformer().is_some_and(|t| t.mla.is_some());
        let kv_per_gpu = if mla { kv_total } else { kv_total / self.tp() };
        let flops = b * (2.0 * self.spec.active_params as f64 + attention);
        StepTime {
            memory_s: (self.weights_read(b) + kv_per_gpu) / (self.efficiency * self.bandwidth_bps),
            compute_s: flops / (self.tp() * self.peak_flops * DECODE_MFU),
            communication_s: self.tp_comm_s(b, 1.0) + self.pp_comm_s(b),
        }
    }

    /// Seconds to prefill `prompt` tokens for each of `batch` sequences: the chunks' FLOPs
    /// (Kaplan et al. 2020 Table 1, `2N + 2·n_layer·n_ctx·d_attn` per token) at the prefill
    /// MFU, one read of the weights per chunk, and the chunks' all-reduces. Pipeline stages
    /// overlap across chunks.
    #[must_use]
    pub fn prefill_s(&self, prompt: u64, batch: u32) -> f64 {
        let b = f64::from(batch);
        let tokens = prompt as f64 * b;
        let attention = self.spec.transformer().map_or(0.0, |t| attention_forward_flops(t, prompt));
        let flops = tokens * (2.0 * self.spec.active_params as f64 + attention);
        let stages = f64::from(self.w.pp);
        let compute = flops / (self.tp() * stages * self.peak_flops * self.prefill_mfu);
        let chunk = self.w.engine_for(self.spec).prefill_chunk_tokens().unwrap_or(prompt).max(1);
        let chunks = (tokens / chunk as f64).ceil().max(1.0);
        let reads = chunks * self.weights_read(b.min(chunk as f64)) / stages / (self.efficiency * self.bandwidth_bps);
        compute + reads + self.tp_comm_s(tokens, chunks) + self.pp_comm_s(tokens.min(chunk as f64))
    }

    /// Time to first token of one request with `prompt` tokens on an idle replica, seconds:
    /// the prefill, whose last position gives the first token (no queueing).
    #[must_use]
    pub fn ttft_s(&self, prompt: u64) -> f64 {
        self.prefill_s(prompt.max(1), 1)
    }
}
