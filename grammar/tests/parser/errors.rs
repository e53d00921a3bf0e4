//! Grammar stage: tests of the parser's errors and its recovery after them.

use crate::helpers::*;
use cardgame_grammar::ast::*;
use cardgame_grammar::{parse, SyntaxError};

// ───────────────────────────── errors and recovery ─────────────────────────────

#[test]
fn two_bad_items_give_two_errors_and_every_item_is_kept() {
    let src = "zone supply: pile
card \"A\" {
  cost 3 +
}
var coins per player: int = 0
tags faction: Knights, Demons
proc p() {
  move c p.hand
}
zone market: set
";
    let (script, errors) = parse(src);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    // The broken part of each item is dropped; the items stay, so their names stay known.
    let kinds: Vec<&str> = script
        .items
        .iter()
        .map(|i| match i {
            Item::Zone(_) => "zone",
            Item::Card(_) => "card",
            Item::Var(_) => "var",
            Item::Tags(_) => "tags",
            Item::Proc(_) => "proc",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["zone", "card", "var", "tags", "proc", "zone"]);
    let Item::Card(card) = &script.items[1] else {
        unreachable!()
    };
    // Only the dangling `+` goes: the card keeps `cost 3`.
    assert_eq!(card.items.len(), 1, "{card:#?}");
    let Item::Proc(p) = &script.items[4] else {
        unreachable!()
    };
    assert!(p.body.stmts.is_empty(), "{p:#?}");
    // The first error is in the card, the second in the procedure, in source order.
    assert!(errors[0].span.start > src.find("card").unwrap());
    assert!(errors[0].span.start < src.find("var").unwrap());
    assert_eq!(&src[errors[1].span.start..errors[1].span.end], "p");
    assert_eq!(errors[1].message, "expected `to` or an operator, found `p`");
}

#[test]
fn error_messages_use_plain_words() {
    let e = errors_of("setup { foo }");
    assert_eq!(e.len(), 1);
    assert_eq!(
        e[0].message,
        "expected `(`, `[`, `.`, `=`, `+=` or `-=`, found `}`"
    );
    assert_eq!(e[0].code(), SyntaxError::UNEXPECTED);

    let e = errors_of("setup {\n  move c to p.hand\n");
    assert_eq!(e.len(), 1, "{e:?}");
    assert_eq!(
        e[0].message,
        "the `{` after `setup` on line 1 is never closed"
    );
    assert_eq!(e[0].help.as_deref(), Some("add `}` at the end of the file"));
    // Without a blank after the last token there is no room to close it: the pest error stays.
    let e = errors_of("setup {\n  move c to p.hand");
    assert_eq!(
        e[0].help.as_deref(),
        Some("the `{` on line 1 is never closed")
    );

    let e = errors_of("card \"X\" foo");
    assert_eq!(e[0].message, "expected `{` or `for`, found `foo`");

    let e = errors_of("var x: int");
    assert_eq!(e[0].message, "expected `=`, found the end of the file");

    let e = errors_of("zone deck per player: pile, hiden");
    assert_eq!(e.len(), 1);
    assert!(
        e[0].message.starts_with("expected a zone attribute"),
        "{e:?}"
    );

    let e = errors_of("fn f(): int = 1 +");
    assert_eq!(
        e[0].message,
        "expected an expression, found the end of the file"
    );

    let e = errors_of("setup { mvoe c to x }");
    assert_eq!(e[0].help.as_deref(), Some("did you mean `move`?"));

    let e = errors_of("setup { if x { } esle { } }");
    assert_eq!(e[0].help.as_deref(), Some("did you mean `else`?"));

    let e = errors_of("setup { choose c in p.hand }");
    assert!(
        e[0].help
            .as_deref()
            .unwrap()
            .contains("let x = choose x in L"),
        "{e:?}"
    );

    let e = errors_of("proc p() { log \"bad \\q\" }");
    assert_eq!(e[0].message, "unknown escape `\\q` in a text");
}

#[test]
fn misspelled_top_level_keyword_gets_a_suggestion() {
    let src = "crad \"X\" {\n  cost 1\n}\ncard \"Y\" { cost 2 }\n";
    let (script, errors) = parse(src);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].code(), SyntaxError::UNKNOWN_ITEM);
    assert_eq!(errors[0].help.as_deref(), Some("did you mean `card`?"));
    assert_eq!(slice(src, errors[0].span), "crad");
    assert_eq!(script.items.len(), 1);

    for (word, keyword) in [
        ("zoen", "zone"),
        ("proce", "proc"),
        ("seutp", "setup"),
        ("tset", "test"),
    ] {
        let e = errors_of(&format!("{word} x"));
        assert_eq!(
            e[0].help.as_deref(),
            Some(format!("did you mean `{keyword}`?").as_str()),
            "{word}"
        );
    }
    let e = errors_of("move x to y");
    assert!(e[0].help.as_deref().unwrap().contains("statement"));
}

#[test]
fn a_broken_line_of_a_card_is_dropped_and_its_inner_trigger_kept() {
    // The broken card holds an indented `on` line: recovery must not restart there.
    let src = "card \"A\" {\n  cost 1 2 3\n  on crafted(c) in owned { stop }\n}\nzone z: set\n";
    let (script, errors) = parse(src);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(script.items.len(), 2);
    assert!(matches!(&script.items[0], Item::Card(c) if c.items.len() == 1));
    assert!(matches!(&script.items[1], Item::Zone(_)));
}

#[test]
fn an_unclosed_block_before_the_next_item_is_reported_once() {
    let src = "setup {\n  move c to x\n\nflow { loop { } }\n";
    let (script, errors) = parse(src);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(
        errors[0].message,
        "the `{` after `setup` on line 1 is never closed"
    );
    assert_eq!(errors[0].code(), SyntaxError::UNCLOSED);
    assert_eq!(
        errors[0].help.as_deref(),
        Some("add `}` before line 4, where `flow` starts the next item")
    );
    assert_eq!((errors[0].span.start, errors[0].span.end), (6, 7));
    assert_eq!(script.items.len(), 2);
    assert!(matches!(&script.items[0], Item::Setup(b) if b.stmts.len() == 1));
    assert!(matches!(&script.items[1], Item::Flow(_)));
}

#[test]
fn syntax_errors_are_miette_diagnostics() {
    use miette::Diagnostic;
    let src = "crad \"X\" { }";
    let (_, errors) = parse(src);
    let e = &errors[0];
    assert_eq!(e.code().to_string(), "syntax::unknown_item");
    assert_eq!(
        Diagnostic::code(e).unwrap().to_string(),
        "syntax::unknown_item"
    );
    assert_eq!(
        Diagnostic::help(e).unwrap().to_string(),
        "did you mean `card`?"
    );
    let labels: Vec<_> = e.labels().unwrap().collect();
    assert_eq!(labels.len(), 1);
    assert_eq!(labels[0].offset(), 0);
    assert_eq!(labels[0].len(), 4);
    let report = miette::Report::new(e.clone()).with_source_code(src.to_string());
    let mut out = String::new();
    miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        .render_report(&mut out, report.as_ref())
        .unwrap();
    assert!(out.contains("did you mean `card`?"), "{out}");
    assert!(out.contains("crad"), "{out}");
    assert_eq!(e.span(), Span::new(0, 4));
}
