//! The words of a comparison in each language: group names, row labels, units in words, the
//! reasons a cell has no value, the notes, the errors, and the headings of the comparison
//! exports (CSV, Markdown, HTML and its charts).
//!
//! A comparison is computed in one language ([`super::CompareOptions::lang`]) and every text
//! it holds is rendered from this module: plain words from the table of that language
//! ([`CompareTexts::of`]), sentences with arguments from the two-language templates below
//! (named placeholders, filled by [`say`]). Words a build sheet also prints (currency, nodes,
//! wall power, never …) come from the sheets' table ([`CompareTexts::sheet`]) and the
//! purchasing category names from `bom::category_label_in`, so each exists once. Row ids,
//! group ids, workload ids and JSON keys stay English (a stable schema); product and model
//! names, currency codes and unit symbols (W, °C, CFM, BTU/h, tokens/s) stay as written.
//! Chinese terms follow `zh-terms.md` (初始投入, 总拥有成本, 回本周期, 墙插功耗, 散热, 显存 …).

use super::{Direction, Outcome};
use crate::core::analysis::fit::WorkloadKind;
use crate::core::analysis::memory::Verdict;
use crate::core::export::texts::{self as sheet_texts, SheetTexts};
use crate::core::i18n::Lang;

/// The plain words of a comparison in one language.
#[derive(Debug)]
pub struct CompareTexts {
    pub lang: Lang,
    /// The build sheets' table of the same language, for the words both print.
    pub sheet: &'static SheetTexts,
    // Group names.
    pub group_cost: &'static str,
    pub group_power: &'static str,
    pub group_thermal: &'static str,
    pub group_compatibility: &'static str,
    pub group_fit: &'static str,
    pub group_speed: &'static str,
    // Row labels without arguments (the ones with arguments are templates).
    pub capex: &'static str,
    pub unpriced_lines: &'static str,
    pub owning_savings: &'static str,
    pub break_even: &'static str,
    pub recommended_psu: &'static str,
    pub circuits: &'static str,
    pub gpu_headroom: &'static str,
    pub gpu_temp: &'static str,
    pub cpu_cooler_headroom: &'static str,
    pub airflow_headroom: &'static str,
    pub heat: &'static str,
    pub infos: &'static str,
    pub largest_inference: &'static str,
    pub largest_finetune: &'static str,
    // Units in words (symbols such as W and °C are the same in every language).
    pub unit_lines: &'static str,
    pub unit_circuits: &'static str,
    pub unit_findings: &'static str,
    pub unit_models: &'static str,
    pub unit_params: &'static str,
    pub unit_hours: &'static str,
    pub unit_samples: &'static str,
    pub unit_images_per_minute: &'static str,
    // Why a cell has no value.
    pub no_option: &'static str,
    pub no_gpu: &'static str,
    pub not_applicable: &'static str,
    pub unknown: &'static str,
    pub does_not_fit: &'static str,
    pub no_figure: &'static str,
    /// Between the items of a list (GPU names, currencies, utilizations).
    pub list_separator: &'static str,
    // Notes without arguments.
    pub note_options: &'static str,
    pub note_no_models: &'static str,
    // The exports' words.
    /// The first CSV cell.
    pub comparison: &'static str,
    pub tco_horizon_years: &'static str,
    pub speed_model: &'static str,
    pub name: &'static str,
    pub utilization: &'static str,
    pub metric: &'static str,
    /// The CSV column of a row's group.
    pub group: &'static str,
    pub part: &'static str,
    pub part_id: &'static str,
    pub category: &'static str,
    pub metric_id: &'static str,
    pub direction: &'static str,
    pub best: &'static str,
    /// The Markdown and HTML column of which way is better.
    pub better: &'static str,
    /// Lower, higher is better: the CSV's direction column.
    pub lower_is_better: &'static str,
    pub higher_is_better: &'static str,
    /// Lower, higher: the Markdown and HTML direction column.
    pub lower: &'static str,
    pub higher: &'static str,
    /// Better, worse, same.
    pub outcome_better: &'static str,
    pub outcome_worse: &'static str,
    pub outcome_same: &'static str,
    /// Fits, tight, does not fit, not applicable (the fit cells that differ).
    pub verdict_fits: &'static str,
    pub verdict_tight: &'static str,
    pub verdict_no_fit: &'static str,
    pub verdict_none: &'static str,
    pub fit_differences: &'static str,
    pub fit_same: &'static str,
    pub model: &'static str,
    pub model_id: &'static str,
    pub workload: &'static str,
    pub parts_differences: &'static str,
    pub parts_same: &'static str,
    /// The HTML heading of the overlaid cost curves.
    pub cumulative_cost: &'static str,
    /// Idle, typical, max: the levels of the grouped power bars.
    pub power_idle: &'static str,
    pub power_typical: &'static str,
    pub power_max: &'static str,
    pub power_title: &'static str,
}

