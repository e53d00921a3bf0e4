//! Engine stage: unit tests on small programs built by hand (no parser or checker involved).

mod build;
mod closures;
mod draws;
mod events;
mod expressions;
mod factory;
mod games;
mod gaps;
mod labels;
mod lang;
mod lists;
mod loops;
mod memo;
mod menus;
mod more;
mod oracle;
mod plans;
mod props;
mod rounds;
mod seat_lists;
mod simul_many;
mod store;
mod taken_over;
mod texts;
mod walked;
mod watch;
