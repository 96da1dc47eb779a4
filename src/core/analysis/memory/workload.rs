//! The workload side of a memory estimate: inference or training, weight, KV and gradient
//! precisions (with the bits per weight of the quantization formats), optimizer, offload,
//! recompute, LoRA, batch, context and parallel degrees, and why a workload is invalid.

use crate::core::catalog::Checkpoint;
use serde::Serialize;
use std::fmt;

/// Bits per weight of GPTQ/AWQ 4-bit weights with the default group size 128: 4 bits plus an
/// fp16 scale and a 4-bit zero point per group, 4 + 20/128 (Frantar et al. 2023; AutoAWQ).
pub const INT4_GROUP128_BPW: f64 = 4.0 + 20.0 / 128.0;

/// Bits per weight of NF4 with double quantization: 4 + 8/64 + 32/(64·256) = 4.127
/// (Dettmers et al. 2023, QLoRA §3 "Double Quantization").
pub const NF4_BPW: f64 = 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);

/// llama.cpp measured bits per weight of its mixed K-quant types on Llama-3.1-8B
/// (`tools/quantize/README.md`, table "meta-llama/Llama-3.1-8B"): the mixes keep some tensors
/// at higher types, so the effective bpw is above the base block's.
pub const GGUF_Q5_K_M_BPW: f64 = 5.7036;

/// See [`GGUF_Q5_K_M_BPW`].
pub const GGUF_Q4_K_M_BPW: f64 = 4.8944;

/// See [`GGUF_Q5_K_M_BPW`].
pub const GGUF_Q2_K_BPW: f64 = 3.1593;

/// Q3_K_M is not in the Llama-3.1-8B table; the README's earlier Llama-2-7B table lists 3.91.
pub const GGUF_Q3_K_M_BPW: f64 = 3.91;

/// Block formats of ggml (`ggml-common.h`): bytes per block of weights. Q8_0: 32 int8 + fp16
/// scale = 34 B/32; Q6_K: 210 B/256; Q4_0: 32 × 4 bit + fp16 scale = 18 B/32.
pub const GGUF_Q8_0_BPW: f64 = 34.0 * 8.0 / 32.0;

/// See [`GGUF_Q8_0_BPW`].
pub const GGUF_Q6_K_BPW: f64 = 210.0 * 8.0 / 256.0;

/// See [`GGUF_Q8_0_BPW`].
pub const GGUF_Q4_0_BPW: f64 = 18.0 * 8.0 / 32.0;

/// Bits per weight of FP8 (E4M3) weights with one fp32 scale per 128 × 128 block:
/// 8 + 32/16384, as DeepSeek-V3 ships them (technical report, arXiv 2412.19437, §3.3.2;
/// `weight_scale_inv` tensors of one fp32 per block in its checkpoint).
pub const FP8_BLOCK128_BPW: f64 = 8.0 + 32.0 / (128.0 * 128.0);

/// Bits per weight of MXFP4: blocks of 32 FP4 (E2M1) values sharing one 8-bit power-of-two
/// scale (E8M0), 4 + 8/32 = 4.25 (OCP Microscaling Formats (MX) Specification v1.0, §5,
/// Table 1; ggml's `block_mxfp4` is 17 bytes per 32 weights, `ggml-common.h`).
pub const MXFP4_BPW: f64 = 4.0 + 8.0 / 32.0;

/// ggml's i-quant blocks of 256 weights (`ggml-common.h`): IQ4_XS = fp16 scale + 2 + 4 scale
/// bytes + 128 nibble bytes = 136 B; IQ3_XXS = 2 + 96 = 98 B; IQ2_XXS = 2 + 64 = 66 B;
/// IQ1_S = 2 + 32 + 16 = 50 B. These are the block types alone: a published file mixes them
/// with wider types for some tensors (the output projection, attention in MoE models), so a
/// whole file is somewhat larger than its base type gives.
pub const GGUF_IQ4_XS_BPW: f64 = 136.0 * 8.0 / 256.0;

