//! The fast generator for orthodox chess: one king, its checkers and pins found once, as chess
//! engines do, and the moves of each piece found as a set of squares. What becomes of them is
//! the [`Sink`]'s choice: each move for listing and playing, or only how many for perft's last
//! ply, where counting a set is one instruction instead of a move each.

use super::Move;
use super::board::{self, Bitboard, Role, Square};
use super::position::Position;

/// Where the generator puts the moves it finds.
trait Sink {
    /// The moves of the piece on `from` to each square of `targets`, none of them promoting.
    fn moves(&mut self, from: Square, targets: Bitboard);
    /// A pawn's moves from `from` to each square of `targets` on the last rank: four each, one
    /// per promotion.
    fn promotions(&mut self, from: Square, targets: Bitboard);
    /// One move.
    fn one(&mut self, mv: Move);
}

/// Each move, to a callback.
struct Each<'a>(&'a mut dyn FnMut(Move));

/// The promotions orthodox chess allows, in the order they are emitted.
const PROMOTIONS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

impl Sink for Each<'_> {
    fn moves(&mut self, from: Square, targets: Bitboard) {
        for to in Square::iter(targets) {
            (self.0)(Move {
                from,
                to,
                promotion: None,
            });
        }
    }

    fn promotions(&mut self, from: Square, targets: Bitboard) {
        for to in Square::iter(targets) {
            for role in PROMOTIONS {
                (self.0)(Move {
                    from,
                    to,
                    promotion: Some(role),
                });
            }
        }
    }

    fn one(&mut self, mv: Move) {
        (self.0)(mv);
    }
}

/// How many moves there are.
struct Count(u64);

impl Sink for Count {
    fn moves(&mut self, _: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count_ones());
    }

    fn promotions(&mut self, _: Square, targets: Bitboard) {
        self.0 += PROMOTIONS.len() as u64 * u64::from(targets.count_ones());
    }

    fn one(&mut self, _: Move) {
        self.0 += 1;
    }
}

impl Position {
    /// Calls `emit` with every legal move of an orthodox chess position, in no particular
    /// order.
    pub(super) fn legal_orthodox(&self, emit: &mut dyn FnMut(Move)) {
        self.orthodox(&mut Each(emit));
    }

    /// How many legal moves an orthodox chess position has (perft's last ply).
    pub(super) fn count_orthodox(&self) -> u64 {
        let mut count = Count(0);
        self.orthodox(&mut count);
        count.0
    }

    /// Puts every legal move of an orthodox chess position into `sink`, in no particular order.
    fn orthodox(&self, sink: &mut impl Sink) {
        let us = self.turn;
        let them = us.opponent();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occupied = ours | theirs;
        let Some(king) = Square::iter(self.pieces(us, Role::King)).next() else {
            return;
        };
        let checkers = self.attackers(king, them, occupied);
        // The king's own moves, with the king removed so it cannot hide behind itself.
        let without_king = occupied ^ king.bit();
        let mut safe = 0;
        for to in Square::iter(board::king_attacks(king) & !ours) {
            if self.attackers(to, them, without_king) == 0 {
                safe |= to.bit();
            }
        }
        sink.moves(king, safe);
        if checkers.count_ones() > 1 {
            return;
        }
        if checkers == 0 {
            self.castlings(sink);
        }
        let target = if checkers == 0 {
            !0
        } else {
            board::between(king, Square::first(checkers)) | checkers
        };
        let pinned = self.pinned(king);
        let ray = |from: Square| {
            if pinned & from.bit() != 0 {
                board::line(king, from)
            } else {
                !0
            }
        };
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for from in Square::iter(self.pieces(us, role)) {
                let targets = board::attacks(role, us, from, occupied) & !ours;
                sink.moves(from, targets & target & ray(from));
            }
        }
        self.pawns(king, target, &ray, sink);
    }

    /// Castling as the pseudo-legal generator finds it, where the king's path is not attacked.
    fn castlings(&self, sink: &mut impl Sink) {
        self.pseudo_castlings(&mut |mv| {
            if self.castling_path_safe(mv) {
                sink.one(mv);
            }
        });
    }

    /// The pawns' moves that block or capture a checker (`target`) along their pin `ray`.
    fn pawns(
        &self,
        king: Square,
        target: Bitboard,
        ray: &impl Fn(Square) -> Bitboard,
        sink: &mut impl Sink,
    ) {
        let us = self.turn;
        let them = us.opponent();
        let empty = !self.occupied();
        let last = board::rank_mask(us.last_rank());
        let ep = self.ep.map_or(0, Square::bit);
        for from in Square::iter(self.pieces(us, Role::Pawn)) {
            let (one, start_rank) = match us {
                board::Color::White => (from.bit() << 8, 1),
                board::Color::Black => (from.bit() >> 8, 6),
            };
            let mut targets = one & empty;
            if targets != 0 && from.rank() == start_rank {
                targets |= match us {
                    board::Color::White => one << 8,
                    board::Color::Black => one >> 8,
                } & empty;
            }
            let attacks = board::pawn_attacks(us, from);
            targets |= attacks & self.by_color[them.index()];
            targets &= target & ray(from);
            sink.moves(from, targets & !last);
            sink.promotions(from, targets & last);
            if attacks & ep != 0 {
                // En passant removes two pawns from one rank: checked the plain way.
                let mv = Move {
                    from,
                    to: Square::first(ep),
                    promotion: None,
                };
                let (next, _) = self.play_unchecked(mv);
                if next.attackers(king, them, next.occupied()) == 0 {
                    sink.one(mv);
                }
            }
        }
    }

    /// Our pieces pinned to our king.
    fn pinned(&self, king: Square) -> Bitboard {
        let us = self.turn;
        let them = us.opponent();
        let queens = self.by_role[Role::Queen.index()];
        let snipers = (board::rook_attacks(king, 0) & (self.by_role[Role::Rook.index()] | queens)
            | board::bishop_attacks(king, 0) & (self.by_role[Role::Bishop.index()] | queens))
            & self.by_color[them.index()];
        let mut pinned = 0;
        for sniper in Square::iter(snipers) {
            let blockers = board::between(king, sniper) & self.occupied();
            if blockers.count_ones() == 1 {
                pinned |= blockers & self.by_color[us.index()];
            }
        }
        pinned
    }
}
