//! Enums more than one part kind shares: memory generations, DIMM kinds, board form
//! factors, power connectors, GPU form factors and cooler styles.

use serde::{Deserialize, Serialize};
use std::fmt;

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

/// Currencies a catalog price may be given in: the catalog's own USD and the yuan of the
/// Chinese market; [`crate::core::analysis::bom::convert_price`] converts between them and a
/// build's currency.
pub const PRICE_CURRENCIES: [&str; 2] = ["USD", "CNY"];

/// A dated price in its currency, as a catalog entry or an imported price list gives it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Price {
    pub amount: f64,
    /// ISO 4217 code, one of [`PRICE_CURRENCIES`].
    pub currency: crate::core::units::Currency,
    /// `YYYY-MM` or `YYYY-MM-DD`.
    pub date: String,
}

/// A catalog entry's price as every consumer reads it: the `price` field, or the USD form
/// (`price_usd` + `price_date`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DatedPrice<'a> {
    pub amount: f64,
    pub currency: &'a str,
    pub date: &'a str,
}
