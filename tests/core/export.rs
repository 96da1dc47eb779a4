//! Build sheet exports: snapshots of every text format on two templates, the sheet's content
//! against hand calculations, the XLSX read back with calamine, and a hostile build exported
//! safely in every format.

use calamine::{Data, DataType as _, Reader, Xlsx, open_workbook_from_rs};
use rigplan::core::analysis::{self, Report};
use rigplan::core::build::{Build, CostKind, CustomLine, PartLine};
use rigplan::core::catalog::Catalog;
use rigplan::core::export::sheet::PriceBasis;
use rigplan::core::export::{
    self, BuildSheet, Format, SheetDate, csv as csv_export, default_file_name, html, json, markdown, xlsx,
};
use rigplan::core::templates;
use std::io::Cursor;
use std::sync::OnceLock;

/// The date every test pins.
const DATE: &str = "2025-01-15";

pub fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| Catalog::embedded().expect("embedded catalog loads"))
}

pub fn template(slug: &str) -> Build {
    templates::find(slug).expect("template exists").load().expect("template loads")
}

fn date() -> SheetDate {
    SheetDate::parse(DATE).expect("date")
}

fn sheet_of(build: &Build) -> (BuildSheet, Report) {
    let report = analysis::analyze(catalog(), build);
    let sheet = BuildSheet::new(build, &report, date());
    (sheet, report)
}

use crate::approx::assert_close as close;

fn snapshot_all(slug: &str) {
    let build = template(slug);
    let (sheet, report) = sheet_of(&build);
    insta::assert_snapshot!(format!("{slug}.csv"), csv_export::sheet_to_csv(&sheet).expect("csv"));
    insta::assert_snapshot!(format!("{slug}.md"), markdown::sheet_to_markdown(&sheet));
    insta::assert_snapshot!(format!("{slug}.html"), html::sheet_to_html(&sheet, &report));
    // The sheet part of the JSON export; the report part is `rigplan report --json`, checked
    // below to be the report itself, so analysis changes elsewhere do not churn this file.
    insta::assert_snapshot!(format!("{slug}.sheet.json"), serde_json::to_string_pretty(&sheet).expect("json"));
}

#[test]
fn snapshots_entry_workstation() {
    snapshot_all("entry-workstation");
}

#[test]
fn snapshots_enterprise_h100() {
    snapshot_all("enterprise-8x-h100-hgx");
}

#[test]
fn exports_are_deterministic() {
    let build = template("enterprise-8x-h100-hgx");
    for format in Format::ALL {
        let a = export::export_build(catalog(), &build, date(), format).expect("export");
        let b = export::export_build(catalog(), &build, date(), format).expect("export");
        assert_eq!(a, b, "{format:?} differs between two runs");
    }
}

