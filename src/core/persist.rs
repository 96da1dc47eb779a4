//! Build files: versioned RON, checked on load, saved atomically.
//!
//! A build file is
//! ```ron
//! (
//!     version: 1,
//!     build: ( name: "…", nodes: [ … ], … ),
//! )
//! ```
//! Loading reads only regular files ([`files::read_regular`]: a named pipe, a device, a folder
//! or a broken symbolic link is refused with what it is) of at most [`MAX_BUILD_FILE_BYTES`] (a
//! larger file is refused before it is read, and a file that grows while it is read is cut
//! off at the limit and refused), requires UTF-8 (a leading byte order mark is skipped), reads `version` first and migrates older versions explicitly (a newer
//! version is refused with a message, never guessed at), then parses with line:col errors and
//! checks the documented limits ([`crate::core::build`]'s `MAX_*` constants) and that every
//! number is finite and in range. Unknown part ids are not an error here: the build keeps them
//! and the analyses report them.
//!
//! # Versions and migrations
//! Every file carries `version`. [`parse_build_str`] reads it alone first (a probe that skips
//! the rest) and dispatches on it:
//! - a missing `version` or `version: 0` is refused (it is not a rigplan build file);
//! - a version above [`CURRENT_VERSION`] is refused as written by a newer rigplan;
//! - each known version is parsed with the envelope struct of *that* version and converted
//!   forward one step at a time to the current [`Build`].
//!
//! Version 1 is current, so its arm parses `FileV1` and needs no conversion. When a change
//! to [`Build`] cannot be read by serde defaults alone (a renamed or re-typed field, a changed
//! meaning), version 2 is introduced this way: copy today's `Build` and its parts into a frozen
//! `v1` module (they must keep parsing the version-1 fixture), write
//! `fn migrate_v1_to_v2(v1::Build) -> Build`, set `CURRENT_VERSION = 2`, and make the arms
//! `Some(1) => migrate_v1_to_v2(parse::<v1::FileV1>(text)?.build)` and
//! `Some(2) => parse::<FileV2>(text)?.build`. Files are always written at the current version.
//! `tests/fixtures/v1/` holds version-1 files that must load, unchanged, forever
//! (`tests/core/migrations.rs`); a v2 adds `tests/fixtures/v2/`.
//!
//! Saving writes a temporary file in the target's folder, flushes and syncs it, keeps the
//! previous file as `<name>.bak`, and renames the temporary file over the target, so that the
//! target is at every instant either the old or the new complete build. A process killed
//! mid-save can leave its temporary file (`.<name>.tmp-<pid>-<n>`) behind; it is never read, and
//! the target and backup are intact (`tests/core/save_crash.rs` kills savers to show it).

use crate::core::analysis::tco::MAX_RUN_TOKENS;
use crate::core::build::{
    Build, Costs, CustomPricing, MAX_CUSTOM_LINES, MAX_LINES, MAX_NODE_COUNT, MAX_NODE_GROUPS, MAX_PRICE_OVERRIDES,
    MAX_QUANTITY, MAX_TEXT_CHARS, MAX_TOTAL_LINES, MAX_TOTAL_NODES, PartLine,
};
use crate::core::catalog::{line_col_of_byte, ron_options};
pub use crate::core::files::backup_path;
use crate::core::files::{self, ReadError};
use crate::core::units::format_number;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The build file version this rigplan writes.
pub const CURRENT_VERSION: u32 = 1;
/// Largest build file rigplan reads, bytes. A 64-node build with long notes is under 100 KiB;
/// the limit refuses a stray huge file before reading it.
pub const MAX_BUILD_FILE_BYTES: u64 = 8 * 1024 * 1024;
/// Deepest nesting the RON parser follows (the real format nests 5 levels). It bounds the
/// parser's recursion, so a deeply nested file is an error rather than a stack overflow.
pub const MAX_NESTING: usize = 64;
/// Most limit problems listed in one [`BuildFileError::Invalid`]; the rest are counted. A file
/// of hundreds of thousands of bad lines would otherwise give a message larger than the file.
pub const MAX_LISTED_PROBLEMS: usize = 20;
/// The UTF-8 byte order mark some editors put at the start of a text file; it is skipped.
pub const UTF8_BOM: char = '\u{feff}';

