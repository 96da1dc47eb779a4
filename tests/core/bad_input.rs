//! The bad-input corpus (`tests/fixtures/bad/`): every malformed build file and user catalog
//! folder is refused by `rigplan check`, `report` and `catalog validate` (and the other commands
//! that read a build: `tco`, `export`, `compare`, `fit --build`) with exit code 2 and a
//! message that says what is wrong and where (`file:line:col` where the parser knows it, the
//! field path otherwise). Each file runs in-process through `main_with_args` and once through
//! the real binary, where a panic, a stack overflow or an abort would show as a signal or a
//! different exit code. Inputs too large to commit (files over the size limit, a 10,000-group
//! build, a million-deep nesting) are generated here, and every template is truncated at every
//! byte.
//!
//! Unknown part ids are *not* bad input: a build keeps them and the analyses warn
//! (`tests/fixtures/unknown-ids/`).

use crate::cli::run;
use rigplan::core::build::{
    Build, Location, MAX_LINES, MAX_NODE_GROUPS, MAX_PRICE_OVERRIDES, MAX_TOTAL_NODES, NodeGroup, PartLine,
    PriceOverride,
};
use rigplan::core::catalog::{Catalog, EMBEDDED_FILES, MAX_CATALOG_FILE_BYTES, PartId, PartKind};
use rigplan::core::persist::{
    BuildFileError, MAX_BUILD_FILE_BYTES, MAX_LISTED_PROBLEMS, build_to_string, load_build, parse_build_bytes,
    parse_build_str, save_build,
};
use rigplan::core::templates::TEMPLATES;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn utf8(p: &Path) -> &str {
    p.to_str().expect("fixture paths are UTF-8")
}

/// A malformed build file and what its error must say. `at` is the `line:col` the parser
/// reports (`None` where the problem is not at one place: limits, versions, empty files);
/// `says` is the part of the message that names the problem (a field path for limit checks).
struct BuildCase {
    file: &'static str,
    at: Option<&'static str>,
    says: &'static str,
}

const fn case(file: &'static str, at: Option<&'static str>, says: &'static str) -> BuildCase {
    BuildCase { file, at, says }
}

