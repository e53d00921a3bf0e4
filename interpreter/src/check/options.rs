//! Checks stage: declarations of options (`option NAME: ...` with their values and player counts) and
//! of tables (`table NAME { ... }`, their columns and rows).

use super::Compiler;
use super::Sym;
use crate::diag::Diagnostic;
use crate::program::*;
use crate::value::Value;
use cardgame_grammar::ast;

impl Compiler<'_> {
    pub(super) fn declare_option(&mut self, o: &ast::OptionDecl) {
        let id = OptionId(self.p.options.len() as u16);
        if !self.declare(&o.name, Sym::Option(id)) {
            return;
        }
        let (kind, default) = match &o.kind {
            ast::OptionKind::Bool => {
                let v = self.const_value(&o.default);
                if !matches!(v, Some(Value::Bool(_))) {
                    self.error(
                        Diagnostic::error(
                            "E303",
                            o.default.span,
                            "the default of a `bool` option is `true` or `false`",
                        )
                        .label("not a truth value")
                        .help("write `= true` or `= false`"),
                    );
                }
                (OptionKind::Bool, v.unwrap_or(Value::Bool(false)))
            }
            ast::OptionKind::Int { min, max } => {
                let v = self.const_value(&o.default);
                match v {
                    Some(Value::Int(i)) if i >= *min && i <= *max => {}
                    _ => self.error(
                        Diagnostic::error(
                            "E303",
                            o.default.span,
                            format!("the default must be a number from {min} to {max}"),
                        )
                        .label("out of range")
                        .help(format!(
                            "choose a default from {min} to {max}, or widen the range"
                        )),
                    ),
                }
                (
                    OptionKind::Int {
                        min: *min,
                        max: *max,
                    },
                    v.unwrap_or(Value::Int(*min)),
                )
            }
            ast::OptionKind::OneOf(values) => {
                let names: Vec<String> = values.iter().map(|v| v.name.clone()).collect();
                for (i, v) in values.iter().enumerate() {
                    self.declare_value(v, Sym::OptionValue(id, i as i64));
                    self.used.insert(v.name.clone());
                }
                let default = match &o.default.kind {
                    ast::ExprKind::Name(n) => {
                        let at = names.iter().position(|x| *x == n.name);
                        if at.is_some() {
                            self.refer(n.span, super::symbols::Target::Name(n.name.clone()));
                        }
                        at
                    }
                    _ => None,
                };
                if default.is_none() {
                    let help = crate::diag::did_you_mean(
                        self.text_of(o.default.span),
                        names.iter().map(|s| s.as_str()),
                    );
                    self.error(
                        Diagnostic::error(
                            "E303",
                            o.default.span,
                            format!("the default must be one of: {}", names.join(", ")),
                        )
                        .label("not one of the values")
                        .help_or(help, format!("write one of: {}", names.join(", "))),
                    );
                }
                (
                    OptionKind::OneOf(names),
                    Value::Int(default.unwrap_or(0) as i64),
                )
            }
        };
        let mut value_players = Vec::new();
        for ranges in &o.value_players {
            let mut counts = Vec::new();
            for r in ranges {
                let (lo, hi) = (self.p.min_players as i64, self.p.max_players as i64);
                if r.min > r.max || r.min < lo || r.max > hi {
                    self.error(
                        Diagnostic::error(
                            "E309",
                            r.span,
                            format!(
                                "an option's value is for player counts outside the game's ({lo} to {hi})"
                            ),
                        )
                        .label("not counts of this game")
                        .help(format!(
                            "write counts of this game, smallest first: `(players {lo})`, `(players {lo}, {hi})` or `(players {lo}..{hi})`"
                        )),
                    );
                } else {
                    counts.push((r.min as u8, r.max as u8));
                }
            }
            value_players.push(counts);
        }
        self.p.options.push(OptionDef {
            name: o.name.name.clone(),
            kind,
            value_players,
            default,
            description: o
                .description
                .as_ref()
                .and_then(|t| t.plain())
                .unwrap_or_default(),
        });
    }

    pub(super) fn lower_table(&mut self, t: &ast::TableDecl, base: usize) {
        let ncols = t.columns.len();
        let mut seen: Vec<i64> = vec![];
        for row in &t.rows {
            if seen.contains(&row.players) {
                self.error(
                    Diagnostic::error(
                        "E302",
                        row.span,
                        format!("two rows for {} players", row.players),
                    )
                    .label("second row")
                    .help("keep one row per player count"),
                );
                continue;
            }
            seen.push(row.players);
            if row.values.len() != ncols {
                self.error(
                    Diagnostic::error(
                        "E302",
                        row.span,
                        format!(
                            "this row has {} value{} but the table has {} columns",
                            row.values.len(),
                            if row.values.len() == 1 { "" } else { "s" },
                            ncols
                        ),
                    )
                    .label("wrong number of values")
                    .help(format!(
                        "the columns are: {}",
                        t.columns
                            .iter()
                            .map(|c| c.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                );
                continue;
            }
            for (i, v) in row.values.iter().enumerate() {
                let e = self.pure_expr(v, &Ty::Int);
                if let Some(col) = self.p.columns.get_mut(base + i) {
                    col.rows.push((row.players.clamp(0, 255) as u8, e));
                }
            }
        }
        for n in self.p.min_players..=self.p.max_players {
            if !seen.contains(&(n as i64)) {
                self.error(
                    Diagnostic::error(
                        "E302",
                        t.span,
                        format!("the table has no row for {n} players"),
                    )
                    .label("incomplete table")
                    .help(format!(
                        "the game is for {} to {} players: give a row for each",
                        self.p.min_players, self.p.max_players
                    )),
                );
            }
        }
    }
}
