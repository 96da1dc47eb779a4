//! The China-market and domestic accelerators, their links and precisions, dated CNY prices,
//! stale prices, vendor price-list import and the Chinese GPU marketplaces in the TCO.

use super::cli::run;
use rigplan::core::analysis::prices::{PriceAgePolicy, price_ages};
use rigplan::core::analysis::{self, bom};
use rigplan::core::catalog::{Catalog, PartId, Precision, PriceCheck, price_list};
use rigplan::core::export::SheetDate;
use rigplan::core::templates;
use rigplan::core::units::{Currency, GIB};
use serde_json::Value;

fn catalog() -> Catalog {
    Catalog::embedded().expect("the embedded catalog loads")
}

fn json(args: &[&str]) -> Value {
    let (code, out, err) = run(args);
    assert!(code <= 1, "{args:?} exited {code}: {err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: {e}\n{out}"))
}

/// The new parts, each a GPU (or system) of the catalog with a source that says what was
/// checked.
const NEW_GPUS: [&str; 14] = [
    "gpu/nvidia-geforce-rtx-4090-d",
    "gpu/nvidia-geforce-rtx-5090-d",
    "gpu/nvidia-l20",
    "gpu/nvidia-l2",
    "gpu/nvidia-a800-pcie-80gb",
    "gpu/nvidia-a800-sxm4-80gb",
    "gpu/nvidia-h800-sxm5-80gb",
    "gpu/nvidia-h800-pcie-80gb",
    "gpu/nvidia-h20-96gb",
    "gpu/huawei-ascend-910b",
    "gpu/cambricon-mlu370-x8",
    "gpu/hygon-dcu-k100",
    "gpu/hygon-dcu-k100-ai",
    // Not new, but now with its FP4 rate.
    "gpu/nvidia-geforce-rtx-5090",
];

#[test]
fn catalog_list_shows_the_new_parts_with_sources_and_precisions() {
    let (code, out, err) = run(&["catalog", "list", "--kind", "gpu"]);
    assert_eq!(code, 0, "{err}");
    for id in NEW_GPUS {
        // A part's block opens with its id and a space (sources name other parts' ids too).
        let at = out.find(&format!("\n{id} ")).unwrap_or_else(|| panic!("{id} listed"));
        let block: String = out[at + 1..].lines().take(3).collect::<Vec<_>>().join("\n");
        assert!(block.contains("    tensor precisions: FP16"), "{block}");
        assert!(block.contains("    source: "), "{block}");
    }
    // The yuan price of the 4090 D as the catalog gives it, with its date.
    assert!(out.contains("12,999 CNY (2023-12-28)"), "{out}");
    let (code, out, _) = run(&["catalog", "list", "--kind", "system"]);
    assert_eq!(code, 0);
    assert!(out.contains("system/huawei-atlas-800t-a2"), "{out}");
    let list = json(&["catalog", "list", "--kind", "gpu", "--json"]);
    let h20 = list.as_array().expect("array").iter().find(|p| p["id"] == "gpu/nvidia-h20-96gb").expect("H20");
    assert_eq!(h20["tensor_precisions"], serde_json::json!(["fp16", "bf16", "fp8", "int8"]));
    assert_eq!(h20["price"]["currency"], "USD");
    let d = list.as_array().expect("array").iter().find(|p| p["id"] == "gpu/nvidia-geforce-rtx-4090-d").expect("D");
    assert_eq!(d["price"], serde_json::json!({"amount": 12999.0, "currency": "CNY", "date": "2023-12-28"}));
    assert!(d["price_usd"].is_null(), "a yuan price is not a USD price");
}

