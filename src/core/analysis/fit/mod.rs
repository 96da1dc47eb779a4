//! The fit matrix: every catalog model × a standard set of workloads on a build's actual GPUs,
//! and the search for the smallest change that makes a misfit fit.
//!
//! Theory of operation: for each node group with GPUs, [`build_fit`] takes the group's GPU
//! type (the most numerous one), its count per node, the node count, and the links between
//! them ([`speed::Topology`]: NVLink switch or bridges, Infinity Fabric, PCIe, the NICs across
//! nodes). [`fit_matrix`] then evaluates each model under each [`WorkloadKind`]:
//! - inference picks the smallest tensor-parallel group inside a node that fits, then adds
//!   pipeline stages across nodes; a misfit says how many GPUs it would need;
//! - LoRA and QLoRA run one replica per GPU (data parallel), falling back to ZeRO-3 over all
//!   the GPUs;
//! - full fine-tuning uses ZeRO-3 over all the build's GPUs, as the standard set says.
//!
//! Each cell carries the verdict, the layout, the per-GPU total and memory fraction, and the
//! speed (decode tokens/s for inference, training tokens/s for training). [`suggest`] is the
//! CLI's fuller search: every single change (smaller batch or context, recompute, a lower KV
//! or weight precision, an 8-bit optimizer, ZeRO or offload, more GPUs, QLoRA) that makes a
//! misfit fit, least disruptive first.

use super::memory::{self, LoraTargets, MemoryEstimate, Mode, ModelSpec, Recompute, Verdict, WeightType, Workload};
use super::speed::{self, SpeedSettings, Topology};
use crate::core::catalog::{Gpu, GpuFormFactor, ModelId, Models, PartId};
use crate::core::i18n::{Lang, Sentence, Text, localize_all};
use crate::core::resolve::Resolved;
use crate::core::units::Bytes;
use crate::text;
use serde::Serialize;
pub(crate) use texts::*;

mod needs;
mod suggest;
mod texts;

use needs::{inference_needs, training_needs};
pub(crate) use suggest::largest_fitting;
pub use suggest::{Suggestion, suggest};

/// Largest GPU count the "needs N GPUs" search considers.
pub const MAX_SEARCH_GPUS: u32 = 4096;

/// The standard workloads of the matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum WorkloadKind {
    /// Inference, bf16 weights, fp16 KV cache, 4096-token context, batch 1.
    InferenceBf16,
    /// Inference, GGUF Q4_K_M weights, fp16 KV cache, 8192-token context, batch 1 (decoders).
    InferenceQ4km,
    /// LoRA rank 16 on every linear layer of a bf16 base, 2048 tokens, batch 1, full
    /// recompute (gradient checkpointing), FlashAttention.
    Lora,
    /// QLoRA (NF4 base, rank 64 on every linear layer, Dettmers et al. 2023 §5), 2048 tokens,
    /// batch 1, full recompute.
    Qlora,
    /// Full fine-tuning, bf16 with AdamW (16 bytes/parameter), ZeRO-3 over all the GPUs,
    /// 2048 tokens, batch 1 per GPU, full recompute.
    FullFinetune,
}

/// In JSON a workload is its stable id (`inference-bf16-4k`).
impl Serialize for WorkloadKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl WorkloadKind {
    pub const ALL: [Self; 5] = [Self::InferenceBf16, Self::InferenceQ4km, Self::Lora, Self::Qlora, Self::FullFinetune];

