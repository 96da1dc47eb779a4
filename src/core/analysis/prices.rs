//! How old the catalog prices of a build are: a price dated longer ago than the build's
//! threshold (12 months unless the user sets another) is stale, and every front end marks it.
//!
//! Theory of operation: the analyses never read the clock, so the age of a price is measured
//! from a date the front end passes in ([`PriceAgePolicy::as_of`]: today, or a sheet's
//! `--date`). A catalog date of `YYYY-MM` counts from the first day of its month (the price was
//! known then; the earliest reading, so a month-dated price is never called fresher than it
//! can be). Overrides, included parts and unpriced lines have no catalog date and are never
//! stale. [`price_ages`] counts the dated and stale lines of a bill of materials;
//! [`crate::core::analysis::Report::date_prices`] puts the count in the report.

use super::bom::{Bom, PriceOrigin};
use crate::core::catalog::PartId;
use crate::core::export::date::SheetDate;
use serde::Serialize;

/// Months after which a catalog price is stale unless the user sets another threshold: a year,
/// the horizon the buyers asked for (GPU street prices move by tens of percent in a
/// year; the catalog's own 2020 and 2026 A100 prices differ by 23 %).
pub const DEFAULT_STALE_AFTER_MONTHS: u32 = 12;

/// Most months a threshold may be (10 years): beyond it nothing in the catalog would ever be
/// stale, which is the same as switching the marking off.
pub const MAX_STALE_AFTER_MONTHS: u32 = 120;

/// When prices are judged, and how old they may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PriceAgePolicy {
    pub as_of: SheetDate,
    /// A price dated more than this many whole months before `as_of` is stale.
    pub stale_after_months: u32,
}

impl PriceAgePolicy {
    /// The policy at `as_of` with the default threshold.
    #[must_use]
    pub fn at(as_of: SheetDate) -> Self {
        Self { as_of, stale_after_months: DEFAULT_STALE_AFTER_MONTHS }
    }

    /// True when a catalog price dated `date` (`YYYY-MM` or `YYYY-MM-DD`) is older than
    /// `stale_after_months` on [`Self::as_of`], i.e. dated before the same day that many months
    /// earlier; an unreadable date is not called stale (catalog validation refuses it).
    #[must_use]
    pub fn is_stale(&self, date: &str) -> bool {
        parse_date(date).is_some_and(|(year, month, day)| {
            let then = i64::from(year) * 12 + i64::from(month);
            let cutoff =
                i64::from(self.as_of.year()) * 12 + i64::from(self.as_of.month()) - i64::from(self.stale_after_months);
            then < cutoff || (then == cutoff && day < self.as_of.day())
        })
    }
}

/// Whole months from a price date to `as_of` (0 for a date in the same month or later): the
/// months between the two calendar months, less one when `as_of`'s day of the month is before
/// the price's (2025-03-15 is 11 months before 2026-03-14 and 12 before 2026-03-15). `None`
/// for a date that is not `YYYY-MM` or `YYYY-MM-DD`.
#[must_use]
pub fn age_months(date: &str, as_of: SheetDate) -> Option<u32> {
    let (year, month, day) = parse_date(date)?;
    let then = i64::from(year) * 12 + i64::from(month);
    let now = i64::from(as_of.year()) * 12 + i64::from(as_of.month());
    let mut months = now - then;
    if as_of.day() < day {
        months -= 1;
    }
    u32::try_from(months.max(0)).ok()
}

/// Year, month and day of a `YYYY-MM` (day 1) or `YYYY-MM-DD` date.
fn parse_date(date: &str) -> Option<(u32, u32, u32)> {
    let mut parts = date.trim().split('-');
    let digits = |s: &str, len: usize| s.len() == len && s.bytes().all(|b| b.is_ascii_digit());
    let year: u32 = parts.next().filter(|y| digits(y, 4))?.parse().ok()?;
    let month: u32 = parts.next().filter(|m| digits(m, 2))?.parse().ok()?;
    let day: u32 = match parts.next() {
        Some(d) if digits(d, 2) => d.parse().ok()?,
        Some(_) => return None,
        None => 1,
    };
    (parts.next().is_none() && (1..=12).contains(&month) && (1..=31).contains(&day)).then_some((year, month, day))
}

