//! Text of the node options that findings' fixes name (NVLink bridges, PSU redundancy) and of
//! the one-click fixes the Issues tab offers. English and Simplified Chinese (terms from
//! `../shared/guide/zh-terms.md`).

use crate::core::build::Redundancy;

/// The fixes' text table.
#[derive(Debug)]
pub struct FixTexts {
    /// The node header's NVLink bridges checkbox, as the `nvlink-bridge-*` fixes name it.
    pub nvlink: &'static str,
    pub nvlink_hint: &'static str,
    /// The node header's PSU redundancy choice, as the `psu-redundancy-insufficient` fixes
    /// name it.
    pub redundancy: &'static str,
    pub redundancy_hint: &'static str,
    /// The redundancy schemes, in the order of `core::build::Redundancy` (none, N+1, N+N).
    pub redundancies: [&'static str; 3],
    /// One-click fixes of the Issues tab.
    pub fix_nvlink_on: &'static str,
    pub fix_nvlink_off: &'static str,
    pub fix_redundancy_none: &'static str,
}

impl FixTexts {
    /// A redundancy scheme by name.
    #[must_use]
    pub fn redundancy_name(&self, r: Redundancy) -> &'static str {
        let i = match r {
            Redundancy::None => 0,
            Redundancy::NPlusOne => 1,
            Redundancy::NPlusN => 2,
        };
        self.redundancies.get(i).copied().unwrap_or_default()
    }
}

/// English.
pub static EN: FixTexts = FixTexts {
    nvlink: "NVLink bridges",
    nvlink_hint: "Join this node's PCIe cards with NVLink bridges (pairs, or the groups their bridges join): \
                  their traffic then bypasses PCIe",
    redundancy: "PSU redundancy",
    redundancy_hint: "How many of the node's PSUs are spares: none, one (N+1), or half on a second feed (N+N)",
    redundancies: ["None", "N+1", "N+N"],
    fix_nvlink_on: "Turn NVLink bridges on",
    fix_nvlink_off: "Turn NVLink bridges off",
    fix_redundancy_none: "Set PSU redundancy to none",
};

/// Simplified Chinese.
pub static ZH: FixTexts = FixTexts {
    nvlink: "NVLink 桥接",
    nvlink_hint: "用 NVLink 桥接器连接该节点的 PCIe 显卡（两两一组，或按桥接器支持的组）：它们之间的通信不再经过 PCIe",
    redundancy: "电源冗余",
    redundancy_hint: "该节点的电源中有多少块是备用：无、一块（N+1），或一半接第二路供电（N+N）",
    redundancies: ["无", "N+1", "N+N"],
    fix_nvlink_on: "打开 NVLink 桥接",
    fix_nvlink_off: "关闭 NVLink 桥接",
    fix_redundancy_none: "把电源冗余设为无",
};

#[cfg(test)]
mod tests {
    use super::*;

    fn all(t: &FixTexts) -> Vec<&'static str> {
        vec![
            t.nvlink,
            t.nvlink_hint,
            t.redundancy,
            t.redundancy_hint,
            t.fix_nvlink_on,
            t.fix_nvlink_off,
            t.fix_redundancy_none,
            t.redundancies[0],
        ]
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
        assert_eq!(EN.redundancy_name(Redundancy::NPlusOne), "N+1");
        assert_eq!(ZH.redundancy_name(Redundancy::None), "无");
    }
}
