//! Checks stage: a variant of a script (`--set NAME=VALUE`), made by editing the script's text as a
//! designer would and checking the result, so that a study of a variant is exactly a study of the
//! edited script.
//!
//! A setting names an option of the script (`goal=20`, the same as `--option goal=20`), a card's
//! property or its number of copies (`Province.cost=6`, `Smithy.copies=8`), the starting value of a
//! variable (`coins=3`), or a named constant: a function without parameters whose body is one
//! expression (`fn hand_size(): int = 5`, set with `hand_size=6`). The value is written as in the
//! script (`7`, `true`, `2 * players`, `["Iron", "Wood"]`). A card property the card does not write
//! (it takes the property's default) is added to the card.

use crate::check::analyse_with;
use crate::diag::did_you_mean;
use crate::program::Program;
use crate::sheet::{no_files, ReadFile};
use cardgame_grammar::ast::{CardDecl, CardItem, Item, Scope, Script, Span};
use std::fmt;

/// One `--set NAME=VALUE`, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub name: String,
    pub value: String,
}

impl Setting {
    /// Reads `NAME=VALUE`; the name may be a card's name and a property (`Province.cost`), the card's
    /// name in quotes or not.
    pub fn parse(text: &str) -> Result<Setting, String> {
        let Some((name, value)) = text.split_once('=') else {
            return Err(format!(
                "--set takes NAME=VALUE (an option, `Card.property`, `Card.copies`, a variable or \
                 a constant), not `{text}`"
            ));
        };
        let (name, value) = (name.trim(), value.trim());
        if name.is_empty() || value.is_empty() {
            return Err(format!("--set takes NAME=VALUE, not `{text}`"));
        }
        Ok(Setting {
            name: name.to_string(),
            value: value.to_string(),
        })
    }
}

impl fmt::Display for Setting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Escaped, so that a value written over several lines reads on one.
        write!(
            f,
            "{}={}",
            self.name.escape_debug(),
            self.value.escape_debug()
        )
    }
}

/// A checked variant of a script. Settings of options are left to the game configuration: they are
/// checked and applied there, as `--option` is.
pub struct Variant {
    pub program: Program,
    /// The script's text with the settings written in (the script itself when nothing was set),
    /// followed by the card sheets it reads (`sheet::Sources::text`).
    pub source: String,
}

/// Why a variant could not be made.
pub enum VariantError {
    /// The script itself does not check: its diagnostics, against its own text.
    Script(Vec<crate::diag::Diagnostic>),
    /// A setting names nothing settable, or its value does not fit (a usage error).
    Setting(String),
}

/// What a setting changes in the script's text.
enum Target {
    Option,
    /// Replace this span of the text.
    Replace(Span),
    /// Insert `NAME VALUE` as a new line of a card before this offset (its closing brace).
    Insert(usize),
}

/// The script `source` with `settings` written in, checked.
pub fn variant(source: &str, settings: &[Setting]) -> Result<Variant, VariantError> {
    variant_with(source, settings, &no_files)
}

