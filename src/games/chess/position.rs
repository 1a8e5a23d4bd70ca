//! The position shared by orthodox chess and Insurrection, and the rules of play: making moves
//! (with Insurrection's succession, decline and coups), and which moves are legal.
//!
//! Orthodox chess is Insurrection with rules 2, 3, 6-K and 9 off and the government fixed at
//! King, so one position type serves both. Legal moves come from two generators: a fast one for
//! orthodox chess (`orthodox.rs`: checkers and pins found once, as chess engines do), and a
//! plain one for Insurrection (every pseudo-legal move made and the government checked), whose
//! several royal pieces and changing ranks defeat most shortcuts; `governed.rs` spares it the
//! playing of the moves that pins alone can judge. The tests hold the plain generator to the
//! published orthodox perft counts, and the pins to the plain generator.

use super::board::{self, Bitboard, Color, Piece, Role, Square};
use super::{Move, Variant};

/// A position: the pieces, whose turn it is, castling rights, the en-passant square, the
/// clocks, and (Insurrection) each side's government rank.
#[derive(Clone)]
pub struct Position {
    pub(super) by_color: [Bitboard; 2],
    pub(super) by_role: [Bitboard; 6],
    pub(super) turn: Color,
    /// Rook squares whose castling right is held.
    pub(super) castling: Bitboard,
    /// The square a pawn skipped with a double step on the last move.
    pub(super) ep: Option<Square>,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    /// White's, then Black's government rank.
    pub(super) government: [Role; 2],
    pub(super) variant: Variant,
}

/// What a move did, besides moving: for reports and notation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effects {
    /// The piece taken, if any.
    pub captured: Option<Role>,
    /// The moving piece's new rank by succession or decline, if it changed.
    pub changed_rank: Option<Role>,
    /// The opponent's new government, if a coup happened.
    pub coup: Option<Role>,
}