impl CompareTexts {
    /// The table of a language.
    #[must_use]
    pub fn of(lang: Lang) -> &'static Self {
        match lang {
            Lang::En => &EN,
            Lang::ZhCn => &ZH,
        }
    }

    /// Which way is better, as the CSV's direction column says it (empty without a direction).
    #[must_use]
    pub fn direction_label(&self, d: Direction) -> &'static str {
        match d {
            Direction::Lower => self.lower_is_better,
            Direction::Higher => self.higher_is_better,
            Direction::None => "",
        }
    }

    /// Which way is better in one word, as Markdown and HTML say it.
    #[must_use]
    pub fn direction_word(&self, d: Direction) -> &'static str {
        match d {
            Direction::Lower => self.lower,
            Direction::Higher => self.higher,
            Direction::None => "",
        }
    }

    /// How a build fares against the first (empty for none).
    #[must_use]
    pub fn outcome(&self, o: Option<Outcome>) -> &'static str {
        match o {
            Some(Outcome::Better) => self.outcome_better,
            Some(Outcome::Worse) => self.outcome_worse,
            Some(Outcome::Same) => self.outcome_same,
            None => "",
        }
    }

    /// A verdict in words.
    #[must_use]
    pub fn verdict(&self, v: Option<Verdict>) -> &'static str {
        match v {
            Some(Verdict::Fits) => self.verdict_fits,
            Some(Verdict::Tight) => self.verdict_tight,
            Some(Verdict::DoesNotFit) => self.verdict_no_fit,
            None => self.verdict_none,
        }
    }

    /// A workload's short name in a row label (`bf16 4k`, `full FT`; `全参数微调`).
    #[must_use]
    pub fn workload_short(&self, w: WorkloadKind) -> &'static str {
        match self.lang {
            Lang::En => w.short(),
            Lang::ZhCn => workload_zh(w),
        }
    }

    /// A workload in the exports' workload column: its stable id in English (as the exports
    /// always printed it), its short Chinese name in Chinese.
    #[must_use]
    pub fn workload_column(&self, w: WorkloadKind) -> &'static str {
        match self.lang {
            Lang::En => w.id(),
            Lang::ZhCn => workload_zh(w),
        }
    }
}

/// A workload's short Chinese name.
fn workload_zh(w: WorkloadKind) -> &'static str {
    match w {
        WorkloadKind::InferenceBf16 => "推理 bf16 4k",
        WorkloadKind::InferenceQ4km => "推理 Q4_K_M 8k",
        WorkloadKind::Lora => "LoRA r16",
        WorkloadKind::Qlora => "QLoRA NF4 r64",
        WorkloadKind::FullFinetune => "全参数微调",
    }
}

pub use crate::core::i18n::say;

