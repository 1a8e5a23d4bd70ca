//! A game file as one self-contained HTML page: the board after every record (inline SVG),
//! steps by buttons and the arrow, Home and End keys, the records as a list to click (each
//! with its signer, time, comment and what it did, coin flips explained), the clocks, the
//! verdict and the players' key fingerprints. Nothing is fetched. Without script the page
//! shows the last position and every record, and the list's links still show each position
//! (by CSS `:target`). A file that does not verify is shown up to its first defect, named.

use crate::cli::shared::game::CliGame;
use correspond::log::GameFile;
use correspond::picture::{self, Options};
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
.frames{width:min(100%,28em)}.frames svg{width:100%;height:auto}.frame{display:none}\
.frame.last{display:block}.frames:has(.frame:target) .frame.last:not(:target){display:none}\
.frame:target{display:block}.stepping .frame,.stepping .frame.last{display:none}\
.stepping .frame.shown{display:block}nav{margin:.5em 0}nav button{font-size:1.1em;\
min-width:2.5em}.records{flex:1;min-width:18em;max-height:36em;overflow:auto;margin:0;\
padding-left:2.5em}.records li{margin:.15em 0}.records li.shown{background:#ffe9a8}\
.records a{color:inherit}.meta{color:#666;font-size:.85em}.comment{font-style:italic}\
.players td{padding:.1em .6em .1em 0}.players code{font-size:.85em}";

const SCRIPT: &str = "(function(){var b=document.body,f=[].slice.call(document.querySelectorAll('.frame')),\
l=[].slice.call(document.querySelectorAll('.records li')),n=document.getElementById('at'),\
g=document.querySelector('.game'),i=f.length-1;function show(k){if(k<0)k=0;if(k>f.length-1)k=f.length-1;\
i=k;g.classList.add('stepping');f.forEach(function(e,j){e.classList.toggle('shown',j===k)});\
l.forEach(function(e,j){e.classList.toggle('shown',j===k)});if(l[k])l[k].scrollIntoView({block:'nearest'});\
n.textContent=f[k].getAttribute('data-record');b.setAttribute('data-record',f[k].getAttribute('data-record'));\
b.setAttribute('data-position',f[k].getAttribute('data-position'))}\
document.getElementById('first').onclick=function(){show(0)};\
document.getElementById('back').onclick=function(){show(i-1)};\
document.getElementById('forward').onclick=function(){show(i+1)};\
document.getElementById('last').onclick=function(){show(f.length-1)};\
l.forEach(function(e,j){e.querySelector('a').onclick=function(ev){ev.preventDefault();show(j)}});\
document.addEventListener('keydown',function(e){if(e.key==='ArrowLeft')show(i-1);\
else if(e.key==='ArrowRight')show(i+1);else if(e.key==='Home')show(0);\
else if(e.key==='End')show(f.length-1);else return;e.preventDefault()});\
document.querySelector('nav').hidden=false;show(f.length-1)})();";

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
    let lines = frames(&mut out, replay);
    let _ = writeln!(
        out,
        "<nav hidden=\"\"><button id=\"first\" title=\"first (Home)\">&#xAB;</button> \
         <button id=\"back\" title=\"back (←)\">&#x2039;</button> \
         <button id=\"forward\" title=\"forward (→)\">&#x203A;</button> \
         <button id=\"last\" title=\"last (End)\">&#xBB;</button> record <span id=\"at\">{last}</span> \
         of {last}</nav>\n</div>"
    );
    records(&mut out, file, replay, &lines);
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

/// One picture per document, each the position after it; returns the line each is drawn from.
fn frames<G: CliGame>(out: &mut String, replay: &Replay<G>) -> Vec<Line<G>> {
    let last = replay.steps.len() - 1;
    let mut moves = 0;
    let mut lines = Vec::with_capacity(replay.steps.len());
    for (k, step) in replay.steps.iter().enumerate() {
        moves += step
            .events
            .iter()
            .filter(|e| matches!(e, Event::Moved(..)))
            .count();
        let line = crate::cli::reading::show::line_after(replay, step, moves);
        let verdict =
            matches!(step.phase, Phase::Over(_)).then(|| step.phase.describe(&replay.seats));
        let options = Options {
            flipped: false,
            captions: Vec::new(),
            verdict,
        };
        let class = if k == last { "frame last" } else { "frame" };
        let _ = write!(
            out,
            "<figure class=\"{class}\" id=\"r{k}\" data-record=\"{k}\" data-position=\"{}\">\n{}</figure>\n",
            esc(&step.position.to_string()),
            G::svg(&line, &options)
        );
        lines.push(line);
    }
    lines
}

/// The records as a list: what each did (a move in SAN for chess and Insurrection), who signed
/// it and when, and its comment.
fn records<G: CliGame>(out: &mut String, file: &GameFile, replay: &Replay<G>, lines: &[Line<G>]) {
    out.push_str("<ol class=\"records\" start=\"0\">\n");
    let numbered = lines
        .last()
        .map(crate::cli::reading::show_json::moves)
        .unwrap_or_default();
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
                Event::Moved(..) => lines[k]
                    .moves()
                    .len()
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
            "<li data-record=\"{k}\"><a href=\"#r{k}\">{}</a> <span class=\"meta\">{}, {}</span>",
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
