//! `report`, `fit` and `tco` in Chinese (`--lang zh-CN`): the CLI's own words are Chinese, no
//! English heading is left, the tables line up by display width, and a bad `--lang` is bad
//! input. Figures are of the template build `catalog/builds/entry-workstation.ron` (one RTX
//! 4090 24 GB, a 220 V / 10 A site, 7.2 CNY per USD).

use crate::cli::run;
use rigplan::core::units::format_thousands;
use unicode_width::UnicodeWidthStr;

const BUILD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/catalog/builds/entry-workstation.ron");

fn has_line(out: &str, line: &str) -> bool {
    out.lines().any(|l| l == line)
}

fn assert_lines(out: &str, lines: &[&str]) {
    for line in lines {
        assert!(has_line(out, line), "no line `{line}` in:\n{out}");
    }
}

fn assert_no_english(out: &str, english: &[&str]) {
    for e in english {
        assert!(!out.contains(e), "English `{e}` left in:\n{out}");
    }
}

#[test]
fn report_in_chinese() {
    let (code, out, err) = run(&["report", BUILD, "--lang", "zh-CN"]);
    assert_eq!(code, 0, "{err}");
    assert_lines(
        &out,
        &[
            "1 个节点，1 块 GPU",
            // 220 V × 10 A × 0.8 (continuous-load rule) = 1,760 W for one 807 W workstation.
            "    电路：807 W / 持续负载上限 1,760 W（220 V，10 A，1 相，80 %）：需要 1 路电路",
            "没有兼容性检查结果。",
        ],
    );
    for start in [
        "初始投入：",
        "功耗（利用率 50 %，场地电压 220 V，",
        "散热（环境温度 25 °C）：发热量 ",
        "总拥有成本：周期 3.00 年，利用率 50 %（",
    ] {
        assert!(out.lines().any(|l| l.starts_with(start)), "no line starting `{start}` in:\n{out}");
    }
    assert!(
        out.contains(
            "Workstation 的工作负载适配（每节点 1 × GeForce RTX 4090 (Founders Edition)，1 个节点，每块显存 24.00 GiB）"
        ),
        "{out}"
    );
    // Llama 3.1 8B in bf16 (16.06 GB of weights) fits a 24 GB card; its full fine-tune does not.
    let llama = out.lines().find(|l| l.trim_start().starts_with("Llama 3.1 8B ")).expect("Llama 3.1 8B row");
    assert!(llama.contains("可运行×1 ") && llama.trim_end().ends_with("显存不足"), "{llama}");
    // The fit matrix lines up: every row as wide as its heading, in terminal columns.
    let heading = out.lines().find(|l| l.starts_with("  模型 ")).expect("the matrix heading");
    assert!(heading.contains("推理 bf16 4k") && heading.contains("全参数微调"), "{heading}");
    let rows: Vec<&str> =
        out.lines().skip_while(|l| !l.starts_with("  模型 ")).skip(1).take_while(|l| !l.starts_with("  （")).collect();
    assert!(rows.len() > 10, "{out}");
    for row in rows {
        assert_eq!(row.width(), heading.width(), "`{row}` is not aligned with `{heading}`");
    }
    assert_no_english(
        &out,
        &[
            "node(s)",
            "Capex:",
            "Power (",
            "DC: idle",
            "wall: idle",
            "recommended PSU",
            "circuit:",
            "Total:",
            "Thermal (",
            "airflow:",
            "Workload fit on",
            "  model ",
            "fits×",
            "TCO over",
            "owned:",
            "break-even",
            "No compatibility findings",
        ],
    );
}