/// English.
pub static EN: CompareTexts = CompareTexts {
    lang: Lang::En,
    sheet: &sheet_texts::EN,
    group_cost: "Cost",
    group_power: "Power",
    group_thermal: "Thermal",
    group_compatibility: "Compatibility",
    group_fit: "Memory fit",
    group_speed: "Speed",
    capex: "Capex (parts, tax, shipping, installation, custom lines)",
    unpriced_lines: "Part lines without a price (not in capex)",
    owning_savings: "Saving from owning (cloud total − owned total)",
    break_even: "Break-even against the primary cloud option",
    recommended_psu: "Recommended PSU capacity (all nodes)",
    circuits: "Circuits needed at max draw",
    gpu_headroom: "Worst GPU temperature headroom (limit − estimate)",
    gpu_temp: "Hottest GPU, estimated at sustained load",
    cpu_cooler_headroom: "Worst CPU cooler headroom",
    airflow_headroom: "Worst chassis airflow headroom (fans' rating − need)",
    heat: "Heat load at max",
    infos: "Notes (info)",
    largest_inference: "Largest model that fits for inference",
    largest_finetune: "Largest model that fits for fine-tuning",
    unit_lines: "lines",
    unit_circuits: "circuits",
    unit_findings: "findings",
    unit_models: "models",
    unit_params: "B params",
    unit_hours: "h",
    unit_samples: "samples/s",
    unit_images_per_minute: "images/min",
    no_option: "no option",
    no_gpu: "no GPU",
    not_applicable: "n/a",
    unknown: "unknown",
    does_not_fit: "does not fit",
    no_figure: "no figure",
    list_separator: ", ",
    note_options: "The primary cloud options differ between builds (each is matched to its build's GPUs); see the builds list.",
    note_no_models: "The model catalog is empty: no speed rows.",
    comparison: "Comparison",
    tco_horizon_years: "TCO horizon (years)",
    speed_model: "Speed model",
    name: "Name",
    utilization: "Utilization",
    metric: "Metric",
    group: "Group",
    part: "Part",
    part_id: "Part id",
    category: "Category",
    metric_id: "Metric id",
    direction: "Direction",
    best: "Best",
    better: "Better",
    lower_is_better: "lower is better",
    higher_is_better: "higher is better",
    lower: "lower",
    higher: "higher",
    outcome_better: "better",
    outcome_worse: "worse",
    outcome_same: "same",
    verdict_fits: "fits",
    verdict_tight: "tight",
    verdict_no_fit: "does not fit",
    verdict_none: "n/a",
    fit_differences: "Fit cells that differ",
    fit_same: "Every model fits the same way on every build.",
    model: "Model",
    model_id: "Model id",
    workload: "Workload",
    parts_differences: "Parts that differ",
    parts_same: "The builds have the same parts.",
    cumulative_cost: "Cumulative cost",
    power_idle: "Idle",
    power_typical: "Typical",
    power_max: "Max",
    power_title: "Wall power of the whole build (W)",
};

