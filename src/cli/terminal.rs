//! Everything the CLI prints, made safe for a terminal.
//!
//! Names come from build files and user catalogs, so they may hold control characters: an
//! escape sequence in a part name would retitle the window, clear the screen or write the
//! clipboard (OSC 52) when `rigplan report` prints it. [`TerminalText`] wraps the output and
//! error streams and replaces every C0 control character except newline and tab, a carriage
//! return that does not end a line (`\r\n` stays, a lone `\r` would overwrite the line), DEL
//! and the C1 controls (U+0080–U+009F; U+009B is a one-character CSI to some terminals) by a
//! visible stand-in: the Unicode control pictures (ESC → `␛`, U+2400 + code; DEL → `␡`) and
//! U+FFFD for C1. JSON output never holds a raw control character (serde_json escapes them),
//! so it passes unchanged.

use std::io::{self, Write};

/// UTF-8 lead byte of U+0080–U+00BF; followed by 0x80–0x9F it is a C1 control.
const C1_LEAD: u8 = 0xC2;
/// The replacement character, for C1 controls (which have no control picture).
const REPLACEMENT: &str = "\u{FFFD}";

/// A writer that neutralizes control characters on their way to `inner` (see the module
/// docs). A byte that may start a sequence (`\r`, 0xC2) is held until the next byte decides
/// it; [`TerminalText::finish`] writes a held byte at the end.
pub struct TerminalText<'a> {
    inner: &'a mut dyn Write,
    /// The first byte of a sequence not yet decided.
    held: Option<u8>,
}

impl<'a> TerminalText<'a> {
    pub fn new(inner: &'a mut dyn Write) -> Self {
        Self { inner, held: None }
    }

    /// Writes a byte still held back (a final `\r` is shown as `␍`) and flushes.
    ///
    /// # Errors
    /// The inner writer's.
    pub fn finish(&mut self) -> io::Result<()> {
        match self.held.take() {
            Some(b'\r') => self.inner.write_all(picture(b'\r').as_bytes())?,
            Some(b) => self.inner.write_all(&[b])?,
            None => {}
        }
        self.inner.flush()
    }
}

/// The control picture of a C0 control or DEL (U+2400 + code, U+2421 for DEL).
fn picture(byte: u8) -> String {
    let code = if byte == 0x7F { 0x2421 } else { 0x2400 + u32::from(byte) };
    char::from_u32(code).map_or_else(|| REPLACEMENT.to_owned(), String::from)
}

impl Write for TerminalText<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Most writes hold nothing to picture: written as they are, without the byte loop.
        // Without short circuits, so that the scan runs over whole vectors of bytes (`\r` is
        // below 0x20, so it is caught with the other controls).
        #[expect(clippy::needless_bitwise_bool, reason = "branch-free, so that the scan vectorizes")]
        let needs_care = |b: u8| (b == C1_LEAD) | (b == 0x7F) | ((b < 0x20) & (b != b'\n') & (b != b'\t'));
        if self.held.is_none() && !buf.iter().fold(false, |any, &b| any | needs_care(b)) {
            self.inner.write_all(buf)?;
            return Ok(buf.len());
        }
        let mut clean_from = 0;
        for (i, &b) in buf.iter().enumerate() {
            if let Some(first) = self.held.take() {
                match (first, b) {
                    (b'\r', b'\n') => {
                        self.inner.write_all(b"\r")?;
                        continue;
                    }
                    (b'\r', _) => self.inner.write_all(picture(b'\r').as_bytes())?,
                    (C1_LEAD, 0x80..=0x9F) => {
                        self.inner.write_all(REPLACEMENT.as_bytes())?;
                        clean_from = i + 1;
                        continue;
                    }
                    (other, _) => self.inner.write_all(&[other])?,
                }
                clean_from = i;
            }
            let hold = b == b'\r' || b == C1_LEAD;
            let control = (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7F;
            if hold || control {
                self.inner.write_all(&buf[clean_from..i])?;
                clean_from = i + 1;
                if hold {
                    self.held = Some(b);
                } else {
                    self.inner.write_all(picture(b).as_bytes())?;
                }
            }
        }
        self.inner.write_all(&buf[clean_from..])?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filtered(chunks: &[&[u8]]) -> String {
        let mut out = Vec::new();
        let mut t = TerminalText::new(&mut out);
        for c in chunks {
            t.write_all(c).expect("writes");
        }
        t.finish().expect("finishes");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn controls_become_pictures_and_text_passes() {
        assert_eq!(filtered(&[b"GPU \x1b]0;pwned\x07 ok\n\ttab"]), "GPU \u{241b}]0;pwned\u{2407} ok\n\ttab");
        assert_eq!(filtered(&["\u{9b}2J 中文 é".as_bytes()]), "\u{FFFD}2J 中文 é");
        assert_eq!(filtered(&[b"a\x7fb\x00"]), "a\u{2421}b\u{2400}");
    }

    #[test]
    fn crlf_stays_and_a_lone_cr_is_shown() {
        assert_eq!(filtered(&[b"a,b\r\nc\rd\r"]), "a,b\r\nc\u{240d}d\u{240d}");
        // Sequences split across writes are decided by the next write.
        assert_eq!(filtered(&[b"x\r", b"\ny\xc2", b"\x9bz", b"\xc2", b"\xa9"]), "x\r\ny\u{FFFD}z©");
    }
}
