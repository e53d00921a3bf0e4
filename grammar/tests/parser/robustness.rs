//! Grammar stage: tests of the parser's robustness against hostile input.

use crate::helpers::*;
use cardgame_grammar::ast::*;
use cardgame_grammar::{parse, SyntaxError};

// ───────────────────────────── robustness ─────────────────────────────

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let parens = format!(
        "fn f(): int = {}1{}",
        "(".repeat(10_000),
        ")".repeat(10_000)
    );
    let e = errors_of(&parens);
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].code(), SyntaxError::TOO_DEEP);

    let blocks = format!("setup {}{}", "{ loop ".repeat(10_000), "}".repeat(10_000));
    assert_eq!(errors_of(&blocks)[0].code(), SyntaxError::TOO_DEEP);

    let unclosed = format!("setup {}", "[".repeat(100_000));
    assert_eq!(errors_of(&unclosed)[0].code(), SyntaxError::TOO_DEEP);

    let texts = format!("fn f(): int = {}", "\"{".repeat(5_000));
    assert_eq!(errors_of(&texts)[0].code(), SyntaxError::TOO_DEEP);

    // Nesting without brackets and long operator chains.
    for src in [
        format!("fn f(): int = {}1", "if a then 1 else ".repeat(20_000)),
        format!("fn f(): int = {}1", "if ".repeat(20_000)),
        format!("fn f(): int = {}d", "top of ".repeat(20_000)),
        format!("fn f(): int = {}1", "-".repeat(100_000)),
        format!("fn f(): bool = {}a", "not ".repeat(100_000)),
        format!("fn f(): int = 1{}", " + 1".repeat(100_000)),
        format!("fn f(): int = a{}", ".b".repeat(100_000)),
        format!("var x: {}int = 0", "list of ".repeat(20_000)),
    ] {
        let e = errors_of(&src);
        assert!(!e.is_empty(), "{}", &src[..40]);
        assert!(
            e.iter()
                .all(|e| e.code() == SyntaxError::TOO_DEEP || e.code() == SyntaxError::UNEXPECTED),
            "{e:?}"
        );
    }
}

#[test]
fn moderate_nesting_parses() {
    let n = 200;
    let parens = format!("fn f(): int = {}1{}", "(".repeat(n), ")".repeat(n));
    assert!(errors_of(&parens).is_empty());
    let lists = format!("fn f(): int = {}1{}", "[".repeat(n), "]".repeat(n));
    assert!(errors_of(&lists).is_empty());
    let blocks = format!("setup {{ {} }}", "loop { ".repeat(100) + &"}".repeat(100));
    assert!(errors_of(&blocks).is_empty());
    let chain = format!("fn f(): int = 1{}", " + 1".repeat(300));
    assert!(errors_of(&chain).is_empty());
}

#[test]
fn junk_input_gives_errors_and_never_panics() {
    for src in [
        "\u{0}",
        "\u{1}\u{2}\u{7f}",
        "card \u{0} {",
        "\u{202e}card \"x\" {}",
        "é∑😀",
        "card \"😀\" { cost 1 } 😀",
        "}}}}",
        "))))]]]]",
        "\"",
        "\"{",
        "\"{}\"",
        "card \"{\" {}",
        "\r\r\r",
        "card\"x\"{cost 1}",
        "//\u{0}\ncard \"a\" {}",
        "fn f(): int = \"{{\"",
        "game",
        "game \"",
        "table by players { columns }",
        "on",
        "test \"t\" { expect options }",
    ] {
        let (_, errors) = parse(src);
        for e in &errors {
            assert!(
                e.span.end <= src.len()
                    && src.is_char_boundary(e.span.start)
                    && src.is_char_boundary(e.span.end)
            );
        }
    }
    assert!(!errors_of("\u{0}").is_empty());
    assert!(errors_of("card\"x\"{cost 1}").is_empty());
}