/// Simplified Chinese (the terms of `zh-terms.md`).
pub static ZH: CompareTexts = CompareTexts {
    lang: Lang::ZhCn,
    sheet: &sheet_texts::ZH,
    group_cost: "成本",
    group_power: "功耗",
    group_thermal: "散热",
    group_compatibility: "兼容性",
    group_fit: "显存容量",
    group_speed: "速度",
    capex: "初始投入（部件、税费、运费、安装费、自定义费用项）",
    unpriced_lines: "无价格的部件行（不计入初始投入）",
    owning_savings: "自建节省的成本（云方案总成本 − 自建总成本）",
    break_even: "相对主要云方案的回本周期",
    recommended_psu: "建议电源额定功率（全部节点）",
    circuits: "满载所需电路数",
    gpu_headroom: "GPU 最小温度余量（上限 − 估算）",
    gpu_temp: "持续负载下最热 GPU 的估算温度",
    cpu_cooler_headroom: "CPU 散热器最小余量",
    airflow_headroom: "机箱最小风量余量（风扇额定风量 − 所需风量）",
    heat: "满载发热量",
    infos: "兼容性提示",
    largest_inference: "可推理的最大模型",
    largest_finetune: "可微调的最大模型",
    unit_lines: "行",
    unit_circuits: "路",
    unit_findings: "项",
    unit_models: "个",
    unit_params: "B 参数",
    unit_hours: "小时",
    unit_samples: "样本/s",
    unit_images_per_minute: "张/分钟",
    no_option: "无云方案",
    no_gpu: "无 GPU",
    not_applicable: "不适用",
    unknown: "未知",
    does_not_fit: "显存不足",
    no_figure: "无数据",
    list_separator: "、",
    note_options: "各配置方案的主要云方案不同（各自按其 GPU 匹配）；见配置方案列表。",
    note_no_models: "模型库为空：没有速度对比行。",
    comparison: "配置方案对比",
    tco_horizon_years: "总拥有成本周期（年）",
    speed_model: "速度对比所用模型",
    name: "名称",
    utilization: "利用率",
    metric: "指标",
    group: "分组",
    part: "部件",
    part_id: "部件 ID",
    category: "类别",
    metric_id: "指标 ID",
    direction: "方向",
    best: "最佳",
    better: "更优方向",
    lower_is_better: "越低越好",
    higher_is_better: "越高越好",
    lower: "越低越好",
    higher: "越高越好",
    outcome_better: "更好",
    outcome_worse: "更差",
    outcome_same: "相同",
    verdict_fits: "可运行",
    verdict_tight: "余量紧张",
    verdict_no_fit: "显存不足",
    verdict_none: "不适用",
    fit_differences: "显存容量结论不同的单元格",
    fit_same: "各配置方案上每个模型的显存容量结论都相同。",
    model: "模型",
    model_id: "模型 ID",
    workload: "工作负载",
    parts_differences: "不同的部件",
    parts_same: "各配置方案使用的部件和数量完全相同。",
    cumulative_cost: "累计成本",
    power_idle: "待机",
    power_typical: "典型",
    power_max: "满载",
    power_title: "整套配置方案的墙插功耗（W）",
};

