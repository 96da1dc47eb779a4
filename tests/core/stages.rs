//! The hardware stage holds every error of the full report: a drop check or an advisor
//! candidate that runs only compatibility, power and thermal sees the same errors.

use crate::export::catalog;
use rigplan::core::analysis::{self, Severity};
use rigplan::core::resolve::Resolved;
use rigplan::core::templates;

#[test]
fn the_full_report_adds_no_error_to_the_hardware_stage() {
    let mut builds: Vec<_> = templates::TEMPLATES.iter().map(|t| t.load().expect("template")).collect();
    // Each template with its planned workload pointed at a model too big for it, so that the
    // workload findings fire too.
    for b in builds.clone() {
        let mut b = b;
        b.usage.workload = Some(rigplan::core::build::PlannedWorkload {
            model: "model/meta-llama-3.1-405b".to_owned(),
            workload: "full-ft-zero3".to_owned(),
            run_tokens: Some(1.0e9),
        });
        builds.push(b);
    }
    for b in &builds {
        let report = analysis::analyze(catalog(), b);
        let hardware = analysis::check_hardware(&Resolved::new(catalog(), b));
        let errors = |d: &[analysis::Diagnostic]| {
            d.iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| (d.code.clone(), d.message.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(errors(&report.diagnostics), errors(&hardware.diagnostics), "{}", b.name);
        assert!(report.diagnostics.len() >= hardware.diagnostics.len());
    }
}
