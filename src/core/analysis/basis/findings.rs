//! The figures a finding is about. A power, thermal or cost finding quotes figures the report
//! explains (a node's PSU load, transient peak, circuits, airflow, GPU temperatures, cooler
//! headroom, depreciation); [`figures_of`] names their keys, so that the Issues tab and any
//! other front end can open the bases from the finding itself. Compatibility findings compare
//! datasheet values (sockets, slots, lengths) and name no computed figure.

use super::Basis;
use crate::core::analysis::Diagnostic;

/// The figures of each code: key patterns, `{n}` for the finding's node group and `*` for any
/// index (narrowed to the finding's parts when it names some).
const FIGURES: [(&str, &[&str]); 12] = [
    ("psu-capacity-low", &["power.nodes[{n}].psu_load_fraction", "power.nodes[{n}].max_watts"]),
    ("psu-below-recommended", &["power.nodes[{n}].recommended_psu_watts", "power.nodes[{n}].psu_load_fraction"]),
    ("psu-transient-risk", &["power.nodes[{n}].peak_transient_watts", "power.nodes[{n}].recommended_psu_watts"]),
    ("circuit-overload", &["power.nodes[{n}].circuits_needed", "power.nodes[{n}].wall_watts"]),
    ("circuit-multiple-feeds", &["power.nodes[{n}].circuits_needed", "power.nodes[{n}].wall_watts"]),
    ("airflow-insufficient", &["thermal.nodes[{n}].airflow.needed_cfm", "thermal.nodes[{n}].airflow.available_cfm"]),
    ("cooler-capacity-low", &["thermal.nodes[{n}].cpus[*].headroom_watts"]),
    ("gpu-temp-high", &["thermal.nodes[{n}].gpus[*].estimated_temp_c", "thermal.nodes[{n}].gpus[*].max_temp_c"]),
    ("gpu-temp-over-max", &["thermal.nodes[{n}].gpus[*].estimated_temp_c", "thermal.nodes[{n}].gpus[*].max_temp_c"]),
    ("gpu-open-air-stacked", &["thermal.nodes[{n}].gpus[*].estimated_temp_c"]),
    ("tco-entered-cost-below-depreciation", &["tco.depreciation_per_year", "tco.owned_per_year.total"]),
    ("tco-unpriced-lines", &["bom.parts_total", "tco.capex"]),
];

/// Whether `key` matches `pattern` (`*` standing for one index: digits between brackets).
fn matches(pattern: &str, key: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == key,
        Some((head, tail)) => key
            .strip_prefix(head)
            .and_then(|rest| rest.strip_suffix(tail))
            .is_some_and(|index| !index.is_empty() && index.bytes().all(|b| b.is_ascii_digit())),
    }
}

/// Whether a basis is about one of `parts` (an input that comes from one of them).
fn about_parts(b: &Basis, parts: &[crate::core::catalog::PartId]) -> bool {
    b.inputs.iter().any(|i| parts.iter().any(|p| i.from.starts_with(p.as_str())))
}

/// The keys of the figures `d` is about that `bases` explains, in the order of the code's
/// patterns; empty for a finding about no computed figure.
#[must_use]
pub fn figures_of(d: &Diagnostic, bases: &[Basis]) -> Vec<String> {
    let Some((_, patterns)) = FIGURES.iter().find(|(code, _)| *code == d.code.as_str()) else { return Vec::new() };
    let mut keys = Vec::new();
    for pattern in *patterns {
        let pattern = match (pattern.contains("{n}"), d.node) {
            (true, Some(n)) => pattern.replace("{n}", &n.to_string()),
            (true, None) => continue,
            (false, _) => (*pattern).to_owned(),
        };
        let wildcard = pattern.contains('*');
        for b in bases.iter().filter(|b| matches(&pattern, &b.figure)) {
            if wildcard && !d.parts.is_empty() && !about_parts(b, &d.parts) {
                continue;
            }
            if !keys.contains(&b.figure) {
                keys.push(b.figure.clone());
            }
        }
    }
    keys
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::analysis::codes;

    #[test]
    fn a_star_stands_for_one_index() {
        let p = "thermal.nodes[0].gpus[*].max_temp_c";
        assert!(matches(p, "thermal.nodes[0].gpus[12].max_temp_c"));
        assert!(!matches(p, "thermal.nodes[0].gpus[].max_temp_c"));
        assert!(!matches(p, "thermal.nodes[0].gpus[1].estimated_temp_c"));
        assert!(!matches(p, "thermal.nodes[1].gpus[1].max_temp_c"));
        assert!(matches("tco.capex", "tco.capex"));
    }

    /// Every code named is a registered finding code, and every pattern a figure some basis
    /// writes (a typo would silently explain nothing).
    #[test]
    fn every_code_is_registered() {
        for (code, patterns) in FIGURES {
            assert!(codes::lookup(code).is_some(), "{code}");
            assert!(!patterns.is_empty(), "{code}");
        }
    }
}