/// A small deterministic generator for the fuzz-style tests.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_token_soup_never_panics() {
    let tokens = [
        "card",
        "zone",
        "let",
        "move",
        "to",
        "top",
        "of",
        "if",
        "then",
        "else",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        ",",
        ":",
        "=",
        "==",
        "+=",
        "-",
        "+",
        "*",
        "..",
        ".",
        "\"",
        "\"a{x}\"",
        "x",
        "p.hand",
        "1",
        "99999999999999999999",
        "choose",
        "up",
        "any",
        "in",
        "where",
        "by",
        "for",
        "count",
        "sum",
        "max",
        "is",
        "not",
        "and",
        "or",
        "\n",
        " ",
        "//",
        "\\",
        "{{",
        "}}",
        "é",
        "\u{0}",
        "setup",
        "flow",
        "test",
        "expect",
        "proc",
        "fn",
        "on",
        "per",
        "player",
        "list",
    ];
    let mut rng = Lcg(42);
    for _ in 0..3000 {
        let len = rng.below(40);
        let mut src = String::new();
        for _ in 0..len {
            src.push_str(tokens[rng.below(tokens.len())]);
            if rng.below(3) > 0 {
                src.push(' ');
            }
        }
        let (script, errors) = parse(&src);
        for e in &errors {
            assert!(e.span.end <= src.len(), "{src:?}: {e:?}");
        }
        for item in &script.items {
            if let Item::Fn(f) = item {
                check_expr_spans(&src, &f.body);
            }
        }
    }
}

#[test]
fn every_prefix_and_mutation_of_a_real_script_is_handled() {
    let src = r#"game "G" { players 2..4 option rares: bool = true "r" }
zone deck per player: pile, hidden, refill from discard
var coins per player: int = 0 min 0
card "Village" { is Territory copies 8 cost 1 ability play { you.coins += 1 } }
proc draw(p: player, n: int) { move top n of p.deck to p.hand }
action buy(c in market) label "Buy {c}" if c.cost <= you.coins { pay c.cost from you.coins move c to you.discard }
flow { loop { for p in from(seat(1)) { turn p { actions by p until pass [buy] } } } }
test "t" { players 2 choose "pass" expect count(c in P1.hand where c is "Village") == 0 }
"#;
    assert!(errors_of(src).is_empty());
    let mut cut_points: Vec<usize> = (0..=src.len())
        .filter(|i| src.is_char_boundary(*i))
        .collect();
    cut_points.retain(|i| i % 3 == 0);
    for i in cut_points {
        let prefix = &src[..i];
        let (_, errors) = parse(prefix);
        for e in &errors {
            assert!(e.span.end <= prefix.len());
        }
        // Delete one character.
        let mut mutated = String::from(&src[..i]);
        mutated.push_str(src[i..].get(1..).unwrap_or(""));
        let _ = errors_of(&mutated);
    }
}

#[test]
fn unindented_items_parse_like_indented_ones() {
    let src = "card \"A\" {\nis X\non e(c) in hand { stop }\ncost 1\n}\nproc p() {\nmove a to b\nlet x = 1\n}\n";
    let script = parse_ok(src);
    assert_eq!(script.items.len(), 2);
    match &script.items[0] {
        Item::Card(c) => assert_eq!(c.items.len(), 3),
        other => panic!("{other:?}"),
    }
    // Broken ones are reported once each.
    let bad = "card \"A\" {\nis X\non e() { stop }\ncost 1 +\n}\n".repeat(3);
    assert_eq!(errors_of(&bad).len(), 3);
}

#[test]
fn every_bad_item_of_a_long_file_is_reported() {
    let src = "crad \"A\" { }\ncard \"B\" { cost 1 + }\nzone z\n".repeat(500);
    let (script, errors) = parse(&src);
    assert_eq!(errors.len(), 1000);
    assert_eq!(script.items.len(), 500);
}

