//! Starting and playing a game: each command signs one record (or a header) and appends it.

pub(crate) mod accept;
pub(crate) mod accept_runoff;
pub(crate) mod claim_runoff;
pub(crate) mod claim_timeout;
pub(crate) mod disclose;
pub(crate) mod flip;
pub(crate) mod leave;
pub(crate) mod new;
pub(crate) mod offer_runoff;
pub(crate) mod play;
pub(crate) mod resign;
pub(crate) mod withdraw;
