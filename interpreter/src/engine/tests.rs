//! Engine stage: unit tests on small programs built by hand (no parser or checker involved).

mod build;
mod fast;
mod fast_stmts;
mod games;
mod labels;
mod lang;
mod more;
mod seat_lists;
mod simul_many;
mod store;
mod template;
mod watch;
