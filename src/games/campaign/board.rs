//! The 5 × 7 board: squares, sides, pieces, and the attack tables everything else is built on.
//!
//! A set of squares is a `u64` with bit `rank * 5 + file` set (35 bits used). The tables are
//! computed at compile time, so the move generator does no work to set itself up and there is no
//! global state.

use std::fmt;

/// A set of squares: bit `rank * 5 + file`.
pub(crate) type Bitboard = u64;

/// Files `a`–`e`.
pub const FILES: u8 = 5;
/// Ranks `1`–`7`.
pub const RANKS: u8 = 7;
const SQUARES: usize = (FILES * RANKS) as usize;

/// A square of the board, `a1` to `e7`.
///
/// Squares order by file, then rank, which is the byte order of their names: so moves, which
/// order by their squares, sort the way their notation does.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = `a`) and `rank` (0 = rank 1), if both are on the board.
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// Reads a square name such as `c3`.
    #[must_use]
    pub fn parse(name: &[u8]) -> Option<Square> {
        match *name {
            [f @ b'a'..=b'z', r @ b'1'..=b'9'] => Square::new(f - b'a', r - b'1'),
            _ => None,
        }
    }

    /// 0 for the `a`-file.
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    /// 0 for rank 1.
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }

    pub(crate) const fn bit(self) -> Bitboard {
        1 << self.0
    }

    /// The lowest square of a non-empty set.
    pub(crate) fn first(set: Bitboard) -> Square {
        debug_assert!(set != 0);
        // A `u64` has 64 bits, so the index always fits in a `u8`.
        Square(set.trailing_zeros() as u8)
    }

    /// Every square, `a1` first, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    /// The squares of a set, lowest index first.
    pub(crate) fn iter(mut set: Bitboard) -> impl Iterator<Item = Square> {
        std::iter::from_fn(move || {
            (set != 0).then(|| {
                let sq = Square::first(set);
                set &= set - 1;
                sq
            })
        })
    }
}

impl Ord for Square {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.file(), self.rank()).cmp(&(other.file(), other.rank()))
    }
}

impl PartialOrd for Square {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file()), self.rank() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The two sides. Heads starts on ranks 1–2 and moves up the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    /// Upper-case letters in a position string; `h` to move.
    Heads,
    /// Lower-case letters; `t` to move.
    Tails,
}

impl Side {
    /// The other side.
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::Heads => Side::Tails,
            Side::Tails => Side::Heads,
        }
    }

    /// The rank this side's interns promote on and its candidate may stack on (0-based).
    #[must_use]
    pub const fn far_rank(self) -> u8 {
        match self {
            Side::Heads => RANKS - 1,
            Side::Tails => 0,
        }
    }

    /// The rank this side's candidate and handlers start on (0-based).
    #[must_use]
    pub const fn home_rank(self) -> u8 {
        self.opponent().far_rank()
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Heads => "heads",
            Side::Tails => "tails",
        })
    }
}

/// The kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// `C`: steps one square in any of the 8 directions.
    Candidate,
    /// `S`: a stacked candidate, moves like a chess queen.
    Stacked,
    /// `G`: moves like a chess bishop.
    Guard,
    /// `H`: moves like a chess rook.
    Handler,
    /// `I`: steps straight forward, captures one square diagonally forward.
    Intern,
}

impl Role {
    /// Every role, in the order of the position's piece sets.
    pub const ALL: [Role; 5] = [
        Role::Candidate,
        Role::Stacked,
        Role::Guard,
        Role::Handler,
        Role::Intern,
    ];

