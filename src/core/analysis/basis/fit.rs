//! The bases of one model and workload's figures: memory per GPU line by line, the fit,
//! decode, prefill, training and image speed, and serving (`rigplan fit`, the app's Memory &
//! speed tab). Keys are the `rigplan fit --json` field names under `fit.`.

use super::{Basis, num};
use crate::core::analysis::fit::FitMatrix;
use crate::core::analysis::memory::{
    self, Engine, FitCheck, MemoryEstimate, ModelSpec, Shape, TRTLLM_KV_FREE_FRACTION, VLLM_MEMORY_UTILIZATION,
    Verdict, Workload,
};
use crate::core::analysis::serving::{self, ServingEstimate, Site};
use crate::core::analysis::speed::{self, InferenceModel, SpeedEstimate, SpeedSettings, Topology};
use crate::core::catalog::{Catalog, Gpu};
use crate::core::units::Bytes;

/// What one fit computed: the model, workload and GPUs, and the analyses' results.
pub struct FitInputs<'a> {
    pub spec: &'a ModelSpec,
    pub workload: &'a Workload,
    /// The GPUs, when the fit has some (`rigplan fit` without `--gpu` or `--build` has none).
    pub gpu: Option<(&'a Gpu, &'a Topology)>,
    pub settings: &'a SpeedSettings,
    pub estimate: &'a MemoryEstimate,
    pub check: Option<&'a FitCheck>,
    pub speed: Option<&'a SpeedEstimate>,
    pub serving: Option<&'a ServingEstimate>,
    /// The rest of the nodes and the site's PUE (for the training run's energy).
    pub site: Option<Site>,
}

fn gib(b: Bytes) -> String {
    format!("{:.2} GiB", b.gib())
}

fn gib_opt(b: Option<Bytes>) -> String {
    b.map_or_else(|| "0".to_owned(), gib)
}

/// Every basis of a fit's figures.
#[must_use]
pub fn of_fit(x: &FitInputs<'_>) -> Vec<Basis> {
    let mut out = Vec::new();
    memory_bases(x, &mut out);
    if let Some(s) = x.speed {
        speed_bases(x, s, &mut out);
    }
    if let Some(s) = x.serving {
        serving_bases(s, &mut out);
    }
    out
}

/// Where a cell of a report's fit matrices is: `fit[matrix].rows[row].cells[col]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellAt {
    pub matrix: usize,
    pub row: usize,
    pub col: usize,
}

impl CellAt {
    /// The key of one of the cell's figures (`fit[0].rows[3].cells[0].decode_tokens_per_s`):
    /// the JSON path of the cell, then the figure's `rigplan fit --json` name.
    #[must_use]
    pub fn key(self, field: &str) -> String {
        format!("fit[{}].rows[{}].cells[{}].{field}", self.matrix, self.row, self.col)
    }
}