#[test]
fn a_strategy_has_ordered_rules_and_a_fallback() {
    let s = parse_ok(
        r#"strategy big_money "Castle at 8" {
  prefer buy(c) if c is "Castle"
  prefer buy(c) if c is Treasure by c.cost
  prefer pass_turn
  prefer pass if you.coins < 3
  prefer choose c in "Forge: trash" if c is "Copper"
  prefer choose n: int by n
  prefer choose "Declare"
  otherwise mcts:50
}
strategy plain { }"#,
    );
    let Some(Item::Strategy(st)) = s.items.first() else {
        panic!("expected a strategy, got {:?}", s.items);
    };
    assert_eq!(st.name.name, "big_money");
    assert_eq!(
        st.description.as_ref().and_then(|d| d.plain()).as_deref(),
        Some("Castle at 8")
    );
    assert_eq!(st.rules.len(), 7);
    let rules: Vec<&StrategyRule> = st.rules.iter().filter_map(RuleItem::rule).collect();
    assert_eq!(rules.len(), 7);
    assert!(
        matches!(&rules[0].target, StrategyTarget::Action { action, params }
        if action.name == "buy" && params.len() == 1)
    );
    assert!(rules[0].condition.is_some() && rules[0].by.is_none());
    assert!(rules[1].condition.is_some() && rules[1].by.is_some());
    assert!(
        matches!(&rules[2].target, StrategyTarget::Action { action, params }
        if action.name == "pass_turn" && params.is_empty())
    );
    assert!(matches!(rules[3].target, StrategyTarget::Pass(_)));
    assert!(
        matches!(&rules[4].target, StrategyTarget::Choose { binder, ty: None, prompt: Some(_) }
        if binder.name == "c")
    );
    assert!(matches!(
        &rules[5].target,
        StrategyTarget::Choose {
            ty: Some(TypeExpr::Int(_)),
            prompt: None,
            ..
        }
    ));
    assert!(
        matches!(&rules[6].target, StrategyTarget::Branch(t) if t.plain().as_deref() == Some("Declare"))
    );
    let (agent, count, _) = st.otherwise.as_ref().expect("a fallback");
    assert_eq!((agent.name.as_str(), *count), ("mcts", Some(50)));
    let Some(Item::Strategy(plain)) = s.items.get(1) else {
        panic!("expected a second strategy");
    };
    assert!(plain.rules.is_empty() && plain.otherwise.is_none() && plain.description.is_none());
}

/// `strategy`, `prefer`, `otherwise`, `rules` and `use` are contextual words: they stay usable as
/// names.
#[test]
fn strategy_words_are_not_reserved() {
    parse_ok("var strategy: int = 0\nvar prefer: int = 0\nfn otherwise(): int = strategy + prefer");
    parse_ok("var rules: int = 0\nabilities use\nfn f(): int = rules");
}

/// A rule set: a name, a description, `prefer` rules and `use`s in order, no fallback; a strategy
/// may `use` one among its rules.
#[test]
fn a_rule_set_has_rules_and_uses_in_order() {
    let s = parse_ok(
        r#"rules plays "how the cards are played" {
  prefer play(c) if c is Treasure
  use openings
  prefer pass
}
rules openings { }
strategy rush {
  use plays
  prefer buy(c) by c.cost
  otherwise first
}"#,
    );
    let [Item::Rules(plays), Item::Rules(openings), Item::Strategy(rush)] = &s.items[..] else {
        panic!("expected two rule sets and a strategy, got {:?}", s.items);
    };
    assert_eq!(plays.name.name, "plays");
    assert_eq!(
        plays
            .description
            .as_ref()
            .and_then(|d| d.plain())
            .as_deref(),
        Some("how the cards are played")
    );
    let lines: Vec<Option<&StrategyTarget>> = plays
        .rules
        .iter()
        .map(|l| l.rule().map(|r| &r.target))
        .collect();
    assert!(matches!(
        &lines[..],
        [
            Some(StrategyTarget::Action { .. }),
            None,
            Some(StrategyTarget::Pass(_))
        ]
    ));
    assert!(matches!(&plays.rules[1], RuleItem::Use { name, .. } if name.name == "openings"));
    assert!(plays.otherwise.is_none());
    assert!(openings.rules.is_empty() && openings.description.is_none());
    assert!(
        matches!(&rush.rules[..], [RuleItem::Use { name, .. }, RuleItem::Prefer(_)]
        if name.name == "plays")
    );
    assert!(rush.otherwise.is_some());
    // An `otherwise` in a rule set parses (the checker refuses it, with its span).
    let s = parse_ok("rules r { prefer pass otherwise random }");
    let [Item::Rules(r)] = &s.items[..] else {
        panic!("expected a rule set");
    };
    assert!(r.otherwise.is_some());
}

