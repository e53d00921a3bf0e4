//! Formatter stage: unit tests of the layout (comments, blank lines, indentation, spaces) and of the
//! checks that keep the formatter from changing a script.

use super::{format, token_spans, tokens, verify, FormatError};

/// Formats, and checks that formatting the result again changes nothing.
fn fmt(src: &str) -> String {
    let out = match format(src) {
        Ok(out) => out,
        Err(e) => panic!("not formatted: {e}\n{src}"),
    };
    let again = format(&out).unwrap_or_else(|e| panic!("the result is not formatted: {e}\n{out}"));
    assert_eq!(again, out, "formatting twice changed the text");
    out
}

#[test]
fn end_of_line_comments_stay_at_the_end_of_their_line() {
    let src = "zone hand per player: set   // the hand\nvar coins: int = 0// coins\n";
    assert_eq!(
        fmt(src),
        "zone hand per player: set // the hand\nvar coins: int = 0 // coins\n"
    );
}

#[test]
fn comment_lines_between_items_keep_their_place_and_one_blank_line() {
    let src = "// header\n\n\n\nzone a: set\n// about b\nzone b: set\n\n\n// about c\n\nzone c: set\n// the end\n";
    assert_eq!(
        fmt(src),
        "// header\n\nzone a: set\n// about b\nzone b: set\n\n// about c\n\nzone c: set\n// the end\n"
    );
}

#[test]
fn comments_inside_blocks_and_before_the_closing_brace_take_the_inner_indentation() {
    let src = "setup {\n// first\n      shuffle box   // why\n    // between\n  log \"x\"\n        // last\n}\n";
    assert_eq!(
        fmt(src),
        "setup {\n  // first\n  shuffle box // why\n  // between\n  log \"x\"\n  // last\n}\n"
    );
}

#[test]
fn a_comment_after_an_opening_brace_stays_on_its_line() {
    let src = "setup { // the setup\n  shuffle box\n}\n";
    assert_eq!(fmt(src), src);
    let src = "setup {\n\n  // no blank line above\n  shuffle box\n\n}\n";
    assert_eq!(
        fmt(src),
        "setup {\n  // no blank line above\n  shuffle box\n}\n"
    );
}

#[test]
fn comments_inside_lists_and_continued_expressions_are_kept() {
    let src = "fn f(): list of int = [\n1, // one\n// two next\n2,\n]\nfn g(): bool = true\n// why\n or false\n";
    assert_eq!(
        fmt(src),
        "fn f(): list of int = [\n  1, // one\n  // two next\n  2,\n]\nfn g(): bool = true\n  // why\n  or false\n"
    );
}

#[test]
fn spaces_around_operators_and_after_commas_none_inside_brackets() {
    let src = "fn f(p:player,n:int):int=max( 1 , -n+p.coins*2 )%3\n";
    assert_eq!(
        fmt(src),
        "fn f(p: player, n: int): int = max(1, -n + p.coins * 2) % 3\n"
    );
    let src = "game \"G\" { players 2 .. 4 }\nfn r(): list of int = 0 .. 3\n";
    assert_eq!(
        fmt(src),
        "game \"G\" { players 2..4 }\nfn r(): list of int = 0..3\n"
    );
    let src = "setup { x+=1\n y -= - 2 }\n";
    assert_eq!(fmt(src), "setup { x += 1\n  y -= -2 }\n");
}

#[test]
fn a_call_takes_its_parenthesis_a_grouping_parenthesis_a_space() {
    let src = "card \"A\" { attack (1 + 2) * 3 }\nsetup { draw (seat (1), 2)\n emit gained (c) }\n";
    assert_eq!(
        fmt(src),
        "card \"A\" { attack (1 + 2) * 3 }\nsetup { draw(seat(1), 2)\n  emit gained(c) }\n"
    );
}

#[test]
fn members_on_one_line_are_set_apart_by_two_spaces() {
    let src = "card \"W\" { is Wood copies 2 value 1 }\nsetup { x = 1 y = 2 }\n";
    assert_eq!(
        fmt(src),
        "card \"W\" { is Wood  copies 2  value 1 }\nsetup { x = 1  y = 2 }\n"
    );
    let src = "setup { if a { x = 1 } else if b { x = 2 } else { x = 3 } }\n";
    assert_eq!(fmt(src), src);
}

