//! A model that is not in the catalog, given by its parameter count and the shape flags of
//! `rigplan fit` (`--params --layers --hidden --heads`, refined by `--kv-heads --head-dim
//! --ffn --vocab --experts --active-experts --kv-lora-rank --rope-dim`).
//!
//! One builder turns the flags into a [`Transformer`] for `rigplan fit` and for the advisor,
//! and [`CustomArch::flags`] writes them back, so that a figure the advisor shows for a custom
//! model is reproduced by `rigplan fit` with the flags it prints. The defaults are the ones a
//! `config.json` leaves implicit: without `--ffn` a plain 4 × hidden GELU FFN (GPT-2,
//! Radford et al. 2019), with it a gated (SwiGLU) FFN of that width (Touvron et al. 2023,
//! LLaMA §2.2); experts without shared experts or dense layers; MLA with the head width as
//! its no-RoPE and value head width (DeepSeek-V2, DeepSeek-AI 2024, §2.1).

use super::ModelSpec;
use crate::core::catalog::{FfnKind, Mla, Moe, NormKind, Role, Transformer};
use serde::Serialize;
use std::fmt::Write as _;

/// A custom architecture, as the flags give it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CustomArch {
    /// Total parameters as stated (the model card's count).
    pub params: u64,
    pub layers: u32,
    pub hidden: u32,
    pub heads: u32,
    pub kv_heads: Option<u32>,
    pub head_dim: Option<u32>,
    /// Width of a gated FFN; `None` is a 4 × hidden plain FFN.
    pub ffn: Option<u32>,
    pub vocab: Option<u32>,
    pub experts: Option<u32>,
    pub active_experts: Option<u32>,
    pub kv_lora_rank: Option<u32>,
    pub rope_dim: Option<u32>,
}

impl CustomArch {
    /// The flags of a transformer's shape (a starting point for a custom model: the catalog
    /// model the user had chosen). What the flags cannot say (tied embeddings, biases, sliding
    /// windows, shared experts) is left out.
    #[must_use]
    pub fn like(params: u64, t: &Transformer) -> Self {
        Self {
            params,
            layers: t.layers,
            hidden: t.hidden,
            heads: t.heads,
            kv_heads: t.kv_heads,
            head_dim: t.head_dim,
            ffn: (t.ffn_kind == FfnKind::Gated).then_some(t.ffn),
            vocab: (t.vocab > 0).then_some(t.vocab),
            experts: t.moe.map(|m| m.experts),
            active_experts: t.moe.map(|m| m.active_experts),
            kv_lora_rank: t.mla.map(|m| m.kv_lora_rank),
            rope_dim: t.mla.map(|m| m.rope_head_dim),
        }
    }

    /// The name figures are shown under: "7,000,000,000 parameters", as `rigplan fit` says.
    #[must_use]
    pub fn name(&self) -> String {
        #[expect(clippy::cast_precision_loss, reason = "a parameter count for display")]
        let n = self.params as f64;
        format!("{} parameters", crate::core::units::format_thousands(n, 0))
    }

    /// The transformer the flags describe, for sequences of up to `context` tokens (a custom
    /// architecture states no maximum; the requested context is its own limit).
    ///
    /// # Errors
    /// Flags that go together given alone, or a shape the transformer model finds
    /// inconsistent (heads that do not divide, zero sizes), in words.
    pub fn transformer(&self, context: u32) -> Result<Transformer, String> {
        let hidden = self.hidden;
        let moe = match (self.experts, self.active_experts) {
            (Some(experts), Some(active_experts)) => Some(Moe {
                experts,
                active_experts,
                shared_experts: 0,
                expert_ffn: self.ffn.unwrap_or(hidden.saturating_mul(4)),
                dense_layers: 0,
            }),
            (None, None) => None,
            _ => return Err("--experts and --active-experts go together".to_owned()),
        };
        let mla = match (self.kv_lora_rank, self.rope_dim) {
            (Some(kv_lora_rank), Some(rope)) => {
                let d = self.head_dim.unwrap_or_else(|| hidden.checked_div(self.heads).unwrap_or(0));
                Some(Mla { q_lora_rank: None, kv_lora_rank, qk_nope_head_dim: d, rope_head_dim: rope, v_head_dim: d })
            }
            (None, None) => None,
            _ => return Err("--kv-lora-rank and --rope-dim go together (MLA)".to_owned()),
        };
        let t = Transformer {
            role: Role::Decoder,
            layers: self.layers,
            hidden,
            heads: self.heads,
            kv_heads: self.kv_heads,
            head_dim: self.head_dim,
            ffn: self.ffn.unwrap_or(hidden.saturating_mul(4)),
            ffn_kind: if self.ffn.is_some() { FfnKind::Gated } else { FfnKind::Plain },
            vocab: self.vocab.unwrap_or(0),
            max_context: context,
            tied_embeddings: false,
            norm: NormKind::RmsNorm,
            linear_biases: false,
            qkv_bias: false,
            qk_norm: false,
            learned_positions: false,
            extra_params: 0,
            sliding_window: None,
            sliding_layers: None,
            kv_heads_total: None,
            attention_layers: None,
            moe,
            mla,
        };
        let problems = t.problems();
        if problems.is_empty() {
            Ok(t)
        } else {
            Err(format!("the architecture flags are inconsistent: {}", problems.join("; ")))
        }
    }