#[test]
fn a_statistic_is_declared_and_recorded() {
    let s = parse_ok("stat coins \"Coins in hand\"\nstat plays\nvar x: int = 0");
    match &s.items[..] {
        [Item::Stat(a), Item::Stat(b), Item::Var(_)] => {
            assert_eq!(a.name.name, "coins");
            assert_eq!(
                a.description.as_ref().and_then(|t| t.plain()).as_deref(),
                Some("Coins in hand")
            );
            assert_eq!(b.name.name, "plays");
            assert!(b.description.is_none());
        }
        other => panic!("expected two stats and a var, got {other:?}"),
    }
    match stmt("stat coins = you.coins") {
        StmtKind::Stat(n, AssignOp::Set, _) => assert_eq!(n.name, "coins"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        stmt("stat plays += 1"),
        StmtKind::Stat(_, AssignOp::Add, _)
    ));
    assert!(matches!(
        stmt("stat plays -= 2"),
        StmtKind::Stat(_, AssignOp::Sub, _)
    ));
}

#[test]
fn stat_is_not_reserved() {
    // A variable named `stat` is still written and read as before.
    parse_ok("var stat: int = 0\nfn f(): int = stat + 1");
    assert!(matches!(stmt("stat = 1"), StmtKind::Assign(..)));
    assert!(matches!(stmt("stat += 1"), StmtKind::Assign(..)));
    assert!(matches!(stmt("p.stat += 1"), StmtKind::Assign(..)));
}

/// `teams by VAR` in the header; `win team E "why"`, and `win team "why"` where `team` is a list.
#[test]
fn teams_and_a_team_win_parse() {
    let s = parse_ok(
        "game \"T\" {\n  players 4\n  teams by side\n}\nflow {\n  win team 2 \"two\"\n}\nproc p() {\n  let team = [seat(1)]\n  win team \"the list\"\n}\n",
    );
    let Item::Game(g) = &s.items[0] else {
        panic!("a header first")
    };
    assert_eq!(g.teams.as_ref().map(|t| t.name.as_str()), Some("side"));
    let bodies: Vec<String> = s
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Flow(b) => Some(format!("{:?}", b.stmts.last().map(|s| &s.kind))),
            Item::Proc(p) => Some(format!("{:?}", p.body.stmts.last().map(|s| &s.kind))),
            _ => None,
        })
        .collect();
    assert!(bodies[0].starts_with("Some(WinTeam("), "{}", bodies[0]);
    assert!(bodies[1].starts_with("Some(Win("), "{}", bodies[1]);
}

#[test]
fn procedures_with_results_and_function_bodies_with_let() {
    let script = parse_ok(
        "fn f(n: int): text {\n  let a = n * 2\n  let b = a + 1\n  \"{a} {b}\"\n}\nproc g(p: player): list of int {\n  return [1]\n}\nproc h() { stop }\n",
    );
    let Item::Fn(f) = &script.items[0] else {
        panic!("a function")
    };
    assert!(matches!(f.ret, TypeExpr::Text(_)));
    let lets: Vec<(&str, String)> = f
        .lets
        .iter()
        .map(|(n, _, e)| (n.name.as_str(), show(e)))
        .collect();
    assert_eq!(
        lets,
        [("a", "(* n 2)".to_string()), ("b", "(+ a 1)".to_string())]
    );
    let Item::Proc(g) = &script.items[1] else {
        panic!("a procedure")
    };
    assert!(matches!(g.ret, Some(TypeExpr::List(..))));
    assert!(matches!(g.body.stmts[0].kind, StmtKind::Return(_)));
    let Item::Proc(h) = &script.items[2] else {
        panic!("a procedure")
    };
    assert!(h.ret.is_none());
    assert!(matches!(stmt("let x = g(p)"), StmtKind::Let(_, None, _)));
    assert!(matches!(
        stmt("let ks: list of kind = []"),
        StmtKind::Let(n, Some(TypeExpr::List(..)), _) if n.name == "ks"
    ));
}

