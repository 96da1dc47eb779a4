//! Integration tests of the UI-free core and the CLI (no egui: runs under
//! `cargo test --no-default-features`). One binary, one module per concern.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test helpers outside #[test] functions panic on a broken fixture, which fails the test"
)]

mod advisor;
mod approx;
mod architecture;
mod bad_input;
mod basis;
mod basis_fit;
mod catalog;
mod china;
mod cli;
mod cli_zh;
mod clouds;
mod codes;
mod compare;
mod compat;
mod configs;
mod export;
mod export_cli;
mod fit;
mod hostile;
mod hw_cli;
mod hw_fixture;
mod hw_templates;
mod localize;
mod memory;
mod migrations;
mod models;
mod power;
mod props;
mod reference;
mod save_crash;
mod speed;
mod stages;
mod subset;
mod summary;
mod tco;
mod templates;
mod thermal;
mod validate;
mod workload_tco;
