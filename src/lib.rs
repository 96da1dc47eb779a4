//! rigplan: a build configurator for deep-learning hardware.
//!
//! The crate has three layers:
//! - [`core`]: pure, UI-free, deterministic. The parts catalog, the build document, the analyses
//!   (compatibility, power, thermal, memory fit, speed, TCO), exports and persistence. It never
//!   touches egui, eframe or file dialogs, and it builds with `--no-default-features`.
//! - [`cli`]: the headless front end (`rigplan report|check|fit|tco|export|compare|catalog`).
//! - `gui` (feature `gui`, on by default): the egui desktop app.
//!
//! Front ends render the structured results of the core each in their own way; none of them
//! computes anything the core could.

pub mod cli;
pub mod core;
#[cfg(feature = "gui")]
pub mod gui;
