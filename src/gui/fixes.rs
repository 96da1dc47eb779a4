//! How the app carries out the suggested fix of every finding code (issue 17: a fix said "set
//! the node's NVLink bridge option" and the app had no such control).
//!
//! Theory of operation: [`WAYS`] names, for each code of `core::analysis::codes`, the part of
//! the app its fix is carried out with: a node option of the node's header (the fix names it
//! by the same label, and the Issues tab offers it as one click, [`one_click`]), the parts (the
//! palette adds and swaps, the canvas removes and sets quantities), the slot diagram (a card
//! dragged to another slot), the node groups (Add node, Duplicate, ×N), hardware outside the
//! catalog (case fans, the room's cooling, the electrical circuit), the TCO tab's cloud offer,
//! custom offers and yearly owned cost, the parts list's price editor, or File → Catalog
//! folders…. A test holds the table to the fix texts of the core: each fix names its control
//! by the label the app shows.

use crate::core::analysis::Diagnostic;
use crate::core::build::{Build, Redundancy};
use crate::gui::command::Command;
use crate::gui::text::Texts;
use crate::gui::vocab::{AnalysisTab, LineSel};

/// Where a fix is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// The code has no suggested fix.
    NoFix,
    /// The node header's "NVLink bridges" checkbox (and a one-click fix).
    NvlinkBridges,
    /// The node header's "PSU redundancy" choice (and a one-click fix).
    PsuRedundancy,
    /// Parts: added or swapped from the palette, removed or counted on the canvas.
    Parts,
    /// A card dragged onto another slot of the node's slot diagram.
    Slots,
    /// Node groups: Add node, Duplicate, the ×N count.
    NodeGroups,
    /// Hardware or facilities outside the catalog: case fans, the room's cooling, circuits.
    Outside,
    /// The TCO tab's "Cloud offer" choice and its "Add custom offer" row (and a one-click
    /// fix that opens the tab).
    CloudOffer,
    /// The TCO tab's "Yearly owned cost" (and a one-click fix that opens the tab).
    YearlyOwnedCost,
    /// The parts list's price editor ("Price…" beside a line's price, its "Unit price"; and a
    /// one-click fix that opens the parts list).
    PriceOverride,
    /// File → Catalog folders…, or the line removed (a one-click "Remove line").
    CatalogFolders,
}

impl Way {
    /// True for the ways whose control the fix names by its label (and so may call it an
    /// option or a setting).
    #[must_use]
    pub fn names_a_control(self) -> bool {
        matches!(
            self,
            Self::NvlinkBridges
                | Self::PsuRedundancy
                | Self::CloudOffer
                | Self::YearlyOwnedCost
                | Self::PriceOverride
                | Self::CatalogFolders
        )
    }
}

