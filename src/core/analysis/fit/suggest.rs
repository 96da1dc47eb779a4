//! The search for the smallest change that makes a misfit fit: every single change (smaller
//! batch or context, recompute, a lower KV or weight precision, an 8-bit optimizer, ZeRO or
//! offload, more GPUs, QLoRA) that fits, least disruptive first, with the `rigplan fit` flags
//! that run it.

use super::super::memory::{self, KvType, Mode, ModelSpec, Offload, Optimizer, Recompute, WeightType, Workload};
use super::{
    CHANGE_BATCH, CHANGE_CONTEXT, CHANGE_GPUS, CHANGE_GRADIENTS, CHANGE_KV, CHANGE_MIXED_PRECISION, CHANGE_OFFLOAD,
    CHANGE_OPTIMIZER, CHANGE_QLORA, CHANGE_QUANTIZE, CHANGE_RECOMPUTE, CHANGE_SPREAD, CHANGE_ZERO, SPREAD_TP,
    SPREAD_TP_PP, inference_needs, training_needs, try_fit,
};
use crate::core::catalog::Gpu;
use crate::core::i18n::{Lang, Sentence, Text};
use crate::core::units::Bytes;
use crate::text;
use serde::Serialize;

/// One change that makes a misfit fit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Suggestion {
    /// Stable kebab-case code: `batch`, `context`, `recompute`, `kv-precision`, `optimizer`,
    /// `gradients`, `weights`, `zero`, `offload`, `tensor-parallel`, `gpus`, `qlora`.
    pub change: &'static str,
    pub description: Sentence,
    /// The `rigplan fit` flags that, added to the command as given, run the change (a later
    /// flag overrides an earlier one).
    pub flags: String,
    /// The workload with the change applied.
    pub workload: Workload,
    pub gpus: u32,
    pub total_bytes: Bytes,
    pub memory_fraction: f64,
}

