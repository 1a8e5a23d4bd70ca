//! A game file as one self-contained HTML page: the board after every record, steps by buttons
//! and the arrow, Home and End keys, the records as a list to click (each with its signer,
//! time, comment and what it did, coin flips explained), the clocks, the verdict and the
//! players' key fingerprints. Nothing is fetched. The boards are data (each square's look drawn
//! once, each record a few hundred bytes), drawn by the page's script, so that a page of
//! thousands of records loads about as fast as one of fifty; without script the page shows the
//! last position, drawn whole, and every record. A file that does not verify is shown up to
//! its first defect, named.

use crate::cli::shared::game::CliGame;
use correspond::log::GameFile;
use correspond::picture::{self, Board, Options, Picture};
use correspond::replay::{Event, Phase, Replay};
use correspond::rules::Line;
use std::fmt::Write as _;

/// Text made safe in HTML, shown as a terminal would show it.
fn esc(text: &str) -> String {
    picture::escape(text)
}

/// What the page says besides the game: its title (the file's name) and, for a file that does
/// not verify, its first defect.
pub(crate) struct Context<'a> {
    pub title: &'a str,
    pub defect: Option<String>,
    /// The clocks after the last record, in words, where the game has a time control.
    pub clocks: Option<String>,
}

/// What a reader needs to know to trust the coin flips the records show.
const COIN_FLIPS: &str = "<details class=\"flips\"><summary>How the coin flips work</summary>\
<p>No one tosses a coin: the two players make it together, so that neither can choose how it \
falls. One commits to a secret number by publishing only its SHA-256 digest (<em>committed to a \
coin flip</em>); the other then answers with a number of their own in the clear (<em>answered \
the coin flip</em>); the first reveals the secret, which anyone can check against the digest \
(<em>the coin shows ...</em>). The coin is computed from both numbers, the game and the flip. \
The first chose before seeing the answer, and the answer was given without knowing the secret, \
so neither could steer the result; a player who would not reveal can only resign.</p></details>\n";

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1em auto;max-width:62em;\
padding:0 1em;color:#222}h1{font-size:1.3em}.defect{background:#fdd;border:1px solid #c00;\
padding:.5em}.game{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}\
.frames{width:min(100%,28em)}.frames svg{width:100%;height:auto}figure{margin:0}nav{margin:.5em 0}nav button{font-size:1.1em;\
min-width:2.5em}.records{flex:1;min-width:18em;max-height:36em;overflow:auto;margin:0;\
padding-left:2.5em}.records li{margin:.15em 0}.records li.shown{background:#ffe9a8}\
.records a{color:inherit}.meta{color:#666;font-size:.85em}.comment{font-style:italic}\
.players td{padding:.1em .6em .1em 0}.players code{font-size:.85em}";

/// Draws the board of the record shown from the page's data (see [`boards`]): each square a
/// `<use>` of its look, drawn once as a symbol; the coordinates, the title and the caption lines
/// as the SVG has them, the text set as text, never as markup. A symbol is not clipped to its
/// square: what stands on a crossing is in each of its four squares' looks, drawn whole in
/// each, where four clipped quarters would leave a hairline between them at most sizes.
const SCRIPT: &str = "(function(){var D=JSON.parse(document.getElementById('boards').textContent),\
b=document.body,fig=document.querySelector('figure.board'),\
l=[].slice.call(document.querySelectorAll('.records li')),n=document.getElementById('at'),\
X='http://www.w3.org/1999/xlink',S='<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"'+X+'\" ',\
last=D.records.length-1,i=last,d=document.createElement('div');\
d.style.cssText='position:absolute;width:0;height:0;overflow:hidden';\
d.innerHTML=S+'width=\"0\" height=\"0\"><defs>'+D.defs.join('')+D.tiles.map(function(t,j){\
return '<symbol id=\"t'+j+'\" viewBox=\"0 0 '+D.square+' '+D.square+'\" overflow=\"visible\">'+\
t.split('.').map(function(e){return D.elements[parseInt(e,36)]}).join('')+'</symbol>'}).join('')+\
'</defs></svg>';b.appendChild(d);\
function board(k){var r=D.records[k],c=r[3].length,h=D.sizes[c][0],\
s=S+'version=\"1.1\" viewBox=\"0 0 '+D.width+' '+h+'\" width=\"'+D.shown+'\" height=\"'+\
D.sizes[c][1]+'\" font-family=\"DejaVu Sans, Verdana, sans-serif\"><title></title>\
<rect width=\"'+D.width+'\" height=\"'+h+'\" fill=\"#fff\"/>';\
for(var q=0;q<D.files*D.ranks;q++){var t='#t'+parseInt(r[1].substr(q*D.digits,D.digits),36);\
s+='<use href=\"'+t+'\" xlink:href=\"'+t+'\" x=\"'+(D.margin+D.square*(q%D.files))+'\" y=\"'+\
(D.margin+D.square*Math.floor(q/D.files))+'\" width=\"'+D.square+'\" height=\"'+D.square+'\"/>'}\
s+=D.coordinates;for(q=0;q<c;q++)s+=D.caption[0]+' y=\"'+(D.first+D.line*q)+'\"'+D.caption[1]+'</text>';\
fig.innerHTML=s+'</svg>';var svg=fig.firstElementChild,texts=svg.querySelectorAll('text');\
svg.querySelector('title').textContent=D.texts[r[2]];\
for(q=0;q<c;q++)texts[texts.length-c+q].textContent=D.texts[r[3][q]]}\
function show(k){if(k<0)k=0;if(k>last)k=last;i=k;board(k);\
fig.setAttribute('data-record',k);fig.setAttribute('data-position',D.records[k][0]);\
l.forEach(function(e,j){e.classList.toggle('shown',j===k)});if(l[k])l[k].scrollIntoView({block:'nearest'});\
n.textContent=k;b.setAttribute('data-record',k);b.setAttribute('data-position',D.records[k][0])}\
document.getElementById('first').onclick=function(){show(0)};\
document.getElementById('back').onclick=function(){show(i-1)};\
document.getElementById('forward').onclick=function(){show(i+1)};\
document.getElementById('last').onclick=function(){show(last)};\
l.forEach(function(e,j){e.querySelector('a').onclick=function(ev){ev.preventDefault();show(j)}});\
document.addEventListener('keydown',function(e){if(e.key==='ArrowLeft')show(i-1);\
else if(e.key==='ArrowRight')show(i+1);else if(e.key==='Home')show(0);\
else if(e.key==='End')show(last);else return;e.preventDefault()});\
document.querySelector('nav').hidden=false;\
var at=/^#r([0-9]+)$/.exec(location.hash);show(at?+at[1]:last)})();";

/// The page of a file that does not verify as far as its header (or cannot be read as a game
/// file at all): it names the defect and shows no game, since there is none to trust.
pub(crate) fn defect_page(title: &str, defect: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>{title} (does not verify)</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <h1>{title}</h1>\n<p class=\"defect\">This file does not verify: {}. No game is \
         shown: nothing in it can be trusted before its header is.</p>\n</body>\n</html>\n",
        esc(defect),
        title = esc(title)
    )
}

/// The page of `replay`, the replay of `file` (up to its first defect, for one that does not
/// verify).
pub(crate) fn page<G: CliGame>(
    file: &GameFile,
    replay: &Replay<G>,
    context: &Context<'_>,
) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let heading = format!("{}: {}", G::NAME, replay.matchup());
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>{} ({})</title>\n<style>{STYLE}</style>\n</head>\n",
        esc(&heading),
        esc(context.title)
    );
    let last = replay.steps.len() - 1;
    let final_position = replay.last().position.to_string();
    let _ = write!(
        out,
        "<body data-record=\"{last}\" data-position=\"{}\">\n<h1>{}</h1>\n",
        esc(&final_position),
        esc(&heading)
    );
    if let Some(defect) = &context.defect {
        let _ = writeln!(
            out,
            "<p class=\"defect\">This file does not verify: {}. The game is shown up to there.</p>",
            esc(defect)
        );
    }
    let _ = writeln!(
        out,
        "<p class=\"verdict\">{}</p>",
        esc(&replay.last().phase.describe(&replay.seats))
    );
    if let Some(clocks) = &context.clocks {
        let _ = writeln!(out, "<p class=\"clocks\">{}</p>", esc(clocks));
    }
    players(&mut out, replay);
    out.push_str("<div class=\"game\">\n<div class=\"frames\">\n");
    let (moves, line) = boards(&mut out, replay);
    let _ = writeln!(
        out,
        "<nav hidden=\"\"><button id=\"first\" title=\"first (Home)\">&#xAB;</button> \
         <button id=\"back\" title=\"back (←)\">&#x2039;</button> \
         <button id=\"forward\" title=\"forward (→)\">&#x203A;</button> \
         <button id=\"last\" title=\"last (End)\">&#xBB;</button> record <span id=\"at\">{last}</span> \
         of {last}</nav>\n</div>"
    );
    records(&mut out, file, replay, &moves, &line);
    let flips = replay
        .steps
        .iter()
        .flat_map(|s| &s.events)
        .any(|e| matches!(e, Event::Committed | Event::Answered | Event::Coin(..)));
    if flips {
        out.push_str(COIN_FLIPS);
    }
    // In CDATA, so that the page is well-formed XML too, which programs can read.
    let _ = write!(
        out,
        "</div>\n<script>//<![CDATA[\n{SCRIPT}\n//]]></script>\n</body>\n</html>\n"
    );
    out
}

