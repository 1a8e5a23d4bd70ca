//! A second Campaign implementation, written as plainly as the rulings read, to check the engine
//! against: a grid of letters, every move tried by hand, and the whole board searched for attacks
//! on the candidate after each one. It shares no code with the engine (it has its own position
//! reader and writer) and is slow on purpose.

/// A position as a grid of position-string letters, `b'.'` for empty, indexed `[rank][file]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Naive {
    board: [[u8; 5]; 7],
    heads_to_move: bool,
    /// Rights `A`, `E`, `a`, `e`.
    spin: [bool; 4],
    halfmove: u32,
    fullmove: u32,
}

const KING_STEPS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];
const DIAGONALS: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
const ORTHOGONALS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..5).contains(&f) && (0..7).contains(&r)
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn is_candidate(c: u8) -> bool {
    matches!(c, b'C' | b'S' | b'c' | b's')
}

impl Naive {
    /// The start position with Heads to move and spin doctoring on.
    pub fn start() -> Naive {
        Naive::parse("hgcgh/iiiii/5/5/5/IIIII/HGCGH h AEae 0 1")
    }

    /// Reads a position string that is known to be valid.
    pub fn parse(text: &str) -> Naive {
        let fields: Vec<&str> = text.split(' ').collect();
        let mut board = [[b'.'; 5]; 7];
        for (i, rank) in fields[0].split('/').enumerate() {
            let r = 6 - i;
            let mut f = 0;
            for c in rank.bytes() {
                if c.is_ascii_digit() {
                    f += usize::from(c - b'0');
                } else {
                    board[r][f] = c;
                    f += 1;
                }
            }
        }
        Naive {
            board,
            heads_to_move: fields[1] == "h",
            spin: [
                fields[2].contains('A'),
                fields[2].contains('E'),
                fields[2].contains('a'),
                fields[2].contains('e'),
            ],
            halfmove: fields[3].parse().expect("halfmove"),
            fullmove: fields[4].parse().expect("fullmove"),
        }
    }

    fn at(&self, f: i32, r: i32) -> u8 {
        self.board[r as usize][f as usize]
    }

    fn mine(&self, c: u8) -> bool {
        c != b'.' && c.is_ascii_uppercase() == self.heads_to_move
    }

    fn theirs(&self, c: u8) -> bool {
        c != b'.' && c.is_ascii_uppercase() != self.heads_to_move
    }

    /// Squares the piece on (f, r) attacks.
    fn attacks_from(&self, f: i32, r: i32) -> Vec<(i32, i32)> {
        let piece = self.at(f, r);
        let mut out = Vec::new();
        let mut slide = |dirs: &[(i32, i32)]| {
            for &(df, dr) in dirs {
                let (mut x, mut y) = (f + df, r + dr);
                while on_board(x, y) {
                    out.push((x, y));
                    if self.at(x, y) != b'.' {
                        break;
                    }
                    x += df;
                    y += dr;
                }
            }
        };
        match piece.to_ascii_uppercase() {
            b'S' => slide(&KING_STEPS),
            b'G' => slide(&DIAGONALS),
            b'H' => slide(&ORTHOGONALS),
            b'C' => {
                for (df, dr) in KING_STEPS {
                    if on_board(f + df, r + dr) {
                        out.push((f + df, r + dr));
                    }
                }
            }
            b'I' => {
                let forward = if piece.is_ascii_uppercase() { 1 } else { -1 };
                for df in [-1, 1] {
                    if on_board(f + df, r + forward) {
                        out.push((f + df, r + forward));
                    }
                }
            }
            _ => unreachable!("not a piece: {piece}"),
        }
        out
    }

    /// Whether any piece of the side whose letters are upper case iff `heads` attacks (f, r).
    fn attacked_by(&self, f: i32, r: i32, heads: bool) -> bool {
        for y in 0..7 {
            for x in 0..5 {
                let c = self.at(x, y);
                if c != b'.'
                    && c.is_ascii_uppercase() == heads
                    && self.attacks_from(x, y).contains(&(f, r))
                {
                    return true;
                }
            }
        }
        false
    }

    fn candidate_of(&self, heads: bool) -> (i32, i32) {
        for y in 0..7 {
            for x in 0..5 {
                let c = self.at(x, y);
                if is_candidate(c) && c.is_ascii_uppercase() == heads {
                    return (x, y);
                }
            }
        }
        panic!("no candidate in {self:?}");
    }

    /// Whether the side to move has its candidate attacked.
    pub fn in_check(&self) -> bool {
        let (f, r) = self.candidate_of(self.heads_to_move);
        self.attacked_by(f, r, !self.heads_to_move)
    }

    fn bare(&self) -> bool {
        self.board
            .iter()
            .flatten()
            .all(|&c| c == b'.' || is_candidate(c))
    }