/// Every finding code with the way its fix is carried out, in the order of the registry.
pub const WAYS: [(&str, Way); 89] = [
    ("node-empty", Way::Parts),
    ("missing-motherboard", Way::Parts),
    ("missing-cpu", Way::Parts),
    ("missing-memory", Way::Parts),
    ("missing-psu", Way::Parts),
    ("missing-storage", Way::Parts),
    ("missing-chassis", Way::Parts),
    ("missing-cpu-cooler", Way::Parts),
    ("multiple-mainboards", Way::NodeGroups),
    ("multiple-chassis", Way::NodeGroups),
    ("cpu-socket-mismatch", Way::Parts),
    ("cpu-count-exceeds-sockets", Way::Parts),
    ("cpu-multi-socket-unsupported", Way::Parts),
    ("cpu-mixed-models", Way::Parts),
    ("cpu-sockets-unpopulated", Way::NoFix),
    ("memory-type-mismatch", Way::Parts),
    ("memory-dimm-kind-mismatch", Way::Parts),
    ("memory-ecc-required", Way::Parts),
    ("memory-kinds-mixed", Way::Parts),
    ("memory-ecc-mixed", Way::Parts),
    ("memory-slots-exceeded", Way::Parts),
    ("memory-capacity-exceeds-board", Way::Parts),
    ("memory-capacity-exceeds-cpu", Way::Parts),
    ("memory-channels-underpopulated", Way::Parts),
    ("system-memory-below-vram", Way::Parts),
    ("gpu-integrated-standalone", Way::Parts),
    ("gpu-module-needs-baseboard", Way::Parts),
    ("gpu-baseboard-mismatch", Way::Parts),
    ("gpu-baseboard-positions-exceeded", Way::Parts),
    ("gpu-baseboard-chassis-mismatch", Way::Parts),
    ("nvlink-bridge-unsupported", Way::NvlinkBridges),
    ("nvlink-bridge-mixed", Way::Parts),
    ("nvlink-bridge-unpaired", Way::Parts),
    ("nvlink-bridge-available", Way::NvlinkBridges),
    ("pcie-slot-unavailable", Way::Parts),
    ("pcie-slot-invalid", Way::Slots),
    ("expansion-slots-exceeded", Way::Parts),
    ("gpu-bays-exceeded", Way::Parts),
    ("pcie-slot-lanes-reduced", Way::Slots),
    ("pcie-lanes-oversubscribed", Way::Parts),
    ("gpu-too-long", Way::Parts),
    ("consumer-gpu-in-server", Way::Parts),
    ("psu-connectors-insufficient", Way::Parts),
    ("psu-connector-adapter", Way::Parts),
    ("psu-eps-insufficient", Way::Parts),
    ("psu-form-factor-mismatch", Way::Parts),
    ("psu-bays-exceeded", Way::Parts),
    ("psu-redundancy-insufficient", Way::PsuRedundancy),
    ("cooler-socket-mismatch", Way::Parts),
    ("cooler-too-tall", Way::Parts),
    ("radiator-too-long", Way::Parts),
    ("cooler-capacity-low", Way::Parts),
    ("cooler-count-low", Way::Parts),
    ("board-form-factor-mismatch", Way::Parts),
    ("m2-slots-exceeded", Way::Parts),
    ("sata-ports-exceeded", Way::Parts),
    ("drive-bays-exceeded", Way::Parts),
    ("jbod-bays-exceeded", Way::Parts),
    ("cluster-storage-no-enclosure", Way::Parts),
    ("fabric-missing", Way::Parts),
    ("switch-missing", Way::Parts),
    ("switch-tech-mismatch", Way::Parts),
    ("switch-ports-insufficient", Way::Parts),
    ("psu-capacity-low", Way::Parts),
    ("psu-below-recommended", Way::Parts),
    ("psu-transient-risk", Way::Parts),
    ("circuit-overload", Way::Outside),
    ("circuit-multiple-feeds", Way::NoFix),
    ("airflow-insufficient", Way::Parts),
    ("gpu-temp-high", Way::Slots),
    ("gpu-temp-over-max", Way::Slots),
    ("gpu-open-air-stacked", Way::Slots),
    ("passive-gpu-in-tower", Way::Parts),
    ("system-ambient-exceeded", Way::Outside),
    ("unknown-part", Way::CatalogFolders),
    ("unknown-system-gpu", Way::NoFix),
    ("tco-power-unknown", Way::YearlyOwnedCost),
    ("tco-unpriced-lines", Way::PriceOverride),
    ("tco-no-cloud-match", Way::CloudOffer),
    ("tco-mixed-gpus", Way::CloudOffer),
    ("tco-offer-unknown", Way::CloudOffer),
    ("tco-offer-gpu-differs", Way::NoFix),
    ("tco-spot-overhead-unset", Way::NoFix),
    ("tco-price-unverified", Way::NoFix),
    ("tco-entered-cost-below-depreciation", Way::NoFix),
    ("workload-unknown", Way::NoFix),
    ("workload-unknown-model", Way::NoFix),
    ("workload-no-gpus", Way::NoFix),
    ("workload-does-not-fit", Way::NoFix),
];

