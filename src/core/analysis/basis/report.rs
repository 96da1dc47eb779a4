//! The bases of a report's figures: power, thermal, TCO and the summary's own figures, read off
//! the finished sections (the summary's power, heat and cost figures are the sections' and
//! share their keys).

use super::{Basis, num};
use crate::core::analysis::bom::{Bom, PriceOrigin};
use crate::core::analysis::power::{NodePower, PartPower, PowerReport};
use crate::core::analysis::summary::Summary;
use crate::core::analysis::tco::{Billing, CloudOptionInput, Tco};
use crate::core::analysis::thermal::{CFM_PER_WATT_PER_C, ThermalReport};
use crate::core::build::{CONTINUOUS_LOAD_FRACTION, Site};
use crate::core::units::HOURS_PER_YEAR;

/// Every basis of a report's bill of materials (priced lines), power, thermal, TCO and summary
/// figures, in that order.
#[must_use]
pub fn of_report(
    site: &Site,
    bom: &Bom,
    power: &PowerReport,
    thermal: &ThermalReport,
    tco: &Tco,
    summary: &Summary,
) -> Vec<Basis> {
    let mut out = Vec::new();
    bom_bases(bom, &mut out);
    power_bases(power, &mut out);
    thermal_bases(thermal, &mut out);
    tco_bases(site, tco, &mut out);
    summary_bases(summary, thermal, &mut out);
    out
}

/// The bases of a TCO section's figures (`rigplan tco`), `site` giving the PUE and
/// electricity price.
#[must_use]
pub fn of_tco(site: &Site, tco: &Tco) -> Vec<Basis> {
    let mut out = Vec::new();
    tco_bases(site, tco, &mut out);
    out
}

/// Each priced line of the bill of materials: its unit price × quantity, and where the price
/// came from.
fn bom_bases(bom: &Bom, out: &mut Vec<Basis>) {
    let cur = bom.currency.to_string();
    for (i, l) in bom.lines.iter().enumerate() {
        let (Some(unit), Some(total)) = (l.unit_price, l.extended_price) else { continue };
        let origin = match &l.price_origin {
            PriceOrigin::Catalog { amount, currency, date } => {
                format!("{} {currency}, {date}", num(*amount, 2, ""))
            }
            PriceOrigin::Override { note } => note.clone(),
            PriceOrigin::Included { with } => with.to_string(),
            PriceOrigin::Missing => String::new(),
        };
        out.push(
            Basis::new(format!("bom.lines[{i}].extended_price"), "bom-line-price", total, "")
                .substituted(format!(
                    "{} × {} × {} = {} ({origin})",
                    num(unit, 2, &cur),
                    l.quantity_per_node,
                    l.node_count,
                    num(total, 2, &cur)
                ))
                .input("unit price", unit, "", l.source.clone())
                .input("quantity", f64::from(l.quantity_per_node), "", l.part.to_string())
                .input("nodes", f64::from(l.node_count), "", l.group.clone()),
        );
    }
    let priced: Vec<(usize, f64)> =
        bom.lines.iter().enumerate().filter_map(|(i, l)| l.extended_price.map(|p| (i, p))).collect();
    let terms: Vec<String> = priced.iter().map(|(_, p)| num(*p, 0, "")).collect();
    let mut total = Basis::new("bom.parts_total", "bom-parts-total", bom.parts_total, "").substituted(format!(
        "{} = {} ({} priced, {} unpriced)",
        sum_text(&terms),
        num(bom.parts_total, 2, &cur),
        priced.len(),
        bom.unpriced_lines
    ));
    for (i, p) in priced {
        total = total.input("line", p, "", format!("bom.lines[{i}].extended_price"));
    }
    out.push(total);
    for (i, c) in bom.custom_capex.iter().enumerate() {
        out.push(
            Basis::new(format!("bom.custom_capex[{i}].amount"), "bom-custom", c.amount, "")
                .substituted(format!("{} × {} = {}", num(c.unit_amount, 2, &cur), c.quantity, num(c.amount, 2, &cur)))
                .input("unit amount", c.unit_amount, "", format!("custom_lines: {}", c.name))
                .input("quantity", f64::from(c.quantity), "", format!("custom_lines: {}", c.name)),
        );
    }
}

fn w(x: f64) -> String {
    num(x, 0, "W")
}

fn pct(fraction: f64) -> String {
    format!("{:.1} %", fraction * 100.0)
}

