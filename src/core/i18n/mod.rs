//! Languages: which ones rigplan speaks, how the user's language is found, and how a template
//! is filled.
//!
//! Theory of operation: the core returns structured results (figures, typed finding codes
//! with parameters); every piece of text a person reads is rendered from a template of the
//! reader's [`Lang`]. The findings' templates live beside the code registry
//! (`crate::core::analysis::codes`), the app's in `gui::text`, the sheets' and the CLI's in
//! their modules; each table exists once per language and the compiler or a test refuses a
//! table that lacks a key of another. JSON keys never change with the language; only the
//! human-readable message fields do.
//!
//! The language defaults to the user's locale ([`Lang::from_env`]: `LC_ALL`, then
//! `LC_MESSAGES`, then `LANG`, as POSIX orders them; on systems without these variables the
//! OS locale), and English where the locale names no language rigplan has.

mod text;

#[cfg(test)]
pub(crate) use text::SHARED;
#[cfg(test)]
pub(crate) use text::assert_table_is_translated;
pub use text::{Arg, IntoArg, Sentence, Template, Text, in_node, localize_all};

use serde::{Deserialize, Serialize};
use std::fmt::{self, Display};

/// A language of the UI, the findings and the sheets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Lang {
    /// English.
    #[default]
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese (简体中文), as written in mainland China.
    #[serde(rename = "zh-CN")]
    ZhCn,
}

impl Lang {
    /// Every language, in menu order.
    pub const ALL: [Self; 2] = [Self::En, Self::ZhCn];

    /// The BCP 47 tag (`en`, `zh-CN`), as `--lang` takes it.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::ZhCn => "zh-CN",
        }
    }

    /// The language's own name, as a language menu shows it.
    #[must_use]
    pub fn native_name(self) -> &'static str {
        match self {
            Self::En => "English",
            Self::ZhCn => "简体中文",
        }
    }

    /// A language tag or a POSIX locale name: `en`, `en-US`, `zh`, `zh-CN`, `zh_CN.UTF-8`,
    /// `zh-Hans`, `zh_SG`; case does not matter. Traditional-script and Taiwan/Hong Kong
    /// locales (`zh-TW`, `zh-HK`, `zh-Hant`) are not Simplified Chinese and give `None`, as
    /// does `C`/`POSIX` or any other language.
    #[must_use]
    pub fn parse(tag: &str) -> Option<Self> {
        // `zh_CN.UTF-8@modifier` → `zh_CN`; `-` and `_` separate the parts alike.
        let base = tag.split(['.', '@']).next().unwrap_or_default().trim().to_ascii_lowercase();
        let mut parts = base.split(['-', '_']);
        match parts.next()? {
            "en" => Some(Self::En),
            "zh" => {
                let rest: Vec<&str> = parts.collect();
                let traditional = rest.iter().any(|p| matches!(*p, "tw" | "hk" | "mo" | "hant"));
                (!traditional).then_some(Self::ZhCn)
            }
            _ => None,
        }
    }

    /// The language of a locale environment: the first of `LC_ALL`, `LC_MESSAGES`, `LANG`
    /// that is set and not empty decides (POSIX.1-2017 §8.2 precedence); a locale that names
    /// no language rigplan has gives `None`.
    #[must_use]
    pub fn from_locale_vars(lc_all: Option<&str>, lc_messages: Option<&str>, lang: Option<&str>) -> Option<Self> {
        let chosen = [lc_all, lc_messages, lang].into_iter().flatten().find(|v| !v.trim().is_empty())?;
        Self::parse(chosen)
    }

    /// The user's language: the locale variables, else the operating system's locale, else
    /// English.
    #[must_use]
    pub fn from_env() -> Self {
        let var = |name: &str| std::env::var(name).ok();
        let (all, messages, lang) = (var("LC_ALL"), var("LC_MESSAGES"), var("LANG"));
        let any_set = [&all, &messages, &lang].iter().any(|v| v.as_deref().is_some_and(|v| !v.trim().is_empty()));
        if any_set {
            return Self::from_locale_vars(all.as_deref(), messages.as_deref(), lang.as_deref()).unwrap_or_default();
        }
        sys_locale::get_locale().and_then(|l| Self::parse(&l)).unwrap_or_default()
    }
}

