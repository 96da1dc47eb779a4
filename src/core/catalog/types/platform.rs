//! The platform a node is built on: CPUs, mainboards and GPU baseboards, and system memory.

use super::gpu::GpuFormFactor;
use super::shared::{BoardFormFactor, DimmKind, MemoryType};
use super::{PartId, PartKind};
use serde::{Deserialize, Serialize};

/// A processor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cpu {
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

    pub cores: u16,
    pub threads: u16,
    pub base_ghz: f64,
    pub boost_ghz: f64,
    /// TDP / PBP / default TDP, watts.
    pub tdp_watts: f64,
    /// Intel Maximum Turbo Power (PL2) or AMD PPT, watts, where it exceeds TDP.
    #[serde(default)]
    pub max_power_watts: Option<f64>,
    /// Typical package idle draw, watts.
    pub idle_watts: f64,
    /// Socket name, e.g. `AM5`, `LGA1700`, `sTR5`, `SP3`, `SP5`, `LGA4189`, `LGA4677`.
    pub socket: String,
    /// Memory generations the memory controller supports.
    pub memory_types: Vec<MemoryType>,
    /// Memory channels per socket.
    pub memory_channels: u8,
    /// Maximum memory per socket, GiB.
    pub max_memory_gib: f64,
    pub pcie_gen: u8,
    /// PCIe lanes from the CPU usable for devices (per socket).
    pub pcie_lanes: u16,
    /// Most sockets the part supports in one system (1, 2, 4, 8).
    pub max_sockets: u8,
    /// Maximum junction / case temperature, °C.
    pub tjmax_c: f64,
}
catalog_entry!(Cpu, PartKind::Cpu);

/// A PCIe slot on a board, by its expansion-slot position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PcieSlot {
    /// Expansion-slot position counted from the CPU side, 1-based; a card of width `w` in
    /// position `p` covers positions `p..p+w`.
    pub position: u8,
    pub pcie_gen: u8,
    /// Physical slot size (x16, x8, x4, x1).
    pub physical_lanes: u8,
    /// Electrical lanes wired to the slot.
    pub electrical_lanes: u8,
}

/// GPU positions on an SXM or OAM baseboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GpuBaseboard {
    pub form_factor: GpuFormFactor,
    pub positions: u8,
    /// NVSwitch chips on the board (0 for direct-attached NVLink or Infinity Fabric).
    pub nvswitch_count: u8,
}

/// Whether a board is a mainboard (CPUs, memory, slots) or a GPU baseboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoardRole {
    Mainboard,
    GpuBaseboard,
}

/// A motherboard, server board, or SXM/OAM GPU baseboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Motherboard {
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

    pub role: BoardRole,
    pub form_factor: BoardFormFactor,
    /// CPU socket (None for GPU baseboards).
    #[serde(default)]
    pub socket: Option<String>,
    /// Number of CPU sockets (0 for GPU baseboards).
    #[serde(default)]
    pub cpu_sockets: u8,
    #[serde(default)]
    pub chipset: Option<String>,
    #[serde(default)]
    pub memory_type: Option<MemoryType>,
    /// Module styles the board accepts.
    #[serde(default)]
    pub dimm_kinds: Vec<DimmKind>,
    #[serde(default)]
    pub dimm_slots: u16,
    /// Memory channels on the board in total (all sockets).
    #[serde(default)]
    pub memory_channels: u8,
    /// Maximum memory the board supports in total, GiB.
    #[serde(default)]
    pub max_memory_gib: f64,
    #[serde(default)]
    pub pcie_slots: Vec<PcieSlot>,
    #[serde(default)]
    pub m2_slots: u8,
    #[serde(default)]
    pub sata_ports: u8,
    /// EPS 8-pin CPU power inputs on the board.
    #[serde(default)]
    pub eps_connectors: u8,
    /// For GPU baseboards: the module positions.
    #[serde(default)]
    pub baseboard: Option<GpuBaseboard>,
    /// Typical draw of the board itself (chipset, VRM losses, NVSwitches on baseboards),
    /// watts, where the vendor publishes it.
    #[serde(default)]
    pub typical_watts: Option<f64>,
    /// The chassis whose price includes this board (a server barebone's proprietary board):
    /// the board has no price of its own and costs nothing beyond one of these chassis.
    #[serde(default)]
    pub price_included_with: Vec<PartId>,
}
catalog_entry!(Motherboard, PartKind::Motherboard);

/// One memory module (quantities count modules).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Memory {
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

    pub memory_type: MemoryType,
    pub dimm_kind: DimmKind,
    pub ecc: bool,
    pub capacity_gib: f64,
    pub speed_mts: u32,
    /// Typical draw under load, watts per module.
    pub typical_watts: f64,
}
catalog_entry!(Memory, PartKind::Memory);
