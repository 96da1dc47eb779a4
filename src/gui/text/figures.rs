//! Text of the analysis figures: plot legends and axis ticks, the cloud options of the TCO
//! (their terms by name, a table that shows what differs between them), and the summary's
//! values, and the display names of catalog values that have no `Display` of their own (a spec
//! card shows "data center", never the code name "Datacenter"). English and Simplified Chinese
//! (terms from `../shared/guide/zh-terms.md`).
//!
//! Templates mark their arguments with `{}`, filled in order by `core::i18n::fill`.

use crate::core::analysis::memory::Mode;
use crate::core::analysis::tco::Term;

/// The figures' text table.
#[derive(Debug)]
pub struct FigureTexts {
    /// A plot's legend, collapsible: "Legend ({count})".
    pub legend: &'static str,
    /// Units that scale a money axis's ticks, largest first: (divisor, suffix). English uses
    /// thousands and millions, Chinese 万 (10⁴) and 亿 (10⁸), as Chinese quotes state sums.
    pub tick_units: &'static [(f64, &'static str)],
    /// The cloud terms, in the order of `core::analysis::tco::Term::ALL` (on-demand, 1-year
    /// reserved, 3-year reserved, spot, monthly subscription, custom).
    pub terms: [&'static str; 6],
    /// The TCO tab's table of cloud options: its title and column heads.
    pub options_title: &'static str,
    pub option_col: &'static str,
    pub term_col: &'static str,
    /// "Total ({currency})".
    pub total_col: &'static str,
    /// "{offer} in {region}, price of {date}".
    pub option_hover: &'static str,
    /// A summary value naming a cloud option: "{amount} · {term} · {offer}".
    pub option_value: &'static str,
    /// The Memory & speed tab: the GPU count of the selected cell.
    pub fit_gpu_count: &'static str,
    /// "Run the model on 1 to {max} GPUs of this node group".
    pub fit_gpus_hint: &'static str,
    /// The selected cell's workload once precision, batch or context were changed:
    /// "{mode}, {weights} weights, {context}-token context, batch {batch}".
    pub fit_workload: &'static str,
    /// A training workload's sentence with its ZeRO stage: "{workload}, ZeRO-{stage}".
    pub fit_workload_zero: &'static str,
    /// The workload modes, in the order of `core::analysis::memory::Mode` (inference, full
    /// training, LoRA, QLoRA).
    pub modes: [&'static str; 4],
    /// Catalog values by display name, in enum order. GPU segments (consumer, workstation,
    /// data center, embedded).
    pub gpu_segments: [&'static str; 4],
    /// GPU cooler styles (open-air, blower, passive, liquid).
    pub cooler_styles: [&'static str; 4],
    /// PSU form factors (ATX, SFX, CRPS, server module).
    pub psu_form_factors: [&'static str; 4],
    /// Board roles (mainboard, GPU baseboard).
    pub board_roles: [&'static str; 2],
    /// GPU-to-GPU links (PCIe only, NVLink bridge, NVLink switch, Infinity Fabric, HCCS).
    pub interconnects: [&'static str; 5],
    /// The spec card's field labels by serialized field name (`text::spec_fields`); empty
    /// where the labels are made from the field names (English).
    pub field_labels: &'static [(&'static str, &'static str)],
    /// The same for the fields whose name differs on a GPU.
    pub gpu_field_labels: &'static [(&'static str, &'static str)],
    /// The Summary's model counts: "{count}, on {GPU group}" for a build of one GPU group,
    /// "{count}, on any GPU group" for more.
    pub models_on: &'static str,
    pub models_on_any: &'static str,
    /// A GPU group: "{n} × {GPU}", "{group} × {nodes}", "{group} in {node group}",
    /// "{group} and {n} more like it".
    pub group_gpus: &'static str,
    pub group_nodes: &'static str,
    pub group_in: &'static str,
    pub group_alike: &'static str,
    /// The Summary's per-group counts: their heading, and "{n} inference · {n} fine-tuning".
    pub groups_title: &'static str,
    pub group_counts: &'static str,
    /// The Issues tab's count on hover: "{n} findings = {errors} errors + {warnings} warnings
    /// + {infos} info".
    pub issues_total: &'static str,
}

impl FigureTexts {
    /// A workload mode by name.
    #[must_use]
    pub fn mode(&self, mode: Mode) -> &'static str {
        let i = match mode {
            Mode::Inference => 0,
            Mode::Train => 1,
            Mode::Lora => 2,
            Mode::Qlora => 3,
        };
        self.modes.get(i).copied().unwrap_or_default()
    }

    /// A cloud term by name.
    #[must_use]
    pub fn term(&self, term: Term) -> &'static str {
        let i = Term::ALL.iter().position(|t| *t == term).unwrap_or_default();
        self.terms.get(i).copied().unwrap_or_default()
    }
}

/// English.
pub static EN: FigureTexts = FigureTexts {
    legend: "Legend ({})",
    tick_units: &[(1.0e6, " M"), (1.0e3, " k")],
    terms: ["on-demand", "1-year reserved", "3-year reserved", "spot", "monthly", "custom"],
    options_title: "Cloud options over the horizon",
    option_col: "Provider and instance",
    term_col: "Term",
    total_col: "Total ({})",
    option_hover: "{} in {}, price of {}",
    option_value: "{} · {} · {}",
    fit_gpu_count: "GPUs",
    fit_gpus_hint: "Run the model on 1 to {} GPUs of this node group (inference splits it across GPUs that divide its attention heads)",
    fit_workload: "{}, {} weights, {}-token context, batch {}",
    fit_workload_zero: "{}, ZeRO-{}",
    modes: ["Inference", "Full training", "LoRA fine-tuning", "QLoRA fine-tuning"],
    gpu_segments: ["consumer", "workstation", "data center", "embedded"],
    cooler_styles: ["open-air", "blower", "passive (server airflow)", "liquid"],
    psu_form_factors: ["ATX", "SFX", "CRPS", "server module"],
    board_roles: ["mainboard", "GPU baseboard"],
    interconnects: ["PCIe only", "NVLink bridge", "NVLink switch", "Infinity Fabric", "HCCS mesh"],
    field_labels: &[],
    gpu_field_labels: &[],
    models_on: "{}, on {}",
    models_on_any: "{}, on any GPU group",
    group_gpus: "{} × {}",
    group_nodes: "{} × {}",
    group_in: "{} in {}",
    group_alike: "{} (and {} more like it)",
    groups_title: "Models that fit, by GPU group",
    group_counts: "{} inference · {} fine-tuning",
    issues_total: "{} findings = {} errors + {} warnings + {} info",
};

/// Simplified Chinese.
pub static ZH: FigureTexts = FigureTexts {
    legend: "图例（{}）",
    tick_units: &[(1.0e8, " 亿"), (1.0e4, " 万")],
    terms: ["按需", "包年（1 年）", "包年（3 年）", "竞价实例", "包月", "自定义"],
    options_title: "分析期内的云方案",
    option_col: "云服务商与实例",
    term_col: "计费方式",
    total_col: "合计（{}）",
    option_hover: "{}，地区 {}，价格日期 {}",
    option_value: "{} · {} · {}",
    fit_gpu_count: "GPU 数量",
    fit_gpus_hint: "在该节点组的 1 到 {} 个 GPU 上运行模型（推理按能整除注意力头数的 GPU 数切分）",
    fit_workload: "{}，{} 权重，上下文 {} tokens，批大小 {}",
    fit_workload_zero: "{}，ZeRO 阶段 {}",
    modes: ["推理", "全量训练", "LoRA 微调", "QLoRA 微调"],
    gpu_segments: ["消费级", "工作站", "数据中心", "嵌入式"],
    cooler_styles: ["开放式风冷", "涡轮风扇", "被动散热（服务器风道）", "液冷"],
    psu_form_factors: ["ATX", "SFX", "CRPS", "服务器电源模块"],
    board_roles: ["主板", "GPU 底板"],
    interconnects: ["仅 PCIe", "NVLink 桥接", "NVLink 交换机", "Infinity Fabric 互连", "HCCS 全互连"],
    field_labels: super::spec_fields::ZH,
    gpu_field_labels: super::spec_fields::ZH_GPU,
    models_on: "{}，在 {} 上",
    models_on_any: "{}，在任一 GPU 组上",
    group_gpus: "{} × {}",
    group_nodes: "{} × {}",
    group_in: "{}（{}）",
    group_alike: "{}（另有 {} 组相同）",
    groups_title: "各 GPU 组可运行的模型",
    group_counts: "推理 {} 个 · 微调 {} 个",
    issues_total: "检查结果 {} 条 = 错误 {} 条 + 警告 {} 条 + 提示 {} 条",
};

#[cfg(test)]
mod tests {
    use super::*;

    fn all(t: &FigureTexts) -> Vec<&'static str> {
        let mut v = vec![
            t.legend,
            t.options_title,
            t.option_col,
            t.term_col,
            t.total_col,
            t.option_hover,
            t.fit_gpu_count,
            t.fit_gpus_hint,
            t.fit_workload,
            t.fit_workload_zero,
        ];
        v.extend(t.terms);
        v.extend(t.modes);
        v.extend(t.gpu_segments);
        v.extend(t.cooler_styles);
        v.extend(t.board_roles);
        v.extend(t.interconnects);
        v.extend([t.models_on, t.models_on_any, t.group_alike, t.groups_title, t.group_counts, t.issues_total]);
        // ATX, SFX and CRPS are names in both languages.
        v.push(t.psu_form_factors[3]);
        v.extend(t.tick_units.iter().map(|u| u.1));
        v
    }

    #[test]
    fn every_text_has_a_chinese_form_with_the_same_markers() {
        let cjk = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        let (en, zh) = (all(&EN), all(&ZH));
        assert_eq!(en.len(), zh.len());
        for (e, z) in en.iter().zip(&zh) {
            assert_eq!(e.matches("{}").count(), z.matches("{}").count(), "{e} / {z}");
            assert!(cjk(z), "{z} (for {e}) is not in Chinese");
        }
        assert_eq!(EN.option_value.matches("{}").count(), ZH.option_value.matches("{}").count());
    }

    #[test]
    fn every_term_has_its_own_name() {
        for t in [&EN, &ZH] {
            let names: std::collections::BTreeSet<&str> = Term::ALL.iter().map(|&term| t.term(term)).collect();
            assert_eq!(names.len(), Term::ALL.len(), "{names:?}");
        }
        assert_eq!(EN.term(Term::Spot), "spot");
        assert_eq!(ZH.term(Term::Reserved3y), "包年（3 年）");
    }

    #[test]
    fn tick_units_run_largest_first() {
        for units in [EN.tick_units, ZH.tick_units] {
            assert!(units.windows(2).all(|w| w[0].0 > w[1].0), "{units:?}");
        }
    }
}
