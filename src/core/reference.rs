//! The published measurements rigplan's estimates are held against: decode and prefill speeds
//! of llama.cpp, TensorRT-LLM, FasterTransformer and LMDeploy on named GPUs, serving
//! throughput at a batch, training throughput, MFU and GPU-hours of published runs, checkpoint
//! sizes, and the input power of vendor systems.
//!
//! Theory of operation: `catalog/reference/measurements.ron` lists one [`Measurement`] per
//! published figure, with the model, GPUs, engine and setting it was measured at, the figure,
//! the tolerance rigplan claims for it and the citation. [`evaluate`] recomputes the figure with
//! the same analyses `rigplan fit` and `rigplan report` use, so the set is a regression test of
//! the estimates (`tests/core/reference.rs`) and the data of an accuracy report. The file is
//! embedded ([`EMBEDDED_REFERENCE`]); [`load`] parses it with positions in its errors.

use crate::core::analysis::memory::{self, Engine, KvType, Mode, ModelSpec, Recompute, WeightType, Workload};
use crate::core::analysis::serving;
use crate::core::analysis::speed::{self, InferenceModel, SpeedSettings, Topology};
use crate::core::build::{Build, Location};
use crate::core::catalog::{Catalog, PartId, Transformer};
use crate::core::resolve::Resolved;
use serde::{Deserialize, Serialize};

/// The reference set shipped with rigplan.
pub const EMBEDDED_REFERENCE: &str = include_str!("../../catalog/reference/measurements.ron");

/// What a measurement is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Class {
    /// Sizes of model files and memory in use.
    Memory,
    /// Tokens per second of one sequence (batch 1).
    Decode,
    /// Prompt processing and time to first token.
    Prefill,
    /// Throughput of a batch of concurrent sequences.
    Serving,
    /// Training throughput, MFU and GPU-hours.
    Training,
    /// Input power of systems.
    Power,
}

impl Class {
    pub const ALL: [Self; 6] = [Self::Memory, Self::Decode, Self::Prefill, Self::Serving, Self::Training, Self::Power];
}

/// The figure a measurement gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Metric {
    /// Generated tokens per second over the batch.
    DecodeTokensPerS,
    /// Milliseconds between two tokens of one sequence.
    MsPerToken,
    /// Milliseconds to the first token of one request with the run's prompt.
    TtftMs,
    /// Prompt tokens per second of one sequence.
    PrefillTokensPerS,
    /// Training tokens per second per GPU.
    TrainTokensPerSPerGpu,
    /// Model FLOPs utilization of training, end to end (fraction).
    TrainMfu,
    /// GPU-hours to train the run's tokens.
    GpuHours,
    /// Bytes of the weights in GiB (a checkpoint file's size).
    WeightsGib,
    /// Wall (input) power of the node at full load, watts.
    MaxWallWatts,
    /// Energy of a training run at the GPUs' board power, MWh.
    TrainEnergyMwh,
    /// Board power of each GPU while decoding the run's batch, watts.
    DecodeGpuWatts,
}

impl Metric {
    /// The unit the figure is in.
    #[must_use]
    pub fn unit(self) -> &'static str {
        match self {
            Self::DecodeTokensPerS | Self::PrefillTokensPerS => "tokens/s",
            Self::MsPerToken | Self::TtftMs => "ms",
            Self::TrainTokensPerSPerGpu => "tokens/s/GPU",
            Self::TrainMfu => "fraction",
            Self::GpuHours => "GPU-hours",
            Self::WeightsGib => "GiB",
            Self::MaxWallWatts | Self::DecodeGpuWatts => "W",
            Self::TrainEnergyMwh => "MWh",
        }
    }
}

fn one() -> u32 {
    1
}

