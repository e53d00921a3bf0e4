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
