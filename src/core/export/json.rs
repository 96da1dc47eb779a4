//! JSON: the build sheet together with the full report, and the comparison.
//!
//! A sheet export is one object `{"format": "rigplan-build-sheet", "version": 1, "sheet":
//! …, "report": …}`: `sheet` is the serialized [`BuildSheet`] and `report` the same object
//! `rigplan report --json` prints (src/core/analysis/report-schema.md). A comparison export is the
//! serialized [`Comparison`] (src/core/analysis/report-schema.md, "Comparison"). JSON string escaping makes
//! any text safe to parse; consumers that put it into HTML must escape it themselves.

use super::ExportError;
use super::sheet::BuildSheet;
use crate::core::analysis::Report;
use crate::core::compare::Comparison;
use serde::Serialize;

/// The `format` tag of a build sheet export.
pub const SHEET_FORMAT: &str = "rigplan-build-sheet";
/// The version of the build sheet export's layout.
pub const SHEET_VERSION: u32 = 1;

#[derive(Serialize)]
struct SheetExport<'a> {
    format: &'static str,
    version: u32,
    sheet: &'a BuildSheet,
    report: &'a Report,
}

/// The build sheet and its report as pretty-printed JSON, ending with a newline.
///
/// # Errors
/// Only a failure of serde_json (none is expected for these types).
pub fn sheet_to_json(sheet: &BuildSheet, report: &Report) -> Result<String, ExportError> {
    let mut text =
        serde_json::to_string_pretty(&SheetExport { format: SHEET_FORMAT, version: SHEET_VERSION, sheet, report })?;
    text.push('\n');
    Ok(text)
}

/// The comparison as pretty-printed JSON, ending with a newline.
///
/// # Errors
/// Only a failure of serde_json (none is expected for these types).
pub fn comparison_to_json(comparison: &Comparison) -> Result<String, ExportError> {
    let mut text = serde_json::to_string_pretty(comparison)?;
    text.push('\n');
    Ok(text)
}
