//! The build document and its pure edit operations.
//!
//! A [`Build`] is what a user plans and saves: one or more node groups (a node definition ×
//! count), cluster-level parts (switches, shared storage), price overrides, custom line items,
//! and the site and usage settings the analyses need. Parts are referenced by id; an id the
//! catalog does not know is kept as it is (reported by the analyses, written back on save), so
//! nothing a user had is lost.
//!
//! Edits are pure functions on the document ([`Build::add_part`], [`Build::remove_part`],
//! [`Build::move_part`], [`Build::set_quantity`], …) that return a [`EditError`] when they
//! cannot apply; the GUI's command layer calls them and records undo.

use crate::core::catalog::PartId;
use crate::core::units::Currency;
use serde::{Deserialize, Serialize};

/// Most node groups in one build.
pub const MAX_NODE_GROUPS: usize = 256;
/// Most nodes in one group (the `×N` count).
pub const MAX_NODE_COUNT: u32 = 1_024;
/// Most nodes in a build across all groups. Large training clusters (a few thousand GPUs)
/// stay well within this; a larger number is almost always a typo.
pub const MAX_TOTAL_NODES: u64 = 4_096;
/// Most units on one part line.
pub const MAX_QUANTITY: u32 = 1_024;
/// Most part lines per node group or cluster section.
pub const MAX_LINES: usize = 512;
/// Most part lines in a whole build (all node groups and the cluster section). Real builds
/// have tens; the bound keeps the worst case a file can describe (reports, exports, the GUI's
/// canvas) proportionate: 256 groups × 512 lines would otherwise be 131,072 lines.
pub const MAX_TOTAL_LINES: usize = 4_096;
/// Most custom line items.
pub const MAX_CUSTOM_LINES: usize = 256;
/// Most price overrides. Every bill-of-materials line looks its part up among them, so an
/// unbounded list (a file can hold 100,000 in its 8 MiB) would make the analysis crawl.
pub const MAX_PRICE_OVERRIDES: usize = 1_024;
/// Longest name or text field, characters.
pub const MAX_TEXT_CHARS: usize = 4_096;

/// A part in a node or the cluster section, with its quantity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PartLine {
    pub part: PartId,
    pub quantity: u32,
    /// PCIe slot positions chosen for the units of this line (GPUs, NICs), in order. Empty
    /// means "place automatically".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slots: Vec<u8>,
}

impl PartLine {
    #[must_use]
    pub fn new(part: impl Into<PartId>, quantity: u32) -> Self {
        Self { part: part.into(), quantity, slots: Vec::new() }
    }
}

/// PSU redundancy scheme of a node: how many installed PSUs are spares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Redundancy {
    /// Every installed PSU carries load.
    #[default]
    None,
    /// One spare: usable capacity is (n − 1) units.
    NPlusOne,
    /// Half are spares (two power feeds): usable capacity is n / 2 units.
    NPlusN,
}

impl Redundancy {
    /// Units that carry load out of `installed`.
    #[must_use]
    pub fn active_units(self, installed: u32) -> u32 {
        match self {
            Self::None => installed,
            Self::NPlusOne => installed.saturating_sub(1),
            Self::NPlusN => installed / 2,
        }
    }
}

/// A node definition and how many identical nodes the build has.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeGroup {
    pub name: String,
    pub count: u32,
    pub parts: Vec<PartLine>,
    #[serde(default)]
    pub psu_redundancy: Redundancy,
    /// True when the node's PCIe GPUs are joined by NVLink bridges (cards that support them,
    /// in pairs or the groups their bridge allows).
    #[serde(default)]
    pub nvlink_bridge: bool,
}

impl NodeGroup {
    #[must_use]
    pub fn new(name: impl Into<String>) -> Self {
        Self { name: name.into(), count: 1, parts: Vec::new(), psu_redundancy: Redundancy::None, nvlink_bridge: false }
    }
}

/// Whether a custom line is a one-off purchase or a yearly cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CostKind {
    #[default]
    Capex,
    OpexPerYear,
}

/// A cost that is not a catalog part (installation, cabling, racks, support contracts).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomLine {
    pub name: String,
    /// Amount in the build's currency, per unit.
    pub amount: f64,
    #[serde(default = "one")]
    pub quantity: u32,
    #[serde(default)]
    pub kind: CostKind,
}