/// `a + b + c` of several terms, `0` for none.
fn sum_text(terms: &[String]) -> String {
    if terms.is_empty() { "0".to_owned() } else { terms.join(" + ") }
}

/// A whole-build power figure: its key, formula id, the node group's field, the total, and the
/// cluster-level parts' share.
type Field = (&'static str, &'static str, fn(&NodePower) -> f64, f64, f64);

fn power_bases(p: &PowerReport, out: &mut Vec<Basis>) {
    for n in &p.nodes {
        node_power_bases(p, n, out);
    }
    // The whole build: node groups × counts, plus cluster-level parts.
    let groups = |f: fn(&NodePower) -> f64| -> Vec<String> {
        p.nodes.iter().map(|n| format!("{} × {}", n.count, w(f(n)))).collect()
    };
    let cluster = |x: f64, terms: &mut Vec<String>| {
        if x > 0.0 {
            terms.push(w(x));
        }
    };
    let fields: [Field; 6] = [
        (
            "power.idle_watts",
            "power-dc-idle",
            |n| n.idle_watts,
            p.idle_watts,
            p.cluster.iter().map(|c| c.idle_watts).sum(),
        ),
        (
            "power.typical_watts",
            "power-typical",
            |n| n.typical_watts,
            p.typical_watts,
            p.cluster.iter().map(|c| c.typical_watts).sum(),
        ),
        ("power.max_watts", "power-dc-max", |n| n.max_watts, p.max_watts, p.cluster.iter().map(|c| c.max_watts).sum()),
        ("power.wall_idle_watts", "power-wall", |n| n.wall_idle_watts, p.wall_idle_watts, p.cluster_wall.idle_watts),
        (
            "power.wall_typical_watts",
            "power-wall",
            |n| n.wall_typical_watts,
            p.wall_typical_watts,
            p.cluster_wall.typical_watts,
        ),
        ("power.wall_watts", "power-wall", |n| n.wall_watts, p.wall_watts, p.cluster_wall.max_watts),
    ];
    for (figure, formula, f, total, cluster_part) in fields {
        let mut terms = groups(f);
        cluster(cluster_part, &mut terms);
        let mut b = Basis::new(figure, formula, total, "W").substituted(format!("{} = {}", sum_text(&terms), w(total)));
        for n in &p.nodes {
            let field = figure.trim_start_matches("power.");
            b = b.input(&n.name, f(n), "W", format!("power.nodes[{}].{field}", n.node));
        }
        if figure == "power.typical_watts" {
            b = b.input("u", p.utilization, "", "usage.utilization");
        }
        out.push(b);
    }
    let peak_terms: Vec<String> =
        p.nodes.iter().map(|n| format!("{} × {}", n.count, w(n.peak_transient_watts))).collect();
    out.push(
        Basis::new("power.peak_transient_watts", "power-transient", p.peak_transient_watts, "W").substituted(format!(
            "{} = {}",
            sum_text(&peak_terms),
            w(p.peak_transient_watts)
        )),
    );
    if let Some(load) = p.psu_load_fraction {
        out.push(Basis::new("power.psu_load_fraction", "psu-load", load, "").substituted(pct(load)));
    }
    let rec_terms: Vec<String> =
        p.nodes.iter().filter_map(|n| n.recommended_psu_watts.map(|r| format!("{} × {}", n.count, w(r)))).collect();
    if !rec_terms.is_empty() {
        out.push(
            Basis::new("power.recommended_psu_watts", "psu-recommended", p.recommended_psu_watts, "W")
                .substituted(format!("{} = {}", rec_terms.join(" + "), w(p.recommended_psu_watts))),
        );
    }
}

