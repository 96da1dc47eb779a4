//! The GUI's module graph has no cycle.
//!
//! Nodes are the source files of `src/gui/`, named by module path (`gui` for `mod.rs`,
//! `state`, `panels`, `panels::canvas`); a submodule is a node of its own, so a cycle inside
//! `panels/` counts as much as one between top-level modules. A file depends on:
//! - every path it names as `crate::gui::a::b…` (brace groups expanded) or `super::…`
//!   (relative to its own module), resolved to the longest prefix that names a module file;
//! - the modules it declares (`mod child;`), and those it names by their bare name
//!   (`child::item`).
//!
//! So a module that names an item of the module above it (`crate::gui::App`, or a helper in a
//! parent `mod.rs`) closes a cycle. Comments, string literals and the `#[cfg(test)] mod tests`
//! blocks are left out: what a doc comment links to, or what a unit test uses, is not part of
//! the module's dependencies.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module path → its source text.
type Sources = BTreeMap<String, String>;
/// Module → module → one reference that makes the edge (for the failure message).
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// Reads every `.rs` file under `dir` as a module of the GUI.
fn read_sources(dir: &Path) -> Sources {
    fn walk(dir: &Path, prefix: &[String], out: &mut Sources) {
        let mut entries: Vec<_> =
            std::fs::read_dir(dir).expect("src/gui is readable").map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                let mut p = prefix.to_vec();
                p.push(name);
                walk(&path, &p, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut p = prefix.to_vec();
                if name != "mod" {
                    p.push(name);
                }
                let module = if p.is_empty() { "gui".to_owned() } else { p.join("::") };
                out.insert(module, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let mut out = Sources::new();
    walk(dir, &[], &mut out);
    out
}

/// The source with comments and string and character literals blanked out, keeping the code.
fn strip_comments_and_strings(src: &str) -> String {
    let c: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && !c.get(i.wrapping_sub(1)).is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= c.len() {
                    break;
                }
                if c[j] == '"' && (0..hashes).all(|h| c.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c[i] == '"' {
            i += 1;
            while i < c.len() && c[i] != '"' {
                i += if c[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c[i] == '\'' && next == Some('\\') {
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// The code without its `#[cfg(test)] mod … { … }` blocks.
fn strip_test_modules(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let is_mod = trimmed.starts_with("mod ") || trimmed.starts_with("pub mod ");
        let open = trimmed.find(['{', ';']);
        match (is_mod, open) {
            (true, Some(o)) if trimmed.as_bytes()[o] == b'{' => {
                let mut depth = 0;
                let mut end = trimmed.len();
                for (k, ch) in trimmed.char_indices().skip_while(|(k, _)| *k < o) {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                rest = &trimmed[end..];
            }
            _ => rest = after,
        }
    }
    out.push_str(rest);
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Parses a use tree at the start of `s` (`a::b`, `a::{b, c::d}`, `*`), returning every path
/// it names, as segments.
fn parse_tree(s: &str) -> Vec<Vec<String>> {
    fn tree(c: &[char], i: &mut usize) -> Vec<Vec<String>> {
        skip_ws(c, i);
        if c.get(*i) == Some(&'{') {
            *i += 1;
            let mut all = Vec::new();
            loop {
                skip_ws(c, i);
                match c.get(*i) {
                    Some('}') => {
                        *i += 1;
                        break;
                    }
                    Some(',') => *i += 1,
                    None => break,
                    _ => all.extend(tree(c, i)),
                }
            }
            return all;
        }
        let start = *i;
        while c.get(*i).is_some_and(|&ch| is_ident(ch)) {
            *i += 1;
        }
        if start == *i {
            // `*`, or something that is not a path: the prefix itself.
            if c.get(*i) == Some(&'*') {
                *i += 1;
            }
            return vec![Vec::new()];
        }
        let segment: String = c[start..*i].iter().collect();
        let mut j = *i;
        skip_ws(c, &mut j);
        if c.get(j) == Some(&':') && c.get(j + 1) == Some(&':') {
            *i = j + 2;
            return tree(c, i)
                .into_iter()
                .map(|mut rest| {
                    rest.insert(0, segment.clone());
                    rest
                })
                .collect();
        }
        // `x as y`: the alias is not a path.
        let mut k = *i;
        skip_ws(c, &mut k);
        if c[k..].starts_with(&['a', 's', ' ']) {
            k += 3;
            skip_ws(c, &mut k);
            while c.get(k).is_some_and(|&ch| is_ident(ch)) {
                k += 1;
            }
            *i = k;
        }
        if segment == "self" { vec![Vec::new()] } else { vec![vec![segment]] }
    }
    fn skip_ws(c: &[char], i: &mut usize) {
        while c.get(*i).is_some_and(|ch| ch.is_whitespace()) {
            *i += 1;
        }
    }
    let c: Vec<char> = s.chars().collect();
    let mut i = 0;
    tree(&c, &mut i)
}

/// Where `prefix` starts as a path of its own (not inside an identifier or after `::`).
fn path_starts<'s>(code: &'s str, prefix: &'s str) -> impl Iterator<Item = usize> + 's {
    code.match_indices(prefix).map(|(at, _)| at).filter(move |&at| {
        let before = code[..at].chars().next_back();
        !before.is_some_and(is_ident) && !code[..at].ends_with("::")
    })
}

/// The module named by `path` (absolute, in segments below `gui`): the longest prefix that is
/// a module file.
fn resolve(modules: &BTreeSet<String>, path: &[String]) -> String {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|m| modules.contains(m))
        .unwrap_or_else(|| "gui".to_owned())
}

/// The module graph of a set of sources.
fn graph(sources: &Sources) -> Graph {
    let modules: BTreeSet<String> = sources.keys().cloned().collect();
    let mut g = Graph::new();
    for (module, src) in sources {
        let code = strip_test_modules(&strip_comments_and_strings(src));
        let own: Vec<String> =
            if module == "gui" { Vec::new() } else { module.split("::").map(str::to_owned).collect() };
        let edges = g.entry(module.clone()).or_default();
        let mut add = |target: String, why: String| {
            if target != *module {
                edges.entry(target).or_insert(why);
            }
        };
        for at in path_starts(&code, "crate::gui::") {
            for path in parse_tree(&code[at + "crate::gui::".len()..]) {
                add(resolve(&modules, &path), format!("crate::gui::{}", path.join("::")));
            }
        }
        for at in path_starts(&code, "super::") {
            let mut base = own.clone();
            let mut tail = &code[at..];
            while let Some(rest) = tail.strip_prefix("super::") {
                if base.pop().is_none() {
                    break;
                }
                tail = rest;
            }
            for path in parse_tree(tail) {
                let full: Vec<String> = base.iter().cloned().chain(path.iter().cloned()).collect();
                add(resolve(&modules, &full), format!("super::{}", path.join("::")));
            }
        }
        // Declared children, and paths that start with a child's bare name.
        let children: Vec<String> = code
            .split(';')
            .filter_map(|stmt| {
                let words: Vec<&str> = stmt.split_whitespace().collect();
                match words.as_slice() {
                    [.., "mod", name] if name.chars().all(is_ident) => Some((*name).to_owned()),
                    _ => None,
                }
            })
            .collect();
        for child in children {
            let full: Vec<String> = own.iter().cloned().chain(std::iter::once(child.clone())).collect();
            let target = resolve(&modules, &full);
            add(target.clone(), format!("mod {child}"));
            let bare = format!("{child}::");
            for at in path_starts(&code, &bare) {
                for path in parse_tree(&code[at..]) {
                    let full: Vec<String> = own.iter().cloned().chain(path.iter().cloned()).collect();
                    add(resolve(&modules, &full), path.join("::"));
                }
            }
        }
    }
    g
}

/// A cycle of the graph, as its modules with the first repeated at the end, if there is one.
fn find_cycle(g: &Graph) -> Option<Vec<String>> {
    fn visit(g: &Graph, m: &str, stack: &mut Vec<String>, done: &mut BTreeSet<String>) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|s| s == m) {
            let mut cycle = stack[at..].to_vec();
            cycle.push(m.to_owned());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        stack.push(m.to_owned());
        for next in g.get(m).into_iter().flat_map(BTreeMap::keys) {
            if let Some(c) = visit(g, next, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(m.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    g.keys().find_map(|m| visit(g, m, &mut Vec::new(), &mut done))
}

/// The groups of modules that all reach each other (more than one module each): every cycle
/// lies inside one.
fn tangles(g: &Graph) -> Vec<Vec<String>> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.to_owned()];
        while let Some(m) = todo.pop() {
            for next in g.get(&m).into_iter().flat_map(BTreeMap::keys) {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = g.keys().map(|m| (m, reach(m))).collect();
    let mut groups: Vec<Vec<String>> = Vec::new();
    for m in g.keys() {
        if groups.iter().any(|grp| grp.contains(m)) || !reaches[m].contains(m) {
            continue;
        }
        groups.push(g.keys().filter(|n| reaches[m].contains(*n) && reaches[*n].contains(m)).cloned().collect());
    }
    groups
}

/// The cycle spelled out with the reference that makes each edge.
fn describe(g: &Graph, cycle: &[String]) -> String {
    cycle.windows(2).map(|w| format!("  {} -> {}   ({})", w[0], w[1], g[&w[0]][&w[1]])).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_gui_module_graph_has_no_cycle() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/gui");
    let sources = read_sources(&dir);
    let g = graph(&sources);
    // The reading itself: a check that finds no modules or no edges cannot fail.
    assert!(g.len() >= 20, "modules found: {:?}", g.keys().collect::<Vec<_>>());
    assert!(g["panels::status"].contains_key("context"), "{:?}", g["panels::status"]);
    assert!(g["gui"].contains_key("panels"), "{:?}", g["gui"]);
    for (m, to) in &g {
        println!("{m} -> {}", to.keys().cloned().collect::<Vec<_>>().join(", "));
    }
    if let Some(cycle) = find_cycle(&g) {
        let groups: Vec<String> = tangles(&g).iter().map(|grp| format!("  {}", grp.join(", "))).collect();
        panic!(
            "the GUI modules import each other in a circle:\n{}\nmodules that all reach each other:\n{}",
            describe(&g, &cycle),
            groups.join("\n")
        );
    }
}

#[test]
fn the_module_graph_check_sees_cycles_and_only_code() {
    let sources: Sources = [
        ("gui", "pub mod a;\npub mod b;\npub mod panels;\n"),
        ("a", "//! Links to [`crate::gui::b`] in a comment only.\nuse crate::gui::{panels::x::{self, Y}, c as _};\nconst S: &str = \"crate::gui::b\";\n#[cfg(test)]\nmod tests {\n    use crate::gui::b::*;\n}\n"),
        ("b", "use crate::gui::a::Thing;\n"),
        ("panels", "mod x;\nmod y;\n"),
        ("panels::x", "use super::y::Z;\n"),
        ("panels::y", "fn f() { super::super::b::g(); }\n"),
    ]
    .into_iter()
    .map(|(m, s)| (m.to_owned(), s.to_owned()))
    .collect();
    let g = graph(&sources);
    let targets = |m: &str| g[m].keys().cloned().collect::<Vec<_>>();
    assert_eq!(targets("gui"), ["a", "b", "panels"]);
    assert_eq!(targets("a"), ["gui", "panels::x"], "comments, strings and tests are not edges; `c` is in gui");
    assert_eq!(targets("panels"), ["panels::x", "panels::y"]);
    assert_eq!(targets("panels::x"), ["panels::y"]);
    assert_eq!(targets("panels::y"), ["b"]);
    let cycle = find_cycle(&g).expect("a names gui, which declares a");
    assert_eq!(cycle.first(), cycle.last());
    assert!(cycle.windows(2).any(|w| w == ["a", "gui"]), "{cycle:?}");
    // Without the reference to the root: b -> a -> panels::x -> panels::y -> b.
    let mut sources = sources;
    sources.insert("a".to_owned(), "use crate::gui::panels::x::X;\n".to_owned());
    let cycle = find_cycle(&graph(&sources)).expect("b, a, panels::x, panels::y");
    assert_eq!(cycle.len(), 5, "{cycle:?}");
    sources.insert("panels::y".to_owned(), "fn f() {}\n".to_owned());
    assert_eq!(find_cycle(&graph(&sources)), None);
}
