//! The schema of the parts catalog: one struct per part kind, as written in `catalog/<kind>.ron`.
//!
//! Conventions (see `../shared/guide/domain.md` §1):
//! - units are in field names (`tdp_watts`, `memory_gib`, `length_mm`, `price_usd`);
//! - tensor throughput is **dense** (not 2:4 sparse) and, for GeForce cards, the rate with
//!   FP32 accumulation (what PyTorch fp16/bf16 matmuls use);
//! - NVLink bandwidth is the bidirectional total per GPU, as NVIDIA quotes it;
//! - every entry names where its numbers came from (`source`) and the date of its price.
//!
//! Every struct denies unknown fields so that a typo in a catalog file is an error with a
//! location, not a silently ignored value.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A stable part identifier: `<kind>/<slug>`, e.g. `gpu/nvidia-h100-sxm5-80gb`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PartId(pub String);

impl PartId {
    #[must_use]
    pub fn new(id: impl Into<String>) -> Self {
        Self(id.into())
    }

    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The kind prefix of the id (`gpu` for `gpu/nvidia-rtx-4090`), if it names a known kind.
    #[must_use]
    pub fn kind(&self) -> Option<PartKind> {
        let (prefix, _) = self.0.split_once('/')?;
        PartKind::from_prefix(prefix)
    }
}

impl fmt::Display for PartId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for PartId {
    fn from(s: String) -> Self {
        Self(s)
    }
}

impl From<&str> for PartId {
    fn from(s: &str) -> Self {
        Self(s.to_owned())
    }
}

/// The kinds of parts, one catalog file each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartKind {
    Gpu,
    Cpu,
    Motherboard,
    Memory,
    Storage,
    Psu,
    Cooler,
    Chassis,
    Nic,
    Switch,
    System,
}

impl PartKind {
    /// Every kind, in palette order.
    pub const ALL: [Self; 11] = [
        Self::Gpu,
        Self::Cpu,
        Self::Motherboard,
        Self::Memory,
        Self::Storage,
        Self::Psu,
        Self::Cooler,
        Self::Chassis,
        Self::Nic,
        Self::Switch,
        Self::System,
    ];

    /// The id prefix and catalog file stem (`gpu` → `catalog/gpu.ron`).
    #[must_use]
    pub fn prefix(self) -> &'static str {
        match self {
            Self::Gpu => "gpu",
            Self::Cpu => "cpu",
            Self::Motherboard => "motherboard",
            Self::Memory => "memory",
            Self::Storage => "storage",
            Self::Psu => "psu",
            Self::Cooler => "cooler",
            Self::Chassis => "chassis",
            Self::Nic => "nic",
            Self::Switch => "switch",
            Self::System => "system",
        }
    }

    #[must_use]
    pub fn from_prefix(prefix: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.prefix() == prefix)
    }

    /// The catalog file name for this kind.
    #[must_use]
    pub fn file_name(self) -> String {
        format!("{}.ron", self.prefix())
    }
}

impl fmt::Display for PartKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.prefix())
    }
}

/// The fields every catalog entry has, borrowed from the concrete struct.
#[derive(Clone, Copy, Debug)]
pub struct Meta<'a> {
    pub id: &'a PartId,
    pub name: &'a str,
    pub vendor: &'a str,
    pub sku: Option<&'a str>,
    pub price_usd: Option<f64>,
    pub price_date: Option<&'a str>,
    pub source: &'a str,
}

/// Implemented by every part struct: gives its common fields and kind.
pub trait CatalogEntry {
    const KIND: PartKind;
    fn meta(&self) -> Meta<'_>;
}

macro_rules! catalog_entry {
    ($ty:ty, $kind:expr) => {
        impl CatalogEntry for $ty {
            const KIND: PartKind = $kind;
            fn meta(&self) -> Meta<'_> {
                Meta {
                    id: &self.id,
                    name: &self.name,
                    vendor: &self.vendor,
                    sku: self.sku.as_deref(),
                    price_usd: self.price_usd,
                    price_date: self.price_date.as_deref(),
                    source: &self.source,
                }
            }
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Shared enums

/// DRAM generation of system memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum MemoryType {
    Ddr4,
    Ddr5,
    Lpddr5,
}

impl fmt::Display for MemoryType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Ddr4 => "DDR4",
            Self::Ddr5 => "DDR5",
            Self::Lpddr5 => "LPDDR5",
        })
    }
}

