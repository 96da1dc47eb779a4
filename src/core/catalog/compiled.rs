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
    Catalog, CatalogEntry, CloudOffer, Gpu, Model, Models, Origin, clouds::CLOUDS_FILE, models::MODELS_FILE_NAME,
};
use serde::de::DeserializeOwned;
use std::collections::HashMap;

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
/// The GPUs and the models (about half of the text) are read on a second thread while this
/// one reads the rest: a `rigplan fit` or `report` process waits for the slower half only
/// (issue 19). Should the thread not start, this thread reads them too.
pub(super) fn catalog() -> Option<Catalog> {
    type Side = Option<(Vec<(Gpu, Origin)>, Vec<(Model, Origin)>)>;
    let side = || -> Side {
        let gpus = located::<Gpu>(GPU, &format!("catalog/{}", Gpu::KIND.file_name()))?;
        let models = located::<Model>(MODELS, &format!("catalog/{MODELS_FILE_NAME}"))?;
        Some((gpus, models))
    };
    std::thread::scope(|scope| {
        let other = std::thread::Builder::new().spawn_scoped(scope, side).ok();
        let mut c = Catalog::default();
        let rest = (|| {
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
            located::<CloudOffer>(CLOUDS, &format!("catalog/{CLOUDS_FILE}"))
        })();
        // Joined before any early return, so the thread never outlives a failure here.
        let side = match other {
            Some(handle) => handle.join().ok().flatten(),
            None => side(),
        };
        let (mut offers, (gpus, models)) = (rest?, side?);
        for (gpu, origin) in gpus {
            c.origins.insert(gpu.meta().id.clone(), origin);
            c.gpus.push(gpu);
        }
        c.models = Models::from_located(models);
        // As `Catalog::load_clouds` keeps them: sorted by id.
        offers.sort_by(|a, b| a.0.id.cmp(&b.0.id));
        for (offer, origin) in offers {
            c.cloud_origins.insert(offer.id.clone(), origin);
            c.clouds.push(offer);
        }
        c.rebuild_index();
        Some(c)
    })
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
