//! What the user asks the advisor for: workloads that must all run, a budget, a site and an
//! objective, with the limits every field is checked against.

use crate::core::analysis::memory::{CustomArch, Mode, WeightType};
use crate::core::catalog::{ModelId, PartId};
use crate::core::export::SheetDate;
use crate::core::units::Currency;
use serde::{Deserialize, Serialize};

/// System memory as a multiple of the node's GPU memory: the field guide's advice that the
/// compatibility rule `system-memory-below-vram` also applies (field guide 000 §1.2,
/// "内存容量应至少为GPU显存的1.5倍"), adjustable per requirement.
pub const DEFAULT_RAM_TO_VRAM: f64 = crate::core::analysis::compat::RAM_TO_VRAM_RATIO;

/// Smallest system memory the advisor gives a node, GiB: what an operating system and a
/// data loader need even beside a small GPU (a rigplan assumption, the smallest DIMM pair of
/// the catalog's desktop boards).
pub const MIN_RAM_GIB: f64 = 32.0;

/// Smallest drive capacity of a node, decimal GB, when no dataset size is given: room for
/// the OS, a framework and a few checkpoints (a rigplan assumption).
pub const MIN_STORAGE_GB: f64 = 1_000.0;

/// Default most nodes per candidate for each form.
pub const DEFAULT_MAX_NODES_RACK: u32 = 4;

/// Most GPUs per node the search considers (an 8-GPU HGX baseboard or an 8-bay PCIe server
/// is the largest node the catalog holds).
pub const MAX_GPUS_PER_NODE: u32 = 8;

/// Most nodes a candidate may have.
pub const MAX_NODES: u32 = 64;

/// Decode tokens per second a user gets unless told otherwise: a reading pace (about 7 words
/// per second at 0.75 words per token), a rigplan assumption.
pub const DEFAULT_TOKENS_PER_USER: f64 = 10.0;

/// Most workloads in one requirement.
pub const MAX_WORKLOADS: usize = 8;

/// What a workload does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WorkMode {
    /// Serving a model to concurrent users.
    Inference,
    /// LoRA fine-tuning.
    Lora,
    /// QLoRA fine-tuning (4-bit NF4 base).
    Qlora,
    /// Full fine-tuning (all weights, AdamW, ZeRO-3 across the GPUs).
    FullFinetune,
    /// Pre-training from scratch (as full fine-tuning, on many tokens).
    Pretrain,
}

impl WorkMode {
    pub const ALL: [Self; 5] = [Self::Inference, Self::Lora, Self::Qlora, Self::FullFinetune, Self::Pretrain];

    /// The memory model's mode.
    #[must_use]
    pub fn mode(self) -> Mode {
        match self {
            Self::Inference => Mode::Inference,
            Self::Lora => Mode::Lora,
            Self::Qlora => Mode::Qlora,
            Self::FullFinetune | Self::Pretrain => Mode::Train,
        }
    }

    /// The stable id (`inference`, `lora`, `qlora`, `full-finetune`, `pretrain`).
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::Inference => "inference",
            Self::Lora => "lora",
            Self::Qlora => "qlora",
            Self::FullFinetune => "full-finetune",
            Self::Pretrain => "pretrain",
        }
    }

    /// The mode with this id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.id() == id)
    }

    /// The weight type a workload of this mode uses unless told otherwise: bf16, NF4 for QLoRA.
    #[must_use]
    pub fn default_weights(self) -> WeightType {
        if self == Self::Qlora { WeightType::Nf4 } else { WeightType::Bf16 }
    }
}

