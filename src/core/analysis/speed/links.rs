//! The links a step's all-reduces cross (NVLink, PCIe, the network) and the GPUs' topology.

use super::{
    TOPO_ACROSS_NETWORK, TOPO_GPUS_OVER, TOPO_HCCS, TOPO_INFINITY_FABRIC, TOPO_INTEGRATED, TOPO_JOINED,
    TOPO_NO_NETWORK, TOPO_NVLINK_BRIDGE, TOPO_NVLINK_SWITCH, TOPO_ONE_GPU, TOPO_PCIE_ONLY,
};
use crate::core::catalog::{Gpu, GpuFormFactor, Interconnect};
use crate::core::i18n::Sentence;
use crate::text;
use serde::Serialize;

/// Fixed latency of a small all-reduce over an NVLink switch or Infinity Fabric, seconds, before
/// the per-round term ([`NVLINK_ROUND_LATENCY_S`]).
pub const NVLINK_BASE_LATENCY_S: f64 = 8.0e-6;

/// Latency of each of the ⌈log₂ n⌉ rounds of a small all-reduce over NVLink, seconds.
/// Calibration (batch-1 decode on A100 NVSwitch systems, whose step times exceed the memory
/// time by the all-reduces): FasterTransformer's 13B at TP 2 (13.5 ms/token), LMDeploy's
/// InternLM-20B at TP 2 (61.14 t/s) and Llama 2 70B at TP 4 (33.94 t/s) leave 22–23 µs per
/// all-reduce at 2 GPUs and 36 µs at 4: `8 + 14·log₂ n` µs. NCCL's tree and NVLS algorithms and
/// TensorRT-LLM's one-shot kernels all finish in a number of rounds that grows with log n, not
/// with n as a ring's 2(n−1) steps do.
pub const NVLINK_ROUND_LATENCY_S: f64 = 14.0e-6;

/// Latency of one ring step over PCIe, seconds: an estimate, twice the NVLink figure, since
/// GeForce cards without peer-to-peer stage every transfer through host memory (unverified;
/// vLLM users report tensor parallelism over PCIe without P2P slowing decode markedly).
pub const PCIE_STEP_LATENCY_S: f64 = 30.0e-6;

/// Latency of one ring step across nodes over InfiniBand/RoCE, seconds: an estimate of the
/// same order as PCIe (the NIC sits behind a PCIe switch), unverified.
pub const NETWORK_STEP_LATENCY_S: f64 = 30.0e-6;

/// PCIe x16 bandwidth per direction, GB/s, by generation: 3.0 ≈ 16, 4.0 ≈ 32, 5.0 ≈ 64,
/// 6.0 ≈ 128 (PCI-SIG base specifications: 8, 16, 32, 64 GT/s per lane; domain.md §1).
#[must_use]
pub fn pcie_x16_gbs(generation: u8) -> f64 {
    match generation {
        0..=2 => 8.0,
        3 => 16.0,
        4 => 32.0,
        5 => 64.0,
        _ => 128.0,
    }
}

/// Kind of link between GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkKind {
    NvlinkSwitch,
    NvlinkBridge,
    InfinityFabric,
    Hccs,
    Pcie,
    Network,
}

/// A link: bandwidth per direction and latency per step (a ring step over PCIe and networks,
/// a round of the logarithmic algorithms over NVLink switches and Infinity Fabric).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Link {
    pub kind: LinkKind,
    pub bandwidth_gbs: f64,
    pub step_latency_s: f64,
}

impl Link {
    /// True for all-to-all fabrics (NVSwitch, Infinity Fabric), where a small all-reduce
    /// takes a number of rounds that grows with log₂ n.
    /// Every GPU of the node reaches every other over its own links: NVSwitch, AMD's Infinity
    /// Fabric and Huawei's HCCS full mesh (Atlas 800T A2: eight 910B NPUs, each linked to the
    /// other seven).
    fn all_to_all(&self) -> bool {
        matches!(self.kind, LinkKind::NvlinkSwitch | LinkKind::InfinityFabric | LinkKind::Hccs)
    }

