//! Positions in catalog files: each entry's `file:line:col` found in one pass over the text.

/// Finds the entries' ids in a catalog file in file order, counting lines as it goes, so
/// that locating every id of a file is one pass over it rather than one pass per id (which
/// was most of the time of loading the catalog).
///
/// Each entry's position is that of the value of its next `id:` field, never found by a search
/// of the whole text for the id: an id written with escapes (`"gpu\u{2f}x"`) does not occur
/// literally, and searching the file for each such id made a 4 MiB file take 32 s.
pub(crate) struct IdLocator<'t> {
    text: &'t str,
    /// The field that holds an entry's id: `id`, or `part` in a `prices.ron`.
    key: &'static str,
    /// Byte offset just past the last id found, and its 1-based line and column.
    pos: usize,
    line: usize,
    col: usize,
}

impl<'t> IdLocator<'t> {
    pub(crate) fn new(text: &'t str) -> Self {
        Self::for_key(text, "id")
    }

    /// A locator of the entries whose id is in field `key`.
    pub(crate) fn for_key(text: &'t str, key: &'static str) -> Self {
        Self { text, key, pos: 0, line: 1, col: 1 }
    }

    /// The 1-based line and column of the next entry's id (`id` is the value parsed, which
    /// the text holds as `"id"` unless it is written with escapes); the position of the last
    /// id found when the text has no further `id:` field.
    pub(crate) fn locate(&mut self, id: &str) -> (usize, usize) {
        let text = self.text;
        let needle = format!("\"{id}\"");
        let holds_id = |p: usize| text.get(p..).is_some_and(|rest| rest.starts_with(&needle));
        // The first of the next few `id:` values that holds this id (an `id:` inside a text,
        // such as a source that quotes one, is passed over), else the next one.
        let mut candidates = Vec::with_capacity(ID_LOOKAHEAD);
        let mut from = self.pos;
        while candidates.len() < ID_LOOKAHEAD
            && let Some(p) = text.get(from..).and_then(|rest| next_key_value(rest, self.key)).map(|p| p + from)
        {
            candidates.push(p);
            from = p + 1;
            if holds_id(p) {
                break;
            }
        }
        let Some(&p) = candidates.iter().find(|&&p| holds_id(p)).or(candidates.first()) else {
            return (self.line, self.col);
        };
        let at = advance((self.line, self.col), text.get(self.pos..p).unwrap_or_default());
        let len = if holds_id(p) { needle.len() } else { 1 };
        (self.line, self.col) = advance(at, text.get(p..p + len).unwrap_or_default());
        self.pos = p + len;
        at
    }
}

/// How many `id:` fields [`IdLocator::locate`] looks at for the one that holds the id: a
/// bounded number, so that locating stays linear in the file.
const ID_LOOKAHEAD: usize = 8;

/// Byte offset of the value of the first `key:` field (`id:`) in `text`: `key` after a `(` or
/// `,` (and spaces or comment lines), not itself in a `//` comment line, then optional spaces,
/// `:`, optional spaces. Every look back is bounded ([`LOOKBACK_BYTES`]), so that a file of one
/// long line is not read again for each entry.
fn next_key_value(text: &str, key: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text.get(from..).and_then(|rest| rest.find(key)).map(|i| i + from) {
        from = i + key.len();
        let Some(colon) = text[from..].trim_start().strip_prefix(':') else { continue };
        let in_comment = line_before(text, i).is_some_and(|line| line.trim_start().starts_with("//"));
        if !in_comment && follows_field_separator(text, i) {
            return Some(text.len() - colon.trim_start().len());
        }
    }
    None
}

/// Bytes a look back at the start of a line goes at most.
const LOOKBACK_BYTES: usize = 4_096;

/// The text of the line of byte offset `i` before it, when the line starts within
/// [`LOOKBACK_BYTES`] (None for a longer line).
fn line_before(text: &str, i: usize) -> Option<&str> {
    let mut start = i.saturating_sub(LOOKBACK_BYTES);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let window = text.get(start..i)?;
    match window.rfind('\n') {
        Some(n) => window.get(n + 1..),
        None => (start == 0).then_some(window),
    }
}

/// Whether what comes before byte offset `i`, past spaces and whole `//` comment lines, is the
/// `(` of a struct or the `,` after a field: where a field name stands.
fn follows_field_separator(text: &str, i: usize) -> bool {
    let mut before = text[..i].trim_end();
    loop {
        if before.ends_with(['(', ',']) {
            return true;
        }
        match line_before(text, before.len()) {
            Some(line) if line.trim_start().starts_with("//") => {
                before = text[..before.len() - line.len()].trim_end();
            }
            _ => return false,
        }
    }
}

/// The line and column after `s`, from `(line, col)`.
fn advance((mut line, mut col): (usize, usize), s: &str) -> (usize, usize) {
    for ch in s.chars() {
        if ch == '\n' {
            line += 1;
            col = 1;
        } else {
            col += 1;
        }
    }
    (line, col)
}

/// 1-based line and column (in characters) of byte offset `pos`.
#[must_use]
pub fn line_col_of_byte(text: &str, pos: usize) -> (usize, usize) {
    // The characters that start before `pos`.
    let end = text.char_indices().map(|(i, _)| i).find(|&i| i >= pos).unwrap_or(text.len());
    advance((1, 1), text.get(..end).unwrap_or_default())
}
