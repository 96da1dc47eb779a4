//! The registry of formulas: every formula id a figure's [`Basis`](super::Basis) may name,
//! with what the figure is, the formula, its source and its confidence class, in English and
//! Simplified Chinese (terms from `../shared/guide/zh-terms.md`).
//!
//! The sources are the ones the analyses name in their doc comments (domain notes,
//! `../shared/guide/domain.md`); tests hold the registry to the sources (every id a basis
//! uses is here) and to `report-schema.md` (every id here is documented).

use super::Confidence;
use crate::core::i18n::Lang;
use crate::core::reference::Class;

/// One formula.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Formula {
    /// The stable kebab-case id (`power-wall`).
    pub id: &'static str,
    /// What the figure is: English, Chinese.
    pub what: [&'static str; 2],
    /// The formula, symbolic: English, Chinese.
    pub formula: [&'static str; 2],
    /// Paper and table, datasheet or standard: English, Chinese.
    pub source: [&'static str; 2],
    pub confidence: Confidence,
    /// The reference class whose accuracy is this figure's typical error (calibrated
    /// estimates only).
    pub class: Option<Class>,
}

impl Formula {
    fn pick(pair: [&'static str; 2], lang: Lang) -> &'static str {
        match lang {
            Lang::En => pair[0],
            Lang::ZhCn => pair[1],
        }
    }

    /// What the figure is, in a language.
    #[must_use]
    pub fn what(&self, lang: Lang) -> &'static str {
        Self::pick(self.what, lang)
    }

    /// The formula, in a language.
    #[must_use]
    pub fn formula(&self, lang: Lang) -> &'static str {
        Self::pick(self.formula, lang)
    }

    /// The source, in a language.
    #[must_use]
    pub fn source(&self, lang: Lang) -> &'static str {
        Self::pick(self.source, lang)
    }
}

/// The formula with this id.
#[must_use]
pub fn lookup(id: &str) -> Option<&'static Formula> {
    FORMULAS.iter().find(|f| f.id == id)
}

pub(super) const CATALOG_EN: &str = "each part's catalog entry (its `source` names the datasheet)";
pub(super) const CATALOG_ZH: &str = "各部件的部件库条目（其 `source` 字段注明规格书）";

#[path = "formulas_counts.rs"]
mod counts;

/// Every formula, in the order of `report-schema.md`: power, thermal, memory, speed,
/// serving, TCO, then the summary's fit figures, counts and settings ([`counts::COUNTS`]).
pub const FORMULAS: [Formula; ANALYSES.len() + counts::COUNTS.len()] = concat(ANALYSES, counts::COUNTS);