/// A build file that could not be read. Each variant says what and where.
#[derive(Debug, thiserror::Error)]
pub enum BuildFileError {
    // The OS error is part of the message and deliberately not the error's `source`: a
    // report that prints the chain (`{:#}`) would print it twice.
    #[error("{path}: cannot read: {error}")]
    Io { path: String, error: std::io::Error },
    #[error("{path}: cannot write: {error}")]
    Write { path: String, error: std::io::Error },
    /// A named pipe, a device, a folder, a broken symbolic link: only regular files are read.
    #[error("{path}: {reason}")]
    NotAFile { path: String, reason: String },
    /// An export that would replace one of the command's inputs or a build file.
    #[error("{path}: {reason}")]
    WouldReplace { path: String, reason: String },
    /// `size` is the size on disk, or for a device or growing file the bytes read before the
    /// limit stopped the read.
    #[error("{path}: the file is at least {size} bytes; build files are limited to {limit} bytes")]
    TooLarge { path: String, size: u64, limit: u64 },
    #[error("{path}:{line}:{col}: the file is not UTF-8 text (is it a build file?)")]
    NotUtf8 { path: String, line: usize, col: usize },
    #[error("{path}: the file is empty")]
    Empty { path: String },
    #[error("{path}:{line}:{col}: {message}")]
    Syntax { path: String, line: usize, col: usize, message: String },
    #[error(
        "{path}: the file has no `version`; a rigplan build file starts with `(version: {CURRENT_VERSION}, build: (…))`"
    )]
    MissingVersion { path: String },
    #[error(
        "{path}: the file is version {found}, newer than this rigplan reads (up to {supported}); update rigplan to open it"
    )]
    FutureVersion { path: String, found: u32, supported: u32 },
    #[error("{path}: version {found} is not a rigplan build file version (versions start at 1)")]
    BadVersion { path: String, found: u32 },
    #[error("{path}: the build is not valid:\n{}", .problems.join("\n"))]
    Invalid { path: String, problems: Vec<String> },
}

/// The on-disk envelope, version 1 (current). Named `BuildFile` for serde so that parser
/// messages name the file format rather than this struct.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "BuildFile")]
struct FileV1 {
    version: u32,
    build: Build,
}

#[derive(Serialize)]
struct FileV1Ref<'a> {
    version: u32,
    build: &'a Build,
}

/// Reads only `version`, ignoring the rest.
#[derive(Deserialize)]
#[serde(rename = "BuildFile")]
struct VersionProbe {
    version: Option<u32>,
}

/// Reads and checks a build file.
///
/// # Errors
/// I/O, size, encoding, syntax, version and limit problems, each with the file and position.
pub fn load_build(path: &Path) -> Result<Build, BuildFileError> {
    let label = path.display().to_string();
    let bytes = files::read_regular(path, MAX_BUILD_FILE_BYTES).map_err(|e| match e {
        ReadError::Io(error) => BuildFileError::Io { path: label.clone(), error },
        ReadError::TooLarge { size, limit } => BuildFileError::TooLarge { path: label.clone(), size, limit },
        other @ (ReadError::NotAFile(_) | ReadError::BrokenLink(_)) => {
            BuildFileError::NotAFile { path: label.clone(), reason: other.to_string() }
        }
    })?;
    parse_build_bytes(&label, &bytes)
}

/// Parses a build file's bytes (`label` names it in errors). Used for files dropped on the
/// app window and by the fuzz target.
///
/// # Errors
/// As [`load_build`], without I/O.
pub fn parse_build_bytes(label: &str, bytes: &[u8]) -> Result<Build, BuildFileError> {
    if bytes.len() as u64 > MAX_BUILD_FILE_BYTES {
        return Err(BuildFileError::TooLarge {
            path: label.to_owned(),
            size: bytes.len() as u64,
            limit: MAX_BUILD_FILE_BYTES,
        });
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let (line, col) = line_col_of_byte(&String::from_utf8_lossy(bytes), e.valid_up_to());
            return Err(BuildFileError::NotUtf8 { path: label.to_owned(), line, col });
        }
    };
    parse_build_str(label, text)
}

