//! Why the advisor proposes what it proposes, in words: the constraint that binds each front
//! build (why not fewer GPUs, why not more, what the budget rules out), why nothing meets a
//! requirement, and why a part the user names is not on the front.
//!
//! Reasons are typed values with language-neutral parameters (names, counts, formatted
//! amounts); [`Reason::render`] writes them in English or Chinese from one table per
//! language, so the CLI and the app show the same reason in either.

use crate::core::i18n::{Lang, fill_named};
use serde::Serialize;

mod explain;

pub(crate) use explain::{failure, reasons, why_not};

/// A reason, with its parameters.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Reason {
    /// The cheapest build on the front.
    Cheapest,
    /// The fastest build on the front.
    Fastest,
    /// Fewer GPUs do not hold the model.
    NeedsGpusForMemory {
        model: String,
        weights: String,
        gpus: u32,
        gpu: String,
        gib: String,
    },
    /// Fewer GPUs serve too few users at the per-user speed.
    NeedsGpusForUsers {
        model: String,
        fewer: u32,
        capacity: u32,
        users: u32,
        target: String,
    },
    /// Fewer GPUs decode too slowly for one user.
    NeedsGpusForSpeed {
        model: String,
        fewer: u32,
        per_user: String,
        target: String,
    },
    /// Fewer GPUs miss the training deadline.
    NeedsGpusForDeadline {
        model: String,
        fewer: u32,
        hours: String,
        deadline: String,
    },
    /// One more GPU per node would break the budget.
    BudgetCaps {
        more: u32,
        gpu: String,
        budget: String,
    },
    /// One more GPU per node would need more circuits than the site has.
    CircuitCaps {
        gpus: u32,
        needed: u64,
        available: u32,
    },
    /// One more GPU overloads the node's own circuit (the power analysis' finding).
    CircuitLimit {
        gpus: u32,
        /// The finding's code (its Chinese meaning comes from `analysis::codes`) and message.
        code: String,
        finding: String,
    },
    /// No node of the catalog takes one more GPU.
    PlatformCaps {
        more: u32,
        gpu: String,
        code: String,
        finding: String,
    },
    /// Faster GPUs that the budget rules out.
    BudgetRulesOut {
        gpus: String,
        cheapest: String,
        budget: String,
    },
    /// Nothing meets the requirement: the model does not fit the largest configuration.
    DoesNotFit {
        model: String,
        weights: String,
        gpus: u32,
        gpu: String,
        gib: String,
    },
    /// Nothing meets it: the users or the speed target are out of reach.
    TooFewUsers {
        model: String,
        capacity: u32,
        users: u32,
        target: String,
        gpus: u32,
        gpu: String,
    },
    TooSlow {
        model: String,
        per_user: String,
        target: String,
        gpus: u32,
        gpu: String,
    },
    MissesDeadline {
        model: String,
        hours: String,
        deadline: String,
        gpus: u32,
        gpu: String,
    },
    /// Nothing meets it: everything that runs the workloads is over budget.
    OverBudget {
        gpus: u32,
        gpu: String,
        cost: String,
        budget: String,
    },
    /// Nothing meets it: the GPUs fit the budget but no compatible build of them does.
    NoneWithinBudget {
        gpus: u32,
        gpu: String,
        budget: String,
    },
    /// Nothing meets it: the build that runs the workloads fails a check.
    Blocked {
        gpus: u32,
        gpu: String,
        code: String,
        finding: String,
    },
    /// Nothing meets it: too few circuits.
    Circuits {
        gpus: u32,
        gpu: String,
        needed: u64,
        available: u32,
    },
    /// Nothing meets it: the TCO ceiling.
    TcoOver {
        gpus: u32,
        gpu: String,
        owned: String,
        ceiling: String,
    },
    /// No configuration at all (empty pools: filters or prices).
    NoParts,
    /// The mode does not apply to the model (LoRA of a model without transformer layers).
    NotApplicable {
        model: String,
    },
    /// The GPU's tensor units lack the workload's precision (fp8 on an A100).
    LacksPrecision {
        model: String,
        precision: String,
        gpu: String,
    },
    /// A named part is on the front.
    OnFront {
        rank: usize,
    },
    /// A named part's best build is dominated by a front build.
    Dominated {
        rank: usize,
        extra: String,
    },
    /// A named part's best build is past the front members shown ([`super::MAX_FRONT`]).
    NotShown {
        shown: usize,
        total: usize,
    },
    /// A named part is excluded by the filters, has no price, or does not exist.
    Excluded,
}