/// The bases of one fit-matrix cell's figures, as [`of_fit`] writes them for the same model,
/// workload, layout and GPUs (what the app's Memory & speed tab shows for the selected cell),
/// keyed by the cell ([`CellAt::key`]); training times are for `train_tokens` tokens. Empty
/// when the cell does not apply or the catalog no longer holds its model or GPU.
///
/// The workload is the cell's as [`crate::core::analysis::fit::evaluate`] chose it: the
/// standard workload at the cell's layout, and for training the first of data parallel and
/// ZeRO-3 that fits, as the matrix tries them (the last one tried when neither fits).
#[must_use]
pub fn of_cell(catalog: &Catalog, fit: &[FitMatrix], at: CellAt, train_tokens: f64) -> Vec<Basis> {
    let Some(matrix) = fit.get(at.matrix) else { return Vec::new() };
    let Some(row) = matrix.rows.get(at.row) else { return Vec::new() };
    let Some(cell) = row.cells.get(at.col) else { return Vec::new() };
    let (Some(model), Some(gpu), Some(layout)) =
        (catalog.models.get(row.model.as_str()), catalog.gpu(&matrix.gpu), cell.layout)
    else {
        return Vec::new();
    };
    let spec = ModelSpec::from_model(model);
    let Some(mut w) = cell.workload.workload(&spec) else { return Vec::new() };
    (w.tp, w.pp) = (layout.tp, layout.pp);
    let gpus = cell.gpus_used.unwrap_or(1).max(1);
    if w.mode.is_training() {
        let Some(chosen) = crate::core::analysis::fit::training_cell_workload(cell.workload, &spec, w, gpus, gpu)
        else {
            return Vec::new();
        };
        w = chosen;
    }
    let Ok(estimate) = memory::estimate(&spec, &w, gpus) else { return Vec::new() };
    let check = memory::check_estimate_on(&estimate, &w, gpu);
    let topology = crate::core::analysis::fit::sub_topology(&matrix.topology, gpus);
    let settings = SpeedSettings { tokens: Some(train_tokens), ..SpeedSettings::default() };
    let speed = speed::estimate_speed(&spec, &w, gpu, &topology, &settings);
    let mut bases = of_fit(&FitInputs {
        spec: &spec,
        workload: &w,
        gpu: Some((gpu, &topology)),
        settings: &settings,
        estimate: &estimate,
        check: Some(&check),
        speed: Some(&speed).filter(|_| check.verdict.fits()),
        serving: None,
        site: None,
    });
    for b in &mut bases {
        if let Some(field) = b.figure.strip_prefix("fit.") {
            b.figure = at.key(field);
        }
    }
    bases
}

