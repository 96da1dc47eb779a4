//! The CLI's words in every language rigplan speaks, the `--lang` option's parser, and
//! padding by display width for the aligned tables.
//!
//! Theory of operation: each subcommand that prints text takes `--lang <en|zh-CN>` (default:
//! the locale, [`Lang::from_env`]); the value is parsed once here so that every subcommand
//! accepts the same tags and refuses a bad one with the same message. What `report`, `fit`
//! and `tco` print comes from this module, as `compare`'s comes from
//! `core::compare::texts`: plain words from the table of the language ([`CliTexts::of`]),
//! sentences with arguments from the two-language templates below (named placeholders,
//! filled by [`say`]). Words the build sheets also print (no price, never, severities, the
//! break-even month) come from the sheets' table and the fit matrix's workload names from the
//! comparison's, so each exists once. English output is what these commands always printed;
//! product names, finding codes, units and numbers stay as written in every language, and
//! the sentences the core writes (assumptions, notes, cloud option labels) are printed as
//! they come. Chinese terms follow `zh-terms.md`.
//!
//! A Chinese character takes two terminal columns, so the tables pad by display width
//! ([`pad_right`], [`pad_left`], [`clip`]), never by `char` count as `format!` does.

use crate::core::analysis::Severity;
use crate::core::analysis::memory::{Mode, Verdict};
use crate::core::analysis::tco::{TornadoOutput, TornadoParameter};
use crate::core::catalog::CoolerStyle;
use crate::core::compare::texts::CompareTexts;
use crate::core::export::texts::SheetTexts;
use crate::core::i18n::{Lang, Template};
use unicode_width::UnicodeWidthStr;

/// Parses a `--lang` value (`en`, `zh-CN`, or a locale name such as `zh_CN.UTF-8`).
///
/// # Errors
/// A tag that names no language rigplan has; the message lists the accepted ones.
pub fn parse_lang(s: &str) -> Result<Lang, String> {
    Lang::parse(s).ok_or_else(|| {
        let ids: Vec<&str> = Lang::ALL.iter().map(|l| l.id()).collect();
        format!("`{s}` is not a language; use one of {}", ids.join(", "))
    })
}

pub(super) use crate::core::i18n::say;

/// Columns `text` takes in a terminal: two for each wide (CJK) character, one for others.
#[must_use]
pub(super) fn width(text: &str) -> usize {
    // Printable ASCII is one column a byte (UAX #11), as is the fit table's `×` (U+00D7,
    // East Asian Width "ambiguous", one column outside CJK contexts); the tables are for the
    // rest.
    if text.bytes().all(|b| (0x20..0x7F).contains(&b)) {
        text.len()
    } else if text.chars().all(|c| (' '..='~').contains(&c) || c == '×') {
        text.chars().count()
    } else {
        text.width()
    }
}

/// `text` followed by spaces up to `columns` display columns (as `{:<N}` does for ASCII).
#[must_use]
pub(super) fn pad_right(text: &str, columns: usize) -> String {
    let pad = columns.saturating_sub(width(text));
    let mut s = String::with_capacity(text.len() + pad);
    s.push_str(text);
    push_spaces(&mut s, pad);
    s
}

/// Appends `n` spaces (a table's padding: a slice of a run of spaces rather than
/// `str::repeat`'s doubling copies, for the hundreds of cells of a report).
pub(super) fn push_spaces(s: &mut String, mut n: usize) {
    const SPACES: &str = "                                                                ";
    while n > 0 {
        let take = n.min(SPACES.len());
        s.push_str(&SPACES[..take]);
        n -= take;
    }
}

/// Spaces up to `columns` display columns, then `text` (as `{:>N}` does for ASCII).
#[must_use]
pub(super) fn pad_left(text: &str, columns: usize) -> String {
    let pad = columns.saturating_sub(width(text));
    let mut s = String::with_capacity(text.len() + pad);
    push_spaces(&mut s, pad);
    s.push_str(text);
    s
}

/// `text` cut to at most `columns` display columns, with an ellipsis when cut.
#[must_use]
pub(super) fn clip(text: &str, columns: usize) -> String {
    if width(text) <= columns {
        return text.to_owned();
    }
    let budget = columns.saturating_sub(1);
    let mut cut = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > budget {
            break;
        }
        used += w;
        cut.push(c);
    }
    cut.push('…');
    cut
}