/// Every file in `tests/fixtures/bad/build/`, with the position and text of its error.
const BUILD_CASES: &[BuildCase] = &[
    // Empty and not text.
    case("empty.ron", None, "the file is empty"),
    case("whitespace-only.ron", None, "the file is empty"),
    case("comment-only.ron", Some("1:43"), "Expected opening `(` for struct `BuildFile`"),
    case("binary-junk.bin", Some("1:1"), "not UTF-8 text"),
    case("invalid-utf8-in-name.ron", Some("4:20"), "not UTF-8 text"),
    case("utf16-with-bom.ron", Some("1:1"), "not UTF-8 text"),
    case("nul-bytes.ron", Some("3:1"), "Expected identifier"),
    // Truncated.
    case("truncated-after-open-paren.ron", Some("1:2"), "Unexpected end of RON"),
    case("truncated-mid-key.ron", Some("2:5"), "Expected colon"),
    case("truncated-after-version.ron", Some("2:16"), "Unexpected end of RON"),
    case("truncated-mid-string.ron", Some("4:15"), "Expected end of string"),
    case("truncated-mid-parts-list.ron", Some("10:72"), "Unexpected end of RON"),
    case("truncated-mid-number.ron", Some("18:34"), "Expected comma"),
    case("truncated-before-last-paren.ron", Some("25:7"), "Unexpected end of RON"),
    case("truncated-inside-utf8-char.ron", Some("5:26"), "not UTF-8 text"),
    case("unclosed-string.ron", Some("7:24"), "Expected comma"),
    // Not a build file at all.
    case("json-instead-of-ron.json", Some("1:1"), "Expected opening `(` for struct `BuildFile`"),
    case("top-level-list.ron", Some("1:1"), "Expected opening `(` for struct `BuildFile`"),
    case("top-level-string.ron", Some("1:1"), "Expected opening `(` for struct `BuildFile`"),
    case("trailing-garbage.ron", Some("26:2"), "Non-whitespace trailing characters"),
    case("two-documents.ron", Some("26:2"), "Non-whitespace trailing characters"),
    // Wrong types, missing and repeated fields.
    case("wrong-type-count-string.ron", Some("8:23"), "Expected integer"),
    case("wrong-type-quantity-float.ron", Some("10:70"), "Expected comma"),
    case("wrong-type-nodes-not-list.ron", Some("5:15"), "Expected opening `[`"),
    case("wrong-type-version-string.ron", Some("2:13"), "Expected integer"),
    case("wrong-type-currency-number.ron", Some("16:22"), "Expected string"),
    case("wrong-type-part-id-number.ron", Some("11:27"), "Expected string"),
    case("duplicate-field.ron", Some("5:9"), "duplicate field named `name` in `Build`"),
    case("build-missing-name.ron", Some("24:5"), "missing field named `name` in `Build`"),
    // Unknown fields and variants.
    case("unknown-field-top-level.ron", Some("3:5"), "Unexpected field named `author` in `BuildFile`"),
    case("unknown-field-in-node.ron", Some("9:17"), "Unexpected field named `gpus` in `NodeGroup`"),
    case("unknown-field-in-site.ron", Some("20:13"), "Unexpected field named `voltage` in `Site`"),
    case("unknown-redundancy-variant.ron", Some("9:33"), "Unexpected variant named `NPlusTwo` in enum `Redundancy`"),
    // Quantities and node counts.
    case("negative-quantity.ron", Some("11:64"), "Integer is out of bounds"),
    case("quantity-overflows-u32.ron", Some("11:63"), "Integer is out of bounds"),
    case("zero-quantity.ron", None, "build.nodes[0].parts[1].quantity: 0 of `cpu/amd-ryzen-9-7950x` is outside 1–1024"),
    case("huge-quantity.ron", None, "build.nodes[0].parts[1].quantity: 1000000 of `cpu/amd-ryzen-9-7950x` is outside"),
    case("zero-node-count.ron", None, "build.nodes[0].count: 0 is outside 1–1024"),
    case("huge-node-count.ron", None, "build.nodes[0].count: 5000 is outside 1–1024"),
    case("ten-thousand-nodes.ron", None, "build.nodes: 10000 nodes in all; the limit is 4096"),
    case("no-nodes.ron", None, "build.nodes: a build needs at least one node"),
    case("empty-part-id.ron", None, "build.nodes[0].parts[1].part: the part id is empty"),
    case("more-slots-than-units.ron", None, "build.nodes[0].parts[0].slots: 3 slots for 1 units"),
    case("name-too-long.ron", None, "build.name: 5000 characters; the limit is 4096"),
    case("price-override-note-too-long.ron", None, "build.price_overrides[0].note: 5000 characters; the limit is 4096"),
    // Non-finite and out-of-range numbers.
    case("nan-electricity-price.ron", None, "build.site.electricity_per_kwh: NaN is not a finite number"),
    case("infinite-pue.ron", None, "build.site.pue: inf is not a finite number"),
    case("negative-infinite-ambient.ron", None, "build.site.ambient_c: -inf is not a finite number"),
    case("float-overflows-to-infinity.ron", None, "build.site.usd_exchange_rate: inf is not a finite number"),
    case("nan-custom-line-amount.ron", None, "build.custom_lines[0].amount: NaN is not a finite number"),
    case("negative-price-override.ron", None, "build.price_overrides[0].unit_price: -1599 is outside"),
    case("pue-below-one.ron", None, "build.site.pue: 0.5 is outside 1–3"),
    case("utilization-above-one.ron", None, "build.usage.utilization: 7 is outside 0–1"),
    case("lowercase-currency.ron", None, "build.site.currency: `usd` is not a three-letter ISO 4217 code"),
    case("two-phase-circuit.ron", None, "build.site.circuit_phases: 2 must be 1 or 3"),
    // Versions.
    case("future-version.ron", None, "the file is version 2, newer than this rigplan reads (up to 1)"),
    case("far-future-version.ron", None, "the file is version 4294967295, newer than this rigplan reads"),
    case("version-zero.ron", None, "version 0 is not a rigplan build file version"),
    case("negative-version.ron", Some("2:15"), "Integer is out of bounds"),
    case("missing-version.ron", None, "the file has no `version`"),
    // Nesting.
    case("deeply-nested-lists.ron", Some("5:46"), "the file nests deeper than 64 levels"),
    case("deeply-nested-option.ron", Some("11:293"), "the file nests deeper than 64 levels"),
];

/// A malformed user catalog folder: the file in it, and the position and text of its problem.
struct CatalogCase {
    dir: &'static str,
    file: &'static str,
    at: Option<&'static str>,
    says: &'static str,
}

const fn cat(dir: &'static str, file: &'static str, at: Option<&'static str>, says: &'static str) -> CatalogCase {
    CatalogCase { dir, file, at, says }
}

