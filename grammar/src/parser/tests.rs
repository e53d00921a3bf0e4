use super::error::{did_you_mean, edit_distance, keyword_name};
use super::exprs::unescape;
use super::*;

const GRAMMAR: &str = include_str!("../cardgame.pest");

/// The `k_...` rules listed in the body of a grammar rule.
fn keyword_rules_of(rule: &str) -> Vec<String> {
    let start = GRAMMAR
        .find(&format!("\n{rule} = "))
        .expect("rule in grammar");
    let body = &GRAMMAR[start..];
    let end = body.find("}\n").expect("end of rule");
    body[..end]
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| w.starts_with("k_"))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_reserved_word_has_its_keyword_rule() {
    let rules: Vec<String> = Rule::all_rules().iter().map(|r| format!("{r:?}")).collect();
    let reserved = reserved();
    assert_eq!(reserved.len(), 77);
    for k in &reserved {
        assert!(rules.contains(k), "{k}");
    }
}

#[test]
fn every_keyword_rule_has_its_word() {
    for r in Rule::all_rules() {
        let name = format!("{r:?}");
        if let Some(word) = name.strip_prefix("k_") {
            assert_eq!(
                keyword_name(*r),
                Some(format!("`{word}`").as_str()),
                "{name}"
            );
        }
    }
}

/// The words of the `keyword` rule (written `"a" ~ ("bilities" | "nd" | ...)`), as
/// `k_...` rule names.
fn reserved() -> Vec<String> {
    let start = GRAMMAR.find("\nkeyword = @{").expect("keyword rule");
    let body = &GRAMMAR[start..];
    let body = &body[..body.find("\n}\n").expect("end of rule")];
    let mut words = Vec::new();
    for line in body.lines().filter(|l| l.contains(" ~ (")) {
        let quoted: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
        if let Some((first, rest)) = quoted.split_first() {
            words.extend(rest.iter().map(|r| format!("k_{first}{r}")));
        }
    }
    words
}

#[test]
fn reserved_words_are_not_names_and_contextual_words_are() {
    let reserved = reserved();
    assert!(reserved.len() > 60);
    for r in Rule::all_rules() {
        let name = format!("{r:?}");
        let Some(word) = name.strip_prefix("k_") else {
            continue;
        };
        let src = format!("proc p() {{ let {word} = 1 }}");
        let (_, errors) = parse(&src);
        if reserved.contains(&name) {
            assert!(
                !errors.is_empty(),
                "`{word}` is reserved but parsed as a name"
            );
        } else {
            assert!(
                errors.is_empty(),
                "`{word}` is contextual but not a name: {errors:?}"
            );
        }
    }
}

#[test]
fn top_level_keywords_match_the_grammar() {
    let in_grammar: Vec<String> = keyword_rules_of("item_keyword")
        .iter()
        .map(|k| k.trim_start_matches("k_").to_string())
        .collect();
    assert_eq!(in_grammar, TOP_LEVEL_KEYWORDS);
    let reserved = reserved();
    for k in STATEMENT_KEYWORDS {
        assert!(reserved.contains(&format!("k_{k}")), "{k}");
    }
}

#[test]
fn edit_distance_counts_transpositions_once() {
    assert_eq!(edit_distance("crad", "card"), 1);
    assert_eq!(edit_distance("card", "card"), 0);
    assert_eq!(edit_distance("", "abc"), 3);
    assert_eq!(edit_distance("zone", "zones"), 1);
    assert_eq!(edit_distance("kitten", "sitting"), 3);
    assert_eq!(did_you_mean("crad", TOP_LEVEL_KEYWORDS), Some("card"));
    assert_eq!(did_you_mean("setpu", TOP_LEVEL_KEYWORDS), Some("setup"));
    assert_eq!(did_you_mean("banana", TOP_LEVEL_KEYWORDS), None);
    // A short word is not "close" to everything.
    assert_eq!(did_you_mean("x", TOP_LEVEL_KEYWORDS), None);
}

#[test]
fn unescape_resolves_escapes_and_doubled_braces() {
    assert_eq!(unescape(r#"a\"b\\c\nd{{e}}"#), "a\"b\\c\nd{e}");
    assert_eq!(unescape("}"), "}");
}

#[test]
fn nesting_check_counts_brackets_but_not_text_or_comments() {
    let deep = "(".repeat(MAX_NESTING + 1);
    assert!(check_nesting(&deep).is_some());
    assert!(check_nesting(&"(".repeat(MAX_NESTING)).is_none());
    let braces_in_text = format!("\"{}\"", "{{".repeat(1000));
    assert!(check_nesting(&braces_in_text).is_none());
    let in_comment = format!("// {}\n", "(".repeat(1000));
    assert!(check_nesting(&in_comment).is_none());
    let interpolations = format!("\"{}", "{\"".repeat(MAX_NESTING));
    assert!(check_nesting(&interpolations).is_some());
}

#[test]
fn recovery_prefers_lines_not_indented_more_than_the_bad_item() {
    let src = "card \"A\" {\n  bad bad bad\n  on x() { }\n}\nzone z\n";
    let err = src.find("bad bad").unwrap() + 4;
    assert_eq!(recovery_point(src, 0, err), src.find("zone"));
    // Without any item keyword after the error, nothing.
    assert_eq!(recovery_point("card \"A\" { bad", 0, 11), None);
}

#[test]
fn the_keyword_list_is_the_grammars_and_the_docs() {
    for k in super::KEYWORDS {
        assert!(
            super::error::is_keyword(k),
            "`{k}` is not a keyword of the grammar"
        );
    }
    for w in ["strategy", "prefer", "otherwise", "stat", "coins", "cards"] {
        assert!(!super::error::is_keyword(w), "`{w}` is a keyword");
    }
    let doc = include_str!("../../../docs/language.md");
    let start = doc
        .find("They are: `abilities`")
        .expect("the docs list the keywords");
    let end = start + doc[start..].find("(`strategy`").expect("the list ends");
    let listed: Vec<&str> = doc[start..end].split('`').skip(1).step_by(2).collect();
    assert_eq!(listed, super::KEYWORDS);
}