    /// Latency part of one all-reduce over `ranks`: `8 + 14·⌈log₂ n⌉` µs on all-to-all
    /// fabrics ([`NVLINK_BASE_LATENCY_S`], [`NVLINK_ROUND_LATENCY_S`]), `2(n−1)` ring steps
    /// elsewhere (NCCL's ring algorithm).
    #[must_use]
    pub fn all_reduce_latency_s(&self, ranks: u32) -> f64 {
        if ranks <= 1 {
            return 0.0;
        }
        if self.all_to_all() {
            NVLINK_BASE_LATENCY_S + self.step_latency_s * f64::from(ranks).log2().ceil()
        } else {
            2.0 * f64::from(ranks - 1) * self.step_latency_s
        }
    }

    /// All-reduce of `bytes` over `ranks`: the latency part and `2(n−1)/n` of the data over
    /// each link, the bandwidth-optimal volume of ring and reduce-scatter/all-gather schemes
    /// (Patarasuk & Yuan 2009).
    #[must_use]
    pub fn all_reduce_s(&self, ranks: u32, bytes: f64) -> f64 {
        if ranks <= 1 {
            return 0.0;
        }
        let n = f64::from(ranks);
        self.all_reduce_latency_s(ranks) + 2.0 * (n - 1.0) / n * bytes / (self.bandwidth_gbs * 1.0e9)
    }

    /// One point-to-point transfer.
    #[must_use]
    pub fn p2p_s(&self, bytes: f64) -> f64 {
        self.step_latency_s + bytes / (self.bandwidth_gbs * 1.0e9)
    }
}

/// GPUs, nodes and the links between them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Topology {
    pub gpus_per_node: u32,
    pub nodes: u32,
    /// NVLink / Infinity Fabric within a node, if the GPUs have it.
    pub fast: Option<Link>,
    /// Most GPUs the fast link joins all-to-all (the node for switches, the bridge group for
    /// NVLink bridges).
    pub fast_group: u32,
    /// PCIe between GPUs of a node.
    pub pcie: Link,
    /// Each GPU's share of the node's network bandwidth, if the node has NICs.
    pub network: Option<Link>,
    /// One line for people: "8 GPUs per node over NVLink 4 switch (450 GB/s per direction)…",
    /// in any language.
    pub description: Sentence,
}

