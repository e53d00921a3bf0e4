//! Language server stage, tests: every handler answers, without a panic, at every position of every prefix
//! of real scripts (half-typed files), including text that is not ASCII.

use super::document::Document;
use super::{complete, diagnostics, hover, navigate, outline};
use lsp_types::Uri;
use std::str::FromStr;

fn scripts() -> Vec<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out: Vec<String> = [
        "examples/market-race.cardgame",
        "games/crafty-explorers.cardgame",
    ]
    .iter()
    .map(|p| std::fs::read_to_string(root.join(p)).expect("a script"))
    .collect();
    out.push(
        "game \"Ünïcode 🃏\" { players 2 }\nzone pile: pile\n// Ça coûte.\nvar é: int = 0\n\
         card \"Reine 👑\" { text \"« royale »\" }\nsetup { move cards(\"Reine 👑\", box) to pile\n  \
         log \"{\"Rei\"}\" you.\n}\n"
            .to_string(),
    );
    out
}

/// Every handler at `offset` of `doc`; none may panic, and what they return must be consistent.
fn probe(doc: &Document, offset: usize) {
    let pos = doc.position(offset);
    let _ = hover::hover(doc, pos);
    let _ = complete::complete(doc, pos);
    let def = navigate::definition(doc, pos);
    let refs = navigate::references(doc, pos, true);
    assert_eq!(
        def.is_some(),
        !refs.is_empty(),
        "a definition, and its references with it"
    );
    if let Some(p) = navigate::prepare_rename(doc, pos) {
        let edit = navigate::rename(doc, pos, "renamed_x").expect("a fresh name is accepted");
        let n = edit
            .and_then(|e| e.changes)
            .map_or(0, |c| c.values().map(Vec::len).sum::<usize>());
        assert!(n >= 1, "{p:?}");
    }
}

#[test]
fn every_handler_answers_at_every_position_of_half_typed_scripts() {
    let uri = Uri::from_str("file:///t.cardgame").expect("a uri");
    for text in scripts() {
        let cuts: Vec<usize> = (0..text.len())
            .step_by(text.len() / 12 + 1)
            .chain([text.len()])
            .filter(|&c| text.is_char_boundary(c))
            .collect();
        for cut in cuts {
            let doc = Document::new(uri.clone(), 1, text[..cut].to_string());
            let _ = diagnostics::of(&doc);
            let _ = outline::outline(&doc);
            for offset in (0..=cut).step_by(5) {
                probe(&doc, offset);
            }
        }
    }
}

/// The outline of Market Race shows its strategies and its rule set, each with its kind.
#[test]
fn the_outline_shows_strategies_and_rule_sets() {
    let uri = Uri::from_str("file:///t.cardgame").expect("a uri");
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/market-race.cardgame"),
    )
    .expect("the script");
    let doc = Document::new(uri, 1, text);
    let shown: Vec<String> = outline::outline(&doc)
        .iter()
        .filter(|s| matches!(s.detail.as_deref(), Some("strategy" | "rules")))
        .map(|s| format!("{} {}", s.detail.as_deref().unwrap_or(""), s.name))
        .collect();
    insta::assert_snapshot!(shown.join("\n"), @r"
    strategy big_money
    strategy engine
    strategy victory_rush
    rules plays
    strategy money_actions
    ");
}

/// The outline of Forehead shows its flow's round, with the turn inside it.
#[test]
fn the_outline_shows_a_round() {
    let uri = Uri::from_str("file:///t.cardgame").expect("a uri");
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/forehead.cardgame"),
    )
    .expect("the script");
    let doc = Document::new(uri, 1, text);
    let flow = outline::outline(&doc)
        .into_iter()
        .find(|s| s.name == "flow")
        .expect("the flow in the outline");
    let kids = flow.children.unwrap_or_default();
    assert_eq!(kids.len(), 1, "{kids:?}");
    assert_eq!(kids[0].name, "round");
    let inner: Vec<String> = kids[0]
        .children
        .iter()
        .flatten()
        .map(|s| s.name.clone())
        .collect();
    assert_eq!(inner, ["turn p"]);
}

/// The words of the grammar: its `k_*` rules (`k_stat = @{ "stat" ~ !ident_char }`), read from the
/// grammar itself so that a new keyword without a hover text fails the test below.
fn grammar_keywords() -> Vec<String> {
    let pest = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar/src/cardgame.pest"),
    )
    .expect("the grammar");
    let mut words: Vec<String> = pest
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("k_")?;
            let quoted = rest.split_once("@{ \"")?.1;
            Some(quoted.split('"').next()?.to_string())
        })
        .collect();
    words.sort();
    words
}

