//! Fuzzy matching for the palette's search box.
//!
//! A query is split into words; every word must appear in the text, case-insensitively. Letters
//! match as a subsequence (in order, gaps allowed), so "h100 sxm" finds "H100 SXM5 80GB" and
//! "rtx4090" finds "RTX 4090". Digits are model numbers and do not match loosely: a run of digits
//! in a word ("4090", the "100" of "h100") must appear unbroken in the text and at the start of
//! a number there, so "4090" does not find an A40 whose specs hold a 4, a 0, a 9 and a 0 somewhere,
//! while "409" (a model number being typed) still finds the 4090; and the digits follow the
//! letters before them at once or after a separator, so "a40" finds "A40" but not the "a" of
//! "NVIDIA" and the "40" of "4090". The score rewards what people
//! mean when they type: letters that run on consecutively, letters at the start of a word, a
//! match at the very start of the text, and most of all a word that is a whole token of the text
//! (the model number "4090" in "RTX 4090"), so exact model numbers rank first. Matching is per
//! character on lowercase text, linear in the text length per start position, and fast for
//! catalog-sized lists.

/// Points per matched character.
const MATCH: u32 = 1;
/// Extra points when a matched character follows the previous match directly.
const CONSECUTIVE: u32 = 4;
/// Extra points when a matched character starts a word.
const WORD_START: u32 = 3;
/// Extra points when a word's match starts the text.
const TEXT_START: u32 = 6;
/// Extra points when a query word equals a whole token of the text (letters and digits between
/// separators): more than any run of a few characters earns, so an exact model number outranks
/// a part that merely contains it ("4090" in "RTX 4090" above "40900").
const EXACT_TOKEN: u32 = 40;

/// The score of `query` in `text` (higher is better), or None when some word of the query
/// does not match. An empty query matches everything with score 0.
#[must_use]
pub fn score(query: &str, text: &str) -> Option<u32> {
    let lower = text.to_lowercase();
    let hay: Vec<char> = lower.chars().collect();
    let mut total = 0;
    for word in query.split_whitespace() {
        let word = word.to_lowercase();
        let needle: Vec<char> = word.chars().collect();
        total += word_score(&needle, &hay)?;
        if lower.split(|c: char| !c.is_alphanumeric()).any(|token| token == word) {
            total += EXACT_TOKEN;
        }
    }
    Some(total)
}

fn is_word_start(hay: &[char], i: usize) -> bool {
    i == 0 || hay.get(i - 1).is_some_and(|c| !c.is_alphanumeric())
}

/// A piece of a query word: one letter (matched loosely) or a run of digits (matched unbroken).
enum Piece<'a> {
    Letter(char),
    Digits(&'a [char]),
}

/// Splits a word into letters and digit runs, dropping separators: "h-100" → h, "100".
fn pieces(needle: &[char]) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = needle.get(i) {
        if c.is_ascii_digit() {
            let len = needle.iter().skip(i).take_while(|d| d.is_ascii_digit()).count();
            out.push(Piece::Digits(needle.get(i..i + len).unwrap_or_default()));
            i += len;
        } else {
            // Separators in a query word ("rtx-4090") stand for any separator or none.
            if c.is_alphanumeric() {
                out.push(Piece::Letter(c));
            }
            i += 1;
        }
    }
    out
}

/// Whether `piece` matches at `i` in `hay`: the letter itself, or the digit run unbroken and at
/// the start of a number (not preceded by a digit).
fn matches_at(piece: &Piece<'_>, hay: &[char], i: usize) -> bool {
    match piece {
        Piece::Letter(c) => hay.get(i) == Some(c),
        Piece::Digits(run) => {
            let starts_number = i == 0 || hay.get(i - 1).is_some_and(|c| !c.is_ascii_digit());
            starts_number && hay.get(i..i + run.len()) == Some(run)
        }
    }
}

/// The characters a piece covers.
fn piece_len(piece: &Piece<'_>) -> usize {
    match piece {
        Piece::Letter(_) => 1,
        Piece::Digits(run) => run.len(),
    }
}

/// Points for the characters of a piece matched at `at`, the previous match ending at `prev_end`
/// (None for the first piece).
fn piece_points(piece: &Piece<'_>, hay: &[char], at: usize, prev_end: Option<usize>) -> u32 {
    let mut points = MATCH + if is_word_start(hay, at) { WORD_START } else { 0 };
    match prev_end {
        None if at == 0 => points += TEXT_START,
        Some(end) if end == at => points += CONSECUTIVE,
        _ => {}
    }
    // The rest of a digit run follows its first digit directly.
    let rest = u32::try_from(piece_len(piece).saturating_sub(1)).unwrap_or(u32::MAX);
    points.saturating_add(rest.saturating_mul(MATCH + CONSECUTIVE))
}