fn one() -> u32 {
    1
}

/// A price the user negotiated or looked up, replacing the catalog price for one part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceOverride {
    pub part: PartId,
    /// Unit price in the build's currency.
    pub unit_price: f64,
    #[serde(default)]
    pub note: String,
}

/// Where the build runs: money and electricity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Site {
    /// Currency of every amount in the build (ISO 4217).
    pub currency: Currency,
    /// Units of `currency` per US dollar (catalog prices are in USD).
    pub usd_exchange_rate: f64,
    /// Electricity price per kWh, in `currency`.
    pub electricity_per_kwh: f64,
    /// Power usage effectiveness of the facility (1.0 for an office; about 1.56 for an average
    /// data center, Uptime Institute Global Data Center Survey 2024).
    pub pue: f64,
    /// Inlet air temperature, °C.
    pub ambient_c: f64,
    /// Circuit voltage, V: phase-to-neutral for single-phase circuits, line-to-line for
    /// three-phase ones (e.g. 380 V in China, 400 V in the EU, 208 V in US data centers).
    pub circuit_volts: f64,
    /// Circuit breaker rating, A.
    pub circuit_amps: f64,
    /// 1 for a single-phase outlet, 3 for a three-phase (wye) rack feed.
    #[serde(default = "single_phase")]
    pub circuit_phases: u8,
}

fn single_phase() -> u8 {
    1
}

/// Share of a breaker's rating a continuous load (3 h or more) may draw: the 80 % rule of the
/// US National Electrical Code, NFPA 70 §210.19(A)(1) and §210.20(A) (continuous loads at
/// 125 % of their current), which rigplan applies everywhere as a conservative default.
pub const CONTINUOUS_LOAD_FRACTION: f64 = 0.8;

impl Site {
    /// Nominal capacity of the circuit, watts: V × I for one phase, √3 × V(line-to-line) × I for
    /// a balanced three-phase feed (IEC 60038 nominal voltages; the standard three-phase power
    /// formula).
    #[must_use]
    pub fn circuit_nominal_watts(&self) -> f64 {
        if self.circuit_phases == 3 {
            3f64.sqrt() * self.circuit_volts * self.circuit_amps
        } else {
            self.circuit_volts * self.circuit_amps
        }
    }

    /// Continuous capacity: nominal × [`CONTINUOUS_LOAD_FRACTION`] (a US 120 V / 15 A outlet
    /// gives 1440 W).
    #[must_use]
    pub fn circuit_continuous_watts(&self) -> f64 {
        self.circuit_nominal_watts() * CONTINUOUS_LOAD_FRACTION
    }

    /// The voltage a PSU sees: the circuit voltage on one phase, line-to-neutral (V / √3) on a
    /// three-phase wye feed (380 V line-to-line → 220 V).
    #[must_use]
    pub fn psu_input_volts(&self) -> f64 {
        if self.circuit_phases == 3 { self.circuit_volts / 3f64.sqrt() } else { self.circuit_volts }
    }
}

impl Default for Site {
    /// A US office: USD, 120 V / 15 A circuit, 25 °C room, PUE 1.0 and the US average
    /// commercial electricity price of 0.13 USD/kWh (EIA Electric Power Monthly, table 5.6.A,
    /// 2024 average for the commercial sector: 12.9 ¢/kWh).
    fn default() -> Self {
        Self {
            currency: Currency::default(),
            usd_exchange_rate: 1.0,
            electricity_per_kwh: 0.13,
            pue: 1.0,
            ambient_c: 25.0,
            circuit_volts: 120.0,
            circuit_amps: 15.0,
            circuit_phases: 1,
        }
    }
}

/// How the build is used over its life.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Usage {
    /// Average fraction of the time the GPUs are busy, 0–1.
    pub utilization: f64,
    /// Planning horizon, years.
    pub horizon_years: f64,
    /// The work the build is bought for, when the user states it: TCO then prices a token
    /// served or trained and a whole training run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<PlannedWorkload>,
}

impl Default for Usage {
    fn default() -> Self {
        Self { utilization: 0.7, horizon_years: 3.0, workload: None }
    }
}

