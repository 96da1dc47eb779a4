//! Integration tests of the UI-free core and the CLI (no egui: runs under
//! `cargo test --no-default-features`). One binary, one module per concern.

mod architecture;
mod bad_input;
mod catalog;
mod cli;
mod clouds;
mod compat;
mod hw_cli;
mod hw_fixture;
mod hw_templates;
mod migrations;
mod power;
mod props;
mod save_crash;
mod tco;
mod templates;
mod thermal;
