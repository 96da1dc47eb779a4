//! Text of the controls that findings' fixes name (the node options NVLink bridges and PSU
//! redundancy; the TCO tab's cloud offer, custom offers, yearly owned cost and circuit; the
//! parts list's price editor; File → Catalog folders…) and of the one-click fixes the Issues
//! tab offers. English and Simplified Chinese (terms from
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
    /// The TCO tab's choice of the compared cloud offer.
    pub cloud_offer: &'static str,
    pub cloud_offer_hint: &'static str,
    pub offer_automatic: &'static str,
    /// A chosen offer that neither the catalog nor the custom offers hold: "{id} (not found)".
    pub offer_not_found: &'static str,
    /// The custom-offer editor.
    pub custom_offers: &'static str,
    pub add_custom_offer: &'static str,
    /// A new custom offer's name: "Quote {n}".
    pub custom_offer_name: &'static str,
    pub offer_name: &'static str,
    pub offer_pricing: &'static str,
    /// The two ways a custom offer is priced, in the order of `CustomPricing`.
    pub pricings: [&'static str; 2],
    pub offer_price: &'static str,
    pub every_hour: &'static str,
    pub every_hour_hint: &'static str,
    pub remove: &'static str,
    /// The yearly owned cost entered as one figure.
    pub yearly_owned_cost: &'static str,
    pub yearly_owned_cost_hint: &'static str,
    pub includes_depreciation: &'static str,
    /// The circuit settings.
    pub circuit_volts: &'static str,
    pub circuit_amps: &'static str,
    pub circuit_phases: &'static str,
    pub phases: [&'static str; 2],
    /// The parts list's price editor: its menu button beside each line's price, the field,
    /// going back to the catalog.
    pub edit_price: &'static str,
    pub edit_price_hint: &'static str,
    pub unit_price: &'static str,
    pub use_catalog_price: &'static str,
    /// File → Catalog folders…, and its window.
    pub catalog_folders: &'static str,
    pub catalog_folders_intro: &'static str,
    pub catalog_folder_add: &'static str,
    pub catalog_reload: &'static str,
    /// The typed folder's field and its button.
    pub catalog_folder_path: &'static str,
    pub catalog_folder_add_typed: &'static str,
    /// "{path} is not a folder".
    pub catalog_not_a_folder: &'static str,
    /// The built-in file browser's title when it picks a catalog folder.
    pub browse_catalog_folder: &'static str,
    pub close: &'static str,
    pub catalog_folders_none: &'static str,
    /// "Catalog reloaded: {parts} parts, {folders} folder(s)".
    pub catalog_reloaded: &'static str,
    /// One-click fixes: remove an unknown part's line; go to the tab whose control the fix
    /// names.
    pub fix_remove_line: &'static str,
    pub fix_open_tco: &'static str,
    pub fix_open_parts_list: &'static str,
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
    cloud_offer: "Cloud offer",
    cloud_offer_hint: "The cloud offer the owned cost is compared against: the cheapest on-demand offer that rents \
                       the build's GPUs, one term of a catalog offer, or one of your custom offers",
    offer_automatic: "Cheapest on-demand (automatic)",
    offer_not_found: "{} (not found)",
    custom_offers: "Custom cloud offers",
    add_custom_offer: "Add custom offer",
    custom_offer_name: "Quote {}",
    offer_name: "Name",
    offer_pricing: "Pricing",
    pricings: ["Per GPU-hour", "Yearly quote"],
    offer_price: "Price",
    every_hour: "Bills every hour",
    every_hour_hint: "A reservation billed for every hour of the year, used or not (else only the used hours are billed)",
    remove: "Remove",
    yearly_owned_cost: "Yearly owned cost",
    yearly_owned_cost_hint: "Enter the yearly cost of owning the build as one figure (e.g. a quote that includes power \
                             and maintenance): it replaces the computed energy and maintenance",
    includes_depreciation: "Includes depreciation",
    circuit_volts: "Circuit voltage",
    circuit_amps: "Circuit breaker",
    circuit_phases: "Circuit phases",
    phases: ["Single-phase", "Three-phase"],
    edit_price: "Price…",
    edit_price_hint: "Enter your own unit price for this part (it replaces the catalog price on every line of the part)",
    unit_price: "Unit price",
    use_catalog_price: "Use catalog price",
    catalog_folders: "Catalog folders…",
    catalog_folders_intro: "Folders of <kind>.ron files (gpu.ron, cpu.ron, …, clouds.ron, models.ron) laid over the \
                            built-in catalog, in this order; later folders override earlier ones by id.",
    catalog_folder_add: "Browse…",
    catalog_reload: "Reload",
    catalog_folder_path: "Folder path",
    catalog_folder_add_typed: "Add folder",
    catalog_not_a_folder: "{} is not a folder",
    browse_catalog_folder: "Choose a file in the catalog folder to add",
    close: "Close",
    catalog_folders_none: "No catalog folders: the built-in catalog is used.",
    catalog_reloaded: "Catalog reloaded: {} parts from {} folder(s)",
    fix_remove_line: "Remove line",
    fix_open_tco: "Open the TCO tab",
    fix_open_parts_list: "Open the parts list",
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
    cloud_offer: "云服务报价",
    cloud_offer_hint: "与自有成本对比的云服务报价：租用该配置 GPU 的最便宜按需报价、某个目录报价的某种计费方式，或你的自定义报价",
    offer_automatic: "最便宜的按需报价（自动）",
    offer_not_found: "{}（未找到）",
    custom_offers: "自定义云服务报价",
    add_custom_offer: "添加自定义报价",
    custom_offer_name: "报价 {}",
    offer_name: "名称",
    offer_pricing: "计价方式",
    pricings: ["每 GPU 小时", "包年报价"],
    offer_price: "价格",
    every_hour: "全年每小时计费",
    every_hour_hint: "包年预留：全年每小时都计费，无论是否使用（否则只按使用的小时计费）",
    remove: "删除",
    yearly_owned_cost: "每年自有成本",
    yearly_owned_cost_hint: "以一个数字输入每年的自有成本（例如含电费和维护的报价）：它替代计算出的电费和维护费",
    includes_depreciation: "已含折旧",
    circuit_volts: "电路电压",
    circuit_amps: "断路器额定电流",
    circuit_phases: "电路相数",
    phases: ["单相", "三相"],
    edit_price: "改价…",
    edit_price_hint: "为该部件输入你自己的单价（它替代该部件每一行的部件库价格）",
    unit_price: "单价",
    use_catalog_price: "使用部件库价格",
    catalog_folders: "部件库文件夹…",
    catalog_folders_intro: "叠加在内置部件库之上的 <kind>.ron 文件夹（gpu.ron、cpu.ron、…、clouds.ron、models.ron），\
                            按此顺序加载；后面的文件夹按编号覆盖前面的。",
    catalog_folder_add: "浏览…",
    catalog_reload: "重新加载",
    catalog_folder_path: "文件夹路径",
    catalog_folder_add_typed: "添加文件夹",
    catalog_not_a_folder: "{} 不是文件夹",
    browse_catalog_folder: "选择要添加的部件库文件夹中的任一文件",
    close: "关闭",
    catalog_folders_none: "没有部件库文件夹：使用内置部件库。",
    catalog_reloaded: "部件库已重新加载：{} 个部件，来自 {} 个文件夹",
    fix_remove_line: "删除该行",
    fix_open_tco: "打开 TCO 选项卡",
    fix_open_parts_list: "打开物料清单",
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
            t.cloud_offer,
            t.cloud_offer_hint,
            t.offer_automatic,
            t.offer_not_found,
            t.custom_offers,
            t.add_custom_offer,
            t.custom_offer_name,
            t.offer_name,
            t.offer_pricing,
            t.pricings[0],
            t.pricings[1],
            t.offer_price,
            t.every_hour,
            t.every_hour_hint,
            t.remove,
            t.yearly_owned_cost,
            t.yearly_owned_cost_hint,
            t.includes_depreciation,
            t.circuit_volts,
            t.circuit_amps,
            t.circuit_phases,
            t.phases[0],
            t.phases[1],
            t.edit_price,
            t.edit_price_hint,
            t.unit_price,
            t.use_catalog_price,
            t.catalog_folders,
            t.catalog_folders_intro,
            t.catalog_folder_add,
            t.catalog_reload,
            t.catalog_folder_path,
            t.catalog_folder_add_typed,
            t.catalog_not_a_folder,
            t.browse_catalog_folder,
            t.close,
            t.catalog_folders_none,
            t.catalog_reloaded,
            t.fix_remove_line,
            t.fix_open_tco,
            t.fix_open_parts_list,
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
