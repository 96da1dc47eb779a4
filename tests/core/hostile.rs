//! Hostile input, round two (issue 18): what a red-team pass found outside the bad-input
//! corpus, one regression test per hole.
//!
//! - Special files: named pipes, devices and broken links are refused for what they are by
//!   every command that reads a path, and nothing hangs (run as real processes with a timeout
//!   that kills them, so a regression fails the test instead of hanging the suite).
//! - Writes: through symbolic links, never over a pipe, device or folder, never over an input
//!   of the command or a build file, keeping the mode and owner of the file replaced, and
//!   clearing stale temporaries of rigplan's naming.
//! - Numbers: command-line values out of range are refused with exit 2; catalogs whose numbers
//!   are mutated (NaN, infinities, negatives, zeros, 1e308, integers at their limits) either do
//!   not load or give reports and sheets without a non-finite number or a `null` where a
//!   number belongs (a property test over every catalog file).
//! - Text: control characters never reach the terminal raw; bare URLs and space-prefixed
//!   formulas stay inert in Markdown and CSV.
//! - Messages: one OS error once, folders named as folders, a byte order mark accepted, the
//!   user's catalog errors alone, a closed pipe ends the run quietly.

use crate::cli::run;
use crate::props::non_finite_floats;
use proptest::prelude::*;
use rigplan::core::analysis;
use rigplan::core::build::{Build, CostKind, CustomLine, Location};
use rigplan::core::catalog::{Catalog, CatalogProblem, EMBEDDED_FILES, EMBEDDED_MODELS, Models, PartId};
use rigplan::core::export::{self, BuildSheet, Format, SheetDate};
use rigplan::core::persist::{load_build, save_build};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn template(slug: &str) -> PathBuf {
    repo().join("catalog/builds").join(format!("{slug}.ron"))
}

