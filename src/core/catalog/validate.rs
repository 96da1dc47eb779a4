//! Catalog validation: ids, references and value ranges.
//!
//! Each check names the entry (by its `file:line:col`) and the field. The ranges are loose
//! physical bounds that catch typos and unit mix-ups (watts entered as kilowatts, MB as GB),
//! not market judgements. A value outside its range, NaN or infinite makes the catalog
//! unusable, so that no analysis, report, JSON or sheet ever computes with it.
//!
//! **Every numeric field has a range.** A field is checked by one line in its kind's arm of
//! [`validate`]: `c.range("field", value, min, max, "unit")` for a float (`c.opt_range` for an
//! `Option<f64>`), `c.count("field", value, min, max)` for an integer, with the field's name as
//! written in the catalog file (`parent.field` inside a list or struct, e.g.
//! `power_connectors.count`). A new field plugs in the same way; the test
//! `every_numeric_field_has_a_range` serializes every shipped entry and fails for a numeric
//! field that no check names, so a field added without its range cannot pass CI.

use super::{Catalog, GpuFormFactor, Interconnect, Origin, PRICE_CURRENCIES, Part, PartKind};
use crate::core::units::format_number;
use std::collections::BTreeSet;
use std::fmt;

/// How bad a catalog problem is: errors make the catalog unusable, warnings are reported by
/// `rigplan catalog validate` but the catalog still loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemSeverity {
    Error,
    Warning,
}

/// One problem in a catalog file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CatalogProblem {
    pub severity: ProblemSeverity,
    pub file: String,
    pub line: Option<usize>,
    pub col: Option<usize>,
    pub message: String,
}

impl CatalogProblem {
    #[must_use]
    pub fn error(file: String, at: Option<(usize, usize)>, message: impl Into<String>) -> Self {
        Self {
            severity: ProblemSeverity::Error,
            file,
            line: at.map(|a| a.0),
            col: at.map(|a| a.1),
            message: message.into(),
        }
    }

    fn at(severity: ProblemSeverity, origin: Option<&Origin>, message: String) -> Self {
        Self {
            severity,
            file: origin.map_or_else(|| "catalog".to_owned(), |o| o.file.clone()),
            line: origin.map(|o| o.line),
            col: origin.map(|o| o.col),
            message,
        }
    }

    #[must_use]
    pub fn is_error(&self) -> bool {
        self.severity == ProblemSeverity::Error
    }
}

impl fmt::Display for CatalogProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.col) {
            (Some(l), Some(c)) => write!(f, "{}:{l}:{c}: ", self.file)?,
            _ => write!(f, "{}: ", self.file)?,
        }
        if self.severity == ProblemSeverity::Warning {
            f.write_str("warning: ")?;
        }
        f.write_str(&self.message)
    }
}

/// Longest name-like catalog text (id, name, vendor, SKU, socket, architecture, …),
/// characters. The longest shipped name is under 80; the bound keeps a pasted document out of
/// every table, sheet and JSON that repeats the name for each line of a build.
pub const MAX_NAME_CHARS: usize = 256;
/// Longest free catalog text (`source`, descriptions), characters: the longest shipped
/// `source` is about 1,600 characters; builds allow 4,096 for their own texts.
pub const MAX_TEXT_CHARS: usize = 4_096;

/// Checks the length of a catalog text field; returns the problem's message when it is over.
#[must_use]
pub fn text_too_long(field: &str, value: &str, max: usize) -> Option<String> {
    let n = value.chars().count();
    (n > max).then(|| format!("{field} has {n} characters; the limit is {max}"))
}

/// Collects problems for one entry.
struct Checker<'a> {
    problems: &'a mut Vec<CatalogProblem>,
    origin: Option<&'a Origin>,
    id: String,
    /// The fields a range check looked at, when recorded (the completeness test).
    checked: Option<&'a mut BTreeSet<&'static str>>,
}

