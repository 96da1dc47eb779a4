//! Units and conversions shared by every analysis.
//!
//! rigplan keeps units in names (`tdp_watts`, `memory_bytes`, `price_usd`, `ambient_c`) and
//! uses a newtype only where a mix-up is easy and costly: byte counts ([`Bytes`]).
//!
//! The money rule: an amount is an `f64` that always travels with its [`Currency`] (a report,
//! a sheet and a TCO carry one currency for all their amounts; catalog prices name theirs in
//! the field, `price_usd`), and is printed with [`format_thousands`]. Every conversion
//! constant names its source.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Bytes in a kibibyte (IEC 80000-13).
pub const KIB: u64 = 1024;
/// Bytes in a mebibyte (IEC 80000-13).
pub const MIB: u64 = 1024 * KIB;
/// Bytes in a gibibyte (IEC 80000-13).
pub const GIB: u64 = 1024 * MIB;
/// Bytes in a tebibyte (IEC 80000-13).
pub const TIB: u64 = 1024 * GIB;
/// Bytes in a (decimal) gigabyte, as drive vendors count them (IEC 80000-13, SI prefix).
pub const GB: u64 = 1_000_000_000;
/// Bytes in a (decimal) terabyte.
pub const TB: u64 = 1_000 * GB;

/// BTU per hour in one watt: 1 W = 3.412 BTU/h (ASHRAE Handbook, Fundamentals, ch. 38 unit
/// conversions; 1 BTU/h = 0.293 071 W).
pub const BTU_PER_HOUR_PER_WATT: f64 = 3.412_141_6;
/// BTU per hour in one ton of refrigeration: 12,000 BTU/h (ASHRAE Terminology; the heat to
/// melt one short ton of ice in 24 h).
pub const BTU_PER_HOUR_PER_COOLING_TON: f64 = 12_000.0;
/// Hours in a (non-leap) year, the convention of TCO calculators (365 × 24).
pub const HOURS_PER_YEAR: f64 = 8_760.0;
/// Months in a year.
pub const MONTHS_PER_YEAR: f64 = 12.0;
/// Watts in a kilowatt (SI).
pub const WATTS_PER_KILOWATT: f64 = 1_000.0;
/// Seconds in an hour (SI).
pub const SECONDS_PER_HOUR: f64 = 3_600.0;
/// Seconds in a day of Unix time, which counts every day as 86,400 s (POSIX.1-2017, §4.16
/// "Seconds Since the Epoch").
pub const SECONDS_PER_DAY: u64 = 86_400;

/// Converts watts to BTU per hour.
#[must_use]
pub fn watts_to_btu_per_hour(watts: f64) -> f64 {
    watts * BTU_PER_HOUR_PER_WATT
}

/// Converts watts of heat to tons of cooling.
#[must_use]
pub fn watts_to_cooling_tons(watts: f64) -> f64 {
    watts_to_btu_per_hour(watts) / BTU_PER_HOUR_PER_COOLING_TON
}

/// A byte count. Memory arithmetic is done in integers so that totals add up exactly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Bytes(pub u64);

impl Bytes {
    /// Bytes from a binary GiB figure (HBM and GDDR capacities are binary in practice).
    #[must_use]
    pub fn from_gib(gib: f64) -> Self {
        Self(round_non_negative(gib * GIB as f64))
    }

    /// This count in GiB.
    #[must_use]
    pub fn gib(self) -> f64 {
        self.0 as f64 / GIB as f64
    }

    /// This count in decimal GB.
    #[must_use]
    pub fn gb(self) -> f64 {
        self.0 as f64 / GB as f64
    }

    /// Saturating sum.
    #[must_use]
    pub fn saturating_add(self, other: Self) -> Self {
        Self(self.0.saturating_add(other.0))
    }
}

impl std::ops::Add for Bytes {
    type Output = Self;
    fn add(self, rhs: Self) -> Self {
        self.saturating_add(rhs)
    }
}

impl std::iter::Sum for Bytes {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Self(0), Self::saturating_add)
    }
}

impl fmt::Display for Bytes {
    /// Binary units, labelled as such (GiB, MiB), with three significant figures.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0 as f64;
        if self.0 >= TIB {
            write!(f, "{:.2} TiB", b / TIB as f64)
        } else if self.0 >= GIB {
            write!(f, "{:.2} GiB", b / GIB as f64)
        } else if self.0 >= MIB {
            write!(f, "{:.1} MiB", b / MIB as f64)
        } else if self.0 >= KIB {
            write!(f, "{:.1} KiB", b / KIB as f64)
        } else {
            write!(f, "{} B", self.0)
        }
    }
}