fn node_power_bases(p: &PowerReport, n: &NodePower, out: &mut Vec<Basis>) {
    let key = |field: &str| format!("power.nodes[{}].{field}", n.node);
    let parts = |f: fn(&PartPower) -> f64| -> (Vec<String>, Vec<(String, f64, String)>) {
        let mut terms = Vec::new();
        let mut inputs = Vec::new();
        for part in &*n.parts {
            let x = f(part);
            terms.push(if part.quantity > 1 {
                format!("{} × {} ({})", part.quantity, w(x / f64::from(part.quantity)), part.name)
            } else {
                format!("{} ({})", w(x), part.name)
            });
            inputs.push((part.name.clone(), x, part.part.to_string()));
        }
        (terms, inputs)
    };
    for (field, formula, f, total) in [
        ("idle_watts", "power-dc-idle", (|x| x.idle_watts) as fn(&PartPower) -> f64, n.idle_watts),
        ("max_watts", "power-dc-max", |x| x.max_watts, n.max_watts),
        ("typical_watts", "power-typical", |x| x.typical_watts, n.typical_watts),
        ("peak_transient_watts", "power-transient", |x| x.peak_transient_watts, n.peak_transient_watts),
    ] {
        let (terms, inputs) = parts(f);
        let mut b =
            Basis::new(key(field), formula, total, "W").substituted(format!("{} = {}", sum_text(&terms), w(total)));
        for (name, value, from) in inputs {
            b = b.input(&name, value, "W", from);
        }
        if formula == "power-typical" {
            b = b.input("u", p.utilization, "", "usage.utilization");
        }
        out.push(b);
    }
    let fed = n.psu_fed;
    let installed = n.psu.as_ref().map_or(0.0, |s| s.installed_watts);
    if fed.max_watts > 0.0 {
        let load = if installed > 0.0 { fed.max_watts / installed } else { 0.5 };
        let table = &p.efficiency_table;
        let tier = n.psu.as_ref().and_then(|s| s.tier).map_or_else(|| "Gold".to_owned(), |t| format!("{t:?}"));
        out.push(
            Basis::new(key("efficiency_max"), "psu-efficiency", n.efficiency_max, "")
                .substituted(format!(
                    "80 PLUS {tier} ({table}): {} / {} = {} → η = {}",
                    w(fed.max_watts),
                    w(installed),
                    pct(load),
                    pct(n.efficiency_max)
                ))
                .input("P_dc", fed.max_watts, "W", key("psu_fed.max_watts"))
                .input("installed", installed, "W", "PSU lines or chassis")
                .input("η", n.efficiency_max, "", format!("80 PLUS {tier} ({table})")),
        );
    }
    for (field, dc, eff, total) in [
        ("wall_idle_watts", fed.idle_watts, n.efficiency_idle, n.wall_idle_watts),
        ("wall_typical_watts", fed.typical_watts, n.efficiency_typical, n.wall_typical_watts),
        ("wall_watts", fed.max_watts, n.efficiency_max, n.wall_watts),
    ] {
        let direct = total - if eff > 0.0 { dc / eff } else { dc };
        let plus = if direct.abs() > 0.5 { format!(" + {}", w(direct)) } else { String::new() };
        let text = format!("{} / {:.3}{plus}", w(dc), eff);
        out.push(
            Basis::new(key(field), "power-wall", total, "W")
                .substituted(format!("{text} = {}", w(total)))
                .input("P_dc", dc, "W", key("psu_fed"))
                .input("η", eff, "", "80 PLUS")
                .input("P_at-input", direct.max(0.0), "W", "systems and switches at datasheet input power"),
        );
    }
    if let (Some(load), Some(psu)) = (n.psu_load_fraction, &n.psu) {
        let dc = load * psu.capacity_watts;
        out.push(
            Basis::new(key("psu_load_fraction"), "psu-load", load, "")
                .substituted(format!("{} / {} = {}", w(dc), w(psu.capacity_watts), pct(load)))
                .input("P_max", dc, "W", key("max_watts"))
                // Written in English like every input's origin, whatever the report's language.
                .input("capacity", psu.capacity_watts, "W", psu.source.text().render(crate::core::i18n::Lang::En))
                .input("active units", f64::from(psu.active_units), "", redundancy_name(psu.redundancy)),
        );
    }
    if let Some(r) = &n.recommendation {
        out.push(
            Basis::new(key("recommended_psu_watts"), "psu-recommended", r.recommended_watts, "W")
                .substituted(format!(
                    "{} + {:.0} % × {} + {:.0} % × {} + {} = {} → {}",
                    w(r.max_dc_watts),
                    r.sustained_headroom_fraction * 100.0,
                    w(r.max_dc_watts),
                    r.ageing_fraction * 100.0,
                    w(r.max_dc_watts),
                    w(r.transient_margin_watts),
                    w(r.required_watts),
                    w(r.recommended_watts)
                ))
                .input("P_max", r.max_dc_watts, "W", key("max_watts"))
                .input("h", r.sustained_headroom_fraction, "", "power settings: sustained headroom")
                .input("a", r.ageing_fraction, "", "power settings: ageing allowance")
                .input("transient margin", r.transient_margin_watts, "W", key("peak_transient_watts")),
        );
    }
    let c = &n.circuit;
    let phase_factor = if c.phases == 3 { 3f64.sqrt() } else { 1.0 };
    out.push(
        Basis::new(key("circuits_needed"), "power-circuit", c.circuits_needed as f64, "")
            .substituted(format!(
                "ceil({} / ({} V × {} A{} × {CONTINUOUS_LOAD_FRACTION}) = {}) = {}",
                w(c.wall_watts),
                c.volts,
                c.amps,
                if c.phases == 3 { " × √3" } else { "" },
                w(c.continuous_limit_watts),
                c.circuits_needed
            ))
            .input("P_wall", c.wall_watts, "W", key("wall_watts"))
            .input("V", c.volts, "V", "site.circuit_volts")
            .input("A", c.amps, "A", "site.circuit_amps")
            .input("phases factor", phase_factor, "", "site.circuit_phases"),
    );
}