/// A model running on GPUs: what `rigplan fit` takes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// Catalog model id (without `model/`), or a name when `architecture` describes it.
    pub model: String,
    /// A model that is not in the catalog, by its published configuration.
    #[serde(default)]
    pub architecture: Option<Transformer>,
    /// Catalog GPU id (with `gpu/`).
    pub gpu: String,
    #[serde(default = "one")]
    pub gpus_per_node: u32,
    #[serde(default = "one")]
    pub nodes: u32,
    /// Network bandwidth per node, Gb/s (multi-node runs).
    #[serde(default)]
    pub nic_gbps_per_node: f64,
    /// `inference`, `train`, `lora` or `qlora`.
    pub mode: String,
    /// Weight type as `rigplan fit --weights` spells it.
    pub weights: String,
    #[serde(default)]
    pub kv: Option<String>,
    /// Engine id (`llama.cpp`, `vllm`, `tensorrt-llm`, `pytorch`); default for the weights.
    #[serde(default)]
    pub engine: Option<String>,
    #[serde(default = "one")]
    pub tp: u32,
    #[serde(default = "one")]
    pub pp: u32,
    #[serde(default = "one")]
    pub batch: u32,
    /// Tokens in each sequence's context (decode) or per training sequence.
    pub context: u32,
    /// Prompt tokens (TTFT and prefill figures).
    #[serde(default)]
    pub prompt: Option<u32>,
    #[serde(default)]
    pub recompute: Option<String>,
    #[serde(default)]
    pub zero: u8,
    /// Tokens trained on (GPU-hours).
    #[serde(default)]
    pub train_tokens: Option<f64>,
    /// Tokens per optimizer step.
    #[serde(default)]
    pub global_batch_tokens: Option<f64>,
}

/// What a measurement was taken on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Setup {
    Run(Box<Run>),
    /// One node built from catalog parts `(part id, quantity)`.
    Node(Vec<(String, u32)>),
}

/// One published figure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Measurement {
    /// Stable id, unique in the set.
    pub id: String,
    pub class: Class,
    /// The model, GPUs, engine and setting, in a phrase.
    pub what: String,
    pub setup: Setup,
    pub metric: Metric,
    /// The published figure, in [`Metric::unit`].
    pub measured: f64,
    /// Largest relative error rigplan claims for this estimate.
    pub tolerance: f64,
    /// Where the figure is published (document, table, date), and any conversion.
    pub source: String,
}

/// A measurement recomputed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    pub id: String,
    pub class: Class,
    pub measured: f64,
    pub estimated: f64,
    /// `(estimated − measured) / measured`.
    pub error: f64,
    pub tolerance: f64,
}

impl Outcome {
    /// True when the estimate is within the claimed tolerance.
    #[must_use]
    pub fn holds(&self) -> bool {
        self.error.abs() <= self.tolerance
    }
}

/// Parses a reference set.
///
/// # Errors
/// RON syntax or schema errors, with `line:col`.
pub fn load(text: &str) -> Result<Vec<Measurement>, String> {
    crate::core::catalog::ron_options()
        .from_str(text)
        .map_err(|e: ron::error::SpannedError| format!("{}:{}: {}", e.span.start.line, e.span.start.col, e.code))
}

/// The embedded reference set.
///
/// # Errors
/// A malformed embedded file (a build error, caught by the tests).
pub fn embedded() -> Result<Vec<Measurement>, String> {
    load(EMBEDDED_REFERENCE)
}

fn parse<T>(what: &str, value: &str, f: impl Fn(&str) -> Option<T>) -> Result<T, String> {
    f(value).ok_or_else(|| format!("unknown {what} `{value}`"))
}

fn recompute(value: Option<&str>) -> Result<Recompute, String> {
    match value {
        None | Some("none") => Ok(Recompute::None),
        Some("selective") => Ok(Recompute::Selective),
        Some("full") => Ok(Recompute::Full),
        Some(other) => Err(format!("unknown recompute `{other}`")),
    }
}

/// The workload a run describes.
fn workload(r: &Run) -> Result<Workload, String> {
    let mode = parse("mode", &r.mode, Mode::from_id)?;
    let mut w = Workload::defaults(mode);
    w.weights = parse("weights", &r.weights, WeightType::from_name)?;
    if let Some(kv) = &r.kv {
        w.kv = parse("kv", kv, KvType::from_name)?;
    }
    w.engine = r.engine.as_deref().map(|e| parse("engine", e, Engine::from_id)).transpose()?;
    w.tp = r.tp;
    w.pp = r.pp;
    w.batch = r.batch;
    w.context = r.context;
    w.recompute = recompute(r.recompute.as_deref())?;
    w.zero = r.zero;
    Ok(w)
}