/// DIMM module style. Boards take either unbuffered or registered modules, not both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum DimmKind {
    /// Unbuffered DIMM (desktop boards).
    Udimm,
    /// Registered DIMM (server and workstation boards).
    Rdimm,
    /// Load-reduced DIMM (server boards; accepted where RDIMMs are).
    Lrdimm,
    /// Small-outline DIMM (laptops, some small-form-factor boards).
    Sodimm,
    /// Memory soldered to the board or module (LPDDR on Jetson).
    Soldered,
}

impl fmt::Display for DimmKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Udimm => "UDIMM",
            Self::Rdimm => "RDIMM",
            Self::Lrdimm => "LRDIMM",
            Self::Sodimm => "SO-DIMM",
            Self::Soldered => "soldered",
        })
    }
}

/// Board form factors, for board-vs-chassis fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum BoardFormFactor {
    MiniItx,
    MicroAtx,
    Atx,
    /// Extended ATX (305 × 330 mm and vendor variants up to 277 mm deep).
    Eatx,
    /// SSI EEB (305 × 330 mm) workstation/server boards.
    SsiEeb,
    /// SSI CEB (305 × 267 mm).
    SsiCeb,
    /// A vendor-proprietary server board that only fits its own chassis.
    Proprietary,
    /// A GPU baseboard (HGX, OAM UBB) mounted in a GPU server chassis.
    GpuBaseboard,
}

impl fmt::Display for BoardFormFactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::MiniItx => "Mini-ITX",
            Self::MicroAtx => "Micro-ATX",
            Self::Atx => "ATX",
            Self::Eatx => "E-ATX",
            Self::SsiEeb => "SSI-EEB",
            Self::SsiCeb => "SSI-CEB",
            Self::Proprietary => "proprietary",
            Self::GpuBaseboard => "GPU baseboard",
        })
    }
}

/// Power connectors on PSUs, GPUs and boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum PowerConnector {
    /// PCIe 6-pin auxiliary, 75 W (PCIe CEM).
    Pcie6Pin,
    /// PCIe 8-pin auxiliary, 150 W (PCIe CEM).
    Pcie8Pin,
    /// 16-pin 12VHPWR / 12V-2x6, up to 600 W (PCIe CEM 5.x, ATX 3.x).
    Hpwr16Pin,
    /// 8-pin EPS12V (CPU power; also the auxiliary input of A100/H100 PCIe and RTX A6000
    /// class cards), 300 W per NVIDIA's board specifications.
    Eps8Pin,
    /// 4-pin ATX12V (older CPU power).
    Atx4Pin,
}

impl PowerConnector {
    /// Rated continuous power of one connector in watts (PCIe CEM 4.0/5.0; ATX 3.0 for 12VHPWR;
    /// EPS12V 8-pin at 300 W as in NVIDIA's A100 PCIe product brief PB-10137, table 3).
    #[must_use]
    pub fn rated_watts(self) -> f64 {
        match self {
            Self::Pcie6Pin => 75.0,
            Self::Pcie8Pin => 150.0,
            Self::Hpwr16Pin => 600.0,
            Self::Eps8Pin => 300.0,
            Self::Atx4Pin => 155.0,
        }
    }
}

impl fmt::Display for PowerConnector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Pcie6Pin => "PCIe 6-pin",
            Self::Pcie8Pin => "PCIe 8-pin",
            Self::Hpwr16Pin => "16-pin 12V-2x6",
            Self::Eps8Pin => "EPS 8-pin",
            Self::Atx4Pin => "ATX 4-pin",
        })
    }
}

/// A count of one connector type.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectorCount {
    pub connector: PowerConnector,
    pub count: u8,
}

// ---------------------------------------------------------------------------------------------
// GPU

/// GPU memory technology.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum GpuMemoryType {
    Gddr6,
    Gddr6x,
    Gddr7,
    Hbm2,
    Hbm2e,
    Hbm3,
    Hbm3e,
    Lpddr5,
}

