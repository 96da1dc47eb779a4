//! Inline SVG charts for the HTML exports, written by hand: no script, no external asset, so
//! an exported page is self-contained and prints as it shows.
//!
//! Charts: the power breakdown of each node group by component (a stacked horizontal bar of one
//! node's wall draw at max, PSU conversion losses included), the TCO cumulative cost curves
//! (owned against each cloud option, break-even marked), and for comparisons the overlaid
//! curves of several builds and grouped power bars. Axis ticks are "nice" steps (1, 2 or 5 ×
//! 10ⁿ). Every label passes through [`escape_html`](super::safety::escape_html); coordinates are
//! printed with one decimal so the output is stable.

use super::safety::escape_html as esc;
use super::texts::{self, SheetTexts, fill};
use crate::core::analysis::power::PowerReport;
use crate::core::analysis::tco::Tco;
use crate::core::catalog::PartKind;
use crate::core::compare::Comparison;
use crate::core::compare::texts::{self as compare_texts, CompareTexts, say};
use crate::core::units::{format_thousands, round_non_negative};
use std::fmt::Write as _;

/// Width of every chart, px (fits an A4 page in landscape at print scale).
pub const CHART_WIDTH_PX: f64 = 760.0;
/// Series colours: the Okabe–Ito palette, distinguishable with the common colour-vision
/// deficiencies (Okabe & Ito, "Color Universal Design", 2008).
pub const PALETTE: [&str; 8] = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"];
/// Colour of PSU conversion losses and other neutral segments.
const GREY: &str = "#999999";
const AXIS: &str = "#444444";
const GRID: &str = "#DDDDDD";
const FONT: &str = "font-family=\"sans-serif\" font-size=\"12\"";
/// Most cloud options drawn in a TCO chart besides the owned curve: the palette's remaining
/// colours (the first is the owned curve's).
pub const MAX_OPTION_CURVES: usize = PALETTE.len() - 1;
/// Left margin of the charts with a value axis (the line chart and the grouped bars), px:
/// room for the axis labels.
const VALUE_AXIS_LEFT: f64 = 70.0;
/// Right margin of the charts with a value axis, px.
const VALUE_AXIS_RIGHT: f64 = 20.0;
/// Longest label drawn beside a bar, characters.
const MAX_LABEL_CHARS: usize = 26;

/// A colour of the palette by index, cycling.
#[must_use]
pub fn palette(i: usize) -> &'static str {
    PALETTE.get(i % PALETTE.len()).copied().unwrap_or("#000000")
}

/// A step of 1, 2 or 5 × 10ⁿ that divides `max` into about `target` intervals (the usual
/// "nice numbers" rule, Heckbert, "Nice numbers for graph labels", Graphics Gems, 1990).
#[must_use]
pub fn nice_step(max: f64, target: u32) -> f64 {
    if !(max.is_finite() && max > 0.0) || target == 0 {
        return 1.0;
    }
    let raw = max / f64::from(target);
    let magnitude = 10f64.powf(raw.log10().floor());
    let fraction = raw / magnitude;
    let nice = if fraction <= 1.0 {
        1.0
    } else if fraction <= 2.0 {
        2.0
    } else if fraction <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * magnitude
}

/// An axis from 0 to a multiple of a nice step at or above `max`: (top, step).
fn axis(max: f64, target: u32) -> (f64, f64) {
    let step = nice_step(max, target);
    let top = (max / step).ceil().max(1.0) * step;
    (top, step)
}

/// A short tick label for an amount (`2.5M`, `750k`, `40`).
#[must_use]
pub fn tick_text(value: f64, step: f64) -> String {
    let a = value.abs();
    if a >= 1.0e6 {
        let d = usize::from(step < 1.0e6);
        format!("{:.*}M", d, value / 1.0e6)
    } else if a >= 1.0e4 {
        let d = usize::from(step < 1.0e3);
        format!("{:.*}k", d, value / 1.0e3)
    } else {
        format_thousands(value, usize::from(step < 1.0))
    }
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

/// Opens a chart: the `<svg>` element with its accessible title, and the title drawn at the top,
/// starting at `left` px.
fn open_svg(out: &mut String, height: f64, title: &str, left: f64) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {CHART_WIDTH_PX:.0} {height:.0}\" width=\"{CHART_WIDTH_PX:.0}\" height=\"{height:.0}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>",
        t = esc(title)
    );
    let _ = write!(out, "<text x=\"{left:.1}\" y=\"16\" {FONT} font-weight=\"bold\">{}</text>", esc(title));
}