fn thermal_bases(t: &ThermalReport, out: &mut Vec<Basis>) {
    out.push(
        Basis::new("thermal.heat_watts", "heat-load", t.heat_watts, "W")
            .substituted(format!("Q = P_wall = {}", w(t.heat_watts)))
            .input("P_wall", t.heat_watts, "W", "power.wall_watts"),
    );
    out.push(
        Basis::new("thermal.heat_btu_per_hour", "heat-load", t.heat_btu_per_hour, "BTU/h")
            .substituted(format!("3.412 × {} = {}", w(t.heat_watts), num(t.heat_btu_per_hour, 0, "BTU/h")))
            .input("Q", t.heat_watts, "W", "thermal.heat_watts"),
    );
    out.push(
        Basis::new("thermal.cooling_tons", "heat-load", t.cooling_tons, "tons")
            .substituted(format!("{} / 12,000 = {:.2}", num(t.heat_btu_per_hour, 0, "BTU/h"), t.cooling_tons))
            .input("BTU/h", t.heat_btu_per_hour, "BTU/h", "thermal.heat_btu_per_hour"),
    );
    for n in &t.nodes {
        let key = |field: &str| format!("thermal.nodes[{}].{field}", n.node);
        out.push(
            Basis::new(key("heat_watts"), "heat-load", n.heat_watts, "W")
                .substituted(format!("Q = P_wall = {}", w(n.heat_watts)))
                .input("P_wall", n.heat_watts, "W", format!("power.nodes[{}].wall_watts", n.node)),
        );
        let a = &n.airflow;
        out.push(
            Basis::new(key("airflow.needed_cfm"), "airflow-needed", a.needed_cfm, "CFM")
                .substituted(format!(
                    "{CFM_PER_WATT_PER_C} × {} / {} °C = {}",
                    w(a.heat_in_chassis_watts),
                    a.design_rise_c,
                    num(a.needed_cfm, 0, "CFM")
                ))
                .input("Q_chassis", a.heat_in_chassis_watts, "W", format!("power.nodes[{}].max_watts", n.node))
                .input("ΔT", a.design_rise_c, "°C", "thermal settings: design air rise"),
        );
        if let Some(avail) = a.available_cfm {
            out.push(
                Basis::new(key("airflow.available_cfm"), "airflow-available", avail, "CFM")
                    .substituted(num(avail, 0, "CFM")),
            );
        }
        for (j, c) in n.cpus.iter().enumerate() {
            let (Some(rated), Some(headroom)) = (c.cooler_rated_watts, c.headroom_watts) else { continue };
            out.push(
                Basis::new(key(&format!("cpus[{j}].headroom_watts")), "cpu-cooler-headroom", headroom, "W")
                    .substituted(format!("{} − {} = {}", w(rated), w(c.cpu_max_watts), w(headroom)))
                    .input("cooler", rated, "W", c.cooler.as_ref().map_or_else(String::new, ToString::to_string))
                    .input("CPU max", c.cpu_max_watts, "W", c.cpu.to_string()),
            );
        }
        for (j, g) in n.gpus.iter().enumerate() {
            let ambient = t.ambient_c;
            let half_rise = g.inlet_c - ambient;
            out.push(
                Basis::new(key(&format!("gpus[{j}].estimated_temp_c")), "gpu-temperature", g.estimated_temp_c, "°C")
                    .substituted(format!(
                        "{ambient:.0} + {half_rise:.1} + {:.0} + {:.0} = {:.0} °C (T_max = {:.0} °C)",
                        g.cooler_rise_c, g.neighbour_c, g.estimated_temp_c, g.max_temp_c
                    ))
                    .input("ambient", ambient, "°C", "site.ambient_c")
                    .input("½ chassis rise", half_rise, "°C", key("airflow.chassis_air_rise_c"))
                    .input("rise(style)", g.cooler_rise_c, "°C", format!("{} ({:?})", g.part, g.cooling))
                    .input("neighbours", g.neighbour_c, "°C", "slot layout")
                    .input("limit", g.max_temp_c, "°C", g.part.to_string()),
            );
            out.push(
                Basis::new(key(&format!("gpus[{j}].max_temp_c")), "gpu-max-temp", g.max_temp_c, "°C")
                    .substituted(format!("T_max = {:.0} °C", g.max_temp_c))
                    .input("T_max", g.max_temp_c, "°C", g.part.to_string()),
            );
        }
    }
}