/// One workload the build must run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorkloadReq {
    /// The catalog model, or for a custom architecture the name it is shown under.
    pub model: ModelId,
    /// A model not in the catalog, by its architecture (`rigplan fit`'s shape flags); when
    /// set, `model` is only its name.
    pub custom: Option<CustomArch>,
    pub mode: WorkMode,
    pub weights: WeightType,
    /// Tokens per sequence (prompt plus output for inference); capped at the model's maximum.
    pub context: u32,
    /// Inference: concurrent users (sequences decoded together).
    pub users: u32,
    /// Inference: decode tokens per second each user must get.
    pub tokens_per_user: f64,
    /// Training: tokens to train on.
    pub train_tokens: Option<f64>,
    /// Training: hours the run may take (`None`: as fast as possible).
    pub deadline_hours: Option<f64>,
}

impl WorkloadReq {
    /// A workload of a custom architecture, named as `rigplan fit` names it.
    #[must_use]
    pub fn custom(arch: CustomArch, mode: WorkMode) -> Self {
        Self { custom: Some(arch), ..Self::new(ModelId(arch.name()), mode) }
    }

    /// A workload with the defaults of its mode: 4096-token context for inference and 2048
    /// for training, one user at 10 tokens/s (a reading pace, about 7 words/s), no token count.
    #[must_use]
    pub fn new(model: ModelId, mode: WorkMode) -> Self {
        Self {
            model,
            custom: None,
            mode,
            weights: mode.default_weights(),
            context: if mode == WorkMode::Inference { 4096 } else { 2048 },
            users: 1,
            tokens_per_user: DEFAULT_TOKENS_PER_USER,
            train_tokens: None,
            deadline_hours: None,
        }
    }
}

/// Electrical circuits at the site.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Circuits {
    pub volts: f64,
    pub amps: f64,
    /// 1 or 3.
    pub phases: u8,
    /// Circuits of this rating available.
    pub count: u32,
}

/// What kind of machine fits the room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Form {
    /// A desk-side tower workstation (one node).
    Tower,
    /// Rack servers, one or more nodes.
    Rack,
    /// An edge box: an embedded module or small system.
    Edge,
}

impl Form {
    pub const ALL: [Self; 3] = [Self::Tower, Self::Rack, Self::Edge];

    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::Tower => "tower",
            Self::Rack => "rack",
            Self::Edge => "edge",
        }
    }

    #[must_use]
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Most nodes a candidate of this form has unless the user says otherwise.
    #[must_use]
    pub fn default_max_nodes(self) -> u32 {
        match self {
            Self::Tower | Self::Edge => 1,
            Self::Rack => DEFAULT_MAX_NODES_RACK,
        }
    }
}

/// The site.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SiteReq {
    pub circuits: Circuits,
    pub ambient_c: f64,
    pub form: Form,
    /// Electricity price per kWh in the requirement's currency.
    pub electricity_per_kwh: f64,
    pub pue: f64,
}

/// What the ranking of the front puts first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Objective {
    /// Lowest capital cost.
    Capex,
    /// Lowest total cost of ownership over the horizon.
    Tco,
    /// Fastest: most served tokens/s (inference) or shortest time to result (training).
    Fastest,
    /// Lowest wall power at maximum load.
    Power,
}

impl Objective {
    pub const ALL: [Self; 4] = [Self::Capex, Self::Tco, Self::Fastest, Self::Power];

    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::Capex => "capex",
            Self::Tco => "tco",
            Self::Fastest => "fastest",
            Self::Power => "power",
        }
    }

    #[must_use]
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.id() == id)
    }
}

/// Optional limits on the search.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Filters {
    /// Most nodes (default: 1 for towers and edge boxes, [`DEFAULT_MAX_NODES_RACK`] for racks).
    pub max_nodes: Option<u32>,
    /// Most GPUs per node (default [`MAX_GPUS_PER_NODE`]).
    pub max_gpus_per_node: Option<u32>,
    /// Only parts of these vendors (case-insensitive); empty means any.
    pub vendors: Vec<String>,
    /// Never parts of these vendors.
    pub exclude_vendors: Vec<String>,
    /// Every candidate must contain each of these parts (e.g. a GPU the user has chosen).
    pub require_parts: Vec<PartId>,
    /// Never these parts.
    pub exclude_parts: Vec<PartId>,
    /// Only parts whose catalog price is dated on or after this day.
    pub priced_since: Option<SheetDate>,
}

