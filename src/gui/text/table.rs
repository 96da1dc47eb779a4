//! The shape of the UI text table ([`Texts`]) and its counted nouns ([`Plural`]), apart from
//! the tables themselves (`EN` in `text.rs`, `ZH` in `text/zh.rs`), so that each language's
//! table depends on this shape and nothing depends on a table.

use super::accuracy;
use super::advisor;
use super::{figures, fixes, tools};
use crate::core::i18n::fill;

/// A count with its noun, singular and plural, e.g. "1 node" / "3 nodes". A language
/// without plural forms (the planned Chinese table) gives the same template twice.
#[derive(Debug, Clone, Copy)]
pub struct Plural {
    /// Used when the count is exactly 1; `{}` is the count.
    pub one: &'static str,
    /// Used for every other count (0, 2, …); `{}` is the count.
    pub other: &'static str,
}

impl Plural {
    /// The count filled into the form that fits it.
    #[must_use]
    pub fn count(&self, n: impl TryInto<u64>) -> String {
        let n: u64 = n.try_into().unwrap_or(u64::MAX);
        fill(if n == 1 { self.one } else { self.other }, &[&n])
    }
}

/// The UI text table.
#[derive(Debug)]
pub struct Texts {
    /// "{} node" / "{} nodes".
    pub n_nodes: Plural,
    /// "{} GPU" / "{} GPUs".
    pub n_gpus: Plural,
    /// "{} circuit" / "{} circuits".
    pub n_circuits: Plural,
    /// The Advisor view's text.
    pub advisor: &'static advisor::AdvisorTexts,
    /// The file browser, zoom, copy and print, and the compare view's builds and scales.
    pub tools: &'static tools::ToolTexts,
    /// Plot legends and axes, cloud options, and display names of catalog values.
    pub figures: &'static figures::FigureTexts,
    /// The node options that findings' fixes name, and the Issues tab's one-click fixes.
    pub fixes: &'static fixes::FixTexts,
    /// Help → Accuracy….
    pub accuracy: &'static accuracy::AccuracyTexts,
    pub app_name: &'static str,
    /// `{build name}{unsaved marker}` — the window title.
    pub window_title: &'static str,
    pub unsaved_marker: &'static str,
    pub untitled_build: &'static str,
    pub node_default_name: &'static str,