    /// The workload with a stable id (see [`Self::id`]).
    #[must_use]
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.id() == id)
    }

    /// True for the inference workloads.
    #[must_use]
    pub fn is_inference(self) -> bool {
        matches!(self, Self::InferenceBf16 | Self::InferenceQ4km)
    }

    /// Stable id used in JSON.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::InferenceBf16 => "inference-bf16-4k",
            Self::InferenceQ4km => "inference-q4_k_m-8k",
            Self::Lora => "lora-r16",
            Self::Qlora => "qlora-nf4-r64",
            Self::FullFinetune => "full-ft-zero3",
        }
    }

    /// Short column heading.
    #[must_use]
    pub fn short(self) -> &'static str {
        match self {
            Self::InferenceBf16 => "bf16 4k",
            Self::InferenceQ4km => "q4_k_m 8k",
            Self::Lora => "LoRA",
            Self::Qlora => "QLoRA",
            Self::FullFinetune => "full FT",
        }
    }

    /// The sentence of [`Self::label`] in every language.
    #[must_use]
    pub fn label_text(self) -> crate::core::i18n::Text {
        crate::core::i18n::Text::new(match self {
            Self::InferenceBf16 => &WORKLOAD_INFERENCE_BF16,
            Self::InferenceQ4km => &WORKLOAD_INFERENCE_Q4KM,
            Self::Lora => &WORKLOAD_LORA,
            Self::Qlora => &WORKLOAD_QLORA,
            Self::FullFinetune => &WORKLOAD_FULL_FINETUNE,
        })
    }

    /// The workload's settings in a sentence (English).
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::InferenceBf16 => "Inference, bf16 weights, fp16 KV cache, 4096-token context, batch 1",
            Self::InferenceQ4km => "Inference, GGUF Q4_K_M weights, fp16 KV cache, 8192-token context, batch 1",
            Self::Lora => "LoRA r=16 on all linear layers, bf16 base, 2048 tokens, batch 1, gradient checkpointing",
            Self::Qlora => "QLoRA (NF4 base) r=64 on all linear layers, 2048 tokens, batch 1, gradient checkpointing",
            Self::FullFinetune => {
                "Full fine-tune, bf16 + AdamW, ZeRO-3 over all GPUs, 2048 tokens, batch 1 per GPU, gradient checkpointing"
            }
        }
    }

    /// The workload for a model, or None where it does not apply (GGUF for non-decoders,
    /// LoRA for models without layers). Contexts are capped at the model's maximum.
    #[must_use]
    pub fn workload(self, spec: &ModelSpec) -> Option<Workload> {
        let cap = |context: u32| spec.transformer().map_or(context, |t| context.min(t.max_context));
        let mut w = match self {
            Self::InferenceBf16 => {
                let mut w = Workload::defaults(Mode::Inference);
                w.context = cap(4096);
                w
            }
            Self::InferenceQ4km => {
                if !spec.is_decoder() {
                    return None;
                }
                let mut w = Workload::defaults(Mode::Inference);
                w.weights = WeightType::Q4KM;
                w.context = cap(8192);
                w
            }
            Self::Lora | Self::Qlora => {
                spec.transformer()?;
                let mode = if self == Self::Lora { Mode::Lora } else { Mode::Qlora };
                let mut w = Workload::defaults(mode);
                w.context = cap(2048);
                w.recompute = Recompute::Full;
                w
            }
            Self::FullFinetune => {
                let mut w = Workload::defaults(Mode::Train);
                w.context = cap(2048);
                w.recompute = Recompute::Full;
                w.zero = 3;
                w
            }
        };
        w.lora_targets = LoraTargets::All;
        Some(w)
    }
}

/// One model under one standard workload.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitCell {
    pub workload: WorkloadKind,
    /// None when the workload does not apply to the model.
    pub verdict: Option<Verdict>,
    pub layout: Option<memory::Layout>,
    /// GPUs the layout uses.
    pub gpus_used: Option<u32>,
    pub per_gpu_total_bytes: Option<Bytes>,
    pub memory_fraction: Option<f64>,
    pub decode_tokens_per_s: Option<f64>,
    pub train_tokens_per_s: Option<f64>,
    /// Measured models: inference or training samples per second over all the GPUs (for
    /// diffusion pipelines, training images per second only).
    pub samples_per_s: Option<f64>,
    /// Diffusion pipelines: images per minute over all the GPUs at
    /// [`speed::DIFFUSION_STEPS`] denoising steps.
    pub images_per_minute: Option<f64>,
    /// Why the workload does not apply, or what a misfit would need.
    pub note: Option<Sentence>,
}

