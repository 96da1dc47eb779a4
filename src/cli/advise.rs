//! `rigplan advise`: the advisor from the command line. Flags build a
//! [`Requirement`], the core answers it, and the front prints as a ranked table, as JSON, or
//! as build files (`-o DIR`).

use super::texts::parse_lang;
use super::{Exit, money};
use crate::core::advisor::{
    self, Advice, Candidate, Circuits, Form, Objective, Preset, Requirement, WorkMode, WorkloadReq,
    requirement::DEFAULT_CNY_PER_USD,
};
use crate::core::analysis::memory::WeightType;
use crate::core::catalog::{Catalog, ModelId, PartId};
use crate::core::export::SheetDate;
use crate::core::i18n::Lang;
use crate::core::persist;
use crate::core::units::Currency;
use anyhow::{Context as _, bail};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// `rigplan advise …`
#[derive(Debug, Default, clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct AdviseArgs {
    /// Start from a field-guide tier: entry (under 20,000 CNY tower), enterprise (500,000 to
    /// 1,000,000 CNY rack) or edge (embedded, lowest power); other flags change it.
    #[arg(long, value_name = "TIER", value_parser = parse_preset)]
    pub preset: Option<Preset>,
    /// A model of the catalog (`meta-llama-3.1-70b`, see `rigplan catalog list`): one workload
    /// from --mode, --weights, --context, --users, --tokens-per-user, --train-tokens,
    /// --deadline-hours.
    #[arg(long, value_name = "ID")]
    pub model: Option<String>,
    /// A model not in the catalog instead of --model: `--params 7e9 --layers 32 --hidden
    /// 4096 --heads 32` and the other shape flags of `rigplan fit`.
    #[command(flatten)]
    pub arch: super::fit::ArchArgs,
    /// inference, lora, qlora, full-finetune or pretrain.
    #[arg(long, value_name = "MODE", value_parser = parse_mode)]
    pub mode: Option<WorkMode>,
    /// Weight precision (bf16, fp8, int4, q4_k_m, nf4 …; default bf16, nf4 for qlora).
    #[arg(long, value_name = "T", value_parser = parse_weights)]
    pub weights: Option<WeightType>,
    /// Tokens per sequence.
    #[arg(long, value_name = "S")]
    pub context: Option<u32>,
    /// Inference: concurrent users.
    #[arg(long, value_name = "N")]
    pub users: Option<u32>,
    /// Inference: decode tokens/s each user must get.
    #[arg(long, value_name = "TPS")]
    pub tokens_per_user: Option<f64>,
    /// Training: tokens to train on.
    #[arg(long, value_name = "TOKENS")]
    pub train_tokens: Option<f64>,
    /// Training: hours the run may take (default: as fast as possible).
    #[arg(long, value_name = "H")]
    pub deadline_hours: Option<f64>,
    /// A further workload that must also run, as `key=value,…` with the keys model, mode,
    /// weights, context, users, tokens-per-user, train-tokens, deadline-hours (repeatable).
    #[arg(long = "workload", value_name = "K=V,…")]
    pub workloads: Vec<String>,
    /// Capex ceiling in --currency.
    #[arg(long, value_name = "AMOUNT")]
    pub budget: Option<f64>,
    /// Ceiling of the owned TCO over the horizon, in --currency.
    #[arg(long, value_name = "AMOUNT")]
    pub tco_budget: Option<f64>,
    /// Currency of the budget and the builds (default USD; CNY converts at 7.2 unless --usd-rate).
    #[arg(long, value_name = "CODE")]
    pub currency: Option<String>,
    /// Units of --currency per USD.
    #[arg(long, value_name = "RATE")]
    pub usd_rate: Option<f64>,
    /// Circuits at the site: VOLTS V : AMPS A : COUNT [ :3p ] (`220V:16A:2`, `380V:32A:4:3p`).
    #[arg(long, value_name = "SPEC", value_parser = parse_circuit)]
    pub circuit: Option<Circuits>,
    /// Room temperature, °C.
    #[arg(long, value_name = "C")]
    pub ambient: Option<f64>,
    /// tower, rack or edge.
    #[arg(long, value_name = "FORM", value_parser = parse_form)]
    pub form: Option<Form>,
    /// What ranks first: capex, tco, fastest or power.
    #[arg(long, value_name = "OBJ", value_parser = parse_objective)]
    pub objective: Option<Objective>,
    /// Most nodes (default 1 for tower and edge, 4 for rack).
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u32>,
    /// Most GPUs per node (default 8).
    #[arg(long, value_name = "N")]
    pub max_gpus_per_node: Option<u32>,
    /// Only parts of this vendor (repeatable).
    #[arg(long, value_name = "NAME")]
    pub vendor: Vec<String>,
    /// Never parts of this vendor (repeatable).
    #[arg(long, value_name = "NAME")]
    pub exclude_vendor: Vec<String>,
    /// Every build must contain this part (an id, `gpu/nvidia-h100-pcie-80gb`; repeatable).
    #[arg(long, value_name = "ID")]
    pub require: Vec<String>,
    /// Never this part (repeatable).
    #[arg(long, value_name = "ID")]
    pub exclude: Vec<String>,
    /// Only parts priced on or after this day (YYYY-MM-DD).
    #[arg(long, value_name = "DATE")]
    pub priced_since: Option<String>,
    /// System memory as a multiple of the node's GPU memory (default 1.5).
    #[arg(long, value_name = "X")]
    pub ram_ratio: Option<f64>,
    /// Dataset each node stores, GB (drives are sized for it).
    #[arg(long, value_name = "GB")]
    pub dataset_gb: Option<f64>,
    /// TCO horizon in years (default 3).
    #[arg(long, value_name = "N")]
    pub years: Option<f64>,
    /// Average GPU utilization, 0–1 (default 0.5).
    #[arg(long, value_name = "F")]
    pub utilization: Option<f64>,
    /// Electricity price per kWh in --currency.
    #[arg(long, value_name = "PRICE")]
    pub electricity: Option<f64>,
    /// Data-center PUE (default 1.0).
    #[arg(long, value_name = "X")]
    pub pue: Option<f64>,
    /// Explain why a part is not on the front (repeatable).
    #[arg(long, value_name = "ID")]
    pub why_not: Vec<String>,
    /// Language of the reasons (en, zh-CN; default: the locale).
    #[arg(long, value_name = "LANG", value_parser = parse_lang)]
    pub lang: Option<Lang>,
    /// Print the whole answer as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write each candidate as a build file into DIR (`01-<slug>.ron`, best first).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
}

