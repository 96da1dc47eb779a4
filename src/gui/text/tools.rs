//! Text of the app's tools around the build: the built-in file browser, UI zoom, copying and
//! printing the parts list, adding builds to the comparison from inside the compare view, and
//! its plot scales. English and Simplified Chinese (terms from `../shared/guide/zh-terms.md`).
//!
//! Templates mark their arguments with `{}`, filled in order by `core::i18n::fill`.

/// The tools' text table.
#[derive(Debug)]
pub struct ToolTexts {
    // The built-in file browser.
    pub browse_open: &'static str,
    pub browse_save: &'static str,
    /// "Export {format}".
    pub browse_export: &'static str,
    pub browse_png: &'static str,
    pub browse_compare_add: &'static str,
    pub browse_config: &'static str,
    pub browse_prices: &'static str,
    /// Why the built-in browser shows instead of the system's dialog: "{reason}".
    pub browse_fallback: &'static str,
    pub browse_folder: &'static str,
    pub browse_up: &'static str,
    pub browse_home: &'static str,
    pub browse_recent: &'static str,
    pub browse_file_name: &'static str,
    /// "Only {extensions} files".
    pub browse_only: &'static str,
    pub browse_show_all: &'static str,
    pub browse_empty: &'static str,
    /// The confirm button: open a file.
    pub browse_confirm_open: &'static str,
    /// The confirm button: save a file.
    pub browse_confirm_save: &'static str,
    /// "“{file}” already exists. Replace it?"
    pub browse_exists: &'static str,
    pub browse_replace: &'static str,
    pub browse_no_name: &'static str,
    /// "There is no file “{}”."
    pub browse_not_found: &'static str,
    /// "Cannot read the folder {}: {}"
    pub browse_unreadable: &'static str,
    /// "“{}” is not a folder to save in."
    pub browse_no_folder: &'static str,
    /// View menu: the preference.
    pub view_builtin_browser: &'static str,

    // Zoom.
    pub view_zoom_in: &'static str,
    pub view_zoom_out: &'static str,
    pub view_zoom_reset: &'static str,
    /// "Zoom {}%".
    pub view_zoom: &'static str,

    // Copy and print.
    pub copy_markdown: &'static str,
    /// "Copied the parts list of “{}” as Markdown."
    pub copied_markdown: &'static str,
    pub print_sheet: &'static str,
    /// "Opened the build sheet for printing: {}"
    pub print_opened: &'static str,
    /// "Could not open the build sheet ({}). It is saved at {}: open it in a browser to print it."
    pub print_failed: &'static str,
    pub print_write_failed: &'static str,

