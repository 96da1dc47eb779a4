//! RON to JSON, lexically: the translation `build.rs` compiles the embedded catalog with
//! (this file is included there as a module, and in the crate only for its tests).
//!
//! It keeps serde's data model without knowing the types: a RON struct `(a: 1)` is a JSON
//! object, a tuple `(1, 2)` an array, a unit variant `Pcie` the string `"Pcie"`, a variant
//! with content `NvLinkSwitch(…)` the externally tagged `{"NvLinkSwitch": …}` serde reads for
//! newtype, tuple and struct variants alike, `Some(x)` and an implicit `x` both `x`, `()`
//! null. `None` is the unit variant `"None"` (`interconnect: None`): an absent optional value
//! is written by leaving its field out, as the catalog files do; a `field: None` meaning
//! `Option::None` would not read back, which the compiled catalog's test catches. Strings are decoded (Rust's escapes) and written with JSON's; numbers are
//! written as JSON writes them. A top-level list of entries becomes `[[line, col, entry], …]`
//! with the 1-based line and column (in characters) of each entry's `id` value, where the
//! RON loader's `IdLocator` puts it.

use std::fmt::Write as _;

/// The JSON array `[[line, col, entry], …]` of a catalog file's list of entries.
#[cfg(test)]
pub fn translate(text: &str) -> Result<String, String> {
    translate_indexed(text).map(|(json, _)| json)
}

/// One entry of a translated file: its id and the byte range of its `[line, col, entry]`
/// element in the JSON, which serde reads on its own (the compiled catalog reads only the
/// entries a command needs, `src/core/catalog/compiled.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    pub id: String,
    /// The entry's `gpu` field, when it is a plain string (a cloud offer's GPU).
    pub gpu: Option<String>,
    pub start: usize,
    pub end: usize,
}

/// [`translate`], with every entry's [`Span`] in file order. An entry whose id is not a plain
/// string (an escape in it) fails: its span could not be found by id.
pub fn translate_indexed(text: &str) -> Result<(String, Vec<Span>), String> {
    let mut spans = Vec::new();
    let mut p = Parser { chars: text.char_indices().peekable(), line: 1, col: 1, out: String::new() };
    p.skip_trivia()?;
    p.expect('[')?;
    p.out.push('[');
    let mut first = true;
    loop {
        p.skip_trivia()?;
        if p.eat(']') {
            break;
        }
        if !first {
            p.out.push(',');
        }
        first = false;
        let mut entry = Parser { chars: p.chars.clone(), line: p.line, col: p.col, out: String::new() };
        let top = entry.entry()?;
        let (line, col, id) = top.id.ok_or("an entry without an `id` field")?;
        let start = p.out.len();
        let _ = write!(p.out, "[{line},{col},{}]", entry.out);
        spans.push(Span { id, gpu: top.gpu, start, end: p.out.len() });
        (p.chars, p.line, p.col) = (entry.chars, entry.line, entry.col);
        p.skip_trivia()?;
        if !p.eat(',') {
            p.skip_trivia()?;
            p.expect(']')?;
            break;
        }
    }
    p.out.push(']');
    p.skip_trivia()?;
    if let Some((_, c)) = p.chars.peek() {
        return Err(format!("`{c}` after the list at {}:{}", p.line, p.col));
    }
    Ok((p.out, spans))
}

/// Where an entry's `id` value starts (1-based line and column) and the id itself.
type IdAt = Option<(usize, usize, String)>;

/// What an entry's own fields (not those of structs inside it) say of it.
#[derive(Default)]
struct Top {
    id: IdAt,
    gpu: Option<String>,
}

/// A value just written as a JSON string without escapes, unquoted.
fn plain_string(written: &str) -> Option<&str> {
    written.strip_prefix('"').and_then(|w| w.strip_suffix('"')).filter(|w| !w.contains(['\\', '"']))
}

struct Parser<'t> {
    chars: std::iter::Peekable<std::str::CharIndices<'t>>,
    /// 1-based line and column (in characters) of the next character.
    line: usize,
    col: usize,
    out: String,
}

