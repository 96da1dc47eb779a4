//! What the palette says of a part: the short spec line of a row and the hover card with every
//! field the catalog gives, named for people (display names and formatted numbers, not the
//! catalog's code names).

use crate::core::catalog::{ChassisKind, CoolerKind, Part};
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
        Part::Storage(s) => {
            fill(t.spec_storage, &[&format_thousands(s.capacity_gb / 1000.0, 1), &s.interface, &n(s.seq_read_mbs)])
        }
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
    map.into_iter()
        .filter(|(k, v)| !matches!(k.as_str(), "id" | "name" | "source") && !v.is_null())
        .map(|(k, v)| (field_label(&k), value_text(&v, t)))
        .collect()
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
    const ACRONYMS: [(&str, &str); 17] = [
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

fn value_text(v: &serde_json::Value, t: &Texts) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Bool(b) => if *b { t.yes } else { t.no }.to_owned(),
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::Null => String::new(),
        serde_json::Value::Array(items) => items.iter().map(|i| value_text(i, t)).collect::<Vec<_>>().join("; "),
        serde_json::Value::Object(map) => map
            .iter()
            .map(|(k, v)| format!("{}: {}", k.replace('_', " "), value_text(v, t)))
            .collect::<Vec<_>>()
            .join(", "),
    }
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
}
