//! Whole `rigplan` processes (issue 19): a `fit` and a `report` against `rigplan --version`,
//! which is the cost of starting the binary at all. Target: each at most twice `--version`.
//! The embedded catalog is read from its build-time compiled form
//! (`src/core/catalog/compiled.rs`), and only the entries the command needs
//! (`Catalog::embedded_subset`), so a process spends its time on the command itself.
//! Run with the app's features (`cargo bench --bench process`) to time the binary users run.
use criterion::{Criterion, criterion_group, criterion_main};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_rigplan");

/// One whole process; false when it did not run or failed.
fn run(args: &[&str]) -> bool {
    Command::new(BIN).args(args).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

fn processes(c: &mut Criterion) {
    let template = concat!(env!("CARGO_MANIFEST_DIR"), "/catalog/builds/entry-workstation.ron");
    let cases: [(&str, Vec<&str>); 3] = [
        ("process/version", vec!["--version"]),
        ("process/fit", vec!["fit", "--model", "meta-llama-3.1-8b", "--gpu", "nvidia-h100-sxm5-80gb"]),
        ("process/report", vec!["report", template]),
    ];
    for (name, args) in cases {
        if !run(&args) {
            eprintln!("{name}: `rigplan {}` failed; not timed", args.join(" "));
            continue;
        }
        c.bench_function(name, |b| b.iter(|| run(&args)));
    }
}

criterion_group!(benches, processes);
criterion_main!(benches);