/// Rounds a non-negative finite float to the nearest integer; NaN and negatives give 0 and
/// values beyond `u64::MAX` saturate.
#[must_use]
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "the value is checked to be finite, non-negative and below u64::MAX before the cast"
)]
pub fn round_non_negative(x: f64) -> u64 {
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= u64::MAX as f64 {
        u64::MAX
    } else {
        x.round() as u64
    }
}

/// An ISO 4217 currency code such as `USD` or `CNY`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Currency(pub String);

impl Default for Currency {
    fn default() -> Self {
        Self("USD".to_owned())
    }
}

impl fmt::Display for Currency {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Largest magnitude [`format_number`] writes as a plain decimal: beyond it (and below
/// [`SMALLEST_PLAIN_NUMBER`]) a number is written in scientific notation, so that `1e300` in a
/// message is `1e300`, not three hundred digits.
pub const LARGEST_PLAIN_NUMBER: f64 = 1e13;
/// Smallest non-zero magnitude [`format_number`] writes as a plain decimal.
pub const SMALLEST_PLAIN_NUMBER: f64 = 1e-4;

/// Formats a number someone entered, for a message: as Rust writes it (`450`, `0.5`, `NaN`,
/// `inf`), except that very large and very small magnitudes use scientific notation (`1e300`,
/// `1e-308`) instead of hundreds of digits.
#[must_use]
pub fn format_number(value: f64) -> String {
    let magnitude = value.abs();
    if value.is_finite() && magnitude != 0.0 && !(SMALLEST_PLAIN_NUMBER..LARGEST_PLAIN_NUMBER).contains(&magnitude) {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}

/// Formats a number with thousands separators and the given number of decimals
/// (`1234567.8, 0` → `1,234,568`).
#[must_use]
pub fn format_thousands(value: f64, decimals: usize) -> String {
    use std::fmt::Write as _;
    if !value.is_finite() {
        return value.to_string();
    }
    // One rendering and one result string: called for every figure of a report (thousands
    // in a large cluster's explained figures).
    let mut text = String::with_capacity(24);
    let _ = write!(text, "{:.*}", decimals, value.abs());
    let int_len = text.find('.').unwrap_or(text.len());
    let negative = value < 0.0 && text.bytes().any(|c| c.is_ascii_digit() && c != b'0');
    let mut out = String::with_capacity(text.len() + int_len / 3 + 1);
    if negative {
        out.push('-');
    }
    for (i, ch) in text.char_indices() {
        if i > 0 && i < int_len && (int_len - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn btu_and_tons() {
        // 1 kW = 3412 BTU/h; 3.517 kW = 1 ton (12,000 / 3.412 = 3517 W).
        assert!((watts_to_btu_per_hour(1000.0) - 3412.14).abs() < 0.01);
        assert!((watts_to_cooling_tons(3516.85) - 1.0).abs() < 1e-3);
    }

    #[test]
    fn bytes_display_is_binary_and_labelled() {
        assert_eq!(Bytes(80 * GIB).to_string(), "80.00 GiB");
        assert_eq!(Bytes(512 * MIB).to_string(), "512.0 MiB");
        assert_eq!(Bytes::from_gib(24.0).0, 24 * GIB);
    }

    #[test]
    fn entered_numbers_stay_short() {
        assert_eq!(format_number(450.0), "450");
        assert_eq!(format_number(-0.5), "-0.5");
        assert_eq!(format_number(0.0), "0");
        assert_eq!(format_number(1e300), "1e300");
        assert_eq!(format_number(-1e30), "-1e30");
        assert_eq!(format_number(1e-308), "1e-308");
        assert_eq!(format_number(f64::NAN), "NaN");
        assert_eq!(format_number(f64::INFINITY), "inf");
        assert_eq!(format_number(1_234_567_890_123.0), "1234567890123");
        assert_eq!(format_number(1e14), "1e14");
    }

    #[test]
    fn thousands() {
        assert_eq!(format_thousands(1_234_567.8, 0), "1,234,568");
        assert_eq!(format_thousands(-1_234.5, 1), "-1,234.5");
        assert_eq!(format_thousands(999.0, 0), "999");
        assert_eq!(format_thousands(-0.0001, 0), "0");
        assert_eq!(format_thousands(1000.0, 0), "1,000");
        assert_eq!(format_thousands(100_000.125, 2), "100,000.12");
        assert_eq!(format_thousands(-999_999.6, 0), "-1,000,000");
        assert_eq!(format_thousands(0.5, 3), "0.500");
    }

    #[test]
    fn rounding_is_total() {
        assert_eq!(round_non_negative(f64::NAN), 0);
        assert_eq!(round_non_negative(-3.0), 0);
        assert_eq!(round_non_negative(f64::INFINITY), u64::MAX);
        assert_eq!(round_non_negative(2.5), 3);
    }
}