#[test]
fn indentation_follows_blocks_brackets_and_continued_lines() {
    let src =
        "flow {\nloop {\n        for p in everyone {\nturn p {\nphase a { x = 1 }\n}\n}\n}\n}\n";
    assert_eq!(
        fmt(src),
        "flow {\n  loop {\n    for p in everyone {\n      turn p {\n        phase a { x = 1 }\n      }\n    }\n  }\n}\n"
    );
    let src = "fn f(): bool =\nfirst()\n          or (second()\nand third())\n";
    assert_eq!(
        fmt(src),
        "fn f(): bool =\n  first()\n  or (second()\n      and third())\n"
    );
    let src = "action buy(c in market)\nif c.cost <= 3 {\nmove c to box\n}\n";
    assert_eq!(
        fmt(src),
        "action buy(c in market)\n  if c.cost <= 3 {\n    move c to box\n  }\n"
    );
}

#[test]
fn texts_are_kept_as_written() {
    let src = "setup { log \"a  {  x+1 }  b  \"\n}\n";
    assert_eq!(fmt(src), src);
}

#[test]
fn whitespace_tabs_carriage_returns_and_the_final_newline_are_normalised() {
    let src = "zone a: set   \r\n\tzone b: set\t// c  \r\n\r\n\r\n\r\nzone c: set";
    assert_eq!(fmt(src), "zone a: set\nzone b: set // c\n\nzone c: set\n");
}

#[test]
fn empty_scripts_and_scripts_of_comments_only() {
    assert_eq!(fmt(""), "");
    assert_eq!(fmt("\n\n  \n"), "");
    assert_eq!(
        fmt("  // only a comment  \n\n\n// two\n"),
        "// only a comment\n\n// two\n"
    );
    assert_eq!(fmt("\u{feff}zone a:set\n"), "\u{feff}zone a: set\n");
}

#[test]
fn a_script_that_does_not_parse_gives_its_syntax_errors() {
    match format("zone a: set\ncard \"X\" { copies }\n") {
        Err(FormatError::Syntax(errors)) => assert!(!errors.is_empty()),
        other => panic!("expected syntax errors, got {other:?}"),
    }
    assert!(matches!(format("game {"), Err(FormatError::Syntax(_))));
}

#[test]
fn a_result_with_another_tree_or_other_comments_is_refused() {
    let src = "fn f(): int = 1 - 2 // c\n";
    let before = tokens::tokens(src).unwrap_or_else(|_| panic!("parses"));
    assert!(verify(src, &before, "fn f(): int = 1 - 2 // c\n").is_ok());
    assert!(matches!(
        verify(src, &before, "fn f(): int = 1 - -2 // c\n"),
        Err(FormatError::Internal(_))
    ));
    assert!(matches!(
        verify(src, &before, "fn f(): int = 1 - 2\n"),
        Err(FormatError::Internal(_))
    ));
    assert!(matches!(
        verify(src, &before, "fn f(): int = 1 -\n"),
        Err(FormatError::Internal(_))
    ));
}

#[test]
fn tokens_cover_everything_but_whitespace_and_comments() {
    let src = "fn f(): int = count(c in box where c.cost > 1) // n\n";
    let spans = token_spans(src).unwrap_or_else(|_| panic!("parses"));
    let mut rest = String::new();
    let mut from = 0;
    for s in &spans {
        rest.push_str(&src[from..s.start]);
        from = s.end;
    }
    rest.push_str(&src[from..]);
    assert_eq!(rest.split_whitespace().collect::<Vec<_>>(), ["//", "n"]);
    assert_eq!(spans.len(), 19);
}

