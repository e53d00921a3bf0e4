//! Language server stage: what each word of the language does, for hover — one table, a few lines per
//! keyword and the section of docs/language.md that tells the rest.

/// A section of docs/language.md, as the pointer a hover ends with.
#[derive(Clone, Copy)]
enum Doc {
    Header,
    Tags,
    Properties,
    Cards,
    Zones,
    Spaces,
    Variables,
    Flow,
    Statements,
    Procedures,
    Decisions,
    Actions,
    Triggers,
    Checks,
    Expressions,
    Tests,
    Strategies,
    RuleSets,
    Statistics,
    Participants,
}

impl Doc {
    /// The section's title and its anchor in docs/language.md.
    fn section(self) -> (&'static str, &'static str) {
        match self {
            Doc::Header => ("The header", "the-header"),
            Doc::Tags => ("Tags", "tags"),
            Doc::Properties => ("Properties", "properties"),
            Doc::Cards => ("Cards", "cards"),
            Doc::Zones => ("Zones", "zones"),
            Doc::Spaces => ("Spaces", "spaces"),
            Doc::Variables => ("Variables", "variables"),
            Doc::Flow => ("Setup and flow", "setup-and-flow"),
            Doc::Statements => ("Statements", "statements"),
            Doc::Procedures => ("Procedures and functions", "procedures-and-functions"),
            Doc::Decisions => ("Decisions", "decisions"),
            Doc::Actions => ("Actions and action menus", "actions-and-action-menus"),
            Doc::Triggers => (
                "Abilities, events and triggers",
                "abilities-events-and-triggers",
            ),
            Doc::Checks => (
                "Checks, failure and strict blocks",
                "checks-failure-and-strict-blocks",
            ),
            Doc::Expressions => ("Expressions", "expressions"),
            Doc::Tests => ("Rules tests", "rules-tests"),
            Doc::Strategies => ("Strategies", "strategies"),
            Doc::RuleSets => ("Rule sets", "rule-sets-rules-and-use"),
            Doc::Statistics => ("Statistics", "statistics"),
            Doc::Participants => (
                "Participants that are not seats",
                "participants-that-are-not-seats",
            ),
        }
    }
}

