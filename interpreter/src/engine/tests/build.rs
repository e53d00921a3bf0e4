//! Engine stage: a tiny builder of hand-made programs for the engine's unit tests.

use crate::program::*;
use crate::value::Value;
use cardgame_grammar::ast::{Face, Position, Scope, Span};
use std::sync::Arc;

pub use crate::program::{BinOp, Builtin, ExprKind, StmtKind, Visibility};
pub use cardgame_grammar::ast::Scope as ZoneScope;

/// Every line of the fake source is 10 bytes long.
pub fn line(n: usize) -> Span {
    Span::new((n - 1) * 10, (n - 1) * 10 + 5)
}

pub fn e(kind: ExprKind) -> Expr {
    Expr::new(kind, Span::default())
}
pub fn int(i: i64) -> Expr {
    e(ExprKind::Const(Value::Int(i)))
}
pub fn boolean(b: bool) -> Expr {
    e(ExprKind::Const(Value::Bool(b)))
}
pub fn local(s: u16) -> Expr {
    e(ExprKind::Local(s))
}
pub fn seat(n: i64) -> Expr {
    e(ExprKind::Builtin(Builtin::Seat, vec![int(n)]))
}
pub fn zone(z: ZoneId) -> Expr {
    e(ExprKind::Zone(z, None))
}
pub fn pzone(z: ZoneId, holder: Expr) -> Expr {
    e(ExprKind::Zone(z, Some(Box::new(holder))))
}
pub fn count(list: Expr) -> Expr {
    e(ExprKind::Builtin(Builtin::Size, vec![list]))
}
pub fn take(list: Expr, n: i64) -> Expr {
    e(ExprKind::Builtin(Builtin::Take, vec![list, int(n)]))
}
pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    e(ExprKind::Binary(op, Box::new(a), Box::new(b)))
}
pub fn top(n: Option<i64>, z: Expr) -> Expr {
    e(ExprKind::Pile {
        position: Position::Top,
        count: n.map(|n| Box::new(int(n))),
        zone: Box::new(z),
    })
}
pub fn text(parts: &[&str], exprs: Vec<Expr>) -> TextIr {
    let mut out = Vec::new();
    let mut exprs = exprs.into_iter();
    for (i, p) in parts.iter().enumerate() {
        if !p.is_empty() {
            out.push(TextPartIr::Lit(p.to_string()));
        }
        if i + 1 < parts.len() {
            if let Some(x) = exprs.next() {
                out.push(TextPartIr::Expr(x));
            }
        }
    }
    TextIr { parts: out }
}
pub fn lit(s: &str) -> TextIr {
    text(&[s], vec![])
}

pub fn s(kind: StmtKind) -> Stmt {
    Stmt::new(kind, Span::default())
}
pub fn sl(n: usize, kind: StmtKind) -> Stmt {
    Stmt::new(kind, line(n))
}
pub fn mv(what: Expr, to: Expr) -> Stmt {
    s(StmtKind::Move {
        what,
        to,
        position: Position::Top,
        face: None,
    })
}
pub fn mv_face(what: Expr, to: Expr, face: Face) -> Stmt {
    s(StmtKind::Move {
        what,
        to,
        position: Position::Top,
        face: Some(face),
    })
}
pub fn log(t: TextIr) -> Stmt {
    s(StmtKind::Log(t))
}

pub struct B {
    pub p: Program,
}

impl B {
    pub fn new() -> B {
        let mut p = Program {
            name: "Test".into(),
            min_players: 1,
            max_players: 6,
            options: vec![],
            teams: None,
            columns: vec![],
            groups: vec![],
            tags: vec![],
            props: vec![],
            kinds: vec![],
            abilities: vec![],
            vars: vec![],
            zones: vec![],
            spaces: None,
            events: vec![],
            fns: vec![],
            procs: vec![],
            actions: vec![],
            triggers: vec![],
            setup: None,
            flow: None,
            checks: vec![],
            tests: vec![],
            strategies: vec![],
            rule_sets: vec![],
            stats: vec![],
            participants: vec![],
            blocks: vec![],
            line_starts: (0..1000).map(|i| i * 10).collect(),
            sheets: Vec::new(),
            header: Span::default(),
            turn_start: EventId(0),
            turn_end: EventId(1),
            box_zone: ZoneId(0),
            pure_fns: vec![],
            guarded_checks: vec![],
            closures: None,
        };
        p.events.push(EventDef {
            name: "turn_start".into(),
            params: vec![Ty::Player],
        });
        p.events.push(EventDef {
            name: "turn_end".into(),
            params: vec![Ty::Player],
        });
        let mut b = B { p };
        b.zone("box", Scope::Shared, true, Visibility::Hidden);
        b
    }

