//! The lot that gives a round robin's players their numbers (hence, through the Berger tables,
//! their pairings and colours), drawn so that no one party can steer it: every entrant and the
//! director commit to a nonce before anyone reveals one ([`crate::flip::commitment`], bound to
//! the event), and the numbers come from all the nonces together. Anyone holding the revealed
//! nonces draws the same numbers again.
//!
//! The seed is SHA-256 over a domain label, the event's id and each party's key digest and
//! nonce, in the order of their key digests, so that the order in which they entered or
//! revealed changes nothing. Each entrant's number is their place in the order of
//! SHA-256(label, seed, key digest). A party who withholds their nonce once they could compute
//! the draw stops it, and must not be able to choose it: so the event waits for every nonce;
//! numbering the others without the withholder would let the last to reveal choose between two
//! draws.

use crate::digest::Digest;
use crate::flip;

/// One party to the lot: who (the digest of their public key) and what they committed to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Party {
    /// The SHA-256 digest of the party's public key.
    pub key: Digest,
    /// Their commitment, made before anyone revealed.
    pub commitment: Digest,
    /// Their nonce, once revealed.
    pub nonce: Option<Digest>,
}

/// Why the lot cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LotError {
    /// A party is there twice.
    #[error("the key {0} is a party to the lot twice")]
    Twice(String),
    /// A party has not revealed their nonce yet.
    #[error("the key {0} has not revealed its nonce")]
    Unrevealed(String),
    /// A revealed nonce does not open its commitment.
    #[error("the nonce the key {0} revealed does not open its commitment")]
    Mismatch(String),
    /// No entrant to number.
    #[error("no entrant to number")]
    NoEntrant,
}

/// The entrants in the order of their numbers (the first is number 1), from the event's id,
/// the director (who draws no number) and the entrants, each revealed and checked against
/// their commitment.
///
/// # Errors
/// A party twice, a nonce not revealed or not matching its commitment, or no entrant.
pub fn numbers(
    event: &Digest,
    director: &Party,
    entrants: &[Party],
) -> Result<Vec<Digest>, LotError> {
    order(event, director, entrants, b"correspond/lot/v1/number\0")
}

/// The entrants in the order of the lot that comes after every tie-break of the crosstable:
/// drawn from the same nonces as [`numbers`], but under its own label, so that it is not the
/// order of the numbers (which gave the colours).
///
/// # Errors
/// As [`numbers`].
pub fn tie_break_order(
    event: &Digest,
    director: &Party,
    entrants: &[Party],
) -> Result<Vec<Digest>, LotError> {
    order(event, director, entrants, b"correspond/lot/v1/tie-break\0")
}

/// The entrants in the order of SHA-256(`label`, seed, key digest), the seed drawn from every
/// party's nonce.
fn order(
    event: &Digest,
    director: &Party,
    entrants: &[Party],
    label: &[u8],
) -> Result<Vec<Digest>, LotError> {
    let seed = seed(event, director, entrants)?;
    let mut drawn: Vec<(Digest, Digest)> = entrants
        .iter()
        .map(|p| (Digest::of_parts(&[label, &seed.0, &p.key.0]), p.key))
        .collect();
    drawn.sort();
    Ok(drawn.into_iter().map(|(_, key)| key).collect())
}