#[test]
fn precisions_follow_the_datasheet_rates() {
    let c = catalog();
    let gpu = |id: &str| c.gpu(&PartId::from(id)).unwrap_or_else(|| panic!("{id}")).clone();
    assert_eq!(
        gpu("gpu/nvidia-a800-sxm4-80gb").tensor_precisions(),
        [Precision::Fp16, Precision::Bf16, Precision::Int8]
    );
    assert_eq!(
        gpu("gpu/nvidia-geforce-rtx-5090-d").tensor_precisions(),
        [Precision::Fp16, Precision::Bf16, Precision::Fp8, Precision::Int8, Precision::Fp4]
    );
    assert!(!gpu("gpu/huawei-ascend-910b").supports(Precision::Fp8), "FP8 comes with the Ascend 950");
    // Hygon's K100 table gives no BF16 rate, the K100-AI 196 TFLOPS; neither has FP8.
    assert_eq!(gpu("gpu/hygon-dcu-k100").tensor_precisions(), [Precision::Fp16, Precision::Int8]);
    assert_eq!(gpu("gpu/hygon-dcu-k100-ai").tensor_precisions(), [Precision::Fp16, Precision::Bf16, Precision::Int8]);
    // The L2 is an Ada card with FP8 at twice its 96.5 TFLOPS FP16 (193 in the listing).
    let l2 = gpu("gpu/nvidia-l2");
    assert_eq!(l2.fp8_tensor_tflops, Some(2.0 * l2.fp16_tensor_tflops));
    // The H800 PCIe is the H100 PCIe with NVLink cut to 400 GB/s: same rates, slower bridge.
    let (h800, h100) = (gpu("gpu/nvidia-h800-pcie-80gb"), gpu("gpu/nvidia-h100-pcie-80gb"));
    assert_eq!(h800.tensor_precisions(), h100.tensor_precisions());
    assert_eq!(
        (h800.fp16_tensor_tflops, h800.fp8_tensor_tflops, h800.memory_bandwidth_gbs),
        (h100.fp16_tensor_tflops, h100.fp8_tensor_tflops, h100.memory_bandwidth_gbs)
    );
    assert_eq!((h800.interconnect.bandwidth_gbs(), h100.interconnect.bandwidth_gbs()), (Some(400.0), Some(600.0)));
    assert!(!gpu("gpu/nvidia-v100-sxm2-32gb").supports(Precision::Bf16), "Volta has no BF16");
    // Every Blackwell part has FP4, no earlier part does.
    for g in &c.gpus {
        assert_eq!(g.supports(Precision::Fp4), g.architecture == "Blackwell", "{}", g.id);
    }
    // The 4090 D is the 4090's whitepaper rate per SM and clock on 114 of its 128 SMs:
    // 165.2 × 114 / 128 = 147.1 TFLOPS, and INT8 four times that, 588.4 TOPS (TPP 588.4 × 8 =
    // 4707, under the 4800 the export rules allow; the 4090's 660.6 × 8 = 5285 is over).
    let d = gpu("gpu/nvidia-geforce-rtx-4090-d");
    assert!((d.fp16_tensor_tflops - 165.2 * 114.0 / 128.0).abs() < 0.05);
    assert!(d.int8_tops.is_some_and(|t| t * 8.0 < 4800.0 && (t - 4.0 * d.fp16_tensor_tflops).abs() < 0.1));
    assert!(gpu("gpu/nvidia-geforce-rtx-4090").int8_tops.is_some_and(|t| t * 8.0 > 4800.0));
}