/// The script `source`, whose card sheets `read` reads, with `settings` written in, checked. A sheet's
/// cards are not in the script's text: a setting of one of them names no card of the script.
pub fn variant_with(
    source: &str,
    settings: &[Setting],
    read: ReadFile,
) -> Result<Variant, VariantError> {
    let analysis = analyse_with(source, read);
    let whole = analysis.sources.text;
    let checked = analysis.checked;
    let Some(program) = checked.program.as_ref() else {
        return Err(VariantError::Script(checked.diagnostics));
    };
    if settings.is_empty() {
        let program = checked.program.expect("checked above");
        return Ok(Variant {
            program,
            source: whole,
        });
    }
    for (i, s) in settings.iter().enumerate() {
        if settings[..i].iter().any(|t| t.name == s.name) {
            return Err(VariantError::Setting(format!(
                "--set {}: `{}` is set twice",
                s, s.name
            )));
        }
    }
    let (script, _) = cardgame_grammar::parse(source);
    let items = script.items.len();
    // Each edit: the span replaced, the text written there, the setting, and where in that text
    // the setting's value starts.
    let mut edits: Vec<(usize, usize, String, usize, usize)> = Vec::new();
    for (i, s) in settings.iter().enumerate() {
        match target(&script, program, s).map_err(VariantError::Setting)? {
            // An option is the game configuration's (`--option`), not the text's.
            Target::Option => {}
            Target::Replace(span) => edits.push((span.start, span.end, s.value.clone(), i, 0)),
            Target::Insert(at) => {
                let property = s.name.rsplit_once('.').map_or("", |(_, p)| p);
                let line = format!("\n  {property} ");
                let offset = line.len();
                edits.push((at, at, format!("{line}{}\n", s.value), i, offset));
            }
        }
    }
    if edits.is_empty() {
        let program = checked.program.expect("checked above");
        return Ok(Variant {
            program,
            source: whole,
        });
    }
    // Written from the end, so that the offsets of the edits before stay right; each value's place in
    // the edited text is then its start plus what the edits before it added.
    edits.sort_by_key(|e| e.0);
    let mut edited = source.to_string();
    for (start, end, text, _, _) in edits.iter().rev() {
        edited.replace_range(*start..*end, text);
    }
    let mut placed = Vec::new();
    let mut shift: isize = 0;
    for (start, end, text, i, offset) in &edits {
        let at = (*start as isize + shift) as usize + offset;
        placed.push((at, at + settings[*i].value.len(), *i));
        shift += text.len() as isize - (*end - *start) as isize;
    }
    let analysis = analyse_with(&edited, read);
    let edited_whole = analysis.sources.text;
    let checked = analysis.checked;
    let errors: Vec<_> = checked
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .collect();
    if let Some(d) = errors.first() {
        let span = d.span;
        let culprit = placed
            .iter()
            .find(|(a, b, _)| span.start < *b && span.end > *a)
            .map(|(_, _, i)| &settings[*i]);
        let message = &d.message;
        return Err(VariantError::Setting(match culprit {
            Some(s) => format!("--set {s}: {message} [{}]", d.code),
            None => {
                let all: Vec<String> = settings.iter().map(|s| s.to_string()).collect();
                format!(
                    "the script with --set {} does not check: {message} [{}]",
                    all.join(" --set "),
                    d.code
                )
            }
        }));
    }
    let program = checked.program.ok_or_else(|| {
        VariantError::Setting("the script with these settings does not check".into())
    })?;
    // Each value must be read as the one value it replaces: `4 card "X" { }` would add a card.
    let (script, _) = cardgame_grammar::parse(&edited);
    for (start, end, i) in placed {
        let s = &settings[i];
        let span = match target(&script, &program, s) {
            Ok(Target::Replace(span)) => Some(span),
            Ok(Target::Option | Target::Insert(_)) | Err(_) => None,
        };
        if span.map(|sp| (sp.start, sp.end)) != Some((start, end)) || script.items.len() != items {
            return Err(VariantError::Setting(format!(
                "--set {s}: `{}` is not one value (write one expression, as in the script)",
                s.value.escape_debug()
            )));
        }
    }
    Ok(Variant {
        program,
        source: edited_whole,
    })
}

