//! Power supplies and CPU coolers.

use super::shared::ConnectorCount;
use super::{PartId, PartKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// 80 PLUS certification level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum EfficiencyTier {
    /// 80 PLUS (white / standard).
    Standard,
    Bronze,
    Silver,
    Gold,
    Platinum,
    Titanium,
}

impl fmt::Display for EfficiencyTier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Standard => "80 PLUS",
            Self::Bronze => "80 PLUS Bronze",
            Self::Silver => "80 PLUS Silver",
            Self::Gold => "80 PLUS Gold",
            Self::Platinum => "80 PLUS Platinum",
            Self::Titanium => "80 PLUS Titanium",
        })
    }
}

/// PSU mechanical form factor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum PsuFormFactor {
    Atx,
    Sfx,
    /// Common Redundant Power Supply (OCP CRPS) hot-swap module.
    Crps,
    /// A vendor-specific hot-swap server module.
    ServerModule,
}

/// A power supply (quantities count units; a node's redundancy setting says how many of them
/// are spares).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Psu {
    pub id: PartId,
    pub name: String,
    pub vendor: String,
    #[serde(default)]
    pub sku: Option<String>,
    #[serde(default)]
    pub price_usd: Option<f64>,
    #[serde(default)]
    pub price_date: Option<String>,
    /// A price in another currency than USD, with its date: `price: (amount: 12999.0,
    /// currency: "CNY", date: "2024-01-01")`; `price_usd` + `price_date` are the USD form.
    #[serde(default)]
    pub price: Option<super::Price>,
    pub source: String,

    pub form_factor: PsuFormFactor,
    /// Rated continuous DC output at high line (200–240 V), watts.
    pub rated_watts: f64,
    /// Rated output at low line (100–127 V) where it is lower (server PSUs), watts; `0.0`
    /// for modules that do not run at low line at all (C19/C20-inlet high-line-only units).
    #[serde(default)]
    pub low_line_watts: Option<f64>,
    pub efficiency: EfficiencyTier,
    /// ATX version, e.g. `3.1`, for excursion tolerance (None for server modules and ATX 2.x).
    #[serde(default)]
    pub atx_version: Option<String>,
    /// GPU and CPU power connectors the unit provides (server PSUs feed a power board and list
    /// none; their chassis provides GPU power).
    #[serde(default)]
    pub connectors: Vec<ConnectorCount>,
}
catalog_entry!(Psu, PartKind::Psu);

/// CPU cooler type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CoolerKind {
    /// Tower or top-down air cooler.
    Air,
    /// All-in-one liquid cooler.
    Aio,
    /// Custom water loop (pump, radiators, blocks); may cool GPUs too.
    CustomLoop,
    /// Passive server heatsink relying on chassis airflow.
    ServerHeatsink,
}

/// A CPU cooler or liquid loop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cooler {
    pub id: PartId,
    pub name: String,
    pub vendor: String,
    #[serde(default)]
    pub sku: Option<String>,
    #[serde(default)]
    pub price_usd: Option<f64>,
    #[serde(default)]
    pub price_date: Option<String>,
    /// A price in another currency than USD, with its date: `price: (amount: 12999.0,
    /// currency: "CNY", date: "2024-01-01")`; `price_usd` + `price_date` are the USD form.
    #[serde(default)]
    pub price: Option<super::Price>,
    pub source: String,

    pub kind: CoolerKind,
    pub sockets: Vec<String>,
    /// Heat the cooler is rated to remove, watts (vendor TDP rating or a measured figure;
    /// the source says which).
    pub rated_heat_watts: f64,
    /// Height above the board (air coolers), mm.
    #[serde(default)]
    pub height_mm: Option<f64>,
    /// Radiator length (AIO, custom loop), mm.
    #[serde(default)]
    pub radiator_mm: Option<f64>,
    /// True when the loop also cools GPUs (custom loops with GPU blocks).
    #[serde(default)]
    pub cools_gpus: bool,
    /// Draw of fans and pump, watts.
    pub typical_watts: f64,
    /// The chassis whose price includes this cooler (a barebone's passive heatsinks): no
    /// price of its own, nothing to pay beyond one of these chassis.
    #[serde(default)]
    pub price_included_with: Vec<PartId>,
}
catalog_entry!(Cooler, PartKind::Cooler);
