//! PSUs: 80 PLUS efficiency at a load point and line voltage, the recommended size with its
//! margins, ATX 3 transient tolerance, and a node's PSU summary.

use super::{PowerSettings, PsuRecommendation, PsuSummary};
use crate::core::catalog::{Chassis, EfficiencyTier, PowerConnector, Psu};
use crate::core::i18n::Sentence;
use crate::core::resolve::Node;
use crate::text;

/// Peak power an ATX 3.x PSU above 450 W with a 12VHPWR connector must deliver for 100 µs, as a
/// multiple of its rating (ATX 3 design guide, doc 336521, Table 3-3: 200 % / 100 µs, 180 % /
/// 1 ms, 160 % / 10 ms, 120 % / 100 ms). The 100 µs row pairs with the card's 100 µs excursion.
pub const ATX3_EXCURSION_TOLERANCE_100US: f64 = 2.0;

/// Peak multiple an ATX 3.x PSU of 450 W or less, or one without a 12VHPWR connector, must
/// deliver for 100 µs (ATX 3 design guide, Table 3-3: 150 %).
pub const ATX3_SMALL_EXCURSION_TOLERANCE_100US: f64 = 1.5;

/// Rated output of the largest PSU that must meet the 200 % row rather than 150 % (Table 3-3).
pub const ATX3_SMALL_PSU_LIMIT_WATTS: f64 = 450.0;

/// Lowest line voltage at which rigplan uses the 230 V 80 PLUS table and a server PSU's
/// high-line rating; 100–127 V mains use the 115 V table and low-line rating.
pub const HIGH_LINE_MIN_VOLTS: f64 = 200.0;

/// Standard ATX PSU ratings on sale, W; recommendations are rounded up to one of these.
/// Above the last one, rigplan rounds up to the next 100 W (server supplies, or more than one).
pub const STANDARD_PSU_SIZES_WATTS: [f64; 12] =
    [450.0, 550.0, 650.0, 750.0, 850.0, 1000.0, 1200.0, 1300.0, 1500.0, 1600.0, 2000.0, 2200.0];

/// Efficiency tier assumed where a node has no PSU of its own (so a wall figure still exists):
/// an 80 PLUS Gold unit at its 50 % load point.
pub const ASSUMED_TIER: EfficiencyTier = EfficiencyTier::Gold;

/// 80 PLUS minimum efficiency points (load fraction, efficiency) for 115 V internal
/// non-redundant supplies: 20/50/100 % load; Titanium also 10 %. Bronze 82/85/82, Silver
/// 85/88/85, Gold 87/90/87, Platinum 90/92/89, Titanium 90/92/94/90 (CLEAResult 80 PLUS
/// program requirements, as in domain notes §2); 80 PLUS (standard) 80/80/80.
fn points_115v(tier: EfficiencyTier) -> &'static [(f64, f64)] {
    match tier {
        EfficiencyTier::Standard => &[(0.2, 0.80), (0.5, 0.80), (1.0, 0.80)],
        EfficiencyTier::Bronze => &[(0.2, 0.82), (0.5, 0.85), (1.0, 0.82)],
        EfficiencyTier::Silver => &[(0.2, 0.85), (0.5, 0.88), (1.0, 0.85)],
        EfficiencyTier::Gold => &[(0.2, 0.87), (0.5, 0.90), (1.0, 0.87)],
        EfficiencyTier::Platinum => &[(0.2, 0.90), (0.5, 0.92), (1.0, 0.89)],
        EfficiencyTier::Titanium => &[(0.1, 0.90), (0.2, 0.92), (0.5, 0.94), (1.0, 0.90)],
    }
}

/// 80 PLUS minimum efficiency points for 230 V EU internal supplies: Bronze 85/88/85, Silver
/// 87/90/87, Gold 90/92/89, Platinum 92/94/90, Titanium 90/94/96/94 (10/20/50/100 %; CLEAResult
/// 80 PLUS program, as in domain notes §2); 80 PLUS (standard) 82/85/82.
fn points_230v(tier: EfficiencyTier) -> &'static [(f64, f64)] {
    match tier {
        EfficiencyTier::Standard => &[(0.2, 0.82), (0.5, 0.85), (1.0, 0.82)],
        EfficiencyTier::Bronze => &[(0.2, 0.85), (0.5, 0.88), (1.0, 0.85)],
        EfficiencyTier::Silver => &[(0.2, 0.87), (0.5, 0.90), (1.0, 0.87)],
        EfficiencyTier::Gold => &[(0.2, 0.90), (0.5, 0.92), (1.0, 0.89)],
        EfficiencyTier::Platinum => &[(0.2, 0.92), (0.5, 0.94), (1.0, 0.90)],
        EfficiencyTier::Titanium => &[(0.1, 0.90), (0.2, 0.94), (0.5, 0.96), (1.0, 0.94)],
    }
}

