//! The registry of finding codes: every code a finding of the analyses may carry, with the
//! severities it is given and what it means in English and Simplified Chinese.
//!
//! A finding's message is a [`Text`](crate::core::i18n::Text): a template with named
//! parameters (the build's own parts and figures), declared beside the rule that emits it
//! with `templates!` and rendered in the reader's language; so is its suggested fix. The
//! registry's meaning is the short, translated statement of the rule, so that a Chinese UI,
//! sheet or advisor reason can name any finding in a few words (terms from
//! `../shared/guide/zh-terms.md`). Tests hold the registry to the sources and to
//! `report-schema.md`: every code a rule emits is here, every code here is emitted and
//! documented, every code has both meanings and message templates, and every template says
//! the same parameters in both languages.

use super::Severity;
use crate::core::i18n::Lang;

/// One finding code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    /// The stable kebab-case id (`cpu-socket-mismatch`).
    pub id: &'static str,
    /// The severities the rule gives it (two where it grades, e.g. `cooler-capacity-low`).
    pub severities: &'static [Severity],
    /// What it means, in English.
    pub en: &'static str,
    /// What it means, in Simplified Chinese.
    pub zh: &'static str,
}

impl Code {
    /// The meaning in a language.
    #[must_use]
    pub fn meaning(&self, lang: Lang) -> &'static str {
        match lang {
            Lang::En => self.en,
            Lang::ZhCn => self.zh,
        }
    }
}

/// The code with this id.
#[must_use]
pub fn lookup(id: &str) -> Option<&'static Code> {
    CODES.iter().find(|c| c.id == id)
}

/// The meaning of a code in a language; `None` for an id the registry does not hold.
#[must_use]
pub fn meaning(id: &str, lang: Lang) -> Option<&'static str> {
    lookup(id).map(|c| c.meaning(lang))
}