#[test]
fn fit_uses_the_real_memory_bandwidth_and_link() {
    let fit = |gpu: &str, extra: &[&str]| {
        let mut args = vec!["fit", "--model", "meta-llama-3.1-8b", "--gpu", gpu, "--json"];
        args.extend_from_slice(extra);
        json(&args)
    };
    // Memory: the catalog's capacity, binary GiB.
    for (gpu, gib) in [
        ("nvidia-h20-96gb", 96),
        ("huawei-ascend-910b", 64),
        ("cambricon-mlu370-x8", 48),
        ("nvidia-l2", 24),
        ("nvidia-h800-pcie-80gb", 80),
        ("hygon-dcu-k100", 64),
        ("hygon-dcu-k100-ai", 64),
    ] {
        assert_eq!(fit(gpu, &[])["gpu_memory_bytes"].as_u64(), Some(gib * GIB), "{gpu}");
    }
    // A decode step of one user reads the same weights and KV cache on both: H100 SXM's read
    // time over H20's is their bandwidth ratio, 4000 / 3350 GB/s. (The step's matrix
    // multiplications run at each card's own peak: 148 TFLOPS on the H20, 989 on the H100.)
    let read_s = |gpu: &str| fit(gpu, &[])["serving"]["single"]["step"]["memory_s"].as_f64().expect("a step");
    let ratio = read_s("nvidia-h100-sxm5-80gb") / read_s("nvidia-h20-96gb");
    assert!((ratio - 4000.0 / 3350.0).abs() < 1e-9, "{ratio}");
    let decode = |gpu: &str| fit(gpu, &[])["decode_tokens_per_s"].as_f64().expect("a speed");
    assert!(decode("nvidia-h20-96gb") > decode("nvidia-h100-sxm5-80gb"), "decode is bound by the memory reads");
    // The same for the new PCIe cards: one user's decode step reads the same bytes on the L2
    // and the K100-AI, so the read times are in the ratio of their 896 and 300 GB/s.
    let ratio = read_s("nvidia-l2") / read_s("hygon-dcu-k100-ai");
    assert!((ratio - 896.0 / 300.0).abs() < 1e-9, "{ratio}");
    // Links: the reduced NVLink of the China-market parts (bidirectional per GPU / 2 per
    // direction), Huawei's HCCS, PCIe for the MLU370-X8.
    for (gpu, link) in [
        ("nvidia-h20-96gb", "NVLink 4 switch, 450 GB/s per direction"),
        ("nvidia-h800-sxm5-80gb", "NVLink 4 switch, 200 GB/s per direction"),
        ("nvidia-a800-sxm4-80gb", "NVLink 3 switch, 200 GB/s per direction"),
        ("huawei-ascend-910b", "HCCS full mesh, 196 GB/s per direction"),
        ("cambricon-mlu370-x8", "PCIe 4.0 x16 only"),
        ("hygon-dcu-k100-ai", "PCIe 4.0 x16 only"),
    ] {
        let v = fit(gpu, &["--gpus", "8", "--tp", "8"]);
        assert!(v["interconnect"].as_str().is_some_and(|s| s.contains(link)), "{gpu}: {}", v["interconnect"]);
    }
    // The slower link costs decode speed at TP 8 on the same compute and memory.
    let tp8 = |gpu: &str| {
        let v = json(&["fit", "--model", "meta-llama-3.1-70b", "--gpu", gpu, "--gpus", "8", "--tp", "8", "--json"]);
        v["decode_tokens_per_s"].as_f64().expect("a speed")
    };
    assert!(tp8("nvidia-h800-sxm5-80gb") < tp8("nvidia-h100-sxm5-80gb"));
}

#[test]
fn no_fp8_speed_without_fp8_tensor_units() {
    let fp8 = |gpu: &str| json(&["fit", "--model", "meta-llama-3.1-8b", "--gpu", gpu, "--weights", "fp8", "--json"]);
    for gpu in [
        "nvidia-a800-sxm4-80gb",
        "huawei-ascend-910b",
        "cambricon-mlu370-x8",
        "nvidia-a100-sxm4-80gb",
        "hygon-dcu-k100",
        "hygon-dcu-k100-ai",
    ] {
        let v = fp8(gpu);
        assert_eq!(v["fits"], true, "{gpu}: the memory still fits");
        assert!(v["decode_tokens_per_s"].is_null() && v["prefill_tokens_per_s"].is_null(), "{gpu}: {v}");
        let notes = v["notes"].to_string();
        assert!(notes.contains("has no FP8 tensor units") && notes.contains("Ada Lovelace and Hopper"), "{notes}");
    }
    for gpu in ["nvidia-h20-96gb", "nvidia-geforce-rtx-4090-d", "nvidia-l20", "nvidia-l2", "nvidia-h800-pcie-80gb"] {
        assert!(fp8(gpu)["decode_tokens_per_s"].as_f64().is_some_and(|t| t > 0.0), "{gpu}");
    }
    // BF16 on Volta and on Hygon's K100 runs as FP16, said so, with a speed; the K100-AI has
    // BF16 and no such note.
    for gpu in ["nvidia-v100-sxm2-32gb", "hygon-dcu-k100"] {
        let v = json(&["fit", "--model", "meta-llama-3.1-8b", "--gpu", gpu, "--json"]);
        assert!(v["decode_tokens_per_s"].as_f64().is_some(), "{gpu}");
        assert!(v["notes"].to_string().contains("has no BF16 tensor units"), "{gpu}: {}", v["notes"]);
    }
    let v = json(&["fit", "--model", "meta-llama-3.1-8b", "--gpu", "hygon-dcu-k100-ai", "--json"]);
    assert!(!v["notes"].to_string().contains("BF16"), "{}", v["notes"]);
}

