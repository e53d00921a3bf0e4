//! Checks stage: resolves every name of a parsed script once, checks types, and lowers it to a [`Program`].
//!
//! Every problem becomes a [`Diagnostic`] with a code and a span; all of them are collected, none stops the
//! pass. The first pass declares every top-level name (so order does not matter); the second lowers bodies.

mod aggregate;
mod call;
mod cards;
mod dead;
mod decls;
mod expr;
mod family;
mod inline;
mod loops;
mod options;
mod participant;
mod rounds;
mod scope;
mod stats;
mod stmt;
mod strategy;
mod symbols;
mod tests_decl;
mod types;

use crate::diag::{did_you_mean, Diagnostic};
use crate::program::*;
use crate::value::Value;
use cardgame_grammar::ast::{self, Span};
use std::collections::HashMap;

pub use scope::Ctx;
pub use symbols::{SymbolDef, SymbolKind, SymbolRef, Symbols};

/// The result of checking a script: a program when there is no error, and every diagnostic.
pub struct Checked {
    pub program: Option<Program>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parse and check a script's source text.
pub fn check_source(source: &str) -> Checked {
    analyse(source).checked
}

/// A script as tools at the edge (the language server) see it: its syntax tree (partial when it has
/// syntax errors), the result of checking it, and the names the checker resolved.
pub struct Analysis {
    pub script: ast::Script,
    pub checked: Checked,
    pub symbols: Symbols,
    /// The script and the sheets it reads: the text every span of the analysis counts in.
    pub sources: crate::sheet::Sources,
}

/// Syntax errors as diagnostics (E001): diag.rs, shared with the sheet stage.
pub use crate::diag::syntax_diagnostics;

/// Parse and check a script's source text, keeping its tree and its resolved names.
pub fn analyse(source: &str) -> Analysis {
    analyse_with(source, &crate::sheet::no_files)
}

/// Parse and check a script whose card sheets (`cards from "FILE"`) `read` reads (the sheet stage,
/// `sheet.rs`); the spans of the result count in `Analysis::sources.text`, the script then its sheets.
pub fn analyse_with(source: &str, read: crate::sheet::ReadFile) -> Analysis {
    let (script, syntax) = cardgame_grammar::parse(source);
    let mut diagnostics = syntax_diagnostics(&syntax);
    let mut sources = crate::sheet::Sources::new(source);
    let reads_sheets = script
        .items
        .iter()
        .any(|i| matches!(i, ast::Item::CardsFrom(_)));
    let (mut checked, symbols) = if reads_sheets {
        let mut expanded = script.clone();
        let (mut found, all_read) = crate::sheet::attach(&mut expanded, &mut sources, read);
        diagnostics.append(&mut found);
        let (mut checked, symbols) = compile_inner(&sources.text, &expanded, !syntax.is_empty());
        if let Some(p) = checked.program.as_mut() {
            p.sheets = sources
                .sheets
                .iter()
                .map(|s| crate::program::SheetPlace {
                    path: s.path.clone(),
                    start: s.start,
                    end: s.end,
                })
                .collect();
        }
        // A sheet that cannot be read leaves its cards unknown: that error says it once.
        if !all_read {
            checked.diagnostics.retain(|d| d.code != "E103");
        }
        // A sheet's column stands for the cells below it: say its errors once.
        let mut seen = std::collections::HashSet::new();
        checked
            .diagnostics
            .retain(|d| seen.insert((d.code, d.span, d.message.clone())));
        (checked, symbols)
    } else {
        compile_inner(source, &script, !syntax.is_empty())
    };
    diagnostics.append(&mut checked.diagnostics);
    diagnostics.sort_by_key(|d| (d.span.start, d.severity));
    let has_error = diagnostics.iter().any(|d| d.is_error());
    Analysis {
        script,
        checked: Checked {
            program: if has_error { None } else { checked.program },
            diagnostics,
        },
        symbols,
        sources,
    }
}

/// What a top-level name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sym {
    Option(OptionId),
    OptionValue(OptionId, i64),
    Column(ColumnId),
    Group(GroupId),
    Tag(TagId),
    Prop(PropId),
    Var(VarId),
    Zone(ZoneId),
    Spaces,
    Event(EventId),
    Ability(AbilityId),
    Fn(FnId),
    Proc(ProcId),
    Action(ActionId),
    Participant(u8),
}

