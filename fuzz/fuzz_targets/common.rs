//! Checks shared by the fuzz targets.

use serde::Serialize;

/// Panics if a value holds a NaN or infinite float. The value is written as RON, where such
/// floats appear as the bare words `NaN`, `inf` and `-inf` (JSON would write `null`, which an
/// absent optional value also is); string literals are skipped so that a part named "inf"
/// does not count.
pub fn assert_finite<T: Serialize>(value: &T) {
    let text = ron::to_string(value).expect("serializes as RON");
    let mut in_string = false;
    let mut escaped = false;
    let mut word = String::new();
    for ch in text.chars().chain(std::iter::once(' ')) {
        if in_string {
            match (escaped, ch) {
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => escaped = false,
            }
            continue;
        }
        if ch.is_alphanumeric() || ch == '_' {
            word.push(ch);
            continue;
        }
        assert!(word != "NaN" && word != "inf", "a non-finite number in:\n{text}");
        word.clear();
        in_string = ch == '"';
    }
}