#[test]
fn indexing_comprehensions_flatten_and_take_while() {
    assert_eq!(show(&expr("p.hand[2].cost")), "p.hand[2].cost");
    assert_eq!(show(&expr("hands[i][j + 1]")), "hands[i][(+ j 1)]");
    assert_eq!(show(&expr("-L[1] * 2")), "(* (- L[1]) 2)");
    assert_eq!(
        show(&expr("[c.cost * 2 for c in hand where c is Gold]")),
        "(Map (* c.cost 2) c in hand where (is c Gold))"
    );
    assert_eq!(show(&expr("[a for x in L]")), "(Map a x in L)");
    assert_eq!(show(&expr("[a, b]")), "[a b]");
    assert_eq!(
        show(&expr("flatten(t.kept for t in p.domain)")),
        "(Flatten t.kept t in p.domain)"
    );
    assert_eq!(
        show(&expr("take_while(c in p.deck where c.face_up)")),
        "(TakeWhile c in p.deck where c.face_up)"
    );
    assert!(!errors_of("fn f(): list of int = take_while(x in [1] )").is_empty());
    // `times N [menu]`: a count that is a number, a name or in parentheses is not indexed.
    let StmtKind::Actions { mode, actions, .. } = stmt("actions by p times n [buy]") else {
        panic!("a menu")
    };
    assert!(matches!(mode, MenuMode::Times(e) if show(&e) == "n"));
    assert_eq!(actions.len(), 1);
    let StmtKind::Actions { mode, .. } = stmt("actions by p times (n[1]) [buy, sell]") else {
        panic!("a menu")
    };
    assert!(matches!(mode, MenuMode::Times(e) if show(&e) == "n[1]"));
}

#[test]
fn choose_order_and_a_binder_named_order() {
    let ch = let_choose("choose order c in p.deck where c.face_up by p prompt \"Back\"");
    assert!(matches!(ch.count, ChooseCount::Order));
    assert_eq!(ch.var.name, "c");
    assert!(ch.filter.is_some());
    // `order` stays a name: a binder, a local and a count in parentheses.
    let ch = let_choose("choose order in L");
    assert!(matches!(ch.count, ChooseCount::One));
    assert_eq!(ch.var.name, "order");
    let ch = let_choose("choose (order) c in L");
    assert!(matches!(ch.count, ChooseCount::Exactly(_)));
    assert!(matches!(stmt("let order = []"), StmtKind::Let(n, _, _) if n.name == "order"));
}

#[test]
fn card_families() {
    let script = parse_ok(
        "card \"{rank} of {suit}\" for suit in [Clubs, Hearts], (rank, name) in [[11, \"Jack\"]] {\n  is suit\n  rank rank\n}\ncard \"Plain\" { copies 1 }\n",
    );
    let Item::Card(c) = &script.items[0] else {
        panic!("a card")
    };
    let binders: Vec<(Vec<&str>, bool, String)> = c
        .family
        .iter()
        .map(|b| {
            (
                b.names.iter().map(|n| n.name.as_str()).collect(),
                b.row,
                show(&b.list),
            )
        })
        .collect();
    assert_eq!(
        binders,
        [
            (vec!["suit"], false, "[Clubs Hearts]".to_string()),
            (vec!["rank", "name"], true, "[[11 \"Jack\"]]".to_string()),
        ]
    );
    let Item::Card(plain) = &script.items[1] else {
        panic!("a card")
    };
    assert!(plain.family.is_empty());
}

#[test]
fn a_choice_assigned_to_a_name() {
    match stmt("giftee = choose q in mates by p prompt \"Who?\"") {
        StmtKind::AssignChoose(t, c) => {
            assert_eq!(show(&t), "giftee");
            assert_eq!(c.var.name, "q");
            assert!(c.by.is_some() && c.prompt.is_some());
        }
        other => panic!("{other:?}"),
    }
    // `==` is a comparison, never this assignment; other assignments are unchanged.
    assert!(matches!(
        stmt("x = y"),
        StmtKind::Assign(_, AssignOp::Set, _)
    ));
    assert!(!errors_of("proc p() { x == choose q in L }").is_empty());
}

#[test]
fn a_participant_is_declared_and_its_word_stays_a_name() {
    let s = parse_ok(
        "participant automaton \"the Automated Opponent\"\nvar participant per player: int = 0",
    );
    match &s.items[..] {
        [Item::Participant(a), Item::Var(v)] => {
            assert_eq!(a.name.name, "automaton");
            assert_eq!(a.display.plain().as_deref(), Some("the Automated Opponent"));
            assert_eq!(v.name.name, "participant");
        }
        other => panic!("unexpected items: {other:?}"),
    }
}