fn markdown(h: lsp_types::Hover) -> String {
    match h.contents {
        lsp_types::HoverContents::Markup(m) => m.value,
        other => panic!("not markdown: {other:?}"),
    }
}

/// Hovering a keyword shows what it does and the section of docs/language.md: every keyword of the
/// grammar, each at its first place in a script that uses them all (tests/keywords/).
#[test]
fn every_keyword_of_the_grammar_has_a_hover_text() {
    let words = grammar_keywords();
    assert!(words.len() > 100, "{words:?}");
    assert_eq!(
        super::keywords::words().collect::<Vec<_>>(),
        words,
        "the hover table (src/lsp/keywords.rs) and the grammar's keywords differ"
    );
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/keywords/every-keyword.cardgame"),
    )
    .expect("the script");
    assert!(
        cardgame_interpreter::check::check_source(&text)
            .program
            .is_some(),
        "the script checks"
    );
    let uri = Uri::from_str("file:///k.cardgame").expect("a uri");
    let doc = Document::new(uri, 1, text.clone());
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut shown = vec![];
    for w in &words {
        let found = text.match_indices(w.as_str()).find_map(|(i, _)| {
            if is_word(text[..i].chars().next_back()) || is_word(text[i + w.len()..].chars().next())
            {
                return None;
            }
            let h = hover::hover(&doc, doc.position(i + w.len() / 2))?;
            let value = markdown(h);
            value
                .starts_with(&format!("keyword `{w}`"))
                .then_some(value)
        });
        let value = found.unwrap_or_else(|| panic!("no keyword hover for `{w}` in the script"));
        assert!(value.contains("docs/language.md#"), "{value}");
        shown.push(value);
    }
    insta::assert_snapshot!(shown.join("\n\n---\n\n"));
}

/// A keyword in a comment, in a text or after a `.` shows nothing; a statistic kept per key shows its
/// key.
#[test]
fn words_that_are_not_keywords_there_show_no_keyword() {
    let text = "// a round of play\nstat gains[player] \"Gains\"\nvar round: int = 0\nfn f(c: card): kind = c.kind\nflow {\n  log \"the round\"\n  stat gains[seat(1)] += round\n}\n";
    let uri = Uri::from_str("file:///k.cardgame").expect("a uri");
    let doc = Document::new(uri, 1, text.to_string());
    let at = |needle: &str, nth: usize| {
        let i = text.match_indices(needle).nth(nth).expect("in the text").0;
        hover::hover(&doc, doc.position(i + 1)).map(markdown)
    };
    assert_eq!(at("round", 0), None, "in a comment");
    assert_eq!(at("round", 2), None, "in a text");
    assert!(at("round", 1).is_some_and(|h| h.starts_with("variable `round`")));
    assert_eq!(at("kind", 1), None, "a field");
    assert!(at("kind", 0).is_some_and(|h| h.starts_with("keyword `kind`")));
    assert!(at("stat", 1).is_some_and(|h| h.starts_with("keyword `stat`")));
    let gains = at("gains", 1).expect("the statistic");
    assert!(gains.contains("Kept per key, a `player`"), "{gains}");
}

/// A statistic kept per key: completion and the outline name its key's type.
#[test]
fn completion_and_outline_name_a_statistics_key() {
    let uri = Uri::from_str("file:///t.cardgame").expect("a uri");
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/forehead.cardgame"),
    )
    .expect("the script");
    let end = text.find("flow {").expect("a flow") + "flow {\n".len();
    let doc = Document::new(uri, 1, text);
    let details: Vec<(String, String)> = complete::complete(&doc, doc.position(end))
        .into_iter()
        .filter(|c| ["folded", "folds"].contains(&c.label.as_str()))
        .map(|c| (c.label, c.detail.unwrap_or_default()))
        .collect();
    assert_eq!(
        details,
        [
            ("folds".to_string(), "statistic".to_string()),
            ("folded".to_string(), "statistic per int".to_string())
        ]
    );
    let outline: Vec<String> = outline::outline(&doc)
        .into_iter()
        .filter(|s| s.detail.as_deref().is_some_and(|d| d.starts_with("stat")))
        .map(|s| format!("{} {}", s.detail.unwrap_or_default(), s.name))
        .collect();
    assert_eq!(outline, ["stat folds", "stat pot", "stat per int folded"]);
}
