//! Language server stage: completion — card names inside quotes, fields after `.`, and otherwise the
//! keywords, the declared names and the built-in names and functions, each with its kind.

use super::document::{Document, Known};
use cardgame_grammar::ast::{Item, Scope};
use cardgame_grammar::{CONTEXTUAL_WORDS, KEYWORDS};
use cardgame_interpreter::check::{SymbolKind, BUILTIN_FNS, BUILTIN_NAMES};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionTextEdit, Position, Range, TextEdit,
};

/// What each built-in value is (the checker's `BUILTIN_NAMES`).
fn builtin_detail(name: &str) -> &'static str {
    match name {
        "you" => "the player whose ability, action or turn this is",
        "this" => "the card whose ability or trigger this is",
        "active" => "the player whose turn it is",
        "players" => "the number of players",
        "everyone" => "every player in seat order",
        "turn_number" => "the number of turns started",
        _ => "built-in value",
    }
}

/// The functions written with a binder (`sum(E for x in L)`), which the parser reads itself.
const AGGREGATES: &[&str] = &["sum", "any", "all", "filter", "sort"];

/// Fields every card has, and every space.
const CARD_FIELDS: &[&str] = &["kind", "owner", "zone", "face_up"];
const SPACE_FIELDS: &[&str] = &["x", "y"];

fn item(label: &str, kind: CompletionItemKind, detail: impl Into<String>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: Some(detail.into()),
        ..CompletionItem::default()
    }
}

fn kind_of(k: SymbolKind) -> CompletionItemKind {
    match k {
        SymbolKind::Option | SymbolKind::Column => CompletionItemKind::CONSTANT,
        SymbolKind::OptionValue | SymbolKind::Tag => CompletionItemKind::ENUM_MEMBER,
        SymbolKind::TagGroup => CompletionItemKind::ENUM,
        SymbolKind::Property => CompletionItemKind::PROPERTY,
        SymbolKind::Variable => CompletionItemKind::VARIABLE,
        SymbolKind::Zone | SymbolKind::Spaces => CompletionItemKind::MODULE,
        SymbolKind::Event => CompletionItemKind::EVENT,
        SymbolKind::Ability => CompletionItemKind::INTERFACE,
        SymbolKind::Function | SymbolKind::Procedure => CompletionItemKind::FUNCTION,
        SymbolKind::Action => CompletionItemKind::METHOD,
        SymbolKind::Card => CompletionItemKind::CLASS,
        SymbolKind::Local => CompletionItemKind::VARIABLE,
        SymbolKind::Statistic => CompletionItemKind::VALUE,
        SymbolKind::Participant => CompletionItemKind::CONSTANT,
    }
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `before` (a line up to the cursor) ends inside a text literal, and where that text starts.
fn open_quote(before: &str) -> Option<usize> {
    let mut open = None;
    let mut escaped = false;
    for (i, c) in before.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if open.is_some() => escaped = true,
            '"' => open = if open.is_some() { None } else { Some(i) },
            '/' if open.is_none() && before[i..].starts_with("//") => return None,
            _ => {}
        }
    }
    open
}

/// Which fields follow `base.`.
#[derive(Clone, Copy, PartialEq)]
enum Base {
    Player,
    Card,
    Space,
    Unknown,
}

/// What the name `word` before a `.` at `offset` is: from the built-in names, else from the nearest
/// place where the checker saw the same name before a `.`, else from the last script that parsed.
fn base_of(doc: &Document, word: &str, offset: usize) -> Base {
    match word {
        "you" | "active" | "owner" => return Base::Player,
        "this" => return Base::Card,
        "" => return Base::Unknown,
        _ => {}
    }
    let nearest = doc
        .analysis
        .symbols
        .field_bases
        .iter()
        .filter(|(span, _)| doc.slice(*span) == word)
        .min_by_key(|(span, _)| span.start.abs_diff(offset))
        .map(|(_, scope)| *scope)
        .or_else(|| {
            doc.known_bases
                .iter()
                .find(|(name, _)| name == word)
                .map(|(_, scope)| *scope)
        });
    match nearest {
        Some(Scope::PerPlayer) => Base::Player,
        Some(Scope::PerCard) => Base::Card,
        Some(Scope::PerSpace) => Base::Space,
        _ => Base::Unknown,
    }
}