impl Checker<'_> {
    fn note(&mut self, field: &'static str) {
        if let Some(checked) = self.checked.as_deref_mut() {
            checked.insert(field);
        }
    }

    fn push(&mut self, severity: ProblemSeverity, message: impl std::fmt::Display) {
        let message = format!("{}: {message}", self.id);
        self.problems.push(CatalogProblem::at(severity, self.origin, message));
    }

    /// `value` must be finite and within `min..=max`.
    fn range(&mut self, field: &'static str, value: f64, min: f64, max: f64, unit: &str) {
        self.note(field);
        if !value.is_finite() {
            self.push(ProblemSeverity::Error, format!("{field} is {value}; it must be a finite number"));
        } else if value < min || value > max {
            let (value, min, max) = (format_number(value), format_number(min), format_number(max));
            self.push(
                ProblemSeverity::Error,
                format!("{field} = {value} is outside the plausible range {min}–{max} {unit}"),
            );
        }
    }

    fn opt_range(&mut self, field: &'static str, value: Option<f64>, min: f64, max: f64, unit: &str) {
        self.note(field);
        if let Some(v) = value {
            self.range(field, v, min, max, unit);
        }
    }

    /// An integer field (a count, a generation) within `min..=max`.
    fn count(&mut self, field: &'static str, value: impl Into<u64>, min: u64, max: u64) {
        self.note(field);
        let value = value.into();
        if value < min || value > max {
            self.push(ProblemSeverity::Error, format!("{field} = {value} is outside {min}–{max}"));
        }
    }

    fn opt_count(&mut self, field: &'static str, value: Option<impl Into<u64>>, min: u64, max: u64) {
        self.note(field);
        if let Some(v) = value {
            self.count(field, v, min, max);
        }
    }

    /// A text field of at most `max` characters.
    fn text(&mut self, field: &str, value: &str, max: usize) {
        if let Some(message) = text_too_long(field, value, max) {
            self.push(ProblemSeverity::Error, message);
        }
    }

    fn socket(&mut self, field: &str, socket: &str, known: &BTreeSet<&str>) {
        if !known.contains(socket) {
            self.push(
                ProblemSeverity::Error,
                format!(
                    "{field} `{socket}` is not a socket of any CPU in the catalog (known: {})",
                    known.iter().copied().collect::<Vec<_>>().join(", ")
                ),
            );
        }
    }
}

pub(crate) fn is_valid_date(date: &str) -> bool {
    let parts: Vec<&str> = date.split('-').collect();
    let digits = |s: &str, n: usize| s.len() == n && s.chars().all(|c| c.is_ascii_digit());
    match parts.as_slice() {
        [y, m] => digits(y, 4) && digits(m, 2) && matches!(m.parse::<u8>(), Ok(1..=12)),
        [y, m, d] => {
            digits(y, 4)
                && digits(m, 2)
                && digits(d, 2)
                && matches!(m.parse::<u8>(), Ok(1..=12))
                && matches!(d.parse::<u8>(), Ok(1..=31))
        }
        _ => false,
    }
}

/// Validates a merged catalog. Parse problems are reported by the loader; these are the
/// semantic ones.
#[must_use]
pub fn validate(catalog: &Catalog) -> Vec<CatalogProblem> {
    let mut problems = Vec::new();
    validate_into(catalog, &mut problems, None);
    problems
}

