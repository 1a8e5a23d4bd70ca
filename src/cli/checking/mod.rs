//! Checking games and settling disputes: verification, audits, copies compared, proofs, the arbiter.

pub(crate) mod adjudicate;
pub(crate) mod audit;
pub(crate) mod check_proof;
pub(crate) mod compare;
pub(crate) mod verify;
