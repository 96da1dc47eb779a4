//! The fit matrix's words in English and Simplified Chinese: the workload columns' long
//! descriptions, the cells' and matrices' notes, and the smallest changes that would fit.

crate::templates! {
    pub(crate) TEMPLATES;
    WORKLOAD_INFERENCE_BF16 "" {
        en: "Inference, bf16 weights, fp16 KV cache, 4096-token context, batch 1",
        zh: "推理，bf16 权重，fp16 KV 缓存，4096 token 上下文，批大小 1",
    }
    WORKLOAD_INFERENCE_Q4KM "" {
        en: "Inference, GGUF Q4_K_M weights, fp16 KV cache, 8192-token context, batch 1",
        zh: "推理，GGUF Q4_K_M 权重，fp16 KV 缓存，8192 token 上下文，批大小 1",
    }
    WORKLOAD_LORA "" {
        en: "LoRA r=16 on all linear layers, bf16 base, 2048 tokens, batch 1, gradient checkpointing",
        zh: "LoRA 微调，所有线性层 r=16，bf16 基座，2048 token，批大小 1，梯度检查点",
    }
    WORKLOAD_QLORA "" {
        en: "QLoRA (NF4 base) r=64 on all linear layers, 2048 tokens, batch 1, gradient checkpointing",
        zh: "QLoRA 微调（NF4 基座），所有线性层 r=64，2048 token，批大小 1，梯度检查点",
    }
    WORKLOAD_FULL_FINETUNE "" {
        en: "Full fine-tune, bf16 + AdamW, ZeRO-3 over all GPUs, 2048 tokens, batch 1 per GPU, gradient checkpointing",
        zh: "全参数微调，bf16 + AdamW，全部 GPU 上 ZeRO-3，2048 token，每 GPU 批大小 1，梯度检查点",
    }
}

crate::templates! {
    pub(crate) NOTES;
    CELL_GGUF_DECODERS_ONLY "" {
        en: "GGUF inference applies to decoder language models",
        zh: "GGUF 推理只适用于解码器语言模型",
    }
    CELL_LORA_NEEDS_LAYERS "" {
        en: "LoRA needs a transformer's layers",
        zh: "LoRA 需要 Transformer 的层结构",
    }
    CELL_INFERENCE_NEEDS "" {
        en: "needs {gpus} GPUs of this type (TP {tp} × PP {pp})",
        zh: "需要 {gpus} 块这种 GPU（TP {tp} × PP {pp}）",
    }
    CELL_TRAINING_NEEDS "" {
        en: "needs {gpus} GPUs of this type with ZeRO-3",
        zh: "需要 {gpus} 块这种 GPU 并启用 ZeRO-3",
    }
    CELL_NOT_EVEN_MAX "" {
        en: "does not fit even {max} GPUs of this type",
        zh: "即使用 {max} 块这种 GPU 也显存不足",
    }
    CELL_NO_LAYOUT "" {
        en: "no valid layout on these GPUs",
        zh: "这些 GPU 上没有可行的并行布局",
    }
    MATRIX_SHARED_MEMORY "" {
        en: "the {gpu} shares its {gib} GiB with the CPU and the operating system, so less than that is free for models",
        zh: "{gpu} 的 {gib} GiB 与 CPU 和操作系统共享，可供模型使用的显存少于此数",
    }
    MATRIX_MIXED_GPUS "" {
        en: "the node mixes GPU types: this matrix is its {count} × {gpu}, and each other type has its own (a model is not split across GPU types)",
        zh: "该节点混用了多种 GPU：本矩阵按其中的 {count} × {gpu} 计算，其他型号各有自己的矩阵（模型不会跨 GPU 型号切分）",
    }
    CHANGE_BATCH "" {
        en: "reduce --batch from {from} to {to}",
        zh: "把 --batch 从 {from} 减到 {to}",
    }
    CHANGE_CONTEXT "" {
        en: "shorten --context from {from} to {to}",
        zh: "把 --context 从 {from} 缩短到 {to}",
    }
    CHANGE_RECOMPUTE "" {
        en: "use --recompute {mode}",
        zh: "启用重计算 --recompute {mode}",
    }
    CHANGE_KV "" {
        en: "store the KV cache as --kv {kv}",
        zh: "KV 缓存改用 --kv {kv} 存储",
    }
    CHANGE_OPTIMIZER "" {
        en: "use 8-bit AdamW (--optimizer adamw8bit)",
        zh: "改用 8-bit AdamW（--optimizer adamw8bit）",
    }
    CHANGE_GRADIENTS "" {
        en: "keep gradients in 16-bit (--grad-dtype fp16)",
        zh: "梯度改用 16 位保存（--grad-dtype fp16）",
    }
    CHANGE_QUANTIZE "" {
        en: "quantize the weights to --weights {weights}",
        zh: "把权重量化为 --weights {weights}",
    }
    CHANGE_MIXED_PRECISION "" {
        en: "train in mixed precision (--weights bf16)",
        zh: "改用混合精度训练（--weights bf16）",
    }
    CHANGE_ZERO "" {
        en: "use ZeRO stage {zero} over the {dp} data-parallel GPUs (--zero {zero})",
        zh: "在 {dp} 块数据并行的 GPU 上使用 ZeRO 阶段 {zero}（--zero {zero}）",
    }
    CHANGE_OFFLOAD "" {
        en: "offload optimizer states to host memory (--zero {zero} --offload optimizer)",
        zh: "把优化器状态卸载到主机内存（--zero {zero} --offload optimizer）",
    }
    CHANGE_SPREAD "" {
        en: "spread the model over {what}",
        zh: "把模型分布到 {what}",
    }
    SPREAD_TP_PP "" {
        en: "{gpus} GPUs (--gpus {gpus} --tp {tp} --pp {pp})",
        zh: "{gpus} 块 GPU 上（--gpus {gpus} --tp {tp} --pp {pp}）",
    }
    SPREAD_TP "" {
        en: "{tp} GPUs with tensor parallelism (--gpus {tp} --tp {tp})",
        zh: "{tp} 块 GPU 上做张量并行（--gpus {tp} --tp {tp}）",
    }
    CHANGE_GPUS "" {
        en: "use {gpus} GPUs with ZeRO-3 (--gpus {gpus} --zero 3)",
        zh: "使用 {gpus} 块 GPU 并启用 ZeRO-3（--gpus {gpus} --zero 3）",
    }
    CHANGE_QLORA "" {
        en: "fine-tune with QLoRA instead (--mode qlora --weights nf4)",
        zh: "改用 QLoRA 微调（--mode qlora --weights nf4）",
    }
}