#[test]
fn entry_workstation_sheet_matches_hand_figures() {
    let build = template("entry-workstation");
    let (sheet, _) = sheet_of(&build);
    assert_eq!(sheet.date.to_string(), DATE);
    assert_eq!(sheet.currency.0, "CNY");
    close(sheet.usd_exchange_rate, 7.2, 0.0);
    assert_eq!(sheet.lines.len(), 8);
    // RTX 4090: 1,599 USD launch MSRP (2022-10-12) × 7.2 CNY/USD = 11,512.80 CNY.
    let gpu = sheet.lines.first().expect("GPU line");
    assert_eq!((gpu.category, gpu.vendor.as_str()), ("GPU", "NVIDIA"));
    assert_eq!(gpu.sku.as_deref(), Some("900-1G136-2530-000"));
    assert_eq!((gpu.quantity_per_node, gpu.node_count, gpu.total_quantity), (1, 1, 1));
    close(gpu.unit_price.expect("price"), 11_512.8, 1e-9);
    assert_eq!(gpu.price_date.as_deref(), Some("2022-10-12"));
    // Memory: 2 × 95 USD × 7.2 = 1,368 CNY.
    let memory = sheet.lines.iter().find(|l| l.category == "Memory").expect("memory line");
    assert_eq!(memory.total_quantity, 2);
    close(memory.extended_price.expect("price"), 1_368.0, 1e-9);
    // Capex: (1599 + 699 + 459.99 + 2 × 95 + 289.99 + 250 + 109.95 + 219.99) USD = 3,817.92 USD
    // × 7.2 = 27,489.024 CNY; no tax, shipping or custom lines in the template.
    close(sheet.totals.parts, 27_489.024, 1e-6);
    close(sheet.totals.capex, 27_489.024, 1e-6);
    assert!(sheet.totals.tax.is_none() && sheet.totals.shipping.is_none() && sheet.totals.installation.is_none());
    assert_eq!(sheet.totals.unpriced_lines, 0);
    // On 2025-01-15 a price is stale before 2024-01-15: all but the PSU's (2024-06); the
    // memory's 2024-01 counts from 2024-01-01.
    let stale: Vec<&str> =
        sheet.lines.iter().filter(|l| l.price_basis == PriceBasis::StaleCatalog).map(|l| l.category).collect();
    assert_eq!(stale, ["GPU", "CPU", "Motherboard", "Memory", "Storage", "Cooler", "Chassis"]);
    assert_eq!(
        sheet.notes,
        [
            "7 of the 8 catalog prices are older than 12 months on 2025-01-15 (marked stale); confirm them with the vendor before ordering."
        ]
    );
    // One RTX 4090, no findings.
    let s = &sheet.summary.headline;
    assert_eq!((s.nodes, s.gpus), (1, 1));
    assert_eq!(s.compatibility.status.id(), "ok");
    let fit = s.fit.as_ref().expect("fit summary");
    assert_eq!(fit.models, catalog().models.len());
    // Qwen2.5 32B in Q4_K_M (about 19 GiB of weights) fits one 24 GB card; Llama 2 70B does not.
    let largest = fit.largest_inference.as_ref().expect("largest");
    assert_eq!(largest.model.as_str(), "model/qwen2.5-32b");
    assert_eq!(largest.workload.id(), "inference-q4_k_m-8k");
    assert!(s.tco.primary_option.is_some());
}

#[test]
fn tax_shipping_installation_and_custom_lines_reach_the_totals() {
    let mut build = template("entry-workstation");
    build.costs.tax_percent = 13.0;
    build.costs.shipping_percent = 2.0;
    build.costs.installation_percent = 5.0;
    build.custom_lines.push(CustomLine {
        name: "Cabling".to_owned(),
        amount: 150.0,
        quantity: 4,
        kind: CostKind::Capex,
    });
    build.custom_lines.push(CustomLine {
        name: "Support contract".to_owned(),
        amount: 1_200.0,
        quantity: 1,
        kind: CostKind::OpexPerYear,
    });
    let (sheet, _) = sheet_of(&build);
    let parts = 27_489.024;
    let t = &sheet.totals;
    close(t.parts, parts, 1e-6);
    // 13 % + 2 % + 5 % of the parts, then 4 × 150 of cabling: 27,489.024 × 1.20 + 600.
    close(t.tax.as_ref().expect("tax").amount, parts * 0.13, 1e-6);
    close(t.shipping.as_ref().expect("shipping").amount, parts * 0.02, 1e-6);
    close(t.installation.as_ref().expect("installation").amount, parts * 0.05, 1e-6);
    close(t.custom, 600.0, 1e-9);
    close(t.capex, parts * 1.20 + 600.0, 1e-6);
    close(t.custom_opex_per_year, 1_200.0, 1e-9);
    assert_eq!(sheet.custom_lines.len(), 2);
    let csv = csv_export::sheet_to_csv(&sheet).expect("csv");
    assert!(csv.contains("Tax (13 % of parts),3573.57"), "{csv}");
    assert!(csv.contains(&format!("Capex,{:.2}", parts * 1.20 + 600.0)), "{csv}");
    assert!(csv.contains("Cabling,capex,4,150.00,600.00"), "{csv}");
    let md = markdown::sheet_to_markdown(&sheet);
    assert!(md.contains("| Shipping (2 % of parts) | 549.78 |"), "{md}");
    assert!(md.contains("| Support contract | per year | 1 | 1,200.00 | 1,200.00 |"), "{md}");
}

