//! Text of Help → Accuracy…, the window that shows how rigplan's estimates fare against the
//! published measurements of its reference set (the same report as `rigplan validate`). The
//! classes' names, meanings and one-line summaries come from `core::reference`, so that the
//! window and the command line say the same thing. English and Simplified Chinese (terms from
//! `../shared/guide/zh-terms.md`: 实测, 估算, 误差, 阈值, 容差).
//!
//! Templates mark their arguments with `{}`, filled in order by `core::i18n::fill`.

/// The accuracy window's text table.
#[derive(Debug)]
pub struct AccuracyTexts {
    /// The Help menu item.
    pub menu_item: &'static str,
    pub title: &'static str,
    /// "… against {count} published measurements …".
    pub intro: &'static str,
    /// How an error and a class's pass are defined.
    pub how_to_read: &'static str,
    /// Under a class's summary: "{what the class covers}; threshold {percent} %".
    pub class_detail: &'static str,
    pub pass: &'static str,
    pub fail: &'static str,
    pub all_pass: &'static str,
    /// "Failing: {classes}".
    pub failing: &'static str,
    pub errors_title: &'static str,
    /// The collapsible table: "Every measurement ({count})".
    pub measurements: &'static str,
    /// Id, what, measured, estimated, error, tolerance.
    pub columns: [&'static str; 6],
    /// On hover of a measurement: "Source: {source}".
    pub source: &'static str,
    /// "The reference set could not be loaded: {error}".
    pub failed: &'static str,
    /// Over the classes recomputed on the user's catalog.
    pub with_catalog_title: &'static str,
    /// Why there is a second report: "{count} measurements …".
    pub with_catalog_note: &'static str,
    /// A class on the user's catalog: "Your catalog: {summary}".
    pub with_catalog_line: &'static str,
}

/// English.
pub static EN: AccuracyTexts = AccuracyTexts {
    menu_item: "Accuracy…",
    title: "How accurate is rigplan",
    intro: "rigplan's estimates recomputed against {} published measurements, each with its source \
            (catalog/reference/measurements.ron). The command `rigplan validate` prints the same report.",
    how_to_read: "Error is (estimate − measured) ÷ measured: −10 % means rigplan estimates 10 % low. \
                  A class passes when its mean error is within its threshold and every measurement \
                  is within its own tolerance.",
    class_detail: "{}; threshold {} %",
    pass: "pass",
    fail: "fail",
    all_pass: "Every class is within its threshold.",
    failing: "Failing: {}",
    errors_title: "Measurements that could not be recomputed:",
    measurements: "Every measurement ({})",
    columns: ["Id", "What", "Measured", "Estimated", "Error", "Tolerance"],
    source: "Source: {}",
    failed: "The reference set could not be loaded: {}",
    with_catalog_title: "With your catalog",
    with_catalog_note: "Your catalog folders change parts or models that {} of these measurements use. \
                        The lines above are the shipped report on the built-in catalog, which every \
                        figure's typical error quotes; on your catalog these classes come out as:",
    with_catalog_line: "Your catalog: {}",
};

/// Simplified Chinese.
pub static ZH: AccuracyTexts = AccuracyTexts {
    menu_item: "准确度…",
    title: "rigplan 的估算有多准",
    intro: "rigplan 的估算与 {} 个公开实测值逐一对比，每个实测值均注明来源\
            （catalog/reference/measurements.ron）。命令 `rigplan validate` 输出同一份报告。",
    how_to_read: "误差 =（估算 − 实测）÷ 实测：−10 % 表示 rigplan 的估算偏低 10 %。\
                  某一类的平均误差不超过其阈值、且每个实测值都在其自身容差之内时，该类通过。",
    class_detail: "{}；阈值 {} %",
    pass: "通过",
    fail: "未通过",
    all_pass: "所有类别均在阈值之内。",
    failing: "未通过：{}",
    errors_title: "无法重新计算的实测值：",
    measurements: "全部实测值（{}）",
    columns: ["编号", "内容", "实测", "估算", "误差", "容差"],
    source: "来源：{}",
    failed: "无法载入参考数据集：{}",
    with_catalog_title: "使用您的部件库",
    with_catalog_note: "您的部件库文件夹修改了其中 {} 个实测值所用的部件或模型。\
                        上方为基于内置部件库的随附报告，各项数据的典型误差均引用该报告；\
                        基于您的部件库，这些类别的结果如下：",
    with_catalog_line: "您的部件库：{}",
};

#[cfg(test)]
mod tests {
    use super::*;

    fn all(t: &AccuracyTexts) -> Vec<&'static str> {
        let mut v = vec![
            t.menu_item,
            t.title,
            t.intro,
            t.how_to_read,
            t.class_detail,
            t.pass,
            t.fail,
            t.all_pass,
            t.failing,
            t.errors_title,
            t.measurements,
            t.source,
            t.failed,
            t.with_catalog_title,
            t.with_catalog_note,
            t.with_catalog_line,
        ];
        v.extend(t.columns);
        v
    }

    /// The Chinese templates keep the English `{}` markers, in number, and are in Chinese.
    #[test]
    fn the_chinese_table_matches_the_english_one() {
        let cjk = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        for (en, zh) in all(&EN).into_iter().zip(all(&ZH)) {
            assert_eq!(en.matches("{}").count(), zh.matches("{}").count(), "{en:?} / {zh:?}");
            assert!(cjk(zh), "{zh:?} is not in Chinese");
        }
    }
}