/// One model's row of the matrix.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitRow {
    pub model: ModelId,
    pub model_name: String,
    pub cells: Vec<FitCell>,
}

/// A column of the matrix.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FitColumn {
    pub id: &'static str,
    pub label: &'static str,
}

/// The matrix for one node group's GPUs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FitMatrix {
    /// Node group index in the build.
    pub node: usize,
    pub node_name: String,
    pub gpu: PartId,
    pub gpu_name: String,
    pub gpus_per_node: u32,
    pub nodes: u32,
    pub gpu_memory_bytes: Bytes,
    /// The links, in a sentence (NVLink vs PCIe vs cross-node).
    pub interconnect: Sentence,
    pub topology: Topology,
    pub workloads: Vec<FitColumn>,
    /// One row per catalog model. Shared between the node groups with the same GPU and
    /// links (a 64-group cluster of one design holds one matrix, not 64 copies).
    pub rows: std::sync::Arc<Vec<FitRow>>,
    pub notes: Vec<Sentence>,
}

impl FitCell {
    /// Renders the note in `lang`.
    pub fn localize(&mut self, lang: Lang) {
        if let Some(n) = &mut self.note {
            n.localize(lang);
        }
    }
}

impl FitMatrix {
    /// Renders the notes and every cell's note in `lang`. Rows shared with other matrices
    /// are copied; [`localize_matrices`] keeps them shared.
    pub fn localize(&mut self, lang: Lang) {
        localize_all(&mut self.notes, lang);
        self.interconnect.localize(lang);
        for row in std::sync::Arc::make_mut(&mut self.rows) {
            row.cells.iter_mut().for_each(|c| c.localize(lang));
        }
    }
}

/// Renders every matrix's notes and cell notes in `lang`; matrices that shared their rows
/// still share them (the rows of a 64-group cluster of one design are localized once).
pub fn localize_matrices(matrices: &mut [FitMatrix], lang: Lang) {
    use std::sync::Arc;
    type Rows = Arc<Vec<FitRow>>;
    // (rows before, rows localized): the old rows are held so that no pointer is reused.
    let mut done: Vec<(Rows, Rows)> = Vec::new();
    for m in matrices {
        localize_all(&mut m.notes, lang);
        m.interconnect.localize(lang);
        if let Some((_, localized)) = done.iter().find(|(before, _)| Arc::ptr_eq(before, &m.rows)) {
            m.rows = Arc::clone(localized);
            continue;
        }
        let mut rows = (*m.rows).clone();
        for row in &mut rows {
            row.cells.iter_mut().for_each(|c| c.localize(lang));
        }
        let before = std::mem::replace(&mut m.rows, Arc::new(rows));
        done.push((before, Arc::clone(&m.rows)));
    }
}

/// A fit with its estimate.
struct Tried {
    estimate: MemoryEstimate,
    verdict: Verdict,
    fraction: f64,
    workload: Workload,
    gpus: u32,
}

fn try_fit(spec: &ModelSpec, w: &Workload, gpus: u32, gpu: &Gpu) -> Option<Tried> {
    let estimate = memory::estimate(spec, w, gpus).ok()?;
    let check = memory::check_estimate_on(&estimate, w, gpu);
    Some(Tried { estimate, verdict: check.verdict, fraction: check.memory_fraction, workload: *w, gpus })
}

/// Tensor-parallel degrees up to `max` that the model's heads allow, ascending.
pub(crate) fn tp_options(spec: &ModelSpec, max: u32) -> impl Iterator<Item = u32> + '_ {
    (1..=max.max(1)).filter(move |&t| match spec.transformer() {
        Some(tr) => tr.heads % t == 0,
        None => t == 1,
    })
}