/// See [`GGUF_IQ4_XS_BPW`].
pub const GGUF_IQ3_XXS_BPW: f64 = 98.0 * 8.0 / 256.0;

/// See [`GGUF_IQ4_XS_BPW`].
pub const GGUF_IQ2_XXS_BPW: f64 = 66.0 * 8.0 / 256.0;

/// See [`GGUF_IQ4_XS_BPW`].
pub const GGUF_IQ1_S_BPW: f64 = 50.0 * 8.0 / 256.0;
/// Bits per weight of the base K-quant blocks (`ggml-common.h`: `block_q4_K` 144 B, `block_q5_K`
/// 176 B, `block_q3_K` 110 B, `block_q2_K` 84 B per 256 weights). llama.cpp's mixes keep the
/// routed experts of a mixture-of-experts model at these types and raise attention, embeddings
/// and some FFN tensors: TheBloke's Mixtral 8x7B files (Q4_K_M 26.44 GB, Q5_K_M 32.23 GB) put
/// the 45.1B expert weights at 4.52 and 5.52 bits once the 1.6B others are taken at the dense
/// mix's bpw.
pub const GGUF_Q4_K_BPW: f64 = 144.0 * 8.0 / 256.0;

/// See [`GGUF_Q4_K_BPW`].
pub const GGUF_Q5_K_BPW: f64 = 176.0 * 8.0 / 256.0;

/// See [`GGUF_Q4_K_BPW`].
pub const GGUF_Q3_K_BPW: f64 = 110.0 * 8.0 / 256.0;

/// See [`GGUF_Q4_K_BPW`].
pub const GGUF_Q2_K_BPW_BASE: f64 = 84.0 * 8.0 / 256.0;

/// What the GPU is used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    Inference,
    /// Full training (pre-training or full fine-tuning).
    Train,
    /// LoRA fine-tuning of a frozen base (Hu et al. 2021).
    Lora,
    /// LoRA on a 4-bit NF4 base (Dettmers et al. 2023).
    Qlora,
}

impl Mode {
    #[must_use]
    pub fn is_training(self) -> bool {
        !matches!(self, Self::Inference)
    }

    /// The stable id, as `rigplan fit --mode` and the JSON spell it.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::Inference => "inference",
            Self::Train => "train",
            Self::Lora => "lora",
            Self::Qlora => "qlora",
        }
    }

    /// The mode with this id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Self> {
        [Self::Inference, Self::Train, Self::Lora, Self::Qlora].into_iter().find(|m| m.id() == id)
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Inference => "inference",
            Self::Train => "full training",
            Self::Lora => "LoRA",
            Self::Qlora => "QLoRA",
        })
    }
}

/// Storage type of the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WeightType {
    Fp32,
    Fp16,
    Bf16,
    Fp8,
    /// FP8 with 128 × 128 block scales (DeepSeek-V3's checkpoint format).
    Fp8Block,
    Int8,
    /// OCP MXFP4: expert weights of a mixture-of-experts model (the rest 16-bit), as gpt-oss
    /// ships; every linear layer of a dense model.
    Mxfp4,
    /// GPTQ/AWQ 4-bit, group size 128.
    Int4,
    /// bitsandbytes NF4 with double quantization (QLoRA).
    Nf4,
    Q8_0,
    Q6K,
    Q5KM,
    Q4KM,
    Q4_0,
    Q3KM,
    Q2K,
    Iq4Xs,
    Iq3Xxs,
    Iq2Xxs,
    Iq1S,
}

impl WeightType {
    /// Every type, from the most to the least precise (the order the fit search walks).
    pub const ALL: [Self; 20] = [
        Self::Fp32,
        Self::Bf16,
        Self::Fp16,
        Self::Fp8Block,
        Self::Fp8,
        Self::Int8,
        Self::Q8_0,
        Self::Q6K,
        Self::Q5KM,
        Self::Q4KM,
        Self::Int4,
        Self::Q4_0,
        Self::Mxfp4,
        Self::Iq4Xs,
        Self::Nf4,
        Self::Q3KM,
        Self::Iq3Xxs,
        Self::Q2K,
        Self::Iq2Xxs,
        Self::Iq1S,
    ];

