//! Every piece of text the app shows, in one table.
//!
//! A translation is another `Texts` value: [`ZH`] (Simplified Chinese, `text/zh.rs`) beside
//! [`EN`]; [`for_lang`] picks the table of the language the user chose in View → Language (or
//! the locale's), and the app switches tables at once. Templates mark their arguments with `{}` and are filled in order
//! by [`fill`], so a translation may reorder words around them but keeps their order. Texts
//! that come from the core (findings, file errors, edit errors) are the core's own messages.
//! Copy is sentence case; "…" marks a button that opens a dialog.

pub use crate::core::i18n::fill;

pub mod accuracy;
pub mod advisor;
pub mod figures;
pub mod fixes;
pub mod spec_fields;
mod table;
pub mod tools;
pub mod zh;

pub use table::{Plural, Texts};

pub use zh::ZH;

use crate::core::i18n::Lang;

/// The table of a language.
#[must_use]
pub fn for_lang(lang: Lang) -> &'static Texts {
    match lang {
        Lang::En => &EN,
        Lang::ZhCn => &ZH,
    }
}

/// An amount of money as the UI writes it: a yuan amount with the language's yuan form
/// (`¥27,489` in Chinese), any other currency as the figure and its ISO 4217 code
/// (`27,489 USD`, as the build sheets write it). `figure` is already formatted (thousands
/// separators, decimals).
#[must_use]
pub fn money(t: &Texts, figure: &str, currency: &impl std::fmt::Display) -> String {
    let currency = currency.to_string();
    if currency.eq_ignore_ascii_case("CNY") {
        fill(t.money_cny, &[&figure])
    } else {
        fill(t.money, &[&figure, &currency])
    }
}

/// A whole amount with thousands separators, as [`money`] writes it.
#[must_use]
pub fn money_whole(t: &Texts, amount: f64, currency: &impl std::fmt::Display) -> String {
    money(t, &crate::core::units::format_thousands(amount, 0), currency)
}

/// A headline amount (the summary's capex): in Chinese a yuan amount of 100,000 or more in
/// 万 with two decimals (`¥249.87 万`, as Chinese quotes and budgets state large sums), with
/// the exact figure for the hover text; every other amount as [`money_whole`] and no hover.
#[must_use]
pub fn money_headline(t: &Texts, amount: f64, currency: &impl std::fmt::Display) -> (String, Option<String>) {
    let exact = money_whole(t, amount, currency);
    if let Some(template) = t.money_cny_wan
        && currency.to_string().eq_ignore_ascii_case("CNY")
        && amount.abs() >= 100_000.0
    {
        let wan = crate::core::units::format_thousands(amount / 10_000.0, 2);
        (fill(template, &[&wan]), Some(exact))
    } else {
        (exact, None)
    }
}

/// A new, empty build named in a language: the untitled build's name and its first node's.
#[must_use]
pub fn blank_build(texts: &Texts) -> crate::core::build::Build {
    let mut build = crate::core::build::Build::new(texts.untitled_build);
    if let Some(node) = build.nodes.first_mut() {
        node.name = fill(texts.node_default_name, &[&1]);
    }
    build
}

