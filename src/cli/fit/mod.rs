//! `rigplan fit`: memory per GPU, fit verdict and speed of one model and workload, and the
//! short fit section of `rigplan report`.
//!
//! The subcommand turns its flags into a [`ModelSpec`], a [`Workload`] and optionally a GPU
//! topology (from `--gpu`/`--gpus` or a build file), calls the core
//! ([`memory::estimate`], [`memory::check_estimate`], [`speed::estimate_speed`], [`fit::suggest`])
//! and prints text or, with `--json`, one object whose field names are a stable interface
//! (`src/core/analysis/report-schema.md`, "fit --json"). Exit codes: 0 computed (fits, tight, or no GPU
//! given), 1 does not fit, 2 bad input.

use super::texts::{CliTexts, GPU_ASSUMES_PCIE};
use super::{Exit, load_build};
use crate::core::analysis::basis::{self, Basis};
use crate::core::analysis::fit::{self, Suggestion};
use crate::core::analysis::memory::{self, Engine, Layout, Mode, ModelSpec, PerGpuMemory, Verdict, Workload};
use crate::core::analysis::serving::{self, ServingEstimate, ServingRequest, Site};
use crate::core::analysis::speed::{self, SpeedSettings, Topology};
use crate::core::analysis::tco::MAX_RUN_TOKENS;
use crate::core::catalog::hf_config;
use crate::core::catalog::{Catalog, Checkpoint, CloudSet, Gpu, ModelSet, PartId, Subset};
use crate::core::i18n::{Lang, Sentence};
use crate::core::resolve::Resolved;
use crate::core::units::{Bytes, format_thousands};
use anyhow::{Context as _, bail};
use serde::Serialize;
use std::io::Write;

mod args;
mod text;

pub use args::{ArchArgs, FitArgs, MAX_TOKENS_PER_USER, parse_count_within};
pub use text::write_fit_section;
use text::write_fit_text;

/// The model the flags describe.
struct FitModel {
    spec: ModelSpec,
    /// The catalog id, for a catalog model.
    id: Option<String>,
    name: String,
    max_context: Option<u32>,
    checkpoint: Checkpoint,
    /// What reading a config.json assumed.
    notes: Vec<Sentence>,
}

/// The model the flags describe, with its catalog id and name if it is a catalog model.
fn model_spec(catalog: &Catalog, args: &FitArgs) -> anyhow::Result<FitModel> {
    if let Some(path) = &args.config {
        let imported = hf_config::read_config_file(path)?;
        let model = &imported.model;
        return Ok(FitModel {
            spec: ModelSpec::from_model(model),
            id: None,
            name: model.name.clone(),
            max_context: model.transformer().map(|t| t.max_context),
            checkpoint: model.checkpoint,
            notes: imported.notes.clone(),
        });
    }
    if let Some(id) = &args.model {
        let Some(model) = catalog.models.get(id) else {
            let known: Vec<&str> = catalog.models.iter().map(|m| m.id.as_str()).collect();
            bail!("--model `{id}` is not in the model catalog; known models: {}", known.join(", "));
        };
        return Ok(FitModel {
            spec: ModelSpec::from_model(model),
            id: Some(model.id.to_string()),
            name: model.name.clone(),
            max_context: model.transformer().map(|t| t.max_context),
            checkpoint: model.checkpoint,
            notes: Vec::new(),
        });
    }
    let Some(params) = args.arch.params()? else { bail!("give --model ID, --config FILE or --params N") };
    let custom = |spec, name| FitModel {
        spec,
        id: None,
        name,
        max_context: None,
        checkpoint: Checkpoint::default(),
        notes: Vec::new(),
    };
    let Some(arch) = args.arch.arch()? else {
        let name = format!("{} parameters", format_thousands(params as f64, 0));
        return Ok(custom(ModelSpec::params_only(params), name));
    };
    // A custom architecture states no maximum; the requested context is its own limit.
    let context = args.context.unwrap_or_else(|| Workload::defaults(args.mode.into()).context);
    let spec = arch.spec(context).map_err(|e| anyhow::anyhow!(e))?;
    Ok(custom(spec, arch.name()))
}

