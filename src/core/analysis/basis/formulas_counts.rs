//! The registry's formulas of the summary's fit figures, the counts and the settings (the
//! figures of `counts.rs`), in the order of `report-schema.md`; [`super::FORMULAS`] holds
//! them after the others.

use super::{CATALOG_EN, CATALOG_ZH, Confidence, Formula};

/// The summary, count and setting formulas.
pub(super) const COUNTS: [Formula; 11] = [
    Formula {
        id: "fit-count",
        what: ["catalog models the build runs", "该配置可运行的部件库模型数"],
        formula: [
            "count of models with a fitting or tight cell for the kind of workload on any node group",
            "任一节点组上该类工作负载可运行或余量紧张的模型数",
        ],
        source: [
            "the fit matrix (memory per GPU against usable memory)",
            "适配矩阵（每块 GPU 的显存占用与可用显存比较）",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "fit-count-workload",
        what: ["catalog models that fit one standard workload", "在某一标准工作负载下可运行的部件库模型数"],
        formula: [
            "count of catalog models whose cell for the workload fits on some node group: memory per GPU ≤ usable memory per GPU",
            "在任一节点组上该工作负载单元格可运行的部件库模型数：每块 GPU 的显存占用 ≤ 每块 GPU 的可用显存",
        ],
        source: [
            "the build's fit matrices (each cell's memory per GPU is the memory estimate `mem-total`, the usable memory the engine's budget `mem-budget`)",
            "配置的适配矩阵（各单元格每块 GPU 的显存占用为显存估算 `mem-total`，可用显存为推理引擎的预算 `mem-budget`）",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "fit-largest",
        what: ["the largest catalog model that fits", "可运行的最大部件库模型"],
        formula: [
            "largest = the model with the most parameters among those with a fitting cell (memory per GPU ≤ usable memory per GPU)",
            "最大模型 = 有可运行单元格（每块 GPU 的显存占用 ≤ 每块 GPU 的可用显存）的模型中参数最多者",
        ],
        source: [
            "the model's catalog entry (its parameter count and source) and the build's fit matrices (`mem-total` against `mem-budget`)",
            "该模型的部件库条目（参数量及其来源）与配置的适配矩阵（`mem-total` 与 `mem-budget` 比较）",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "count-nodes",
        what: ["nodes in the build", "配置中的节点数"],
        formula: ["nodes = Σ node groups' counts", "节点数 = Σ 各节点组的数量"],
        source: ["the build's node groups (each group's count)", "配置方案的节点组（各组的数量）"],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "count-gpus",
        what: ["GPUs in the build", "配置中的 GPU 数"],
        formula: [
            "GPUs = Σ over node groups and GPU types of GPUs per node × nodes",
            "GPU 数 = Σ 各节点组各 GPU 型号的 每节点 GPU 数 × 节点数",
        ],
        source: [
            "the build's part lines and node counts; GPUs inside complete systems from the system's catalog entry",
            "配置方案的部件行和节点数；整机内置 GPU 按该整机的部件库条目计",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "count-gpus-per-node",
        what: ["GPUs of this type per node", "每节点该型号 GPU 数"],
        formula: [
            "GPUs per node = Σ quantity of the GPU's lines in the node group (+ those inside complete systems)",
            "每节点 GPU 数 = Σ 节点组中该 GPU 各行的数量（+ 整机内置的 GPU）",
        ],
        source: [
            "the build's part lines; a complete system's GPUs from its catalog entry",
            "配置方案的部件行；整机内置 GPU 按其部件库条目计",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "gpu-memory",
        what: ["memory of one GPU", "单块 GPU 的显存"],
        formula: ["memory = the GPU's catalog memory_gib", "显存 = 该 GPU 部件库条目的 memory_gib"],
        source: [CATALOG_EN, CATALOG_ZH],
        confidence: Confidence::Datasheet,
        class: None,
    },
    Formula {
        id: "count-findings",
        what: ["findings of one severity", "某一严重程度的检查结果数"],
        formula: [
            "count = findings of the severity (each names its rule code)",
            "数量 = 该严重程度的检查结果数（每条注明其规则代码）",
        ],
        source: [
            "rigplan's checks (compatibility, power, thermal, fit, cost); each finding's code is listed in the Issues tab and report-schema.md",
            "rigplan 的各项检查（兼容性、功耗、散热、适配、成本）；每条结果的代码见“检查结果”标签页和 report-schema.md",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "bom-unpriced",
        what: ["part lines without a price", "没有价格的部件行"],
        formula: [
            "count of lines with no catalog price, no price of the build's own and not included with another part",
            "既无部件库价格、也无配置方案自填价格、且不随其他部件附带的行数",
        ],
        source: [
            "the catalog's prices and the build's price overrides; such lines count 0 in every total",
            "部件库价格和配置方案的价格覆盖；这些行在所有合计中计 0",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "exchange-rate",
        what: ["the rate USD catalog prices convert at", "部件库美元价格的折算汇率"],
        formula: [
            "price = USD price × units per USD; a CNY price in another currency goes through 7.2 CNY per USD",
            "价格 = 美元价格 × 每美元折合单位数；非人民币配置中的人民币价格按 7.2 元/美元先折成美元",
        ],
        source: [
            "the build's own setting site.usd_exchange_rate (undated; not checked by rigplan); 7.2 CNY per USD is rigplan's reference rate (PBOC central parity 7.0–7.3 in 2023–2025)",
            "配置方案自填的 site.usd_exchange_rate（无日期，rigplan 不作核对）；7.2 元/美元为 rigplan 的参考汇率（2023–2025 年人民银行中间价 7.0–7.3）",
        ],
        confidence: Confidence::Derived,
        class: None,
    },
    Formula {
        id: "price-stale",
        what: ["catalog prices older than your threshold", "超过您设定期限的部件库价格"],
        formula: [
            "stale = count of catalog-priced lines dated more than N months before today",
            "过期数 = 部件库价格日期早于今天 N 个月以上的行数",
        ],
        source: [
            "each catalog price's date; N is your setting (View > Prices stale after (months), 12 months by default: GPU street prices move by tens of percent in a year)",
            "各部件库价格的日期；N 为您的设置（视图 > 价格过期期限（月），默认 12 个月：GPU 市场价一年内变动可达数十个百分点）",
        ],
        confidence: Confidence::Assumption,
        class: None,
    },
];