fn memory_bases(x: &FitInputs<'_>, out: &mut Vec<Basis>) {
    let w = x.workload;
    let m = &x.estimate.per_gpu;
    let layout = x.estimate.layout;
    let bits = w.weights.bits_per_weight();
    out.push(
        Basis::new("fit.per_gpu.weights_bytes", "mem-weights", m.weights_bytes.0 as f64, "B")
            .substituted(format!(
                "P = {} × {bits:.2} bit / 8 / ({} × {}) → {}",
                num(x.spec.total_params as f64, 0, ""),
                layout.tp,
                layout.pp,
                gib(m.weights_bytes)
            ))
            .input("P", x.spec.total_params as f64, "", "model")
            .input("bits per weight", bits, "bit", format!("--weights {}", w.weights.name()))
            .input("TP", f64::from(layout.tp), "", "layout")
            .input("PP", f64::from(layout.pp), "", "layout"),
    );
    if let (Some(kv), Some(per_token)) = (m.kv_cache_bytes, x.estimate.kv_cache_bytes_per_token) {
        out.push(
            Basis::new("fit.per_gpu.kv_cache_bytes", "mem-kv-cache", kv.0 as f64, "B")
                .substituted(format!(
                    "{}/token × {} × {} / {} → {}",
                    num(per_token.0 as f64 / 1024.0, 1, "KiB"),
                    num(f64::from(w.context), 0, ""),
                    w.batch,
                    layout.tp,
                    gib(kv)
                ))
                .input("KV per token", per_token.0 as f64, "B", "model architecture, --kv")
                .input("context", f64::from(w.context), "tokens", "--context")
                .input("batch", f64::from(w.batch), "", "--batch"),
        );
    }
    if let Some(a) = m.activations_bytes {
        out.push(
            Basis::new("fit.per_gpu.activations_bytes", "mem-activations", a.0 as f64, "B")
                .substituted(format!(
                    "s = {}, b = {}, TP = {}, recompute = {:?}, flash_attention = {} → {}",
                    w.context,
                    w.batch,
                    layout.tp,
                    w.recompute,
                    w.flash_attention,
                    gib(a)
                ))
                .input("s", f64::from(w.context), "tokens", "--context")
                .input("b", f64::from(w.batch), "", "--batch"),
        );
    }
    if m.gradients_bytes.is_some() || m.optimizer_bytes.is_some() {
        let states = m.gradients_bytes.map_or(0, |b| b.0) + m.optimizer_bytes.map_or(0, |b| b.0);
        out.push(
            Basis::new("fit.per_gpu.optimizer_bytes", "mem-training-states", states as f64, "B")
                .substituted(format!(
                    "{} + {} (ZeRO-{}, DP = {}) = {}",
                    gib_opt(m.gradients_bytes),
                    gib_opt(m.optimizer_bytes),
                    w.zero,
                    layout.dp,
                    gib(Bytes(states))
                ))
                .input("ZeRO", f64::from(w.zero), "", "--zero")
                .input("DP", f64::from(layout.dp), "", "layout"),
        );
    }
    out.push(
        Basis::new("fit.per_gpu.overhead_bytes", "mem-overhead", m.overhead_bytes.0 as f64, "B")
            .substituted(format!(
                "{} + {} = {}",
                gib(Bytes(crate::core::analysis::memory::CUDA_CONTEXT_BYTES)),
                gib(Bytes(m.overhead_bytes.0.saturating_sub(crate::core::analysis::memory::CUDA_CONTEXT_BYTES))),
                gib(m.overhead_bytes)
            ))
            .input(
                "CUDA context",
                crate::core::analysis::memory::CUDA_CONTEXT_BYTES as f64,
                "B",
                "pytorch/pytorch#34323",
            ),
    );
    let mut total =
        Basis::new("fit.per_gpu.total_bytes", "mem-total", m.total_bytes.0 as f64, "B").substituted(format!(
            "{} + {} + {} + {} + {} + {} = {}",
            gib(m.weights_bytes),
            gib_opt(m.kv_cache_bytes),
            gib_opt(m.activations_bytes),
            gib_opt(m.gradients_bytes),
            gib_opt(m.optimizer_bytes),
            gib(m.overhead_bytes),
            gib(m.total_bytes)
        ));
    if let Some(c) = x.check {
        total = total.input("budget", c.budget_bytes.0 as f64, "B", "GPU memory less the engine's reserve");
        out.push(total);
        if let Some((gpu, _)) = x.gpu {
            out.push(budget_basis(x.estimate, w, gpu, c.budget_bytes));
        }
        out.push(
            Basis::new("fit.memory_fraction", "mem-total", c.memory_fraction, "")
                .substituted(format!(
                    "{} / {} = {:.1} % ({})",
                    gib(m.total_bytes),
                    gib(c.budget_bytes),
                    c.memory_fraction * 100.0,
                    match c.verdict {
                        Verdict::Fits => "≤ 90 %",
                        Verdict::Tight => "90–100 %",
                        Verdict::DoesNotFit => "> 100 %",
                    }
                ))
                .input("total", m.total_bytes.0 as f64, "B", "fit.per_gpu.total_bytes")
                .input("budget", c.budget_bytes.0 as f64, "B", "GPU memory less the engine's reserve"),
        );
    } else {
        out.push(total);
    }
}

/// The memory an engine gives the workload on one GPU ([`Engine::budget_bytes`], as
/// [`crate::core::analysis::memory::check_estimate`] applies it; training gets the whole
/// capacity), with the engine's rule written out for this GPU's capacity.
fn budget_basis(e: &MemoryEstimate, w: &Workload, gpu: &Gpu, budget: Bytes) -> Basis {
    let capacity = Bytes::from_gib(gpu.memory_gib);
    let fixed = Bytes(e.per_gpu.total_bytes.0.saturating_sub(e.per_gpu.kv_cache_bytes.map_or(0, |b| b.0)));
    let rule = if w.mode.is_training() {
        format!("training: {}", gib(capacity))
    } else {
        let engine = e.engine.unwrap_or_else(|| w.engine());
        let rule = match engine {
            Engine::Vllm => format!("{VLLM_MEMORY_UTILIZATION} × {}", gib(capacity)),
            Engine::TensorRtLlm => {
                format!("{} + {TRTLLM_KV_FREE_FRACTION} × ({} − {})", gib(fixed), gib(capacity), gib(fixed))
            }
            Engine::LlamaCpp | Engine::PyTorch => gib(capacity),
        };
        format!("{engine}: {rule}")
    };
    Basis::new("fit.budget_bytes", "mem-budget", budget.0 as f64, "B")
        .substituted(format!("{rule} = {}", gib(budget)))
        .input("capacity", capacity.0 as f64, "B", gpu.id.to_string())
        .input("fixed", fixed.0 as f64, "B", "weights + activations + overhead per GPU")
}