/// Every folder in `tests/fixtures/bad/catalog/`. Each holds one `<kind>.ron` with one defect
/// in an otherwise valid entry (the entries of `tests/fixtures/catalog-good/`, which validate
/// clean). Semantic problems point at the entry's `id` and name the field.
const CATALOG_CASES: &[CatalogCase] = &[
    cat("empty-file", "gpu.ron", Some("1:1"), "Expected opening `[`"),
    cat("not-a-list", "gpu.ron", Some("1:1"), "Expected opening `[`"),
    cat("truncated", "gpu.ron", Some("13:38"), "Unexpected end of RON"),
    cat("truncated-inside-utf8-char", "gpu.ron", Some("4:29"), "is not valid UTF-8 text"),
    cat("invalid-utf8", "cpu.ron", Some("4:24"), "is not valid UTF-8 text"),
    cat("binary-junk", "gpu.ron", Some("1:1"), "is not valid UTF-8 text"),
    cat("deeply-nested", "gpu.ron", Some("1:2"), "Expected opening `(` for struct `Gpu`"),
    cat("deeply-nested-interconnect", "gpu.ron", Some("24:47"), "Expected integer"),
    cat("wrong-type", "gpu.ron", Some("11:20"), "Expected float"),
    cat("negative-integer", "gpu.ron", Some("20:22"), "Integer is out of bounds"),
    cat("unknown-field", "gpu.ron", Some("15:9"), "Unexpected field named `tflops` in `Gpu`"),
    cat("unknown-enum-variant", "gpu.ron", Some("18:22"), "Unexpected variant named `Pcie7` in enum `GpuFormFactor`"),
    cat("unknown-part-kind", "gpu.ron", Some("3:13"), "widget/fixture-card: id must start with `gpu/`"),
    cat("wrong-kind-prefix", "gpu.ron", Some("3:13"), "cpu/fixture-card: id must start with `gpu/`"),
    cat("bad-id-slug", "gpu.ron", Some("3:13"), "gpu/Fixture Card: id slug may only use"),
    cat("duplicate-ids", "gpu.ron", Some("30:13"), "duplicate id `gpu/fixture-card` (first defined at"),
    cat("nan-value", "gpu.ron", Some("3:13"), "gpu/fixture-card: tdp_watts is NaN; it must be a finite number"),
    cat("infinite-value", "gpu.ron", Some("3:13"), "memory_bandwidth_gbs is inf; it must be a finite number"),
    cat("negative-value", "gpu.ron", Some("3:13"), "tdp_watts = -450 is outside the plausible range"),
    // Extreme numbers print in scientific notation, not as 31 digits.
    cat("huge-value", "gpu.ron", Some("3:13"), "memory_gib = 1e30 is outside the plausible range 1–1024 GiB"),
    cat("zero-value", "gpu.ron", Some("3:13"), "fp32_tflops = 0 is outside the plausible range"),
    cat("idle-above-tdp", "gpu.ron", Some("3:13"), "idle_watts 20 is not below tdp_watts 15"),
    cat("pcie-card-without-length", "gpu.ron", Some("3:13"), "PCIe cards need length_mm"),
    cat("module-with-slot-width", "gpu.ron", Some("3:13"), "SXM5 modules take no expansion slots"),
    cat("price-without-date", "gpu.ron", Some("3:13"), "price_usd needs a price_date"),
    cat("bad-price-date", "gpu.ron", Some("3:13"), "price_date `October 2022` is not YYYY-MM or YYYY-MM-DD"),
    cat("empty-source", "gpu.ron", Some("3:13"), "source is empty"),
    cat("threads-below-cores", "cpu.ron", Some("3:13"), "threads 8 is below cores 16"),
    // Every numeric field has a range (issue 18: these leaked NaN, "~inf °C" and "PSU: NaN W").
    cat("board-nan-typical-watts", "motherboard.ron", Some("3:13"), "typical_watts is NaN; it must be a finite number"),
    cat(
        "board-huge-typical-watts",
        "motherboard.ron",
        Some("3:13"),
        "typical_watts = 1e308 is outside the plausible range",
    ),
    cat(
        "board-negative-typical-watts",
        "motherboard.ron",
        Some("3:13"),
        "typical_watts = -40 is outside the plausible range",
    ),
    cat(
        "system-zero-airflow",
        "system.ron",
        Some("3:13"),
        "airflow_cfm = 0 is outside the plausible range 1–20000 CFM",
    ),
    cat("system-nan-airflow", "system.ron", Some("3:13"), "airflow_cfm is NaN; it must be a finite number"),
    cat("system-nan-psu-watts", "system.ron", Some("3:13"), "psu_rated_watts is NaN; it must be a finite number"),
    cat("system-zero-gpu-count", "system.ron", Some("3:13"), "gpus.count = 0 is outside 1–64"),
    cat(
        "system-gpu-does-not-resolve",
        "system.ron",
        Some("3:13"),
        "gpus refers to `gpu/nvidia-h100-sxm9-80gb`, which is not a GPU in the catalog",
    ),
    cat(
        "chassis-psu-does-not-resolve",
        "chassis.ron",
        Some("3:13"),
        "included_psus refers to `psu/supermicro-9999w-module`, which is not a PSU in the catalog",
    ),
    cat(
        "chassis-psu-is-a-gpu",
        "chassis.ron",
        Some("3:13"),
        "included_psus refers to `gpu/nvidia-geforce-rtx-4090`, which is not a PSU in the catalog",
    ),
    cat("cooler-socket-does-not-resolve", "cooler.ron", Some("3:13"), "sockets `AM7` is not a socket of any CPU"),
    cat(
        "board-socket-does-not-resolve",
        "motherboard.ron",
        Some("3:13"),
        "socket `LGA9999` is not a socket of any CPU",
    ),
    cat("board-duplicate-slot-position", "motherboard.ron", Some("3:13"), "two PCIe slots at position 1"),
    cat(
        "cloud-gpu-does-not-resolve",
        "clouds.ron",
        Some("3:13"),
        "gpu `gpu/nvidia-h900-sxm9` is not a GPU in the parts catalog",
    ),
    cat("cloud-gpu-is-a-cpu", "clouds.ron", Some("3:13"), "gpu `cpu/amd-epyc-9654` is not a GPU id"),
    cat("cloud-nan-price", "clouds.ron", Some("3:13"), "on_demand_per_hour = NaN is outside the plausible range"),
    cat("cloud-zero-gpus", "clouds.ron", Some("3:13"), "gpus_per_instance = 0 is outside 1–64"),
    cat("cloud-truncated", "clouds.ron", Some("8:17"), "Expected end of string"),
    cat("model-zero-layers", "models.ron", Some("3:13"), "model/fixture-decoder: layers = 0 is outside 1–1000"),
    cat("model-nan-params", "models.ron", Some("3:13"), "published_params = NaN is outside"),
    // Dimensions are bounded and the count is computed without wrapping (it came out as 9e9).
    cat("model-overflowing-experts", "models.ron", Some("3:13"), "moe.experts = 4000000000 is outside 1–4096"),
    cat("model-too-many-params", "models.ron", Some("3:13"), "parameters, above the limit of 1e14"),
    cat("model-heads-do-not-divide-hidden", "models.ron", Some("3:13"), "hidden 4096 is not a multiple of heads 30"),
    cat(
        "model-unknown-architecture",
        "models.ron",
        Some("9:23"),
        "Unexpected variant named `Mamba` in enum `Architecture`",
    ),
];

