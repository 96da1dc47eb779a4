//! The desktop app driven headless with egui_kittest (no display, no GPU): one binary, one
//! module per concern. Most tests run the real `rigplan::gui::App` as eframe would; `panels`
//! lays out single panels with a small frame context, and `modules` checks that the GUI's
//! modules form no cycle.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers outside #[test] functions panic on a broken fixture, which fails the test"
)]

mod acceptance;
mod accuracy;
mod advisor;
mod advisor_explain;
mod browser;
mod common;
mod compare;
mod compare_add;
mod compare_explain;
mod drops;
mod editing;
mod explain;
mod explain_counts;
mod explain_plots;
mod explain_tabs;
mod export;
mod figures;
mod files;
mod fix_controls;
mod fixes;
mod language;
mod layout;
mod modules;
mod palette;
mod panels;
mod prices;
mod readable;
mod sheet_out;
mod shell;
mod tabs;