impl fmt::Display for GpuMemoryType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Gddr6 => "GDDR6",
            Self::Gddr6x => "GDDR6X",
            Self::Gddr7 => "GDDR7",
            Self::Hbm2 => "HBM2",
            Self::Hbm2e => "HBM2e",
            Self::Hbm3 => "HBM3",
            Self::Hbm3e => "HBM3e",
            Self::Lpddr5 => "LPDDR5",
        })
    }
}

/// How a GPU attaches to its host.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum GpuFormFactor {
    /// An add-in card in a PCIe slot.
    Pcie,
    /// NVIDIA SXM2 module (V100), needs an SXM2 baseboard.
    Sxm2,
    /// NVIDIA SXM4 module (A100), needs an HGX A100 baseboard.
    Sxm4,
    /// NVIDIA SXM5 module (H100, H200), needs an HGX H100/H200 baseboard.
    Sxm5,
    /// NVIDIA SXM6 module (B200), needs an HGX B200 baseboard.
    Sxm6,
    /// OCP Accelerator Module (AMD Instinct MI250X, MI300X), needs an OAM UBB.
    Oam,
    /// Integrated in a system-on-module (Jetson); only exists inside a `system` entry.
    Integrated,
}

impl GpuFormFactor {
    /// True for modules that need a matching baseboard rather than a PCIe slot.
    #[must_use]
    pub fn is_module(self) -> bool {
        matches!(self, Self::Sxm2 | Self::Sxm4 | Self::Sxm5 | Self::Sxm6 | Self::Oam)
    }
}

impl fmt::Display for GpuFormFactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Pcie => "PCIe",
            Self::Sxm2 => "SXM2",
            Self::Sxm4 => "SXM4",
            Self::Sxm5 => "SXM5",
            Self::Sxm6 => "SXM6",
            Self::Oam => "OAM",
            Self::Integrated => "integrated",
        })
    }
}

/// How a GPU is cooled, which decides its thermal behaviour next to other cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CoolerStyle {
    /// Axial fans blowing onto the card; exhaust stays in the case.
    OpenAir,
    /// Radial blower exhausting out of the back; made for dense stacking.
    Blower,
    /// No fans; relies on server chassis airflow.
    Passive,
    /// Water block or AIO.
    Liquid,
}

impl fmt::Display for CoolerStyle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::OpenAir => "open-air",
            Self::Blower => "blower",
            Self::Passive => "passive (server airflow)",
            Self::Liquid => "liquid",
        })
    }
}

/// Market segment of a GPU: decides driver licensing notes and default assumptions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum GpuSegment {
    /// GeForce / Radeon consumer cards.
    Consumer,
    /// Professional workstation cards (RTX A6000, RTX 6000 Ada, Radeon PRO).
    Workstation,
    /// Data-center accelerators (A100, H100, L40S, Instinct).
    Datacenter,
    /// Embedded modules (Jetson).
    Embedded,
}

/// GPU-to-GPU interconnect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Interconnect {
    /// Only PCIe between GPUs.
    None,
    /// NVLink through a bridge between neighbouring PCIe cards.
    NvLinkBridge {
        generation: u8,
        /// Bidirectional GB/s per GPU over the bridge(s).
        bandwidth_gbs: f64,
        /// Cards one bridge set joins (2 for most; 4 for H200 NVL).
        max_gpus: u8,
    },
    /// NVLink to an NVSwitch fabric on an HGX baseboard (all-to-all).
    NvLinkSwitch {
        generation: u8,
        /// Bidirectional GB/s per GPU.
        bandwidth_gbs: f64,
    },
    /// AMD Infinity Fabric links between OAM modules on a UBB.
    InfinityFabric {
        /// Aggregate peer-to-peer GB/s per GPU.
        bandwidth_gbs: f64,
    },
}