#[test]
fn yuan_prices_convert_only_when_the_currencies_differ() {
    let c = catalog();
    let build = templates::find("china-2026-entry-workstation").expect("template").load().expect("loads");
    let report = analysis::analyze(&c, &build);
    let line = report.bom.lines.iter().find(|l| l.part.as_str() == "gpu/nvidia-geforce-rtx-4090-d").expect("4090 D");
    assert_eq!(line.unit_price, Some(12_999.0), "a CNY price in a CNY build is taken as it is");
    assert_eq!(
        line.price_origin,
        bom::PriceOrigin::Catalog { amount: 12_999.0, currency: Currency("CNY".into()), date: "2023-12-28".into() }
    );
    // In a USD build the yuan price goes through the reference rate, 7.2 CNY per USD.
    let usd = bom::convert_price(12_999.0, "CNY", &Currency("USD".into()), 1.0).expect("converts");
    assert!((usd - 12_999.0 / 7.2).abs() < 1e-9);
    // In EUR at 0.9 per USD: CNY → USD → EUR.
    let eur = bom::convert_price(7_200.0, "CNY", &Currency("EUR".into()), 0.9).expect("converts");
    assert!((eur - 900.0).abs() < 1e-9);
    assert_eq!(bom::convert_price(1.0, "JPY", &Currency("USD".into()), 1.0), None);
    // The 4090 template at the same site pays the 4090's USD launch price × 7.2 = 11,512.8.
    let entry = templates::find("entry-workstation").expect("template").load().expect("loads");
    let r = analysis::analyze(&c, &entry);
    let l = r.bom.lines.iter().find(|l| l.part.as_str() == "gpu/nvidia-geforce-rtx-4090").expect("4090");
    assert!((l.unit_price.expect("priced") - 1599.0 * 7.2).abs() < 1e-9);
}

