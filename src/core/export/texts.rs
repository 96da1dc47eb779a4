//! The words of a build sheet, in each language: headings, column headers, category names,
//! row labels of the totals and the summary, and the sentences of the notes.
//!
//! A sheet is rendered in the language it was gathered in ([`super::BuildSheet::new_in`]);
//! every format (CSV, XLSX, Markdown, HTML) takes its words from the one table of that
//! language ([`SheetTexts::of`]), so the formats agree in every language. Templates mark their
//! arguments with `{}`, filled in order by [`fill`]. Chinese terms follow the project's
//! glossary (`zh-terms.md`: 采购清单, 部件, 初始投入, 墙插功耗, 回本周期 …). Part names, part
//! ids, units and finding codes stay as written; JSON keys stay English (a stable schema).

use crate::core::analysis::Severity;
use crate::core::analysis::bom::category_label_in;
use crate::core::analysis::summary::CompatStatus;
use crate::core::catalog::PartKind;
use crate::core::i18n::Lang;
pub use crate::core::i18n::fill;

/// The words of a build sheet in one language.
#[derive(Debug)]
pub struct SheetTexts {
    pub lang: Lang,
    /// The sheet's kind, as its first heading and the first CSV cell.
    pub build_sheet: &'static str,
    /// `Build sheet: {build name}`.
    pub build_sheet_title: &'static str,
    pub description: &'static str,
    pub date: &'static str,
    pub currency: &'static str,
    pub usd_exchange_rate: &'static str,
    /// `{currency} per USD`.
    pub per_usd: &'static str,
    /// `{currency} per USD (USD catalog prices convert at this rate)`, beside the rate's own cell.
    pub per_usd_note: &'static str,
    /// `{rate} {currency} per USD (USD catalog prices convert at this rate)`.
    pub usd_rate_note: &'static str,
    /// `Date {date} · amounts in {currency} · catalog USD prices at {rate} {currency} per USD`.
    pub html_meta: &'static str,
    pub parts: &'static str,
    /// The parts table's headers, in [`super::columns::PARTS_COLUMNS`] order.
    pub columns: [&'static str; 14],
    /// `{header} ({currency})`, for the money columns.
    pub with_currency: &'static str,
    pub custom_lines: &'static str,
    pub custom_line_item: &'static str,
    pub item: &'static str,
    pub kind: &'static str,
    pub quantity: &'static str,
    pub unit_amount: &'static str,
    pub amount: &'static str,
    /// Capex, per year.
    pub custom_kinds: [&'static str; 2],
    /// Catalog, stale catalog price, override, included, no price.
    pub price_bases: [&'static str; 5],
    pub no_price: &'static str,
    pub totals: &'static str,
    /// Tax, shipping, installation.
    pub surcharges: [&'static str; 3],
    /// `{surcharge} ({percent} % of parts)`.
    pub surcharge_of_parts: &'static str,
    pub custom_capex: &'static str,
    pub capex: &'static str,
    pub custom_opex: &'static str,
    pub custom_opex_short: &'static str,
    pub unpriced_lines: &'static str,
    pub unpriced_lines_short: &'static str,
    pub summary: &'static str,
    pub value: &'static str,
    pub unit: &'static str,
    pub build: &'static str,
    pub nodes: &'static str,
    pub gpus: &'static str,
    pub wall_max: &'static str,
    pub wall_typical: &'static str,
    pub wall_idle: &'static str,
    pub recommended_psu: &'static str,
    pub heat_max: &'static str,
    pub cooling: &'static str,
    pub tons: &'static str,
    pub compatibility: &'static str,
    pub compat_errors: &'static str,
    pub compat_warnings: &'static str,
    pub compat_infos: &'static str,
    /// OK, warnings, errors.
    pub compat_status: [&'static str; 3],
    pub models_evaluated: &'static str,
    pub models_inference: &'static str,
    pub models_finetune: &'static str,
    pub largest_inference: &'static str,
    pub largest_finetune: &'static str,
    pub workload_fit: &'static str,
    pub none: &'static str,
    pub no_gpus: &'static str,
    pub tco_horizon: &'static str,
    pub years: &'static str,
    pub tco_utilization: &'static str,
    pub owned_total: &'static str,
    /// The planned workload: energy per million tokens and per run (CSV, XLSX labels).
    pub energy_per_million_tokens: &'static str,
    pub energy_per_run: &'static str,
    pub kwh: &'static str,
    /// The planned workload's summary item (Markdown, HTML): label and sentence.
    pub planned_workload: &'static str,
    pub planned_workload_value: &'static str,
    pub planned_workload_run: &'static str,
    pub primary_cloud: &'static str,
    pub cloud_total: &'static str,
    pub break_even_month: &'static str,
    pub month: &'static str,
    pub never: &'static str,
    pub no_cloud_match: &'static str,
    pub findings: &'static str,
    pub code: &'static str,
    pub message: &'static str,
    pub fix: &'static str,
    /// ` — fix: {fix}` after a finding's message.
    pub fix_suffix: &'static str,
    /// `Finding ({severity})`, the label of a finding row of the XLSX summary.
    pub finding_of_severity: &'static str,
    /// Error, warning, info.
    pub severities: [&'static str; 3],
    pub notes: &'static str,
    pub sources: &'static str,
    pub power_by_component: &'static str,
    pub tco_heading: &'static str,
    /// `included in the price of {line}; {source}`.
    pub included_in: &'static str,
    /// `{n} part line(s) have no price …`.
    pub note_unpriced: &'static str,
    /// `{n} part line(s) name parts the catalog does not know …`.
    pub note_unknown: &'static str,
    /// `{stale} of the {dated} catalog prices are older than {months} months on {date}`.
    pub note_stale: &'static str,
    // The summary sentences of Markdown and HTML.
    pub nodes_and_gpus: &'static str,
    /// `{nodes} node(s), {gpus} GPU(s)`.
    pub nodes_and_gpus_value: &'static str,
    pub wall_power: &'static str,
    /// `{max} at max, {typical} typical, {idle} idle; recommended PSU capacity {psu}`.
    pub wall_power_value: &'static str,
    pub heat: &'static str,
    /// `{watts} = {btu} BTU/h = {tons} tons of cooling`.
    pub heat_value: &'static str,
    /// `{status}: {errors} error(s), {warnings} warning(s), {infos} info`.
    pub compat_value: &'static str,
    /// `{name} ({params} parameters, {workload})`.
    pub largest_value: &'static str,
    /// `{n} of {models} catalog models fit for inference, {n} for fine-tuning; largest for
    /// inference: {model}; largest for fine-tuning: {model}`.
    pub fit_value: &'static str,
    pub tco: &'static str,
    /// `owned {total} {cur} vs {cloud} {total} {cur} over {years} years at {util} %
    /// utilization; break-even {when}`.
    pub tco_value: &'static str,
    /// `owned {total} {cur} over {years} years at {util} % utilization; no matching cloud
    /// option`.
    pub tco_value_no_cloud: &'static str,
    /// `month {m}`.
    pub break_even_at: &'static str,
    /// `month {m} (beyond the {n}-month horizon)`.
    pub break_even_beyond: &'static str,
    // Chart titles and legends of the HTML sheet.
    /// Power groups of the stacked bars: GPUs, CPUs, memory, storage, boards, cooling and
    /// chassis, network, complete systems, PSU losses.
    pub power_groups: [&'static str; 9],
    pub power_chart_title: &'static str,
    /// `Owned (cash spent)`, the owned curve of the TCO chart.
    pub owned_curve: &'static str,
    /// `Cumulative cost ({currency})`.
    pub cumulative_cost: &'static str,
    /// ` (per node, ×{count})` after a node group's name.
    pub per_node_of: &'static str,
    /// `{option} (primary)`.
    pub primary_option: &'static str,
    /// `break-even, month {m}`, the marker of the TCO chart.
    pub break_even_marker: &'static str,
}

impl SheetTexts {
    /// The table of a language.
    #[must_use]
    pub fn of(lang: Lang) -> &'static Self {
        match lang {
            Lang::En => &EN,
            Lang::ZhCn => &ZH,
        }
    }

    /// A purchasing category's name (`None` is a part the catalog does not know).
    #[must_use]
    pub fn category(&self, kind: Option<PartKind>) -> &'static str {
        category_label_in(kind, self.lang)
    }

    /// A severity's name.
    #[must_use]
    pub fn severity(&self, s: Severity) -> &'static str {
        self.severities[match s {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        }]
    }

    /// A compatibility status's name.
    #[must_use]
    pub fn compat_status(&self, s: CompatStatus) -> &'static str {
        self.compat_status[match s {
            CompatStatus::Ok => 0,
            CompatStatus::Warnings => 1,
            CompatStatus::Errors => 2,
        }]
    }

    /// A money column's header with its currency.
    #[must_use]
    pub fn money_header(&self, name: &str, currency: &str) -> String {
        fill(self.with_currency, &[&name, &currency])
    }

    /// The break-even month in words.
    #[must_use]
    pub fn break_even(&self, month: Option<f64>, horizon_months: u32) -> String {
        match month {
            Some(m) if m <= f64::from(horizon_months) => fill(self.break_even_at, &[&format!("{m:.1}")]),
            Some(m) => fill(self.break_even_beyond, &[&format!("{m:.1}"), &horizon_months]),
            None => self.never.to_owned(),
        }
    }
}

/// English.
pub static EN: SheetTexts = SheetTexts {
    lang: Lang::En,
    build_sheet: "Build sheet",
    build_sheet_title: "Build sheet: {}",
    description: "Description",
    date: "Date",
    currency: "Currency",
    usd_exchange_rate: "USD exchange rate",
    per_usd: "{} per USD",
    per_usd_note: "{} per USD (USD catalog prices convert at this rate)",
    usd_rate_note: "{} {} per USD (USD catalog prices convert at this rate)",
    html_meta: "Date {} · amounts in {} · catalog USD prices at {} {} per USD",
    parts: "Parts",
    columns: [
        "Group",
        "Category",
        "Vendor",
        "Part",
        "Part id",
        "SKU",
        "Qty per node",
        "Nodes",
        "Total qty",
        "Unit price",
        "Extended price",
        "Price date",
        "Price basis",
        "Source",
    ],
    with_currency: "{} ({})",
    custom_lines: "Custom line items",
    custom_line_item: "Custom line item",
    item: "Item",
    kind: "Kind",
    quantity: "Quantity",
    unit_amount: "Unit amount",
    amount: "Amount",
    custom_kinds: ["capex", "per year"],
    price_bases: ["catalog", "catalog (stale price)", "override", "included", "no price"],
    no_price: "no price",
    totals: "Totals",
    surcharges: ["Tax", "Shipping", "Installation"],
    surcharge_of_parts: "{} ({} % of parts)",
    custom_capex: "Custom capex lines",
    capex: "Capex",
    custom_opex: "Custom running costs per year (not in capex)",
    custom_opex_short: "Custom running costs per year",
    unpriced_lines: "Part lines without a price (not in the totals)",
    unpriced_lines_short: "Lines without a price",
    summary: "Summary",
    value: "Value",
    unit: "Unit",
    build: "Build",
    nodes: "Nodes",
    gpus: "GPUs",
    wall_max: "Wall power at max",
    wall_typical: "Wall power, typical",
    wall_idle: "Wall power, idle",
    recommended_psu: "Recommended PSU capacity",
    heat_max: "Heat at max",
    cooling: "Cooling",
    tons: "tons",
    compatibility: "Compatibility",
    compat_errors: "Compatibility errors",
    compat_warnings: "Compatibility warnings",
    compat_infos: "Compatibility notes (info)",
    compat_status: ["ok", "warnings", "errors"],
    models_evaluated: "Catalog models evaluated",
    models_inference: "Models that fit for inference",
    models_finetune: "Models that fit for fine-tuning",
    largest_inference: "Largest model for inference",
    largest_finetune: "Largest model for fine-tuning",
    workload_fit: "Workload fit",
    none: "none",
    no_gpus: "no GPUs",
    tco_horizon: "TCO horizon",
    years: "years",
    tco_utilization: "TCO utilization",
    owned_total: "Owned total over the horizon",
    energy_per_million_tokens: "Energy per 1M tokens (planned workload)",
    energy_per_run: "Energy per run (planned workload)",
    kwh: "kWh",
    planned_workload: "Planned workload",
    planned_workload_value: "{} tokens/s; {} kWh per 1M tokens",
    planned_workload_run: "; a run of {} tokens takes {} h and {} kWh",
    primary_cloud: "Primary cloud option",
    cloud_total: "Cloud option total over the horizon",
    break_even_month: "Break-even month",
    month: "month",
    never: "never",
    no_cloud_match: "none matches the build",
    findings: "Findings",
    code: "Code",
    message: "Message",
    fix: "Fix",
    fix_suffix: " — fix: {}",
    finding_of_severity: "Finding ({})",
    severities: ["error", "warning", "info"],
    notes: "Notes",
    sources: "Sources",
    power_by_component: "Power by component",
    tco_heading: "Total cost of ownership",
    included_in: "included in the price of {}; {}",
    note_unpriced: "{} part line(s) have no price and are not in the totals; get a quote for them.",
    note_unknown: "{} part line(s) name parts the catalog does not know; they are listed by id and left out of every figure.",
    note_stale: "{} of the {} catalog prices are older than {} months on {} (marked stale); confirm them with the vendor before ordering.",
    nodes_and_gpus: "Nodes and GPUs",
    nodes_and_gpus_value: "{} node(s), {} GPU(s)",
    wall_power: "Wall power",
    wall_power_value: "{} at max, {} typical, {} idle; recommended PSU capacity {}",
    heat: "Heat",
    heat_value: "{} = {} BTU/h = {} tons of cooling",
    compat_value: "{}: {} error(s), {} warning(s), {} info",
    largest_value: "{} ({} parameters, {})",
    fit_value: "{} of {} catalog models fit for inference, {} for fine-tuning; largest for inference: {}; largest for fine-tuning: {}",
    tco: "TCO",
    tco_value: "owned {} {} vs {} {} {} over {} years at {} % utilization; break-even {}",
    tco_value_no_cloud: "owned {} {} over {} years at {} % utilization; no matching cloud option",
    break_even_at: "month {}",
    break_even_beyond: "month {} (beyond the {}-month horizon)",
    power_groups: [
        "GPUs",
        "CPUs",
        "Memory",
        "Storage",
        "Boards",
        "Cooling and chassis",
        "Network",
        "Complete systems",
        "PSU losses",
    ],
    power_chart_title: "Wall power at max per node, by component (W)",
    owned_curve: "Owned (cash spent)",
    cumulative_cost: "Cumulative cost ({})",
    per_node_of: " (per node, ×{})",
    primary_option: "{} (primary)",
    break_even_marker: "break-even, month {}",
};

/// Simplified Chinese (the terms of `zh-terms.md`).
pub static ZH: SheetTexts = SheetTexts {
    lang: Lang::ZhCn,
    build_sheet: "采购清单",
    build_sheet_title: "采购清单：{}",
    description: "说明",
    date: "日期",
    currency: "币种",
    usd_exchange_rate: "美元汇率",
    per_usd: "{}/美元",
    per_usd_note: "{}/美元（部件库美元价格按此换算）",
    usd_rate_note: "1 美元 = {} {}（部件库美元价格按此换算）",
    html_meta: "日期 {} · 金额单位 {} · 部件库美元价格按 1 美元 = {} {} 换算",
    parts: "部件",
    columns: [
        "分组",
        "类别",
        "厂商",
        "部件",
        "部件 ID",
        "SKU",
        "每节点数量",
        "节点数",
        "总数量",
        "单价",
        "金额",
        "报价日期",
        "价格依据",
        "来源",
    ],
    with_currency: "{}（{}）",
    custom_lines: "自定义费用项",
    custom_line_item: "自定义费用项",
    item: "项目",
    kind: "类型",
    quantity: "数量",
    unit_amount: "单价",
    amount: "金额",
    custom_kinds: ["初始投入", "每年"],
    price_bases: ["部件库", "部件库（价格已过期）", "手动报价", "已含", "无价格"],
    no_price: "无价格",
    totals: "合计",
    surcharges: ["税费", "运费", "安装费"],
    surcharge_of_parts: "{}（部件的 {} %）",
    custom_capex: "自定义初始投入项",
    capex: "初始投入",
    custom_opex: "自定义每年运营成本（不计入初始投入）",
    custom_opex_short: "自定义每年运营成本",
    unpriced_lines: "无价格的部件行（不计入合计）",
    unpriced_lines_short: "无价格的行",
    summary: "概要",
    value: "数值",
    unit: "单位",
    build: "配置方案",
    nodes: "节点数",
    gpus: "GPU 数",
    wall_max: "满载墙插功耗",
    wall_typical: "典型墙插功耗",
    wall_idle: "待机墙插功耗",
    recommended_psu: "建议电源额定功率",
    heat_max: "满载发热量",
    cooling: "制冷量",
    tons: "冷吨",
    compatibility: "兼容性",
    compat_errors: "兼容性错误",
    compat_warnings: "兼容性警告",
    compat_infos: "兼容性提示",
    compat_status: ["通过", "有警告", "有错误"],
    models_evaluated: "评估的部件库模型",
    models_inference: "可推理的模型",
    models_finetune: "可微调的模型",
    largest_inference: "可推理的最大模型",
    largest_finetune: "可微调的最大模型",
    workload_fit: "工作负载适配",
    none: "无",
    no_gpus: "无 GPU",
    tco_horizon: "总拥有成本周期",
    years: "年",
    tco_utilization: "总拥有成本利用率",
    owned_total: "周期内自建总成本",
    energy_per_million_tokens: "每百万 tokens 能耗（计划工作负载）",
    energy_per_run: "每次训练能耗（计划工作负载）",
    kwh: "千瓦时",
    planned_workload: "计划工作负载",
    planned_workload_value: "{} tokens/s；每百万 tokens {} 千瓦时",
    planned_workload_run: "；{} tokens 的一次训练需 {} 小时、{} 千瓦时",
    primary_cloud: "主要云方案",
    cloud_total: "周期内云方案总成本",
    break_even_month: "回本周期",
    month: "月",
    never: "无法回本",
    no_cloud_match: "没有与该配置匹配的云方案",
    findings: "检查结果",
    code: "代码",
    message: "说明",
    fix: "建议修改",
    fix_suffix: " — 建议修改：{}",
    finding_of_severity: "检查结果（{}）",
    severities: ["错误", "警告", "提示"],
    notes: "备注",
    sources: "来源",
    power_by_component: "各部件功耗",
    tco_heading: "总拥有成本",
    included_in: "已含在 {} 的价格中；{}",
    note_unpriced: "{} 个部件行没有价格，未计入合计；请向供应商询价。",
    note_unknown: "{} 个部件行引用了部件库中没有的部件；它们按 ID 列出，不计入任何数值。",
    note_stale: "{} 个部件库价格（共 {} 个有日期的价格）已超过 {} 个月（截至 {}，标为已过期）；下单前请向供应商确认。",
    nodes_and_gpus: "节点与 GPU",
    nodes_and_gpus_value: "{} 个节点，{} 块 GPU",
    wall_power: "墙插功耗",
    wall_power_value: "满载 {}，典型 {}，待机 {}；建议电源额定功率 {}",
    heat: "发热量",
    heat_value: "{} = {} BTU/h = {} 冷吨",
    compat_value: "{}：{} 个错误，{} 个警告，{} 个提示",
    largest_value: "{}（{} 参数，{}）",
    fit_value: "可推理 {} 个（共评估 {} 个部件库模型），可微调 {} 个；可推理的最大模型：{}；可微调的最大模型：{}",
    tco: "总拥有成本",
    tco_value: "自建 {} {}，对比 {} {} {}，周期 {} 年，利用率 {} %；回本周期：{}",
    tco_value_no_cloud: "自建 {} {}，周期 {} 年，利用率 {} %；没有匹配的云方案",
    break_even_at: "第 {} 个月",
    break_even_beyond: "第 {} 个月（超出 {} 个月的周期）",
    power_groups: ["GPU", "CPU", "内存", "存储", "主板", "散热与机箱", "网络", "整机", "电源损耗"],
    power_chart_title: "每节点满载墙插功耗，按部件分（W）",
    owned_curve: "自建（累计支出）",
    cumulative_cost: "累计成本（{}）",
    per_node_of: "（每节点，×{}）",
    primary_option: "{}（主要）",
    break_even_marker: "回本：第 {} 个月",
};