    /// Bits per stored weight (see the constants for sources).
    #[must_use]
    pub fn bits_per_weight(self) -> f64 {
        match self {
            Self::Fp32 => 32.0,
            Self::Fp16 | Self::Bf16 => 16.0,
            Self::Fp8 | Self::Int8 => 8.0,
            Self::Fp8Block => FP8_BLOCK128_BPW,
            Self::Mxfp4 => MXFP4_BPW,
            Self::Int4 => INT4_GROUP128_BPW,
            Self::Nf4 => NF4_BPW,
            Self::Q8_0 => GGUF_Q8_0_BPW,
            Self::Q6K => GGUF_Q6_K_BPW,
            Self::Q5KM => GGUF_Q5_K_M_BPW,
            Self::Q4KM => GGUF_Q4_K_M_BPW,
            Self::Q4_0 => GGUF_Q4_0_BPW,
            Self::Q3KM => GGUF_Q3_K_M_BPW,
            Self::Q2K => GGUF_Q2_K_BPW,
            Self::Iq4Xs => GGUF_IQ4_XS_BPW,
            Self::Iq3Xxs => GGUF_IQ3_XXS_BPW,
            Self::Iq2Xxs => GGUF_IQ2_XXS_BPW,
            Self::Iq1S => GGUF_IQ1_S_BPW,
        }
    }

    /// Bits per weight of a mixture-of-experts model's routed experts in a llama.cpp K-quant mix
    /// (the mix's base block type, [`GGUF_Q4_K_BPW`]); None for uniform types.
    #[must_use]
    pub fn moe_expert_bits(self) -> Option<f64> {
        match self {
            Self::Q5KM => Some(GGUF_Q5_K_BPW),
            Self::Q4KM => Some(GGUF_Q4_K_BPW),
            Self::Q3KM => Some(GGUF_Q3_K_BPW),
            Self::Q2K => Some(GGUF_Q2_K_BPW_BASE),
            _ => None,
        }
    }

    /// A llama.cpp GGUF type (whole-file bpw, embeddings included).
    #[must_use]
    pub fn is_gguf(self) -> bool {
        matches!(
            self,
            Self::Q8_0
                | Self::Q6K
                | Self::Q5KM
                | Self::Q4KM
                | Self::Q4_0
                | Self::Q3KM
                | Self::Q2K
                | Self::Iq4Xs
                | Self::Iq3Xxs
                | Self::Iq2Xxs
                | Self::Iq1S
        )
    }

    /// True when every parameter is stored at this type. Float types and GGUF files cover the
    /// whole model; fp8/int8/int4/nf4 quantize linear layers and keep the rest in 16-bit, and
    /// MXFP4 quantizes the experts of a mixture-of-experts model.
    #[must_use]
    pub fn covers_all_params(self) -> bool {
        matches!(self, Self::Fp32 | Self::Fp16 | Self::Bf16) || self.is_gguf()
    }

    /// The name used on the command line and in JSON.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Fp32 => "fp32",
            Self::Fp16 => "fp16",
            Self::Bf16 => "bf16",
            Self::Fp8 => "fp8",
            Self::Fp8Block => "fp8_block",
            Self::Int8 => "int8",
            Self::Mxfp4 => "mxfp4",
            Self::Int4 => "int4",
            Self::Nf4 => "nf4",
            Self::Q8_0 => "q8_0",
            Self::Q6K => "q6_k",
            Self::Q5KM => "q5_k_m",
            Self::Q4KM => "q4_k_m",
            Self::Q4_0 => "q4_0",
            Self::Q3KM => "q3_k_m",
            Self::Q2K => "q2_k",
            Self::Iq4Xs => "iq4_xs",
            Self::Iq3Xxs => "iq3_xxs",
            Self::Iq2Xxs => "iq2_xxs",
            Self::Iq1S => "iq1_s",
        }
    }

    /// The type with this name (as [`Self::name`] spells it).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// The weight type a checkpoint is stored at (what `--weights native` means).
