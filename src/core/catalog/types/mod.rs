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
//!
//! The part structs live by family: `gpu`, `platform` (CPU, board, memory), `enclosure`
//! (storage, chassis), `power_cooling` (PSU, cooler), `network` (NIC, switch) and `system`,
//! with the enums they share in `shared`.

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
    /// The USD form of the price as written (`price_usd`, `price_date`); read prices through
    /// [`Meta::dated_price`].
    pub price_usd: Option<f64>,
    pub price_date: Option<&'a str>,
    /// The `price` field as written.
    pub price: Option<&'a Price>,
    pub source: &'a str,
}

impl<'a> Meta<'a> {
    /// The entry's price with its currency and date: the `price` field, else the USD form when
    /// it has both an amount and a date; `None` for an unpriced entry.
    #[must_use]
    pub fn dated_price(&self) -> Option<DatedPrice<'a>> {
        match (self.price, self.price_usd, self.price_date) {
            (Some(p), _, _) => Some(DatedPrice { amount: p.amount, currency: p.currency.0.as_str(), date: &p.date }),
            (None, Some(amount), Some(date)) => Some(DatedPrice { amount, currency: "USD", date }),
            _ => None,
        }
    }
}

/// Implemented by every part struct: gives its common fields and kind.
pub trait CatalogEntry {
    const KIND: PartKind;
    fn meta(&self) -> Meta<'_>;
    /// Replaces the entry's price (an imported price list): `price` is set and the USD form
    /// cleared, so that the entry has one price; `source` (where the price came from) is
    /// appended to the entry's source.
    fn set_price(&mut self, price: Price, source: &str);
}

macro_rules! catalog_entry {
    ($ty:ty, $kind:expr) => {
        impl $crate::core::catalog::CatalogEntry for $ty {
            const KIND: $crate::core::catalog::PartKind = $kind;
            fn meta(&self) -> $crate::core::catalog::Meta<'_> {
                $crate::core::catalog::Meta {
                    id: &self.id,
                    name: &self.name,
                    vendor: &self.vendor,
                    sku: self.sku.as_deref(),
                    price_usd: self.price_usd,
                    price_date: self.price_date.as_deref(),
                    price: self.price.as_ref(),
                    source: &self.source,
                }
            }
            fn set_price(&mut self, price: $crate::core::catalog::Price, source: &str) {
                self.source = format!(
                    "{}. Price {} {} ({}) imported from {source}",
                    self.source.trim_end_matches('.'),
                    price.amount,
                    price.currency,
                    price.date
                );
                self.price = Some(price);
                self.price_usd = None;
                self.price_date = None;
            }
        }
    };
}

// The part modules are declared after `catalog_entry!` so that they can use it.
mod enclosure;
mod gpu;
mod network;
mod platform;
mod power_cooling;
mod shared;
mod system;

pub use enclosure::*;
pub use gpu::*;
pub use network::*;
pub use platform::*;
pub use power_cooling::*;
pub use shared::*;
pub use system::*;
