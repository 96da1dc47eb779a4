//! The cloud side of the TCO: how an option is sold and billed, and which catalog and custom
//! offers rent the build's GPUs in instances that hold its nodes, priced in the build's
//! currency.

use crate::core::analysis::bom::convert_price;
use crate::core::catalog::{CloudOffer, GpuFormFactor, PartId, PriceCheck};
use crate::core::resolve::Resolved;
use crate::core::units::{Currency, MONTHS_PER_YEAR};
use serde::Serialize;
use std::collections::BTreeSet;

/// How a cloud option is sold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    OnDemand,
    #[serde(rename = "reserved_1y")]
    Reserved1y,
    #[serde(rename = "reserved_3y")]
    Reserved3y,
    Spot,
    /// A monthly subscription (包月), paid every month whether used or not.
    Monthly,
    /// A user-entered offer.
    Custom,
}

impl Term {
    /// The suffix of option ids (`aws-p5-48xlarge:on_demand`).
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            Self::OnDemand => "on_demand",
            Self::Reserved1y => "reserved_1y",
            Self::Reserved3y => "reserved_3y",
            Self::Spot => "spot",
            Self::Monthly => "monthly",
            Self::Custom => "custom",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Self::OnDemand => "on-demand",
            Self::Reserved1y => "1-year reserved",
            Self::Reserved3y => "3-year reserved",
            Self::Spot => "spot",
            Self::Monthly => "monthly subscription",
            Self::Custom => "custom",
        }
    }

    /// Every term, in the order option ids and messages list them.
    pub const ALL: [Self; 6] =
        [Self::OnDemand, Self::Reserved1y, Self::Reserved3y, Self::Spot, Self::Monthly, Self::Custom];

    /// The term whose [`Term::key`] is `key`.
    #[must_use]
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.key() == key)
    }
}

/// What a cloud option charges for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Billing {
    /// Used hours only: instances × 8,760 h × utilization × (1 + overhead).
    UsedHours,
    /// Every hour of the year, used or not.
    EveryHour,
    /// A fixed amount per year.
    FixedAnnual,
}

/// One way of renting the capacity, priced in the build's currency.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CloudOptionInput {
    /// `<offer id>:<term>`.
    pub id: String,
    pub offer: String,
    /// Human-readable name, e.g. "AWS p5.48xlarge, on-demand".
    pub label: String,
    pub term: Term,
    pub billing: Billing,
    /// Instances rented (node groups × nodes × instances per node).
    pub instances: u64,
    pub gpus_rented: u64,
    /// For hourly billing: the price of all rented instances per hour; for a fixed annual
    /// quote or a monthly subscription: the amount per year. Build currency.
    pub price: f64,
    /// Extra paid hours for work lost to interruptions, fraction of the used hours (spot).
    pub overhead_fraction: f64,
    pub gpu: Option<PartId>,
    pub region: Option<String>,
    pub price_date: Option<String>,
    pub price_check: Option<PriceCheck>,
    pub source: String,
}

/// One cloud option with its results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CloudOption {
    #[serde(flatten)]
    pub input: CloudOptionInput,
    pub per_year: f64,
    pub per_month: f64,
    pub total: f64,
    pub present_value: f64,
    /// Month in which owning has cost as much as this option; `None` if never.
    pub break_even_month: Option<f64>,
    /// Total over the GPU-hours actually used.
    pub cost_per_gpu_hour: Option<f64>,
    /// True when owning costs less than this option over the horizon.
    pub owning_cheaper: bool,
}

// ---------------------------------------------------------------------------------------------
// From a build

/// The GPUs of a build as the matcher sees them.
pub(super) struct GpuShape {
    /// Distinct GPU models.
    pub(super) models: BTreeSet<PartId>,
    /// Per node group: nodes in the group, GPUs per node, and whether the node's GPUs are
    /// linked (SXM/OAM modules on a baseboard, or PCIe cards with NVLink bridges) so that only
    /// an instance holding the whole node rents the same capacity.
    groups: Vec<(u32, u32, bool)>,
}

