//! Engine stage: tests of the lists of living seats built once and shared (`State::seat_list`): they
//! follow eliminations, and a clone or a copy made before one is not changed by it.

use super::games::choose;
use crate::check::check_source;
use crate::engine::{Event, Game, GameConfig};
use std::sync::Arc;

/// Three seats; on each turn the active player may knock out the next living opponent. Every turn
/// logs `everyone`, `opponents(you)` and `from(you)` (each read twice, so that the second read comes
/// from what the first built).
const SCRIPT: &str = r#"
game "Seats" { players 3 }
action knock label "Knock" {
  let victim = first(opponents(you))
  eliminate victim
}
flow {
  loop {
    for p in everyone {
      turn p {
        log "everyone {everyone} / {everyone}"
        log "opponents {opponents(p)} / {opponents(p)}"
        log "from {from(p)} / {from(p)}"
        actions by p once or pass [knock]
      }
    }
  }
}
"#;

fn logs(g: &mut Game) -> Vec<String> {
    g.take_events()
        .into_iter()
        .filter_map(|e| match e {
            Event::Log { text } => Some(text),
            _ => None,
        })
        .collect()
}

#[test]
fn seat_lists_follow_eliminations() {
    let checked = check_source(SCRIPT);
    let program = checked
        .program
        .unwrap_or_else(|| panic!("the script checks: {:?}", checked.diagnostics));
    let mut g = Game::new(Arc::new(program), GameConfig::new(3, 1));
    assert_eq!(
        logs(&mut g),
        [
            "everyone P1, P2, P3 / P1, P2, P3",
            "opponents P2, P3 / P2, P3",
            "from P1, P2, P3 / P1, P2, P3"
        ]
    );
    choose(&mut g, "pass");
    assert_eq!(
        logs(&mut g),
        [
            "everyone P1, P2, P3 / P1, P2, P3",
            "opponents P3, P1 / P3, P1",
            "from P2, P3, P1 / P2, P3, P1"
        ]
    );
    // A copy made before the elimination keeps every seat.
    let mut before = g.clone();
    choose(&mut g, "Knock");
    // P3 is out: the loop over `everyone` started before, so P3's turn is skipped; P1 plays.
    assert_eq!(
        logs(&mut g),
        [
            "everyone P1, P2 / P1, P2",
            "opponents P2 / P2",
            "from P1, P2 / P1, P2"
        ]
    );
    choose(&mut before, "pass");
    assert_eq!(
        logs(&mut before)[..3],
        [
            "everyone P1, P2, P3 / P1, P2, P3",
            "opponents P1, P2 / P1, P2",
            "from P3, P1, P2 / P3, P1, P2"
        ]
    );
}