impl Parser<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().map(|(_, c)| *c)
    }

    fn next(&mut self) -> Option<char> {
        let (_, c) = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.next();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) { Ok(()) } else { Err(format!("expected `{c}` at {}:{}", self.line, self.col)) }
    }

    /// Skips whitespace, `//` line comments and nested `/* */` block comments.
    fn skip_trivia(&mut self) -> Result<(), String> {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() => {
                    self.next();
                }
                Some('/') => {
                    let mut ahead = self.chars.clone();
                    ahead.next();
                    match ahead.next().map(|(_, c)| c) {
                        Some('/') => {
                            while self.peek().is_some_and(|c| c != '\n') {
                                self.next();
                            }
                        }
                        Some('*') => {
                            self.next();
                            self.next();
                            let mut depth = 1;
                            while depth > 0 {
                                match self.next() {
                                    Some('*') if self.eat('/') => depth -= 1,
                                    Some('/') if self.eat('*') => depth += 1,
                                    Some(_) => {}
                                    None => return Err("an unterminated comment".to_owned()),
                                }
                            }
                        }
                        _ => return Ok(()),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    /// One entry of the top-level list (a struct), and where its `id` value starts.
    fn entry(&mut self) -> Result<Top, String> {
        self.skip_trivia()?;
        self.expect('(')?;
        let mut top = Top::default();
        self.struct_body(Some(&mut top))?;
        Ok(top)
    }

    /// Fields after a struct's `(` up to its `)`, as a JSON object.
    fn struct_body(&mut self, mut top: Option<&mut Top>) -> Result<(), String> {
        self.out.push('{');
        let mut first = true;
        loop {
            self.skip_trivia()?;
            if self.eat(')') {
                break;
            }
            let name = self.identifier()?;
            self.skip_trivia()?;
            self.expect(':')?;
            self.skip_trivia()?;
            if !first {
                self.out.push(',');
            }
            first = false;
            push_json_string(&mut self.out, &name);
            self.out.push(':');
            let (line, col, from) = (self.line, self.col, self.out.len());
            self.value()?;
            if let Some(top) = top.as_deref_mut() {
                let written = plain_string(&self.out[from..]);
                if name == "id" && top.id.is_none() {
                    let id = written.ok_or_else(|| format!("an `id` at {line}:{col} that is not a plain string"))?;
                    top.id = Some((line, col, id.to_owned()));
                } else if name == "gpu" && top.gpu.is_none() {
                    top.gpu = written.map(str::to_owned);
                }
            }
            self.skip_trivia()?;
            if !self.eat(',') {
                self.skip_trivia()?;
                self.expect(')')?;
                break;
            }
        }
        self.out.push('}');
        Ok(())
    }

    fn identifier(&mut self) -> Result<String, String> {
        let mut name = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_alphanumeric() || *c == '_') {
            name.push(c);
            self.next();
        }
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(format!("expected a name at {}:{}", self.line, self.col));
        }
        Ok(name)
    }

    fn value(&mut self) -> Result<(), String> {
        self.skip_trivia()?;
        match self.peek() {
            Some('"') => self.string(),
            Some('[') => {
                self.next();
                self.sequence(']')
            }
            Some('{') => {
                self.next();
                self.map()
            }
            Some('(') => {
                self.next();
                self.parenthesized()
            }
            Some(c) if c.is_ascii_digit() || c == '-' || c == '+' || c == '.' => self.number(),
            Some(c) if c.is_alphabetic() || c == '_' => {
                let name = self.identifier()?;
                self.skip_trivia()?;
                match name.as_str() {
                    "true" | "false" => {
                        self.out.push_str(&name);
                        Ok(())
                    }
                    "inf" | "NaN" => Err(format!("`{name}` is not a finite number JSON can hold")),
                    "Some" => {
                        self.expect('(')?;
                        self.value()?;
                        self.skip_trivia()?;
                        self.eat(',');
                        self.skip_trivia()?;
                        self.expect(')')
                    }
                    _ if self.peek() == Some('(') => {
                        self.next();
                        self.out.push('{');
                        push_json_string(&mut self.out, &name);
                        self.out.push(':');
                        self.parenthesized()?;
                        self.out.push('}');
                        Ok(())
                    }
                    _ => {
                        push_json_string(&mut self.out, &name);
                        Ok(())
                    }
                }
            }
            Some(c) => Err(format!("`{c}` is not a value this compiler knows, at {}:{}", self.line, self.col)),
            None => Err("the file ends in a value".to_owned()),
        }
    }

    /// What follows a `(`: a struct's fields (`a: 1`), else a tuple; `()` is unit, and a
    /// single value stays itself (the content of a newtype variant).
    fn parenthesized(&mut self) -> Result<(), String> {
        self.skip_trivia()?;
        if self.eat(')') {
            self.out.push_str("null");
            return Ok(());
        }
        if self.starts_field()? {
            return self.struct_body(None);
        }
        let start = self.out.len();
        self.value()?;
        self.skip_trivia()?;
        if self.eat(')') {
            return Ok(());
        }
        self.expect(',')?;
        self.skip_trivia()?;
        if self.eat(')') {
            return Ok(());
        }
        self.out.insert(start, '[');
        self.elements(')', false)
    }

    /// Whether the next tokens are `name :` (a struct field).
    fn starts_field(&mut self) -> Result<bool, String> {
        let mut ahead = Parser { chars: self.chars.clone(), line: self.line, col: self.col, out: String::new() };
        if !ahead.peek().is_some_and(|c| c.is_alphabetic() || c == '_') {
            return Ok(false);
        }
        if ahead.identifier().is_err() {
            return Ok(false);
        }
        ahead.skip_trivia()?;
        Ok(ahead.peek() == Some(':'))
    }

    /// A `[` list, as a JSON array.
    fn sequence(&mut self, close: char) -> Result<(), String> {
        self.out.push('[');
        self.elements(close, true)
    }

    /// Values up to `close` and the array's `]`; `first`: no element is written yet.
    fn elements(&mut self, close: char, mut first: bool) -> Result<(), String> {
        loop {
            self.skip_trivia()?;
            if self.eat(close) {
                break;
            }
            if !first {
                self.out.push(',');
            }
            first = false;
            self.value()?;
            self.skip_trivia()?;
            if !self.eat(',') {
                self.skip_trivia()?;
                self.expect(close)?;
                break;
            }
        }
        self.out.push(']');
        Ok(())
    }

    /// A map with string keys.
    fn map(&mut self) -> Result<(), String> {
        self.out.push('{');
        let mut first = true;
        loop {
            self.skip_trivia()?;
            if self.eat('}') {
                break;
            }
            if self.peek() != Some('"') {
                return Err(format!("a map key that is not a string at {}:{}", self.line, self.col));
            }
            if !first {
                self.out.push(',');
            }
            first = false;
            self.string()?;
            self.skip_trivia()?;
            self.expect(':')?;
            self.out.push(':');
            self.value()?;
            self.skip_trivia()?;
            if !self.eat(',') {
                self.skip_trivia()?;
                self.expect('}')?;
                break;
            }
        }
        self.out.push('}');
        Ok(())
    }

    /// A RON string (with Rust's escapes) as a JSON string.
    fn string(&mut self) -> Result<(), String> {
        self.expect('"')?;
        let mut value = String::new();
        loop {
            match self.next() {
                Some('"') => break,
                Some('\\') => value.push(self.escape()?),
                Some(c) => value.push(c),
                None => return Err("an unterminated string".to_owned()),
            }
        }
        push_json_string(&mut self.out, &value);
        Ok(())
    }

    fn escape(&mut self) -> Result<char, String> {
        let at = format!("{}:{}", self.line, self.col);
        Ok(match self.next() {
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            Some('0') => '\0',
            Some(c @ ('"' | '\\' | '\'' | '/')) => c,
            Some('u') => {
                let braced = self.eat('{');
                let mut hex = String::new();
                while let Some(c) = self.peek().filter(char::is_ascii_hexdigit) {
                    hex.push(c);
                    self.next();
                    if !braced && hex.len() == 4 {
                        break;
                    }
                }
                if braced {
                    self.expect('}')?;
                }
                u32::from_str_radix(&hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or(format!("a bad \\u escape at {at}"))?
            }
            _ => return Err(format!("an escape this compiler does not know at {at}")),
        })
    }

    /// A number, written as JSON writes it: integers as they are, floats normalized where
    /// RON's spelling is not JSON's (`1.`, `.5`, `+1`, `1_000`).
    fn number(&mut self) -> Result<(), String> {
        let mut token = String::new();
        while let Some(c) = self.peek().filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+' | '_')) {
            token.push(c);
            self.next();
        }
        let plain = token.replace('_', "");
        let plain = plain.strip_prefix('+').unwrap_or(&plain);
        if is_json_number(plain) {
            self.out.push_str(plain);
            return Ok(());
        }
        match plain.parse::<f64>() {
            Ok(v) if v.is_finite() => {
                let _ = write!(self.out, "{v:?}");
                Ok(())
            }
            _ => Err(format!("`{token}` is not a finite number this compiler writes as JSON")),
        }
    }
}

