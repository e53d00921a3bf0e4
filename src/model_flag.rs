//! Command line: which learned model a command's agents use (`--model`, `--no-model`, or the model
//! found beside the script), where `learn` writes one, and how one is read and checked.

use cardgame_interpreter::agents::{script_hash, Model};
use cardgame_interpreter::program::Program;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Where `learn` writes its model by default: beside the script, `NAME.Np.model`.
pub fn default_model_path(file: &Path, players: u8) -> PathBuf {
    let stem = file
        .file_stem()
        .map_or("script".into(), |s| s.to_string_lossy().into_owned());
    file.with_file_name(format!("{stem}.{players}p.model"))
}

/// Which learned model a command's agents use: `--model MODEL`, else the model found beside the
/// script under the name `learn` writes (`NAME.Np.model` for the game's N players), unless
/// `--no-model`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ModelArgs {
    /// A learned model (`cardgame learn`) for the agents `search` and `learned`. Without it, the
    /// model beside the script for the game's player count (`NAME.Np.model`, where `learn` writes
    /// it) is used when there is one.
    #[arg(long, value_name = "MODEL")]
    pub model: Option<PathBuf>,
    /// Use no model: ignore the one beside the script.
    #[arg(long, conflicts_with = "model")]
    pub no_model: bool,
}

impl ModelArgs {
    /// The model file to use with `file` at `players` players, and whether it was found beside the
    /// script rather than given.
    pub fn path(&self, file: &Path, players: u8) -> Option<(PathBuf, bool)> {
        if let Some(p) = &self.model {
            return Some((p.clone(), false));
        }
        if self.no_model {
            return None;
        }
        let beside = default_model_path(file, players);
        beside.is_file().then_some((beside, true))
    }
}

/// The model of `args` for `program` (whose text is `source`) at `players` players, checked: a model
/// found beside the script is said once on standard error, and one that does not match is refused
/// with how to learn again or to ignore it (`--no-model`).
pub fn model_of(
    args: &ModelArgs,
    file: &Path,
    program: &Program,
    source: &str,
    players: u8,
) -> Result<Option<Arc<Model>>, String> {
    let Some((path, found)) = args.path(file, players) else {
        return Ok(None);
    };
    match load_model(&path, program, source, players) {
        Ok(m) => {
            if found {
                errln!(
                    "note: using the model {} found beside the script (`--no-model` ignores it)",
                    path.display()
                );
            }
            Ok(Some(m))
        }
        Err(e) if found => Err(format!(
            "{e}\n(this model was found beside the script, for {players} players: learn again, \
             or pass `--no-model` to play without it)"
        )),
        Err(e) => Err(e),
    }
}

/// Reads the model `path` for `program` (whose text is `source`) at `players` players; an error says
/// what is wrong and how to learn again.
pub fn load_model(
    path: &Path,
    program: &Program,
    source: &str,
    players: u8,
) -> Result<Arc<Model>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the model {}: {e}", path.display()))?;
    Model::from_text(&text, program, &script_hash(source), players)
        .map(Arc::new)
        .map_err(|e| format!("{}: {e}", path.display()))
}