impl Position {
    pub(crate) fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    pub(crate) fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// The piece on a square.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let bit = sq.bit();
        let color = if self.by_color[0] & bit != 0 {
            Color::White
        } else if self.by_color[1] & bit != 0 {
            Color::Black
        } else {
            return None;
        };
        let role = Role::ALL
            .into_iter()
            .find(|r| self.by_role[r.index()] & bit != 0)?;
        Some(Piece { color, role })
    }

    fn put(&mut self, sq: Square, piece: Piece) {
        self.by_color[piece.color.index()] |= sq.bit();
        self.by_role[piece.role.index()] |= sq.bit();
    }

    fn remove(&mut self, sq: Square) {
        let keep = !sq.bit();
        for set in self.by_color.iter_mut().chain(self.by_role.iter_mut()) {
            *set &= keep;
        }
    }

    /// The government pieces of a side.
    pub(crate) fn government_pieces(&self, color: Color) -> Bitboard {
        self.pieces(color, self.government[color.index()])
    }

    /// The pieces of `color` that attack `sq`, with `occupied` as blockers. En passant is not
    /// included here; see [`Position::attacked`].
    pub(crate) fn attackers(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color[color.index()];
        let queens = self.by_role[Role::Queen.index()];
        (board::rook_attacks(sq, occupied) & (self.by_role[Role::Rook.index()] | queens)
            | board::bishop_attacks(sq, occupied) & (self.by_role[Role::Bishop.index()] | queens)
            | board::knight_attacks(sq) & self.by_role[Role::Knight.index()]
            | board::king_attacks(sq) & self.by_role[Role::King.index()]
            | board::pawn_attacks(color.opponent(), sq) & self.by_role[Role::Pawn.index()])
            & them
    }

    /// Whether an enemy move could capture the piece on `sq` (belonging to the side not to
    /// move in `self`'s turn order is irrelevant: `by` is the capturing colour), en passant
    /// included.
    pub(crate) fn attacked(&self, sq: Square, by: Color) -> bool {
        if self.attackers(sq, by, self.occupied()) != 0 {
            return true;
        }
        // A pawn that has just double-stepped onto `sq` can be taken en passant.
        match self.ep {
            Some(ep) if self.turn == by && self.by_role[Role::Pawn.index()] & sq.bit() != 0 => {
                let behind = match by {
                    Color::White => ep.rank() == 5 && sq.rank() == 4,
                    Color::Black => ep.rank() == 2 && sq.rank() == 3,
                };
                behind
                    && ep.file() == sq.file()
                    && board::pawn_attacks(by.opponent(), ep) & self.pieces(by, Role::Pawn) != 0
            }
            _ => false,
        }
    }

    /// The government pieces of `color` that are attacked.
    pub(crate) fn attacked_government(&self, color: Color) -> Bitboard {
        Square::iter(self.government_pieces(color))
            .filter(|sq| self.attacked(*sq, color.opponent()))
            .fold(0, |acc, sq| acc | sq.bit())
    }

    /// The squares of `color`'s government pieces that are attacked, for reports of a check.
    pub fn attacked_government_squares(&self, color: Color) -> impl Iterator<Item = Square> {
        Square::iter(self.attacked_government(color))
    }

    /// Whether the rules protect `color`'s government pieces: always, except under
    /// Assassination while it has two or more.
    pub(super) fn protected(&self, color: Color) -> bool {
        !(self.variant == Variant::Assassination && self.government_pieces(color).count_ones() >= 2)
    }

    /// Whether the side to move is in check.
    #[must_use]
    pub fn is_check(&self) -> bool {
        self.protected(self.turn) && self.attacked_government(self.turn) != 0
    }

    /// The original square of a side's king, and its castling destinations.
    fn castle_target(&self, mv: Move) -> Option<(Square, Square)> {
        let us = self.turn;
        let back = us.back_rank();
        let king_from = Square::new(4, back)?;
        if mv.from != king_from
            || mv.to.rank() != back
            || self.pieces(us, Role::King) & king_from.bit() == 0
        {
            return None;
        }
        let (rook_from, rook_to) = match mv.to.file() {
            6 => (Square::new(7, back)?, Square::new(5, back)?),
            2 => (Square::new(0, back)?, Square::new(3, back)?),
            _ => return None,
        };
        (self.castling & rook_from.bit() != 0).then_some((rook_from, rook_to))
    }

    /// Plays a move that is at least pseudo-legal, returning the new position and what the move
    /// did.
    pub(crate) fn play_unchecked(&self, mv: Move) -> (Position, Effects) {
        let mut next = self.clone();
        let us = self.turn;
        let them = us.opponent();
        let piece = self
            .piece_at(mv.from)
            .expect("the mover has a piece on from");
        let castle = if piece.role == Role::King {
            self.castle_target(mv)
        } else {
            None
        };
        let ep_capture =
            piece.role == Role::Pawn && Some(mv.to) == self.ep && mv.from.file() != mv.to.file();
        let mut effects = Effects::default();
        let captured_square = if ep_capture {
            Square::new(mv.to.file(), mv.from.rank())
        } else {
            Some(mv.to).filter(|sq| self.by_color[them.index()] & sq.bit() != 0)
        };
        let captured = captured_square
            .and_then(|sq| self.piece_at(sq))
            .map(|p| p.role);
        next.remove(mv.from);
        if let Some(sq) = captured_square {
            next.remove(sq);
        }
        let mut role = piece.role;
        if let Some(victim) = captured {
            effects.captured = Some(victim);
            if self.variant != Variant::Chess {
                role = self.insurrection_capture(&mut next, piece.role, victim, &mut effects);
            }
        }
        if let Some(promotion) = mv.promotion {
            role = promotion;
        }
        next.put(mv.to, Piece { color: us, role });
        if let Some((rook_from, rook_to)) = castle {
            let rook = next
                .piece_at(rook_from)
                .expect("a castling right has its rook");
            next.remove(rook_from);
            next.put(rook_to, rook);
        }
        // A right is lost when its rook or its king leaves, or is captured (Insurrection's
        // deposed kings can be). While a side holds a right, its home square holds its king.
        let king_home = |color: Color| Square::new(4, color.back_rank()).expect("on the board");
        if mv.from == king_home(us) && piece.role == Role::King {
            next.castling &= !board::rank_mask(us.back_rank());
        }
        if captured_square == Some(king_home(them)) {
            next.castling &= !board::rank_mask(them.back_rank());
        }
        next.castling &= !(mv.from.bit() | mv.to.bit());
        next.ep = None;
        if piece.role == Role::Pawn && mv.from.rank().abs_diff(mv.to.rank()) == 2 {
            next.ep = Square::new(mv.from.file(), (mv.from.rank() + mv.to.rank()) / 2);
        }
        next.halfmove = if captured.is_some() || piece.role == Role::Pawn {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if us == Color::Black {
            next.fullmove = self.fullmove.saturating_add(1);
        }
        next.turn = them;
        (next, effects)
    }

    /// Insurrection's rules for a capture by the mover's `role` of a `victim`, with the mover
    /// lifted and the victim taken off in `next`: a coup when the government captures (rule 3), else succession
    /// or decline (rule 2). Returns the rank the capturing piece holds after it.
    #[inline]
    fn insurrection_capture(
        &self,
        next: &mut Position,
        role: Role,
        victim: Role,
        effects: &mut Effects,
    ) -> Role {
        let (us, them) = (self.turn, self.turn.opponent());
        if role == self.government[us.index()] {
            // Rule 3: a coup, unless that was the opponent's last piece of the rank.
            let left = next.pieces(them, victim) != 0;
            if left && self.government[them.index()] != victim {
                next.government[them.index()] = victim;
                effects.coup = Some(victim);
            }
            role
        } else if victim != role {
            // Rule 2: succession or decline.
            effects.changed_rank = Some(victim);
            victim
        } else {
            role
        }
    }

    /// Whether the mover's government survives a move that led to `next` (rule 4).
    fn government_safe_after(&self, next: &Position) -> bool {
        let us = self.turn;
        let government = next.government_pieces(us);
        if government == 0 {
            return false;
        }
        !next.protected(us) || next.attacked_government(us) == 0
    }

    /// Castling's extra conditions while the castling king is a government piece: it is not
    /// attacked, and neither is any square it crosses or lands on.
    pub(super) fn castling_path_safe(&self, mv: Move) -> bool {
        let us = self.turn;
        if self.government[us.index()] != Role::King {
            return true;
        }
        let step: i8 = if mv.to.file() > mv.from.file() { 1 } else { -1 };
        let mut file = mv.from.file() as i8;
        loop {
            let sq = Square::new(file as u8, mv.from.rank()).expect("on the back rank");
            if self.attackers(sq, us.opponent(), self.occupied()) != 0 {
                return false;
            }
            if sq == mv.to {
                return true;
            }
            file += step;
        }
    }

    /// Calls `emit` with every pseudo-legal move: pieces moving as they move, castling when the
    /// squares between are empty, promotions as the rules allow. Whether the government is left
    /// attacked is not judged.
    pub(crate) fn pseudo_legal(&self, emit: &mut dyn FnMut(Move)) {
        let us = self.turn;
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[us.opponent().index()];
        let occupied = ours | theirs;
        for from in Square::iter(self.pieces(us, Role::Pawn)) {
            self.pawn_moves(from, emit);
        }
        for role in Role::NOT_PAWNS {
            for from in Square::iter(self.pieces(us, role)) {
                let targets = board::attacks(role, us, from, occupied) & !ours;
                for to in Square::iter(targets) {
                    emit(Move {
                        from,
                        to,
                        promotion: None,
                    });
                }
            }
        }
        self.pseudo_castlings(emit);
    }

    /// Castling: the king on its start square, the right held, the squares between empty.
    pub(super) fn pseudo_castlings(&self, emit: &mut dyn FnMut(Move)) {
        let us = self.turn;
        let occupied = self.occupied();
        for rook in Square::iter(self.castling & board::rank_mask(us.back_rank())) {
            let king = Square::new(4, us.back_rank()).expect("on the board");
            if self.pieces(us, Role::King) & king.bit() != 0
                && board::between(king, rook) & occupied == 0
            {
                let to = Square::new(if rook.file() == 7 { 6 } else { 2 }, us.back_rank())
                    .expect("on the board");
                emit(Move {
                    from: king,
                    to,
                    promotion: None,
                });
            }
        }
    }

    pub(super) fn pawn_moves(&self, from: Square, emit: &mut dyn FnMut(Move)) {
        let us = self.turn;
        let occupied = self.occupied();
        let (one, start_rank) = match us {
            Color::White => (from.bit() << 8, 1),
            Color::Black => (from.bit() >> 8, 6),
        };
        let mut targets = one & !occupied;
        if targets != 0 && from.rank() == start_rank {
            let two = match us {
                Color::White => one << 8,
                Color::Black => one >> 8,
            };
            targets |= two & !occupied;
        }
        let ep = self.ep.map_or(0, Square::bit);
        targets |= board::pawn_attacks(us, from) & (self.by_color[us.opponent().index()] | ep);
        for to in Square::iter(targets) {
            for &promotion in self.promotions(from, to) {
                emit(Move {
                    from,
                    to,
                    promotion,
                });
            }
        }
    }

    /// The promotion choices of a pawn move from `from` to `to`: `[None]` when it does not
    /// promote.
    fn promotions(&self, from: Square, to: Square) -> &'static [Option<Role>] {
        const NONE: &[Option<Role>] = &[None];
        const CHESS: &[Option<Role>] = &[
            Some(Role::Knight),
            Some(Role::Bishop),
            Some(Role::Rook),
            Some(Role::Queen),
        ];
        const INSURRECTION: &[Option<Role>] = &[
            Some(Role::Knight),
            Some(Role::Bishop),
            Some(Role::Rook),
            Some(Role::Queen),
            Some(Role::King),
        ];
        let us = self.turn;
        if to.rank() != us.last_rank() {
            return NONE;
        }
        if self.variant == Variant::Chess {
            return CHESS;
        }
        // A pawn that captures onto the last rank first takes the victim's rank (rule 2) and does
        // not promote, unless it is a government pawn, which keeps its rank (rule 3).
        let captures =
            self.by_color[us.opponent().index()] & to.bit() != 0 && from.file() != to.file();
        let government_pawn = self.government[us.index()] == Role::Pawn;
        if captures && !government_pawn {
            NONE
        } else {
            INSURRECTION
        }
    }

    /// Calls `emit` with every legal move, in no particular order.
    pub(crate) fn legal(&self, emit: &mut dyn FnMut(Move)) {
        if self.variant == Variant::Chess {
            return self.legal_orthodox(emit);
        }
        let pins = self.pins();
        self.pseudo_legal(&mut |mv| {
            let legal = pins
                .as_ref()
                .and_then(|pins| self.judged_by_pins(pins, mv))
                .unwrap_or_else(|| self.is_legal_pseudo(mv));
            if legal {
                emit(mv);
            }
        });
    }

    /// Whether a pseudo-legal move is legal.
    pub(crate) fn is_legal_pseudo(&self, mv: Move) -> bool {
        let piece = self
            .piece_at(mv.from)
            .expect("a pseudo-legal move has a piece");
        if piece.role == Role::King
            && self.castle_target(mv).is_some()
            && !self.castling_path_safe(mv)
        {
            return false;
        }
        let (next, _) = self.play_unchecked(mv);
        self.government_safe_after(&next)
    }

    /// Whether the side to move has a legal move.
    pub(crate) fn has_legal_move(&self) -> bool {
        let mut any = false;
        // The generators cannot stop early; positions with no moves are rare and small.
        self.legal(&mut |_| any = true);
        any
    }

    /// Counts leaf positions `depth` plies ahead.
    pub(crate) fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        if depth == 1 {
            if self.variant == Variant::Chess {
                return self.count_orthodox();
            }
            return self.count_governed();
        }
        self.legal(&mut |mv| nodes += self.play_unchecked(mv).0.perft(depth - 1));
        nodes
    }
}
