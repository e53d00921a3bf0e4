//! Engine stage: game creation (options, table columns, cards, spaces, zones and variables).

use super::exec::Mach;
use super::state::{CardState, Ctx, Holder, Layout, State, ZoneMeta, Zones};
use super::{GameConfig, RuntimeError};
use crate::program::{Program, ZoneId, MAX_BOARD_SIDE, MAX_BOARD_SPACES, MAX_CARDS, MAX_COPIES};
use crate::value::Value;
use cardgame_grammar::ast::{Scope, Span};
use std::sync::Arc;

type R<T> = Result<T, RuntimeError>;

/// A game as created (or as far as creation went, with the error that stopped it).
pub(crate) struct Created {
    pub layout: Arc<Layout>,
    pub state: State,
    pub error: Option<RuntimeError>,
}

/// The layout and the state of a game created from `program` and `config`, before its setup runs;
/// on an error, the layout and state as far as creation went, with the error. Many games of one
/// program and configuration are copies of one creation: `GameFactory` (factory.rs).
pub(crate) fn created(program: &Program, config: &GameConfig) -> Created {
    let mut state = State::new(config);
    let mut layout = Layout::new(program);
    let error = create(program, &mut layout, &mut state, config).err();
    Created {
        layout: Arc::new(layout),
        state,
        error,
    }
}