/// What a `fit` without `--build` reads of the embedded catalog: its `--model` (none with
/// `--config` or `--params`) and its `--gpu`. None with `--build`: the build's parts are
/// read with the whole catalog.
#[must_use]
pub fn catalog_subset(args: &FitArgs) -> Option<Subset> {
    if args.build.is_some() {
        return None;
    }
    let gpu = args.gpu.as_deref().map(|id| PartId::new(full_gpu_id(id)));
    let models = if args.config.is_some() { Vec::new() } else { args.model.iter().cloned().collect() };
    Some(Subset { parts: gpu.into_iter().collect(), models: ModelSet::Only(models), clouds: CloudSet::None })
}

/// A `--gpu` id as the catalog writes it: with the `gpu/` prefix, which users may leave out.
fn full_gpu_id(id: &str) -> String {
    if id.starts_with("gpu/") { id.to_owned() } else { format!("gpu/{id}") }
}

/// The GPUs a `fit` runs on.
struct Hardware<'a> {
    gpu: &'a Gpu,
    topology: Topology,
    /// GPUs of the build's node group (None with `--gpu`, where any count can be asked for).
    build_gpus: Option<u32>,
    /// The rest of the nodes used and the site's PUE (from a build).
    site: Site,
}

/// The GPU, its topology, and where it sits.
fn hardware<'a>(catalog: &'a Catalog, args: &FitArgs) -> anyhow::Result<Option<Hardware<'a>>> {
    if let Some(id) = &args.gpu {
        let full = full_gpu_id(id);
        let Some(gpu) = catalog.gpu(&full.as_str().into()) else {
            let known: Vec<&str> = catalog.gpus.iter().map(|g| g.id.as_str()).collect();
            bail!("--gpu `{id}` is not in the catalog; known GPUs: {}", known.join(", "));
        };
        let n = args.gpus.unwrap_or(1);
        let topology = Topology::new(gpu, n, 1, false, 0.0);
        return Ok(Some(Hardware { gpu, topology, build_gpus: None, site: Site::default() }));
    }
    let Some(path) = &args.build else {
        if args.gpus.is_some() {
            bail!("--gpus needs --gpu ID or --build FILE");
        }
        return Ok(None);
    };
    let build = load_build(path)?;
    let resolved = Resolved::new(catalog, &build);
    let (power, _) = crate::core::analysis::power::analyze(&resolved);
    for node in &resolved.nodes {
        let Some(found) = fit::node_gpus(node) else { continue };
        // The catalog outlives the resolved build; look the GPU up there for the lifetime.
        let Some(gpu) = catalog.gpu(&found.gpu.id) else { continue };
        let mut topology = found.topology;
        let total = topology.gpus_per_node.saturating_mul(topology.nodes);
        if let Some(n) = args.gpus {
            if n == 0 || n > total {
                bail!("--gpus {n}: the build's node group `{}` has {total} GPU(s)", node.name);
            }
            // The first n GPUs, filling nodes in order; the links stay the node's.
            topology.gpus_per_node = topology.gpus_per_node.min(n);
            topology.nodes = n.div_ceil(topology.gpus_per_node.max(1));
            topology.fast_group = topology.fast_group.min(topology.gpus_per_node);
            if n < total {
                topology.description = Sentence::new(crate::text!(
                    speed::TOPO_PARTIAL,
                    topology = topology.description.text(),
                    n = n.to_string(),
                    total = total.to_string()
                ));
            }
        }
        let site = Site::of_node(&power, node.index, topology.nodes, build.site.pue);
        return Ok(Some(Hardware { gpu, topology, build_gpus: Some(total), site }));
    }
    bail!("the build `{}` has no GPU the catalog knows", path.display())
}

