//! No function outside test code in `src/` is longer than `MAX_LINES` lines (from its `fn` line to
//! its closing brace), so that each stays readable as one idea. Test modules (`#[cfg(test)]`) and
//! test functions (`#[test]`) are left out.
//!
//! The scan is a small lexer, not a parser: comments, strings and character literals are blanked
//! first so that braces inside them do not count, then each `fn` with a body is matched brace by
//! brace.

use std::path::{Path, PathBuf};

/// The longest a function outside test code may be, in lines.
const MAX_LINES: usize = 150;

/// A function with a body: its name, the line of its `fn` and the line of its closing brace (1-based).
#[derive(Debug, PartialEq)]
struct Function {
    name: String,
    first: usize,
    last: usize,
}

impl Function {
    fn lines(&self) -> usize {
        self.last - self.first + 1
    }
}

/// `src` with the contents of comments, string literals and character literals replaced by spaces
/// (newlines kept, so line numbers stay), leaving only code.
fn blank_non_code(src: &str) -> Vec<char> {
    let c: Vec<char> = src.chars().collect();
    let mut out = c.clone();
    let blank = |out: &mut Vec<char>, from: usize, to: usize| {
        for ch in out.iter_mut().take(to.min(c.len())).skip(from) {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
    };
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            let end = (i..c.len()).find(|&j| c[j] == '\n').unwrap_or(c.len());
            blank(&mut out, i, end);
            i = end;
        } else if c[i] == '/' && next == Some('*') {
            // Block comments nest.
            let mut depth = 0;
            let mut j = i;
            while j < c.len() {
                if c[j] == '/' && c.get(j + 1) == Some(&'*') {
                    depth += 1;
                    j += 2;
                } else if c[j] == '*' && c.get(j + 1) == Some(&'/') {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if c[i] == 'r' && (i == 0 || !ident(c[i - 1]) || c[i - 1] == 'b') && matches!(next, Some('"' | '#')) {
            // A raw string r"…", r#"…"#, br"…": it ends at a quote followed by as many hashes.
            let hashes = c[i + 1..].iter().take_while(|&&ch| ch == '#').count();
            let open = i + 1 + hashes;
            if c.get(open) != Some(&'"') {
                i += 1;
                continue;
            }
            let mut j = open + 1;
            while j < c.len()
                && !(c[j] == '"' && c[j + 1..].iter().take(hashes).filter(|&&ch| ch == '#').count() == hashes)
            {
                j += 1;
            }
            blank(&mut out, open + 1, j);
            i = j + 1 + hashes;
        } else if c[i] == '"' {
            let mut j = i + 1;
            while j < c.len() && c[j] != '"' {
                j += if c[j] == '\\' { 2 } else { 1 };
            }
            blank(&mut out, i + 1, j);
            i = j + 1;
        } else if c[i] == '\'' {
            // A character literal ('{', '\'', '\u{7b}'), or else a lifetime or label ('a).
            if next == Some('\\') {
                let end = (i + 3..c.len()).find(|&j| c[j] == '\'').unwrap_or(c.len());
                blank(&mut out, i + 1, end);
                i = end + 1;
            } else if c.get(i + 2) == Some(&'\'') {
                blank(&mut out, i + 1, i + 2);
                i += 3;
            } else {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The index of the bracket closing the one at `open` (`(`/`)`, `[`/`]` or `{`/`}`), or the end.
fn matching(c: &[char], open: usize) -> usize {
    let (o, cl) = match c[open] {
        '(' => ('(', ')'),
        '[' => ('[', ']'),
        _ => ('{', '}'),
    };
    let mut depth = 0;
    for (j, &ch) in c.iter().enumerate().skip(open) {
        if ch == o {
            depth += 1;
        } else if ch == cl {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    c.len()
}

/// Where the item starting at `from` ends: its `;`, or the `{` of its body (outside parentheses
/// and brackets, where `[u8; 4]` has one).
fn item_end(c: &[char], from: usize) -> usize {
    let mut j = from;
    while j < c.len() {
        match c[j] {
            '(' | '[' => j = matching(c, j),
            ';' | '{' => return j,
            _ => {}
        }
        j += 1;
    }
    c.len()
}

/// Whether an outer attribute's text (inside `#[…]`) marks test code.
fn is_test_attribute(attr: &str) -> bool {
    let attr: String = attr.chars().filter(|ch| !ch.is_whitespace()).collect();
    attr == "test" || (attr.starts_with("cfg(") && attr.contains("test") && !attr.contains("not("))
}

/// The functions with a body in `src`, test code left out.
fn functions(src: &str) -> Vec<Function> {
    let c = blank_non_code(src);
    let line_of = |at: usize| 1 + c[..at].iter().filter(|&&ch| ch == '\n').count();
    let ident = |ch: char| ch.is_alphanumeric() || ch == '_';
    let word_at = |i: usize, w: &str| {
        let n = w.chars().count();
        (i == 0 || !ident(c[i - 1]))
            && c[i..].iter().take(n).copied().eq(w.chars())
            && c.get(i + n).is_none_or(|&ch| !ident(ch))
    };
    let mut found = Vec::new();
    let mut test_item = false;
    let mut i = 0;
    while i < c.len() {
        if c[i] == '#' && c.get(i + 1) == Some(&'[') {
            let close = matching(&c, i + 1);
            let attr: String = c[i + 2..close.min(c.len())].iter().collect();
            test_item |= is_test_attribute(&attr);
            i = close + 1;
        } else if test_item && (ident(c[i]) || c[i] == '{') {
            // The item the attribute is on: skipped whole.
            let end = item_end(&c, i);
            i = if end < c.len() && c[end] == '{' {
                matching(&c, end) + 1
            } else {
                end + 1
            };
            test_item = false;
        } else if word_at(i, "fn") {
            let name_start = (i + 2..c.len()).find(|&j| !c[j].is_whitespace()).unwrap_or(c.len());
            let name: String = c[name_start..].iter().take_while(|&&ch| ident(ch)).collect();
            let end = item_end(&c, i);
            if !name.is_empty() && end < c.len() && c[end] == '{' {
                let close = matching(&c, end);
                found.push(Function {
                    name,
                    first: line_of(i),
                    last: line_of(close.min(c.len() - 1)),
                });
                // Nested functions are found by scanning on inside the body.
                i = end + 1;
            } else {
                i += 2;
            }
        } else {
            if c[i] == ';' || c[i] == '}' {
                test_item = false;
            }
            i += 1;
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_function_outside_tests_is_over_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    assert!(files.len() > 10, "src/ has only {} Rust files", files.len());
    let mut long = Vec::new();
    let mut seen = 0;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        for f in functions(&text) {
            seen += 1;
            if f.lines() > MAX_LINES {
                let rel = path.strip_prefix(root).unwrap_or(path);
                long.push(format!(
                    "{}:{} fn {}: {} lines",
                    rel.display(),
                    f.first,
                    f.name,
                    f.lines()
                ));
            }
        }
    }
    assert!(seen > 100, "only {seen} functions found in src/: the scan is broken");
    assert!(
        long.is_empty(),
        "functions over {MAX_LINES} lines (split them into named parts):\n{}",
        long.join("\n")
    );
}

/// A function of `body_lines` lines of `line` between its `fn` line and its closing brace.
fn long_fn(name: &str, line: &str, body_lines: usize) -> String {
    format!("fn {name}() {{\n{}}}\n", format!("    {line}\n").repeat(body_lines))
}

#[test]
fn a_long_function_is_found_with_its_length() {
    let src = format!("use x;\n{}", long_fn("long", "a();", 200));
    assert_eq!(
        functions(&src),
        vec![Function {
            name: "long".into(),
            first: 2,
            last: 203
        }]
    );
    assert_eq!(functions(&src)[0].lines(), 202);
}

#[test]
fn braces_in_strings_chars_and_comments_do_not_count() {
    let body = long_fn("inner", "let a = '{'; let b = \"}}\"; // }", 3)
        + "fn after(x: [u8; 4]) -> char {\n    let q = '\\''; let l: &'static str = r#\"}\"#; /* } /* } */ */ '}'\n}\n";
    let found = functions(&body);
    assert_eq!(
        found,
        vec![
            Function {
                name: "inner".into(),
                first: 1,
                last: 5
            },
            Function {
                name: "after".into(),
                first: 6,
                last: 8
            },
        ]
    );
}

#[test]
fn test_code_is_left_out_and_nested_functions_are_seen() {
    let src = format!(
        "fn outer() {{\n    fn nested() {{}}\n}}\n#[cfg(test)]\nmod tests {{\n{}}}\n#[test]\n{}trait T {{ fn declared(&self); }}\n",
        long_fn("in_tests", "x();", 200),
        long_fn("a_test", "x();", 200)
    );
    let names: Vec<String> = functions(&src).into_iter().map(|f| f.name).collect();
    assert_eq!(names, ["outer", "nested"]);
}