#[test]
fn stale_prices_are_counted_in_the_report_and_marked_on_the_sheet() {
    let c = catalog();
    let build = templates::find("china-2026-entry-workstation").expect("template").load().expect("loads");
    let report = analysis::analyze(&c, &build);
    let as_of = SheetDate::parse("2026-12-06").expect("date");
    let ages = price_ages(&report.bom, PriceAgePolicy::at(as_of));
    // Count by hand from the catalog dates of the template's eight lines: a line is stale
    // when its date is before 2025-12-06.
    let expected_stale = report
        .bom
        .lines
        .iter()
        .filter(|l| matches!(&l.price_origin, bom::PriceOrigin::Catalog { date, .. } if date.as_str() < "2025-12-06"))
        .count();
    assert_eq!(ages.dated_lines, 8);
    assert_eq!(ages.stale_lines(), expected_stale);
    assert!(ages.stale.iter().any(|s| s.part.as_str() == "gpu/nvidia-geforce-rtx-4090-d" && s.age_months == 35));
    // The CLI report says the same, and a threshold of 120 months finds none stale.
    let v = json(&["report", "catalog/builds/china-2026-entry-workstation.ron", "--json", "--date", "2026-12-06"]);
    assert_eq!(v["prices"]["stale"].as_array().map(Vec::len), Some(expected_stale));
    assert_eq!(v["prices"]["stale_after_months"], 12);
    let v = json(&[
        "report",
        "catalog/builds/china-2026-entry-workstation.ron",
        "--json",
        "--date",
        "2026-12-06",
        "--stale-months",
        "120",
    ]);
    assert_eq!(v["prices"]["stale"].as_array().map(Vec::len), Some(0));
    let (code, _, err) = run(&["report", "catalog/builds/entry-workstation.ron", "--stale-months", "0"]);
    assert_eq!(code, 2, "0 months is refused: {err}");
    // The text report lists them.
    let (_, out, _) =
        run(&["report", "catalog/builds/china-2026-entry-workstation.ron", "--date", "2026-12-06", "--lang", "en"]);
    assert!(out.contains(&format!("Prices: {expected_stale} of 8 catalog price(s) are older than 12 months")), "{out}");
    // Every sheet marks the stale lines and notes them.
    let (code, csv, err) = run(&[
        "export",
        "catalog/builds/china-2026-entry-workstation.ron",
        "--format",
        "csv",
        "--date",
        "2026-12-06",
        "--lang",
        "en",
    ]);
    assert_eq!(code, 0, "{err}");
    let marked = csv.lines().filter(|l| l.contains("catalog (stale price)")).count();
    assert_eq!(marked, expected_stale, "{csv}");
    assert!(csv.contains(&format!("{expected_stale} of the 8 catalog prices are older than 12 months on 2026-12-06")));
    let (_, md, _) = run(&[
        "export",
        "catalog/builds/china-2026-entry-workstation.ron",
        "--format",
        "md",
        "--date",
        "2026-12-06",
        "--stale-months",
        "120",
        "--lang",
        "en",
    ]);
    assert!(!md.contains("stale"), "nothing is stale at 120 months:\n{md}");
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

#[test]
fn a_price_list_is_matched_row_by_row_and_imported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let list = write(
        dir.path(),
        "vendor.csv",
        "Part ID,Name,Price,Currency,Date\n\
         gpu/nvidia-geforce-rtx-4090-d,,\"¥13,499\",CNY,2026/11/20\n\
         ,L20 48GB,\"42,000\",rmb,2026-11\n\
         gpu/does-not-exist,,100,USD,2026-11-01\n\
         ,Some Card,100,USD,2026-11-01\n\
         gpu/nvidia-h20-96gb,,abc,USD,2026-11-01\n\
         gpu/nvidia-h20-96gb,,12000,JPY,2026-11-01\n\
         gpu/nvidia-h20-96gb,,12000,USD,last week\n\
         cpu/amd-ryzen-9-7950x,,3999,CNY,2026-11-01\n\
         cpu/amd-ryzen-9-7950x,,3899,CNY,2026-11-15\n",
    );
    let folder = dir.path().join("user-catalog");
    let (code, out, err) = run(&[
        "--catalog",
        folder.to_str().expect("utf-8"),
        "catalog",
        "import-prices",
        list.to_str().expect("utf-8"),
        "--lang",
        "en",
    ]);
    assert_eq!(code, 1, "some rows did not match: {out}{err}");
    assert!(out.contains("Imported 3 price(s)"), "{out}");
    assert!(
        out.contains("row 2: gpu/nvidia-geforce-rtx-4090-d (GeForce RTX 4090 D, by id) = 13,499 CNY (2026-11-20)"),
        "{out}"
    );
    assert!(out.contains("row 3: gpu/nvidia-l20 (L20 48GB, by name) = 42,000 CNY (2026-11)"), "{out}");
    for (row, why) in [
        (4, "no catalog part has the id `gpu/does-not-exist`"),
        (5, "no catalog part is named `Some Card`"),
        (6, "price `abc` is not a number"),
        (7, "currency `JPY` is not one rigplan converts"),
        (8, "date `last week` is not a date"),
        (9, "row 10 prices the same part again; the later row is used"),
    ] {
        assert!(out.contains(&format!("row {row} `")) && out.contains(why), "row {row}: {why}\n{out}");
    }
    // The prices file holds the three matched prices, and the catalog uses them.
    let text = std::fs::read_to_string(folder.join(price_list::PRICES_FILE)).expect("prices.ron written");
    assert!(text.contains("gpu/nvidia-l20") && text.contains("42000.0"), "{text}");
    let v = json(&[
        "--catalog",
        folder.to_str().expect("utf-8"),
        "report",
        "catalog/builds/china-2026-entry-workstation.ron",
        "--json",
    ]);
    let lines = v["bom"]["lines"].as_array().expect("lines");
    let price = |id: &str| lines.iter().find(|l| l["part"] == id).map(|l| l["unit_price"].clone());
    assert_eq!(price("gpu/nvidia-geforce-rtx-4090-d"), Some(serde_json::json!(13_499.0)));
    assert_eq!(price("cpu/amd-ryzen-9-7950x"), Some(serde_json::json!(3_899.0)));
    // A second import replaces a part's price and keeps the others.
    let again = write(dir.path(), "again.csv", "id,price,currency,date\ngpu/nvidia-l20,40000,CNY,2026-12-01\n");
    let (code, out, _) = run(&[
        "--catalog",
        folder.to_str().expect("utf-8"),
        "catalog",
        "import-prices",
        again.to_str().expect("utf-8"),
    ]);
    assert_eq!(code, 0, "{out}");
    let entries: Vec<price_list::PriceListEntry> =
        ron::from_str(&std::fs::read_to_string(folder.join(price_list::PRICES_FILE)).expect("read")).expect("parses");
    assert_eq!(entries.len(), 3);
    assert!(entries.iter().any(|e| e.part.as_str() == "gpu/nvidia-l20" && (e.amount - 40_000.0).abs() < 1e-9));
    assert!(folder.join("prices.ron.bak").exists(), "the previous file is kept");
    // The user catalog validates with the imported prices.
    let (code, out, _) = run(&["catalog", "validate", folder.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn an_xlsx_price_list_with_date_cells_imports() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("list.xlsx");
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    let date = rust_xlsxwriter::ExcelDateTime::from_ymd(2026, 11, 3).expect("date");
    let format = rust_xlsxwriter::Format::new().set_num_format("yyyy-mm-dd");
    for (col, header) in ["型号", "单价", "币种", "报价日期"].iter().enumerate() {
        sheet.write_string(0, u16::try_from(col).expect("col"), *header).expect("header");
    }
    sheet.write_string(1, 0, "GeForce RTX 4090 D").expect("name");
    sheet.write_number(1, 1, 12_800.0).expect("price");
    sheet.write_string(1, 2, "CNY").expect("currency");
    sheet.write_datetime_with_format(1, 3, &date, &format).expect("date cell");
    book.save(&path).expect("saves");
    let rows =
        price_list::read_price_list(&std::fs::read(&path).expect("read"), price_list::PriceListFormat::Spreadsheet)
            .expect("a list");
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].row, rows[0].date.as_str()), (2, "2026-11-03"));
    let outcome = price_list::match_rows(&catalog(), &rows);
    assert!(outcome.unmatched.is_empty(), "{:?}", outcome.unmatched);
    assert_eq!(outcome.matched[0].part.as_str(), "gpu/nvidia-geforce-rtx-4090-d");
    assert_eq!(outcome.matched[0].price.date, "2026-11-03");
    // A list without a price column is refused as a whole, naming what is missing.
    let bad = write(dir.path(), "bad.csv", "id,currency,date\ngpu/nvidia-l20,CNY,2026-11-01\n");
    let folder = dir.path().join("cat");
    let (code, _, err) =
        run(&["--catalog", folder.to_str().expect("utf-8"), "catalog", "import-prices", bad.to_str().expect("utf-8")]);
    assert_eq!(code, 2);
    assert!(err.contains("lacks price"), "{err}");
    assert!(!folder.join(price_list::PRICES_FILE).exists(), "nothing is written");
}

