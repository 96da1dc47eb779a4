//! Making text from a build safe in every place an export puts it.
//!
//! Build names, part names, custom line names and unknown part ids are typed by users (or come
//! from a shared user catalog), so an export treats every one of them as hostile:
//! - **Spreadsheets** ([`neutralize_formula`]): a CSV or XLSX text cell whose first character
//!   is `=`, `+`, `-`, `@`, tab, CR (or NUL) is evaluated as a formula by Excel, LibreOffice
//!   and Google Sheets when the file is opened or the cell is edited (`=cmd|' /C calc'!A0` runs
//!   a program through DDE in old Excel). The OWASP advice (OWASP "CSV Injection",
//!   owasp.org/www-community/attacks/CSV_Injection; OWASP ASVS 5.0 requirement 1.2.10, which
//!   applies it to XLSX and ODF as well and adds NUL) is to prefix such a cell with a single
//!   quote, which spreadsheets read as "this is text". rigplan writes the quote as a character
//!   in XLSX too (not only the cell's quote-prefix style), so the text stays neutral when the
//!   workbook is later saved as CSV.
//! - **HTML and SVG** ([`escape_html`]): the five characters with meaning in markup are
//!   replaced by entities (OWASP Cross Site Scripting Prevention Cheat Sheet, "Output Encoding
//!   for HTML Contexts" and "HTML Attribute Contexts"); the HTML export also carries a Content
//!   Security Policy that forbids scripts.
//! - **Markdown** ([`escape_markdown`]): CommonMark lets any ASCII punctuation be escaped with
//!   a backslash (CommonMark spec 0.31, §2.4); rigplan escapes the characters that start
//!   emphasis, code, links, images, raw HTML and table cells, and folds line breaks, so a name
//!   is shown as written and never becomes markup.
//! - **File names** ([`sanitize_file_name`]): a default export name derived from a build name
//!   holds no path separator, no character Windows forbids, no control character, is not a
//!   reserved Windows device name, and is bounded in length.

use std::borrow::Cow;

/// First characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection";
/// ASVS 5.0 1.2.10 adds NUL).
pub const FORMULA_TRIGGERS: [char; 7] = ['=', '+', '-', '@', '\t', '\r', '\0'];

/// The prefix that makes a spreadsheet read a cell as text (OWASP "CSV Injection").
pub const FORMULA_GUARD: char = '\'';

/// Neutralizes text for a spreadsheet text cell: prefixes a single quote when the text starts
/// with a formula trigger ([`FORMULA_TRIGGERS`]), also after leading spaces (LibreOffice's CSV
/// import option "Trim spaces" strips them and then evaluates `  =1+1`); returns other text
/// unchanged.
#[must_use]
pub fn neutralize_formula(text: &str) -> Cow<'_, str> {
    let first = text.chars().find(|c| !c.is_whitespace() || FORMULA_TRIGGERS.contains(c));
    match first {
        Some(c) if FORMULA_TRIGGERS.contains(&c) => Cow::Owned(format!("{FORMULA_GUARD}{text}")),
        _ => Cow::Borrowed(text),
    }
}

/// Escapes text for HTML element content, attribute values and SVG text: `&`, `<`, `>`, `"`
/// and `'` become entities.
#[must_use]
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for inline Markdown (table cells, list items, text after a label):
/// backslash-escapes the punctuation that starts markup (code, emphasis, strikethrough, links
/// and images, raw HTML, headings, table cells; with `[` escaped, parentheses cannot form a
/// link), writes `&` as an entity so no entity is formed, and folds line breaks and control
/// characters into spaces so a cell stays on one line. Bare URLs and addresses are not left to
/// become links: GitHub Flavored Markdown's autolink extension (GFM spec 0.29, §6.9) links
/// `www.`, `http://`, `https://` and `user@host.tld` in plain text, so the `:` of `://`, the
/// `.` of a leading `www.` and every `@` are backslash-escaped, which ends the text run the
/// extension matches on. Not for the start of a block: callers put a label before free text.
#[must_use]
pub fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        let word_start = out.is_empty() || out.ends_with(|p: char| !p.is_alphanumeric());
        if (c == ':' && after.starts_with("//")) || c == '@' {
            out.push('\\');
            out.push(c);
            rest = after;
            continue;
        }
        if word_start && rest.len() >= 4 && rest.is_char_boundary(4) && rest[..4].eq_ignore_ascii_case("www.") {
            out.push_str(&rest[..3]);
            out.push_str("\\.");
            rest = &rest[4..];
            continue;
        }
        rest = after;
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '#' | '!' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '&' => out.push_str("&amp;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Longest file stem [`sanitize_file_name`] returns, bytes: with a date and an extension the
/// name stays far below the 255-byte name limit of ext4, APFS and NTFS (255 UTF-16 units).
pub const MAX_FILE_STEM_BYTES: usize = 100;

/// The stem used when nothing of a name survives sanitizing.
pub const FALLBACK_FILE_STEM: &str = "build";

/// Device names Windows reserves in every folder, with or without an extension (Microsoft,
/// "Naming Files, Paths, and Namespaces": CON, PRN, AUX, NUL, COM1–COM9, LPT1–LPT9, and the
/// superscript-digit forms COM¹–COM³, LPT¹–LPT³).
const RESERVED_WINDOWS_NAMES: [&str; 28] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9", "COM¹", "COM²",
    "COM³", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9", "LPT¹", "LPT²", "LPT³",
];