/// The English and Chinese templates of a reason.
fn templates(r: &Reason) -> (&'static str, &'static str) {
    match r {
        Reason::Cheapest => ("the cheapest build on the front", "前沿中最便宜的配置"),
        Reason::Fastest => ("the fastest build on the front", "前沿中最快的配置"),
        Reason::NeedsGpusForMemory { .. } => (
            "{model} at {weights} needs at least {gpus} × {gpu} ({gib} GiB each)",
            "{model}（{weights}）至少需要 {gpus} × {gpu}（每块 {gib} GiB 显存）",
        ),
        Reason::NeedsGpusForUsers { .. } => (
            "with {fewer_gpus}, only {capacity} users of {model} get {target} tokens/s each; {users} are asked for",
            "{fewer} 块 GPU 运行 {model} 时，每用户 {target} tokens/s 只能服务 {capacity} 个并发用户，需求为 {users} 个",
        ),
        Reason::NeedsGpusForSpeed { .. } => (
            "on {fewer_gpus} one user of {model} gets {per_user} tokens/s, below the {target} asked for",
            "{fewer} 块 GPU 运行 {model} 时单用户仅 {per_user} tokens/s，低于要求的 {target}",
        ),
        Reason::NeedsGpusForDeadline { .. } => (
            "on {fewer_gpus} training {model} takes {hours} h, past the {deadline} h deadline",
            "{fewer} 块 GPU 训练 {model} 需 {hours} 小时，超过 {deadline} 小时的期限",
        ),
        Reason::BudgetCaps { .. } => (
            "the budget of {budget} stops at this count: {more} × {gpu} costs more",
            "预算 {budget} 限制了显卡数量：{more} × {gpu} 超出预算",
        ),
        Reason::CircuitCaps { .. } => (
            "the circuits cap the node at {gpus} cards: one more needs {needed} circuits, {available} are available",
            "供电电路把单节点限制在 {gpus} 块卡：再加一块需要 {needed} 路电路，现有 {available} 路",
        ),
        Reason::CircuitLimit { .. } => (
            "the circuit caps the node at {gpus} cards: with one more, {finding}",
            "供电电路把单节点限制在 {gpus} 块卡：再加一块，{finding_zh}",
        ),
        Reason::PlatformCaps { .. } => (
            "no node of the catalog takes {more} × {gpu}: {finding}",
            "部件库中没有能容纳 {more} × {gpu} 的节点：{finding_zh}",
        ),
        Reason::BudgetRulesOut { .. } => (
            "the budget of {budget} rules out {gpus} (from {cheapest} for the GPUs alone)",
            "预算 {budget} 排除了 {gpus}（仅显卡就需 {cheapest} 起）",
        ),
        Reason::DoesNotFit { .. } => (
            "{model} at {weights} does not fit even {gpus} × {gpu} ({gib} GiB each), the largest configuration considered",
            "{model}（{weights}）连 {gpus} × {gpu}（每块 {gib} GiB）都放不下，这已是考虑的最大配置",
        ),
        Reason::TooFewUsers { .. } => (
            "{gpus} × {gpu} serves at most {capacity} users of {model} at {target} tokens/s each; {users} are asked for",
            "{gpus} × {gpu} 运行 {model} 时，每用户 {target} tokens/s 最多服务 {capacity} 个并发用户，需求为 {users} 个",
        ),
        Reason::TooSlow { .. } => (
            "{gpus} × {gpu} decodes {model} at {per_user} tokens/s for one user, below the {target} asked for",
            "{gpus} × {gpu} 运行 {model} 单用户仅 {per_user} tokens/s，低于要求的 {target}",
        ),
        Reason::MissesDeadline { .. } => (
            "{gpus} × {gpu} trains {model} in {hours} h, past the {deadline} h deadline",
            "{gpus} × {gpu} 训练 {model} 需 {hours} 小时，超过 {deadline} 小时的期限",
        ),
        Reason::OverBudget { .. } => (
            "the cheapest configuration that could run the workloads, {gpus} × {gpu}, costs {cost}, over the budget of {budget}",
            "能运行这些负载的最便宜配置 {gpus} × {gpu} 需 {cost}，超出预算 {budget}",
        ),
        Reason::NoneWithinBudget { .. } => (
            "{gpus} × {gpu} fit the budget of {budget}, but no compatible build around them does",
            "{gpus} × {gpu} 本身在预算 {budget} 之内，但配齐兼容的整机后超出预算",
        ),
        Reason::NotShown { .. } => (
            "its best build is not among the {shown} builds shown of the {total} on the front; narrow the requirement to see it",
            "其最佳配置不在前沿 {total} 个配置中显示的前 {shown} 个之内；请收窄需求后查看",
        ),
        Reason::Blocked { .. } => (
            "no compatible build of {gpus} × {gpu} passes the checks: {finding}",
            "{gpus} × {gpu} 找不到通过检查的兼容配置：{finding_zh}",
        ),
        Reason::Circuits { .. } => (
            "{gpus} × {gpu} needs {needed} circuits at full load; the site has {available}",
            "{gpus} × {gpu} 满载需要 {needed} 路电路，现场只有 {available} 路",
        ),
        Reason::TcoOver { .. } => (
            "{gpus} × {gpu} costs {owned} to own over the horizon, over the TCO ceiling of {ceiling}",
            "{gpus} × {gpu} 在规划期内的总拥有成本为 {owned}，超过上限 {ceiling}",
        ),
        Reason::NotApplicable { .. } => (
            "{model} has no transformer layers for LoRA; choose inference or full training",
            "{model} 没有可用于 LoRA 的 Transformer 层；请选择推理或全参数训练",
        ),
        Reason::LacksPrecision { .. } => (
            "{gpu} has no {precision} tensor units, so it cannot run {model} in {precision}",
            "{gpu} 没有 {precision} Tensor 单元，无法以 {precision} 运行 {model}",
        ),
        Reason::NoParts => (
            "the catalog has no priced part the requirement allows for a node of this form",
            "部件库中没有符合要求且有价格的该形态部件",
        ),
        Reason::OnFront { .. } => ("it is on the front, ranked {rank}", "已在前沿中，排名第 {rank}"),
        Reason::Dominated { .. } => (
            "its cheapest build costs {extra} more than #{rank} and is no faster",
            "其最便宜的配置比第 {rank} 名贵 {extra}，且不更快",
        ),
        Reason::Excluded => (
            "it is excluded by the filters, has no price, or is not in the catalog",
            "它被筛选条件排除、没有价格，或不在部件库中",
        ),
    }
}