/// Two tables as one (a `const fn`: the registry stays a constant).
const fn concat<const A: usize, const B: usize, const N: usize>(a: [Formula; A], b: [Formula; B]) -> [Formula; N] {
    let mut out = [a[0]; N];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < N {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

/// The power, thermal, memory, speed, serving and TCO formulas.
const ANALYSES: [Formula; 50] = [
    Formula {
        id: "power-dc-idle",
        what: ["DC idle draw: every part at idle", "直流待机功耗：所有部件待机时的功耗"],
        formula: ["P_idle = Σ quantity × P_idle(part)", "P_待机 = Σ 数量 × P_待机(部件)"],
        source: [CATALOG_EN, CATALOG_ZH],
        confidence: Confidence::Datasheet,
        class: None,
    },
    Formula {
        id: "power-dc-max",
        what: ["DC max sustained draw: every part at full load", "直流满载功耗：所有部件满载时的持续功耗"],
        formula: ["P_max = Σ quantity × P_max(part)", "P_满载 = Σ 数量 × P_满载(部件)"],
        source: [CATALOG_EN, CATALOG_ZH],
        confidence: Confidence::Datasheet,
        class: None,
    },
    Formula {
        id: "power-typical",
        what: ["DC typical draw at the build's utilization", "按配置方案利用率计算的直流典型功耗"],
        formula: [
            "P_typ = P_idle + u × (P_max − P_idle) (constant loads as they are)",
            "P_典型 = P_待机 + u × (P_满载 − P_待机)（恒定负载照计）",
        ],
        source: [
            "usual first model of load-dependent draw (rigplan domain notes §2); u is the build's usage.utilization",
            "随负载变化功耗的常用一阶模型（rigplan 领域笔记 §2）；u 为配置方案的 usage.utilization",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "power-transient",
        what: ["DC transient peak (100 µs)", "直流瞬时峰值（100 µs）"],
        formula: [
            "P_peak = P_max + Σ GPUs (k × P_board − P_board), k = 3 for 16-pin cards",
            "P_峰值 = P_满载 + Σ GPU (k × P_板卡 − P_板卡)，16-pin 显卡 k = 3",
        ],
        source: [
            "PCIe CEM 5.0 power excursions, as the Intel ATX 3.0 design guide states them",
            "PCIe CEM 5.0 功率偏移规定，见 Intel ATX 3.0 设计指南",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "psu-efficiency",
        what: ["PSU efficiency at max load", "满载时的电源转换效率"],
        formula: [
            "η = 80 PLUS minimum at load = P_dc / capacity, interpolated",
            "η = 负载 = P_直流 / 容量 处的 80 PLUS 最低效率（插值）",
        ],
        source: [
            "80 PLUS (CLEAResult) minimum efficiencies at 20/50/100 % load, 115 V or 230 V internal table",
            "80 PLUS（CLEAResult）20/50/100 % 负载下的最低转换效率，115 V 或 230 V 内部电源表",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "power-wall",
        what: ["wall draw: what the node takes from the outlet", "墙插功耗：节点从插座取用的功率"],
        formula: [
            "P_wall = P_dc(PSU-fed) / η + P_at-input (systems, switches)",
            "P_墙插 = P_直流(电源供电部分) / η + P_输入(整机、交换机)",
        ],
        source: [
            "80 PLUS efficiency table; complete systems and switches at their datasheet input power",
            "80 PLUS 效率表；整机和交换机按规格书输入功率",
        ],
        confidence: Confidence::Calibrated,
        class: Some(Class::Power),
    },
    Formula {
        id: "psu-load",
        what: ["PSU load at max sustained draw", "满载持续功耗下的电源负载率"],
        formula: [
            "load = P_max(PSU-fed) / capacity (non-redundant units only)",
            "负载率 = P_满载(电源供电部分) / 容量（只计非冗余电源）",
        ],
        source: [
            "PSU ratings from their datasheets; N+1 / N+N redundancy counts only the non-redundant part",
            "电源规格书额定功率；N+1 / N+N 冗余只计非冗余部分",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "psu-recommended",
        what: ["recommended PSU rating", "推荐电源额定功率"],
        formula: [
            "R = round_up(P_max + h × P_max + a × P_max + transient margin) to a size on sale",
            "R = 向上取市售规格(P_满载 + h × P_满载 + a × P_满载 + 瞬时峰值余量)",
        ],
        source: [
            "public PSU calculators: 20–30 % sustained headroom h, ageing a 10–30 % (OuterVision); ATX 3.x rides 200 % for 100 µs",
            "公开电源计算器：持续余量 h 20–30 %，老化余量 a 10–30 %（OuterVision）；ATX 3.x 电源能承受 100 µs 的 200 %",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "power-circuit",
        what: ["circuits the wall draw needs", "墙插功耗所需的电路数"],
        formula: [
            "n = ceil(P_wall / (V × A × phases factor × 0.8))",
            "n = 向上取整(P_墙插 / (V × A × 相数系数 × 0.8))",
        ],
        source: [
            "NEC 210.19/210.20: continuous loads (3 h and more) at 80 % of the breaker rating",
            "NEC 210.19/210.20：持续负载（3 小时以上）按断路器额定值的 80 % 计",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "heat-load",
        what: ["heat load at max sustained draw", "满载持续功耗下的发热量"],
        formula: [
            "Q = P_wall; BTU/h = 3.412 × Q; tons = BTU/h / 12,000",
            "Q = P_墙插；BTU/h = 3.412 × Q；冷吨 = BTU/h / 12,000",
        ],
        source: [
            "energy conservation: all electrical power ends as heat; 1 W = 3.412 BTU/h, 1 ton = 12,000 BTU/h (ASHRAE)",
            "能量守恒：电功率最终全部变为热量；1 W = 3.412 BTU/h，1 冷吨 = 12,000 BTU/h（ASHRAE）",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "airflow-needed",
        what: ["chassis airflow the heat inside needs", "机箱内发热量所需的风量"],
        formula: ["CFM = 1.76 × Q_chassis / ΔT", "CFM = 1.76 × Q_机箱 / ΔT"],
        source: [
            "sensible heat of sea-level air, 1.08 BTU/h per CFM per °F (ASHRAE Fundamentals); ΔT is rigplan's 15 °C design rise",
            "海平面空气显热 1.08 BTU/h/(CFM·°F)（ASHRAE 基础手册）；ΔT 为 rigplan 设计温升 15 °C",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "airflow-available",
        what: ["the fans' summed free-air airflow", "风扇自由风量之和"],
        formula: ["CFM = Σ quantity × CFM(fan)", "CFM = Σ 数量 × CFM(风扇)"],
        source: [
            "fan and chassis datasheets (free-air rating, which overstates airflow against filters and heatsinks)",
            "风扇和机箱规格书（自由风量，高于过滤网和散热片阻力下的实际风量）",
        ],
        confidence: Confidence::Datasheet,
        class: None,
    },
    Formula {
        id: "cpu-cooler-headroom",
        what: ["CPU cooler headroom", "CPU 散热器余量"],
        formula: [
            "headroom = cooler rating − CPU max power (PPT / max turbo, else TDP)",
            "余量 = 散热器额定散热功率 − CPU 最大功耗（PPT / 最大睿频功耗，否则 TDP）",
        ],
        source: ["cooler and CPU datasheets (catalog entries)", "散热器和 CPU 规格书（部件库条目）"],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "gpu-temperature",
        what: ["GPU temperature under sustained load (estimate)", "持续满载时的 GPU 温度（估算）"],
        formula: [
            "T = ambient + ½ × chassis air rise + rise(cooler style) + 8 °C × hot neighbours",
            "T = 环境温度 + ½ × 机箱空气温升 + 温升(散热方式) + 8 °C × 相邻热源显卡数",
        ],
        source: [
            "rigplan's per-style rises (open-air 40 °C, blower 50 °C, passive 40 °C), liquid 18 °C cooler (field guide 003 §2.1); not calibrated against one measured card",
            "rigplan 按散热方式取的温升（开放式 40 °C、涡轮 50 °C、被动 40 °C），水冷低 18 °C（实战指南 003 §2.1）；未按单张实测显卡校准",
        ],
        confidence: Confidence::Assumption,
        class: None,
    },
    Formula {
        id: "gpu-max-temp",
        what: ["the GPU's maximum operating temperature", "GPU 最高工作温度"],
        formula: ["T_max: the rated temperature at which the GPU starts to slow down", "T_max：GPU 开始降频的额定温度"],
        source: [
            "the GPU's datasheet (its catalog entry's `max_temp_c` and `source`)",
            "GPU 规格书（部件库条目的 `max_temp_c` 与 `source` 字段）",
        ],
        confidence: Confidence::Datasheet,
        class: None,
    },
    Formula {
        id: "mem-weights",
        what: ["weights per GPU", "每块 GPU 上的权重"],
        formula: ["W = P × bytes per weight / (TP × PP)", "W = P × 每权重字节数 / (TP × PP)"],
        source: [
            "model configs (parameter counts); GGUF block sizes from llama.cpp's quantize README",
            "模型配置（参数量）；GGUF 分块大小见 llama.cpp quantize README",
        ],
        confidence: Confidence::Calibrated,
        class: Some(Class::Memory),
    },
    Formula {
        id: "mem-kv-cache",
        what: ["KV cache per GPU", "每块 GPU 上的 KV 缓存"],
        formula: [
            "KV = 2 × attention layers × KV heads × head dim × bytes × tokens × batch / TP (MLA: latent, no factor 2)",
            "KV = 2 × 注意力层数 × KV 头数 × 头维度 × 字节数 × tokens × 批大小 / TP（MLA：压缩潜向量，无系数 2）",
        ],
        source: [
            "GQA KV sizing (Ainslie et al. 2023); MLA (DeepSeek-V2 paper §2.1)",
            "GQA KV 缓存计算（Ainslie 等 2023）；MLA（DeepSeek-V2 论文 §2.1）",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "mem-activations",
        what: ["activations per GPU", "每块 GPU 上的激活值"],
        formula: [
            "per layer s·b·h·(34 + 5·a·s/h), reduced by TP, sequence parallelism, recompute and FlashAttention",
            "每层 s·b·h·(34 + 5·a·s/h)，按 TP、序列并行、重计算和 FlashAttention 缩减",
        ],
        source: ["Korthikanti et al. 2022, Table 2", "Korthikanti 等 2022，表 2"],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "mem-training-states",
        what: ["gradients and optimizer states per GPU", "每块 GPU 上的梯度和优化器状态"],
        formula: [
            "grads 2P, Adam fp32 master + moments 12P, divided over N data-parallel ranks by ZeRO stage",
            "梯度 2P，Adam fp32 主权重 + 一阶/二阶矩 12P，按 ZeRO 阶段在 N 个数据并行进程间切分",
        ],
        source: ["ZeRO (Rajbhandari et al. 2019) §3", "ZeRO（Rajbhandari 等 2019）§3"],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "mem-overhead",
        what: ["CUDA context, workspaces and allocator overhead", "CUDA 上下文、工作区和分配器开销"],
        formula: [
            "overhead = context + library workspace + engine compute buffer",
            "开销 = 上下文 + 库工作区 + 推理引擎计算缓冲区",
        ],
        source: [
            "rigplan assumption from nvidia-smi readings reported by users (300 MiB to over 1 GiB)",
            "rigplan 根据用户报告的 nvidia-smi 读数设定的假设（300 MiB 到 1 GiB 以上）",
        ],
        confidence: Confidence::Assumption,
        class: None,
    },
    Formula {
        id: "mem-total",
        what: ["memory per GPU and the fit verdict", "每块 GPU 的显存占用和可运行判断"],
        formula: [
            "total = weights + KV + activations + states + overhead; use = total / budget",
            "总计 = 权重 + KV + 激活值 + 状态 + 开销；占用 = 总计 / 可用显存",
        ],
        source: [
            "the terms above; budget = usable memory (engines keep their share, e.g. vLLM gpu_memory_utilization 0.9); field guides advise staying under 90 %",
            "上述各项；可用显存 = 推理引擎可用部分（如 vLLM gpu_memory_utilization 0.9）；实战指南建议占用不超过 90 %",
        ],
        confidence: Confidence::Calibrated,
        class: Some(Class::Memory),
    },
    Formula {
        id: "mem-budget",
        what: ["the memory the engine lets the workload use on each GPU", "推理引擎允许工作负载使用的单卡显存"],
        formula: [
            "budget = 0.9 × capacity (vLLM/SGLang); fixed + 0.9 × (capacity − fixed) (TensorRT-LLM); capacity (llama.cpp, PyTorch, training); fixed = weights + activations + overhead",
            "预算 = 0.9 × 显存容量（vLLM/SGLang）；固定部分 + 0.9 × (显存容量 − 固定部分)（TensorRT-LLM）；显存容量（llama.cpp、PyTorch、训练）；固定部分 = 权重 + 激活 + 额外开销",
        ],
        source: [
            "vLLM engine arguments (gpu_memory_utilization, default 0.9); TensorRT-LLM KvCacheConfig (free_gpu_memory_fraction, default 0.9); the GPU's memory from its datasheet",
            "vLLM 引擎参数（gpu_memory_utilization，默认 0.9）；TensorRT-LLM KvCacheConfig（free_gpu_memory_fraction，默认 0.9）；GPU 显存容量取自规格书",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "speed-decode",
        what: ["decode speed (tokens/s)", "解码速度（tokens/s）"],
        formula: [
            "tokens/s = b / (bytes read / (η × bandwidth) + FLOPs / (MFU × peak) + communication)",
            "tokens/s = b / (读取字节数 / (η × 带宽) + FLOPs / (MFU × 峰值算力) + 通信时间)",
        ],
        source: [
            "memory-bound decode (rigplan domain notes §5); η by engine, weight format and memory type, set from llama.cpp and TensorRT-LLM measurements",
            "访存受限的解码（rigplan 领域笔记 §5）；η 按推理引擎、权重格式和显存类型取值，依据 llama.cpp 与 TensorRT-LLM 实测",
        ],
        confidence: Confidence::Calibrated,
        class: Some(Class::Decode),
    },
    Formula {
        id: "speed-prefill",
        what: ["prefill speed (prompt tokens/s)", "预填充速度（提示词 tokens/s）"],
        formula: [
            "tokens/s = s × b / (s × b × (2P + 2·L·s·d) / (MFU × peak × TP) + weight reads + communication)",
            "tokens/s = s × b / (s × b × (2P + 2·L·s·d) / (MFU × 峰值算力 × TP) + 权重读取 + 通信时间)",
        ],
        source: [
            "Kaplan et al. 2020, Table 1 (forward FLOPs per token)",
            "Kaplan 等 2020，表 1（每 token 前向 FLOPs）",
        ],
        confidence: Confidence::Calibrated,
        class: Some(Class::Prefill),
    },
    Formula {
        id: "speed-ttft",
        what: ["time to first token", "首 token 延迟"],
        formula: ["TTFT = prefill time of the prompt on an idle replica", "TTFT = 空闲副本上提示词的预填充时间"],
        source: ["Kaplan et al. 2020, Table 1; no queueing", "Kaplan 等 2020，表 1；不计排队"],
        confidence: Confidence::Calibrated,
        class: Some(Class::Prefill),
    },
    Formula {
        id: "train-throughput",
        what: ["training throughput (tokens/s)", "训练吞吐量（tokens/s）"],
        formula: [
            "tokens/s = GPUs × peak × MFU × goodput / FLOPs per token (6P + attention; 8P with full recompute)",
            "tokens/s = GPU 数 × 峰值算力 × MFU × 有效产出率 / 每 token FLOPs（6P + 注意力；完全重计算 8P）",
        ],
        source: [
            "Kaplan et al. 2020; Narayanan et al. 2021; MFU of published runs (Llama 2, Llama 3 Table 4)",
            "Kaplan 等 2020；Narayanan 等 2021；公开训练的 MFU（Llama 2、Llama 3 表 4）",
        ],
        confidence: Confidence::Calibrated,
        class: Some(Class::Training),
    },
    Formula {
        id: "train-time",
        what: ["training time", "训练时长"],
        formula: [
            "hours = tokens / (tokens/s × 3,600); GPU-hours = hours × GPUs",
            "小时 = tokens / (tokens/s × 3,600)；GPU 时 = 小时 × GPU 数",
        ],
        source: ["the training throughput above", "上述训练吞吐量"],
        confidence: Confidence::Calibrated,
        class: Some(Class::Training),
    },
    Formula {
        id: "train-energy",
        what: ["energy of the training run", "训练一次的能耗"],
        formula: [
            "E = GPU-hours × (TDP + rest of the node per GPU) × PUE",
            "E = GPU 时 × (TDP + 每块 GPU 分摊的节点其余功耗) × PUE",
        ],
        source: [
            "the accounting of Touvron et al. 2023 Table 2 (GPU-hours × 400 W per A100) and of BLOOM's 433 MWh",
            "Touvron 等 2023 表 2 的计算方法（GPU 时 × 每块 A100 400 W）及 BLOOM 的 433 MWh",
        ],
        confidence: Confidence::Calibrated,
        class: Some(Class::Power),
    },
    Formula {
        id: "speed-images",
        what: ["images per minute", "每分钟生成图片数"],
        formula: [
            "images/min = 60 × GPUs × peak × MFU / (steps × guidance passes × FLOPs per pass)",
            "图片/分钟 = 60 × GPU 数 × 峰值算力 × MFU / (步数 × 引导次数 × 每次 FLOPs)",
        ],
        source: [
            "published denoiser FLOPs per pass; rigplan's diffusion MFU calibrated on published timings",
            "公开的去噪网络单次 FLOPs；rigplan 的扩散模型 MFU 按公开耗时校准",
        ],
        confidence: Confidence::Calibrated,
        class: Some(Class::Images),
    },
    Formula {
        id: "speed-samples",
        what: ["inference samples per second (a measured model)", "推理每秒样本数（实测类模型）"],
        formula: [
            "samples/s = GPUs × peak × MFU / forward FLOPs per sample",
            "样本/秒 = GPU 数 × 峰值算力 × MFU / 每样本前向 FLOPs",
        ],
        source: [
            "the model's published forward FLOPs per sample (its catalog entry); the MFU is rigplan's prefill default by GPU class, calibrated on language-model prefill, not on these models",
            "该模型公开的每样本前向 FLOPs（其部件库条目）；MFU 取 rigplan 按 GPU 类别设定的预填充默认值，依据语言模型预填充校准，未用这类模型校准",
        ],
        confidence: Confidence::Assumption,
        class: None,
    },
    Formula {
        id: "serving-concurrency",
        what: ["concurrent sequences at the context length", "该上下文长度下的并发序列数"],
        formula: ["n = KV budget / (KV bytes per token × context)", "n = KV 预算 / (每 token KV 字节数 × 上下文长度)"],
        source: [
            "PagedAttention / vLLM (Kwon et al. 2023), the figure vLLM logs at start-up",
            "PagedAttention / vLLM（Kwon 等 2023），即 vLLM 启动时输出的数值",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "serving-kv-capacity",
        what: [
            "the KV cache the budget leaves, and the tokens it holds",
            "预算留给 KV 缓存的显存及其可容纳的 tokens 数",
        ],
        formula: [
            "KV budget = budget − (weights + activations + overhead); tokens = KV budget / (KV bytes per sequence / context)",
            "KV 预算 = 显存预算 − (权重 + 激活 + 额外开销)；tokens 数 = KV 预算 / (每序列 KV 字节数 / 上下文长度)",
        ],
        source: [
            "the engine's budget (mem-budget) and the memory model's KV cache (mem-kv-cache); vLLM reports the same figure as its \"GPU KV cache size\" at start-up",
            "引擎的显存预算（mem-budget）与显存模型的 KV 缓存（mem-kv-cache）；vLLM 启动时以 \"GPU KV cache size\" 报告同一数值",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "serving-throughput",
        what: ["served tokens/s at full concurrency", "满并发时的服务吞吐量 tokens/s"],
        formula: ["aggregate = replicas × B / step time(B)", "总吞吐 = 副本数 × B / 单步时间(B)"],
        source: ["batched decode step (rigplan domain notes §7)", "批量解码单步模型（rigplan 领域笔记 §7）"],
        confidence: Confidence::Calibrated,
        class: Some(Class::Serving),
    },
    Formula {
        id: "serving-energy",
        what: ["energy per million tokens", "每百万 tokens 能耗"],
        formula: [
            "kWh/1M = (GPU W × GPUs + rest of node W) × PUE / tokens/s × 10⁶ / 3.6·10⁶",
            "kWh/百万 = (GPU 功率 × GPU 数 + 节点其余功率) × PUE / tokens/s × 10⁶ / 3.6·10⁶",
        ],
        source: [
            "GPU board power at the decode step's load (power-cap sweeps); the site's PUE",
            "解码负载下的 GPU 板卡功耗（功率上限扫描实测）；站点 PUE",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "serving-users-at-target",
        what: ["users served at the per-user speed target", "满足单用户速度目标时可服务的用户数"],
        formula: [
            "users = replicas × the largest batch B ≤ max concurrency with 1 / step time(B) ≥ target",
            "用户数 = 副本数 × 满足 1 / 单步时间(B) ≥ 目标且 B ≤ 最大并发的最大批大小 B",
        ],
        source: [
            "batched decode step (rigplan domain notes §7) at each batch; the KV capacity (serving-concurrency)",
            "各批大小下的批量解码单步模型（rigplan 领域笔记 §7）；KV 容量（serving-concurrency）",
        ],
        confidence: Confidence::Calibrated,
        class: Some(Class::Serving),
    },
    Formula {
        id: "bom-line-price",
        what: ["a line's price", "单行价格"],
        formula: ["price = unit price × quantity per node × nodes", "价格 = 单价 × 每节点数量 × 节点数"],
        source: [
            "the catalog price (its vendor page and date), converted at the build's exchange rate, or the build's own price",
            "部件库价格（注明来源页面和日期），按配置方案的汇率换算；或配置方案自填的价格",
        ],
        confidence: Confidence::Datasheet,
        class: None,
    },
    Formula {
        id: "bom-parts-total",
        what: ["the priced part lines together", "已定价部件行合计"],
        formula: ["parts total = Σ line prices (unpriced lines count 0)", "部件合计 = Σ 各行价格（未定价的行计 0）"],
        source: [
            "each line's price (bom-line-price): catalog prices with their vendor page and date, or the build's own",
            "各行价格（bom-line-price）：部件库价格（注明来源页面和日期）或配置方案自填价格",
        ],
        confidence: Confidence::Datasheet,
        class: None,
    },
    Formula {
        id: "bom-custom",
        what: ["a cost entered in the build", "配置方案中填写的费用"],
        formula: ["amount = unit amount × quantity", "金额 = 单价 × 数量"],
        source: [
            "the build's own figure (a custom cost line of kind capex), not checked by rigplan",
            "配置方案自填的数值（类型为初始投入的自定义费用行），rigplan 不作核对",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "tco-capex",
        what: ["capex: what buying the build costs", "初始投入：购买该配置的费用"],
        formula: [
            "capex = Σ price × quantity × nodes + custom capex + tax + shipping + installation",
            "初始投入 = Σ 单价 × 数量 × 节点数 + 自定义投入 + 税 + 运费 + 安装费",
        ],
        source: [
            "catalog prices (each with its date and vendor page) and the build's cost settings",
            "部件库价格（均注明日期和来源页面）及配置方案的费用设置",
        ],
        confidence: Confidence::Datasheet,
        class: None,
    },
    Formula {
        id: "tco-energy",
        what: ["energy cost per year", "每年电费"],
        formula: [
            "E = (P_idle + u × (P_max − P_idle)) at the wall × 8,760 h × PUE × price per kWh",
            "E = 墙插 (P_待机 + u × (P_满载 − P_待机)) × 8,760 h × PUE × 电价",
        ],
        source: [
            "the power analysis' wall draw; the site's PUE and electricity price (rigplan domain notes §6)",
            "功耗分析的墙插功耗；站点的 PUE 和电价（rigplan 领域笔记 §6）",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "tco-opex",
        what: ["owned operating cost per year", "自有部署每年运营成本"],
        formula: [
            "opex = energy + colocation + maintenance % × capex + staff + licences + custom",
            "运营成本 = 电费 + 托管费 + 维护比例 × 初始投入 + 人员 + 许可 + 自定义",
        ],
        source: ["the build's cost settings (rigplan domain notes §6)", "配置方案的费用设置（rigplan 领域笔记 §6）"],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "tco-depreciation",
        what: ["depreciation per year", "每年折旧"],
        formula: ["D = (capex − residual value) / life", "D = (初始投入 − 残值) / 折旧年限"],
        source: [
            "straight-line depreciation (rigplan domain notes §6); the build's residual % and life",
            "直线折旧（rigplan 领域笔记 §6）；配置方案的残值比例和折旧年限",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "tco-owned-total",
        what: ["owned total over the horizon", "持有周期内的自有总成本"],
        formula: [
            "owned = capex + opex × years − value at the horizon",
            "自有总成本 = 初始投入 + 运营成本 × 年数 − 周期末残值",
        ],
        source: [
            "straight-line depreciation to the residual value (rigplan domain notes §6)",
            "直线折旧至残值（rigplan 领域笔记 §6）",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "tco-cloud-total",
        what: ["cloud cost over the horizon", "持有周期内的云端费用"],
        formula: [
            "cloud = price per hour × hours billed per year (used hours × (1 + overhead), or every hour) × years",
            "云端费用 = 每小时价格 × 每年计费小时（使用小时 × (1 + 额外开销)，或全部小时）× 年数",
        ],
        source: [
            "the offer's price list (catalog/clouds.ron: provider page, date, region)",
            "云服务报价（catalog/clouds.ron：厂商页面、日期、地区）",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "tco-break-even",
        what: ["break-even month against the cloud option", "相对云端方案的回本月份"],
        formula: [
            "month = capex / (cloud per month − owned opex per month)",
            "月份 = 初始投入 / (云端月费 − 自有月运营成本)",
        ],
        source: [
            "rigplan domain notes §6 (opex only on the right: amortised capex would count it twice)",
            "rigplan 领域笔记 §6（右侧只减运营成本：再减摊销的初始投入会重复计算）",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "tco-break-even-utilization",
        what: ["utilization at which owning and the cloud cost the same", "自有与云端总成本相等时的利用率"],
        formula: ["u* solves owned(u*) = cloud(u*) over the horizon", "u* 满足 自有总成本(u*) = 云端费用(u*)"],
        source: ["the owned and cloud totals above, swept over utilization", "上述自有与云端总成本，按利用率求解"],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "tco-cost-per-gpu-hour",
        what: ["owned cost per GPU-hour used", "每使用 GPU 时的自有成本"],
        formula: [
            "cost = owned total / (GPUs × 8,760 h × years × u)",
            "成本 = 自有总成本 / (GPU 数 × 8,760 h × 年数 × u)",
        ],
        source: ["the owned total and the build's utilization", "自有总成本和配置方案的利用率"],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "tco-per-million-tokens",
        what: ["owned cost per million tokens of the planned workload", "计划工作负载每百万 tokens 的自有成本"],
        formula: [
            "cost = owned total / (tokens/s × 3,600 × busy hours) × 10⁶",
            "成本 = 自有总成本 / (tokens/s × 3,600 × 忙碌小时) × 10⁶",
        ],
        source: [
            "the owned total; throughput from the fit matrix's estimate or as entered",
            "自有总成本；吞吐量来自适配矩阵的估算或用户输入",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "tco-workload-energy",
        what: ["energy per million tokens of the planned workload", "计划工作负载每百万 tokens 的能耗"],
        formula: [
            "kWh/1M = P_wall,max × PUE / 1000 × 10⁶ / (tokens/s × 3,600)",
            "kWh/百万 = P_墙插,满载 × PUE / 1000 × 10⁶ / (tokens/s × 3,600)",
        ],
        source: [
            "the power analysis' wall draw at max while the workload runs; the site's PUE",
            "运行工作负载时功耗分析的满载墙插功耗；站点 PUE",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "tco-run-energy",
        what: ["energy of one run of the planned workload", "计划工作负载单次运行的能耗"],
        formula: [
            "kWh = P_wall,max × PUE / 1000 × run tokens / (tokens/s × 3,600)",
            "kWh = P_墙插,满载 × PUE / 1000 × 单次运行 tokens 数 / (tokens/s × 3,600)",
        ],
        source: [
            "the power analysis' wall draw at max while the workload runs; the site's PUE; the run's tokens as planned",
            "运行工作负载时功耗分析的满载墙插功耗；站点 PUE；计划的单次运行 tokens 数",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
];

#[cfg(test)]
#[path = "formulas_tests.rs"]
mod tests;