impl Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Fills a template's placeholders: `{}` takes the next argument, `{0}`, `{1}` … take the
/// argument at that position (a translation may reorder them), `{{` and `}}` are literal
/// braces. A placeholder without an argument is left as written, so a missing argument shows
/// rather than panics.
#[must_use]
pub fn fill(template: &str, args: &[&dyn Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut next = 0;
    let mut rest = template;
    while let Some(pos) = rest.find(['{', '}']) {
        out.push_str(rest.get(..pos).unwrap_or_default());
        let tail = rest.get(pos..).unwrap_or_default();
        if let Some(after) = tail.strip_prefix("{{") {
            out.push('{');
            rest = after;
        } else if let Some(after) = tail.strip_prefix("}}") {
            out.push('}');
            rest = after;
        } else if let Some(after) = tail.strip_prefix('{')
            && let Some(close) = after.find('}')
            && let Some(inner) = after.get(..close)
            && (inner.is_empty() || inner.bytes().all(|b| b.is_ascii_digit()))
        {
            let index = if inner.is_empty() {
                next += 1;
                next - 1
            } else {
                inner.parse().unwrap_or(usize::MAX)
            };
            match args.get(index) {
                Some(a) => out.push_str(&a.to_string()),
                None => out.push_str(tail.get(..close + 2).unwrap_or_default()),
            }
            rest = after.get(close + 1..).unwrap_or_default();
        } else {
            // A lone brace (or a named placeholder, which this function does not fill).
            out.push_str(tail.get(..1).unwrap_or_default());
            rest = tail.get(1..).unwrap_or_default();
        }
    }
    out.push_str(rest);
    out
}

/// A template in a language with its named arguments: the tables of words that are not
/// findings (comparisons, the CLI) fill their sentences with this.
#[must_use]
pub fn say(template: &Template, lang: Lang, args: &[(&str, &str)]) -> String {
    fill_named(template.get(lang), args)
}

/// Fills named placeholders (`{cpu}`, `{board}`) from `(name, value)` pairs; an unknown name
/// is left as written. Used by the finding templates, whose parameters are named so that
/// every language can order them freely.
#[must_use]
pub fn fill_named(template: &str, args: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 24 * args.len());
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(rest.get(..open).unwrap_or_default());
        let after = rest.get(open + 1..).unwrap_or_default();
        let name_len = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
        let name = after.get(..name_len).unwrap_or_default();
        let closes = after.get(name_len..).is_some_and(|r| r.starts_with('}'));
        match args.iter().find(|(n, _)| *n == name) {
            Some((_, value)) if closes && !name.is_empty() => {
                out.push_str(value);
                rest = after.get(name_len + 1..).unwrap_or_default();
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The placeholder names of a named template, in order of first appearance.
#[must_use]
pub fn placeholders(template: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = rest.get(open + 1..).unwrap_or_default();
        let name_len = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
        if name_len > 0
            && after.get(name_len..).is_some_and(|r| r.starts_with('}'))
            && let Some(name) = after.get(..name_len)
            && !names.contains(&name)
        {
            names.push(name);
        }
        rest = after;
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_names_map_to_languages() {
        for (tag, lang) in [
            ("en", Some(Lang::En)),
            ("en_US.UTF-8", Some(Lang::En)),
            ("zh_CN.UTF-8", Some(Lang::ZhCn)),
            ("zh-CN", Some(Lang::ZhCn)),
            ("zh", Some(Lang::ZhCn)),
            ("zh-Hans-CN", Some(Lang::ZhCn)),
            ("zh_SG.GB2312", Some(Lang::ZhCn)),
            ("ZH_cn.utf8@pinyin", Some(Lang::ZhCn)),
            ("zh_TW.UTF-8", None),
            ("zh-Hant", None),
            ("zh_HK", None),
            ("C", None),
            ("POSIX", None),
            ("de_DE.UTF-8", None),
            ("", None),
        ] {
            assert_eq!(Lang::parse(tag), lang, "{tag}");
        }
    }

    #[test]
    fn lc_all_beats_lc_messages_beats_lang_and_empty_values_do_not_count() {
        assert_eq!(Lang::from_locale_vars(Some("zh_CN.UTF-8"), Some("en_US"), Some("en_US")), Some(Lang::ZhCn));
        assert_eq!(Lang::from_locale_vars(Some(""), Some("zh_CN"), Some("en_US")), Some(Lang::ZhCn));
        assert_eq!(Lang::from_locale_vars(None, None, Some("zh_CN.UTF-8")), Some(Lang::ZhCn));
        assert_eq!(Lang::from_locale_vars(Some("C"), None, Some("zh_CN.UTF-8")), None);
        assert_eq!(Lang::from_locale_vars(None, None, None), None);
    }

    #[test]
    fn ids_round_trip() {
        for l in Lang::ALL {
            assert_eq!(Lang::parse(l.id()), Some(l));
        }
    }

    #[test]
    fn fill_takes_positions_in_order_or_by_index() {
        assert_eq!(fill("{} of {}", &[&3, &8]), "3 of 8");
        assert_eq!(fill("{1} 中的 {0}", &[&3, &8]), "8 中的 3");
        assert_eq!(fill("{{literal}} {}", &[&"x"]), "{literal} x");
        assert_eq!(fill("missing {} {}", &[&1]), "missing 1 {}");
        assert_eq!(fill("{5}", &[&1]), "{5}");
        assert_eq!(fill("lone { brace } and {name}", &[&1]), "lone { brace } and {name}");
        assert_eq!(fill("", &[&1]), "");
    }

    #[test]
    fn named_placeholders() {
        let args = [("cpu", "Ryzen 9 7950X"), ("socket", "AM5")];
        assert_eq!(fill_named("{cpu} needs {socket}", &args), "Ryzen 9 7950X needs AM5");
        assert_eq!(fill_named("{socket}插槽的{cpu}", &args), "AM5插槽的Ryzen 9 7950X");
        assert_eq!(fill_named("{unknown} {cpu", &args), "{unknown} {cpu");
        assert_eq!(placeholders("{a} and {b} then {a}, not {c d} or {}"), vec!["a", "b"]);
    }
}
