//! Editor set-ups: the files in `editors/` agree with the language (every keyword is highlighted) and with
//! docs/editors.md, and each starts `cardgame lsp`.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn read(path: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_vscode_extension_is_complete_and_highlights_every_keyword() {
    let package: Value = serde_json::from_str(&read("editors/vscode/package.json")).expect("JSON");
    let language = &package["contributes"]["languages"][0];
    assert_eq!(language["id"], "cardgame");
    assert_eq!(language["extensions"][0], ".cardgame");
    let main = package["main"].as_str().expect("main");
    let extension = read(&format!("editors/vscode/{}", main.trim_start_matches("./")));
    assert!(
        extension.contains("args: [\"lsp\"]"),
        "extension.js starts `cardgame lsp`"
    );
    let config = language["configuration"].as_str().expect("configuration");
    let _: Value = serde_json::from_str(&read(&format!(
        "editors/vscode/{}",
        config.trim_start_matches("./")
    )))
    .expect("language configuration is JSON");
    let path = package["contributes"]["grammars"][0]["path"]
        .as_str()
        .expect("grammar path");
    let grammar: Value = serde_json::from_str(&read(&format!(
        "editors/vscode/{}",
        path.trim_start_matches("./")
    )))
    .expect("the grammar is JSON");
    assert_eq!(
        grammar["scopeName"],
        package["contributes"]["grammars"][0]["scopeName"]
    );

    // The words of the `\b(a|b|c)\b` keyword patterns are the language's keywords, no more, no fewer.
    let mut highlighted = BTreeSet::new();
    for p in grammar["repository"]["keywords"]["patterns"]
        .as_array()
        .expect("patterns")
    {
        let m = p["match"].as_str().expect("match");
        if let Some(inner) = m.strip_prefix("\\b(").and_then(|m| m.strip_suffix(")\\b")) {
            highlighted.extend(inner.split('|').map(str::to_string));
        }
    }
    let keywords: BTreeSet<String> = cardgame_grammar::KEYWORDS
        .iter()
        .map(|k| k.to_string())
        .collect();
    assert_eq!(highlighted, keywords);
}

#[test]
fn neovim_and_helix_start_the_server_as_the_docs_say() {
    let docs = read("docs/editors.md");
    let helix = read("editors/helix/languages.toml");
    let neovim = read("editors/neovim/cardgame.lua");
    assert!(helix.contains("command = \"cardgame\"") && helix.contains("args = [\"lsp\"]"));
    assert!(neovim.contains("cmd = { \"cardgame\", \"lsp\" }"));
    // The docs show each file whole, but for its first line (a comment saying where it goes).
    for (name, file) in [("helix", &helix), ("neovim", &neovim)] {
        let body = file.split_once('\n').map_or("", |(_, b)| b);
        assert!(
            docs.contains(body),
            "docs/editors.md shows editors/{name} as it is"
        );
    }
}
