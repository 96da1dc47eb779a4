//! `--explain` on `report`, `fit` and `tco`: after the figures, where each came from: what it
//! is, the formula, the formula with this build's numbers, the source and the confidence class
//! (with the typical error of a calibrated estimate), in the reader's language.

use crate::core::analysis::basis::Basis;
use crate::core::i18n::{Lang, say};
use std::io::Write;

crate::templates! {
    pub(super) TEMPLATES;
    HEADING "" {
        en: "Where the figures come from ({count} figures)",
        zh: "各项数据的来源（共 {count} 项）",
    }
    FIGURE "" {
        en: "  {figure}: {what}",
        zh: "  {figure}：{what}",
    }
    FORMULA "" {
        en: "      formula:    {formula}",
        zh: "      公式：      {formula}",
    }
    HERE "" {
        en: "      this build: {substituted}",
        zh: "      本配置：    {substituted}",
    }
    SOURCE "" {
        en: "      source:     {source}",
        zh: "      来源：      {source}",
    }
    CONFIDENCE "" {
        en: "      confidence: {confidence}",
        zh: "      可信度：    {confidence}",
    }
}

/// Prints the bases, rendered in `lang` from the formula registry.
pub(super) fn write_bases(out: &mut dyn Write, bases: &[Basis], lang: Lang) -> anyhow::Result<()> {
    writeln!(out, "{}", say(&HEADING, lang, &[("count", &bases.len().to_string())]))?;
    for b in bases {
        let mut b = b.clone();
        b.localize(lang);
        writeln!(out, "{}", say(&FIGURE, lang, &[("figure", &b.figure), ("what", b.what)]))?;
        writeln!(out, "{}", say(&FORMULA, lang, &[("formula", b.formula)]))?;
        if !b.substituted.is_empty() {
            writeln!(out, "{}", say(&HERE, lang, &[("substituted", &b.substituted)]))?;
        }
        writeln!(out, "{}", say(&SOURCE, lang, &[("source", b.source)]))?;
        writeln!(out, "{}", say(&CONFIDENCE, lang, &[("confidence", &b.confidence_text(lang))]))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_line_is_in_both_languages_with_the_same_placeholders() {
        crate::core::i18n::assert_table_is_translated(super::TEMPLATES);
    }
}