/// A model and one of the standard workloads of the fit matrix
/// (`crate::core::analysis::fit::WorkloadKind` ids such as `inference-bf16-4k` or
/// `full-ft-zero3`), with the tokens of one training run when one is planned.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlannedWorkload {
    /// Model catalog id, e.g. `llama-3.1-8b`.
    pub model: String,
    /// Workload id from the fit matrix.
    pub workload: String,
    /// Tokens of one training run (fine-tuning or pre-training), if a run is planned.
    #[serde(default)]
    pub run_tokens: Option<f64>,
}

/// Default depreciation life, years: the field guides advise replacing deep-learning hardware
/// every three years (field guide 000, §4.3 升级路径规划: "建议每3年进行硬件迭代"), which is also
/// the horizon of their cost example.
pub const DEFAULT_DEPRECIATION_LIFE_YEARS: f64 = 3.0;

/// How a custom cloud offer is priced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CustomPricing {
    /// A price per GPU-hour in the build's currency. Billed for used hours only (on-demand
    /// style) unless `every_hour` is set (a reservation that bills every hour of the year).
    PerGpuHour {
        price: f64,
        #[serde(default)]
        every_hour: bool,
    },
    /// A fixed amount per year in the build's currency for the whole capacity, whatever the
    /// utilization (a negotiated quote, or a yearly figure such as the field guides' 450k CNY).
    AnnualQuote { per_year: f64 },
}

/// A cloud offer the user entered: a quote, or a provider that is not in the cloud catalog.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomOffer {
    /// Stable id, a slug (`a-z`, `0-9`, `-`, `.`, `_`); `rigplan tco --offer ID` selects it.
    pub id: String,
    pub name: String,
    pub pricing: CustomPricing,
}

/// The owner's cost settings: what capex percentages, running costs and finance assumptions
/// the TCO analysis uses. Every amount is in the build's currency (`site.currency`); every
/// percentage is 0–100.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Costs {
    /// Sales tax or VAT on the parts, % of the parts total.
    pub tax_percent: f64,
    /// Shipping, % of the parts total.
    pub shipping_percent: f64,
    /// Installation and integration, % of the parts total.
    pub installation_percent: f64,
    /// Colocation price per kW of provisioned (maximum wall) power per month.
    pub colocation_per_kw_month: f64,
    /// True when the colocation price includes the electricity: energy is then not counted
    /// again.
    pub colocation_includes_power: bool,
    /// Maintenance and support contracts per year, % of capex.
    pub maintenance_percent_per_year: f64,
    /// Staff cost attributable to the build, per year.
    pub staff_per_year: f64,
    /// Software licences, per year.
    pub licences_per_year: f64,
    /// Straight-line depreciation life, years.
    pub depreciation_life_years: f64,
    /// Resale (residual) value at the end of the depreciation life, % of capex.
    pub residual_percent: f64,
    /// Yearly discount rate for the present-value view, %.
    pub discount_rate_percent: f64,
    /// A yearly owned cost entered as one figure (the field guides give "267k CNY per year
    /// including power and maintenance"). When set it replaces the computed energy and
    /// maintenance lines.
    pub annual_owned_cost: Option<f64>,
    /// True when `annual_owned_cost` already includes depreciation (the "267k is 800k / 3"
    /// reading); the analysis then takes depreciation out of it to get the operating cost.
    pub annual_cost_includes_depreciation: bool,
    /// Extra paid hours on spot capacity for work lost to interruptions, % of the used hours.
    pub spot_overhead_percent: f64,
    /// Cloud offers the user entered.
    pub custom_offers: Vec<CustomOffer>,
    /// The offer (`<offer id>`, or `<offer id>:<term>`) to compare against; `None` picks the
    /// cheapest matching on-demand offer.
    pub chosen_offer: Option<String>,
}

/// An offer choice (`<offer id>` or `<offer id>:<term>`, as [`Costs::chosen_offer`] and
/// `--offer` write it) split into the offer id and the term's key.
#[must_use]
pub fn split_offer_choice(choice: &str) -> (&str, Option<&str>) {
    choice.split_once(':').map_or((choice, None), |(offer, term)| (offer, Some(term)))
}

