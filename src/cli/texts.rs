//! The CLI's words in every language rigplan speaks, and the `--lang` option's parser.
//!
//! Theory of operation: each subcommand that prints text takes `--lang <en|zh-CN>` (default:
//! the locale, [`Lang::from_env`]); the value is parsed once here so that every subcommand
//! accepts the same tags and refuses a bad one with the same message.

use crate::core::i18n::Lang;

/// Parses a `--lang` value (`en`, `zh-CN`, or a locale name such as `zh_CN.UTF-8`).
///
/// # Errors
/// A tag that names no language rigplan has; the message lists the accepted ones.
pub fn parse_lang(s: &str) -> Result<Lang, String> {
    Lang::parse(s).ok_or_else(|| {
        let ids: Vec<&str> = Lang::ALL.iter().map(|l| l.id()).collect();
        format!("`{s}` is not a language; use one of {}", ids.join(", "))
    })
}

#[cfg(test)]
mod tests {
    use super::parse_lang;
    use crate::core::i18n::Lang;

    #[test]
    fn lang_tags_parse_and_a_bad_one_names_the_accepted_ones() {
        assert_eq!(parse_lang("en"), Ok(Lang::En));
        assert_eq!(parse_lang("zh-CN"), Ok(Lang::ZhCn));
        let err = parse_lang("xx").expect_err("xx is no language");
        assert!(err.contains("en, zh-CN"), "{err}");
    }
}
