//! The 8 × 8 board: squares, colours, ranks of pieces, and the attack tables, computed at
//! compile time. A set of squares is a `u64` with bit `rank * 8 + file` (a1 = 0, h8 = 63).

use std::fmt;

/// A set of squares.
pub(crate) type Bitboard = u64;

/// A square, `a1` to `h8`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0 = a) and `rank` (0 = rank 1).
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < 8 && rank < 8 {
            Some(Square(rank * 8 + file))
        } else {
            None
        }
    }

    /// Reads a name such as `e4`.
    #[must_use]
    pub fn parse(name: &[u8]) -> Option<Square> {
        match *name {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Square::new(f - b'a', r - b'1'),
            _ => None,
        }
    }

    /// 0 for the a-file.
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 % 8
    }

    /// 0 for rank 1.
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 / 8
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
        Square(set.trailing_zeros() as u8)
    }

    /// The squares of a set, a1 first.
    pub(crate) fn iter(mut set: Bitboard) -> impl Iterator<Item = Square> {
        std::iter::from_fn(move || {
            (set != 0).then(|| {
                let sq = Square::first(set);
                set &= set - 1;
                sq
            })
        })
    }

    /// Every square, a1 first, by rank.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }

    /// Whether the square is light (h1 is light, a1 dark).
    #[must_use]
    pub const fn is_light(self) -> bool {
        (self.file() + self.rank()) % 2 == 1
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

/// White or Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// Moves first; upper-case letters.
    White,
    /// Lower-case letters.
    Black,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }

    /// The rank its pawns promote on (0-based).
    #[must_use]
    pub const fn last_rank(self) -> u8 {
        match self {
            Color::White => 7,
            Color::Black => 0,
        }
    }

    /// The rank its pieces start on (0-based).
    #[must_use]
    pub const fn back_rank(self) -> u8 {
        match self {
            Color::White => 0,
            Color::Black => 7,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// The kind, or rank, of a piece, lowest first (Insurrection orders governments by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// P.
    Pawn,
    /// N.
    Knight,
    /// B.
    Bishop,
    /// R.
    Rook,
    /// Q.
    Queen,
    /// K.
    King,
}

impl Role {
    /// Every role, lowest first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// Every role but the pawn's: the pieces whose moves are their attacks.
    pub const NOT_PAWNS: [Role; 5] = [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// The upper-case letter.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Role::Pawn => 'P',
            Role::Knight => 'N',
            Role::Bishop => 'B',
            Role::Rook => 'R',
            Role::Queen => 'Q',
            Role::King => 'K',
        }
    }

    /// The role of an upper- or lower-case letter.
    #[must_use]
    pub fn from_letter(c: char) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| r.letter() == c.to_ascii_uppercase())
    }

    /// The name in messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

/// A piece: a colour and a role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece.
    pub color: Color,
    /// What kind.
    pub role: Role,
}

impl Piece {
    /// The FEN letter.
    #[must_use]
    pub fn letter(self) -> char {
        match self.color {
            Color::White => self.role.letter(),
            Color::Black => self.role.letter().to_ascii_lowercase(),
        }
    }
}

const fn offset(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let f = (sq % 8) as i32 + df;
    let r = (sq / 8) as i32 + dr;
    if f < 0 || f > 7 || r < 0 || r > 7 {
        None
    } else {
        Some((r * 8 + f) as usize)
    }
}

const fn leaper(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < steps.len() {
            if let Some(to) = offset(sq, steps[k].0, steps[k].1) {
                table[sq] |= 1 << to;
            }
            k += 1;
        }
        sq += 1;
    }
    table
}

const KNIGHT: [Bitboard; 64] = leaper(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
const KING: [Bitboard; 64] = leaper(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
const WHITE_PAWN: [Bitboard; 64] = leaper(&[(-1, 1), (1, 1)]);
const BLACK_PAWN: [Bitboard; 64] = leaper(&[(-1, -1), (1, -1)]);

/// The eight directions; the first four are the rook's. Directions 0, 1, 4, 5 ascend (their
/// first blocker is the lowest bit).
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (-1, 1),
    (-1, -1),
    (1, -1),
];

const RAYS: [[Bitboard; 64]; 8] = {
    let mut rays = [[0; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
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

const LINES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = {
    let mut between = [[0; 64]; 64];
    let mut line = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
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

#[inline]
fn slide(sq: Square, occupied: Bitboard, directions: [usize; 4]) -> Bitboard {
    let mut attacks = 0;
    for d in directions {
        let ray = RAYS[d][sq.index()];
        let blockers = ray & occupied;
        attacks |= if blockers == 0 {
            ray
        } else if matches!(d, 0 | 1 | 4 | 5) {
            ray ^ RAYS[d][blockers.trailing_zeros() as usize]
        } else {
            ray ^ RAYS[d][63 - blockers.leading_zeros() as usize]
        };
    }
    attacks
}

/// Rook attacks from `sq`.
pub(crate) fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slide(sq, occupied, [0, 1, 2, 3])
}

/// Bishop attacks from `sq`.
pub(crate) fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    slide(sq, occupied, [4, 5, 6, 7])
}

/// Knight attacks from `sq`.
pub(crate) fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// King attacks from `sq`.
pub(crate) fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// The squares a pawn of `color` on `sq` captures on.
pub(crate) fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    match color {
        Color::White => WHITE_PAWN[sq.index()],
        Color::Black => BLACK_PAWN[sq.index()],
    }
}

/// The attacks of a piece of `role` and `color` on `sq`.
pub(crate) fn attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => rook_attacks(sq, occupied) | bishop_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// The squares strictly between two squares on a line.
pub(crate) fn between(a: Square, b: Square) -> Bitboard {
    LINES.0[a.index()][b.index()]
}

/// The line through two squares.
pub(crate) fn line(a: Square, b: Square) -> Bitboard {
    LINES.1[a.index()][b.index()]
}

/// A rank as a set (0-based).
pub(crate) const fn rank_mask(rank: u8) -> Bitboard {
    0xff << (rank * 8)
}

/// The light squares.
pub(crate) const LIGHT: Bitboard = 0x55aa_55aa_55aa_55aa;
