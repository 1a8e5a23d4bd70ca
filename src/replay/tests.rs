//! Replay tests.
