//! Integration tests of the UI-free core and the CLI (no egui: runs under
//! `cargo test --no-default-features`). One binary, one module per concern.

mod architecture;
mod catalog;
mod cli;
mod clouds;
mod tco;
mod templates;