/// Whether `s` is a number by JSON's grammar (RFC 8259 §6).
fn is_json_number(s: &str) -> bool {
    let s = s.strip_prefix('-').unwrap_or(s);
    let (int, rest) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    if int.is_empty() || (int.len() > 1 && int.starts_with('0')) {
        return false;
    }
    let rest = match rest.strip_prefix('.') {
        Some(r) => {
            let digits = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
            if digits == 0 {
                return false;
            }
            &r[digits..]
        }
        None => rest,
    };
    match rest.strip_prefix(['e', 'E']) {
        Some(exp) => {
            let exp = exp.strip_prefix(['+', '-']).unwrap_or(exp);
            !exp.is_empty() && exp.chars().all(|c| c.is_ascii_digit())
        }
        None => rest.is_empty(),
    }
}

fn push_json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::translate;

    fn json(ron: &str) -> serde_json::Value {
        serde_json::from_str(&translate(ron).expect("translates")).expect("valid JSON")
    }

    #[test]
    fn every_shape_of_serde_data() {
        let ron = r#"// a comment
[
    /* a block /* nested */ comment */
    (
        id: "gpu/x",
        name: "A \"quoted\" name\twith \u{4e2d}\u00e9 and \\",
        unit: Pcie,
        newtype: Measured((params: 7, sample: "img")),
        unwrapped: NvLinkBridge(generation: 3, max_gpus: 2),
        tuple_variant: Pair(1, 2),
        some: Some(1.5),
        implicit: 2.5e9,
        none: None,
        // (An absent optional value leaves its field out.)
        unit_value: (),
        tuple: (1, -2, 3.0,),
        list: [1, 2, 3,],
        map: {"a": true, "b": false},
        odd_numbers: [1_000, +4, 1., .5],
    ),
]"#;
        let v = json(ron);
        let (line, col, e) = (&v[0][0], &v[0][1], &v[0][2]);
        assert_eq!((line.as_u64(), col.as_u64()), (Some(5), Some(13)), "the id's opening quote");
        assert_eq!(e["id"], "gpu/x");
        assert_eq!(e["name"], "A \"quoted\" name\twith 中é and \\");
        assert_eq!(e["unit"], "Pcie");
        assert_eq!(e["newtype"], serde_json::json!({"Measured": {"params": 7, "sample": "img"}}));
        assert_eq!(e["unwrapped"], serde_json::json!({"NvLinkBridge": {"generation": 3, "max_gpus": 2}}));
        assert_eq!(e["tuple_variant"], serde_json::json!({"Pair": [1, 2]}));
        assert_eq!(e["some"], 1.5);
        assert_eq!(e["implicit"], 2.5e9);
        assert_eq!(e["none"], "None", "the unit variant (`interconnect: None`)");
        assert!(e["unit_value"].is_null());
        assert_eq!(e["tuple"], serde_json::json!([1, -2, 3.0]));
        assert_eq!(e["list"], serde_json::json!([1, 2, 3]));
        assert_eq!(e["map"], serde_json::json!({"a": true, "b": false}));
        assert_eq!(e["odd_numbers"], serde_json::json!([1000, 4, 1.0, 0.5]));
    }

    #[test]
    fn positions_count_characters_and_lines() {
        let v = json("[\n  (name: \"é\", id: \"a\"),\n\n  (\n id:\"b\")\n]");
        assert_eq!(v[0][0], 2);
        assert_eq!(v[0][1], 19);
        assert_eq!((v[1][0].as_u64(), v[1][1].as_u64()), (Some(5), Some(5)));
    }

    /// Each entry's span reads back as that entry alone, with its own id and `gpu` (not
    /// those of a struct inside it); an id with an escape is refused.
    #[test]
    fn spans_index_entries_by_id() {
        let ron = "[(id: \"o/1\", gpu: \"gpu/x\", n: 1), (inner: (id: \"no\", gpu: \"no\"), id: \"o/2\")]";
        let (json, spans) = super::translate_indexed(ron).expect("translates");
        let ids: Vec<(&str, Option<&str>)> = spans.iter().map(|s| (s.id.as_str(), s.gpu.as_deref())).collect();
        assert_eq!(ids, [("o/1", Some("gpu/x")), ("o/2", None)]);
        let second: serde_json::Value = serde_json::from_str(&json[spans[1].start..spans[1].end]).expect("an entry");
        assert_eq!(second[2]["id"], "o/2");
        assert_eq!(second[2]["inner"]["id"], "no");
        assert!(super::translate_indexed("[(id: \"a\\\"b\")]").is_err());
    }

    #[test]
    fn what_it_cannot_translate_is_refused() {
        for ron in [
            "[(id: \"a\", c: 'x')]",
            "[(id: \"a\", x: NaN)]",
            "[(id: \"a\", x: inf)]",
            "[(id: \"a\", x: 0x10)]",
            "[(name: \"no id\")]",
            "[(id: \"a\")",
            "[(id: \"a\")] trailing",
            "[(id: \"a\", s: \"open)]",
        ] {
            assert!(translate(ron).is_err(), "{ron}");
        }
        assert_eq!(translate("[]").as_deref(), Ok("[]"));
    }
}