    /// The upper-case letter of the position string.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Role::Candidate => 'C',
            Role::Stacked => 'S',
            Role::Guard => 'G',
            Role::Handler => 'H',
            Role::Intern => 'I',
        }
    }

    /// The role for an upper-case letter.
    #[must_use]
    pub const fn from_letter(letter: char) -> Option<Role> {
        Some(match letter {
            'C' => Role::Candidate,
            'S' => Role::Stacked,
            'G' => Role::Guard,
            'H' => Role::Handler,
            'I' => Role::Intern,
            _ => return None,
        })
    }

    /// The name used in messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::Candidate => "candidate",
            Role::Stacked => "stacked candidate",
            Role::Guard => "guard",
            Role::Handler => "handler",
            Role::Intern => "intern",
        }
    }

    /// Whether this is the side's candidate (stacked or not).
    #[must_use]
    pub const fn is_candidate(self) -> bool {
        matches!(self, Role::Candidate | Role::Stacked)
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

/// A piece: a role and the side it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub side: Side,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The position-string letter: upper case for Heads, lower case for Tails.
    #[must_use]
    pub fn letter(self) -> char {
        match self.side {
            Side::Heads => self.role.letter(),
            Side::Tails => self.role.letter().to_ascii_lowercase(),
        }
    }
}

/// The eight directions as (file step, rank step); the first four are the rook's.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
];

const fn offset(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let file = (sq % FILES as usize) as i8 + df;
    let rank = (sq / FILES as usize) as i8 + dr;
    if file < 0 || file >= FILES as i8 || rank < 0 || rank >= RANKS as i8 {
        None
    } else {
        Some(rank as usize * FILES as usize + file as usize)
    }
}

