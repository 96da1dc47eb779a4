//! Which figures of a build's report a comparison row shows: the keys of their bases
//! ([`crate::core::analysis::basis::Basis::figure`]), per build, so that a front end explains a
//! compared value with that build's own numbers ([`super::Row::basis_keys`]).
//!
//! Most rows show one of the report's figures, or the figures they are made of (the savings
//! are the cloud total less the owned total). The speed rows read one fit-matrix cell of the
//! build, chosen per build; their keys name that cell ([`CellAt::key`]) and the comparison
//! adds the cell's bases to the report ([`crate::core::analysis::Report::add_bases`]).

use crate::core::analysis::basis::counts::{findings_key, fit_count_key, largest_key};
use crate::core::analysis::basis::fit::CellAt;
use crate::core::analysis::fit::WorkloadKind;
use crate::core::analysis::{Report, Severity};

/// The keys of the report figures a row shows for one build; empty for the speed rows, whose
/// keys name the cell they read ([`cell_key`]).
#[must_use]
pub fn report_keys(row_id: &str, r: &Report) -> Vec<String> {
    let primary = || r.tco.primary_option.as_ref().map(|id| format!("tco.totals.options.{id}"));
    let nodes = |field: &str| -> Vec<String> {
        r.power.nodes.iter().map(|n| format!("power.nodes[{}].{field}", n.node)).collect()
    };
    let one = |k: &str| vec![k.to_owned()];
    if let Some(w) = row_id.strip_prefix("fit-").and_then(WorkloadKind::from_id) {
        return vec![fit_count_key(w)];
    }
    match row_id {
        "capex" => one("tco.capex"),
        "unpriced-lines" => one("bom.unpriced_lines"),
        "tco-owned" => one("tco.totals.owned"),
        "tco-cloud" => primary().into_iter().collect(),
        "owning-savings" => primary().into_iter().chain(one("tco.totals.owned")).collect(),
        "break-even" => one("tco.break_even_month"),
        "wall-max" => one("power.wall_watts"),
        "wall-typical" => one("power.wall_typical_watts"),
        "wall-idle" => one("power.wall_idle_watts"),
        "recommended-psu" => one("power.recommended_psu_watts"),
        "circuits" => nodes("circuits_needed"),
        "gpu-headroom" | "gpu-temp" => one("summary.worst_gpu_headroom.headroom_c"),
        "cpu-cooler-headroom" => one("summary.worst_cooler_headroom.headroom_watts"),
        "airflow-headroom" => r
            .thermal
            .nodes
            .iter()
            .flat_map(|n| {
                let k = |f: &str| format!("thermal.nodes[{}].airflow.{f}", n.node);
                [k("needed_cfm"), k("available_cfm")]
            })
            .collect(),
        "heat" => vec!["thermal.heat_btu_per_hour".to_owned(), "thermal.heat_watts".to_owned()],
        "errors" => one(findings_key(Severity::Error)),
        "warnings" => one(findings_key(Severity::Warning)),
        "infos" => one(findings_key(Severity::Info)),
        "largest-inference" => one(largest_key(false)),
        "largest-finetune" => one(largest_key(true)),
        _ => Vec::new(),
    }
}

/// The field of a fit cell's basis a speed row shows (`decode_tokens_per_s`), by row id.
#[must_use]
pub fn cell_field(row_id: &str) -> Option<&'static str> {
    Some(match row_id {
        "decode-bf16" | "decode-q4_k_m" => "decode_tokens_per_s",
        "train-lora" | "train-full" => "train_tokens_per_s",
        "time-lora" | "time-full" => "train_hours",
        "samples-inference" => "inference_samples_per_s",
        "samples-train" => "train_samples_per_s",
        "images-per-minute" => "images_per_minute",
        _ => return None,
    })
}

/// The key of the cell basis a speed row shows for a build that has a value.
#[must_use]
pub fn cell_key(row_id: &str, at: CellAt) -> Vec<String> {
    cell_field(row_id).map(|f| at.key(f)).into_iter().collect()
}