/// Parses build file text.
///
/// # Errors
/// As [`load_build`], without I/O.
pub fn parse_build_str(label: &str, text: &str) -> Result<Build, BuildFileError> {
    // A byte order mark (Windows editors write one) is not part of the text.
    let text = text.strip_prefix(UTF8_BOM).unwrap_or(text);
    if text.trim().is_empty() {
        return Err(BuildFileError::Empty { path: label.to_owned() });
    }
    let options = ron_options().with_recursion_limit(MAX_NESTING);
    let syntax = |e: ron::error::SpannedError| BuildFileError::Syntax {
        path: label.to_owned(),
        line: e.span.start.line,
        col: e.span.start.col,
        message: match e.code {
            // ron's own text suggests raising the limit in code, which a user cannot do.
            ron::Error::ExceededRecursionLimit => {
                format!("the file nests deeper than {MAX_NESTING} levels; a build file nests about 5")
            }
            code => code.to_string(),
        },
    };
    // A file of the current version (`FileV1` while `CURRENT_VERSION` is 1; a version 2 makes
    // this its own file type) reads in one pass. Anything else (another version, none,
    // a syntax or field error) is read again by the probe and the dispatch below, which name
    // what is wrong exactly as they would have.
    if let Ok(file) = options.from_str::<FileV1>(text)
        && file.version == CURRENT_VERSION
    {
        return checked(label, file.build);
    }
    let probe: VersionProbe = options.from_str(text).map_err(syntax)?;
    // The version dispatch (see the module docs): one arm per known version, each converting
    // forward to the current `Build`.
    let build = match probe.version {
        None => return Err(BuildFileError::MissingVersion { path: label.to_owned() }),
        Some(0) => return Err(BuildFileError::BadVersion { path: label.to_owned(), found: 0 }),
        Some(1) => options.from_str::<FileV1>(text).map_err(syntax)?.build,
        Some(found) => {
            return Err(BuildFileError::FutureVersion { path: label.to_owned(), found, supported: CURRENT_VERSION });
        }
    };
    checked(label, build)
}

/// The build, or its problems (at most [`MAX_LISTED_PROBLEMS`] of them listed).
fn checked(label: &str, build: Build) -> Result<Build, BuildFileError> {
    let mut problems = check_build(&build);
    if problems.is_empty() {
        return Ok(build);
    }
    if problems.len() > MAX_LISTED_PROBLEMS {
        let more = problems.len() - MAX_LISTED_PROBLEMS;
        problems.truncate(MAX_LISTED_PROBLEMS);
        problems.push(format!("… and {more} more problem(s)"));
    }
    Err(BuildFileError::Invalid { path: label.to_owned(), problems })
}

/// Serializes a build in the current file format.
///
/// # Errors
/// Only if serialization fails (it does not for a [`Build`]; the error is passed on rather
/// than hidden).
pub fn build_to_string(build: &Build) -> Result<String, ron::Error> {
    let config = ron::ser::PrettyConfig::new().indentor("    ".to_owned()).struct_names(false);
    let mut text = ron::ser::to_string_pretty(&FileV1Ref { version: CURRENT_VERSION, build }, config)?;
    text.push('\n');
    Ok(text)
}

/// Saves a build atomically ([`files::write_atomic`]): temporary file in the same folder →
/// write → flush → fsync → copy the previous file to `<name>.bak` → rename over the target →
/// fsync the folder. A symbolic link is written through; the mode and owner of the file
/// replaced are kept.
///
/// # Errors
/// Any I/O failure, with the path. The target is left as it was on failure.
pub fn save_build(path: &Path, build: &Build) -> Result<(), BuildFileError> {
    let text = build_to_string(build).map_err(|e| BuildFileError::Write {
        path: path.display().to_string(),
        error: std::io::Error::other(e.to_string()),
    })?;
    write_atomic(path, text.as_bytes(), true)
}

/// Writes bytes to `path` atomically (see [`save_build`]); keeps a `.bak` of the previous file
/// when `backup` is set.
///
/// # Errors
/// Any I/O failure, with the path.
pub fn write_atomic(path: &Path, bytes: &[u8], backup: bool) -> Result<(), BuildFileError> {
    files::write_atomic(path, bytes, backup)
        .map(drop)
        .map_err(|error| BuildFileError::Write { path: path.display().to_string(), error })
}

/// Writes an export (a sheet, a comparison) to `path` atomically, refusing to replace one of
/// the files the export was made from (`inputs`) or any file that is a rigplan build: an export
/// written over `plan.ron` would lose the build.
///
/// # Errors
/// [`BuildFileError::WouldReplace`], or any I/O failure, with the path.
pub fn write_export(path: &Path, bytes: &[u8], inputs: &[&Path]) -> Result<(), BuildFileError> {
    let refuse = |reason: String| Err(BuildFileError::WouldReplace { path: path.display().to_string(), reason });
    if let Ok(out) = std::fs::metadata(path) {
        if inputs.iter().any(|input| std::fs::metadata(input).is_ok_and(|m| same_file(&m, &out))) {
            return refuse("is an input of this command; write the export to another file".to_owned());
        }
        if out.is_file()
            && let Ok(existing) = files::read_regular(path, MAX_BUILD_FILE_BYTES)
            && is_build_file(&existing)
        {
            return refuse(
                "is a rigplan build file; an export never replaces a build (choose another name)".to_owned(),
            );
        }
    }
    write_atomic(path, bytes, false)
}