#[test]
fn chinese_marketplaces_price_the_china_templates_in_yuan() {
    let c = catalog();
    let tco = |slug: &str| {
        let build = templates::find(slug).expect("template").load().expect("loads");
        analysis::analyze(&c, &build).tco
    };
    let server = tco("china-2026-enterprise-server");
    let option = |tco: &analysis::tco::Tco, id: &str| {
        tco.options.iter().find(|o| o.input.id == id).unwrap_or_else(|| panic!("{id} in the TCO")).clone()
    };
    let h20 = option(&server, "youyunzhisuan-8x-h20:on_demand");
    // One 8-GPU machine at 60 CNY per hour, in a CNY build: no conversion.
    assert_eq!((h20.input.instances, h20.input.price), (1, 60.0));
    // AutoDL's whole H20 machine: 8 × 6.98 = 55.84 CNY per hour.
    let autodl = option(&server, "autodl-8x-h20:on_demand");
    assert_eq!(autodl.input.instances, 1);
    assert!((autodl.input.price - 8.0 * 6.98).abs() < 1e-9, "{}", autodl.input.price);
    // Only whole H20 machines price the NVLink-joined HGX node: every option rents H20s.
    assert!(server.options.iter().all(|o| o.input.gpu.as_ref().is_some_and(|g| g.as_str() == "gpu/nvidia-h20-96gb")));
    let entry = tco("china-2026-entry-workstation");
    let d = option(&entry, "suanjiayun-rtx-4090-d:on_demand");
    assert!((d.input.price - 1.14).abs() < 1e-12);
    // Used hours only: 8,760 h × utilization 0.5 × 1.14 CNY per year.
    assert!((d.per_year - 8_760.0 * 0.5 * 1.14).abs() < 1e-6, "{}", d.per_year);
    // AutoDL's 4090 D, by the hour (1.88 CNY × 4,380 used hours) and by the month (946 CNY × 12
    // whether used or not).
    let hourly = option(&entry, "autodl-rtx-4090-d:on_demand");
    assert!((hourly.per_year - 8_760.0 * 0.5 * 1.88).abs() < 1e-6, "{}", hourly.per_year);
    let monthly = option(&entry, "autodl-rtx-4090-d:monthly");
    assert!((monthly.per_year - 946.0 * 12.0).abs() < 1e-6, "{}", monthly.per_year);
    // At 50 % use the subscription costs more than the hours: 11,352 > 8,234.4 CNY a year.
    assert!(monthly.per_year > hourly.per_year);
}

