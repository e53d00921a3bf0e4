//! Engine stage: the game factory: games of one program and configuration but for the seed, each a
//! copy of one created state (docs/engine.md, "Caches").
//!
//! Creating a game evaluates copy counts, tables and every variable's initial value; running its
//! setup and flow up to the first random draw does the same work for every seed. A [`GameFactory`]
//! does both once, when it is made, and every game it makes starts as a copy, its generator seeded
//! with the game's own seed. It is immutable once made and `Sync`, so the threads of a simulation
//! share one; it is owned by whoever makes many games (`sim`, a tournament, the bench, a search's
//! possible worlds) and freed with them. Nothing is kept per thread or per process.

use super::create::{self, Created};
use super::exec::Frame;
use super::state::{self, Ctx, Layout, State};
use super::{Game, GameConfig, History};
use crate::program::{Body, Program};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Makes games of one program and one configuration, each with its own seed (see the module).
#[derive(Clone, Debug)]
pub struct GameFactory {
    program: Arc<Program>,
    config: GameConfig,
    /// The state of a game as created, before its setup runs; none when creating it drew random
    /// numbers (`random` in an initial value: a copy would not repeat them) or failed.
    created: Option<(Arc<Layout>, State)>,
    /// The game run on from `created` (setup, flow) and paused at the head of the statement that
    /// first draws a random number (`State::first_draw`): up to there every game runs alike, whatever
    /// its seed. None when the first draw comes after a decision, in a nested run, or never.
    paused: Option<Box<State>>,
}

impl GameFactory {
    /// The factory of games of `program` under `config` (whose seed is only the first game's
    /// default): creates the game once and runs it to its first random draw.
    pub fn new(program: Arc<Program>, config: GameConfig) -> GameFactory {
        let mut factory = GameFactory {
            program,
            config,
            created: None,
            paused: None,
        };
        let Created {
            layout,
            state,
            error,
        } = create::created(&factory.program, &factory.config);
        if error.is_some() || state.rng.get_word_pos() != 0 {
            return factory;
        }
        factory.created = Some((layout, state));
        let first = factory.game(factory.config.seed);
        factory.paused = factory.paused_before(first.st.first_draw).map(Box::new);
        factory
    }

    /// The configuration the factory's games are made of (each with its own seed).
    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    /// Whether a game of `config` is one of the factory's: the same configuration but for the seed.
    pub fn makes(&self, config: &GameConfig) -> bool {
        same_but_seed(&self.config, config)
    }

    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// A game of the factory's program and configuration with `seed`: exactly the game
    /// `Game::new` creates with that seed, with its history.
    pub fn game(&self, seed: u64) -> Game {
        let mut config = self.config.clone();
        config.seed = seed;
        let mut game = match (&self.paused, &self.created) {
            (Some(paused), Some((layout, _))) => {
                let mut st = State::clone(paused);
                st.rng = ChaCha8Rng::seed_from_u64(seed);
                let mut game = Game {
                    prog: self.program.clone(),
                    layout: layout.clone(),
                    st,
                    history: None,
                };
                game.resume();
                game.debug_check();
                game
            }
            (None, Some((layout, st))) => {
                let mut st = st.clone();
                st.rng = ChaCha8Rng::seed_from_u64(seed);
                Game::started(
                    self.program.clone(),
                    Created {
                        layout: layout.clone(),
                        state: st,
                        error: None,
                    },
                    None,
                    None,
                )
            }
            (_, None) => Game::with_start(self.program.clone(), config.clone(), None, None),
        };
        game.history = Some(Arc::new(History {
            config,
            choices: Vec::new(),
        }));
        game
    }

    /// Whether the factory's games start where the first one first drew a random number (for tests).
    #[cfg(test)]
    pub(crate) fn starts_at_first_draw(&self) -> bool {
        self.paused.is_some()
    }

    /// The created game run to the head of the statement where it first drew a random number, the
    /// `head`-th step of work, with the work done up to there; `None` when that draw came after a
    /// decision or in a nested run, or never. The run is stopped by a budget of exactly that work:
    /// every step before that head stays within it (work only grows between decisions), and that
    /// head's step is the first past it.
    fn paused_before(&self, head: u64) -> Option<State> {
        if head >= state::NESTED_DRAW {
            return None;
        }
        let (layout, st) = self.created.as_ref()?;
        let mut g = Game {
            prog: self.program.clone(),
            layout: layout.clone(),
            st: st.clone(),
            history: None,
        };
        if let Some(flow) = self.program.flow {
            g.push_body(flow);
        }
        if let Some(setup) = self.program.setup {
            g.push_body(setup);
        }
        let fixed = g.st.fixed.clone();
        g.st.fixed = Arc::new(state::Fixed {
            names: fixed.names.clone(),
            max_turns: fixed.max_turns,
            max_steps: head,
            max_decisions: fixed.max_decisions,
            closures: fixed.closures,
        });
        let r = g.mach().run();
        g.st.fixed = fixed;
        let paused = r.is_err()
            && g.st.exec_count == head + 1
            && g.st.rng.get_word_pos() == 0
            && g.st.nested == 0
            && g.st.steps == 0;
        paused.then(|| {
            g.st.exec_count = head;
            g.st.first_draw = state::NO_DRAW;
            g.st
        })
    }
}

/// Whether two configurations create the same game but for the seed. Every field is named, so that
/// a field added to `GameConfig` must be considered here.
fn same_but_seed(a: &GameConfig, b: &GameConfig) -> bool {
    let GameConfig {
        players,
        seed: _,
        options,
        names,
        max_turns,
        max_steps,
        max_decisions,
        record,
        labels,
        engine,
        #[cfg(test)]
        without,
    } = a;
    #[cfg(test)]
    if *without != b.without {
        return false;
    }
    *players == b.players
        && *options == b.options
        && *names == b.names
        && *max_turns == b.max_turns
        && *max_steps == b.max_steps
        && *max_decisions == b.max_decisions
        && *record == b.record
        && *labels == b.labels
        && *engine == b.engine
}

impl Game {
    /// A game started from a created state: its frames pushed (setup, then `given`, then the start
    /// procedure or the flow) and run to the first decision or the end.
    pub(super) fn started(
        program: Arc<Program>,
        created: Created,
        given: Option<Body>,
        start: Option<crate::engine::exec::Start>,
    ) -> Game {
        let mut game = Game {
            prog: program,
            layout: created.layout,
            st: created.state,
            history: None,
        };
        if let Some(e) = created.error {
            game.finish(Err(e));
            return game;
        }
        let p = game.prog.clone();
        // Frames run top first: setup, then given, then the start procedure or the flow.
        match start {
            Some(start) => game.st.frames.push(Frame::Start(Arc::new(start))),
            None => {
                if let Some(flow) = p.flow {
                    game.push_body(flow);
                }
            }
        }
        if let Some(g) = given {
            game.st.frames.push(Frame::Given(g));
        }
        if let Some(setup) = p.setup {
            game.push_body(setup);
        }
        game.resume();
        game.debug_check();
        game
    }

    pub(super) fn push_body(&mut self, body: Body) {
        self.st.ctxs.push(Ctx::new(body.slots, None, None));
        self.st.frames.push(Frame::Call);
        self.st.frames.push(Frame::Block {
            block: body.block,
            pc: 0,
        });
    }
}
