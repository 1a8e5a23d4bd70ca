//! A round robin's crosstable: each player's points, the event's tie-breaks in the order its
//! rules give, and the ranking they make (FIDE Handbook C.07; ICCF's Baumbach rule). Scores are
//! kept in halves and Sonneborn-Berger in quarters of a point, so that no sum is a floating
//! point number, and two machines rank alike.

use std::collections::BTreeSet;

/// How a game ended, for the crosstable; `None` in a [`Game`] while it goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// A draw.
    Draw,
}

/// One game of the event, between players numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// White's number.
    pub white: usize,
    /// Black's number.
    pub black: usize,
    /// The result, once the game is over.
    pub result: Option<Result>,
}

/// A tie-break, as an event's rules list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TieBreak {
    /// The number of games won.
    Wins,
    /// Sonneborn-Berger: the scores of the opponents beaten, and half those of the opponents
    /// drawn with.
    SonnebornBerger,
    /// The points scored in the games between the players still tied, where each of them has
    /// played every other.
    DirectEncounter,
    /// Koya: the points scored against the opponents who scored half the points or more.
    Koya,
    /// The number of games won with Black.
    WinsWithBlack,
    /// Buchholz: the sum of the opponents' scores, a bye counted as an opponent with the
    /// player's own score (FIDE C.07's dummy opponent).
    Buchholz,
    /// Buchholz without its lowest opponent's score.
    BuchholzCut1,
}

impl TieBreak {
    /// ICCF's Baumbach rule: wins, Sonneborn-Berger, then the games between the tied players.
    pub const BAUMBACH: [TieBreak; 3] = [
        TieBreak::Wins,
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
    ];

    /// FIDE's usual list for a round robin: wins, Sonneborn-Berger, Koya, wins with Black.
    pub const FIDE_ROUND_ROBIN: [TieBreak; 4] = [
        TieBreak::Wins,
        TieBreak::SonnebornBerger,
        TieBreak::Koya,
        TieBreak::WinsWithBlack,
    ];

    /// A usual Swiss list (FIDE C.07's Buchholz family first): Buchholz without the lowest
    /// opponent, Buchholz, Sonneborn-Berger.
    pub const SWISS: [TieBreak; 3] = [
        TieBreak::BuchholzCut1,
        TieBreak::Buchholz,
        TieBreak::SonnebornBerger,
    ];
}

/// A player's line of the crosstable, every figure in its own unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The player's number.
    pub player: usize,
    /// The rank, from 1: players that no tie-break parts share one.
    pub rank: usize,
    /// Points, in halves.
    pub halves: u32,
    /// Games finished.
    pub played: u32,
    /// The value of each of the event's tie-breaks, in their order: Sonneborn-Berger in
    /// quarters of a point, Koya and direct encounter in halves, the others in games.
    pub tie_breaks: Vec<u32>,
}

/// The crosstable of `players` players (numbered 1 to `players`) after `games` and `byes` (the
/// number of each pairing-allocated bye of a Swiss event, a point each, one entry per bye),
/// ranked by points and then `tie_breaks` in order. Only games between two different players
/// of the section count; any other is no game of it.
#[must_use]
pub fn crosstable(
    players: usize,
    games: &[Game],
    byes: &[usize],
    tie_breaks: &[TieBreak],
) -> Vec<Line> {
    let games: Vec<Game> = games
        .iter()
        .filter(|g| (1..=players).contains(&g.white) && (1..=players).contains(&g.black))
        .filter(|g| g.white != g.black)
        .copied()
        .collect();
    let finished: Vec<(usize, usize, Result)> = games
        .iter()
        .filter_map(|g| g.result.map(|r| (g.white, g.black, r)))
        .collect();
    let byes_of = |p: usize| count_byes(byes, p);
    let halves =
        |p: usize| -> u32 { finished.iter().map(|g| scored(g, p)).sum::<u32>() + 2 * byes_of(p) };
    let points: Vec<u32> = (0..=players).map(halves).collect();
    // The games each player has in the event, finished or not: half of them is Koya's bar.
    let scheduled: Vec<u32> = (0..=players)
        .map(|p| {
            let theirs = games
                .iter()
                .filter(|g| g.white == p || g.black == p)
                .count();
            u32::try_from(theirs).unwrap_or(u32::MAX)
        })
        .collect();
    let mut lines: Vec<Line> = (1..=players)
        .map(|p| Line {
            player: p,
            rank: 0,
            halves: points[p],
            played: count(&finished, |&(w, b, _)| w == p || b == p),
            tie_breaks: Vec::new(),
        })
        .collect();
    // Every tie-break but the direct encounter is the player's own figure.
    for line in &mut lines {
        let p = line.player;
        line.tie_breaks = tie_breaks
            .iter()
            .map(|tb| match tb {
                TieBreak::Buchholz | TieBreak::BuchholzCut1 => buchholz(
                    p,
                    &finished,
                    &points,
                    byes_of(p),
                    *tb == TieBreak::BuchholzCut1,
                ),
                _ => own(*tb, p, &finished, &points, &scheduled),
            })
            .collect();
    }
    rank(&mut lines, tie_breaks, &games);
    lines
}

/// What player `p` scored in game `g`, in halves.
fn scored(&(white, black, result): &(usize, usize, Result), p: usize) -> u32 {
    match (result, p == white, p == black) {
        (Result::WhiteWins, true, _) | (Result::BlackWins, _, true) => 2,
        (Result::Draw, true, _) | (Result::Draw, _, true) => 1,
        _ => 0,
    }
}

