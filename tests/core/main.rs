//! Integration tests of the UI-free core and the CLI (no egui: runs under
//! `cargo test --no-default-features`). One binary, one module per concern.

mod architecture;
mod bad_input;
mod catalog;
mod cli;
mod migrations;
mod save_crash;
mod templates;