fn parse_preset(s: &str) -> Result<Preset, String> {
    Preset::from_id(s).ok_or_else(|| format!("`{s}` is not a tier; use entry, enterprise or edge"))
}

fn parse_mode(s: &str) -> Result<WorkMode, String> {
    WorkMode::from_id(s)
        .ok_or_else(|| format!("`{s}` is not a mode; use inference, lora, qlora, full-finetune or pretrain"))
}

fn parse_weights(s: &str) -> Result<WeightType, String> {
    let lower = s.to_ascii_lowercase();
    WeightType::ALL.into_iter().find(|w| w.name() == lower).ok_or_else(|| {
        let names: Vec<&str> = WeightType::ALL.iter().map(|w| w.name()).collect();
        format!("`{s}` is not a precision; use one of {}", names.join(", "))
    })
}

fn parse_form(s: &str) -> Result<Form, String> {
    Form::from_id(s).ok_or_else(|| format!("`{s}` is not a form; use tower, rack or edge"))
}

fn parse_objective(s: &str) -> Result<Objective, String> {
    Objective::from_id(s).ok_or_else(|| format!("`{s}` is not an objective; use capex, tco, fastest or power"))
}

/// `220V:16A:2`, `380V:32A:4:3p`: volts, amps, count, and `3p` for three phases.
fn parse_circuit(s: &str) -> Result<Circuits, String> {
    let usage = || format!("`{s}`: write VOLTS V:AMPS A:COUNT[:3p], e.g. 220V:16A:2 or 380V:32A:1:3p");
    let parts: Vec<&str> = s.split(':').map(str::trim).collect();
    let num = |text: &str, unit: char| -> Option<f64> {
        let t = text.strip_suffix(unit).or_else(|| text.strip_suffix(unit.to_ascii_lowercase())).unwrap_or(text);
        t.parse::<f64>().ok().filter(|v| v.is_finite())
    };
    let (volts, amps) = match parts.as_slice() {
        [v, a, ..] => (num(v, 'V').ok_or_else(usage)?, num(a, 'A').ok_or_else(usage)?),
        _ => return Err(usage()),
    };
    let count = match parts.get(2) {
        Some(c) => c.parse::<u32>().map_err(|_| usage())?,
        None => 1,
    };
    let phases = match parts.get(3).map(|p| p.to_ascii_lowercase()) {
        None => 1,
        Some(p) if p == "3p" || p == "3" => 3,
        Some(p) if p == "1p" || p == "1" => 1,
        Some(_) => return Err(usage()),
    };
    if parts.len() > 4 {
        return Err(usage());
    }
    Ok(Circuits { volts, amps, phases, count })
}

