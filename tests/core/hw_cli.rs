//! `rigplan report --json` and `rigplan check` on builds over the fixture catalog.

use crate::cli::run;
use crate::hw_fixture::{sources, workstation_with};
use rigplan::core::persist::save_build;

fn fixture_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (kind, _, text) in sources() {
        std::fs::write(dir.path().join(kind.file_name()), text).expect("write catalog file");
    }
    dir
}

#[test]
fn report_json_has_the_documented_fields() {
    let cat = fixture_dir();
    let file = cat.path().join("ws.ron");
    save_build(&file, &workstation_with(&[])).expect("save");
    let (code, out, err) =
        run(&["report", file.to_str().expect("utf-8"), "--json", "--catalog", cat.path().to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let power = &v["power"];
    for key in [
        "idle_watts",
        "typical_watts",
        "max_watts",
        "peak_transient_watts",
        "wall_idle_watts",
        "wall_typical_watts",
        "wall_watts",
        "psu_load_fraction",
        "recommended_psu_watts",
    ] {
        assert!(power[key].is_number(), "power.{key}: {}", power[key]);
        assert!(power["nodes"][0][key].is_number(), "power.nodes[0].{key}");
    }
    assert!((power["max_watts"].as_f64().unwrap_or_default() - 745.0).abs() < 1e-6);
    let thermal = &v["thermal"];
    assert!(thermal["heat_watts"].is_number() && thermal["heat_btu_per_hour"].is_number());
    let gpu = &thermal["nodes"][0]["gpus"][0];
    assert!(gpu["estimated_temp_c"].is_number() && gpu["headroom_c"].is_number());
    assert_eq!(v["compat"]["layouts"][0]["cards"][0]["position"], 1);
    assert!(v["diagnostics"].as_array().is_some_and(Vec::is_empty));
    // Text report shows the sections.
    let (code, out, _) =
        run(&["report", file.to_str().expect("utf-8"), "--catalog", cat.path().to_str().expect("utf-8")]);
    assert_eq!(code, 0);
    assert!(out.contains("Power (") && out.contains("Thermal (") && out.contains("recommended PSU"), "{out}");
}

#[test]
fn check_exit_codes() {
    let cat = fixture_dir();
    let dir = cat.path().to_str().expect("utf-8");
    let good = cat.path().join("good.ron");
    save_build(&good, &workstation_with(&[])).expect("save");
    let bad = cat.path().join("bad.ron");
    save_build(&bad, &workstation_with(&[("cpu/t-epyc", 1)])).expect("save");
    let (code, out, _) = run(&["check", good.to_str().expect("utf-8"), "--catalog", dir]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = run(&["check", bad.to_str().expect("utf-8"), "--json", "--catalog", dir]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let d = v.as_array().and_then(|a| a.iter().find(|d| d["code"] == "cpu-socket-mismatch")).expect("finding");
    assert_eq!(d["severity"], "error");
    assert!(d["message"].is_string() && d["parts"].is_array());
    // A warning alone does not fail the check.
    let warn = cat.path().join("warn.ron");
    save_build(&warn, &workstation_with(&[("memory/t-ddr5-64", 1)])).expect("save");
    let (code, _, _) = run(&["check", warn.to_str().expect("utf-8"), "--catalog", dir]);
    assert_eq!(code, 0);
    let (code, _, _) = run(&["check", "/nonexistent/build.ron", "--catalog", dir]);
    assert_eq!(code, 2);
    // The global option before the subcommand, as the README writes it.
    let (code, out, err) = run(&["--catalog", dir, "check", bad.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}{err}");
}
