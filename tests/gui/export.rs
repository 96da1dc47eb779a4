//! Build sheets from File → Export: every format through the menu and the command path, written
//! where the dialog says, read back with a parser of the format; a cancelled dialog writes
//! nothing; a failed write shows its error.

use crate::common::*;
use calamine::{Data, Reader, Xlsx, open_workbook};
use egui_kittest::kittest::Queryable;
use rigplan::core::export::{self, Format, SheetDate};
use rigplan::gui::text::EN;
use std::path::{Path, PathBuf};

/// Today's date as the app computes it (UTC days since 1970).
fn today() -> SheetDate {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    SheetDate::from_days_since_unix_epoch(i64::try_from(secs / 86_400).unwrap()).unwrap()
}

fn export_from_menu(h: &mut egui_kittest::Harness<'static, rigplan::gui::App>, format: Format) {
    let i = Format::ALL.iter().position(|f| *f == format).unwrap();
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Export").hover();
    h.run();
    h.get_by_label(EN.export_formats[i]).click();
    h.run();
}

/// The CSV's rows, as the csv crate reads them (rows differ in length: sections).
fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_path(path).unwrap();
    reader.records().map(|r| r.unwrap().iter().map(str::to_owned).collect()).collect()
}

fn row_starting<'a>(rows: &'a [Vec<String>], first: &str) -> &'a Vec<String> {
    rows.iter().find(|r| r.first().is_some_and(|c| c.trim_start_matches('\u{feff}') == first)).unwrap()
}

#[test]
fn every_format_exports_from_the_file_menu_and_parses_back() {
    let dir = tempfile::tempdir().unwrap();
    // Paths without an extension: the app adds the format's.
    let picked: Vec<PathBuf> = Format::ALL.iter().map(|f| dir.path().join(format!("sheet-{f:?}"))).collect();
    let scripted = Scripted { export: picked.clone(), ..Scripted::default() };
    let suggested = scripted.suggested.clone();
    let mut c = config();
    c.dialogs = Box::new(scripted);
    // The entry workstation template (a first start).
    let mut h = app_as_started(c);
    let name = build(&h).name.clone();
    let report = state(&h).derived.report.clone();
    let before = today();
    for format in Format::ALL {
        export_from_menu(&mut h, format);
    }
    let after = today();
    let written: Vec<PathBuf> = Format::ALL.iter().zip(&picked).map(|(f, p)| p.with_extension(f.extension())).collect();
    for (format, path) in Format::ALL.iter().zip(&written) {
        assert!(path.exists(), "{format:?} went to {}", path.display());
    }
    let last = written.last().unwrap();
    assert_eq!(notice(&h), Some(format!("Exported the JSON file to {}.", last.display())));
    // The dialog proposed the core's file name for the build and the day.
    let names = suggested.lock().unwrap().clone();
    assert!(
        names.first() == Some(&export::default_file_name(&name, before, "csv"))
            || names.first() == Some(&export::default_file_name(&name, after, "csv")),
        "{names:?}"
    );
    assert_eq!(names.len(), Format::ALL.len());

    // CSV: the RTX 4090 line at its launch MSRP of 1,599 USD × 7.2 CNY/USD = 11,512.80 CNY.
    let rows = csv_rows(&written[0]);
    assert_eq!(row_starting(&rows, "Build sheet")[1], name);
    let date = SheetDate::parse(&row_starting(&rows, "Date")[1]).unwrap();
    assert!(date == before || date == after, "{date}");
    let gpu = rows.iter().find(|r| r.get(3).is_some_and(|p| p == RTX_4090_NAME)).expect("the GPU line");
    assert_eq!((gpu[8].as_str(), gpu[10].as_str()), ("1", "11512.80"));
    assert_eq!(row_starting(&rows, "Capex")[1], format!("{:.2}", report.bom.capex));

    // XLSX: real numbers in the cells, a summary sheet.
    let mut wb: Xlsx<_> = open_workbook(&written[1]).unwrap();
    let parts = wb.worksheet_range(export::xlsx::PARTS_SHEET).unwrap();
    assert_eq!(parts.get_value((0, 1)), Some(&Data::String(name.clone())));
    let gpu_row = (0..u32::try_from(parts.height()).unwrap())
        .find(|&r| parts.get_value((r, 3)) == Some(&Data::String(RTX_4090_NAME.to_owned())))
        .expect("the GPU row");
    let extended = match parts.get_value((gpu_row, 10)) {
        Some(Data::Float(v)) => *v,
        other => panic!("the extended price is a number, not {other:?}"),
    };
    assert!((extended - 11_512.8).abs() < 1e-6, "{extended}");
    let summary = wb.worksheet_range(export::xlsx::SUMMARY_SHEET).unwrap();
    let wall = (0..u32::try_from(summary.height()).unwrap())
        .find(|&r| summary.get_value((r, 0)) == Some(&Data::String("Wall power at max".to_owned())))
        .and_then(|r| summary.get_value((r, 1)).cloned());
    assert_eq!(wall, Some(Data::Float(report.power.wall_watts)));

    // Markdown: the title, and the GPU line in the parts table.
    let md = std::fs::read_to_string(&written[2]).unwrap();
    assert!(md.starts_with(&format!("# Build sheet: {}", export::escape_markdown(&name))), "{}", &md[..80]);
    assert!(md.lines().any(|l| l.starts_with('|') && l.contains(RTX_4090_NAME) && l.contains("11,512.80")));

    // HTML: a whole page with its charts.
    let html = std::fs::read_to_string(&written[3]).unwrap();
    assert!(html.trim_start().to_ascii_lowercase().starts_with("<!doctype html>"));
    assert!(html.trim_end().ends_with("</html>"));
    assert!(html.contains("<svg"), "the power and TCO charts are inline SVG");

    // JSON: the sheet and the whole report, as the app had it.
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&written[4]).unwrap()).unwrap();
    assert_eq!(json["sheet"]["build_name"], name.as_str());
    let reparsed: serde_json::Value = serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
    assert_eq!(json["report"], reparsed);
}