/// Characters Windows forbids in file names, plus both path separators (Microsoft, "Naming
/// Files, Paths, and Namespaces").
const FORBIDDEN_FILE_CHARS: [char; 9] = ['<', '>', ':', '"', '/', '\\', '|', '?', '*'];

/// A file stem derived from free text (a build name) that is safe on Windows, macOS and Linux:
/// forbidden characters, path separators and control characters become `_`; runs of
/// whitespace become one space; leading and trailing spaces, dots and underscores are dropped
/// (Windows strips trailing dots and spaces; a leading dot hides a file on Unix); a reserved
/// Windows device name gets a `_` after it (before any extension); the result is cut to [`MAX_FILE_STEM_BYTES`] at a
/// character boundary. Returns [`FALLBACK_FILE_STEM`] when nothing is left.
#[must_use]
pub fn sanitize_file_name(name: &str) -> String {
    let mut cleaned = String::with_capacity(name.len());
    let mut last_space = false;
    for c in name.chars() {
        if c.is_whitespace() {
            if !last_space {
                cleaned.push(' ');
            }
            last_space = true;
            continue;
        }
        last_space = false;
        if c.is_control() || FORBIDDEN_FILE_CHARS.contains(&c) {
            cleaned.push('_');
        } else {
            cleaned.push(c);
        }
    }
    let trim = |s: &str| s.trim_matches(|c: char| c == ' ' || c == '.' || c == '_').to_owned();
    let mut stem = trim(&cleaned);
    if stem.len() > MAX_FILE_STEM_BYTES {
        let cut = stem.char_indices().map(|(i, _)| i).take_while(|&i| i <= MAX_FILE_STEM_BYTES).last().unwrap_or(0);
        stem = trim(&stem[..cut]);
    }
    if stem.is_empty() {
        return FALLBACK_FILE_STEM.to_owned();
    }
    // `NUL.txt` and `NUL.tar.gz` are the device too, so the mark goes after the device part.
    let device_len = stem.find('.').unwrap_or(stem.len());
    let device = stem.get(..device_len).unwrap_or_default().trim_end();
    if RESERVED_WINDOWS_NAMES.iter().any(|r| r.eq_ignore_ascii_case(device)) {
        stem.insert(device_len, '_');
    }
    stem
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_get_a_quote_and_other_text_does_not() {
        assert_eq!(neutralize_formula("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
        for t in ["+1", "-1", "@SUM(A1)", "\tx", "\rx", "\0x"] {
            assert_eq!(neutralize_formula(t), format!("'{t}"));
        }
        assert_eq!(neutralize_formula("H100 = fast"), "H100 = fast");
        assert_eq!(neutralize_formula(""), "");
        assert!(matches!(neutralize_formula("plain"), Cow::Borrowed(_)));
    }

    #[test]
    fn html_escapes_all_markup() {
        assert_eq!(
            escape_html("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;"
        );
    }

    #[test]
    fn leading_spaces_do_not_hide_a_formula() {
        assert_eq!(neutralize_formula("   =1+1"), "'   =1+1");
        assert_eq!(neutralize_formula(" \u{a0}+SUM(A1)"), "' \u{a0}+SUM(A1)");
        assert_eq!(neutralize_formula("  RTX 4090"), "  RTX 4090");
        assert_eq!(neutralize_formula("   "), "   ");
    }

    #[test]
    fn bare_urls_and_addresses_do_not_become_links() {
        assert_eq!(
            escape_markdown("see https://evil.example/x or WWW.evil.example, mail a@b.example"),
            "see https\\://evil.example/x or WWW\\.evil.example, mail a\\@b.example"
        );
        // `www.` inside a word is not a link start and is left alone.
        assert_eq!(escape_markdown("awww.x"), "awww.x");
        assert_eq!(escape_markdown("Ratio 2:1, time 10:30"), "Ratio 2:1, time 10:30");
    }

    #[test]
    fn markdown_escapes_markup_and_folds_lines() {
        assert_eq!(
            escape_markdown("a|b\n<i>*x*</i> [l](u) &amp;"),
            "a\\|b \\<i\\>\\*x\\*\\</i\\> \\[l\\](u) &amp;amp;"
        );
    }

    #[test]
    fn file_names_are_safe() {
        assert_eq!(
            sanitize_file_name("Entry workstation (RTX 4090 + Ryzen 9 7950X)"),
            "Entry workstation (RTX 4090 + Ryzen 9 7950X)"
        );
        assert_eq!(sanitize_file_name("../../etc/passwd"), "etc_passwd");
        assert_eq!(sanitize_file_name("a\\b:c*d?e\"f<g>h|i"), "a_b_c_d_e_f_g_h_i");
        assert_eq!(sanitize_file_name("tab\there\nnew\u{7}bell"), "tab here new_bell");
        assert_eq!(sanitize_file_name("CON"), "CON_");
        assert_eq!(sanitize_file_name("com1.backup"), "com1_.backup");
        assert_eq!(sanitize_file_name("CONSOLE"), "CONSOLE");
        assert_eq!(sanitize_file_name(" ... "), FALLBACK_FILE_STEM);
        assert_eq!(sanitize_file_name(""), FALLBACK_FILE_STEM);
        let long = "é".repeat(200);
        let s = sanitize_file_name(&long);
        assert!(s.len() <= MAX_FILE_STEM_BYTES && s.chars().all(|c| c == 'é'), "{s}");
    }
}