/// The text an error must contain: `path:line:col: ` where the parser knows the position,
/// else `path: `.
fn expected_prefix(path: &Path, at: Option<&str>) -> String {
    match at {
        Some(at) => format!("{}:{at}: ", path.display()),
        None => format!("{}: ", path.display()),
    }
}

fn sorted_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn every_fixture_is_listed_and_the_corpus_is_large_enough() {
    let mut listed: Vec<String> = BUILD_CASES.iter().map(|c| c.file.to_owned()).collect();
    listed.sort();
    assert_eq!(sorted_names(&fixtures().join("bad/build")), listed, "tests/fixtures/bad/build vs BUILD_CASES");
    let mut listed: Vec<String> = CATALOG_CASES.iter().map(|c| c.dir.to_owned()).collect();
    listed.sort();
    assert_eq!(sorted_names(&fixtures().join("bad/catalog")), listed, "tests/fixtures/bad/catalog vs CATALOG_CASES");
    for c in CATALOG_CASES {
        assert_eq!(sorted_names(&fixtures().join("bad/catalog").join(c.dir)), vec![c.file.to_owned()], "{}", c.dir);
    }
    assert!(BUILD_CASES.len() + CATALOG_CASES.len() >= 40);
}

#[test]
fn bad_build_files_exit_2_with_what_and_where() {
    for c in BUILD_CASES {
        let path = fixtures().join("bad/build").join(c.file);
        let prefix = expected_prefix(&path, c.at);
        for args in [["check", utf8(&path), "--json"], ["report", utf8(&path), "--json"]] {
            for args in [&args[..2], &args[..]] {
                let (code, out, err) = run(args);
                assert_eq!(code, 2, "{args:?}: {err}");
                assert!(out.is_empty(), "{args:?}: nothing on stdout for bad input, got {out}");
                assert!(err.contains(&prefix), "{}: expected `{prefix}` in:\n{err}", c.file);
                assert!(err.contains(c.says), "{}: expected `{}` in:\n{err}", c.file, c.says);
            }
        }
        // The other commands that read a build file refuse it the same way.
        let good = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/v1/minimal.ron");
        let bad = utf8(&path);
        for args in [
            vec!["tco", bad],
            vec!["export", "--format", "json", bad],
            vec!["compare", utf8(&good), bad],
            vec!["fit", "--model", "meta-llama-3.1-8b", "--build", bad],
        ] {
            let (code, out, err) = run(&args);
            assert_eq!(code, 2, "{args:?}: {err}");
            assert!(out.is_empty() && err.contains(&prefix) && err.contains(c.says), "{args:?}: {err}");
        }
        // The error is the same through the library, as the app shows it.
        let message = load_build(&path).expect_err(c.file).to_string();
        assert!(message.starts_with(&prefix) && message.contains(c.says), "{}: {message}", c.file);
    }
}

