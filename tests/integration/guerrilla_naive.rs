//! A second Guerrilla Checkers implementation, as plain as the rulings read: two grids of
//! booleans, moves as strings, every rule checked by looking at the board. It shares no code
//! with the engine and is slow on purpose.

/// A position: `stones[i][j]` for point (i, j), `checkers[x][y]` for cell (x, y).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Naive {
    stones: [[bool; 7]; 7],
    checkers: [[bool; 8]; 8],
    guerrilla_to_move: bool,
    supply: u32,
}

fn point_name(i: usize, j: usize) -> String {
    format!("{}{}", (b'a' + i as u8) as char, j + 1)
}

fn cell_name(x: usize, y: usize) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

impl Naive {
    pub fn start() -> Naive {
        Naive::parse("7/7/7/7/7/7/7 8/8/4C3/3C1C2/2C1C3/3C4/8/8 g 66")
    }

    /// Reads a position string known to be valid.
    pub fn parse(text: &str) -> Naive {
        let f: Vec<&str> = text.split(' ').collect();
        let mut n = Naive {
            stones: [[false; 7]; 7],
            checkers: [[false; 8]; 8],
            guerrilla_to_move: f[2] == "g",
            supply: f[3].parse().expect("supply"),
        };
        fill(f[0], &mut n.stones);
        fill(f[1], &mut n.checkers);
        n
    }

    fn stone(&self, i: i32, j: i32) -> bool {
        (0..7).contains(&i) && (0..7).contains(&j) && self.stones[i as usize][j as usize]
    }

    /// A corner of a cell is "occupied" if it holds a stone or is off the grid of points.
    fn corner_occupied(&self, i: i32, j: i32) -> bool {
        !(0..7).contains(&i) || !(0..7).contains(&j) || self.stones[i as usize][j as usize]
    }

    fn surrounded(&self, x: i32, y: i32) -> bool {
        [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]
            .iter()
            .all(|&(i, j)| self.corner_occupied(i, j))
    }

    fn stone_count(&self) -> usize {
        self.stones.iter().flatten().filter(|s| **s).count()
    }

    fn checker_count(&self) -> usize {
        self.checkers.iter().flatten().filter(|c| **c).count()
    }

    /// Places one stone and removes every checker it surrounds.
    fn put(&mut self, i: usize, j: usize) {
        self.stones[i][j] = true;
        for x in 0..8 {
            for y in 0..8 {
                if self.checkers[x][y] && self.surrounded(x as i32, y as i32) {
                    self.checkers[x][y] = false;
                }
            }
        }
    }