impl Reason {
    /// The reason in a language.
    #[must_use]
    pub fn render(&self, lang: Lang) -> String {
        let (en, zh) = templates(self);
        let template = if lang == Lang::ZhCn { zh } else { en };
        let params = self.params();
        let args: Vec<(&str, &str)> = params.iter().map(|(k, v)| (*k, v.as_str())).collect();
        fill_named(template, &args)
    }

    /// The parameters by name, as text.
    #[must_use]
    pub fn params(&self) -> Vec<(&'static str, String)> {
        let mut params = self.own_params();
        if let Some((_, fewer)) = params.iter().find(|(k, _)| *k == "fewer") {
            let noun = if fewer == "1" { "GPU" } else { "GPUs" };
            let text = format!("{fewer} {noun}");
            params.push(("fewer_gpus", text));
        }
        // A finding in Chinese: the registry's meaning of its code, with the code to look up
        // (the message itself, with the build's figures, is English until the rules' messages
        // are templates too); the English message when the code is not registered.
        if let Some((_, code)) = params.iter().find(|(k, _)| *k == "code") {
            let finding = params.iter().find(|(k, _)| *k == "finding").map(|(_, v)| v.clone()).unwrap_or_default();
            let zh =
                crate::core::analysis::codes::meaning(code, Lang::ZhCn).map_or(finding, |m| format!("{m} ({code})"));
            params.push(("finding_zh", zh));
        }
        params
    }

