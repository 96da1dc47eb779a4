//! What the palette says of a part: the short spec line of a row and the hover card with every
//! field the catalog gives, named for people (display names and formatted numbers, not the
//! catalog's code names).

use crate::core::catalog::{
    BoardFormFactor, BoardRole, ChassisKind, CoolerKind, CoolerStyle, DimmKind, EfficiencyTier, GpuFormFactor,
    GpuMemoryType, GpuSegment, MemoryType, NetTech, Part, PowerConnector, Precision, PsuFormFactor, StorageInterface,
};
use crate::core::units::format_thousands;
use crate::gui::context::FrameCtx;
use crate::gui::text::{Texts, fill};
use egui::RichText;

/// A cooler type as the UI names it.
#[must_use]
pub fn cooler_kind(kind: CoolerKind, t: &Texts) -> &'static str {
    let i = match kind {
        CoolerKind::Air => 0,
        CoolerKind::Aio => 1,
        CoolerKind::CustomLoop => 2,
        CoolerKind::ServerHeatsink => 3,
    };
    t.cooler_kinds.get(i).copied().unwrap_or_default()
}

/// A chassis type as the UI names it.
#[must_use]
pub fn chassis_kind(kind: ChassisKind, t: &Texts) -> &'static str {
    let i = match kind {
        ChassisKind::Tower => 0,
        ChassisKind::Rack => 1,
        ChassisKind::Jbod => 2,
    };
    t.chassis_kinds.get(i).copied().unwrap_or_default()
}

/// What to say of a stale catalog price (older than the user's threshold on the report's
/// date): its date and the threshold; `None` for a fresh price, no price, or an undated report.
pub(super) fn stale_hint(fx: &FrameCtx<'_>, meta: &crate::core::catalog::Meta<'_>) -> Option<String> {
    let (price, ages) = meta.dated_price().zip(fx.derived.report.prices.as_ref())?;
    ages.policy
        .is_stale(price.date)
        .then(|| fill(fx.texts.stale_price_hint, &[&price.date, &ages.policy.stale_after_months]))
}

/// The short spec line of a palette row.
#[must_use]
pub fn key_specs(part: Part<'_>, t: &Texts) -> String {
    let n = |v: f64| format_thousands(v, 0);
    match part {
        Part::Gpu(g) => {
            let mut s = fill(
                t.spec_gpu,
                &[&n(g.memory_gib), &g.memory_type, &n(g.memory_bandwidth_gbs), &n(g.tdp_watts), &g.form_factor],
            );
            if g.slot_width > 0.0 {
                s.push_str(&fill(t.spec_slot_width, &[&g.slot_width]));
            }
            s
        }
        Part::Cpu(c) => fill(t.spec_cpu, &[&c.cores, &c.threads, &c.socket, &n(c.tdp_watts)]),
        Part::Motherboard(b) => match &b.baseboard {
            Some(bb) => fill(t.spec_baseboard, &[&bb.form_factor, &bb.positions]),
            None => fill(
                t.spec_board,
                &[&b.socket.as_deref().unwrap_or("-"), &b.form_factor, &b.dimm_slots, &b.pcie_slots.len()],
            ),
        },
        Part::Memory(m) => {
            let ecc = if m.ecc { t.spec_ecc } else { "" };
            fill(t.spec_memory, &[&n(m.capacity_gib), &m.memory_type, &m.dimm_kind, &m.speed_mts, &ecc])
        }
        Part::Storage(s) => fill(t.spec_storage, &[&compact(s.capacity_gb / 1000.0), &s.interface, &n(s.seq_read_mbs)]),
        Part::Psu(p) => fill(t.spec_psu, &[&n(p.rated_watts), &p.efficiency]),
        Part::Cooler(c) => fill(t.spec_cooler, &[&cooler_kind(c.kind, t), &n(c.rated_heat_watts)]),
        Part::Chassis(c) => fill(t.spec_chassis, &[&chassis_kind(c.kind, t), &c.expansion_slots, &n(c.airflow_cfm)]),
        Part::Nic(x) => fill(t.spec_nic, &[&x.ports, &n(x.port_speed_gbps), &x.tech]),
        Part::Switch(s) => fill(t.spec_switch, &[&s.ports, &n(s.port_speed_gbps), &s.tech, &s.rack_units]),
        Part::System(s) => {
            let gpus: u32 = s.gpus.iter().map(|g| u32::from(g.count)).sum();
            fill(t.spec_system, &[&t.n_gpus.count(gpus), &n(s.memory_gib), &n(s.max_watts)])
        }
    }
}