impl Costs {
    /// The id of the chosen offer, without its term.
    #[must_use]
    pub fn chosen_offer_id(&self) -> Option<&str> {
        self.chosen_offer.as_deref().map(|c| split_offer_choice(c).0)
    }
}

impl Default for Costs {
    fn default() -> Self {
        Self {
            tax_percent: 0.0,
            shipping_percent: 0.0,
            installation_percent: 0.0,
            colocation_per_kw_month: 0.0,
            colocation_includes_power: false,
            maintenance_percent_per_year: 0.0,
            staff_per_year: 0.0,
            licences_per_year: 0.0,
            depreciation_life_years: DEFAULT_DEPRECIATION_LIFE_YEARS,
            residual_percent: 0.0,
            discount_rate_percent: 0.0,
            annual_owned_cost: None,
            annual_cost_includes_depreciation: false,
            spot_overhead_percent: 0.0,
            custom_offers: Vec::new(),
            chosen_offer: None,
        }
    }
}

/// The build document.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Build {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub nodes: Vec<NodeGroup>,
    /// Parts shared by the cluster rather than inside a node: switches, storage enclosures.
    #[serde(default)]
    pub cluster: Vec<PartLine>,
    #[serde(default)]
    pub price_overrides: Vec<PriceOverride>,
    #[serde(default)]
    pub custom_lines: Vec<CustomLine>,
    #[serde(default)]
    pub site: Site,
    #[serde(default)]
    pub usage: Usage,
    /// Cost settings for the TCO analysis.
    #[serde(default)]
    pub costs: Costs,
}

impl Default for Build {
    fn default() -> Self {
        Self::new("Untitled build")
    }
}

/// Where a part line lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Location {
    /// In node group `i`.
    Node(usize),
    /// In the cluster section.
    Cluster,
}

/// Why an edit could not be applied. The document is unchanged when an edit fails.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("there is no node {0} in this build")]
    NoSuchNode(usize),
    #[error("there is no part line {line} in {location}")]
    NoSuchLine { location: String, line: usize },
    #[error("a quantity must be between 1 and {MAX_QUANTITY}; {0} is not")]
    Quantity(u64),
    #[error("a node count must be between 1 and {MAX_NODE_COUNT}; {0} is not")]
    NodeCount(u64),
    #[error("a build has at most {MAX_NODE_GROUPS} node groups")]
    TooManyNodes,
    #[error("a build has at most {MAX_TOTAL_NODES} nodes in all; this change would make {0}")]
    TooManyTotalNodes(u64),
    #[error("a node or the cluster section holds at most {MAX_LINES} part lines")]
    TooManyLines,
    #[error("a build holds at most {MAX_TOTAL_LINES} part lines in all")]
    TooManyTotalLines,
    #[error("a build needs at least one node")]
    LastNode,
}

impl EditError {
    /// The error as a sentence in any language (capitalised, with a full stop, in English),
    /// for the app's notices and drop refusals.
    #[must_use]
    pub fn text(&self) -> crate::core::i18n::Text {
        use crate::text;
        match self {
            Self::NoSuchNode(n) => text!(EDIT_NO_SUCH_NODE, n = n.to_string()),
            Self::NoSuchLine { location, line } => {
                text!(EDIT_NO_SUCH_LINE, line = line.to_string(), location = location.as_str())
            }
            Self::Quantity(n) => text!(EDIT_QUANTITY, max = MAX_QUANTITY.to_string(), n = n.to_string()),
            Self::NodeCount(n) => text!(EDIT_NODE_COUNT, max = MAX_NODE_COUNT.to_string(), n = n.to_string()),
            Self::TooManyNodes => text!(EDIT_TOO_MANY_NODES, max = MAX_NODE_GROUPS.to_string()),
            Self::TooManyTotalNodes(n) => {
                text!(EDIT_TOO_MANY_TOTAL_NODES, max = MAX_TOTAL_NODES.to_string(), n = n.to_string())
            }
            Self::TooManyLines => text!(EDIT_TOO_MANY_LINES, max = MAX_LINES.to_string()),
            Self::TooManyTotalLines => text!(EDIT_TOO_MANY_TOTAL_LINES, max = MAX_TOTAL_LINES.to_string()),
            Self::LastNode => text!(EDIT_LAST_NODE),
        }
    }
}

