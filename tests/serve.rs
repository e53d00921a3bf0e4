//! HTTP tests of `cardgame serve` (docs/cli.md, serve): each test starts the binary on a free port of
//! 127.0.0.1, talks HTTP/1.1 to it with the standard library, and stops it when done (also on failure).
//! The game the server plays is mirrored here in the engine, to check that a seat's answers are the
//! engine's view of that seat and never show another seat's hidden cards.

use cardgame_interpreter::agents::make_agent;
use cardgame_interpreter::check::check_source;
use cardgame_interpreter::engine::{Game, GameConfig, Status};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

use crate::common::cardgame;

/// A running server, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `cardgame serve ARGS --port 0` and reads the address it prints.
fn serve(args: &[&str]) -> Server {
    let child = Command::new(env!("CARGO_BIN_EXE_cardgame"))
        .arg("serve")
        .args(args)
        .args(["--port", "0"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let mut server = Server {
        child,
        addr: String::new(),
    };
    let out = server.child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(out).read_line(&mut line).expect("a line");
    let from = line.find("http://").expect("an address") + "http://".len();
    let rest = &line[from..];
    server.addr = rest[..rest.find('/').expect("a slash")].to_string();
    assert!(server.addr.starts_with("127.0.0.1:"), "{line}");
    server
}

/// The status and body of one request.
fn request(s: &Server, method: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(&s.addr).expect("connects");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nX-Cardgame: 1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        s.addr
    )
    .expect("sends");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("reads");
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    assert!(
        !head.to_ascii_lowercase().contains("chunked"),
        "a body with its length: {head}"
    );
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status");
    (status, body.to_string())
}

fn get(s: &Server, path: &str) -> (u16, String) {
    request(s, "GET", path)
}

fn json(s: &Server, method: &str, path: &str) -> (u16, Value) {
    let (status, body) = request(s, method, path);
    (
        status,
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}")),
    )
}

const MARKET_RACE: &str = "examples/market-race.cardgame";

fn program(path: &str) -> Arc<cardgame_interpreter::program::Program> {
    let src = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
        .expect("the script");
    Arc::new(check_source(&src).program.expect("checks"))
}

/// The same game as the server's: seat 1 a person, seat 2 `random`, seed 1, two players.
struct Mirror {
    game: Game,
    bot: Box<dyn cardgame_interpreter::agents::Agent>,
}

impl Mirror {
    fn new() -> Mirror {
        let p = program(MARKET_RACE);
        let bot = make_agent(&p, "random", 1, 1).expect("an agent");
        let mut m = Mirror {
            game: Game::new(p, GameConfig::new(2, 1)),
            bot,
        };
        m.bots();
        m
    }

    /// Lets the bot play up to seat 1's decision or the end.
    fn bots(&mut self) {
        while let Status::Decision(d) = self.game.status() {
            if d.player == 0 {
                return;
            }
            let d = d.clone();
            let c = self.bot.choose(&self.game, &d);
            self.game.apply(c).expect("applies");
        }
    }

    fn choose(&mut self, option: usize) {
        self.game.apply(option).expect("applies");
        self.bots();
    }
}

/// The cards of zone `name` in a view.
fn zone<'a>(view: &'a Value, name: &str) -> &'a Vec<Value> {
    view["zones"]
        .as_array()
        .and_then(|z| z.iter().find(|z| z["name"] == name))
        .and_then(|z| z["cards"].as_array())
        .unwrap_or_else(|| panic!("no zone {name}"))
}

