//! `rigplan report` and `rigplan check` as text: the parts and capex, power, thermal, fit and
//! TCO sections, and the findings.

use super::tco::write_tco_summary;
use super::{fit, money};
use crate::core::analysis::{Report, Severity};
use crate::core::build::Build;
use crate::core::i18n::Lang;
use crate::core::units::format_thousands;
use std::io::Write;

/// The whole report as text; findings in `lang` (the other sections are English for now).
pub(super) fn write_report_text(out: &mut dyn Write, build: &Build, report: &Report, lang: Lang) -> anyhow::Result<()> {
    writeln!(out, "{}", report.build_name)?;
    if !build.description.is_empty() {
        writeln!(out, "{}", build.description)?;
    }
    writeln!(out, "{} node(s), {} GPU(s)", report.nodes, report.gpus)?;
    writeln!(out)?;
    let bom = &report.bom;
    let mut group = None;
    for line in &bom.lines {
        if group.as_ref() != Some(&line.group) {
            let count = if line.node_count > 1 { format!(" ×{}", line.node_count) } else { String::new() };
            writeln!(out, "{}{count}", line.group)?;
            group = Some(line.group.clone());
        }
        let price =
            line.extended_price.map_or_else(|| "no price".to_owned(), |p| format!("{} {}", money(p), bom.currency));
        writeln!(out, "  {:>4} × {:<48} {:>18}", line.quantity_per_node, line.name, price)?;
    }
    for c in &bom.custom_capex {
        writeln!(out, "  {:>4} × {:<48} {:>18}", c.quantity, c.name, format!("{} {}", money(c.amount), bom.currency))?;
    }
    writeln!(out)?;
    write!(out, "Capex: {} {}", money(bom.capex), bom.currency)?;
    if (bom.usd_exchange_rate - 1.0).abs() > f64::EPSILON {
        write!(out, " (catalog USD prices at {} {} per USD)", bom.usd_exchange_rate, bom.currency)?;
    }
    writeln!(out)?;
    if bom.unpriced_lines > 0 {
        writeln!(out, "  {} line(s) have no price and are not in the total", bom.unpriced_lines)?;
    }
    writeln!(out)?;
    write_power(out, report)?;
    writeln!(out)?;
    write_thermal(out, report)?;
    writeln!(out)?;
    fit::write_fit_section(out, &report.fit)?;
    write_tco_summary(out, &report.tco)?;
    writeln!(out)?;
    write_diagnostics(out, report, lang)
}

fn watts(w: f64) -> String {
    format!("{} W", format_thousands(w, 0))
}

