//! What a record does, read from the fields its kind carries: each field taken once, checked
//! as the file format says, and made the record's [`Action`].

use super::{
    Action, Adjudged, Adjudication, AdjudicationReason, Conditional, Disclosure, Kind, RawRecord,
    Reveal, digest,
};
use crate::log::names::{valid_move_text, valid_word};
use crate::text::shown;

impl RawRecord {
    /// What a record of kind `kind` does, from the fields it carries: they are taken, left
    /// `None`, and not read again.
    pub(super) fn take_action(&mut self, kind: Kind) -> Result<Action, String> {
        let need = |field: &str, value: Option<String>| {
            value.ok_or_else(|| format!("a record of kind `{kind}` needs a `{field}` field"))
        };
        Ok(match kind {
            Kind::Accept => Action::Accept {
                nonce: self.nonce.take().map(|n| digest("nonce", &n)).transpose()?,
            },
            Kind::Move | Kind::Applied => {
                let text = need("move", self.mv.take())?;
                if !valid_move_text(&text) {
                    return Err(format!(
                        "`{}` is not written in move notation",
                        shown(&text)
                    ));
                }
                if kind == Kind::Move {
                    Action::Move(text)
                } else {
                    Action::Applied(text)
                }
            }
            Kind::Conditional => {
                let lines = self
                    .lines
                    .take()
                    .ok_or_else(|| format!("a record of kind `{kind}` needs a `lines` field"))?;
                Action::Conditional(Conditional::parse(&lines)?)
            }
            Kind::HiddenConditional => Action::HiddenConditional(digest(
                "commitment",
                &need("commitment", self.commitment.take())?,
            )?),
            Kind::Reveal => Action::Reveal(self.take_reveal()?),
            Kind::Disclose => {
                let seed = digest("seed", &need("seed", self.seed.take())?)?;
                let lines = self
                    .lines
                    .take()
                    .ok_or_else(|| format!("a record of kind `{kind}` needs a `lines` field"))?;
                Action::Disclose(Disclosure {
                    seed,
                    lines: Conditional::parse(&lines)?,
                })
            }
            Kind::Withdraw => Action::Withdraw,
            Kind::Defer => Action::Defer,
            Kind::FlipCommit => Action::FlipCommit(digest(
                "commitment",
                &need("commitment", self.commitment.take())?,
            )?),
            Kind::FlipNonce => {
                Action::FlipNonce(digest("nonce", &need("nonce", self.nonce.take())?)?)
            }
            Kind::FlipReveal => {
                Action::FlipReveal(digest("nonce", &need("nonce", self.nonce.take())?)?)
            }
            Kind::Resign => Action::Resign,
            Kind::Offer(settlement) => Action::Offer(settlement),
            Kind::AcceptOffer(settlement) => Action::AcceptOffer(settlement),
            Kind::ClaimTimeout => Action::ClaimTimeout,
            Kind::Leave => {
                let days = self
                    .days
                    .ok_or_else(|| format!("a record of kind `{kind}` needs a `days` field"))?;
                if !(1..=crate::log::MAX_LEAVE_DAYS).contains(&days) {
                    return Err(format!(
                        "`days` is 1 to {}, not {days}",
                        crate::log::MAX_LEAVE_DAYS
                    ));
                }
                Action::Leave(days)
            }
            Kind::Adjudicate => Action::Adjudicate(adjudication(
                &need("result", self.result.take())?,
                &need("reason", self.reason.take())?,
            )?),
            Kind::Claim(settlement) => {
                let claim = need("claim", self.claim.take())?;
                if !valid_word(&claim) {
                    return Err(format!("`{}` is not a claim", shown(&claim)));
                }
                Action::Claim(settlement, claim)
            }
        })
    }

    /// A reveal's reply, salt and proof.
    fn take_reveal(&mut self) -> Result<Reveal, String> {
        let need = |field: &str, value: Option<String>| {
            value.ok_or_else(|| format!("a record of kind `reveal` needs a `{field}` field"))
        };
        let mv = need("move", self.mv.take())?;
        if !valid_move_text(&mv) {
            return Err(format!("`{}` is not written in move notation", shown(&mv)));
        }
        let salt = digest("salt", &need("salt", self.salt.take())?)?;
        let proof = self
            .proof
            .take()
            .ok_or("a record of kind `reveal` needs a `proof` field")?;
        if proof.is_empty() || proof.len() > crate::hidden::MAX_PROOF {
            return Err(format!(
                "a reveal's proof holds 1 to {} digests, not {}",
                crate::hidden::MAX_PROOF,
                proof.len()
            ));
        }
        let proof = proof
            .iter()
            .map(|d| digest("proof", d))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Reveal { mv, salt, proof })
    }
}

/// An adjudication's `result` and `reason` fields, each one of the names.
fn adjudication(result: &str, reason: &str) -> Result<Adjudication, String> {
    let words = |all: Vec<&str>| all.join(", ");
    Ok(Adjudication {
        result: Adjudged::named(result).ok_or_else(|| {
            format!(
                "`{}` is not a result ({})",
                shown(result),
                words(Adjudged::ALL.iter().map(|r| r.name()).collect())
            )
        })?,
        reason: AdjudicationReason::named(reason).ok_or_else(|| {
            format!(
                "`{}` is not a reason for an adjudication ({})",
                shown(reason),
                words(AdjudicationReason::ALL.iter().map(|r| r.name()).collect())
            )
        })?,
    })
}