/// The plain words of `report`, `fit` and `tco` in one language.
#[derive(Debug)]
pub(super) struct CliTexts {
    pub lang: Lang,
    /// The build sheets' table of the same language, for the words both print.
    pub sheet: &'static SheetTexts,
    /// The comparison's table, for the workloads' short names.
    pub compare: &'static CompareTexts,
    // report: power and thermal.
    pub unknown: &'static str,
    pub no_cooler: &'static str,
    pub cooling_open_air: &'static str,
    pub cooling_blower: &'static str,
    pub cooling_passive: &'static str,
    pub cooling_liquid: &'static str,
    pub no_findings: &'static str,
    // fit.
    pub mode_inference: &'static str,
    pub mode_train: &'static str,
    pub mode_lora: &'static str,
    pub mode_qlora: &'static str,
    pub per_gpu: &'static str,
    /// Weights, gradients, optimizer, activations, KV cache, overhead, total.
    pub memory_parts: [&'static str; 7],
    /// Fits, tight, does not fit: the verdict line.
    pub verdict_fits: &'static str,
    pub verdict_tight: &'static str,
    pub verdict_no_fit: &'static str,
    pub no_single_change: &'static str,
    /// Decode, prefill, inference, training: the speed lines.
    pub speed_decode: &'static str,
    pub speed_prefill: &'static str,
    pub speed_inference: &'static str,
    pub speed_training: &'static str,
    pub unit_samples_all_gpus: &'static str,
    pub unit_samples: &'static str,
    /// Serving loads: one user, at capacity, as asked (`--users`).
    pub load_single: &'static str,
    pub load_capacity: &'static str,
    pub load_requested: &'static str,
    /// The fit matrix: its model column, the cells' words, the legend, the cell width.
    pub model: &'static str,
    pub cell_fits: &'static str,
    pub cell_tight: &'static str,
    pub cell_no_fit: &'static str,
    pub fit_legend: &'static str,
    pub cell_columns: usize,
    // tco.
    pub wall_power_unknown: &'static str,
    /// Year, capex, opex, depreciation, cumulative cash.
    pub year_columns: [&'static str; 5],
    /// Option, per year, total, break-even.
    pub option_columns: [&'static str; 4],
    pub owned_net: &'static str,
    pub price_unverified: &'static str,
    pub no_cloud_option: &'static str,
    pub never_cheaper: &'static str,
    pub no_break_even_utilization: &'static str,
    pub reading_includes_depreciation: &'static str,
    pub reading_operating: &'static str,
    pub owning_cheaper: &'static str,
    pub renting_cheaper: &'static str,
    pub tornado_owning_savings: &'static str,
    pub tornado_owned_total: &'static str,
    /// Electricity price, PUE, utilization, residual value, cloud price, depreciation life.
    pub tornado_parameters: [&'static str; 6],
    pub energy_not_included: &'static str,
    pub no_matching_offer: &'static str,
}

impl CliTexts {
    /// The table of a language.
    #[must_use]
    pub fn of(lang: Lang) -> &'static Self {
        match lang {
            Lang::En => &EN,
            Lang::ZhCn => &ZH,
        }
    }

    /// A template of this module in the table's language.
    #[must_use]
    pub fn say(&self, template: &Template, args: &[(&str, &str)]) -> String {
        say(template, self.lang, args)
    }

    /// A severity's name (`error`, `错误`).
    #[must_use]
    pub fn severity(&self, s: Severity) -> &'static str {
        self.sheet.severity(s)
    }

    /// How a GPU is cooled.
    #[must_use]
    pub fn cooling(&self, c: CoolerStyle) -> &'static str {
        match c {
            CoolerStyle::OpenAir => self.cooling_open_air,
            CoolerStyle::Blower => self.cooling_blower,
            CoolerStyle::Passive => self.cooling_passive,
            CoolerStyle::Liquid => self.cooling_liquid,
        }
    }

    /// A workload mode.
    #[must_use]
    pub fn mode(&self, m: Mode) -> &'static str {
        match m {
            Mode::Inference => self.mode_inference,
            Mode::Train => self.mode_train,
            Mode::Lora => self.mode_lora,
            Mode::Qlora => self.mode_qlora,
        }
    }

    /// A fit verdict in the verdict line.
    #[must_use]
    pub fn verdict(&self, v: Verdict) -> &'static str {
        match v {
            Verdict::Fits => self.verdict_fits,
            Verdict::Tight => self.verdict_tight,
            Verdict::DoesNotFit => self.verdict_no_fit,
        }
    }

    /// What the sensitivity analysis varies.
    #[must_use]
    pub fn tornado_parameter(&self, p: TornadoParameter) -> &'static str {
        self.tornado_parameters[match p {
            TornadoParameter::ElectricityPrice => 0,
            TornadoParameter::Pue => 1,
            TornadoParameter::Utilization => 2,
            TornadoParameter::ResidualValue => 3,
            TornadoParameter::CloudPrice => 4,
            TornadoParameter::DepreciationLife => 5,
        }]
    }

    /// What the sensitivity analysis measures.
    #[must_use]
    pub fn tornado_output(&self, o: TornadoOutput) -> &'static str {
        match o {
            TornadoOutput::OwningSavings => self.tornado_owning_savings,
            TornadoOutput::OwnedTotal => self.tornado_owned_total,
        }
    }

    /// The break-even month in words, `never` with its reason when the cloud is never dearer.
    #[must_use]
    pub fn break_even(&self, month: Option<f64>, horizon_months: u32) -> String {
        match month {
            Some(_) => self.sheet.break_even(month, horizon_months),
            None => self.never_cheaper.to_owned(),
        }
    }
}