/// The workload the flags describe.
fn workload(args: &FitArgs, max_context: Option<u32>, checkpoint: Checkpoint) -> Workload {
    let mode = Mode::from(args.mode);
    let mut w = Workload::defaults(mode);
    if let Some(t) = args.weights {
        w.weights = t.resolve(checkpoint);
    }
    w.kv = args.kv.into();
    w.batch = args.batch;
    w.context = args.context.unwrap_or_else(|| max_context.map_or(w.context, |m| w.context.min(m)));
    w.optimizer = args.optimizer.into();
    w.grad_dtype = args.grad_dtype.into();
    w.zero = args.zero;
    w.offload = args.offload.into();
    w.tp = args.tp;
    w.pp = args.pp;
    w.recompute = args.recompute.into();
    w.flash_attention = args.flash_attention.into();
    if let Some(r) = args.lora_rank {
        w.lora_rank = r;
    }
    w.lora_targets = args.lora_targets.into();
    w.engine = args.engine.map(Engine::from);
    w
}

/// `rigplan fit --json`: the stable output object.
#[derive(Serialize)]
struct FitOutput<'a> {
    model: Option<String>,
    model_name: String,
    params: u64,
    active_params: u64,
    /// How the model's published weights are stored (what `--weights native` uses).
    checkpoint: Checkpoint,
    mode: Mode,
    workload: Workload,
    /// The inference engine the figures assume (null for training).
    engine: Option<Engine>,
    gpu: Option<&'a str>,
    gpu_name: Option<&'a str>,
    gpus: u32,
    gpus_per_node: Option<u32>,
    nodes: Option<u32>,
    interconnect: Option<String>,
    layout: Layout,
    per_gpu: PerGpuMemory,
    /// Host memory per node for offloaded states.
    host_bytes: Bytes,
    gpu_memory_bytes: Option<Bytes>,
    /// What the workload may use of each GPU (the engine's budget for inference).
    budget_bytes: Option<Bytes>,
    fits: Option<bool>,
    verdict: Option<Verdict>,
    memory_fraction: Option<f64>,
    kv_cache_bytes_per_token: Option<Bytes>,
    trainable_params: Option<u64>,
    decode_tokens_per_s: Option<f64>,
    prefill_tokens_per_s: Option<f64>,
    samples_per_s: Option<f64>,
    images_per_minute: Option<f64>,
    seconds_per_image: Option<f64>,
    denoising_steps: Option<u32>,
    train_flops: Option<f64>,
    train_tokens_per_s: Option<f64>,
    train_samples_per_s: Option<f64>,
    train_hours: Option<f64>,
    gpu_hours: Option<f64>,
    achieved_mfu: Option<f64>,
    /// Energy of the training run, MWh (GPU board power × GPU-hours, plus the rest of the
    /// build's nodes and its PUE).
    train_energy_mwh: Option<f64>,
    decode_efficiency: Option<f64>,
    mfu: Option<f64>,
    serving: Option<ServingEstimate>,
    #[serde(skip)]
    serving_site: Option<Site>,
    smallest_change: Option<Suggestion>,
    suggestions: Vec<Suggestion>,
    notes: Vec<String>,
    /// Where each memory, speed and serving figure comes from (report-schema.md, `basis[]`).
    basis: Vec<Basis>,
}