    fn pairs(&self) -> Vec<((usize, usize), (usize, usize))> {
        let any = self.stone_count() > 0;
        let mut out = Vec::new();
        for i in 0..7 {
            for j in 0..7 {
                if self.stones[i][j] {
                    continue;
                }
                let near = |a: i32, b: i32| {
                    self.stone(a - 1, b)
                        || self.stone(a + 1, b)
                        || self.stone(a, b - 1)
                        || self.stone(a, b + 1)
                };
                if any && !near(i as i32, j as i32) {
                    continue;
                }
                for (di, dj) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                    let (a, b) = (i as i32 + di, j as i32 + dj);
                    if (0..7).contains(&a)
                        && (0..7).contains(&b)
                        && !self.stones[a as usize][b as usize]
                    {
                        out.push(((i, j), (a as usize, b as usize)));
                    }
                }
            }
        }
        out
    }

    /// The point a diagonal step from (x, y) by (dx, dy) crosses.
    fn crossed(x: i32, y: i32, dx: i32, dy: i32) -> (i32, i32) {
        (
            if dx < 0 { x - 1 } else { x },
            if dy < 0 { y - 1 } else { y },
        )
    }

    fn coin_moves(&self) -> Vec<String> {
        let mut out = Vec::new();
        for x in 0..8i32 {
            for y in 0..8i32 {
                if !self.checkers[x as usize][y as usize] {
                    continue;
                }
                for (dx, dy) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
                    let (tx, ty) = (x + dx, y + dy);
                    if !(0..8).contains(&tx)
                        || !(0..8).contains(&ty)
                        || self.checkers[tx as usize][ty as usize]
                    {
                        continue;
                    }
                    let (pi, pj) = Naive::crossed(x, y, dx, dy);
                    if !self.stone(pi, pj) {
                        out.push(format!(
                            "{}-{}",
                            cell_name(x as usize, y as usize),
                            cell_name(tx as usize, ty as usize)
                        ));
                    }
                }
                let mut without = self.clone();
                without.checkers[x as usize][y as usize] = false;
                without.chains(x, y, cell_name(x as usize, y as usize), 0, &mut out);
            }
        }
        out
    }

    /// Appends every maximal capture chain continuing from (x, y).
    fn chains(&self, x: i32, y: i32, path: String, depth: usize, out: &mut Vec<String>) {
        let mut any = false;
        for (dx, dy) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
            let (tx, ty) = (x + dx, y + dy);
            if !(0..8).contains(&tx)
                || !(0..8).contains(&ty)
                || self.checkers[tx as usize][ty as usize]
            {
                continue;
            }
            let (pi, pj) = Naive::crossed(x, y, dx, dy);
            if self.stone(pi, pj) {
                any = true;
                let mut next = self.clone();
                next.stones[pi as usize][pj as usize] = false;
                next.chains(
                    tx,
                    ty,
                    format!("{path}x{}", cell_name(tx as usize, ty as usize)),
                    depth + 1,
                    out,
                );
            }
        }
        if !any && depth > 0 {
            out.push(path);
        }
    }

    /// The legal moves, sorted by byte order; none once the game is over.
    pub fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        let mut moves: Vec<String> = if self.guerrilla_to_move {
            self.pairs()
                .into_iter()
                .map(|(a, b)| format!("{},{}", point_name(a.0, a.1), point_name(b.0, b.1)))
                .collect()
        } else {
            self.coin_moves()
        };
        moves.sort();
        moves
    }

    /// Plays a move from `legal_moves`.
    pub fn play(&self, mv: &str) -> Naive {
        let mut next = self.clone();
        let coord = |s: &str| {
            (
                (s.as_bytes()[0] - b'a') as usize,
                (s.as_bytes()[1] - b'1') as usize,
            )
        };
        if let Some((a, b)) = mv.split_once(',') {
            let (a, b) = (coord(a), coord(b));
            next.put(a.0, a.1);
            next.put(b.0, b.1);
            next.supply -= 2;
        } else {
            let cells: Vec<(usize, usize)> = mv.split(['-', 'x']).map(coord).collect();
            let first = cells[0];
            let last = *cells.last().expect("a move has cells");
            if mv.contains('x') {
                for w in cells.windows(2) {
                    let (dx, dy) = (w[1].0 as i32 - w[0].0 as i32, w[1].1 as i32 - w[0].1 as i32);
                    let (pi, pj) = Naive::crossed(w[0].0 as i32, w[0].1 as i32, dx, dy);
                    next.stones[pi as usize][pj as usize] = false;
                }
            }
            next.checkers[first.0][first.1] = false;
            next.checkers[last.0][last.1] = true;
        }
        next.guerrilla_to_move = !self.guerrilla_to_move;
        next
    }

    /// The `position` command's outcome line, if the game is over.
    pub fn outcome(&self) -> Option<String> {
        if self.checker_count() == 0 {
            Some("all checkers captured: guerrilla wins".into())
        } else if self.supply == 0 {
            Some("supply exhausted: coin wins".into())
        } else if self.guerrilla_to_move && self.stone_count() == 0 && self.supply < 66 {
            Some("board cleared: coin wins".into())
        } else if self.guerrilla_to_move && self.pairs().is_empty() {
            Some("no legal placement (anti-stall): guerrilla wins".into())
        } else {
            None
        }
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal_moves()
            .iter()
            .map(|m| self.play(m).perft(depth - 1))
            .sum()
    }
}

impl std::fmt::Display for Naive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let points: Vec<String> = (0..7)
            .rev()
            .map(|j| run_length((0..7).map(|i| self.stones[i][j]), 'S'))
            .collect();
        let cells: Vec<String> = (0..8)
            .rev()
            .map(|y| run_length((0..8).map(|x| self.checkers[x][y]), 'C'))
            .collect();
        let side = if self.guerrilla_to_move { 'g' } else { 'c' };
        write!(
            f,
            "{} {} {side} {}",
            points.join("/"),
            cells.join("/"),
            self.supply
        )
    }
}

/// One rank of a position string: `piece` where occupied, digits for runs of empty places.
pub fn run_length(occupied: impl Iterator<Item = bool>, piece: char) -> String {
    let mut s = String::new();
    let mut empty = 0;
    for here in occupied {
        if here {
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push(piece);
        } else {
            empty += 1;
        }
    }
    if empty > 0 {
        s.push_str(&empty.to_string());
    }
    s
}

/// Marks the occupied places of one grid of a position string, top rank first:
/// `grid[file][rank]`.
fn fill<const N: usize>(ranks: &str, grid: &mut [[bool; N]; N]) {
    for (row, rank) in ranks.split('/').enumerate() {
        let y = N - 1 - row;
        let mut x = 0;
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(d) => x += d as usize,
                None => {
                    grid[x][y] = true;
                    x += 1;
                }
            }
        }
    }
}
