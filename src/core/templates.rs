//! The template builds shipped with rigplan: the example systems of the field guides our users
//! read (`catalog/builds/*.ron`), embedded in the binary.

use crate::core::build::Build;
use crate::core::persist::{BuildFileError, parse_build_str};

/// A template: a stable slug, the file it came from, and its text.
#[derive(Clone, Copy, Debug)]
pub struct Template {
    pub slug: &'static str,
    pub file: &'static str,
    pub text: &'static str,
}

macro_rules! template {
    ($slug:literal) => {
        Template {
            slug: $slug,
            file: concat!("catalog/builds/", $slug, ".ron"),
            text: include_str!(concat!("../../catalog/builds/", $slug, ".ron")),
        }
    };
}

/// Every template, from the smallest to the largest system.
pub const TEMPLATES: [Template; 9] = [
    template!("entry-workstation"),
    template!("entry-workstation-intel"),
    template!("china-2026-entry-workstation"),
    template!("professional-2x-a100"),
    template!("dual-h100-workstation"),
    template!("enterprise-8x-a100-hgx"),
    template!("enterprise-8x-h100-hgx"),
    template!("china-2026-enterprise-server"),
    template!("edge-jetson-agx-orin"),
];

/// The template new users start with.
pub const DEFAULT_TEMPLATE: &str = "entry-workstation";

impl Template {
    /// Parses the template.
    ///
    /// # Errors
    /// Only if a shipped template is malformed (a build defect guarded by the tests).
    pub fn load(&self) -> Result<Build, BuildFileError> {
        parse_build_str(self.file, self.text)
    }
}

/// Finds a template by slug.
#[must_use]
pub fn find(slug: &str) -> Option<&'static Template> {
    TEMPLATES.iter().find(|t| t.slug == slug)
}