/// The first fitting candidate, preferring "fits" over "tight".
fn first_fitting(candidates: impl Iterator<Item = Tried>) -> (Option<Tried>, Option<Tried>) {
    let mut tight = None;
    let mut last = None;
    for c in candidates {
        match c.verdict {
            Verdict::Fits => return (Some(c), None),
            Verdict::Tight => {
                if tight.is_none() {
                    tight = Some(c);
                }
            }
            Verdict::DoesNotFit => last = Some(c),
        }
    }
    (tight, last)
}

/// Inference layouts inside the build: growing tensor parallelism within a node, then
/// pipeline stages across nodes.
fn inference_candidates<'a>(
    spec: &'a ModelSpec,
    w: &'a Workload,
    gpu: &'a Gpu,
    gpus_per_node: u32,
    nodes: u32,
) -> impl Iterator<Item = Tried> + 'a {
    let within = tp_options(spec, gpus_per_node).filter_map(move |tp| {
        let mut c = *w;
        c.tp = tp;
        c.pp = 1;
        try_fit(spec, &c, tp, gpu)
    });
    let widest = tp_options(spec, gpus_per_node).last().unwrap_or(1);
    let layers = spec.transformer().map_or(1, |t| t.layers);
    let across = (2..=nodes.min(layers)).filter_map(move |pp| {
        let mut c = *w;
        c.tp = widest;
        c.pp = pp;
        try_fit(spec, &c, widest * pp, gpu)
    });
    within.chain(across)
}

fn cell_from(
    kind: WorkloadKind,
    spec: &ModelSpec,
    gpu: &Gpu,
    topo: &Topology,
    tried: &Tried,
    note: Option<Text>,
) -> FitCell {
    let speed =
        speed::estimate_speed(spec, &tried.workload, gpu, &sub_topology(topo, tried.gpus), &SpeedSettings::default());
    let samples = speed.inference_samples_per_s.or(speed.train_samples_per_s);
    // The precision gate: a cell with no speed for want of tensor units says so, as does a
    // BF16 cell computed at the FP16 rate.
    let note = note.or_else(|| speed::precision_gate(gpu, &tried.workload).map(|(why, _)| why));
    FitCell {
        workload: kind,
        verdict: Some(tried.verdict),
        layout: Some(tried.estimate.layout),
        gpus_used: Some(tried.gpus),
        per_gpu_total_bytes: Some(tried.estimate.per_gpu.total_bytes),
        memory_fraction: Some(tried.fraction),
        decode_tokens_per_s: speed.decode_tokens_per_s,
        train_tokens_per_s: speed.train_tokens_per_s,
        samples_per_s: samples,
        images_per_minute: speed.images_per_minute,
        note: note.map(Sentence::new),
    }
}

/// The part of a topology a layout of `gpus` GPUs occupies (whole nodes beyond one node): a
/// matrix cell may use fewer GPUs than the node group has.
#[must_use]
pub fn sub_topology(topo: &Topology, gpus: u32) -> Topology {
    let mut t = topo.clone();
    if gpus <= topo.gpus_per_node {
        t.gpus_per_node = gpus.max(1);
        t.nodes = 1;
    } else {
        t.nodes = gpus.div_ceil(topo.gpus_per_node.max(1));
    }
    t
}

fn not_applicable(kind: WorkloadKind, why: Text) -> FitCell {
    FitCell {
        workload: kind,
        verdict: None,
        layout: None,
        gpus_used: None,
        per_gpu_total_bytes: None,
        memory_fraction: None,
        decode_tokens_per_s: None,
        train_tokens_per_s: None,
        samples_per_s: None,
        images_per_minute: None,
        note: Some(Sentence::new(why)),
    }
}