#[must_use]
pub fn checkpoint_weights(checkpoint: Checkpoint) -> WeightType {
    match checkpoint {
        Checkpoint::Bf16 => WeightType::Bf16,
        Checkpoint::Fp16 => WeightType::Fp16,
        Checkpoint::Fp32 => WeightType::Fp32,
        Checkpoint::Fp8 => WeightType::Fp8,
        Checkpoint::Int8 => WeightType::Int8,
        Checkpoint::Int4 => WeightType::Int4,
        Checkpoint::Fp8Block => WeightType::Fp8Block,
        Checkpoint::Mxfp4Experts => WeightType::Mxfp4,
    }
}

impl fmt::Display for WeightType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The software that runs an inference workload. It decides how much of the GPU's memory the
/// workload may take, what it holds beside the model (CUDA graphs, a compute buffer), how many
/// prompt tokens one prefill step processes, and how close decode gets to the memory
/// bandwidth (see `speed::decode_efficiency`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Engine {
    /// llama.cpp (and Ollama, LM Studio, which run it): allocates the KV cache for the whole
    /// context up front plus a compute buffer for one micro-batch; may use all of the memory.
    #[serde(rename = "llama.cpp")]
    LlamaCpp,
    /// vLLM or SGLang: take a fixed share of the memory ([`VLLM_MEMORY_UTILIZATION`]) for
    /// weights, activations and a paged KV cache, and capture CUDA graphs beside it.
    #[serde(rename = "vllm")]
    Vllm,
    /// TensorRT-LLM: gives the KV cache a share of the memory left after the weights and
    /// activations ([`TRTLLM_KV_FREE_FRACTION`]).
    #[serde(rename = "tensorrt-llm")]
    TensorRtLlm,
    /// Plain PyTorch (Hugging Face transformers `generate`): no preallocation, the KV cache
    /// grows with the sequence.
    #[serde(rename = "pytorch")]
    PyTorch,
}

/// vLLM's default `gpu_memory_utilization`, the share of each GPU's memory it may use for
/// weights, activations and the KV cache together (vLLM engine arguments, default 0.9;
/// SGLang's `mem_fraction_static` defaults are of the same size).
pub const VLLM_MEMORY_UTILIZATION: f64 = 0.9;

/// TensorRT-LLM's default `free_gpu_memory_fraction` of its KV-cache configuration: the share
/// of the memory left after weights and activations that the KV cache may take (TensorRT-LLM
/// `KvCacheConfig`, default 0.9).
pub const TRTLLM_KV_FREE_FRACTION: f64 = 0.9;

/// Memory vLLM's CUDA graphs take beside its budget, bytes: the low end of vLLM's own start-up
/// message "CUDA graphs can take additional 1~3 GiB memory per GPU" (vllm/worker/
/// model_runner.py, v0.6). rigplan counts the same for TensorRT-LLM, whose runtime also
/// captures CUDA graphs for decode (an assumption).
pub const CUDA_GRAPH_BYTES: u64 = 1024 * 1024 * 1024;

/// Tokens one prefill step of vLLM, SGLang and TensorRT-LLM processes at once: chunked
/// prefill's token budget per step, whose activation peak the engine profiles before it sizes
/// the KV cache. 2048 is a rigplan assumption within the engines' defaults (vLLM
/// `max_num_batched_tokens`: 2048 to 16384 depending on version and GPU).
pub const SERVING_CHUNK_TOKENS: u64 = 2048;

impl Engine {
    pub const ALL: [Self; 4] = [Self::LlamaCpp, Self::Vllm, Self::TensorRtLlm, Self::PyTorch];

    /// The engine a weight type runs on unless told otherwise: llama.cpp for GGUF files,
    /// vLLM for everything else (the most used serving engine).
    #[must_use]
    pub fn default_for(weights: WeightType) -> Self {
        if weights.is_gguf() { Self::LlamaCpp } else { Self::Vllm }
    }

