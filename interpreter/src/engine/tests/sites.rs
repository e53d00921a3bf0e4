//! Engine stage: where the walker is still entered from outside eval.rs and stmt.rs (issue 42's
//! census, `Counted::sites` and `Probe::entries`): per script of games/ and examples/ (and
//! examples/*/), what it evaluates while games are created, played out and while the scripts'
//! rules tests run.

use super::measures::SCRIPTS;
use super::oracle::{config, play_out};
use crate::engine::probe::{Counted, Tally};
use crate::engine::sites::{Site, SITE_NAMES};
use crate::engine::{Engine, Game, Status};
use crate::program::Program;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Every script of games/ and examples/ (and examples/*/), each with a number of players it allows.
pub(super) fn scripts() -> Vec<(&'static str, u8)> {
    let mut all = SCRIPTS.to_vec();
    all.push(("examples/card-sheet/market-stall.cardgame", 2));
    all
}

/// The checked program of `file` (a path from the repository's root), its sheets read beside it,
/// and the text its spans count in.
pub(super) fn loaded(file: &str) -> (Arc<Program>, String) {
    let path = std::path::PathBuf::from(format!("{}/../{file}", env!("CARGO_MANIFEST_DIR")));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let dir = path.parent().expect("a folder").to_path_buf();
    let read = move |name: &str| std::fs::read_to_string(dir.join(name)).map_err(|e| e.to_string());
    let a = crate::check::analyse_with(&src, &read);
    let p = (a.checked.program).unwrap_or_else(|| panic!("{file}: {:?}", a.checked.diagnostics));
    (Arc::new(p), a.sources.text.clone())
}

/// What the walker did for some games: the sites' counts, and its entries by place.
#[derive(Default)]
pub(super) struct Seen {
    pub counted: Counted,
    pub entries: BTreeMap<(&'static str, u32), Tally>,
}

impl Seen {
    /// The walker's calls from `sites`, and the expressions it evaluated under them.
    pub fn at(&self, sites: &[Site]) -> (u64, u64) {
        (sites.iter().map(|&i| self.counted.sites[i as usize]))
            .fold((0, 0), |(c, e), t| (c + t.calls, e + t.evaluated))
    }

    fn add(&mut self, g: &Game) {
        self.counted.add(&g.counted());
        for (at, t) in &g.probe().entries {
            let e = self.entries.entry(*at).or_default();
            e.calls += t.calls;
            e.evaluated += t.evaluated;
        }
    }
}

/// One game of `p` created (its setup run to the first decision), on the closures.
pub(super) fn created(p: &Arc<Program>, players: u8) -> Seen {
    let mut seen = Seen::default();
    seen.add(&Game::new(p.clone(), config(players, 0, Engine::Closures)));
    seen
}

/// `games` games of `p` played out on the closures, each choice drawn from the seed.
pub(super) fn played(p: &Arc<Program>, players: u8, games: u64) -> Seen {
    let mut seen = Seen::default();
    for seed in 0..games {
        let mut g = Game::new(p.clone(), config(players, seed, Engine::Closures));
        play_out(&mut g, seed);
        seen.add(&g);
    }
    seen
}

/// Every rules test of `p` run (each one passing).
pub(super) fn tested(p: &Arc<Program>, src: &str, file: &str) -> Seen {
    let mut seen = Seen::default();
    for o in crate::testing::run_tests_seen(p, src, &mut |g| seen.add(g)) {
        assert!(o.passed(), "{file}: {} fails: {:?}", o.name, o.failure);
    }
    seen
}

/// The census: every site's calls and expressions evaluated, and the walker's entries by place,
/// printed per script (run with `--nocapture` to read it).
#[test]
fn the_walkers_sites_counted() {
    for (file, players) in scripts() {
        let (p, src) = loaded(file);
        let all = [
            ("created", created(&p, players)),
            ("10 play-outs", played(&p, players, 10)),
            ("rules tests", tested(&p, &src, file)),
        ];
        for (what, seen) in &all {
            for (i, name) in SITE_NAMES.iter().enumerate() {
                let t = seen.counted.sites[i];
                if t.calls > 0 {
                    eprintln!(
                        "census {file} | {what} | site {name} | {}/{}",
                        t.calls, t.evaluated
                    );
                }
            }
            let c = &seen.counted;
            eprintln!(
                "census {file} | {what} | statements walked {}, compiled ones among them {}",
                c.statements, c.walked
            );
            for ((f, line), t) in &seen.entries {
                eprintln!(
                    "census {file} | {what} | entry {f}:{line} | {}/{}",
                    t.calls, t.evaluated
                );
            }
        }
    }
}

/// Every script's games are created by the closures: the table's columns, the variables' initial
/// values, the kinds' copies and the board's sides, constants among them, in a game created, in
/// play-outs and in every rules test's game. Before, the walker evaluated the constants and the
/// columns (one game of Crayne: 5 columns, 1,388 initial values, 69 sizes; of Heart of Crown 936
/// and 46; over their rules tests 335, 92,611 and 4,623, and 101,360 and 4,968), none of them an
/// expression but a leaf.
#[test]
fn games_are_created_by_the_closures() {
    let creation = [Site::Columns, Site::Init, Site::Size];
    for (file, players) in scripts() {
        let (p, src) = loaded(file);
        for seen in [
            created(&p, players),
            played(&p, players, 3),
            tested(&p, &src, file),
        ] {
            assert_eq!(seen.at(&creation), (0, 0), "{file}: created by the walker");
        }
    }
}

/// Asserts that the walker did nothing in `seen`: its loop ran no statement, no part of a `log`
/// was its, and it was entered from no site and evaluated no expression.
fn untouched(seen: &Seen, file: &str, what: &str) {
    let c = &seen.counted;
    assert_eq!(
        (c.statements, c.walked, c.parts_walked, c.evaluated),
        (0, 0, 0, 0),
        "{file}, {what}: statements, compiled statements, parts of a `log` and expressions walked"
    );
    for (i, name) in SITE_NAMES.iter().enumerate() {
        assert_eq!(
            c.sites[i].calls, 0,
            "{file}, {what}: the walker entered from {name}"
        );
    }
    assert!(
        seen.entries.is_empty(),
        "{file}, {what}: {:?}",
        seen.entries
    );
}

/// Every script's games are created, played out and tested on the closures alone: in a game
/// created, over 20 play-outs of each script and over its rules tests, the walker's loop runs no
/// statement and the walker is entered from no site. Before, 10 play-outs walked Heart of Crown's
/// `let r = revealed_run(you)` 133 times (554 expressions: the `let` was compiled as a word, which
/// a list never is) and Crayne's `let gone = filter(c in p.inplay where c.stronghold == 0 and
/// c.stays == 0)` 10 times (296 expressions: `c.stays == 0` read a table of the kinds' constants,
/// in which the Emerald Vault's computed `stays` was the walker's); Heart of Crown's rules tests
/// entered it for a `simultaneously`'s `choose 5` (its domain and number, twice).
#[test]
fn the_walker_is_reached_nowhere() {
    for (file, players) in scripts() {
        let (p, src) = loaded(file);
        untouched(&created(&p, players), file, "created");
        untouched(&played(&p, players, 20), file, "20 play-outs");
        untouched(&tested(&p, &src, file), file, "rules tests");
    }
}

/// Every script's rules tests read their expressions (`expect`, `expect decider`, `expect
/// winners`, a `stat NAME[K]`'s key, the arguments of `start PROC(args)`) by the closures
/// (closures/tested.rs): every one compiles, and the walker evaluates none of them
/// (`Game::test_value`, `Frame::Start`). Before, all of them were the walker's (Crayne's 8
/// arguments of `start`, constants, among them):
/// over the rules tests of Crayne 285 calls and 3,067 expressions, of Heart of Crown 380 and
/// 1,242, of Crafty Explorers 53 and 1,247, of Craft the Crown 316 and 840.
#[test]
fn rules_tests_expressions_are_the_closures() {
    for (file, _) in scripts() {
        let (p, src) = loaded(file);
        let closures = p.closures.as_deref().expect("closures");
        let (compiled, all) = closures.tests_compiled(&p);
        assert_eq!(compiled, all, "{file}: rules tests' expressions compiled");
        let seen = tested(&p, &src, file);
        assert_eq!(
            seen.at(&[Site::Tests, Site::Start]),
            (0, 0),
            "{file}: by the walker"
        );
    }
}

/// A failed `expect` of a comparison shows each side's value, read by the closures too
/// (`TestExpr::Side`): the walker evaluates nothing of the failing test. Before, both sides were
/// the walker's.
#[test]
fn a_failed_comparisons_sides_are_the_closures() {
    let src = r#"
game "Sides" { players 2 }
var n: int = 0
card "Gem" { copies 3 }
zone vault: set
flow {
  move box to vault
  n = 2
}
test "sides" {
  expect count(vault) + n == 4
}
test "listed" {
  expect n in [1, 3]
}
"#;
    let p = Arc::new(crate::check::check_source(src).program.expect("checks"));
    let mut seen = Seen::default();
    let failures: Vec<_> = crate::testing::run_tests_seen(&p, src, &mut |g| seen.add(g))
        .into_iter()
        .map(|o| o.failure.map(|f| f.to_string()))
        .collect();
    assert_eq!(
        failures,
        [
            Some(
                "line 11: `expect count(vault) + n == 4`: expected true, got false: the left side is 5, the right side is 4"
                    .to_string()
            ),
            Some(
                "line 14: `expect n in [1, 3]`: expected true, got false: the left side is 2, the right side is [1, 3]"
                    .to_string()
            ),
        ]
    );
    assert_eq!(seen.at(&[Site::Tests]), (0, 0), "by the walker");
}

/// The rules tests' `given` and `do` blocks run on the closures (closures/segments.rs): over every
/// script's rules tests, the walker's loop runs no statement. Before, it ran every statement of
/// those blocks (Heart of Crown 659, Craft the Crown 512, Crayne 385, Crafty Explorers 77, Market
/// Race 32, Duel 23, 11 to 18 in the others), then 5 of Heart of Crown's: its `let r =
/// revealed_run(you)` (3, a list compiled as a word), and of a `given` block `fetch("Alchemist",
/// cities[1].kept)` and `fetch("Post Horse", cities[2].kept)` (an item of a local list was no
/// word).
#[test]
fn rules_tests_blocks_are_the_closures() {
    for (file, _) in scripts() {
        let (p, src) = loaded(file);
        let c = tested(&p, &src, file).counted;
        assert_eq!(
            (c.statements, c.walked),
            (0, 0),
            "{file}: statements walked, compiled ones among them"
        );
    }
}

/// The scores the command line shows (`Game::scores`, `fn score(p: player): int`) of every script
/// that declares one, at each of the first 150 decisions of a game played out: its call compiled (every script's
/// `fn score` is pure), the walker evaluates none of it. Before, all of it was the walker's
/// (`Game::eval`, from the command line's scores.rs).
#[test]
fn scores_are_the_closures() {
    for (file, players) in scripts() {
        let (p, _) = loaded(file);
        let scored = p.fns.iter().any(|f| f.name == "score");
        let mut seats = 0;
        let (mut g, mut pick) = (
            Game::new(p.clone(), config(players, 1, Engine::Closures)),
            7u64,
        );
        for _ in 0..150 {
            let Status::Decision(d) = g.status() else {
                break;
            };
            let mut h = g.clone();
            let before = h.counted();
            let scores = h.scores_here();
            assert_eq!(scores.is_some(), scored, "{file}");
            assert_eq!(scores, g.scores(), "{file}");
            let after = h.counted();
            assert_eq!(
                after.evaluated, before.evaluated,
                "{file}: evaluated by the walker"
            );
            assert_eq!(after.sites, before.sites, "{file}: the walker entered");
            seats += scores.map_or(0, |s| s.len());
            pick = pick
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            g.apply(((pick >> 33) % d.options.len() as u64) as usize)
                .expect("an option");
        }
        assert!(!scored || seats > 0, "{file}: nothing scored");
    }
}
