//! The fonts: egui's own, then the CJK font rigplan ships, so that Chinese renders on a
//! machine with no CJK font installed.
//!
//! The shipped font is a subset of Noto Sans CJK SC Regular (SIL Open Font License 1.1; the
//! licence is `assets/fonts/OFL.txt`, the script that makes it `assets/fonts/make_cjk_subset.py`):
//! all of GB2312 (6763 hanzi and 682 symbols), CJK punctuation, full-width forms and every
//! non-ASCII character of rigplan's sources, 7626 characters in 1.57 MB. It is the last
//! fallback of both families, after egui's Latin fonts, so Latin text looks as before; a
//! character outside it (a rare hanzi in a user's part name) is still asked of the system's
//! fonts through eframe's system font provider.

use egui::epaint::text::{FontData, FontInsert, FontPriority, InsertFontFamily};
use egui::{Context, FontFamily};

/// The name the shipped CJK font is registered under.
pub const CJK_FONT_NAME: &str = "noto-sans-sc-rigplan-subset";

/// The shipped CJK font file.
pub static CJK_FONT: &[u8] = include_bytes!("../../assets/fonts/NotoSansSC-rigplan-subset.otf");

/// Adds the shipped CJK font as the last fallback of the proportional and monospace families.
pub fn install(ctx: &Context) {
    ctx.add_font(FontInsert::new(
        CJK_FONT_NAME,
        FontData::from_static(CJK_FONT),
        [FontFamily::Proportional, FontFamily::Monospace]
            .into_iter()
            .map(|family| InsertFontFamily { family, priority: FontPriority::Lowest })
            .collect(),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::FontId;

    /// Every character a Chinese reader can be shown from rigplan's own tables: the app's and
    /// the advisor's Chinese tables and the Chinese sheet words (their `Debug` text holds
    /// every string of them), the Chinese templates and meanings of every finding, and what the
    /// accuracy window shows of the reference set's classes.
    fn chinese_texts() -> String {
        let mut all = format!(
            "{:?}{:?}{:?}",
            crate::gui::text::ZH,
            crate::gui::text::advisor::ZH,
            crate::core::export::texts::ZH
        );
        for t in crate::core::analysis::codes::templates() {
            all.push_str(t.zh);
        }
        for c in &crate::core::analysis::codes::CODES {
            all.push_str(c.zh);
        }
        // Every figure's explanation: the formula registry in both languages (the English is
        // drawn with the same fallback chain).
        for f in &crate::core::analysis::basis::FORMULAS {
            for pair in [f.what, f.formula, f.source] {
                all.push_str(pair[0]);
                all.push_str(pair[1]);
            }
        }
        // And the symbols the bases' substituted formulas write (`basis/report.rs`, `fit.rs`).
        all.push_str("×°−→η≤≥⁶√—–Δ½±");
        // The accuracy window: each class's name, meaning and one-line summary.
        for class in crate::core::reference::Class::ALL {
            let zh = crate::core::i18n::Lang::ZhCn;
            all.push_str(class.name(zh));
            all.push_str(class.meaning(zh));
        }
        let catalog = crate::core::catalog::Catalog::embedded().expect("the embedded catalog");
        for line in crate::gui::accuracy::AccuracyView::compute(&catalog, crate::core::i18n::Lang::ZhCn).classes {
            all.push_str(&line.summary);
        }
        all
    }

    #[test]
    fn every_character_of_the_chinese_tables_has_a_glyph() {
        let ctx = Context::default();
        install(&ctx);
        // The first frame builds the font atlas; its texture upload is not needed here.
        ctx.run_ui(egui::RawInput::default(), |_| {}).textures_delta.clear();
        let text = chinese_texts();
        assert!(
            text.chars().filter(|c| ('\u{4e00}'..='\u{9fff}').contains(c)).count() > 500,
            "the tables are in Chinese"
        );
        for family in [FontId::proportional(14.0), FontId::monospace(14.0)] {
            let missing: std::collections::BTreeSet<char> =
                ctx.fonts_mut(|f| text.chars().filter(|&c| !c.is_control() && !f.has_glyph(&family, c)).collect());
            assert!(missing.is_empty(), "{family:?} has no glyph for {missing:?}");
        }
    }

    #[test]
    fn the_shipped_font_covers_gb2312_level_1() {
        // GB2312 level 1 (3755 hanzi, rows 16–55) spans 啊 (B0A1) … 座 (D7F9); spot-check its
        // ends and common hardware terms through the shipped font alone.
        let ctx = Context::default();
        install(&ctx);
        // The first frame builds the font atlas; its texture upload is not needed here.
        ctx.run_ui(egui::RawInput::default(), |_| {}).textures_delta.clear();
        let id = FontId::proportional(14.0);
        assert!(ctx.fonts_mut(|f| f.has_glyphs(&id, "啊座显存功耗散热电源主板机箱总拥有成本回本周期齄")));
    }
}