    // Menus.
    pub menu_file: &'static str,
    pub menu_edit: &'static str,
    pub menu_view: &'static str,
    pub menu_help: &'static str,
    pub file_new: &'static str,
    pub file_new_from_template: &'static str,
    pub file_open: &'static str,
    pub file_open_recent: &'static str,
    pub file_save: &'static str,
    pub file_save_as: &'static str,
    pub file_export: &'static str,
    /// File → Import price list…
    pub file_import_prices: &'static str,
    /// File → Export items, in `export::Format::ALL` order.
    pub export_formats: [&'static str; 5],
    /// The file type names of the exports in save dialogs, in `export::Format::ALL` order.
    pub export_file_types: [&'static str; 5],
    pub file_quit: &'static str,
    pub edit_undo: &'static str,
    pub edit_redo: &'static str,
    pub edit_add_node: &'static str,
    pub edit_remove_part: &'static str,
    pub view_theme: &'static str,
    /// The heading of View → Language (the languages are listed in their own names).
    pub view_language: &'static str,
    pub theme_system: &'static str,
    pub theme_dark: &'static str,
    pub theme_light: &'static str,
    pub view_palette: &'static str,
    pub view_analysis: &'static str,
    /// View: the months after which a catalog price is marked stale.
    pub view_stale_months: &'static str,
    pub view_compare: &'static str,
    pub view_back_to_build: &'static str,
    pub help_about: &'static str,

    // Palette.
    /// Category tab names, in `PartKind::ALL` order.
    pub kind_names: [&'static str; 11],
    pub search_hint: &'static str,
    pub search_clear: &'static str,
    pub filters: &'static str,
    pub any: &'static str,
    pub at_least: &'static str,
    pub filter_vendor: &'static str,
    pub filter_form_factor: &'static str,
    pub filter_memory_type: &'static str,
    pub filter_socket: &'static str,
    pub filter_module: &'static str,
    pub filter_interface: &'static str,
    pub filter_efficiency: &'static str,
    pub filter_type: &'static str,
    pub filter_technology: &'static str,
    pub filter_price: &'static str,
    pub price_from: &'static str,
    pub price_to: &'static str,
    pub figure_gpu_memory: &'static str,
    pub figure_cores: &'static str,
    pub figure_pcie_slots: &'static str,
    pub figure_capacity_gib: &'static str,
    pub figure_capacity_tb: &'static str,
    pub figure_watts: &'static str,
    pub figure_heat_watts: &'static str,
    pub figure_gpu_length: &'static str,
    pub figure_port_speed: &'static str,
    pub figure_system_gpus: &'static str,
    pub sort_by: &'static str,
    pub sort_relevance: &'static str,
    pub sort_name: &'static str,
    pub sort_vendor: &'static str,
    pub sort_price: &'static str,
    /// Sort key: price per GiB of GPU memory.
    pub sort_price_per_gib: &'static str,
    /// Sort key: price per dense BF16/FP16 tensor TFLOPS.
    pub sort_price_per_tflops: &'static str,
    /// Button that clears the palette's filters of the shown kind.
    pub reset_filters: &'static str,
    pub sort_ascending: &'static str,
    pub sort_descending: &'static str,
    pub palette_count: &'static str,
    pub palette_kind_empty: &'static str,
    pub palette_no_match: &'static str,
    pub add: &'static str,
    pub add_hint: &'static str,
    pub no_price: &'static str,
    /// `Price dated {date}, older than {months} months: …`
    pub stale_price_hint: &'static str,
    /// Beside a stale price.
    pub stale_mark: &'static str,
    pub source: &'static str,
    pub defined_at: &'static str,
    pub spec_gpu: &'static str,
    pub spec_slot_width: &'static str,
    pub spec_cpu: &'static str,
    pub spec_board: &'static str,
    pub spec_baseboard: &'static str,
    pub spec_memory: &'static str,
    pub spec_ecc: &'static str,
    pub spec_storage: &'static str,
    pub spec_psu: &'static str,
    pub spec_cooler: &'static str,
    pub spec_chassis: &'static str,
    pub spec_nic: &'static str,
    pub spec_switch: &'static str,
    pub spec_system: &'static str,
    /// Cooler types: air, all-in-one, custom loop, server heatsink.
    pub cooler_kinds: [&'static str; 4],
    /// Chassis types: tower, rack, disk enclosure.
    pub chassis_kinds: [&'static str; 3],
    pub yes: &'static str,
    pub no: &'static str,
    /// The file type name in open and save dialogs.
    pub build_file_type: &'static str,
    pub png_file_type: &'static str,

    // Canvas.
    pub build_name: &'static str,
    pub add_node: &'static str,
    pub trash: &'static str,
    pub node_name: &'static str,
    pub node_count_hint: &'static str,
    pub node_summary: &'static str,
    pub node_empty_hint: &'static str,
    pub duplicate_node: &'static str,
    pub remove_node: &'static str,
    /// Slot group names, in `SlotKind::ALL` order.
    pub slot_names: [&'static str; 11],
    pub slots_used: &'static str,
    pub more_slots: &'static str,
    pub slot_empty: &'static str,
    pub slot_covered: &'static str,
    pub pcie_slots: &'static str,
    pub gpu_bays: &'static str,
    pub gpu_bay_label: &'static str,
    pub pcie_slot_label: &'static str,
    pub card_in_slot: &'static str,
    pub no_free_slot: &'static str,
    pub quantity: &'static str,
    pub quantity_more: &'static str,
    pub quantity_less: &'static str,
    pub remove_part: &'static str,
    pub cluster_area: &'static str,
    pub cluster_hint: &'static str,
    pub pcie_slot_of_node: &'static str,
    pub drop_accepted: &'static str,
    pub drop_refused_here: &'static str,
    pub drop_to_remove: &'static str,
    pub drop_refused: &'static str,
    pub drag_stale: &'static str,
    pub added_to: &'static str,
    pub dismiss: &'static str,

    // Analysis panel.
    pub tab_summary: &'static str,
    pub tab_issues: &'static str,
    pub summary_nodes_gpus: &'static str,
    pub summary_capex: &'static str,
    pub money: &'static str,
    /// An amount in yuan: `¥{}` in Chinese (as price tags and invoices in China write it),
    /// the figure and the ISO code in English.
    pub money_cny: &'static str,
    /// A headline yuan amount of 100,000 and more in units of 10,000 (万), in the languages
    /// that state large sums so (the exact figure on hover); `None` writes it as `money_cny`.
    pub money_cny_wan: Option<&'static str>,
    pub summary_capex_parts: &'static str,
    pub summary_exchange: &'static str,
    pub summary_unpriced: Plural,
    pub summary_findings: &'static str,
    pub summary_wall: &'static str,
    pub summary_gpu_headroom: &'static str,
    pub summary_headroom_c: &'static str,
    pub summary_cooler_headroom: &'static str,
    pub summary_headroom_w: &'static str,
    pub summary_models_inference: &'static str,
    pub summary_models_finetune: &'static str,
    pub summary_models_of: &'static str,
    pub summary_tco_owned: &'static str,
    pub summary_money_over: &'static str,
    /// The cloud option the TCO compares against (break-even is against it).
    pub summary_tco_primary: &'static str,
    pub summary_tco_cloud: &'static str,
    pub severity_count: &'static str,
    pub severity_error: &'static str,
    pub severity_warning: &'static str,
    pub severity_info: &'static str,
    /// A finding's severity, as its heading: error, warning, info.
    pub severity_labels: [&'static str; 3],
    pub show_issues: &'static str,
    pub summary_bom: &'static str,
    /// `Catalog prices: {stale} of {dated} older than {months} months (stale)`
    pub summary_prices_stale: &'static str,
    /// `Catalog prices: {dated} dated, none older than {months} months`
    pub summary_prices_fresh: &'static str,
    pub summary_bom_empty: &'static str,
    pub bom_part: &'static str,
    pub bom_quantity: &'static str,
    pub bom_total: &'static str,
    pub issues_none: &'static str,
    pub issues_hint: &'static str,
    pub fix: &'static str,

    // Status bar.
    pub status_not_saved: &'static str,
    pub status_unsaved: &'static str,
    pub status_autosaved: &'static str,
    pub status_totals: &'static str,
    pub status_capex: &'static str,
    pub status_findings: &'static str,

    // Files and dialogs.
    pub opened: &'static str,
    pub saved_to: &'static str,
    pub open_failed: &'static str,
    pub template_failed: &'static str,
    pub template_unknown: &'static str,
    pub save_failed: &'static str,
    pub catalog_failed: &'static str,
    pub reopen_failed: &'static str,
    pub not_a_build_file: &'static str,
    pub error_build_untouched: &'static str,
    pub nothing_to_undo: &'static str,
    pub nothing_to_redo: &'static str,
    pub ok: &'static str,
    pub cancel: &'static str,
    pub prompt_title: &'static str,
    pub prompt_before_new: &'static str,
    pub prompt_before_open: &'static str,
    pub prompt_before_close: &'static str,
    pub prompt_before_restore: &'static str,
    pub prompt_save: &'static str,
    pub prompt_discard: &'static str,
    pub recovery_title: &'static str,
    pub recovery_body: &'static str,
    pub recovery_from: &'static str,
    pub recovery_restore: &'static str,
    pub recovery_discard: &'static str,
    pub recovery_restored: &'static str,
    pub recovery_failed: &'static str,
    pub autosave_failed: &'static str,
    pub plot_saved: &'static str,
    pub plot_save_failed: &'static str,
    /// `{format} … {path}`: a build sheet or comparison was written.
    pub exported_to: &'static str,
    pub export_failed: &'static str,
    /// Row, part, price / reason columns of the import report.
    pub import_columns: [&'static str; 4],
    /// Heading of the rows not matched.
    pub import_unmatched: &'static str,
    /// Heading of the matched rows.
    pub import_matched: &'static str,
    /// `No row of {file} matched a catalog part; nothing was written.`
    pub import_nothing: &'static str,
    /// `{matched} price(s) from {file} written to {path} ({entries} in all); the catalog is reloaded.`
    pub import_written: &'static str,
    /// Title of the import report.
    pub import_title: &'static str,
    /// No folder to import into.
    pub import_no_folder: &'static str,
    /// Title of a failed import.
    pub import_failed: &'static str,
    pub about_version: &'static str,
    pub about_body: &'static str,
    pub about_shortcuts: &'static str,
    pub shortcuts: &'static [(&'static str, &'static str)],

    // Power, Thermal, Memory & speed and TCO tabs.
    pub tab_power: &'static str,
    pub tab_thermal: &'static str,
    pub tab_fit: &'static str,
    pub tab_tco: &'static str,
    pub save_png: &'static str,
    pub not_applicable: &'static str,
    pub assumptions: &'static str,
    pub no_gpus: &'static str,
    pub node_times: &'static str,
    pub levels: &'static str,
    pub axis_watts: &'static str,
    pub axis_celsius: &'static str,
    pub axis_gib: &'static str,
    pub axis_months: &'static str,
    pub axis_utilization: &'static str,
    pub power_wall: &'static str,
    pub power_dc: &'static str,
    pub power_transient: &'static str,
    pub power_psu_load: &'static str,
    pub power_recommended: &'static str,
    pub power_rack: &'static str,
    pub rack_kw: &'static str,
    pub power_by_component: &'static str,
    pub power_none: &'static str,
    pub psu_gauge: &'static str,
    pub psu_efficiency: &'static str,
    pub psu_none: &'static str,
    pub transient_margin: &'static str,
    pub psu_recommendation: &'static str,
    pub circuit_check: &'static str,
    pub ambient: &'static str,
    pub heat_load: &'static str,
    pub heat_btu: &'static str,
    pub heat_tons: &'static str,
    pub gpu_temperatures: &'static str,
    pub gpu_column: &'static str,
    pub gpu_estimated: &'static str,
    pub gpu_limit: &'static str,
    pub gpu_headroom: &'static str,
    pub node_heat: &'static str,
    pub airflow: &'static str,
    pub airflow_unknown: &'static str,
    pub cooler_load: &'static str,
    pub cooler_unknown: &'static str,
    pub set_currency: &'static str,
    pub set_exchange_rate: &'static str,
    pub set_electricity: &'static str,
    pub set_pue: &'static str,
    pub set_horizon: &'static str,
    pub set_utilization: &'static str,
    pub tco_capex: &'static str,
    pub tco_owned_per_year: &'static str,
    pub tco_owned_total: &'static str,
    pub tco_break_even: &'static str,
    pub tco_break_even_at: &'static str,
    pub tco_break_even_after: &'static str,
    pub tco_no_break_even: &'static str,
    pub tco_per_gpu_hour: &'static str,
    pub tco_per_million_tokens: &'static str,
    pub tco_energy_per_million_tokens: &'static str,
    pub tco_energy_per_run: &'static str,
    pub kwh_value: &'static str,
    pub tco_cumulative: &'static str,
    pub tco_owned: &'static str,
    pub tco_vs_utilization: &'static str,
    pub tco_current_utilization: &'static str,
    pub tco_yearly: &'static str,
    pub tco_year: &'static str,
    pub tco_operating: &'static str,
    pub tco_depreciation: &'static str,
    pub tco_cash: &'static str,
    pub tco_cumulative_cash: &'static str,
    pub tco_notes: &'static str,
    pub fit_node_group: &'static str,
    pub fit_gpus: &'static str,
    pub fit_model: &'static str,
    pub fit_select_hint: &'static str,
    /// The Memory & speed tab's button that adds a model from its config.json (a dialog).
    pub fit_add_model: &'static str,
    pub fit_add_model_hint: &'static str,
    /// File-type name of config.json files in the dialog.
    pub config_file_type: &'static str,
    /// Title of the error shown when a model cannot be added.
    pub model_add_failed: &'static str,
    pub model_add_no_folder: &'static str,
    /// Notice after adding a model: its name, billions of parameters, the file it was added to.
    pub model_added: &'static str,
    pub fit_layout: &'static str,
    pub fit_decode: &'static str,
    pub fit_prefill: &'static str,
    pub fit_train: &'static str,
    pub fit_train_time: &'static str,
    pub fit_cell_title: &'static str,
    pub fit_precision: &'static str,
    pub fit_batch: &'static str,
    pub fit_context: &'static str,
    pub fit_zero: &'static str,
    pub fit_train_tokens: &'static str,
    pub fit_reset: &'static str,
    pub fit_engine: &'static str,
    pub fit_engine_default: &'static str,
    pub fit_users: &'static str,
    pub fit_tokens_per_user: &'static str,
    pub fit_prompt: &'static str,
    pub fit_budget: &'static str,
    pub fit_no_speed: &'static str,
    pub fit_serving: &'static str,
    pub fit_serving_kv: &'static str,
    pub fit_serving_concurrency: &'static str,
    pub fit_serving_ttft: &'static str,
    pub fit_serving_load: &'static str,
    pub fit_serving_over: &'static str,
    pub fit_serving_target: &'static str,
    pub fit_train_energy: &'static str,
    pub fit_images: &'static str,
    pub verdict_fits: &'static str,
    pub verdict_tight: &'static str,
    pub verdict_no_fit: &'static str,
    pub verdict_not_applicable: &'static str,
    pub mem_weights: &'static str,
    pub mem_gradients: &'static str,
    pub mem_optimizer: &'static str,
    pub mem_activations: &'static str,
    pub mem_kv_cache: &'static str,
    pub mem_overhead: &'static str,
    pub mem_capacity: &'static str,
    pub mem_total: &'static str,
    /// Short names of the fit matrix's standard workloads, in `WorkloadKind::ALL` order.
    pub fit_workloads: [&'static str; 5],

    // Compare view.
    pub compare_title: &'static str,
    pub compare_add_current: &'static str,
    pub compare_add_file: &'static str,
    pub compare_model: &'static str,
    pub compare_export: &'static str,
    /// Compare → Export items, in `export::CompareFormat::ALL` order.
    pub compare_export_formats: [&'static str; 4],
    /// The file type names of comparison exports, in `export::CompareFormat::ALL` order.
    pub compare_export_file_types: [&'static str; 4],
    pub compare_hint: &'static str,
    pub compare_count: &'static str,
    pub compare_current: &'static str,
    pub compare_remove: &'static str,
    pub compare_metric: &'static str,
    /// A best value: `25,000 (best)`. Besides its highlight, so that it does not rest on colour.
    pub compare_best: &'static str,
    pub compare_best_hint: &'static str,
    /// How a build fares against the first: better, worse, same.
    pub compare_outcomes: [&'static str; 3],
    /// `{delta} ({outcome})`.
    pub compare_delta: &'static str,
    pub compare_amounts: &'static str,
    pub compare_tco_curves: &'static str,
    /// `{build label} owned`.
    pub compare_owned: &'static str,
    /// `{build label} cloud`: the cost of a build's primary cloud option.
    pub compare_cloud: &'static str,
    /// `Cloud: {option}` under a build's name.
    pub compare_cloud_option: &'static str,
    pub compare_no_cloud: &'static str,
    pub compare_power_bars: &'static str,
    /// Wall power levels of the grouped bars: idle, typical, max.
    pub compare_power_levels: [&'static str; 3],
    pub compare_fit_diff: &'static str,
    pub compare_fit_same: &'static str,
    pub compare_workload: &'static str,
    pub compare_parts_diff: &'static str,
    pub compare_parts_same: &'static str,
    pub compare_category: &'static str,
    pub compare_part: &'static str,
    /// `{quantity} ({delta})`.
    pub compare_quantity: &'static str,
    pub compare_notes: &'static str,
    pub compare_full: &'static str,
    pub compare_current_already: &'static str,
    pub compare_add_failed: &'static str,
    pub compare_failed: &'static str,
    pub compare_left_out: &'static str,
    /// Between build names in a comparison's file name.
    pub compare_file_name_joiner: &'static str,
}