/// `RAYS[d][sq]`: the squares from `sq` (excluded) to the edge in direction `d`.
const RAYS: [[Bitboard; SQUARES]; 8] = {
    let mut rays = [[0; SQUARES]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < SQUARES {
            let mut cur = offset(sq, DIRECTIONS[d].0, DIRECTIONS[d].1);
            while let Some(next) = cur {
                rays[d][sq] |= 1 << next;
                cur = offset(next, DIRECTIONS[d].0, DIRECTIONS[d].1);
            }
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// Whether direction `d` goes toward higher square indices (its first blocker is the lowest bit).
const fn ascending(d: usize) -> bool {
    let (df, dr) = DIRECTIONS[d];
    dr > 0 || (dr == 0 && df > 0)
}

/// The squares one step away in any direction.
const STEPS: [Bitboard; SQUARES] = {
    let mut steps = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut d = 0;
        while d < 8 {
            if let Some(to) = offset(sq, DIRECTIONS[d].0, DIRECTIONS[d].1) {
                steps[sq] |= 1 << to;
            }
            d += 1;
        }
        sq += 1;
    }
    steps
};

/// `INTERN_CAPTURES[side][sq]`: where an intern of `side` on `sq` captures.
const INTERN_CAPTURES: [[Bitboard; SQUARES]; 2] = {
    let mut table = [[0; SQUARES]; 2];
    let mut sq = 0;
    while sq < SQUARES {
        let mut df = -1;
        while df <= 1 {
            if let Some(to) = offset(sq, df, 1) {
                table[0][sq] |= 1 << to;
            }
            if let Some(to) = offset(sq, df, -1) {
                table[1][sq] |= 1 << to;
            }
            df += 2;
        }
        sq += 1;
    }
    table
};

/// `BETWEEN[a][b]`: the squares strictly between two squares on one line, else empty.
/// `LINE[a][b]`: the whole line through both, else empty.
const LINES: (
    [[Bitboard; SQUARES]; SQUARES],
    [[Bitboard; SQUARES]; SQUARES],
) = {
    let mut between = [[0; SQUARES]; SQUARES];
    let mut line = [[0; SQUARES]; SQUARES];
    let mut a = 0;
    while a < SQUARES {
        let mut d = 0;
        while d < 8 {
            let opposite = (d + 2) % 4 + (d / 4) * 4;
            let full = RAYS[d][a] | RAYS[opposite][a] | (1 << a);
            let mut path: Bitboard = 0;
            let mut cur = offset(a, DIRECTIONS[d].0, DIRECTIONS[d].1);
            while let Some(b) = cur {
                between[a][b] = path;
                line[a][b] = full;
                path |= 1 << b;
                cur = offset(b, DIRECTIONS[d].0, DIRECTIONS[d].1);
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
};

fn slide(sq: Square, occupied: Bitboard, directions: std::ops::Range<usize>) -> Bitboard {
    let mut attacks = 0;
    for d in directions {
        let ray = RAYS[d][sq.index()];
        let blockers = ray & occupied;
        attacks |= if blockers == 0 {
            ray
        } else if ascending(d) {
            ray ^ RAYS[d][blockers.trailing_zeros() as usize]
        } else {
            ray ^ RAYS[d][63 - blockers.leading_zeros() as usize]
        };
    }
    attacks
}

/// The squares a handler on `sq` attacks.
pub(crate) fn handler_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slide(sq, occupied, 0..4)
}

/// The squares a guard on `sq` attacks.
pub(crate) fn guard_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slide(sq, occupied, 4..8)
}

/// The squares a stacked candidate on `sq` attacks.
pub(crate) fn stacked_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slide(sq, occupied, 0..8)
}

/// The squares one step from `sq`: where a candidate attacks.
pub(crate) fn candidate_attacks(sq: Square) -> Bitboard {
    STEPS[sq.index()]
}

/// The squares an intern of `side` on `sq` attacks.
pub(crate) fn intern_attacks(side: Side, sq: Square) -> Bitboard {
    INTERN_CAPTURES[side.index()][sq.index()]
}

/// The squares strictly between `a` and `b` if they share a line, else none.
pub(crate) fn between(a: Square, b: Square) -> Bitboard {
    LINES.0[a.index()][b.index()]
}

/// The whole line through `a` and `b` if they share one, else none.
pub(crate) fn line(a: Square, b: Square) -> Bitboard {
    LINES.1[a.index()][b.index()]
}

/// The squares of one rank (0-based).
pub(crate) const fn rank_mask(rank: u8) -> Bitboard {
    0b11111 << (rank * FILES)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name.as_bytes()).expect("test square")
    }

    fn set(names: &[&str]) -> Bitboard {
        names.iter().fold(0, |acc, n| acc | sq(n).bit())
    }

    #[test]
    fn square_names_round_trip_and_order_like_their_names() {
        let mut squares: Vec<Square> = Square::all().collect();
        assert_eq!(squares.len(), 35);
        squares.sort();
        let names: Vec<String> = squares.iter().map(ToString::to_string).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted);
        for s in squares {
            assert_eq!(Square::parse(s.to_string().as_bytes()), Some(s));
        }
        assert_eq!(Square::parse(b"f1"), None);
        assert_eq!(Square::parse(b"a8"), None);
        assert_eq!(Square::parse(b"a0"), None);
    }

    #[test]
    fn sliders_stop_at_the_first_blocker_and_include_it() {
        let occ = set(&["c5", "a3"]);
        assert_eq!(
            handler_attacks(sq("c3"), occ),
            set(&["c1", "c2", "c4", "c5", "a3", "b3", "d3", "e3"])
        );
        assert_eq!(guard_attacks(sq("a1"), set(&["c3"])), set(&["b2", "c3"]));
        assert_eq!(stacked_attacks(sq("e7"), 0).count_ones(), 4 + 6 + 4);
    }

    #[test]
    fn steps_and_intern_captures_stay_on_the_board() {
        assert_eq!(candidate_attacks(sq("a1")), set(&["a2", "b1", "b2"]));
        assert_eq!(intern_attacks(Side::Heads, sq("a2")), set(&["b3"]));
        assert_eq!(intern_attacks(Side::Tails, sq("c6")), set(&["b5", "d5"]));
        assert_eq!(intern_attacks(Side::Heads, sq("c7")), 0);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(sq("a1"), sq("d4")), set(&["b2", "c3"]));
        assert_eq!(between(sq("a1"), sq("b3")), 0);
        assert_eq!(line(sq("a1"), sq("b3")), 0);
        assert_eq!(line(sq("c2"), sq("c5")).count_ones(), 7);
    }
}