    /// Moves that obey how pieces move, before the candidate-safety rule.
    fn pseudo_moves(&self) -> Vec<String> {
        let mut moves = Vec::new();
        let far = if self.heads_to_move { 6 } else { 0 };
        for r in 0..7 {
            for f in 0..5 {
                let piece = self.at(f, r);
                if !self.mine(piece) {
                    continue;
                }
                let from = name(f, r);
                match piece.to_ascii_uppercase() {
                    b'I' => {
                        let forward = if self.heads_to_move { 1 } else { -1 };
                        let mut targets = Vec::new();
                        if on_board(f, r + forward) && self.at(f, r + forward) == b'.' {
                            targets.push((f, r + forward));
                        }
                        for (x, y) in self.attacks_from(f, r) {
                            if self.theirs(self.at(x, y)) {
                                targets.push((x, y));
                            }
                        }
                        for (x, y) in targets {
                            if y == far {
                                moves.push(format!("{from}{}g", name(x, y)));
                                moves.push(format!("{from}{}h", name(x, y)));
                            } else {
                                moves.push(format!("{from}{}", name(x, y)));
                            }
                        }
                    }
                    role => {
                        for (x, y) in self.attacks_from(f, r) {
                            if self.mine(self.at(x, y)) {
                                continue;
                            }
                            moves.push(format!("{from}{}", name(x, y)));
                            if role == b'C' && y == far {
                                moves.push(format!("{from}{}s", name(x, y)));
                            }
                        }
                    }
                }
            }
        }
        let home = if self.heads_to_move { 0 } else { 6 };
        let (c, h, a_right, e_right) = if self.heads_to_move {
            (b'C', b'H', self.spin[0], self.spin[1])
        } else {
            (b'c', b'h', self.spin[2], self.spin[3])
        };
        if self.at(2, home) == c {
            if a_right && self.at(0, home) == h && self.at(1, home) == b'.' {
                moves.push(format!("{}{}", name(2, home), name(0, home)));
            }
            if e_right && self.at(4, home) == h && self.at(3, home) == b'.' {
                moves.push(format!("{}{}", name(2, home), name(4, home)));
            }
        }
        moves
    }

    /// The legal moves, sorted by byte order.
    pub fn legal_moves(&self) -> Vec<String> {
        if self.bare() {
            return Vec::new();
        }
        let mut moves: Vec<String> = self
            .pseudo_moves()
            .into_iter()
            .filter(|m| {
                let next = self.play(m);
                let (f, r) = next.candidate_of(self.heads_to_move);
                !next.attacked_by(f, r, !self.heads_to_move)
            })
            .collect();
        moves.sort();
        moves
    }

    /// Plays a move from `legal_moves` (or a pseudo-legal one).
    pub fn play(&self, mv: &str) -> Naive {
        let b = mv.as_bytes();
        let (ff, fr) = (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'));
        let (tf, tr) = (i32::from(b[2] - b'a'), i32::from(b[3] - b'1'));
        let mut next = self.clone();
        let piece = self.at(ff, fr);
        let target = self.at(tf, tr);
        let capture = self.theirs(target);
        let mut placed = piece;
        if let Some(&suffix) = b.get(4) {
            placed = match suffix {
                b'g' => b'G',
                b'h' => b'H',
                b's' => b'S',
                _ => unreachable!(),
            };
            if !self.heads_to_move {
                placed = placed.to_ascii_lowercase();
            }
        }
        next.board[fr as usize][ff as usize] = b'.';
        next.board[tr as usize][tf as usize] = placed;
        let spin = piece.eq_ignore_ascii_case(&b'C') && (tf - ff).abs() == 2;
        if spin {
            let handler_file = if tf == 0 { 1 } else { 3 };
            next.board[tr as usize][handler_file] = if self.heads_to_move { b'H' } else { b'h' };
        }
        if is_candidate(piece) {
            let own = if self.heads_to_move { [0, 1] } else { [2, 3] };
            for i in own {
                next.spin[i] = false;
            }
        }
        for (f, r) in [(ff, fr), (tf, tr)] {
            match (f, r) {
                (0, 0) => next.spin[0] = false,
                (4, 0) => next.spin[1] = false,
                (0, 6) => next.spin[2] = false,
                (4, 6) => next.spin[3] = false,
                _ => {}
            }
        }
        next.halfmove = if capture || piece.eq_ignore_ascii_case(&b'I') {
            0
        } else {
            self.halfmove + 1
        };
        if !self.heads_to_move {
            next.fullmove += 1;
        }
        next.heads_to_move = !self.heads_to_move;
        next
    }

    /// The outcome line the `position` command prints, if the game is over.
    pub fn outcome(&self) -> Option<String> {
        if self.bare() {
            return Some("run-off: bare candidates".into());
        }
        if !self.legal_moves().is_empty() {
            return None;
        }
        Some(if self.in_check() {
            let winner = if self.heads_to_move { "tails" } else { "heads" };
            format!("fact-check: {winner} wins")
        } else {
            "run-off: stalemate".into()
        })
    }

    /// Leaf positions `depth` plies ahead.
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
        let ranks: Vec<String> = (0..7)
            .rev()
            .map(|r| {
                let mut s = String::new();
                let mut empty = 0;
                for &c in &self.board[r] {
                    if c == b'.' {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c as char);
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                }
                s
            })
            .collect();
        let spin: String = ['A', 'E', 'a', 'e']
            .iter()
            .zip(self.spin)
            .filter(|(_, on)| *on)
            .map(|(c, _)| *c)
            .collect();
        let spin = if spin.is_empty() {
            "-".to_owned()
        } else {
            spin
        };
        let side = if self.heads_to_move { 'h' } else { 't' };
        write!(
            f,
            "{} {side} {spin} {} {}",
            ranks.join("/"),
            self.halfmove,
            self.fullmove
        )
    }
}
