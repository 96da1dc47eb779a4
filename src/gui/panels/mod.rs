//! Panels: one file per panel. Each reads through a [`crate::gui::context::FrameCtx`] and
//! writes only by pushing commands.

pub mod analysis;
pub mod canvas;
pub mod dialogs;
pub mod menu;
pub mod palette;
pub mod status;