/// English: what `report`, `fit` and `tco` have always printed.
pub(super) static EN: CliTexts = CliTexts {
    lang: Lang::En,
    sheet: &crate::core::export::texts::EN,
    compare: &crate::core::compare::texts::EN,
    unknown: "unknown",
    no_cooler: "no cooler",
    cooling_open_air: "open-air",
    cooling_blower: "blower",
    cooling_passive: "passive (server airflow)",
    cooling_liquid: "liquid",
    no_findings: "No compatibility findings.",
    mode_inference: "inference",
    mode_train: "full training",
    mode_lora: "LoRA",
    mode_qlora: "QLoRA",
    per_gpu: "Per GPU:",
    memory_parts: ["weights", "gradients", "optimizer", "activations", "KV cache", "overhead", "total"],
    verdict_fits: "fits",
    verdict_tight: "tight (above 90 %)",
    verdict_no_fit: "does not fit",
    no_single_change: "No single change makes it fit.",
    speed_decode: "Decode",
    speed_prefill: "Prefill",
    speed_inference: "Inference",
    speed_training: "Training",
    unit_samples_all_gpus: "samples/s over all GPUs",
    load_single: "One user",
    load_capacity: "At capacity",
    load_requested: "As asked",
    unit_samples: "samples/s",
    model: "model",
    cell_fits: "fits",
    cell_tight: "tight",
    cell_no_fit: "no",
    fit_legend: "(fits×N: fits on N GPUs; t/s: decode (inference) or training tokens per second; /s: samples per second; -: does not apply)",
    cell_columns: 18,
    wall_power_unknown: "wall power unknown: energy and colocation not included",
    year_columns: ["Year", "Capex", "Opex", "Depreciation", "Cumulative cash"],
    option_columns: ["Option", "Per year", "Total", "Break-even"],
    owned_net: "Owned (net of value at the horizon)",
    price_unverified: " (price unverified)",
    no_cloud_option: "(no cloud option: see the findings)",
    never_cheaper: "never (the cloud costs no more per month than running the build)",
    no_break_even_utilization: "none between 0 and 100 % (or the option does not bill by usage)",
    reading_includes_depreciation: "entered cost includes depreciation",
    reading_operating: "entered cost is operating cost",
    owning_cheaper: "; owning is cheaper",
    renting_cheaper: "; renting is cheaper",
    tornado_owning_savings: "the saving from owning",
    tornado_owned_total: "the owned total",
    tornado_parameters: [
        "electricity price",
        "PUE",
        "utilization",
        "residual value",
        "cloud price",
        "depreciation life",
    ],
    energy_not_included: ", energy not included: power unknown",
    no_matching_offer: "no matching cloud offer (rigplan tco --offer ID to choose one)",
};