/// A catalog model id with or without its `model/` prefix.
fn model_id(catalog: &Catalog, text: &str) -> anyhow::Result<ModelId> {
    let id = if text.starts_with("model/") { text.to_owned() } else { format!("model/{text}") };
    if catalog.models.get(id.as_str()).is_none() {
        bail!("`{text}` is not in the model catalog (rigplan catalog list --kind model lists none by that id)");
    }
    Ok(ModelId(id))
}

/// A part id: the full `kind/name`, or a name that one part of the catalog ends with.
fn part_id(catalog: &Catalog, flag: &str, text: &str) -> anyhow::Result<PartId> {
    let full = PartId(text.to_owned());
    if catalog.get(&full).is_some() {
        return Ok(full);
    }
    let matches: Vec<&PartId> = catalog
        .all_parts()
        .map(crate::core::catalog::Part::id)
        .filter(|id| id.as_str().split_once('/').is_some_and(|(_, t)| t == text))
        .collect();
    match matches.as_slice() {
        [one] => Ok((*one).clone()),
        [] => bail!("{flag} `{text}`: no catalog part has this id (rigplan catalog list)"),
        many => bail!(
            "{flag} `{text}` names {} parts ({}); give the full id",
            many.len(),
            many.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// One `--workload key=value,…`.
fn parse_workload(catalog: &Catalog, spec: &str) -> anyhow::Result<WorkloadReq> {
    let mut fields: Vec<(&str, &str)> = Vec::new();
    for pair in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').with_context(|| format!("--workload `{spec}`: `{pair}` is not key=value"))?;
        fields.push((k.trim(), v.trim()));
    }
    let get = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let mode = match get("mode") {
        Some(m) => parse_mode(m).map_err(|e| anyhow::anyhow!("--workload: {e}"))?,
        None => WorkMode::Inference,
    };
    // A custom architecture: the shape keys of `rigplan fit`'s flags.
    let shape = |key: &str| -> anyhow::Result<Option<u32>> {
        get(key)
            .map(|v| v.parse().map_err(|_| anyhow::anyhow!("--workload `{spec}`: {key}=`{v}` is not a whole number")))
            .transpose()
    };
    let arch = super::fit::ArchArgs {
        params: get("params").map(str::to_owned),
        layers: shape("layers")?,
        hidden: shape("hidden")?,
        heads: shape("heads")?,
        kv_heads: shape("kv-heads")?,
        head_dim: shape("head-dim")?,
        ffn: shape("ffn")?,
        vocab: shape("vocab")?,
        experts: shape("experts")?,
        active_experts: shape("active-experts")?,
        kv_lora_rank: shape("kv-lora-rank")?,
        rope_dim: shape("rope-dim")?,
    };
    let mut w = match (get("model"), arch.arch().with_context(|| format!("--workload `{spec}`"))?) {
        (Some(model), None) => WorkloadReq::new(model_id(catalog, model)?, mode),
        (None, Some(arch)) => WorkloadReq::custom(arch, mode),
        (Some(_), Some(_)) => bail!("--workload `{spec}`: give model=ID or params=N with its shape, not both"),
        (None, None) => bail!(
            "--workload `{spec}`: name the model (model=ID), or give params=N,layers=L,hidden=H,heads=A for one not in the catalog"
        ),
    };
    for (k, v) in &fields {
        let bad = |what: &str| anyhow::anyhow!("--workload `{spec}`: {k}=`{v}` is not {what}");
        match *k {
            "model" | "mode" | "params" | "layers" | "hidden" | "heads" | "kv-heads" | "head-dim" | "ffn" | "vocab"
            | "experts" | "active-experts" | "kv-lora-rank" | "rope-dim" => {}
            "weights" => w.weights = parse_weights(v).map_err(|e| anyhow::anyhow!("--workload: {e}"))?,
            "context" => w.context = v.parse().map_err(|_| bad("a whole number of tokens"))?,
            "users" => w.users = v.parse().map_err(|_| bad("a whole number"))?,
            "tokens-per-user" => w.tokens_per_user = v.parse().map_err(|_| bad("a number"))?,
            "train-tokens" => w.train_tokens = Some(v.parse().map_err(|_| bad("a number"))?),
            "deadline-hours" => w.deadline_hours = Some(v.parse().map_err(|_| bad("a number"))?),
            other => bail!(
                "--workload `{spec}`: unknown key `{other}` (model, mode, weights, context, users, tokens-per-user, train-tokens, deadline-hours; for a custom model params, layers, hidden, heads, kv-heads, head-dim, ffn, vocab, experts, active-experts, kv-lora-rank, rope-dim)"
            ),
        }
    }
    Ok(w)
}

/// The requirement the flags describe.
///
/// # Errors
/// A missing workload or budget, an unknown model or part, a malformed date, a currency
/// without a rate.
pub fn requirement(catalog: &Catalog, a: &AdviseArgs) -> anyhow::Result<Requirement> {
    let mut req = match a.preset {
        Some(p) => p.requirement(),
        None => Requirement::new(Vec::new(), 0.0, Currency::default(), 1.0),
    };
    let mut workloads = Vec::new();
    let mode = a.mode.unwrap_or(WorkMode::Inference);
    let flagged = match (&a.model, a.arch.arch()?) {
        (Some(model), _) => Some(WorkloadReq::new(model_id(catalog, model)?, mode)),
        (None, Some(arch)) => Some(WorkloadReq::custom(arch, mode)),
        (None, None) if a.arch.params.is_some() => bail!(
            "the advisor sizes activations, the KV cache and speed from the architecture: give --layers, --hidden and --heads with --params"
        ),
        (None, None) => None,
    };
    if let Some(mut w) = flagged {
        if let Some(x) = a.weights {
            w.weights = x;
        }
        if let Some(x) = a.context {
            w.context = x;
        }
        if let Some(x) = a.users {
            w.users = x;
        }
        if let Some(x) = a.tokens_per_user {
            w.tokens_per_user = x;
        }
        w.train_tokens = a.train_tokens;
        w.deadline_hours = a.deadline_hours;
        workloads.push(w);
    } else if a.mode.is_some() || a.weights.is_some() || a.users.is_some() || a.tokens_per_user.is_some() {
        bail!("--mode, --weights, --users and --tokens-per-user describe the workload of --model; name the model");
    }
    for spec in &a.workloads {
        workloads.push(parse_workload(catalog, spec)?);
    }
    if !workloads.is_empty() {
        req.workloads = workloads;
    } else if req.workloads.is_empty() {
        bail!("name a workload: --model ID [--mode …], --workload model=ID,mode=…, or --preset entry|enterprise|edge");
    }
    match (a.budget, a.preset) {
        (Some(b), _) => req.budget = b,
        (None, Some(_)) => {}
        (None, None) => bail!("give a capex ceiling: --budget AMOUNT (in --currency, default USD)"),
    }
    req.tco_budget = a.tco_budget.or(req.tco_budget);
    if let Some(code) = &a.currency {
        let code = code.trim().to_ascii_uppercase();
        let rate = match (a.usd_rate, code.as_str()) {
            (Some(r), _) => r,
            (None, "USD") => 1.0,
            (None, "CNY" | "RMB") => DEFAULT_CNY_PER_USD,
            (None, other) => bail!("--currency {other}: give its rate with --usd-rate (units of {other} per USD)"),
        };
        let code = if code == "RMB" { "CNY".to_owned() } else { code };
        // A budget given with a preset is in the new currency; a preset's own budget converts.
        if a.budget.is_none() && a.preset.is_some() && req.usd_exchange_rate > 0.0 {
            req.budget *= rate / req.usd_exchange_rate;
        }
        req.currency = Currency(code);
        req.usd_exchange_rate = rate;
    } else if let Some(r) = a.usd_rate {
        req.usd_exchange_rate = r;
    }
    if let Some(c) = a.circuit {
        req.site.circuits = c;
    }
    if let Some(x) = a.ambient {
        req.site.ambient_c = x;
    }
    if let Some(f) = a.form {
        req.site.form = f;
        if f == Form::Rack && a.circuit.is_none() && a.preset.is_none() {
            // A rack without stated circuits: one 380 V three-phase 32 A feed (the enterprise
            // template's data-center feed).
            req.site.circuits = Circuits { volts: 380.0, amps: 32.0, phases: 3, count: 1 };
        }
    }
    if let Some(o) = a.objective {
        req.objective = o;
    }
    req.filters.max_nodes = a.max_nodes.or(req.filters.max_nodes);
    req.filters.max_gpus_per_node = a.max_gpus_per_node.or(req.filters.max_gpus_per_node);
    req.filters.vendors.extend(a.vendor.iter().cloned());
    req.filters.exclude_vendors.extend(a.exclude_vendor.iter().cloned());
    for p in &a.require {
        req.filters.require_parts.push(part_id(catalog, "--require", p)?);
    }
    for p in &a.exclude {
        req.filters.exclude_parts.push(part_id(catalog, "--exclude", p)?);
    }
    if let Some(d) = &a.priced_since {
        req.filters.priced_since = Some(SheetDate::parse(d).map_err(|e| anyhow::anyhow!("--priced-since `{d}`: {e}"))?);
    }
    if let Some(x) = a.ram_ratio {
        req.ram_to_vram = x;
    }
    req.dataset_gb = a.dataset_gb.or(req.dataset_gb);
    if let Some(x) = a.years {
        req.horizon_years = x;
    }
    if let Some(x) = a.utilization {
        req.utilization = x;
    }
    if let Some(x) = a.electricity {
        req.site.electricity_per_kwh = x;
    }
    if let Some(x) = a.pue {
        req.site.pue = x;
    }
    for p in &a.why_not {
        req.why_not.push(part_id(catalog, "--why-not", p)?);
    }
    req.validate().map_err(|e| anyhow::anyhow!("the requirement: {e}"))?;
    Ok(req)
}

/// The JSON answer: the requirement, the front with every figure and its reasons in words.
#[derive(Serialize)]
struct AdviceJson<'a> {
    requirement: &'a Requirement,
    front: Vec<CandidateJson<'a>>,
    front_left_out: usize,
    stats: &'a advisor::search::Stats,
    failure: Option<Worded<'a>>,
    why_not: Vec<WhyNotJson<'a>>,
    unpriced: &'a [PartId],
}

#[derive(Serialize)]
struct CandidateJson<'a> {
    #[serde(flatten)]
    candidate: &'a Candidate,
    reasons_text: Vec<String>,
    file: Option<String>,
}