fn utf8(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// A real `rigplan` process: exit code (None for a signal), stdout, stderr. One that has not
/// ended after `TIMEOUT` is killed and fails the test, so a command that hangs cannot hang the
/// suite.
fn run_process(args: &[&str]) -> (Option<i32>, String, String) {
    const TIMEOUT: Duration = Duration::from_secs(60);
    let dir = tempfile::tempdir().expect("temp dir");
    let (out_path, err_path) = (dir.path().join("out"), dir.path().join("err"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_rigplan"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"))
        .spawn()
        .expect("rigplan starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("status") {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("`rigplan {}` hung: killed after {TIMEOUT:?}", args.join(" "));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |p: &Path| String::from_utf8_lossy(&std::fs::read(p).expect("output")).into_owned();
    (status.code(), read(&out_path), read(&err_path))
}

#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
fn file_type(path: &Path) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    let t = std::fs::symlink_metadata(path).expect("exists").file_type();
    if t.is_fifo() {
        "fifo"
    } else if t.is_char_device() {
        "char device"
    } else if t.is_symlink() {
        "symlink"
    } else if t.is_file() {
        "file"
    } else {
        "other"
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Special files are refused, and nothing hangs

/// `mkfifo p.ron; rigplan check p.ron` used to wait forever for a writer; so did every other
/// command that reads a build, a FIFO catalog file, and `catalog validate`.
#[cfg(unix)]
#[test]
fn named_pipes_are_refused_by_every_command_without_hanging() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("p.ron");
    mkfifo(&fifo);
    let good = template("entry-workstation");
    let (p, g) = (utf8(&fifo), utf8(&good));
    let says = format!("{p}: is a named pipe (FIFO), not a file");
    for args in [
        vec!["check", p],
        vec!["report", p],
        vec!["tco", p],
        vec!["export", "--format", "csv", p],
        vec!["compare", g, p],
        vec!["fit", "--model", "meta-llama-3.1-8b", "--build", p],
    ] {
        let (code, out, err) = run_process(&args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(out.is_empty() && err.contains(&says), "{args:?}: {err}");
    }
    // A FIFO in a user catalog, under each file name the loader reads.
    for name in ["gpu.ron", "models.ron", "clouds.ron"] {
        let cat = tempfile::tempdir().expect("temp dir");
        let fifo = cat.path().join(name);
        mkfifo(&fifo);
        let says = format!("{}: is a named pipe (FIFO), not a file", fifo.display());
        let (code, out, _) = run_process(&["catalog", "validate", utf8(cat.path())]);
        assert_eq!(code, Some(2), "{name}: {out}");
        assert!(out.contains(&says), "{name}: {out}");
        let (code, _, err) = run_process(&["--catalog", utf8(cat.path()), "check", g]);
        assert_eq!(code, Some(2), "{name}: {err}");
        assert!(err.contains(&says), "{name}: {err}");
    }
    // The library refuses it the same way, as the app shows it.
    let err = load_build(&fifo).expect_err("a FIFO is not a build").to_string();
    assert_eq!(err, says);
}

/// A dangling or looping symbolic link in a user catalog used to be skipped in silence; as a
/// build file it said only "No such file".
#[cfg(unix)]
#[test]
fn broken_links_are_errors_not_silence() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::os::unix::fs::symlink(dir.path().join("missing.ron"), dir.path().join("gpu.ron")).expect("dangling link");
    std::os::unix::fs::symlink("cpu.ron", dir.path().join("cpu.ron")).expect("a link to itself");
    let (code, out, _) = run(&["catalog", "validate", utf8(dir.path())]);
    assert_eq!(code, 2, "{out}");
    for name in ["gpu.ron", "cpu.ron"] {
        let says = format!("{}: is a symbolic link that leads to no file", dir.path().join(name).display());
        assert!(out.contains(&says), "{name}: {out}");
    }
    let (code, _, err) = run(&["check", utf8(&dir.path().join("gpu.ron"))]);
    assert_eq!(code, 2);
    assert!(err.contains("gpu.ron: is a symbolic link that leads to no file"), "{err}");
    // A folder given as a build says so.
    let (code, _, err) = run(&["report", utf8(dir.path())]);
    assert_eq!(code, 2);
    assert!(err.contains("is a folder, not a file"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// 6–8. Writes

fn export_csv(build: &Path, output: &Path) -> (u8, String, String) {
    run(&["export", utf8(build), "--format", "csv", "--date", "2026-01-01", "-o", utf8(output)])
}

/// A copy of the entry template in `dir`, as `plan.ron`.
fn plan_in(dir: &Path) -> PathBuf {
    let plan = dir.join("plan.ron");
    std::fs::copy(template("entry-workstation"), &plan).expect("copy");
    plan
}

/// `rigplan export plan.ron --format csv -o plan.ron` replaced the build with CSV.
#[test]
fn exports_never_replace_an_input_or_a_build() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plan = plan_in(dir.path());
    let before = std::fs::read(&plan).expect("read");
    let (code, _, err) = export_csv(&plan, &plan);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("{}: is an input of this command", plan.display())), "{err}");
    // Another build file is not an input, but a build all the same.
    let other = dir.path().join("other.ron");
    std::fs::copy(template("dual-h100-workstation"), &other).expect("copy");
    let other_before = std::fs::read(&other).expect("read");
    let (code, _, err) = export_csv(&plan, &other);
    assert_eq!(code, 2);
    assert!(err.contains("is a rigplan build file; an export never replaces a build"), "{err}");
    #[cfg(unix)]
    {
        let alias = dir.path().join("alias.csv");
        std::os::unix::fs::symlink("plan.ron", &alias).expect("symlink");
        let (code, _, err) = export_csv(&plan, &alias);
        assert_eq!(code, 2);
        assert!(err.contains("alias.csv: is an input of this command"), "{err}");
    }
    let (code, _, err) = run(&["compare", utf8(&plan), utf8(&other), "-o", utf8(&other)]);
    assert_eq!(code, 2);
    assert!(err.contains("is an input of this command"), "{err}");
    // Nor a file of the user catalog the command read.
    let catalog = dir.path().join("catalog");
    std::fs::create_dir(&catalog).expect("mkdir");
    let gpu = catalog.join("gpu.ron");
    std::fs::copy(repo().join("tests/fixtures/catalog-good/gpu.ron"), &gpu).expect("copy");
    let args = ["--catalog", utf8(&catalog), "export", utf8(&plan), "--format", "md", "-o", utf8(&gpu)];
    let (code, _, err) = run(&args);
    assert_eq!(code, 2);
    assert!(err.contains("is an input of this command"), "{err}");
    assert_eq!(std::fs::read(&plan).expect("read"), before, "the build is untouched");
    assert_eq!(std::fs::read(&other).expect("read"), other_before);
    assert!(!dir.path().join("plan.ron.bak").exists());
    // An ordinary file is replaced as before.
    let sheet = dir.path().join("sheet.csv");
    std::fs::write(&sheet, "old").expect("write");
    assert_eq!(export_csv(&plan, &sheet).0, 0);
    assert!(std::fs::read_to_string(&sheet).expect("read").contains("RTX 4090"));
}

/// `-o` onto a symbolic link replaced the link, onto a device node replaced the device.
#[cfg(unix)]
#[test]
fn writes_go_through_links_and_never_replace_special_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plan = plan_in(dir.path());
    // Through a link to an existing file, and through a link to a file not yet there.
    let real = dir.path().join("real.csv");
    std::fs::write(&real, "old").expect("write");
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink("real.csv", &link).expect("symlink");
    assert_eq!(export_csv(&plan, &link).0, 0);
    assert_eq!(file_type(&link), "symlink");
    assert!(std::fs::read_to_string(&real).expect("read").contains("RTX 4090"));
    let ahead = dir.path().join("ahead.csv");
    std::os::unix::fs::symlink("new.csv", &ahead).expect("symlink");
    assert_eq!(export_csv(&plan, &ahead).0, 0);
    assert_eq!(file_type(&ahead), "symlink");
    assert!(dir.path().join("new.csv").is_file());
    // A build save through a link too: the link stays, the file it names is the build.
    let build_link = dir.path().join("plan-link.ron");
    std::os::unix::fs::symlink("plan.ron", &build_link).expect("symlink");
    let mut build = load_build(&plan).expect("loads");
    build.name = "Saved through a link".to_owned();
    save_build(&build_link, &build).expect("saves");
    assert_eq!(file_type(&build_link), "symlink");
    assert_eq!(load_build(&plan).expect("loads").name, "Saved through a link");

    // Never over a pipe or a device, directly or through a link.
    let fifo = dir.path().join("pipe.csv");
    mkfifo(&fifo);
    let (code, _, err) = export_csv(&plan, &fifo);
    assert_eq!(code, 2);
    assert!(
        err.contains("pipe.csv: cannot write: is a named pipe (FIFO); rigplan replaces only regular files"),
        "{err}"
    );
    assert_eq!(file_type(&fifo), "fifo");
    let to_fifo = dir.path().join("to-pipe.csv");
    std::os::unix::fs::symlink("pipe.csv", &to_fifo).expect("symlink");
    let (code, _, err) = export_csv(&plan, &to_fifo);
    assert_eq!(code, 2);
    assert!(err.contains("which is a named pipe (FIFO)"), "{err}");
    // A device node of our own (root can make one; elsewhere this part is skipped), never
    // the system's /dev/null, which a regression would replace.
    let dev = dir.path().join("null.csv");
    if Command::new("mknod").arg(&dev).args(["c", "1", "3"]).status().is_ok_and(|s| s.success()) {
        let (code, _, err) = export_csv(&plan, &dev);
        assert_eq!(code, 2);
        assert!(err.contains("is a character device; rigplan replaces only regular files"), "{err}");
        assert_eq!(file_type(&dev), "char device");
    }
    // A folder, with or without the trailing slash.
    let folder = dir.path().join("sheets");
    std::fs::create_dir(&folder).expect("mkdir");
    let (code, _, err) = export_csv(&plan, &folder);
    assert_eq!(code, 2);
    assert!(err.contains("sheets: cannot write: is a folder; give a file name inside it"), "{err}");
    let slash = format!("{}/", folder.display());
    let (code, _, err) = export_csv(&plan, Path::new(&slash));
    assert_eq!(code, 2);
    assert!(err.contains("names a folder; give a file name") && !err.contains("Not a directory"), "{err}");
}

/// A 0600 file became 0644 when an export or a save replaced it.
#[cfg(unix)]
#[test]
fn overwrites_keep_mode_and_owner() {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    let dir = tempfile::tempdir().expect("temp dir");
    let plan = plan_in(dir.path());
    let sheet = dir.path().join("sheet.csv");
    assert_eq!(export_csv(&plan, &sheet).0, 0);
    std::fs::set_permissions(&sheet, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    assert_eq!(export_csv(&plan, &sheet).0, 0);
    assert_eq!(std::fs::metadata(&sheet).expect("meta").mode() & 0o7777, 0o600);
    std::fs::set_permissions(&plan, std::fs::Permissions::from_mode(0o640)).expect("chmod");
    let build = load_build(&plan).expect("loads");
    save_build(&plan, &build).expect("saves");
    assert_eq!(std::fs::metadata(&plan).expect("meta").mode() & 0o7777, 0o640);
    // The owner, where this process may give files away (root: CI and the dev machine).
    if std::fs::metadata(&plan).expect("meta").uid() == 0 {
        std::os::unix::fs::chown(&sheet, Some(4242), Some(4343)).expect("chown");
        assert_eq!(export_csv(&plan, &sheet).0, 0);
        let meta = std::fs::metadata(&sheet).expect("meta");
        assert_eq!((meta.uid(), meta.gid(), meta.mode() & 0o7777), (4242, 4343, 0o600));
        std::os::unix::fs::chown(&plan, Some(4242), None).expect("chown");
        save_build(&plan, &build).expect("saves");
        assert_eq!(std::fs::metadata(&plan).expect("meta").uid(), 4242);
    }
}

/// 200 killed exports left 88 hidden temporary files (1.28 GB) behind.
#[cfg(target_os = "linux")]
#[test]
fn stale_temporaries_are_removed_on_the_next_write() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plan = plan_in(dir.path());
    let mut gone = Command::new("true").spawn().expect("spawns");
    let dead = gone.id();
    gone.wait().expect("ends");
    let mut alive = Command::new("sleep").arg("60").spawn().expect("spawns");
    let stale = [format!(".sheet.csv.tmp-{dead}-0"), format!(".plan.ron.bak.tmp-{dead}-12")];
    let kept = [format!(".other.csv.tmp-{}-3", alive.id()), ".notes.tmp-abc".to_owned(), "x.tmp-1".to_owned()];
    for name in stale.iter().chain(&kept) {
        std::fs::write(dir.path().join(name), "partial").expect("write");
    }
    assert_eq!(export_csv(&plan, &dir.path().join("sheet.csv")).0, 0);
    let _ = alive.kill();
    let _ = alive.wait();
    for name in &stale {
        assert!(!dir.path().join(name).exists(), "{name} is removed");
    }
    for name in &kept {
        assert!(dir.path().join(name).exists(), "{name} is kept: a running process's, or not of our naming");
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Command-line numbers

#[test]
fn command_line_numbers_out_of_range_are_refused() {
    let plan = template("entry-workstation");
    let p = utf8(&plan);
    let fit = ["fit", "--model", "meta-llama-3.1-8b", "--gpu", "nvidia-h100-sxm5-80gb"];
    let advise = ["advise", "--model", "meta-llama-3.1-8b"];
    let cases: Vec<(Vec<&str>, &str)> = vec![
        ([&fit[..], &["--mode", "train", "--tokens", "1e300"]].concat(), "--tokens: `1e300` is outside 1–1e16"),
        (vec!["fit", "--params", "1e30"], "--params: `1e30` is outside 100000–1e14"),
        (
            vec!["fit", "--params", "7e9", "--gpu", "nvidia-h100-sxm5-80gb", "--gpus", "-1"],
            "invalid value '-1' for '--gpus",
        ),
        ([&fit[..], &["--batch", "0"]].concat(), "invalid value '0' for '--batch"),
        ([&fit[..], &["--context", "4294967295"]].concat(), "invalid value '4294967295' for '--context"),
        (
            vec!["tco", p, "--tokens-per-second", "1e-308"],
            "--tokens-per-second 1e-308: must be between 0.001 and 1,000,000,000",
        ),
        (
            vec!["tco", p, "--tokens-per-second", "100", "--run-tokens", "1e300"],
            "--run-tokens 1e300: must be between 1 and 1e16",
        ),
        (vec!["tco", p, "--years", "-1"], "--years -1: the horizon must be between 0.25 and 15 years"),
        (vec!["compare", p, p, "--train-tokens", "1e300"], "--train-tokens: `1e300` is outside 1–1e16"),
        // The advisor checks every number of its requirement, and says extreme ones shortly.
        ([&advise[..], &["--budget", "1e300"]].concat(), "budget: 1e300 is outside 0–10¹²"),
        (
            [&advise[..], &["--budget", "2e4", "--tokens-per-user", "1e-308"]].concat(),
            "tokens_per_user: 1e-308 is outside",
        ),
        ([&advise[..], &["--budget", "2e4", "--users", "0"]].concat(), "users: 0 is outside 1–100,000"),
        ([&advise[..], &["--budget", "2e4", "--ambient", "nan"]].concat(), "site.ambient_c: NaN is outside"),
        (
            [&advise[..], &["--budget", "2e4", "--circuit", "1e300V:16A:1"]].concat(),
            "site.circuits.volts: 1e300 is outside",
        ),
        ([&advise[..], &["--budget", "2e4", "--max-nodes", "0"]].concat(), "filters.max_nodes: 0 is outside 1–64"),
        (
            [&advise[..], &["--budget", "2e4", "--years", "1e9"]].concat(),
            "horizon_years: 1000000000 is outside 0.25–15 years",
        ),
    ];
    for (args, says) in cases {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains(says), "{args:?}: expected `{says}` in {err}");
    }
    // At the bounds they are accepted, and the JSON holds numbers, not null.
    let (code, out, err) = run(&["tco", p, "--tokens-per-second", "1e9", "--run-tokens", "1e16", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    for key in ["owned_per_million_tokens", "primary_per_million_tokens", "owned_per_run", "run_hours"] {
        assert!(v["workload"][key].as_f64().is_some_and(f64::is_finite), "{key}: {}", v["workload"]);
    }
}

// ---------------------------------------------------------------------------------------------
// 9–10. Text that reaches a terminal, a spreadsheet or a Markdown viewer

/// A build whose names carry terminal escape sequences, a bare URL and a space-prefixed
/// formula.
fn hostile_build(dir: &Path) -> PathBuf {
    let mut build = load_build(&template("entry-workstation")).expect("loads");
    "Evil \u{1b}]0;pwned\u{7} \u{1b}[2J \u{9b}31m plan".clone_into(&mut build.name);
    "node \u{1b}]52;c;Y2xpcGJvYXJk\u{7}\r".clone_into(&mut build.nodes[0].name);
    build.custom_lines = vec![
        CustomLine { name: "  =1+1".to_owned(), amount: 10.0, quantity: 1, kind: CostKind::default() },
        CustomLine {
            name: "see https://evil.example/x www.evil.example".to_owned(),
            amount: 1.0,
            quantity: 1,
            kind: CostKind::default(),
        },
    ];
    let path = dir.join("evil.ron");
    save_build(&path, &build).expect("saves");
    path
}

#[test]
fn control_characters_never_reach_the_terminal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let evil = hostile_build(dir.path());
    let e = utf8(&evil);
    let raw = |s: &str| s.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\t' | '\r'));
    for args in [
        vec!["report", e],
        vec!["check", e],
        vec!["tco", e],
        vec!["export", e, "--format", "csv"],
        vec!["export", e, "--format", "md"],
        vec!["report", e, "--json"],
    ] {
        let (_, out, err) = run(&args);
        assert!(!raw(&out) && !raw(&err), "{args:?}: a raw control character in\n{out:?}");
        if args == ["report", e] {
            assert!(out.contains("Evil \u{241b}]0;pwned\u{2407}"), "{args:?}: shown as control pictures:\n{out}");
        }
    }
    // CSV keeps its own line ends.
    let (_, out, _) = run(&["export", e, "--format", "csv"]);
    assert!(out.contains("\r\n") || !out.contains('\r'), "{out:?}");
    // A catalog part's name.
    let cat = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(repo().join("tests/fixtures/catalog-good/gpu.ron")).expect("read");
    std::fs::write(cat.path().join("gpu.ron"), text.replace("\"Fixture card\"", "\"Card \u{1b}[2J\"")).expect("write");
    let (code, out, _) = run(&["--catalog", utf8(cat.path()), "catalog", "list", "--kind", "gpu"]);
    assert_eq!(code, 0);
    assert!(out.contains("Card \u{241b}[2J") && !raw(&out), "{out}");
}

#[test]
fn markdown_links_and_spreadsheet_formulas_stay_inert() {
    let dir = tempfile::tempdir().expect("temp dir");
    let evil = hostile_build(dir.path());
    let (code, md, _) = run(&["export", utf8(&evil), "--format", "md"]);
    assert_eq!(code, 0);
    assert!(md.contains("see https\\://evil.example/x www\\.evil.example"), "{md}");
    assert!(!md.contains("https://evil") && !md.contains(" www.evil"), "{md}");
    let (code, csv, _) = run(&["export", utf8(&evil), "--format", "csv"]);
    assert_eq!(code, 0);
    assert!(csv.contains("'  =1+1") && !csv.contains(",  =1+1"), "{csv}");
}

// ---------------------------------------------------------------------------------------------
// 11. Messages

#[test]
fn messages_say_each_thing_once_and_plainly() {
    // The OS error once (it was printed as the message and again as its cause).
    let (code, _, err) = run(&["report", "/nonexistent/plan.ron"]);
    assert_eq!(code, 2);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
    // A byte order mark is accepted, in a build and in a catalog file.
    let dir = tempfile::tempdir().expect("temp dir");
    let bom = dir.path().join("bom.ron");
    let text = std::fs::read_to_string(template("entry-workstation")).expect("read");
    std::fs::write(&bom, format!("\u{feff}{text}")).expect("write");
    assert_eq!(
        load_build(&bom).expect("a BOM is skipped").name,
        load_build(&template("entry-workstation")).expect("loads").name
    );
    let cat = dir.path().join("catalog");
    std::fs::create_dir(&cat).expect("mkdir");
    let gpu = std::fs::read_to_string(repo().join("tests/fixtures/catalog-good/gpu.ron")).expect("read");
    std::fs::write(cat.join("gpu.ron"), format!("\u{feff}{gpu}")).expect("write");
    let (code, out, _) = run(&["catalog", "validate", utf8(&cat)]);
    assert_eq!(code, 0, "{out}");
    // One error in a user catalog is "1 error", not 19 problems with the built-in warnings.
    let bad = repo().join("tests/fixtures/bad/catalog/nan-value");
    let (code, _, err) = run(&["--catalog", utf8(&bad), "check", utf8(&template("entry-workstation"))]);
    assert_eq!(code, 2);
    assert!(err.contains("the catalog has 1 error(s):\n") && !err.contains("warning:"), "{err}");
    let (_, out, _) = run(&["catalog", "validate", utf8(&bad)]);
    let first = out.lines().next().unwrap_or_default();
    assert!(first.contains("tdp_watts is NaN"), "the user's problem comes first: {out}");
    assert!(!out.contains("catalog/gpu.ron") && out.contains("listed with --all"), "{out}");
    let (_, all, _) = run(&["catalog", "validate", utf8(&bad), "--all"]);
    assert!(all.lines().count() > out.lines().count(), "--all lists the built-in warnings too");
}

/// A writer whose reader has gone, as stdout is under `rigplan report … | head`.
struct ClosedPipe;

impl std::io::Write for ClosedPipe {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::ErrorKind::BrokenPipe.into())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `rigplan report … | head` printed "Broken pipe" and exited 2.
#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    let plan = template("enterprise-8x-h100-hgx");
    for args in [vec!["report", utf8(&plan)], vec!["report", utf8(&plan), "--json"], vec!["catalog", "list", "--json"]]
    {
        let mut err = Vec::new();
        let mut full = vec!["rigplan"];
        full.extend_from_slice(&args);
        let code = rigplan::cli::main_with_args(full, &mut ClosedPipe, &mut err);
        assert_eq!((code, String::from_utf8_lossy(&err).into_owned()), (0, String::new()), "{args:?}");
    }
    // The real binary, with a reader that leaves after the first bytes of a large output.
    let cat = tempfile::tempdir().expect("temp dir");
    let card = std::fs::read_to_string(repo().join("tests/fixtures/catalog-good/gpu.ron")).expect("read");
    let body = card.trim().trim_start_matches('[').trim_end_matches(']').trim().trim_end_matches(',');
    let many: Vec<String> =
        (0..2_000).map(|i| body.replace("gpu/fixture-card", &format!("gpu/fixture-card-{i}"))).collect();
    std::fs::write(cat.path().join("gpu.ron"), format!("[{}]", many.join(","))).expect("write");
    let mut child = Command::new(env!("CARGO_BIN_EXE_rigplan"))
        .args(["--catalog", utf8(cat.path()), "catalog", "list", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut first = [0_u8; 16];
    std::io::Read::read_exact(child.stdout.as_mut().expect("stdout"), &mut first).expect("reads");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("ends");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}

// ---------------------------------------------------------------------------------------------
// 2–3. Mutated catalogs of every kind

/// The catalog files, by label: the eleven part files, then the models and the cloud offers.
fn catalog_files() -> Vec<(String, &'static str)> {
    let mut files: Vec<(String, &'static str)> =
        EMBEDDED_FILES.iter().map(|(kind, text)| (kind.file_name(), *text)).collect();
    files.push(("models.ron".to_owned(), EMBEDDED_MODELS));
    files.push(("clouds.ron".to_owned(), rigplan::core::catalog::clouds::EMBEDDED_CLOUDS));
    files
}

/// Every number written after a field name in a catalog text: its byte range and the id of the
/// entry it belongs to.
fn numbers(text: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut id = String::new();
    let mut i = 0;
    while let Some(at) = text[i..].find(": ").map(|p| p + i) {
        i = at + 2;
        let field_start = text[..at]
            .char_indices()
            .rev()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
            .map_or(0, |(p, c)| p + c.len_utf8());
        let field = &text[field_start..at];
        if field == "id" {
            text[i..].trim_start_matches('"').split('"').next().unwrap_or_default().clone_into(&mut id);
            continue;
        }
        let starts_number = bytes.get(i).is_some_and(|b| b.is_ascii_digit() || *b == b'-');
        if field.is_empty() || !starts_number {
            continue;
        }
        let end = text[i..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_')))
            .map_or(text.len(), |p| p + i);
        // Only numbers: `512GB` in a source text is not a field.
        if text[i..end].parse::<f64>().is_ok() {
            out.push((i..end, id.clone()));
        }
    }
    out
}

/// The catalog with one file's text replaced, and every problem found.
fn catalog_with(label: &str, text: &str) -> (Catalog, Vec<CatalogProblem>) {
    let sources: Vec<_> = EMBEDDED_FILES
        .iter()
        .map(|(kind, embedded)| {
            let t = if kind.file_name() == label { text } else { embedded };
            (*kind, format!("catalog/{}", kind.file_name()), t.to_owned())
        })
        .collect();
    let (mut catalog, mut problems) = Catalog::from_sources(&sources);
    let models = if label == "models.ron" { text } else { EMBEDDED_MODELS };
    let (models, more) = Models::from_sources(&[("catalog/models.ron".to_owned(), models.to_owned())]);
    catalog.models = models;
    problems.extend(more);
    let clouds = if label == "clouds.ron" { text } else { rigplan::core::catalog::clouds::EMBEDDED_CLOUDS };
    problems.extend(catalog.load_clouds(&[("catalog/clouds.ron".to_owned(), clouds.to_owned())]));
    (catalog, problems)
}

/// The report and the JSON sheet of `build` as JSON values.
fn outputs(catalog: &Catalog, build: &Build) -> (analysis::Report, serde_json::Value) {
    let report = analysis::analyze(catalog, build);
    let date = SheetDate::parse("2026-01-01").expect("date");
    let sheet = BuildSheet::new(build, &report, date);
    let json = export::render(Format::Json, &sheet, &report).expect("renders");
    (report, serde_json::from_slice(&json).expect("JSON"))
}

/// Paths where `baseline` has a number and `mutated` has `null`.
fn nulls_for_numbers(baseline: &serde_json::Value, mutated: &serde_json::Value, path: &str, found: &mut Vec<String>) {
    use serde_json::Value;
    match (baseline, mutated) {
        (Value::Number(_), Value::Null) => found.push(path.to_owned()),
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                if let Some(w) = b.get(k) {
                    nulls_for_numbers(v, w, &format!("{path}.{k}"), found);
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, (v, w)) in a.iter().zip(b).enumerate() {
                nulls_for_numbers(v, w, &format!("{path}[{i}]"), found);
            }
        }
        _ => {}
    }
}

/// Values a red team puts in a number field.
const MUTATIONS: [&str; 10] =
    ["NaN", "inf", "-inf", "-1.0", "0", "0.0", "1e308", "1e-308", "4294967295", "-4294967296"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Issue 18, point 2: one number of one entry of any catalog file is replaced by a hostile
    /// value; either the catalog has an error (with the entry's position), or every report and
    /// sheet of a build holding that entry has only finite numbers and no `null` where the
    /// unmutated catalog gave a number.
    #[test]
    fn mutated_catalogs_are_refused_or_give_finite_outputs(
        file in 0_usize..13,
        field in any::<prop::sample::Index>(),
        mutation in 0_usize..MUTATIONS.len(),
    ) {
        let files = catalog_files();
        let (label, text) = &files[file];
        let numbers = numbers(text);
        prop_assume!(!numbers.is_empty());
        let (range, id) = &numbers[field.index(numbers.len())];
        let mutated = format!("{}{}{}", &text[..range.start], MUTATIONS[mutation], &text[range.end..]);
        let (catalog, problems) = catalog_with(label, &mutated);
        if problems.iter().any(CatalogProblem::is_error) {
            return Ok(());
        }
        let mut build = load_build(&template("entry-workstation")).expect("loads");
        let part = PartId::from(id.as_str());
        if part.kind().is_some() && build.add_part(Location::Node(0), &part, 1).is_err() {
            build.add_part(Location::Cluster, &part, 1).expect("a part line");
        }
        let (baseline_catalog, _) = catalog_with(label, text);
        let (_, baseline) = outputs(&baseline_catalog, &build);
        let (report, json) = outputs(&catalog, &build);
        let bad = non_finite_floats(&report);
        prop_assert!(bad.is_empty(), "{label} {id} = {}: non-finite {bad:?}", MUTATIONS[mutation]);
        let mut nulls = Vec::new();
        nulls_for_numbers(&baseline, &json, "", &mut nulls);
        prop_assert!(nulls.is_empty(), "{label} {id} = {}: null for a number at {nulls:?}", MUTATIONS[mutation]);
    }
}

/// The mutation scanner finds the numbers it should (a test of the test).
#[test]
fn the_number_scanner_finds_fields_of_every_file() {
    for (label, text) in catalog_files() {
        let found = numbers(text);
        assert!(found.len() > 10, "{label}: {}", found.len());
        for (range, id) in found.iter().take(50) {
            assert!(text[range.clone()].parse::<f64>().is_ok(), "{label}: `{}`", &text[range.clone()]);
            assert!(!id.is_empty(), "{label}");
        }
    }
}
