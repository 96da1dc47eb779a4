//! The desktop app driven headless with egui_kittest (no display, no GPU): one binary, one
//! module per concern. Every test runs the real `rigplan::gui::App` as eframe would.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers outside #[test] functions panic on a broken fixture, which fails the test"
)]

mod common;
mod compare;
mod editing;
mod export;
mod files;
mod shell;
mod tabs;