#[derive(Serialize)]
struct Worded<'a> {
    reason: &'a advisor::Reason,
    message: String,
}

#[derive(Serialize)]
struct WhyNotJson<'a> {
    part: &'a PartId,
    name: &'a str,
    reason: &'a advisor::Reason,
    message: String,
}

/// `rigplan advise`.
///
/// # Errors
/// Bad flags (exit 2 by the caller); a build file that cannot be written.
pub fn run_advise(out: &mut dyn Write, catalog: &Catalog, a: &AdviseArgs) -> anyhow::Result<Exit> {
    let req = requirement(catalog, a)?;
    let lang = a.lang.unwrap_or_else(Lang::from_env);
    let advice = advisor::advise(catalog, &req).map_err(|e| anyhow::anyhow!("the requirement: {e}"))?;
    let files = match &a.output {
        Some(dir) if !advice.front.is_empty() => write_files(dir, &advice)?,
        _ => Vec::new(),
    };
    if a.json {
        let json = AdviceJson {
            requirement: &req,
            front: advice
                .front
                .iter()
                .enumerate()
                .map(|(i, c)| CandidateJson {
                    candidate: c,
                    reasons_text: c.reasons.iter().map(|r| r.render(lang)).collect(),
                    file: files.get(i).map(|p| p.display().to_string()),
                })
                .collect(),
            front_left_out: advice.front_left_out,
            stats: &advice.stats,
            failure: advice.failure.as_ref().map(|r| Worded { reason: r, message: r.render(lang) }),
            why_not: advice
                .why_not
                .iter()
                .map(|w| WhyNotJson { part: &w.part, name: &w.name, reason: &w.reason, message: w.reason.render(lang) })
                .collect(),
            unpriced: &advice.unpriced,
        };
        serde_json::to_writer_pretty(&mut *out, &json)?;
        writeln!(out)?;
    } else {
        write_text(out, &req, &advice, lang, &files)?;
    }
    Ok(if advice.front.is_empty() { Exit::Findings } else { Exit::Ok })
}