fn speed_bases(x: &FitInputs<'_>, s: &SpeedEstimate, out: &mut Vec<Basis>) {
    let w = x.workload;
    let peak = s.peak_tflops;
    if let (Some(tps), Some((gpu, topo))) = (s.decode_tokens_per_s, x.gpu)
        && let Ok(model) = InferenceModel::new(x.spec, w, gpu, topo, x.settings)
    {
        let seq = x.spec.sequence_len(w.context);
        let step = model.decode_step(w.batch, seq as f64);
        out.push(
            Basis::new("fit.decode_tokens_per_s", "speed-decode", tps, "tokens/s")
                .substituted(format!(
                    "{} / ({:.2} ms + {:.2} ms + {:.2} ms) = {:.1} tokens/s",
                    w.batch,
                    step.memory_s * 1000.0,
                    step.compute_s * 1000.0,
                    step.communication_s * 1000.0,
                    tps
                ))
                .input("b", f64::from(w.batch), "", "--batch")
                .input("η", s.decode_efficiency, "", "engine, weight format and memory type (or --efficiency)")
                .input("bandwidth", gpu.memory_bandwidth_gbs, "GB/s", gpu.id.to_string())
                .input("peak", peak, "TFLOPS", gpu.id.to_string()),
        );
    }
    if let Some(tps) = s.prefill_tokens_per_s {
        out.push(
            Basis::new("fit.prefill_tokens_per_s", "speed-prefill", tps, "tokens/s")
                .substituted(format!(
                    "MFU = {:.0} %, peak = {peak:.0} TFLOPS, 2P = 2 × {} → {:.0} tokens/s",
                    s.prefill_mfu * 100.0,
                    num(x.spec.active_params as f64, 0, ""),
                    tps
                ))
                .input("MFU", s.prefill_mfu, "", "rigplan default by GPU class (or --mfu)")
                .input("peak", peak, "TFLOPS", "GPU datasheet, dense"),
        );
    }
    // A measured model trains in samples, with the same formula per sample.
    let train = s
        .train_tokens_per_s
        .map(|t| ("fit.train_tokens_per_s", t, "tokens/s", "FLOPs per token"))
        .or_else(|| s.train_samples_per_s.map(|t| ("fit.train_samples_per_s", t, "samples/s", "FLOPs per sample")));
    if let (Some((key, rate, unit, per)), Some(mfu)) = (train, s.achieved_mfu) {
        let gpus = x.gpu.map_or(1, |(_, t)| t.total_gpus());
        let flops = speed::train_flops_per_unit(x.spec, w);
        out.push(
            Basis::new(key, "train-throughput", rate, unit)
                .substituted(format!(
                    "{gpus} × {peak:.0} TFLOPS × {:.1} % / {} FLOP = {} {unit} (MFU_kernel = {:.0} %, goodput = {:.0} %)",
                    mfu * 100.0,
                    num(flops, 0, ""),
                    num(rate, 0, ""),
                    s.train_mfu * 100.0,
                    s.goodput.unwrap_or(1.0) * 100.0
                ))
                .input("GPUs", f64::from(gpus), "", "topology")
                .input("peak", peak, "TFLOPS", "GPU datasheet, dense")
                .input("MFU", s.train_mfu, "", "rigplan default by hidden size (or --mfu)")
                .input(per, flops, "FLOP", "6P + attention (Kaplan et al. 2020)"),
        );
    }
    // A measured model's inference: its published forward FLOPs per sample (the catalog entry)
    // at rigplan's prefill MFU (`speed-samples`, an assumption for these models).
    if let (Some(sps), Shape::Measured(m)) = (s.inference_samples_per_s, &x.spec.shape) {
        let gpus = x.gpu.map_or(1, |(_, t)| t.total_gpus());
        out.push(
            Basis::new("fit.inference_samples_per_s", "speed-samples", sps, "samples/s")
                .substituted(format!(
                    "{gpus} × {peak:.0} TFLOPS × {:.0} % / {} FLOP = {} samples/s",
                    s.prefill_mfu * 100.0,
                    num(m.forward_flops_per_sample, 0, ""),
                    num(sps, 1, "")
                ))
                .input("GPUs", f64::from(gpus), "", "topology")
                .input("peak", peak, "TFLOPS", "GPU datasheet, dense")
                .input("MFU", s.prefill_mfu, "", "rigplan default by GPU class (or --mfu)")
                .input("FLOPs per sample", m.forward_flops_per_sample, "FLOP", "the model's catalog entry"),
        );
    }
    if let (Some(hours), Some(tps)) = (s.train_hours, s.train_tokens_per_s) {
        out.push(
            Basis::new("fit.train_hours", "train-time", hours, "h")
                .substituted(format!(
                    "{} / ({} tokens/s × 3,600) = {} h; {} GPU-h",
                    num(hours * tps * 3600.0, 0, ""),
                    num(tps, 0, ""),
                    num(hours, 1, ""),
                    s.gpu_hours.map_or_else(String::new, |g| num(g, 0, ""))
                ))
                .input("tokens/s", tps, "tokens/s", "fit.train_tokens_per_s"),
        );
    }
    if let (Some(hours), Some((gpu, topo)), Some(site)) = (s.gpu_hours, x.gpu, x.site) {
        let gpus = topo.total_gpus();
        let mwh = serving::train_energy_mwh(hours, gpu, site, gpus);
        let other = if gpus > 0 { site.other_watts / f64::from(gpus) } else { 0.0 };
        out.push(
            Basis::new("fit.train_energy_mwh", "train-energy", mwh, "MWh")
                .substituted(format!(
                    "{} GPU-h × ({:.0} W + {other:.0} W) × {} = {mwh:.2} MWh",
                    num(hours, 0, ""),
                    gpu.tdp_watts,
                    site.pue
                ))
                .input("GPU-hours", hours, "h", "fit.gpu_hours")
                .input("TDP", gpu.tdp_watts, "W", gpu.id.to_string())
                .input("rest of node per GPU", other, "W", "power analysis (with --build)")
                .input("PUE", site.pue, "", "site.pue"),
        );
    }
    if let (Some(ipm), Some(secs)) = (s.images_per_minute, s.seconds_per_image) {
        let gpus = x.gpu.map_or(1, |(_, t)| t.total_gpus());
        out.push(
            Basis::new("fit.images_per_minute", "speed-images", ipm, "images/min")
                .substituted(format!("60 × {gpus} / {secs:.2} s = {ipm:.1} images/min"))
                .input("steps", f64::from(s.denoising_steps.unwrap_or(0)), "", "rigplan default")
                .input("peak", peak, "TFLOPS", "GPU datasheet, dense"),
        );
    }
}