/// [`validate`], recording in `checked` which `(kind, field)` range checks looked at.
fn validate_into(
    catalog: &Catalog,
    problems: &mut Vec<CatalogProblem>,
    mut checked: Option<&mut BTreeSet<(PartKind, &'static str)>>,
) {
    let cpu_sockets: BTreeSet<&str> = catalog.cpus.iter().map(|c| c.socket.as_str()).collect();
    let board_sockets: BTreeSet<&str> = catalog.motherboards.iter().filter_map(|b| b.socket.as_deref()).collect();

    for part in catalog.all_parts() {
        let meta = part.meta();
        let mut fields = BTreeSet::new();
        let mut c = Checker {
            problems: &mut *problems,
            origin: catalog.origins.get(meta.id),
            id: meta.id.to_string(),
            checked: checked.is_some().then_some(&mut fields),
        };
        check_common(&mut c, part);
        let included = match part {
            Part::Motherboard(b) => b.price_included_with.as_slice(),
            Part::Cooler(k) => k.price_included_with.as_slice(),
            _ => &[],
        };
        for with in included {
            if !matches!(catalog.get(with), Some(Part::Chassis(_))) {
                c.push(
                    ProblemSeverity::Error,
                    format!("price_included_with refers to `{with}`, which is not a chassis in the catalog"),
                );
            }
        }
        if !included.is_empty() && meta.dated_price().is_some() {
            c.push(
                ProblemSeverity::Warning,
                "has a price and price_included_with; the price counts only outside those chassis",
            );
        }
        match part {
            Part::Gpu(g) => {
                c.text("architecture", &g.architecture, MAX_NAME_CHARS);
                c.range("memory_gib", g.memory_gib, 1.0, 1024.0, "GiB");
                c.range("memory_bandwidth_gbs", g.memory_bandwidth_gbs, 10.0, 20_000.0, "GB/s");
                c.range("fp32_tflops", g.fp32_tflops, 0.1, 500.0, "TFLOPS");
                c.range("fp16_tensor_tflops", g.fp16_tensor_tflops, 0.1, 10_000.0, "TFLOPS");
                c.opt_range("bf16_tensor_tflops", g.bf16_tensor_tflops, 0.1, 10_000.0, "TFLOPS");
                c.opt_range("fp8_tensor_tflops", g.fp8_tensor_tflops, 0.1, 20_000.0, "TFLOPS");
                c.opt_range("fp4_tensor_tflops", g.fp4_tensor_tflops, 0.1, 40_000.0, "TFLOPS");
                c.opt_range("int8_tops", g.int8_tops, 0.1, 20_000.0, "TOPS");
                c.range("tdp_watts", g.tdp_watts, 5.0, 2_000.0, "W");
                c.range("idle_watts", g.idle_watts, 0.5, 300.0, "W");
                if g.idle_watts >= g.tdp_watts {
                    c.push(
                        ProblemSeverity::Error,
                        format!("idle_watts {} is not below tdp_watts {}", g.idle_watts, g.tdp_watts),
                    );
                }
                c.opt_range("transient_peak_watts", g.transient_peak_watts, g.tdp_watts, g.tdp_watts * 4.0, "W");
                c.range("max_temp_c", g.max_temp_c, 60.0, 120.0, "°C");
                if g.form_factor == GpuFormFactor::Integrated {
                    if g.pcie_gen != 0 || g.pcie_lanes != 0 {
                        c.push(
                            ProblemSeverity::Error,
                            "integrated GPUs have no PCIe host link; use pcie_gen: 0, pcie_lanes: 0",
                        );
                    }
                } else {
                    c.count("pcie_gen", g.pcie_gen, 3, 6);
                    c.count("pcie_lanes", u64::from(g.pcie_lanes), 1, 16);
                }
                if g.form_factor == GpuFormFactor::Pcie {
                    c.range("slot_width", g.slot_width, 1.0, 5.0, "slots");
                    if g.length_mm.is_none() {
                        c.push(ProblemSeverity::Error, "PCIe cards need length_mm for chassis clearance");
                    }
                } else if g.slot_width != 0.0 {
                    c.push(
                        ProblemSeverity::Error,
                        format!("{} modules take no expansion slots; slot_width must be 0", g.form_factor),
                    );
                }
                c.opt_range("length_mm", g.length_mm, 100.0, 400.0, "mm");
                for pc in &g.power_connectors {
                    c.count("power_connectors.count", pc.count, 1, 4);
                }
                if let Some(bw) = g.interconnect.bandwidth_gbs() {
                    c.range("interconnect.bandwidth_gbs", bw, 10.0, 10_000.0, "GB/s");
                }
                match g.interconnect {
                    Interconnect::NvLinkBridge { generation, max_gpus, .. } => {
                        c.count("interconnect.generation", generation, 1, 10);
                        c.count("interconnect.max_gpus", max_gpus, 2, 8);
                    }
                    Interconnect::NvLinkSwitch { generation, .. } => {
                        c.count("interconnect.generation", generation, 1, 10);
                    }
                    Interconnect::None | Interconnect::InfinityFabric { .. } | Interconnect::Hccs { .. } => {}
                }
            }
            Part::Cpu(p) => {
                c.text("socket", &p.socket, MAX_NAME_CHARS);
                c.count("cores", p.cores, 1, 512);
                if p.threads < p.cores {
                    c.push(ProblemSeverity::Error, format!("threads {} is below cores {}", p.threads, p.cores));
                } else {
                    // SMT runs at most 8 threads per core (IBM POWER SMT8; x86 runs 2).
                    c.count("threads", p.threads, 1, u64::from(p.cores) * 8);
                }
                c.count("pcie_gen", p.pcie_gen, 1, 6);
                c.range("base_ghz", p.base_ghz, 0.5, 7.0, "GHz");
                c.range("boost_ghz", p.boost_ghz, p.base_ghz, 7.0, "GHz");
                c.range("tdp_watts", p.tdp_watts, 5.0, 600.0, "W");
                c.opt_range("max_power_watts", p.max_power_watts, p.tdp_watts, 1_000.0, "W");
                c.range("idle_watts", p.idle_watts, 0.5, p.tdp_watts, "W");
                c.range("max_memory_gib", p.max_memory_gib, 8.0, 16_384.0, "GiB");
                c.count("memory_channels", u64::from(p.memory_channels), 1, 16);
                c.count("pcie_lanes", u64::from(p.pcie_lanes), 4, 256);
                c.count("max_sockets", u64::from(p.max_sockets), 1, 8);
                c.range("tjmax_c", p.tjmax_c, 60.0, 115.0, "°C");
                if p.memory_types.is_empty() {
                    c.push(ProblemSeverity::Error, "memory_types is empty");
                }
                if !board_sockets.contains(p.socket.as_str()) {
                    c.push(ProblemSeverity::Warning, format!("no board in the catalog has socket `{}`", p.socket));
                }
            }
            Part::Motherboard(b) => {
                c.text("socket", b.socket.as_deref().unwrap_or_default(), MAX_NAME_CHARS);
                c.text("chipset", b.chipset.as_deref().unwrap_or_default(), MAX_NAME_CHARS);
                c.count("m2_slots", b.m2_slots, 0, 32);
                c.count("sata_ports", b.sata_ports, 0, 64);
                c.count("eps_connectors", b.eps_connectors, 0, 16);
                // An HGX baseboard with its NVSwitches draws under 1 kW (940 W in the catalog).
                c.opt_range("typical_watts", b.typical_watts, 0.0, 5_000.0, "W");
                match b.role {
                    super::BoardRole::Mainboard => {
                        match &b.socket {
                            Some(s) => c.socket("socket", s, &cpu_sockets),
                            None => c.push(ProblemSeverity::Error, "a mainboard needs a socket"),
                        }
                        c.count("cpu_sockets", u64::from(b.cpu_sockets), 1, 8);
                        c.count("dimm_slots", u64::from(b.dimm_slots), 1, 64);
                        c.count("memory_channels", u64::from(b.memory_channels), 1, 32);
                        c.range("max_memory_gib", b.max_memory_gib, 8.0, 32_768.0, "GiB");
                        if b.memory_type.is_none() || b.dimm_kinds.is_empty() {
                            c.push(ProblemSeverity::Error, "a mainboard needs memory_type and dimm_kinds");
                        }
                        let mut positions = BTreeSet::new();
                        for slot in &b.pcie_slots {
                            if !positions.insert(slot.position) {
                                c.push(ProblemSeverity::Error, format!("two PCIe slots at position {}", slot.position));
                            }
                            if slot.electrical_lanes > slot.physical_lanes {
                                c.push(
                                    ProblemSeverity::Error,
                                    format!("slot {} has more electrical lanes than its physical size", slot.position),
                                );
                            }
                            c.count("pcie_slots.position", slot.position, 1, 20);
                            c.count("pcie_slots.pcie_gen", slot.pcie_gen, 1, 6);
                            c.count("pcie_slots.physical_lanes", slot.physical_lanes, 1, 16);
                            c.count("pcie_slots.electrical_lanes", slot.electrical_lanes, 1, 16);
                        }
                    }
                    super::BoardRole::GpuBaseboard => match &b.baseboard {
                        Some(bb) => {
                            if !bb.form_factor.is_module() {
                                c.push(
                                    ProblemSeverity::Error,
                                    format!("baseboard form factor {} is not a module form factor", bb.form_factor),
                                );
                            }
                            c.count("baseboard.positions", bb.positions, 1, 16);
                            c.count("baseboard.nvswitch_count", bb.nvswitch_count, 0, 16);
                        }
                        None => c.push(ProblemSeverity::Error, "a GPU baseboard needs `baseboard`"),
                    },
                }
            }
            Part::Memory(m) => {
                c.range("capacity_gib", m.capacity_gib, 1.0, 512.0, "GiB");
                c.count("speed_mts", u64::from(m.speed_mts), 1_600, 12_000);
                c.range("typical_watts", m.typical_watts, 0.5, 40.0, "W");
            }
            Part::Storage(s) => {
                c.range("capacity_gb", s.capacity_gb, 16.0, 200_000.0, "GB");
                c.range("seq_read_mbs", s.seq_read_mbs, 50.0, 30_000.0, "MB/s");
                c.range("seq_write_mbs", s.seq_write_mbs, 50.0, 30_000.0, "MB/s");
                c.range("idle_watts", s.idle_watts, 0.0, 30.0, "W");
                c.range("active_watts", s.active_watts, s.idle_watts, 40.0, "W");
                c.opt_count("pcie_gen", s.pcie_gen, 1, 6);
                c.opt_count("pcie_lanes", s.pcie_lanes, 1, 16);
            }
            Part::Psu(p) => {
                c.text("atx_version", p.atx_version.as_deref().unwrap_or_default(), MAX_NAME_CHARS);
                c.range("rated_watts", p.rated_watts, 200.0, 6_000.0, "W");
                // 0 means "high line only"; anything else is a real low-line rating.
                if p.low_line_watts != Some(0.0) {
                    c.opt_range("low_line_watts", p.low_line_watts, 100.0, p.rated_watts, "W");
                }
                for pc in &p.connectors {
                    c.count("connectors.count", pc.count, 1, 16);
                }
            }
            Part::Cooler(k) => {
                c.range("rated_heat_watts", k.rated_heat_watts, 30.0, 3_000.0, "W");
                c.opt_range("height_mm", k.height_mm, 10.0, 200.0, "mm");
                c.opt_range("radiator_mm", k.radiator_mm, 80.0, 1_200.0, "mm");
                c.range("typical_watts", k.typical_watts, 0.0, 100.0, "W");
                if k.sockets.is_empty() {
                    c.push(ProblemSeverity::Error, "sockets is empty");
                }
                for s in &k.sockets {
                    c.text("sockets", s, MAX_NAME_CHARS);
                    c.socket("sockets", s, &cpu_sockets);
                }
            }
            Part::Chassis(ch) => {
                // Every chassis moves air (a JBOD too); a chassis without airflow would put its
                // parts at an infinite temperature.
                c.range("airflow_cfm", ch.airflow_cfm, 1.0, 5_000.0, "CFM");
                c.range("fan_watts", ch.fan_watts, 0.0, 3_000.0, "W");
                c.opt_range("max_gpu_length_mm", ch.max_gpu_length_mm, 100.0, 600.0, "mm");
                c.opt_range("max_cooler_height_mm", ch.max_cooler_height_mm, 10.0, 250.0, "mm");
                // A disk enclosure has no expansion slots; a computer's chassis has at least
                // one opening for its cards (towers 7–11, GPU servers 8–18 in the catalog).
                let min_slots = u64::from(ch.kind != super::ChassisKind::Jbod);
                c.count("expansion_slots", ch.expansion_slots, min_slots, 20);
                c.opt_count("rack_units", ch.rack_units, 1, 20);
                c.opt_range("max_radiator_mm", ch.max_radiator_mm, 80.0, 1_200.0, "mm");
                // 4U top-loading JBODs hold up to about 100 drives (44 in the catalog).
                c.count("bays_35", ch.bays_35, 0, 200);
                c.count("bays_25", ch.bays_25, 0, 200);
                c.opt_count("gpu_slots", ch.gpu_slots, 1, 32);
                c.count("psu_bays", ch.psu_bays, 0, 16);
                for pc in &ch.gpu_power_connectors {
                    c.count("gpu_power_connectors.count", pc.count, 1, 64);
                }
                if ch.kind != super::ChassisKind::Jbod && ch.board_form_factors.is_empty() {
                    c.push(ProblemSeverity::Error, "board_form_factors is empty");
                }
                for inc in &ch.included_psus {
                    match catalog.get(&inc.part) {
                        Some(Part::Psu(_)) => {}
                        _ => c.push(
                            ProblemSeverity::Error,
                            format!("included_psus refers to `{}`, which is not a PSU in the catalog", inc.part),
                        ),
                    }
                    c.count("included_psus.count", inc.count, 1, 16);
                }
            }
            Part::Nic(n) => {
                c.count("ports", n.ports, 1, 8);
                c.count("pcie_gen", n.pcie_gen, 1, 6);
                c.range("port_speed_gbps", n.port_speed_gbps, 1.0, 1_600.0, "Gb/s");
                c.range("max_watts", n.max_watts, 1.0, 150.0, "W");
                c.count("pcie_lanes", n.pcie_lanes, 1, 32);
            }
            Part::Switch(s) => {
                c.count("ports", s.ports, 1, 512);
                c.count("rack_units", s.rack_units, 1, 20);
                c.range("port_speed_gbps", s.port_speed_gbps, 1.0, 1_600.0, "Gb/s");
                c.range("typical_watts", s.typical_watts, 10.0, 10_000.0, "W");
                c.range("max_watts", s.max_watts, s.typical_watts, 10_000.0, "W");
            }
            Part::System(s) => {
                c.range("max_watts", s.max_watts, 5.0, 150_000.0, "W");
                c.range("idle_watts", s.idle_watts, 1.0, s.max_watts, "W");
                c.range("memory_gib", s.memory_gib, 1.0, 65_536.0, "GiB");
                c.range("max_ambient_c", s.max_ambient_c, 20.0, 60.0, "°C");
                c.text("cpu_description", &s.cpu_description, MAX_TEXT_CHARS);
                c.text("network_description", &s.network_description, MAX_TEXT_CHARS);
                // A GB200 NVL72 rack has 72 Grace CPUs of 72 cores (2,592 cores).
                c.count("cpu_cores", s.cpu_cores, 1, 8_192);
                c.range("storage_gb", s.storage_gb, 0.0, 10_000_000.0, "GB");
                c.range("fabric_gbps", s.fabric_gbps, 0.0, 100_000.0, "Gb/s");
                c.opt_count("rack_units", s.rack_units, 1, 60);
                c.opt_range("airflow_cfm", s.airflow_cfm, 1.0, 20_000.0, "CFM");
                c.count("psu_count", s.psu_count, 0, 64);
                if s.psu_count > 0 {
                    c.range("psu_rated_watts", s.psu_rated_watts, 100.0, 20_000.0, "W");
                } else if s.psu_rated_watts != 0.0 {
                    // No PSUs listed (a module powered by its adapter) have no rating either.
                    let watts = format_number(s.psu_rated_watts);
                    c.push(ProblemSeverity::Error, format!("psu_rated_watts = {watts} needs psu_count above 0"));
                }
                c.count("psu_redundant", s.psu_redundant, 0, 64);
                if s.psu_redundant >= s.psu_count && s.psu_count > 0 {
                    c.push(ProblemSeverity::Error, "psu_redundant must be below psu_count");
                }
                for sg in &s.gpus {
                    c.count("gpus.count", sg.count, 1, 64);
                    if catalog.gpu(&sg.gpu).is_none() {
                        c.push(
                            ProblemSeverity::Error,
                            format!("gpus refers to `{}`, which is not a GPU in the catalog", sg.gpu),
                        );
                    }
                }
            }
        }
        if let Some(all) = checked.as_deref_mut() {
            all.extend(fields.into_iter().map(|f| (part.kind(), f)));
        }
    }
}

fn check_common(c: &mut Checker<'_>, part: Part<'_>) {
    let meta = part.meta();
    let id = meta.id.as_str();
    let expected_kind = part.kind();
    match meta.id.kind() {
        Some(k) if k == expected_kind => {}
        _ => c.push(ProblemSeverity::Error, format!("id must start with `{}/`", expected_kind.prefix())),
    }
    let slug_ok = id.split_once('/').is_some_and(|(_, slug)| {
        !slug.is_empty()
            && slug.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || matches!(ch, '-' | '.' | '_'))
    });
    if !slug_ok {
        c.push(ProblemSeverity::Error, "id slug may only use a-z, 0-9, '-', '.', '_'");
    }
    if meta.name.trim().is_empty() {
        c.push(ProblemSeverity::Error, "name is empty");
    }
    for (field, value) in [("id", id), ("name", meta.name), ("vendor", meta.vendor)] {
        c.text(field, value, MAX_NAME_CHARS);
    }
    c.text("sku", meta.sku.unwrap_or_default(), MAX_NAME_CHARS);
    c.text("source", meta.source, MAX_TEXT_CHARS);
    if meta.vendor.trim().is_empty() {
        c.push(ProblemSeverity::Error, "vendor is empty");
    }
    if meta.source.trim().is_empty() {
        c.push(ProblemSeverity::Error, "source is empty: say where the numbers came from");
    }
    match (meta.price, meta.price_usd, meta.price_date) {
        (Some(_), Some(_), _) | (Some(_), _, Some(_)) => {
            c.push(ProblemSeverity::Error, "has both `price` and `price_usd`/`price_date`; give the price once");
        }
        (Some(p), None, None) => {
            // The amount's range depends on the currency: `price_problem` checks it.
            c.note("price.amount");
            if let Some(problem) = price_problem(p.amount, &p.currency.0, &p.date) {
                c.push(ProblemSeverity::Error, format!("price: {problem}"));
            }
        }
        (None, Some(p), Some(d)) => {
            c.range("price_usd", p, 1.0, MAX_PRICE_USD, "USD");
            if !is_valid_date(d) {
                c.push(ProblemSeverity::Error, format!("price_date `{d}` is not YYYY-MM or YYYY-MM-DD"));
            }
        }
        (None, Some(_), None) => c.push(ProblemSeverity::Error, "price_usd needs a price_date"),
        (None, None, _) => {
            c.push(ProblemSeverity::Warning, "has no price; capex will count it as 0 until the build overrides it");
        }
    }
}