/// A part line whose catalog price is stale.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StaleLine {
    pub part: PartId,
    pub name: String,
    pub date: String,
    pub age_months: u32,
}

/// The age of a build's catalog prices on a date.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PriceAges {
    #[serde(flatten)]
    pub policy: PriceAgePolicy,
    /// Part lines priced from the catalog with a date.
    pub dated_lines: usize,
    /// Those of them dated more than `stale_after_months` before `as_of`, oldest first.
    pub stale: Vec<StaleLine>,
    /// The oldest catalog price date of the build.
    pub oldest: Option<String>,
}

impl PriceAges {
    /// Number of stale lines.
    #[must_use]
    pub fn stale_lines(&self) -> usize {
        self.stale.len()
    }
}

/// The age of the catalog prices of `bom` under `policy`.
#[must_use]
pub fn price_ages(bom: &Bom, policy: PriceAgePolicy) -> PriceAges {
    let dated: Vec<(&PartId, &str, &str)> = bom
        .lines
        .iter()
        .filter_map(|l| match &l.price_origin {
            PriceOrigin::Catalog { date, .. } if !date.is_empty() => Some((&l.part, l.name.as_str(), date.as_str())),
            _ => None,
        })
        .collect();
    let mut stale: Vec<StaleLine> = dated
        .iter()
        .filter(|(_, _, date)| policy.is_stale(date))
        .map(|&(part, name, date)| StaleLine {
            part: part.clone(),
            name: name.to_owned(),
            date: date.to_owned(),
            age_months: age_months(date, policy.as_of).unwrap_or_default(),
        })
        .collect();
    stale.sort_by(|a, b| b.age_months.cmp(&a.age_months).then_with(|| a.part.cmp(&b.part)));
    let oldest = dated
        .iter()
        .filter_map(|&(_, _, date)| age_months(date, policy.as_of).map(|m| (m, date)))
        .max_by_key(|&(m, _)| m)
        .map(|(_, date)| date.to_owned());
    PriceAges { policy, dated_lines: dated.len(), stale, oldest }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> SheetDate {
        SheetDate::parse(text).expect("a date")
    }

    #[test]
    fn whole_months_by_calendar() {
        let as_of = day("2026-03-15");
        assert_eq!(age_months("2025-03-15", as_of), Some(12));
        assert_eq!(age_months("2025-03-16", as_of), Some(11), "one day short of a year");
        // A month date counts from its first day: 2025-03 is 12 months before 2026-03-15.
        assert_eq!(age_months("2025-03", as_of), Some(12));
        assert_eq!(age_months("2026-03", as_of), Some(0));
        assert_eq!(age_months("2027-01-01", as_of), Some(0), "a future date is not negative");
        assert_eq!(age_months("2018-05-08", as_of), Some(94), "7 years 10 months");
        for bad in ["2025", "2025-3", "2025-13", "March 2025", "2025-03-15-1", ""] {
            assert_eq!(age_months(bad, as_of), None, "{bad}");
        }
    }

    #[test]
    fn stale_is_strictly_older_than_the_threshold() {
        let policy = PriceAgePolicy::at(day("2026-03-15"));
        assert!(!policy.is_stale("2025-03-15"), "exactly 12 months is not older than 12");
        assert!(policy.is_stale("2025-03-14"));
        assert!(policy.is_stale("2025-02"));
        let strict = PriceAgePolicy { stale_after_months: 3, ..policy };
        assert!(strict.is_stale("2025-12-14"));
        assert!(!strict.is_stale("2025-12-15"));
        assert!(strict.is_stale("2025-12"), "a month date counts from its first day, before the cutoff 2025-12-15");
    }
}