/// Horizontal grid lines with their value labels on the left axis of a chart with the
/// [`VALUE_AXIS_LEFT`] and [`VALUE_AXIS_RIGHT`] margins, from `bottom` to `top` every `step`,
/// placed by `y` (value to pixel row).
fn y_grid(out: &mut String, bottom: f64, top: f64, step: f64, y: impl Fn(f64) -> f64) {
    let mut v = bottom;
    while v <= top + step * 1e-9 {
        let ty = y(v);
        let _ = write!(
            out,
            "<line x1=\"{VALUE_AXIS_LEFT:.1}\" y1=\"{ty:.1}\" x2=\"{:.1}\" y2=\"{ty:.1}\" stroke=\"{GRID}\"/><text x=\"{:.1}\" y=\"{:.1}\" {FONT} text-anchor=\"end\" fill=\"{AXIS}\">{}</text>",
            CHART_WIDTH_PX - VALUE_AXIS_RIGHT,
            VALUE_AXIS_LEFT - 6.0,
            ty + 4.0,
            esc(&tick_text(v, step))
        );
        v += step;
    }
}

/// The power category a part kind is drawn in (an index for [`power_colour`] and the
/// texts' `power_groups`).
fn power_category(kind: PartKind) -> usize {
    match kind {
        PartKind::Gpu => 0,
        PartKind::Cpu => 1,
        PartKind::Memory => 2,
        PartKind::Storage => 3,
        PartKind::Motherboard => 4,
        PartKind::Cooler | PartKind::Chassis | PartKind::Psu => 5,
        PartKind::Nic | PartKind::Switch => 6,
        PartKind::System => 7,
    }
}

/// The category of the PSU's conversion losses, the last of the stack.
const PSU_LOSSES: usize = 8;

/// The colour of each power category, in stacking and legend order.
fn power_colour(category: usize) -> &'static str {
    match category {
        0 => palette(0),
        1 => palette(3),
        2 => palette(2),
        3 => palette(1),
        4 => palette(4),
        5 => palette(5),
        6 => palette(6),
        7 => palette(7),
        _ => GREY,
    }
}

/// One stacked bar: a label and (category name, colour, watts) segments in category order.
struct Bar {
    label: String,
    segments: Vec<(&'static str, &'static str, f64)>,
}

/// The English power breakdown ([`power_breakdown_in`]).
#[must_use]
pub fn power_breakdown(power: &PowerReport) -> Option<String> {
    power_breakdown_in(power, &texts::EN)
}

/// The power breakdown of one node of each node group at max draw, by component category,
/// PSU conversion losses (wall − DC) as the last segment, labelled in `t`'s language; `None`
/// when no node draws power.
#[must_use]
pub fn power_breakdown_in(power: &PowerReport, t: &SheetTexts) -> Option<String> {
    let bars: Vec<Bar> = power
        .nodes
        .iter()
        .map(|n| {
            let mut watts = [0.0_f64; PSU_LOSSES + 1];
            for p in &n.parts {
                if let Some(w) = watts.get_mut(power_category(p.kind)) {
                    *w += p.max_watts;
                }
            }
            let dc: f64 = watts.iter().sum();
            let losses = n.wall_watts - dc;
            if losses > 0.5 {
                watts[PSU_LOSSES] = losses;
            }
            let segments = (0..)
                .zip(watts)
                .filter(|&(_, w)| w > 0.0)
                .map(|(i, w)| (t.power_groups.get(i).copied().unwrap_or_default(), power_colour(i), w))
                .collect();
            let count = if n.count > 1 { fill(t.per_node_of, &[&n.count]) } else { String::new() };
            Bar { label: format!("{}{count}", n.name), segments }
        })
        .collect();
    let max = bars.iter().map(|b| b.segments.iter().map(|s| s.2).sum::<f64>()).fold(0.0, f64::max);
    if max <= 0.0 {
        return None;
    }
    Some(stacked_bars(&bars, max, t.power_chart_title, &t.power_groups))
}

