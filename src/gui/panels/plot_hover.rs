//! A plot explains the figure under the pointer: its hover names the series, gives its value
//! there and the bases of the figures the series is drawn from (what, formula with the build's
//! numbers, source, confidence), and a click pins those bases, like a figure row
//! ([`super::explain`]).
//!
//! Each plot says what is under a plot point ([`Hovered`]); the series are the cached charts'
//! ([`crate::gui::derived::Charts`]) and the bases the cached report's, so nothing here
//! computes beyond reading a curve at the pointer.

use crate::core::i18n::Lang;
use crate::gui::context::FrameCtx;
use egui_plot::{PlotPoint, PlotResponse};

/// What the pointer is on: the series and its value there, in words (`Owned at month 18:
/// 41,200 USD`), and the figures explaining it.
#[derive(Clone, Debug, PartialEq)]
pub struct Hovered {
    pub text: String,
    pub keys: Vec<String>,
}

/// The words a plot hover writes.
pub struct Words {
    /// `{series} at month {month}: {value}`.
    pub at_month: &'static str,
    /// `{series} at {percent} % utilization: {value}`.
    pub at_utilization: &'static str,
    /// `{node}, {kind}: {value}`.
    pub part_kind_in: &'static str,
    /// `{estimate} (limit {limit})`.
    pub with_limit: &'static str,
}

const EN: Words = Words {
    at_month: "{} at month {}: {}",
    at_utilization: "{} at {} % utilization: {}",
    part_kind_in: "{}, {}: {}",
    with_limit: "{} (limit {})",
};

const ZH: Words = Words {
    at_month: "{}：第 {} 个月 {}",
    at_utilization: "{}：利用率 {} % 时 {}",
    part_kind_in: "{} 中的{}：{}",
    with_limit: "{}（上限 {}）",
};

/// The words in a language.
#[must_use]
pub fn words(lang: Lang) -> &'static Words {
    match lang {
        Lang::En => &EN,
        Lang::ZhCn => &ZH,
    }
}

/// Explains what is under the pointer of a plot laid out this frame: `at` names it from the
/// pointer's plot coordinates. Nothing when the pointer is elsewhere or on nothing.
pub fn explain<R>(fx: &mut FrameCtx<'_>, plot: &PlotResponse<R>, at: impl FnOnce(PlotPoint) -> Option<Hovered>) {
    let Some(pos) = plot.response.hover_pos() else { return };
    let Some(h) = at(plot.transform.value_from_position(pos)) else { return };
    super::explain::hover_and_pin(fx, plot.response.clone(), &h.text, &h.keys);
}

/// A curve's value at `x`, linearly interpolated between its points (sorted by x); `None`
/// outside the curve.
#[must_use]
pub fn value_at(points: &[PlotPoint], x: f64) -> Option<f64> {
    let i = points.iter().position(|p| p.x >= x)?;
    let b = points.get(i)?;
    if i == 0 {
        return ((b.x - x).abs() < f64::EPSILON).then_some(b.y);
    }
    let a = points.get(i - 1)?;
    let span = b.x - a.x;
    Some(if span > 0.0 { a.y + (b.y - a.y) * (x - a.x) / span } else { b.y })
}

/// The curve nearest the pointer at its x: the index of the one whose value there is closest
/// to the pointer's y, with that value.
#[must_use]
pub fn nearest_curve(curves: &[&[PlotPoint]], at: PlotPoint) -> Option<(usize, f64)> {
    curves
        .iter()
        .enumerate()
        .filter_map(|(i, c)| value_at(c, at.x).map(|v| (i, v)))
        .min_by(|a, b| (a.1 - at.y).abs().total_cmp(&(b.1 - at.y).abs()))
}

/// Half the width of the bars of the power and temperature charts (0.6 wide, centred on whole
/// numbers; the memory bar, 0.5 wide, reads a few hundredths wider than it is).
const BAR_HALF_WIDTH: f64 = 0.3;

/// The bar under a pointer at plot x `x`, of `bars` bars at 0, 1, 2…: the nearest whole
/// number when the pointer is within the bar's width.
#[must_use]
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "a whole number checked to be in 0..bars before the cast"
)]
pub fn bar_at(x: f64, bars: usize) -> Option<usize> {
    let i = x.round();
    let on = (x - i).abs() <= BAR_HALF_WIDTH && i >= 0.0 && i < bars as f64;
    on.then_some(i as usize)
}

/// The segment of a stack of bars (bottom first) the height `y` falls in.
#[must_use]
pub fn stack_segment(heights: &[f64], y: f64) -> Option<usize> {
    if y < 0.0 {
        return None;
    }
    let mut top = 0.0;
    for (i, h) in heights.iter().enumerate() {
        top += h;
        if y <= top {
            return Some(i);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_is_read_between_its_points_and_not_outside() {
        let c = [PlotPoint::new(0.0, 100.0), PlotPoint::new(12.0, 220.0), PlotPoint::new(24.0, 340.0)];
        assert_eq!(value_at(&c, 0.0), Some(100.0));
        assert_eq!(value_at(&c, 6.0), Some(160.0));
        assert_eq!(value_at(&c, 18.0), Some(280.0));
        assert_eq!(value_at(&c, 24.5), None);
        assert_eq!(value_at(&c, -1.0), None);
        let d = [PlotPoint::new(0.0, 0.0), PlotPoint::new(24.0, 480.0)];
        // At month 6 the curves are at 160 and 120: a pointer at 125 is on the second.
        assert_eq!(nearest_curve(&[&c, &d], PlotPoint::new(6.0, 125.0)), Some((1, 120.0)));
        assert_eq!(nearest_curve(&[&c, &d], PlotPoint::new(6.0, 150.0)), Some((0, 160.0)));
    }

    #[test]
    fn a_pointer_is_on_a_bar_within_its_width() {
        assert_eq!(bar_at(1.2, 3), Some(1));
        assert_eq!(bar_at(1.5, 3), None);
        assert_eq!(bar_at(2.7, 3), None);
        assert_eq!(bar_at(-0.2, 3), Some(0));
        assert_eq!(bar_at(-0.5, 3), None);
    }

    #[test]
    fn a_height_falls_in_its_stack_segment() {
        let stack = [300.0, 150.0, 50.0];
        assert_eq!(stack_segment(&stack, 10.0), Some(0));
        assert_eq!(stack_segment(&stack, 420.0), Some(1));
        assert_eq!(stack_segment(&stack, 499.0), Some(2));
        assert_eq!(stack_segment(&stack, 501.0), None);
        assert_eq!(stack_segment(&stack, -1.0), None);
    }
}
