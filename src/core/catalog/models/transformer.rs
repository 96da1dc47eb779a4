//! What a transformer's configuration implies: parameter counts (total and active), KV cache
//! per token and per context, attention layers and windows.

use super::{FfnKind, NormKind, Transformer, validate_transformer};

impl Transformer {
    /// KV heads (equal to the attention heads without grouped-query attention).
    #[must_use]
    pub fn kv_heads(&self) -> u32 {
        self.kv_heads.unwrap_or(self.heads)
    }

    /// Per-head query/key dimension: the explicit `head_dim` where set, `nope + rope` for MLA,
    /// else `hidden / heads`.
    #[must_use]
    pub fn qk_head_dim(&self) -> u64 {
        if let Some(m) = self.mla {
            return u64::from(m.qk_nope_head_dim) + u64::from(m.rope_head_dim);
        }
        self.plain_head_dim()
    }

    /// Per-head value dimension.
    #[must_use]
    pub fn v_head_dim(&self) -> u64 {
        match self.mla {
            Some(m) => u64::from(m.v_head_dim),
            None => self.plain_head_dim(),
        }
    }

    fn plain_head_dim(&self) -> u64 {
        match self.head_dim {
            Some(d) => u64::from(d),
            None => u64::from(self.hidden).checked_div(u64::from(self.heads)).unwrap_or(0),
        }
    }

    /// Layers with attention (all of them unless the model is a hybrid).
    #[must_use]
    pub fn attention_layer_count(&self) -> u64 {
        u64::from(self.attention_layers.unwrap_or(self.layers).min(self.layers))
    }

    fn norm_params(&self) -> u128 {
        let h = u128::from(self.hidden);
        match self.norm {
            NormKind::RmsNorm => h,
            NormKind::LayerNorm => 2 * h,
        }
    }

    /// KV heads summed over the attention layers: `kv_heads_total` where the count differs by
    /// layer, else `kv_heads` in each of them.
    #[must_use]
    pub fn kv_heads_all_layers(&self) -> u64 {
        self.kv_heads_total
            .map_or_else(|| u64::from(self.kv_heads()).saturating_mul(self.attention_layer_count()), u64::from)
    }

    /// Parameters of the attention blocks of every attention layer: Q, K, V and output
    /// projections (or the MLA projections), their biases and Q/K norms. Q and output
    /// projections are the same in every layer; K and V follow the per-layer KV heads.
    #[must_use]
    pub fn attention_params(&self) -> u64 {
        saturate(self.attention_params_wide())
    }

    // The counts are computed in u128, where no product of the u32 dimensions can overflow,
    // and saturate to u64 at the public boundary; validation refuses a model whose total is
    // above [`MAX_PARAMS`], so a saturated count never reaches an analysis.
    fn attention_params_wide(&self) -> u128 {
        let h = u128::from(self.hidden);
        let a = u128::from(self.heads);
        let layers = u128::from(self.attention_layer_count());
        if let Some(m) = self.mla {
            let qk = u128::from(m.qk_nope_head_dim) + u128::from(m.rope_head_dim);
            let q = match m.q_lora_rank {
                // Down-projection, its RMSNorm, up-projection to every head's query.
                Some(r) => h * u128::from(r) + u128::from(r) + u128::from(r) * a * qk,
                None => h * a * qk,
            };
            let kv_lora = u128::from(m.kv_lora_rank);
            let kv_a = h * (kv_lora + u128::from(m.rope_head_dim)) + kv_lora;
            let kv_b = kv_lora * a * (u128::from(m.qk_nope_head_dim) + u128::from(m.v_head_dim));
            let o = a * u128::from(m.v_head_dim) * h;
            return layers * (q + kv_a + kv_b + o);
        }
        let d = u128::from(self.plain_head_dim());
        let q_out = a * d;
        let mut per_layer = 2 * h * q_out;
        // K and V projections of one KV head: `hidden × head_dim` each, with their biases.
        let mut per_kv_head = 2 * h * d;
        if self.linear_biases {
            per_layer += q_out + h;
            per_kv_head += 2 * d;
        } else if self.qkv_bias {
            per_layer += q_out;
            per_kv_head += 2 * d;
        }
        if self.qk_norm {
            per_layer += 2 * d;
        }
        layers * per_layer + u128::from(self.kv_heads_all_layers()) * per_kv_head
    }

    /// Parameters of one FFN of intermediate width `width`.
    #[must_use]
    pub fn ffn_params(&self, width: u32) -> u64 {
        saturate(self.ffn_params_wide(width))
    }

    fn ffn_params_wide(&self, width: u32) -> u128 {
        let h = u128::from(self.hidden);
        let f = u128::from(width);
        match self.ffn_kind {
            FfnKind::Gated => 3 * h * f,
            FfnKind::Plain => 2 * h * f + if self.linear_biases { f + h } else { 0 },
        }
    }

    /// Layers whose FFN is dense (all of them without MoE).
    #[must_use]
    pub fn dense_ffn_layers(&self) -> u64 {
        match self.moe {
            Some(m) => u64::from(m.dense_layers.min(self.layers)),
            None => u64::from(self.layers),
        }
    }

    /// Layers whose FFN is a mixture of experts.
    #[must_use]
    pub fn moe_layers(&self) -> u64 {
        u64::from(self.layers) - self.dense_ffn_layers()
    }

    /// Parameters of one MoE FFN counting `routed` routed experts, plus shared experts and the
    /// router.
    fn moe_ffn_params_wide(&self, routed: u32) -> u128 {
        let Some(m) = self.moe else { return 0 };
        let expert = self.ffn_params_wide(m.expert_ffn);
        (u128::from(routed) + u128::from(m.shared_experts)) * expert + u128::from(m.experts) * u128::from(self.hidden)
    }