    /// The stable id, as `rigplan fit --engine` and the JSON spell it.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::LlamaCpp => "llama.cpp",
            Self::Vllm => "vllm",
            Self::TensorRtLlm => "tensorrt-llm",
            Self::PyTorch => "pytorch",
        }
    }

    /// The engine with this id (`sglang` is vLLM's twin).
    #[must_use]
    pub fn from_id(id: &str) -> Option<Self> {
        if id.eq_ignore_ascii_case("sglang") {
            return Some(Self::Vllm);
        }
        Self::ALL.into_iter().find(|e| e.id().eq_ignore_ascii_case(id))
    }

    /// Whether the engine runs this weight type: llama.cpp runs GGUF files and 16/32-bit
    /// floats; TensorRT-LLM does not read GGUF or bitsandbytes NF4; PyTorch does not read GGUF.
    #[must_use]
    pub fn runs(self, weights: WeightType) -> bool {
        match self {
            Self::LlamaCpp => {
                weights.is_gguf() || matches!(weights, WeightType::Fp32 | WeightType::Fp16 | WeightType::Bf16)
            }
            Self::TensorRtLlm => !weights.is_gguf() && weights != WeightType::Nf4,
            Self::PyTorch => !weights.is_gguf(),
            Self::Vllm => true,
        }
    }

    /// Workspace the engine holds beside the CUDA context, bytes: CUDA graphs for vLLM and
    /// TensorRT-LLM ([`CUDA_GRAPH_BYTES`]); llama.cpp's compute buffer and PyTorch's
    /// transient tensors are the activations line.
    #[must_use]
    pub fn workspace_bytes(self) -> u64 {
        match self {
            Self::Vllm | Self::TensorRtLlm => CUDA_GRAPH_BYTES,
            Self::LlamaCpp | Self::PyTorch => 0,
        }
    }

    /// Prompt tokens one prefill step processes: llama.cpp's default micro-batch
    /// (`n_ubatch` 512, `PREFILL_CHUNK_TOKENS`), the serving engines' chunk
    /// ([`SERVING_CHUNK_TOKENS`]); PyTorch runs the whole prompt at once (`None`).
    #[must_use]
    pub fn prefill_chunk_tokens(self) -> Option<u64> {
        match self {
            Self::LlamaCpp => Some(super::PREFILL_CHUNK_TOKENS),
            Self::Vllm | Self::TensorRtLlm => Some(SERVING_CHUNK_TOKENS),
            Self::PyTorch => None,
        }
    }

    /// Memory the engine lets a workload use on a GPU of `capacity` bytes, when `fixed` bytes
    /// (weights, activations, overhead) are taken before the KV cache: vLLM
    /// [`VLLM_MEMORY_UTILIZATION`] of the capacity; TensorRT-LLM the fixed part plus
    /// [`TRTLLM_KV_FREE_FRACTION`] of what is left; llama.cpp and PyTorch all of it.
    #[must_use]
    pub fn budget_bytes(self, capacity: u64, fixed: u64) -> u64 {
        let cap = capacity as f64;
        let budget = match self {
            Self::Vllm => VLLM_MEMORY_UTILIZATION * cap,
            Self::TensorRtLlm => {
                let fixed = (fixed as f64).min(cap);
                fixed + TRTLLM_KV_FREE_FRACTION * (cap - fixed)
            }
            Self::LlamaCpp | Self::PyTorch => cap,
        };
        crate::core::units::round_non_negative(budget.floor())
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::LlamaCpp => "llama.cpp",
            Self::Vllm => "vLLM/SGLang",
            Self::TensorRtLlm => "TensorRT-LLM",
            Self::PyTorch => "PyTorch",
        })
    }
}