    /// The fields of the reason by name.
    fn own_params(&self) -> Vec<(&'static str, String)> {
        match self {
            Self::Cheapest | Self::Fastest | Self::NoParts | Self::Excluded => Vec::new(),
            Self::NeedsGpusForMemory { model, weights, gpus, gpu, gib }
            | Self::DoesNotFit { model, weights, gpus, gpu, gib } => vec![
                ("model", model.clone()),
                ("weights", weights.clone()),
                ("gpus", gpus.to_string()),
                ("gpu", gpu.clone()),
                ("gib", gib.clone()),
            ],
            Self::NeedsGpusForUsers { model, fewer, capacity, users, target } => vec![
                ("model", model.clone()),
                ("fewer", fewer.to_string()),
                ("capacity", capacity.to_string()),
                ("users", users.to_string()),
                ("target", target.clone()),
            ],
            Self::NeedsGpusForSpeed { model, fewer, per_user, target } => vec![
                ("model", model.clone()),
                ("fewer", fewer.to_string()),
                ("per_user", per_user.clone()),
                ("target", target.clone()),
            ],
            Self::NeedsGpusForDeadline { model, fewer, hours, deadline } => vec![
                ("model", model.clone()),
                ("fewer", fewer.to_string()),
                ("hours", hours.clone()),
                ("deadline", deadline.clone()),
            ],
            Self::BudgetCaps { more, gpu, budget } => {
                vec![("more", more.to_string()), ("gpu", gpu.clone()), ("budget", budget.clone())]
            }
            Self::CircuitCaps { gpus, needed, available } => {
                vec![("gpus", gpus.to_string()), ("needed", needed.to_string()), ("available", available.to_string())]
            }
            Self::CircuitLimit { gpus, code, finding } => {
                vec![("gpus", gpus.to_string()), ("code", code.clone()), ("finding", finding.clone())]
            }
            Self::PlatformCaps { more, gpu, code, finding } => {
                vec![
                    ("more", more.to_string()),
                    ("gpu", gpu.clone()),
                    ("code", code.clone()),
                    ("finding", finding.clone()),
                ]
            }
            Self::BudgetRulesOut { gpus, cheapest, budget } => {
                vec![("gpus", gpus.clone()), ("cheapest", cheapest.clone()), ("budget", budget.clone())]
            }
            Self::TooFewUsers { model, capacity, users, target, gpus, gpu } => vec![
                ("model", model.clone()),
                ("capacity", capacity.to_string()),
                ("users", users.to_string()),
                ("target", target.clone()),
                ("gpus", gpus.to_string()),
                ("gpu", gpu.clone()),
            ],
            Self::TooSlow { model, per_user, target, gpus, gpu } => vec![
                ("model", model.clone()),
                ("per_user", per_user.clone()),
                ("target", target.clone()),
                ("gpus", gpus.to_string()),
                ("gpu", gpu.clone()),
            ],
            Self::MissesDeadline { model, hours, deadline, gpus, gpu } => vec![
                ("model", model.clone()),
                ("hours", hours.clone()),
                ("deadline", deadline.clone()),
                ("gpus", gpus.to_string()),
                ("gpu", gpu.clone()),
            ],
            Self::OverBudget { gpus, gpu, cost, budget } => {
                vec![
                    ("gpus", gpus.to_string()),
                    ("gpu", gpu.clone()),
                    ("cost", cost.clone()),
                    ("budget", budget.clone()),
                ]
            }
            Self::NoneWithinBudget { gpus, gpu, budget } => {
                vec![("gpus", gpus.to_string()), ("gpu", gpu.clone()), ("budget", budget.clone())]
            }
            Self::NotShown { shown, total } => vec![("shown", shown.to_string()), ("total", total.to_string())],
            Self::Blocked { gpus, gpu, code, finding } => {
                vec![
                    ("gpus", gpus.to_string()),
                    ("gpu", gpu.clone()),
                    ("code", code.clone()),
                    ("finding", finding.clone()),
                ]
            }
            Self::Circuits { gpus, gpu, needed, available } => vec![
                ("gpus", gpus.to_string()),
                ("gpu", gpu.clone()),
                ("needed", needed.to_string()),
                ("available", available.to_string()),
            ],
            Self::TcoOver { gpus, gpu, owned, ceiling } => vec![
                ("gpus", gpus.to_string()),
                ("gpu", gpu.clone()),
                ("owned", owned.clone()),
                ("ceiling", ceiling.clone()),
            ],
            Self::OnFront { rank } => vec![("rank", rank.to_string())],
            Self::NotApplicable { model } => vec![("model", model.clone())],
            Self::LacksPrecision { model, precision, gpu } => {
                vec![("model", model.clone()), ("precision", precision.clone()), ("gpu", gpu.clone())]
            }
            Self::Dominated { rank, extra } => vec![("rank", rank.to_string()), ("extra", extra.clone())],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Reason, templates};
    use crate::core::i18n::{Lang, placeholders};

    /// One reason of every variant.
    fn every_variant() -> Vec<Reason> {
        let s = |x: &str| x.to_owned();
        vec![
            Reason::Cheapest,
            Reason::Fastest,
            Reason::NeedsGpusForMemory { model: s("M"), weights: s("bf16"), gpus: 2, gpu: s("G"), gib: s("80") },
            Reason::NeedsGpusForUsers { model: s("M"), fewer: 1, capacity: 3, users: 20, target: s("15.0") },
            Reason::NeedsGpusForSpeed { model: s("M"), fewer: 2, per_user: s("4.0"), target: s("15.0") },
            Reason::NeedsGpusForDeadline { model: s("M"), fewer: 4, hours: s("90"), deadline: s("24") },
            Reason::BudgetCaps { more: 3, gpu: s("G"), budget: s("1 USD") },
            Reason::CircuitCaps { gpus: 4, needed: 2, available: 1 },
            Reason::CircuitLimit { gpus: 4, code: s("circuit-overload"), finding: s("F") },
            Reason::PlatformCaps { more: 9, gpu: s("G"), code: s("gpu-bays-exceeded"), finding: s("F") },
            Reason::BudgetRulesOut { gpus: s("G, H"), cheapest: s("2 USD"), budget: s("1 USD") },
            Reason::DoesNotFit { model: s("M"), weights: s("bf16"), gpus: 8, gpu: s("G"), gib: s("24") },
            Reason::TooFewUsers { model: s("M"), capacity: 3, users: 20, target: s("15"), gpus: 8, gpu: s("G") },
            Reason::TooSlow { model: s("M"), per_user: s("4"), target: s("15"), gpus: 8, gpu: s("G") },
            Reason::MissesDeadline { model: s("M"), hours: s("90"), deadline: s("24"), gpus: 8, gpu: s("G") },
            Reason::OverBudget { gpus: 1, gpu: s("G"), cost: s("2 USD"), budget: s("1 USD") },
            Reason::Blocked { gpus: 1, gpu: s("G"), code: s("not-a-code"), finding: s("F") },
            Reason::Circuits { gpus: 1, gpu: s("G"), needed: 2, available: 1 },
            Reason::TcoOver { gpus: 1, gpu: s("G"), owned: s("3 USD"), ceiling: s("2 USD") },
            Reason::NoParts,
            Reason::NotApplicable { model: s("M") },
            Reason::LacksPrecision { model: s("M"), precision: s("FP8"), gpu: s("G") },
            Reason::OnFront { rank: 1 },
            Reason::Dominated { rank: 2, extra: s("5 USD") },
            Reason::NoneWithinBudget { gpus: 1, gpu: s("G"), budget: s("1 USD") },
            Reason::NotShown { shown: 40, total: 189 },
            Reason::Excluded,
        ]
    }

    /// Every placeholder of both languages' templates has a parameter, so no reason renders
    /// with a `{name}` left in it, in English or in Chinese.
    #[test]
    fn every_template_placeholder_has_a_parameter() {
        for r in every_variant() {
            let (en, zh) = templates(&r);
            let names: Vec<&str> = r.params().iter().map(|(k, _)| *k).collect();
            for template in [en, zh] {
                for p in placeholders(template) {
                    assert!(names.contains(&p), "{r:?}: {{{p}}} in {template:?} has no parameter");
                }
            }
            for lang in [Lang::En, Lang::ZhCn] {
                let text = r.render(lang);
                assert!(!text.contains('{') && !text.is_empty(), "{r:?} in {lang:?}: {text}");
            }
        }
    }

    /// A finding reads in Chinese by its code's registered meaning, and in English as the
    /// rule's message; an unregistered code falls back to the message.
    #[test]
    fn findings_read_in_the_reason_language() {
        let s = |x: &str| x.to_owned();
        let r = Reason::PlatformCaps {
            more: 9,
            gpu: s("H100"),
            code: s("gpu-bays-exceeded"),
            finding: s("Node: 9 GPUs but 8 bays"),
        };
        assert_eq!(r.render(Lang::En), "no node of the catalog takes 9 × H100: Node: 9 GPUs but 8 bays");
        assert_eq!(
            r.render(Lang::ZhCn),
            "部件库中没有能容纳 9 × H100 的节点：GPU 数量超过 GPU 服务器的双宽槽位 (gpu-bays-exceeded)"
        );
        let odd = Reason::Blocked { gpus: 1, gpu: s("G"), code: s("not-a-code"), finding: s("F") };
        assert_eq!(odd.render(Lang::ZhCn), "1 × G 找不到通过检查的兼容配置：F");
    }

    #[test]
    fn one_gpu_is_singular() {
        let r = Reason::NeedsGpusForUsers {
            model: "M".to_owned(),
            fewer: 1,
            capacity: 3,
            users: 20,
            target: "15.0".to_owned(),
        };
        assert_eq!(r.render(Lang::En), "with 1 GPU, only 3 users of M get 15.0 tokens/s each; 20 are asked for");
    }
}
