//! The model side of a memory estimate: a catalog model or a bare parameter count, its
//! transformer shape where known, and the tensor × pipeline layout over the GPUs.

use crate::core::catalog::{Architecture, Model, Role, Transformer};
use serde::Serialize;
use std::fmt;

/// Activation and FLOP figures of a measured (non-transformer) model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredShape {
    pub train_activation_bytes_per_sample: u64,
    pub inference_activation_bytes_per_sample: u64,
    pub forward_flops_per_sample: f64,
    /// True for diffusion pipelines, whose "sample" is one denoising pass: an image takes
    /// many of them.
    pub denoiser: bool,
}

/// What rigplan knows of a model's structure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    Transformer(Transformer),
    Measured(MeasuredShape),
    /// A bare parameter count: model states only.
    ParamsOnly,
}

/// The model being sized: parameter counts and structure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelSpec {
    pub total_params: u64,
    /// Parameters used per token (MoE: active experts only).
    pub active_params: u64,
    pub shape: Shape,
}

impl ModelSpec {
    /// A catalog model.
    #[must_use]
    pub fn from_model(model: &Model) -> Self {
        let shape = match &model.architecture {
            Architecture::Transformer(t) => Shape::Transformer(*t),
            Architecture::Measured(m) => Shape::Measured(MeasuredShape {
                train_activation_bytes_per_sample: m.train_activation_bytes_per_sample,
                inference_activation_bytes_per_sample: m.inference_activation_bytes_per_sample,
                forward_flops_per_sample: m.forward_flops_per_sample,
                denoiser: model.task == crate::core::catalog::ModelTask::ImageGeneration,
            }),
        };
        Self { total_params: model.total_params(), active_params: model.active_params(), shape }
    }

    /// A parameter count without an architecture (`rigplan fit --params N`).
    #[must_use]
    pub fn params_only(params: u64) -> Self {
        Self { total_params: params, active_params: params, shape: Shape::ParamsOnly }
    }

    /// A stated parameter count with an architecture for activations and KV cache; the
    /// active count removes the inactive experts the architecture implies.
    #[must_use]
    pub fn custom(params: u64, transformer: Transformer) -> Self {
        let inactive = transformer.total_params().saturating_sub(transformer.active_params());
        Self {
            total_params: params,
            active_params: params.saturating_sub(inactive).max(1),
            shape: Shape::Transformer(transformer),
        }
    }

    #[must_use]
    pub fn transformer(&self) -> Option<&Transformer> {
        match &self.shape {
            Shape::Transformer(t) => Some(t),
            _ => None,
        }
    }

    /// True for autoregressive decoders (they have a KV cache and decode speed).
    #[must_use]
    pub fn is_decoder(&self) -> bool {
        self.transformer().is_some_and(|t| t.role == Role::Decoder)
    }

    /// Parameters kept in 16-bit by weight-only quantization (embeddings, norms), where the
    /// architecture is known.
    #[must_use]
    pub fn unquantized_params(&self) -> u64 {
        self.transformer().map_or(0, |t| t.unquantized_params().min(self.total_params))
    }

    /// Sequence length a workload's `context` means for this model: encoders with a fixed
    /// input (ViT) use their own length, others the requested context.
    #[must_use]
    pub fn sequence_len(&self, context: u32) -> u64 {
        match self.transformer() {
            Some(t) if t.role == Role::Encoder => u64::from(context.min(t.max_context)),
            _ => u64::from(context),
        }
    }
}

/// How the GPUs are split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    pub tp: u32,
    pub pp: u32,
    /// Data-parallel degree = GPUs / (tp × pp).
    pub dp: u32,
}

impl Layout {
    #[must_use]
    pub fn gpus(self) -> u32 {
        self.tp.saturating_mul(self.pp).saturating_mul(self.dp)
    }
}

impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TP {} × PP {} × DP {}", self.tp, self.pp, self.dp)
    }
}
