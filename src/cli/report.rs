//! `rigplan report` and `rigplan check` as text: the parts and capex, power, thermal, fit and
//! TCO sections, and the findings, every word in the reader's language ([`super::texts`]).

use super::tco::write_tco_summary;
use super::texts::{
    AIRFLOW, CAPEX, CAPEX_RATE, CPU_HEADROOM, CliTexts, FINDING, FINDINGS, FIX, POWER_CIRCUIT, POWER_DC,
    POWER_EFFICIENCY, POWER_HEADING, POWER_PSU, POWER_RECOMMENDED, POWER_TOTAL, POWER_WALL, PRICES_FRESH, PRICES_STALE,
    PRICES_STALE_LINE, RACK_ROW, RACK_TOTAL, RACK_VIEW, THERMAL_CPU, THERMAL_GPU, THERMAL_HEADING, THERMAL_NODE,
    UNPRICED, pad_left, pad_right,
};
use super::{fit, money};
use crate::core::analysis::prices::PriceAges;
use crate::core::analysis::{Report, Severity};
use crate::core::build::Build;
use crate::core::export::texts::fill;
use crate::core::i18n::Lang;
use crate::core::units::format_thousands;
use std::io::Write;

/// The whole report as text in `lang` (the sentences the core writes, such as the power and
/// thermal assumptions, as the core gives them).
pub(super) fn write_report_text(out: &mut dyn Write, build: &Build, report: &Report, lang: Lang) -> anyhow::Result<()> {
    let t = CliTexts::of(lang);
    writeln!(out, "{}", report.build_name)?;
    if !build.description.is_empty() {
        writeln!(out, "{}", build.description)?;
    }
    writeln!(out, "{}", fill(t.sheet.nodes_and_gpus_value, &[&report.nodes, &report.gpus]))?;
    writeln!(out)?;
    let bom = &report.bom;
    let mut group = None;
    for line in &bom.lines {
        if group.as_ref() != Some(&line.group) {
            let count = if line.node_count > 1 { format!(" ×{}", line.node_count) } else { String::new() };
            writeln!(out, "{}{count}", line.group)?;
            group = Some(line.group.clone());
        }
        let price = line
            .extended_price
            .map_or_else(|| t.sheet.no_price.to_owned(), |p| format!("{} {}", money(p), bom.currency));
        writeln!(out, "  {:>4} × {} {}", line.quantity_per_node, pad_right(&line.name, 48), pad_left(&price, 18))?;
    }
    for c in &bom.custom_capex {
        let amount = format!("{} {}", money(c.amount), bom.currency);
        writeln!(out, "  {:>4} × {} {}", c.quantity, pad_right(&c.name, 48), pad_left(&amount, 18))?;
    }
    writeln!(out)?;
    let currency = bom.currency.to_string();
    write!(out, "{}", t.say(&CAPEX, &[("amount", &money(bom.capex)), ("currency", &currency)]))?;
    if (bom.usd_exchange_rate - 1.0).abs() > f64::EPSILON {
        let rate = bom.usd_exchange_rate.to_string();
        write!(out, "{}", t.say(&CAPEX_RATE, &[("rate", &rate), ("currency", &currency)]))?;
    }
    writeln!(out)?;
    if bom.unpriced_lines > 0 {
        writeln!(out, "{}", t.say(&UNPRICED, &[("count", &bom.unpriced_lines.to_string())]))?;
    }
    if let Some(ages) = &report.prices {
        write_price_ages(out, ages, t)?;
    }
    writeln!(out)?;
    write_power(out, report, t)?;
    writeln!(out)?;
    write_thermal(out, report, t)?;
    writeln!(out)?;
    fit::write_fit_section(out, &report.fit, lang)?;
    write_tco_summary(out, &report.tco, lang)?;
    writeln!(out)?;
    write_diagnostics(out, report, lang)
}