fn fields(known: &[Known], base: Base) -> Vec<CompletionItem> {
    let any = base == Base::Unknown;
    let mut out = vec![];
    for k in known {
        let scope = k.scope.unwrap_or(Scope::PerCard);
        let (ok, per) = match (k.kind, scope) {
            (SymbolKind::Variable | SymbolKind::Zone, Scope::PerPlayer) => {
                (any || base == Base::Player, "per player")
            }
            (SymbolKind::Variable | SymbolKind::Zone, Scope::PerCard) => {
                (any || base == Base::Card, "per card")
            }
            (SymbolKind::Zone, Scope::PerSpace) => (any || base == Base::Space, "per space"),
            (SymbolKind::Property | SymbolKind::TagGroup, _) => {
                (any || base == Base::Card, "of a card")
            }
            _ => (false, ""),
        };
        if ok {
            out.push(item(
                &k.name,
                kind_of(k.kind),
                format!("{} {per}", k.kind.what()),
            ));
        }
    }
    if any || base == Base::Card {
        for f in CARD_FIELDS {
            out.push(item(f, CompletionItemKind::FIELD, "every card's"));
        }
    }
    if any || base == Base::Space {
        for f in SPACE_FIELDS {
            out.push(item(f, CompletionItemKind::FIELD, "every space's"));
        }
    }
    out
}

/// The declared names, with the names of the last version of the script that parsed (a declaration
/// being typed is still offered).
fn known(doc: &Document) -> Vec<Known> {
    let mut all: Vec<Known> = doc
        .analysis
        .symbols
        .defs
        .iter()
        // Locals are known only where they are used, and belong to one body: not offered.
        .filter(|d| d.kind != SymbolKind::Local)
        .map(|d| Known {
            name: d.name.clone(),
            kind: d.kind,
            scope: d.scope,
        })
        .collect();
    for k in &doc.known {
        if !all.iter().any(|a| a.name == k.name && a.kind == k.kind) {
            all.push(k.clone());
        }
    }
    all
}

pub fn complete(doc: &Document, pos: Position) -> Vec<CompletionItem> {
    let offset = doc.offset(pos);
    let (start, line) = doc.line_of(offset);
    let before = line.get(..offset.saturating_sub(start)).unwrap_or("");
    let known = known(doc);
    if let Some(quote) = open_quote(before) {
        // A card name: replace what is typed of it.
        let typed = Range::new(doc.position(start + quote + 1), pos);
        return known
            .iter()
            .filter(|k| k.kind == SymbolKind::Card)
            .map(|k| CompletionItem {
                text_edit: Some(CompletionTextEdit::Edit(TextEdit::new(
                    typed,
                    k.name.clone(),
                ))),
                ..item(&k.name, CompletionItemKind::CLASS, "card")
            })
            .collect();
    }
    if before.trim_start().starts_with("//") {
        return vec![];
    }
    let word_start = before.trim_end_matches(is_word).len();
    if before[..word_start].ends_with('.') && !before[..word_start].ends_with("..") {
        let base_text = &before[..word_start - 1];
        let base_word = &base_text[base_text.trim_end_matches(is_word).len()..];
        return fields(&known, base_of(doc, base_word, offset));
    }
    let mut out: Vec<CompletionItem> = KEYWORDS
        .iter()
        .map(|k| item(k, CompletionItemKind::KEYWORD, "keyword"))
        .collect();
    out.extend(
        CONTEXTUAL_WORDS
            .iter()
            .filter(|w| !BUILTIN_NAMES.contains(w))
            .map(|w| item(w, CompletionItemKind::KEYWORD, "contextual word")),
    );
    for n in BUILTIN_NAMES {
        out.push(item(n, CompletionItemKind::VARIABLE, builtin_detail(n)));
    }
    for f in BUILTIN_FNS.iter().chain(AGGREGATES) {
        out.push(item(f, CompletionItemKind::FUNCTION, "built-in function"));
    }
    for k in known.iter().filter(|k| k.kind != SymbolKind::Card) {
        let detail = match (k.kind, stat_key(doc, &k.name)) {
            (SymbolKind::Statistic, Some(key)) => format!("{} per {key}", k.kind.what()),
            _ => k.kind.what().to_string(),
        };
        out.push(item(&k.name, kind_of(k.kind), detail));
    }
    out
}

/// The type of the key of statistic `name`, written as in its declaration (`stat bust[int]`), when
/// it is kept per key.
fn stat_key<'d>(doc: &'d Document, name: &str) -> Option<&'d str> {
    doc.analysis.script.items.iter().find_map(|i| match i {
        Item::Stat(s) if s.name.name == name => s.key.as_ref().map(|t| doc.slice(t.span())),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_found_outside_comments_and_escapes() {
        assert_eq!(open_quote("move cards(\"Cop"), Some(11));
        assert_eq!(open_quote("log \"a \\\" b"), Some(4));
        assert_eq!(open_quote("x \"a\" y"), None);
        assert_eq!(open_quote("x // \"a"), None);
    }
}