fn read_xlsx(bytes: Vec<u8>) -> Xlsx<Cursor<Vec<u8>>> {
    open_workbook_from_rs(Cursor::new(bytes)).expect("calamine reads the workbook")
}

fn cell(range: &calamine::Range<Data>, row: u32, col: u32) -> &Data {
    range.get_value((row, col)).unwrap_or(&Data::Empty)
}

#[test]
fn xlsx_has_numeric_cells_totals_and_a_summary() {
    let build = template("enterprise-8x-h100-hgx");
    let (sheet, report) = sheet_of(&build);
    let mut wb = read_xlsx(xlsx::sheet_to_xlsx(&sheet).expect("xlsx"));
    assert_eq!(wb.sheet_names(), vec![xlsx::PARTS_SHEET.to_owned(), xlsx::SUMMARY_SHEET.to_owned()]);
    let parts = wb.worksheet_range(xlsx::PARTS_SHEET).expect("parts sheet");
    assert_eq!(cell(&parts, 0, 1), &Data::String(sheet.build_name.clone()));
    // The date is a real date cell (Excel serial 45,672 is 2025-01-15).
    assert!(
        matches!(cell(&parts, 1, 1), Data::DateTime(d) if (d.as_f64() - 45_672.0).abs() < 1e-9),
        "{:?}",
        cell(&parts, 1, 1)
    );
    assert_eq!(cell(&parts, 3, 1), &Data::Float(7.2));
    let header = xlsx::PARTS_HEADER_ROW;
    assert_eq!(cell(&parts, header, 9), &Data::String("Unit price (CNY)".to_owned()));
    // First line: 8 × H100 SXM5 at 27,500 USD × 7.2 = 198,000 CNY each, 1,584,000 CNY extended.
    let gpu = header + 1;
    assert_eq!(cell(&parts, gpu, 1), &Data::String("GPU".to_owned()));
    assert_eq!(cell(&parts, gpu, 6), &Data::Float(8.0));
    assert_eq!(cell(&parts, gpu, 7), &Data::Float(1.0));
    assert_eq!(cell(&parts, gpu, 8), &Data::Float(8.0));
    assert_eq!(cell(&parts, gpu, 9), &Data::Float(198_000.0));
    assert_eq!(cell(&parts, gpu, 10), &Data::Float(1_584_000.0));
    // An unpriced line leaves the price cells empty.
    let unpriced = gpu + 1;
    assert_eq!(cell(&parts, unpriced, 12), &Data::String("no price".to_owned()));
    assert_eq!(cell(&parts, unpriced, 10), &Data::Empty);
    // The extended prices sum to the Capex cell, which is a number.
    let rows = u32::try_from(sheet.lines.len()).expect("rows");
    let sum: f64 = (gpu..gpu + rows).filter_map(|r| cell(&parts, r, 10).as_f64()).sum();
    let capex_row = (0..u32::try_from(parts.height()).expect("rows"))
        .find(|&r| cell(&parts, r, 9) == &Data::String("Capex".to_owned()))
        .expect("capex row");
    close(cell(&parts, capex_row, 10).as_f64().expect("capex is a number"), sum, 1e-6);
    close(sum, report.bom.capex, 1e-6);
    // No formula anywhere.
    let formulas = wb.worksheet_formula(xlsx::PARTS_SHEET).expect("formulas");
    assert!(formulas.used_cells().all(|(_, _, f)| f.is_empty()));

    let summary = wb.worksheet_range(xlsx::SUMMARY_SHEET).expect("summary sheet");
    let value = |label: &str| {
        let row = (0..u32::try_from(summary.height()).expect("rows"))
            .find(|&r| cell(&summary, r, 0) == &Data::String(label.to_owned()))
            .unwrap_or_else(|| panic!("no summary row {label}"));
        cell(&summary, row, 1).clone()
    };
    assert_eq!(value("Wall power at max"), Data::Float(report.power.wall_watts));
    assert_eq!(value("GPUs"), Data::Float(8.0));
    assert_eq!(value("Compatibility"), Data::String("ok".to_owned()));
    assert_eq!(value("Owned total over the horizon"), Data::Float(report.tco.totals.owned));
    assert_eq!(value("Break-even month"), Data::Float(report.tco.break_even_month.expect("break-even")));
}