/// Whether two files' metadata are of the same file (device and inode on Unix).
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        a.len() == b.len() && a.modified().ok() == b.modified().ok() && a.created().ok() == b.created().ok()
    }
}

/// Whether bytes are a rigplan build file of any version, valid or not: RON text whose
/// top-level struct has a `version`.
#[must_use]
pub fn is_build_file(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else { return false };
    let text = text.strip_prefix(UTF8_BOM).unwrap_or(text);
    let options = ron_options().with_recursion_limit(MAX_NESTING);
    options.from_str::<VersionProbe>(text).is_ok_and(|p| p.version.is_some())
}

/// Checks the documented limits and that every number is finite and in range. Returns one
/// message per problem, each naming the field by its path in the file.
#[must_use]
pub fn check_build(build: &Build) -> Vec<String> {
    let mut p = Vec::new();
    text_len(&mut p, "build.name", &build.name);
    text_len(&mut p, "build.description", &build.description);
    if build.nodes.is_empty() {
        p.push("build.nodes: a build needs at least one node".to_owned());
    }
    if build.nodes.len() > MAX_NODE_GROUPS {
        p.push(format!("build.nodes: {} node groups; the limit is {MAX_NODE_GROUPS}", build.nodes.len()));
    }
    let mut total: u64 = 0;
    for (i, node) in build.nodes.iter().enumerate() {
        let at = format!("build.nodes[{i}]");
        text_len(&mut p, &format!("{at}.name"), &node.name);
        if node.count == 0 || node.count > MAX_NODE_COUNT {
            p.push(format!("{at}.count: {} is outside 1–{MAX_NODE_COUNT}", node.count));
        }
        total += u64::from(node.count);
        check_lines(&mut p, &format!("{at}.parts"), &node.parts);
    }
    if total > MAX_TOTAL_NODES {
        p.push(format!("build.nodes: {total} nodes in all; the limit is {MAX_TOTAL_NODES}"));
    }
    check_lines(&mut p, "build.cluster", &build.cluster);
    if build.total_lines() > MAX_TOTAL_LINES {
        p.push(format!("build: {} part lines in all; the limit is {MAX_TOTAL_LINES}", build.total_lines()));
    }
    if build.custom_lines.len() > MAX_CUSTOM_LINES {
        p.push(format!("build.custom_lines: {} lines; the limit is {MAX_CUSTOM_LINES}", build.custom_lines.len()));
    }
    for (i, c) in build.custom_lines.iter().enumerate() {
        let at = format!("build.custom_lines[{i}]");
        text_len(&mut p, &format!("{at}.name"), &c.name);
        range(&mut p, &format!("{at}.amount"), c.amount, -1e12, 1e12);
        if c.quantity == 0 || c.quantity > MAX_QUANTITY {
            p.push(format!("{at}.quantity: {} is outside 1–{MAX_QUANTITY}", c.quantity));
        }
    }
    if build.price_overrides.len() > MAX_PRICE_OVERRIDES {
        p.push(format!(
            "build.price_overrides: {} overrides; the limit is {MAX_PRICE_OVERRIDES}",
            build.price_overrides.len()
        ));
    }
    for (i, o) in build.price_overrides.iter().enumerate() {
        range(&mut p, &format!("build.price_overrides[{i}].unit_price"), o.unit_price, 0.0, 1e10);
        text_len(&mut p, &format!("build.price_overrides[{i}].part"), &o.part.0);
        text_len(&mut p, &format!("build.price_overrides[{i}].note"), &o.note);
    }
    let s = &build.site;
    if s.currency.0.len() != 3 || !s.currency.0.chars().all(|c| c.is_ascii_uppercase()) {
        p.push(format!("build.site.currency: `{}` is not a three-letter ISO 4217 code such as USD or CNY", s.currency));
    }
    range(&mut p, "build.site.usd_exchange_rate", s.usd_exchange_rate, 1e-6, 1e6);
    range(&mut p, "build.site.electricity_per_kwh", s.electricity_per_kwh, 0.0, 1e4);
    range(&mut p, "build.site.pue", s.pue, 1.0, 3.0);
    range(&mut p, "build.site.ambient_c", s.ambient_c, -20.0, 55.0);
    range(&mut p, "build.site.circuit_volts", s.circuit_volts, 90.0, 480.0);
    range(&mut p, "build.site.circuit_amps", s.circuit_amps, 1.0, 1_000.0);
    if s.circuit_phases != 1 && s.circuit_phases != 3 {
        p.push(format!("build.site.circuit_phases: {} must be 1 or 3", s.circuit_phases));
    }
    range(&mut p, "build.usage.utilization", build.usage.utilization, 0.0, 1.0);
    range(&mut p, "build.usage.horizon_years", build.usage.horizon_years, 0.25, 15.0);
    if let Some(w) = &build.usage.workload {
        text_len(&mut p, "build.usage.workload.model", &w.model);
        text_len(&mut p, "build.usage.workload.workload", &w.workload);
        if let Some(tokens) = w.run_tokens {
            range(&mut p, "build.usage.workload.run_tokens", tokens, 1.0, MAX_RUN_TOKENS);
        }
    }
    check_costs(&mut p, &build.costs);
    p
}

