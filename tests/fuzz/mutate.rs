//! Fuzz stage: a seeded mutator of scripts (token and line edits, extreme numbers, long and unicode
//! strings, CRLF and BOM, deep nesting), so that the checker, the renderer and the engine meet hostile text.

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// One way of changing a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    TokenDelete,
    TokenDuplicate,
    TokenSwap,
    TokenReplace,
    TokenInsert,
    LineDelete,
    LineDuplicate,
    LineMove,
    NumberExtreme,
    StringLong,
    StringUnicode,
    NameLong,
    UnicodeInsert,
    OneLine,
    Crlf,
    Bom,
    LoneCr,
    DeepNesting,
    Truncate,
}

impl Kind {
    pub const ALL: [Kind; 19] = [
        Kind::TokenDelete,
        Kind::TokenDuplicate,
        Kind::TokenSwap,
        Kind::TokenReplace,
        Kind::TokenInsert,
        Kind::LineDelete,
        Kind::LineDuplicate,
        Kind::LineMove,
        Kind::NumberExtreme,
        Kind::StringLong,
        Kind::StringUnicode,
        Kind::NameLong,
        Kind::UnicodeInsert,
        Kind::OneLine,
        Kind::Crlf,
        Kind::Bom,
        Kind::LoneCr,
        Kind::DeepNesting,
        Kind::Truncate,
    ];

    /// How often the kind is drawn, relative to the others: token and number edits most.
    fn weight(self) -> u32 {
        match self {
            Kind::TokenDelete | Kind::TokenReplace | Kind::NumberExtreme => 8,
            Kind::TokenDuplicate | Kind::TokenSwap | Kind::TokenInsert => 5,
            Kind::LineDelete | Kind::LineDuplicate | Kind::LineMove => 4,
            Kind::StringUnicode | Kind::UnicodeInsert | Kind::DeepNesting => 3,
            Kind::StringLong | Kind::NameLong | Kind::Truncate => 2,
            Kind::OneLine | Kind::Crlf | Kind::Bom | Kind::LoneCr => 1,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Word,
    Number,
    Str,
    Punct,
}

/// A token of a script: its byte range and what it is.
#[derive(Clone, Copy, Debug)]
struct Token {
    start: usize,
    end: usize,
    tok: Tok,
}

/// A rough lexer, good enough to cut scripts at token boundaries (comments and spaces are skipped).
fn tokens(src: &str) -> Vec<Token> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let tok = if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            Tok::Str
        } else if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            Tok::Number
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            Tok::Word
        } else {
            i += 1;
            while i < b.len() && !src.is_char_boundary(i) {
                i += 1;
            }
            Tok::Punct
        };
        out.push(Token {
            start,
            end: i.min(b.len()),
            tok,
        });
    }
    out
}

/// Words and signs worth inserting: keywords, operators, brackets.
const INSERTS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    ".",
    "..",
    "=",
    "==",
    "+=",
    "-=",
    "*",
    "/",
    "%",
    "-",
    "+",
    "<",
    ">=",
    "not",
    "and",
    "or",
    "if",
    "else",
    "then",
    "for",
    "in",
    "loop",
    "repeat",
    "let",
    "return",
    "move",
    "to",
    "top",
    "of",
    "choose",
    "card",
    "zone",
    "var",
    "fn",
    "proc",
    "action",
    "on",
    "setup",
    "flow",
    "test",
    "game",
    "players",
    "copies",
    "is",
    "you",
    "this",
    "players",
    "turn",
    "phase",
    "actions",
    "by",
    "until",
    "pass",
    "win",
    "end",
    "shuffle",
    "count",
    "sum",
    "max",
    "min",
    "true",
    "false",
    "none",
    "0",
    "-1",
    "\"\"",
    "per player",
    "per card",
    "per space",
    "grid",
    "spaces",
    "check",
    "given",
    "expect",
    "choose \"x\"",
    "names",
    "option",
];

const EXTREMES: &[&str] = &[
    "0",
    "1",
    "-1",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "4294967296",
    "1000000",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775808",
    "99999999999999999999999999",
];

const ODD_CHARS: &[&str] = &[
    "é",
    "全",
    "🂡",
    "👨‍👩‍👧",
    "\u{200B}",
    "\u{202E}",
    "\u{FEFF}",
    "\u{0301}",
    "ǅ",
    "\u{10FFFF}",
    "\0",
    "\t",
    "\u{1b}[31m",
    "\\",
    "\"",
    "\u{85}",
    "\u{2028}",
    "ß",
    "İ",
    "\u{7f}",
];

