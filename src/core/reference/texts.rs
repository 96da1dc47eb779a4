//! The accuracy report's words in every language rigplan speaks: each class's name and what it
//! covers, and the one-line summary of a class that `rigplan validate` prints and the app's
//! Help → Accuracy window shows ("Decode speed: mean error 9.8 % over 31 measurements, worst
//! 18 % (id)"), so both front ends say the same thing. Chinese terms follow `zh-terms.md`
//! (实测, 估算, 吞吐量, 功耗).

use super::{Class, ClassSummary};
use crate::core::i18n::{Lang, say};

crate::templates! {
    pub(super) TEMPLATES;
    SUMMARY "" {
        en: "{class}: mean error {mean} % over {count} measurements, worst {worst} % ({id})",
        zh: "{class}：平均误差 {mean} %（{count} 个实测值），最大误差 {worst} %（{id}）",
    }
}

impl Class {
    /// The class's name in a language ("Decode speed", "解码速度").
    #[must_use]
    pub fn name(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Self::Memory, Lang::En) => "Memory and file sizes",
            (Self::Memory, Lang::ZhCn) => "显存与文件大小",
            (Self::Decode, Lang::En) => "Decode speed",
            (Self::Decode, Lang::ZhCn) => "解码速度",
            (Self::Prefill, Lang::En) => "Prefill speed",
            (Self::Prefill, Lang::ZhCn) => "预填充速度",
            (Self::Serving, Lang::En) => "Serving throughput",
            (Self::Serving, Lang::ZhCn) => "并发吞吐量",
            (Self::Training, Lang::En) => "Training",
            (Self::Training, Lang::ZhCn) => "训练",
            (Self::Power, Lang::En) => "Power",
            (Self::Power, Lang::ZhCn) => "功耗",
            (Self::Images, Lang::En) => "Image generation",
            (Self::Images, Lang::ZhCn) => "图像生成",
        }
    }

    /// What the class's measurements are of, in a phrase.
    #[must_use]
    pub fn meaning(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (Self::Memory, Lang::En) => "checkpoint sizes and GPU memory in use",
            (Self::Memory, Lang::ZhCn) => "权重文件大小与实际显存占用",
            (Self::Decode, Lang::En) => "tokens per second of one sequence (batch 1)",
            (Self::Decode, Lang::ZhCn) => "单个序列（批大小 1）每秒生成的 tokens",
            (Self::Prefill, Lang::En) => "prompt processing speed and time to first token",
            (Self::Prefill, Lang::ZhCn) => "提示词处理速度与首 token 延迟",
            (Self::Serving, Lang::En) => "throughput of many concurrent sequences",
            (Self::Serving, Lang::ZhCn) => "多个并发序列的总吞吐量",
            (Self::Training, Lang::En) => "training throughput, MFU and GPU-hours of published runs",
            (Self::Training, Lang::ZhCn) => "公开训练任务的吞吐量、MFU 与 GPU 时",
            (Self::Power, Lang::En) => {
                "input power of vendor systems, GPU power while serving and the energy of training runs"
            }
            (Self::Power, Lang::ZhCn) => "厂商整机的墙插功耗、推理时的 GPU 功耗与训练任务的能耗",
            (Self::Images, Lang::En) => "seconds per image of diffusion pipelines",
            (Self::Images, Lang::ZhCn) => "扩散模型生成一张图像的秒数",
        }
    }
}

impl ClassSummary {
    /// The class in one line: its name, mean and worst error (percent, one decimal) and the
    /// number of measurements.
    #[must_use]
    pub fn sentence(&self, lang: Lang) -> String {
        say(
            &SUMMARY,
            lang,
            &[
                ("class", self.class.name(lang)),
                ("mean", &format!("{:.1}", self.mean_abs_error * 100.0)),
                ("count", &self.count.to_string()),
                ("worst", &format!("{:.1}", self.worst_abs_error * 100.0)),
                ("id", &self.worst_id),
            ],
        )
    }
}

/// A measured or estimated figure as both front ends print it: about three significant digits,
/// thousands grouped (10,200; 149.4; 51.85; 0.421).
#[must_use]
pub fn figure(value: f64) -> String {
    let magnitude = value.abs();
    if magnitude >= 1000.0 {
        crate::core::units::format_thousands(value, 0)
    } else if magnitude >= 100.0 {
        format!("{value:.1}")
    } else if magnitude >= 1.0 {
        format!("{value:.2}")
    } else {
        format!("{value:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three significant digits or so, thousands grouped.
    #[test]
    fn figures_keep_about_three_digits() {
        assert_eq!(figure(10_200.0), "10,200");
        assert_eq!(figure(149.37), "149.4");
        assert_eq!(figure(51.85), "51.85");
        assert_eq!(figure(0.4213), "0.421");
    }

    #[test]
    fn every_template_is_translated() {
        crate::core::i18n::assert_table_is_translated(TEMPLATES);
    }

    /// 3 measurements of 10 %, 20 % and 30 % error: mean 20.0 %, worst 30.0 %.
    #[test]
    fn the_sentence_gives_mean_count_and_worst() {
        let s = ClassSummary {
            class: Class::Decode,
            count: 3,
            mean_abs_error: 0.2,
            worst_abs_error: 0.3,
            worst_id: "x-3090".to_owned(),
            threshold: 0.2,
            within_tolerance: 3,
        };
        assert_eq!(s.sentence(Lang::En), "Decode speed: mean error 20.0 % over 3 measurements, worst 30.0 % (x-3090)");
        assert_eq!(s.sentence(Lang::ZhCn), "解码速度：平均误差 20.0 %（3 个实测值），最大误差 30.0 %（x-3090）");
    }
}