/// True when the site voltage selects the 230 V table and high-line PSU ratings.
#[must_use]
pub fn is_high_line(volts: f64) -> bool {
    volts >= HIGH_LINE_MIN_VOLTS
}

/// PSU efficiency at a load fraction: linear interpolation between the 80 PLUS points of the
/// tier and voltage. Below the lowest certified point rigplan holds that point's efficiency and
/// above full load the 100 % point: 80 PLUS sets no requirement there, and real units fall off
/// at very light load, so idle wall draw is a lower bound.
#[must_use]
pub fn efficiency_at(tier: EfficiencyTier, high_line: bool, load_fraction: f64) -> f64 {
    let points = if high_line { points_230v(tier) } else { points_115v(tier) };
    let load = if load_fraction.is_finite() { load_fraction.max(0.0) } else { 0.0 };
    let (Some(&(first_load, first_eff)), Some(&(_, last_eff))) = (points.first(), points.last()) else {
        return 1.0;
    };
    if load <= first_load {
        return first_eff;
    }
    for pair in points.windows(2) {
        if let [(l0, e0), (l1, e1)] = pair
            && load <= *l1
        {
            return e0 + (e1 - e0) * (load - l0) / (l1 - l0);
        }
    }
    last_eff
}

/// Rounds a required rating up to a PSU size on sale.
#[must_use]
pub fn round_up_psu_size(required_watts: f64) -> f64 {
    if !required_watts.is_finite() || required_watts <= 0.0 {
        return 0.0;
    }
    STANDARD_PSU_SIZES_WATTS
        .iter()
        .copied()
        .find(|&s| s >= required_watts)
        .unwrap_or_else(|| (required_watts / 100.0).ceil() * 100.0)
}

/// A unit's rating at the site voltage; a `low_line_watts` of 0 marks a high-line-only module,
/// which delivers nothing on a 100–127 V feed.
#[must_use]
pub fn psu_capacity_at(psu: &Psu, high_line: bool) -> f64 {
    if high_line { psu.rated_watts } else { psu.low_line_watts.unwrap_or(psu.rated_watts).max(0.0) }
}

pub(super) fn is_atx3(psu: &Psu) -> bool {
    psu.atx_version.as_deref().is_some_and(|v| v.trim_start().starts_with('3'))
}

/// The 100 µs excursion multiple a PSU is specified for: ATX 3.x per Table 3-3 of the ATX 3
/// design guide; 1.0 for older and server units (no excursion specification).
#[must_use]
pub fn excursion_tolerance(psu: &Psu) -> f64 {
    if !is_atx3(psu) {
        return 1.0;
    }
    let has_16_pin = psu.connectors.iter().any(|c| c.connector == PowerConnector::Hpwr16Pin && c.count > 0);
    if psu.rated_watts > ATX3_SMALL_PSU_LIMIT_WATTS && has_16_pin {
        ATX3_EXCURSION_TOLERANCE_100US
    } else {
        ATX3_SMALL_EXCURSION_TOLERANCE_100US
    }
}

pub(super) fn psu_summary(node: &Node<'_>, high_line: bool) -> Option<PsuSummary> {
    let parts = &node.parts;
    let mut units: Vec<(&Psu, Option<&Chassis>)> = Vec::new();
    for item in &parts.psus {
        for _ in 0..item.quantity.min(crate::core::build::MAX_QUANTITY) {
            units.push((item.part, item.included_with));
        }
    }
    if units.is_empty() {
        // A complete system's own supplies.
        let sys = parts.systems.first()?;
        let s = sys.part;
        if s.psu_count == 0 || s.psu_rated_watts <= 0.0 {
            return None;
        }
        let installed = u32::from(s.psu_count) * sys.quantity;
        let active = u32::from(s.psu_count.saturating_sub(s.psu_redundant)) * sys.quantity;
        return Some(PsuSummary {
            installed_units: installed,
            active_units: active,
            redundancy: node.redundancy,
            installed_watts: f64::from(installed) * s.psu_rated_watts,
            capacity_watts: f64::from(active) * s.psu_rated_watts,
            tier: None,
            atx3: false,
            excursion_tolerance: 1.0,
            source: Sentence::new(text!(
                super::PSU_FROM_SYSTEM,
                system = s.name.as_str(),
                count = s.psu_count.to_string(),
                watts = s.psu_rated_watts.to_string(),
                redundant = s.psu_redundant.to_string()
            )),
        });
    }
    let installed = u32::try_from(units.len()).unwrap_or(u32::MAX);
    let active = node.redundancy.active_units(installed);
    let mut capacities: Vec<f64> = units.iter().map(|(p, _)| psu_capacity_at(p, high_line)).collect();
    capacities.sort_by(f64::total_cmp);
    let capacity: f64 = capacities.iter().take(active as usize).sum();
    let installed_watts: f64 = capacities.iter().sum();
    let tier = units.iter().map(|(p, _)| p.efficiency).min();
    let atx3 = units.iter().all(|(p, _)| is_atx3(p));
    let tolerance = units.iter().map(|(p, _)| excursion_tolerance(p)).fold(f64::INFINITY, f64::min);
    let in_chassis = units.iter().filter(|(_, c)| c.is_some()).count();
    let source = Sentence::new(if in_chassis > 0 {
        text!(super::PSU_IN_CHASSIS, installed = installed.to_string(), in_chassis = in_chassis.to_string())
    } else {
        text!(super::PSU_ON_LINES, installed = installed.to_string())
    });
    Some(PsuSummary {
        installed_units: installed,
        active_units: active,
        redundancy: node.redundancy,
        installed_watts,
        capacity_watts: capacity,
        tier,
        atx3,
        excursion_tolerance: if tolerance.is_finite() { tolerance } else { 1.0 },
        source,
    })
}

