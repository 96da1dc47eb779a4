//! The date printed on a build sheet.
//!
//! The core never reads the clock: the date is an argument, so an export is a pure function of
//! its inputs and tests pin it. Front ends get today's date with
//! [`SheetDate::from_days_since_unix_epoch`] (days since 1970-01-01 from the system clock),
//! which uses Howard Hinnant's `civil_from_days` algorithm for the proleptic Gregorian calendar
//! ("chrono-Compatible Low-Level Date Algorithms", howardhinnant.github.io/date_algorithms.html).

use crate::core::units::SECONDS_PER_DAY;
use serde::{Serialize, Serializer};
use std::fmt;

/// A calendar date (proleptic Gregorian), printed as ISO 8601 `YYYY-MM-DD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SheetDate {
    year: u16,
    month: u8,
    day: u8,
}

/// Why a date was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DateError {
    #[error("`{0}` is not a date in the form YYYY-MM-DD")]
    Format(String),
    #[error("the system clock cannot give today's date ({0}); pass the date explicitly")]
    Clock(String),
    #[error("{year:04}-{month:02}-{day:02} is not a day of the calendar")]
    NoSuchDay { year: u32, month: u32, day: u32 },
    #[error("day {0} after 1970-01-01 is outside the years 1–9999")]
    OutOfRange(i64),
}

/// Earliest and latest years accepted (four-digit years, as ISO 8601 prints them without an
/// agreement between the parties).
const YEARS: std::ops::RangeInclusive<u32> = 1..=9999;

fn is_leap(year: u32) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(year) => 29,
        2 => 28,
        _ => 0,
    }
}

impl SheetDate {
    /// A date from its parts.
    ///
    /// # Errors
    /// A year outside 1–9999, a month outside 1–12, or a day the month does not have.
    pub fn new(year: u32, month: u32, day: u32) -> Result<Self, DateError> {
        let bad = || DateError::NoSuchDay { year, month, day };
        if !YEARS.contains(&year) || day == 0 || day > days_in_month(year, month) {
            return Err(bad());
        }
        Ok(Self {
            year: u16::try_from(year).map_err(|_| bad())?,
            month: u8::try_from(month).map_err(|_| bad())?,
            day: u8::try_from(day).map_err(|_| bad())?,
        })
    }

    /// Parses `YYYY-MM-DD`.
    ///
    /// # Errors
    /// Any other form, or a day that does not exist.
    pub fn parse(text: &str) -> Result<Self, DateError> {
        let format = || DateError::Format(text.to_owned());
        let mut parts = text.trim().split('-');
        let (Some(y), Some(m), Some(d), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
            return Err(format());
        };
        let digits = |s: &str, len: usize| -> Result<u32, DateError> {
            if s.len() == len && s.bytes().all(|b| b.is_ascii_digit()) {
                s.parse().map_err(|_| format())
            } else {
                Err(format())
            }
        };
        Self::new(digits(y, 4)?, digits(m, 2)?, digits(d, 2)?)
    }

    /// Today in UTC from the system clock: the one place rigplan reads the calendar. The
    /// analyses and exports never call it; front ends pass its result (or a date the user
    /// gave) in.
    ///
    /// # Errors
    /// A clock before 1970 or beyond year 9999.
    pub fn today_utc() -> Result<Self, DateError> {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_err(|e| DateError::Clock(format!("it is before 1970: {e}")))?
            .as_secs();
        let days = i64::try_from(secs / SECONDS_PER_DAY).map_err(|e| DateError::Clock(e.to_string()))?;
        Self::from_days_since_unix_epoch(days)
    }

    /// The date `days` days after 1970-01-01 (negative: before it), from Hinnant's
    /// `civil_from_days` (eras of 400 years = 146,097 days; years starting in March so the leap
    /// day ends the year).
    ///
    /// # Errors
    /// A day outside years 1–9999.
    pub fn from_days_since_unix_epoch(days: i64) -> Result<Self, DateError> {
        /// Days from 0000-03-01 to 1970-01-01 (Hinnant).
        const EPOCH_SHIFT_DAYS: i64 = 719_468;
        /// Days in a 400-year Gregorian era.
        const DAYS_PER_ERA: i64 = 146_097;
        let z = days.saturating_add(EPOCH_SHIFT_DAYS);
        let era = z.div_euclid(DAYS_PER_ERA);
        let doe = z.rem_euclid(DAYS_PER_ERA);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        let out_of_range = || DateError::OutOfRange(days);
        Self::new(
            u32::try_from(year).map_err(|_| out_of_range())?,
            u32::try_from(month).map_err(|_| out_of_range())?,
            u32::try_from(day).map_err(|_| out_of_range())?,
        )
        .map_err(|_| out_of_range())
    }

    #[must_use]
    pub fn year(self) -> u32 {
        u32::from(self.year)
    }

    #[must_use]
    pub fn month(self) -> u32 {
        u32::from(self.month)
    }

    #[must_use]
    pub fn day(self) -> u32 {
        u32::from(self.day)
    }
}

impl fmt::Display for SheetDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl Serialize for SheetDate {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let d = SheetDate::parse("2024-02-29").expect("leap day");
        assert_eq!(d.to_string(), "2024-02-29");
        assert!(SheetDate::parse("2023-02-29").is_err());
        assert!(SheetDate::parse("1900-02-29").is_err(), "1900 is not a leap year");
        assert!(SheetDate::parse("2000-02-29").is_ok(), "2000 is");
        for bad in ["2024-1-05", "24-01-05", "2024/01/05", "2024-13-01", "2024-00-10", "2024-04-31", "x", ""] {
            assert!(SheetDate::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn days_since_epoch() {
        // Known points: day 0 is 1970-01-01; 2000-03-01 is day 11,017 (30 years of 365 days
        // + 7 leap days 1972..1996 + 31 + 29); 2024-02-29 is day 19,782; day −1 is 1969-12-31.
        let at = |d| SheetDate::from_days_since_unix_epoch(d).expect("in range").to_string();
        assert_eq!(at(0), "1970-01-01");
        assert_eq!(at(11_017), "2000-03-01");
        assert_eq!(at(19_782), "2024-02-29");
        assert_eq!(at(-1), "1969-12-31");
        assert_eq!(SheetDate::from_days_since_unix_epoch(i64::MAX / 2), Err(DateError::OutOfRange(i64::MAX / 2)));
        // 0001-01-01 is day −719,162 (1969 years of 365 days + 477 leap days); the day before is
        // year 0, outside ISO 8601's four-digit years without agreement.
        assert_eq!(at(-719_162), "0001-01-01");
        assert!(SheetDate::from_days_since_unix_epoch(-719_163).is_err());
    }
}
