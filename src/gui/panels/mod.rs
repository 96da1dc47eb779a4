//! Panels: one file per panel. Each reads through a [`crate::gui::context::FrameCtx`] and
//! writes only by pushing commands.

pub mod accuracy;
pub mod advisor;
pub mod analysis;
pub mod canvas;
pub mod compare;
mod compare_explain;
pub mod dialogs;
pub mod explain;
pub mod fit;
pub mod menu;
pub mod palette;
mod plot_hover;
mod plots;
pub mod power;
pub mod status;
pub mod tco;
pub mod thermal;