/// A small generator (no dependency) for the whitespace of the next test.
fn next(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

#[test]
fn any_whitespace_between_the_tokens_of_a_formatted_script_formats_back_to_it() {
    let src = fmt(concat!(
        "// A game.\n",
        "game \"G\" {\n  players 2..4\n  option n: int 1..3 = 2 \"n\"\n}\n\n",
        "zone deck per player: pile, hidden\nvar coins per player: int = 0 min 0\n\n",
        "card \"C\" {\n  copies 2 * players // two each\n  ability play { you.coins += 1  log \"{you}\" }\n}\n\n",
        "proc p(x: player) {\n  if x.coins > 1\n    and x.coins < 5 {\n    x.coins -= 1\n  } else {\n",
        "    // nothing\n    stop\n  }\n  let l = [\n    1,\n    2,\n  ]\n}\n",
    ));
    let spans = token_spans(&src).unwrap_or_else(|_| panic!("parses"));
    for seed in 0..50u64 {
        let mut state = seed;
        let mut messy = String::new();
        let mut from = 0;
        for s in &spans {
            let between = &src[from..s.start];
            if between.contains("//") || from == 0 {
                messy.push_str(between);
            } else {
                let lines = between.matches('\n').count();
                for _ in 0..lines {
                    messy.push_str(&" ".repeat((next(&mut state) % 3) as usize));
                    messy.push('\n');
                }
                if lines >= 2 {
                    messy.push_str(&"\n".repeat((next(&mut state) % 3) as usize));
                }
                messy.push_str(&" \t".repeat(1 + (next(&mut state) % 3) as usize));
            }
            messy.push_str(&src[s.start..s.end]);
            from = s.end;
        }
        messy.push_str(&src[from..]);
        assert_eq!(fmt(&messy), src, "seed {seed}:\n{messy}");
    }
}

#[test]
fn tables_tests_and_strategies_are_laid_out_like_blocks() {
    let src = concat!(
        "table by players {\ncolumns a,b\n2: 1,2\n  3:  4 , 5\n}\n",
        "test \"t\" {\nplayers 2\n    given { x = 1 }\nexpect options has \"Buy\"\n  choose \"Buy\"\nexpect x==1\n}\n",
        "strategy rush \"fast\" {\nprefer buy(c) if c.cost>2 by c.cost\n  prefer pass\notherwise mcts : 200\n}\n",
    );
    assert_eq!(
        fmt(src),
        concat!(
            "table by players {\n  columns a, b\n  2: 1, 2\n  3: 4, 5\n}\n",
            "test \"t\" {\n  players 2\n  given { x = 1 }\n  expect options has \"Buy\"\n  choose \"Buy\"\n  expect x == 1\n}\n",
            "strategy rush \"fast\" {\n  prefer buy(c) if c.cost > 2 by c.cost\n  prefer pass\n  otherwise mcts:200\n}\n",
        )
    );
}

#[test]
fn a_participant_is_one_line() {
    let src = "participant   automaton    \"the Automated Opponent\"// no seat\n\n\nvar participant: int = 0\n";
    assert_eq!(
        fmt(src),
        "participant automaton \"the Automated Opponent\" // no seat\n\nvar participant: int = 0\n"
    );
    // A line the author broke continues one level in.
    assert_eq!(
        fmt("participant automaton\n\"the Automated Opponent\"\n"),
        "participant automaton\n  \"the Automated Opponent\"\n"
    );
}

#[test]
fn rule_sets_and_uses_are_laid_out_like_strategies() {
    let src = concat!(
        "rules plays \"how the cards are played\"{\nprefer play_card(c) if c is \"Cart\"\n",
        "      use   openings\nprefer choose c in \"Forge: gain\" by c.points*10+c.cost\n}\n",
        "rules openings{}\n",
        "strategy money \"Big Money\" {\n use plays\n    prefer buy(c) if c is \"Castle\"\nuse\nopenings\notherwise random\n}\n",
    );
    insta::assert_snapshot!(fmt(src), @r#"
    rules plays "how the cards are played" {
      prefer play_card(c) if c is "Cart"
      use openings
      prefer choose c in "Forge: gain" by c.points * 10 + c.cost
    }
    rules openings { }
    strategy money "Big Money" {
      use plays
      prefer buy(c) if c is "Castle"
      use
        openings
      otherwise random
    }
    "#);
}

#[test]
fn a_statistics_key_is_written_against_its_name() {
    let src = "stat bust [ int ]  \"Busts by up-card\"\nflow {\n  stat bust [ c.rank ] += 1\n  stat n = stat_of [ 2 ]\n}\n";
    assert_eq!(
        fmt(src),
        "stat bust[int] \"Busts by up-card\"\nflow {\n  stat bust[c.rank] += 1\n  stat n = stat_of[2]\n}\n"
    );
}