#[test]
fn json_export_holds_the_sheet_and_the_full_report() {
    let build = template("entry-workstation");
    let (sheet, report) = sheet_of(&build);
    let text = json::sheet_to_json(&sheet, &report).expect("json");
    let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(value["format"], "rigplan-build-sheet");
    assert_eq!(value["version"], 1);
    assert_eq!(value["sheet"]["date"], DATE);
    // Both sides go through the same text → parse path, so float parsing cannot differ.
    let reparse = |v: serde_json::Result<String>| -> serde_json::Value {
        serde_json::from_str(&v.expect("serializes")).expect("parses")
    };
    assert_eq!(value["report"], reparse(serde_json::to_string(&report)));
    assert_eq!(value["sheet"], reparse(serde_json::to_string(&sheet)));
}

/// Payloads: a DDE formula (OWASP's example), a script tag, quotes, a table pipe, formula
/// triggers at the start of text.
const DDE: &str = "=cmd|' /C calc'!A0";
const SCRIPT: &str = "<script>alert(1)</script>";
const QUOTES: &str = "\"double\" and 'single' quotes | pipe";

fn hostile_build() -> Build {
    let mut build = template("entry-workstation");
    build.name = format!("{SCRIPT} {DDE} \"q\"");
    build.description = format!("{SCRIPT}\n# heading {QUOTES}");
    if let Some(node) = build.nodes.first_mut() {
        node.name = format!("{SCRIPT} node");
        // Unknown ids are kept and listed with the id as the name.
        node.parts.push(PartLine::new(DDE, 1));
        node.parts.push(PartLine::new(SCRIPT, 1));
        node.parts.push(PartLine::new(QUOTES, 1));
        node.parts.push(PartLine::new("+SUM(A1:A9)", 1));
        node.parts.push(PartLine::new("@HYPERLINK(\"http://x\")", 1));
        node.parts.push(PartLine::new("\tTAB", 1));
    }
    for name in ["-2+3+cmd|' /C calc'!A0", "@evil", SCRIPT] {
        build.custom_lines.push(CustomLine { name: name.to_owned(), amount: 10.0, quantity: 1, kind: CostKind::Capex });
    }
    build
}

fn is_formula_like(text: &str) -> bool {
    text.starts_with(['=', '+', '-', '@', '\t', '\r'])
}