impl Sym {
    fn what(self) -> &'static str {
        match self {
            Sym::Option(_) => "option",
            Sym::OptionValue(..) => "option value",
            Sym::Column(_) => "table column",
            Sym::Group(_) => "tag group",
            Sym::Tag(_) => "tag",
            Sym::Prop(_) => "property",
            Sym::Var(_) => "variable",
            Sym::Zone(_) => "zone",
            Sym::Spaces => "board of spaces",
            Sym::Event(_) => "event",
            Sym::Ability(_) => "ability",
            Sym::Fn(_) => "function",
            Sym::Proc(_) => "procedure",
            Sym::Action(_) => "action",
            Sym::Participant(_) => "participant",
        }
    }
}

pub(crate) struct Compiler<'s> {
    pub(crate) source: &'s str,
    pub(crate) p: Program,
    pub(crate) diags: Vec<Diagnostic>,
    /// Every top-level name, with where it was declared.
    pub(crate) syms: HashMap<String, (Sym, Span)>,
    pub(crate) kinds: HashMap<String, KindId>,
    /// Names read or called somewhere, for the unused-definition warnings.
    pub(crate) used: std::collections::HashSet<String>,
    /// How many times each name is looked up, and how many of those lookups name a variable being
    /// written (`x = E`, `p.x += 1`): a variable all of whose uses are writes is never read (W004).
    pub(crate) uses: HashMap<String, u32>,
    pub(crate) writes: HashMap<String, u32>,
    pub(crate) performed: std::collections::HashSet<AbilityId>,
    /// Names offered by a "did you mean": not reported as unused (the misspelling is the error).
    pub(crate) suggested: std::cell::RefCell<std::collections::HashSet<String>>,
    /// The script had syntax errors: its tree is partial, so "missing" errors would only mislead.
    pub(crate) partial: bool,
    /// The names declared by items the parser could not read: a use of one is not reported as an
    /// unknown name (the syntax error of its item is the error).
    pub(crate) broken: std::collections::HashSet<String>,
    /// The names declared by items cut short by a syntax error (`Script::cut_short`): the number
    /// of values their uses give is not checked.
    pub(crate) cut_short: std::collections::HashSet<String>,
    /// Where the parser repaired the script by a guess: errors there are not the script's.
    pub(crate) guessed: Vec<Span>,
    /// The header has `teams by` (valid or not: a `win team` is then not an error of its own).
    pub(crate) teams_declared: bool,
    /// Functions whose bodies are lowered already (calls further down may copy them: `inline`).
    pub(crate) lowered_fns: std::collections::HashSet<crate::program::FnId>,
    /// The cards of each card family, by the start of its declaration (read once, when declared).
    pub(crate) families: HashMap<usize, Vec<family::Member>>,
    /// While a family's card is lowered: the family's names and their values for this card.
    pub(crate) family_consts: Vec<(String, Value, Ty)>,
    /// The cards declared by a family: their names are not written in the script as such, so the
    /// language server's symbols leave them out (no definition to show or rename).
    pub(crate) family_kinds: std::collections::HashSet<KindId>,
    /// The types of every action's parameters, once lowered (strategies bind them by position).
    pub(crate) action_param_tys: HashMap<ActionId, Vec<Ty>>,
    /// Statistics by name (their own name space, like strategies), and for each where it is first
    /// recorded with `=` and with `+=`/`-=` (a statistic is one or the other: E207).
    pub(crate) stat_ids: HashMap<String, u16>,
    /// The cards printing each ability (by the ability's name), for `c has ability A`.
    pub(crate) card_abilities: HashMap<String, Vec<KindId>>,
    pub(crate) stat_uses: Vec<(Option<Span>, Option<Span>)>,
    /// The rounds of the script and the statements that need one (E211).
    pub(crate) rounds: rounds::RoundUses,
    /// Every resolved use of a declared name or a card, for [`Symbols`].
    pub(crate) refs: Vec<(Span, symbols::Target)>,
    /// Every name written before a `.` whose value is a player, a card or a space, for [`Symbols`].
    pub(crate) field_bases: Vec<(Span, ast::Scope)>,
    /// Every use of a local name: where it is written, and where that local is declared.
    pub(crate) local_refs: Vec<(Span, Span)>,
}