#[test]
fn plays_market_race_to_the_end_seeing_only_its_seat() {
    let server = serve(&[MARKET_RACE]);
    let mut mirror = Mirror::new();
    let (status, mut state) = json(&server, "GET", "/api/state");
    assert_eq!(status, 200);
    assert_eq!(state["game"], "Market Race");
    // Market Race has `fn score`: every seat's points, its 3 Homesteads at the start.
    assert_eq!(
        state["scores"],
        serde_json::json!([3, 3]),
        "{}",
        state["scores"]
    );
    assert_eq!(
        state["since"][0].as_str().map(|s| s.starts_with("setup: ")),
        Some(true)
    );
    let mut decisions = 0;
    let mut hidden_seen = 0;
    loop {
        // The page receives the engine's view of seat 1, exactly.
        let view = serde_json::to_value(mirror.game.view(0)).expect("json");
        assert_eq!(state["view"], view, "after {decisions} decisions");
        // P2's hand: cards in the engine's state, none of them named to seat 1.
        let theirs = zone(&state["view"], "P2.hand");
        let truth = serde_json::to_value(mirror.game.view(1)).expect("json");
        let truth = zone(&truth, "P2.hand");
        assert_eq!(theirs.len(), truth.len());
        assert!(theirs.iter().all(Value::is_null), "{theirs:?}");
        if truth.iter().any(|c| !c.is_null()) {
            hidden_seen += 1;
        }
        // Nor does the trace name a card drawn into it.
        for turn in state["trace"].as_array().expect("a trace") {
            for line in turn["lines"].as_array().expect("lines") {
                let line = line.as_str().unwrap_or("");
                assert!(
                    !line.ends_with("-> P2.hand") || line.starts_with("a card:"),
                    "{line}"
                );
            }
        }
        if !state["over"].is_null() {
            break;
        }
        let options = state["view"]["decision"]["options"]
            .as_array()
            .expect("the seat's decision")
            .len();
        let pick = decisions % options;
        let step = state["step"].as_u64().expect("a step");
        let (status, next) = json(
            &server,
            "POST",
            &format!("/api/choose?option={pick}&step={step}"),
        );
        assert_eq!(status, 200, "{next}");
        mirror.choose(pick);
        state = next;
        decisions += 1;
        assert!(decisions < 2000, "the game ends");
    }
    assert!(matches!(mirror.game.status(), Status::Over(_)));
    assert!(state["over"]["reason"]
        .as_str()
        .is_some_and(|r| !r.is_empty()));
    assert!(hidden_seen > 0, "P2 held cards that seat 1 could not see");
    // Over: no more choices.
    let (status, _) = json(&server, "POST", "/api/choose?option=0");
    assert_eq!(status, 409);
    // A new game starts from the seed asked for.
    let (status, fresh) = json(&server, "POST", "/api/new?seed=7");
    assert_eq!(status, 200);
    assert_eq!(fresh["seed"], 7);
    assert_eq!(fresh["step"], 0);
}

#[test]
fn bad_requests_get_4xx_and_change_nothing() {
    let server = serve(&[MARKET_RACE]);
    let (_, before) = json(&server, "GET", "/api/state");
    let step = before["step"].as_u64().expect("a step");
    for (method, path, code) in [
        ("POST", "/api/choose?option=999".to_string(), 400),
        ("POST", "/api/choose?option=-1".to_string(), 400),
        ("POST", "/api/choose?option=one".to_string(), 400),
        ("POST", "/api/choose".to_string(), 400),
        ("POST", "/api/choose?option=0&cheat=1".to_string(), 400),
        (
            "POST",
            format!("/api/choose?option=0&step={}", step + 3),
            409,
        ),
        ("GET", "/api/choose?option=0".to_string(), 405),
        ("GET", "/api/state?seat=2".to_string(), 400),
        ("GET", "/api/replay?step=100000".to_string(), 400),
        ("GET", "/api/replay?seat=3".to_string(), 400),
        ("GET", "/api/replay?seed=x".to_string(), 400),
        ("GET", "/api/report?games=0".to_string(), 400),
        ("GET", "/api/report?agents=nobody".to_string(), 400),
        ("POST", "/api/new?seed=-4".to_string(), 400),
        ("GET", "/etc/passwd".to_string(), 404),
        ("GET", "/assets/../Cargo.toml".to_string(), 404),
    ] {
        let (status, body) = request(&server, method, &path);
        assert_eq!(status, code, "{method} {path}: {body}");
        let (_, now) = json(&server, "GET", "/api/state");
        assert_eq!(now, before, "{method} {path} changed the game");
    }
    // Another site's page: a POST without the pages' header, or a request for another host name.
    for raw in [
        format!(
            "POST /api/new HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            server.addr
        ),
        "GET /api/state HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n".to_string(),
    ] {
        let mut stream = TcpStream::connect(&server.addr).expect("connects");
        stream.write_all(raw.as_bytes()).expect("sends");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("reads");
        assert!(answer.starts_with("HTTP/1.1 403"), "{raw}: {answer}");
        let (_, now) = json(&server, "GET", "/api/state");
        assert_eq!(now, before, "{raw} changed the game");
    }
    let (_, body) = json(&server, "POST", "/api/choose?option=999");
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.contains("not one of")),
        "{body}"
    );
}