/// Largest money amount accepted in a cost setting (any currency): 10^12 covers the largest
/// clusters in the weakest currencies while catching a pasted digit string.
pub const MAX_COST_AMOUNT: f64 = 1e12;

fn check_costs(p: &mut Vec<String>, c: &Costs) {
    let at = "build.costs";
    range(p, &format!("{at}.tax_percent"), c.tax_percent, 0.0, 100.0);
    range(p, &format!("{at}.shipping_percent"), c.shipping_percent, 0.0, 100.0);
    range(p, &format!("{at}.installation_percent"), c.installation_percent, 0.0, 100.0);
    range(p, &format!("{at}.colocation_per_kw_month"), c.colocation_per_kw_month, 0.0, MAX_COST_AMOUNT);
    range(p, &format!("{at}.maintenance_percent_per_year"), c.maintenance_percent_per_year, 0.0, 100.0);
    range(p, &format!("{at}.staff_per_year"), c.staff_per_year, 0.0, MAX_COST_AMOUNT);
    range(p, &format!("{at}.licences_per_year"), c.licences_per_year, 0.0, MAX_COST_AMOUNT);
    range(p, &format!("{at}.depreciation_life_years"), c.depreciation_life_years, 0.25, 30.0);
    range(p, &format!("{at}.residual_percent"), c.residual_percent, 0.0, 100.0);
    range(p, &format!("{at}.discount_rate_percent"), c.discount_rate_percent, 0.0, 100.0);
    if let Some(a) = c.annual_owned_cost {
        range(p, &format!("{at}.annual_owned_cost"), a, 0.0, MAX_COST_AMOUNT);
    }
    range(p, &format!("{at}.spot_overhead_percent"), c.spot_overhead_percent, 0.0, 500.0);
    if c.custom_offers.len() > MAX_CUSTOM_LINES {
        p.push(format!("{at}.custom_offers: {} offers; the limit is {MAX_CUSTOM_LINES}", c.custom_offers.len()));
    }
    for (i, o) in c.custom_offers.iter().enumerate() {
        let at = format!("{at}.custom_offers[{i}]");
        let slug_ok = !o.id.is_empty()
            && o.id.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || matches!(ch, '-' | '.' | '_'));
        if !slug_ok {
            p.push(format!("{at}.id: `{}` is not a slug (use a-z, 0-9, '-', '.', '_')", o.id));
        }
        if c.custom_offers.iter().take(i).any(|other| other.id == o.id) {
            p.push(format!("{at}.id: `{}` is used by an earlier custom offer", o.id));
        }
        text_len(p, &format!("{at}.id"), &o.id);
        text_len(p, &format!("{at}.name"), &o.name);
        match o.pricing {
            CustomPricing::PerGpuHour { price, .. } => {
                range(p, &format!("{at}.pricing.price"), price, 0.0, MAX_COST_AMOUNT);
            }
            CustomPricing::AnnualQuote { per_year } => {
                range(p, &format!("{at}.pricing.per_year"), per_year, 0.0, MAX_COST_AMOUNT);
            }
        }
    }
    if let Some(chosen) = &c.chosen_offer {
        text_len(p, &format!("{at}.chosen_offer"), chosen);
    }
}