/// The codes of "no NAME is named" errors (a name, a card, a tag, a property, an ability, an
/// event, an action, a procedure).
const UNKNOWN_NAME_CODES: &[&str] = &[
    "E102", "E103", "E104", "E105", "E106", "E107", "E108", "E109", "E110",
];

pub const BUILTIN_NAMES: &[&str] = &[
    "you",
    "this",
    "active",
    "players",
    "everyone",
    "turn_number",
];

/// Functions the agents read: `fn heuristic(p: player): int` and `fn score(p: player): int`.
pub(crate) const AGENT_HOOKS: &[&str] = &["heuristic", "score"];

/// A kind of name that `Compiler::unknown_name` reports.
pub(crate) struct UnknownKind {
    pub code: &'static str,
    pub what: &'static str,
    pub is: fn(Sym) -> bool,
    /// Built-in names of that kind, offered by the "did you mean" too.
    pub builtins: &'static [&'static str],
    /// The help when no name is close: how to declare one.
    pub declare: &'static str,
}

pub(crate) const UNKNOWN_EVENT: UnknownKind = UnknownKind {
    code: "E108",
    what: "event",
    is: |s| matches!(s, Sym::Event(_)),
    builtins: &[],
    declare: "declare it with `event NAME(...)`",
};
pub(crate) const UNKNOWN_ACTION: UnknownKind = UnknownKind {
    code: "E109",
    what: "action",
    is: |s| matches!(s, Sym::Action(_)),
    builtins: &[],
    declare: "declare it with `action NAME(x in L) { ... }`",
};
pub(crate) const UNKNOWN_PROC: UnknownKind = UnknownKind {
    code: "E110",
    what: "procedure",
    is: |s| matches!(s, Sym::Proc(_)),
    builtins: &[],
    declare: "declare it with `proc NAME(p: player) { ... }`",
};
pub(crate) const UNKNOWN_FN: UnknownKind = UnknownKind {
    code: "E110",
    what: "function",
    is: |s| matches!(s, Sym::Fn(_)),
    builtins: BUILTIN_FNS,
    declare: "declare it with `fn NAME(p: player): int = E`, or see the built-in functions in docs/language.md",
};

/// A function read by the agents rather than by the script: never reported as unused.
fn is_agent_hook(s: Sym, name: &str) -> bool {
    matches!(s, Sym::Fn(_)) && AGENT_HOOKS.contains(&name)
}

pub const BUILTIN_FNS: &[&str] = &[
    "count",
    "flatten",
    "max",
    "min",
    "abs",
    "take",
    "first",
    "last",
    "cards",
    "kinds",
    "distinct",
    "random",
    "seat",
    "left",
    "right",
    "opponents",
    "from",
    "eliminated",
    "at",
    "neighbours",
    "adjacent",
];

/// Check and lower a parsed script.
pub fn compile(source: &str, script: &ast::Script) -> Checked {
    compile_partial(source, script, false)
}

/// Check a script whose tree may be partial (it had syntax errors): errors about missing parts are left out.
pub fn compile_partial(source: &str, script: &ast::Script, partial: bool) -> Checked {
    compile_inner(source, script, partial).0
}

fn compile_inner(source: &str, script: &ast::Script, partial: bool) -> (Checked, Symbols) {
    let mut c = Compiler::new(source);
    c.partial = partial;
    c.broken = script.broken.iter().map(|n| n.name.clone()).collect();
    c.cut_short = script.cut_short.iter().map(|n| n.name.clone()).collect();
    c.guessed = script.guessed.clone();
    c.declare_all(script);
    c.lower_all(script);
    c.check_rounds();
    c.lower_strategies(script);
    c.check_test_strategies(script);
    c.finish_stats();
    c.warn_unused(script);
    let has_error = c.diags.iter().any(|d| d.is_error());
    if !has_error && !partial {
        c.warn_boxed();
    }
    if !has_error {
        let found = crate::purity::analyse(&c.p);
        c.p.pure_fns = found.fns;
        c.p.guarded_checks = found.checks;
        for ((a, parts), same) in
            c.p.actions
                .iter_mut()
                .zip(found.parts)
                .zip(found.interchangeable)
        {
            a.parts = parts;
            a.interchangeable = same;
        }
        c.p.closures = Some(std::sync::Arc::new(
            crate::engine::closures::Closures::build(&c.p),
        ));
    }
    let symbols = c.symbols();
    (
        Checked {
            program: if has_error { None } else { Some(c.p) },
            diagnostics: c.diags,
        },
        symbols,
    )
}

