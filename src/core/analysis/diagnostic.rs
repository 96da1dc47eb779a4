//! Findings about a build: severity, a stable code, a sentence a user understands, the parts
//! involved and a suggested fix.

use crate::core::build::Location;
use crate::core::catalog::PartId;
use crate::core::i18n::{Lang, Text};
use crate::core::resolve::{Node, Resolved};
use crate::text;
use serde::Serialize;
use std::sync::Arc;

/// How serious a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The build will not work as planned (a part does not fit, power is insufficient).
    Error,
    /// It works but with a real cost (cards at x8, no headroom, throttling likely).
    Warning,
    /// Worth knowing (a recommendation, a licensing note).
    Info,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Error => "error",
            Self::Warning => "warning",
            Self::Info => "info",
        })
    }
}

/// A build line a finding is about.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct LineRef {
    pub location: Location,
    pub line: usize,
}

/// A finding's stable kebab-case code (`cpu-socket-mismatch`), one of the registry's
/// ([`super::codes`]). A static string: copying a finding copies no text. (Not `Copy`, so
/// that it reads like the string it replaced: `d.code.clone()`.)
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct CodeId(&'static str);

impl CodeId {
    /// The code as a string.
    #[must_use]
    pub fn as_str(&self) -> &'static str {
        self.0
    }
}

impl std::ops::Deref for CodeId {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl std::fmt::Display for CodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl PartialEq<str> for CodeId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for CodeId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// One finding.
///
/// The copies of a finding about identical node groups ([`Self::moved_to`]) share what does
/// not name the group (its code, parts and fix) instead of copying it: a cluster of many
/// identical servers holds one body per finding of its design.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable kebab-case code, e.g. `cpu-socket-mismatch`.
    pub code: CodeId,
    /// The sentence, in English unless [`Self::localize`] chose another language.
    pub message: String,
    /// Ids of the parts involved.
    pub parts: super::Shared<PartId>,
    /// The build lines involved (for highlighting).
    pub lines: Vec<LineRef>,
    /// Node group index the finding is about, if it is about one.
    pub node: Option<usize>,
    /// What to change, where there is a clear fix (English unless localized).
    pub fix: Option<Arc<str>>,
    /// The message as a template with its parameters, for every language.
    #[serde(skip)]
    text: Text,
    /// The fix as a template with its parameters.
    #[serde(skip)]
    fix_text: Option<Arc<Text>>,
}

impl Diagnostic {
    #[must_use]
    pub fn new(severity: Severity, code: &'static str, text: Text) -> Self {
        Self {
            severity,
            code: CodeId(code),
            message: text.render(Lang::En),
            parts: super::Shared::default(),
            lines: Vec::new(),
            node: None,
            fix: None,
            text,
            fix_text: None,
        }
    }

    #[must_use]
    pub fn with_part(mut self, id: &PartId) -> Self {
        if !self.parts.contains(id) {
            self.parts = self.parts.iter().chain([id]).cloned().collect();
        }
        self
    }

    #[must_use]
    pub fn with_line(mut self, location: Location, line: usize) -> Self {
        let r = LineRef { location, line };
        if !self.lines.contains(&r) {
            self.lines.push(r);
        }
        self
    }

    #[must_use]
    pub fn in_node(mut self, node: usize) -> Self {
        self.node = Some(node);
        self
    }

    #[must_use]
    pub fn with_fix(mut self, fix: Text) -> Self {
        self.fix = Some(fix.render(Lang::En).into());
        self.fix_text = Some(Arc::new(fix));
        self
    }

    /// The same finding about node group `to` instead of `from`, two groups identical but
    /// for their names ([`Resolved::twins`]): the group index, the build lines and every
    /// mention of the name follow. A message of the form `{node}: …` keeps its rest as
    /// rendered, so a copy costs no rendering.
    ///
    /// [`Resolved::twins`]: crate::core::resolve::Resolved::twins
    #[must_use]
    pub fn moved_to(&self, from: &Node<'_>, to: &Node<'_>) -> Self {
        let (old, new) = (from.name, to.name);
        let text = self.text.renamed_node(old, new);
        let rest = self.message.strip_prefix(old).and_then(|r| r.strip_prefix(": "));
        let message = match rest {
            Some(rest) if self.text.is_plain_node_prefix() => {
                let mut m = String::with_capacity(new.len() + 2 + rest.len());
                m.push_str(new);
                m.push_str(": ");
                m.push_str(rest);
                m
            }
            _ => text.render(Lang::En),
        };
        // Most fixes name no node: the copy shares the fix and its English rendering.
        let (fix_text, fix) = match &self.fix_text {
            Some(f) if f.names_node() => {
                let renamed = f.renamed_node(old, new);
                let english = renamed.render(Lang::En).into();
                (Some(Arc::new(renamed)), Some(english))
            }
            other => (other.clone(), self.fix.clone()),
        };
        let moved = |l: &LineRef| match l.location {
            Location::Node(i) if i == from.index => LineRef { location: Location::Node(to.index), line: l.line },
            _ => l.clone(),
        };
        Self {
            severity: self.severity,
            code: self.code.clone(),
            message,
            parts: self.parts.clone(),
            lines: self.lines.iter().map(moved).collect(),
            node: self.node.map(|n| if n == from.index { to.index } else { n }),
            fix,
            text,
            fix_text,
        }
    }