#[test]
fn a_misspelled_keyword_gets_a_suggestion_wherever_it_stands() {
    for (line, help) in [
        (
            "let c = chose c in p.hand by p",
            "`chose` is not a keyword: did you mean `choose`?",
        ),
        ("move c to p.hand face dwon", "did you mean `down`?"),
        (
            "let best = choos c in p.hand where c.cost > 1 by p",
            "`choos` is not a keyword: did you mean `choose`?",
        ),
        (
            "let n = 1 + + 2",
            "write an expression here; docs/language.md shows every form of the language",
        ),
    ] {
        let e = errors_of(&format!("proc f(p: player) {{\n  {line}\n}}\n"));
        assert_eq!(e.len(), 1, "{line}: {e:?}");
        assert_eq!(e[0].help.as_deref(), Some(help), "{line}");
    }
}

/// Recovery inside an item drops as little as it can: a dangling operator, a line whose `(` is never
/// closed, a missing `)` before a block's `{`; every item stays and each mistake is one error.
#[test]
fn recovery_inside_an_item_drops_as_little_as_it_can() {
    // A dangling operator at the end of a line: only it goes.
    let (script, errors) = parse("game \"G\" {\n  players 2..4 +\n}\n");
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].message.ends_with("found `+`"), "{errors:#?}");
    assert!(matches!(&script.items[..], [Item::Game(g)] if g.players.is_some()));
    for (src, message) in [
        // A `(` never closed on a line of a block: that line goes.
        (
            "proc p() {\n  log \"a\"\n  move top(1 of deck to hand\n  log \"b\"\n}\n",
            "the `(` after `move top` on line 3 is never closed",
        ),
        // A `)` missing before the block's `{`: it is closed there.
        (
            "proc p() {\n  if any(c in L where c.cost > 1 {\n    log \"a\"\n  }\n  log \"b\"\n}\n",
            "the `(` after `if any` on line 2 is never closed",
        ),
    ] {
        let (script, errors) = parse(src);
        assert_eq!(errors.len(), 1, "{src}: {errors:#?}");
        assert_eq!(errors[0].message, message, "{src}");
        assert!(
            matches!(&script.items[..], [Item::Proc(p)] if p.body.stmts.len() == 2),
            "{src}: a statement too many was dropped"
        );
    }
}

/// `round { }`, `end round` and `eliminate P for round`; `round` stays a name elsewhere.
#[test]
fn rounds_parse_and_round_is_not_reserved() {
    assert!(matches!(stmt("round { end round }"), StmtKind::Round(_)));
    assert!(matches!(stmt("end round"), StmtKind::EndRound));
    assert!(matches!(
        stmt("eliminate you for round"),
        StmtKind::OutForRound(_)
    ));
    assert!(matches!(stmt("eliminate you"), StmtKind::Eliminate(_)));
    parse_ok("var round: int = 0\nfn f(): int = round + 1");
    assert!(matches!(stmt("round = 1"), StmtKind::Assign(..)));
    assert!(matches!(stmt("round += 1"), StmtKind::Assign(..)));
    assert!(matches!(stmt("round(1)"), StmtKind::Call(..)));
}

/// `log "text" to P`: a line of P's private log; `log "text"` as before.
#[test]
fn a_private_log_parses() {
    assert!(matches!(stmt("log \"a\" to you"), StmtKind::LogTo(..)));
    assert!(matches!(stmt("log \"a\""), StmtKind::Log(_)));
}

#[test]
fn a_statistic_kept_per_key_is_declared_with_its_type_and_recorded_with_its_key() {
    let script = parse_ok(
        "stat bust[kind] \"Busts\"\nstat plain\nflow {\n  stat bust[c.kind] = 1\n  stat plain += 2\n}\n",
    );
    let decls: Vec<_> = script
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Stat(d) => Some((d.name.name.clone(), d.key.is_some())),
            _ => None,
        })
        .collect();
    assert_eq!(
        decls,
        vec![("bust".to_string(), true), ("plain".to_string(), false)]
    );
    let flow = script
        .items
        .iter()
        .find_map(|i| match i {
            Item::Flow(b) => Some(b),
            _ => None,
        })
        .expect("a flow");
    assert!(
        matches!(&flow.stmts[0].kind, StmtKind::StatAt(n, _, AssignOp::Set, _) if n.name == "bust")
    );
    assert!(
        matches!(&flow.stmts[1].kind, StmtKind::Stat(n, AssignOp::Add, _) if n.name == "plain")
    );
}
