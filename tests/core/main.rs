//! Integration tests of the UI-free core and the CLI (no egui: runs under
//! `cargo test --no-default-features`). One binary, one module per concern.

mod architecture;
mod catalog;
mod cli;
mod clouds;
mod compare;
mod compat;
mod export;
mod export_cli;
mod fit;
mod hw_cli;
mod hw_fixture;
mod hw_templates;
mod memory;
mod models;
mod power;
mod speed;
mod tco;
mod templates;
mod thermal;
mod workload_tco;