impl Topology {
    /// The topology of `gpus_per_node` GPUs of one type in each of `nodes` nodes.
    /// `nvlink_bridge` says whether the build fits NVLink bridges; `nic_gbps_per_node` is the
    /// node's total network bandwidth in Gb/s (0 for none).
    #[must_use]
    pub fn new(gpu: &Gpu, gpus_per_node: u32, nodes: u32, nvlink_bridge: bool, nic_gbps_per_node: f64) -> Self {
        let lanes = if gpu.pcie_lanes == 0 { 16.0 } else { f64::from(gpu.pcie_lanes) };
        let pcie = Link {
            kind: LinkKind::Pcie,
            bandwidth_gbs: pcie_x16_gbs(gpu.pcie_gen) * lanes / 16.0,
            step_latency_s: PCIE_STEP_LATENCY_S,
        };
        let (fast, fast_group, fast_text) = match &gpu.interconnect {
            Interconnect::NvLinkSwitch { generation, bandwidth_gbs } => (
                Some(Link {
                    kind: LinkKind::NvlinkSwitch,
                    bandwidth_gbs: bandwidth_gbs / 2.0,
                    step_latency_s: NVLINK_ROUND_LATENCY_S,
                }),
                gpus_per_node,
                text!(
                    TOPO_NVLINK_SWITCH,
                    generation = generation.to_string(),
                    gbs = format!("{:.0}", bandwidth_gbs / 2.0)
                ),
            ),
            Interconnect::NvLinkBridge { generation, bandwidth_gbs, max_gpus } if nvlink_bridge => (
                Some(Link {
                    kind: LinkKind::NvlinkBridge,
                    bandwidth_gbs: bandwidth_gbs / 2.0,
                    step_latency_s: NVLINK_ROUND_LATENCY_S,
                }),
                u32::from(*max_gpus).min(gpus_per_node),
                text!(
                    TOPO_NVLINK_BRIDGE,
                    generation = generation.to_string(),
                    max = max_gpus.to_string(),
                    gbs = format!("{:.0}", bandwidth_gbs / 2.0)
                ),
            ),
            Interconnect::InfinityFabric { bandwidth_gbs } => (
                Some(Link {
                    kind: LinkKind::InfinityFabric,
                    bandwidth_gbs: bandwidth_gbs / 2.0,
                    step_latency_s: NVLINK_ROUND_LATENCY_S,
                }),
                gpus_per_node,
                text!(TOPO_INFINITY_FABRIC, gbs = format!("{:.0}", bandwidth_gbs / 2.0)),
            ),
            Interconnect::Hccs { bandwidth_gbs } => (
                Some(Link {
                    kind: LinkKind::Hccs,
                    bandwidth_gbs: bandwidth_gbs / 2.0,
                    // No published HCCS latency was found (searched: Huawei's Ascend and
                    // Atlas pages, CANN's hccl_test README, which gives the test's command but
                    // no results; third-party 910B/910C spec pages give link bandwidth only):
                    // taken as NVLink's round latency, an assumption (Ascend's HCCL reaches every
                    // NPU of the mesh in one hop, as NVSwitch does). README, "Known gaps".
                    step_latency_s: NVLINK_ROUND_LATENCY_S,
                }),
                gpus_per_node,
                text!(TOPO_HCCS, gbs = format!("{:.0}", bandwidth_gbs / 2.0)),
            ),
            _ => (
                None,
                1,
                text!(
                    TOPO_PCIE_ONLY,
                    gen = gpu.pcie_gen.to_string(),
                    lanes = gpu.pcie_lanes.to_string(),
                    gbs = format!("{:.0}", pcie.bandwidth_gbs)
                ),
            ),
        };
        let network = (nic_gbps_per_node > 0.0 && nodes > 1).then(|| Link {
            kind: LinkKind::Network,
            bandwidth_gbs: nic_gbps_per_node / 8.0 / f64::from(gpus_per_node.max(1)),
            step_latency_s: NETWORK_STEP_LATENCY_S,
        });
        let gpu_text = if gpu.form_factor == GpuFormFactor::Integrated { text!(TOPO_INTEGRATED) } else { fast_text };
        let mut description = if gpus_per_node <= 1 {
            text!(TOPO_ONE_GPU)
        } else {
            text!(TOPO_GPUS_OVER, n = gpus_per_node.to_string(), link = gpu_text)
        };
        if nodes > 1 {
            let across = match &network {
                Some(n) => text!(
                    TOPO_ACROSS_NETWORK,
                    nodes = nodes.to_string(),
                    gbps = format!("{nic_gbps_per_node:.0}"),
                    per_gpu = format!("{:.1}", n.bandwidth_gbs)
                ),
                None => text!(TOPO_NO_NETWORK, nodes = nodes.to_string()),
            };
            description = text!(TOPO_JOINED, within = description, across = across);
        }
        Self { gpus_per_node, nodes, fast, fast_group, pcie, network, description: Sentence::new(description) }
    }

    /// Every GPU.
    #[must_use]
    pub fn total_gpus(&self) -> u32 {
        self.gpus_per_node.saturating_mul(self.nodes)
    }

    /// The link a group of `size` consecutive GPUs talks over: the fast link when the group
    /// fits in it, PCIe within a node, the network beyond (None if the nodes have no NIC).
    #[must_use]
    pub fn group_link(&self, size: u32) -> Option<Link> {
        if size <= 1 {
            return Some(self.fast.unwrap_or(self.pcie));
        }
        if size > self.gpus_per_node {
            return self.network;
        }
        match self.fast {
            Some(link) if size <= self.fast_group => Some(link),
            _ => Some(self.pcie),
        }
    }
}