#[test]
fn serves_the_pages_and_a_report() {
    let server = serve(&[MARKET_RACE, "--seed", "4"]);
    for (path, part) in [
        ("/", "/assets/play.js"),
        ("/replay", "/assets/replay.js"),
        ("/assets/play.js", "api/choose"),
        ("/assets/replay.js", "api/replay"),
        ("/assets/common.js", "function drawView"),
        ("/assets/style.css", ".card.back"),
    ] {
        let (status, body) = get(&server, path);
        assert_eq!(status, 200, "{path}");
        assert!(body.contains(part), "{path} lacks {part}");
    }
    let (status, page) = get(&server, "/report?games=12&seed=2&agents=");
    assert_eq!(status, 200);
    for part in [
        "Win rate by seat",
        "<svg",
        "Games by number of turns",
        "Cards",
    ] {
        assert!(page.contains(part), "the report lacks {part}");
    }
    // A form filled in wrongly gives the page again, the error in it and the values as sent.
    let (status, page) = get(&server, "/report?games=0&seed=2&agents=nobody");
    assert_eq!(status, 400);
    assert!(page.starts_with("<!doctype html>"), "{page}");
    assert!(
        page.contains("No report: `games` takes a number from 1 to 100000, not 0"),
        "{page}"
    );
    assert!(page.contains("value=\"nobody\""), "{page}");
    let (status, page) = get(&server, "/report?games=3&agents=nobody");
    assert_eq!(status, 400);
    assert!(
        page.contains("No report: ") && page.contains("nobody"),
        "{page}"
    );
    let (status, report) = json(&server, "GET", "/api/report?games=12&seed=2");
    assert_eq!(status, 200);
    assert_eq!(report["games"], 12);
    let (status, cards) = json(&server, "GET", "/api/cards");
    assert_eq!(status, 200);
    let copper = cards
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == "Copper"))
        .expect("Copper");
    assert_eq!(copper["text"], "+1 coin.");
}

#[test]
fn replays_a_seeded_game_step_by_step() {
    let server = serve(&[MARKET_RACE]);
    let (status, first) = json(&server, "GET", "/api/replay?seed=3&step=0&seat=all");
    assert_eq!(status, 200);
    assert_eq!(first["views"].as_array().map(Vec::len), Some(2));
    let steps = first["steps"].as_u64().expect("steps");
    assert!(steps > 10);
    // The last step is the end of the game; one past it is refused.
    let (_, last) = json(&server, "GET", &format!("/api/replay?seed=3&step={steps}"));
    assert!(!last["over"].is_null(), "{last}");
    let (status, _) = json(
        &server,
        "GET",
        &format!("/api/replay?seed=3&step={}", steps + 1),
    );
    assert_eq!(status, 400);
    // The same link gives the same position; one seat's view is the engine's view of that seat.
    let path = "/api/replay?seed=3&step=6&seat=1";
    let (_, a) = json(&server, "GET", path);
    let (_, b) = json(&server, "GET", path);
    assert_eq!(a, b);
    assert_eq!(a["views"].as_array().map(Vec::len), Some(1));
    assert!(zone(&a["views"][0], "P2.hand").iter().all(Value::is_null));
    let (_, all) = json(&server, "GET", "/api/replay?seed=3&step=6&seat=all");
    assert_eq!(all["views"][0], a["views"][0]);
    assert!(zone(&all["views"][1], "P2.hand")
        .iter()
        .any(|c| !c.is_null()));
    // Each step lists its events, starting with the decision made.
    let events = a["events"].as_array().expect("events");
    assert!(
        events[0].as_str().is_some_and(|e| e.contains(" chooses ")),
        "{a}"
    );
}

