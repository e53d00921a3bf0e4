//! Grammar stage: every ```cardgame block of the language reference must parse without errors.

use std::path::Path;

/// The ```cardgame blocks of a markdown text, with the line each starts on.
fn cardgame_blocks(markdown: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (n, line) in markdown.lines().enumerate() {
        let trimmed = line.trim_start();
        match current.take() {
            None => {
                if trimmed.starts_with("```cardgame") {
                    current = Some((n + 1, String::new()));
                }
            }
            Some((start, mut text)) => {
                if trimmed.starts_with("```") {
                    blocks.push((start, text));
                } else {
                    text.push_str(line);
                    text.push('\n');
                    current = Some((start, text));
                }
            }
        }
    }
    blocks
}

#[test]
fn every_cardgame_block_of_the_language_reference_parses() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/language.md");
    let markdown = std::fs::read_to_string(&path).expect("docs/language.md is readable");
    let blocks = cardgame_blocks(&markdown);
    assert!(
        blocks.len() >= 10,
        "found only {} cardgame blocks",
        blocks.len()
    );
    let mut failures = Vec::new();
    for (line, block) in &blocks {
        let (script, errors) = cardgame_grammar::parse(block);
        if !errors.is_empty() {
            for e in &errors {
                let at = &block[e.span.start.min(block.len())..];
                failures.push(format!(
                    "block at docs/language.md:{line}: {} (at {:?})\n  help: {:?}",
                    e.message,
                    at.lines().next().unwrap_or(""),
                    e.help
                ));
            }
        }
        assert!(
            !script.items.is_empty() || !errors.is_empty(),
            "block at line {line} parsed to nothing"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `CONTEXTUAL_WORDS` (completed by editors) lists exactly the grammar's contextual words.
#[test]
fn the_contextual_words_are_those_of_the_grammar() {
    let pest = include_str!("../src/cardgame.pest");
    let mut from_grammar: Vec<&str> = pest
        .lines()
        .filter_map(|l| l.strip_prefix("/// Contextual word `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    from_grammar.sort();
    from_grammar.dedup();
    let mut listed = cardgame_grammar::CONTEXTUAL_WORDS.to_vec();
    listed.sort();
    assert_eq!(listed, from_grammar);
}