/// The training layout a matrix cell takes on `gpus` GPUs: the standard workload (ZeRO off
/// for full fine-tuning on one GPU), else ZeRO-3 over the GPUs, the first that fits, preferring
/// a fit with room over a tight one; when none fits, the last one tried (second). The cell's
/// explanation ([`crate::core::analysis::basis::fit::of_cell`]) reads the same choice.
fn training_layout(
    kind: WorkloadKind,
    spec: &ModelSpec,
    standard: Workload,
    gpus: u32,
    gpu: &Gpu,
) -> (Option<Tried>, Option<Tried>) {
    let mut first = standard;
    if kind == WorkloadKind::FullFinetune && gpus == 1 {
        first.zero = 0;
    }
    let mut candidates = vec![first];
    if first.zero != 3 && gpus > 1 {
        candidates.push(Workload { zero: 3, ..first });
    }
    first_fitting(candidates.iter().filter_map(|c| try_fit(spec, c, gpus, gpu)))
}

/// The workload a training cell of `kind` on `gpus` GPUs was evaluated with
/// ([`training_layout`]'s choice); None when no layout could be evaluated.
#[must_use]
pub(crate) fn training_cell_workload(
    kind: WorkloadKind,
    spec: &ModelSpec,
    standard: Workload,
    gpus: u32,
    gpu: &Gpu,
) -> Option<Workload> {
    let (found, last) = training_layout(kind, spec, standard, gpus, gpu);
    found.or(last).map(|t| t.workload)
}

/// Evaluates one model under one standard workload on a topology of `gpu`.
#[must_use]
pub fn evaluate(kind: WorkloadKind, spec: &ModelSpec, gpu: &Gpu, topo: &Topology) -> FitCell {
    let Some(w) = kind.workload(spec) else {
        let why = match kind {
            WorkloadKind::InferenceQ4km => text!(CELL_GGUF_DECODERS_ONLY),
            _ => text!(CELL_LORA_NEEDS_LAYERS),
        };
        return not_applicable(kind, why);
    };
    let total = topo.total_gpus().max(1);
    if w.mode == Mode::Inference {
        let (found, last) = first_fitting(inference_candidates(spec, &w, gpu, topo.gpus_per_node, topo.nodes));
        return match (found, last) {
            (Some(t), _) => cell_from(kind, spec, gpu, topo, &t, None),
            (None, Some(t)) => {
                let note = match inference_needs(spec, &w, gpu) {
                    Some((tp, pp)) => text!(
                        CELL_INFERENCE_NEEDS,
                        gpus = (tp * pp).to_string(),
                        tp = tp.to_string(),
                        pp = pp.to_string()
                    ),
                    None => text!(CELL_NOT_EVEN_MAX, max = MAX_SEARCH_GPUS.to_string()),
                };
                cell_from(kind, spec, gpu, topo, &t, Some(note))
            }
            (None, None) => not_applicable(kind, text!(CELL_NO_LAYOUT)),
        };
    }
    match training_layout(kind, spec, w, total, gpu) {
        (Some(t), _) => cell_from(kind, spec, gpu, topo, &t, None),
        (None, Some(t)) => {
            let note = match training_needs(spec, &w, gpu) {
                Some(n) => text!(CELL_TRAINING_NEEDS, gpus = n.to_string()),
                None => text!(CELL_NOT_EVEN_MAX, max = MAX_SEARCH_GPUS.to_string()),
            };
            cell_from(kind, spec, gpu, topo, &t, Some(note))
        }
        (None, None) => not_applicable(kind, text!(CELL_NO_LAYOUT)),
    }
}

/// The matrix of every model × every standard workload on `topo` GPUs of type `gpu`.
///
/// One thread: the rows are independent, but a second thread cost a whole `rigplan report`
/// process more than it saved (its start, stack and malloc arena): 2.37–2.39 ms without it
/// against 2.48–2.56 ms with it, the catalog's reading thread kept in both, and 2.06–2.14 ms
/// without either (`perf stat` over 300 runs on the 2-core machine, issue 19). In the app the
/// memo below keeps each matrix once computed.
#[must_use]
pub fn fit_matrix(models: &Models, gpu: &Gpu, topo: &Topology) -> Vec<FitRow> {
    models
        .iter()
        .map(|model| {
            let spec = ModelSpec::from_model(model);
            FitRow {
                model: model.id.clone(),
                model_name: model.name.clone(),
                cells: WorkloadKind::ALL.iter().map(|&k| evaluate(k, &spec, gpu, topo)).collect(),
            }
        })
        .collect()
}