/// Sizes the PSU for a DC max load and transient peak, with each margin visible.
#[must_use]
pub fn recommend(max_dc_watts: f64, peak_transient_watts: f64, settings: &PowerSettings) -> PsuRecommendation {
    let sustained_headroom_watts = max_dc_watts * settings.sustained_headroom_fraction;
    let ageing_watts = max_dc_watts * settings.ageing_fraction;
    let sustained = max_dc_watts + sustained_headroom_watts + ageing_watts;
    // A recommended unit is ATX 3.x: only those carry an excursion rating.
    let excursion_tolerance = ATX3_EXCURSION_TOLERANCE_100US;
    let transient_required_watts = peak_transient_watts / excursion_tolerance;
    let transient_margin_watts = (transient_required_watts - sustained).max(0.0);
    let required_watts = sustained + transient_margin_watts;
    PsuRecommendation {
        max_dc_watts,
        sustained_headroom_fraction: settings.sustained_headroom_fraction,
        sustained_headroom_watts,
        ageing_fraction: settings.ageing_fraction,
        ageing_watts,
        peak_transient_watts,
        excursion_tolerance,
        transient_required_watts,
        transient_margin_watts,
        required_watts,
        recommended_watts: round_up_psu_size(required_watts),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 80 PLUS table points (CLEAResult 80 PLUS program; domain notes §2): Gold 115 V is 87 %
    /// at 20 %, 90 % at 50 %, 87 % at 100 % load; Titanium 230 V is 90/94/96/94 at 10/20/50/100.
    #[test]
    fn eighty_plus_points() {
        assert!((efficiency_at(EfficiencyTier::Gold, false, 0.2) - 0.87).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Gold, false, 0.5) - 0.90).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Gold, false, 1.0) - 0.87).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Platinum, false, 0.5) - 0.92).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Platinum, true, 0.5) - 0.94).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Titanium, true, 0.1) - 0.90).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Titanium, true, 1.0) - 0.94).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Bronze, true, 0.2) - 0.85).abs() < 1e-12);
    }

    #[test]
    fn efficiency_interpolates_and_holds_at_the_ends() {
        // Halfway between Gold 115 V 50 % (0.90) and 100 % (0.87): 0.885 at 75 %.
        assert!((efficiency_at(EfficiencyTier::Gold, false, 0.75) - 0.885).abs() < 1e-12);
        // 35 % is halfway between 20 % (0.87) and 50 % (0.90).
        assert!((efficiency_at(EfficiencyTier::Gold, false, 0.35) - 0.885).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Gold, false, 0.05) - 0.87).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Gold, false, 1.4) - 0.87).abs() < 1e-12);
        assert!((efficiency_at(EfficiencyTier::Gold, false, f64::NAN) - 0.87).abs() < 1e-12);
    }

    #[test]
    fn psu_sizes_round_up_to_units_on_sale() {
        assert!((round_up_psu_size(848.0) - 850.0).abs() < 1e-9);
        assert!((round_up_psu_size(850.1) - 1000.0).abs() < 1e-9);
        assert!((round_up_psu_size(2250.0) - 2300.0).abs() < 1e-9);
        assert!(round_up_psu_size(f64::NAN).abs() < 1e-9);
    }

    #[test]
    fn recommendation_adds_margins_without_stacking() {
        // 700 W max: +140 W headroom, +70 W ageing = 910 W; transient 1500 W / 2 = 750 W
        // stays below, so it adds nothing.
        let r = recommend(700.0, 1500.0, &PowerSettings::default());
        assert!((r.sustained_headroom_watts - 140.0).abs() < 1e-9);
        assert!((r.ageing_watts - 70.0).abs() < 1e-9);
        assert!(r.transient_margin_watts.abs() < 1e-9);
        assert!((r.required_watts - 910.0).abs() < 1e-9);
        assert!((r.recommended_watts - 1000.0).abs() < 1e-9);
        // A 2400 W peak needs 1200 W of rating: 290 W beyond the 910 W sustained figure.
        let r = recommend(700.0, 2400.0, &PowerSettings::default());
        assert!((r.transient_margin_watts - 290.0).abs() < 1e-9);
        assert!((r.required_watts - 1200.0).abs() < 1e-9);
    }
}