/// English.
pub static EN: Texts = Texts {
    n_nodes: Plural { one: "{} node", other: "{} nodes" },
    n_gpus: Plural { one: "{} GPU", other: "{} GPUs" },
    n_circuits: Plural { one: "{} circuit", other: "{} circuits" },
    advisor: &advisor::EN,
    tools: &tools::EN,
    figures: &figures::EN,
    fixes: &fixes::EN,
    accuracy: &accuracy::EN,
    app_name: "rigplan",
    window_title: "{}{} — rigplan",
    unsaved_marker: " •",
    untitled_build: "Untitled build",
    node_default_name: "Node {}",

    menu_file: "File",
    menu_edit: "Edit",
    menu_view: "View",
    menu_help: "Help",
    file_new: "New build",
    file_new_from_template: "New from template",
    file_open: "Open…",
    file_open_recent: "Open recent",
    file_save: "Save",
    file_save_as: "Save as…",
    file_export: "Export",
    file_import_prices: "Import price list…",
    export_formats: ["CSV…", "Excel workbook (XLSX)…", "Markdown…", "HTML, printable…", "JSON report…"],
    export_file_types: ["CSV file", "Excel workbook", "Markdown file", "HTML page", "JSON file"],
    file_quit: "Quit",
    edit_undo: "Undo",
    edit_redo: "Redo",
    edit_add_node: "Add node",
    edit_remove_part: "Remove selected part",
    view_theme: "Theme",
    view_language: "Language",
    theme_system: "Follow the system",
    theme_dark: "Dark",
    theme_light: "Light",
    view_palette: "Catalog palette",
    view_analysis: "Analysis panel",
    view_stale_months: "Prices stale after (months)",
    view_compare: "Compare…",
    view_back_to_build: "Back to the build",
    help_about: "About {}",

    kind_names: [
        "GPUs", "CPUs", "Boards", "Memory", "Storage", "PSUs", "Coolers", "Chassis", "NICs", "Switches", "Systems",
    ],
    search_hint: "Search the catalog",
    search_clear: "Clear the search",
    filters: "Filters",
    any: "Any",
    at_least: "{} at least",
    filter_vendor: "Vendor",
    filter_form_factor: "Form factor",
    filter_memory_type: "Memory type",
    filter_socket: "Socket",
    filter_module: "Module",
    filter_interface: "Interface",
    filter_efficiency: "Efficiency",
    filter_type: "Type",
    filter_technology: "Technology",
    filter_price: "Price ({})",
    price_from: "Lowest price",
    price_to: "Highest price",
    figure_gpu_memory: "GPU memory (GiB)",
    figure_cores: "Cores",
    figure_pcie_slots: "PCIe slots",
    figure_capacity_gib: "Capacity (GiB)",
    figure_capacity_tb: "Capacity (TB)",
    figure_watts: "Rated power (W)",
    figure_heat_watts: "Cooling capacity (W)",
    figure_gpu_length: "GPU length (mm)",
    figure_port_speed: "Port speed (Gb/s)",
    figure_system_gpus: "GPUs",
    sort_by: "Sort by",
    sort_relevance: "Best match",
    sort_name: "Name",
    sort_vendor: "Vendor",
    sort_price: "Price",
    sort_price_per_gib: "Price per GiB of GPU memory",
    sort_price_per_tflops: "Price per TFLOPS (dense BF16/FP16)",
    reset_filters: "Reset filters",
    sort_ascending: "Ascending",
    sort_descending: "Descending",
    palette_count: "{} of {} parts",
    palette_kind_empty: "The catalog has no parts of this kind.",
    palette_no_match: "No part matches the search and filters.",
    add: "Add",
    add_hint: "Add one to {} (or double-click the row, or drag it onto the build)",
    no_price: "no price",
    stale_price_hint: "Price dated {}, older than {} months: confirm it with the vendor",
    stale_mark: "stale",
    source: "Source: {}",
    defined_at: "Defined at {}",
    spec_gpu: "{} GiB {} · {} GB/s · {} W · {}",
    spec_slot_width: " · {}-slot",
    spec_cpu: "{} cores / {} threads · {} · {} W",
    spec_board: "{} · {} · {} DIMM · {} PCIe",
    spec_baseboard: "{} baseboard · {} GPU positions",
    spec_memory: "{} GiB {} {} · {} MT/s{}",
    spec_ecc: " · ECC",
    spec_storage: "{} TB · {} · {} MB/s read",
    spec_psu: "{} W · {}",
    spec_cooler: "{} · rated {} W",
    spec_chassis: "{} · {} slots · {} CFM",
    spec_nic: "{} × {} Gb/s {}",
    spec_switch: "{} × {} Gb/s {} · {}U",
    spec_system: "{} · {} GiB · {} W max",
    cooler_kinds: ["Air", "All-in-one liquid", "Custom loop", "Server heatsink"],
    chassis_kinds: ["Tower", "Rack", "Disk enclosure"],
    yes: "yes",
    no: "no",
    build_file_type: "rigplan build",
    png_file_type: "PNG image",

    build_name: "Build",
    add_node: "Add node",
    trash: "Drop here to remove",
    node_name: "Node",
    node_count_hint: "How many identical nodes this card stands for",
    node_summary: "{} · {} GiB GPU memory · {} per node",
    node_empty_hint: "Drag parts here from the catalog, or select this node and double-click a part.",
    duplicate_node: "Duplicate",
    remove_node: "Remove node",
    slot_names: [
        "Chassis",
        "Board",
        "CPU sockets",
        "CPU cooler",
        "DIMM slots",
        "GPU positions",
        "M.2 slots",
        "2.5\" bays",
        "3.5\" bays",
        "PSU bays",
        "System",
    ],
    slots_used: "{} / {}",
    more_slots: "+{}",
    slot_empty: "empty",
    slot_covered: "covered by {}",
    pcie_slots: "PCIe slots",
    gpu_bays: "GPU bays",
    gpu_bay_label: "Bay {}",
    pcie_slot_label: "#{} x{} (x{} Gen{})",
    card_in_slot: "{} · {}-slot card",
    no_free_slot: "No free slot fits {}",
    quantity: "×{}",
    quantity_more: "One more",
    quantity_less: "One fewer",
    remove_part: "Remove this part",
    cluster_area: "Cluster",
    cluster_hint: "Drop switches, shared drives and disk enclosures here.",
    pcie_slot_of_node: "PCIe slot {} of {}",
    drop_accepted: "Drop to add it here",
    drop_refused_here: "Cannot go here:",
    drop_to_remove: "Drop to remove it from the build",
    drop_refused: "{} cannot go in {}; nothing was changed.",
    drag_stale: "The build changed during the drag; nothing was changed.",
    added_to: "Added {} to {}.",
    dismiss: "Dismiss",

    tab_summary: "Summary",
    tab_issues: "Issues ({})",
    summary_nodes_gpus: "{} · {}",
    summary_capex: "Capital cost",
    money: "{} {}",
    money_cny: "{} CNY",
    money_cny_wan: None,
    summary_capex_parts: "Parts {} + custom items {}",
    summary_exchange: "Catalog USD prices at {} {} per USD",
    summary_unpriced: Plural {
        one: "{} line has no price and is not in the total",
        other: "{} lines have no price and are not in the total",
    },
    summary_findings: "Findings",
    summary_wall: "Wall power at max",
    summary_gpu_headroom: "Worst GPU headroom",
    summary_headroom_c: "{} °C ({})",
    summary_cooler_headroom: "Worst CPU cooler headroom",
    summary_headroom_w: "{} W ({})",
    summary_models_inference: "Models that fit, inference",
    summary_models_finetune: "Models that fit, fine-tuning",
    summary_models_of: "{} of {}",
    summary_tco_owned: "TCO owned",
    summary_money_over: "{} over {} years",
    summary_tco_primary: "Compared with",
    summary_tco_cloud: "Cheapest cloud",
    severity_count: "{} {}",
    severity_error: "errors",
    severity_warning: "warnings",
    severity_info: "info",
    severity_labels: ["Error", "Warning", "Info"],
    show_issues: "Show issues",
    summary_bom: "Bill of materials",
    summary_prices_stale: "Catalog prices: {} of {} older than {} months (stale)",
    summary_prices_fresh: "Catalog prices: {} dated, none older than {} months",
    summary_bom_empty: "The build has no parts yet.",
    bom_part: "Part",
    bom_quantity: "Qty",
    bom_total: "Total ({})",
    issues_none: "No findings: nothing in this build conflicts.",
    issues_hint: "Click a finding to highlight the parts involved.",
    fix: "Fix: {}",

    status_not_saved: "Not saved yet",
    status_unsaved: "• unsaved changes",
    status_autosaved: "Autosaved at {}",
    status_totals: "{} · {}",
    status_capex: "Capex {}",
    status_findings: "{} errors · {} warnings",

    opened: "Opened {}.",
    saved_to: "Saved to {}.",
    open_failed: "Cannot open the build",
    template_failed: "Cannot start from the template",
    template_unknown: "There is no template `{}`.",
    save_failed: "Cannot save the build",
    catalog_failed: "Cannot load the user catalog; using the built-in catalog",
    reopen_failed: "Could not reopen the last build: {}",
    not_a_build_file: "{} is not a rigplan build file (they end in .ron).",
    error_build_untouched: "The build you were working on is unchanged.",
    nothing_to_undo: "Nothing to undo.",
    nothing_to_redo: "Nothing to redo.",
    ok: "OK",
    cancel: "Cancel",
    prompt_title: "Save changes to “{}”?",
    prompt_before_new: "Starting a new build replaces this one.",
    prompt_before_open: "Opening another build replaces this one.",
    prompt_before_close: "Closing rigplan discards unsaved changes.",
    prompt_before_restore: "Restoring the recovered build replaces this one.",
    prompt_save: "Save",
    prompt_discard: "Don't save",
    recovery_title: "Restore unsaved work?",
    recovery_body: "rigplan did not close cleanly last time. An autosaved copy of “{}” was found.",
    recovery_from: "It was opened from {}.",
    recovery_restore: "Restore",
    recovery_discard: "Discard",
    recovery_restored: "Restored the autosaved build. Save it to keep it.",
    recovery_failed: "Problem with the recovery folder",
    autosave_failed: "Autosave failed: {}",
    plot_saved: "Saved the plot to {}.",
    plot_save_failed: "Cannot save the plot",
    exported_to: "Exported the {} to {}.",
    export_failed: "Cannot export",
    import_columns: ["Row", "Part", "Price", "Why"],
    import_unmatched: "Not matched",
    import_matched: "Matched",
    import_nothing: "No row of {} matched a catalog part; nothing was written.",
    import_written: "{} price(s) from {} written to {} ({} in all); the catalog is reloaded.",
    import_title: "Price list import",
    import_no_folder: "There is no user catalog folder to import into on this system; start rigplan with --catalog DIR",
    import_failed: "Cannot import the price list",
    about_version: "Version {}",
    about_body: "Plan deep-learning machines and clusters: compatibility, power, thermal headroom, memory fit, speed and cost.",
    about_shortcuts: "Keyboard shortcuts",

    tab_power: "Power",
    tab_thermal: "Thermal",
    tab_fit: "Memory & speed",
    tab_tco: "TCO",
    save_png: "Save as PNG…",
    not_applicable: "n/a",
    assumptions: "Assumptions",
    no_gpus: "The build has no GPUs.",
    node_times: "{} ×{}",
    levels: "idle {} · typical {} · max {}",
    axis_watts: "W",
    axis_celsius: "°C",
    axis_gib: "GiB per GPU",
    axis_months: "months",
    axis_utilization: "utilization (%)",
    power_wall: "Wall draw",
    power_dc: "DC load",
    power_transient: "Transient peak (DC)",
    power_psu_load: "PSU load at max",
    power_recommended: "Recommended PSUs",
    power_rack: "Rack",
    rack_kw: "{} kW · {}",
    power_by_component: "Maximum draw by component, per node",
    power_none: "Nothing in the build draws power yet.",
    psu_gauge: "{} of {} ({} %)",
    psu_efficiency: "{} · efficiency {} % typical, {} % at max",
    psu_none: "No PSU in this node (or a complete system with its own supplies).",
    transient_margin: "Transient peak {}: margin {}",
    psu_recommendation: "Recommended PSU: {}",
    circuit_check: "Circuit {} V × {} A ({}-phase): continuous limit {}; wall draw {}; {}",
    ambient: "Ambient",
    heat_load: "Heat load",
    heat_btu: "Heat load (BTU/h)",
    heat_tons: "Cooling (tons)",
    gpu_temperatures: "GPU temperature at full load against its limit",
    gpu_column: "GPU",
    gpu_estimated: "Estimated",
    gpu_limit: "Limit",
    gpu_headroom: "Headroom",
    node_heat: "Heat {} W ({} BTU/h) per node",
    airflow: "Airflow needed {} CFM of {} CFM",
    airflow_unknown: "Airflow needed {} CFM (the chassis airflow is not known)",
    cooler_load: "{}: {} W on a cooler rated {} W",
    cooler_unknown: "{}: no cooler rating to compare with",
    set_currency: "Currency",
    set_exchange_rate: "Units per USD",
    set_electricity: "Electricity per kWh",
    set_pue: "PUE",
    set_horizon: "Horizon (years)",
    set_utilization: "Utilization",
    tco_capex: "Capex",
    tco_owned_per_year: "Owned, operating cost per year",
    tco_owned_total: "Owned over the horizon",
    tco_break_even: "Break-even",
    tco_break_even_at: "month {}",
    tco_break_even_after: "month {} (after the horizon)",
    tco_no_break_even: "never within the comparison",
    tco_per_gpu_hour: "Owned cost per GPU-hour used",
    tco_per_million_tokens: "Owned cost per 1M tokens",
    tco_energy_per_million_tokens: "Energy per 1M tokens",
    tco_energy_per_run: "Energy per planned run",
    kwh_value: "{} kWh",
    tco_cumulative: "Cumulative cost: owned against cloud",
    tco_owned: "Owned",
    tco_vs_utilization: "Total cost against utilization",
    tco_current_utilization: "Planned utilization",
    tco_yearly: "Yearly breakdown",
    tco_year: "Year",
    tco_operating: "Operating",
    tco_depreciation: "Depreciation",
    tco_cash: "Cash",
    tco_cumulative_cash: "Cumulative",
    tco_notes: "Notes on the comparison",
    fit_node_group: "GPUs of",
    fit_gpus: "{} × {} per node × {} ({} each)",
    fit_model: "Model",
    fit_select_hint: "Select a cell to see its memory breakdown and speed.",
    fit_add_model: "Add model from config.json…",
    fit_add_model_hint: "Read a Hugging Face config.json (Llama, Qwen, Mistral, Gemma, DeepSeek, gpt-oss, GLM, Llama 4 …) and add the model to your catalog; the matrix then lists it",
    config_file_type: "Model configuration (config.json)",
    model_add_failed: "Cannot add the model",
    model_add_no_folder: "There is no user catalog folder to keep the model in; start rigplan with --catalog DIR",
    model_added: "Added {} ({} B parameters) to the model catalog in {}; the matrix lists it.",
    fit_layout: "Layout {} on {}",
    fit_decode: "Decode {} tokens/s",
    fit_prefill: "Prefill {} tokens/s",
    fit_train: "Training {} tokens/s",
    fit_train_time: "{} B tokens take {} h",
    fit_cell_title: "{} on {} × {}",
    fit_precision: "Precision",
    fit_batch: "Batch",
    fit_context: "Context (tokens)",
    fit_zero: "ZeRO stage",
    fit_train_tokens: "Training tokens",
    fit_reset: "Reset to the standard workload",
    fit_engine: "Engine",
    fit_engine_default: "{} (default)",
    fit_users: "Users",
    fit_tokens_per_user: "Tokens/s per user",
    fit_prompt: "Prompt (tokens)",
    fit_budget: "{} may use {} of each GPU",
    fit_no_speed: "No speed figures: the workload does not fit.",
    fit_serving: "Serving",
    fit_serving_kv: "KV cache: {} per GPU, {} tokens per replica; longest context {}",
    fit_serving_concurrency: "{} sequences of {} tokens at once per replica, {} replica(s)",
    fit_serving_ttft: "Time to first token ({}-token prompt): {} ms",
    fit_serving_load: "{} user(s): {} tokens/s each, {} tokens/s in all, {} J/token",
    fit_serving_over: "{} user(s): their KV caches exceed the budget",
    fit_serving_target: "Users at {} tokens/s each: {}",
    fit_train_energy: "Training energy: {} MWh",
    fit_images: "{} images per minute at {} steps, {} s per image",
    verdict_fits: "Fits",
    verdict_tight: "Fits, tight (over 90 %)",
    verdict_no_fit: "Does not fit",
    verdict_not_applicable: "Does not apply",
    mem_weights: "Weights",
    mem_gradients: "Gradients",
    mem_optimizer: "Optimizer states",
    mem_activations: "Activations",
    mem_kv_cache: "KV cache",
    mem_overhead: "CUDA context and workspace",
    mem_capacity: "{} memory",
    mem_total: "{}: {} of {} per GPU ({} %)",
    fit_workloads: ["Infer bf16", "Infer Q4", "LoRA", "QLoRA", "Full FT"],

    compare_title: "Compare builds",
    compare_add_current: "Add the current build",
    compare_add_file: "Add from file…",
    compare_model: "Speed rows for",
    compare_export: "Export",
    compare_export_formats: ["Markdown…", "CSV…", "JSON…", "HTML, printable…"],
    compare_export_file_types: ["Markdown file", "CSV file", "JSON file", "HTML page"],
    compare_hint: "Add two to four builds to compare them: the build you are editing, or build files.",
    compare_count: "{} of {} builds",
    compare_current: "Current build (follows your edits)",
    compare_remove: "Remove",
    compare_metric: "Metric",
    compare_best: "{} (best)",
    compare_best_hint: "Best of the builds on this row",
    compare_outcomes: ["better", "worse", "same"],
    compare_delta: "{} ({})",
    compare_amounts: "Amounts in {}, TCO over {} years",
    compare_tco_curves: "Cumulative cost: owned (solid) against each build's cloud option (dashed)",
    compare_owned: "{} owned",
    compare_cloud: "{} cloud",
    compare_cloud_option: "Cloud: {}",
    compare_no_cloud: "no matching cloud option",
    compare_power_bars: "Wall power",
    compare_power_levels: ["Idle", "Typical", "Max"],
    compare_fit_diff: "Memory fit: the cells that differ",
    compare_fit_same: "Every fit-matrix cell has the same verdict in every build.",
    compare_workload: "Workload",
    compare_parts_diff: "Parts that differ",
    compare_parts_same: "The builds use the same parts in the same quantities.",
    compare_category: "Category",
    compare_part: "Part",
    compare_quantity: "{} ({})",
    compare_notes: "Notes on the comparison",
    compare_full: "A comparison takes at most {} builds; remove one first.",
    compare_current_already: "The current build is already in the comparison.",
    compare_add_failed: "Cannot add the build to the comparison",
    compare_failed: "Cannot compare these builds",
    compare_left_out: "Left out of the comparison: {}",
    compare_file_name_joiner: " vs ",
    shortcuts: &[
        ("Ctrl+N", "New build"),
        ("Ctrl+O", "Open…"),
        ("Ctrl+S", "Save"),
        ("Ctrl+Shift+S", "Save as…"),
        ("Ctrl+P", "Print build sheet…"),
        ("Ctrl+=, Ctrl+−, Ctrl+0", "Zoom in, zoom out, actual size"),
        ("Ctrl+Z", "Undo"),
        ("Ctrl+Shift+Z, Ctrl+Y", "Redo"),
        ("Delete", "Remove the selected part"),
        ("Esc", "Cancel a drag"),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text field of [`Texts`] by kind, for the tests: (field, English, Chinese) for each
    /// string, both forms of each plural, each element of each array and each shortcut's
    /// description, and the names of all the fields listed.
    macro_rules! pairs {
        (
            $en:expr, $zh:expr;
            strs: $($s:ident),* ;
            plurals: $($p:ident),* ;
            arrays: $($a:ident),* ;
            pairs: $($t:ident),* ;
            others: $($o:ident),* $(,)?
        ) => {
            /// (field, English, Chinese) for every piece of text of the two tables.
            pub(crate) fn pairs() -> Vec<(&'static str, &'static str, &'static str)> {
                let (en, zh): (&Texts, &Texts) = (&$en, &$zh);
                let mut v = vec![$((stringify!($s), en.$s, zh.$s),)*];
                $(
                    v.push((stringify!($p), en.$p.one, zh.$p.one));
                    v.push((stringify!($p), en.$p.other, zh.$p.other));
                )*
                $( v.extend(en.$a.iter().zip(zh.$a.iter()).map(|(e, z)| (stringify!($a), *e, *z))); )*
                $( v.extend(en.$t.iter().zip(zh.$t.iter()).map(|(e, z)| (stringify!($t), e.1, z.1))); )*
                v
            }

            /// The names of every field the list above covers, text or not.
            pub(crate) fn field_names() -> Vec<&'static str> {
                vec![$(stringify!($s),)* $(stringify!($p),)* $(stringify!($a),)* $(stringify!($t),)* $(stringify!($o),)*]
            }
        };
    }

    pairs!(
        EN, ZH;
        strs:
            app_name,
            window_title,
            unsaved_marker,
            untitled_build,
            node_default_name,
            menu_file,
            menu_edit,
            menu_view,
            menu_help,
            file_new,
            file_new_from_template,
            file_open,
            file_open_recent,
            file_save,
            file_save_as,
            file_export,
            file_import_prices,
            file_quit,
            edit_undo,
            edit_redo,
            edit_add_node,
            edit_remove_part,
            view_theme,
            view_language,
            theme_system,
            theme_dark,
            theme_light,
            view_palette,
            view_analysis,
            view_stale_months,
            view_compare,
            view_back_to_build,
            help_about,
            search_hint,
            search_clear,
            filters,
            any,
            at_least,
            filter_vendor,
            filter_form_factor,
            filter_memory_type,
            filter_socket,
            filter_module,
            filter_interface,
            filter_efficiency,
            filter_type,
            filter_technology,
            filter_price,
            price_from,
            price_to,
            figure_gpu_memory,
            figure_cores,
            figure_pcie_slots,
            figure_capacity_gib,
            figure_capacity_tb,
            figure_watts,
            figure_heat_watts,
            figure_gpu_length,
            figure_port_speed,
            figure_system_gpus,
            sort_by,
            sort_relevance,
            sort_name,
            sort_vendor,
            sort_price,
            sort_price_per_gib,
            sort_price_per_tflops,
            reset_filters,
            sort_ascending,
            sort_descending,
            palette_count,
            palette_kind_empty,
            palette_no_match,
            add,
            add_hint,
            no_price,
            stale_price_hint,
            stale_mark,
            source,
            defined_at,
            spec_gpu,
            spec_slot_width,
            spec_cpu,
            spec_board,
            spec_baseboard,
            spec_memory,
            spec_ecc,
            spec_storage,
            spec_psu,
            spec_cooler,
            spec_chassis,
            spec_nic,
            spec_switch,
            spec_system,
            yes,
            no,
            build_file_type,
            png_file_type,
            build_name,
            add_node,
            trash,
            node_name,
            node_count_hint,
            node_summary,
            node_empty_hint,
            duplicate_node,
            remove_node,
            slots_used,
            more_slots,
            slot_empty,
            slot_covered,
            pcie_slots,
            gpu_bays,
            gpu_bay_label,
            pcie_slot_label,
            card_in_slot,
            no_free_slot,
            quantity,
            quantity_more,
            quantity_less,
            remove_part,
            cluster_area,
            cluster_hint,
            pcie_slot_of_node,
            drop_accepted,
            drop_refused_here,
            drop_to_remove,
            drop_refused,
            drag_stale,
            added_to,
            dismiss,
            tab_summary,
            tab_issues,
            summary_nodes_gpus,
            summary_capex,
            money,
            money_cny,
            summary_capex_parts,
            summary_exchange,
            summary_findings,
            summary_wall,
            summary_gpu_headroom,
            summary_headroom_c,
            summary_cooler_headroom,
            summary_headroom_w,
            summary_models_inference,
            summary_models_finetune,
            summary_models_of,
            summary_tco_owned,
            summary_money_over,
            summary_tco_primary,
            summary_tco_cloud,
            severity_count,
            severity_error,
            severity_warning,
            severity_info,
            show_issues,
            summary_bom,
            summary_prices_stale,
            summary_prices_fresh,
            summary_bom_empty,
            bom_part,
            bom_quantity,
            bom_total,
            issues_none,
            issues_hint,
            fix,
            status_not_saved,
            status_unsaved,
            status_autosaved,
            status_totals,
            status_capex,
            status_findings,
            opened,
            saved_to,
            open_failed,
            template_failed,
            template_unknown,
            save_failed,
            catalog_failed,
            reopen_failed,
            not_a_build_file,
            error_build_untouched,
            nothing_to_undo,
            nothing_to_redo,
            ok,
            cancel,
            prompt_title,
            prompt_before_new,
            prompt_before_open,
            prompt_before_close,
            prompt_before_restore,
            prompt_save,
            prompt_discard,
            recovery_title,
            recovery_body,
            recovery_from,
            recovery_restore,
            recovery_discard,
            recovery_restored,
            recovery_failed,
            autosave_failed,
            plot_saved,
            plot_save_failed,
            exported_to,
            export_failed,
            import_unmatched,
            import_matched,
            import_nothing,
            import_written,
            import_title,
            import_no_folder,
            import_failed,
            about_version,
            about_body,
            about_shortcuts,
            tab_power,
            tab_thermal,
            tab_fit,
            tab_tco,
            save_png,
            not_applicable,
            assumptions,
            no_gpus,
            node_times,
            levels,
            axis_watts,
            axis_celsius,
            axis_gib,
            axis_months,
            axis_utilization,
            power_wall,
            power_dc,
            power_transient,
            power_psu_load,
            power_recommended,
            power_rack,
            rack_kw,
            power_by_component,
            power_none,
            psu_gauge,
            psu_efficiency,
            psu_none,
            transient_margin,
            psu_recommendation,
            circuit_check,
            ambient,
            heat_load,
            heat_btu,
            heat_tons,
            gpu_temperatures,
            gpu_column,
            gpu_estimated,
            gpu_limit,
            gpu_headroom,
            node_heat,
            airflow,
            airflow_unknown,
            cooler_load,
            cooler_unknown,
            set_currency,
            set_exchange_rate,
            set_electricity,
            set_pue,
            set_horizon,
            set_utilization,
            tco_capex,
            tco_owned_per_year,
            tco_owned_total,
            tco_break_even,
            tco_break_even_at,
            tco_break_even_after,
            tco_no_break_even,
            tco_per_gpu_hour,
            tco_per_million_tokens,
            tco_energy_per_million_tokens,
            tco_energy_per_run,
            kwh_value,
            tco_cumulative,
            tco_owned,
            tco_vs_utilization,
            tco_current_utilization,
            tco_yearly,
            tco_year,
            tco_operating,
            tco_depreciation,
            tco_cash,
            tco_cumulative_cash,
            tco_notes,
            fit_node_group,
            fit_gpus,
            fit_model,
            fit_select_hint,
            fit_add_model,
            fit_add_model_hint,
            config_file_type,
            model_add_failed,
            model_add_no_folder,
            model_added,
            fit_layout,
            fit_decode,
            fit_prefill,
            fit_train,
            fit_train_time,
            fit_cell_title,
            fit_precision,
            fit_batch,
            fit_context,
            fit_zero,
            fit_train_tokens,
            fit_reset,
            fit_engine,
            fit_engine_default,
            fit_users,
            fit_tokens_per_user,
            fit_prompt,
            fit_budget,
            fit_no_speed,
            fit_serving,
            fit_serving_kv,
            fit_serving_concurrency,
            fit_serving_ttft,
            fit_serving_load,
            fit_serving_over,
            fit_serving_target,
            fit_train_energy,
            fit_images,
            verdict_fits,
            verdict_tight,
            verdict_no_fit,
            verdict_not_applicable,
            mem_weights,
            mem_gradients,
            mem_optimizer,
            mem_activations,
            mem_kv_cache,
            mem_overhead,
            mem_capacity,
            mem_total,
            compare_title,
            compare_add_current,
            compare_add_file,
            compare_model,
            compare_export,
            compare_hint,
            compare_count,
            compare_current,
            compare_remove,
            compare_metric,
            compare_best,
            compare_best_hint,
            compare_delta,
            compare_amounts,
            compare_tco_curves,
            compare_owned,
            compare_cloud,
            compare_cloud_option,
            compare_no_cloud,
            compare_power_bars,
            compare_fit_diff,
            compare_fit_same,
            compare_workload,
            compare_parts_diff,
            compare_parts_same,
            compare_category,
            compare_part,
            compare_quantity,
            compare_notes,
            compare_full,
            compare_current_already,
            compare_add_failed,
            compare_failed,
            compare_left_out,
            compare_file_name_joiner;
        plurals:
            n_nodes,
            n_gpus,
            n_circuits,
            summary_unpriced;
        arrays:
            export_formats,
            import_columns,
            export_file_types,
            kind_names,
            cooler_kinds,
            chassis_kinds,
            slot_names,
            severity_labels,
            fit_workloads,
            compare_export_formats,
            compare_export_file_types,
            compare_outcomes,
            compare_power_levels;
        pairs:
            shortcuts;
        others:
            advisor,
            tools,
            figures,
            fixes,
            accuracy,
            money_cny_wan,
    );

    #[test]
    fn fill_replaces_in_order_and_never_panics() {
        assert_eq!(fill("{} of {} parts", &[&3, &25]), "3 of 25 parts");
        assert_eq!(fill("no markers", &[&1]), "no markers");
        assert_eq!(fill("{} and {}", &[&"a"]), "a and {}");
        assert_eq!(fill("“{}”", &[&"名字"]), "“名字”");
    }

    #[test]
    fn plural_picks_the_form_that_fits_the_count() {
        assert_eq!(EN.n_nodes.count(1u32), "1 node");
        assert_eq!(EN.n_nodes.count(0u32), "0 nodes");
        assert_eq!(EN.n_gpus.count(8u32), "8 GPUs");
        assert_eq!(EN.summary_unpriced.count(1u32), "1 line has no price and is not in the total");
        for p in [EN.n_nodes, EN.n_gpus, EN.n_circuits, EN.summary_unpriced] {
            assert_eq!(p.one.matches("{}").count(), 1, "{}", p.one);
            assert_eq!(p.other.matches("{}").count(), 1, "{}", p.other);
        }
    }

    /// Yuan as `¥` in Chinese, 万 for large headline figures with the exact amount on hover;
    /// English and other currencies keep the ISO code after the figure.
    #[test]
    fn money_in_each_language() {
        assert_eq!(money_whole(&ZH, 27_489.4, &"CNY"), "¥27,489");
        assert_eq!(money_whole(&EN, 27_489.4, &"CNY"), "27,489 CNY");
        assert_eq!(money_whole(&ZH, 3_100.0, &"USD"), "3,100 USD");
        assert_eq!(money(&ZH, "1.25", &"CNY"), "¥1.25");
        // 2,498,700 ÷ 10,000 = 249.87.
        assert_eq!(money_headline(&ZH, 2_498_700.0, &"CNY"), ("¥249.87 万".to_owned(), Some("¥2,498,700".to_owned())));
        assert_eq!(money_headline(&ZH, 99_999.0, &"CNY"), ("¥99,999".to_owned(), None));
        assert_eq!(money_headline(&EN, 2_498_700.0, &"CNY"), ("2,498,700 CNY".to_owned(), None));
        assert_eq!(money_headline(&ZH, 2_498_700.0, &"USD"), ("2,498,700 USD".to_owned(), None));
    }

    #[test]
    fn markers_match_the_arguments_the_app_passes() {
        // The templates the app fills with a fixed number of arguments.
        let t = &EN;
        for (template, n) in [
            (t.window_title, 2),
            (t.palette_count, 2),
            (t.spec_gpu, 5),
            (t.spec_memory, 5),
            (t.node_summary, 3),
            (t.drop_refused, 2),
            (t.pcie_slot_label, 4),
            (t.status_findings, 2),
        ] {
            assert_eq!(template.matches("{}").count(), n, "{template}");
        }
    }

    #[test]
    fn chinese_templates_keep_the_english_markers() {
        for (field, en, zh) in pairs() {
            assert_eq!(en.matches("{}").count(), zh.matches("{}").count(), "{field}: {en:?} / {zh:?}");
            assert_eq!(en.matches('{').count(), zh.matches('{').count(), "{field}: {en:?} / {zh:?}");
            assert_eq!(en.matches('}').count(), zh.matches('}').count(), "{field}: {en:?} / {zh:?}");
        }
        for p in [ZH.n_nodes, ZH.n_gpus, ZH.n_circuits, ZH.summary_unpriced] {
            assert_eq!(p.one, p.other, "Chinese has no plural");
        }
        assert_eq!(ZH.shortcuts.len(), EN.shortcuts.len());
        for (en, zh) in EN.shortcuts.iter().zip(ZH.shortcuts) {
            assert_eq!(en.0, zh.0, "the keys stay as written");
        }
    }

    #[test]
    fn the_chinese_table_is_in_chinese() {
        let cjk = |s: &str| s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        // Texts with words in them; "{} / {}" and the like have nothing to translate.
        let worded: Vec<_> =
            pairs().into_iter().filter(|(_, en, _)| en.chars().any(|c| c.is_ascii_alphabetic())).collect();
        let chinese = worded.iter().filter(|(_, _, zh)| cjk(zh)).count();
        assert!(chinese * 10 >= worded.len() * 9, "{chinese} of {} texts are in Chinese", worded.len());
    }

    #[test]
    fn the_chinese_table_lists_every_field() {
        // The field lines of `Texts`, read from this file, so that a field added without a
        // Chinese test pair fails here.
        let source = include_str!("text/table.rs");
        let start = source.find("\npub struct Texts {").expect("the struct");
        let body = &source[start..];
        let body = &body[..body.find("\n}\n").expect("its end")];
        let mut fields: Vec<&str> = body
            .lines()
            .filter_map(|l| l.strip_prefix("    pub "))
            .map(|l| l.split(':').next().unwrap_or_default().trim())
            .collect();
        let mut listed = field_names();
        assert!(fields.len() > 300, "{} fields", fields.len());
        assert_eq!(listed.len(), fields.len());
        fields.sort_unstable();
        listed.sort_unstable();
        assert_eq!(listed, fields);
    }
}
