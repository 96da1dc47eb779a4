//! The parts catalog: loading, merging and validation.
//!
//! Theory of operation: the catalog is a set of RON files, one per part kind
//! (`catalog/gpu.ron`, `catalog/cpu.ron`, …), each a list of entries. The files shipped with
//! rigplan are embedded in the binary ([`Catalog::embedded`]); a user catalog folder holds
//! files of the same names whose entries extend the embedded ones or replace them by id
//! ([`Catalog::load_with_overlay`]). Loading validates everything a later analysis relies on
//! (unique ids with the right prefix, references that resolve, values in range) and reports
//! each problem with `file:line:col`.

pub mod clouds;
mod compiled;
pub mod hf_config;
mod locate;
mod models;
pub mod price_list;
#[cfg(test)]
mod ron_to_json;
mod types;
mod validate;

pub(crate) use locate::IdLocator;
pub use locate::line_col_of_byte;

pub use clouds::{CloudOffer, PriceCheck};
pub use models::{
    Architecture, Checkpoint, EMBEDDED_MODELS, FfnKind, MAX_PARAMS, MIN_PARAMS, MODEL_ID_PREFIX, MODELS_FILE_NAME,
    Measured, Mla, Model, ModelId, ModelTask, Models, Moe, NormKind, PARAM_CHECK_TOLERANCE, Role, Transformer,
    active_count_offset,
};
pub use types::*;
pub use validate::{CatalogProblem, ProblemSeverity};

use crate::core::files::{self, ReadError};
use crate::core::persist::UTF8_BOM;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Largest catalog file rigplan reads, bytes. Real catalog files are tens of kilobytes; the
/// limit keeps a stray multi-gigabyte file from being read into memory.
pub const MAX_CATALOG_FILE_BYTES: u64 = 8 * 1024 * 1024;

/// The per-user catalog folder (`~/.local/share/rigplan/catalog` on Linux, the per-user data
/// folder elsewhere), whether or not it exists yet: the app reads it when it exists, and an
/// imported price list is written there when no other folder is named.
#[must_use]
pub fn user_folder() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "rigplan").map(|d| d.data_dir().join("catalog"))
}

/// Where an entry came from: file and the position of its `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    pub file: String,
    pub line: usize,
    pub col: usize,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