fn write_power(out: &mut dyn Write, report: &Report) -> anyhow::Result<()> {
    let p = &report.power;
    writeln!(
        out,
        "Power (utilization {:.0} %, {} V site, 80 PLUS {} table)",
        p.utilization * 100.0,
        p.site_volts,
        p.efficiency_table
    )?;
    for n in &p.nodes {
        let count = if n.count > 1 { format!(" (per node, ×{})", n.count) } else { String::new() };
        writeln!(out, "  {}{count}", n.name)?;
        writeln!(
            out,
            "    DC: idle {}, typical {}, max {}, transient peak {}",
            watts(n.idle_watts),
            watts(n.typical_watts),
            watts(n.max_watts),
            watts(n.peak_transient_watts)
        )?;
        write!(
            out,
            "    wall: idle {}, typical {}, max {}",
            watts(n.wall_idle_watts),
            watts(n.wall_typical_watts),
            watts(n.wall_watts)
        )?;
        if n.psu_fed.max_watts > 0.0 {
            write!(out, " (PSU efficiency {:.1} % at max)", n.efficiency_max * 100.0)?;
        }
        writeln!(out)?;
        if let Some(psu) = &n.psu {
            let load = n.psu_load_fraction.map_or_else(|| "-".to_owned(), |f| format!("{:.0} %", f * 100.0));
            writeln!(out, "    PSU: {} counting ({}), load at max {load}", watts(psu.capacity_watts), psu.source)?;
        }
        if let Some(r) = &n.recommendation {
            writeln!(
                out,
                "    recommended PSU: {} = max {} + headroom {} ({:.0} %) + ageing {} ({:.0} %) + transient {} -> {}",
                watts(r.required_watts),
                watts(r.max_dc_watts),
                watts(r.sustained_headroom_watts),
                r.sustained_headroom_fraction * 100.0,
                watts(r.ageing_watts),
                r.ageing_fraction * 100.0,
                watts(r.transient_margin_watts),
                watts(r.recommended_watts)
            )?;
        }
        writeln!(
            out,
            "    circuit: {} of {} continuous ({} V, {} A, {} phase(s), 80 %): {} circuit(s)",
            watts(n.circuit.wall_watts),
            watts(n.circuit.continuous_limit_watts),
            n.circuit.volts,
            n.circuit.amps,
            n.circuit.phases,
            n.circuit.circuits_needed
        )?;
    }
    writeln!(
        out,
        "  Total: DC idle {}, typical {}, max {}; wall idle {}, typical {}, max {}",
        watts(p.idle_watts),
        watts(p.typical_watts),
        watts(p.max_watts),
        watts(p.wall_idle_watts),
        watts(p.wall_typical_watts),
        watts(p.wall_watts)
    )?;
    if p.nodes.len() > 1 || p.nodes.iter().any(|n| n.count > 1) || p.cluster_wall.max_watts > 0.0 {
        write!(out, "  Rack view:")?;
        for r in &p.rack.rows {
            write!(out, " {} {:.2} kW × {} = {:.2} kW;", r.name, r.kw_per_node, r.count, r.kw_total)?;
        }
        writeln!(out, " cluster {:.2} kW; total {:.2} kW", p.rack.cluster_kw, p.rack.total_kw)?;
    }
    for a in &p.assumptions {
        writeln!(out, "  * {a}")?;
    }
    Ok(())
}

fn write_thermal(out: &mut dyn Write, report: &Report) -> anyhow::Result<()> {
    let t = &report.thermal;
    writeln!(
        out,
        "Thermal (ambient {:.0} °C): heat {} = {} BTU/h = {:.2} tons of cooling",
        t.ambient_c,
        watts(t.heat_watts),
        format_thousands(t.heat_btu_per_hour, 0),
        t.cooling_tons
    )?;
    for n in &t.nodes {
        writeln!(out, "  {}: heat {} per node", n.name, watts(n.heat_watts))?;
        let a = &n.airflow;
        let avail = a.available_cfm.map_or_else(|| "unknown".to_owned(), |c| format!("{c:.0} CFM"));
        writeln!(out, "    airflow: needs {:.0} CFM at a {:.0} °C rise, fans {avail}", a.needed_cfm, a.design_rise_c)?;
        for c in &n.cpus {
            let h = c.headroom_watts.map_or_else(|| "no cooler".to_owned(), |h| format!("{h:+.0} W headroom"));
            writeln!(out, "    CPU {}: {} max, {h}", c.cpu, watts(c.cpu_max_watts))?;
        }
        for g in &n.gpus {
            writeln!(
                out,
                "    GPU {} #{}: ~{:.0} °C ({}), {:.0} °C below its {:.0} °C limit",
                g.name,
                g.unit + 1,
                g.estimated_temp_c,
                g.cooling,
                g.headroom_c,
                g.max_temp_c
            )?;
        }
    }
    for a in &t.assumptions {
        writeln!(out, "  * {a}")?;
    }
    Ok(())
}

/// The findings, with their messages and fixes in `lang`.
pub(super) fn write_diagnostics(out: &mut dyn Write, report: &Report, lang: Lang) -> anyhow::Result<()> {
    if report.diagnostics.is_empty() {
        writeln!(out, "No compatibility findings.")?;
        return Ok(());
    }
    writeln!(
        out,
        "Findings: {} error(s), {} warning(s), {} info",
        report.count(Severity::Error),
        report.count(Severity::Warning),
        report.count(Severity::Info)
    )?;
    for d in &report.diagnostics {
        writeln!(out, "  {}[{}]: {}", d.severity, d.code, d.message_in(lang))?;
        if let Some(fix) = d.fix_in(lang) {
            writeln!(out, "      fix: {fix}")?;
        }
    }
    Ok(())
}