/// Creates cards, zones, spaces and variables.
pub(crate) fn create(p: &Program, l: &mut Layout, s: &mut State, config: &GameConfig) -> R<()> {
    // Every error names a line of the script: the declaration at fault, else the `game` header.
    let err_at = |span: Span, message: String| {
        RuntimeError::located(p, message, span, "game creation".into())
    };
    let err = |message: String| err_at(p.header, message);
    if config.players == 0 || config.players < p.min_players || config.players > p.max_players {
        return Err(err(format!(
            "{} is for {}..{} players, not {}",
            p.name, p.min_players, p.max_players, config.players
        )));
    }
    // Participants are the players after the seats: each holds its own per-player zones and
    // variables, and is named by its shown name. Seat masks are 64 bits wide.
    let everybody = config.players as usize + p.participants.len();
    if everybody > 64 {
        return Err(err(format!(
            "{} seats and {} participants make more than 64 players",
            config.players,
            p.participants.len()
        )));
    }
    s.participants = p.participants.len() as u8;
    let mut fixed = super::state::Fixed {
        names: s.fixed.names.clone(),
        closures: config.engine == super::Engine::Closures && p.closures.is_some(),
        ..*s.fixed
    };
    fixed
        .names
        .extend(p.participants.iter().map(|d| d.display.clone()));
    s.fixed = std::sync::Arc::new(fixed);
    s.eliminated = vec![false; everybody];
    s.out_for_round = vec![false; everybody];
    l.options = p.options.iter().map(|o| o.default.clone()).collect();
    l.longest_name = (p.kinds.iter().map(|k| k.name.len()))
        .chain(p.tags.iter().map(|t| t.name.len()))
        .chain(p.zones.iter().map(|z| z.name.len()))
        .max()
        .unwrap_or(0);
    for (id, v) in &config.options {
        if !super::option_value_ok(p, *id, v) {
            let name = p.options.get(id.index()).map_or("?", |o| o.name.as_str());
            return Err(err(format!("the value {v:?} does not fit option `{name}`")));
        }
        l.options[id.index()] = v.clone();
    }
    if let Some(why) = p.unsupported(config.players, &config.options) {
        return Err(err(why));
    }
    for (i, col) in p.columns.iter().enumerate() {
        let Some((_, e)) = col.rows.iter().find(|(n, _)| *n == config.players) else {
            return Err(err(format!(
                "the table has no row for {} players (column `{}`)",
                config.players, col.name
            )));
        };
        // By its closure on the closures (`Closures::column`), else by the walker.
        let compiled = (p.closures.as_deref())
            .filter(|_| s.fixed.closures)
            .and_then(|cl| cl.column(i, config.players, (p, s, l)));
        let site = super::sites::Site::Columns;
        let v = Mach::new(p, l, s).answered_at(site, e, compiled, Mach::eval_at)?;
        l.columns.push(v);
    }
    let mut copies = Vec::with_capacity(p.kinds.len());
    let mut total: u64 = 0;
    for (i, k) in p.kinds.iter().enumerate() {
        let n = size(p, l, s, i, &k.copies)?;
        let at = |message: String| {
            let span = k.copies.span;
            RuntimeError::located(p, message, span, "game creation".into())
        };
        if !(0..=MAX_COPIES).contains(&n) {
            return Err(at(format!(
                "{n} copies of \"{}\" are not possible (a card has from 0 to {MAX_COPIES} copies)",
                k.name
            )));
        }
        total += n as u64;
        if total > MAX_CARDS {
            return Err(at(format!(
                "with the copies of \"{}\", the game has {total} cards: more than {MAX_CARDS}",
                k.name
            )));
        }
        copies.push(n as u32);
    }
    if let Some(sp) = &p.spaces {
        let w = size(p, l, s, p.kinds.len(), &sp.width)?;
        let h = size(p, l, s, p.kinds.len() + 1, &sp.height)?;
        let side = 0..=MAX_BOARD_SIDE;
        if !side.contains(&w) || !side.contains(&h) || w * h > MAX_BOARD_SPACES {
            return Err(err_at(
                sp.span,
                format!("a board of {w} by {h} spaces is not possible"),
            ));
        }
        l.width = w;
        l.height = h;
        l.diagonal = sp.diagonal;
        for y in 1..=h {
            for x in 1..=w {
                l.spaces.push((x, y));
            }
        }
        // `neighbours(s)` of every space, made once: the lists are shared, never built in play.
        l.neighbours = (0..l.spaces.len())
            .map(|s| Value::list(l.neighbours_of(s)))
            .collect();
    }
    l.ncards = total as u32;
    let nspaces = l.spaces.len() as u32;
    // Instance ids: every shared, per-player and per-space instance first, then the per-card ones
    // (stored only once touched, see `Zones`). `declared` keeps the script's order for views.
    let count = |scope: Scope| match scope {
        Scope::Shared => 1,
        Scope::PerPlayer => everybody as u32,
        Scope::PerCard => l.ncards,
        Scope::PerSpace => nspaces,
    };
    l.zone_base = vec![0; p.zones.len()];
    l.zone_len = p.zones.iter().map(|d| count(d.scope)).collect();
    let mut meta = ZoneMeta::default();
    let mut dense = 0;
    for per_card in [false, true] {
        for (zi, def) in p.zones.iter().enumerate() {
            if (def.scope == Scope::PerCard) != per_card {
                continue;
            }
            l.zone_base[zi] = meta.def.len() as u32;
            for i in 0..l.zone_len[zi] {
                meta.def.push(ZoneId(zi as u16));
                meta.holder.push(match def.scope {
                    Scope::Shared => Holder::Shared,
                    Scope::PerPlayer => Holder::Player(i as u8),
                    Scope::PerCard => Holder::Card(i),
                    Scope::PerSpace => Holder::Space(i as u16),
                });
            }
        }
        if !per_card {
            dense = meta.def.len();
        }
    }
    meta.declared = (0..p.zones.len())
        .flat_map(|zi| (0..l.zone_len[zi]).map(move |i| (zi, i)))
        .map(|(zi, i)| l.zone_base[zi] + i)
        .collect();
    s.zones = Zones::new(dense, meta);
    let Some(&box_inst) = l.zone_base.get(p.box_zone.index()) else {
        return Err(err("the program has no box zone".into()));
    };
    let face = State::default_face(p, p.box_zone);
    for (k, &n) in copies.iter().enumerate() {
        for _ in 0..n {
            let id = s.cards.len() as u32;
            s.cards.push(CardState {
                kind: k as u16,
                zone: box_inst,
                face_up: face,
            });
            s.zones[box_inst as usize].cards.push(id);
        }
    }
    s.globals = vec![Value::None; p.vars.len() - l.n_pvars - l.n_cvars];
    s.pvars = vec![Value::None; l.n_pvars * everybody];
    // Every card's per-card variables as created are the layout's (see `CardVars`).
    s.cvars = Default::default();
    l.cvar_init = vec![Value::None; l.n_cvars * l.ncards as usize];
    for (vi, v) in p.vars.iter().enumerate() {
        let slot = l.var_slot[vi] as usize;
        match v.scope {
            Scope::PerPlayer => {
                for pl in 0..everybody as u8 {
                    s.ctxs.push(Ctx::new(0, Some(pl), None));
                    let r = initial(p, l, s, vi, pl);
                    s.ctxs.pop();
                    s.pvars[pl as usize * l.n_pvars + slot] = r?;
                }
            }
            Scope::PerCard => {
                for c in 0..l.ncards {
                    s.ctxs.push(Ctx::new(0, None, Some(c)));
                    let r = initial(p, l, s, vi, s.active);
                    s.ctxs.pop();
                    if let Some(cell) = l.cvar_init.get_mut(c as usize * l.n_cvars + slot) {
                        *cell = r?;
                    }
                }
            }
            _ => {
                let r = initial(p, l, s, vi, s.active)?;
                s.globals[slot] = r;
            }
        }
    }
    // A run of cards whose variables start equal (the copies of a card, made one after another)
    // shares the number of the first of them.
    let n = l.n_cvars;
    if n > 0 {
        let rows = &l.cvar_init;
        let mut run = 0u32;
        l.cvar_row = (0..l.ncards)
            .map(|c| {
                let (a, b) = (run as usize * n, c as usize * n);
                if rows.get(a..a + n) != rows.get(b..b + n) {
                    run = c;
                }
                run
            })
            .collect();
    }
    let seats = config.players as usize * l.n_pvars;
    l.participant_init = s.pvars.get(seats..).unwrap_or_default().to_vec();
    Ok(())
}

/// Size `i` of the game (a kind's copies, then the board's width and height: `Closures::size`),
/// the number `e`: by its closure on the closures, else by the walker.
fn size(p: &Program, l: &Layout, s: &mut State, i: usize, e: &crate::program::Expr) -> R<i64> {
    let compiled = (p.closures.as_deref())
        .filter(|_| s.fixed.closures)
        .and_then(|cl| cl.size(i, (p, s, l)));
    Mach::new(p, l, s).answered_at(super::sites::Site::Size, e, compiled, Mach::eval_int_at)
}

/// Variable `vi`'s initial value, `you` the player whose it is (else the active player): by its
/// closure on the closures (closures/mod.rs, `Closures::initial`), else by the walker.
fn initial(p: &Program, l: &Layout, s: &mut State, vi: usize, you: u8) -> R<Value> {
    let compiled = (p.closures.as_deref())
        .filter(|_| s.fixed.closures)
        .and_then(|cl| cl.initial(vi, (p, s, l), you));
    let (site, e) = (super::sites::Site::Init, &p.vars[vi].init);
    Mach::new(p, l, s).answered_at(site, e, compiled, Mach::eval_at)
}
