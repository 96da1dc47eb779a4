//! Complete systems (DGX, Jetson, …) that come with their own CPU, board, GPUs and PSUs.

use super::{PartId, PartKind};
use serde::{Deserialize, Serialize};

/// A count of a catalog GPU inside a system.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SystemGpu {
    pub gpu: PartId,
    pub count: u8,
}

/// A complete machine or module (DGX, Jetson dev kit): bought and powered as one unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct System {
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

    pub gpus: Vec<SystemGpu>,
    /// Processors, as the datasheet names them.
    pub cpu_description: String,
    pub cpu_cores: u16,
    /// System memory, GiB (shared with the GPU where `unified_memory`).
    pub memory_gib: f64,
    /// True when CPU and GPU share one memory pool (Jetson).
    #[serde(default)]
    pub unified_memory: bool,
    /// Internal storage, decimal GB.
    pub storage_gb: f64,
    pub network_description: String,
    /// Aggregate network bandwidth for cluster fabric, Gb/s.
    #[serde(default)]
    pub fabric_gbps: f64,
    /// Maximum system power from the datasheet, watts.
    pub max_watts: f64,
    /// Idle or minimum power mode, watts.
    pub idle_watts: f64,
    #[serde(default)]
    pub rack_units: Option<u8>,
    /// Installed PSUs: count, rated watts each, and how many are redundant spares.
    #[serde(default)]
    pub psu_count: u8,
    #[serde(default)]
    pub psu_rated_watts: f64,
    #[serde(default)]
    pub psu_redundant: u8,
    /// Airflow through the system, CFM, where published.
    #[serde(default)]
    pub airflow_cfm: Option<f64>,
    /// Operating ambient temperature range upper bound, °C.
    pub max_ambient_c: f64,
}
catalog_entry!(System, PartKind::System);
