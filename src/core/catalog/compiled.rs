//! The embedded catalog as `build.rs` compiled it: each RON file translated to JSON at build
//! time, with every entry's position in its RON file.
//!
//! Theory of operation: parsing the embedded RON was most of the time of a whole `rigplan
//! fit` or `report` process (issue 19). serde reads the same types from JSON several times
//! faster, so [`Catalog::embedded`] starts from these texts. They are the shipped files,
//! which the tests validate (`tests/core/catalog.rs`), so they are not validated again at
//! every start; a test also holds this load equal to parsing the RON, entry for entry and
//! position for position. A file `build.rs` could not translate is empty here, and the
//! catalog then loads from its RON text ([`catalog`] gives None).

use super::{
    Catalog, CatalogEntry, CloudOffer, Model, Models, Origin, clouds::CLOUDS_FILE, models::MODELS_FILE_NAME,
    models::full_model_id,
};
use super::{CloudSet, ModelSet, PartId, PartKind, Subset};
use serde::de::DeserializeOwned;
use std::collections::{HashMap, HashSet};

/// Each compiled file's entries as `(id, start, end)`: the byte range of the entry's
/// `[line, col, entry]` element in the file's JSON, in file order (written by `build.rs`).
mod index {
    include!(concat!(env!("OUT_DIR"), "/catalog-index.rs"));
}

/// A compiled file's entry index.
type Index = &'static [(&'static str, usize, usize)];

macro_rules! compiled {
    ($name:literal) => {
        include_str!(concat!(env!("OUT_DIR"), "/catalog-", $name, ".json"))
    };
}

const GPU: &str = compiled!("gpu");
const CPU: &str = compiled!("cpu");
const MOTHERBOARD: &str = compiled!("motherboard");
const MEMORY: &str = compiled!("memory");
const STORAGE: &str = compiled!("storage");
const PSU: &str = compiled!("psu");
const COOLER: &str = compiled!("cooler");
const CHASSIS: &str = compiled!("chassis");
const NIC: &str = compiled!("nic");
const SWITCH: &str = compiled!("switch");
const SYSTEM: &str = compiled!("system");
const MODELS: &str = compiled!("models");
const CLOUDS: &str = compiled!("clouds");

/// The entries of a compiled file with their origins in `file`; None for a file that was not
/// compiled (or, were `build.rs` wrong, one serde cannot read).
fn located<T: DeserializeOwned>(json: &str, file: &str) -> Option<Vec<(T, Origin)>> {
    read(json, file).ok()
}

/// [`located`], or why not.
fn read<T: DeserializeOwned>(json: &str, file: &str) -> Result<Vec<(T, Origin)>, String> {
    if json.is_empty() {
        return Err(format!("{file} was not compiled"));
    }
    let rows: Vec<(usize, usize, T)> = serde_json::from_str(json).map_err(|e| format!("{file}: {e}"))?;
    Ok(rows.into_iter().map(|(line, col, entry)| (entry, Origin { file: file.to_owned(), line, col })).collect())
}

/// A part kind's compiled file into its list of the catalog.
fn parts<T: DeserializeOwned + CatalogEntry>(
    json: &str,
    list: &mut Vec<T>,
    origins: &mut HashMap<super::PartId, Origin>,
) -> Option<()> {
    let file = format!("catalog/{}", T::KIND.file_name());
    for (entry, origin) in located::<T>(json, &file)? {
        origins.insert(entry.meta().id.clone(), origin);
        list.push(entry);
    }
    Some(())
}