fn run_estimate(catalog: &Catalog, r: &Run, metric: Metric) -> Result<f64, String> {
    let spec = match (&r.architecture, catalog.models.get(&r.model)) {
        (Some(t), _) => ModelSpec::custom(t.total_params(), *t),
        (None, Some(model)) => ModelSpec::from_model(model),
        (None, None) => return Err(format!("unknown model `{}`", r.model)),
    };
    let w = workload(r)?;
    if metric == Metric::WeightsGib {
        return Ok(memory::weight_bytes(&spec, w.weights) / f64::from(1u32 << 30));
    }
    let Some(gpu) = catalog.gpu(&PartId::from(r.gpu.as_str())) else { return Err(format!("unknown GPU `{}`", r.gpu)) };
    let topo = Topology::new(gpu, r.gpus_per_node, r.nodes, false, r.nic_gbps_per_node);
    memory::estimate(&spec, &w, topo.total_gpus()).map_err(|e| e.to_string())?;
    let settings = SpeedSettings {
        tokens: r.train_tokens,
        global_batch_tokens: r.global_batch_tokens,
        ..SpeedSettings::default()
    };
    let missing = || format!("{metric:?} does not apply to this run");
    if matches!(metric, Metric::TtftMs | Metric::DecodeGpuWatts) {
        let model = InferenceModel::new(&spec, &w, gpu, &topo, &settings).map_err(|n| n.to_string())?;
        return Ok(if metric == Metric::TtftMs {
            model.ttft_s(u64::from(r.prompt.unwrap_or(r.context))) * 1000.0
        } else {
            serving::gpu_watts(gpu, &model.decode_step(w.batch, f64::from(w.context)))
        });
    }
    let s = speed::estimate_speed(&spec, &w, gpu, &topo, &settings);
    let gpus = f64::from(topo.total_gpus());
    match metric {
        Metric::DecodeTokensPerS => s.decode_tokens_per_s.ok_or_else(missing),
        Metric::MsPerToken => s.decode_tokens_per_s.map(|t| 1000.0 * f64::from(w.batch) / t).ok_or_else(missing),
        Metric::PrefillTokensPerS => s.prefill_tokens_per_s.ok_or_else(missing),
        Metric::TrainTokensPerSPerGpu => s.train_tokens_per_s.map(|t| t / gpus).ok_or_else(missing),
        Metric::TrainMfu => s.achieved_mfu.ok_or_else(missing),
        Metric::GpuHours => s.gpu_hours.ok_or_else(missing),
        Metric::TrainEnergyMwh => s
            .gpu_hours
            .map(|h| serving::train_energy_mwh(h, gpu, serving::Site::default(), topo.total_gpus()))
            .ok_or_else(missing),
        Metric::TtftMs | Metric::WeightsGib | Metric::MaxWallWatts | Metric::DecodeGpuWatts => Err(missing()),
    }
}

fn node_estimate(catalog: &Catalog, parts: &[(String, u32)], metric: Metric) -> Result<f64, String> {
    if metric != Metric::MaxWallWatts {
        return Err(format!("{metric:?} does not apply to a node"));
    }
    let mut build = Build::new("reference node");
    for (part, quantity) in parts {
        build
            .add_part(Location::Node(0), &PartId::from(part.as_str()), *quantity)
            .map_err(|e| format!("{part}: {e}"))?;
    }
    let resolved = Resolved::new(catalog, &build);
    let (report, _) = crate::core::analysis::power::analyze(&resolved);
    report.nodes.first().map(|n| n.wall_watts).ok_or_else(|| "the node has no power figures".to_owned())
}

/// Recomputes one measurement with rigplan's analyses.
///
/// # Errors
/// A measurement whose ids or settings the catalog or the analyses do not accept.
pub fn evaluate(m: &Measurement, catalog: &Catalog) -> Result<Outcome, String> {
    let estimated = match &m.setup {
        Setup::Run(r) => run_estimate(catalog, r, m.metric),
        Setup::Node(parts) => node_estimate(catalog, parts, m.metric),
    }
    .map_err(|e| format!("{}: {e}", m.id))?;
    let error = if m.measured == 0.0 { f64::INFINITY } else { (estimated - m.measured) / m.measured };
    Ok(Outcome { id: m.id.clone(), class: m.class, measured: m.measured, estimated, error, tolerance: m.tolerance })
}
