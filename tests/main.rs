//! Tests stage: the one integration-test binary of the `cardgame` package. Each module is one area of the
//! product; one binary links once, where twenty linked each on their own. The slow checks are `#[ignore]`d:
//! `cargo test --release -- --ignored MODULE::` runs them (see each module's first lines).

mod common;

mod browser;
mod cli;
mod compare_shards;
mod cooperative;
mod curves;
mod editors;
mod errors;
mod explain;
mod fmt;
mod fuzz;
mod goals;
mod heavy;
mod inference;
mod learn;
mod learned_strength;
mod limits;
mod lsp;
mod outputs;
mod participants;
mod play;
mod readme;
mod recorded;
mod scripts;
mod search_strength;
mod serve;
mod shard;
mod sheets;
mod shown;
mod sim;
mod stat_keys;
mod strategies;
mod strength;
mod studies;
mod tournament;
mod wander;
mod watch;
