//! Grammar stage: building expressions and interpolated texts from pest pairs.

use super::builder::*;
use super::*;

impl Builder<'_> {
    pub(super) fn text(&mut self, p: P<'_>, d: usize) -> R<Text> {
        let span = self.sp(&p);
        let mut parts: Vec<TextPart> = Vec::new();
        for c in p.into_inner() {
            match c.as_rule() {
                Rule::text_lit => {
                    let s = unescape(c.as_str());
                    if let Some(TextPart::Lit(last)) = parts.last_mut() {
                        last.push_str(&s);
                    } else {
                        parts.push(TextPart::Lit(s));
                    }
                }
                Rule::text_interp => {
                    let e = self.expr(kids(&c).next()?, d + 1)?;
                    parts.push(TextPart::Expr(e));
                }
                _ => return Err(Bug),
            }
        }
        Ok(Text { parts, span })
    }

    fn mk(&self, kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }

    /// Builds any expression-level pair (from `expr` down to a primary).
    pub(super) fn expr(&mut self, p: P<'_>, d: usize) -> R<Expr> {
        let mut p = p;
        // Levels with a single child add nothing: go down without recursion.
        while matches!(
            p.as_rule(),
            Rule::expr
                | Rule::and_expr
                | Rule::not_expr
                | Rule::cmp_expr
                | Rule::range_expr
                | Rule::sum_expr
                | Rule::product
                | Rule::unary
                | Rule::postfix
                | Rule::paren
        ) {
            let mut inner = p.clone().into_inner();
            match (inner.next(), inner.next()) {
                (Some(only), None) => p = only,
                _ => break,
            }
        }
        let span = self.sp(&p);
        if self.deep(d, span) {
            return Ok(self.mk(ExprKind::None, span));
        }
        match p.as_rule() {
            Rule::expr | Rule::and_expr => {
                let op = if p.as_rule() == Rule::expr {
                    BinOp::Or
                } else {
                    BinOp::And
                };
                let operands: Vec<P<'_>> = kids(&p).rest().collect();
                self.fold(operands.into_iter().map(|o| (op, o)).collect(), d)
            }
            Rule::sum_expr | Rule::product => {
                let mut pairs = Vec::new();
                let mut op = BinOp::Add;
                for c in p.into_inner() {
                    match c.as_rule() {
                        Rule::add_op | Rule::mul_op => {
                            op = match c.as_str() {
                                "+" => BinOp::Add,
                                "-" => BinOp::Sub,
                                "*" => BinOp::Mul,
                                "/" => BinOp::Div,
                                _ => BinOp::Rem,
                            }
                        }
                        _ => pairs.push((op, c)),
                    }
                }
                self.fold(pairs, d)
            }
            Rule::not_expr => {
                let mut nots = Vec::new();
                let mut operand = None;
                for c in p.into_inner() {
                    if c.as_rule() == Rule::k_not {
                        nots.push(self.sp(&c).start);
                    } else {
                        operand = Some(c);
                    }
                }
                let operand = operand.ok_or(Bug)?;
                self.prefix(nots, UnOp::Not, operand, span.end, d)
            }
            Rule::unary => {
                let mut negs = Vec::new();
                let mut operand = None;
                for c in p.into_inner() {
                    if c.as_rule() == Rule::neg_op {
                        negs.push(self.sp(&c).start);
                    } else {
                        operand = Some(c);
                    }
                }
                let operand = operand.ok_or(Bug)?;
                self.prefix(negs, UnOp::Neg, operand, span.end, d)
            }
            Rule::cmp_expr => {
                let mut k = kids(&p);
                let left = self.expr(k.next()?, d + 1)?;
                let tail = k.next()?;
                match tail.as_rule() {
                    Rule::is_tail => {
                        let negated = has_child(&tail, Rule::k_not);
                        let t = kids(&tail).next()?;
                        let tspan = self.sp(&t);
                        let target = if t.as_rule() == Rule::text {
                            ExprKind::Text(self.text(t, d + 1)?)
                        } else {
                            ExprKind::Name(self.ident(&t))
                        };
                        Ok(self.mk(
                            ExprKind::Is {
                                expr: Box::new(left),
                                negated,
                                target: Box::new(self.mk(target, tspan)),
                            },
                            span,
                        ))
                    }
                    Rule::has_tail => {
                        let ability = self.ident(&kids(&tail).next()?);
                        Ok(self.mk(ExprKind::HasAbility(Box::new(left), ability), span))
                    }
                    Rule::in_tail => {
                        let right = self.expr(kids(&tail).next()?, d + 1)?;
                        Ok(self.mk(
                            ExprKind::Binary(BinOp::In, Box::new(left), Box::new(right)),
                            span,
                        ))
                    }
                    Rule::cmp_tail => {
                        let mut tk = kids(&tail);
                        let op = match tk.next()?.as_str() {
                            "==" => BinOp::Eq,
                            "!=" => BinOp::Ne,
                            "<=" => BinOp::Le,
                            ">=" => BinOp::Ge,
                            "<" => BinOp::Lt,
                            _ => BinOp::Gt,
                        };
                        let right = self.expr(tk.next()?, d + 1)?;
                        Ok(self.mk(ExprKind::Binary(op, Box::new(left), Box::new(right)), span))
                    }
                    _ => Err(Bug),
                }
            }
            Rule::range_expr => {
                let mut k = kids(&p);
                let a = self.expr(k.next()?, d + 1)?;
                let _op = k.take(Rule::range_op);
                let b = self.expr(k.next()?, d + 1)?;
                Ok(self.mk(ExprKind::Range(Box::new(a), Box::new(b)), span))
            }
            Rule::postfix => {
                let mut inner = p.into_inner();
                let primary = inner.next().ok_or(Bug)?;
                let fields: Vec<P<'_>> = inner.collect();
                let start = span.start;
                if self.deep(d + fields.len(), span) {
                    return Ok(self.mk(ExprKind::None, span));
                }
                let mut e = self.expr(primary, d + fields.len())?;
                for f in fields {
                    let fspan = Span::new(start, self.sp(&f).end);
                    if f.as_rule() == Rule::index_access {
                        let i = self.expr(kids(&f).next()?, d + 1)?;
                        e = self.mk(ExprKind::Index(Box::new(e), Box::new(i)), fspan);
                        continue;
                    }
                    let name = self.ident(&kids(&f).next()?);
                    e = self.mk(ExprKind::Field(Box::new(e), name), fspan);
                }
                Ok(e)
            }
            Rule::paren => self.expr(kids(&p).next()?, d),
            Rule::int => {
                let n = self.int_value(&p);
                Ok(self.mk(ExprKind::Int(n), span))
            }
            Rule::text => {
                let t = self.text(p, d)?;
                Ok(self.mk(ExprKind::Text(t), span))
            }
            Rule::k_true => Ok(self.mk(ExprKind::Bool(true), span)),
            Rule::k_false => Ok(self.mk(ExprKind::Bool(false), span)),
            Rule::k_none => Ok(self.mk(ExprKind::None, span)),
            Rule::ident => Ok(self.mk(ExprKind::Name(self.ident(&p)), span)),
            Rule::list_lit => {
                let parts: Vec<P<'_>> = kids(&p).rest().collect();
                if let [value, tail] = parts.as_slice() {
                    if tail.as_rule() == Rule::for_tail {
                        let value = self.expr(value.clone(), d + 1)?;
                        return self.for_tail(Aggregate::Map, value, tail, span, d);
                    }
                }
                let items = parts
                    .into_iter()
                    .map(|e| self.expr(e, d + 1))
                    .collect::<R<_>>()?;
                Ok(self.mk(ExprKind::List(items), span))
            }
            Rule::if_expr => {
                let mut k = kids(&p);
                let c = self.expr(k.next()?, d + 1)?;
                let a = self.expr(k.next()?, d + 1)?;
                let b = self.expr(k.next()?, d + 1)?;
                Ok(self.mk(ExprKind::If(Box::new(c), Box::new(a), Box::new(b)), span))
            }
            Rule::pile_expr => {
                let position = match first_rule(&p) {
                    Some(Rule::k_bottom) => Position::Bottom,
                    _ => Position::Top,
                };
                let rest: Vec<P<'_>> = kids(&p).rest().collect();
                let (count, zone) = match rest.len() {
                    1 => (None, rest.into_iter().next().ok_or(Bug)?),
                    2 => {
                        let mut it = rest.into_iter();
                        let c = it.next().ok_or(Bug)?;
                        let z = it.next().ok_or(Bug)?;
                        (Some(Box::new(self.expr(c, d + 1)?)), z)
                    }
                    _ => return Err(Bug),
                };
                let zone = Box::new(self.expr(zone, d + 1)?);
                Ok(self.mk(
                    ExprKind::Pile {
                        position,
                        count,
                        zone,
                    },
                    span,
                ))
            }
            Rule::aggregate_binder => self.aggregate_binder(p, d),
            Rule::call => self.call(p, d),
            Rule::stat_read => {
                let span = self.sp(&p);
                let name = self.ident(&kids(&p).next()?);
                Ok(self.mk(ExprKind::StatRead(name), span))
            }
            _ => Err(Bug),
        }
    }

    /// Folds `a op b op c` to the left. Each entry is (operator before it, operand).
    fn fold(&mut self, operands: Vec<(BinOp, P<'_>)>, d: usize) -> R<Expr> {
        let n = operands.len();
        let mut it = operands.into_iter();
        let (_, first) = it.next().ok_or(Bug)?;
        let start = self.sp(&first).start;
        if self.deep(d + n, self.sp(&first)) {
            return Ok(self.mk(ExprKind::None, self.sp(&first)));
        }
        // The first operand sits below every operator of the chain.
        let mut acc = self.expr(first, d + n)?;
        for (i, (op, operand)) in it.enumerate() {
            let end = self.sp(&operand).end;
            let right = self.expr(operand, d + n - i)?;
            acc = self.mk(
                ExprKind::Binary(op, Box::new(acc), Box::new(right)),
                Span::new(start, end),
            );
        }
        Ok(acc)
    }

    /// Applies prefix operators (starting at the given offsets) to an operand, innermost last.
    fn prefix(
        &mut self,
        starts: Vec<usize>,
        op: UnOp,
        operand: P<'_>,
        end: usize,
        d: usize,
    ) -> R<Expr> {
        if self.deep(d + starts.len(), self.sp(&operand)) {
            return Ok(self.mk(ExprKind::None, self.sp(&operand)));
        }
        let mut e = self.expr(operand, d + starts.len())?;
        for s in starts.into_iter().rev() {
            e = self.mk(ExprKind::Unary(op, Box::new(e)), Span::new(s, end));
        }
        Ok(e)
    }

    pub(super) fn aggregate_binder(&mut self, p: P<'_>, d: usize) -> R<Expr> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let fname = k.next()?;
        let op = match fname.as_str() {
            "count" => Aggregate::Count,
            "any" => Aggregate::Any,
            "all" => Aggregate::All,
            "filter" => Aggregate::Filter,
            "take_while" => Aggregate::TakeWhile,
            _ => Aggregate::Sort,
        };
        let var = self.ident(&k.next()?);
        let list = Box::new(self.expr(k.next()?, d + 1)?);
        let filter = self
            .opt_expr(&mut k, Rule::where_clause, d + 1)?
            .map(Box::new);
        if op == Aggregate::TakeWhile && filter.is_none() {
            self.error(
                SyntaxError::INVALID,
                "`take_while` needs a condition: `take_while(x in L where C)`".to_string(),
                span,
                "no `where` here",
                Some("add `where` and the condition the first elements meet, such as `where x.face_up`"),
            );
        }
        let by_pair = k.take(Rule::by_clause);
        let by_span = by_pair.as_ref().map(|b| self.sp(b));
        let by = match by_pair {
            Some(b) => Some(Box::new(self.expr(kids(&b).next()?, d + 1)?)),
            None => None,
        };
        let value = match (op, by) {
            (Aggregate::Sort, Some(b)) => Some(b),
            (Aggregate::Sort, None) => {
                self.error(
                    SyntaxError::INVALID,
                    "`sort` needs a key: `sort(x in L by E)`".to_string(),
                    span,
                    "no `by` here",
                    Some("add `by` and the value to sort by, such as `by x.cost`"),
                );
                None
            }
            (_, Some(_)) => {
                self.error(
                    SyntaxError::INVALID,
                    format!("`{}` takes no `by`; only `sort` does", fname.as_str()),
                    by_span.unwrap_or(span),
                    "not allowed here",
                    Some("remove the `by` part"),
                );
                None
            }
            (_, None) => None,
        };
        Ok(self.mk(
            ExprKind::Aggregate {
                op,
                value,
                var,
                list,
                filter,
            },
            span,
        ))
    }

    /// `E for x in L [where C]` (after `sum(`, `max(`, `min(`, `flatten(` or `[`): the aggregate.
    fn for_tail(
        &mut self,
        op: Aggregate,
        value: Expr,
        tail: &P<'_>,
        span: Span,
        d: usize,
    ) -> R<Expr> {
        let mut tk = kids(tail);
        let var = self.ident(&tk.next()?);
        let list = self.expr(tk.next()?, d + 1)?;
        let filter = self.opt_expr(&mut tk, Rule::where_clause, d + 1)?;
        Ok(self.mk(
            ExprKind::Aggregate {
                op,
                value: Some(Box::new(value)),
                var,
                list: Box::new(list),
                filter: filter.map(Box::new),
            },
            span,
        ))
    }

    pub(super) fn call(&mut self, p: P<'_>, d: usize) -> R<Expr> {
        let span = self.sp(&p);
        let mut k = kids(&p);
        let name = self.ident(&k.next()?);
        if !has_child(&p, Rule::lparen) {
            return Ok(self.mk(ExprKind::Name(name), span));
        }
        let rest: Vec<P<'_>> = k.rest().collect();
        if let Some(tail) = rest.iter().find(|c| c.as_rule() == Rule::for_tail) {
            let op = match name.name.as_str() {
                "sum" => Some(Aggregate::Sum),
                "max" => Some(Aggregate::Max),
                "min" => Some(Aggregate::Min),
                "flatten" => Some(Aggregate::Flatten),
                "sort" => Some(Aggregate::SortValues),
                _ => None,
            };
            let value_pair = rest.first().ok_or(Bug)?.clone();
            let value = self.expr(value_pair, d + 1)?;
            return match op {
                Some(op) => self.for_tail(op, value, tail, span, d),
                None => {
                    self.error(
                        SyntaxError::INVALID,
                        format!(
                            "`{}(... for x in L)` is not an aggregate: only `sum`, `max`, `min`, `flatten` and `sort` take `for`",
                            name.name
                        ),
                        name.span,
                        "not an aggregate",
                        Some("write `count(x in L where C)`, `filter(x in L where C)`, `sum(E for x in L)` or `[E for x in L]`"),
                    );
                    // Reported once, here: a `none` in its place keeps the checker from adding
                    // an "unknown function" error (with a "did you mean" for another aggregate).
                    Ok(self.mk(ExprKind::None, span))
                }
            };
        }
        let args = rest
            .into_iter()
            .map(|a| self.expr(a, d + 1))
            .collect::<R<_>>()?;
        Ok(self.mk(ExprKind::Call(name, args), span))
    }
}

/// The text of a literal run: escapes and doubled braces resolved.
pub(super) fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            },
            '{' | '}' => {
                if chars.peek() == Some(&c) {
                    chars.next();
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}