crate::templates! {
    pub(crate) EDIT_TEMPLATES;
    EDIT_NO_SUCH_NODE "" { en: "There is no node {n} in this build.", zh: "此配置方案中没有节点 {n}。" }
    EDIT_NO_SUCH_LINE "" { en: "There is no part line {line} in {location}.", zh: "{location} 中没有第 {line} 行部件。" }
    EDIT_QUANTITY "" {
        en: "A quantity must be between 1 and {max}; {n} is not.",
        zh: "数量须在 1 到 {max} 之间；{n} 不在此范围内。",
    }
    EDIT_NODE_COUNT "" {
        en: "A node count must be between 1 and {max}; {n} is not.",
        zh: "节点数须在 1 到 {max} 之间；{n} 不在此范围内。",
    }
    EDIT_TOO_MANY_NODES "" { en: "A build has at most {max} node groups.", zh: "一个配置方案最多有 {max} 个节点组。" }
    EDIT_TOO_MANY_TOTAL_NODES "" {
        en: "A build has at most {max} nodes in all; this change would make {n}.",
        zh: "一个配置方案最多共有 {max} 个节点；此修改会使节点数变为 {n}。",
    }
    EDIT_TOO_MANY_LINES "" {
        en: "A node or the cluster section holds at most {max} part lines.",
        zh: "每个节点或集群区最多有 {max} 行部件。",
    }
    EDIT_TOO_MANY_TOTAL_LINES "" {
        en: "A build holds at most {max} part lines in all.",
        zh: "一个配置方案最多共有 {max} 行部件。",
    }
    EDIT_LAST_NODE "" { en: "A build needs at least one node.", zh: "配置方案至少需要一个节点。" }
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Node(i) => write!(f, "node {}", i + 1),
            Self::Cluster => f.write_str("the cluster section"),
        }
    }
}