fn players<G: CliGame>(out: &mut String, replay: &Replay<G>) {
    out.push_str("<table class=\"players\">\n");
    for player in &replay.seats {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td><code>{}</code></td></tr>",
            esc(&player.to_string()),
            esc(&player.fingerprint)
        );
    }
    if let Some(arbiter) = &replay.arbiter {
        let _ = writeln!(
            out,
            "<tr><td>arbiter {}</td><td><code>{}</code></td></tr>",
            esc(&arbiter.name),
            esc(&arbiter.fingerprint)
        );
    }
    out.push_str("</table>\n");
}

/// The board after each document, as data for the script to draw (see [`SCRIPT`]): each
/// different square's look once, each different line of text once, and for each document the
/// look of each square (a number in base 36), its position, and the numbers of its picture's
/// title and caption lines: a few hundred bytes a document, where an SVG of its own would be
/// fifteen thousand. The last board is drawn whole
/// too, for a reader without script. Returns how many moves each document's board follows,
/// and the line of the whole game.
fn boards<G: CliGame>(out: &mut String, replay: &Replay<G>) -> (Vec<usize>, Line<G>) {
    let (played, pictures, line) = pictures(replay);
    let mut definitions = Numbered::default();
    let mut looks = Numbered::default();
    for picture in &pictures {
        for definition in picture.board.definitions() {
            definitions.number(definition.as_str());
        }
        for look in &picture.board.squares {
            looks.number(look.as_str());
        }
    }
    // A look is a few elements (a square, a piece, a stone at a corner), and the same elements
    // make many looks (a Guerrilla's square has four corners): each element is written once,
    // each look as the numbers of its elements.
    let mut elements = Numbered::default();
    let tiles: Vec<String> = looks
        .items
        .iter()
        .map(|look| {
            look.lines()
                .map(|element| {
                    let n = elements.number(element);
                    base36(n, digits_for(n + 1))
                })
                .collect::<Vec<_>>()
                .join(".")
        })
        .collect();
    let digits = digits_for(looks.items.len());
    // Titles and caption lines repeat (a game's legend, whose turn it is): each is written
    // once, and a record names its own by their numbers.
    let mut texts = Numbered::default();
    let mut number = |text: &str| texts.number(correspond::text::escape(text).into_owned());
    let records: Vec<serde_json::Value> = replay
        .steps
        .iter()
        .zip(&pictures)
        .map(|(step, picture)| {
            let looks: String = picture
                .board
                .squares
                .iter()
                .map(|look| base36(looks.number(look.as_str()), digits))
                .collect();
            let captions: Vec<usize> = picture.captions.iter().map(|c| number(c)).collect();
            serde_json::json!([
                correspond::text::escape(&step.position.to_string()),
                looks,
                number(&picture.title),
                captions
            ])
        })
        .collect();
    let last = pictures.last().expect("a replay has its header's step");
    let most_captions = pictures
        .iter()
        .map(|p| u32::try_from(p.captions.len()).unwrap_or(u32::MAX))
        .max()
        .unwrap_or(0);
    let board = &last.board;
    let data = serde_json::json!({
        "files": board.files,
        "ranks": board.ranks,
        "square": Board::SQUARE,
        "margin": Board::MARGIN,
        "width": board.size.0,
        // The size of the picture and the height it is shown at, by its number of caption
        // lines, as the SVG has them.
        "sizes": (0..=most_captions)
            .map(|lines| {
                let height = board.board_height() + Board::LINE * lines;
                [height, picture::shown_height(board.size.0, height)]
            })
            .collect::<Vec<_>>(),
        "shown": picture::WIDTH,
        "line": Board::LINE,
        "first": board.first_caption(),
        "caption": Board::CAPTION,
        "coordinates": board.coordinates,
        "defs": definitions.items,
        "elements": elements.items,
        "tiles": tiles,
        "digits": digits,
        "texts": texts.items,
        "records": records,
    });
    let k = replay.steps.len() - 1;
    let _ = write!(
        out,
        "<figure class=\"board\" data-record=\"{k}\" data-position=\"{}\">\n{}</figure>\n\
         <script type=\"application/json\" id=\"boards\">{}</script>\n",
        esc(&replay.steps[k].position.to_string()),
        last.svg,
        // Nothing in it can end the script element, and the page stays well-formed XML: JSON
        // may say `<`, `>` and `&` as `\u003c`, `\u003e` and `\u0026`.
        data.to_string()
            .replace('<', "\\u003c")
            .replace('>', "\\u003e")
            .replace('&', "\\u0026")
    );
    (played, line)
}