/// Fit rows already computed in this process, reused across analyses: the rows depend only on
/// the model catalog, the GPU and the topology, so an edit that leaves a node's GPUs and links
/// alone (a drive, a PSU, the node's name, another node) does not evaluate its matrix again
/// (issue 19, "per-node results reused across edits").
mod memo {
    use super::{FitRow, fit_matrix};
    use crate::core::analysis::speed::Topology;
    use crate::core::catalog::{Gpu, Models};
    use std::collections::VecDeque;
    use std::sync::{Arc, Mutex};

    /// Matrices kept: a session moves between a few GPU types and node sizes; the oldest entry
    /// goes first. An entry is one model catalog's rows (about 60 models × the workloads).
    const ENTRIES: usize = 32;

    type Entry = (u64, Gpu, Topology, Arc<Vec<FitRow>>);

    static MEMO: Mutex<VecDeque<Entry>> = Mutex::new(VecDeque::new());

    /// The rows of `gpu` on `topo` for `models`, from the memo or computed (and kept). A memo
    /// that cannot be locked (a panic elsewhere while it was held) is passed by.
    pub(super) fn rows(models: &Models, gpu: &Gpu, topo: &Topology) -> Arc<Vec<FitRow>> {
        let generation = models.generation();
        let same = |e: &&Entry| e.0 == generation && e.1.id == gpu.id && e.2 == *topo && e.1 == *gpu;
        if let Ok(memo) = MEMO.lock()
            && let Some(hit) = memo.iter().find(same)
        {
            return Arc::clone(&hit.3);
        }
        let rows = Arc::new(fit_matrix(models, gpu, topo));
        if let Ok(mut memo) = MEMO.lock() {
            if memo.len() >= ENTRIES {
                memo.pop_front();
            }
            memo.push_back((generation, gpu.clone(), topo.clone(), Arc::clone(&rows)));
        }
        rows
    }
}

/// The GPUs of a node group as the workload analyses see them.
#[derive(Clone, Debug)]
pub struct NodeGpus<'a> {
    /// The node's most numerous GPU type (a node mixing types is analyzed on this one).
    pub gpu: &'a Gpu,
    /// Units of that type per node.
    pub gpus_per_node: u32,
    /// Number of GPU types in the node.
    pub types: usize,
    /// The links between them: NVLink or PCIe inside the node, the NICs across nodes.
    pub topology: Topology,
}

/// The GPUs of a node group's most numerous type and their topology (the first such type on
/// a tie); None when it has no GPUs.
#[must_use]
pub fn node_gpus<'a>(node: &crate::core::resolve::Node<'a>) -> Option<NodeGpus<'a>> {
    gpu_groups(node).into_iter().next()
}

/// The *GPU groups* of a node group: one per GPU type, most numerous first (ties in the
/// node's order). Each is evaluated on its own: a model is not split across GPU types (their
/// memory, speed and links differ, and the engines this models shard over identical GPUs), so
/// a node with eight H100 and one small card runs what the H100 run, and what the card runs.
#[must_use]
pub fn gpu_groups<'a>(node: &crate::core::resolve::Node<'a>) -> Vec<NodeGpus<'a>> {
    let mut types = node.parts.gpu_types();
    types.retain(|(_, n)| *n > 0);
    // Stable: equal counts keep the node's order.
    types.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    let count = types.len();
    types
        .into_iter()
        .map(|(gpu, gpus_per_node)| {
            let topology = Topology::new(gpu, gpus_per_node, node.count, node.nvlink_bridge, node.parts.fabric_gbps());
            NodeGpus { gpu, gpus_per_node, types: count, topology }
        })
        .collect()
}