/// Every word of the grammar (its `k_*` rules) with what it does, in alphabetical order. A test reads
/// the grammar and fails for a word missing here.
const KEYWORDS: &[(&str, &str, Doc)] = &[
    ("abilities", "`abilities play, defense`: declares the names of the abilities cards may print; `perform A of C` runs one.", Doc::Triggers),
    ("ability", "`ability NAME { ... }` on a card line: the card's block for ability NAME. `c has ability A`: whether card C prints it.", Doc::Triggers),
    ("action", "`action NAME(x in L) [label \"text\"] [if C] { ... }`: a choice offered in an action menu, one option per legal combination of arguments.", Doc::Actions),
    ("actions", "`actions by P until pass [a, b]` (or `once`, `once or pass`, `times N`): an action menu; P chooses among the legal options of the actions listed.", Doc::Actions),
    ("and", "`A and B`: true when both are (B is not evaluated when A is false).", Doc::Expressions),
    ("any", "`choose any x in L`: any number of elements, one at a time, ended with `done`. `any(x in L where C)`: whether one element meets C.", Doc::Decisions),
    ("as", "`perform A of C as T`: runs card C's ability with `this` bound to T (a copy effect).", Doc::Statements),
    ("bool", "The type of truth values (`true`, `false`): `var ready: bool = false`, a `bool` property or option.", Doc::Variables),
    ("bottom", "`bottom of Z`, `bottom N of Z`: the bottom cards of a pile; `move E to Z bottom` puts cards under it.", Doc::Expressions),
    ("break", "`break`: leaves the innermost loop (`for`, `while`, `repeat`, `loop`); E205 outside one.", Doc::Statements),
    ("by", "Who decides: `choose ... by P`, `actions by P`; `perform ... by P` sets `you`; `sort(x in L by E)` orders; `table by players`; `teams by VAR`.", Doc::Decisions),
    ("card", "`card \"Name\" { ... }`: a card: tags (`is`), `copies`, property values, `text`, abilities and triggers; `card \"{x}\" for x in L` a family. `card` is also a type.", Doc::Cards),
    ("cards", "`cards from \"FILE.tsv\" { card \"Name\" { ... } }`: the card list read from a CSV or TSV sheet beside the script, a row per card (name, copies, tags, properties, text); abilities and triggers stay in the script, a `card` block per name. `cards(k, Z)` is also the builtin that lists the cards of kind k in Z.", Doc::Cards),
    ("check", "`check { ... }`: runs before every decision and at the end of every turn, to end the game at once (`win`); it cannot make decisions (E203).", Doc::Checks),
    ("choose", "`choose [N | up to N | any | order] x in L [where C] [by P] [prompt \"...\"]`, `choose by P { \"label\" { ... } }`: a decision. In a test, `choose \"label\"` takes an option.", Doc::Decisions),
    ("columns", "`columns a, b, c` in a `table`: the names of its columns, each a constant that depends on the player count.", Doc::Header),
    ("copies", "`copies N` on a card: how many copies are in the game (an expression over `players`, options and table constants; 0 to 100,000).", Doc::Cards),
    ("decider", "`expect decider P` in a rules test: P decides the pending decision.", Doc::Tests),
    ("diagonal", "`spaces board: grid W by H diagonal`: spaces that touch at a corner are adjacent too.", Doc::Spaces),
    ("do", "`do { ... }` in a rules test: changes the position (no decision); a pending action menu is listed again.", Doc::Tests),
    ("down", "`face down`: `move E to Z face down`; a face-down card shows nobody its face (but the owner of an `owner` zone).", Doc::Statements),
    ("eliminate", "`eliminate P`: P is out of the game (skipped by turns, left out of `everyone`); `eliminate P for round`: out only until the running `round` ends (E211 without one).", Doc::Statements),
    ("else", "`if C { } else { }`, `else if`; in an expression `if C then A else B`.", Doc::Statements),
    ("emit", "`emit E(args)`: announces event E; its triggers (`on E(...)`) run at once, before the next statement.", Doc::Triggers),
    ("end", "`end turn`, `end phase`, `end round`: leave the running turn, phase or round at once.", Doc::Flow),
    ("event", "`event NAME(p: player, ...)`: declares an event with typed parameters, announced with `emit` and answered by `on` triggers.", Doc::Triggers),
    ("expect", "`expect C` in a rules test (and `expect options has`, `decider`, `winners`, `over`, `not over`, `log`, `strategy S picks`): the step fails unless it holds.", Doc::Tests),
    ("face", "`face up` / `face down` after `move E to Z`: the face the cards land with (else the zone's default: up in a public zone).", Doc::Statements),
    ("false", "The truth value false.", Doc::Expressions),
    ("flow", "`flow { ... }`: the game itself, run after `setup`: turns, phases, rounds and decisions until a `win`.", Doc::Flow),
    ("fn", "`fn NAME(p: player): int = E`: a function, a named expression with typed parameters (no effects).", Doc::Procedures),
    ("for", "`for x in L [where C] { }`, `for (a, b) in L`: a loop over a list or a zone. `eliminate P for round`. `[E for x in L]`, `sum(E for x in L)`. `card \"{x}\" for x in L`.", Doc::Statements),
    ("from", "`from(p)`: the living players from p round the table. `pay E from T`; `refill from Z` on a pile.", Doc::Expressions),
    ("game", "`game \"Name\" { players 2..4  option ... }`: the header: the supported player counts, the options, `teams by`.", Doc::Header),
    ("given", "`given { ... }` in a rules test: arranges the position after `setup`, before the flow starts.", Doc::Tests),
    ("grid", "`spaces board: grid W by H`: a board of spaces `(x, y)`, adjacent when they share a side.", Doc::Spaces),
    ("has", "`expect options has \"label\"` in a rules test; `c has ability A`: whether card C prints ability A.", Doc::Tests),
    ("hidden", "A zone's visibility: nobody sees its cards, only how many (`zone deck: pile, hidden`).", Doc::Zones),
    ("hide", "`hide E`: turns the cards face down where they lie.", Doc::Statements),
    ("if", "`if C { } else { }`: a condition; `if C then A else B` a conditional value; `action ... if C`, `prefer ... if C` a condition of legality or of a rule.", Doc::Statements),
    ("in", "`x in L`: membership; the domain of a `for`, `choose`, action parameter or aggregate; `on E(...) in Z`: a card trigger while the card lies in zones Z.", Doc::Expressions),
    ("int", "The type of whole numbers: `var coins: int = 0`, `option n: int 1..9 = 3`, `stat NAME[int]`.", Doc::Variables),
    ("is", "`c is Tag`, `c is \"Kind\"`, `c is not Tag`: a tag or kind test; `is Tag` on a card line gives the card its tags.", Doc::Expressions),
    ("kind", "The type of card kinds (what a card is, not one copy): `c.kind`, `let k: kind = \"Gold\"`.", Doc::Variables),
    ("kinds", "`property recipe: kinds`: a property that is a list of card kinds. `kinds(L)`: the distinct kinds of a list of cards.", Doc::Properties),
    ("label", "`action ... label \"Buy {c}\"`: the text of the action's options, in menus, traces and tests.", Doc::Actions),
    ("lacks", "`expect options lacks \"label\"` in a rules test: the pending decision does not offer it.", Doc::Tests),
    ("let", "`let x = E`, `let x: TYPE = E`: a local name for this block; with a type, card names in quotes are kinds.", Doc::Statements),
    ("list", "`list of T`: the type of lists (`var chosen per player: list of card = []`).", Doc::Variables),
    ("log", "`log \"text\"`: a line of the trace; `log \"text\" to P`: a line of P's private log, in the whole trace and P's view only.", Doc::Statements),
    ("loop", "`loop { ... }`: repeats until `break`, `win` or the end of the game.", Doc::Statements),
    ("max", "`max(a, b)`, `max(E for x in L)`: the greater; `var ... max E` clamps a variable; `zone ... max N` holds at most N cards.", Doc::Expressions),
    ("min", "`min(a, b)`, `min(E for x in L)`: the smaller; `var ... min E` clamps a variable from below.", Doc::Expressions),
    ("move", "`move E to Z [top|bottom] [face up|face down]`: moves a card, cards or a zone's cards to zone Z (fails for `none` or a full zone).", Doc::Statements),
    ("names", "`names Alex, Bob` in a rules test: the names of seats 1, 2, ... inside the test.", Doc::Tests),
    ("none", "The absent value: no card, no player; `none` fits any type.", Doc::Expressions),
    ("not", "`not C`: the opposite; `c is not Tag`; `expect not over`.", Doc::Expressions),
    ("of", "`top N of Z`, `perform A of C`, `list of T`, `option n: one of a, b`.", Doc::Expressions),
    ("on", "`on E(args) [in Z] [if C] { ... }`: a trigger, run every time event E is emitted (on a card: while the card lies in Z).", Doc::Triggers),
    ("once", "`actions by P once [...]`: one action from the menu; `once or pass` lets P pass instead.", Doc::Actions),
    ("one", "`option mode: one of open, duel = open`: an option whose value is one of named values.", Doc::Header),
    ("option", "`option NAME: bool | int A..B | one of a, b = V \"description\"` in the header: a setting of the game (`--option NAME=V`); `option NAME = V` in a test.", Doc::Header),
    ("options", "In a rules test: `options` is the list of the pending decision's labels; `expect options has/lacks \"label\"`.", Doc::Tests),
    ("or", "`A or B`: true when either is (B is not evaluated when A is true); `once or pass`.", Doc::Expressions),
    ("order", "`choose order x in L`: every element, in the order the player wants (the last placed without asking).", Doc::Decisions),
    ("others", "A zone's visibility: every player but its owner sees its cards (a hand held facing the table); only on a zone per player or per card (E316).", Doc::Zones),
    ("otherwise", "`otherwise AGENT` in a strategy: the agent that decides when no rule applies (default `random`).", Doc::Strategies),
    ("over", "`expect over` / `expect not over` in a rules test: the game has ended, or goes on.", Doc::Tests),
    ("owner", "A zone's visibility: its owner sees its cards, the others how many. `c.owner`: the player whose zone holds card C.", Doc::Zones),
    ("participant", "`participant NAME \"Name\"`: a player that is not a seat (the bank, the dealer): it holds cards and wins, takes no turn and no decision.", Doc::Participants),
    ("pass", "`actions by P until pass [...]`: the menu repeats until P takes `pass`; `pass` is also the label of that option (`prefer pass if C`).", Doc::Actions),
    ("pay", "`pay E from T`: takes E from a variable that holds at least E; otherwise takes nothing and fails.", Doc::Statements),
    ("per", "`per player`, `per card`, `per space`: one variable or zone for each of them (`p.coins`, `c.kept`, `s.tile`).", Doc::Variables),
    ("perform", "`perform A of C [as T] [by P]`: runs ability A of card C (fails when C lacks it).", Doc::Statements),
    ("phase", "`phase NAME { ... }`: a named part of a turn; `end phase` leaves it.", Doc::Flow),
    ("picks", "`expect strategy NAME picks \"label\"` in a rules test: the strategy's rules pick this option now.", Doc::Tests),
    ("pile", "A zone kept in order, with a top and a bottom (the default): `zone deck: pile, hidden`.", Doc::Zones),
    ("player", "The type of players: `var marker: player = seat(1)`; `per player` makes one for each seat.", Doc::Variables),
    ("players", "`players 2..4` in the header (and `players N` in a test): the player counts; in an expression, the number of seats; `table by players`.", Doc::Header),
    ("prefer", "`prefer ACTION(args) [if C] [by E]`: a rule of a strategy, tried in order; the first that applies picks the option.", Doc::Strategies),
    ("private", "`var NAME per player private`: a variable only its owner sees (the others' views say it is hidden).", Doc::Variables),
    ("proc", "`proc NAME(p: player) [: TYPE] { ... }`: a procedure, a block of statements with parameters; called as a statement.", Doc::Procedures),
    ("prompt", "`choose ... prompt \"text\"`: the question shown to the decider.", Doc::Decisions),
    ("property", "`property NAME: int | bool | kinds [= V]`: a value cards may set (`cost 3` on a card line), read as `c.cost`.", Doc::Properties),
    ("public", "A zone's visibility: everyone sees its cards (the default).", Doc::Zones),
    ("refill", "`refill from Z` on a pile: when a statement needs more cards than it holds, the cards of Z are shuffled beneath them.", Doc::Zones),
    ("repeat", "`repeat N { ... }`: runs the block N times.", Doc::Statements),
    ("require", "`require C`: fails when C is false (the rest of a `strict` block is skipped).", Doc::Checks),
    ("return", "`return E`: leaves a procedure declared with a result type, giving E (E208 elsewhere).", Doc::Procedures),
    ("reveal", "`reveal E`: turns the cards face up where they lie; everyone sees them.", Doc::Statements),
    ("round", "`round { ... }`: a round (a hand) of the flow: when it ends, or `end round` leaves it, the players out for the round (`eliminate P for round`) are back.", Doc::Flow),
    ("rules", "`rules NAME { prefer ... }`: a rule set, a named list of strategy rules that strategies splice in with `use NAME`.", Doc::RuleSets),
    ("seed", "`seed N` in a rules test: the seed of the game's generator (default 1).", Doc::Tests),
    ("set", "A zone whose order does not matter (`zone hand per player: set`): identical cards are offered once in decisions.", Doc::Zones),
    ("setup", "`setup { ... }`: runs once before the flow, with no player acting (`you` is E206 there).", Doc::Flow),
    ("show", "`show E to P`: player P sees these cards until each next moves; the trace says what was shown, other seats see that a card was shown.", Doc::Statements),
    ("shown", "`var ... shown`: a per-player variable shown in every view; `zone ... shown by P then Q`: the order views list a zone's cards.", Doc::Zones),
    ("shuffle", "`shuffle Z`: shuffles a pile with the game's generator.", Doc::Statements),
    ("simultaneously", "`simultaneously q in L choose x in D { ... }`: every player in L chooses against the same position, unseen by the others; then the block runs for each.", Doc::Decisions),
    ("space", "The type of board spaces: `s.x`, `s.y`, `at(x, y)`; `per space` makes a zone on each.", Doc::Spaces),
    ("spaces", "`spaces board: grid W by H [diagonal]`: a board of spaces with adjacency.", Doc::Spaces),
    ("start", "`start NAME(args)` in a rules test: runs this procedure instead of the flow; when it returns the game is not over.", Doc::Tests),
    ("stat", "`stat NAME \"description\"`: a statistic for `cardgame sim`, recorded with `stat NAME = E` (values) or `+= E` (a count per game), never in the trace; `stat NAME[TYPE]` keeps it per key (`stat bust[K] = E`); `stat NAME` reads it in a test.", Doc::Statistics),
    ("stop", "`stop`: leaves the current procedure, ability or trigger.", Doc::Statements),
    ("strategy", "`strategy NAME \"description\" { prefer ... }`: a fixed way to play, ordered rules (`--agents strategy:NAME`); `expect strategy NAME picks` in a test.", Doc::Strategies),
    ("strict", "`strict { ... }`: the first statement that fails stops the rest of the block (at any depth of what it runs).", Doc::Checks),
    ("table", "`table by players { columns a, b  2: 1, 2 ... }`: constants that depend on the player count, one global per column.", Doc::Header),
    ("tag", "The type of tags: `var t: tag = Red`; a card's tag of a group is `c.suit`.", Doc::Tags),
    ("tags", "`tags NAME: A, B, C`: a group of labels cards carry (`is A`), tested with `c is A`, read as `c.NAME`.", Doc::Tags),
    ("team", "`win team E \"reason\"`: the game ends, won by every player whose team (`teams by VAR`) is E.", Doc::Header),
    ("teams", "`teams by VAR` in the header: the partnerships, VAR a per-player variable holding each player's team.", Doc::Header),
    ("test", "`test \"name\" { players 2 ... choose \"label\" expect C }`: a rules test, a game walked through decisions with assertions (`cardgame test`).", Doc::Tests),
    ("text", "`text \"...\"` on a card line: its rules text. `text` is also the type of texts (`var why: text = \"\"`).", Doc::Cards),
    ("then", "`if C then A else B`: a conditional value; `shown by P then Q`.", Doc::Expressions),
    ("times", "`actions by P times N [...]`: N actions from the menu.", Doc::Actions),
    ("to", "`move E to Z`, `show E to P`, `log \"text\" to P`.", Doc::Statements),
    ("top", "`top of Z`, `top N of Z`: the top cards of a pile (refilling it if it has `refill from`); `move E to Z top`.", Doc::Expressions),
    ("true", "The truth value true.", Doc::Expressions),
    ("turn", "`turn P { ... }`: P's turn (skipped when P is out); `end turn` leaves it; `turn_start` and `turn_end` events.", Doc::Flow),
    ("until", "`actions by P until pass [...]`: the menu repeats until P passes.", Doc::Actions),
    ("up", "`face up`: `move E to Z face up`; `choose up to N x in L`: at most N elements, ended with `done`.", Doc::Decisions),
    ("use", "`use NAME` in a strategy or rule set: splices in the rules of rule set NAME.", Doc::RuleSets),
    ("var", "`var NAME [per player|card] [private] [shown]: TYPE = E [min E] [max E]`: a variable of the game.", Doc::Variables),
    ("where", "`where C`: keeps the elements that meet C (`for`, `choose`, `count`, `filter`, action parameters).", Doc::Expressions),
    ("while", "`while C { ... }`: repeats while C holds.", Doc::Statements),
    ("win", "`win L \"reason\"`: the game ends, won by player or list L (`[]`: nobody); `win team E`.", Doc::Statements),
    ("winners", "`expect winners [P, ...]` in a rules test: the game ended with these winners (in any order).", Doc::Tests),
    ("zone", "`zone NAME [per player|card|space]: pile|set, public|owner|others|hidden [, refill from Z] [, max N] [, shown by P]`: a place that holds cards.", Doc::Zones),
];