/// The board after each document, as [`boards`] needs it: how many moves each document's board
/// follows, its picture, and the line of the whole game. The line is played on move by move,
/// not cut from the whole game's again at each document.
fn pictures<G: CliGame>(replay: &Replay<G>) -> (Vec<usize>, Vec<Picture>, Line<G>) {
    let whole = replay.line.clone();
    let mut line = Line::new(replay.steps[0].position.clone());
    let mut played = Vec::with_capacity(replay.steps.len());
    let mut pictures = Vec::with_capacity(replay.steps.len());
    for step in &replay.steps {
        let moves = played.last().copied().unwrap_or(0)
            + step
                .events
                .iter()
                .filter(|e| matches!(e, Event::Moved(..)))
                .count();
        line = match &whole {
            Some(whole) if moves > 0 => {
                if line.moves().is_empty() && line.positions()[0] != whole.positions()[0] {
                    line = Line::new(whole.positions()[0].clone());
                }
                let moves = moves.min(whole.moves().len());
                for mv in &whole.moves()[line.moves().len().min(moves)..moves] {
                    line.play_legal(mv);
                }
                line
            }
            _ => Line::new(step.position.clone()),
        };
        played.push(moves);
        let options = Options {
            flipped: false,
            captions: Vec::new(),
            verdict: matches!(step.phase, Phase::Over(_))
                .then(|| step.phase.describe(&replay.seats)),
        };
        pictures.push(G::picture(&line, &options));
    }
    (played, pictures, line)
}