/// What setting `s` changes, or why it names nothing settable.
fn target(script: &Script, program: &Program, s: &Setting) -> Result<Target, String> {
    if let Some((card, property)) = s.name.rsplit_once('.') {
        let card = card.trim().trim_matches('"');
        return card_target(script, program, s, card, property.trim());
    }
    let name = s.name.as_str();
    if program.options.iter().any(|o| o.name == name) {
        return Ok(Target::Option);
    }
    for item in &script.items {
        match item {
            Item::Var(v) if v.name.name == name => {
                return match v.scope {
                    Scope::Shared | Scope::PerPlayer => Ok(Target::Replace(v.init.span)),
                    Scope::PerCard | Scope::PerSpace => Err(format!(
                        "--set {s}: `{name}` is a variable of each card or space; only a shared \
                         variable's or a player's variable's starting value can be set"
                    )),
                };
            }
            Item::Fn(f) if f.name.name == name => {
                return match f.params.is_empty() && f.lets.is_empty() {
                    true => Ok(Target::Replace(f.body.span)),
                    false => Err(format!(
                        "--set {s}: the function `{name}` is not a constant (only a function \
                         without parameters whose body is `= E` can be set)"
                    )),
                };
            }
            _ => {}
        }
    }
    let mut names: Vec<&str> = program.options.iter().map(|o| o.name.as_str()).collect();
    for item in &script.items {
        match item {
            Item::Var(v) if matches!(v.scope, Scope::Shared | Scope::PerPlayer) => {
                names.push(&v.name.name)
            }
            Item::Fn(f) if f.params.is_empty() && f.lets.is_empty() => names.push(&f.name.name),
            _ => {}
        }
    }
    let kinds = program.kinds.iter().map(|k| k.name.as_str());
    Err(
        match did_you_mean(name, names.iter().copied().chain(kinds)) {
            Some(h) => {
                format!("--set {s}: the script has no option, variable or constant `{name}`: {h}")
            }
            None => format!(
                "--set {s}: the script has no option, variable or constant `{name}` (a card's \
             property is set as `Card.property=VALUE`)"
            ),
        },
    )
}

/// The place of `card.property` in the script.
fn card_target(
    script: &Script,
    program: &Program,
    s: &Setting,
    card: &str,
    property: &str,
) -> Result<Target, String> {
    let decl = script.items.iter().find_map(|i| match i {
        Item::Card(c) if c.name.plain().as_deref() == Some(card) => Some(c),
        _ => None,
    });
    let Some(decl) = decl else {
        let families = script
            .items
            .iter()
            .any(|i| matches!(i, Item::Card(c) if !c.family.is_empty()));
        let sheets = script.items.iter().any(|i| matches!(i, Item::CardsFrom(_)));
        if sheets && !families && program.kinds.iter().any(|k| k.name == card) {
            return Err(format!(
                "--set {s}: \"{card}\" is a card of a sheet (`cards from`); change its row in the sheet"
            ));
        }
        if program.kinds.iter().any(|k| k.name == card) {
            return Err(format!(
                "--set {s}: \"{card}\" is a card of a family (`card \"...\" for ...`); set what \
                 the family's cards share in the script"
            ));
        }
        let kinds = program.kinds.iter().map(|k| k.name.as_str());
        return Err(match did_you_mean(card, kinds) {
            Some(h) => format!("--set {s}: the script has no card \"{card}\": {h}"),
            None => format!("--set {s}: the script has no card \"{card}\""),
        });
    };
    if !decl.family.is_empty() {
        return Err(format!(
            "--set {s}: \"{card}\" is a family of cards; set what its cards share in the script"
        ));
    }
    let declared: Vec<&str> = script
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Property(p) => Some(p.name.name.as_str()),
            _ => None,
        })
        .collect();
    if property != "copies" && !declared.contains(&property) {
        let names = declared.iter().copied().chain(["copies"]);
        return Err(match did_you_mean(property, names) {
            Some(h) => format!("--set {s}: cards have no property `{property}`: {h}"),
            None => format!(
                "--set {s}: cards have no property `{property}` (the script declares {})",
                match declared.is_empty() {
                    true => "none; `copies` can be set".to_string(),
                    false => format!("{}, and `copies`", declared.join(", ")),
                }
            ),
        });
    }
    Ok(match written(decl, property) {
        Some(span) => Target::Replace(span),
        None => Target::Insert(closing_brace(decl)),
    })
}

/// The span of the value card `decl` writes for `property` (`copies` included), if it writes one.
fn written(decl: &CardDecl, property: &str) -> Option<Span> {
    decl.items.iter().find_map(|item| match item {
        CardItem::Copies(e, _) if property == "copies" => Some(e.span),
        CardItem::Property(name, e, _) if name.name == property => Some(e.span),
        _ => None,
    })
}

/// The offset of a card declaration's closing brace.
fn closing_brace(decl: &CardDecl) -> usize {
    decl.span.end.saturating_sub(1)
}