/// How an option bills: `1.98 CNY/h × 8,760 h × 0.50 used`.
fn billing_text(i: &CloudOptionInput, cur: &str, u: f64) -> String {
    match i.billing {
        Billing::UsedHours => {
            format!("{} {cur}/h × 8,760 h × {u:.2} × (1 + {:.2})", num(i.price, 3, ""), i.overhead_fraction)
        }
        Billing::EveryHour => format!("{} {cur}/h × 8,760 h", num(i.price, 3, "")),
        Billing::FixedAnnual => format!("{} {cur}/year", num(i.price, 0, "")),
    }
}

fn money(x: f64, currency: &str) -> String {
    num(x, 0, currency)
}

fn tco_bases(site: &Site, tco: &Tco, out: &mut Vec<Basis>) {
    workload_energy_basis(site, tco, out);
    let cur = tco.currency.to_string();
    let m = |amount: f64| money(amount, &cur);
    let c = &tco.capex_lines;
    out.push(
        Basis::new("tco.capex", "tco-capex", tco.capex, "")
            .substituted(format!(
                "{} = {}",
                sum_text(&[c.parts, c.custom, c.tax, c.shipping, c.installation].map(&m)),
                m(tco.capex)
            ))
            .input("parts", c.parts, "", "bom: catalog and custom prices")
            .input("custom", c.custom, "", "costs: custom capex")
            .input("tax", c.tax, "", "costs.tax_percent")
            .input("shipping", c.shipping, "", "costs.shipping_percent")
            .input("installation", c.installation, "", "costs.installation_percent"),
    );
    let o = &tco.owned_per_year;
    if let Some(p) = &tco.power
        && o.energy > 0.0
    {
        out.push(
            Basis::new("tco.owned_per_year.energy", "tco-energy", o.energy, "")
                .substituted(format!(
                    "({} + {:.2} × ({} − {})) = {} × 8,760 h × {} × {} {cur}/kWh = {}",
                    w(p.wall_idle_watts),
                    tco.utilization,
                    w(p.wall_max_watts),
                    w(p.wall_idle_watts),
                    w(p.average_wall_watts),
                    site.pue,
                    site.electricity_per_kwh,
                    m(o.energy)
                ))
                .input("P_avg", p.average_wall_watts, "W", "power.wall_idle_watts, power.wall_watts")
                .input("u", tco.utilization, "", "usage.utilization")
                .input("hours", HOURS_PER_YEAR, "h", "8,760 h per year")
                .input("PUE", site.pue, "", "site.pue")
                .input("price", site.electricity_per_kwh, "", "site.electricity_per_kwh"),
        );
    }
    out.push(
        Basis::new("tco.owned_per_year.total", "tco-opex", o.total, "")
            .substituted(format!(
                "{} = {}",
                sum_text(
                    &[o.energy, o.colocation, o.maintenance, o.staff, o.licences, o.custom_opex, o.entered_opex]
                        .map(&m)
                ),
                m(o.total)
            ))
            .input("energy", o.energy, "", "tco.owned_per_year.energy")
            .input("colocation", o.colocation, "", "costs.colocation_per_kw_month")
            .input("maintenance", o.maintenance, "", "costs.maintenance_percent_per_year")
            .input("staff", o.staff, "", "costs.staff_per_year")
            .input("licences", o.licences, "", "costs.licences_per_year"),
    );
    let residual = tco.residual_value;
    let life = if tco.depreciation_per_year > 0.0 { (tco.capex - residual) / tco.depreciation_per_year } else { 0.0 };
    out.push(
        Basis::new("tco.depreciation_per_year", "tco-depreciation", tco.depreciation_per_year, "")
            .substituted(format!("({} − {}) / {life:.1} = {}", m(tco.capex), m(residual), m(tco.depreciation_per_year)))
            .input("capex", tco.capex, "", "tco.capex")
            .input("residual", residual, "", "costs.residual_percent")
            .input("life", life, "years", "costs.depreciation_life_years"),
    );
    let years = tco.horizon_years;
    out.push(
        Basis::new("tco.totals.owned", "tco-owned-total", tco.totals.owned, "")
            .substituted(format!(
                "{} + {} × {years:.2} − {} = {}",
                m(tco.capex),
                m(o.total),
                m(tco.value_at_horizon),
                m(tco.totals.owned)
            ))
            .input("capex", tco.capex, "", "tco.capex")
            .input("opex", o.total, "", "tco.owned_per_year.total")
            .input("years", years, "", "usage.horizon_years")
            .input(
                "value at horizon",
                tco.value_at_horizon,
                "",
                "costs.residual_percent, costs.depreciation_life_years",
            ),
    );
    for opt in &tco.options {
        let i = &opt.input;
        out.push(
            Basis::new(format!("tco.totals.options.{}", i.id), "tco-cloud-total", opt.total, "")
                .substituted(format!(
                    "{} × {years:.2} = {} ({}; {} GPU{})",
                    m(opt.per_year),
                    m(opt.total),
                    billing_text(i, &cur, tco.utilization),
                    i.gpus_rented,
                    i.price_date.as_ref().map_or_else(String::new, |d| format!("; {d}"))
                ))
                .input("price", i.price, "", i.source.clone())
                .input("GPUs", i.gpus_rented as f64, "", i.offer.clone())
                .input("u", tco.utilization, "", "usage.utilization")
                .input("years", years, "", "usage.horizon_years"),
        );
    }
    let primary = tco.primary_option.as_ref().and_then(|id| tco.options.iter().find(|o| &o.input.id == id));
    if let (Some(month), Some(p)) = (tco.break_even_month, primary) {
        out.push(
            Basis::new("tco.break_even_month", "tco-break-even", month, "months")
                .substituted(format!("{} / ({} − {}) = {month:.1}", m(tco.capex), m(p.per_month), m(o.total / 12.0)))
                .input("capex", tco.capex, "", "tco.capex")
                .input("cloud per month", p.per_month, "", p.input.id.clone())
                .input("opex per month", o.total / 12.0, "", "tco.owned_per_year.total"),
        );
    }
    if let Some(u) = tco.break_even_utilization {
        out.push(
            Basis::new("tco.break_even_utilization", "tco-break-even-utilization", u, "")
                .substituted(format!("u* = {}", pct(u))),
        );
    }
    if let Some(cost) = tco.cost_per_gpu_hour {
        let hours = tco.gpus as f64 * HOURS_PER_YEAR * years * tco.utilization;
        out.push(
            Basis::new("tco.cost_per_gpu_hour", "tco-cost-per-gpu-hour", cost, "")
                .substituted(format!(
                    "{} / ({} × 8,760 h × {years:.2} × {:.2}) = {} / {} GPU-h = {cost:.2} {cur}",
                    m(tco.totals.owned),
                    tco.gpus,
                    tco.utilization,
                    m(tco.totals.owned),
                    num(hours, 0, "")
                ))
                .input("owned", tco.totals.owned, "", "tco.totals.owned")
                .input("GPUs", tco.gpus as f64, "", "build"),
        );
    }
    if let Some(wl) = &tco.workload
        && let Some(cost) = wl.owned_per_million_tokens
    {
        let busy = HOURS_PER_YEAR * years * tco.utilization;
        out.push(
            Basis::new("tco.workload.owned_per_million_tokens", "tco-per-million-tokens", cost, "")
                .substituted(format!(
                    "{} / ({} tokens/s × 3,600 × {} h) × 10⁶ = {cost:.3} {cur}",
                    m(tco.totals.owned),
                    num(wl.tokens_per_second, 1, ""),
                    num(busy, 0, "")
                ))
                .input("owned", tco.totals.owned, "", "tco.totals.owned")
                .input(
                    "tokens/s",
                    wl.tokens_per_second,
                    "tokens/s",
                    "usage.workload (fit matrix) or --tokens-per-second",
                ),
        );
    }
}

