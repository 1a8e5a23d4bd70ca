//! Move generation and move checking.
//!
//! Two routes to the same set of moves, on purpose. [`generate`] is the fast one, for listing
//! moves and for perft: it finds the attackers of the candidate and the pinned pieces once, so
//! that most moves need no trial. [`check`] is the explaining one, for a move someone typed or
//! signed: it walks the rules in order and names the first one the move breaks. The property
//! tests require the two to agree on every from-to pair of many random positions.

use super::board::{self, Bitboard, rank_mask};
use super::{Campaign, Illegal, Move, Promotion, Role, Side, Square, Wing, candidate_home, corner};
use std::ops::ControlFlow;

/// What both kinds of move generation read of the position, worked out once.
#[derive(Clone, Copy)]
struct Sides {
    us: Side,
    them: Side,
    ours: Bitboard,
    theirs: Bitboard,
    occupied: Bitboard,
    /// The rank where the side to move promotes and stacks.
    far: Bitboard,
    /// The side to move's candidate.
    king: Square,
}

/// Calls `emit` with every legal move, in no particular order, until it breaks.
pub(super) fn generate(
    pos: &Campaign,
    mut emit: impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if pos.is_bare() {
        return ControlFlow::Continue(());
    }
    let us = pos.turn;
    let them = us.opponent();
    let (ours, theirs) = (pos.by_side[us.index()], pos.by_side[them.index()]);
    let sides = Sides {
        us,
        them,
        ours,
        theirs,
        occupied: ours | theirs,
        far: rank_mask(us.far_rank()),
        king: pos.candidate(us),
    };
    candidate_moves(pos, sides, &mut emit)?;
    let checkers = pos.attackers(sides.king, them, sides.occupied);
    if checkers.count_ones() > 1 {
        return ControlFlow::Continue(());
    }
    let evasions = if checkers == 0 {
        !0
    } else {
        board::between(sides.king, Square::first(checkers)) | checkers
    };
    piece_moves(pos, sides, evasions, &mut emit)
}

/// The moves of the side to move's candidate: steps (and stacking on the far rank) to squares
/// not attacked once it has left its own, and spin doctoring.
#[inline]
fn candidate_moves(
    pos: &Campaign,
    Sides {
        them,
        ours,
        occupied,
        far,
        king,
        ..
    }: Sides,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let stacked = pos.by_role[Role::Stacked.index()] & king.bit() != 0;
    // Its destination must not be attacked once it has left its square, so that it cannot step
    // back along the line of a slider that attacks it.
    let reach = if stacked {
        board::stacked_attacks(king, occupied)
    } else {
        board::candidate_attacks(king)
    };
    let without_king = occupied ^ king.bit();
    for to in Square::iter(reach & !ours) {
        if pos.attackers(to, them, without_king) == 0 {
            emit(Move {
                from: king,
                to,
                promotion: None,
            })?;
            if !stacked && far & to.bit() != 0 {
                emit(Move {
                    from: king,
                    to,
                    promotion: Some(Promotion::Stack),
                })?;
            }
        }
    }
    for wing in Wing::BOTH {
        if let Some(mv) = spin_move(pos, wing)
            && !leaves_candidate_attacked(pos, mv)
        {
            emit(mv)?;
        }
    }
    ControlFlow::Continue(())
}