    pub fn block(&mut self, stmts: Vec<Stmt>) -> BlockId {
        self.p.blocks.push(Block::new(stmts));
        BlockId(self.p.blocks.len() as u16 - 1)
    }

    pub fn body(&mut self, stmts: Vec<Stmt>, slots: u16) -> Body {
        Body {
            block: self.block(stmts),
            slots,
        }
    }

    pub fn zone(&mut self, name: &str, scope: Scope, ordered: bool, vis: Visibility) -> ZoneId {
        self.p.zones.push(ZoneDef {
            name: name.into(),
            scope,
            ordered,
            visibility: vis,
            refill: None,
            max: None,
            shown_by: Vec::new(),
        });
        ZoneId(self.p.zones.len() as u16 - 1)
    }

    pub fn kind(&mut self, name: &str, copies: i64) -> KindId {
        self.p.kinds.push(KindDef {
            name: name.into(),
            tags: vec![],
            copies: int(copies),
            props: vec![None; self.p.props.len()],
            text: String::new(),
            abilities: vec![None; self.p.abilities.len()],
            triggers: vec![],
            span: Span::default(),
        });
        KindId(self.p.kinds.len() as u16 - 1)
    }

    pub fn var(&mut self, name: &str, scope: Scope, init: Expr) -> VarId {
        self.p.vars.push(VarDef {
            name: name.into(),
            scope,
            private: false,
            shown: false,
            ty: Ty::Int,
            init,
            min: None,
            max: None,
        });
        VarId(self.p.vars.len() as u16 - 1)
    }

    pub fn event(&mut self, name: &str, params: Vec<Ty>) -> EventId {
        self.p.events.push(EventDef {
            name: name.into(),
            params,
        });
        EventId(self.p.events.len() as u16 - 1)
    }

    pub fn proc_(&mut self, name: &str, params: Vec<Ty>, body: Body) -> ProcId {
        self.p.procs.push(ProcDef {
            name: name.into(),
            params,
            ret: None,
            body,
        });
        ProcId(self.p.procs.len() as u16 - 1)
    }

    pub fn action(
        &mut self,
        name: &str,
        params: Vec<Expr>,
        label: Option<TextIr>,
        condition: Option<Expr>,
        body: Body,
    ) -> ActionId {
        self.p.actions.push(ActionDef {
            name: name.into(),
            params,
            label,
            condition,
            parts: vec![],
            interchangeable: vec![],
            body,
        });
        ActionId(self.p.actions.len() as u16 - 1)
    }

    pub fn setup(&mut self, stmts: Vec<Stmt>, slots: u16) {
        self.p.setup = Some(self.body(stmts, slots));
    }

    pub fn flow(&mut self, stmts: Vec<Stmt>, slots: u16) {
        self.p.flow = Some(self.body(stmts, slots));
    }

    pub fn build(self) -> Arc<Program> {
        Arc::new(self.p)
    }
}

/// A game of a script that checks (a test's own script), two players, seed 1, with `max_steps` as
/// its work budget when given.
pub fn checked_game(src: &str, max_steps: Option<u64>) -> crate::engine::Game {
    game_of(src, 1, max_steps, true)
}

/// A game of a script that checks, with seed `seed`, events recorded or not (`record`: off as in
/// `sim`, where statements may take shortcuts that only hold while nobody reads the events).
pub fn game_of(src: &str, seed: u64, max_steps: Option<u64>, record: bool) -> crate::engine::Game {
    game_without(src, seed, max_steps, record, Default::default())
}

/// [`game_of`], created without the shortcuts `without` names (engine/probe.rs). On the walker:
/// these tests count its work; the closures, the default engine, are compared with it game by
/// game in closures.rs.
pub fn game_without(
    src: &str,
    seed: u64,
    max_steps: Option<u64>,
    record: bool,
    without: crate::engine::probe::Without,
) -> crate::engine::Game {
    let checked = crate::check::check_source(src);
    let program = checked
        .program
        .unwrap_or_else(|| panic!("the script checks: {:?}", checked.diagnostics));
    let mut config = crate::engine::GameConfig::new(2, seed);
    config.record = record;
    config.without = without;
    config.engine = crate::engine::Engine::Walker;
    if let Some(n) = max_steps {
        config.max_steps = n;
    }
    crate::engine::Game::new(Arc::new(program), config)
}