/// Every field of a part as (label, value) rows, from its serialized form, so nothing the
/// catalog says is left out.
#[must_use]
pub fn spec_rows(part: Part<'_>, t: &Texts) -> Vec<(String, String)> {
    let value = match part {
        Part::Gpu(p) => serde_json::to_value(p),
        Part::Cpu(p) => serde_json::to_value(p),
        Part::Motherboard(p) => serde_json::to_value(p),
        Part::Memory(p) => serde_json::to_value(p),
        Part::Storage(p) => serde_json::to_value(p),
        Part::Psu(p) => serde_json::to_value(p),
        Part::Cooler(p) => serde_json::to_value(p),
        Part::Chassis(p) => serde_json::to_value(p),
        Part::Nic(p) => serde_json::to_value(p),
        Part::Switch(p) => serde_json::to_value(p),
        Part::System(p) => serde_json::to_value(p),
    };
    let Ok(serde_json::Value::Object(map)) = value else { return Vec::new() };
    let gpu = matches!(part, Part::Gpu(_));
    map.into_iter()
        .filter(|(k, v)| !matches!(k.as_str(), "id" | "name" | "source") && !v.is_null())
        .map(|(k, v)| (field_label_in(&k, gpu, t), value_text(&v, t)))
        .collect()
}

/// A field's label in the UI's language: the text table's name for it (on a GPU, its
/// GPU-specific name first), else the label made from the field name ([`field_label`]).
#[must_use]
pub fn field_label_in(field: &str, gpu: bool, t: &Texts) -> String {
    let f = t.figures;
    let find = |table: &[(&str, &'static str)]| table.iter().find(|(k, _)| *k == field).map(|(_, v)| *v);
    gpu.then(|| find(f.gpu_field_labels))
        .flatten()
        .or_else(|| find(f.field_labels))
        .map_or_else(|| field_label(field), str::to_owned)
}

/// `tdp_watts` → `TDP (W)`: acronyms upper-cased, the unit suffix as a symbol.
#[must_use]
pub fn field_label(field: &str) -> String {
    const UNITS: [(&str, &str); 16] = [
        ("watts", "W"),
        ("gib", "GiB"),
        ("gbs", "GB/s"),
        ("mbs", "MB/s"),
        ("gbps", "Gb/s"),
        ("gb", "GB"),
        ("mm", "mm"),
        ("usd", "USD"),
        ("c", "°C"),
        ("tflops", "TFLOPS"),
        ("tops", "TOPS"),
        ("ghz", "GHz"),
        ("mts", "MT/s"),
        ("cfm", "CFM"),
        ("mb", "MB"),
        ("tb", "TB"),
    ];
    const ACRONYMS: [(&str, &str); 20] = [
        ("tdp", "TDP"),
        ("pcie", "PCIe"),
        ("fp32", "FP32"),
        ("fp16", "FP16"),
        ("bf16", "BF16"),
        ("fp8", "FP8"),
        ("int8", "INT8"),
        ("sku", "SKU"),
        ("cpu", "CPU"),
        ("gpu", "GPU"),
        ("gpus", "GPUs"),
        ("cpus", "CPUs"),
        ("psus", "PSUs"),
        ("psu", "PSU"),
        ("eps", "EPS"),
        ("atx", "ATX"),
        ("dimm", "DIMM"),
        ("ecc", "ECC"),
        ("nvswitch", "NVSwitch"),
        ("tjmax", "Tjmax"),
    ];
    let words: Vec<&str> = field.split('_').collect();
    let (body, unit) = match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => match UNITS.iter().find(|(k, _)| k == last) {
            Some((_, sym)) => (rest.to_vec(), Some(*sym)),
            None => (words.clone(), None),
        },
        _ => (words.clone(), None),
    };
    let mut text = body
        .iter()
        .map(|w| ACRONYMS.iter().find(|(k, _)| k == w).map_or_else(|| (*w).to_owned(), |(_, v)| (*v).to_owned()))
        .collect::<Vec<_>>()
        .join(" ");
    if let Some(first) = text.get(..1) {
        text = first.to_uppercase() + text.get(1..).unwrap_or_default();
    }
    match unit {
        Some(u) => format!("{text} ({u})"),
        None => text,
    }
}

/// A catalog value from its serialized form, as people read it: enum values by display name
/// (`Gddr6x` → "GDDR6X", `Hpwr16Pin` → "16-pin 12V-2x6"), numbers without a trailing ".0" and
/// with thousands separators, nested fields by their labels.
fn value_text(v: &serde_json::Value, t: &Texts) -> String {
    match v {
        serde_json::Value::String(s) => display_name(s, t).unwrap_or_else(|| s.clone()),
        serde_json::Value::Bool(b) => if *b { t.yes } else { t.no }.to_owned(),
        serde_json::Value::Number(n) => number_text(n),
        serde_json::Value::Null => String::new(),
        serde_json::Value::Array(items) => items.iter().map(|i| value_text(i, t)).collect::<Vec<_>>().join("; "),
        serde_json::Value::Object(map) => map
            .iter()
            .map(|(k, v)| match display_name(k, t) {
                // An enum value with data (`{"NvLinkBridge": {..}}`): its name, its data after.
                Some(name) => match value_text(v, t) {
                    inner if inner.is_empty() => name,
                    inner => format!("{name} ({inner})"),
                },
                None => format!("{}: {}", field_label_in(k, false, t), value_text(v, t)),
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A number as the UI writes numbers: whole values without decimals, others with up to three,
/// thousands separated (1599.0 → "1,599"; 2.5 → "2.5").
fn number_text(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_u64() {
        return format_thousands(i as f64, 0);
    }
    if let Some(i) = n.as_i64() {
        return format_thousands(i as f64, 0);
    }
    n.as_f64().map_or_else(|| n.to_string(), compact)
}

/// A number with the fewest decimals (up to three) that write it exactly, thousands separated:
/// 1.0 → "1", 1.92 → "1.92".
fn compact(x: f64) -> String {
    const SCALES: [f64; 4] = [1.0, 10.0, 100.0, 1000.0];
    let decimals = SCALES.iter().position(|s| ((x * s).round() - x * s).abs() < 1e-6).unwrap_or(3);
    format_thousands(x, decimals)
}

/// The enum with serialized name `name`, if `T` has one.
fn parse<T: serde::de::DeserializeOwned>(name: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(name.to_owned())).ok()
}

/// The display name of a catalog enum value from its serialized (code) name, in the UI's
/// language where the value is a word rather than a standard's name; None for any other
/// string (a vendor, a socket, a date). Unit variants come as strings, variants with data
/// as the key of an object.
#[must_use]
pub fn display_name(name: &str, t: &Texts) -> Option<String> {
    let f = t.figures;
    let pick = |names: &[&'static str], i: usize| names.get(i).map(|s| (*s).to_owned());
    if let Some(v) = parse::<GpuMemoryType>(name) {
        return Some(v.to_string());
    }
    if let Some(v) = parse::<MemoryType>(name) {
        return Some(v.to_string());
    }
    if let Some(v) = parse::<GpuFormFactor>(name) {
        return Some(v.to_string());
    }
    if let Some(v) = parse::<BoardFormFactor>(name) {
        return Some(v.to_string());
    }
    if let Some(v) = parse::<DimmKind>(name) {
        return Some(v.to_string());
    }
    if let Some(v) = parse::<PowerConnector>(name) {
        return Some(v.to_string());
    }
    if let Some(v) = parse::<StorageInterface>(name) {
        return Some(v.to_string());
    }
    if let Some(v) = parse::<EfficiencyTier>(name) {
        return Some(v.to_string());
    }
    if let Some(v) = parse::<NetTech>(name) {
        return Some(v.to_string());
    }
    if let Some(v) = parse::<Precision>(name) {
        return Some(v.to_string());
    }
    if let Some(v) = parse::<CoolerKind>(name) {
        return Some(cooler_kind(v, t).to_owned());
    }
    if let Some(v) = parse::<ChassisKind>(name) {
        return Some(chassis_kind(v, t).to_owned());
    }
    if let Some(v) = parse::<GpuSegment>(name) {
        let i = match v {
            GpuSegment::Consumer => 0,
            GpuSegment::Workstation => 1,
            GpuSegment::Datacenter => 2,
            GpuSegment::Embedded => 3,
        };
        return pick(&f.gpu_segments, i);
    }
    if let Some(v) = parse::<CoolerStyle>(name) {
        let i = match v {
            CoolerStyle::OpenAir => 0,
            CoolerStyle::Blower => 1,
            CoolerStyle::Passive => 2,
            CoolerStyle::Liquid => 3,
        };
        return pick(&f.cooler_styles, i);
    }
    if let Some(v) = parse::<PsuFormFactor>(name) {
        let i = match v {
            PsuFormFactor::Atx => 0,
            PsuFormFactor::Sfx => 1,
            PsuFormFactor::Crps => 2,
            PsuFormFactor::ServerModule => 3,
        };
        return pick(&f.psu_form_factors, i);
    }
    if let Some(v) = parse::<BoardRole>(name) {
        return pick(&f.board_roles, usize::from(v == BoardRole::GpuBaseboard));
    }
    // The GPU-to-GPU link (`Interconnect`): its variants by serialized name.
    let link = ["None", "NvLinkBridge", "NvLinkSwitch", "InfinityFabric", "Hccs"].iter().position(|v| *v == name)?;
    pick(&f.interconnects, link)
}

/// The hover card: every spec, the price and its date, the source, where it is defined.
pub fn spec_card(ui: &mut egui::Ui, fx: &FrameCtx<'_>, part: Part<'_>) {
    let t = fx.texts;
    let meta = part.meta();
    ui.set_max_width(420.0);
    ui.strong(meta.name);
    ui.weak(meta.id.as_str());
    egui::Grid::new(("spec", meta.id.as_str())).num_columns(2).striped(true).show(ui, |ui| {
        for (k, v) in spec_rows(part, t) {
            ui.weak(k);
            ui.label(v);
            ui.end_row();
        }
    });
    if let Some(hint) = stale_hint(fx, &meta) {
        ui.colored_label(fx.tokens.warn, hint);
    }
    ui.separator();
    ui.label(RichText::new(fill(t.source, &[&meta.source])).small());
    if let Some(origin) = fx.catalog.origins.get(meta.id) {
        ui.label(RichText::new(fill(t.defined_at, &[origin])).small().color(fx.tokens.muted));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_labels_read_well() {
        assert_eq!(field_label("tdp_watts"), "TDP (W)");
        assert_eq!(field_label("memory_bandwidth_gbs"), "Memory bandwidth (GB/s)");
        assert_eq!(field_label("max_temp_c"), "Max temp (°C)");
        assert_eq!(field_label("fp16_tensor_tflops"), "FP16 tensor (TFLOPS)");
        assert_eq!(field_label("vendor"), "Vendor");
        assert_eq!(field_label("pcie_lanes"), "PCIe lanes");
    }

    /// Every field of every shipped part has a Chinese label (issue 17: the spec card showed
    /// English field labels in the Chinese UI), and the English ones stay made from the names.
    #[test]
    fn every_field_of_every_part_has_a_chinese_label() {
        let cjk = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        let (en, zh) = (&crate::gui::text::EN, &crate::gui::text::ZH);
        let catalog = crate::core::catalog::Catalog::embedded().unwrap();
        let mut checked = 0;
        for part in catalog.all_parts() {
            for ((label_en, value_en), (label_zh, value_zh)) in spec_rows(part, en).into_iter().zip(spec_rows(part, zh))
            {
                // Names that are the same in both languages (TDP, ECC, SKU, GPU, …) aside, a
                // Chinese label is not the English one.
                let same = ["TDP (W)", "ECC", "SKU", "GPU", "Tjmax (°C)"].contains(&label_zh.as_str());
                assert!(same || cjk(&label_zh), "{}: `{label_zh}` (for `{label_en}`)", part.meta().id.as_str());
                // Nested fields ("Connector: …, Count: …") are labelled in Chinese too.
                if value_en.contains(": ") {
                    assert_ne!(value_en, value_zh, "{}: {label_en}", part.meta().id.as_str());
                }
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
        assert_eq!(field_label_in("memory_gib", true, zh), "显存 (GiB)");
        assert_eq!(field_label_in("memory_gib", false, zh), "内存 (GiB)");
        assert_eq!(field_label_in("memory_gib", true, en), "Memory (GiB)");
        let table = crate::gui::text::spec_fields::ZH;
        assert!(table.windows(2).all(|w| w[0].0 < w[1].0), "sorted, each field once");
    }

    #[test]
    fn code_names_and_raw_floats_read_as_people_write_them() {
        let (en, zh) = (&crate::gui::text::EN, &crate::gui::text::ZH);
        let v = |json: &str| serde_json::from_str::<serde_json::Value>(json).unwrap();
        assert_eq!(value_text(&v(r#""Gddr6x""#), en), "GDDR6X");
        assert_eq!(value_text(&v(r#""Ddr5""#), en), "DDR5");
        assert_eq!(value_text(&v(r#""Pcie""#), en), "PCIe");
        assert_eq!(value_text(&v(r#""Datacenter""#), zh), "数据中心");
        assert_eq!(value_text(&v("1599.0"), en), "1,599");
        assert_eq!(value_text(&v("2.5"), en), "2.5");
        assert_eq!(value_text(&v("0.125"), en), "0.125");
        assert_eq!(value_text(&v("4096"), en), "4,096");
        assert_eq!(
            value_text(&v(r#"[{"connector": "Hpwr16Pin", "count": 1}]"#), en),
            "Connector: 16-pin 12V-2x6, Count: 1"
        );
        assert_eq!(
            value_text(&v(r#"{"NvLinkBridge": {"generation": 3, "bandwidth_gbs": 112.0, "max_gpus": 2}}"#), en),
            "NVLink bridge (Bandwidth (GB/s): 112, Generation: 3, Max GPUs: 2)"
        );
        assert_eq!(value_text(&v(r#""None""#), en), "PCIe only");
        assert_eq!(value_text(&v(r#""LGA4677""#), en), "LGA4677", "a catalog string stays as written");
    }
}
