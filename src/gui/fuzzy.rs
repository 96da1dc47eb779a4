//! Fuzzy matching for the palette's search box.
//!
//! A query is split into words; every word must appear in the text as a subsequence (letters
//! in order, gaps allowed), case-insensitively. The score rewards what people mean when they
//! type: letters that run on consecutively, letters at the start of a word, and a match at
//! the very start of the text, so that "4090" ranks "RTX 4090" above "RTX 4090 D… 40 90", and
//! "h100 sxm" finds "H100 SXM5 80GB". Matching is per character on lowercase text, so it is
//! linear in the text length per start position and fast for catalog-sized lists.

/// Points per matched character.
const MATCH: u32 = 1;
/// Extra points when a matched character follows the previous match directly.
const CONSECUTIVE: u32 = 4;
/// Extra points when a matched character starts a word.
const WORD_START: u32 = 3;
/// Extra points when a word's match starts the text.
const TEXT_START: u32 = 6;

/// The score of `query` in `text` (higher is better), or None when some word of the query
/// does not match. An empty query matches everything with score 0.
#[must_use]
pub fn score(query: &str, text: &str) -> Option<u32> {
    let hay: Vec<char> = text.to_lowercase().chars().collect();
    let mut total = 0;
    for word in query.split_whitespace() {
        let needle: Vec<char> = word.to_lowercase().chars().collect();
        total += word_score(&needle, &hay)?;
    }
    Some(total)
}

fn is_word_start(hay: &[char], i: usize) -> bool {
    i == 0 || hay.get(i - 1).is_some_and(|c| !c.is_alphanumeric())
}

/// Best score of one word over every starting position of its first character.
fn word_score(needle: &[char], hay: &[char]) -> Option<u32> {
    let first = *needle.first()?;
    let mut best = None;
    for start in (0..hay.len()).filter(|&i| hay.get(i) == Some(&first)) {
        let mut pos = start;
        let mut score = MATCH + if is_word_start(hay, start) { WORD_START } else { 0 };
        if start == 0 {
            score += TEXT_START;
        }
        let mut ok = true;
        for &c in needle.iter().skip(1) {
            let Some(offset) = hay.iter().skip(pos + 1).position(|&h| h == c) else {
                ok = false;
                break;
            };
            let next = pos + 1 + offset;
            score += MATCH;
            if next == pos + 1 {
                score += CONSECUTIVE;
            }
            if is_word_start(hay, next) {
                score += WORD_START;
            }
            pos = next;
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
        // "4090" as a run at a word start beats the same digits spread out.
        let run = score("4090", "GeForce RTX 4090").unwrap();
        let spread = score("4090", "RTX 4070 Ti 90").unwrap();
        assert!(run > spread, "{run} vs {spread}");
        // Hand count for "rtx" in "RTX 4090": r at 0 (1 + 3 word start + 6 text start),
        // t (1 + 4 consecutive), x (1 + 4 consecutive) = 20.
        assert_eq!(score("rtx", "RTX 4090"), Some(20));
        assert_eq!(score("RTX", "rtx 4090"), Some(20), "case-insensitive");
    }
}
