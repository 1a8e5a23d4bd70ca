//! Clubs: many games in one place, their lists and standings, their site, and the referee's hooks.

pub(crate) mod games;
pub(crate) mod merge_driver;
pub(crate) mod rating_pages;
pub(crate) mod rating_rules;
pub(crate) mod ratings;
pub(crate) mod referee;
pub(crate) mod setup_git;
pub(crate) mod site;
pub(crate) mod standings;