impl Build {
    /// An empty build with one empty node.
    #[must_use]
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            description: String::new(),
            nodes: vec![NodeGroup::new("Node 1")],
            cluster: Vec::new(),
            price_overrides: Vec::new(),
            custom_lines: Vec::new(),
            site: Site::default(),
            usage: Usage::default(),
            costs: Costs::default(),
        }
    }

    /// Part lines across all node groups and the cluster section.
    #[must_use]
    pub fn total_lines(&self) -> usize {
        self.nodes.iter().map(|n| n.parts.len()).sum::<usize>() + self.cluster.len()
    }

    /// Total nodes across all groups.
    #[must_use]
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| u64::from(n.count)).sum()
    }

    /// The part lines at a location.
    #[must_use]
    pub fn lines(&self, at: Location) -> Option<&Vec<PartLine>> {
        match at {
            Location::Node(i) => self.nodes.get(i).map(|n| &n.parts),
            Location::Cluster => Some(&self.cluster),
        }
    }

    fn lines_mut(&mut self, at: Location) -> Result<&mut Vec<PartLine>, EditError> {
        match at {
            Location::Node(i) => self.nodes.get_mut(i).map(|n| &mut n.parts).ok_or(EditError::NoSuchNode(i)),
            Location::Cluster => Ok(&mut self.cluster),
        }
    }

    /// Adds `quantity` of a part at a location. If the location already has a line for that
    /// part (with automatic placement), its quantity grows; otherwise a line is appended.
    /// Returns the index of the line.
    ///
    /// # Errors
    /// No such node, a quantity out of range, or too many lines.
    pub fn add_part(&mut self, at: Location, part: &PartId, quantity: u32) -> Result<usize, EditError> {
        check_quantity(u64::from(quantity))?;
        let total_lines = self.total_lines();
        let lines = self.lines_mut(at)?;
        if let Some(i) = lines.iter().position(|l| &l.part == part && l.slots.is_empty()) {
            let Some(line) = lines.get_mut(i) else {
                return Err(EditError::NoSuchLine { location: at.to_string(), line: i });
            };
            let new_quantity = u64::from(line.quantity) + u64::from(quantity);
            check_quantity(new_quantity)?;
            line.quantity = u32::try_from(new_quantity).map_err(|_| EditError::Quantity(new_quantity))?;
            return Ok(i);
        }
        if lines.len() >= MAX_LINES {
            return Err(EditError::TooManyLines);
        }
        if total_lines >= MAX_TOTAL_LINES {
            return Err(EditError::TooManyTotalLines);
        }
        lines.push(PartLine::new(part.clone(), quantity));
        Ok(lines.len() - 1)
    }

    /// Removes a whole part line and returns it.
    ///
    /// # Errors
    /// No such node or line.
    pub fn remove_part(&mut self, at: Location, line: usize) -> Result<PartLine, EditError> {
        let lines = self.lines_mut(at)?;
        if line >= lines.len() {
            return Err(EditError::NoSuchLine { location: at.to_string(), line });
        }
        Ok(lines.remove(line))
    }

    /// Sets the quantity of a line. A quantity of 0 is refused (remove the line instead).
    ///
    /// # Errors
    /// No such node or line, or a quantity out of range.
    pub fn set_quantity(&mut self, at: Location, line: usize, quantity: u32) -> Result<(), EditError> {
        check_quantity(u64::from(quantity))?;
        let location = at.to_string();
        let lines = self.lines_mut(at)?;
        let l = lines.get_mut(line).ok_or(EditError::NoSuchLine { location, line })?;
        l.quantity = quantity;
        l.slots.truncate(quantity as usize);
        Ok(())
    }

    /// Moves `quantity` units of a line to another location (all of them when `quantity` is
    /// the line's quantity), merging with a matching line there. Returns the index of the
    /// line at the destination.
    ///
    /// # Errors
    /// No such node or line, or a quantity larger than the line holds.
    pub fn move_part(&mut self, from: Location, line: usize, to: Location, quantity: u32) -> Result<usize, EditError> {
        let source = self.lines(from).ok_or(match from {
            Location::Node(i) => EditError::NoSuchNode(i),
            Location::Cluster => EditError::NoSuchNode(usize::MAX),
        })?;
        let src = source.get(line).ok_or(EditError::NoSuchLine { location: from.to_string(), line })?.clone();
        if quantity == 0 || quantity > src.quantity {
            return Err(EditError::Quantity(u64::from(quantity)));
        }
        if from == to {
            return Ok(line);
        }
        // Validate the destination before changing anything.
        self.lines(to).ok_or(match to {
            Location::Node(i) => EditError::NoSuchNode(i),
            Location::Cluster => EditError::NoSuchNode(usize::MAX),
        })?;
        let mut trial = self.clone();
        let dest = trial.add_part(to, &src.part, quantity)?;
        if quantity == src.quantity {
            trial.remove_part(from, line)?;
        } else {
            trial.set_quantity(from, line, src.quantity - quantity)?;
        }
        *self = trial;
        Ok(dest)
    }

    /// Appends a node group and returns its index.
    ///
    /// # Errors
    /// Too many node groups or nodes.
    pub fn add_node(&mut self, node: NodeGroup) -> Result<usize, EditError> {
        if self.nodes.len() >= MAX_NODE_GROUPS {
            return Err(EditError::TooManyNodes);
        }
        check_node_count(u64::from(node.count))?;
        if node.parts.len() > MAX_LINES {
            return Err(EditError::TooManyLines);
        }
        if self.total_lines() + node.parts.len() > MAX_TOTAL_LINES {
            return Err(EditError::TooManyTotalLines);
        }
        let total = self.total_nodes() + u64::from(node.count);
        if total > MAX_TOTAL_NODES {
            return Err(EditError::TooManyTotalNodes(total));
        }
        self.nodes.push(node);
        Ok(self.nodes.len() - 1)
    }

    /// Duplicates a node group (inserted after it) and returns the new index.
    ///
    /// # Errors
    /// No such node, or too many nodes.
    pub fn duplicate_node(&mut self, i: usize) -> Result<usize, EditError> {
        let mut copy = self.nodes.get(i).ok_or(EditError::NoSuchNode(i))?.clone();
        copy.name = format!("{} (copy)", copy.name);
        if self.nodes.len() >= MAX_NODE_GROUPS {
            return Err(EditError::TooManyNodes);
        }
        if self.total_lines() + copy.parts.len() > MAX_TOTAL_LINES {
            return Err(EditError::TooManyTotalLines);
        }
        let total = self.total_nodes() + u64::from(copy.count);
        if total > MAX_TOTAL_NODES {
            return Err(EditError::TooManyTotalNodes(total));
        }
        self.nodes.insert(i + 1, copy);
        Ok(i + 1)
    }

    /// Removes a node group. The last node cannot be removed.
    ///
    /// # Errors
    /// No such node, or it is the last one.
    pub fn remove_node(&mut self, i: usize) -> Result<NodeGroup, EditError> {
        if i >= self.nodes.len() {
            return Err(EditError::NoSuchNode(i));
        }
        if self.nodes.len() == 1 {
            return Err(EditError::LastNode);
        }
        Ok(self.nodes.remove(i))
    }

    /// Sets how many identical nodes a group stands for.
    ///
    /// # Errors
    /// No such node, or a count out of range.
    pub fn set_node_count(&mut self, i: usize, count: u32) -> Result<(), EditError> {
        check_node_count(u64::from(count))?;
        let current = self.nodes.get(i).ok_or(EditError::NoSuchNode(i))?.count;
        let total = self.total_nodes() - u64::from(current) + u64::from(count);
        if total > MAX_TOTAL_NODES {
            return Err(EditError::TooManyTotalNodes(total));
        }
        if let Some(node) = self.nodes.get_mut(i) {
            node.count = count;
        }
        Ok(())
    }

    /// Fits or removes NVLink bridges between a node group's PCIe cards (the compatibility
    /// rules check that its cards take them).
    ///
    /// # Errors
    /// No such node.
    pub fn set_nvlink_bridge(&mut self, i: usize, on: bool) -> Result<(), EditError> {
        self.nodes.get_mut(i).ok_or(EditError::NoSuchNode(i))?.nvlink_bridge = on;
        Ok(())
    }

    /// Sets how many of a node group's PSUs are spares.
    ///
    /// # Errors
    /// No such node.
    pub fn set_psu_redundancy(&mut self, i: usize, redundancy: Redundancy) -> Result<(), EditError> {
        self.nodes.get_mut(i).ok_or(EditError::NoSuchNode(i))?.psu_redundancy = redundancy;
        Ok(())
    }

    /// Renames a node group.
    ///
    /// # Errors
    /// No such node.
    pub fn rename_node(&mut self, i: usize, name: &str) -> Result<(), EditError> {
        let node = self.nodes.get_mut(i).ok_or(EditError::NoSuchNode(i))?;
        node.name = name.chars().take(MAX_TEXT_CHARS).collect();
        Ok(())
    }

    /// The unit price override for a part, if the build has one.
    #[must_use]
    pub fn price_override(&self, part: &PartId) -> Option<&PriceOverride> {
        self.price_overrides.iter().find(|o| &o.part == part)
    }

    /// What an analysis of this build reads of the catalog: its parts (with those of its
    /// price overrides), every model, the cloud offers that rent its GPUs and its chosen
    /// offer.
    #[must_use]
    pub fn catalog_subset(&self) -> crate::core::catalog::Subset {
        use crate::core::catalog::{CloudSet, ModelSet, Subset};
        let overrides = self.price_overrides.iter().map(|o| &o.part);
        let mut parts: Vec<PartId> = self.part_ids().chain(overrides).cloned().collect();
        parts.sort_unstable();
        parts.dedup();
        Subset {
            parts,
            models: ModelSet::All,
            clouds: CloudSet::ForGpus(self.costs.chosen_offer_id().into_iter().map(str::to_owned).collect()),
        }
    }

    /// Every part id referenced by the build (nodes then cluster), with duplicates.
    pub fn part_ids(&self) -> impl Iterator<Item = &PartId> {
        self.nodes.iter().flat_map(|n| n.parts.iter()).chain(self.cluster.iter()).map(|l| &l.part)
    }
}

fn check_quantity(q: u64) -> Result<(), EditError> {
    if q == 0 || q > u64::from(MAX_QUANTITY) {
        return Err(EditError::Quantity(q));
    }
    Ok(())
}

fn check_node_count(c: u64) -> Result<(), EditError> {
    if c == 0 || c > u64::from(MAX_NODE_COUNT) {
        return Err(EditError::NodeCount(c));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