/// Every finding code, in the order of `report-schema.md`: compatibility, power, thermal,
/// catalog, TCO, planned workload.
pub const CODES: [Code; 89] = [
    Code {
        id: "node-empty",
        severities: &[Severity::Warning],
        en: "a node group has no parts",
        zh: "节点组中没有任何部件",
    },
    Code {
        id: "missing-motherboard",
        severities: &[Severity::Error],
        en: "a compute node has no mainboard",
        zh: "计算节点缺少主板",
    },
    Code {
        id: "missing-cpu", severities: &[Severity::Error], en: "a compute node has no CPU", zh: "计算节点缺少 CPU"
    },
    Code {
        id: "missing-memory",
        severities: &[Severity::Error],
        en: "a compute node has no system memory",
        zh: "计算节点缺少内存",
    },
    Code {
        id: "missing-psu", severities: &[Severity::Error], en: "a compute node has no PSU", zh: "计算节点缺少电源"
    },
    Code {
        id: "missing-storage",
        severities: &[Severity::Warning],
        en: "a compute node has no storage",
        zh: "计算节点缺少存储",
    },
    Code {
        id: "missing-chassis",
        severities: &[Severity::Warning],
        en: "a compute node has no chassis",
        zh: "计算节点缺少机箱",
    },
    Code {
        id: "missing-cpu-cooler",
        severities: &[Severity::Warning],
        en: "a compute node has no CPU cooler",
        zh: "计算节点缺少 CPU 散热器",
    },
    Code {
        id: "multiple-mainboards",
        severities: &[Severity::Error],
        en: "more than one mainboard in a node",
        zh: "一个节点中有多块主板",
    },
    Code {
        id: "multiple-chassis",
        severities: &[Severity::Error],
        en: "more than one chassis in a node",
        zh: "一个节点中有多个机箱",
    },
    Code {
        id: "cpu-socket-mismatch",
        severities: &[Severity::Error],
        en: "the CPU's socket is not the board's",
        zh: "CPU 插槽与主板插槽不一致",
    },
    Code {
        id: "cpu-count-exceeds-sockets",
        severities: &[Severity::Error],
        en: "more CPUs than board sockets",
        zh: "CPU 数量超过主板插槽数",
    },
    Code {
        id: "cpu-multi-socket-unsupported",
        severities: &[Severity::Error],
        en: "more CPUs than the model runs in one system",
        zh: "CPU 数量超过该型号支持的多路数",
    },
    Code {
        id: "cpu-mixed-models",
        severities: &[Severity::Error],
        en: "different CPU models in one node",
        zh: "同一节点混用不同型号的 CPU",
    },
    Code {
        id: "cpu-sockets-unpopulated",
        severities: &[Severity::Info],
        en: "fewer CPUs than sockets",
        zh: "CPU 数量少于主板插槽数",
    },
    Code {
        id: "memory-type-mismatch",
        severities: &[Severity::Error],
        en: "the memory's DDR generation is not the board's or the CPU's",
        zh: "内存代数与主板或 CPU 不匹配",
    },
    Code {
        id: "memory-dimm-kind-mismatch",
        severities: &[Severity::Error],
        en: "UDIMM / RDIMM / LRDIMM not what the board takes",
        zh: "内存条类型 (UDIMM / RDIMM / LRDIMM) 与主板不符",
    },
    Code {
        id: "memory-ecc-required",
        severities: &[Severity::Error],
        en: "non-ECC modules on a registered-only board",
        zh: "仅支持 ECC 的主板上使用了非 ECC 内存条",
    },
    Code {
        id: "memory-kinds-mixed",
        severities: &[Severity::Error],
        en: "module kinds mixed",
        zh: "混用不同类型的内存条",
    },
    Code {
        id: "memory-ecc-mixed",
        severities: &[Severity::Warning],
        en: "ECC and non-ECC modules mixed",
        zh: "ECC 与非 ECC 内存条混用",
    },
    Code {
        id: "memory-slots-exceeded",
        severities: &[Severity::Error],
        en: "more DIMMs than slots",
        zh: "内存条数量超过插槽数",
    },
    Code {
        id: "memory-capacity-exceeds-board",
        severities: &[Severity::Error],
        en: "total memory above the board's maximum",
        zh: "内存总容量超过主板上限",
    },
    Code {
        id: "memory-capacity-exceeds-cpu",
        severities: &[Severity::Error],
        en: "total memory above the CPUs' maximum",
        zh: "内存总容量超过 CPU 上限",
    },
    Code {
        id: "memory-channels-underpopulated",
        severities: &[Severity::Warning],
        en: "fewer DIMMs than memory channels",
        zh: "内存条数量少于内存通道数",
    },
    Code {
        id: "system-memory-below-vram",
        severities: &[Severity::Info],
        en: "system memory below 1.5 × total GPU memory",
        zh: "内存容量低于显存总量的 1.5 倍",
    },
    Code {
        id: "gpu-integrated-standalone",
        severities: &[Severity::Error],
        en: "an integrated GPU listed outside its system",
        zh: "集成 GPU 被单独列出，不在其整机中",
    },
    Code {
        id: "gpu-module-needs-baseboard",
        severities: &[Severity::Error],
        en: "SXM/OAM modules without a GPU baseboard",
        zh: "SXM/OAM 模块缺少 GPU 基板",
    },
    Code {
        id: "gpu-baseboard-mismatch",
        severities: &[Severity::Error],
        en: "the modules' form factor is not the baseboard's",
        zh: "GPU 模块规格与基板不符",
    },
    Code {
        id: "gpu-baseboard-positions-exceeded",
        severities: &[Severity::Error],
        en: "more modules than baseboard positions",
        zh: "GPU 模块数量超过基板位置数",
    },
    Code {
        id: "gpu-baseboard-chassis-mismatch",
        severities: &[Severity::Error],
        en: "the chassis does not take that baseboard",
        zh: "机箱不支持该 GPU 基板",
    },
    Code {
        id: "nvlink-bridge-unsupported",
        severities: &[Severity::Error],
        en: "NVLink bridges set but a card has no bridge connector",
        zh: "设置了 NVLink 桥接，但有显卡没有桥接接口",
    },
    Code {
        id: "nvlink-bridge-mixed",
        severities: &[Severity::Error],
        en: "NVLink bridges between different models",
        zh: "NVLink 桥接了不同型号的显卡",
    },
    Code {
        id: "nvlink-bridge-unpaired",
        severities: &[Severity::Warning],
        en: "a card count the bridges cannot group fully",
        zh: "显卡数量无法被 NVLink 桥接完整分组",
    },
    Code {
        id: "nvlink-bridge-available",
        severities: &[Severity::Info],
        en: "identical bridge-capable cards left unbridged",
        zh: "可桥接的同型号显卡未使用 NVLink 桥接",
    },
    Code {
        id: "pcie-slot-unavailable",
        severities: &[Severity::Error],
        en: "no free PCIe slot fits a card",
        zh: "没有空闲的 PCIe 插槽能装下这张卡",
    },
    Code {
        id: "pcie-slot-invalid",
        severities: &[Severity::Error],
        en: "a chosen PCIe slot does not exist, is too short or is covered",
        zh: "所选 PCIe 插槽不存在、长度不够或被遮挡",
    },
    Code {
        id: "expansion-slots-exceeded",
        severities: &[Severity::Error],
        en: "a card would reach past the chassis' expansion slots",
        zh: "显卡超出机箱的扩展槽位",
    },
    Code {
        id: "gpu-bays-exceeded",
        severities: &[Severity::Error],
        en: "more GPUs than the GPU server's double-width bays",
        zh: "GPU 数量超过 GPU 服务器的双宽槽位",
    },
    Code {
        id: "pcie-slot-lanes-reduced",
        severities: &[Severity::Warning],
        en: "a card sits in a slot wired for fewer lanes",
        zh: "显卡所在插槽的 PCIe 通道数不足",
    },
    Code {
        id: "pcie-lanes-oversubscribed",
        severities: &[Severity::Warning],
        en: "cards and NVMe drives ask for more CPU lanes than exist",
        zh: "扩展卡和 NVMe 硬盘需要的 CPU PCIe 通道超过可用数",
    },
    Code {
        id: "gpu-too-long",
        severities: &[Severity::Error],
        en: "a card longer than the chassis' clearance",
        zh: "显卡长度超过机箱限长",
    },
    Code {
        id: "consumer-gpu-in-server",
        severities: &[Severity::Info],
        en: "a GeForce or Radeon card in a rack chassis",
        zh: "机架式机箱中使用了消费级显卡 (GeForce/Radeon)",
    },
    Code {
        id: "psu-connectors-insufficient",
        severities: &[Severity::Error],
        en: "the PSUs lack the GPUs' power connectors",
        zh: "电源缺少显卡所需的供电接口",
    },
    Code {
        id: "psu-connector-adapter",
        severities: &[Severity::Warning],
        en: "16-pin cards fed through 8-pin adapters",
        zh: "16-pin 显卡通过 8-pin 转接线供电",
    },
    Code {
        id: "psu-eps-insufficient",
        severities: &[Severity::Error, Severity::Warning],
        en: "fewer EPS CPU cables than CPUs or board inputs",
        zh: "电源 EPS CPU 供电线少于 CPU 或主板接口数",
    },
    Code {
        id: "psu-form-factor-mismatch",
        severities: &[Severity::Error],
        en: "the PSU's form factor is not the chassis'",
        zh: "电源规格与机箱不符",
    },
    Code {
        id: "psu-bays-exceeded",
        severities: &[Severity::Error],
        en: "more PSUs than bays",
        zh: "电源数量超过电源仓位",
    },
    Code {
        id: "psu-redundancy-insufficient",
        severities: &[Severity::Error],
        en: "too few PSUs for the redundancy set",
        zh: "电源数量不满足所设冗余",
    },
    Code {
        id: "cooler-socket-mismatch",
        severities: &[Severity::Error],
        en: "the cooler does not mount on the CPU socket",
        zh: "散热器不支持该 CPU 插槽",
    },
    Code {
        id: "cooler-too-tall",
        severities: &[Severity::Error],
        en: "the cooler is taller than the chassis allows",
        zh: "散热器高度超过机箱限高",
    },
    Code {
        id: "radiator-too-long",
        severities: &[Severity::Error],
        en: "the radiator does not fit the chassis",
        zh: "水冷排尺寸超出机箱支持",
    },
    Code {
        id: "cooler-capacity-low",
        severities: &[Severity::Error, Severity::Warning],
        en: "the cooler's rating is below the CPU's heat",
        zh: "散热器额定能力低于 CPU 发热量",
    },
    Code {
        id: "cooler-count-low",
        severities: &[Severity::Warning],
        en: "fewer coolers than CPUs",
        zh: "散热器数量少于 CPU 数量",
    },
    Code {
        id: "board-form-factor-mismatch",
        severities: &[Severity::Error],
        en: "the chassis does not take the board's form factor",
        zh: "机箱不支持该主板规格",
    },
    Code {
        id: "m2-slots-exceeded",
        severities: &[Severity::Error],
        en: "more M.2 drives than slots",
        zh: "M.2 硬盘数量超过插槽数",
    },
    Code {
        id: "sata-ports-exceeded",
        severities: &[Severity::Warning],
        en: "more SATA/SAS drives than board ports",
        zh: "SATA/SAS 硬盘数量超过主板接口数",
    },
    Code {
        id: "drive-bays-exceeded",
        severities: &[Severity::Error],
        en: "more drives than drive bays",
        zh: "硬盘数量超过机箱硬盘位",
    },
    Code {
        id: "jbod-bays-exceeded",
        severities: &[Severity::Error],
        en: "more drives than the enclosure's bays",
        zh: "硬盘数量超过硬盘扩展柜仓位",
    },
    Code {
        id: "cluster-storage-no-enclosure",
        severities: &[Severity::Warning],
        en: "cluster drives without a disk enclosure (JBOD)",
        zh: "集群硬盘没有硬盘扩展柜 (JBOD)",
    },
    Code {
        id: "fabric-missing",
        severities: &[Severity::Warning],
        en: "a multi-node GPU build without InfiniBand or ≥ 100 GbE",
        zh: "多节点 GPU 集群缺少 InfiniBand 或 ≥ 100 GbE 网络",
    },
    Code {
        id: "switch-missing",
        severities: &[Severity::Warning],
        en: "more than two GPU nodes with fabric adapters and no switch",
        zh: "两个以上 GPU 节点配有高速网卡却没有交换机",
    },
    Code {
        id: "switch-tech-mismatch",
        severities: &[Severity::Warning],
        en: "InfiniBand adapters with only Ethernet switches",
        zh: "InfiniBand 网卡只配了以太网交换机",
    },
    Code {
        id: "switch-ports-insufficient",
        severities: &[Severity::Error],
        en: "the nodes' fabric ports exceed the switch ports",
        zh: "节点高速网口数超过交换机端口数",
    },
    Code {
        id: "psu-capacity-low",
        severities: &[Severity::Error],
        en: "the maximum sustained load is above the PSUs' capacity",
        zh: "满载持续功耗超过电源额定功率",
    },
    Code {
        id: "psu-below-recommended",
        severities: &[Severity::Warning, Severity::Info],
        en: "the PSUs are below the recommended capacity",
        zh: "电源功率低于推荐值",
    },
    Code {
        id: "psu-transient-risk",
        severities: &[Severity::Warning],
        en: "the GPUs' transient spikes exceed what the PSU rides",
        zh: "GPU 瞬时峰值功耗超出电源承受能力",
    },
    Code {
        id: "circuit-overload",
        severities: &[Severity::Warning],
        en: "the wall draw is above one circuit's continuous rating",
        zh: "墙插功耗超过单路电路的持续额定值",
    },
    Code {
        id: "circuit-multiple-feeds",
        severities: &[Severity::Info],
        en: "a multi-input node needs several circuits",
        zh: "多路输入的节点需要多路电路",
    },
    Code {
        id: "airflow-insufficient",
        severities: &[Severity::Warning],
        en: "the chassis airflow cannot carry the heat",
        zh: "机箱风量不足以带走发热量",
    },
    Code {
        id: "gpu-temp-high",
        severities: &[Severity::Warning],
        en: "a GPU is estimated at or above the 85 °C alert",
        zh: "GPU 估算温度达到或超过 85 °C 警戒线",
    },
    Code {
        id: "gpu-temp-over-max",
        severities: &[Severity::Warning],
        en: "a GPU is estimated at or above its maximum temperature",
        zh: "GPU 估算温度达到或超过其最高温度",
    },
    Code {
        id: "gpu-open-air-stacked",
        severities: &[Severity::Warning],
        en: "open-air cards stacked without room to breathe",
        zh: "开放式散热显卡紧密堆叠，进风不足",
    },
    Code {
        id: "passive-gpu-in-tower",
        severities: &[Severity::Warning],
        en: "a passively cooled GPU in a tower without server airflow",
        zh: "塔式机箱中使用了被动散热 GPU，缺少服务器级风道",
    },
    Code {
        id: "system-ambient-exceeded",
        severities: &[Severity::Warning],
        en: "a system runs above its rated ambient temperature",
        zh: "整机运行环境温度超过其额定值",
    },
    Code {
        id: "unknown-part",
        severities: &[Severity::Warning],
        en: "a part id the catalog does not know",
        zh: "部件库中没有该部件编号",
    },
    Code {
        id: "unknown-system-gpu",
        severities: &[Severity::Warning],
        en: "a system names a GPU the catalog does not know",
        zh: "整机引用了部件库中没有的 GPU",
    },
    Code {
        id: "tco-power-unknown",
        severities: &[Severity::Warning],
        en: "no power figure for the electricity cost",
        zh: "缺少功耗数据，无法计算电费",
    },
    Code {
        id: "tco-unpriced-lines",
        severities: &[Severity::Warning],
        en: "part lines without a price are left out of the capex",
        zh: "无价格的部件未计入初始投入",
    },
    Code {
        id: "tco-no-cloud-match",
        severities: &[Severity::Info],
        en: "no cloud offer matches the build's GPUs",
        zh: "没有与该配置 GPU 匹配的云服务报价",
    },
    Code {
        id: "tco-mixed-gpus",
        severities: &[Severity::Info],
        en: "the build mixes GPU models; clouds are matched on one",
        zh: "配置混用多种 GPU，云服务按其中一种匹配",
    },
    Code {
        id: "tco-offer-unknown",
        severities: &[Severity::Warning],
        en: "a chosen cloud offer is not in the catalog",
        zh: "所选云服务报价不在部件库中",
    },
    Code {
        id: "tco-offer-gpu-differs",
        severities: &[Severity::Info],
        en: "the cloud offer's GPU differs from the build's",
        zh: "云服务报价的 GPU 与配置不同",
    },
    Code {
        id: "tco-spot-overhead-unset",
        severities: &[Severity::Info],
        en: "spot prices without an interruption overhead",
        zh: "竞价实例价格未设置中断损耗",
    },
    Code {
        id: "tco-price-unverified",
        severities: &[Severity::Info],
        en: "a price the catalog could not verify",
        zh: "价格未经核实",
    },
    Code {
        id: "tco-entered-cost-below-depreciation",
        severities: &[Severity::Warning],
        en: "an entered cost below the depreciation it implies",
        zh: "录入的成本低于其对应的折旧",
    },
    Code {
        id: "workload-unknown",
        severities: &[Severity::Warning],
        en: "the planned workload is not one the fit matrix knows",
        zh: "计划的工作负载不在适配矩阵中",
    },
    Code {
        id: "workload-unknown-model",
        severities: &[Severity::Warning],
        en: "the planned workload's model is not in the model catalog",
        zh: "计划工作负载的模型不在模型库中",
    },
    Code {
        id: "workload-no-gpus",
        severities: &[Severity::Warning],
        en: "the planned workload needs GPUs; the build has none",
        zh: "计划的工作负载需要 GPU，但配置中没有",
    },
    Code {
        id: "workload-does-not-fit",
        severities: &[Severity::Warning],
        en: "the planned workload does not fit the build's GPUs",
        zh: "计划的工作负载在该配置的 GPU 上运行不了",
    },
];