/// The way of a code's fix; None for a code the table does not hold.
#[must_use]
pub fn way(code: &str) -> Option<Way> {
    WAYS.iter().find(|(c, _)| *c == code).map(|(_, w)| *w)
}

/// The one-click fix of a finding, where there is one: its button's label and the command it
/// pushes (a node option of the finding's node set to what the fix says, an unknown part's
/// line removed, or the tab opened whose control the fix names).
#[must_use]
pub fn one_click(d: &Diagnostic, build: &Build, t: &Texts) -> Option<(&'static str, Command)> {
    let f = t.fixes;
    let way = way(d.code.as_str())?;
    match way {
        Way::CloudOffer | Way::YearlyOwnedCost => return Some((f.fix_open_tco, Command::SetTab(AnalysisTab::Tco))),
        Way::PriceOverride => return Some((f.fix_open_parts_list, Command::SetTab(AnalysisTab::Summary))),
        Way::CatalogFolders => {
            let line = d.lines.first()?;
            return Some((f.fix_remove_line, Command::RemoveLine(LineSel { at: line.location, line: line.line })));
        }
        _ => {}
    }
    let i = d.node?;
    let node = build.nodes.get(i)?;
    match (way, d.code.as_str()) {
        (Way::NvlinkBridges, "nvlink-bridge-available") if !node.nvlink_bridge => {
            Some((f.fix_nvlink_on, Command::SetNodeNvlink(i, true)))
        }
        (Way::NvlinkBridges, _) if node.nvlink_bridge => Some((f.fix_nvlink_off, Command::SetNodeNvlink(i, false))),
        (Way::PsuRedundancy, _) if node.psu_redundancy != Redundancy::None => {
            Some((f.fix_redundancy_none, Command::SetNodeRedundancy(i, Redundancy::None)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::analysis::codes::CODES;
    use std::path::Path;

    /// (template name, code, English, Chinese) of every `*_FIX` template under src/core.
    fn fix_templates() -> Vec<(String, String, String, String)> {
        fn walk(dir: &Path, out: &mut Vec<String>) {
            let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
            entries.sort();
            for p in entries {
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|e| e == "rs") {
                    out.push(std::fs::read_to_string(&p).unwrap());
                }
            }
        }
        let mut sources = Vec::new();
        walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core"), &mut sources);
        let quoted = |line: &str, key: &str| -> Option<String> {
            let rest = line.trim().strip_prefix(key)?.trim().strip_prefix('"')?;
            Some(rest.rsplit_once("\",").map_or(rest, |(text, _)| text).to_owned())
        };
        let mut out = Vec::new();
        for text in &sources {
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                let mut words = line.split_whitespace();
                let (Some(name), Some(code)) = (words.next(), words.next()) else { continue };
                if !name.ends_with("_FIX") || !code.starts_with('"') {
                    continue;
                }
                let en = lines.get(i + 1).and_then(|l| quoted(l, "en:")).unwrap();
                let zh = lines.get(i + 2).and_then(|l| quoted(l, "zh:")).unwrap();
                out.push((name.to_owned(), code.trim_matches('"').to_owned(), en, zh));
            }
        }
        out
    }

    #[test]
    fn every_code_has_a_way_and_the_table_follows_the_registry() {
        let codes: Vec<&str> = CODES.iter().map(|c| c.id).collect();
        let table: Vec<&str> = WAYS.iter().map(|(c, _)| *c).collect();
        assert_eq!(table, codes);
    }

    #[test]
    fn every_fix_is_carried_out_by_a_control_that_exists() {
        let fixes = fix_templates();
        assert!(fixes.len() > 80, "{}", fixes.len());
        let (en, zh) = (crate::gui::text::EN.fixes, crate::gui::text::ZH.fixes);
        for (name, code, fix_en, fix_zh) in &fixes {
            let way = way(code).unwrap_or_else(|| panic!("{name}: `{code}` is not in WAYS"));
            assert_ne!(way, Way::NoFix, "{name}: `{code}` has a fix");
            // A node option is named by the label the node's header shows.
            match way {
                Way::NvlinkBridges => {
                    assert!(fix_en.contains(en.nvlink) && fix_zh.contains(zh.nvlink), "{name}: {fix_en} / {fix_zh}");
                }
                Way::PsuRedundancy => {
                    assert!(
                        fix_en.contains(en.redundancy) && fix_zh.contains(zh.redundancy),
                        "{name}: {fix_en} / {fix_zh}"
                    );
                }
                Way::Slots => assert!(fix_en.contains("slot") || fix_en.contains("Space"), "{name}: {fix_en}"),
                Way::CloudOffer => {
                    for (e, z) in [(en.cloud_offer, zh.cloud_offer), (en.add_custom_offer, zh.add_custom_offer)] {
                        assert!(fix_en.contains(e) && fix_zh.contains(z), "{name}: {fix_en} / {fix_zh}");
                    }
                }
                Way::YearlyOwnedCost => {
                    assert!(
                        fix_en.contains(en.yearly_owned_cost) && fix_zh.contains(zh.yearly_owned_cost),
                        "{name}: {fix_en} / {fix_zh}"
                    );
                }
                Way::PriceOverride => {
                    for (e, z) in [(en.unit_price, zh.unit_price), (en.edit_price, zh.edit_price)] {
                        assert!(fix_en.contains(e) && fix_zh.contains(z), "{name}: {fix_en} / {fix_zh}");
                    }
                }
                Way::CatalogFolders => {
                    for (e, z) in [(en.catalog_folders, zh.catalog_folders), (en.fix_remove_line, zh.fix_remove_line)] {
                        assert!(fix_en.contains(e) && fix_zh.contains(z), "{name}: {fix_en} / {fix_zh}");
                    }
                }
                _ => {}
            }
            // "Option" and "setting" name controls: only fixes that name their control by its
            // label may say them; and the app never sends the user to the command line.
            let names_control = ["option", "setting"].iter().any(|w| fix_en.to_lowercase().contains(w))
                || ["选项", "设置"].iter().any(|w| fix_zh.contains(w));
            assert!(
                !names_control || way.names_a_control(),
                "{name} names a control the app lacks: {fix_en} / {fix_zh}"
            );
            assert!(!fix_en.contains("--") && !fix_zh.contains("--"), "{name}: {fix_en} / {fix_zh}");
            assert!(!fix_en.contains(".ron") && !fix_zh.contains(".ron"), "{name} sends the user to a file: {fix_en}");
        }
        // Every code the table gives a fix way has a fix template.
        for (code, way) in WAYS {
            let has = fixes.iter().any(|(_, c, _, _)| c == code);
            assert_eq!(has, way != Way::NoFix, "`{code}`: {way:?}");
        }
    }

    #[test]
    fn the_node_option_fixes_are_one_click() {
        static SAID: crate::core::i18n::Template = crate::core::i18n::Template { code: "", en: "x", zh: "x" };
        let mut build = Build::new("t");
        build.nodes[0].psu_redundancy = Redundancy::NPlusOne;
        let t = &crate::gui::text::EN;
        let d = |code: &'static str| {
            Diagnostic::new(crate::core::analysis::Severity::Warning, code, crate::core::i18n::Text::new(&SAID))
                .in_node(0)
        };
        let (label, cmd) = one_click(&d("nvlink-bridge-available"), &build, t).unwrap();
        assert_eq!((label, cmd), (t.fixes.fix_nvlink_on, Command::SetNodeNvlink(0, true)));
        assert!(one_click(&d("nvlink-bridge-unsupported"), &build, t).is_none(), "already off");
        build.nodes[0].nvlink_bridge = true;
        assert_eq!(one_click(&d("nvlink-bridge-unsupported"), &build, t).unwrap().1, Command::SetNodeNvlink(0, false));
        assert_eq!(
            one_click(&d("psu-redundancy-insufficient"), &build, t).unwrap().1,
            Command::SetNodeRedundancy(0, Redundancy::None)
        );
        assert!(one_click(&d("cpu-socket-mismatch"), &build, t).is_none());
    }
}