/// Storage type of the KV cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum KvType {
    /// 16-bit (fp16 or bf16).
    Fp16,
    Fp8,
    /// ggml Q8_0 blocks, 34 bytes per 32 values.
    Q8_0,
    /// ggml Q4_0 blocks, 18 bytes per 32 values.
    Q4_0,
}

impl KvType {
    /// Every type, most precise first.
    pub const ALL: [Self; 4] = [Self::Fp16, Self::Fp8, Self::Q8_0, Self::Q4_0];

    /// Bytes per value as a fraction (numerator, denominator), so block formats stay exact.
    #[must_use]
    pub fn bytes_ratio(self) -> (u64, u64) {
        match self {
            Self::Fp16 => (2, 1),
            Self::Fp8 => (1, 1),
            Self::Q8_0 => (34, 32),
            Self::Q4_0 => (18, 32),
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Fp16 => "fp16",
            Self::Fp8 => "fp8",
            Self::Q8_0 => "q8_0",
            Self::Q4_0 => "q4_0",
        }
    }

    /// The type with this name (as [`Self::name`] spells it).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl fmt::Display for KvType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Optimizer of the trained parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Optimizer {
    /// Adam/AdamW: momentum and variance in fp32, 8 bytes per parameter.
    AdamW,
    /// bitsandbytes 8-bit AdamW: momentum and variance in 8 bits, 2 bytes per parameter
    /// (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization").
    AdamW8bit,
    /// SGD with momentum: one fp32 buffer, 4 bytes per parameter.
    Sgd,
}

impl Optimizer {
    /// Optimizer-state bytes per parameter, without an fp32 master copy.
    #[must_use]
    pub fn state_bytes(self) -> u64 {
        match self {
            Self::AdamW => 8,
            Self::AdamW8bit => 2,
            Self::Sgd => 4,
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::AdamW => "adamw",
            Self::AdamW8bit => "adamw8bit",
            Self::Sgd => "sgd",
        }
    }
}

/// Precision of the gradients in full training: fp16/bf16 (the ZeRO paper's 16 bytes per
/// parameter) or fp32 (the 18-byte convention of the EleutherAI cookbook and llm-analysis).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GradDtype {
    Fp16,
    Fp32,
}

impl GradDtype {
    #[must_use]
    pub fn bytes(self) -> u64 {
        match self {
            Self::Fp16 => 2,
            Self::Fp32 => 4,
        }
    }
}

/// DeepSpeed offload of model states to host memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Offload {
    None,
    /// Optimizer states (and the fp32 master copy) live in host memory (ZeRO-Offload).
    Optimizer,
    /// Parameters too (ZeRO-Infinity parameter offload; needs ZeRO-3).
    All,
}

/// Activation recomputation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Recompute {
    None,
    /// Recompute the attention-score part only (Korthikanti et al. 2022 §5).
    Selective,
    /// Keep only each layer's input and recompute the layer (gradient checkpointing).
    Full,
}

/// Which linear layers get LoRA adapters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoraTargets {
    /// Query and value projections (the LoRA paper's setting, Hu et al. 2021 §7.1).
    Qv,
    /// Q, K, V and output projections.
    Attention,
    /// Every linear layer of the blocks, experts included (QLoRA's setting, §4).
    All,
}

/// A workload: how the model is run or trained.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Workload {
    pub mode: Mode,
    pub weights: WeightType,
    pub kv: KvType,
    /// Sequences (or samples) per micro-batch per GPU replica.
    pub batch: u32,
    /// Tokens per sequence (prompt plus generated tokens for inference).
    pub context: u32,
    pub optimizer: Optimizer,
    pub grad_dtype: GradDtype,
    /// ZeRO stage 0–3 over the data-parallel GPUs.
    pub zero: u8,
    pub offload: Offload,
    /// Tensor-parallel degree.
    pub tp: u32,
    /// Pipeline-parallel degree.
    pub pp: u32,
    pub recompute: Recompute,
    pub flash_attention: bool,
    pub lora_rank: u32,
    pub lora_targets: LoraTargets,
    /// Inference engine; `None` picks [`Engine::default_for`] the weights.
    pub engine: Option<Engine>,
}

