//! The sentences of drop refusals, in English and Simplified Chinese: the kind nouns, what
//! each slot group takes, and the rules of [`super::target_accepts`] and
//! [`super::slot_accepts`]. Chinese follows `zh-terms.md` (内存, 主板, 电源, 网卡, 交换机, 整机 …);
//! a kind noun carries its measure word (一块 GPU, 一条内存) so that "{name} 是{kind}" reads.

crate::templates! {
    pub(crate) TEMPLATES;
    KIND_GPU "" { en: "a GPU", zh: "一块 GPU" }
    KIND_CPU "" { en: "a CPU", zh: "一颗 CPU" }
    KIND_BOARD "" { en: "a board", zh: "一块主板" }
    KIND_MEMORY "" { en: "a memory module", zh: "一条内存" }
    KIND_STORAGE "" { en: "a drive", zh: "一个存储设备" }
    KIND_PSU "" { en: "a power supply", zh: "一个电源" }
    KIND_COOLER "" { en: "a CPU cooler", zh: "一个 CPU 散热器" }
    KIND_CHASSIS "" { en: "a chassis", zh: "一个机箱" }
    KIND_NIC "" { en: "a network adapter", zh: "一块网卡" }
    KIND_SWITCH "" { en: "a switch", zh: "一台交换机" }
    KIND_SYSTEM "" { en: "a complete system", zh: "一台整机" }
    TAKES_CHASSIS "" { en: "The chassis position takes a chassis", zh: "机箱位只能放机箱" }
    TAKES_BOARD "" { en: "The board position takes a mainboard or GPU baseboard", zh: "主板位只能放主板或 GPU 基板" }
    TAKES_CPU "" { en: "CPU sockets take CPUs", zh: "CPU 插槽只能装 CPU" }
    TAKES_COOLER "" { en: "The cooler position takes a CPU cooler", zh: "散热器位只能装 CPU 散热器" }
    TAKES_DIMM "" { en: "DIMM slots take memory modules", zh: "内存插槽只能插内存条" }
    TAKES_GPU_MODULE "" { en: "Baseboard positions take SXM or OAM GPU modules", zh: "基板上的 GPU 位只能装 SXM 或 OAM GPU 模组" }
    TAKES_M2 "" { en: "M.2 slots take M.2 NVMe drives", zh: "M.2 插槽只能装 M.2 NVMe 固态硬盘" }
    TAKES_BAY25 "" { en: "2.5\" bays take SATA, U.2 and EDSFF drives", zh: "2.5 英寸盘位只能装 SATA、U.2 和 EDSFF 硬盘" }
    TAKES_BAY35 "" { en: "3.5\" bays take hard disks", zh: "3.5 英寸盘位只能装机械硬盘" }
    TAKES_PSU "" { en: "PSU bays take power supplies", zh: "电源位只能装电源" }
    TAKES_SYSTEM "" { en: "The system position takes a complete system", zh: "整机位只能放整机" }
    SLOT_REFUSAL "" { en: "{takes}; {what}.", zh: "{takes}；{what}。" }
    IS_A_GPU "" { en: "{name} is a {form} GPU", zh: "{name} 是 {form} GPU" }
    IS_AN_GPU "" { en: "{name} is an {form} GPU", zh: "{name} 是 {form} GPU" }
    IS_A_DRIVE "" { en: "{name} is a {interface} drive", zh: "{name} 是 {interface} 硬盘" }
    IS_AN_DRIVE "" { en: "{name} is an {interface} drive", zh: "{name} 是 {interface} 硬盘" }
    IS_KIND "" { en: "{name} is {kind}", zh: "{name} 是{kind}" }
    NOT_IN_CATALOG "" {
        en: "`{part}` is not in the catalog, so rigplan cannot tell which slot it takes; drop it on the node instead.",
        zh: "部件目录中没有 `{part}`，rigplan 无法判断它该装在哪个插槽；请把它拖到节点上。",
    }
    SWITCH_ON_NODE "" {
        en: "{name} is a switch, a cluster-level part: drop it on the cluster area.",
        zh: "{name} 是交换机，属于集群级部件：请把它拖到集群区。",
    }
    NOT_FOR_CLUSTER "" {
        en: "{name} is {kind}, which goes in a node; the cluster area takes switches, shared drives and disk enclosures.",
        zh: "{name} 是{kind}，应装在节点中；集群区只放交换机、共享存储和磁盘扩展柜。",
    }
    MODULE_NOT_IN_PCIE "" {
        en: "{name} is an {form} module: it mounts on a GPU baseboard, not in PCIe slot {position}.",
        zh: "{name} 是 {form} 模组：它装在 GPU 基板上，不能插入 PCIe 插槽 {position}。",
    }
    INTEGRATED_GPU "" {
        en: "{name} is integrated in a system-on-module; it has no PCIe card to fit a slot.",
        zh: "{name} 集成在核心模组（SoM）中，没有可插入插槽的 PCIe 卡。",
    }
    PCIE_TAKES "" {
        en: "PCIe slots take graphics cards and network adapters; {name} is {kind}.",
        zh: "PCIe 插槽只能插显卡和网卡；{name} 是{kind}。",
    }
}
