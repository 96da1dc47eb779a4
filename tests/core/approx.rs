//! The one approximate-comparison helper of the core tests: absolute and relative tolerances,
//! as a predicate (for `assert!(close(..), "context")`) or as an assertion with a message.

/// True when `actual` is within `tolerance` of `expected`.
#[must_use]
pub fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
    (actual - expected).abs() <= tolerance
}

/// True when `actual` is within `fraction` × |`expected`| of `expected`.
#[must_use]
pub fn close_rel(actual: f64, expected: f64, fraction: f64) -> bool {
    close(actual, expected, fraction * expected.abs())
}

/// Asserts that `actual` is within `tolerance` of `expected`.
#[track_caller]
pub fn assert_close(actual: f64, expected: f64, tolerance: f64) {
    assert!(close(actual, expected, tolerance), "expected {expected} ± {tolerance}, got {actual}");
}
