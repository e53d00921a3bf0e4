//! Browser test of `cardgame serve` (ignored: it needs Debian's `chromium` and Node.js, and on its first
//! run `npm install` fetches the npm package `playwright-core` from the npm registry into
//! tests/browser/node_modules: it needs the network). It starts the
//! server on a free port, then tests/browser/run.js drives headless Chromium (playwright-core): it
//! plays Market Race to its end by clicking options (the scores shown), opens a replay at step 0 (the
//! setup folded) and steps through it, reads the report, and
//! saves a screenshot of each page in `$SCREENSHOTS_DIR` (target/screenshots by default; `docs` renews
//! the README's pictures). Run it with:
//!
//! ```text
//! apt-get install -y chromium nodejs npm
//! cargo test --test all -- --ignored browser::
//! SCREENSHOTS_DIR=docs cargo test --test all -- --ignored browser::
//! ```

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// The server, stopped when dropped (also when the test fails).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
#[ignore = "needs chromium, node and npm (installs playwright-core from the network): cargo test --test all -- --ignored browser::"]
fn chromium_plays_replays_and_reads_the_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let driver = root.join("tests/browser");
    if !driver.join("node_modules/playwright-core").exists() {
        let npm = Command::new("npm")
            .args(["install", "--no-audit", "--no-fund"])
            .current_dir(&driver)
            .status()
            .expect("npm runs");
        assert!(npm.success(), "npm install in tests/browser");
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardgame"))
        .args(["serve", "examples/market-race.cardgame", "--port", "0"])
        .current_dir(root)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let out = child.stdout.take().expect("stdout");
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(out)
        .read_line(&mut line)
        .expect("the address");
    let from = line.find("http://").expect("an address");
    let rest = &line[from..];
    let base =
        rest[..rest["http://".len()..].find('/').expect("a slash") + "http://".len()].to_string();
    let shots = std::env::var("SCREENSHOTS_DIR").unwrap_or_else(|_| "target/screenshots".into());
    let shots = root.join(shots);
    let run = Command::new("node")
        .arg("run.js")
        .arg(&base)
        .arg(&shots)
        .current_dir(&driver)
        .status()
        .expect("node runs");
    drop(server);
    assert!(run.success(), "tests/browser/run.js against {base}");
    for page in ["serve-play.png", "serve-replay.png", "serve-report.png"] {
        let size = std::fs::metadata(shots.join(page))
            .map(|m| m.len())
            .unwrap_or(0);
        assert!(size > 10_000, "{page} is a real screenshot ({size} bytes)");
    }
}