fn serving_bases(s: &ServingEstimate, out: &mut Vec<Basis>) {
    let max_context = s.max_context_tokens.map_or_else(|| "—".to_owned(), |c| num(f64::from(c), 0, "tokens"));
    let per_token = if s.kv_capacity_tokens > 0 {
        s.kv_budget_bytes.0 as f64 / s.kv_capacity_tokens as f64 * f64::from(s.gpus_per_replica)
    } else {
        0.0
    };
    out.push(
        Basis::new("fit.serving.kv_budget_bytes", "serving-kv-capacity", s.kv_budget_bytes.0 as f64, "B")
            .substituted(format!(
                "{} − fixed = {} per GPU; {} / {} per token = {} tokens per replica (longest context {max_context})",
                gib(s.budget_bytes),
                gib(s.kv_budget_bytes),
                gib(Bytes(s.kv_budget_bytes.0.saturating_mul(u64::from(s.gpus_per_replica)))),
                num(per_token / 1024.0, 1, "KiB"),
                num(s.kv_capacity_tokens as f64, 0, "")
            ))
            .input("budget", s.budget_bytes.0 as f64, "B", "fit.budget_bytes")
            .input("GPUs per replica", f64::from(s.gpus_per_replica), "", "TP × PP"),
    );
    out.push(
        Basis::new(
            "fit.serving.max_concurrency_per_replica",
            "serving-concurrency",
            f64::from(s.max_concurrency_per_replica),
            "",
        )
        .substituted(format!(
            "floor({} tokens ({}) / {} tokens) = {}",
            num(s.kv_capacity_tokens as f64, 0, ""),
            gib(s.kv_budget_bytes),
            num(f64::from(s.context_tokens), 0, ""),
            s.max_concurrency_per_replica
        ))
        .input("KV budget", s.kv_budget_bytes.0 as f64, "B", "budget − weights − activations − overhead")
        .input("context", f64::from(s.context_tokens), "tokens", "--context"),
    );
    out.push(
        Basis::new("fit.serving.ttft_s", "speed-ttft", s.ttft_s, "s")
            .substituted(format!("prefill({} tokens) = {:.3} s", s.prompt_tokens, s.ttft_s))
            .input("prompt", f64::from(s.prompt_tokens), "tokens", "--prompt (default half the context)"),
    );
    if let Some(l) = &s.at_capacity {
        out.push(
            Basis::new(
                "fit.serving.at_capacity.aggregate_tokens_per_s",
                "serving-throughput",
                l.aggregate_tokens_per_s,
                "tokens/s",
            )
            .substituted(format!(
                "{} × {} / {:.2} ms = {:.0} tokens/s",
                s.replicas,
                l.batch_per_replica,
                l.step.total_s() * 1000.0,
                l.aggregate_tokens_per_s
            ))
            .input("replicas", f64::from(s.replicas), "", "GPUs / (TP × PP)")
            .input("B", f64::from(l.batch_per_replica), "", "fit.serving.max_concurrency_per_replica"),
        );
    }
    let e = &s.single.energy;
    out.push(
        Basis::new(
            "fit.serving.single.energy.kwh_per_million_tokens",
            "serving-energy",
            e.kwh_per_million_tokens,
            "kWh",
        )
        .substituted(format!(
            "({:.0} W × {} + {:.0} W) × {} / {:.1} tokens/s = {:.1} J/token → {:.2} kWh/1M tokens",
            e.gpu_watts,
            e.gpus,
            e.other_watts,
            e.pue,
            s.single.aggregate_tokens_per_s,
            e.joules_per_token,
            e.kwh_per_million_tokens
        ))
        .input("GPU W", e.gpu_watts, "W", "board power at the decode step's load")
        .input("other W", e.other_watts, "W", "the rest of the node (power analysis)")
        .input("PUE", e.pue, "", "site.pue"),
    );
    if let (Some(target), Some(users)) = (s.tokens_per_user_target, s.users_at_target) {
        let batch = users / s.replicas.max(1);
        out.push(
            Basis::new("fit.serving.users_at_target", "serving-users-at-target", f64::from(users), "")
                .substituted(format!(
                    "{} × {batch} = {users} (1 / step time({batch}) ≥ {} tokens/s, B ≤ {})",
                    s.replicas,
                    num(target, 1, ""),
                    s.max_concurrency_per_replica
                ))
                .input("target", target, "tokens/s", "--tokens-per-user")
                .input("replicas", f64::from(s.replicas), "", "GPUs / (TP × PP)")
                .input(
                    "max concurrency",
                    f64::from(s.max_concurrency_per_replica),
                    "",
                    "fit.serving.max_concurrency_per_replica",
                ),
        );
    }
}