/// The embedded catalog from its compiled form; None when a file was not compiled.
///
/// On this thread: reading the GPUs and models on a second one made a whole process no
/// faster (`rigplan catalog list` 2.26–2.32 ms without it against 2.38–2.45 ms with it,
/// `perf stat` over 200 runs, three times each, on the 2-core machine, issue 19), as a new
/// thread's start, stack and malloc arena cost what it saved.
pub(super) fn catalog() -> Option<Catalog> {
    let mut c = Catalog::default();
    parts(GPU, &mut c.gpus, &mut c.origins)?;
    parts(CPU, &mut c.cpus, &mut c.origins)?;
    parts(MOTHERBOARD, &mut c.motherboards, &mut c.origins)?;
    parts(MEMORY, &mut c.memory, &mut c.origins)?;
    parts(STORAGE, &mut c.storage, &mut c.origins)?;
    parts(PSU, &mut c.psus, &mut c.origins)?;
    parts(COOLER, &mut c.coolers, &mut c.origins)?;
    parts(CHASSIS, &mut c.chassis, &mut c.origins)?;
    parts(NIC, &mut c.nics, &mut c.origins)?;
    parts(SWITCH, &mut c.switches, &mut c.origins)?;
    parts(SYSTEM, &mut c.systems, &mut c.origins)?;
    let offers = located::<CloudOffer>(CLOUDS, &format!("catalog/{CLOUDS_FILE}"))?;
    let models = located::<Model>(MODELS, &format!("catalog/{MODELS_FILE_NAME}"))?;
    Some(completed(c, models, offers))
}

/// The catalog with its models and cloud offers (sorted by id, as `Catalog::load_clouds`
/// keeps them) and its id index.
fn completed(mut c: Catalog, models: Vec<(Model, Origin)>, mut offers: Vec<(CloudOffer, Origin)>) -> Catalog {
    c.models = Models::from_located(models);
    offers.sort_by(|a, b| a.0.id.cmp(&b.0.id));
    for (offer, origin) in offers {
        c.cloud_origins.insert(offer.id.clone(), origin);
        c.clouds.push(offer);
    }
    c.rebuild_index();
    c
}

/// A part kind's compiled file and its index.
fn file_of(kind: PartKind) -> (&'static str, Index) {
    match kind {
        PartKind::Gpu => (GPU, index::GPU),
        PartKind::Cpu => (CPU, index::CPU),
        PartKind::Motherboard => (MOTHERBOARD, index::MOTHERBOARD),
        PartKind::Memory => (MEMORY, index::MEMORY),
        PartKind::Storage => (STORAGE, index::STORAGE),
        PartKind::Psu => (PSU, index::PSU),
        PartKind::Cooler => (COOLER, index::COOLER),
        PartKind::Chassis => (CHASSIS, index::CHASSIS),
        PartKind::Nic => (NIC, index::NIC),
        PartKind::Switch => (SWITCH, index::SWITCH),
        PartKind::System => (SYSTEM, index::SYSTEM),
    }
}

/// The JSON of entry `id` of a compiled file, and its position in the file's order.
fn entry_json(json: &'static str, index: Index, id: &str) -> Option<(usize, &'static str)> {
    let pos = index.iter().position(|(entry, _, _)| *entry == id)?;
    let &(_, start, end) = index.get(pos)?;
    Some((pos, json.get(start..end)?))
}

/// One entry read from its `[line, col, entry]` JSON, with its origin in `file`.
fn one<T: DeserializeOwned>(json: &str, file: &str) -> Option<(T, Origin)> {
    let (line, col, entry): (usize, usize, T) = serde_json::from_str(json).ok()?;
    Some((entry, Origin { file: file.to_owned(), line, col }))
}