/// The moves of the side to move's guards, handlers and interns: to the squares of
/// `evasions` (all of them when not in check), along the line to the candidate when pinned, an
/// intern reaching the far rank promoting either way.
#[inline]
fn piece_moves(
    pos: &Campaign,
    Sides {
        us,
        ours,
        theirs,
        occupied,
        far,
        king,
        ..
    }: Sides,
    evasions: Bitboard,
    emit: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let pinned = pinned(pos, king, us, occupied);
    for role in [Role::Guard, Role::Handler, Role::Intern] {
        for from in Square::iter(pos.pieces(us, role)) {
            let mut targets = match role {
                Role::Guard => board::guard_attacks(from, occupied) & !ours,
                Role::Handler => board::handler_attacks(from, occupied) & !ours,
                _ => board::intern_attacks(us, from) & theirs | intern_push(us, from) & !occupied,
            } & evasions;
            if pinned & from.bit() != 0 {
                targets &= board::line(king, from);
            }
            for to in Square::iter(targets) {
                if role == Role::Intern && far & to.bit() != 0 {
                    emit(Move {
                        from,
                        to,
                        promotion: Some(Promotion::Guard),
                    })?;
                    emit(Move {
                        from,
                        to,
                        promotion: Some(Promotion::Handler),
                    })?;
                } else {
                    emit(Move {
                        from,
                        to,
                        promotion: None,
                    })?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The square straight ahead of an intern, if it is on the board.
fn intern_push(side: Side, from: Square) -> Bitboard {
    let rank = match side {
        Side::Heads => from.rank().checked_add(1),
        Side::Tails => from.rank().checked_sub(1),
    };
    rank.and_then(|r| Square::new(from.file(), r))
        .map_or(0, Square::bit)
}

/// The mover's pieces that alone stand between its candidate and an enemy slider.
fn pinned(pos: &Campaign, king: Square, us: Side, occupied: Bitboard) -> Bitboard {
    let stacked = pos.by_role[Role::Stacked.index()];
    let snipers = (board::handler_attacks(king, 0)
        & (pos.by_role[Role::Handler.index()] | stacked)
        | board::guard_attacks(king, 0) & (pos.by_role[Role::Guard.index()] | stacked))
        & pos.by_side[us.opponent().index()];
    let mut pinned = 0;
    for sniper in Square::iter(snipers) {
        let blockers = board::between(king, sniper) & occupied;
        if blockers.count_ones() == 1 {
            pinned |= blockers & pos.by_side[us.index()];
        }
    }
    pinned
}

/// The spin-doctoring move toward `wing`, if the right is held and the squares are as the rule
/// requires (candidate home, handler in the corner, the square beside the corner empty).
/// Whether the candidate ends attacked is not judged here.
fn spin_move(pos: &Campaign, wing: Wing) -> Option<Move> {
    let us = pos.turn;
    if !pos.spin.has(us, wing) {
        return None;
    }
    let home = candidate_home(us);
    let corner = corner(us, wing);
    let beside = beside_corner(us, wing);
    let ready = pos.pieces(us, Role::Candidate) & home.bit() != 0
        && pos.pieces(us, Role::Handler) & corner.bit() != 0
        && pos.occupied() & beside.bit() == 0;
    ready.then_some(Move {
        from: home,
        to: corner,
        promotion: None,
    })
}

/// The square the handler moves to when spinning toward `wing`, which must be empty.
fn beside_corner(side: Side, wing: Wing) -> Square {
    Square::new(wing.handler_file(), side.home_rank()).expect("on the board")
}

/// The enemy piece that attacks the mover's candidate after `mv`, if any (the lowest square by
/// name when several do, so that messages are deterministic).
fn attacker_after(pos: &Campaign, mv: Move) -> Option<Square> {
    let us = pos.turn;
    let next = pos.play_unchecked(mv);
    let attackers = next.attackers(next.candidate(us), us.opponent(), next.occupied());
    Square::iter(attackers).min()
}

fn leaves_candidate_attacked(pos: &Campaign, mv: Move) -> bool {
    attacker_after(pos, mv).is_some()
}

/// Whether the side to move has any legal move.
pub(super) fn has_legal_move(pos: &Campaign) -> bool {
    generate(pos, |_| ControlFlow::Break(())).is_break()
}

/// Counts leaf positions `depth` plies ahead.
pub(super) fn perft(pos: &Campaign, depth: u32) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => return 1,
        1 => {
            let _ = generate(pos, |_| {
                nodes += 1;
                ControlFlow::Continue(())
            });
        }
        _ => {
            let _ = generate(pos, |mv| {
                nodes += perft(&pos.play_unchecked(mv), depth - 1);
                ControlFlow::Continue(())
            });
        }
    }
    nodes
}

/// Checks a move against every rule, naming the first one it breaks.
///
/// The game must not be over (the caller checks that first, to say so).
pub(super) fn check(pos: &Campaign, mv: Move) -> Result<(), Illegal> {
    let us = pos.turn;
    let piece = pos.piece_at(mv.from).ok_or(Illegal::Empty(mv.from))?;
    if piece.side != us {
        return Err(Illegal::NotYours(mv.from, piece.side, us));
    }
    if mv.from == mv.to {
        return Err(Illegal::NullMove);
    }
    if piece.role == Role::Candidate
        && mv.from == candidate_home(us)
        && let Some(wing) = Wing::BOTH.into_iter().find(|&w| corner(us, w) == mv.to)
    {
        return check_spin(pos, mv, wing);
    }
    if let Some(target) = pos.piece_at(mv.to)
        && target.side == us
    {
        return Err(Illegal::OwnPiece(mv.to, target.role.name()));
    }
    check_geometry(pos, piece.role, mv)?;
    check_promotion(pos, piece.role, mv)?;
    match attacker_after(pos, mv) {
        Some(by) => Err(attacked(pos, mv, by)),
        None => Ok(()),
    }
}

fn attacked(pos: &Campaign, mv: Move, by: Square) -> Illegal {
    let next = pos.play_unchecked(mv);
    let role = next
        .piece_at(by)
        .expect("an attacker stands on its square")
        .role;
    Illegal::CandidateAttacked(next.candidate(pos.turn), role.name(), by)
}

fn check_spin(pos: &Campaign, mv: Move, wing: Wing) -> Result<(), Illegal> {
    let us = pos.turn;
    if mv.promotion.is_some() {
        return Err(Illegal::BadStack);
    }
    let file = match wing {
        Wing::A => 'a',
        Wing::E => 'e',
    };
    // A held right implies the candidate and the handler are home (the position string is
    // checked for that), so the square beside the corner is all that is left to look at.
    if !pos.spin.has(us, wing) || pos.pieces(us, Role::Handler) & mv.to.bit() == 0 {
        return Err(Illegal::NoSpinRight(us, file));
    }
    let beside = beside_corner(us, wing);
    if pos.occupied() & beside.bit() != 0 {
        return Err(Illegal::SpinBlocked(beside));
    }
    match attacker_after(pos, mv) {
        Some(by) => Err(attacked(pos, mv, by)),
        None => Ok(()),
    }
}

fn check_geometry(pos: &Campaign, role: Role, mv: Move) -> Result<(), Illegal> {
    let (from, to) = (mv.from, mv.to);
    let occupied = pos.occupied();
    let (line, shape) = match role {
        Role::Candidate => {
            return if board::candidate_attacks(from) & to.bit() != 0 {
                Ok(())
            } else {
                Err(Illegal::CandidateStep)
            };
        }
        Role::Intern => return check_intern(pos, mv),
        Role::Stacked => (
            board::stacked_attacks(from, 0),
            "along a rank, a file or a diagonal",
        ),
        Role::Guard => (board::guard_attacks(from, 0), "diagonally"),
        Role::Handler => (board::handler_attacks(from, 0), "along a rank or a file"),
    };
    if line & to.bit() == 0 {
        return Err(Illegal::NotOnLine(role.name(), shape));
    }
    let blockers = board::between(from, to) & occupied;
    if blockers != 0 {
        let nearest = Square::iter(blockers)
            .min_by_key(|b| board::between(from, *b).count_ones())
            .expect("blockers is not empty");
        return Err(Illegal::Blocked(nearest));
    }
    Ok(())
}

fn check_intern(pos: &Campaign, mv: Move) -> Result<(), Illegal> {
    let us = pos.turn;
    if intern_push(us, mv.from) & mv.to.bit() != 0 {
        if pos.occupied() & mv.to.bit() != 0 {
            return Err(Illegal::InternBlocked(mv.to));
        }
        Ok(())
    } else if board::intern_attacks(us, mv.from) & mv.to.bit() != 0 {
        if pos.by_side[us.opponent().index()] & mv.to.bit() == 0 {
            return Err(Illegal::InternDiagonal);
        }
        Ok(())
    } else {
        Err(Illegal::InternStep)
    }
}

fn check_promotion(pos: &Campaign, role: Role, mv: Move) -> Result<(), Illegal> {
    let on_far_rank = mv.to.rank() == pos.turn.far_rank();
    match (role, mv.promotion) {
        (Role::Intern, None) if on_far_rank => Err(Illegal::PromotionRequired),
        (Role::Intern, Some(Promotion::Guard | Promotion::Handler)) if on_far_rank => Ok(()),
        (Role::Candidate, Some(Promotion::Stack)) if on_far_rank => Ok(()),
        (_, None) => Ok(()),
        (_, Some(Promotion::Stack)) => Err(Illegal::BadStack),
        (_, Some(Promotion::Guard | Promotion::Handler)) => Err(Illegal::BadPromotion),
    }
}