/// The hover text of a word of the language, `None` for a word that is not one.
pub fn hover_text(word: &str) -> Option<String> {
    let i = KEYWORDS.binary_search_by(|(w, _, _)| w.cmp(&word)).ok()?;
    let (w, text, doc) = KEYWORDS[i];
    let (title, anchor) = doc.section();
    Some(format!(
        "keyword `{w}`\n\n{text}\n\nSee docs/language.md#{anchor} ({title})."
    ))
}

/// Every word of the table, in order.
#[cfg(test)]
pub fn words() -> impl Iterator<Item = &'static str> {
    KEYWORDS.iter().map(|(w, _, _)| *w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_order_and_every_section_exists_in_the_docs() {
        assert!(KEYWORDS.windows(2).all(|w| w[0].0 < w[1].0));
        let docs = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/language.md"),
        )
        .expect("docs/language.md");
        let anchors: Vec<String> = docs
            .lines()
            .filter(|l| l.starts_with('#'))
            .map(|l| {
                l.trim_start_matches('#')
                    .trim()
                    .to_lowercase()
                    .chars()
                    .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-')
                    .map(|c| if c == ' ' { '-' } else { c })
                    .collect()
            })
            .collect();
        for (w, _, doc) in KEYWORDS {
            let (_, anchor) = doc.section();
            assert!(
                anchors.iter().any(|a| a == anchor),
                "`{w}`: no section #{anchor} in docs/language.md"
            );
        }
    }
}
