//! Findings about a build: severity, a stable code, a sentence a user understands, the parts
//! involved and a suggested fix.

use crate::core::build::Location;
use crate::core::catalog::PartId;
use crate::core::resolve::Resolved;
use serde::Serialize;

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

/// One finding.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable kebab-case code, e.g. `cpu-socket-mismatch`.
    pub code: String,
    pub message: String,
    /// Ids of the parts involved.
    pub parts: Vec<PartId>,
    /// The build lines involved (for highlighting).
    pub lines: Vec<LineRef>,
    /// Node group index the finding is about, if it is about one.
    pub node: Option<usize>,
    /// What to change, where there is a clear fix.
    pub fix: Option<String>,
}

impl Diagnostic {
    #[must_use]
    pub fn new(severity: Severity, code: &str, message: impl Into<String>) -> Self {
        Self {
            severity,
            code: code.to_owned(),
            message: message.into(),
            parts: Vec::new(),
            lines: Vec::new(),
            node: None,
            fix: None,
        }
    }

    #[must_use]
    pub fn with_part(mut self, id: &PartId) -> Self {
        if !self.parts.contains(id) {
            self.parts.push(id.clone());
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
    pub fn with_fix(mut self, fix: impl Into<String>) -> Self {
        self.fix = Some(fix.into());
        self
    }

    /// The message in a language. (Interim: every finding is English until the typed code
    /// registry renders them from per-language templates.)
    #[must_use]
    pub fn message_in(&self, _lang: crate::core::i18n::Lang) -> String {
        self.message.clone()
    }

    /// The suggested fix in a language (interim: English, as [`Self::message_in`]).
    #[must_use]
    pub fn fix_in(&self, _lang: crate::core::i18n::Lang) -> Option<String> {
        self.fix.clone()
    }
}

/// Sorts findings most severe first, then by node and code, so output is stable.
pub fn sort(diagnostics: &mut [Diagnostic]) {
    diagnostics
        .sort_by(|a, b| (a.severity, a.node, &a.code, &a.message).cmp(&(b.severity, b.node, &b.code, &b.message)));
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
                format!(
                    "`{}` in {} is not in the catalog; it is kept in the build but left out of every figure",
                    u.id, u.location
                ),
            )
            .with_part(&u.id)
            .with_line(u.location, u.line)
            .with_fix("Add it to a user catalog folder (--catalog DIR), or replace it with a catalog part");
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
                format!("system `{system}` lists GPU `{gpu}`, which is not in the catalog"),
            )
            .with_part(system),
        );
    }
    out
}
