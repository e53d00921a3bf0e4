//! Command-line tests: `--watch` runs `check` and `test` again each time the script changes on disk,
//! however the editor saves it.

use std::process::Command;

/// A child process killed when dropped, so that a failed test never leaves it running.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `cardgame ARGS --watch FILE` on a script of its own, then for each step writes the script
/// (`rename`: by writing another file and renaming it over, as many editors save) and reads standard
/// output until a line contains the step's text. Every wait is bounded: the test can never hang.
fn watch_session(args: &[&str], name: &str, first: &str, steps: &[(&str, bool, &str)]) {
    use std::io::{BufRead, BufReader};
    use std::time::{Duration, Instant};
    let dir = std::env::temp_dir().join(format!("cardgame-watch-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.cardgame"));
    std::fs::write(&file, GOOD).expect("write");
    let mut all = args.to_vec();
    let path = file.to_string_lossy().into_owned();
    all.extend(["--watch", &path]);
    let mut child = Killed(
        Command::new(env!("CARGO_BIN_EXE_cardgame"))
            .args(&all)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the binary runs"),
    );
    let out = child.0.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            if tx.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut seen = String::new();
    let mut wait_for = |want: &str| -> bool {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    seen.push_str(&line);
                    seen.push('\n');
                    if line.contains(want) {
                        return true;
                    }
                }
                Err(_) => return false,
            }
        }
    };
    let mut results = vec![(first.to_string(), wait_for(first))];
    for (text, rename, want) in steps {
        if *rename {
            let tmp = dir.join("save.tmp");
            std::fs::write(&tmp, text).expect("write");
            std::fs::rename(&tmp, &file).expect("rename");
        } else {
            std::fs::write(&file, text).expect("write");
        }
        results.push((want.to_string(), wait_for(want)));
    }
    drop(child);
    for (want, found) in results {
        assert!(
            found,
            "`{want}` did not appear within the time limit; output:\n{seen}"
        );
    }
}

const GOOD: &str = "game \"W\" { players 2 }\nflow { win [seat(1)] \"done\" }\ntest \"wins\" { expect winners [seat(1)] }\n";
const BAD: &str = "game \"W\" { players 2 }\nflow { win [seat(9)] \"done\" \n";

#[test]
fn check_watch_runs_again_when_the_file_changes() {
    watch_session(
        &["check"],
        "check",
        "0 errors, 0 warnings",
        &[
            (BAD, false, "1 error"),
            (GOOD, true, "0 errors, 0 warnings"),
        ],
    );
}

#[test]
fn test_watch_runs_again_when_the_file_changes() {
    let failing = GOOD.replace("expect winners [seat(1)]", "expect winners [seat(2)]");
    watch_session(
        &["test", "--format", "json"],
        "test",
        "\"passed\":1",
        &[
            (&failing, true, "\"failed\":1"),
            (GOOD, false, "\"passed\":1"),
        ],
    );
}