/// Best score of one word over every starting position of its first piece.
fn word_score(needle: &[char], hay: &[char]) -> Option<u32> {
    let pieces = pieces(needle);
    let (first, rest) = pieces.split_first()?;
    let mut best = None;
    for start in (0..hay.len()).filter(|&i| matches_at(first, hay, i)) {
        let mut end = start + piece_len(first);
        let mut score = piece_points(first, hay, start, None);
        let mut ok = true;
        let mut after_letter = matches!(first, Piece::Letter(_));
        for piece in rest {
            // A model number's digits follow its letters at once or after a separator ("a40",
            // "h100", "rtx4090" for "RTX 4090"), so "a40" does not find "NVIDIA … 4090".
            let next = if after_letter && matches!(piece, Piece::Digits(_)) {
                let gap = hay.iter().skip(end).take_while(|c| !c.is_alphanumeric()).count();
                Some(end + gap).filter(|&i| matches_at(piece, hay, i))
            } else {
                (end..hay.len()).find(|&i| matches_at(piece, hay, i))
            };
            after_letter = matches!(piece, Piece::Letter(_));
            let Some(at) = next else {
                ok = false;
                break;
            };
            score += piece_points(piece, hay, at, Some(end));
            end = at + piece_len(piece);
        }
        if ok && best.is_none_or(|b| score > b) {
            best = Some(score);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_must_match_in_order() {
        assert!(score("h100 sxm", "NVIDIA H100 SXM5 80GB").is_some());
        assert!(score("sxm h100", "NVIDIA H100 SXM5 80GB").is_some(), "words match independently");
        assert!(score("h100 pcie", "NVIDIA H100 SXM5 80GB").is_none());
        assert!(score("0014h", "H100").is_none(), "letters must be in order");
        assert_eq!(score("", "anything"), Some(0));
        assert_eq!(score("   ", "anything"), Some(0));
    }

    #[test]
    fn ranking_prefers_runs_and_word_starts() {
        // Letters at word starts and in runs beat the same letters spread out.
        let run = score("rtx", "GeForce RTX 4090").unwrap();
        let spread = score("rtx", "Radeon Pro W7800 Tx").unwrap();
        assert!(run > spread, "{run} vs {spread}");
        // Hand count for "rtx" in "RTX 4090": r at 0 (1 + 3 word start + 6 text start),
        // t (1 + 4 consecutive), x (1 + 4 consecutive) = 20, and "rtx" is a whole token: + 40.
        assert_eq!(score("rtx", "RTX 4090"), Some(60));
        assert_eq!(score("RTX", "rtx 4090"), Some(60), "case-insensitive");
        // "rt" is no whole token: 10 + 5 = 15.
        assert_eq!(score("rt", "RTX 4090"), Some(15));
    }

    #[test]
    fn model_numbers_match_unbroken_and_exact_ones_rank_first() {
        // The case: an A40's name and specs hold 4, 0, 9, 0 in order but no "4090".
        assert!(score("4090", "NVIDIA A40 48 GB GDDR6 · 696 GB/s · 300 W · Dual-slot").is_none());
        assert!(score("4090", "RTX 4070 Ti 90").is_none(), "digits spread over two numbers");
        assert!(score("090", "RTX 4090").is_none(), "a number matches from its start");
        assert!(score("409", "RTX 4090").is_some(), "a model number being typed still matches");
        assert!(score("rtx4090", "GeForce RTX 4090").is_some(), "letters then digits, no space");
        assert!(score("h100", "NVIDIA H100 NVL 94GB").is_some());
        assert!(score("rtx-4090", "RTX 4090").is_some());
        assert!(score("a40", "NVIDIA GeForce RTX 4090").is_none(), "the a of NVIDIA, the 40 of 4090");
        assert!(score("a40", "NVIDIA A40 48GB").is_some());
        assert!(score("h100", "NVIDIA A100 SXM4 80GB · HBM2e").is_none(), "no 100 after an h");
        // Hand count for "4090" in "RTX 4090": 4 at 4 (1 + 3 word start), then 0, 9, 0 each
        // 1 + 4 consecutive = 19, plus 40 for the whole token = 59; in "RTX 40900" no token
        // equals "4090": 19.
        assert_eq!(score("4090", "RTX 4090"), Some(59));
        assert_eq!(score("4090", "RTX 40900"), Some(19));
    }
}