/// The catalog part ids an entry names in its string values (a system names its GPUs, a
/// chassis the parts it comes with), added to `out`. Any string of the form `kind/…` that is
/// an entry of that kind's file counts, whatever field holds it, so that a subset holds
/// everything its parts refer to without a list of reference fields to keep up to date.
fn named_parts(json: &str, out: &mut Vec<PartId>) {
    let mut rest = json;
    while let Some(open) = rest.find('"') {
        let after = &rest[open + 1..];
        // The string's end: the next quote not escaped by an odd run of backslashes.
        let mut end = None;
        let mut escaped = false;
        for (i, c) in after.char_indices() {
            match c {
                '\\' => escaped = !escaped,
                '"' if !escaped => {
                    end = Some(i);
                    break;
                }
                _ => escaped = false,
            }
        }
        let Some(end) = end else { return };
        let text = &after[..end];
        if let Some(kind) = text.split_once('/').and_then(|(prefix, _)| PartKind::from_prefix(prefix))
            && file_of(kind).1.iter().any(|(id, _, _)| *id == text)
        {
            out.push(PartId::new(text));
        }
        rest = &after[end + 1..];
    }
}

/// Reads the chosen entries of one kind (positions in file order) into its list.
fn chosen<T: DeserializeOwned + CatalogEntry>(
    positions: &[usize],
    list: &mut Vec<T>,
    origins: &mut HashMap<PartId, Origin>,
) -> Option<()> {
    let (json, index) = file_of(T::KIND);
    let file = format!("catalog/{}", T::KIND.file_name());
    for &pos in positions {
        let &(_, start, end) = index.get(pos)?;
        let (entry, origin) = one::<T>(json.get(start..end)?, &file)?;
        origins.insert(entry.meta().id.clone(), origin);
        list.push(entry);
    }
    Some(())
}

/// The compiled entries of the models a subset holds, in catalog order; None when an id is
/// not in the catalog.
fn model_entries(set: &ModelSet) -> Option<Vec<&'static str>> {
    let all = || index::MODELS.iter().map(|&(_, start, end)| MODELS.get(start..end)).collect::<Option<Vec<_>>>();
    match set {
        ModelSet::All => all(),
        ModelSet::Only(ids) => {
            let mut found = Vec::new();
            for id in ids {
                found.push(entry_json(MODELS, index::MODELS, &full_model_id(id))?);
            }
            found.sort_by_key(|(pos, _)| *pos);
            found.dedup_by_key(|(pos, _)| *pos);
            Some(found.into_iter().map(|(_, json)| json).collect())
        }
    }
}