/// Most a single catalog part plausibly costs, per currency of [`PRICE_CURRENCIES`]: 5
/// million USD (a whole DGX-class system costs a few hundred thousand), and the same in yuan
/// at 8 CNY per USD, above every yuan rate since 1994 (PBOC central parity history: 8.7 in
/// 1994, 6.1–7.3 since 2015), so that the bound never rejects a price the USD bound accepts.
const MAX_PRICE: [(&str, f64); 2] = [("USD", MAX_PRICE_USD), ("CNY", MAX_PRICE_USD * 8.0)];
const MAX_PRICE_USD: f64 = 5_000_000.0;

/// Why a dated price is unusable (a currency rigplan cannot convert, an amount outside
/// 1–[`MAX_PRICE`], a date not `YYYY-MM` or `YYYY-MM-DD`), or `None` for a good one. Shared
/// by catalog entries, a user catalog's `prices.ron` and price-list import.
#[must_use]
pub fn price_problem(amount: f64, currency: &str, date: &str) -> Option<String> {
    let Some((_, max)) = MAX_PRICE.iter().find(|(c, _)| *c == currency) else {
        return Some(format!(
            "currency `{currency}` is not one rigplan converts; catalog prices are in {}",
            PRICE_CURRENCIES.join(" or ")
        ));
    };
    if !amount.is_finite() {
        return Some(format!("amount {amount} is not a finite number"));
    }
    if !(1.0..=*max).contains(&amount) {
        return Some(format!("{amount} {currency} is outside the plausible range 1–{max} {currency}"));
    }
    if !is_valid_date(date) {
        return Some(format!("date `{date}` is not YYYY-MM or YYYY-MM-DD"));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{BTreeSet, Catalog, PartKind, is_valid_date, validate_into};
    use serde::Serialize;

    /// The dotted paths of the numeric fields in a serialized entry (`pcie_slots.position`);
    /// enum variant names (`NvLinkBridge`) are not part of a path.
    fn numeric_paths(value: &serde_json::Value, path: &str, out: &mut BTreeSet<String>) {
        match value {
            serde_json::Value::Number(_) => {
                out.insert(path.to_owned());
            }
            serde_json::Value::Array(items) => items.iter().for_each(|v| numeric_paths(v, path, out)),
            serde_json::Value::Object(fields) => {
                for (key, v) in fields {
                    let variant = key.starts_with(|c: char| c.is_ascii_uppercase());
                    let path = match (variant, path.is_empty()) {
                        (true, _) => path.to_owned(),
                        (false, true) => key.clone(),
                        (false, false) => format!("{path}.{key}"),
                    };
                    numeric_paths(v, &path, out);
                }
            }
            _ => {}
        }
    }

    fn fields_of<T: Serialize>(kind: PartKind, entries: &[T], out: &mut BTreeSet<(PartKind, String)>) {
        for e in entries {
            let mut paths = BTreeSet::new();
            numeric_paths(&serde_json::to_value(e).unwrap(), "", &mut paths);
            out.extend(paths.into_iter().map(|p| (kind, p)));
        }
    }

    /// The mechanism of the module docs: every numeric field of every shipped entry (and of
    /// the test fixtures) is named by a range check of its kind. A field added without one
    /// fails here with its name.
    #[test]
    fn every_numeric_field_has_a_range() {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/catalog-good");
        for catalog in [Catalog::embedded_with_problems().0, Catalog::load_dir_overlay(&fixtures).0] {
            let mut checked = BTreeSet::new();
            validate_into(&catalog, &mut Vec::new(), Some(&mut checked));
            let checked: BTreeSet<(PartKind, String)> = checked.into_iter().map(|(k, f)| (k, f.to_owned())).collect();
            let mut numeric = BTreeSet::new();
            fields_of(PartKind::Gpu, &catalog.gpus, &mut numeric);
            fields_of(PartKind::Cpu, &catalog.cpus, &mut numeric);
            fields_of(PartKind::Motherboard, &catalog.motherboards, &mut numeric);
            fields_of(PartKind::Memory, &catalog.memory, &mut numeric);
            fields_of(PartKind::Storage, &catalog.storage, &mut numeric);
            fields_of(PartKind::Psu, &catalog.psus, &mut numeric);
            fields_of(PartKind::Cooler, &catalog.coolers, &mut numeric);
            fields_of(PartKind::Chassis, &catalog.chassis, &mut numeric);
            fields_of(PartKind::Nic, &catalog.nics, &mut numeric);
            fields_of(PartKind::Switch, &catalog.switches, &mut numeric);
            fields_of(PartKind::System, &catalog.systems, &mut numeric);
            let unchecked: Vec<_> = numeric.difference(&checked).collect();
            assert!(unchecked.is_empty(), "numeric fields without a range check: {unchecked:?}");
            assert!(numeric.len() > 100, "the walk finds the fields ({})", numeric.len());
        }
    }

    #[test]
    fn dates() {
        assert!(is_valid_date("2024-06"));
        assert!(is_valid_date("2024-06-30"));
        assert!(!is_valid_date("2024-13"));
        assert!(!is_valid_date("June 2024"));
        assert!(!is_valid_date("2024-6"));
    }
}