/// Writes `01-<slug>.ron`, `02-<slug>.ron` … into `dir` (created if missing); a file already
/// there is kept as `<name>.bak` by the atomic save.
fn write_files(dir: &std::path::Path, advice: &Advice) -> anyhow::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create the folder {}", dir.display()))?;
    advice
        .front
        .iter()
        .map(|c| {
            let path = dir.join(format!("{:02}-{}.ron", c.rank, c.slug));
            persist::save_build(&path, &c.build)?;
            Ok(path)
        })
        .collect()
}

fn workload_label(req: &Requirement, i: usize) -> String {
    req.workloads.get(i).map_or_else(String::new, |w| {
        let model = w.model.as_str().trim_start_matches("model/");
        match w.mode {
            WorkMode::Inference => format!(
                "{model} inference ({}, {} {} × {} tok/s)",
                w.weights.name(),
                w.users,
                if w.users == 1 { "user" } else { "users" },
                crate::core::units::format_thousands(w.tokens_per_user, 1)
            ),
            m => format!("{model} {} ({})", m.id(), w.weights.name()),
        }
    })
}

fn write_text(
    out: &mut dyn Write,
    req: &Requirement,
    advice: &Advice,
    lang: Lang,
    files: &[PathBuf],
) -> anyhow::Result<()> {
    let cur = &req.currency.0;
    let c = &req.site.circuits;
    writeln!(
        out,
        "Advice: budget {} {cur}, {} on {} × {} V / {} A{}, {} °C, objective {}",
        money(req.budget),
        req.site.form.id(),
        c.count,
        c.volts,
        c.amps,
        if c.phases == 3 { " three-phase" } else { "" },
        req.site.ambient_c,
        req.objective.id()
    )?;
    for i in 0..req.workloads.len() {
        writeln!(out, "  workload {}: {}", i + 1, workload_label(req, i))?;
    }
    let s = &advice.stats;
    writeln!(
        out,
        "Searched {} configurations: {} ruled out by the budget, {} estimated, {} complete builds checked.",
        s.configurations, s.bounded, s.estimated, s.checked
    )?;
    if advice.front.is_empty() {
        writeln!(out)?;
        let why =
            advice.failure.as_ref().map_or_else(|| "no configuration was left to try".to_owned(), |r| r.render(lang));
        writeln!(out, "Nothing meets the requirement: {why}")?;
    }
    for (i, cand) in advice.front.iter().enumerate() {
        writeln!(out)?;
        writeln!(out, "#{} {}", cand.rank, cand.build.name)?;
        writeln!(
            out,
            "   capex {} {cur} · TCO {} {cur} over {} y · wall {} W at max · {} circuit(s)",
            money(cand.capex),
            money(cand.tco_owned),
            req.horizon_years,
            money(cand.wall_watts),
            cand.circuits_needed
        )?;
        for (k, fit) in cand.workloads.iter().enumerate() {
            let mem = format!(
                "{:.1} of {:.0} GiB per GPU ({:.0} %)",
                fit.per_gpu_bytes.gib(),
                fit.gpu_memory_bytes.gib(),
                fit.memory_fraction * 100.0
            );
            let speed = match (fit.served_tokens_per_s, fit.train_tokens_per_s) {
                (Some(served), _) => format!(
                    "{} tok/s served, {} tok/s per user, up to {} users",
                    crate::core::units::format_thousands(served, 0),
                    crate::core::units::format_thousands(fit.per_user_tokens_per_s.unwrap_or(0.0), 1),
                    fit.users_capacity.map_or_else(|| "?".to_owned(), |u| u.to_string())
                ),
                (None, Some(train)) => {
                    let hours = fit.hours.map_or_else(String::new, |h| {
                        format!(", {} h to train", crate::core::units::format_thousands(h, 1))
                    });
                    format!("{} training tok/s{hours}", crate::core::units::format_thousands(train, 0))
                }
                (None, None) => String::new(),
            };
            let cost = match (
                cand.cost_per_million_tokens.get(k).copied().flatten(),
                cand.cost_per_run.get(k).copied().flatten(),
            ) {
                (Some(m), _) if fit.served_tokens_per_s.is_some() => {
                    format!(" · {} {cur} per 1M tokens", crate::core::units::format_thousands(m, 2))
                }
                (_, Some(r)) => format!(" · {} {cur} per run", money(r)),
                _ => String::new(),
            };
            writeln!(out, "   {}: {mem}; {speed}{cost}", workload_label(req, k))?;
            writeln!(out, "      check: rigplan fit --build FILE {}", fit.fit_args)?;
        }
        for r in &cand.reasons {
            writeln!(out, "   - {}", r.render(lang))?;
        }
        if let Some(f) = files.get(i) {
            writeln!(out, "   written to {}", f.display())?;
        }
    }
    if advice.front_left_out > 0 {
        writeln!(out, "\n{} more builds on the front are not shown (narrow the requirement).", advice.front_left_out)?;
    }
    for w in &advice.why_not {
        writeln!(out, "\nWhy not {}? {}", w.name, w.reason.render(lang))?;
    }
    if !advice.unpriced.is_empty() {
        writeln!(out, "\n{} catalog parts have no price and were left out.", advice.unpriced.len())?;
    }
    Ok(())
}
