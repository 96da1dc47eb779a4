//! Text of the analysis figures: plot legends and axis ticks, the cloud options of the TCO
//! (their terms by name, a table that shows what differs between them), and the summary's
//! values. English and Simplified Chinese (terms from `../shared/guide/zh-terms.md`).
//!
//! Templates mark their arguments with `{}`, filled in order by `core::i18n::fill`.

use crate::core::analysis::tco::Term;

/// The figures' text table.
#[derive(Debug)]
pub struct FigureTexts {
    /// A plot's legend, collapsible: "Legend ({count})".
    pub legend: &'static str,
    /// Units that scale a money axis's ticks, largest first: (divisor, suffix). English uses
    /// thousands and millions, Chinese 万 (10⁴) and 亿 (10⁸), as Chinese quotes state sums.
    pub tick_units: &'static [(f64, &'static str)],
    /// The cloud terms, in the order of `core::analysis::tco::Term::ALL` (on-demand, 1-year
    /// reserved, 3-year reserved, spot, monthly subscription, custom).
    pub terms: [&'static str; 6],
    /// The TCO tab's table of cloud options: its title and column heads.
    pub options_title: &'static str,
    pub option_col: &'static str,
    pub term_col: &'static str,
    /// "Total ({currency})".
    pub total_col: &'static str,
    /// "{offer} in {region}, price of {date}".
    pub option_hover: &'static str,
    /// A summary value naming a cloud option: "{amount} · {term} · {offer}".
    pub option_value: &'static str,
}

impl FigureTexts {
    /// A cloud term by name.
    #[must_use]
    pub fn term(&self, term: Term) -> &'static str {
        let i = Term::ALL.iter().position(|t| *t == term).unwrap_or_default();
        self.terms.get(i).copied().unwrap_or_default()
    }
}

/// English.
pub static EN: FigureTexts = FigureTexts {
    legend: "Legend ({})",
    tick_units: &[(1.0e6, " M"), (1.0e3, " k")],
    terms: ["on-demand", "1-year reserved", "3-year reserved", "spot", "monthly", "custom"],
    options_title: "Cloud options over the horizon",
    option_col: "Provider and instance",
    term_col: "Term",
    total_col: "Total ({})",
    option_hover: "{} in {}, price of {}",
    option_value: "{} · {} · {}",
};

/// Simplified Chinese.
pub static ZH: FigureTexts = FigureTexts {
    legend: "图例（{}）",
    tick_units: &[(1.0e8, " 亿"), (1.0e4, " 万")],
    terms: ["按需", "包年（1 年）", "包年（3 年）", "竞价实例", "包月", "自定义"],
    options_title: "分析期内的云方案",
    option_col: "云服务商与实例",
    term_col: "计费方式",
    total_col: "合计（{}）",
    option_hover: "{}，地区 {}，价格日期 {}",
    option_value: "{} · {} · {}",
};

#[cfg(test)]
mod tests {
    use super::*;

    fn all(t: &FigureTexts) -> Vec<&'static str> {
        let mut v = vec![t.legend, t.options_title, t.option_col, t.term_col, t.total_col, t.option_hover];
        v.extend(t.terms);
        v.extend(t.tick_units.iter().map(|u| u.1));
        v
    }

    #[test]
    fn every_text_has_a_chinese_form_with_the_same_markers() {
        let cjk = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        let (en, zh) = (all(&EN), all(&ZH));
        assert_eq!(en.len(), zh.len());
        for (e, z) in en.iter().zip(&zh) {
            assert_eq!(e.matches("{}").count(), z.matches("{}").count(), "{e} / {z}");
            assert!(cjk(z), "{z} (for {e}) is not in Chinese");
        }
        assert_eq!(EN.option_value.matches("{}").count(), ZH.option_value.matches("{}").count());
    }

    #[test]
    fn every_term_has_its_own_name() {
        for t in [&EN, &ZH] {
            let names: std::collections::BTreeSet<&str> = Term::ALL.iter().map(|&term| t.term(term)).collect();
            assert_eq!(names.len(), Term::ALL.len(), "{names:?}");
        }
        assert_eq!(EN.term(Term::Spot), "spot");
        assert_eq!(ZH.term(Term::Reserved3y), "包年（3 年）");
    }

    #[test]
    fn tick_units_run_largest_first() {
        for units in [EN.tick_units, ZH.tick_units] {
            assert!(units.windows(2).all(|w| w[0].0 > w[1].0), "{units:?}");
        }
    }
}