    /// The message in a language.
    #[must_use]
    pub fn message_in(&self, lang: Lang) -> String {
        self.text.render(lang)
    }

    /// The suggested fix in a language.
    #[must_use]
    pub fn fix_in(&self, lang: Lang) -> Option<String> {
        self.fix_text.as_ref().map(|t| t.render(lang))
    }

    /// The message as a template with its parameters.
    #[must_use]
    pub fn text(&self) -> &Text {
        &self.text
    }

    /// Renders `message` and `fix` in `lang`, for output whose readers read it (a JSON
    /// report's message fields follow `--lang`; its keys and codes never change).
    pub fn localize(&mut self, lang: Lang) {
        self.message = self.message_in(lang);
        self.fix = self.fix_in(lang).map(Arc::from);
    }
}

crate::templates! {
    pub(crate) TEMPLATES;
    NODE_LOCATION "" {
        en: "node {n}",
        zh: "节点 {n}",
    }
    CLUSTER_LOCATION "" {
        en: "the cluster section",
        zh: "集群部分",
    }
    UNKNOWN_PART "unknown-part" {
        en: "`{part}` in {location} is not in the catalog; it is kept in the build but left out of every figure",
        zh: "{location} 中的 `{part}` 不在部件库中；它仍保留在配置方案里，但不计入任何数值",
    }
    UNKNOWN_PART_FIX "unknown-part" {
        en: "Add the folder that defines it in File → Catalog folders…, or replace it with a catalog part (Remove line takes it out)",
        zh: "在 文件 → 部件库文件夹… 中添加定义它的文件夹，或换成部件库中的部件（删除该行 可将其移除）",
    }
    UNKNOWN_SYSTEM_GPU "unknown-system-gpu" {
        en: "system `{system}` lists GPU `{gpu}`, which is not in the catalog",
        zh: "整机 `{system}` 列出的 GPU `{gpu}` 不在部件库中",
    }
}

/// Where a build line is, as a phrase ("node 2", "the cluster section").
#[must_use]
pub fn location_text(location: Location) -> Text {
    match location {
        Location::Node(i) => text!(NODE_LOCATION, n = (i + 1).to_string()),
        Location::Cluster => text!(CLUSTER_LOCATION),
    }
}

/// The order of findings in a report: most severe first, then by node, code and message.
#[must_use]
pub fn order(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    (a.severity, a.node, &a.code, &a.message).cmp(&(b.severity, b.node, &b.code, &b.message))
}

/// Sorts findings most severe first, then by node, code and message, so output is stable.
///
/// The analyses emit their findings node by node, so within one severity they come in a few
/// long sorted runs: the findings are first split by severity (a stable, linear pass), then
/// each severity's runs are merged by the stable sort, which finds them, instead of sorting
/// a cluster's thousand findings by comparing their sentences from scratch.
pub fn sort(diagnostics: &mut Vec<Diagnostic>) {
    let count = |s: Severity| diagnostics.iter().filter(|d| d.severity == s).count();
    let mut split: [Vec<Diagnostic>; 3] =
        [Severity::Error, Severity::Warning, Severity::Info].map(|s| Vec::with_capacity(count(s)));
    for d in diagnostics.drain(..) {
        let i = match d.severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        };
        if let Some(v) = split.get_mut(i) {
            v.push(d);
        }
    }
    for mut v in split {
        v.sort_by(order);
        diagnostics.append(&mut v);
    }
}

/// One finding per part id the catalog does not know (`unknown-part`), and per system whose
/// GPU reference does not resolve.
#[must_use]
pub fn unknown_parts(resolved: &Resolved<'_>) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = resolved
        .unknown
        .iter()
        .map(|u| {
            let mut d = Diagnostic::new(
                Severity::Warning,
                "unknown-part",
                text!(UNKNOWN_PART, part = u.id.to_string(), location = location_text(u.location)),
            )
            .with_part(&u.id)
            .with_line(u.location, u.line)
            .with_fix(text!(UNKNOWN_PART_FIX));
            if let Location::Node(i) = u.location {
                d = d.in_node(i);
            }
            d
        })
        .collect();
    for (system, gpu) in &resolved.unknown_system_gpus {
        out.push(
            Diagnostic::new(
                Severity::Warning,
                "unknown-system-gpu",
                text!(UNKNOWN_SYSTEM_GPU, system = system.to_string(), gpu = gpu.to_string()),
            )
            .with_part(system),
        );
    }
    out
}
