//! Command line, serve stage: `cardgame serve`, a local web server (127.0.0.1 only) with the Play,
//! Replay and Report pages and their JSON endpoints (docs/cli.md, serve). One game per server: every
//! page load shows the same game; `POST /api/new` starts another.
//!
//! The pages receive views (what one seat may see, from the engine's view functions) and traces
//! rendered for that seat, never the state. The script (and the card sheets it reads, `cards from`) is
//! read at start and on `POST /api/reload`; no other file is read (the pages are compiled into the
//! binary).

mod replay;
mod session;

use crate::diagnostics::load_variant;
use crate::games::config;
use crate::{GameArgs, Limits, SCRIPT_ERROR, USAGE};
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use cardgame_interpreter::agents::Model;
use cardgame_interpreter::engine::GameConfig;
use cardgame_interpreter::program::Program;
use cardgame_interpreter::sim::{simulate, SimConfig};
use replay::Replays;
use session::{Refusal, Session};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// How `cardgame serve` was started.
pub struct ServeArgs {
    pub file: PathBuf,
    pub game: GameArgs,
    pub seat: u8,
    pub seed: u64,
    pub agents: String,
    /// A learned model for the agents `search` and `learned` (`--model`, else the one found beside
    /// the script unless `--no-model`).
    pub model: crate::model_flag::ModelArgs,
    pub limits: Limits,
    pub port: u16,
}

/// The server's state: the checked script, the Play page's game, the replays recorded so far.
struct Server {
    args: ServeArgs,
    script: Mutex<Loaded>,
    replays: Replays,
}

/// The script as last read, with the game it plays.
struct Loaded {
    program: Arc<Program>,
    /// The script's text as played (with `--set` written in), to which a model is bound.
    source: String,
    /// The model of `--model`, checked against the script as loaded.
    model: Option<Arc<Model>>,
    session: Session,
    /// The seed of the Play page's game.
    seed: u64,
}

type Shared = Arc<Server>;

/// An error answer: a status and a JSON body `{"error": "..."}`.
struct Failure(StatusCode, String);

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

fn bad(msg: impl Into<String>) -> Failure {
    Failure(StatusCode::BAD_REQUEST, msg.into())
}

fn internal(msg: impl Into<String>) -> Failure {
    Failure(StatusCode::INTERNAL_SERVER_ERROR, msg.into())
}