/// A mutant of `src`: its text and the kinds of edits made (one to three, none of the kinds in `skip`).
pub fn mutate(src: &str, skip: &[Kind], rng: &mut ChaCha8Rng) -> (String, Vec<Kind>) {
    let n = if rng.gen_bool(0.7) {
        1
    } else {
        rng.gen_range(2..=3)
    };
    let mut text = src.to_string();
    let mut kinds = Vec::new();
    for _ in 0..n {
        let mut kind = pick_kind(rng);
        while skip.contains(&kind) && skip.len() < Kind::ALL.len() {
            kind = pick_kind(rng);
        }
        text = apply(&text, kind, rng);
        kinds.push(kind);
    }
    (text, kinds)
}

fn pick_kind(rng: &mut ChaCha8Rng) -> Kind {
    let total: u32 = Kind::ALL.iter().map(|k| k.weight()).sum();
    let mut r = rng.gen_range(0..total);
    for k in Kind::ALL {
        if r < k.weight() {
            return k;
        }
        r -= k.weight();
    }
    Kind::TokenDelete
}

/// A random token of the kinds in `want` (any token when `want` is empty).
fn pick(toks: &[Token], want: &[Tok], rng: &mut ChaCha8Rng) -> Option<Token> {
    let list: Vec<Token> = toks
        .iter()
        .copied()
        .filter(|t| want.is_empty() || want.contains(&t.tok))
        .collect();
    list.choose(rng).copied()
}

fn splice(src: &str, start: usize, end: usize, with: &str) -> String {
    let mut s = String::with_capacity(src.len() + with.len());
    s.push_str(&src[..start]);
    s.push_str(with);
    s.push_str(&src[end..]);
    s
}

fn lines(src: &str) -> Vec<&str> {
    src.split_inclusive('\n').collect()
}