/// Everything the advisor is asked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Requirement {
    pub workloads: Vec<WorkloadReq>,
    /// Capex ceiling in `currency`.
    pub budget: f64,
    /// Optional ceiling of the owned TCO over the horizon, in `currency`.
    pub tco_budget: Option<f64>,
    pub currency: Currency,
    /// Units of `currency` per USD (USD catalog prices convert at it; see
    /// [`crate::core::analysis::bom::convert_price`] for CNY ones).
    pub usd_exchange_rate: f64,
    pub site: SiteReq,
    pub objective: Objective,
    pub filters: Filters,
    /// System memory as a multiple of the node's GPU memory ([`DEFAULT_RAM_TO_VRAM`]).
    pub ram_to_vram: f64,
    /// Dataset to store on each node, decimal GB.
    pub dataset_gb: Option<f64>,
    pub horizon_years: f64,
    pub utilization: f64,
    /// Parts to explain: for each, the first constraint that keeps it off the front.
    pub why_not: Vec<PartId>,
}

impl Requirement {
    /// A requirement with the given workloads and budget and the defaults: a tower on one
    /// 220 V / 10 A outlet at 25 °C (the entry tier of the field guides), capex first, 3 years
    /// at 50 % utilization, 1 CNY/kWh.
    #[must_use]
    pub fn new(workloads: Vec<WorkloadReq>, budget: f64, currency: Currency, usd_exchange_rate: f64) -> Self {
        Self {
            workloads,
            budget,
            tco_budget: None,
            currency,
            usd_exchange_rate,
            site: SiteReq {
                circuits: Circuits { volts: 220.0, amps: 10.0, phases: 1, count: 1 },
                ambient_c: 25.0,
                form: Form::Tower,
                electricity_per_kwh: 1.0,
                pue: 1.0,
            },
            objective: Objective::Capex,
            filters: Filters::default(),
            ram_to_vram: DEFAULT_RAM_TO_VRAM,
            dataset_gb: None,
            horizon_years: 3.0,
            utilization: 0.5,
            why_not: Vec::new(),
        }
    }

    /// Most nodes a candidate may have.
    #[must_use]
    pub fn max_nodes(&self) -> u32 {
        self.filters.max_nodes.unwrap_or_else(|| self.site.form.default_max_nodes()).clamp(1, MAX_NODES)
    }

    /// Most GPUs per node.
    #[must_use]
    pub fn max_gpus_per_node(&self) -> u32 {
        self.filters.max_gpus_per_node.unwrap_or(MAX_GPUS_PER_NODE).clamp(1, MAX_GPUS_PER_NODE)
    }

