//! Engine stage: unit tests on small programs built by hand (no parser or checker involved).

mod build;
mod closures;
// The fast paths' tests count what the debug builds' checks saw: debug builds only.
mod factory;
#[cfg(debug_assertions)]
mod fast;
mod games;
mod labels;
mod lang;
mod memo;
mod menus;
mod more;
mod oracle;
mod rounds;
mod seat_lists;
mod simul_many;
mod store;
mod watch;