/// Runs `rigplan fit`.
///
/// # Errors
/// Unknown model or GPU ids, inconsistent flags, an unreadable build file, or a workload that
/// cannot be evaluated (each message says which flag).
pub fn run_fit(out: &mut dyn Write, catalog: &Catalog, args: &FitArgs) -> anyhow::Result<Exit> {
    let FitModel { spec, id: model_id, name: model_name, max_context, checkpoint, notes: import_notes } =
        model_spec(catalog, args)?;
    let hw = hardware(catalog, args)?;
    let w = workload(args, max_context, checkpoint);
    for (flag, value) in [("--mfu", args.mfu), ("--efficiency", args.efficiency)] {
        if let Some(v) = value
            && !(v > 0.0 && v <= 1.0)
        {
            bail!("{flag} {v} must be a fraction in (0, 1]");
        }
    }
    if let Some(x) = args.tokens_per_user
        && !(x.is_finite() && x > 0.0 && x <= MAX_TOKENS_PER_USER)
    {
        bail!("--tokens-per-user {x} must be a number of tokens per second in (0, 10,000]");
    }
    let serving_flags = args.users.is_some() || args.tokens_per_user.is_some() || args.prompt.is_some();
    if serving_flags && w.mode.is_training() {
        bail!("--users, --tokens-per-user and --prompt describe serving; use them with --mode inference");
    }
    let tokens =
        args.tokens.as_deref().map(|t| parse_count_within(t, 1.0, MAX_RUN_TOKENS)).transpose().context("--tokens")?;
    let gpus = hw.as_ref().map_or_else(|| w.tp.saturating_mul(w.pp), |h| h.topology.total_gpus());
    let estimate = memory::estimate(&spec, &w, gpus)?;
    let check = hw.as_ref().map(|h| memory::check_estimate_on(&estimate, &w, h.gpu));
    let fits = check.is_none_or(|c| c.verdict.fits());
    let settings =
        SpeedSettings { decode_efficiency: args.efficiency, mfu: args.mfu, tokens, ..SpeedSettings::default() };
    // A configuration that does not fit runs at no speed: no figures for it.
    let speed = hw.as_ref().filter(|_| fits).map(|h| speed::estimate_speed(&spec, &w, h.gpu, &h.topology, &settings));
    let lang = args.lang.unwrap_or_else(Lang::from_env);
    let request =
        ServingRequest { prompt_tokens: args.prompt, users: args.users, tokens_per_user: args.tokens_per_user };
    let serving = match &hw {
        Some(h) if fits && !w.mode.is_training() && spec.is_decoder() => {
            Some(serving::estimate(&spec, &w, h.gpu, &h.topology, &request, h.site).map_err(|e| anyhow::anyhow!(e))?)
        }
        _ => None,
    };
    let mut suggestions = match (&hw, check) {
        (Some(h), Some(c)) if c.verdict == Verdict::DoesNotFit => fit::suggest(&spec, &w, gpus, h.gpu, h.build_gpus),
        _ => Vec::new(),
    };
    for s in &mut suggestions {
        s.localize(lang);
    }
    let mut notes: Vec<String> = import_notes.iter().map(|n| n.render(lang)).collect();
    notes.extend(estimate.notes.iter().map(|n| n.render(lang)));
    if let Some(s) = &speed {
        notes.extend(s.notes.iter().map(|n| n.render(lang)));
    }
    if let Some(h) = &hw
        && args.gpu.is_some()
        && gpus > 1
        && matches!(h.gpu.interconnect, crate::core::catalog::Interconnect::NvLinkBridge { .. })
    {
        notes.push(CliTexts::of(lang).say(&GPU_ASSUMES_PCIE, &[("name", &h.gpu.name)]));
    }
    let train_flops = match (&speed, tokens) {
        (Some(s), _) if s.train_flops.is_some() => s.train_flops,
        (_, Some(t)) if w.mode.is_training() => Some(speed::train_flops(&spec, &w, t)),
        _ => None,
    };
    let train_energy_mwh = match (&hw, speed.as_ref().and_then(|s| s.gpu_hours)) {
        (Some(h), Some(hours)) => Some(serving::train_energy_mwh(hours, h.gpu, h.site, gpus)),
        _ => None,
    };
    // The bases only when printed: the JSON carries them, text prints them with --explain.
    let mut basis = if args.json || args.explain {
        basis::fit::of_fit(&basis::fit::FitInputs {
            spec: &spec,
            workload: &w,
            gpu: hw.as_ref().map(|h| (h.gpu, &h.topology)),
            settings: &settings,
            estimate: &estimate,
            check: check.as_ref(),
            speed: speed.as_ref(),
            serving: serving.as_ref(),
            site: hw.as_ref().map(|h| h.site),
        })
    } else {
        Vec::new()
    };
    basis::localize_all(&mut basis, lang);
    let gpus_per_node = hw.as_ref().map(|h| h.topology.gpus_per_node);
    let output = FitOutput {
        model: model_id,
        model_name,
        params: spec.total_params,
        active_params: spec.active_params,
        checkpoint,
        mode: w.mode,
        workload: w,
        engine: estimate.engine,
        gpu: hw.as_ref().map(|h| h.gpu.id.as_str()),
        gpu_name: hw.as_ref().map(|h| h.gpu.name.as_str()),
        gpus,
        gpus_per_node,
        nodes: hw.as_ref().map(|h| h.topology.nodes),
        interconnect: hw.as_ref().map(|h| h.topology.description.render(lang)),
        layout: estimate.layout,
        per_gpu: estimate.per_gpu.clone(),
        host_bytes: Bytes(estimate.host_bytes_per_gpu.0.saturating_mul(u64::from(gpus_per_node.unwrap_or(gpus)))),
        gpu_memory_bytes: check.map(|c| c.gpu_memory_bytes),
        budget_bytes: check.map(|c| c.budget_bytes),
        fits: check.map(|c| c.verdict.fits()),
        verdict: check.map(|c| c.verdict),
        memory_fraction: check.map(|c| c.memory_fraction),
        kv_cache_bytes_per_token: estimate.kv_cache_bytes_per_token,
        trainable_params: estimate.trainable_params,
        decode_tokens_per_s: speed.as_ref().and_then(|s| s.decode_tokens_per_s),
        prefill_tokens_per_s: speed.as_ref().and_then(|s| s.prefill_tokens_per_s),
        samples_per_s: speed.as_ref().and_then(|s| s.inference_samples_per_s),
        images_per_minute: speed.as_ref().and_then(|s| s.images_per_minute),
        seconds_per_image: speed.as_ref().and_then(|s| s.seconds_per_image),
        denoising_steps: speed.as_ref().and_then(|s| s.denoising_steps),
        train_flops,
        train_tokens_per_s: speed.as_ref().and_then(|s| s.train_tokens_per_s),
        train_samples_per_s: speed.as_ref().and_then(|s| s.train_samples_per_s),
        train_hours: speed.as_ref().and_then(|s| s.train_hours),
        gpu_hours: speed.as_ref().and_then(|s| s.gpu_hours),
        achieved_mfu: speed.as_ref().and_then(|s| s.achieved_mfu),
        train_energy_mwh,
        decode_efficiency: speed.as_ref().filter(|_| !w.mode.is_training()).map(|s| s.decode_efficiency),
        mfu: speed.as_ref().map(|s| if w.mode.is_training() { s.train_mfu } else { s.prefill_mfu }),
        serving,
        serving_site: hw.as_ref().map(|h| h.site),
        smallest_change: suggestions.first().cloned(),
        suggestions,
        notes,
        basis,
    };
    if args.json {
        serde_json::to_writer_pretty(&mut *out, &output)?;
        writeln!(out)?;
    } else {
        write_fit_text(out, &output, lang)?;
        if args.explain {
            writeln!(out)?;
            super::explain::write_bases(out, &output.basis, lang)?;
        }
    }
    Ok(if output.fits == Some(false) { Exit::Findings } else { Exit::Ok })
}

#[cfg(test)]
mod tests {
    use super::args::parse_count;

    #[test]
    fn counts_with_suffixes() {
        let cases = [
            ("7e9", 7.0e9),
            ("8.03B", 8.03e9),
            ("350M", 3.5e8),
            ("2T", 2.0e12),
            ("125k", 1.25e5),
            ("1_000_000", 1.0e6),
        ];
        for (text, value) in cases {
            let parsed = parse_count(text).expect("parses");
            assert!((parsed - value).abs() <= value * 1e-12, "{text}");
        }
        for bad in ["", "B", "seven", "-5", "0", "7X", "nan"] {
            assert!(parse_count(bad).is_err(), "{bad}");
        }
    }
}
