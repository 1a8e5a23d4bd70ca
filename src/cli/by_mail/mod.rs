//! Playing by mail: messages written and received, and crossed records settled.

pub(crate) mod mail;
pub(crate) mod receive;
pub(crate) mod settle;