fn check_lines(p: &mut Vec<String>, at: &str, lines: &[PartLine]) {
    if lines.len() > MAX_LINES {
        p.push(format!("{at}: {} part lines; the limit is {MAX_LINES}", lines.len()));
    }
    for (j, line) in lines.iter().enumerate() {
        if line.quantity == 0 || line.quantity > MAX_QUANTITY {
            p.push(format!("{at}[{j}].quantity: {} of `{}` is outside 1–{MAX_QUANTITY}", line.quantity, line.part));
        }
        if line.part.0.trim().is_empty() {
            p.push(format!("{at}[{j}].part: the part id is empty"));
        }
        text_len(p, &format!("{at}[{j}].part"), &line.part.0);
        if line.slots.len() > line.quantity as usize {
            p.push(format!("{at}[{j}].slots: {} slots for {} units", line.slots.len(), line.quantity));
        }
    }
}

fn text_len(p: &mut Vec<String>, at: &str, text: &str) {
    let n = text.chars().count();
    if n > MAX_TEXT_CHARS {
        p.push(format!("{at}: {n} characters; the limit is {MAX_TEXT_CHARS}"));
    }
}

fn range(p: &mut Vec<String>, at: &str, value: f64, min: f64, max: f64) {
    if !value.is_finite() {
        p.push(format!("{at}: {value} is not a finite number"));
    } else if value < min || value > max {
        p.push(format!("{at}: {} is outside {}–{}", format_number(value), format_number(min), format_number(max)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::build::{Location, NodeGroup};
    use crate::core::catalog::PartId;

    fn sample() -> Build {
        let mut b = Build::new("Sample");
        b.add_part(Location::Node(0), &PartId::from("gpu/nvidia-geforce-rtx-4090"), 1).unwrap();
        b.add_part(Location::Node(0), &PartId::from("gpu/does-not-exist"), 2).unwrap();
        let mut n = NodeGroup::new("Workers");
        n.count = 4;
        b.add_node(n).unwrap();
        b
    }

    #[test]
    fn round_trip_keeps_unknown_ids() {
        let b = sample();
        let text = build_to_string(&b).unwrap();
        assert!(text.starts_with("(\n    version: 1,"), "{text}");
        let back = parse_build_str("t.ron", &text).unwrap();
        assert_eq!(back, b);
        assert!(text.contains("gpu/does-not-exist"));
    }

    #[test]
    fn version_errors() {
        let future = "(version: 9, build: (name: \"x\", nodes: []))";
        assert!(matches!(parse_build_str("f", future), Err(BuildFileError::FutureVersion { found: 9, .. })));
        let missing = "(build: (name: \"x\", nodes: []))";
        assert!(matches!(parse_build_str("f", missing), Err(BuildFileError::MissingVersion { .. })));
        assert!(matches!(parse_build_str("f", "   \n"), Err(BuildFileError::Empty { .. })));
    }

    #[test]
    fn syntax_error_points_at_line_and_column() {
        let text = "(\n    version: 1,\n    build: (\n        name: \"x\",\n        nodes: [ ( name: \"a\", count: \"two\", parts: [] ) ],\n    ),\n)";
        let err = parse_build_str("plan.ron", text).unwrap_err();
        let msg = err.to_string();
        assert!(msg.starts_with("plan.ron:5:"), "{msg}");
    }

    #[test]
    fn limits_are_checked() {
        let mut b = sample();
        b.nodes[0].parts[0].quantity = 0;
        b.site.pue = f64::NAN;
        let text = build_to_string(&b).unwrap();
        let Err(BuildFileError::Invalid { problems, .. }) = parse_build_str("x", &text) else {
            panic!("expected Invalid")
        };
        assert!(problems.iter().any(|p| p.contains("build.nodes[0].parts[0].quantity")), "{problems:?}");
        assert!(problems.iter().any(|p| p.contains("build.site.pue")), "{problems:?}");
    }

    #[test]
    fn invalid_utf8_has_position() {
        let err = parse_build_bytes("b.ron", b"(version: 1,\n \xff)").unwrap_err();
        assert!(matches!(err, BuildFileError::NotUtf8 { line: 2, col: 2, .. }), "{err}");
    }

    #[test]
    fn atomic_save_keeps_backup() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("plan.ron");
        let mut b = sample();
        save_build(&path, &b).unwrap();
        b.name = "Second".into();
        save_build(&path, &b).unwrap();
        assert_eq!(load_build(&path).unwrap().name, "Second");
        assert_eq!(load_build(&backup_path(&path)).unwrap().name, "Sample");
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
            .collect();
        assert!(leftovers.is_empty());
    }
}