fn count(games: &[(usize, usize, Result)], keep: impl Fn(&(usize, usize, Result)) -> bool) -> u32 {
    u32::try_from(games.iter().filter(|g| keep(g)).count()).unwrap_or(u32::MAX)
}

/// A tie-break's value for player `p` alone (the direct encounter, which depends on who is
/// tied, is 0 here and set when ranking).
fn own(
    tb: TieBreak,
    p: usize,
    games: &[(usize, usize, Result)],
    points: &[u32],
    scheduled: &[u32],
) -> u32 {
    let opponent = |&(w, b, _): &(usize, usize, Result)| if w == p { b } else { w };
    let mine = games.iter().filter(|&&(w, b, _)| w == p || b == p);
    match tb {
        TieBreak::Wins => count(games, |g| (g.0 == p || g.1 == p) && scored(g, p) == 2),
        TieBreak::WinsWithBlack => count(games, |g| g.1 == p && scored(g, p) == 2),
        // In quarters: a beaten opponent's halves twice, a drawn one's once.
        TieBreak::SonnebornBerger => mine.map(|g| scored(g, p) * points[opponent(g)]).sum(),
        // Half the points or more: as many halves as the opponent has games.
        TieBreak::Koya => mine
            .filter(|g| points[opponent(g)] >= scheduled[opponent(g)])
            .map(|g| scored(g, p))
            .sum(),
        TieBreak::DirectEncounter | TieBreak::Buchholz | TieBreak::BuchholzCut1 => 0,
    }
}

/// How many byes player `p` has had.
fn count_byes(byes: &[usize], p: usize) -> u32 {
    u32::try_from(byes.iter().filter(|&&b| b == p).count()).unwrap_or(u32::MAX)
}

/// Player `p`'s Buchholz in halves: each finished game's opponent's points, and each of the
/// `byes` as an opponent with `p`'s own points; with `cut`, the lowest of them left out.
fn buchholz(
    p: usize,
    games: &[(usize, usize, Result)],
    points: &[u32],
    byes: u32,
    cut: bool,
) -> u32 {
    let mut scores: Vec<u32> = games
        .iter()
        .filter(|&&(w, b, _)| w == p || b == p)
        .map(|&(w, b, _)| points[if w == p { b } else { w }])
        .collect();
    scores.extend((0..byes).map(|_| points[p]));
    let lowest = scores
        .iter()
        .enumerate()
        .min_by_key(|(_, s)| **s)
        .map(|(k, _)| k);
    if let (true, Some(k)) = (cut, lowest) {
        scores.swap_remove(k);
    }
    scores.iter().sum()
}

/// Sorts `lines` by points and the tie-breaks in order, working out each direct encounter
/// among the players tied when it is reached (from `games`, finished or not), and gives ranks:
/// players no tie-break parts share the rank of the first of them.
fn rank(lines: &mut [Line], tie_breaks: &[TieBreak], games: &[Game]) {
    lines.sort_by(|a, b| b.halves.cmp(&a.halves).then(a.player.cmp(&b.player)));
    // Groups of players equal so far, refined tie-break by tie-break.
    let mut groups: Vec<std::ops::Range<usize>> = split(lines, 0..lines.len(), |l| l.halves);
    for (k, tb) in tie_breaks.iter().enumerate() {
        let mut next = Vec::new();
        for group in groups {
            if group.len() > 1 {
                if *tb == TieBreak::DirectEncounter {
                    let tied: BTreeSet<usize> =
                        lines[group.clone()].iter().map(|l| l.player).collect();
                    for line in &mut lines[group.clone()] {
                        line.tie_breaks[k] = direct(line.player, &tied, games);
                    }
                }
                lines[group.clone()].sort_by(|a, b| {
                    b.tie_breaks[k]
                        .cmp(&a.tie_breaks[k])
                        .then(a.player.cmp(&b.player))
                });
            }
            next.extend(split(lines, group, |l| l.tie_breaks[k]));
        }
        groups = next;
    }
    for group in groups {
        let rank = group.start + 1;
        for line in &mut lines[group] {
            line.rank = rank;
        }
    }
}

/// `range` of `lines` (sorted by `key`, highest first) cut where `key` changes.
fn split(
    lines: &[Line],
    range: std::ops::Range<usize>,
    key: impl Fn(&Line) -> u32,
) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut start = range.start;
    for i in range.clone() {
        if i + 1 == range.end || key(&lines[i]) != key(&lines[i + 1]) {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    out
}

/// Player `p`'s points, in halves, against the others of `tied`, once every two of them have
/// met and every game between them is finished (in a double round robin, both); else 0 for
/// all: the games do not part them yet.
fn direct(p: usize, tied: &BTreeSet<usize>, games: &[Game]) -> u32 {
    let among: Vec<&Game> = games
        .iter()
        .filter(|g| tied.contains(&g.white) && tied.contains(&g.black))
        .collect();
    let all_met = tied.iter().all(|a| {
        tied.iter().filter(|b| a < *b).all(|b| {
            among
                .iter()
                .any(|g| (g.white == *a && g.black == *b) || (g.white == *b && g.black == *a))
        })
    });
    if !all_met || among.iter().any(|g| g.result.is_none()) {
        return 0;
    }
    among
        .iter()
        .filter_map(|g| g.result.map(|r| scored(&(g.white, g.black, r), p)))
        .sum()
}

#[cfg(test)]
mod tests;