impl Interconnect {
    /// GPU-to-GPU bandwidth in GB/s (bidirectional) if there is a dedicated link.
    #[must_use]
    pub fn bandwidth_gbs(&self) -> Option<f64> {
        match self {
            Self::None => None,
            Self::NvLinkBridge { bandwidth_gbs, .. }
            | Self::NvLinkSwitch { bandwidth_gbs, .. }
            | Self::InfinityFabric { bandwidth_gbs } => Some(*bandwidth_gbs),
        }
    }
}

/// A graphics card or accelerator module.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gpu {
    pub id: PartId,
    pub name: String,
    pub vendor: String,
    #[serde(default)]
    pub sku: Option<String>,
    #[serde(default)]
    pub price_usd: Option<f64>,
    #[serde(default)]
    pub price_date: Option<String>,
    pub source: String,

    pub architecture: String,
    pub segment: GpuSegment,
    pub memory_gib: f64,
    pub memory_type: GpuMemoryType,
    pub memory_bandwidth_gbs: f64,
    /// Non-tensor FP32 throughput, TFLOPS.
    pub fp32_tflops: f64,
    /// Dense FP16 tensor throughput with FP32 accumulate, TFLOPS.
    pub fp16_tensor_tflops: f64,
    /// Dense BF16 tensor throughput with FP32 accumulate, TFLOPS (None where BF16 is
    /// unsupported, e.g. V100).
    #[serde(default)]
    pub bf16_tensor_tflops: Option<f64>,
    /// Dense FP8 tensor throughput, TFLOPS, where supported.
    #[serde(default)]
    pub fp8_tensor_tflops: Option<f64>,
    /// Dense INT8 tensor throughput, TOPS.
    #[serde(default)]
    pub int8_tops: Option<f64>,
    /// Board power / TDP, watts.
    pub tdp_watts: f64,
    /// Idle draw at the desktop or idle P-state, watts.
    pub idle_watts: f64,
    /// Measured or specified transient peak (≤ 1 ms), watts, where published.
    #[serde(default)]
    pub transient_peak_watts: Option<f64>,
    pub form_factor: GpuFormFactor,
    /// PCIe generation of the host interface (0 for integrated GPUs).
    pub pcie_gen: u8,
    /// PCIe lanes the card uses (16 for nearly all; 0 for integrated GPUs).
    pub pcie_lanes: u8,
    /// Expansion slots the card occupies (0 for modules). Fractional widths (3.5) cover the
    /// next whole slot.
    pub slot_width: f64,
    /// Card length, mm (None for modules).
    #[serde(default)]
    pub length_mm: Option<f64>,
    /// Auxiliary power connectors on the card.
    #[serde(default)]
    pub power_connectors: Vec<ConnectorCount>,
    pub interconnect: Interconnect,
    /// Maximum operating GPU temperature (slowdown / max GPU temp), °C.
    pub max_temp_c: f64,
    pub cooler: CoolerStyle,
}
catalog_entry!(Gpu, PartKind::Gpu);

impl Gpu {
    /// Dense tensor throughput used for 16-bit training and prefill: BF16 where supported,
    /// otherwise FP16.
    #[must_use]
    pub fn dense_16bit_tflops(&self) -> f64 {
        self.bf16_tensor_tflops.unwrap_or(self.fp16_tensor_tflops)
    }
}

// ---------------------------------------------------------------------------------------------
// CPU

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

// ---------------------------------------------------------------------------------------------
// Motherboard and GPU baseboard

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
}
catalog_entry!(Motherboard, PartKind::Motherboard);

// ---------------------------------------------------------------------------------------------
// Memory

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

// ---------------------------------------------------------------------------------------------
// Storage

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

// ---------------------------------------------------------------------------------------------
// PSU

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

// ---------------------------------------------------------------------------------------------
// Cooler

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
}
catalog_entry!(Cooler, PartKind::Cooler);

// ---------------------------------------------------------------------------------------------
// Chassis

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

// ---------------------------------------------------------------------------------------------
// NIC and switch

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
    pub source: String,

    pub tech: NetTech,
    pub ports: u16,
    pub port_speed_gbps: f64,
    pub rack_units: u8,
    pub typical_watts: f64,
    pub max_watts: f64,
}
catalog_entry!(Switch, PartKind::Switch);

// ---------------------------------------------------------------------------------------------
// Complete systems

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
