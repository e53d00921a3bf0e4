//! Language server tests: `cardgame lsp` driven over standard input and output as an editor drives it.
//! Every read has a time limit, so a server that does not answer fails the test instead of hanging it.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(30);

const SCRIPT: &str = r#"game "Tiny Market" { players 2..4 }

tags type: Treasure, Territory
property cost: int = 0
abilities play

zone deck per player: pile, hidden, refill from discard
zone hand per player: set, owner
zone discard per player: pile
zone market: set
// What a player may spend this turn.
var coins per player: int = 0

card "Copper" {
  is Treasure
  copies 7 * players
  text "+1 coin"
  ability play { you.coins += 1 }
}

card "City" {
  is Territory
  copies 12
  cost 3
  ability play { you.coins += 2 }
}

setup {
  for p in everyone {
    move take(cards("Coper", box), 7) to p.deck
    shuffle p.deck
  }
  move box to market
}

action play_card(c in you.hand) label "Play {c}" {
  move c to you.discard
  perform play of c
}

action buy(c in market) label "Buy {c}" if c.cost <= you.coins {
  pay c.cost from you.coins
  move c to you.discard
}

fn cities(p: player): int = count(c in p.deck + p.hand + p.discard where c is "City")

flow {
  while count(market) > 0 {
    for p in from(seat(1)) {
      turn p {
        phase draw { move top 5 of p.deck to p.hand }
        phase buy { actions by p until pass [play_card, buy] }
        phase cleanup {
          move p.hand to p.discard
          p.coins = 0
        }
      }
    }
  }
  let most = max(cities(p) for p in everyone)
  win filter(p in everyone where cities(p) == most) "most Cities when the market is empty"
}

test "buying pays the cost" {
  names Alex, Bob
  given { Alex.coins = 5 }
  choose "Buy City"
  expect Alex.coins == 2
  expect cities(Alex) == 1
}
"#;

const URI: &str = "file:///tmp/tiny.cardgame";

/// The server, killed when the test ends however it ends.
struct Server {
    child: Child,
    /// Standard input of the server (`None` once closed).
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardgame"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, messages) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(m) = read_message(&mut r) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        Server {
            child,
            stdin: Some(stdin),
            messages,
            next_id: 0,
        }
    }

    fn send(&mut self, msg: Value) {
        let text = msg.to_string();
        self.write(&format!("Content-Length: {}\r\n\r\n{text}", text.len()));
    }

    fn write(&mut self, bytes: &str) {
        let stdin = self.stdin.as_mut().expect("standard input is open");
        stdin.write_all(bytes.as_bytes()).expect("write");
        stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message that satisfies `want`; the others are skipped.
    fn wait(&mut self, what: &str, want: impl Fn(&Value) -> bool) -> Value {
        loop {
            match self.messages.recv_timeout(LIMIT) {
                Ok(m) if want(&m) => return m,
                Ok(_) => {}
                Err(e) => panic!("no {what} from the server: {e}"),
            }
        }
    }

    /// The whole response to a request.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait(&format!("answer to {method}"), |m| {
            m["id"] == json!(id) && m.get("method").is_none()
        })
    }

    /// The result of a request, which must succeed.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let r = self.call(method, params);
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        r["result"].clone()
    }

    fn diagnostics(&mut self, version: i64) -> Vec<Value> {
        let m = self.wait("publishDiagnostics", |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["version"] == json!(version)
        });
        assert_eq!(m["params"]["uri"], URI);
        m["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }
}