impl Workload {
    /// The defaults of `rigplan fit` for a mode: 16-bit weights (NF4 for QLoRA), fp16 KV,
    /// batch 1, 4096 tokens for inference and 2048 for training, AdamW with 16-bit gradients,
    /// no ZeRO, one GPU, FlashAttention on, LoRA rank 16 (64 for QLoRA, as in Dettmers et al.
    /// 2023 §5) on every linear layer.
    #[must_use]
    pub fn defaults(mode: Mode) -> Self {
        Self {
            mode,
            weights: if mode == Mode::Qlora { WeightType::Nf4 } else { WeightType::Bf16 },
            kv: KvType::Fp16,
            batch: 1,
            context: if mode == Mode::Inference { 4096 } else { 2048 },
            optimizer: Optimizer::AdamW,
            grad_dtype: GradDtype::Fp16,
            zero: 0,
            offload: Offload::None,
            tp: 1,
            pp: 1,
            recompute: Recompute::None,
            flash_attention: true,
            lora_rank: if mode == Mode::Qlora { 64 } else { 16 },
            lora_targets: LoraTargets::All,
            engine: None,
        }
    }

    /// The inference engine of a decoder: the one set, else the default for the weights.
    #[must_use]
    pub fn engine(&self) -> Engine {
        self.engine.unwrap_or_else(|| Engine::default_for(self.weights))
    }

    /// The inference engine for `spec`: the one set; else the default for the weights for an
    /// autoregressive decoder, and plain PyTorch for encoders, CNNs, diffusion pipelines and
    /// bare parameter counts (the LLM serving engines do not run them).
    #[must_use]
    pub fn engine_for(&self, spec: &super::ModelSpec) -> Engine {
        match self.engine {
            Some(e) => e,
            None if spec.is_decoder() => Engine::default_for(self.weights),
            None => Engine::PyTorch,
        }
    }
}

/// A workload that cannot be evaluated as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkloadError {
    #[error("the GPU count must be at least 1")]
    NoGpus,
    #[error(
        "--tp {tp} × --pp {pp} = {product} does not divide the {gpus} GPU(s); the data-parallel degree is GPUs / (tp × pp)"
    )]
    Layout { tp: u32, pp: u32, product: u64, gpus: u32 },
    #[error("--batch and --context must be at least 1")]
    EmptyBatch,
    #[error("ZeRO stage {0} does not exist; use 0, 1, 2 or 3")]
    ZeroStage(u8),
    #[error("--offload {0} needs ZeRO ({1})")]
    Offload(&'static str, &'static str),
    #[error("{weights} weights cannot be trained in full; use fp32, bf16 or fp16 (or LoRA/QLoRA on a quantized base)")]
    TrainWeights { weights: WeightType },
    #[error("LoRA cannot train on {weights} (a llama.cpp inference format); use a 16-bit, fp8, int8 or int4/nf4 base")]
    LoraWeights { weights: WeightType },
    #[error("QLoRA uses a 4-bit base: --weights nf4 (or int4), not {weights}")]
    QloraWeights { weights: WeightType },
    #[error(
        "{mode} needs the model's layers (LoRA adapters attach to them); give --layers, --hidden and --heads or pick a catalog transformer"
    )]
    NeedsArchitecture { mode: Mode },
    #[error("tensor parallelism splits attention heads: --tp {tp} must divide the {heads} heads")]
    TensorParallel { tp: u32, heads: u32 },
    #[error("--pp {pp} is more than the model's {layers} layers")]
    PipelineParallel { pp: u32, layers: u32 },
    #[error(
        "tensor and pipeline parallelism need a layer description; this model has measured figures only, so use data parallelism (--tp 1 --pp 1)"
    )]
    MeasuredParallel,
    #[error("--lora-rank must be at least 1")]
    LoraRank,
    #[error("{engine} cannot run {weights} weights; pick another --engine or --weights")]
    EngineWeights { engine: Engine, weights: WeightType },
}
