//! Engine stage: lists as the rules read them: a list expression's items, a zone as the list of its
//! cards (top first), and `L1 + L2`.

use super::eval::MAX_LIST;
use super::exec::Mach;
use super::RuntimeError;
use crate::program::Expr;
use crate::value::Value;
use cardgame_grammar::ast::Span;
use std::sync::Arc;

type R<T> = Result<T, RuntimeError>;

impl<'a> Mach<'a> {
    #[cfg_attr(test, track_caller)]
    pub fn eval_list(&mut self, e: &Expr) -> R<Arc<Vec<Value>>> {
        let v = self.eval_at(super::sites::Site::List, e)?;
        self.as_list(v, e.span)
    }

    /// The items of a list expression (a zone: its cards, top first) in a vector from the spare
    /// pool; hand it back with `State::give_back`.
    #[cfg_attr(test, track_caller)]
    pub fn eval_items(&mut self, e: &Expr) -> R<Vec<Value>> {
        match self.eval_at(super::sites::Site::Items, e)? {
            Value::Zone(z) if (z as usize) < self.s.zones.len() => {
                self.note_zone(z);
                self.charge(self.s.zones[z as usize].cards.len(), e.span)?;
                let mut out = self.s.take_locals(0);
                let cards = &self.s.zones[z as usize].cards;
                out.extend(cards.iter().rev().map(|&c| Value::Card(c)));
                Ok(out)
            }
            v => {
                let l = self.as_list(v, e.span)?;
                self.charge(l.len(), e.span)?;
                let mut out = self.s.take_locals(0);
                out.extend(l.iter().cloned());
                Ok(out)
            }
        }
    }

    /// A list; a zone is the list of its cards, top first; `none` is the empty list.
    /// Building the list of a zone's cards counts against the work budget (at the next test).
    pub fn as_list(&mut self, v: Value, span: Span) -> R<Arc<Vec<Value>>> {
        match v {
            Value::List(l) => Ok(l),
            Value::Zone(z) => {
                let n = self.list_len(&v, span)?;
                Ok(Arc::new(self.zone_items(z, n)))
            }
            Value::None => Ok(Arc::new(Vec::new())),
            v => Err(self.err(
                span,
                format!("expected a list, found {}", self.describe(&v)),
            )),
        }
    }

    /// `L1 + L2` of lists (a zone: its cards, top first). The same items, errors and work as making
    /// both lists and copying them into a third, without the copies: a zone's cards are read where
    /// they lie, and a list that nothing else holds (the result of the `+` just before, in
    /// `a + b + c`) is extended where it is.
    #[inline(never)]
    pub(super) fn concat(
        &mut self,
        x: Value,
        y: Value,
        xs: Span,
        ys: Span,
        span: Span,
    ) -> R<Value> {
        let n1 = self.list_len(&x, xs)?;
        let n2 = self.list_len(&y, ys)?;
        if n1 + n2 > MAX_LIST {
            return Err(self.err(span, "this list grew too long".into()));
        }
        self.charge(n1 + n2, span)?;
        let mut out = match x {
            Value::List(l) => l,
            Value::Zone(z) => Arc::new(self.zone_items(z, n1 + n2)),
            _ => Arc::new(Vec::with_capacity(n2)),
        };
        let items = Arc::make_mut(&mut out);
        match y {
            Value::List(l) => items.extend(l.iter().cloned()),
            Value::Zone(z) => {
                if let Some(zi) = self.s.zones.get(z as usize) {
                    items.extend(zi.cards.iter().rev().map(|&c| Value::Card(c)));
                }
            }
            _ => {}
        }
        Ok(Value::List(out))
    }

    /// How many items `as_list` would give for `v`, with the same notes, work and errors.
    pub(super) fn list_len(&mut self, v: &Value, span: Span) -> R<usize> {
        match v {
            Value::List(l) => Ok(l.len()),
            Value::Zone(z) => {
                self.note_zone(*z);
                match self.s.zones.get(*z as usize) {
                    Some(zi) => {
                        self.s.exec_count += zi.cards.len() as u64;
                        Ok(zi.cards.len())
                    }
                    None => Err(self.err(span, "unknown zone".into())),
                }
            }
            Value::None => Ok(0),
            v => Err(self.err(span, format!("expected a list, found {}", self.describe(v)))),
        }
    }

    /// A zone's cards, top first, in a vector with room for `room` items.
    fn zone_items(&self, z: u32, room: usize) -> Vec<Value> {
        let mut out = Vec::with_capacity(room);
        if let Some(zi) = self.s.zones.get(z as usize) {
            out.extend(zi.cards.iter().rev().map(|&c| Value::Card(c)));
        }
        out
    }
}