/// Energy per million tokens of the planned workload: the build's wall draw at max × PUE
/// while it runs (`tco::evaluate`).
fn workload_energy_basis(site: &Site, t: &Tco, out: &mut Vec<Basis>) {
    let (Some(wl), Some(p)) = (&t.workload, &t.power) else { return };
    let Some(kwh) = wl.energy_kwh_per_million_tokens else { return };
    out.push(
        Basis::new("tco.workload.energy_kwh_per_million_tokens", "tco-workload-energy", kwh, "kWh")
            .substituted(format!(
                "{} × {} / 1000 × 10⁶ / ({} tokens/s × 3,600) = {kwh:.3} kWh",
                w(p.wall_max_watts),
                site.pue,
                num(wl.tokens_per_second, 1, "")
            ))
            .input("P_wall,max", p.wall_max_watts, "W", "power.wall_watts")
            .input("PUE", site.pue, "", "site.pue")
            .input("tokens/s", wl.tokens_per_second, "tokens/s", "usage.workload (fit matrix) or --tokens-per-second"),
    );
    let (Some(run_kwh), Some(run_tokens), Some(run_hours)) = (wl.run_energy_kwh, wl.run_tokens, wl.run_hours) else {
        return;
    };
    out.push(
        Basis::new("tco.workload.run_energy_kwh", "tco-run-energy", run_kwh, "kWh")
            .substituted(format!(
                "{} × {} / 1000 × {} / ({} tokens/s × 3,600) = {} × {} h = {} kWh",
                w(p.wall_max_watts),
                site.pue,
                num(run_tokens, 0, "tokens"),
                num(wl.tokens_per_second, 1, ""),
                num(p.wall_max_watts * site.pue / 1000.0, 3, "kW"),
                num(run_hours, 1, ""),
                num(run_kwh, 1, "")
            ))
            .input("P_wall,max", p.wall_max_watts, "W", "power.wall_watts")
            .input("PUE", site.pue, "", "site.pue")
            .input("run tokens", run_tokens, "tokens", "usage.workload")
            .input("tokens/s", wl.tokens_per_second, "tokens/s", "usage.workload (fit matrix) or --tokens-per-second"),
    );
}