/// The real binary: a panic would exit 101 and a stack overflow or abort would end in a
/// signal (no exit code), so exit code 2 with the message proves neither happened.
#[test]
fn bad_build_files_exit_2_as_a_real_process() {
    for c in BUILD_CASES {
        let path = fixtures().join("bad/build").join(c.file);
        let output = Command::new(env!("CARGO_BIN_EXE_rigplan")).arg("check").arg(&path).output().expect("runs");
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{}: {:?} {err}", c.file, output.status);
        assert!(err.contains(c.says) && !err.contains("panicked"), "{}: {err}", c.file);
    }
}

#[test]
fn bad_catalog_folders_exit_2_with_what_and_where() {
    let template = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog/builds/entry-workstation.ron");
    for c in CATALOG_CASES {
        let dir = fixtures().join("bad/catalog").join(c.dir);
        let prefix = expected_prefix(&dir.join(c.file), c.at);
        let (code, out, _) = run(&["catalog", "validate", utf8(&dir)]);
        assert_eq!(code, 2, "{}: {out}", c.dir);
        assert!(
            out.lines().any(|l| l.starts_with(&prefix) && l.contains(c.says)),
            "{}: expected `{prefix}…{}` in:\n{out}",
            c.dir,
            c.says
        );
        assert!(out.contains(" checked: ") && !out.contains(" 0 error(s)"), "{}: {out}", c.dir);
        // JSON: the same problem, structured.
        let (code, out, _) = run(&["catalog", "validate", utf8(&dir), "--json"]);
        assert_eq!(code, 2);
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        assert!(v["errors"].as_u64().is_some_and(|n| n >= 1), "{}: {v}", c.dir);
        // A report or check with that catalog is bad input too, and says why.
        for sub in ["report", "check"] {
            let (code, out, err) = run(&["--catalog", utf8(&dir), sub, utf8(&template)]);
            assert_eq!(code, 2, "{} {sub}: {err}", c.dir);
            assert!(out.is_empty());
            assert!(err.contains(&prefix) && err.contains(c.says), "{} {sub}: {err}", c.dir);
        }
        let output =
            Command::new(env!("CARGO_BIN_EXE_rigplan")).args(["catalog", "validate"]).arg(&dir).output().expect("runs");
        assert_eq!(output.status.code(), Some(2), "{}: {:?}", c.dir, output.status);
        assert!(String::from_utf8_lossy(&output.stdout).contains(c.says), "{}", c.dir);
    }
}