/// How old the catalog prices are: the count, and each stale line with its date and age.
fn write_price_ages(out: &mut dyn Write, ages: &PriceAges, t: &CliTexts) -> anyhow::Result<()> {
    let (dated, months, date) =
        (ages.dated_lines.to_string(), ages.policy.stale_after_months.to_string(), ages.policy.as_of.to_string());
    if ages.stale.is_empty() {
        let args = [("dated", dated.as_str()), ("months", months.as_str()), ("date", date.as_str())];
        return Ok(writeln!(out, "{}", t.say(&PRICES_FRESH, &args))?);
    }
    let stale = ages.stale_lines().to_string();
    let oldest = ages.oldest.clone().unwrap_or_default();
    let args = [
        ("stale", stale.as_str()),
        ("dated", dated.as_str()),
        ("months", months.as_str()),
        ("date", date.as_str()),
        ("oldest", oldest.as_str()),
    ];
    writeln!(out, "{}", t.say(&PRICES_STALE, &args))?;
    for line in &ages.stale {
        let age = line.age_months.to_string();
        let args = [("name", line.name.as_str()), ("date", line.date.as_str()), ("age", age.as_str())];
        writeln!(out, "{}", t.say(&PRICES_STALE_LINE, &args))?;
    }
    Ok(())
}

fn watts(w: f64) -> String {
    format!("{} W", format_thousands(w, 0))
}

fn write_power(out: &mut dyn Write, report: &Report, t: &CliTexts) -> anyhow::Result<()> {
    let p = &report.power;
    writeln!(
        out,
        "{}",
        t.say(
            &POWER_HEADING,
            &[
                ("utilization", &format!("{:.0}", p.utilization * 100.0)),
                ("volts", &p.site_volts.to_string()),
                ("table", &p.efficiency_table),
            ]
        )
    )?;
    for n in &p.nodes {
        let count = if n.count > 1 { fill(t.sheet.per_node_of, &[&n.count]) } else { String::new() };
        writeln!(out, "  {}{count}", n.name)?;
        writeln!(
            out,
            "{}",
            t.say(
                &POWER_DC,
                &[
                    ("idle", &watts(n.idle_watts)),
                    ("typical", &watts(n.typical_watts)),
                    ("max", &watts(n.max_watts)),
                    ("peak", &watts(n.peak_transient_watts)),
                ]
            )
        )?;
        write!(
            out,
            "{}",
            t.say(
                &POWER_WALL,
                &[
                    ("idle", &watts(n.wall_idle_watts)),
                    ("typical", &watts(n.wall_typical_watts)),
                    ("max", &watts(n.wall_watts)),
                ]
            )
        )?;
        if n.psu_fed.max_watts > 0.0 {
            let efficiency = format!("{:.1}", n.efficiency_max * 100.0);
            write!(out, "{}", t.say(&POWER_EFFICIENCY, &[("efficiency", &efficiency)]))?;
        }
        writeln!(out)?;
        if let Some(psu) = &n.psu {
            let load = n.psu_load_fraction.map_or_else(|| "-".to_owned(), |f| format!("{:.0} %", f * 100.0));
            writeln!(
                out,
                "{}",
                t.say(
                    &POWER_PSU,
                    &[("capacity", &watts(psu.capacity_watts)), ("source", &psu.source), ("load", &load)]
                )
            )?;
        }
        if let Some(r) = &n.recommendation {
            writeln!(
                out,
                "{}",
                t.say(
                    &POWER_RECOMMENDED,
                    &[
                        ("required", &watts(r.required_watts)),
                        ("max", &watts(r.max_dc_watts)),
                        ("headroom", &watts(r.sustained_headroom_watts)),
                        ("headroom_pct", &format!("{:.0}", r.sustained_headroom_fraction * 100.0)),
                        ("ageing", &watts(r.ageing_watts)),
                        ("ageing_pct", &format!("{:.0}", r.ageing_fraction * 100.0)),
                        ("transient", &watts(r.transient_margin_watts)),
                        ("recommended", &watts(r.recommended_watts)),
                    ]
                )
            )?;
        }
        writeln!(
            out,
            "{}",
            t.say(
                &POWER_CIRCUIT,
                &[
                    ("wall", &watts(n.circuit.wall_watts)),
                    ("limit", &watts(n.circuit.continuous_limit_watts)),
                    ("volts", &n.circuit.volts.to_string()),
                    ("amps", &n.circuit.amps.to_string()),
                    ("phases", &n.circuit.phases.to_string()),
                    ("circuits", &n.circuit.circuits_needed.to_string()),
                ]
            )
        )?;
    }
    writeln!(
        out,
        "{}",
        t.say(
            &POWER_TOTAL,
            &[
                ("idle", &watts(p.idle_watts)),
                ("typical", &watts(p.typical_watts)),
                ("max", &watts(p.max_watts)),
                ("wall_idle", &watts(p.wall_idle_watts)),
                ("wall_typical", &watts(p.wall_typical_watts)),
                ("wall_max", &watts(p.wall_watts)),
            ]
        )
    )?;
    if p.nodes.len() > 1 || p.nodes.iter().any(|n| n.count > 1) || p.cluster_wall.max_watts > 0.0 {
        write!(out, "{}", t.say(&RACK_VIEW, &[]))?;
        for r in &p.rack.rows {
            let row = t.say(
                &RACK_ROW,
                &[
                    ("name", &r.name),
                    ("kw", &format!("{:.2}", r.kw_per_node)),
                    ("count", &r.count.to_string()),
                    ("total", &format!("{:.2}", r.kw_total)),
                ],
            );
            write!(out, "{row}")?;
        }
        let cluster = format!("{:.2}", p.rack.cluster_kw);
        let total = format!("{:.2}", p.rack.total_kw);
        writeln!(out, "{}", t.say(&RACK_TOTAL, &[("cluster", &cluster), ("total", &total)]))?;
    }
    for a in &p.assumptions {
        writeln!(out, "  * {a}")?;
    }
    Ok(())
}

