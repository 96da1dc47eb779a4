//! Network adapters and switches.

use super::{PartId, PartKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Network technology.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum NetTech {
    Ethernet,
    InfiniBand,
    /// VPI cards that run either.
    Vpi,
}

impl fmt::Display for NetTech {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Ethernet => "Ethernet",
            Self::InfiniBand => "InfiniBand",
            Self::Vpi => "InfiniBand/Ethernet (VPI)",
        })
    }
}

/// A network adapter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Nic {
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

    pub tech: NetTech,
    pub ports: u8,
    pub port_speed_gbps: f64,
    pub pcie_gen: u8,
    pub pcie_lanes: u8,
    pub max_watts: f64,
}
catalog_entry!(Nic, PartKind::Nic);

/// A network switch (cluster-level part).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Switch {
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

    pub tech: NetTech,
    pub ports: u16,
    pub port_speed_gbps: f64,
    pub rack_units: u8,
    pub typical_watts: f64,
    pub max_watts: f64,
}
catalog_entry!(Switch, PartKind::Switch);
