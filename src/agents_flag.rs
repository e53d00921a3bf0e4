//! Command line: the help of `--agents` for each command that takes it (docs/cli.md, Agents), short
//! (`-h`) and long (`--help`).

use cardgame_interpreter::agents::AGENT_NAMES;

/// Which command lists the agents: each says what `--agents` means for it.
#[derive(Clone, Copy)]
pub enum AgentsFor {
    Run,
    Sim,
    Tournament,
    Play,
}

/// The spec form and a short description of each agent of `AGENT_NAMES` (docs/cli.md, Agents).
fn agent_form(name: &str) -> (String, &'static str) {
    match name {
        "random" => (name.into(), "uniformly at random among the legal options"),
        "first" => (name.into(), "always the first legal option"),
        "greedy" => (
            name.into(),
            "one step of look-ahead, judged by the script's `fn heuristic` (or `score`)",
        ),
        "mcts" => (
            "mcts[:N|:T]".into(),
            "Monte Carlo tree search: N iterations (200) or a time T (1s, 250ms) per decision",
        ),
        "ismcts" => (
            "ismcts[:N|:T|:Npositions|:B:POLICY[:TURNS][:strict[=NAME]][:owners]]".into(),
            "information-set MCTS over worlds consistent with what the seat saw (1,000 iterations)",
        ),
        "search" => (
            "search[:T|:N|:Npositions][:now][:mast][:deep[=N]][:noprior][:nomodel][:infer]".into(),
            "the default search (50ms a decision; 2000positions: about as long, the same on any machine); with --model, judged by a learned model",
        ),
        "learned" => (
            name.into(),
            "one step of look-ahead judged by a learned model (--model, from `cardgame learn`)",
        ),
        "strategy" => (
            "strategy:NAME".into(),
            "a strategy written in the script (`cardgame strategies FILE` lists them)",
        ),
        _ => (name.into(), "see docs/cli.md, Agents"),
    }
}

/// What `--agents` means for the command.
fn agents_intro(what: AgentsFor) -> &'static str {
    match what {
        AgentsFor::Run => {
            "Agents by seat, comma separated (`random,greedy`); the last one fills the remaining seats"
        }
        AgentsFor::Sim => {
            "Agents by seat, comma separated; the last one fills the remaining seats; they are rotated \
             round the seats game by game unless --no-rotate"
        }
        AgentsFor::Tournament => "The agents, comma separated: at least two, all different",
        AgentsFor::Play => {
            "Agents for the other seats, comma separated in seat order (yours is skipped); the last one \
             fills the remaining seats"
        }
    }
}

/// The short help of `--agents` (`-h`): what it means, and the agents' spec forms.
pub fn agents_help(what: AgentsFor) -> String {
    let forms: Vec<String> = AGENT_NAMES.iter().map(|n| agent_form(n).0).collect();
    format!("{}. Agents: {}", agents_intro(what), forms.join(", "))
}

/// The long help of `--agents` (`--help`): what it means, then every agent with what it plays.
pub fn agents_long_help(what: AgentsFor) -> String {
    let forms: Vec<(String, &str)> = AGENT_NAMES.iter().map(|n| agent_form(n)).collect();
    let width = forms.iter().map(|(f, _)| f.len()).max().unwrap_or(0);
    let mut s = format!("{}.\n\nAgents (docs/cli.md, Agents):", agents_intro(what));
    for (form, what) in forms {
        s.push_str(&format!("\n  {form:width$}  {what}"));
    }
    s
}