    // Compare: adding builds, plot scales.
    pub compare_add_build: &'static str,
    pub compare_recent: &'static str,
    pub compare_templates: &'static str,
    pub compare_autosaves: &'static str,
    pub compare_file: &'static str,
    pub compare_none_found: &'static str,
    pub compare_log_scale: &'static str,
    pub compare_normalize: &'static str,
    /// In `CompareNorm::ALL` order.
    pub compare_norms: [&'static str; 3],
    /// Y-axis titles for the normalised cost curves, in `CompareNorm::ALL` order after the first.
    pub compare_norm_units: [&'static str; 2],
}

/// English.
pub static EN: ToolTexts = ToolTexts {
    browse_open: "Open build",
    browse_save: "Save build as",
    browse_export: "Export {}",
    browse_png: "Save plot as PNG",
    browse_compare_add: "Add a build file to the comparison",
    browse_config: "Add model from config.json",
    browse_prices: "Import price list",
    browse_fallback: "The system's file dialog did not open ({}): rigplan's own file browser is shown instead.",
    browse_folder: "Folder",
    browse_up: "Up",
    browse_home: "Home",
    browse_recent: "Recent folders",
    browse_file_name: "File name",
    browse_only: "Only {} files",
    browse_show_all: "Show all files",
    browse_empty: "No matching files in this folder.",
    browse_confirm_open: "Open",
    browse_confirm_save: "Save",
    browse_exists: "“{}” already exists. Replace it?",
    browse_replace: "Replace",
    browse_no_name: "Type a file name, or pick a file from the list.",
    browse_not_found: "There is no file “{}”.",
    browse_unreadable: "Cannot read the folder {}: {}",
    browse_no_folder: "There is no folder {} to save in.",
    view_builtin_browser: "Always use the built-in file browser",
    view_zoom_in: "Zoom in",
    view_zoom_out: "Zoom out",
    view_zoom_reset: "Actual size",
    view_zoom: "Zoom {}%",
    copy_markdown: "Copy parts list as Markdown",
    copied_markdown: "Copied the parts list of “{}” as Markdown.",
    print_sheet: "Print build sheet…",
    print_opened: "Opened the build sheet to print from your browser: {}",
    print_failed: "Could not open the build sheet ({}). It is saved at {}: open it in a browser to print it.",
    print_write_failed: "Cannot write the build sheet to print",
    compare_add_build: "Add build",
    compare_recent: "Recent files",
    compare_templates: "Templates",
    compare_autosaves: "Autosaves",
    compare_file: "File…",
    compare_none_found: "None",
    compare_log_scale: "Log scale",
    compare_normalize: "Cost as",
    compare_norms: ["Total", "Per GPU", "Relative to the first build"],
    compare_norm_units: ["Cost per GPU", "Cost ÷ first build's"],
};

/// Simplified Chinese.
pub static ZH: ToolTexts = ToolTexts {
    browse_open: "打开配置方案",
    browse_save: "配置方案另存为",
    browse_export: "导出 {}",
    browse_png: "将图表保存为 PNG",
    browse_compare_add: "添加配置方案文件到对比",
    browse_config: "从 config.json 添加模型",
    browse_prices: "导入价格表",
    browse_fallback: "系统文件对话框未能打开（{}）：改用 rigplan 自带的文件浏览器。",
    browse_folder: "文件夹",
    browse_up: "上一级",
    browse_home: "主目录",
    browse_recent: "最近的文件夹",
    browse_file_name: "文件名",
    browse_only: "仅显示 {} 文件",
    browse_show_all: "显示所有文件",
    browse_empty: "此文件夹中没有匹配的文件。",
    browse_confirm_open: "打开",
    browse_confirm_save: "保存",
    browse_exists: "“{}”已存在。要替换吗？",
    browse_replace: "替换",
    browse_no_name: "请输入文件名，或从列表中选择文件。",
    browse_not_found: "文件“{}”不存在。",
    browse_unreadable: "无法读取文件夹 {}：{}",
    browse_no_folder: "文件夹 {} 不存在，无法保存。",
    view_builtin_browser: "始终使用自带的文件浏览器",
    view_zoom_in: "放大",
    view_zoom_out: "缩小",
    view_zoom_reset: "实际大小",
    view_zoom: "缩放 {}%",
    copy_markdown: "复制部件清单（Markdown）",
    copied_markdown: "已将“{}”的部件清单复制为 Markdown。",
    print_sheet: "打印配置单…",
    print_opened: "已打开配置单，请在浏览器中打印：{}",
    print_failed: "无法打开配置单（{}）。它已保存在 {}：请用浏览器打开后打印。",
    print_write_failed: "无法写出要打印的配置单",
    compare_add_build: "添加配置方案",
    compare_recent: "最近的文件",
    compare_templates: "模板",
    compare_autosaves: "自动保存",
    compare_file: "文件…",
    compare_none_found: "无",
    compare_log_scale: "对数坐标",
    compare_normalize: "成本显示为",
    compare_norms: ["总额", "每 GPU", "相对第一个配置方案"],
    compare_norm_units: ["每 GPU 成本", "成本 ÷ 第一个配置方案"],
};

#[cfg(test)]
mod tests {
    use super::*;

    fn all(t: &ToolTexts) -> Vec<&'static str> {
        let mut v = vec![
            t.browse_open,
            t.browse_save,
            t.browse_export,
            t.browse_png,
            t.browse_compare_add,
            t.browse_config,
            t.browse_prices,
            t.browse_fallback,
            t.browse_folder,
            t.browse_up,
            t.browse_home,
            t.browse_recent,
            t.browse_file_name,
            t.browse_only,
            t.browse_show_all,
            t.browse_empty,
            t.browse_confirm_open,
            t.browse_confirm_save,
            t.browse_exists,
            t.browse_replace,
            t.browse_no_name,
            t.browse_not_found,
            t.browse_unreadable,
            t.browse_no_folder,
            t.view_builtin_browser,
            t.view_zoom_in,
            t.view_zoom_out,
            t.view_zoom_reset,
            t.view_zoom,
            t.copy_markdown,
            t.copied_markdown,
            t.print_sheet,
            t.print_opened,
            t.print_failed,
            t.print_write_failed,
            t.compare_add_build,
            t.compare_recent,
            t.compare_templates,
            t.compare_autosaves,
            t.compare_file,
            t.compare_none_found,
            t.compare_log_scale,
            t.compare_normalize,
        ];
        v.extend(t.compare_norms);
        v.extend(t.compare_norm_units);
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
    }
}
