//! Where a candidate's workload figures come from: served and per-user tokens/s of an
//! inference workload, training tokens/s and hours of a training one, each a
//! [`Basis`] with this configuration's numbers, read off the same estimates the search ran
//! ([`super::workloads`]): the decode step of one replica at its batch
//! ([`speed::InferenceModel::decode_step`], rigplan domain notes §5 and §7), the training
//! throughput and time of the memory and speed analyses ([`basis::fit::of_fit`], Kaplan et al.
//! 2020; Narayanan et al. 2021).
//!
//! Keys are the figures' JSON paths in the candidate (`workloads[0].served_tokens_per_s`,
//! `cost_per_million_tokens[0]`).

use super::requirement::{WorkMode, WorkloadReq};
use super::workloads::{GpuSetup, WorkloadFit, base_workload};
use crate::core::analysis::basis::{self, Basis, num};
use crate::core::analysis::fit::sub_topology;
use crate::core::analysis::memory::{self, ModelSpec, Workload};
use crate::core::analysis::speed::{self, InferenceModel, SpeedSettings};
use crate::core::analysis::tco::Tco;
use crate::core::build::Site;

/// The key of workload `k`'s figure `field`.
#[must_use]
pub fn key(k: usize, field: &str) -> String {
    format!("workloads[{k}].{field}")
}

/// The key of workload `k`'s owned cost per 1M tokens (`cost_per_million_tokens[k]`).
#[must_use]
pub fn cost_key(k: usize) -> String {
    format!("cost_per_million_tokens[{k}]")
}

/// The basis of workload `k`'s owned cost per 1M tokens: the TCO priced with the workload's
/// throughput ([`basis::report::of_tco`]'s `tco.workload.owned_per_million_tokens`), under the
/// candidate's key. Written once with the candidate, so that a front end only looks it up.
#[must_use]
pub fn of_cost(k: usize, site: &Site, tco: &Tco) -> Option<Basis> {
    let mut b =
        basis::report::of_tco(site, tco).into_iter().find(|b| b.figure == "tco.workload.owned_per_million_tokens")?;
    b.figure = cost_key(k);
    Some(b)
}

/// The bases of workload `k`'s figures on a configuration (`fit` as the search found it).
#[must_use]
pub fn of_workload(
    k: usize,
    spec: &ModelSpec,
    req: &WorkloadReq,
    setup: &GpuSetup<'_>,
    fit: &WorkloadFit,
) -> Vec<Basis> {
    let base = base_workload(spec, req);
    if req.mode == WorkMode::Inference {
        inference(k, spec, base, setup, fit)
    } else {
        training(k, spec, Workload { zero: fit.zero, tp: fit.tp, pp: fit.pp, ..base }, req, setup)
    }
}

/// One replica's decode step at `batch`: (memory, compute, communication) seconds.
fn step_ms(spec: &ModelSpec, w: &Workload, setup: &GpuSetup<'_>, batch: u32) -> Option<(f64, f64, f64)> {
    let topo = sub_topology(&setup.topology, w.tp.saturating_mul(w.pp));
    let model = InferenceModel::new(spec, w, setup.gpu, &topo, &SpeedSettings::default()).ok()?;
    let s = model.decode_step(batch, spec.sequence_len(w.context) as f64);
    Some((s.memory_s * 1000.0, s.compute_s * 1000.0, s.communication_s * 1000.0))
}

fn inference(k: usize, spec: &ModelSpec, base: Workload, setup: &GpuSetup<'_>, fit: &WorkloadFit) -> Vec<Basis> {
    let mut out = Vec::new();
    let w = Workload { tp: fit.tp, pp: fit.pp, ..base };
    let gpu = setup.gpu;
    let replica_topo = sub_topology(&setup.topology, w.tp.saturating_mul(w.pp));
    let est = speed::estimate_speed(spec, &w, gpu, &replica_topo, &SpeedSettings::default());
    let (efficiency, peak) = (est.decode_efficiency, est.peak_tflops);
    let replicas = fit.replicas.max(1);
    if let (Some(served), Some(users)) = (fit.served_tokens_per_s, fit.users_capacity) {
        // The capacity is the replicas' batches together.
        let batch = users / replicas;
        if let Some((m, c, x)) = step_ms(spec, &Workload { batch, ..w }, setup, batch) {
            out.push(
                Basis::new(key(k, "served_tokens_per_s"), "serving-throughput", served, "tokens/s")
                    .substituted(format!(
                        "{replicas} × {batch} / ({m:.2} ms + {c:.2} ms + {x:.2} ms) = {} tokens/s (TP {} × PP {} per replica; B = the most users each served at the target)",
                        num(served, 0, ""),
                        fit.tp,
                        fit.pp
                    ))
                    .input("replicas", f64::from(replicas), "", "GPUs / (TP × PP)")
                    .input("B", f64::from(batch), "", "users at the per-user target per replica")
                    .input("η", efficiency, "", "engine, weight format and memory type")
                    .input("bandwidth", gpu.memory_bandwidth_gbs, "GB/s", gpu.id.to_string()),
            );
        }
    }
    if let Some(per_user) = fit.per_user_tokens_per_s
        && let Some((m, c, x)) = step_ms(spec, &Workload { batch: fit.batch, ..w }, setup, fit.batch)
    {
        out.push(
            Basis::new(key(k, "per_user_tokens_per_s"), "speed-decode", per_user, "tokens/s")
                .substituted(format!(
                    "1 / ({m:.2} ms + {c:.2} ms + {x:.2} ms) = {} tokens/s per user at batch {} (the requested users over {replicas} replicas)",
                    num(per_user, 1, ""),
                    fit.batch
                ))
                .input("b", f64::from(fit.batch), "", "users / replicas")
                .input("η", efficiency, "", "engine, weight format and memory type")
                .input("bandwidth", gpu.memory_bandwidth_gbs, "GB/s", gpu.id.to_string())
                .input("peak", peak, "TFLOPS", gpu.id.to_string()),
        );
    }
    out
}

/// Training: the fit bases of the same estimate (`fit.train_tokens_per_s`, `fit.train_hours`)
/// under the candidate's keys.
fn training(k: usize, spec: &ModelSpec, w: Workload, req: &WorkloadReq, setup: &GpuSetup<'_>) -> Vec<Basis> {
    let gpus = setup.total().max(1);
    let Ok(estimate) = memory::estimate(spec, &w, gpus) else { return Vec::new() };
    let check = memory::check_estimate_on(&estimate, &w, setup.gpu);
    let settings = SpeedSettings { tokens: req.train_tokens, ..SpeedSettings::default() };
    let s = speed::estimate_speed(spec, &w, setup.gpu, &setup.topology, &settings);
    let fit = basis::fit::of_fit(&basis::fit::FitInputs {
        spec,
        workload: &w,
        gpu: Some((setup.gpu, &setup.topology)),
        settings: &settings,
        estimate: &estimate,
        check: Some(&check),
        speed: Some(&s),
        serving: None,
        site: None,
    });
    fit.into_iter()
        .filter_map(|mut b| {
            let field = match b.figure.as_str() {
                "fit.train_tokens_per_s" => "train_tokens_per_s",
                "fit.train_hours" => "hours",
                _ => return None,
            };
            b.figure = key(k, field);
            Some(b)
        })
        .collect()
}