/// The seed of the lot: every party checked, then their keys and nonces in the order of the
/// keys.
fn seed(event: &Digest, director: &Party, entrants: &[Party]) -> Result<Digest, LotError> {
    if entrants.is_empty() {
        return Err(LotError::NoEntrant);
    }
    let mut parties: Vec<(Digest, Digest)> = Vec::with_capacity(entrants.len() + 1);
    for party in std::iter::once(director).chain(entrants) {
        let short = party.key.short();
        let nonce = party
            .nonce
            .ok_or_else(|| LotError::Unrevealed(short.clone()))?;
        if flip::commitment(event, &nonce) != party.commitment {
            return Err(LotError::Mismatch(short));
        }
        if parties.iter().any(|(key, _)| *key == party.key) {
            return Err(LotError::Twice(short));
        }
        parties.push((party.key, nonce));
    }
    parties.sort();
    let mut seed_parts: Vec<&[u8]> = vec![b"correspond/lot/v1/seed\0", &event.0];
    for (key, nonce) in &parties {
        seed_parts.push(&key.0);
        seed_parts.push(&nonce.0);
    }
    Ok(Digest::of_parts(&seed_parts))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn party(event: &Digest, who: &str) -> Party {
        let nonce = Digest::of(format!("nonce of {who}").as_bytes());
        Party {
            key: Digest::of(who.as_bytes()),
            commitment: flip::commitment(event, &nonce),
            nonce: Some(nonce),
        }
    }

    /// The director and five entrants of `event`, each revealed.
    fn five(event: &Digest) -> (Party, Vec<Party>) {
        let entrants = ["alice", "bob", "carol", "dave", "erin"]
            .iter()
            .map(|who| party(event, who))
            .collect();
        (party(event, "director"), entrants)
    }

    fn names(drawn: &[Digest]) -> Vec<String> {
        drawn
            .iter()
            .map(|key| {
                ["alice", "bob", "carol", "dave", "erin"]
                    .iter()
                    .find(|who| Digest::of(who.as_bytes()) == *key)
                    .map_or_else(|| "?".to_owned(), |who| (*who).to_owned())
            })
            .collect()
    }

    #[test]
    fn the_draw_is_the_same_from_the_same_nonces_in_any_order() {
        let event = Digest::of(b"event");
        let (director, entrants) = five(&event);
        let drawn = numbers(&event, &director, &entrants).expect("a draw");
        assert_eq!(drawn.len(), 5);
        let mut reversed = entrants.clone();
        reversed.reverse();
        assert_eq!(numbers(&event, &director, &reversed), Ok(drawn.clone()));
        let mut sorted = names(&drawn);
        sorted.sort();
        assert_eq!(sorted, ["alice", "bob", "carol", "dave", "erin"]);
    }

    /// Any one party's nonce, the director's included, changes the draw: none of them alone
    /// fixes it; and over many events each entrant draws number 1 about as often as another.
    #[test]
    fn every_nonce_counts_and_no_number_is_favoured() {
        let event = Digest::of(b"event");
        let (director, entrants) = five(&event);
        let drawn = numbers(&event, &director, &entrants).expect("a draw");
        let mut firsts = std::collections::BTreeMap::new();
        let mut changed = 0;
        for i in 0..600u32 {
            let nonce = Digest::of(&i.to_be_bytes());
            let mut others = entrants.clone();
            let who = (i % 6) as usize;
            let fresh = |p: &Party| Party {
                commitment: flip::commitment(&event, &nonce),
                nonce: Some(nonce),
                ..*p
            };
            let director = if who == 5 { fresh(&director) } else { director };
            if who < 5 {
                others[who] = fresh(&others[who]);
            }
            let again = numbers(&event, &director, &others).expect("a draw");
            changed += usize::from(again != drawn);
            *firsts.entry(again[0]).or_insert(0) += 1;
        }
        assert!(changed > 550, "{changed} of 600 draws changed");
        assert_eq!(firsts.len(), 5);
        assert!(
            firsts.values().all(|n| (80..=160).contains(n)),
            "{firsts:?}"
        );
    }

    /// The lot after the tie-breaks is drawn from the same nonces, but is not the order of the
    /// numbers, and is the same from any order of the entrants.
    #[test]
    fn the_tie_break_lot_is_its_own_draw() {
        let event = Digest::of(b"event");
        let (director, entrants) = five(&event);
        let numbers = numbers(&event, &director, &entrants).expect("a draw");
        let lot = tie_break_order(&event, &director, &entrants).expect("a draw");
        assert_ne!(numbers, lot);
        let mut reversed = entrants.clone();
        reversed.reverse();
        assert_eq!(
            tie_break_order(&event, &director, &reversed),
            Ok(lot.clone())
        );
        let mut sorted = names(&lot);
        sorted.sort();
        assert_eq!(sorted, ["alice", "bob", "carol", "dave", "erin"]);
    }

    #[test]
    fn a_nonce_that_does_not_open_its_commitment_is_refused() {
        let event = Digest::of(b"event");
        let director = party(&event, "director");
        let mut entrants = vec![party(&event, "alice"), party(&event, "bob")];
        entrants[1].nonce = Some(Digest::of(b"another nonce"));
        let bob = Digest::of(b"bob").short();
        assert_eq!(
            numbers(&event, &director, &entrants),
            Err(LotError::Mismatch(bob.clone()))
        );
        entrants[1].nonce = None;
        assert_eq!(
            numbers(&event, &director, &entrants),
            Err(LotError::Unrevealed(bob))
        );
        // A commitment made for another event does not open here.
        let elsewhere = party(&Digest::of(b"another event"), "alice");
        assert!(matches!(
            numbers(&event, &director, &[elsewhere]),
            Err(LotError::Mismatch(_))
        ));
        let alice = party(&event, "alice");
        assert_eq!(
            numbers(&event, &director, &[alice, alice]),
            Err(LotError::Twice(Digest::of(b"alice").short()))
        );
        assert_eq!(numbers(&event, &director, &[]), Err(LotError::NoEntrant));
    }
}
