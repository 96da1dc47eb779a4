//! Design tokens: the only place colours, sizes and spacing are defined.
//!
//! egui's own dark and light visuals are the base; [`install`] adjusts both once at start
//! (spacing, corner radii), and [`tokens`] gives the app's semantic colours (severity, drop
//! accept/refuse, slot fills) for the theme in use. Panels ask for a token by meaning, never
//! for a literal colour.

use egui::{Color32, CornerRadius, Theme, ThemePreference};
use serde::{Deserialize, Serialize};

/// Padding inside a node card, points.
pub const CARD_PADDING: f32 = 10.0;
/// Vertical gap between node cards, points.
pub const CARD_GAP: f32 = 10.0;
/// Corner radius of cards and slot boxes, points.
pub const CARD_RADIUS: u8 = 6;
/// Height of one palette row (two lines of text), points.
pub const PALETTE_ROW_HEIGHT: f32 = 40.0;
/// Side of a category icon, points.
pub const ICON_SIZE: f32 = 16.0;
/// Size of one slot box in the diagram (DIMM, bay, socket), points.
pub const SLOT_BOX: egui::Vec2 = egui::vec2(12.0, 18.0);
/// Height of one PCIe slot row in the diagram, points.
pub const PCIE_ROW_HEIGHT: f32 = 20.0;
/// Width of the label column of the slot diagram, points.
pub const SLOT_LABEL_WIDTH: f32 = 92.0;
/// Width kept free after a row of slot boxes for the count and the occupants' names, points.
pub const SLOT_TEXT_RESERVE: f32 = 200.0;
/// Most slot boxes drawn in one row; larger groups show the rest as a count.
pub const MAX_SLOT_BOXES: u32 = 48;
/// Stroke width of a drop-target outline, points.
pub const DROP_STROKE: f32 = 2.0;
/// Width of the label column of the analysis panel's figures, points.
pub const FIGURE_LABEL_WIDTH: f32 = 180.0;
/// Height of a plot in the analysis panel, points.
pub const PLOT_HEIGHT: f32 = 220.0;
/// Height of a plot with many series (the TCO curves), points.
pub const TALL_PLOT_HEIGHT: f32 = 300.0;
/// Default widths of the side panels in a window 1600 points wide or wider, points.
pub const PALETTE_WIDTH: f32 = 360.0;
pub const ANALYSIS_WIDTH: f32 = 440.0;
pub const EXPLAIN_PANEL_WIDTH: f32 = 360.0;
/// Widest a figure's explanation on hover gets, points.
pub const EXPLAIN_WIDTH: f32 = 420.0;
/// Width of the metric column of the compare view, points; on a narrow window at most
/// [`COMPARE_METRIC_SHARE`] of the width, and at least [`COMPARE_METRIC_MIN_WIDTH`].
pub const COMPARE_METRIC_WIDTH: f32 = 330.0;
pub const COMPARE_METRIC_SHARE: f32 = 0.4;
pub const COMPARE_METRIC_MIN_WIDTH: f32 = 160.0;
/// Width of one build's column in the compare view, points.
pub const COMPARE_COLUMN_WIDTH: f32 = 190.0;
/// Canvas width from which the compare view puts its two plots side by side, points.
pub const COMPARE_SIDE_BY_SIDE_WIDTH: f32 = 1000.0;

/// The user's theme choice, persisted with the UI preferences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ThemeChoice {
    /// Follow the operating system.
    #[default]
    System,
    Dark,
    Light,
}

impl ThemeChoice {
    #[must_use]
    pub fn preference(self) -> ThemePreference {
        match self {
            Self::System => ThemePreference::System,
            Self::Dark => ThemePreference::Dark,
            Self::Light => ThemePreference::Light,
        }
    }
}

/// Semantic colours of one theme.
#[derive(Clone, Debug)]
pub struct Tokens {
    pub accent: Color32,
    pub ok: Color32,
    pub warn: Color32,
    pub error: Color32,
    pub info: Color32,
    pub muted: Color32,
    /// Outline of a drop target that accepts what is dragged.
    pub drop_accept: Color32,
    /// Outline of a drop target that refuses what is dragged.
    pub drop_refuse: Color32,
    /// Fill of the drop target under the pointer when it accepts.
    pub drop_accept_fill: Color32,
    /// Fill of the drop target under the pointer when it refuses.
    pub drop_refuse_fill: Color32,
    /// Outline of parts a selected finding is about.
    pub highlight: Color32,
    /// Outline of the selected part line.
    pub selected: Color32,
    pub card_fill: Color32,
    pub card_stroke: Color32,
    /// A slot with nothing in it.
    pub slot_empty: Color32,
    /// A slot with a part in it.
    pub slot_filled: Color32,
    /// A slot blocked by the width of a card in a neighbouring slot.
    pub slot_covered: Color32,
    /// More parts than the platform has slots for.
    pub slot_over: Color32,
    pub banner_info: Color32,
    pub banner_error: Color32,
    /// Background of the best value of a compare row.
    pub best_fill: Color32,
    /// Colours of plot series, in order (distinct for up to eight series).
    pub series: [Color32; 8],
}