/// Largest value in `1..=hi` for which `fits` holds, assuming it holds for every smaller value
/// once it holds for one (memory grows with batch and context).
pub(crate) fn largest_fitting(hi: u32, mut fits: impl FnMut(u32) -> bool) -> Option<u32> {
    if hi == 0 || !fits(1) {
        return None;
    }
    let (mut lo, mut hi) = (1u32, hi);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if fits(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    Some(lo)
}

/// The `rigplan fit` flags that turn `from` on `gpus` GPUs into `to` on `n`.
fn change_flags(from: &Workload, gpus: u32, to: &Workload, n: u32) -> String {
    let mut flags: Vec<String> = Vec::new();
    let mut add = |differs: bool, flag: &str, value: String| {
        if differs {
            flags.push(format!("--{flag} {value}"));
        }
    };
    add(to.mode != from.mode, "mode", to.mode.id().to_owned());
    add(n != gpus, "gpus", n.to_string());
    add(to.weights != from.weights, "weights", to.weights.name().to_owned());
    add(to.kv != from.kv, "kv", to.kv.name().to_owned());
    add(to.batch != from.batch, "batch", to.batch.to_string());
    add(to.context != from.context, "context", to.context.to_string());
    add(to.optimizer != from.optimizer, "optimizer", to.optimizer.name().to_owned());
    add(
        to.grad_dtype != from.grad_dtype,
        "grad-dtype",
        if to.grad_dtype == memory::GradDtype::Fp32 { "fp32" } else { "fp16" }.to_owned(),
    );
    add(to.zero != from.zero, "zero", to.zero.to_string());
    add(
        to.offload != from.offload,
        "offload",
        match to.offload {
            Offload::None => "none",
            Offload::Optimizer => "optimizer",
            Offload::All => "all",
        }
        .to_owned(),
    );
    add(to.tp != from.tp, "tp", to.tp.to_string());
    add(to.pp != from.pp, "pp", to.pp.to_string());
    add(
        to.recompute != from.recompute,
        "recompute",
        match to.recompute {
            Recompute::None => "none",
            Recompute::Selective => "selective",
            Recompute::Full => "full",
        }
        .to_owned(),
    );
    add(to.lora_rank != from.lora_rank, "lora-rank", to.lora_rank.to_string());
    flags.join(" ")
}

/// Every single change that makes `w` fit `gpu` (with `gpus` GPUs now), least disruptive
/// first: a smaller batch, a shorter context, recompute, a lower KV precision, an 8-bit
/// optimizer, 16-bit gradients, lower weight precision, ZeRO or optimizer offload on the same
/// GPUs, more GPUs (tensor parallel for inference, ZeRO-3 for training), QLoRA. Changes that
/// need more than `max_gpus` GPUs (a build's) are left out: a suggestion must run as given.
/// Empty when it already fits or nothing single helps.
#[must_use]
pub fn suggest(spec: &ModelSpec, w: &Workload, gpus: u32, gpu: &Gpu, max_gpus: Option<u32>) -> Vec<Suggestion> {
    let mut out: Vec<Suggestion> = Vec::new();
    let push = |change: &'static str, description: Text, c: Workload, n: u32, out: &mut Vec<Suggestion>| {
        if max_gpus.is_some_and(|max| n > max) {
            return;
        }
        if let Some(t) = try_fit(spec, &c, n, gpu)
            && t.verdict.fits()
        {
            out.push(Suggestion {
                change,
                description: Sentence::new(description),
                flags: change_flags(w, gpus, &c, n),
                workload: c,
                gpus: n,
                total_bytes: t.estimate.per_gpu.total_bytes,
                memory_fraction: t.fraction,
            });
        }
    };
    let fits_with = |c: &Workload, n: u32| try_fit(spec, c, n, gpu).is_some_and(|t| t.verdict.fits());

    if w.batch > 1
        && let Some(b) = largest_fitting(w.batch - 1, |b| fits_with(&Workload { batch: b, ..*w }, gpus))
    {
        let description = text!(CHANGE_BATCH, from = w.batch.to_string(), to = b.to_string());
        push("batch", description, Workload { batch: b, ..*w }, gpus, &mut out);
    }
    if spec.transformer().is_some()
        && w.context > 1
        && let Some(s) = largest_fitting(w.context - 1, |s| fits_with(&Workload { context: s, ..*w }, gpus))
    {
        let s = if s > 256 { s / 128 * 128 } else { s };
        push(
            "context",
            text!(CHANGE_CONTEXT, from = w.context.to_string(), to = s.to_string()),
            Workload { context: s, ..*w },
            gpus,
            &mut out,
        );
    }
    if w.mode.is_training() && spec.transformer().is_some() {
        for r in [Recompute::Selective, Recompute::Full] {
            if r != w.recompute && (w.recompute == Recompute::None || r == Recompute::Full) {
                let name = if r == Recompute::Full { "full" } else { "selective" };
                push(
                    "recompute",
                    text!(CHANGE_RECOMPUTE, mode = name),
                    Workload { recompute: r, ..*w },
                    gpus,
                    &mut out,
                );
            }
        }
    }
    if !w.mode.is_training() && spec.is_decoder() {
        let start = KvType::ALL.iter().position(|k| *k == w.kv).map_or(0, |i| i + 1);
        if let Some(&kv) =
            KvType::ALL.get(start..).and_then(|rest| rest.iter().find(|k| fits_with(&Workload { kv: **k, ..*w }, gpus)))
        {
            push("kv-precision", text!(CHANGE_KV, kv = kv.to_string()), Workload { kv, ..*w }, gpus, &mut out);
        }
    }
    if w.mode.is_training() && w.optimizer == Optimizer::AdamW {
        push("optimizer", text!(CHANGE_OPTIMIZER), Workload { optimizer: Optimizer::AdamW8bit, ..*w }, gpus, &mut out);
    }
    if w.mode == Mode::Train && w.grad_dtype == memory::GradDtype::Fp32 && w.weights != WeightType::Fp32 {
        push(
            "gradients",
            text!(CHANGE_GRADIENTS),
            Workload { grad_dtype: memory::GradDtype::Fp16, ..*w },
            gpus,
            &mut out,
        );
    }
    let current_bpw = w.weights.bits_per_weight();
    let lower = WeightType::ALL.iter().copied().filter(|t| t.bits_per_weight() < current_bpw);
    match w.mode {
        Mode::Inference => {
            let mut lower: Vec<WeightType> = lower.collect();
            lower.sort_by(|a, b| b.bits_per_weight().total_cmp(&a.bits_per_weight()));
            if let Some(t) = lower.into_iter().find(|t| fits_with(&Workload { weights: *t, ..*w }, gpus)) {
                push(
                    "weights",
                    text!(CHANGE_QUANTIZE, weights = t.to_string()),
                    Workload { weights: t, ..*w },
                    gpus,
                    &mut out,
                );
            }
        }
        Mode::Train if w.weights == WeightType::Fp32 => {
            push(
                "weights",
                text!(CHANGE_MIXED_PRECISION),
                Workload { weights: WeightType::Bf16, ..*w },
                gpus,
                &mut out,
            );
        }
        _ => {}
    }
    let dp = gpus / w.tp.saturating_mul(w.pp).max(1);
    if w.mode.is_training() && dp > 1 && w.zero < 3 {
        for z in (w.zero + 1)..=3 {
            if fits_with(&Workload { zero: z, ..*w }, gpus) {
                push(
                    "zero",
                    text!(CHANGE_ZERO, zero = z.to_string(), dp = dp.to_string()),
                    Workload { zero: z, ..*w },
                    gpus,
                    &mut out,
                );
                break;
            }
        }
    }
    if w.mode.is_training() && w.offload == Offload::None {
        let c = Workload { zero: w.zero.max(1), offload: Offload::Optimizer, ..*w };
        push("offload", text!(CHANGE_OFFLOAD, zero = c.zero.to_string()), c, gpus, &mut out);
    }
    match w.mode {
        Mode::Inference => {
            if let Some((tp, pp)) = inference_needs(spec, w, gpu)
                && tp * pp > w.tp * w.pp
            {
                let c = Workload { tp, pp, ..*w };
                let what = if pp > 1 {
                    text!(SPREAD_TP_PP, gpus = (tp * pp).to_string(), tp = tp.to_string(), pp = pp.to_string())
                } else {
                    text!(SPREAD_TP, tp = tp.to_string())
                };
                push("tensor-parallel", text!(CHANGE_SPREAD, what = what), c, tp * pp, &mut out);
            }
        }
        _ => {
            if let Some(n) = training_needs(spec, w, gpu)
                && n > gpus
            {
                let c = Workload { zero: 3, tp: 1, pp: 1, ..*w };
                push("gpus", text!(CHANGE_GPUS, gpus = n.to_string()), c, n, &mut out);
            }
        }
    }
    if matches!(w.mode, Mode::Train | Mode::Lora) && spec.transformer().is_some() {
        let mut c = Workload::defaults(Mode::Qlora);
        c.context = w.context;
        c.batch = w.batch;
        c.recompute = w.recompute;
        c.flash_attention = w.flash_attention;
        c.tp = w.tp;
        c.pp = w.pp;
        push("qlora", text!(CHANGE_QLORA), c, gpus, &mut out);
    }
    out
}

impl Suggestion {
    /// Renders the description in `lang`.
    pub fn localize(&mut self, lang: Lang) {
        self.description.localize(lang);
    }
}