#[test]
fn hostile_names_export_safely_in_every_format() {
    let build = hostile_build();
    let (sheet, report) = sheet_of(&build);
    assert!(sheet.lines.iter().any(|l| l.name == DDE && l.category == "Unknown part"));
    assert!(sheet.notes.iter().any(|n| n.contains("catalog does not know")));
    // Six unknown ids, six `unknown-part` warnings, listed on the sheet.
    assert_eq!(sheet.summary.headline.compatibility.status.id(), "warnings");
    assert_eq!(sheet.summary.findings.iter().filter(|f| f.code == "unknown-part").count(), 6);

    // CSV: every text field that would start a formula carries the quote; numbers stay numbers.
    let text = csv_export::sheet_to_csv(&sheet).expect("csv");
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    let mut seen_dde = false;
    for record in reader.records() {
        for field in &record.expect("csv parses") {
            if is_formula_like(field) {
                assert!(field.parse::<f64>().is_ok(), "formula-like text field {field:?}");
            }
            seen_dde |= field == format!("'{DDE}");
        }
    }
    assert!(seen_dde, "the DDE payload is present, neutralized");

    // XLSX: string cells neutralized, no formula cells.
    let mut wb = read_xlsx(xlsx::sheet_to_xlsx(&sheet).expect("xlsx"));
    for name in [xlsx::PARTS_SHEET, xlsx::SUMMARY_SHEET] {
        let range = wb.worksheet_range(name).expect("sheet");
        for (_, _, data) in range.used_cells() {
            if let Data::String(s) = data {
                assert!(!is_formula_like(s), "{name}: formula-like string cell {s:?}");
            }
        }
        let formulas = wb.worksheet_formula(name).expect("formulas");
        assert!(formulas.used_cells().all(|(_, _, f)| f.is_empty()), "{name} has a formula");
    }
    let parts = wb.worksheet_range(xlsx::PARTS_SHEET).expect("parts");
    assert!(parts.used_cells().any(|(_, _, d)| d == &Data::String(format!("'{DDE}"))));
    assert!(parts.used_cells().any(|(_, _, d)| d == &Data::String("'-2+3+cmd|' /C calc'!A0".to_owned())));

    // HTML (and its SVG): no markup from the names; the text is there, escaped.
    let page = html::sheet_to_html(&sheet, &report);
    assert!(!page.to_lowercase().contains("<script"), "a script tag leaked");
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(page.contains("&quot;double&quot; and &#39;single&#39; quotes"));
    assert!(page.contains(html::CONTENT_SECURITY_POLICY));
    assert!(page.contains("<h2>Findings</h2>"));
    let svg_start = page.find("<svg").expect("power chart");
    assert!(page[svg_start..].contains(">&lt;script&gt;alert(1)"), "the node name in the chart is escaped");

    // Markdown: no raw tag, every parts row keeps the header's column count.
    let md = markdown::sheet_to_markdown(&sheet);
    assert!(!md.contains("<script>"));
    assert!(md.contains("\\<script\\>alert(1)\\</script\\>"));
    let columns = |line: &str| line.replace("\\|", "").matches('|').count();
    let header = md.lines().find(|l| l.starts_with("| Group |")).expect("parts header");
    for line in md.lines().skip_while(|l| !l.starts_with("| Group |")).take_while(|l| l.starts_with('|')) {
        assert_eq!(columns(line), columns(header), "{line}");
    }
    assert!(!md.lines().any(|l| l.starts_with("# heading")), "the description cannot start a heading");

    // JSON: the exact text survives a round trip.
    let value: serde_json::Value =
        serde_json::from_str(&json::sheet_to_json(&sheet, &report).expect("json")).expect("valid JSON");
    assert_eq!(value["sheet"]["build_name"], build.name);
    assert!(value["sheet"]["lines"].as_array().expect("lines").iter().any(|l| l["name"] == DDE));

    // File name: nothing a path or a shell would read.
    let name = default_file_name(&build.name, date(), "csv");
    assert!(!name.contains(['/', '\\', '<', '>', ':', '"', '|', '?', '*']), "{name}");
    assert!(name.ends_with(" 2025-01-15.csv"), "{name}");
}

#[test]
fn default_file_names() {
    let d = date();
    assert_eq!(
        default_file_name("Entry workstation (RTX 4090 + Ryzen 9 7950X)", d, "xlsx"),
        "Entry workstation (RTX 4090 + Ryzen 9 7950X) 2025-01-15.xlsx"
    );
    assert_eq!(default_file_name("../../secret", d, "md"), "secret 2025-01-15.md");
    assert_eq!(default_file_name("NUL", d, "html"), "NUL_ 2025-01-15.html");
    assert_eq!(default_file_name("", d, "json"), "build 2025-01-15.json");
    let long = default_file_name(&"x".repeat(1000), d, "csv");
    assert!(long.len() <= export::safety::MAX_FILE_STEM_BYTES + " 2025-01-15.csv".len(), "{}", long.len());
}