/// The query's parameters, refusing any not in `known`.
fn params(q: &HashMap<String, String>, known: &[&str]) -> Result<(), Failure> {
    for k in q.keys() {
        if !known.contains(&k.as_str()) {
            return Err(bad(format!(
                "unknown parameter `{k}` (this request takes: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        }
    }
    Ok(())
}

/// A whole number parameter, if present.
fn number(q: &HashMap<String, String>, key: &str) -> Result<Option<u64>, Failure> {
    match q.get(key) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse::<u64>()
            .map(Some)
            .map_err(|_| bad(format!("`{key}` takes a whole number, not `{v}`"))),
    }
}

/// The game configuration of the command line with `seed`.
fn game_config(args: &ServeArgs, program: &Program, seed: u64) -> Result<GameConfig, String> {
    let mut cfg = config(program, &args.game, seed)?;
    args.limits.apply(&mut cfg);
    Ok(cfg)
}

/// A new Play game of `program` (whose text, with the settings of `--set` written in, is `source`)
/// from `seed`.
fn start(
    args: &ServeArgs,
    (program, source): (Arc<Program>, &str),
    seed: u64,
) -> Result<Loaded, String> {
    let cfg = game_config(args, &program, seed)?;
    let model = match &args.model.model {
        Some(path) => Some(crate::model_flag::load_model(
            path,
            &program,
            source,
            cfg.players,
        )?),
        None => None,
    };
    let session = Session::new(
        program.clone(),
        cfg,
        args.seat - 1,
        &args.agents,
        model.as_ref(),
    )?;
    Ok(Loaded {
        program,
        source: source.to_string(),
        model,
        session,
        seed,
    })
}

impl Server {
    fn config(&self, program: &Program, seed: u64) -> Result<GameConfig, String> {
        game_config(&self.args, program, seed)
    }

    fn start(&self, loaded: (Arc<Program>, &str), seed: u64) -> Result<Loaded, String> {
        start(&self.args, loaded, seed)
    }

    fn lock(&self) -> Result<std::sync::MutexGuard<'_, Loaded>, Failure> {
        self.script
            .lock()
            .map_err(|_| internal("the server's game is unusable after an earlier failure"))
    }
}

/// `cardgame serve`: check the command line, start the game, serve until stopped.
pub fn serve(mut args: ServeArgs) -> u8 {
    let (program, source) = match load_variant(&args.file, &args.game.set) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let players = match config(&program, &args.game, args.seed) {
        Ok(c) => c.players,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    if args.seat < 1 || args.seat > players {
        errln!(
            "error: --seat takes a seat from 1 to {players}, not {}",
            args.seat
        );
        return USAGE;
    }
    // The model beside the script, found once at start (and said once), is the server's `--model`
    // from then on: a reload checks it against the script again.
    if let Some((path, true)) = args.model.path(&args.file, players) {
        let checked =
            crate::model_flag::model_of(&args.model, &args.file, &program, &source, players);
        if let Err(e) = checked {
            errln!("error: {e}");
            return USAGE;
        }
        args.model.model = Some(path);
    }
    let loaded = match start(&args, (program, &source), args.seed) {
        Ok(l) => l,
        Err(e) => {
            errln!("error: {e}");
            return USAGE;
        }
    };
    let port = args.port;
    let server = Server {
        args,
        script: Mutex::new(loaded),
        replays: Replays::default(),
    };
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            errln!("error: cannot start the server: {e}");
            return SCRIPT_ERROR;
        }
    };
    rt.block_on(run(Arc::new(server), port))
}

/// Binds 127.0.0.1:`port` (0: any free port), prints the address, serves.
async fn run(server: Shared, port: u16) -> u8 {
    let listener = match tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
        Ok(l) => l,
        Err(e) => {
            errln!("error: cannot listen on 127.0.0.1:{port}: {e}");
            return USAGE;
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            errln!("error: {e}");
            return SCRIPT_ERROR;
        }
    };
    let name = server
        .lock()
        .map(|l| l.program.name.clone())
        .unwrap_or_default();
    outln!("serving \"{name}\" at http://{addr}/ (Play), /replay and /report; Ctrl-C stops");
    match axum::serve(listener, router(server)).await {
        Ok(()) => 0,
        Err(e) => {
            errln!("error: {e}");
            SCRIPT_ERROR
        }
    }
}

fn router(server: Shared) -> Router {
    Router::new()
        .route("/", get(|| page(PLAY_HTML)))
        .route("/replay", get(|| page(REPLAY_HTML)))
        .route("/report", get(report_page))
        .route("/assets/style.css", get(|| asset("text/css", STYLE_CSS)))
        .route(
            "/assets/common.js",
            get(|| asset("text/javascript", COMMON_JS)),
        )
        .route("/assets/play.js", get(|| asset("text/javascript", PLAY_JS)))
        .route(
            "/assets/replay.js",
            get(|| asset("text/javascript", REPLAY_JS)),
        )
        .route("/api/state", get(state))
        .route("/api/choose", post(choose))
        .route("/api/new", post(new_game))
        .route("/api/reload", post(reload))
        .route("/api/cards", get(cards))
        .route("/api/replay", get(replay_step))
        .route("/api/report", get(report_json))
        .fallback(|| async { Failure(StatusCode::NOT_FOUND, "no such page".into()) })
        .layer(axum::middleware::from_fn(guard))
        .with_state(server)
}

/// The header every `POST` must carry. A page of another site can make the browser send a plain
/// `POST` to 127.0.0.1 but not one with a header of its own (that needs the server's consent, which
/// it never gives): so no other site can play or restart the game.
const POST_HEADER: &str = "x-cardgame";

/// Refuses (403) a request whose `Host` is not this machine (a site whose name was made to point at
/// 127.0.0.1) and a `POST` without [`POST_HEADER`].
async fn guard(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let name = host.rsplit_once(':').map_or(host, |(n, _)| n);
    if !matches!(name, "127.0.0.1" | "localhost") {
        return Failure(
            StatusCode::FORBIDDEN,
            format!("this server answers requests for 127.0.0.1 only, not `{host}`"),
        )
        .into_response();
    }
    if req.method() == axum::http::Method::POST && !req.headers().contains_key(POST_HEADER) {
        return Failure(
            StatusCode::FORBIDDEN,
            format!("a POST needs the header `{POST_HEADER}: 1` (the pages send it)"),
        )
        .into_response();
    }
    next.run(req).await
}