/// A borrowed catalog part of any kind.
#[derive(Clone, Copy, Debug)]
pub enum Part<'a> {
    Gpu(&'a Gpu),
    Cpu(&'a Cpu),
    Motherboard(&'a Motherboard),
    Memory(&'a Memory),
    Storage(&'a Storage),
    Psu(&'a Psu),
    Cooler(&'a Cooler),
    Chassis(&'a Chassis),
    Nic(&'a Nic),
    Switch(&'a Switch),
    System(&'a System),
}

impl<'a> Part<'a> {
    #[must_use]
    pub fn meta(self) -> Meta<'a> {
        match self {
            Self::Gpu(p) => p.meta(),
            Self::Cpu(p) => p.meta(),
            Self::Motherboard(p) => p.meta(),
            Self::Memory(p) => p.meta(),
            Self::Storage(p) => p.meta(),
            Self::Psu(p) => p.meta(),
            Self::Cooler(p) => p.meta(),
            Self::Chassis(p) => p.meta(),
            Self::Nic(p) => p.meta(),
            Self::Switch(p) => p.meta(),
            Self::System(p) => p.meta(),
        }
    }

    #[must_use]
    pub fn kind(self) -> PartKind {
        match self {
            Self::Gpu(_) => PartKind::Gpu,
            Self::Cpu(_) => PartKind::Cpu,
            Self::Motherboard(_) => PartKind::Motherboard,
            Self::Memory(_) => PartKind::Memory,
            Self::Storage(_) => PartKind::Storage,
            Self::Psu(_) => PartKind::Psu,
            Self::Cooler(_) => PartKind::Cooler,
            Self::Chassis(_) => PartKind::Chassis,
            Self::Nic(_) => PartKind::Nic,
            Self::Switch(_) => PartKind::Switch,
            Self::System(_) => PartKind::System,
        }
    }

    #[must_use]
    pub fn id(self) -> &'a PartId {
        self.meta().id
    }

    #[must_use]
    pub fn name(self) -> &'a str {
        self.meta().name
    }

    /// The chassis whose price includes this part (`price_included_with`: a barebone's board
    /// or heatsinks); empty for every other part.
    #[must_use]
    pub fn price_included_with(self) -> &'a [PartId] {
        match self {
            Self::Motherboard(b) => &b.price_included_with,
            Self::Cooler(c) => &c.price_included_with,
            _ => &[],
        }
    }
}

/// The loaded catalog.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    pub gpus: Vec<Gpu>,
    pub cpus: Vec<Cpu>,
    pub motherboards: Vec<Motherboard>,
    pub memory: Vec<Memory>,
    pub storage: Vec<Storage>,
    pub psus: Vec<Psu>,
    pub coolers: Vec<Cooler>,
    pub chassis: Vec<Chassis>,
    pub nics: Vec<Nic>,
    pub switches: Vec<Switch>,
    pub systems: Vec<System>,
    /// The model catalog (`models.ron`): architectures the fit and speed analyses size.
    pub models: Models,
    /// Where each part was defined (for messages and hover cards).
    pub origins: HashMap<PartId, Origin>,
    /// Cloud offers for the TCO comparison (`clouds.ron`), sorted by id.
    pub clouds: Vec<CloudOffer>,
    /// Where each cloud offer was defined.
    pub cloud_origins: HashMap<String, Origin>,
    /// id → (kind, index into that kind's list).
    index: HashMap<PartId, (PartKind, usize)>,
}

/// The catalog files shipped with rigplan, embedded at compile time.
pub const EMBEDDED_FILES: [(PartKind, &str); 11] = [
    (PartKind::Gpu, include_str!("../../../catalog/gpu.ron")),
    (PartKind::Cpu, include_str!("../../../catalog/cpu.ron")),
    (PartKind::Motherboard, include_str!("../../../catalog/motherboard.ron")),
    (PartKind::Memory, include_str!("../../../catalog/memory.ron")),
    (PartKind::Storage, include_str!("../../../catalog/storage.ron")),
    (PartKind::Psu, include_str!("../../../catalog/psu.ron")),
    (PartKind::Cooler, include_str!("../../../catalog/cooler.ron")),
    (PartKind::Chassis, include_str!("../../../catalog/chassis.ron")),
    (PartKind::Nic, include_str!("../../../catalog/nic.ron")),
    (PartKind::Switch, include_str!("../../../catalog/switch.ron")),
    (PartKind::System, include_str!("../../../catalog/system.ron")),
];

/// Failure to produce a usable catalog: every problem found, each with its location. Its
/// message lists the errors only: warnings do not stop a catalog from loading (`rigplan
/// catalog validate` lists them).
#[derive(Debug, thiserror::Error)]
#[error("the catalog has {} error(s):\n{}", self.errors().count(), format_problems(self.errors()))]
pub struct CatalogError {
    pub problems: Vec<CatalogProblem>,
}

impl CatalogError {
    /// The problems that make the catalog unusable.
    pub fn errors(&self) -> impl Iterator<Item = &CatalogProblem> {
        self.problems.iter().filter(|p| p.is_error())
    }
}

fn format_problems<'a>(problems: impl Iterator<Item = &'a CatalogProblem>) -> String {
    problems.map(ToString::to_string).collect::<Vec<_>>().join("\n")
}

/// What a command reads of the embedded catalog ([`Catalog::embedded_subset`]): a `report`
/// of a build reads the build's parts, every model (the fit matrix) and the cloud offers
/// that rent its GPUs (the TCO comparison); a `fit` of one model on one GPU reads those two.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Subset {
    /// Parts by id; each brings the parts it names (a system its GPUs).
    pub parts: Vec<PartId>,
    pub models: ModelSet,
    pub clouds: CloudSet,
}

/// The cloud offers of a [`Subset`], in catalog order (sorted by id, as the catalog keeps
/// them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CloudSet {
    #[default]
    None,
    All,
    /// The offers that rent a GPU of the subset (those a TCO compares a build with), and
    /// these offers by id (a build's chosen offer).
    ForGpus(Vec<String>),
}

/// The models of a [`Subset`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum ModelSet {
    #[default]
    All,
    /// These ids (with or without the `model/` prefix), in catalog order.
    Only(Vec<String>),
}

/// A parsed catalog file, before merging: entries and their positions.
struct ParsedFile<T> {
    entries: Vec<(T, Origin)>,
}

impl Catalog {
    /// The catalog shipped with rigplan. The embedded files are checked by a test
    /// (`tests/core/catalog.rs`) so this cannot fail in a released build; should it ever, the
    /// error says where.
    ///
    /// # Errors
    /// A problem in the embedded files (a build defect, never user input).
    pub fn embedded() -> Result<Self, CatalogError> {
        // The form `build.rs` compiled (the same entries, read several times faster), unless a
        // file could not be compiled.
        if let Some(catalog) = compiled::catalog() {
            return Ok(catalog);
        }
        Self::embedded_from_ron()
    }

    /// The embedded catalog holding only what `want` names: the same entries as
    /// [`Self::embedded`], read from the compiled catalog one entry at a time, so that a
    /// command that needs a build's dozen parts does not read the other hundreds (issue 19:
    /// a `rigplan fit` or `report` process within twice a `--version` one). Nothing in it
    /// may be searched for what it lacks: a caller uses it only for analyses that read the
    /// named parts, models and offers, which `tests/core/catalog.rs` holds equal to the same
    /// analyses of the whole catalog on every template build.
    ///
    /// None when a named part or model is not in the embedded catalog (the caller then
    /// loads the whole catalog, whose messages about unknown ids list what there is), or a
    /// file was not compiled.
    #[must_use]
    pub fn embedded_subset(want: &Subset) -> Option<Self> {
        compiled::subset(want)
    }

    /// The embedded catalog parsed from its RON text and validated, as [`Self::embedded`]
    /// gives it when a file was not compiled; the tests hold the two equal.
    ///
    /// # Errors
    /// A problem in the embedded files (a build defect, never user input).
    pub fn embedded_from_ron() -> Result<Self, CatalogError> {
        let (catalog, problems) = Self::embedded_with_problems();
        if problems.iter().any(CatalogProblem::is_error) {
            return Err(CatalogError { problems });
        }
        Ok(catalog)
    }

    /// The embedded catalog (parts, models and cloud offers) with every problem found, errors
    /// and warnings, for `rigplan catalog validate`.
    #[must_use]
    pub fn embedded_with_problems() -> (Self, Vec<CatalogProblem>) {
        let sources: Vec<(PartKind, String, String)> = EMBEDDED_FILES
            .iter()
            .map(|(kind, text)| (*kind, format!("catalog/{}", kind.file_name()), (*text).to_owned()))
            .collect();
        let (mut catalog, mut problems) = Self::from_sources(&sources);
        let (models, model_problems) = Models::embedded();
        catalog.models = models;
        problems.extend(model_problems);
        problems.extend(catalog.load_clouds(&Self::embedded_cloud_sources()));
        sort_problems(&mut problems);
        (catalog, problems)
    }

    /// The embedded catalog extended, or overridden by id, with the `<kind>.ron` files found in
    /// `dir` (files that are absent are simply not overlaid).
    ///
    /// # Errors
    /// Every problem found in the folder's files or in the merged catalog.
    pub fn load_with_overlay(dir: &Path) -> Result<Self, CatalogError> {
        Self::load_with_overlays(&[dir.to_path_buf()])
    }

    /// Loads the embedded catalog overlaid with `dir`, returning the catalog and every problem
    /// (errors and warnings) for `rigplan catalog validate`.
    #[must_use]
    pub fn load_dir_overlay(dir: &Path) -> (Self, Vec<CatalogProblem>) {
        Self::load_dirs_overlay(&[dir.to_path_buf()])
    }

    /// The embedded catalog overlaid with each folder of `dirs` in turn (a later folder
    /// overrides an earlier one by id, as a folder overrides the embedded catalog), with every
    /// problem found. A path that is not a folder is an error and nothing is loaded.
    /// Problems are returned with the catalog ([`CatalogProblem::is_error`]).
    #[must_use]
    pub fn load_dirs_overlay(dirs: &[PathBuf]) -> (Self, Vec<CatalogProblem>) {
        let mut sources: Vec<(PartKind, String, String)> = EMBEDDED_FILES
            .iter()
            .map(|(kind, text)| (*kind, format!("catalog/{}", kind.file_name()), (*text).to_owned()))
            .collect();
        let mut problems = Vec::new();
        for dir in dirs.iter().filter(|d| !d.is_dir()) {
            problems.push(CatalogProblem::error(
                dir.display().to_string(),
                None,
                "is not a folder; a user catalog is a folder of <kind>.ron files (gpu.ron, cpu.ron, …)",
            ));
        }
        if !problems.is_empty() {
            return (Self::default(), problems);
        }
        // Each folder's files in folder order: the loaders let a later source override an
        // earlier one by id.
        let read = |path: &Path, problems: &mut Vec<CatalogProblem>| -> Option<(String, String)> {
            if !present(path) {
                return None;
            }
            match read_limited(path) {
                Ok(text) => Some((path.display().to_string(), text)),
                Err(p) => {
                    problems.push(p);
                    None
                }
            }
        };
        let mut model_sources = vec![(format!("catalog/{MODELS_FILE_NAME}"), EMBEDDED_MODELS.to_owned())];
        let mut cloud_sources = Self::embedded_cloud_sources();
        for dir in dirs {
            problems.extend(unknown_files(dir));
            for kind in PartKind::ALL {
                if let Some((label, text)) = read(&dir.join(kind.file_name()), &mut problems) {
                    sources.push((kind, label, text));
                }
            }
            model_sources.extend(read(&dir.join(MODELS_FILE_NAME), &mut problems));
            cloud_sources.extend(read(&dir.join(clouds::CLOUDS_FILE), &mut problems));
        }
        let (mut catalog, more) = Self::from_sources(&sources);
        problems.extend(more);
        let (models, model_problems) = Models::from_sources(&model_sources);
        catalog.models = models;
        problems.extend(model_problems);
        problems.extend(catalog.load_clouds(&cloud_sources));
        for dir in dirs {
            if let Some((label, text)) = read(&dir.join(price_list::PRICES_FILE), &mut problems) {
                problems.extend(catalog.apply_price_list(&label, &text));
            }
        }
        sort_problems(&mut problems);
        (catalog, problems)
    }

    /// [`Self::load_dirs_overlay`], refused when any problem is an error.
    ///
    /// # Errors
    /// Every problem found in the folders' files or in the merged catalog.
    pub fn load_with_overlays(dirs: &[PathBuf]) -> Result<Self, CatalogError> {
        let (catalog, problems) = Self::load_dirs_overlay(dirs);
        if problems.iter().any(CatalogProblem::is_error) {
            return Err(CatalogError { problems });
        }
        Ok(catalog)
    }

    /// Lays a user catalog's imported prices (`prices.ron`, [`price_list::PriceListEntry`])
    /// over the parts' own: each entry replaces its part's price, and the part's source says
    /// where the price came from. An entry for a part the catalog does not have is a warning
    /// (the part may have left the catalog since the import); a bad price is an error.
    pub fn apply_price_list(&mut self, label: &str, text: &str) -> Vec<CatalogProblem> {
        let mut problems = Vec::new();
        let Some(entries) = parse_list::<price_list::PriceListEntry>(label, text, &mut problems) else {
            return problems;
        };
        let mut ids = IdLocator::for_key(text, "part");
        for entry in entries {
            let at = Some(ids.locate(entry.part.as_str()));
            if let Some(problem) = validate::price_problem(entry.amount, &entry.currency.0, &entry.date) {
                problems.push(CatalogProblem::error(label.to_owned(), at, format!("{}: {problem}", entry.part)));
                continue;
            }
            let price = Price { amount: entry.amount, currency: entry.currency, date: entry.date };
            let source = if entry.source.is_empty() { label.to_owned() } else { entry.source };
            if !self.set_price(&entry.part, price, &source) {
                problems.push(CatalogProblem {
                    severity: ProblemSeverity::Warning,
                    file: label.to_owned(),
                    line: at.map(|a| a.0),
                    col: at.map(|a| a.1),
                    message: format!("{}: no catalog part has this id; its imported price is not used", entry.part),
                });
            }
        }
        problems
    }

    /// Replaces a part's price ([`CatalogEntry::set_price`]) and appends `source` to its
    /// source; false when no part has the id.
    pub fn set_price(&mut self, id: &PartId, price: Price, source: &str) -> bool {
        fn set<T: CatalogEntry>(list: &mut [T], i: usize, price: Price, source: &str) -> bool {
            list.get_mut(i).is_some_and(|p| {
                p.set_price(price, source);
                true
            })
        }
        let Some(&(kind, i)) = self.index.get(id) else { return false };
        match kind {
            PartKind::Gpu => set(&mut self.gpus, i, price, source),
            PartKind::Cpu => set(&mut self.cpus, i, price, source),
            PartKind::Motherboard => set(&mut self.motherboards, i, price, source),
            PartKind::Memory => set(&mut self.memory, i, price, source),
            PartKind::Storage => set(&mut self.storage, i, price, source),
            PartKind::Psu => set(&mut self.psus, i, price, source),
            PartKind::Cooler => set(&mut self.coolers, i, price, source),
            PartKind::Chassis => set(&mut self.chassis, i, price, source),
            PartKind::Nic => set(&mut self.nics, i, price, source),
            PartKind::Switch => set(&mut self.switches, i, price, source),
            PartKind::System => set(&mut self.systems, i, price, source),
        }
    }

    /// Builds a catalog from `(kind, file label, text)` sources in order: a later entry with an
    /// id already seen in an *earlier file* replaces it (overlay); a repeated id within one
    /// file is a problem. Returns the catalog and all problems found.
    #[must_use]
    pub fn from_sources(sources: &[(PartKind, String, String)]) -> (Self, Vec<CatalogProblem>) {
        let mut catalog = Self::default();
        let mut problems = Vec::new();
        for (kind, label, text) in sources {
            macro_rules! load {
                ($field:ident) => {{
                    let parsed = parse(label, text, &mut problems);
                    merge(&mut catalog.$field, &mut catalog.origins, parsed);
                }};
            }
            match kind {
                PartKind::Gpu => load!(gpus),
                PartKind::Cpu => load!(cpus),
                PartKind::Motherboard => load!(motherboards),
                PartKind::Memory => load!(memory),
                PartKind::Storage => load!(storage),
                PartKind::Psu => load!(psus),
                PartKind::Cooler => load!(coolers),
                PartKind::Chassis => load!(chassis),
                PartKind::Nic => load!(nics),
                PartKind::Switch => load!(switches),
                PartKind::System => load!(systems),
            }
        }
        catalog.rebuild_index();
        problems.extend(validate::validate(&catalog));
        sort_problems(&mut problems);
        (catalog, problems)
    }

    /// The names of the files a user catalog folder may hold: one per part kind, then
    /// `clouds.ron`, `models.ron` and `prices.ron`.
    #[must_use]
    pub fn file_names() -> Vec<String> {
        PartKind::ALL
            .iter()
            .map(|k| k.file_name())
            .chain([clouds::CLOUDS_FILE.to_owned(), MODELS_FILE_NAME.to_owned(), price_list::PRICES_FILE.to_owned()])
            .collect()
    }

    /// Keeps only the parts `keep` accepts (models and cloud offers stay): a sub-catalog for
    /// a search over fewer parts, or for tests.
    pub fn retain_parts(&mut self, keep: impl Fn(&PartId) -> bool) {
        self.gpus.retain(|p| keep(&p.id));
        self.cpus.retain(|p| keep(&p.id));
        self.motherboards.retain(|p| keep(&p.id));
        self.memory.retain(|p| keep(&p.id));
        self.storage.retain(|p| keep(&p.id));
        self.psus.retain(|p| keep(&p.id));
        self.coolers.retain(|p| keep(&p.id));
        self.chassis.retain(|p| keep(&p.id));
        self.nics.retain(|p| keep(&p.id));
        self.switches.retain(|p| keep(&p.id));
        self.systems.retain(|p| keep(&p.id));
        self.origins.retain(|id, _| keep(id));
        self.rebuild_index();
    }

    fn rebuild_index(&mut self) {
        let mut index = HashMap::new();
        for kind in PartKind::ALL {
            for (i, part) in self.parts_of(kind).enumerate() {
                index.insert(part.id().clone(), (kind, i));
            }
        }
        self.index = index;
    }

    /// Looks a part up by id.
    #[must_use]
    pub fn get(&self, id: &PartId) -> Option<Part<'_>> {
        let (kind, i) = *self.index.get(id)?;
        Some(match kind {
            PartKind::Gpu => Part::Gpu(self.gpus.get(i)?),
            PartKind::Cpu => Part::Cpu(self.cpus.get(i)?),
            PartKind::Motherboard => Part::Motherboard(self.motherboards.get(i)?),
            PartKind::Memory => Part::Memory(self.memory.get(i)?),
            PartKind::Storage => Part::Storage(self.storage.get(i)?),
            PartKind::Psu => Part::Psu(self.psus.get(i)?),
            PartKind::Cooler => Part::Cooler(self.coolers.get(i)?),
            PartKind::Chassis => Part::Chassis(self.chassis.get(i)?),
            PartKind::Nic => Part::Nic(self.nics.get(i)?),
            PartKind::Switch => Part::Switch(self.switches.get(i)?),
            PartKind::System => Part::System(self.systems.get(i)?),
        })
    }

    /// Looks a GPU up by id.
    #[must_use]
    pub fn gpu(&self, id: &PartId) -> Option<&Gpu> {
        match self.get(id)? {
            Part::Gpu(g) => Some(g),
            _ => None,
        }
    }

    /// Every part of one kind, in catalog order.
    pub fn parts_of(&self, kind: PartKind) -> Box<dyn Iterator<Item = Part<'_>> + '_> {
        match kind {
            PartKind::Gpu => Box::new(self.gpus.iter().map(Part::Gpu)),
            PartKind::Cpu => Box::new(self.cpus.iter().map(Part::Cpu)),
            PartKind::Motherboard => Box::new(self.motherboards.iter().map(Part::Motherboard)),
            PartKind::Memory => Box::new(self.memory.iter().map(Part::Memory)),
            PartKind::Storage => Box::new(self.storage.iter().map(Part::Storage)),
            PartKind::Psu => Box::new(self.psus.iter().map(Part::Psu)),
            PartKind::Cooler => Box::new(self.coolers.iter().map(Part::Cooler)),
            PartKind::Chassis => Box::new(self.chassis.iter().map(Part::Chassis)),
            PartKind::Nic => Box::new(self.nics.iter().map(Part::Nic)),
            PartKind::Switch => Box::new(self.switches.iter().map(Part::Switch)),
            PartKind::System => Box::new(self.systems.iter().map(Part::System)),
        }
    }

    /// Every part, kind by kind.
    pub fn all_parts(&self) -> impl Iterator<Item = Part<'_>> {
        PartKind::ALL.into_iter().flat_map(|k| self.parts_of(k))
    }

    /// Number of parts of all kinds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.index.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
}