/// The fit matrices of a build: one per GPU group ([`gpu_groups`]: each GPU type of each node
/// group that has GPUs), in build order. Groups with the same GPU model and topology (GPUs per
/// node, nodes, links) have the same rows, which are computed once (a generated 64-group
/// cluster of identical servers evaluates one matrix, not 64).
#[must_use]
pub fn build_fit(resolved: &Resolved<'_>) -> Vec<FitMatrix> {
    let mut out: Vec<FitMatrix> = Vec::new();
    for node in &resolved.nodes {
        // A group identical to an earlier one (`Resolved::twins`) has its matrices, renamed; or
        // none, like it.
        if let Some(twin) = resolved.twins.get(node.index).copied().flatten() {
            let copies: Vec<FitMatrix> = out
                .iter()
                .filter(|m| m.node == twin)
                .map(|first| FitMatrix { node: node.index, node_name: node.name.to_owned(), ..first.clone() })
                .collect();
            out.extend(copies);
            continue;
        }
        for group in gpu_groups(node) {
            let matrix = group_matrix(resolved, node, group, &out);
            out.push(matrix);
        }
    }
    out
}

/// The matrix of one GPU group, sharing the rows of an earlier matrix of the same GPU and
/// topology in `done`.
fn group_matrix(
    resolved: &Resolved<'_>,
    node: &crate::core::resolve::Node<'_>,
    group: NodeGpus<'_>,
    done: &[FitMatrix],
) -> FitMatrix {
    let NodeGpus { gpu, gpus_per_node, types, topology: topo } = group;
    let mut notes = Vec::new();
    if gpu.form_factor == GpuFormFactor::Integrated {
        notes.push(Sentence::new(text!(MATRIX_SHARED_MEMORY, gpu = &gpu.name, gib = gpu.memory_gib.to_string())));
    }
    if types > 1 {
        notes.push(Sentence::new(text!(MATRIX_MIXED_GPUS, count = gpus_per_node.to_string(), gpu = &gpu.name)));
    }
    FitMatrix {
        node: node.index,
        node_name: node.name.to_owned(),
        gpu: gpu.id.clone(),
        gpu_name: gpu.name.clone(),
        gpus_per_node,
        nodes: node.count,
        gpu_memory_bytes: Bytes::from_gib(gpu.memory_gib),
        interconnect: topo.description.clone(),
        workloads: WorkloadKind::ALL.iter().map(|k| FitColumn { id: k.id(), label: k.label() }).collect(),
        rows: match done.iter().find(|m| m.gpu == gpu.id && m.topology == topo) {
            Some(same) => std::sync::Arc::clone(&same.rows),
            None => memo::rows(&resolved.catalog.models, gpu, &topo),
        },
        topology: topo,
        notes,
    }
}

#[cfg(test)]
mod tests {
    use super::{build_fit, fit_matrix, largest_fitting};
    use crate::core::build::{Build, Location, NodeGroup};
    use crate::core::catalog::{Catalog, PartId};
    use crate::core::resolve::Resolved;

    /// The memo gives one catalog's rows again (a clone of the catalog too), and never another
    /// catalog's or another GPU spec's.
    #[test]
    fn the_memo_reuses_rows_of_the_same_catalog_gpu_and_topology_only() {
        use crate::core::analysis::speed::Topology;
        use crate::core::catalog::Models;
        use std::sync::Arc;
        let catalog = Catalog::embedded().unwrap();
        let gpu = catalog.gpu(&PartId::from("gpu/nvidia-geforce-rtx-4090")).unwrap();
        let topo = Topology::new(gpu, 2, 1, false, 0.0);
        let first = super::memo::rows(&catalog.models, gpu, &topo);
        assert_eq!(*first, fit_matrix(&catalog.models, gpu, &topo));
        assert!(Arc::ptr_eq(&first, &super::memo::rows(&catalog.models, gpu, &topo)));
        assert!(Arc::ptr_eq(&first, &super::memo::rows(&catalog.models.clone(), gpu, &topo)));
        assert!(super::memo::rows(&Models::default(), gpu, &topo).is_empty());
        let mut bigger = gpu.clone();
        bigger.memory_gib *= 2.0;
        let other = super::memo::rows(&catalog.models, &bigger, &topo);
        assert!(!Arc::ptr_eq(&first, &other));
        assert_eq!(*other, fit_matrix(&catalog.models, &bigger, &topo));
        let four = Topology::new(gpu, 4, 1, false, 0.0);
        assert_eq!(*super::memo::rows(&catalog.models, gpu, &four), fit_matrix(&catalog.models, gpu, &four));
    }