fn summary_bases(s: &Summary, thermal: &ThermalReport, out: &mut Vec<Basis>) {
    if let Some(g) = &s.worst_gpu_headroom {
        let est = thermal
            .nodes
            .iter()
            .filter(|n| n.node == g.node)
            .flat_map(|n| n.gpus.iter())
            .find(|x| x.part == g.gpu && (x.headroom_c - g.headroom_c).abs() < 1e-9);
        if let Some(x) = est {
            out.push(
                Basis::new("summary.worst_gpu_headroom.headroom_c", "gpu-temperature", g.headroom_c, "°C")
                    .substituted(format!(
                        "{:.0} °C − {:.0} °C = {:.0} °C ({})",
                        x.max_temp_c, x.estimated_temp_c, g.headroom_c, g.name
                    ))
                    .input("limit", x.max_temp_c, "°C", g.gpu.to_string())
                    .input("estimate", x.estimated_temp_c, "°C", "thermal GPU estimate"),
            );
        }
    }
    if let Some(c) = &s.worst_cooler_headroom {
        out.push(
            Basis::new("summary.worst_cooler_headroom.headroom_watts", "cpu-cooler-headroom", c.headroom_watts, "W")
                .substituted(format!("{} ({})", w(c.headroom_watts), c.name)),
        );
    }
    if let Some(f) = &s.fit {
        for (figure, count) in
            [("summary.fit.inference_models", f.inference_models), ("summary.fit.finetune_models", f.finetune_models)]
        {
            out.push(
                Basis::new(figure, "fit-count", count as f64, "").substituted(format!("{count} / {}", f.models)).input(
                    "models",
                    f.models as f64,
                    "",
                    "model catalog",
                ),
            );
        }
    }
}

/// A PSU redundancy scheme as the power section's input origin names it.
fn redundancy_name(r: crate::core::build::Redundancy) -> &'static str {
    use crate::core::build::Redundancy;
    match r {
        Redundancy::None => "no redundancy (every unit carries load)",
        Redundancy::NPlusOne => "N+1 redundancy",
        Redundancy::NPlusN => "N+N redundancy",
    }
}