    /// Parameters of the routed experts of every MoE layer (0 without experts): what an
    /// expert-only format such as gpt-oss's MXFP4 quantizes.
    #[must_use]
    pub fn routed_expert_params(&self) -> u64 {
        self.moe.map_or(0, |m| {
            self.moe_layers().saturating_mul(u64::from(m.experts)).saturating_mul(self.ffn_params(m.expert_ffn))
        })
    }

    /// Token embedding, untied output projection and learned position table.
    #[must_use]
    pub fn embedding_params(&self) -> u64 {
        saturate(self.embedding_params_wide())
    }

    fn embedding_params_wide(&self) -> u128 {
        let h = u128::from(self.hidden);
        let mut params = u128::from(self.vocab) * h;
        if !self.tied_embeddings {
            params += u128::from(self.vocab) * h;
        }
        if self.learned_positions {
            params += u128::from(self.max_context) * h;
        }
        params
    }

    fn params_with_routed(&self, routed: u32) -> u128 {
        let attention = self.attention_params_wide();
        let dense = u128::from(self.dense_ffn_layers()) * self.ffn_params_wide(self.ffn);
        let moe = u128::from(self.moe_layers()) * self.moe_ffn_params_wide(routed);
        let norms = (2 * u128::from(self.layers) + 1) * self.norm_params();
        attention + dense + moe + norms + self.embedding_params_wide() + u128::from(self.extra_params)
    }

    /// Total parameters computed from the configuration: blocks (attention, FFN or experts,
    /// two norms each), final norm, embeddings and `extra_params`; `u64::MAX` for a
    /// configuration beyond it (validation refuses any above [`MAX_PARAMS`]).
    #[must_use]
    pub fn total_params(&self) -> u64 {
        saturate(self.params_with_routed(self.moe.map_or(0, |m| m.experts)))
    }

    /// Parameters a token passes through: the routed experts replaced by the active ones.
    #[must_use]
    pub fn active_params(&self) -> u64 {
        saturate(self.params_with_routed(self.moe.map_or(0, |m| m.active_experts)))
    }

    /// Parameters that quantization methods such as GPTQ, AWQ, bitsandbytes NF4/int8 leave in
    /// 16-bit: embeddings, output projection, norms and biases (they quantize linear layers).
    #[must_use]
    pub fn unquantized_params(&self) -> u64 {
        let norms = (2 * u128::from(self.layers) + 1) * self.norm_params();
        saturate(self.embedding_params_wide() + norms + u128::from(self.extra_params))
    }

    /// What is wrong with this configuration, one sentence per problem (empty when valid).
    #[must_use]
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        validate_transformer(self, &mut |m| out.push(m));
        out
    }

    /// Cached elements per token per attention layer with `kv_heads` heads: `2 × kv_heads ×
    /// head_dim` (K and V), or for MLA the latent `kv_lora_rank + rope_head_dim` with no factor
    /// 2 (DeepSeek-V2 §2.1.2).
    #[must_use]
    pub fn kv_elements_per_token_per_layer(&self) -> u64 {
        self.kv_elements_of_heads(u64::from(self.kv_heads()))
    }

    fn kv_elements_of_heads(&self, heads: u64) -> u64 {
        match self.mla {
            Some(m) => u64::from(m.kv_lora_rank) + u64::from(m.rope_head_dim),
            None => heads.saturating_mul(2 * self.plain_head_dim()),
        }
    }

    /// Cached elements one token adds to the whole model while every attention layer still
    /// holds it (before any sliding window drops it): the sum over the attention layers, with
    /// per-layer KV heads where the model has them.
    #[must_use]
    pub fn kv_elements_per_token(&self) -> u64 {
        if self.mla.is_some() {
            return self.attention_layer_count().saturating_mul(self.kv_elements_per_token_per_layer());
        }
        self.kv_elements_of_heads(self.kv_heads_all_layers())
    }

    /// Attention layers whose cache a sliding window bounds (0 without a window).
    #[must_use]
    pub fn windowed_layers(&self) -> u64 {
        let layers = self.attention_layer_count();
        match self.sliding_window {
            None => 0,
            Some(_) => self.sliding_layers.map_or(layers, |n| u64::from(n).min(layers)),
        }
    }

    /// Tokens the average attention layer caches for a sequence of `tokens`, times the number
    /// of attention layers: `full × tokens + windowed × min(tokens, window)`. Dividing by the
    /// attention layers gives the average cached length.
    #[must_use]
    pub fn cached_layer_tokens(&self, tokens: u64) -> u64 {
        let windowed = self.windowed_layers();
        let full = self.attention_layer_count() - windowed;
        let window = self.sliding_window.map_or(tokens, |w| tokens.min(u64::from(w)));
        full.saturating_mul(tokens).saturating_add(windowed.saturating_mul(window))
    }

    /// Cached elements of one sequence of `tokens` tokens for the whole model: full-attention
    /// layers hold every token, windowed layers at most the window (the rolling buffer of
    /// Jiang et al. 2023 §2; vLLM's hybrid KV cache manager frees blocks outside the window).
    /// With per-layer KV heads, windowed and full layers are taken at the average width.
    #[must_use]
    pub fn kv_elements_for(&self, tokens: u64) -> u64 {
        let layers = self.attention_layer_count();
        if layers == 0 {
            return 0;
        }
        let product = u128::from(self.kv_elements_per_token()) * u128::from(self.cached_layer_tokens(tokens));
        u64::try_from(product / u128::from(layers)).unwrap_or(u64::MAX)
    }
}

/// A count computed in u128, as u64 (`u64::MAX` beyond it).
fn saturate(count: u128) -> u64 {
    u64::try_from(count).unwrap_or(u64::MAX)
}
