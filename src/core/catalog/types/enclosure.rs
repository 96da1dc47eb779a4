//! Storage drives and chassis: what goes into the case and the case itself.

use super::gpu::GpuFormFactor;
use super::power_cooling::PsuFormFactor;
use super::shared::{BoardFormFactor, ConnectorCount};
use super::{PartId, PartKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Drive interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum StorageInterface {
    /// NVMe in an M.2 slot.
    NvmeM2,
    /// NVMe in a U.2 / U.3 2.5" bay.
    NvmeU2,
    /// NVMe E1.S / E3.S EDSFF bay.
    NvmeEdsff,
    /// SATA 2.5" SSD.
    Sata25,
    /// SATA or SAS 3.5" hard disk.
    Hdd35,
}

impl fmt::Display for StorageInterface {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NvmeM2 => "NVMe M.2",
            Self::NvmeU2 => "NVMe U.2",
            Self::NvmeEdsff => "NVMe EDSFF",
            Self::Sata25 => "SATA 2.5\"",
            Self::Hdd35 => "HDD 3.5\"",
        })
    }
}

/// A drive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Storage {
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

    pub interface: StorageInterface,
    /// PCIe generation for NVMe drives.
    #[serde(default)]
    pub pcie_gen: Option<u8>,
    /// PCIe lanes for NVMe drives (4 for nearly all).
    #[serde(default)]
    pub pcie_lanes: Option<u8>,
    /// Capacity in decimal GB, as drives are sold.
    pub capacity_gb: f64,
    pub seq_read_mbs: f64,
    pub seq_write_mbs: f64,
    pub idle_watts: f64,
    pub active_watts: f64,
}
catalog_entry!(Storage, PartKind::Storage);

/// Chassis type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ChassisKind {
    Tower,
    Rack,
    /// A disk enclosure without its own CPU (JBOD/JBOF).
    Jbod,
}

/// A case, server chassis, or disk enclosure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chassis {
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

    pub kind: ChassisKind,
    /// Rack units (rack chassis).
    #[serde(default)]
    pub rack_units: Option<u8>,
    pub board_form_factors: Vec<BoardFormFactor>,
    /// Expansion-slot openings at the back.
    pub expansion_slots: u8,
    /// Longest GPU that fits, mm.
    #[serde(default)]
    pub max_gpu_length_mm: Option<f64>,
    /// Tallest CPU cooler that fits, mm.
    #[serde(default)]
    pub max_cooler_height_mm: Option<f64>,
    /// Longest radiator that fits, mm.
    #[serde(default)]
    pub max_radiator_mm: Option<f64>,
    #[serde(default)]
    pub bays_35: u16,
    #[serde(default)]
    pub bays_25: u16,
    /// SXM/OAM baseboard the chassis takes, if it is a GPU server chassis.
    #[serde(default)]
    pub gpu_baseboard: Option<GpuFormFactor>,
    /// Double-width GPU positions in a PCIe GPU server (None for towers: limited by slots).
    #[serde(default)]
    pub gpu_slots: Option<u8>,
    /// Airflow of the fitted fans, CFM (sum of fan ratings, free air).
    pub airflow_cfm: f64,
    /// Draw of the fitted fans at typical duty, watts.
    #[serde(default)]
    pub fan_watts: f64,
    pub psu_form_factor: PsuFormFactor,
    pub psu_bays: u8,
    /// GPU power the chassis' power board supplies to module GPUs or PCIe cards (server
    /// chassis whose PSUs feed a distribution board), by connector.
    #[serde(default)]
    pub gpu_power_connectors: Vec<ConnectorCount>,
    /// PSUs that ship fitted in the chassis (server barebones): they count in power analysis
    /// without being separate build lines, and their price is part of the chassis price.
    #[serde(default)]
    pub included_psus: Vec<IncludedPart>,
}
catalog_entry!(Chassis, PartKind::Chassis);

/// A catalog part that ships inside another (PSUs fitted in a server chassis).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IncludedPart {
    pub part: PartId,
    pub count: u8,
}