#[test]
fn the_chinese_clouds_price_in_yuan_with_their_sources() {
    let c = catalog();
    let cny: Vec<_> = c.clouds.iter().filter(|o| o.currency == Currency("CNY".into())).collect();
    let providers: std::collections::BTreeSet<&str> = cny.iter().map(|o| o.provider.as_str()).collect();
    for provider in ["AutoDL", "Tencent Cloud (腾讯云)", "Alibaba Cloud (阿里云)"] {
        assert!(providers.contains(provider), "{provider} in {providers:?}");
    }
    // No Chinese price was read on a provider's own page: none claims to be.
    assert!(cny.iter().all(|o| o.price_check != PriceCheck::ProviderPage));
    let offer = |id: &str| c.cloud(id).unwrap_or_else(|| panic!("{id}"));
    // The monthly (包月) prices where a source publishes one.
    assert_eq!(offer("autodl-rtx-4090").monthly_per_month, Some(1052.0));
    assert_eq!(offer("autodl-rtx-4090-d").monthly_per_month, Some(946.0));
    assert_eq!(offer("tencent-scf-pnv4-a10").monthly_per_month, Some(5644.98));
    // Each names its source, and an unverified one says why.
    for o in &cny {
        assert!(o.source.len() > 80, "{}: {}", o.id, o.source);
        if o.price_check == PriceCheck::Unverified {
            assert!(o.source.contains("Unverified"), "{}: {}", o.id, o.source);
        }
    }
    // `rigplan tco` of a 4090 D build lists AutoDL's offer with its monthly term.
    let (code, out, err) = run(&[
        "tco",
        "catalog/builds/china-2026-entry-workstation.ron",
        "--offer",
        "autodl-rtx-4090-d:monthly",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    let option = v["options"].as_array().and_then(|o| o.first()).expect("one option");
    assert_eq!((option["term"].as_str(), option["price"].as_f64()), (Some("monthly"), Some(11_352.0)));
}

#[test]
fn a_monthly_subscription_bills_twelve_months_a_year() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("clouds.ron"),
        r#"[(
    id: "test-monthly-4090-d",
    provider: "Test",
    instance: "1x 4090 D",
    gpu: "gpu/nvidia-geforce-rtx-4090-d",
    gpus_per_instance: 1,
    region: "cn",
    currency: "CNY",
    on_demand_per_hour: 2.0,
    monthly_per_month: 900.0,
    price_date: "2026-11",
    price_check: ThirdParty,
    source: "test",
)]"#,
    )
    .expect("write");
    let v = json(&[
        "--catalog",
        dir.path().to_str().expect("utf-8"),
        "tco",
        "catalog/builds/china-2026-entry-workstation.ron",
        "--offer",
        "test-monthly-4090-d:monthly",
        "--json",
    ]);
    let option = v["options"].as_array().and_then(|o| o.first()).expect("one option");
    assert_eq!(option["term"], "monthly");
    assert_eq!(option["billing"], "fixed_annual");
    assert_eq!(option["price"], 10_800.0, "900 CNY × 12 months");
    assert_eq!(option["per_year"], 10_800.0);
    // A monthly price above the same month on demand is a warning.
    std::fs::write(
        dir.path().join("clouds.ron"),
        std::fs::read_to_string(dir.path().join("clouds.ron")).expect("read").replace("900.0", "2000.0"),
    )
    .expect("write");
    let (code, out, _) = run(&["catalog", "validate", dir.path().to_str().expect("utf-8")]);
    assert_eq!(code, 0, "a warning only: {out}");
    assert!(out.contains("monthly_per_month is above the on-demand price"), "{out}");
}