/// A build sheet gathered in Chinese (`--lang zh-CN`): every format carries the Chinese
/// headers, categories, totals, findings and notes of `export::texts::ZH`, while names, ids,
/// codes and JSON keys stay as written.
#[test]
fn chinese_sheets_translate_headers_categories_findings_and_notes() {
    use rigplan::core::i18n::Lang;
    let mut build = template("entry-workstation");
    build.name = "入门级工作站".to_owned();
    build.costs.tax_percent = 13.0;
    if let Some(node) = build.nodes.first_mut() {
        node.parts.push(PartLine::new("gpu-not-in-any-catalog", 1));
    }
    let report = analysis::analyze(catalog(), &build);
    let sheet = BuildSheet::new_in(&build, &report, date(), Lang::ZhCn);
    assert_eq!(sheet.lang, Lang::ZhCn);
    // The unknown part: its category, its finding (error) and its note, all in Chinese.
    let unknown = sheet.lines.iter().find(|l| l.kind.is_none()).expect("the unknown line is listed");
    assert_eq!(unknown.category, "未知部件");
    let gpu = sheet.lines.iter().find(|l| l.kind == Some(rigplan::core::catalog::PartKind::Gpu)).expect("a GPU line");
    assert_eq!(gpu.category, "GPU (显卡)");
    let finding = sheet.summary.findings.iter().find(|f| f.code == "unknown-part").expect("unknown-part finding");
    assert!(finding.message.contains("gpu-not-in-any-catalog"), "{}", finding.message);
    assert!(finding.message.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "{}", finding.message);
    assert!(sheet.notes.iter().any(|n| n.starts_with("1 个部件行引用了部件库中没有的部件")), "{:?}", sheet.notes);

    let csv = csv_export::sheet_to_csv(&sheet).expect("csv");
    for expected in [
        "采购清单,入门级工作站",
        "单价（CNY）",
        "金额（CNY）",
        "税费（部件的 13 %）",
        "初始投入,",
        "检查结果,代码,说明,建议修改",
        "警告,unknown-part",
    ] {
        assert!(csv.contains(expected), "CSV lacks {expected}:\n{csv}");
    }
    assert!(!csv.contains("Unit price") && !csv.contains("Totals"), "English left in the CSV:\n{csv}");

    let md = markdown::sheet_to_markdown(&sheet);
    for expected in [
        "# 采购清单：入门级工作站",
        "## 部件",
        "## 合计",
        "## 概要",
        "- **墙插功耗:** 满载 ",
        "## 检查结果",
        "## 备注",
        "## 来源",
    ] {
        assert!(md.contains(expected), "Markdown lacks {expected}:\n{md}");
    }
    let html = html::sheet_to_html(&sheet, &report);
    for expected in [
        "<html lang=\"zh-CN\">",
        "<h1>采购清单：入门级工作站</h1>",
        "<h2>各部件功耗</h2>",
        "累计成本（CNY）",
        "自建（累计支出）",
    ] {
        assert!(html.contains(expected), "HTML lacks {expected}");
    }
    let mut wb = read_xlsx(xlsx::sheet_to_xlsx(&sheet).expect("xlsx"));
    assert_eq!(wb.sheet_names(), xlsx::sheet_names(Lang::ZhCn).map(str::to_owned).to_vec());
    let parts = wb.worksheet_range("部件").expect("parts sheet");
    assert_eq!(cell(&parts, 0, 0).as_string().as_deref(), Some("采购清单"));
    assert_eq!(cell(&parts, xlsx::PARTS_HEADER_ROW, 9).as_string().as_deref(), Some("单价（CNY）"));
    // JSON: the keys stay English, the words follow the language.
    let value: serde_json::Value =
        serde_json::from_str(&json::sheet_to_json(&sheet, &report).expect("json")).expect("JSON");
    assert_eq!(value["sheet"]["lang"], "zh-CN");
    assert_eq!(value["sheet"]["lines"][0]["category"], "GPU (显卡)");
    // The English sheet of the same build is unchanged by all this.
    let en = BuildSheet::new(&build, &report, date());
    assert_eq!(en.lines[0].category, "GPU");
    assert!(csv_export::sheet_to_csv(&en).expect("csv").contains("Unit price (CNY)"));
}