/// A warning for each `.ron` file in a user catalog folder that the loader does not read (not
/// named after a part kind, `clouds.ron`, `models.ron` or `prices.ron`; e.g. `gpus.ron`): without it a
/// misnamed file would be ignored in silence.
fn unknown_files(dir: &Path) -> Vec<CatalogProblem> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let known = Catalog::file_names();
    let mut out: Vec<CatalogProblem> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("ron")))
        .filter(|p| p.file_name().is_none_or(|n| !known.iter().any(|k| n == k.as_str())))
        .map(|p| CatalogProblem {
            severity: ProblemSeverity::Warning,
            file: p.display().to_string(),
            line: None,
            col: None,
            message: format!("is not loaded: the catalog files are {}", known.join(", ")),
        })
        .collect();
    out.sort_by(|a, b| a.file.cmp(&b.file));
    out
}

/// Orders problems by file and position so output is stable.
fn sort_problems(problems: &mut [CatalogProblem]) {
    problems.sort_by(|a, b| (&a.file, a.line, a.col).cmp(&(&b.file, b.line, b.col)));
}

/// Reads a catalog file: a regular file (after following links) of at most
/// [`MAX_CATALOG_FILE_BYTES`], in UTF-8 (a leading byte order mark is skipped).
fn read_limited(path: &Path) -> Result<String, CatalogProblem> {
    let label = path.display().to_string();
    let bytes = files::read_regular(path, MAX_CATALOG_FILE_BYTES).map_err(|e| {
        let message = match e {
            ReadError::TooLarge { size, limit } => {
                format!("is at least {size} bytes; catalog files are limited to {limit} bytes")
            }
            other => other.to_string(),
        };
        CatalogProblem::error(label.clone(), None, message)
    })?;
    let mut text = String::from_utf8(bytes).map_err(|e| {
        let (line, col) = line_col_of_byte(&String::from_utf8_lossy(e.as_bytes()), e.utf8_error().valid_up_to());
        CatalogProblem::error(label, Some((line, col)), "is not valid UTF-8 text")
    })?;
    if text.starts_with(UTF8_BOM) {
        text.drain(..UTF8_BOM.len_utf8());
    }
    Ok(text)
}