/// Stacked horizontal bars; the legend lists the segments' categories in `order`.
fn stacked_bars(bars: &[Bar], max: f64, title: &str, order: &[&str]) -> String {
    const LEFT: f64 = 200.0;
    const RIGHT: f64 = 30.0;
    const TOP: f64 = 28.0;
    const ROW: f64 = 38.0;
    const BAR: f64 = 24.0;
    let plot_w = CHART_WIDTH_PX - LEFT - RIGHT;
    let (top, step) = axis(max, 6);
    let x = |w: f64| LEFT + w / top * plot_w;
    let mut used: Vec<(&str, &str)> = Vec::new();
    for b in bars {
        for s in &b.segments {
            if !used.iter().any(|u| u.0 == s.0) {
                used.push((s.0, s.1));
            }
        }
    }
    used.sort_by_key(|u| order.iter().position(|c| *c == u.0).unwrap_or(order.len()));
    let bars_bottom = TOP + ROW * bars.len() as f64;
    let legend_rows = legend_rows(used.len());
    let height = bars_bottom + 40.0 + legend_rows * 20.0 + 10.0;
    let mut out = String::new();
    open_svg(&mut out, height, title, LEFT);
    let mut tick = 0.0;
    while tick <= top + step * 1e-9 {
        let tx = x(tick);
        let _ = write!(
            out,
            "<line x1=\"{tx:.1}\" y1=\"{TOP:.1}\" x2=\"{tx:.1}\" y2=\"{bars_bottom:.1}\" stroke=\"{GRID}\"/><text x=\"{tx:.1}\" y=\"{:.1}\" {FONT} text-anchor=\"middle\" fill=\"{AXIS}\">{}</text>",
            bars_bottom + 16.0,
            esc(&tick_text(tick, step))
        );
        tick += step;
    }
    for (i, b) in bars.iter().enumerate() {
        let y = TOP + ROW * i as f64 + (ROW - BAR) / 2.0;
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" {FONT} text-anchor=\"end\">{}</text>",
            LEFT - 8.0,
            y + BAR / 2.0 + 4.0,
            esc(&truncate(&b.label, MAX_LABEL_CHARS))
        );
        let mut at = 0.0;
        for (cat, colour, w) in &b.segments {
            let _ = write!(
                out,
                "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{BAR:.1}\" fill=\"{colour}\"><title>{}: {} W</title></rect>",
                x(at),
                x(at + w) - x(at),
                esc(cat),
                format_thousands(*w, 0)
            );
            at += w;
        }
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" {FONT} fill=\"{AXIS}\">{} W</text>",
            (x(at) + 4.0).min(CHART_WIDTH_PX - RIGHT - 40.0),
            y - 2.0,
            format_thousands(at, 0)
        );
    }
    let _ = write!(
        out,
        "<line x1=\"{LEFT:.1}\" y1=\"{bars_bottom:.1}\" x2=\"{:.1}\" y2=\"{bars_bottom:.1}\" stroke=\"{AXIS}\"/>",
        CHART_WIDTH_PX - RIGHT
    );
    legend(&mut out, &used.iter().map(|u| (u.0.to_owned(), u.1, false)).collect::<Vec<_>>(), bars_bottom + 36.0);
    out.push_str("</svg>");
    out
}

/// Columns of a legend.
const LEGEND_COLUMNS: usize = 2;
/// Longest legend label, characters (two columns across the chart width).
const MAX_LEGEND_CHARS: usize = 52;

/// Rows a legend of `n` items takes.
fn legend_rows(n: usize) -> f64 {
    n.div_ceil(LEGEND_COLUMNS) as f64
}

/// A legend in rows of [`LEGEND_COLUMNS`]: (label, colour, dashed).
fn legend(out: &mut String, items: &[(String, &str, bool)], top: f64) {
    const LEFT: f64 = 20.0;
    let col_w = (CHART_WIDTH_PX - LEFT) / LEGEND_COLUMNS as f64;
    for (i, (label, colour, dashed)) in items.iter().enumerate() {
        let x = LEFT + col_w * (i % LEGEND_COLUMNS) as f64;
        let y = top + 20.0 * (i / LEGEND_COLUMNS) as f64;
        let dash = if *dashed { " stroke-dasharray=\"6 4\"" } else { "" };
        let _ = write!(
            out,
            "<line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{colour}\" stroke-width=\"4\"{dash}/><text x=\"{:.1}\" y=\"{y:.1}\" {FONT}>{}</text>",
            y - 4.0,
            x + 22.0,
            y - 4.0,
            x + 28.0,
            esc(&truncate(label, MAX_LEGEND_CHARS))
        );
    }
}