static DARK: Tokens = Tokens {
    accent: Color32::from_rgb(90, 170, 255),
    ok: Color32::from_rgb(110, 200, 120),
    warn: Color32::from_rgb(235, 180, 70),
    error: Color32::from_rgb(240, 95, 90),
    info: Color32::from_rgb(120, 170, 230),
    muted: Color32::from_rgb(150, 150, 150),
    drop_accept: Color32::from_rgb(110, 200, 120),
    drop_refuse: Color32::from_rgb(240, 95, 90),
    drop_accept_fill: Color32::from_rgba_premultiplied(30, 70, 35, 60),
    drop_refuse_fill: Color32::from_rgba_premultiplied(80, 25, 25, 60),
    highlight: Color32::from_rgb(255, 200, 60),
    selected: Color32::from_rgb(90, 170, 255),
    card_fill: Color32::from_rgb(32, 34, 38),
    card_stroke: Color32::from_rgb(60, 63, 70),
    slot_empty: Color32::from_rgb(48, 51, 57),
    slot_filled: Color32::from_rgb(60, 120, 190),
    slot_covered: Color32::from_rgb(70, 70, 80),
    slot_over: Color32::from_rgb(200, 80, 70),
    banner_info: Color32::from_rgb(30, 50, 75),
    banner_error: Color32::from_rgb(80, 32, 32),
    best_fill: Color32::from_rgb(30, 72, 40),
    series: [
        Color32::from_rgb(90, 170, 255),
        Color32::from_rgb(240, 150, 60),
        Color32::from_rgb(110, 200, 120),
        Color32::from_rgb(220, 100, 200),
        Color32::from_rgb(240, 210, 80),
        Color32::from_rgb(120, 220, 220),
        Color32::from_rgb(240, 95, 90),
        Color32::from_rgb(170, 150, 255),
    ],
};

static LIGHT: Tokens = Tokens {
    accent: Color32::from_rgb(20, 100, 200),
    ok: Color32::from_rgb(30, 130, 50),
    warn: Color32::from_rgb(170, 110, 0),
    error: Color32::from_rgb(190, 40, 35),
    info: Color32::from_rgb(30, 90, 170),
    muted: Color32::from_rgb(110, 110, 110),
    drop_accept: Color32::from_rgb(30, 150, 60),
    drop_refuse: Color32::from_rgb(200, 45, 40),
    drop_accept_fill: Color32::from_rgba_premultiplied(40, 150, 70, 40),
    drop_refuse_fill: Color32::from_rgba_premultiplied(200, 50, 40, 40),
    highlight: Color32::from_rgb(215, 150, 0),
    selected: Color32::from_rgb(20, 100, 200),
    card_fill: Color32::from_rgb(250, 250, 252),
    card_stroke: Color32::from_rgb(205, 208, 214),
    slot_empty: Color32::from_rgb(225, 228, 233),
    slot_filled: Color32::from_rgb(90, 150, 220),
    slot_covered: Color32::from_rgb(190, 190, 200),
    slot_over: Color32::from_rgb(220, 90, 80),
    banner_info: Color32::from_rgb(220, 233, 250),
    banner_error: Color32::from_rgb(252, 224, 222),
    best_fill: Color32::from_rgb(212, 240, 214),
    series: [
        Color32::from_rgb(20, 100, 200),
        Color32::from_rgb(210, 110, 20),
        Color32::from_rgb(30, 140, 60),
        Color32::from_rgb(170, 50, 160),
        Color32::from_rgb(170, 140, 0),
        Color32::from_rgb(0, 140, 150),
        Color32::from_rgb(190, 40, 35),
        Color32::from_rgb(100, 80, 200),
    ],
};

/// The semantic colours of a theme.
#[must_use]
pub fn tokens(theme: Theme) -> &'static Tokens {
    match theme {
        Theme::Dark => &DARK,
        Theme::Light => &LIGHT,
    }
}

/// The smallest text size of the default style, in points (logical pixels at zoom 100 %):
/// Issue 17 set the floor at 11 px after egui's 9 px Small style proved unreadable in use.
pub const MIN_TEXT_SIZE: f32 = 11.0;

/// Adds the shipped CJK font and adjusts egui's dark and light styles, once, at start.
pub fn install(ctx: &egui::Context) {
    super::fonts::install(ctx);
    install_style(ctx);
}

/// The style half of [`install`], without the shipped CJK font (the first-frame bench
/// measures what the font costs against it).
pub fn install_style(ctx: &egui::Context) {
    ctx.all_styles_mut(|style| {
        style.spacing.item_spacing = egui::vec2(8.0, 5.0);
        style.spacing.button_padding = egui::vec2(6.0, 3.0);
        style.spacing.interact_size.y = 20.0;
        style.visuals.window_corner_radius = CornerRadius::same(CARD_RADIUS + 2);
        style.visuals.menu_corner_radius = CornerRadius::same(CARD_RADIUS);
        // egui's Small style is 9 pt: slot labels, "Fix:" lines, assumptions and plot legends
        // were unreadable. Nothing is drawn under MIN_TEXT_SIZE at zoom 100 %.
        for font in style.text_styles.values_mut() {
            font.size = font.size.max(MIN_TEXT_SIZE);
        }
    });
}

/// Applies a theme choice.
pub fn apply_choice(ctx: &egui::Context, choice: ThemeChoice) {
    ctx.set_theme(choice.preference());
}
