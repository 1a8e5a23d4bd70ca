//! The two grids of Guerrilla Checkers and the tables that connect them.
//!
//! *Cells* `(x, y)`, 0–7, hold the COIN checkers; *points* `(i, j)`, 0–6, are the corners where
//! four cells meet and hold the Guerrilla's stones. Point `(i, j)` is the corner shared by cells
//! `(i, j)`, `(i+1, j)`, `(i, j+1)` and `(i+1, j+1)`. The board's outer edge is not a point: no
//! stone stands there, and for captures it counts as the Guerrilla's.
//!
//! Sets of cells and of points are `u64` bitboards: bit `y * 8 + x` for cells, `j * 7 + i` for
//! points. The tables are computed at compile time.

use std::fmt;

/// A set of cells (bit `y * 8 + x`) or of points (bit `j * 7 + i`).
pub(crate) type Bitboard = u64;

const CELLS: usize = 64;
const POINTS: usize = 49;

/// A cell, `a1` to `h8`: where checkers stand.
///
/// Cells order by file, then rank: the byte order of their names.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cell(u8);

/// A point, `a1` to `g7`: a corner between four cells, where stones stand.
///
/// Points order by file, then rank: the byte order of their names.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Point(u8);

impl Cell {
    /// The cell on file `x` (0 = `a`) and rank `y` (0 = rank 1), if on the board.
    #[must_use]
    pub const fn new(x: u8, y: u8) -> Option<Cell> {
        if x < 8 && y < 8 {
            Some(Cell(y * 8 + x))
        } else {
            None
        }
    }

    /// Reads a name such as `d3`.
    #[must_use]
    pub fn parse(name: &[u8]) -> Option<Cell> {
        match *name {
            [f @ b'a'..=b'z', r @ b'1'..=b'9'] => Cell::new(f - b'a', r - b'1'),
            _ => None,
        }
    }

    /// The file, 0 for `a`.
    #[must_use]
    pub const fn x(self) -> u8 {
        self.0 % 8
    }

    /// The rank, 0 for rank 1.
    #[must_use]
    pub const fn y(self) -> u8 {
        self.0 / 8
    }

    /// Whether checkers may stand here: `x + y` odd, the colour of `b1`.
    #[must_use]
    pub const fn is_playable(self) -> bool {
        (self.x() + self.y()) % 2 == 1
    }

    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }

    pub(crate) const fn bit(self) -> Bitboard {
        1 << self.0
    }

    /// The cells of a set, lowest index first.
    pub(crate) fn iter(mut set: Bitboard) -> impl Iterator<Item = Cell> {
        std::iter::from_fn(move || {
            (set != 0).then(|| {
                // A u64 has 64 bits: the index fits in a u8.
                let cell = Cell(set.trailing_zeros() as u8);
                set &= set - 1;
                cell
            })
        })
    }

    /// Every cell, in name order.
    pub fn all() -> impl Iterator<Item = Cell> {
        (0..8).flat_map(|x| (0..8).map(move |y| Cell(y * 8 + x)))
    }
}

impl Point {
    /// The point on file `i` (0 = `a`) and rank `j` (0 = rank 1), if it is a point.
    #[must_use]
    pub const fn new(i: u8, j: u8) -> Option<Point> {
        if i < 7 && j < 7 {
            Some(Point(j * 7 + i))
        } else {
            None
        }
    }

    /// Reads a name such as `c3`.
    #[must_use]
    pub fn parse(name: &[u8]) -> Option<Point> {
        match *name {
            [f @ b'a'..=b'z', r @ b'1'..=b'9'] => Point::new(f - b'a', r - b'1'),
            _ => None,
        }
    }

    /// The file, 0 for `a`.
    #[must_use]
    pub const fn i(self) -> u8 {
        self.0 % 7
    }

    /// The rank, 0 for rank 1.
    #[must_use]
    pub const fn j(self) -> u8 {
        self.0 / 7
    }

    pub(crate) const fn index(self) -> usize {
        self.0 as usize
    }

    pub(crate) const fn bit(self) -> Bitboard {
        1 << self.0
    }

    /// The points of a set, lowest index first.
    pub(crate) fn iter(mut set: Bitboard) -> impl Iterator<Item = Point> {
        std::iter::from_fn(move || {
            (set != 0).then(|| {
                let point = Point(set.trailing_zeros() as u8);
                set &= set - 1;
                point
            })
        })
    }

    /// Every point, in name order.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..7).flat_map(|i| (0..7).map(move |j| Point(j * 7 + i)))
    }
}

macro_rules! name_order {
    ($t:ty, $file:ident, $rank:ident) => {
        impl Ord for $t {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                (self.$file(), self.$rank()).cmp(&(other.$file(), other.$rank()))
            }
        }

        impl PartialOrd for $t {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }

        impl $t {
            /// The name's two bytes: a file letter and a rank digit (ranks go up to 8).
            pub(crate) const fn name(self) -> [u8; 2] {
                [b'a' + self.$file(), b'1' + self.$rank()]
            }
        }

        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let name = self.name();
                f.write_str(std::str::from_utf8(&name).map_err(|_| fmt::Error)?)
            }
        }

        impl fmt::Debug for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(self, f)
            }
        }
    };
}

name_order!(Cell, x, y);
name_order!(Point, i, j);