    /// The model to size, for sequences of up to `context` tokens.
    ///
    /// # Errors
    /// As [`Self::transformer`], and a zero parameter count.
    pub fn spec(&self, context: u32) -> Result<ModelSpec, String> {
        if self.params == 0 {
            return Err("--params must be a positive count".to_owned());
        }
        Ok(ModelSpec::custom(self.params, self.transformer(context)?))
    }

    /// The `rigplan fit` flags that describe this model.
    #[must_use]
    pub fn flags(&self) -> String {
        let mut out = format!(
            "--params {} --layers {} --hidden {} --heads {}",
            self.params, self.layers, self.hidden, self.heads
        );
        let optional = [
            ("--kv-heads", self.kv_heads),
            ("--head-dim", self.head_dim),
            ("--ffn", self.ffn),
            ("--vocab", self.vocab),
            ("--experts", self.experts),
            ("--active-experts", self.active_experts),
            ("--kv-lora-rank", self.kv_lora_rank),
            ("--rope-dim", self.rope_dim),
        ];
        for (flag, value) in optional {
            if let Some(v) = value {
                let _ = write!(out, " {flag} {v}");
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::catalog::Catalog;

    /// Llama 3.1 8B's config.json (hidden 4096, 32 layers, 32 heads, 8 KV heads, SwiGLU FFN
    /// 14336, vocabulary 128256) as flags: the same transformer as the catalog's, context
    /// aside, so custom figures agree with the catalog model's.
    #[test]
    fn llama_3_1_8b_as_flags_is_the_catalog_transformer() {
        let arch = CustomArch {
            params: 8_030_261_248,
            layers: 32,
            hidden: 4096,
            heads: 32,
            kv_heads: Some(8),
            ffn: Some(14_336),
            vocab: Some(128_256),
            ..CustomArch::default()
        };
        let t = arch.transformer(4096).unwrap();
        let catalog = Catalog::embedded().unwrap();
        let llama = catalog.models.get("meta-llama-3.1-8b").unwrap().transformer().copied().unwrap();
        assert_eq!((t.layers, t.hidden, t.heads, t.kv_heads, t.ffn, t.vocab), (32, 4096, 32, Some(8), 14_336, 128_256));
        assert_eq!(t.ffn_kind, llama.ffn_kind);
        assert_eq!(t.kv_heads, llama.kv_heads);
        assert_eq!(
            arch.flags(),
            "--params 8030261248 --layers 32 --hidden 4096 --heads 32 --kv-heads 8 --ffn 14336 --vocab 128256"
        );
        assert_eq!(arch.name(), "8,030,261,248 parameters");
        let llama_model = catalog.models.get("meta-llama-3.1-8b").unwrap();
        assert_eq!(CustomArch::like(8_030_261_248, &llama), arch, "the catalog shape as flags: {}", llama_model.name);
    }

    #[test]
    fn flags_that_go_together_say_so() {
        let base = CustomArch { params: 1, layers: 2, hidden: 64, heads: 4, ..CustomArch::default() };
        assert!(CustomArch { experts: Some(8), ..base }.transformer(128).unwrap_err().contains("--active-experts"));
        assert!(CustomArch { rope_dim: Some(8), ..base }.transformer(128).unwrap_err().contains("MLA"));
        assert!(CustomArch { heads: 0, ..base }.transformer(128).is_err());
        assert!(CustomArch { params: 0, ..base }.spec(128).is_err());
    }
}