/// Things written once each, in the order first met, and the number of each.
struct Numbered<T> {
    items: Vec<T>,
    numbers: std::collections::HashMap<T, usize>,
}

impl<T> Default for Numbered<T> {
    fn default() -> Self {
        Numbered {
            items: Vec::new(),
            numbers: std::collections::HashMap::new(),
        }
    }
}

impl<T: Clone + Eq + std::hash::Hash> Numbered<T> {
    /// The number of `item`, given it the first time it is met.
    fn number(&mut self, item: T) -> usize {
        if let Some(&n) = self.numbers.get(&item) {
            return n;
        }
        self.numbers.insert(item.clone(), self.items.len());
        self.items.push(item);
        self.items.len() - 1
    }
}

/// How many digits of base 36 numbers below `count` need (at least one).
fn digits_for(count: usize) -> u32 {
    let mut digits = 1;
    let mut reach = 36usize;
    while reach < count {
        digits += 1;
        reach = reach.saturating_mul(36);
    }
    digits
}

/// `n` in base 36, in `digits` digits.
fn base36(n: usize, digits: u32) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    (0..digits)
        .rev()
        .map(|d| char::from(DIGITS[n / 36usize.pow(d) % 36]))
        .collect()
}

/// The records as a list: what each did (a move in SAN for chess and Insurrection), who signed
/// it and when, and its comment.
fn records<G: CliGame>(
    out: &mut String,
    file: &GameFile,
    replay: &Replay<G>,
    moves: &[usize],
    line: &Line<G>,
) {
    out.push_str("<ol class=\"records\" start=\"0\">\n");
    let numbered = crate::cli::reading::show_json::moves(line);
    for (k, step) in replay.steps.iter().enumerate() {
        let (time, comment) = match k {
            0 => (file.header().created.as_str(), None),
            n => {
                let record = &file.records()[n - 1];
                (record.time.as_str(), record.comment.as_deref())
            }
        };
        let what: Vec<String> = step
            .events
            .iter()
            // SAN says check itself (`Bxb5+`).
            .filter(|event| !(matches!(event, Event::Check) && G::MOVES_SAY_CHECK))
            .map(|event| match event {
                Event::Moved(..) => moves[k]
                    .checked_sub(1)
                    .and_then(|i| numbered.get(i))
                    .map_or_else(
                        || event.to_string(),
                        |m| {
                            let dots = if m.first_side { "." } else { "..." };
                            format!("{}{dots} {}", m.number, m.shown)
                        },
                    ),
                other => other.to_string(),
            })
            .collect();
        let _ = write!(
            out,
            "<li id=\"r{k}\" data-record=\"{k}\"><a href=\"#r{k}\">{}</a> <span class=\"meta\">{}, {}</span>",
            esc(&what.join("; ")),
            esc(&replay.signed_by(step.signer)),
            esc(time)
        );
        if let Some(comment) = comment {
            let _ = write!(out, " <span class=\"comment\">“{}”</span>", esc(comment));
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n");
}