/// Runs `f` on a thread of its own: a game's bots may think for a while, and the server stays free to
/// answer meanwhile (other requests for the game wait for it).
async fn blocking<F>(f: F) -> Result<Json<serde_json::Value>, Failure>
where
    F: FnOnce() -> Result<serde_json::Value, Failure> + Send + 'static,
{
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| internal(e.to_string()))?
        .map(Json)
}

const PLAY_HTML: &str = include_str!("assets/play.html");
const REPLAY_HTML: &str = include_str!("assets/replay.html");
const STYLE_CSS: &str = include_str!("assets/style.css");
const COMMON_JS: &str = include_str!("assets/common.js");
const PLAY_JS: &str = include_str!("assets/play.js");
const REPLAY_JS: &str = include_str!("assets/replay.js");

async fn page(html: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response()
}

async fn asset(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

fn state_now(s: &Server, q: &HashMap<String, String>) -> Result<serde_json::Value, Failure> {
    params(q, &[])?;
    let l = s.lock()?;
    let mut v = l.session.state();
    v["seed"] = l.seed.into();
    Ok(v)
}

async fn state(
    State(s): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<serde_json::Value>, Failure> {
    blocking(move || state_now(&s, &q)).await
}

/// `POST /api/choose?option=I&step=S`: option `I` (0-based) of the seat's decision, at step `S`.
fn choose_now(s: &Server, q: &HashMap<String, String>) -> Result<serde_json::Value, Failure> {
    params(q, &["option", "step"])?;
    let option = number(q, "option")?.ok_or_else(|| bad("`option` is required"))?;
    let step = number(q, "step")?;
    let mut l = s.lock()?;
    let option = usize::try_from(option).map_err(|_| bad("`option` is too large"))?;
    match l.session.choose(option, step) {
        Ok(()) => {}
        Err(Refusal::Bad(m)) => return Err(bad(m)),
        Err(Refusal::Conflict(m)) => return Err(Failure(StatusCode::CONFLICT, m)),
    }
    let mut v = l.session.state();
    v["seed"] = l.seed.into();
    Ok(v)
}

async fn choose(
    State(s): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<serde_json::Value>, Failure> {
    blocking(move || choose_now(&s, &q)).await
}

/// `POST /api/new[?seed=S]`: a new game (the next seed by default).
fn new_game_now(s: &Server, q: &HashMap<String, String>) -> Result<serde_json::Value, Failure> {
    params(q, &["seed"])?;
    let seed = number(q, "seed")?;
    let mut l = s.lock()?;
    let seed = seed.unwrap_or_else(|| l.seed.wrapping_add(1));
    let source = l.source.clone();
    let fresh = s.start((l.program.clone(), &source), seed).map_err(bad)?;
    *l = fresh;
    let mut v = l.session.state();
    v["seed"] = l.seed.into();
    Ok(v)
}

async fn new_game(
    State(s): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<serde_json::Value>, Failure> {
    blocking(move || new_game_now(&s, &q)).await
}

/// `POST /api/reload`: read the script and its card sheets again and start a new game with the same seed.
fn reload_now(s: &Server, q: &HashMap<String, String>) -> Result<serde_json::Value, Failure> {
    params(q, &[])?;
    let (program, source) = load_variant(&s.args.file, &s.args.game.set).map_err(|_| {
        Failure(
            StatusCode::UNPROCESSABLE_ENTITY,
            "the script has errors (see the server's terminal); the game in progress is kept"
                .into(),
        )
    })?;
    let mut l = s.lock()?;
    let fresh = s
        .start((program, &source), l.seed)
        .map_err(|e| Failure(StatusCode::UNPROCESSABLE_ENTITY, e))?;
    *l = fresh;
    s.replays.clear();
    let mut v = l.session.state();
    v["seed"] = l.seed.into();
    Ok(v)
}

async fn reload(
    State(s): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<serde_json::Value>, Failure> {
    blocking(move || reload_now(&s, &q)).await
}

fn cards_now(s: &Server, q: &HashMap<String, String>) -> Result<serde_json::Value, Failure> {
    params(q, &[])?;
    let (program, seed) = {
        let l = s.lock()?;
        (l.program.clone(), l.seed)
    };
    let cfg = s.config(&program, seed).map_err(bad)?;
    Ok(session::cards_of(program, cfg))
}

async fn cards(
    State(s): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<serde_json::Value>, Failure> {
    blocking(move || cards_now(&s, &q)).await
}

/// `GET /api/replay?seed=S&step=N&seat=K|all`: step N of the seeded game played by the agents.
async fn replay_step(
    State(s): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<serde_json::Value>, Failure> {
    params(&q, &["seed", "step", "seat"])?;
    let (program, model) = {
        let l = s.lock()?;
        (l.program.clone(), l.model.clone())
    };
    let seed = number(&q, "seed")?.unwrap_or(s.args.seed);
    let step = number(&q, "step")?.unwrap_or(0);
    let cfg = s.config(&program, seed).map_err(bad)?;
    let seat = match q.get("seat").map(|v| v.trim()) {
        None | Some("all") | Some("") => None,
        Some(v) => match v.parse::<u8>() {
            Ok(k) if k >= 1 && k <= cfg.players => Some(k - 1),
            _ => {
                return Err(bad(format!(
                    "`seat` takes a seat from 1 to {} or `all`, not `{v}`",
                    cfg.players
                )))
            }
        },
    };
    let server = s.clone();
    let r = tokio::task::spawn_blocking(move || {
        server.replays.step(
            &program,
            cfg,
            (&server.args.agents, model.as_ref()),
            step,
            seat,
        )
    })
    .await
    .map_err(|e| internal(e.to_string()))?;
    r.map(Json).map_err(bad)
}

/// The simulation a Report request asks for: `games` (200 by default, at most 100,000), `seed` and
/// `agents` (the server's by default), on every core (the report is the same for any number).
fn report_of(s: &Server, q: &HashMap<String, String>) -> Result<serde_json::Value, Failure> {
    params(q, &["games", "seed", "agents"])?;
    let games = number(q, "games")?.unwrap_or(200);
    if !(1..=100_000).contains(&games) {
        return Err(bad(format!(
            "`games` takes a number from 1 to 100000, not {games}"
        )));
    }
    let seed = number(q, "seed")?.unwrap_or(s.args.seed);
    // The page's form sends an empty `agents` when left blank: the server's agents.
    let agents = match q.get("agents").map(|a| a.trim()) {
        Some(a) if !a.is_empty() => a.to_string(),
        _ => s.args.agents.clone(),
    };
    let (program, model) = {
        let l = s.lock()?;
        (l.program.clone(), l.model.clone())
    };
    let cfg = s.config(&program, seed).map_err(bad)?;
    let sc = SimConfig {
        games,
        players: cfg.players,
        seed,
        jobs: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        agents: agents.split(',').map(|a| a.trim().to_string()).collect(),
        rotate: true,
        options: cfg.options.clone(),
        settings: s.args.game.set.clone(),
        max_turns: cfg.max_turns,
        max_decisions: cfg.max_decisions,
        max_steps: cfg.max_steps,
        engine: cfg.engine,
        shard: None,
        model,
        course: true,
        curves: Vec::new(),
    };
    let report = simulate(&program, &sc, &|| {}).map_err(bad)?;
    serde_json::to_value(&report).map_err(|e| internal(e.to_string()))
}

async fn report_json(
    State(s): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<serde_json::Value>, Failure> {
    let r = tokio::task::spawn_blocking(move || report_of(&s, &q))
        .await
        .map_err(|e| internal(e.to_string()))?;
    r.map(Json)
}

/// `GET /report`: the report as a page; a form filled in wrongly gives the page again with the error
/// in it (status 400), not the JSON error of the API.
async fn report_page(
    State(s): State<Shared>,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Response, Failure> {
    let (server, query) = (s.clone(), q.clone());
    let r = tokio::task::spawn_blocking(move || report_of(&server, &query))
        .await
        .map_err(|e| internal(e.to_string()))?;
    let html = |status: StatusCode, page: String| {
        (
            status,
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            page,
        )
            .into_response()
    };
    match r {
        Ok(r) => Ok(html(
            StatusCode::OK,
            crate::html::report::page(&r, true, &s.args.file.display().to_string()),
        )),
        Err(Failure(StatusCode::BAD_REQUEST, error)) => {
            let game = s.lock()?.program.name.clone();
            let sent = |k: &str| q.get(k).cloned().unwrap_or_default();
            Ok(html(
                StatusCode::BAD_REQUEST,
                crate::html::report::form_error_page(
                    &game,
                    &error,
                    &sent("games"),
                    &sent("seed"),
                    &sent("agents"),
                ),
            ))
        }
        Err(other) => Err(other),
    }
}