/// The cloud offers a subset reads.
enum Offers {
    /// The whole file.
    All,
    /// These entries.
    These(Vec<&'static str>),
}

/// The compiled entries of the offers `set` names, given the subset's GPUs; None when an
/// offer named by id is not in the catalog.
fn offer_entries(set: &CloudSet, gpus: &[&str]) -> Option<Offers> {
    let ids = match set {
        CloudSet::None => return Some(Offers::These(Vec::new())),
        CloudSet::All => return Some(Offers::All),
        CloudSet::ForGpus(ids) => ids,
    };
    if ids.iter().any(|id| !index::CLOUDS.iter().any(|(offer, _, _, _)| offer == id)) {
        return None;
    }
    index::CLOUDS
        .iter()
        .filter(|(id, gpu, _, _)| gpus.contains(gpu) || ids.iter().any(|wanted| wanted == id))
        .map(|&(_, _, start, end)| CLOUDS.get(start..end))
        .collect::<Option<Vec<_>>>()
        .map(Offers::These)
}

/// Models read from their compiled entries.
fn read_models(entries: &[&str]) -> Option<Vec<(Model, Origin)>> {
    let file = format!("catalog/{MODELS_FILE_NAME}");
    entries.iter().map(|json| one::<Model>(json, &file)).collect()
}

/// The embedded catalog holding only what `want` names ([`Catalog::embedded_subset`]); None
/// when a file was not compiled or a named part or model is not in it.
///
/// On this thread: reading half of the models on a second one made a whole `rigplan report`
/// process slower, not faster (2.26–2.43 ms without it against 2.48–2.56 ms with it, the fit
/// matrix's thread kept in both; `perf stat` over 300 runs, three times each, issue 19).
pub(super) fn subset(want: &Subset) -> Option<Catalog> {
    // The named parts and, transitively, the parts they name: (kind, position in its file).
    let mut picked: HashSet<(PartKind, usize)> = HashSet::new();
    let mut seen: HashSet<PartId> = HashSet::new();
    let mut queue: Vec<PartId> = want.parts.clone();
    while let Some(id) = queue.pop() {
        if !seen.insert(id.clone()) {
            continue;
        }
        let kind = id.as_str().split_once('/').and_then(|(prefix, _)| PartKind::from_prefix(prefix))?;
        let (json, index) = file_of(kind);
        let (pos, entry) = entry_json(json, index, id.as_str())?;
        named_parts(entry, &mut queue);
        picked.insert((kind, pos));
    }
    let positions = |kind: PartKind| -> Vec<usize> {
        let mut p: Vec<usize> = picked.iter().filter(|(k, _)| *k == kind).map(|(_, pos)| *pos).collect();
        p.sort_unstable();
        p
    };
    let models = model_entries(&want.models)?;
    let gpus: Vec<&str> = positions(PartKind::Gpu).iter().filter_map(|&p| index::GPU.get(p)).map(|e| e.0).collect();
    let offers = offer_entries(&want.clouds, &gpus)?;
    let mut c = Catalog::default();
    chosen(&positions(PartKind::Gpu), &mut c.gpus, &mut c.origins)?;
    chosen(&positions(PartKind::Cpu), &mut c.cpus, &mut c.origins)?;
    chosen(&positions(PartKind::Motherboard), &mut c.motherboards, &mut c.origins)?;
    chosen(&positions(PartKind::Memory), &mut c.memory, &mut c.origins)?;
    chosen(&positions(PartKind::Storage), &mut c.storage, &mut c.origins)?;
    chosen(&positions(PartKind::Psu), &mut c.psus, &mut c.origins)?;
    chosen(&positions(PartKind::Cooler), &mut c.coolers, &mut c.origins)?;
    chosen(&positions(PartKind::Chassis), &mut c.chassis, &mut c.origins)?;
    chosen(&positions(PartKind::Nic), &mut c.nics, &mut c.origins)?;
    chosen(&positions(PartKind::Switch), &mut c.switches, &mut c.origins)?;
    chosen(&positions(PartKind::System), &mut c.systems, &mut c.origins)?;
    let file = format!("catalog/{CLOUDS_FILE}");
    let offers = match &offers {
        Offers::All => located::<CloudOffer>(CLOUDS, &file)?,
        Offers::These(entries) => entries.iter().map(|json| one::<CloudOffer>(json, &file)).collect::<Option<_>>()?,
    };
    Some(completed(c, read_models(&models)?, offers))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::catalog::{Chassis, Cooler, Cpu, Gpu, Memory, Motherboard, Nic, Psu, Storage, Switch, System};

    /// Every shipped file is compiled and reads back: `Catalog::embedded` never falls back to
    /// parsing the RON (which would hide a compiler defect behind equal results).
    #[test]
    fn every_file_is_compiled_and_reads() {
        let errors: Vec<String> = [
            read::<Gpu>(GPU, "gpu").err(),
            read::<Cpu>(CPU, "cpu").err(),
            read::<Motherboard>(MOTHERBOARD, "motherboard").err(),
            read::<Memory>(MEMORY, "memory").err(),
            read::<Storage>(STORAGE, "storage").err(),
            read::<Psu>(PSU, "psu").err(),
            read::<Cooler>(COOLER, "cooler").err(),
            read::<Chassis>(CHASSIS, "chassis").err(),
            read::<Nic>(NIC, "nic").err(),
            read::<Switch>(SWITCH, "switch").err(),
            read::<System>(SYSTEM, "system").err(),
            read::<Model>(MODELS, "models").err(),
            read::<CloudOffer>(CLOUDS, "clouds").err(),
        ]
        .into_iter()
        .flatten()
        .collect();
        assert!(errors.is_empty(), "{errors:#?}");
        assert!(catalog().is_some());
    }
}