#[test]
fn the_advisor_says_which_precision_a_card_lacks() {
    let args = [
        "advise",
        "--model",
        "meta-llama-3.1-8b",
        "--mode",
        "inference",
        "--weights",
        "fp8",
        "--users",
        "4",
        "--tokens-per-user",
        "10",
        "--budget",
        "300000",
        "--currency",
        "CNY",
        "--form",
        "tower",
        "--lang",
        "en",
    ];
    let (code, out, err) = run(&[&args[..], &["--why-not", "gpu/nvidia-geforce-rtx-3090"]].concat());
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "GeForce RTX 3090 (Founders Edition) has no FP8 tensor units, so it cannot run Llama 3.1 8B in FP8"
        ),
        "{out}"
    );
    // Every build on the front has FP8 tensor units.
    let v = json(&[&args[..], &["--json"]].concat());
    let c = catalog();
    let front = v["front"].as_array().expect("the front");
    assert!(!front.is_empty());
    for cand in front {
        let gpu = cand["key"]["gpu"].as_str().expect("a gpu id");
        assert!(c.gpu(&PartId::from(gpu)).is_some_and(|g| g.supports(Precision::Fp8)), "{gpu}");
    }
}

#[test]
fn a_broken_prices_file_is_refused_with_its_position() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join(price_list::PRICES_FILE),
        "[\n    (part: \"gpu/nvidia-l20\", amount: 40000.0, currency: \"JPY\", date: \"2026-11\"),\n    (part: \"gpu/gone\", amount: 1.0, currency: \"USD\", date: \"2026-11\"),\n]\n",
    )
    .expect("write");
    let (code, out, _) = run(&["catalog", "validate", dir.path().to_str().expect("utf-8")]);
    assert_eq!(code, 2, "{out}");
    let file = dir.path().join(price_list::PRICES_FILE).display().to_string();
    assert!(out.contains(&format!("{file}:2:12: gpu/nvidia-l20: currency `JPY` is not one rigplan converts")), "{out}");
    assert!(out.contains(&format!("{file}:3:12: warning: gpu/gone: no catalog part has this id")), "{out}");
}

#[test]
fn a_part_column_of_names_matches_by_name() {
    let rows = price_list::read_price_list(
        "Part,Name,Price,Currency,Date\n\
         GeForce RTX 4090 D,,12800,CNY,2026-11-01\n\
         gpu/nvidia-l99,,1,USD,2026-11-01\n\
         ,gpu/nvidia-l20,42000,CNY,2026-11\n"
            .as_bytes(),
        price_list::PriceListFormat::Csv,
    )
    .expect("a list");
    let outcome = price_list::match_rows(&catalog(), &rows);
    // A "part" column of names matches by name; a name column that holds an id, by id.
    let by: Vec<(&str, price_list::MatchedBy)> = outcome.matched.iter().map(|m| (m.part.as_str(), m.by)).collect();
    assert_eq!(
        by,
        [("gpu/nvidia-geforce-rtx-4090-d", price_list::MatchedBy::Name), ("gpu/nvidia-l20", price_list::MatchedBy::Id)]
    );
    let why = outcome.unmatched[0].reason.render(rigplan::core::i18n::Lang::En);
    assert_eq!(why, "no catalog part has the id `gpu/nvidia-l99`");
}