#[test]
fn fit_in_chinese() {
    let (code, out, err) =
        run(&["fit", "--model", "meta-llama-3.1-8b", "--gpu", "nvidia-geforce-rtx-4090", "--lang", "zh-CN"]);
    assert_eq!(code, 0, "{err}");
    assert_lines(
        &out,
        &[
            // 8,030,261,248 parameters (the model card), inference with bf16 weights by default.
            "Llama 3.1 8B（8,030,261,248 参数），推理",
            "权重 bf16，KV 缓存 fp16，批大小 1，上下文长度 4096，TP 1 × PP 1 × DP 1",
            "每块 GPU 的显存占用：",
            // 2 bytes × 8,030,261,248; the label padded to 14 columns, "权重" being 4 of them.
            "  权重              14.96 GiB  （16,060,522,496 字节）",
            "  梯度                      -",
            // 32 layers × 8 KV heads × 128 dims × 2 (K and V) × 2 bytes (fp16) = 131,072 bytes.
            "每 token 的 KV 缓存：128.0 KiB（131,072 字节）",
        ],
    );
    assert!(out.lines().any(|l| l.starts_with("结论：可运行 — 占 24.00 GiB 显存的 ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("解码：") && l.ends_with(" tokens/s")), "{out}");
    assert_no_english(&out, &["parameters", "Per GPU", "weights ", "Verdict", "Decode", "Prefill", "inference"]);

    // LoRA of the same model on the build does not fit: exit 1, the suggestions in Chinese.
    let (code, out, _) = run(&[
        "fit",
        "--model",
        "meta-llama-3.1-8b",
        "--build",
        BUILD,
        "--mode",
        "lora",
        "--tokens",
        "1B",
        "--lang",
        "zh-CN",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.lines().any(|l| l.starts_with("结论：显存不足 — ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("能装进显存的最小修改：")), "{out}");
    // A misfit runs at no speed: no training time, and the reason.
    assert!(out.lines().any(|l| l == "没有速度数据：该工作负载装不进显存。"), "{out}");
    assert!(!out.contains("训练时间："), "{out}");
    assert_no_english(&out, &["Smallest change", "  or: ", "Training", "hours", "Verdict", "No speed"]);
    // With gradient checkpointing it fits: the training time and energy in Chinese.
    let (code, out, _) = run(&[
        "fit",
        "--model",
        "meta-llama-3.1-8b",
        "--build",
        BUILD,
        "--mode",
        "lora",
        "--recompute",
        "full",
        "--tokens",
        "1B",
        "--lang",
        "zh-CN",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.lines().any(|l| l.starts_with("训练时间：") && l.contains(" GPU 小时")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("训练能耗：按 GPU 板卡功耗计 ")), "{out}");
    assert_no_english(&out, &["Training", "hours", "energy", "MWh at"]);
}

#[test]
fn tco_in_chinese() {
    let (code, out, err) = run(&["tco", BUILD, "--lang", "zh-CN"]);
    assert_eq!(code, 0, "{err}");
    assert_lines(
        &out,
        &[
            "Entry workstation (RTX 4090 + Ryzen 9 7950X) 的总拥有成本：周期 3.00 年（36 个月），利用率 50 %，1 块 GPU（gpu/nvidia-geforce-rtx-4090）",
            // Four columns right-aligned in 4, 16, 16, 16 and 18 columns; each character two wide.
            "年份         初始投入         运营成本             折旧       累计现金支出",
        ],
    );
    // The saving from owning is the primary cloud option's total less the owned total.
    let owned = "自建（扣除周期末残余价值）";
    let owned_line = out.lines().find(|l| l.starts_with(owned)).expect("the owned row");
    let option_line = out.lines().find(|l| l.starts_with("* ")).expect("the primary option's row");
    let total_of = |line: &str, nth: usize| -> i64 {
        let figure = line.split_whitespace().rev().nth(nth).expect("a figure");
        figure.replace(',', "").parse().expect("a number")
    };
    // `… 10,722   32,167  第 43.8 个月`: the total is the fourth field from the end.
    let saving = total_of(option_line, 3) - total_of(owned_line, 0);
    assert!(
        has_line(&out, &format!("敏感性分析（±20 %），自建节省的成本：基准 {}", format_thousands(saving as f64, 0))),
        "{out}"
    );
    // The table header and its rows are equally wide in terminal columns.
    let header = out.lines().find(|l| l.starts_with("年份")).expect("the year table");
    let year_1 = out.lines().find(|l| l.starts_with("   1 ")).expect("year 1");
    assert_eq!(header.width(), year_1.width());
    assert!(out.contains("提示[tco-spot-overhead-unset]："), "the notes' severity and text are Chinese:\n{out}");
    assert_no_english(
        &out,
        &[
            "TCO of",
            "Reading:",
            "Capex",
            "Owned operating cost",
            "Depreciation",
            "Year ",
            "Option",
            "Per year",
            "Break-even",
            "break-even",
            "Compared with",
            "Present value",
            "Sensitivity",
            "info[",
        ],
    );
}

#[test]
fn tco_json_keeps_its_keys_and_words_its_notes_in_the_language() {
    let (code, out, err) = run(&["tco", BUILD, "--json", "--lang", "zh-CN"]);
    assert_eq!(code, 0, "{err}");
    let value: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert!(value["build_name"].is_string() && value["capex"].is_number(), "keys stay English");
    let notes = value["notes"].as_array().expect("notes");
    let spot = notes.iter().find(|n| n["code"] == "tco-spot-overhead-unset").expect("the spot note");
    assert!(spot["message"].as_str().expect("message").contains("竞价实例"), "{spot}");
    let (_, english, _) = run(&["tco", BUILD, "--json", "--lang", "en"]);
    let english: serde_json::Value = serde_json::from_str(&english).expect("JSON");
    let spot = english["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .find(|n| n["code"] == "tco-spot-overhead-unset")
        .expect("note");
    assert!(!spot["message"].as_str().expect("message").contains("竞价实例"), "{spot}");
}

#[test]
fn a_bad_language_is_bad_input_for_every_subcommand() {
    for args in [
        vec!["report", BUILD, "--lang", "xx"],
        vec!["fit", "--model", "meta-llama-3.1-8b", "--lang", "xx"],
        vec!["tco", BUILD, "--lang", "xx"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains("en, zh-CN"), "{err}");
    }
    // clap renders help through the error path (to `err`), with exit code 0.
    for sub in ["fit", "tco"] {
        let (code, _, help) = run(&[sub, "--help"]);
        assert_eq!(code, 0);
        assert!(help.contains("--lang <LANG>"), "{sub}: {help}");
    }
}

/// The sentences the analyses write (assumptions, the PSU's origin, the interconnect line,
/// the smallest change that fits, the TCO reading) come out of the CLI in Chinese too.
#[test]
fn the_analyses_sentences_are_chinese_too() {
    let (_, out, _) = run(&["report", BUILD, "--lang", "zh-CN"]);
    assert!(out.contains("（配置方案中的 1 个电源）"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("  * 典型功耗 = 待机 + 利用率 × (满载 − 待机)，利用率取 0.50")), "{out}");
    assert_no_english(&out, &["Typical draw =", "Heat load =", "unit(s) on the build's lines", "per node over"]);
    // 70B in bf16 is 141 GB of weights: no single 24 GB card holds it, so a change is proposed.
    let (code, out, _) =
        run(&["fit", "--model", "meta-llama-3.1-70b", "--gpu", "nvidia-geforce-rtx-4090", "--lang", "zh-CN"]);
    assert_eq!(code, 1, "does not fit");
    assert!(out.contains("运行于 1 × GeForce RTX 4090 (Founders Edition)：每节点 1 块 GPU"), "{out}");
    assert_no_english(&out, &["GPU per node", "Spread the model", "spread the model"]);
    let (_, out, _) = run(&["tco", BUILD, "--lang", "zh-CN"]);
    assert_no_english(&out, &["Reading:", "every owned cost"]);
}
