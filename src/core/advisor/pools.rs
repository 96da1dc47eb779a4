//! The parts a search may use: the catalog filtered by the requirement and priced in its
//! currency, each kind sorted by price.

use super::requirement::{Form, Requirement};
use crate::core::analysis::bom::catalog_unit_price;
use crate::core::analysis::compat::is_fabric_nic;
use crate::core::catalog::{
    BoardRole, Catalog, CatalogEntry, Chassis, ChassisKind, Cooler, Cpu, DimmKind, Gpu, GpuFormFactor, Memory,
    Motherboard, Nic, PartId, Psu, Storage, Switch, System,
};

/// A catalog part with its unit price in the requirement's currency.
#[derive(Debug)]
pub struct Priced<'a, T> {
    pub part: &'a T,
    pub price: f64,
    /// The chassis whose price includes this part (`price_included_with`: a barebone's CPU
    /// board or passive heatsinks); inside them it costs nothing.
    pub included_with: &'a [PartId],
    /// Whether the part can be bought on its own at `price` (false for a part that has a price
    /// only as part of its chassis).
    pub standalone: bool,
}

impl<T> Priced<'_, T> {
    /// This part as priced inside `chassis`: free when the chassis' price includes it, at its
    /// own price when it is sold alone, not available otherwise (the BOM's rule:
    /// [`crate::core::analysis::bom::PriceOrigin::Included`]).
    #[must_use]
    pub fn in_chassis(self, chassis: &PartId) -> Option<Self> {
        if self.included_with.contains(chassis) {
            Some(Self { price: 0.0, ..self })
        } else {
            self.standalone.then_some(self)
        }
    }
}

// A reference and a number: copyable whatever `T` is (the derive would ask `T: Copy`).
impl<T> Clone for Priced<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Priced<'_, T> {}

/// The parts the search may use: the catalog filtered by the requirement (vendors, excluded
/// parts, price date) and by price (a part without a price cannot be costed; GPU baseboards
/// are unpriced by the catalog's convention and cost nothing beyond their modules), each
/// list sorted by price.
#[derive(Clone, Debug, Default)]
pub struct Pools<'a> {
    pub gpus: Vec<Priced<'a, Gpu>>,
    pub chassis: Vec<Priced<'a, Chassis>>,
    pub mainboards: Vec<Priced<'a, Motherboard>>,
    pub baseboards: Vec<Priced<'a, Motherboard>>,
    pub cpus: Vec<Priced<'a, Cpu>>,
    pub coolers: Vec<Priced<'a, Cooler>>,
    pub memory: Vec<Priced<'a, Memory>>,
    pub storage: Vec<Priced<'a, Storage>>,
    pub psus: Vec<Priced<'a, Psu>>,
    pub nics: Vec<Priced<'a, Nic>>,
    pub switches: Vec<Priced<'a, Switch>>,
    pub systems: Vec<Priced<'a, System>>,
    /// Parts left out because they have no price.
    pub unpriced: Vec<PartId>,
}