/// Whether a user catalog folder has an entry named `path`: a file, or anything else that
/// [`read_limited`] then refuses with what it is (a broken link is not silently skipped).
fn present(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// The RON options rigplan reads with: `Some(..)` may be omitted around optional values.
#[must_use]
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Parses a catalog file's RON list; a syntax or schema error becomes a problem with its
/// position (and None: the file contributes nothing).
pub(crate) fn parse_list<T: DeserializeOwned>(
    label: &str,
    text: &str,
    problems: &mut Vec<CatalogProblem>,
) -> Option<Vec<T>> {
    match ron_options().from_str(text) {
        Ok(v) => Some(v),
        Err(e) => {
            problems.push(CatalogProblem::error(
                label.to_owned(),
                Some((e.span.start.line, e.span.start.col)),
                e.code.to_string(),
            ));
            None
        }
    }
}

/// Parses one catalog file into entries with their origins; a syntax or schema error is
/// recorded as a problem with its position and the file contributes nothing.
fn parse<T: DeserializeOwned + CatalogEntry>(
    label: &str,
    text: &str,
    problems: &mut Vec<CatalogProblem>,
) -> ParsedFile<T> {
    let Some(entries) = parse_list::<T>(label, text, problems) else { return ParsedFile { entries: Vec::new() } };
    let mut seen: HashMap<PartId, Origin> = HashMap::new();
    let mut out = Vec::with_capacity(entries.len());
    let mut ids = IdLocator::new(text);
    for entry in entries {
        let id = entry.meta().id.clone();
        let (line, col) = ids.locate(id.as_str());
        let origin = Origin { file: label.to_owned(), line, col };
        if let Some(first) = seen.get(&id) {
            problems.push(CatalogProblem::error(
                label.to_owned(),
                Some((line, col)),
                format!("duplicate id `{id}` (first defined at {first})"),
            ));
            continue;
        }
        seen.insert(id, origin.clone());
        out.push((entry, origin));
    }
    ParsedFile { entries: out }
}

/// Adds parsed entries to a kind list, replacing same-id entries from earlier files.
/// Linear in the entries: an index of the list's ids finds the entry an id replaces (a search
/// of the list for each entry made loading a large user file quadratic).
fn merge<T: CatalogEntry>(list: &mut Vec<T>, origins: &mut HashMap<PartId, Origin>, parsed: ParsedFile<T>) {
    let mut at: HashMap<PartId, usize> = list.iter().enumerate().map(|(i, e)| (e.meta().id.clone(), i)).collect();
    for (entry, origin) in parsed.entries {
        let id = entry.meta().id.clone();
        if let Some(existing) = at.get(&id).and_then(|&i| list.get_mut(i)) {
            *existing = entry;
        } else {
            at.insert(id.clone(), list.len());
            list.push(entry);
        }
        origins.insert(id, origin);
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn gpu_text(id: &str, tdp: f64) -> String {
        format!(
            r#"[(
    id: "{id}",
    name: "Test GPU",
    vendor: "NVIDIA",
    price_usd: 1000.0,
    price_date: "2024-01",
    source: "test",
    architecture: "Ada Lovelace",
    segment: Consumer,
    memory_gib: 24.0,
    memory_type: Gddr6x,
    memory_bandwidth_gbs: 1008.0,
    fp32_tflops: 82.6,
    fp16_tensor_tflops: 165.2,
    tdp_watts: {tdp},
    idle_watts: 20.0,
    form_factor: Pcie,
    pcie_gen: 4,
    pcie_lanes: 16,
    slot_width: 3.0,
    length_mm: 304.0,
    power_connectors: [(connector: Hpwr16Pin, count: 1)],
    interconnect: None,
    max_temp_c: 90.0,
    cooler: OpenAir,
)]"#
        )
    }

    #[test]
    fn overlay_replaces_by_id_and_extends() {
        let base = gpu_text("gpu/test-a", 450.0);
        let over = gpu_text("gpu/test-a", 500.0);
        let extra = gpu_text("gpu/test-b", 300.0);
        let (cat, _) = Catalog::from_sources(&[
            (PartKind::Gpu, "base".into(), base),
            (PartKind::Gpu, "user".into(), over),
            (PartKind::Gpu, "user2".into(), extra),
        ]);
        assert_eq!(cat.gpus.len(), 2);
        assert_eq!(cat.gpu(&"gpu/test-a".into()).map(|g| g.tdp_watts), Some(500.0));
        assert_eq!(cat.origins[&PartId::from("gpu/test-a")].file, "user");
    }

    #[test]
    fn duplicate_in_one_file_is_reported_with_location() {
        let one = gpu_text("gpu/test-a", 450.0);
        let body = one.trim_start_matches('[').trim_end_matches(']');
        let text = format!("[{body},\n{body}]");
        let (cat, problems) = Catalog::from_sources(&[(PartKind::Gpu, "gpu.ron".into(), text)]);
        assert_eq!(cat.gpus.len(), 1);
        let dup = problems.iter().find(|p| p.message.contains("duplicate id")).expect("duplicate reported");
        assert_eq!(dup.file, "gpu.ron");
        assert!(dup.line > Some(20), "points at the second definition, got line {:?}", dup.line);
    }

    #[test]
    fn syntax_error_has_line_and_column() {
        let text = "[(\n    id: \"gpu/x\",\n    name: ,\n)]".to_owned();
        let (_, problems) = Catalog::from_sources(&[(PartKind::Gpu, "gpu.ron".into(), text)]);
        let p = problems.first().expect("a problem");
        assert_eq!(p.line, Some(3));
        assert!(p.to_string().starts_with("gpu.ron:3:"), "{p}");
    }

    #[test]
    fn ids_are_located_when_escaped_or_quoted_in_a_text() {
        // The second entry's id is escaped (`\u{2f}` is `/`), the first's source quotes an
        // `id:`; each entry is still placed at its own id, in one pass.
        let text =
            "[\n  (id: \"gpu/a\", source: \"see id: \\\"gpu/b\\\"\"),\n  (id: \"gpu\\u{2f}b\"),\n  (id: \"gpu/c\"),\n]";
        let commented = "[\n  (\n    // id: \"not/this\"\n    id: \"gpu\\u{2f}a\",\n  ),\n]";
        assert_eq!(IdLocator::new(commented).locate("gpu/a"), (4, 9));
        let mut ids = IdLocator::new(text);
        assert_eq!(ids.locate("gpu/a"), (2, 8));
        assert_eq!(ids.locate("gpu/b"), (3, 8));
        assert_eq!(ids.locate("gpu/c"), (4, 8));
        assert_eq!(ids.locate("gpu/d"), (4, 15), "past the last id: where the last one ended");
    }

    #[test]
    fn line_col() {
        assert_eq!(line_col_of_byte("ab\ncd", 4), (2, 2));
        assert_eq!(line_col_of_byte("", 0), (1, 1));
    }
}