/// The LSP position (line, UTF-16 column) of the `nth` occurrence of `needle` in `text`, plus `shift`.
fn pos(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    let at = text
        .match_indices(needle)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{needle}` #{nth} is in the script"))
        .0
        + shift;
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    json!({"line": line, "character": col})
}

fn at(text: &str, needle: &str, nth: usize, shift: usize) -> Value {
    json!({"textDocument": {"uri": URI}, "position": pos(text, needle, nth, shift)})
}

/// The text after the edits (an ASCII text: columns are bytes).
fn apply(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().expect("line") as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + p["character"].as_u64().expect("character") as usize
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().expect("text"),
            )
        })
        .collect();
    spans.sort();
    let mut out = text.to_string();
    for (a, b, t) in spans.into_iter().rev() {
        out.replace_range(a..b, t);
    }
    out
}

fn labels(items: &Value) -> Vec<String> {
    let items = items.get("items").unwrap_or(items);
    items
        .as_array()
        .expect("a list of items")
        .iter()
        .map(|i| i["label"].as_str().expect("a label").to_string())
        .collect()
}

#[test]
fn an_editor_session() {
    let mut s = Server::start();
    let init = s.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    assert_eq!(init["capabilities"]["hoverProvider"], true);
    assert_eq!(init["capabilities"]["definitionProvider"], true);
    s.notify("initialized", json!({}));

    // A script with a misspelled card name: the error, its code and its help.
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "cardgame", "version": 1, "text": SCRIPT}}),
    );
    let diags = s.diagnostics(1);
    let typo = diags
        .iter()
        .find(|d| d["code"] == "E103")
        .unwrap_or_else(|| panic!("E103 for \"Coper\" in {diags:?}"));
    assert_eq!(typo["severity"], 1);
    assert_eq!(typo["range"]["start"], pos(SCRIPT, "\"Coper\"", 0, 0));
    assert!(
        typo["relatedInformation"]
            .as_array()
            .expect("related information")
            .iter()
            .any(|r| r["message"]
                .as_str()
                .unwrap_or("")
                .contains("did you mean `Copper`")),
        "{typo}"
    );

    // Hover on a card name: its tags, copies and properties; on a variable: its line and comment.
    let h = s.request("textDocument/hover", at(SCRIPT, "\"City\"", 1, 2));
    let text = h["contents"]["value"].as_str().expect("markdown");
    assert!(
        text.contains("Territory") && text.contains("copies `12`") && text.contains("cost `3`"),
        "{text}"
    );
    let h = s.request("textDocument/hover", at(SCRIPT, "you.coins", 0, 5));
    let text = h["contents"]["value"].as_str().expect("markdown");
    assert!(
        text.contains("var coins per player: int = 0") && text.contains("What a player may spend"),
        "{text}"
    );

    // Definition of a function from a test, and of a card from a rule.
    let d = s.request("textDocument/definition", at(SCRIPT, "cities(Alex)", 0, 1));
    assert_eq!(d["uri"], URI);
    assert_eq!(d["range"]["start"], pos(SCRIPT, "cities(p: player)", 0, 0));
    let d = s.request("textDocument/definition", at(SCRIPT, "\"City\"", 1, 1));
    assert_eq!(d["range"]["start"], pos(SCRIPT, "\"City\"", 0, 0));

    // A local: from its use to the action's parameter; renamed in its action only.
    let d = s.request(
        "textDocument/definition",
        at(SCRIPT, "move c to you.discard", 0, 5),
    );
    assert_eq!(d["range"]["start"], pos(SCRIPT, "c in you.hand", 0, 0));
    let edit = s.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": URI}, "position": pos(SCRIPT, "c in you.hand", 0, 0), "newName": "item"}),
    );
    let edits = edit["changes"][URI].as_array().expect("edits").clone();
    assert_eq!(edits.len(), 4, "{edits:?}"); // c in, {c}, move c, play of c
    let renamed = apply(SCRIPT, &edits);
    assert!(
        renamed.contains(
            "action play_card(item in you.hand) label \"Play {item}\" {\n  move item to you.discard\n  perform play of item\n}"
        ),
        "{renamed}"
    );
    assert!(
        renamed.contains("action buy(c in market)"),
        "the other action's `c` is another local"
    );

    // References of a per-player variable: the declaration and its uses.
    let refs = s.request(
        "textDocument/references",
        json!({"textDocument": {"uri": URI}, "position": pos(SCRIPT, "coins per", 0, 0),
               "context": {"includeDeclaration": true}}),
    );
    assert_eq!(
        refs.as_array().map(Vec::len),
        Some(SCRIPT.matches("coins").count())
    );

    // Rename it: every place, nothing else.
    let edit = s.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": URI}, "position": pos(SCRIPT, "coins", 3, 0), "newName": "gold"}),
    );
    let edits = edit["changes"][URI].as_array().expect("edits").clone();
    assert_eq!(edits.len(), SCRIPT.matches("coins").count());
    assert!(edits.iter().all(|e| e["newText"] == "gold"));
    assert_eq!(apply(SCRIPT, &edits), SCRIPT.replace("coins", "gold"));
    let bad = s.call(
        "textDocument/rename",
        json!({"textDocument": {"uri": URI}, "position": pos(SCRIPT, "coins", 3, 0), "newName": "market"}),
    );
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    // `c` is a local of the actions: `coins` is only written after `.` there, so it may become `c`;
    // `market` is written bare inside `buy(c in market)`, where `c` would take its place.
    let edit = s.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": URI}, "position": pos(SCRIPT, "coins", 3, 0), "newName": "c"}),
    );
    assert_eq!(
        apply(SCRIPT, edit["changes"][URI].as_array().expect("edits")),
        SCRIPT.replace("coins", "c")
    );
    let bad = s.call(
        "textDocument/rename",
        json!({"textDocument": {"uri": URI}, "position": pos(SCRIPT, "zone market", 0, 5), "newName": "c"}),
    );
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("local"),
        "{bad}"
    );

    // The outline: cards grouped by their tag, zones, the flow's phases, the actions, the test.
    let outline = s.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    let names: Vec<&str> = outline
        .as_array()
        .expect("symbols")
        .iter()
        .filter_map(|s| s["name"].as_str())
        .collect();
    for n in [
        "Tiny Market",
        "deck",
        "cards: Treasure",
        "cards: Territory",
        "buy",
        "flow",
        "buying pays the cost",
    ] {
        assert!(names.contains(&n), "{n} not in {names:?}");
    }
    let flow = outline
        .as_array()
        .expect("symbols")
        .iter()
        .find(|s| s["name"] == "flow")
        .expect("flow");
    assert!(flow.to_string().contains("cleanup"), "{flow}");

    // Half typed: `you.` offers what a player has; inside quotes, the cards.
    let half = SCRIPT
        .replacen(
            "move c to you.discard\n}",
            "move c to you.discard\n  you.\n}",
            1,
        )
        .replace(
            "pay c.cost from you.coins\n",
            "pay c.cost from you.coins\n  c.\n",
        );
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": half}]}),
    );
    assert!(s.diagnostics(2).iter().any(|d| d["code"] == "E001"));
    let items = s.request("textDocument/completion", at(&half, "  you.\n", 0, 6));
    let got = labels(&items);
    for want in ["coins", "hand", "deck", "discard"] {
        assert!(got.contains(&want.to_string()), "{want} not in {got:?}");
    }
    assert!(
        !got.contains(&"cost".to_string()) && !got.contains(&"market".to_string()),
        "{got:?}"
    );
    // `c` is a card (the checker saw `c.cost` nearby): properties and card fields, no player's.
    let items = s.request("textDocument/completion", at(&half, "  c.\n", 0, 4));
    let got = labels(&items);
    for want in ["cost", "type", "kind", "owner"] {
        assert!(got.contains(&want.to_string()), "{want} not in {got:?}");
    }
    assert!(!got.contains(&"coins".to_string()), "{got:?}");
    let items = s.request("textDocument/completion", at(&half, "\"Coper\"", 0, 3));
    let got = labels(&items);
    assert_eq!(got, ["Copper", "City"]);
    let items = s.request("textDocument/completion", at(&half, "  let most", 0, 2));
    let got = labels(&items);
    for want in ["move", "cities", "market", "count", "you"] {
        assert!(got.contains(&want.to_string()), "{want} not in {got:?}");
    }

    // The fix clears the error.
    let fixed = SCRIPT.replace("\"Coper\"", "\"Copper\"");
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 3}, "contentChanges": [{"text": fixed}]}),
    );
    let diags = s.diagnostics(3);
    assert!(diags.iter().all(|d| d["severity"] != 1), "{diags:?}");

    // Formatting: one edit to the canonical layout, which is then left as it is.
    let messy = fixed
        .replace("zone market: set", "zone   market :set")
        .replace("  move box to market", "      move box to market");
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 4}, "contentChanges": [{"text": messy}]}),
    );
    s.diagnostics(4);
    let fmt =
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}});
    let edits = s.request("textDocument/formatting", fmt.clone());
    let edits = edits.as_array().expect("edits").clone();
    assert_eq!(edits.len(), 1, "{edits:?}");
    let formatted = apply(&messy, &edits);
    assert!(
        formatted.contains("\nzone market: set\n")
            && formatted.contains("\n  move box to market\n"),
        "{formatted}"
    );
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 5}, "contentChanges": [{"text": formatted}]}),
    );
    assert!(s.diagnostics(5).iter().all(|d| d["severity"] != 1));
    assert_eq!(s.request("textDocument/formatting", fmt.clone()), json!([]));
    s.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 6}, "contentChanges": [{"text": "zone"}]}),
    );
    s.diagnostics(6);
    let r = s.call("textDocument/formatting", fmt);
    assert_eq!(
        r["error"]["code"], -32803,
        "a script that does not parse is not formatted: {r}"
    );

    // Malformed requests are answered within the protocol; the server goes on.
    let r = s.call("textDocument/hover", json!({"position": "nowhere"}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = s.call("cardgame/unknown", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    let r = s.request("textDocument/hover", json!({"textDocument": {"uri": "file:///not-open"}, "position": {"line": 0, "character": 0}}));
    assert!(r.is_null());

    // Shut down, exit: exit code 0.
    let r = s.request("shutdown", Value::Null);
    assert!(r.is_null());
    s.notify("exit", Value::Null);
    let deadline = std::time::Instant::now() + LIMIT;
    loop {
        if let Some(status) = s.child.try_wait().expect("wait") {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server did not exit"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_half_typed_script_never_crashes_the_server() {
    let mut s = Server::start();
    s.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    s.notify("initialized", json!({}));
    // Every prefix of the script, at a stride: each is checked and every request answered.
    let cut: Vec<usize> = (0..SCRIPT.len())
        .step_by(97)
        .chain([SCRIPT.len()])
        .collect();
    for (v, &end) in cut.iter().enumerate() {
        let text = &SCRIPT[..end];
        let version = v as i64 + 1;
        if v == 0 {
            s.notify("textDocument/didOpen", json!({"textDocument": {"uri": URI, "languageId": "cardgame", "version": 1, "text": text}}));
        } else {
            s.notify("textDocument/didChange", json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]}));
        }
        s.diagnostics(version);
        let line = text.matches('\n').count();
        for method in [
            "textDocument/hover",
            "textDocument/definition",
            "textDocument/completion",
            "textDocument/prepareRename",
        ] {
            for (l, c) in [(line, 0), (line, 3), (line / 2, 5), (line + 5, 99)] {
                let r = s.call(
                    method,
                    json!({"textDocument": {"uri": URI}, "position": {"line": l, "character": c}}),
                );
                assert!(
                    r.get("error").is_none(),
                    "{method} at {l}:{c} of {end} bytes: {r}"
                );
            }
        }
        let r = s.call(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": URI}}),
        );
        assert!(r.get("error").is_none(), "{r}");
    }
    s.request("shutdown", Value::Null);
    s.notify("exit", Value::Null);
}

impl Server {
    /// The exit status, which must come within the time limit.
    fn exit_status(&mut self) -> std::process::ExitStatus {
        let deadline = std::time::Instant::now() + LIMIT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the server did not exit"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn clients_that_break_the_protocol_get_answers_or_a_clean_exit() {
    // A request before `initialize`: ServerNotInitialized. `didOpen` before `initialized`: served.
    let mut s = Server::start();
    let r = s.call(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(r["error"]["code"], -32002, "{r}");
    s.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    s.notify("textDocument/didOpen", json!({"textDocument": {"uri": URI, "languageId": "cardgame", "version": 1, "text": "zone"}}));
    assert!(s.diagnostics(1).iter().any(|d| d["code"] == "E001"));
    // A malformed notification is ignored; the server goes on.
    s.notify("textDocument/didChange", json!({"textDocument": 7}));
    s.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    // Standard input closed without `exit`: exit code 1, no hang.
    s.stdin = None;
    assert_eq!(s.exit_status().code(), Some(1));

    // A payload that is not JSON: the connection cannot go on; exit code 1, no panic.
    let mut s = Server::start();
    s.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    s.write("Content-Length: 5\r\n\r\n{oops");
    assert_eq!(s.exit_status().code(), Some(1));
}

#[test]
fn a_sheet_changed_on_disk_is_checked_again_in_the_open_script() {
    let dir = std::env::temp_dir().join(format!("cardgame-lsp-sheet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let script =
        std::fs::read_to_string("examples/card-sheet/market-stall.cardgame").expect("script");
    let sheet = std::fs::read_to_string("examples/card-sheet/market-stall.tsv").expect("sheet");
    let broken = sheet.replacen("Silver\t10\tTreasure", "Silver\t10\tTreasur", 1);
    assert_ne!(broken, sheet);
    let sheet_path = dir.join("market-stall.tsv");
    std::fs::write(&sheet_path, &broken).expect("sheet");
    let uri = format!("file://{}/market-stall.cardgame", dir.display());

    // An editor that can watch files is asked to watch the sheets.
    let mut s = Server::start();
    s.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities":
            {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}}),
    );
    let register = s.wait("client/registerCapability", |m| {
        m["method"] == "client/registerCapability"
    });
    let registration = &register["params"]["registrations"][0];
    assert_eq!(registration["method"], "workspace/didChangeWatchedFiles");
    assert_eq!(
        registration["registerOptions"]["watchers"][0]["globPattern"],
        "**/*.{csv,tsv}"
    );
    s.send(json!({"jsonrpc": "2.0", "id": register["id"], "result": null}));
    s.notify("initialized", json!({}));

    let published = |s: &mut Server| {
        let m = s.wait("publishDiagnostics", |m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == json!(uri)
        });
        m["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    };
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "cardgame", "version": 1, "text": script}}),
    );
    let before = published(&mut s);
    assert!(
        before
            .iter()
            .any(|d| d["message"].as_str().unwrap_or("").contains("Treasur")),
        "the sheet's mistake is shown: {before:?}"
    );
    // The sheet is mended on disk (the script is not edited): the editor says so, and the script
    // is checked again. The editor names the file by another route through the folder.
    std::fs::write(&sheet_path, &sheet).expect("sheet");
    let route = format!(
        "file://{}/../{}/market-stall.tsv",
        dir.display(),
        dir.file_name().expect("a name").to_string_lossy()
    );
    s.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": route, "type": 2}]}),
    );
    assert_eq!(published(&mut s), Vec::<Value>::new());
    s.request("shutdown", Value::Null);
    s.notify("exit", Value::Null);
    let _ = std::fs::remove_dir_all(&dir);
}