impl GpuShape {
    pub(super) fn of(resolved: &Resolved<'_>) -> Self {
        let mut models = BTreeSet::new();
        let mut groups = Vec::new();
        for node in &resolved.nodes {
            for g in &node.parts.gpus {
                models.insert(g.part.id.clone());
            }
            let linked =
                node.nvlink_bridge || node.parts.gpus.iter().any(|g| g.part.form_factor != GpuFormFactor::Pcie);
            groups.push((node.count, node.parts.gpu_count(), linked));
        }
        Self { models, groups }
    }

    /// True when instances of `per_instance` GPUs can stand in for every node: linked nodes
    /// need an instance with at least their GPU count, independent PCIe cards can be rented
    /// one instance at a time.
    pub(super) fn fits(&self, per_instance: u32) -> bool {
        self.groups.iter().all(|&(_, gpus, linked)| !linked || per_instance >= gpus)
    }

    /// The GPU count of the largest linked node, if any node is linked (for messages).
    pub(super) fn largest_linked_node(&self) -> Option<u32> {
        self.groups.iter().filter(|g| g.2 && g.1 > 1).map(|g| g.1).max()
    }

    /// Instances needed to give every node its GPUs with `per_instance` GPUs each.
    pub(super) fn instances(&self, per_instance: u32) -> u64 {
        let per_instance = per_instance.max(1);
        self.groups.iter().map(|&(count, gpus, _)| u64::from(count) * u64::from(gpus.div_ceil(per_instance))).sum()
    }
}

/// The options of one catalog offer for `instances`, priced in the build currency
/// (`currency`, `usd_rate` of it per USD) from the offer's own currency
/// ([`convert_price`]): hourly terms as the price of all instances per hour, a monthly
/// subscription as a fixed amount per year (12 months).
pub(super) fn offer_options(
    offer: &CloudOffer,
    instances: u64,
    (currency, usd_rate): (&Currency, f64),
    spot_overhead: f64,
    only: Option<Term>,
) -> Vec<CloudOptionInput> {
    let terms = [
        (Term::OnDemand, Some(offer.on_demand_per_hour), Billing::UsedHours),
        (Term::Reserved1y, offer.reserved_1y_per_hour, Billing::EveryHour),
        (Term::Reserved3y, offer.reserved_3y_per_hour, Billing::EveryHour),
        (Term::Spot, offer.spot_per_hour, Billing::UsedHours),
        (Term::Monthly, offer.monthly_per_month.map(|m| m * MONTHS_PER_YEAR), Billing::FixedAnnual),
    ];
    terms
        .into_iter()
        .filter(|(term, _, _)| only.is_none_or(|t| t == *term))
        .filter_map(|(term, amount, billing)| {
            let amount = convert_price(amount?, &offer.currency.0, currency, usd_rate)?;
            Some(CloudOptionInput {
                id: format!("{}:{}", offer.id, term.key()),
                offer: offer.id.clone(),
                label: format!("{} {}, {}", offer.provider, offer.instance, term.label()),
                term,
                billing,
                instances,
                gpus_rented: instances * u64::from(offer.gpus_per_instance),
                price: amount * instances as f64,
                overhead_fraction: if term == Term::Spot { spot_overhead } else { 0.0 },
                gpu: Some(offer.gpu.clone()),
                region: Some(offer.region.clone()),
                price_date: Some(offer.price_date.clone()),
                price_check: Some(offer.price_check),
                source: offer.source.clone(),
            })
        })
        .collect()
}

/// A catalog offer and term the build can be compared against: what the app's "Cloud offer"
/// choice lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OfferChoice {
    /// `<offer id>:<term>`, the value of `costs.chosen_offer` that selects it.
    pub id: String,
    pub offer: String,
    pub term: Term,
}

/// The catalog offers that rent one of the build's GPU models in instances that hold its
/// linked nodes, one entry per term the offer prices, in catalog order. A build that mixes
/// models lists the offers of each (the analysis then compares against the chosen one).
#[must_use]
pub fn offer_choices(resolved: &Resolved<'_>) -> Vec<OfferChoice> {
    let shape = GpuShape::of(resolved);
    let rate = (&resolved.build.site.currency, resolved.build.site.usd_exchange_rate);
    resolved
        .catalog
        .clouds
        .iter()
        .filter(|o| shape.models.contains(&o.gpu) && shape.fits(o.gpus_per_instance))
        .flat_map(|o| offer_options(o, 1, rate, 0.0, None))
        .map(|o| OfferChoice { id: o.id, offer: o.offer, term: o.term })
        .collect()
}