impl<'s> Compiler<'s> {
    fn new(source: &'s str) -> Self {
        let mut line_starts = vec![0];
        for (i, b) in source.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        let mut p = Program {
            name: String::new(),
            min_players: 1,
            max_players: 1,
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
            participants: Vec::new(),
            blocks: vec![],
            line_starts,
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
        p.zones.push(ZoneDef {
            name: "box".into(),
            scope: ast::Scope::Shared,
            ordered: true,
            visibility: Visibility::Hidden,
            refill: None,
            max: None,
            shown_by: Vec::new(),
        });
        let mut syms = HashMap::new();
        syms.insert(
            "turn_start".to_string(),
            (Sym::Event(EventId(0)), Span::default()),
        );
        syms.insert(
            "turn_end".to_string(),
            (Sym::Event(EventId(1)), Span::default()),
        );
        syms.insert("box".to_string(), (Sym::Zone(ZoneId(0)), Span::default()));
        let mut used = std::collections::HashSet::new();
        used.insert("turn_start".to_string());
        used.insert("turn_end".to_string());
        used.insert("box".to_string());
        Compiler {
            source,
            p,
            diags: vec![],
            syms,
            kinds: HashMap::new(),
            used,
            uses: HashMap::new(),
            writes: HashMap::new(),
            performed: Default::default(),
            suggested: Default::default(),
            partial: false,
            broken: Default::default(),
            cut_short: Default::default(),
            guessed: Vec::new(),
            teams_declared: false,
            lowered_fns: Default::default(),
            families: HashMap::new(),
            family_consts: Vec::new(),
            family_kinds: Default::default(),
            action_param_tys: HashMap::new(),
            stat_ids: HashMap::new(),
            card_abilities: HashMap::new(),
            stat_uses: Vec::new(),
            rounds: Default::default(),
            refs: Vec::new(),
            field_bases: Vec::new(),
            local_refs: Vec::new(),
        }
    }

    pub(crate) fn error(&mut self, d: Diagnostic) {
        if UNKNOWN_NAME_CODES.contains(&d.code) && !self.broken.is_empty() {
            let named = self.source.get(d.span.start..d.span.end).unwrap_or("");
            if self.broken.contains(named.trim_matches('"')) {
                return;
            }
        }
        if d.code == "E111" && !self.cut_short.is_empty() {
            // Every count of values names the item counted at the start of its span.
            let at = self.source.get(d.span.start..).unwrap_or("");
            let name_len = at
                .find(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                .unwrap_or(at.len());
            if self.cut_short.contains(&at[..name_len]) {
                return;
            }
        }
        let guessed = |s: &Span| s.start <= d.span.start && d.span.end <= s.end;
        if d.is_error() && self.guessed.iter().any(guessed) {
            return;
        }
        self.diags.push(d);
    }

    /// Declare a top-level name; a second declaration of the same name is an error.
    pub(crate) fn declare(&mut self, id: &ast::Ident, sym: Sym) -> bool {
        if BUILTIN_FNS.contains(&id.name.as_str()) {
            self.error(
                Diagnostic::error(
                    "E101",
                    id.span,
                    format!(
                        "`{}` is a built-in function and cannot be declared",
                        id.name
                    ),
                )
                .label("built-in name")
                .help("choose another name"),
            );
            // Its uses are not reported again as unknown.
            self.broken.insert(id.name.clone());
            return false;
        }
        self.declare_value(id, sym)
    }

    /// Declare a name that is only ever read as a value (an option's value may be called `random`).
    pub(crate) fn declare_value(&mut self, id: &ast::Ident, sym: Sym) -> bool {
        if BUILTIN_NAMES.contains(&id.name.as_str()) {
            self.error(
                Diagnostic::error(
                    "E101",
                    id.span,
                    format!("`{}` is a built-in name and cannot be declared", id.name),
                )
                .label("built-in name")
                .help("choose another name"),
            );
            self.broken.insert(id.name.clone());
            return false;
        }
        if let Some((old, old_span)) = self.syms.get(&id.name) {
            let (old, old_span) = (*old, *old_span);
            let d = match old {
                Sym::OptionValue(option, _) => {
                    let option = self
                        .p
                        .options
                        .get(option.index())
                        .map_or("", |o| o.name.as_str());
                    Diagnostic::error(
                        "E101",
                        id.span,
                        format!("`{}` is already a value of the option `{option}`", id.name),
                    )
                    .label("declared again here")
                    .help(format!(
                        "an option's values share the script's names: rename the value (`{option}: one of by_{}, ...`) or this declaration",
                        id.name
                    ))
                }
                _ => Diagnostic::error(
                    "E101",
                    id.span,
                    format!(
                        "`{}` is already declared as {} {}",
                        id.name,
                        crate::diag::article(old.what()),
                        old.what()
                    ),
                )
                .label("declared again here")
                .help("every name of a script names one thing: rename one of them"),
            };
            let d = if old_span.is_empty() {
                d
            } else {
                d.related(old_span, "first declared here")
            };
            self.error(d);
            // The uses meant for the second declaration are not reported again, one by one.
            self.broken.insert(id.name.clone());
            return false;
        }
        self.syms.insert(id.name.clone(), (sym, id.span));
        true
    }

    /// The top-level name written at `id`, noted as used.
    pub(crate) fn lookup(&mut self, id: &ast::Ident) -> Option<Sym> {
        let s = self.syms.get(&id.name).map(|(s, _)| *s);
        if s.is_some() {
            self.note_use(&id.name);
            self.refer(id.span, symbols::Target::Name(id.name.clone()));
        }
        s
    }

    /// A name is used (read, called, or written: see `writes`).
    pub(crate) fn note_use(&mut self, name: &str) {
        self.used.insert(name.to_string());
        *self.uses.entry(name.to_string()).or_default() += 1;
    }

    /// Candidates for a "did you mean" among names of some kinds.
    /// "no event is named `x`": a name that names nothing of the kind the place needs, with a
    /// "did you mean" among the names of that kind, else how to declare one (every error has a help).
    pub(crate) fn unknown_name(&mut self, name: &str, span: Span, kind: &UnknownKind) {
        let help = self
            .suggest(name, kind.is, kind.builtins)
            .unwrap_or_else(|| kind.declare.to_string());
        self.error(
            Diagnostic::error(
                kind.code,
                span,
                format!("no {} is named `{name}`", kind.what),
            )
            .label(format!("unknown {}", kind.what))
            .help(help),
        );
    }

    /// E107: `n` names no declared ability (in a card, a `perform`, a `has ability` test).
    pub(crate) fn unknown_ability(&mut self, n: &ast::Ident) {
        let help = self.suggest(&n.name, |s| matches!(s, Sym::Ability(_)), &[]);
        self.error(
            Diagnostic::error("E107", n.span, format!("no ability is named `{}`", n.name))
                .label("unknown ability")
                .help_or(help, "declare ability names with `abilities play, ...`"),
        );
    }

    /// E104: `n` names no tag. The help is a tag of a similar name, else `fallback`.
    pub(crate) fn unknown_tag(&mut self, n: &ast::Ident, fallback: Option<String>) {
        let help = self.suggest(&n.name, |s| matches!(s, Sym::Tag(_)), &[]);
        self.error(
            Diagnostic::error("E104", n.span, format!("no tag is named `{}`", n.name))
                .label("unknown tag")
                .help_or(
                    help.or(fallback),
                    "declare it in a tag group: `tags faction: A, B`",
                ),
        );
    }

    /// E105: `n` names no declared property (on a card line, `words` are the card's other keywords;
    /// `fallback` is the help when no name is close).
    pub(crate) fn unknown_property(&mut self, n: &ast::Ident, words: &[&str], fallback: &str) {
        let help = self.suggest(&n.name, |s| matches!(s, Sym::Prop(_)), words);
        self.error(
            Diagnostic::error("E105", n.span, format!("`{}` is not a property", n.name))
                .label("unknown property")
                .help_or(help, fallback),
        );
    }

    pub(crate) fn suggest(
        &self,
        name: &str,
        filter: impl Fn(Sym) -> bool,
        extra: &[&str],
    ) -> Option<String> {
        let cands: Vec<&str> = self
            .syms
            .iter()
            .filter(|(_, (s, _))| filter(*s))
            .map(|(n, _)| n.as_str())
            .chain(extra.iter().copied())
            .collect();
        let best = crate::diag::closest(name, cands.iter().copied());
        if let Some(b) = best {
            self.suggested.borrow_mut().insert(b.to_string());
        }
        if let Some(b) = best {
            return Some(format!("did you mean `{b}`?"));
        }
        let mut known: Vec<&str> = self
            .syms
            .iter()
            .filter(|(_, (s, span))| filter(*s) && !span.is_empty())
            .map(|(n, _)| n.as_str())
            .collect();
        known.sort();
        match known.len() {
            0 => None,
            1..=8 => Some(format!("the script declares: {}", known.join(", "))),
            _ => None,
        }
    }

    pub(crate) fn kind_by_name(&mut self, name: &str, span: Span) -> Option<KindId> {
        if let Some(k) = self.kinds.get(name) {
            let k = *k;
            self.refer(span, symbols::Target::Card(name.to_string()));
            return Some(k);
        }
        let help = did_you_mean(name, self.kinds.keys().map(|s| s.as_str())).unwrap_or_else(|| {
            "card names are written exactly as in their `card \"...\"` definition".into()
        });
        self.error(
            Diagnostic::error("E103", span, format!("no card is named \"{name}\""))
                .label("unknown card")
                .help(help),
        );
        None
    }

    pub(crate) fn push_block(&mut self, stmts: Vec<Stmt>) -> BlockId {
        self.p.blocks.push(Block::new(stmts));
        BlockId((self.p.blocks.len() - 1) as u16)
    }

    fn warn_unused(&mut self, script: &ast::Script) {
        let _ = script;
        if self.partial {
            return;
        }
        let mut unused: Vec<(Span, String, &'static str)> = self
            .syms
            .iter()
            .filter(|(n, (s, span))| {
                !span.is_empty()
                    && !self.used.contains(*n)
                    && !is_agent_hook(*s, n)
                    && !self.suggested.borrow().contains(*n)
                    && matches!(
                        s,
                        Sym::Var(_)
                            | Sym::Zone(_)
                            | Sym::Event(_)
                            | Sym::Fn(_)
                            | Sym::Proc(_)
                            | Sym::Action(_)
                            | Sym::Option(_)
                            | Sym::Participant(_)
                    )
            })
            .map(|(n, (s, span))| (*span, n.clone(), s.what()))
            .collect();
        for (name, (s, span)) in &self.syms {
            if let Sym::Ability(a) = s {
                if !self.performed.contains(a) && !span.is_empty() {
                    unused.push((*span, name.clone(), "ability"));
                }
            }
        }
        unused.sort_by(|a, b| (a.0.start, &a.1).cmp(&(b.0.start, &b.1)));
        let mut unread: Vec<(Span, String)> = self
            .syms
            .iter()
            .filter(|(n, (s, span))| {
                matches!(s, Sym::Var(_))
                    && !span.is_empty()
                    && self.writes.get(*n).is_some_and(|w| *w > 0)
                    && self.uses.get(*n) == self.writes.get(*n)
            })
            .map(|(n, (_, span))| (*span, n.clone()))
            .collect();
        unread.sort_by(|a, b| (a.0.start, &a.1).cmp(&(b.0.start, &b.1)));
        for (span, name) in unread {
            self.diags.push(
                Diagnostic::warning(
                    "W004",
                    span,
                    format!("the variable `{name}` is set but never read"),
                )
                .label("never read")
                .help("read it where the rules need it (a condition, a score, a `win`), or remove it and what sets it"),
            );
        }
        for (span, name, what) in unused {
            self.diags.push(
                Diagnostic::warning("W001", span, format!("the {what} `{name}` is never used"))
                    .label("unused")
                    .help("remove it, or use it where the rules need it (a misspelled use elsewhere is an error of its own)"),
            );
        }
    }

    /// Evaluate a constant expression at check time (option defaults, test option values).
    pub(crate) fn const_value(&self, e: &ast::Expr) -> Option<Value> {
        match &e.kind {
            ast::ExprKind::Int(i) => Some(Value::Int(*i)),
            ast::ExprKind::Bool(b) => Some(Value::Bool(*b)),
            ast::ExprKind::Unary(ast::UnOp::Neg, inner) => match &inner.kind {
                ast::ExprKind::Int(i) => Some(Value::Int(-*i)),
                _ => None,
            },
            _ => None,
        }
    }

    pub(crate) fn text_of(&self, span: Span) -> &str {
        self.source.get(span.start..span.end).unwrap_or("")
    }
}