fn write_thermal(out: &mut dyn Write, report: &Report, t: &CliTexts) -> anyhow::Result<()> {
    let th = &report.thermal;
    writeln!(
        out,
        "{}",
        t.say(
            &THERMAL_HEADING,
            &[
                ("ambient", &format!("{:.0}", th.ambient_c)),
                ("heat", &watts(th.heat_watts)),
                ("btu", &format_thousands(th.heat_btu_per_hour, 0)),
                ("tons", &format!("{:.2}", th.cooling_tons)),
            ]
        )
    )?;
    for n in &th.nodes {
        writeln!(out, "{}", t.say(&THERMAL_NODE, &[("name", &n.name), ("heat", &watts(n.heat_watts))]))?;
        let a = &n.airflow;
        let available = a.available_cfm.map_or_else(|| t.unknown.to_owned(), |c| format!("{c:.0} CFM"));
        writeln!(
            out,
            "{}",
            t.say(
                &AIRFLOW,
                &[
                    ("needed", &format!("{:.0}", a.needed_cfm)),
                    ("rise", &format!("{:.0}", a.design_rise_c)),
                    ("available", &available),
                ]
            )
        )?;
        for c in &n.cpus {
            let headroom = c
                .headroom_watts
                .map_or_else(|| t.no_cooler.to_owned(), |h| t.say(&CPU_HEADROOM, &[("headroom", &format!("{h:+.0}"))]));
            writeln!(
                out,
                "{}",
                t.say(
                    &THERMAL_CPU,
                    &[("cpu", &c.cpu.to_string()), ("max", &watts(c.cpu_max_watts)), ("headroom", &headroom)]
                )
            )?;
        }
        for g in &n.gpus {
            writeln!(
                out,
                "{}",
                t.say(
                    &THERMAL_GPU,
                    &[
                        ("name", &g.name),
                        ("unit", &(g.unit + 1).to_string()),
                        ("temp", &format!("{:.0}", g.estimated_temp_c)),
                        ("cooling", t.cooling(g.cooling)),
                        ("headroom", &format!("{:.0}", g.headroom_c)),
                        ("limit", &format!("{:.0}", g.max_temp_c)),
                    ]
                )
            )?;
        }
    }
    for a in &th.assumptions {
        writeln!(out, "  * {a}")?;
    }
    Ok(())
}

/// The findings, with their messages and fixes in `lang`.
pub(super) fn write_diagnostics(out: &mut dyn Write, report: &Report, lang: Lang) -> anyhow::Result<()> {
    let t = CliTexts::of(lang);
    if report.diagnostics.is_empty() {
        writeln!(out, "{}", t.no_findings)?;
        return Ok(());
    }
    writeln!(
        out,
        "{}",
        t.say(
            &FINDINGS,
            &[
                ("errors", &report.count(Severity::Error).to_string()),
                ("warnings", &report.count(Severity::Warning).to_string()),
                ("infos", &report.count(Severity::Info).to_string()),
            ]
        )
    )?;
    for d in &report.diagnostics {
        writeln!(out, "  {}", finding_line(t, d))?;
        if let Some(fix) = d.fix_in(lang) {
            writeln!(out, "{}", t.say(&FIX, &[("fix", &fix)]))?;
        }
    }
    Ok(())
}

/// `severity[code]: message`, the message in the table's language.
pub(super) fn finding_line(t: &CliTexts, d: &crate::core::analysis::Diagnostic) -> String {
    t.say(&FINDING, &[("severity", t.severity(d.severity)), ("code", &d.code), ("message", &d.message_in(t.lang))])
}