/// Simplified Chinese (the terms of `zh-terms.md`).
pub(super) static ZH: CliTexts = CliTexts {
    lang: Lang::ZhCn,
    sheet: &crate::core::export::texts::ZH,
    compare: &crate::core::compare::texts::ZH,
    unknown: "未知",
    no_cooler: "无散热器",
    cooling_open_air: "开放式风冷",
    cooling_blower: "涡轮风冷",
    cooling_passive: "被动散热（服务器风道）",
    cooling_liquid: "水冷",
    no_findings: "没有兼容性检查结果。",
    mode_inference: "推理",
    mode_train: "全参数训练",
    mode_lora: "LoRA",
    mode_qlora: "QLoRA",
    per_gpu: "每块 GPU 的显存占用：",
    memory_parts: ["权重", "梯度", "优化器状态", "激活值", "KV 缓存", "额外开销", "合计"],
    verdict_fits: "可运行",
    verdict_tight: "余量紧张（超过 90 %）",
    verdict_no_fit: "显存不足",
    no_single_change: "没有任何单项修改能让它装进显存。",
    speed_decode: "解码",
    speed_prefill: "预填充",
    speed_inference: "推理",
    speed_training: "训练",
    unit_samples_all_gpus: "样本/s（全部 GPU 合计）",
    load_single: "单个用户",
    load_capacity: "满并发",
    load_requested: "按要求",
    unit_samples: "样本/s",
    model: "模型",
    cell_fits: "可运行",
    cell_tight: "余量紧张",
    cell_no_fit: "显存不足",
    fit_legend: "（可运行×N：在 N 块 GPU 上可运行；t/s：解码（推理）或训练的 tokens/s；/s：每秒样本数；-：不适用）",
    cell_columns: 20,
    wall_power_unknown: "墙插功耗未知：未计入电费和托管费",
    year_columns: ["年份", "初始投入", "运营成本", "折旧", "累计现金支出"],
    option_columns: ["方案", "每年", "合计", "回本周期"],
    owned_net: "自建（扣除周期末残余价值）",
    price_unverified: "（价格未核实）",
    no_cloud_option: "（没有云方案：见检查结果）",
    never_cheaper: "无法回本（云方案每月的费用不高于自建的运行费用）",
    no_break_even_utilization: "0 到 100 % 之间没有（或该方案不按用量计费）",
    reading_includes_depreciation: "填写的成本已含折旧",
    reading_operating: "填写的成本为运营成本",
    owning_cheaper: "；自建更便宜",
    renting_cheaper: "；租用更便宜",
    tornado_owning_savings: "自建节省的成本",
    tornado_owned_total: "自建总成本",
    tornado_parameters: ["电价", "PUE", "利用率", "残值", "云价格", "折旧年限"],
    energy_not_included: "，未计入电费：功耗未知",
    no_matching_offer: "没有匹配的云方案（可用 rigplan tco --offer ID 指定）",
};

