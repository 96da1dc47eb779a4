//! The counts and settings explain themselves (issue 15): the node and GPU counts of the
//! Summary tab and the status bar, the finding counts, the exchange rate and the Memory &
//! speed tab's GPU header show their bases on hover.

use crate::common::*;
use egui_kittest::kittest::Queryable;
use rigplan::core::analysis::basis;
use rigplan::core::templates::find;

type H = egui_kittest::Harness<'static, rigplan::gui::App>;

fn app(slug: &str) -> (H, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let b = find(slug).unwrap().load().unwrap();
    let (h, _) = app_with(&b, dir.path());
    (h, dir)
}

fn substituted(h: &H, figure: &str) -> String {
    basis::find(state(h).derived.report.basis(), figure).expect("the report explains it").substituted.clone()
}

#[test]
fn the_status_bar_explains_its_counts() {
    let (mut h, _dir) = app("entry-workstation");
    // One node of one RTX 4090: `1 (Workstation) = 1`.
    let nodes = substituted(&h, "nodes");
    assert!(nodes.ends_with("= 1"), "{nodes}");
    assert!(h.query_by_label_contains("count = findings of the severity").is_none(), "nothing before hovering");
    assert!(hover_shows(&mut h, "1 node · 1 GPU", &nodes), "the totals: {nodes}");
    assert!(h.query_by_label_contains("nodes = Σ node groups' counts").is_some(), "with the formula");
    assert!(hover_shows(&mut h, " warnings", "count = findings of the severity"), "the finding counts");
}

#[test]
fn the_memory_tab_header_and_the_exchange_rate_explain_themselves() {
    // Eight 80 GiB H100s priced in CNY at 7.2 per USD.
    let (mut h, _dir) = app("enterprise-8x-h100-hgx");
    let rate = substituted(&h, "bom.usd_exchange_rate");
    assert!(rate.starts_with("1 USD = 7.2"), "{rate}");
    assert!(hover_shows(&mut h, "per USD", &rate), "the exchange rate: {rate}");
    h.get_by_label("Memory & speed").click();
    h.run();
    let memory = substituted(&h, "fit[0].gpu_memory_bytes");
    assert!(memory.starts_with("80 GiB"), "{memory}");
    assert!(hover_shows(&mut h, "per node ×", &memory), "the GPU header: {memory}");
    assert!(h.query_by_label_contains("datasheet value").is_some());
    let per_node = substituted(&h, "fit[0].gpus_per_node");
    assert!(h.query_by_label_contains(&per_node).is_some(), "and the GPUs per node: {per_node}");
}

/// The Issues tab's count is every finding: its hover adds the errors, warnings and info up
/// (counted here from the report) and explains each count by its rule codes. The dual H100
/// workstation has two notes and nothing worse: "2 findings = 0 errors + 0 warnings + 2 info".
#[test]
fn the_issues_tab_explains_its_count() {
    use rigplan::core::analysis::Severity;
    let (mut h, _dir) = app("dual-h100-workstation");
    let report = &state(&h).derived.report;
    let total = report.diagnostics.len();
    let count = |s: Severity| report.diagnostics.iter().filter(|d| d.severity == s).count();
    let (errors, warnings, infos) = (count(Severity::Error), count(Severity::Warning), count(Severity::Info));
    assert_eq!((total, errors, warnings, infos), (2, 0, 0, 2));
    // The notes' count with its codes: `2 (code-a, code-b)`.
    let codes = substituted(&h, "diagnostics.infos");
    assert!(codes.starts_with("2 ("), "{codes}");
    let sum = format!("{total} findings = {errors} errors + {warnings} warnings + {infos} info");
    assert!(h.query_by_label_contains(&sum).is_none(), "nothing before hovering");
    let tab = format!("Issues ({total})");
    h.hover_at(h.get_by_label(&tab).rect().center());
    h.run();
    assert!(h.query_by_label_contains(&sum).is_some(), "{sum}");
    assert!(h.query_by_label_contains("count = findings of the severity").is_some(), "with the formula");
    assert!(h.query_by_label_contains(&codes).is_some(), "and a count's codes: {codes}");
    // A click still opens the tab.
    h.get_by_label(&tab).click();
    h.run();
    assert_eq!(state(&h).prefs.analysis_tab, rigplan::gui::vocab::AnalysisTab::Issues);
}