#[test]
fn a_cancelled_dialog_writes_nothing_and_a_failed_write_says_why() {
    let dir = tempfile::tempdir().unwrap();
    // Cancelled: no dialog answer, no file, no message.
    let mut h = app_as_started(config());
    export_from_menu(&mut h, Format::Csv);
    assert!(notice(&h).is_none());
    assert!(state(&h).view.error.is_none());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // A folder that does not exist: the error names the path; the build is untouched.
    let before = build(&h).clone();
    let missing = dir.path().join("no-such-folder").join("sheet.md");
    h.state_mut().state_mut().push(rigplan::gui::command::Command::Export { format: Format::Markdown, path: missing });
    h.run();
    let error = state(&h).view.error.clone().expect("an error dialog");
    assert_eq!(error.title, "Cannot export");
    assert!(error.message.contains("no-such-folder"), "{}", error.message);
    assert_eq!(build(&h), &before);
    assert!(!state(&h).doc.is_dirty());
}

/// Issue 18, point 6, in the app: an export aimed at the open build's own file, or at any
/// other build file, is refused with the reason, and the file is as it was. (A build saved
/// under the sheet's extension is the only way to aim at one: the app adds the format's
/// extension to any other name, so `plan.ron` exports to `plan.ron.csv`.)
#[test]
fn an_export_over_a_build_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let template = rigplan::core::templates::find("entry-workstation").unwrap().load().unwrap();
    let open = dir.path().join("plan.csv");
    rigplan::core::persist::save_build(&open, &template).unwrap();
    let other = dir.path().join("other.csv");
    std::fs::copy(&open, &other).unwrap();
    let before = std::fs::read(&open).unwrap();
    let mut c = config();
    c.file = Some(open.clone());
    let mut h = app_as_started(c);
    let export = |h: &mut egui_kittest::Harness<'static, rigplan::gui::App>, path: &Path| {
        h.state_mut().state_mut().view.error = None;
        h.state_mut()
            .state_mut()
            .push(rigplan::gui::command::Command::Export { format: Format::Csv, path: path.to_path_buf() });
        h.run();
    };
    for (target, why) in [(&open, "is an input of this command"), (&other, "is a rigplan build file")] {
        export(&mut h, target);
        let error = state(&h).view.error.clone().expect("an error dialog");
        assert_eq!(error.title, "Cannot export");
        assert!(error.message.contains(why), "{}", error.message);
        assert_eq!(std::fs::read(target).unwrap(), before, "{} is untouched", target.display());
    }
    // A `.ron` name gets the sheet's extension; a new file is written.
    let ron = dir.path().join("plan.ron");
    std::fs::copy(&open, &ron).unwrap();
    export(&mut h, &ron);
    assert!(state(&h).view.error.is_none());
    assert_eq!(std::fs::read(&ron).unwrap(), before);
    assert!(std::fs::read_to_string(dir.path().join("plan.ron.csv")).unwrap().contains("RTX 4090"));
}