/// The four diagonal directions, in the order moves are generated: toward lower files first,
/// then lower ranks, so that destinations come out in name order.
pub(crate) const DIAGONALS: [(i8, i8); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

const fn cell_at(x: i8, y: i8) -> Option<usize> {
    if x < 0 || y < 0 || x > 7 || y > 7 {
        None
    } else {
        Some(y as usize * 8 + x as usize)
    }
}

const fn point_at(i: i8, j: i8) -> Option<usize> {
    if i < 0 || j < 0 || i > 6 || j > 6 {
        None
    } else {
        Some(j as usize * 7 + i as usize)
    }
}

/// `CORNERS[cell]`: the cell's corners that are points (edge corners are not).
const CORNERS: [Bitboard; CELLS] = {
    let mut table = [0; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (x, y) = ((c % 8) as i8, (c / 8) as i8);
        let corners = [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)];
        let mut k = 0;
        while k < 4 {
            if let Some(p) = point_at(corners[k].0, corners[k].1) {
                table[c] |= 1 << p;
            }
            k += 1;
        }
        c += 1;
    }
    table
};

/// `AROUND[point]`: the four cells meeting at the point.
const AROUND: [Bitboard; POINTS] = {
    let mut table = [0; POINTS];
    let mut p = 0;
    while p < POINTS {
        let (i, j) = ((p % 7) as i8, (p / 7) as i8);
        let cells = [(i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)];
        let mut k = 0;
        while k < 4 {
            if let Some(c) = cell_at(cells[k].0, cells[k].1) {
                table[p] |= 1 << c;
            }
            k += 1;
        }
        p += 1;
    }
    table
};

/// `NEIGHBOURS[point]`: the points orthogonally next to it.
const NEIGHBOURS: [Bitboard; POINTS] = {
    let mut table = [0; POINTS];
    let mut p = 0;
    while p < POINTS {
        let (i, j) = ((p % 7) as i8, (p / 7) as i8);
        let steps = [(-1, 0), (1, 0), (0, -1), (0, 1)];
        let mut k = 0;
        while k < 4 {
            if let Some(q) = point_at(i + steps[k].0, j + steps[k].1) {
                table[p] |= 1 << q;
            }
            k += 1;
        }
        p += 1;
    }
    table
};

/// `STEPS[cell][d]`: (destination cell, crossed point) of a diagonal step, as indices; 255 for
/// off the board.
const STEPS: [[(u8, u8); 4]; CELLS] = {
    let mut table = [[(255, 255); 4]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (x, y) = ((c % 8) as i8, (c / 8) as i8);
        let mut d = 0;
        while d < 4 {
            let (dx, dy) = DIAGONALS[d];
            if let Some(to) = cell_at(x + dx, y + dy) {
                let px = if dx < 0 { x - 1 } else { x };
                let py = if dy < 0 { y - 1 } else { y };
                if let Some(p) = point_at(px, py) {
                    table[c][d] = (to as u8, p as u8);
                }
            }
            d += 1;
        }
        c += 1;
    }
    table
};

/// The corners of a cell that are points.
pub(crate) fn corners(cell: Cell) -> Bitboard {
    CORNERS[cell.index()]
}

/// The cells meeting at a point.
pub(crate) fn around(point: Point) -> Bitboard {
    AROUND[point.index()]
}

/// The points orthogonally next to a point.
pub(crate) fn neighbours(point: Point) -> Bitboard {
    NEIGHBOURS[point.index()]
}

/// The points orthogonally next to any point of a set.
pub(crate) fn neighbours_of(set: Bitboard) -> Bitboard {
    Point::iter(set).fold(0, |acc, p| acc | neighbours(p))
}

/// A diagonal step from `cell` in direction `d`: the destination and the point crossed.
pub(crate) fn step(cell: Cell, d: usize) -> Option<(Cell, Point)> {
    let (to, point) = STEPS[cell.index()][d];
    (to != 255).then_some((Cell(to), Point(point)))
}

/// The direction of a diagonal step from `from` to `to`, if it is one.
pub(crate) fn direction(from: Cell, to: Cell) -> Option<usize> {
    (0..4).find(|&d| step(from, d).is_some_and(|(c, _)| c == to))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        Cell::parse(name.as_bytes()).expect("cell")
    }

    fn point(name: &str) -> Point {
        Point::parse(name.as_bytes()).expect("point")
    }

    #[test]
    fn point_a1_is_where_cells_a1_b1_a2_b2_meet() {
        let cells: Vec<String> = Cell::iter(around(point("a1")))
            .map(|c| c.to_string())
            .collect();
        assert_eq!(cells, ["a1", "b1", "a2", "b2"]);
        assert_eq!(Point::parse(b"h1"), None, "points run a-g");
        assert_eq!(Point::parse(b"a8"), None, "points run 1-7");
        assert!(Cell::parse(b"h8").is_some());
    }

    #[test]
    fn corners_on_the_edge_are_not_points() {
        assert_eq!(corners(cell("d4")).count_ones(), 4);
        assert_eq!(corners(cell("a2")).count_ones(), 2);
        assert_eq!(corners(cell("h1")), point("g1").bit());
    }

    #[test]
    fn a_step_crosses_the_corner_the_two_cells_share() {
        // d3 = (3,2) to e4 = (4,3) crosses point (3,2) = d3.
        let d = direction(cell("d3"), cell("e4")).expect("diagonal");
        assert_eq!(step(cell("d3"), d), Some((cell("e4"), point("d3"))));
        let d = direction(cell("d3"), cell("c2")).expect("diagonal");
        assert_eq!(step(cell("d3"), d), Some((cell("c2"), point("c2"))));
        assert_eq!(direction(cell("d3"), cell("d4")), None);
    }

    #[test]
    fn names_order_like_their_text() {
        let mut names: Vec<String> = Point::all().map(|p| p.to_string()).collect();
        let sorted = {
            let mut s = names.clone();
            s.sort();
            s
        };
        assert_eq!(names, sorted);
        names = Cell::all().map(|c| c.to_string()).collect();
        let mut s = names.clone();
        s.sort();
        assert_eq!(names, s);
    }
}