    /// Checks every field against its range.
    ///
    /// # Errors
    /// The first field out of range, named by its path.
    pub fn validate(&self) -> Result<(), RequirementError> {
        let bad = |field: &str, value: f64, range: &str| {
            let value = crate::core::units::format_number(value);
            Err(RequirementError { field: field.to_owned(), message: format!("{value} is outside {range}") })
        };
        if self.workloads.is_empty() {
            return Err(RequirementError { field: "workloads".to_owned(), message: "name at least one".to_owned() });
        }
        if self.workloads.len() > MAX_WORKLOADS {
            return Err(RequirementError {
                field: "workloads".to_owned(),
                message: format!("{} workloads; at most {MAX_WORKLOADS}", self.workloads.len()),
            });
        }
        let finite_in = |v: f64, lo: f64, hi: f64| v.is_finite() && (lo..=hi).contains(&v);
        for (i, w) in self.workloads.iter().enumerate() {
            let f = |name: &str| format!("workloads[{i}].{name}");
            if !(1..=1_048_576).contains(&w.context) {
                return bad(&f("context"), f64::from(w.context), "1–1,048,576 tokens");
            }
            if !(1..=100_000).contains(&w.users) {
                return bad(&f("users"), f64::from(w.users), "1–100,000");
            }
            if !finite_in(w.tokens_per_user, 0.01, 10_000.0) {
                return bad(&f("tokens_per_user"), w.tokens_per_user, "0.01–10,000 tokens/s");
            }
            if let Some(t) = w.train_tokens
                && !finite_in(t, 1.0, 1.0e16)
            {
                return bad(&f("train_tokens"), t, "1–10¹⁶");
            }
            if let Some(h) = w.deadline_hours
                && !finite_in(h, 0.01, 1.0e6)
            {
                return bad(&f("deadline_hours"), h, "0.01–1,000,000 h");
            }
        }
        if !finite_in(self.budget, 0.0, 1.0e12) {
            return bad("budget", self.budget, "0–10¹²");
        }
        if let Some(t) = self.tco_budget
            && !finite_in(t, 0.0, 1.0e13)
        {
            return bad("tco_budget", t, "0–10¹³");
        }
        if !finite_in(self.usd_exchange_rate, 1.0e-6, 1.0e6) {
            return bad("usd_exchange_rate", self.usd_exchange_rate, "10⁻⁶–10⁶");
        }
        let c = &self.site.circuits;
        if !finite_in(c.volts, 90.0, 480.0) {
            return bad("site.circuits.volts", c.volts, "90–480 V");
        }
        if !finite_in(c.amps, 1.0, 1_000.0) {
            return bad("site.circuits.amps", c.amps, "1–1,000 A");
        }
        if !matches!(c.phases, 1 | 3) {
            return bad("site.circuits.phases", f64::from(c.phases), "1 or 3");
        }
        if !(1..=1_000).contains(&c.count) {
            return bad("site.circuits.count", f64::from(c.count), "1–1,000");
        }
        if !finite_in(self.site.ambient_c, -20.0, 55.0) {
            return bad("site.ambient_c", self.site.ambient_c, "−20–55 °C");
        }
        if !finite_in(self.site.electricity_per_kwh, 0.0, 10_000.0) {
            return bad("site.electricity_per_kwh", self.site.electricity_per_kwh, "0–10,000");
        }
        if !finite_in(self.site.pue, 1.0, 3.0) {
            return bad("site.pue", self.site.pue, "1–3");
        }
        if !finite_in(self.ram_to_vram, 0.0, 16.0) {
            return bad("ram_to_vram", self.ram_to_vram, "0–16");
        }
        if let Some(d) = self.dataset_gb
            && !finite_in(d, 0.0, 1.0e9)
        {
            return bad("dataset_gb", d, "0–10⁹ GB");
        }
        if !finite_in(self.horizon_years, 0.25, 15.0) {
            return bad("horizon_years", self.horizon_years, "0.25–15 years");
        }
        if !finite_in(self.utilization, 0.0, 1.0) {
            return bad("utilization", self.utilization, "0–1");
        }
        if let Some(n) = self.filters.max_nodes
            && !(1..=MAX_NODES).contains(&n)
        {
            return bad("filters.max_nodes", f64::from(n), "1–64");
        }
        if let Some(n) = self.filters.max_gpus_per_node
            && !(1..=MAX_GPUS_PER_NODE).contains(&n)
        {
            return bad("filters.max_gpus_per_node", f64::from(n), "1–8");
        }
        Ok(())
    }
}

/// A requirement field out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct RequirementError {
    pub field: String,
    pub message: String,
}

/// CNY per USD the advisor converts catalog prices at when asked for CNY without a rate: the
/// round 2024–2025 rate the shipped templates use (`usd_exchange_rate: 7.2` in
/// `catalog/builds/*.ron`; the People's Bank of China central parity moved between 7.10 and
/// 7.20 CNY per USD over 2024), to be replaced with the day's rate by `--usd-rate`.
pub const DEFAULT_CNY_PER_USD: f64 = 7.2;

