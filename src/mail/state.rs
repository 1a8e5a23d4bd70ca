//! The file as `receive` grows it block by block: applying a block, telling a forgery from a
//! fork, starting a file from a challenge, and checking that a block carries what it says.

use super::{Found, MailError, Merge, Packet, ReceiveError, merge};
use crate::digest::Digest;
use crate::fork::{self, Relation};
use crate::games;
use crate::games::AnyReplayer;
use crate::log::GameFile;
use crate::replay::{self, ReplayError};

/// The file as blocks grow it, and its replay so far.
pub(super) struct State {
    pub(super) file: GameFile,
    /// `None` only while a record is being checked.
    pub(super) replayer: Option<AnyReplayer>,
    pub(super) known: usize,
    pub(super) other_games: usize,
    pub(super) passed_over: Vec<ReceiveError>,
}

pub(super) enum Applied {
    Known,
    Grew,
}

impl State {
    /// Back to the file's first `documents` documents, and their replay (a rare, slow path).
    pub(super) fn truncate(&mut self, documents: usize) {
        self.file.truncate(documents);
        self.replayer = Some(
            AnyReplayer::start(&self.file)
                .and_then(|r| r.advance(&self.file))
                .expect("the file verified before this block"),
        );
    }

    /// Applies one packet, or leaves everything as it was and says why not.
    pub(super) fn apply(&mut self, packet: &Packet) -> Result<Applied, MailError> {
        match merge(&self.file, packet)? {
            Merge::Known => {
                self.known += 1;
                Ok(Applied::Known)
            }
            Merge::Grows(tail) => {
                let before = self.file.documents();
                self.file
                    .append(&tail)
                    .map_err(|e| MailError::Invalid(e.into()))?;
                let replayer = self
                    .replayer
                    .take()
                    .expect("the replay is kept between blocks");
                match replayer.advance(&self.file) {
                    Ok(advanced) => self.replayer = Some(advanced),
                    Err(e) => {
                        self.truncate(before);
                        let elsewhere = e.document == Some(before)
                            && matches!(e.kind, replay::ErrorKind::BrokenChain { .. });
                        return Err(if elsewhere {
                            MailError::Elsewhere(before)
                        } else {
                            MailError::Invalid(e)
                        });
                    }
                }
                if let Err(e) = as_claimed(&self.file, packet) {
                    self.truncate(before);
                    return Err(e);
                }
                Ok(Applied::Grew)
            }
            Merge::Differs(document) => Err(self.differs(packet, document)),
        }
    }

    /// Why a packet that disagrees with the file is refused: its version does not verify (a
    /// forgery, or junk under this game's id), or it does, and the copies have forked.
    pub(super) fn differs(&self, packet: &Packet, document: usize) -> MailError {
        let local = self.file.text().as_bytes();
        let start = match packet.first {
            0 => 0,
            n => self.file.span(n).start,
        };
        let rival = [&local[..start], &packet.bytes].concat();
        if let Err(e) = games::verify(&rival) {
            return MailError::Invalid(e);
        }
        match fork::compare(local, &rival) {
            Ok(Relation::Fork(fork)) => MailError::Fork {
                fork,
                versions: Box::new([local.to_vec(), rival]),
            },
            // Its `Game:` line names this game, but its bytes are another game's.
            _ => MailError::Damaged {
                game: Some(packet.game),
                range: Some((packet.first, packet.last)),
                quoted: false,
                why: format!(
                    "its `Game:` line names this game, but its record {document} is not this \
                     game's"
                ),
            },
        }
    }
}

/// The header a challenge block carries, for `receive` without a local file: the blocks, the
/// challenge among them, then add the records. Of several challenges of one game, the header
/// is the same bytes (the game id is its digest), so which block gives it does not matter.
pub(super) fn start(found: &[Found]) -> Result<GameFile, ReceiveError> {
    let mut challenges: Vec<(&str, &Packet)> = found
        .iter()
        .filter_map(|f| f.packet.as_ref().ok().map(|p| (f.origin.as_str(), p)))
        .filter(|(_, p)| p.first == 0)
        .collect();
    challenges.sort_by_cached_key(|(_, p)| Digest::of(&p.bytes));
    let mut games: Vec<Digest> = challenges.iter().map(|(_, p)| p.game).collect();
    games.sort();
    games.dedup();
    if games.len() > 1 {
        return Err(ReceiveError {
            origin: None,
            error: Box::new(MailError::SeveralGames(games)),
            passed_over: Vec::new(),
        });
    }
    let mut refusal = None;
    for (origin, packet) in &challenges {
        match header(packet) {
            Ok(file) => return Ok(file),
            Err(e) => refusal = refusal.or_else(|| Some(ReceiveError::at(origin, e))),
        }
    }
    Err(refusal.unwrap_or_else(|| {
        let error = found
            .iter()
            .find_map(|f| f.packet.as_ref().err())
            .cloned()
            .unwrap_or(MailError::NoChallenge);
        ReceiveError {
            origin: found.first().map(|f| f.origin.clone()),
            error: Box::new(error),
            passed_over: Vec::new(),
        }
    }))
}

/// The comment lines and header at the start of a challenge's bytes, verified.
fn header(packet: &Packet) -> Result<GameFile, MailError> {
    let invalid = |e: ReplayError| MailError::Invalid(e);
    let end = crate::log::raw_document(&packet.bytes, 0)
        .map_err(|e| invalid(e.into()))?
        .end;
    let bytes = &packet.bytes[..end];
    games::verify(bytes).map_err(invalid)?;
    let file = GameFile::parse(bytes).expect("a file that verifies parses");
    if file.game_id() != packet.game {
        return Err(MailError::Damaged {
            game: Some(packet.game),
            range: Some((packet.first, packet.last)),
            quoted: false,
            why: format!(
                "its `Game:` line says {}, but its header is game {}",
                packet.game,
                file.game_id()
            ),
        });
    }
    Ok(file)
}

/// Whether the file that a packet grew holds what the packet's lines say it carries.
fn as_claimed(file: &GameFile, packet: &Packet) -> Result<(), MailError> {
    let says = |why: String| MailError::Damaged {
        game: Some(packet.game),
        range: Some((packet.first, packet.last)),
        quoted: false,
        why,
    };
    if file.game_id() != packet.game {
        return Err(says(format!(
            "its `Game:` line says {}, but its records are of game {}",
            packet.game,
            file.game_id()
        )));
    }
    if file.documents() != packet.last + 1 {
        return Err(says(format!(
            "its `Documents:` line says {}-{}, but it ends at record {}",
            packet.first,
            packet.last,
            file.documents() - 1
        )));
    }
    Ok(())
}