crate::templates! {
    pub(crate) TEMPLATES;
    TCO_OWNED "" {
        en: "Owned total over {years} years (net of the value left)",
        zh: "{years} 年自建总成本（扣除残值）",
    }
    TCO_CLOUD "" {
        en: "Primary cloud option over {years} years",
        zh: "{years} 年主要云方案总成本",
    }
    FIT_MODELS "" {
        en: "Models that fit: {workload}",
        zh: "可运行的模型数：{workload}",
    }
    LARGEST_VALUE "" {
        en: "{name} ({params} B)",
        zh: "{name}（{params} B）",
    }
    SAMPLES_INFERENCE "" {
        en: "{model}: inference samples per second ({workload})",
        zh: "{model}：每秒推理样本数（{workload}）",
    }
    IMAGES_PER_MINUTE "" {
        en: "{model}: images per minute at {steps} steps ({workload})",
        zh: "{model}：每分钟生成图像数，{steps} 步（{workload}）",
    }
    SAMPLES_TRAIN "" {
        en: "{model}: training samples per second ({workload})",
        zh: "{model}：每秒训练样本数（{workload}）",
    }
    DECODE "" {
        en: "{model}: decode, {workload}",
        zh: "{model}：解码速度，{workload}",
    }
    TRAIN_THROUGHPUT "" {
        en: "{model}: training throughput, {workload}",
        zh: "{model}：训练吞吐量，{workload}",
    }
    TIME_LORA "" {
        en: "{model}: LoRA training time for {tokens} tokens",
        zh: "{model}：{tokens} token 的 LoRA 训练时间",
    }
    TIME_FULL "" {
        en: "{model}: full fine-tune training time for {tokens} tokens",
        zh: "{model}：{tokens} token 的全参数微调训练时间",
    }
    NOTE_CURRENCIES "" {
        en: "The builds use different currencies ({currencies}); every amount is in USD at each build's own exchange rate.",
        zh: "各配置方案的币种不同（{currencies}）；所有金额均按各配置方案自己的汇率换算为美元（USD）。",
    }
    NOTE_UTILIZATIONS "" {
        en: "The builds plan different GPU utilizations ({utilizations}); running costs and cloud totals follow each build's own.",
        zh: "各配置方案规划的 GPU 利用率不同（{utilizations}）；运营成本和云方案总成本按各配置方案自己的利用率计算。",
    }
    ERR_COUNT "" {
        en: "a comparison takes {min} to {max} builds; {given} given",
        zh: "对比需要 {min} 到 {max} 套配置方案；现有 {given} 套",
    }
    ERR_UNKNOWN_MODEL "" {
        en: "model `{model}` is not in the model catalog",
        zh: "模型库中没有模型 `{model}`",
    }
    ERR_HORIZON "" {
        en: "the horizon must be between 0.25 and 15 years; {years} is not",
        zh: "周期必须在 0.25 到 15 年之间；{years} 不在此范围内",
    }
    ERR_TRAIN_TOKENS "" {
        en: "the training token count must be a positive number; {tokens} is not",
        zh: "训练 token 数必须为正数；{tokens} 不是正数",
    }
    ERR_EXCHANGE_RATE "" {
        en: "build `{name}` has the exchange rate {rate}, which cannot convert its amounts to USD",
        zh: "配置方案 `{name}` 的汇率为 {rate}，无法将其金额换算为美元",
    }
    TITLE "" {
        en: "Comparison of {count} builds",
        zh: "{count} 套配置方案对比",
    }
    BUILDS "" {
        en: "{count} builds",
        zh: "{count} 套配置方案",
    }
    DELTA_VS_FIRST "" {
        en: "Delta {build} vs A",
        zh: "{build} 相对 A 的差值",
    }
    VS_FIRST "" {
        en: "{build} vs A",
        zh: "{build} 相对 A",
    }
    WITH_OUTCOME "" {
        en: "{delta} ({outcome})",
        zh: "{delta}（{outcome}）",
    }
    MD_INTRO "" {
        en: "Amounts in {currency}; TCO over {years} years. Deltas are against A; **bold** marks the best value where lower or higher is better.",
        zh: "金额单位：{currency}；总拥有成本按 {years} 年计。差值均相对 A；在越低越好或越高越好的指标上，**粗体**标出最佳值。",
    }
    MD_SPEED "" {
        en: "Speed rows are for {model}.",
        zh: "速度对比所用模型：{model}。",
    }
    HTML_META "" {
        en: "Amounts in {currency}; TCO over {years} years; deltas against A; the best value is highlighted where lower or higher is better.{speed}",
        zh: "金额单位：{currency}；总拥有成本按 {years} 年计；差值均相对 A；在越低越好或越高越好的指标上，最佳值以底色标出。{speed}",
    }
    HTML_SPEED "" {
        en: " Speed rows are for {model}.",
        zh: "速度对比所用模型：{model}。",
    }
    CURVE_OWNED "" {
        en: "{build}: owned",
        zh: "{build}：自建",
    }
    CURVE_CLOUD "" {
        en: "{build}: {option}",
        zh: "{build}：{option}",
    }
    CURVE_BREAK_EVEN "" {
        en: "{build} break-even",
        zh: "{build} 回本",
    }
    BAR_TOOLTIP "" {
        en: "{build}: {level} {watts} W",
        zh: "{build}：{level} {watts} W",
    }
    BAR_LABEL "" {
        en: "{build}: {name}",
        zh: "{build}：{name}",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::i18n::placeholders;

    #[test]
    fn every_template_has_the_same_placeholders_in_both_languages() {
        assert!(TEMPLATES.len() >= 30);
        for t in TEMPLATES {
            let mut en = placeholders(t.en);
            let mut zh = placeholders(t.zh);
            en.sort_unstable();
            zh.sort_unstable();
            assert_eq!(en, zh, "{}", t.en);
            assert!(!en.is_empty() || t.en == t.zh, "{}", t.en);
        }
    }

    #[test]
    fn the_tables_are_of_their_language() {
        for lang in Lang::ALL {
            assert_eq!(CompareTexts::of(lang).lang, lang);
            assert_eq!(CompareTexts::of(lang).sheet.lang, lang);
        }
        assert_eq!(say(&TITLE, Lang::ZhCn, &[("count", "2")]), "2 套配置方案对比");
        assert_eq!(ZH.workload_column(WorkloadKind::Lora), "LoRA r16");
        assert_eq!(EN.workload_column(WorkloadKind::Lora), "lora-r16");
    }
}