#[test]
fn serve_refuses_a_bad_command_line() {
    let o = cardgame(&["serve", MARKET_RACE, "--seat", "5", "--port", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--seat takes a seat from 1 to 2"));
    let o = cardgame(&["serve", MARKET_RACE, "--option", "goal=99", "--port", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let o = cardgame(&["serve", "no-such.cardgame", "--port", "0"]);
    assert_eq!(o.status.code(), Some(1));
}

/// Every script of the repository: the server starts, plays a few decisions, replays and reports; and
/// `sim --html` writes its page.
#[test]
fn serves_and_reports_every_script() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut scripts = Vec::new();
    for dir in ["games", "examples"] {
        for e in std::fs::read_dir(format!("{root}/{dir}"))
            .expect("a folder")
            .flatten()
        {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".cardgame") {
                scripts.push(format!("{dir}/{name}"));
            }
        }
    }
    scripts.sort();
    assert!(scripts.len() >= 8);
    let out_dir = std::env::temp_dir().join(format!("cardgame-serve-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("a folder");
    for script in &scripts {
        let server = serve(&[script.as_str()]);
        let (status, mut state) = json(&server, "GET", "/api/state");
        assert_eq!(status, 200, "{script}");
        for _ in 0..5 {
            if !state["over"].is_null() || state["view"]["decision"].is_null() {
                break;
            }
            let step = state["step"].as_u64().expect("a step");
            let (status, next) = json(
                &server,
                "POST",
                &format!("/api/choose?option=0&step={step}"),
            );
            assert_eq!(status, 200, "{script}: {next}");
            state = next;
        }
        assert!(state["error"].is_null(), "{script}: {state}");
        // Step 2: the shortest script's game (one Sealed Crate) has two decisions.
        let (status, r) = json(&server, "GET", "/api/replay?seed=2&step=2&seat=all");
        assert_eq!(status, 200, "{script}: {r}");
        let (status, page) = get(&server, "/report?games=2");
        assert_eq!(status, 200, "{script}");
        assert!(page.contains("Win rate by seat"), "{script}");
        drop(server);
        let html = out_dir.join("report.html");
        let html_arg = html.to_string_lossy().into_owned();
        let o = cardgame(&[
            "sim", script, "--games", "2", "--jobs", "1", "--html", &html_arg,
        ]);
        assert_eq!(o.status.code(), Some(0), "{script}");
        let page = std::fs::read_to_string(&html).expect("the page is written");
        assert!(page.starts_with("<!doctype html>"), "{script}");
        assert!(page.contains("<svg") && !page.contains("<nav>"), "{script}");
        assert!(
            !page.contains("src=\"http") && !page.contains("href=\"http"),
            "self-contained"
        );
    }
    let _ = std::fs::remove_dir_all(&out_dir);
}

#[test]
fn reload_reads_the_script_again_and_keeps_the_game_on_an_error() {
    let dir = std::env::temp_dir().join(format!("cardgame-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let script = dir.join("race.cardgame");
    let source = std::fs::read_to_string(format!("{}/{MARKET_RACE}", env!("CARGO_MANIFEST_DIR")))
        .expect("the script");
    std::fs::write(&script, &source).expect("written");
    let path = script.to_string_lossy().into_owned();
    let server = serve(&[path.as_str()]);
    assert_eq!(copper_text(&server), "+1 coin.");
    // The file changes: the server reads it again only when asked.
    std::fs::write(&script, source.replace("\"+1 coin.\"", "\"One coin.\"")).expect("written");
    assert_eq!(copper_text(&server), "+1 coin.");
    let (status, _) = json(&server, "POST", "/api/reload");
    assert_eq!(status, 200);
    assert_eq!(copper_text(&server), "One coin.");
    // A script with errors is refused; the game in progress stays.
    let (_, before) = json(&server, "GET", "/api/state");
    std::fs::write(&script, "game \"Broken\" {").expect("written");
    let (status, body) = json(&server, "POST", "/api/reload");
    assert_eq!(status, 422, "{body}");
    let (_, after) = json(&server, "GET", "/api/state");
    assert_eq!(before, after);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The text of Copper as `/api/cards` gives it.
fn copper_text(s: &Server) -> serde_json::Value {
    let (_, cards) = json(s, "GET", "/api/cards");
    cards
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == "Copper"))
        .map(|c| c["text"].clone())
        .expect("Copper")
}

/// A script that reads its cards from a sheet (`cards from`): a reload reads the sheet again.
#[test]
fn reload_reads_the_card_sheet_again() {
    let dir = std::env::temp_dir().join(format!("cardgame-reload-sheet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let root = env!("CARGO_MANIFEST_DIR");
    let example = format!("{root}/examples/card-sheet/market-stall");
    let script = dir.join("market-stall.cardgame");
    std::fs::copy(format!("{example}.cardgame"), &script).expect("copied");
    let sheet = std::fs::read_to_string(format!("{example}.tsv")).expect("the sheet");
    std::fs::write(dir.join("market-stall.tsv"), &sheet).expect("written");
    let path = script.to_string_lossy().into_owned();
    let server = serve(&[path.as_str()]);
    assert_eq!(copper_text(&server), "+1 coin.");
    std::fs::write(
        dir.join("market-stall.tsv"),
        sheet.replace("+1 coin.", "One coin."),
    )
    .expect("written");
    let (status, _) = json(&server, "POST", "/api/reload");
    assert_eq!(status, 200);
    assert_eq!(copper_text(&server), "One coin.");
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `serve --model`: the bots, the replays and the reports play with a learned model; a model of
/// another script is refused at start with how to learn again.
#[test]
fn serve_plays_with_a_learned_model_and_refuses_another_script_s() {
    let dir = std::env::temp_dir().join(format!("cardgame-serve-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("piles.model");
    let model = path.to_str().expect("a path");
    let o = cardgame(&[
        "learn",
        "examples/two-piles.cardgame",
        "--games",
        "10",
        "--generations",
        "1",
        "--prior-generations",
        "0",
        "--policy-rounds",
        "2",
        "--out",
        model,
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let server = serve(&[
        "examples/two-piles.cardgame",
        "--agents",
        "search:5,learned",
        "--model",
        model,
    ]);
    let (status, _) = json(&server, "GET", "/api/state");
    assert_eq!(status, 200);
    let (status, replay) = json(&server, "GET", "/api/replay?seed=2&step=1&seat=all");
    assert_eq!(status, 200, "{replay}");
    let (status, page) = get(&server, "/report?games=4&seed=2&agents=learned");
    assert_eq!(status, 200, "{page}");
    drop(server);
    let o = cardgame(&["serve", MARKET_RACE, "--model", model, "--port", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("another version of the script"), "{e}");
    assert!(e.contains("cardgame learn"), "{e}");
}

/// The Play page's state says why each bot chose since the seat's last choice (`why`): the agent,
/// the option taken, how, and the options weighed with visits and values; a choice clears it.
#[test]
fn the_state_explains_the_bots_choices() {
    let server = serve(&[
        "examples/signals.cardgame",
        "--players",
        "3",
        "--seed",
        "3",
        "--agents",
        "strategy:sensible,ismcts:60",
    ]);
    let (status, state) = json(&server, "GET", "/api/state");
    assert_eq!(status, 200);
    assert_eq!(state["why"], serde_json::json!([]), "{state}");
    let (status, state) = json(&server, "POST", "/api/choose?option=0");
    assert_eq!(status, 200, "{state}");
    let why = state["why"].as_array().expect("a list");
    assert_eq!(why.len(), 2, "{state}");
    assert_eq!(why[0]["agent"], "strategy:sensible");
    assert_eq!(why[0]["player"], "P2");
    assert!(
        why[0]["how"]
            .as_str()
            .is_some_and(|h| h.starts_with("rule 4 of strategy `sensible` (line 132)")),
        "{state}"
    );
    assert_eq!(why[0]["options"], serde_json::json!([]));
    assert_eq!(why[1]["agent"], "ismcts:60");
    let options = why[1]["options"].as_array().expect("options");
    assert_eq!(options.len(), 4, "{state}");
    let visits: Vec<u64> = options
        .iter()
        .map(|o| o["visits"].as_u64().expect("visits"))
        .collect();
    assert_eq!(visits.iter().sum::<u64>(), 60, "{state}");
    assert!(
        visits.windows(2).all(|w| w[0] >= w[1]),
        "best first: {state}"
    );
    let chosen: Vec<&Value> = options.iter().filter(|o| o["chosen"] == true).collect();
    assert_eq!(chosen.len(), 1, "{state}");
    assert_eq!(chosen[0]["option"], why[1]["chosen"]);
    assert!(options.iter().all(|o| o["value"]
        .as_f64()
        .is_some_and(|v| (0.0..=1.0).contains(&v))));
}