/// Every finding template of the analyses (for the tests: the registry's, and the app's
/// glyph coverage test).
#[cfg(test)]
pub(crate) fn templates() -> Vec<&'static crate::core::i18n::Template> {
    let mut all: Vec<&'static crate::core::i18n::Template> = Vec::new();
    all.extend(crate::core::i18n::SHARED.iter().copied());
    all.extend(super::diagnostic::TEMPLATES.iter().copied());
    all.extend(super::TEMPLATES.iter().copied());
    all.extend(super::fit::TEMPLATES.iter().copied());
    all.extend(super::compat::templates());
    all.extend(super::power::templates());
    all.extend(super::thermal::TEMPLATES.iter().copied());
    all.extend(super::thermal::ASSUMPTIONS.iter().copied());
    all.extend(super::memory::NOTES.iter().copied());
    all.extend(super::speed::NOTES.iter().copied());
    all.extend(super::fit::NOTES.iter().copied());
    all.extend(super::tco::templates());
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Every `.rs` file under `dir`, with its text.
    fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }

    fn core_sources() -> Vec<(String, String)> {
        let mut out = Vec::new();
        sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core"), &mut out);
        out
    }

    /// The string literal that starts `rest` after blanks, if one does and it reads as a code
    /// (kebab-case: lowercase words and digits joined by hyphens).
    fn literal(rest: &str) -> Option<&str> {
        let rest = rest.trim_start().strip_prefix('"')?;
        let id = rest.find('"').map(|end| &rest[..end])?;
        let kebab = id.contains('-')
            && id.split('-').all(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()));
        kebab.then_some(id)
    }

    /// (file, severity, code) of every finding the sources emit as `Severity::X, "code"`,
    /// through a rule's helper (`fail("code", …)` for PCIe placement, `info("code", …)` for
    /// the planned workload) or as `if … { "code" } else { "code" }` (a code chosen by the
    /// chassis kind), outside tests.
    fn emitted() -> Vec<(String, Option<Severity>, String)> {
        let mut out = Vec::new();
        for (file, text) in core_sources() {
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            for (at, _) in code.match_indices("Severity::") {
                let rest = &code[at + "Severity::".len()..];
                let name: String = rest.chars().take_while(char::is_ascii_alphabetic).collect();
                let after = rest[name.len()..].trim_start();
                let Some(after) = after.strip_prefix(',') else { continue };
                let severity = match name.as_str() {
                    "Error" => Severity::Error,
                    "Warning" => Severity::Warning,
                    "Info" => Severity::Info,
                    _ => continue,
                };
                if let Some(id) = literal(after) {
                    out.push((file.clone(), Some(severity), id.to_owned()));
                }
            }
            for helper in ["info(", "fail("] {
                for (at, _) in code.match_indices(helper) {
                    if let Some(id) = literal(&code[at + helper.len()..]) {
                        out.push((file.clone(), None, id.to_owned()));
                    }
                }
            }
            // `Diagnostic::new(severity, "code", …)` with a severity chosen before.
            for (at, _) in code.match_indices("Diagnostic::new(") {
                let args = &code[at + "Diagnostic::new(".len()..];
                if let Some((_, rest)) = args.split_once(',')
                    && let Some(id) = literal(rest)
                {
                    out.push((file.clone(), None, id.to_owned()));
                }
            }
            for line in code.lines().filter(|l| l.contains("let code = if")) {
                for part in line.split('{').skip(1) {
                    if let Some(id) = literal(part) {
                        out.push((file.clone(), None, id.to_owned()));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn ids_are_unique_kebab_case_and_every_code_has_both_meanings() {
        let mut seen = std::collections::HashSet::new();
        for c in &CODES {
            assert!(seen.insert(c.id), "{} twice", c.id);
            assert!(c.id.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'), "{}", c.id);
            assert!(!c.severities.is_empty(), "{}", c.id);
            assert!(!c.en.is_empty(), "{}", c.id);
            assert!(c.zh.chars().any(|ch| ('\u{4e00}'..='\u{9fff}').contains(&ch)), "{}: {}", c.id, c.zh);
        }
        assert_eq!(meaning("cpu-socket-mismatch", Lang::ZhCn), Some("CPU 插槽与主板插槽不一致"));
        assert_eq!(meaning("no-such-code", Lang::En), None);
    }

    #[test]
    fn every_emitted_code_is_registered_with_the_severity_it_is_given() {
        let found = emitted();
        assert!(found.len() >= 80, "the scan finds the rules' findings: {}", found.len());
        for (file, severity, id) in &found {
            let Some(code) = lookup(id) else { panic!("{file}: the code `{id}` is not in the registry") };
            if let Some(s) = severity {
                assert!(
                    code.severities.contains(s),
                    "{file}: `{id}` is emitted as {s:?}, registered {:?}",
                    code.severities
                );
            }
        }
    }

    fn templates() -> Vec<&'static crate::core::i18n::Template> {
        super::templates()
    }

    /// Whether a text has Chinese in it: an ideograph or CJK punctuation.
    fn has_chinese(s: &str) -> bool {
        s.chars().any(|c| matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3000}'..='\u{303f}' | '\u{ff00}'..='\u{ffef}'))
    }

    #[test]
    fn every_template_has_both_languages_with_the_same_parameters() {
        let all = templates();
        assert!(all.len() >= 60, "the tables hold the rules' sentences: {}", all.len());
        for t in &all {
            let mut en = crate::core::i18n::placeholders(t.en);
            let mut zh = crate::core::i18n::placeholders(t.zh);
            en.sort_unstable();
            zh.sort_unstable();
            assert_eq!(en, zh, "`{}` and `{}` take different parameters", t.en, t.zh);
            let words = crate::core::i18n::fill_named(t.en, &[]).chars().filter(char::is_ascii_alphabetic).count()
                > en.iter().map(|p| p.len()).sum::<usize>();
            assert!(!words || has_chinese(t.zh), "`{}` is not translated: `{}`", t.en, t.zh);
            assert!(t.code.is_empty() || lookup(t.code).is_some(), "`{}` names the unknown code `{}`", t.en, t.code);
        }
    }

    /// Every code a rule emits has its message template: no finding is an English-only
    /// sentence.
    #[test]
    fn every_emitted_code_has_a_message_template() {
        let all = templates();
        let found = emitted();
        for (file, _, id) in &found {
            assert!(all.iter().any(|t| t.code == id), "{file}: `{id}` has no message template");
        }
        assert!(found.len() >= 80, "the rules' codes are checked: {}", found.len());
    }

    #[test]
    fn every_registered_code_is_emitted_and_documented() {
        let found: Vec<String> = emitted().into_iter().map(|(_, _, id)| id).collect();
        let schema = include_str!("report-schema.md");
        for c in &CODES {
            assert!(found.iter().any(|id| id == c.id), "`{}` is registered but no rule emits it", c.id);
            assert!(schema.contains(&format!("`{}`", c.id)), "`{}` is not in report-schema.md", c.id);
        }
    }
}
