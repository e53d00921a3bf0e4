//! Engine stage: the machine (engine/code, engine/machine) against the walker, its oracle: the
//! scripts of the vertical slice compile, and their games played in lockstep on both engines agree
//! at every decision on the status, the events and every seat's view (docs/engine.md, "Moving").

use crate::check::check_source;
use crate::engine::code::Instr;
use crate::engine::{Engine, Game, GameConfig, Status};
use crate::program::Program;
use std::sync::Arc;

pub(super) fn program(file: &str) -> Arc<Program> {
    let path = format!("{}/../{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    program_of(file, &src)
}

fn program_of(name: &str, src: &str) -> Arc<Program> {
    let checked = check_source(src);
    Arc::new(
        checked
            .program
            .unwrap_or_else(|| panic!("{name} checks: {:?}", checked.diagnostics)),
    )
}

pub(super) fn config(players: u8, seed: u64, engine: Engine) -> GameConfig {
    let mut c = GameConfig::new(players, seed);
    c.engine = engine;
    c
}

/// Everything a seat or a tool can observe of a game now, as text.
pub(super) fn observed(g: &mut Game) -> String {
    let events = g.take_events();
    let mut out = format!("{:?}\n{events:?}\n", g.status());
    for seat in 0..g.players() {
        out.push_str(&serde_json::to_string(&g.view(seat)).expect("a view"));
        out.push('\n');
    }
    out
}

/// Plays `games` games of `file` on both engines, choosing the same options (a generator of the
/// test's own, seeded by the game), and fails at the first decision where they differ.
fn lockstep(file: &str, players: u8, games: u64) -> u64 {
    lockstep_of(file, program(file), players, games)
}

fn lockstep_of(file: &str, p: Arc<Program>, players: u8, games: u64) -> u64 {
    assert!(
        p.code.is_some(),
        "{file} compiles for the machine: {:?}",
        p.uncovered
    );
    let mut decisions = 0;
    for seed in 0..games {
        let mut walker = Game::new(p.clone(), config(players, seed, Engine::Walker));
        let mut machine = Game::new(p.clone(), config(players, seed, Engine::Machine));
        let mut pick = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for step in 0.. {
            let (w, m) = (observed(&mut walker), observed(&mut machine));
            assert_eq!(
                w, m,
                "{file}, seed {seed}, decision {step}: the engines differ"
            );
            let Status::Decision(d) = walker.status() else {
                break;
            };
            pick ^= pick << 13;
            pick ^= pick >> 7;
            pick ^= pick << 17;
            let i = (pick % d.options.len() as u64) as usize;
            walker.apply(i).expect("an option");
            machine.apply(i).expect("an option");
            decisions += 1;
        }
    }
    decisions
}

#[test]
fn market_race_plays_alike_on_both_engines() {
    assert!(lockstep("examples/market-race.cardgame", 3, 12) > 500);
}

#[test]
fn duel_plays_alike_on_both_engines() {
    assert!(lockstep("examples/duel.cardgame", 2, 12) > 300);
}

/// Statements compiled on the machine (loops and their `break`, `repeat`, `while`, `require`, a
/// procedure's `return` to a `let`, `strict` left at a failed `pay`, writes with bounds) and the
/// walker's frames they stop for (turns, menus) play alike on both engines.
const STATEMENTS: &str = r#"game "Statements" { players 2 }
zone deck per player: pile
zone stock: pile
var coins per player: int = 0 min 0 max 7
var ticks: int = 0
card "Coin" { copies 9 }

proc gain(p: player, n: int): int {
  p.coins += n
  if p.coins > 5 { return 5 }
  return p.coins
}

proc spend(p: player) {
  strict {
    pay 3 from p.coins
    move top of stock to p.deck
    log "{p} spends"
  }
  ticks += 1
}

action grab(c in stock) label "Grab {c}" if you.coins >= 1 {
  you.coins -= 1
  move c to you.deck
}

setup { move box to stock }

flow {
  loop {
    for p in everyone where count(p.deck) < 5 {
      turn p {
        let k = gain(p, 2)
        repeat k { ticks += 1 }
        let i = 0
        while i < 10 {
          i += 1
          if i == 3 { break }
        }
        require i == 3
        spend(p)
        actions by p until pass [grab]
      }
    }
    if count(stock) == 0 or ticks > 200 { break }
  }
  win everyone "done"
}
"#;

#[test]
fn statements_play_alike_on_both_engines() {
    let p = program_of("statements", STATEMENTS);
    let code = p.code.as_deref().expect("code");
    let walked = code
        .instrs
        .iter()
        .filter(|i| matches!(i, Instr::Walk { .. }))
        .count();
    // The turn, the menu, `strict` and `win` are the walker's; every other statement is compiled.
    assert_eq!(walked, 4, "statements handed to the walker");
    assert!(lockstep_of("statements", p, 2, 8) > 20);
}

/// A loop that never ends stops at the budget on the machine too (its jump back is charged).
#[test]
fn an_endless_loop_on_the_machine_runs_out_of_budget() {
    let p = program_of(
        "never",
        "game \"Loop\" { players 2 }\nvar n: int = 0\nflow { loop { n += 1 } }\n",
    );
    let mut config = config(2, 1, Engine::Machine);
    config.max_steps = 10_000;
    let g = Game::new(p, config);
    match g.status() {
        Status::Error(e) => assert!(e.to_string().contains("ran more than"), "{e}"),
        s => panic!("expected the budget's error, found {s:?}"),
    }
}

/// The machine really runs the slice: its code holds the specialised instructions the compiler
/// chose (tests of a card's kind as tables), and a game on it evaluates no expression by the
/// walker's fast paths (their closures stay uncompiled).
#[test]
fn the_slice_runs_on_the_machine() {
    let p = program("examples/market-race.cardgame");
    let code = p.code.as_deref().expect("code");
    let kind_tests = code
        .instrs
        .iter()
        .filter(|i| matches!(i, Instr::KindIn { .. }))
        .count();
    let counts = code
        .instrs
        .iter()
        .filter(|i| matches!(i, Instr::CountKinds { .. } | Instr::SumKinds { .. }))
        .count();
    assert!(kind_tests >= 5, "{kind_tests} kind tests");
    assert!(counts >= 4, "{counts} counts and sums by kind");
    let mut g = Game::new(p.clone(), config(2, 1, Engine::Machine));
    for _ in 0..200 {
        match g.status() {
            Status::Decision(d) => {
                let n = d.options.len();
                g.apply(n - 1).expect("an option");
            }
            _ => break,
        }
    }
    // The guards of checks are evaluated by the walker while their reads are noted (watch.rs).
    let mut guards = Vec::new();
    for c in &p.checks {
        for st in &p.block(c.block).stmts {
            if let crate::program::StmtKind::If(branches, _) = &st.kind {
                guards.extend(branches.iter().map(|(e, _)| e.span));
            }
        }
    }
    let mut compiled = Vec::new();
    super::super::code::compile::each_root_for_tests(&p, &mut |e| {
        if e.compiled.is_compiled() && !guards.contains(&e.span) {
            compiled.push(p.line_of(e.span.start));
        }
    });
    assert!(
        compiled.is_empty(),
        "roots compiled by the fast paths on the machine, lines {compiled:?}"
    );
}

/// Which scripts of games/ and examples/ the machine covers yet; the slice's two must be among them.
#[test]
fn the_compiler_covers_the_slice() {
    let mut uncovered = Vec::new();
    for dir in ["examples", "games"] {
        let root = format!("{}/../{dir}", env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<_> = std::fs::read_dir(&root)
            .expect("a folder")
            .map(|e| e.expect("an entry").path())
            .filter(|f| f.extension().is_some_and(|x| x == "cardgame"))
            .collect();
        files.sort();
        for f in files {
            let name = format!("{dir}/{}", f.file_name().expect("a name").to_string_lossy());
            let p = program(&name);
            if let Some(u) = &p.uncovered {
                uncovered.push(format!(
                    "{name}: {} (line {})",
                    u.what,
                    p.line_of(u.span.start)
                ));
            }
        }
    }
    eprintln!("not on the machine yet:\n{}", uncovered.join("\n"));
    assert!(!uncovered
        .iter()
        .any(|u| u.contains("market-race") || u.contains("duel.")));
}
