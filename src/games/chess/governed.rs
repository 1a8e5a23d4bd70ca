//! Insurrection's legal moves without playing most of them. A move is legal when it leaves no
//! government piece attacked (where the rules protect them); checking that by playing every
//! pseudo-legal move is exact but slow. When no government piece is attacked now, a move by a
//! piece outside the government that does not join it can expose one only by leaving a line
//! between it and an enemy slider: the pins, found once per position as orthodox chess finds
//! them, but for every government piece. Every other move (by the government, into it, en
//! passant, castling, or any move while a government piece is attacked) is still played and
//! judged the plain way. `src/games/chess/tests.rs` holds the two ways to the same moves.

use super::Move;
use super::board::{self, Bitboard, Role, Square};
use super::position::Position;

/// Where each of the mover's pieces may go without exposing a government piece: the whole board
/// for a piece pinned to none, the line of its pin otherwise.
pub(super) struct Pins([Bitboard; 64]);

impl Position {
    /// The pins of the side to move, when its government is protected, present and not
    /// attacked; `None` otherwise, when every move must be played to be judged.
    pub(super) fn pins(&self) -> Option<Pins> {
        let us = self.turn;
        let them = us.opponent();
        let government = self.government_pieces(us);
        if government == 0 || !self.protected(us) || self.attacked_government(us) != 0 {
            return None;
        }
        let ours = self.by_color[us.index()];
        let occupied = self.occupied();
        let queens = self.by_role[Role::Queen.index()];
        let rooks = (self.by_role[Role::Rook.index()] | queens) & self.by_color[them.index()];
        let bishops = (self.by_role[Role::Bishop.index()] | queens) & self.by_color[them.index()];
        let mut allowed = [!0; 64];
        for piece in Square::iter(government) {
            let snipers =
                board::rook_attacks(piece, 0) & rooks | board::bishop_attacks(piece, 0) & bishops;
            for sniper in Square::iter(snipers) {
                let blockers = board::between(piece, sniper) & occupied;
                if blockers.count_ones() == 1 && blockers & ours != 0 {
                    allowed[Square::first(blockers).index()] &= board::line(piece, sniper);
                }
            }
        }
        Some(Pins(allowed))
    }

    /// Whether pseudo-legal `mv` is legal, when the pins can tell: `None` for the moves that
    /// must be played to be judged.
    pub(super) fn judged_by_pins(&self, pins: &Pins, mv: Move) -> Option<bool> {
        let us = self.turn;
        let government = self.government[us.index()];
        let (from, to) = (mv.from.bit(), mv.to.bit());
        let of_role = |role: Role| self.by_role[role.index()] & from != 0;
        let in_power = self.pieces(us, government) & from != 0;
        let joins = mv.promotion == Some(government)
            // A piece outside the government takes its victim's rank (rule 2).
            || self.pieces(us.opponent(), government) & to != 0;
        let en_passant =
            of_role(Role::Pawn) && Some(mv.to) == self.ep && mv.from.file() != mv.to.file();
        let castles = of_role(Role::King) && mv.from.file().abs_diff(mv.to.file()) == 2;
        if in_power || joins || en_passant || castles {
            return None;
        }
        Some(pins.0[mv.from.index()] & to != 0)
    }

    /// How many legal moves an Insurrection position has (perft's last ply): the moves the pins
    /// judge counted as sets of squares, the rest judged one by one as [`Position::legal`]
    /// judges them.
    pub(super) fn count_governed(&self) -> u64 {
        let mut count = 0;
        let Some(pins) = self.pins() else {
            self.legal(&mut |_| count += 1);
            return count;
        };
        let us = self.turn;
        let ours = self.by_color[us.index()];
        let occupied = self.occupied();
        let government = self.government[us.index()];
        // Capturing a piece of the government's rank makes the capturer join it (rule 2).
        let joining = self.pieces(us.opponent(), government);
        let mut judge = |mv: Move| {
            let legal = self
                .judged_by_pins(&pins, mv)
                .unwrap_or_else(|| self.is_legal_pseudo(mv));
            count += u64::from(legal);
        };
        for from in Square::iter(self.pieces(us, Role::Pawn)) {
            self.pawn_moves(from, &mut judge);
        }
        let mut counted = 0;
        for role in Role::NOT_PAWNS {
            for from in Square::iter(self.pieces(us, role)) {
                let targets = board::attacks(role, us, from, occupied) & !ours;
                let judged_alone = if role == government {
                    targets
                } else {
                    targets & joining
                };
                counted += u64::from((targets & !judged_alone & pins.0[from.index()]).count_ones());
                for to in Square::iter(judged_alone) {
                    judge(Move {
                        from,
                        to,
                        promotion: None,
                    });
                }
            }
        }
        self.pseudo_castlings(&mut judge);
        count + counted
    }
}