/// The field guides' three tiers as ready requirements (field guide 000 §3: 3.1 入门级工作站,
/// 3.2 企业级训练集群, 3.3 边缘计算设备), each with the workload, budget and site its template stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Entry workstation: LoRA fine-tuning of an 8B model and serving it to one user, under
    /// 20,000 CNY, desk-side on one 220 V / 10 A office outlet.
    Entry,
    /// Enterprise: full fine-tuning of an 8B model and serving a 70B model to 50 users, 500,000
    /// to 1,000,000 CNY (the ceiling is the budget), rack servers on 380 V three-phase 32 A feeds.
    Enterprise,
    /// Edge: a 4-bit 8B model for one user on an embedded module, lowest wall power first.
    Edge,
}

impl Preset {
    pub const ALL: [Self; 3] = [Self::Entry, Self::Enterprise, Self::Edge];

    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::Entry => "entry",
            Self::Enterprise => "enterprise",
            Self::Edge => "edge",
        }
    }

    #[must_use]
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.id() == id)
    }

    /// The slug of the shipped template of this tier (`catalog/builds/`).
    #[must_use]
    pub fn template(self) -> &'static str {
        match self {
            Self::Entry => "entry-workstation",
            Self::Enterprise => "enterprise-8x-a100-hgx",
            Self::Edge => "edge-jetson-agx-orin",
        }
    }

    /// The requirement of this tier, in CNY at [`DEFAULT_CNY_PER_USD`]. Budgets are the
    /// guide's (entry "预算<2万元"; enterprise "预算50-100万元"); the edge tier names none, and
    /// its 20,000 CNY ceiling is a rigplan assumption (an embedded module and its drive).
    /// Electricity and PUE are the templates' own (0.8 CNY/kWh office, 0.65 CNY/kWh and PUE 1.5
    /// data center).
    #[must_use]
    pub fn requirement(self) -> Requirement {
        let cny = Currency("CNY".to_owned());
        match self {
            Self::Entry => {
                let mut lora = WorkloadReq::new(ModelId("model/meta-llama-3.1-8b".to_owned()), WorkMode::Lora);
                lora.train_tokens = Some(1.0e8);
                let serve = WorkloadReq::new(ModelId("model/meta-llama-3.1-8b".to_owned()), WorkMode::Inference);
                let mut r = Requirement::new(vec![lora, serve], 20_000.0, cny, DEFAULT_CNY_PER_USD);
                r.site.electricity_per_kwh = 0.8;
                r
            }
            Self::Enterprise => {
                let mut train = WorkloadReq::new(ModelId("model/meta-llama-3.1-8b".to_owned()), WorkMode::FullFinetune);
                train.train_tokens = Some(1.0e9);
                let mut serve = WorkloadReq::new(ModelId("model/meta-llama-3.1-70b".to_owned()), WorkMode::Inference);
                serve.users = 50;
                serve.tokens_per_user = 15.0;
                let mut r = Requirement::new(vec![train, serve], 1_000_000.0, cny, DEFAULT_CNY_PER_USD);
                r.site = SiteReq {
                    circuits: Circuits { volts: 380.0, amps: 32.0, phases: 3, count: 2 },
                    ambient_c: 25.0,
                    form: Form::Rack,
                    electricity_per_kwh: 0.65,
                    pue: 1.5,
                };
                r.utilization = 0.7;
                r
            }
            Self::Edge => {
                let mut serve = WorkloadReq::new(ModelId("model/meta-llama-3.1-8b".to_owned()), WorkMode::Inference);
                serve.weights = WeightType::Int4;
                serve.context = 2048;
                let mut r = Requirement::new(vec![serve], 20_000.0, cny, DEFAULT_CNY_PER_USD);
                r.site.form = Form::Edge;
                r.site.electricity_per_kwh = 0.8;
                r.objective = Objective::Power;
                r
            }
        }
    }
}