/// A random char boundary of `src`.
fn boundary(src: &str, rng: &mut ChaCha8Rng) -> usize {
    let mut i = rng.gen_range(0..=src.len());
    while !src.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn long_text(rng: &mut ChaCha8Rng) -> String {
    let n = *[300usize, 5_000, 70_000, 200_000]
        .choose(rng)
        .unwrap_or(&300);
    let unit = *["a", "é", "全", "ab ", "🂡"].choose(rng).unwrap_or(&"a");
    unit.repeat(n / unit.len().max(1))
}

/// Apply one edit of the given kind (the text is unchanged when the edit has nothing to work on).
pub fn apply(src: &str, kind: Kind, rng: &mut ChaCha8Rng) -> String {
    let toks = tokens(src);
    match kind {
        Kind::TokenDelete => match pick(&toks, &[], rng) {
            Some(t) => splice(src, t.start, t.end, ""),
            None => src.to_string(),
        },
        Kind::TokenDuplicate => match pick(&toks, &[], rng) {
            Some(t) => splice(src, t.end, t.end, &format!(" {}", &src[t.start..t.end])),
            None => src.to_string(),
        },
        Kind::TokenSwap => {
            if toks.len() < 2 {
                return src.to_string();
            }
            let i = rng.gen_range(0..toks.len() - 1);
            let (a, b) = (toks[i], toks[i + 1]);
            let mut s = String::new();
            s.push_str(&src[..a.start]);
            s.push_str(&src[b.start..b.end]);
            s.push_str(&src[a.end..b.start]);
            s.push_str(&src[a.start..a.end]);
            s.push_str(&src[b.end..]);
            s
        }
        Kind::TokenReplace => match (pick(&toks, &[], rng), pick(&toks, &[], rng)) {
            (Some(t), Some(u)) => splice(src, t.start, t.end, &src[u.start..u.end]),
            _ => src.to_string(),
        },
        Kind::TokenInsert => {
            let at = pick(&toks, &[], rng).map_or(0, |t| t.start);
            let word = INSERTS.choose(rng).copied().unwrap_or("{");
            splice(src, at, at, &format!("{word} "))
        }
        Kind::LineDelete | Kind::LineDuplicate | Kind::LineMove => {
            let mut ls = lines(src);
            if ls.is_empty() {
                return src.to_string();
            }
            let i = rng.gen_range(0..ls.len());
            match kind {
                Kind::LineDelete => {
                    ls.remove(i);
                }
                Kind::LineDuplicate => ls.insert(i, ls[i]),
                _ => {
                    let l = ls.remove(i);
                    let j = rng.gen_range(0..=ls.len());
                    ls.insert(j, l);
                }
            }
            let mut s = ls.concat();
            if !s.ends_with('\n') && !s.is_empty() && kind != Kind::LineDelete {
                s.push('\n');
            }
            s
        }
        Kind::NumberExtreme => match pick(&toks, &[Tok::Number], rng) {
            Some(t) => splice(src, t.start, t.end, EXTREMES.choose(rng).unwrap_or(&"0")),
            None => src.to_string(),
        },
        Kind::StringLong => match pick(&toks, &[Tok::Str], rng) {
            Some(t) => splice(src, t.start, t.end, &format!("\"{}\"", long_text(rng))),
            None => src.to_string(),
        },
        Kind::StringUnicode => match pick(&toks, &[Tok::Str], rng) {
            Some(t) if t.end - t.start >= 2 => {
                let at = t.start + 1;
                splice(src, at, at, ODD_CHARS.choose(rng).unwrap_or(&"é"))
            }
            _ => src.to_string(),
        },
        Kind::NameLong => match pick(&toks, &[Tok::Word], rng) {
            Some(t) => {
                let name = &src[t.start..t.end];
                let n = *[100usize, 5_000, 70_000].choose(rng).unwrap_or(&100);
                splice(src, t.start, t.end, &name.repeat(n / name.len().max(1) + 1))
            }
            None => src.to_string(),
        },
        Kind::UnicodeInsert => {
            let at = boundary(src, rng);
            splice(src, at, at, ODD_CHARS.choose(rng).unwrap_or(&"é"))
        }
        Kind::OneLine => {
            // A whole script on one line: its tokens joined by spaces (comments left out, or they would
            // swallow the rest of the line).
            let mut out = String::with_capacity(src.len());
            for t in &toks {
                out.push_str(&src[t.start..t.end]);
                out.push(' ');
            }
            out
        }
        Kind::Crlf => src.replace("\r\n", "\n").replace('\n', "\r\n"),
        Kind::Bom => format!("\u{FEFF}{src}"),
        Kind::LoneCr => {
            let ls = lines(src);
            if ls.is_empty() {
                return src.to_string();
            }
            let i = rng.gen_range(0..ls.len());
            let mut s = String::new();
            for (j, l) in ls.iter().enumerate() {
                if j == i {
                    s.push_str(l.trim_end_matches('\n'));
                    s.push('\r');
                } else {
                    s.push_str(l);
                }
            }
            s
        }
        Kind::DeepNesting => {
            let depth = *[50usize, 300, 600, 2_000, 20_000]
                .choose(rng)
                .unwrap_or(&50);
            match rng.gen_range(0..4) {
                0 => match pick(&toks, &[Tok::Number, Tok::Word], rng) {
                    Some(t) => {
                        let inner = &src[t.start..t.end];
                        let wrapped = format!("{}{inner}{}", "(".repeat(depth), ")".repeat(depth));
                        splice(src, t.start, t.end, &wrapped)
                    }
                    None => src.to_string(),
                },
                1 => match pick(&toks, &[Tok::Number], rng) {
                    Some(t) => splice(src, t.start, t.start, &"-".repeat(depth)),
                    None => src.to_string(),
                },
                2 => match pick(&toks, &[Tok::Word], rng) {
                    Some(t) => splice(src, t.start, t.start, &"not ".repeat(depth)),
                    None => src.to_string(),
                },
                _ => {
                    // Nested blocks around one line.
                    let ls = lines(src);
                    if ls.is_empty() {
                        return src.to_string();
                    }
                    let i = rng.gen_range(0..ls.len());
                    let mut s = ls[..i].concat();
                    s.push_str(&"if true { ".repeat(depth));
                    s.push_str(ls[i].trim_end_matches('\n'));
                    s.push_str(&" }".repeat(depth));
                    s.push('\n');
                    s.push_str(&ls[i + 1..].concat());
                    s
                }
            }
        }
        Kind::Truncate => {
            let at = boundary(src, rng);
            src[..at].to_string()
        }
    }
}