    #[test]
    fn identical_groups_share_their_rows_and_others_get_their_own() {
        let catalog = Catalog::embedded().unwrap();
        let gpu = PartId::from("gpu/nvidia-geforce-rtx-4090");
        let mut b = Build::new("t");
        b.add_part(Location::Node(0), &gpu, 2).unwrap();
        b.add_node(b.nodes[0].clone()).unwrap();
        let mut other = NodeGroup::new("one card");
        other.parts = vec![crate::core::build::PartLine::new(gpu.clone(), 1)];
        b.add_node(other).unwrap();
        let resolved = Resolved::new(&catalog, &b);
        let m = build_fit(&resolved);
        assert_eq!(m.len(), 3);
        assert_eq!(m[0].rows, m[1].rows);
        assert_eq!((m[1].node, m[2].node), (1, 2), "each matrix keeps its own group");
        let card = catalog.gpu(&gpu).unwrap();
        assert_eq!(
            *m[1].rows,
            fit_matrix(&catalog.models, card, &m[1].topology),
            "a reused matrix is the one computed"
        );
        assert_eq!(*m[2].rows, fit_matrix(&catalog.models, card, &m[2].topology));
        assert_ne!(m[0].rows, m[2].rows, "one card is not two");
    }

    #[test]
    fn every_note_has_the_same_placeholders_in_both_languages() {
        crate::core::i18n::assert_table_is_translated(super::NOTES);
    }

    #[test]
    fn localized_matrices_keep_sharing_their_rows() {
        let catalog = Catalog::embedded().unwrap();
        let gpu = PartId::from("gpu/nvidia-geforce-rtx-4090");
        let mut b = Build::new("t");
        b.add_part(Location::Node(0), &gpu, 1).unwrap();
        b.add_node(b.nodes[0].clone()).unwrap();
        let mut m = build_fit(&Resolved::new(&catalog, &b));
        let english = m.clone();
        super::localize_matrices(&mut m, crate::core::i18n::Lang::ZhCn);
        assert!(std::sync::Arc::ptr_eq(&m[0].rows, &m[1].rows), "one localized copy for both groups");
        let notes = |m: &[super::FitMatrix]| -> Vec<String> {
            m[0].rows
                .iter()
                .flat_map(|r| r.cells.iter().filter_map(|c| c.note.as_ref().map(ToString::to_string)))
                .collect()
        };
        let (zh, en) = (notes(&m), notes(&english));
        assert!(!zh.is_empty() && zh.len() == en.len(), "a 24 GB card leaves some models unfit: {en:?}");
        assert!(
            zh.iter().zip(&en).all(|(z, e)| z != e && z.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))),
            "{zh:?}"
        );
        super::localize_matrices(&mut m, crate::core::i18n::Lang::En);
        assert_eq!(m, english, "English again is the matrix as computed");
    }

    #[test]
    fn binary_search_finds_the_boundary() {
        assert_eq!(largest_fitting(100, |x| x <= 37), Some(37));
        assert_eq!(largest_fitting(100, |x| x <= 100), Some(100));
        assert_eq!(largest_fitting(100, |_| false), None);
        assert_eq!(largest_fitting(0, |_| true), None);
    }
}
