//! GPUs: memory, form factor, interconnect, throughput, power and thermal limits.

use super::shared::ConnectorCount;
use super::{PartId, PartKind};
use serde::{Deserialize, Serialize};
use std::fmt;

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
    /// Huawei HCCS (Huawei Cache Coherence System): the full mesh that joins the Ascend NPUs of
    /// one server (eight modules in an Atlas 800T A2), every module linked to every other.
    /// No published HCCS latency was found (no Huawei datasheet, CANN document or HCCL test
    /// result read gives one), so the link's all-reduce latency is NVLink's, an assumption
    /// ([`crate::core::analysis::speed::NVLINK_ROUND_LATENCY_S`]).
    Hccs {
        /// Aggregate peer-to-peer GB/s per NPU, both directions.
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
            | Self::InfinityFabric { bandwidth_gbs }
            | Self::Hccs { bandwidth_gbs } => Some(*bandwidth_gbs),
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
    /// A price in another currency than USD, with its date: `price: (amount: 12999.0,
    /// currency: "CNY", date: "2024-01-01")`; `price_usd` + `price_date` are the USD form.
    #[serde(default)]
    pub price: Option<super::Price>,
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
    /// Dense FP4 tensor throughput, TFLOPS, where supported (Blackwell on).
    #[serde(default)]
    pub fp4_tensor_tflops: Option<f64>,
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

    /// The precisions the part's tensor (matrix) units run natively, lowest bit width last.
    /// A precision is native exactly when the datasheet gives the part a dense rate for it
    /// (`fp16_tensor_tflops` for every part; `bf16_`, `fp8_`, `fp4_tensor_tflops`,
    /// `int8_tops` where present): BF16 from Ampere (and on Ascend 910B, CDNA 2, MLU370), FP8
    /// from Ada and Hopper (and CDNA 3), FP4 from Blackwell. One source of truth, so that a
    /// rate and the support it implies cannot disagree.
    #[must_use]
    pub fn tensor_precisions(&self) -> Vec<Precision> {
        let mut out = vec![Precision::Fp16];
        for (precision, rate) in [
            (Precision::Bf16, self.bf16_tensor_tflops),
            (Precision::Fp8, self.fp8_tensor_tflops),
            (Precision::Int8, self.int8_tops),
            (Precision::Fp4, self.fp4_tensor_tflops),
        ] {
            if rate.is_some() {
                out.push(precision);
            }
        }
        out
    }

    /// True when the tensor units run `precision` natively ([`Self::tensor_precisions`]).
    #[must_use]
    pub fn supports(&self, precision: Precision) -> bool {
        match precision {
            Precision::Fp16 => true,
            Precision::Bf16 => self.bf16_tensor_tflops.is_some(),
            Precision::Fp8 => self.fp8_tensor_tflops.is_some(),
            Precision::Int8 => self.int8_tops.is_some(),
            Precision::Fp4 => self.fp4_tensor_tflops.is_some(),
        }
    }
}

/// A number format a tensor (matrix) unit computes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Precision {
    Fp16,
    Bf16,
    Fp8,
    Int8,
    Fp4,
}

impl Precision {
    /// The first architectures with native tensor support, for messages (NVIDIA's
    /// architecture whitepapers: BF16 with Ampere, FP8 with Ada and Hopper, FP4 with
    /// Blackwell; INT8 tensor cores from Turing).
    #[must_use]
    pub fn introduced_with(self) -> &'static str {
        match self {
            Self::Fp16 => "Volta",
            Self::Bf16 => "Ampere",
            Self::Fp8 => "Ada Lovelace and Hopper",
            Self::Int8 => "Turing",
            Self::Fp4 => "Blackwell",
        }
    }
}

impl fmt::Display for Precision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Fp16 => "FP16",
            Self::Bf16 => "BF16",
            Self::Fp8 => "FP8",
            Self::Int8 => "INT8",
            Self::Fp4 => "FP4",
        })
    }
}