/// A line of a line chart.
struct Series {
    label: String,
    colour: &'static str,
    dashed: bool,
    width: f64,
    values: Vec<f64>,
}

/// A line chart of monthly series (index = month), with vertical markers (month, label).
fn line_chart(series: &[Series], markers: &[(f64, String, &'static str)], title: &str) -> String {
    const LEFT: f64 = VALUE_AXIS_LEFT;
    const RIGHT: f64 = VALUE_AXIS_RIGHT;
    const TOP: f64 = 28.0;
    const PLOT_H: f64 = 260.0;
    let months = series.iter().map(|s| s.values.len().saturating_sub(1)).max().unwrap_or(0).max(1) as f64;
    let max = series.iter().flat_map(|s| &s.values).copied().filter(|v| v.is_finite()).fold(0.0, f64::max);
    let min = series.iter().flat_map(|s| &s.values).copied().filter(|v| v.is_finite()).fold(0.0, f64::min);
    let (top, step) = axis(max.max(1.0), 6);
    let bottom = if min < 0.0 { -axis(-min, 6).0 } else { 0.0 };
    let plot_w = CHART_WIDTH_PX - LEFT - RIGHT;
    let x = |m: f64| LEFT + m / months * plot_w;
    let y = |v: f64| TOP + (top - v) / (top - bottom) * PLOT_H;
    let base = TOP + PLOT_H;
    let legend_rows = legend_rows(series.len());
    let height = base + 44.0 + legend_rows * 20.0 + 10.0;
    let mut out = String::new();
    open_svg(&mut out, height, title, LEFT);
    y_grid(&mut out, bottom, top, step, y);
    let (_, month_step) = axis(months, 8);
    let month_step = month_step.max(1.0);
    let mut m = 0.0;
    while m <= months + 1e-9 {
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" {FONT} text-anchor=\"middle\" fill=\"{AXIS}\">{m:.0}</text>",
            x(m),
            base + 16.0
        );
        m += month_step;
    }
    let _ = write!(
        out,
        "<line x1=\"{LEFT:.1}\" y1=\"{base:.1}\" x2=\"{:.1}\" y2=\"{base:.1}\" stroke=\"{AXIS}\"/><line x1=\"{LEFT:.1}\" y1=\"{TOP:.1}\" x2=\"{LEFT:.1}\" y2=\"{base:.1}\" stroke=\"{AXIS}\"/>",
        CHART_WIDTH_PX - RIGHT
    );
    let _ = write!(
        out,
        "<text x=\"{:.1}\" y=\"{:.1}\" {FONT} text-anchor=\"middle\" fill=\"{AXIS}\">month</text>",
        LEFT + plot_w / 2.0,
        base + 32.0,
    );
    for s in series {
        let points: Vec<String> =
            s.values.iter().enumerate().map(|(i, v)| format!("{:.1},{:.1}", x(i as f64), y(*v))).collect();
        let dash = if s.dashed { " stroke-dasharray=\"6 4\"" } else { "" };
        let _ = write!(
            out,
            "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"{:.1}\"{dash} points=\"{}\"><title>{}</title></polyline>",
            s.colour,
            s.width,
            points.join(" "),
            esc(&s.label)
        );
    }
    for (month, label, colour) in markers {
        if !(0.0..=months).contains(month) {
            continue;
        }
        let mx = x(*month);
        let _ = write!(
            out,
            "<line x1=\"{mx:.1}\" y1=\"{TOP:.1}\" x2=\"{mx:.1}\" y2=\"{base:.1}\" stroke=\"{colour}\" stroke-dasharray=\"3 3\"/><text x=\"{:.1}\" y=\"{:.1}\" {FONT} fill=\"{colour}\">{}</text>",
            mx + 4.0,
            TOP + 12.0,
            esc(label)
        );
    }
    legend(&mut out, &series.iter().map(|s| (s.label.clone(), s.colour, s.dashed)).collect::<Vec<_>>(), base + 52.0);
    out.push_str("</svg>");
    out
}

/// The TCO cumulative cost curves: owned (cash) against the cloud options (the primary one
/// drawn thicker, then the cheapest others up to [`MAX_OPTION_CURVES`]), the break-even month
/// marked; `None` without months.
#[must_use]
pub fn tco_curves(tco: &Tco) -> Option<String> {
    tco_curves_in(tco, &texts::EN)
}

/// As [`tco_curves`], labelled in `t`'s language.
#[must_use]
pub fn tco_curves_in(tco: &Tco, t: &SheetTexts) -> Option<String> {
    if tco.monthly_cumulative.owned.len() < 2 {
        return None;
    }
    let mut series = vec![Series {
        label: t.owned_curve.to_owned(),
        colour: palette(0),
        dashed: false,
        width: 3.0,
        values: tco.monthly_cumulative.owned.clone(),
    }];
    // The primary option, then the others from the cheapest, as many as the palette tells
    // apart; the report's table lists every option.
    let is_primary = |id: &str| tco.primary_option.as_deref() == Some(id);
    let mut options: Vec<&crate::core::analysis::tco::CloudOption> = tco.options.iter().collect();
    options.sort_by(|a, b| {
        (!is_primary(&a.input.id))
            .cmp(&!is_primary(&b.input.id))
            .then(a.total.total_cmp(&b.total))
            .then(a.input.id.cmp(&b.input.id))
    });
    for (i, opt) in options.iter().take(MAX_OPTION_CURVES).enumerate() {
        let Some(values) = tco.monthly_cumulative.options.get(&opt.input.id) else { continue };
        let primary = is_primary(&opt.input.id);
        series.push(Series {
            label: if primary { fill(t.primary_option, &[&opt.input.label]) } else { opt.input.label.clone() },
            colour: palette(i + 1),
            dashed: !primary,
            width: if primary { 3.0 } else { 1.5 },
            values: values.clone(),
        });
    }
    let markers: Vec<(f64, String, &'static str)> = tco
        .break_even_month
        .filter(|_| tco.break_even_within_horizon)
        .map(|m| (m, fill(t.break_even_marker, &[&format!("{m:.1}")]), AXIS))
        .into_iter()
        .collect();
    Some(line_chart(&series, &markers, &fill(t.cumulative_cost, &[&tco.currency])))
}

/// Overlaid cumulative cost curves of compared builds: each build's owned curve (solid) and
/// its primary cloud option (dashed) in the build's colour; `None` without months.
#[must_use]
pub fn compare_tco_curves(c: &Comparison) -> Option<String> {
    let tx = CompareTexts::of(c.lang);
    let mut series = Vec::new();
    for (i, k) in c.curves.iter().enumerate() {
        if k.owned.len() >= 2 {
            series.push(Series {
                label: say(&compare_texts::CURVE_OWNED, c.lang, &[("build", k.label)]),
                colour: palette(i),
                dashed: false,
                width: 2.5,
                values: k.owned.clone(),
            });
        }
        if let (Some(values), Some(label)) = (&k.primary, &k.primary_label) {
            series.push(Series {
                label: say(&compare_texts::CURVE_CLOUD, c.lang, &[("build", k.label), ("option", label)]),
                colour: palette(i),
                dashed: true,
                width: 1.5,
                values: values.clone(),
            });
        }
    }
    if series.is_empty() {
        return None;
    }
    let markers: Vec<(f64, String, &'static str)> = c
        .curves
        .iter()
        .enumerate()
        .filter_map(|(i, k)| {
            k.break_even_month
                .map(|m| (m, say(&compare_texts::CURVE_BREAK_EVEN, c.lang, &[("build", k.label)]), palette(i)))
        })
        .collect();
    Some(line_chart(&series, &markers, &fill(tx.sheet.cumulative_cost, &[&c.currency])))
}

/// Grouped vertical bars of the compared builds' wall power (idle, typical, max); `None` when
/// no build draws power.
#[must_use]
pub fn compare_power_bars(comparison: &Comparison) -> Option<String> {
    const LEFT: f64 = VALUE_AXIS_LEFT;
    const RIGHT: f64 = VALUE_AXIS_RIGHT;
    const TOP: f64 = 28.0;
    const PLOT_H: f64 = 220.0;
    let tx = CompareTexts::of(comparison.lang);
    let levels: Vec<(&str, Vec<f64>)> =
        [(tx.power_idle, "wall-idle"), (tx.power_typical, "wall-typical"), (tx.power_max, "wall-max")]
            .into_iter()
            .filter_map(|(label, id)| {
                comparison.row(id).map(|r| (label, r.values.iter().map(|v| v.unwrap_or(0.0)).collect()))
            })
            .collect();
    let max = levels.iter().flat_map(|l| &l.1).copied().fold(0.0, f64::max);
    if max <= 0.0 || levels.is_empty() {
        return None;
    }
    let (top, step) = axis(max, 5);
    let plot_w = CHART_WIDTH_PX - LEFT - RIGHT;
    let base = TOP + PLOT_H;
    let y = |v: f64| TOP + (top - v) / top * PLOT_H;
    let group_w = plot_w / comparison.builds.len().max(1) as f64;
    // About 7 px per character at the chart's 12 px font.
    let label_chars = usize::try_from(round_non_negative(group_w / 7.0)).unwrap_or(MAX_LABEL_CHARS);
    let bar_w = (group_w * 0.8) / levels.len() as f64;
    let height = base + 44.0 + legend_rows(levels.len()) * 20.0 + 10.0;
    let title = tx.power_title;
    let mut out = String::new();
    open_svg(&mut out, height, title, LEFT);
    y_grid(&mut out, 0.0, top, step, y);
    for (b, build) in comparison.builds.iter().enumerate() {
        let gx = LEFT + group_w * b as f64 + group_w * 0.1;
        for (l, (label, values)) in levels.iter().enumerate() {
            let watts = values.get(b).copied().unwrap_or(0.0);
            let x = gx + bar_w * l as f64;
            let _ = write!(
                out,
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"><title>{}</title></rect>",
                y(watts),
                bar_w - 2.0,
                base - y(watts),
                palette(l),
                esc(&say(
                    &compare_texts::BAR_TOOLTIP,
                    comparison.lang,
                    &[("build", build.label), ("level", label), ("watts", &format_thousands(watts, 0))]
                ))
            );
        }
        let _ = write!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" {FONT} text-anchor=\"middle\">{}</text>",
            gx + group_w * 0.4,
            base + 16.0,
            esc(&truncate(
                &say(&compare_texts::BAR_LABEL, comparison.lang, &[("build", build.label), ("name", &build.name)]),
                label_chars
            ))
        );
    }
    let _ = write!(
        out,
        "<line x1=\"{LEFT:.1}\" y1=\"{base:.1}\" x2=\"{:.1}\" y2=\"{base:.1}\" stroke=\"{AXIS}\"/>",
        CHART_WIDTH_PX - RIGHT
    );
    legend(
        &mut out,
        &levels.iter().enumerate().map(|(l, (label, _))| ((*label).to_owned(), palette(l), false)).collect::<Vec<_>>(),
        base + 40.0,
    );
    out.push_str("</svg>");
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps() {
        // Heckbert's rule: 7,708 W over about 6 intervals is 1,284.7 → 2,000 (fraction 1.28 of
        // 1,000 rounds up to 2).
        assert!((nice_step(7_708.0, 6) - 2_000.0).abs() < 1e-9);
        assert!((nice_step(36.0, 8) - 5.0).abs() < 1e-9);
        assert!((nice_step(1_000.0, 10) - 100.0).abs() < 1e-9);
        assert!((nice_step(0.0, 6) - 1.0).abs() < 1e-9);
        assert_eq!(axis(7_708.0, 6), (8_000.0, 2_000.0));
    }

    #[test]
    fn ticks() {
        assert_eq!(tick_text(2_500_000.0, 500_000.0), "2.5M");
        assert_eq!(tick_text(4_000_000.0, 1_000_000.0), "4M");
        assert_eq!(tick_text(750_000.0, 250_000.0), "750k");
        assert_eq!(tick_text(4_000.0, 2_000.0), "4,000");
    }
}