pub(crate) fn sorted<T>(mut v: Vec<Priced<'_, T>>) -> Vec<Priced<'_, T>> {
    v.sort_by(|a, b| a.price.total_cmp(&b.price));
    v
}

impl<'a> Pools<'a> {
    /// The pools of a catalog under a requirement's filters.
    #[must_use]
    pub fn new(catalog: &'a Catalog, req: &Requirement) -> Self {
        let mut unpriced = Vec::new();
        let f = &req.filters;
        let since = f.priced_since.map(|d| d.to_string());
        let rate = req.usd_exchange_rate;
        // `free`: an unpriced entry that costs nothing by the catalog's convention (a GPU
        // baseboard, whose modules carry the assembly's price, or a part included in a chassis'
        // price); it passes the price-date filter. Returns the price and whether the part is
        // sold on its own at it.
        let mut price = |e: &'a dyn PricedEntry, free: bool, included: bool| -> Option<(f64, bool)> {
            let meta = e.entry_meta();
            let v = meta.vendor.to_lowercase();
            let vendor_ok = (f.vendors.is_empty() || f.vendors.iter().any(|x| x.to_lowercase() == v))
                && !f.exclude_vendors.iter().any(|x| x.to_lowercase() == v);
            if !vendor_ok || f.exclude_parts.contains(meta.id) {
                return None;
            }
            let Some(p) = catalog_unit_price(&meta, &req.currency, rate) else {
                if free {
                    return Some((0.0, !included));
                }
                unpriced.push(meta.id.clone());
                return None;
            };
            let dated_ok = since
                .as_deref()
                .is_none_or(|s| meta.dated_price().and_then(|p| price_day(p.date)).is_some_and(|d| d.as_str() >= s));
            match (dated_ok, included) {
                (true, _) => Some((p, true)),
                // Too old to buy alone, still included in its chassis.
                (false, true) => Some((0.0, false)),
                (false, false) => None,
            }
        };
        macro_rules! pool {
            ($list:expr, $keep:expr, $free:expr) => {
                pool!($list, $keep, $free, |_| &[][..])
            };
            ($list:expr, $keep:expr, $free:expr, $included:expr) => {
                sorted(
                    $list
                        .iter()
                        .filter($keep)
                        .filter_map(|p| {
                            let included_with: &[PartId] = $included(p);
                            price(p, $free(p) || !included_with.is_empty(), !included_with.is_empty())
                                .map(|(price, standalone)| Priced { part: p, price, included_with, standalone })
                        })
                        .collect(),
                )
            };
        }
        let form = req.site.form;
        let gpus = pool!(catalog.gpus, |g: &&Gpu| g.form_factor != GpuFormFactor::Integrated, |_| false);
        let chassis = pool!(
            catalog.chassis,
            |c: &&Chassis| matches!(
                (form, c.kind),
                (Form::Tower, ChassisKind::Tower) | (Form::Rack, ChassisKind::Rack)
            ),
            |_| false
        );
        let mainboards = pool!(
            catalog.motherboards,
            |b: &&Motherboard| b.role == BoardRole::Mainboard,
            |_| false,
            |b: &'a Motherboard| b.price_included_with.as_slice()
        );
        let baseboards = pool!(catalog.motherboards, |b: &&Motherboard| b.baseboard.is_some(), |_| true);
        let cpus = pool!(catalog.cpus, |_: &&Cpu| true, |_| false);
        let coolers =
            pool!(catalog.coolers, |_: &&Cooler| true, |_| false, |q: &'a Cooler| q.price_included_with.as_slice());
        let memory = pool!(catalog.memory, |m: &&Memory| m.dimm_kind != DimmKind::Soldered, |_| false);
        let storage = pool!(catalog.storage, |_: &&Storage| true, |_| false);
        let psus = pool!(catalog.psus, |_: &&Psu| true, |_| false);
        let nics = pool!(catalog.nics, |n: &&Nic| is_fabric_nic(n), |_| false);
        let switches = pool!(catalog.switches, |_: &&Switch| true, |_| false);
        let systems = pool!(
            catalog.systems,
            |s: &&System| {
                let integrated = s
                    .gpus
                    .iter()
                    .any(|g| catalog.gpu(&g.gpu).is_some_and(|g| g.form_factor == GpuFormFactor::Integrated));
                match form {
                    Form::Edge => integrated,
                    Form::Rack => !integrated && s.rack_units.is_some(),
                    Form::Tower => !integrated && s.rack_units.is_none(),
                }
            },
            |_| false
        );
        unpriced.sort();
        unpriced.dedup();
        let mut pools = Self {
            gpus,
            chassis,
            mainboards,
            baseboards,
            cpus,
            coolers,
            memory,
            storage,
            psus,
            nics,
            switches,
            systems,
            unpriced,
        };
        pools.require(&f.require_parts);
        pools
    }

    /// Restricts each pool that holds a required part to the required parts it holds. A
    /// required system leaves no assembled node (a system is a node by itself); a required part
    /// of any other kind leaves no system (a system takes no extra parts); a required part that
    /// no pool holds (filtered out, unpriced, unknown) leaves nothing.
    fn require(&mut self, parts: &[PartId]) {
        fn restrict<T: CatalogEntry>(pool: &mut Vec<Priced<'_, T>>, parts: &[PartId], held: &mut Vec<PartId>) {
            let wanted: Vec<&PartId> = parts.iter().filter(|p| pool.iter().any(|x| x.part.meta().id == *p)).collect();
            if !wanted.is_empty() {
                pool.retain(|x| wanted.contains(&x.part.meta().id));
                held.extend(wanted.into_iter().cloned());
            }
        }
        if parts.is_empty() {
            return;
        }
        let mut held = Vec::new();
        restrict(&mut self.gpus, parts, &mut held);
        restrict(&mut self.chassis, parts, &mut held);
        restrict(&mut self.mainboards, parts, &mut held);
        restrict(&mut self.baseboards, parts, &mut held);
        restrict(&mut self.cpus, parts, &mut held);
        restrict(&mut self.coolers, parts, &mut held);
        restrict(&mut self.memory, parts, &mut held);
        restrict(&mut self.storage, parts, &mut held);
        restrict(&mut self.psus, parts, &mut held);
        restrict(&mut self.nics, parts, &mut held);
        restrict(&mut self.switches, parts, &mut held);
        restrict(&mut self.systems, parts, &mut held);
        let system_required = parts.iter().any(|p| self.systems.iter().any(|s| &s.part.id == p));
        if parts.iter().any(|p| !held.contains(p)) {
            self.gpus.clear();
            self.systems.clear();
        } else if system_required {
            self.gpus.clear();
        } else {
            self.systems.clear();
        }
    }
}

/// A catalog price date (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`) as the first day it covers,
/// `YYYY-MM-DD`, so that dates compare as text; `None` for anything else.
#[must_use]
pub fn price_day(date: &str) -> Option<String> {
    let parts: Vec<&str> = date.trim().split('-').collect();
    let num = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [y] if num(y, 4) => Some(format!("{y}-01-01")),
        [y, m] if num(y, 4) && num(m, 2) => Some(format!("{y}-{m}-01")),
        [y, m, d] if num(y, 4) && num(m, 2) && num(d, 2) => Some(format!("{y}-{m}-{d}")),
        _ => None,
    }
}

/// The catalog fields the pools read, for every part kind.
trait PricedEntry {
    fn entry_meta(&self) -> crate::core::catalog::Meta<'_>;
}

impl<T: CatalogEntry> PricedEntry for T {
    fn entry_meta(&self) -> crate::core::catalog::Meta<'_> {
        self.meta()
    }
}