#[test]
fn the_catalog_corpus_starts_from_entries_that_validate() {
    let dir = fixtures().join("catalog-good");
    let (code, out, _) = run(&["catalog", "validate", utf8(&dir), "--json"]);
    assert_eq!(code, 0, "{out}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["errors"], 0);
    let embedded = Catalog::embedded().expect("catalog");
    assert_eq!(v["parts"].as_u64(), Some(embedded.len() as u64 + 7), "the seven fixture parts are added");
    assert_eq!(v["cloud_offers"].as_u64(), Some(embedded.clouds.len() as u64 + 1), "and the fixture cloud offer");
    assert_eq!(v["models"].as_u64(), Some(embedded.models.len() as u64 + 1), "and the fixture model");
    let problems = v["problems"].as_array().expect("problems");
    assert!(problems.iter().all(|p| !p["file"].as_str().unwrap_or("").contains("catalog-good")), "{v}");
}

#[test]
fn a_catalog_path_that_is_not_a_folder_is_bad_input() {
    let file = fixtures().join("catalog-good/gpu.ron");
    let (code, out, _) = run(&["catalog", "validate", utf8(&file)]);
    assert_eq!(code, 2);
    assert!(out.contains(&format!("{}: is not a folder", file.display())), "{out}");
    let (code, _, err) = run(&["catalog", "validate", "/nonexistent/catalog"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_misnamed_catalog_file_is_a_warning_not_silence() {
    let dir = fixtures().join("catalog-misnamed");
    let (code, out, _) = run(&["catalog", "validate", utf8(&dir)]);
    assert_eq!(code, 0, "{out}");
    let expected =
        format!("{}: warning: is not loaded: the catalog files are gpu.ron, cpu.ron,", dir.join("gpus.ron").display());
    assert!(out.contains(&expected), "{out}");
    let (cat, _) = Catalog::load_dir_overlay(&dir);
    assert!(cat.gpu(&PartId::from("gpu/fixture-card")).is_none(), "gpus.ron is not loaded");
}

/// Files over [`MAX_BUILD_FILE_BYTES`] are refused from their size, before a byte is parsed: the
/// oversized file below is a valid build padded with a comment, which would parse. At exactly
/// the limit it loads.
#[test]
fn files_over_the_size_limit_are_refused_before_parsing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let limit = usize::try_from(MAX_BUILD_FILE_BYTES).expect("fits");
    let mut text = build_to_string(&Build::new("Padded")).expect("serializes");
    text.push_str("// ");
    let pad = limit - text.len() - 1;
    text.extend(std::iter::repeat_n('x', pad));
    text.push('\n');
    assert_eq!(text.len(), limit);
    let at_limit = dir.path().join("at-limit.ron");
    std::fs::write(&at_limit, &text).expect("write");
    assert_eq!(load_build(&at_limit).expect("a file of exactly the limit loads").name, "Padded");

    text.insert(text.len() - 1, 'x');
    let over = dir.path().join("over-limit.ron");
    std::fs::write(&over, &text).expect("write");
    let err = load_build(&over).expect_err("over the limit");
    assert!(matches!(err, BuildFileError::TooLarge { size, .. } if size == MAX_BUILD_FILE_BYTES + 1), "{err}");
    let (code, _, err) = run(&["report", utf8(&over)]);
    assert_eq!(code, 2);
    assert!(err.contains("build files are limited to 8388608 bytes"), "{err}");
    assert!(matches!(parse_build_bytes("x", text.as_bytes()), Err(BuildFileError::TooLarge { .. })));

    // A 100 MB file (sparse: no disk used) is refused just as fast, by the real binary too.
    let huge = dir.path().join("huge.ron");
    std::fs::File::create(&huge).and_then(|f| f.set_len(100_000_000)).expect("sparse file");
    let output = Command::new(env!("CARGO_BIN_EXE_rigplan")).arg("check").arg(&huge).output().expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("the file is at least 100000000 bytes"));

    // Catalog files have the same guard.
    let cat_dir = dir.path().join("catalog");
    std::fs::create_dir(&cat_dir).expect("mkdir");
    std::fs::File::create(cat_dir.join("gpu.ron")).and_then(|f| f.set_len(MAX_CATALOG_FILE_BYTES + 1)).expect("sparse");
    let (code, out, _) = run(&["catalog", "validate", utf8(&cat_dir)]);
    assert_eq!(code, 2);
    assert!(out.contains("catalog files are limited to 8388608 bytes"), "{out}");
}

/// A device is not a file: `/dev/zero` (size 0, never ends) is refused for what it is before a
/// byte is read, as a build and as a catalog file behind a link. (Before the size guard,
/// `rigplan report /dev/zero` read until memory ran out.)
#[cfg(unix)]
#[test]
fn devices_are_refused_for_what_they_are() {
    let err = load_build(Path::new("/dev/zero")).expect_err("refused");
    assert!(matches!(err, BuildFileError::NotAFile { .. }), "{err}");
    assert_eq!(err.to_string(), "/dev/zero: is a character device, not a file");
    let dir = tempfile::tempdir().expect("temp dir");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("gpu.ron")).expect("symlink");
    let (code, out, _) = run(&["catalog", "validate", utf8(dir.path())]);
    assert_eq!(code, 2);
    assert!(out.contains("gpu.ron: is a character device, not a file"), "{out}");
}

/// Every template truncated at every byte (every third byte for the larger ones) is refused
/// with a position inside the truncated text; a cut inside a multi-byte character is an
/// encoding error at that character.
#[test]
fn truncated_templates_are_refused_with_a_position() {
    let mut checked = 0;
    for (t, template) in TEMPLATES.iter().enumerate() {
        let bytes = template.text.as_bytes();
        let step = if t == 0 { 1 } else { 3 };
        for cut in (0..bytes.len()).step_by(step) {
            let prefix = &bytes[..cut];
            if prefix.trim_ascii_end() == bytes.trim_ascii_end() {
                continue;
            }
            let err = parse_build_bytes("cut.ron", prefix).expect_err("a truncated build does not load");
            let lines = String::from_utf8_lossy(prefix).lines().count().max(1) + 1;
            match err {
                BuildFileError::Empty { .. } => assert!(prefix.trim_ascii().is_empty()),
                BuildFileError::Syntax { line, col, .. } | BuildFileError::NotUtf8 { line, col, .. } => {
                    assert!(line >= 1 && line <= lines && col >= 1, "{}@{cut}: {line}:{col} of {lines}", template.slug);
                }
                other => panic!("{}@{cut}: unexpected {other}", template.slug),
            }
            checked += 1;
        }
    }
    assert!(checked > 5_000, "{checked}");
    // Through the CLI too, for a sample of cuts.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("cut.ron");
    let text = TEMPLATES[0].text.as_bytes();
    for cut in (0..text.len() - 2).step_by(97) {
        std::fs::write(&path, &text[..cut]).expect("write");
        let (code, out, err) = run(&["check", utf8(&path)]);
        assert_eq!(code, 2, "cut at {cut}: {out}");
        assert!(err.contains(&format!("{}", path.display())), "{err}");
    }
}

#[test]
fn truncated_catalog_files_are_problems_with_a_position() {
    let (kind, text) = EMBEDDED_FILES[0];
    let bytes = text.as_bytes();
    let mut checked = 0;
    for cut in (1..bytes.len() - 4).step_by(bytes.len() / 250) {
        let Ok(prefix) = std::str::from_utf8(&bytes[..cut]) else { continue };
        let (_, problems) = Catalog::from_sources(&[(kind, "gpu.ron".to_owned(), prefix.to_owned())]);
        let first = problems.iter().find(|p| p.is_error() && p.file == "gpu.ron").expect("an error");
        assert!(first.line.is_some() && first.col.is_some(), "cut {cut}: {first}");
        checked += 1;
    }
    assert!(checked > 200, "{checked}");
}

/// Sizes past every limit, generated: 10,000 node groups, 513 part lines, 1,025 price
/// overrides. The message names each limit; the list of problems is capped.
#[test]
fn absurd_sizes_are_refused_with_the_limit() {
    let mut b = Build::new("Huge");
    b.nodes = (0..10_000).map(|i| NodeGroup::new(format!("n{i}"))).collect();
    let text = build_to_string(&b).expect("serializes");
    let err = parse_build_str("huge.ron", &text).expect_err("refused").to_string();
    assert!(err.contains(&format!("build.nodes: 10000 node groups; the limit is {MAX_NODE_GROUPS}")), "{err}");
    assert!(err.contains(&format!("build.nodes: 10000 nodes in all; the limit is {MAX_TOTAL_NODES}")), "{err}");

    let mut b = Build::new("Many lines");
    b.nodes[0].parts = (0..=MAX_LINES).map(|i| PartLine::new(format!("gpu/x{i}"), 1)).collect();
    let err = parse_build_str("lines.ron", &build_to_string(&b).expect("ok")).expect_err("refused").to_string();
    assert!(err.contains("build.nodes[0].parts: 513 part lines; the limit is 512"), "{err}");

    // Nine groups of 512 lines: each group is within its limit, the build is not.
    let mut b = Build::new("Many lines in all");
    let full: Vec<PartLine> = (0..MAX_LINES).map(|i| PartLine::new(format!("gpu/x{i}"), 1)).collect();
    b.nodes = (0..9)
        .map(|i| {
            let mut n = NodeGroup::new(format!("n{i}"));
            n.parts.clone_from(&full);
            n
        })
        .collect();
    let err = parse_build_str("all.ron", &build_to_string(&b).expect("ok")).expect_err("refused").to_string();
    assert!(err.contains("build: 4608 part lines in all; the limit is 4096"), "{err}");

    let mut b = Build::new("Many overrides");
    b.price_overrides = (0..=MAX_PRICE_OVERRIDES)
        .map(|i| PriceOverride { part: PartId::from(format!("gpu/x{i}")), unit_price: 1.0, note: String::new() })
        .collect();
    let err = parse_build_str("overrides.ron", &build_to_string(&b).expect("ok")).expect_err("refused").to_string();
    assert!(err.contains("build.price_overrides: 1025 overrides; the limit is 1024"), "{err}");

    // 100,000 bad lines: one message per problem would be megabytes; it is capped.
    let mut b = Build::new("Zeros");
    b.nodes[0].parts = (0..100_000).map(|_| PartLine::new("gpu/x", 0)).collect();
    let err = parse_build_str("zeros.ron", &build_to_string(&b).expect("ok")).expect_err("refused");
    let BuildFileError::Invalid { problems, .. } = &err else { panic!("{err}") };
    assert_eq!(problems.len(), MAX_LISTED_PROBLEMS + 1);
    // 100,000 quantities, 1 line-count limit, 1 whole-build line limit: 100,002 problems.
    assert_eq!(problems.last().map(String::as_str), Some("… and 99982 more problem(s)"));
    assert!(err.to_string().len() < 4_000, "{} bytes", err.to_string().len());
}

/// A million levels of nesting (2 MB) through the real binary: refused by the parser's
/// recursion limit, not a stack overflow.
#[test]
fn a_million_levels_of_nesting_do_not_overflow_the_stack() {
    let dir = tempfile::tempdir().expect("temp dir");
    let n = 1_000_000;
    let text = format!("(version: 1, build: (name: \"deep\", nodes: {}{}))", "[".repeat(n), "]".repeat(n));
    let path = dir.path().join("deep.ron");
    std::fs::write(&path, text).expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_rigplan")).arg("report").arg(&path).output().expect("runs");
    assert_eq!(output.status.code(), Some(2), "{:?}", output.status);
    assert!(String::from_utf8_lossy(&output.stderr).contains(":1:"), "{}", String::from_utf8_lossy(&output.stderr));
    let (_, problems) = Catalog::from_sources(&[(PartKind::Gpu, "gpu.ron".to_owned(), "[".repeat(n))]);
    assert!(problems.iter().any(|p| p.is_error() && p.line == Some(1)));
}

/// An unknown part id, or a part kind rigplan does not know, is kept: `report` exits 0 with an
/// `unknown-part` warning that names it, `check` exits by its findings (1 only for an error),
/// and a save writes the id back.
#[test]
fn unknown_part_ids_are_kept_and_reported_not_refused() {
    let cases = [
        ("unknown-gpu.ron", vec!["gpu/nvidia-geforce-rtx-9090"]),
        ("unknown-part-kind.ron", vec!["widget/flux-capacitor", "switch/acme-hyperfabric-9000"]),
    ];
    assert_eq!(sorted_names(&fixtures().join("unknown-ids")).len(), cases.len());
    let dir = tempfile::tempdir().expect("temp dir");
    for (file, ids) in cases {
        let path = fixtures().join("unknown-ids").join(file);
        let (code, out, err) = run(&["report", utf8(&path), "--json"]);
        assert_eq!(code, 0, "{file}: {err}");
        let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let diagnostics = report["diagnostics"].as_array().expect("diagnostics");
        for id in &ids {
            let d = diagnostics
                .iter()
                .find(|d| d["code"] == "unknown-part" && d["parts"][0] == *id)
                .unwrap_or_else(|| panic!("{file}: no unknown-part for {id}"));
            assert_eq!(d["severity"], "warning");
            let line = report["bom"]["lines"].as_array().expect("bom").iter().find(|l| l["part"] == *id);
            assert!(line.is_some_and(|l| l["kind"].is_null()), "{file}: {id} is listed in the bill, without a kind");
        }
        let errors = diagnostics.iter().filter(|d| d["severity"] == "error").count();
        let (code, out, _) = run(&["check", utf8(&path)]);
        assert_eq!(code, u8::from(errors > 0), "{file}: {out}");
        for id in &ids {
            assert!(out.contains(&format!("warning[unknown-part]: `{id}`")), "{file}: {out}");
        }
        let output = Command::new(env!("CARGO_BIN_EXE_rigplan")).arg("report").arg(&path).output().expect("runs");
        assert_eq!(output.status.code(), Some(0), "{file}");

        let build = load_build(&path).expect("loads");
        let copy = dir.path().join(file);
        save_build(&copy, &build).expect("saves");
        let text = std::fs::read_to_string(&copy).expect("reads");
        for id in &ids {
            assert!(text.contains(&format!("\"{id}\"")), "{file}: {id} written back");
        }
        assert_eq!(load_build(&copy).expect("reloads"), build);
    }
    // The edit operations keep unknown ids too.
    let mut b = Build::new("t");
    b.add_part(Location::Node(0), &PartId::from("widget/x"), 2).expect("adds");
    assert_eq!(b.nodes[0].parts[0], PartLine::new("widget/x", 2));
}

/// `--catalog DIR` may stand before the subcommand, as the README shows. (It used to be taken
/// for the FILE argument, which made the subcommand an error.) A FILE together with a
/// subcommand is refused with a message.
#[test]
fn the_catalog_option_goes_before_or_after_the_subcommand() {
    let dir = fixtures().join("catalog-good");
    let template = Path::new(env!("CARGO_MANIFEST_DIR")).join("catalog/builds/entry-workstation.ron");
    for args in [
        vec!["--catalog", utf8(&dir), "report", utf8(&template)],
        vec!["report", utf8(&template), "--catalog", utf8(&dir)],
        vec!["--catalog", utf8(&dir), "check", utf8(&template)],
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    let (code, out, _) = run(&["--catalog", utf8(&dir), "catalog", "list", "--kind", "gpu"]);
    assert_eq!(code, 0);
    assert!(out.contains("gpu/fixture-card"), "the user catalog is used");
    let (code, _, err) = run(&["plan.ron", "report", utf8(&template)]);
    assert_eq!(code, 2);
    assert!(err.contains("`plan.ron` is a build to open in the app and cannot be combined with a subcommand"), "{err}");
}