crate::templates! {
    pub(super) TEMPLATES;
    // report: the parts and capex.
    CAPEX "" {
        en: "Capex: {amount} {currency}",
        zh: "初始投入：{amount} {currency}",
    }
    CAPEX_RATE "" {
        en: " (catalog USD prices at {rate} {currency} per USD)",
        zh: "（部件库美元价格按 1 美元 = {rate} {currency} 换算）",
    }
    UNPRICED "" {
        en: "  {count} line(s) have no price and are not in the total",
        zh: "  {count} 个部件行没有价格，未计入合计",
    }
    PRICES_FRESH "" {
        en: "  Prices: {dated} catalog price(s), none older than {months} months on {date}",
        zh: "  价格：{dated} 个部件库价格，截至 {date} 均未超过 {months} 个月",
    }
    PRICES_STALE "" {
        en: "  Prices: {stale} of {dated} catalog price(s) are older than {months} months on {date} (stale; oldest {oldest}):",
        zh: "  价格：{dated} 个部件库价格中有 {stale} 个截至 {date} 已超过 {months} 个月（已过期；最早 {oldest}）：",
    }
    IMPORT_WRITTEN "" {
        en: "Imported {matched} price(s) into {path} ({entries} in all):",
        zh: "已导入 {matched} 个价格到 {path}（共 {entries} 条）：",
    }
    IMPORT_NOTHING "" {
        en: "No row matched a catalog part; nothing was written.",
        zh: "没有与部件库匹配的行，未写入任何文件。",
    }
    IMPORT_MATCHED_ROW "" {
        en: "  row {row}: {part} ({name}, by {by}) = {amount} {currency} ({date})",
        zh: "  第 {row} 行：{part}（{name}，匹配依据：{by}）= {amount} {currency}（{date}）",
    }
    IMPORT_NOT_MATCHED "" {
        en: "Not matched ({count}):",
        zh: "未匹配 {count} 行：",
    }
    IMPORT_UNMATCHED_ROW "" {
        en: "  row {row} `{key}`: {why}",
        zh: "  第 {row} 行 `{key}`：{why}",
    }
    IMPORT_BY_ID "" {
        en: "id",
        zh: "部件 ID",
    }
    IMPORT_BY_NAME "" {
        en: "name",
        zh: "名称",
    }
    IMPORT_BY_SKU "" {
        en: "SKU",
        zh: "SKU 编号",
    }
    PRICES_STALE_LINE "" {
        en: "    {name}: {date}, {age} months old",
        zh: "    {name}：{date}，已 {age} 个月",
    }
    // report: power.
    POWER_HEADING "" {
        en: "Power (utilization {utilization} %, {volts} V site, 80 PLUS {table} table)",
        zh: "功耗（利用率 {utilization} %，场地电压 {volts} V，按 80 PLUS {table} 效率表）",
    }
    POWER_DC "" {
        en: "    DC: idle {idle}, typical {typical}, max {max}, transient peak {peak}",
        zh: "    直流功耗：待机 {idle}，典型 {typical}，满载 {max}，瞬时峰值 {peak}",
    }
    POWER_WALL "" {
        en: "    wall: idle {idle}, typical {typical}, max {max}",
        zh: "    墙插功耗：待机 {idle}，典型 {typical}，满载 {max}",
    }
    POWER_EFFICIENCY "" {
        en: " (PSU efficiency {efficiency} % at max)",
        zh: "（满载时电源转换效率 {efficiency} %）",
    }
    POWER_PSU "" {
        en: "    PSU: {capacity} counting ({source}), load at max {load}",
        zh: "    电源：计入的额定功率 {capacity}（{source}），满载时电源负载 {load}",
    }
    POWER_RECOMMENDED "" {
        en: "    recommended PSU: {required} = max {max} + headroom {headroom} ({headroom_pct} %) + ageing {ageing} ({ageing_pct} %) + transient {transient} -> {recommended}",
        zh: "    建议电源：{required} = 满载 {max} + 余量 {headroom}（{headroom_pct} %）+ 老化 {ageing}（{ageing_pct} %）+ 瞬时峰值 {transient} -> {recommended}",
    }
    POWER_CIRCUIT "" {
        en: "    circuit: {wall} of {limit} continuous ({volts} V, {amps} A, {phases} phase(s), 80 %): {circuits} circuit(s)",
        zh: "    电路：{wall} / 持续负载上限 {limit}（{volts} V，{amps} A，{phases} 相，80 %）：需要 {circuits} 路电路",
    }
    POWER_TOTAL "" {
        en: "  Total: DC idle {idle}, typical {typical}, max {max}; wall idle {wall_idle}, typical {wall_typical}, max {wall_max}",
        zh: "  合计：直流功耗 待机 {idle}，典型 {typical}，满载 {max}；墙插功耗 待机 {wall_idle}，典型 {wall_typical}，满载 {wall_max}",
    }
    RACK_VIEW "" {
        en: "  Rack view:",
        zh: "  机柜视图：",
    }
    RACK_ROW "" {
        en: " {name} {kw} kW × {count} = {total} kW;",
        zh: " {name} {kw} kW × {count} = {total} kW；",
    }
    RACK_TOTAL "" {
        en: " cluster {cluster} kW; total {total} kW",
        zh: " 集群 {cluster} kW；合计 {total} kW",
    }
    // report: thermal.
    THERMAL_HEADING "" {
        en: "Thermal (ambient {ambient} °C): heat {heat} = {btu} BTU/h = {tons} tons of cooling",
        zh: "散热（环境温度 {ambient} °C）：发热量 {heat} = {btu} BTU/h = {tons} 冷吨",
    }
    THERMAL_NODE "" {
        en: "  {name}: heat {heat} per node",
        zh: "  {name}：每节点发热量 {heat}",
    }
    AIRFLOW "" {
        en: "    airflow: needs {needed} CFM at a {rise} °C rise, fans {available}",
        zh: "    风量：温升 {rise} °C 时需要 {needed} CFM，风扇 {available}",
    }
    CPU_HEADROOM "" {
        en: "{headroom} W headroom",
        zh: "余量 {headroom} W",
    }
    THERMAL_CPU "" {
        en: "    CPU {cpu}: {max} max, {headroom}",
        zh: "    CPU {cpu}：满载 {max}，{headroom}",
    }
    THERMAL_GPU "" {
        en: "    GPU {name} #{unit}: ~{temp} °C ({cooling}), {headroom} °C below its {limit} °C limit",
        zh: "    GPU {name} #{unit}：约 {temp} °C（{cooling}），比 {limit} °C 的温度上限低 {headroom} °C",
    }
    // report and check: the findings.
    FINDINGS "" {
        en: "Findings: {errors} error(s), {warnings} warning(s), {infos} info",
        zh: "检查结果：{errors} 个错误，{warnings} 个警告，{infos} 个提示",
    }
    FINDING "" {
        en: "{severity}[{code}]: {message}",
        zh: "{severity}[{code}]：{message}",
    }
    FIX "" {
        en: "      fix: {fix}",
        zh: "      建议修改：{fix}",
    }
    // fit.
    FIT_MODEL "" {
        en: "{model} ({params} parameters{active}), {mode}",
        zh: "{model}（{params} 参数{active}），{mode}",
    }
    FIT_ACTIVE "" {
        en: ", {active} active",
        zh: "，激活 {active}",
    }
    FIT_WORKLOAD "" {
        en: "weights {weights}, KV {kv}, batch {batch}, context {context}, {layout}",
        zh: "权重 {weights}，KV 缓存 {kv}，批大小 {batch}，上下文长度 {context}，{layout}",
    }
    GPU_ASSUMES_PCIE "" {
        en: "--gpu assumes the {name} cards talk over PCIe; describe NVLink bridges in a build file (--build)",
        zh: "--gpu 假定各块 {name} 经 PCIe 通信；如有 NVLink 桥接器，请在配置方案文件中写明（--build）",
    }
    FIT_ON "" {
        en: "on {gpus} × {name}: {interconnect}",
        zh: "运行于 {gpus} × {name}：{interconnect}",
    }
    BYTES "" {
        en: "({bytes} bytes)",
        zh: "（{bytes} 字节）",
    }
    HOST_MEMORY "" {
        en: "Host memory for offload: {bytes} per node",
        zh: "卸载所需内存：每节点 {bytes}",
    }
    KV_PER_TOKEN "" {
        en: "KV cache per token: {size} ({bytes} bytes)",
        zh: "每 token 的 KV 缓存：{size}（{bytes} 字节）",
    }
    VERDICT "" {
        en: "Verdict: {verdict} — {percent} % of {capacity}",
        zh: "结论：{verdict} — 占 {capacity} 显存的 {percent} %",
    }
    ENGINE_BUDGET "" {
        en: "{engine} may use {budget} of each GPU",
        zh: "{engine} 最多可用每块 GPU 的 {budget}",
    }
    NO_SPEED "" {
        en: "No speed figures: the workload does not fit.",
        zh: "没有速度数据：该工作负载装不进显存。",
    }
    IMAGES "" {
        en: "Images: {per_minute} per minute over all GPUs at {steps} denoising steps, {seconds} s per image on one GPU",
        zh: "出图：全部 GPU 每分钟 {per_minute} 张（{steps} 步去噪），单块 GPU 每张 {seconds} 秒",
    }
    TRAIN_ENERGY "" {
        en: "Training energy: {mwh} MWh at the GPUs' board power{site}",
        zh: "训练能耗：按 GPU 板卡功耗计 {mwh} MWh{site}",
    }
    TRAIN_ENERGY_SITE "" {
        en: ", with the rest of the nodes and PUE {pue}",
        zh: "，含节点其余部件与 PUE {pue}",
    }
    SERVING_HEADING "" {
        en: "Serving on {engine}: {replicas} replica(s) of {gpus} GPU(s), each sequence at {context} tokens",
        zh: "在 {engine} 上服务：{replicas} 个副本，每个副本 {gpus} 块 GPU，每条序列 {context} token",
    }
    SERVING_KV "" {
        en: "  KV cache budget: {budget} per GPU, {tokens} tokens per replica; longest context that fits: {max_context}",
        zh: "  KV 缓存预算：每块 GPU {budget}，每个副本 {tokens} token；能装下的最长上下文：{max_context}",
    }
    SERVING_CONCURRENCY "" {
        en: "  Concurrent sequences at {context} tokens: {per_replica} per replica, {total} in all",
        zh: "  {context} token 上下文的并发序列：每个副本 {per_replica} 条，合计 {total} 条",
    }
    SERVING_TTFT "" {
        en: "  Time to first token ({prompt}-token prompt, idle replica): {ms} ms",
        zh: "  首 token 延迟（{prompt} token 提示词，空闲副本）：{ms} ms",
    }
    SERVING_LOAD "" {
        en: "  {label}: {users} user(s), {per_user} tokens/s each, {aggregate} tokens/s in all, {joules} J/token ({gpu_watts} W per GPU){fit}",
        zh: "  {label}：{users} 个用户，每人 {per_user} token/s，合计 {aggregate} token/s，每 token {joules} 焦耳（每块 GPU {gpu_watts} W）{fit}",
    }
    SERVING_OVER_BUDGET "" {
        en: " — their KV caches exceed the budget",
        zh: " — 其 KV 缓存超出预算",
    }
    SERVING_TARGET "" {
        en: "  Users at {target} tokens/s each: {users}",
        zh: "  每人 {target} token/s 时可服务的用户数：{users}",
    }
    SERVING_COMPUTE_BOUND "" {
        en: "  Decode turns compute-bound from {batch} sequences per replica; beyond that the aggregate rises little",
        zh: "  每个副本超过 {batch} 条序列后解码转为算力瓶颈，合计吞吐增长有限",
    }
    SMALLEST_CHANGE "" {
        en: "Smallest change that fits: {change} ({percent} % of memory)",
        zh: "能装进显存的最小修改：{change}（占显存 {percent} %）",
    }
    OTHER_CHANGE "" {
        en: "  or: {change} ({percent} %)",
        zh: "  或：{change}（{percent} %）",
    }
    SPEED "" {
        en: "{label}: {value} {unit}",
        zh: "{label}：{value} {unit}",
    }
    TRAIN_COMPUTE "" {
        en: "Training compute: {flops} FLOPs",
        zh: "训练计算量：{flops} FLOPs",
    }
    TRAIN_TIME "" {
        en: "Training time: {hours} hours ({days} days), {gpu_hours} GPU-hours",
        zh: "训练时间：{hours} 小时（{days} 天），{gpu_hours} GPU 小时",
    }
    NOTE "" {
        en: "note: {note}",
        zh: "注：{note}",
    }
    FIT_SECTION "" {
        en: "Workload fit on {node} ({gpus} × {gpu} per node × {nodes} node(s), {memory} each): {interconnect}",
        zh: "{node} 的工作负载适配（每节点 {gpus} × {gpu}，{nodes} 个节点，每块显存 {memory}）：{interconnect}",
    }
    // tco.
    TCO_HEADING "" {
        en: "TCO of {name} over {years} years ({months} months) at {utilization} utilization, {gpus} GPU(s){gpu}",
        zh: "{name} 的总拥有成本：周期 {years} 年（{months} 个月），利用率 {utilization}，{gpus} 块 GPU{gpu}",
    }
    TCO_GPU "" {
        en: " ({gpu})",
        zh: "（{gpu}）",
    }
    READING "" {
        en: "Reading: {note}",
        zh: "口径：{note}",
    }
    TCO_CAPEX "" {
        en: "Capex: {capex} {currency} (parts {parts}, tax {tax}, shipping {shipping}, installation {installation}, custom {custom})",
        zh: "初始投入：{capex} {currency}（部件 {parts}，税费 {tax}，运费 {shipping}，安装费 {installation}，自定义 {custom}）",
    }
    OPEX "" {
        en: "Owned operating cost: {total} {currency} per year",
        zh: "自建运营成本：每年 {total} {currency}",
    }
    OPEX_LINES "" {
        en: "  energy {energy}, colocation {colocation}, maintenance {maintenance}, staff {staff}, licences {licences}, custom {custom}, entered {entered}",
        zh: "  电费 {energy}，托管费 {colocation}，维护费 {maintenance}，人工 {staff}，软件许可 {licences}，自定义 {custom}，手动填写 {entered}",
    }
    TCO_WALL "" {
        en: "  wall power: idle {idle} W, max {max} W, average {average} W",
        zh: "  墙插功耗：待机 {idle} W，满载 {max} W，平均 {average} W",
    }
    DEPRECIATION "" {
        en: "Depreciation: {depreciation} {currency} per year; residual {residual}; value at the horizon {value}",
        zh: "折旧：每年 {depreciation} {currency}；残值 {residual}；周期末残余价值 {value}",
    }
    COMPARED_WITH "" {
        en: "Compared with {option}:",
        zh: "与 {option} 相比：",
    }
    BREAK_EVEN "" {
        en: "  break-even: {when}",
        zh: "  回本周期：{when}",
    }
    BREAK_EVEN_UTILIZATION "" {
        en: "  break-even utilization: {utilization}",
        zh: "  回本利用率：{utilization}",
    }
    GPU_HOUR "" {
        en: "Owned cost per used GPU-hour: {cost} {currency}",
        zh: "自建每 GPU 小时（实际使用）成本：{cost} {currency}",
    }
    PRESENT_VALUE "" {
        en: "Present value at {rate} % a year: owned {value} {currency}",
        zh: "按每年 {rate} % 折现的现值：自建 {value} {currency}",
    }
    PER_MILLION_TOKENS "" {
        en: "Owned cost per 1M tokens: {cost} {currency}",
        zh: "自建每百万 tokens 成本：{cost} {currency}",
    }
    TRAINING_RUN "" {
        en: "Training run: {hours} h, owned cost {cost} {currency}",
        zh: "一次训练：{hours} 小时，自建成本 {cost} {currency}",
    }
    OTHER_READING "" {
        en: "Other reading ({reading}): owned total {total} {currency}, break-even {when}{cheaper}",
        zh: "另一种口径（{reading}）：自建总成本 {total} {currency}，回本周期 {when}{cheaper}",
    }
    SENSITIVITY "" {
        en: "Sensitivity (±20 %) of {output}: base {base}",
        zh: "敏感性分析（±20 %），{output}：基准 {base}",
    }
    TCO_SUMMARY "" {
        en: "TCO over {years} years at {utilization} utilization ({note})",
        zh: "总拥有成本：周期 {years} 年，利用率 {utilization}（{note}）",
    }
    TCO_OWNED "" {
        en: "  owned: {total} {currency} (capex {capex} + {per_year} per year{energy})",
        zh: "  自建：{total} {currency}（初始投入 {capex} + 每年 {per_year}{energy}）",
    }
    TCO_OPTION "" {
        en: "  {option}: {total} {currency}",
        zh: "  {option}：{total} {currency}",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::i18n::placeholders;

    /// The printable-ASCII shortcut counts what the tables count.
    #[test]
    fn width_counts_columns_as_unicode_width_does() {
        for text in ["", "fits×1 46.1t/s", "×", "Llama 3.1 8B", "a\tb", "\r\n", "显存 24 GiB", "~67 °C", "x\u{7f}"]
        {
            assert_eq!(width(text), text.width(), "{text:?}");
        }
        let ascii: String = (0x20u8..0x7F).map(char::from).collect();
        assert_eq!(width(&ascii), 95);
        assert_eq!(pad_left("显存", 7), "   显存");
        assert_eq!(pad_right("ab", 70).len(), 70);
        assert_eq!(pad_left("ab", 1), "ab");
    }

    #[test]
    fn lang_tags_parse_and_a_bad_one_names_the_accepted_ones() {
        assert_eq!(parse_lang("en"), Ok(Lang::En));
        assert_eq!(parse_lang("zh-CN"), Ok(Lang::ZhCn));
        let err = parse_lang("xx").expect_err("xx is no language");
        assert!(err.contains("en, zh-CN"), "{err}");
    }

    #[test]
    fn every_template_has_the_same_placeholders_in_both_languages() {
        assert!(TEMPLATES.len() >= 55, "{}", TEMPLATES.len());
        for t in TEMPLATES {
            let mut en = placeholders(t.en);
            let mut zh = placeholders(t.zh);
            en.sort_unstable();
            zh.sort_unstable();
            assert_eq!(en, zh, "{}", t.en);
            assert_ne!(t.en, t.zh, "the Chinese of `{}` is a translation", t.en);
        }
    }

    #[test]
    fn the_tables_are_of_their_language() {
        for lang in Lang::ALL {
            let t = CliTexts::of(lang);
            assert_eq!(t.lang, lang);
            assert_eq!(t.sheet.lang, lang);
            assert_eq!(t.compare.lang, lang);
        }
        assert_eq!(
            ZH.say(&FINDINGS, &[("errors", "1"), ("warnings", "0"), ("infos", "2")]),
            "检查结果：1 个错误，0 个警告，2 个提示"
        );
        assert_eq!(EN.break_even(Some(14.26), 36), "month 14.3");
        assert_eq!(ZH.break_even(Some(40.0), 36), "第 40.0 个月（超出 36 个月的周期）");
        assert_eq!(ZH.tornado_parameter(TornadoParameter::Pue), "PUE");
        assert_eq!(
            EN.tornado_parameter(TornadoParameter::DepreciationLife),
            TornadoParameter::DepreciationLife.label()
        );
    }

    #[test]
    fn english_words_are_the_cores_own() {
        for m in [Mode::Inference, Mode::Train, Mode::Lora, Mode::Qlora] {
            assert_eq!(EN.mode(m), m.to_string());
        }
        for v in [Verdict::Fits, Verdict::Tight, Verdict::DoesNotFit] {
            assert_eq!(EN.verdict(v), v.to_string());
        }
        for c in [CoolerStyle::OpenAir, CoolerStyle::Blower, CoolerStyle::Passive, CoolerStyle::Liquid] {
            assert_eq!(EN.cooling(c), c.to_string());
        }
        for p in TornadoParameter::ALL {
            assert_eq!(EN.tornado_parameter(p), p.label());
        }
        for s in [Severity::Error, Severity::Warning, Severity::Info] {
            assert_eq!(EN.severity(s), s.to_string());
        }
    }

    #[test]
    fn padding_counts_wide_characters_twice() {
        assert_eq!(width("GPU"), 3);
        assert_eq!(width("显存"), 4);
        assert_eq!(width("KV 缓存"), 7);
        assert_eq!(pad_right("年份", 6), "年份  ");
        assert_eq!(pad_left("年份", 6), "  年份");
        assert_eq!(pad_right("Year", 2), "Year", "never cut");
        assert_eq!(pad_left("1,234", 8), format!("{:>8}", "1,234"));
        assert_eq!(clip("GeForce RTX 4090", 8), "GeForce…");
        assert_eq!(clip("显存不足的模型", 6), "显存…", "a wide character that would cross the edge is left out");
        assert_eq!(width(&clip("显存不足的模型", 6)), 5);
        assert_eq!(clip("短", 6), "短");
    }
}
