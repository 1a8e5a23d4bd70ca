//! An event's page on `correspond site`: its crosstable, its pairings (each linked to its
//! game's page), its withdrawals and decisions; static HTML with no script.

use super::standings::{
    column_cell, column_heads, legend, place, points, short, state_words, tie_break_value,
};
use correspond::picture::escape as esc;
use correspond::tournament::event::Event;
use correspond::tournament::table::Table;
use std::fmt::Write as _;

/// The page of `event` standing as `table` says; `page_of(i)` names the page of the game file
/// `i` of the games given to the table, where it has one.
pub(crate) fn page(
    event: &Event,
    table: &Table,
    page_of: &dyn Fn(usize) -> Option<String>,
) -> String {
    let h = &event.header;
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>{}</title>\n<style>body{{font-family:system-ui,sans-serif;margin:1em auto;\
         max-width:62em;padding:0 1em;color:#222}}table{{border-collapse:collapse;margin:.5em 0 \
         1.5em}}td,th{{padding:.2em .6em;text-align:center;border-bottom:1px solid #ddd}}\
         td.name,th.name{{text-align:left}}.invalid{{color:#a00}}code{{font-size:.85em}}\
         </style>\n</head>\n<body>\n<p><a href=\"index.html\">All games</a></p>\n<h1>{}</h1>\n",
        esc(&h.event),
        esc(&h.event)
    );
    let _ = writeln!(
        out,
        "<p>{}, {}, every game {}; directed by {}. Event id <code>{}</code>.</p>",
        esc(&h.game),
        esc(h.system.name()),
        esc(&h.time_control.to_string()),
        esc(&h.director.name),
        event.id
    );
    let mut order: Vec<&str> = h
        .tie_breaks
        .iter()
        .map(|t| correspond::tournament::file::tie_break_name(*t))
        .collect();
    order.push("the lot");
    let _ = writeln!(out, "<p>After points: {}.</p>", esc(&order.join(", ")));
    if event.numbers.is_none() {
        let _ = writeln!(out, "<p>{}.</p>\n</body>\n</html>", esc(&event.stage()));
        return out;
    }
    let settled = table.boards.iter().filter(|b| b.state.settled()).count();
    let _ = writeln!(
        out,
        "<p class=\"stage\">{}</p>",
        if table.finished {
            "Final ranking: every game is settled.".to_owned()
        } else {
            format!(
                "Ranking so far: {settled} of {} games settled.",
                table.boards.len()
            )
        }
    );
    crosstable(&mut out, event, table);
    for entrant in &event.entrants {
        if let Some((doc, _)) = &entrant.withdrawn {
            let decided = entrant.decision.as_ref().map_or_else(
                || "no decision yet".to_owned(),
                |(d, at, _)| format!("the director decided {d} (record {at})"),
            );
            let _ = writeln!(
                out,
                "<p class=\"withdrawn\">{} withdrew (record {doc}); {}.</p>",
                esc(&entrant.name),
                esc(&decided)
            );
        }
    }
    out.push_str(
        "<h2>Games</h2>\n<table class=\"pairings\">\n<tr><th>round</th><th>board</th>\
                  <th class=\"name\">players</th><th class=\"name\">where it stands</th></tr>\n",
    );
    for board in &table.boards {
        let p = board.pairing;
        let players = esc(&event.matchup(&p));
        let players = match board.files.iter().find_map(|&i| page_of(i)) {
            Some(page) => format!("<a href=\"{}\">{players}</a>", esc(&page)),
            None => players,
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td class=\"name\">{players}</td><td class=\"name\">{}</td></tr>",
            p.round,
            p.board,
            esc(&state_words(&board.state))
        );
    }
    out.push_str("</table>\n");
    for (_, why) in &table.refused {
        let _ = writeln!(out, "<p class=\"invalid\">Refused: {}</p>", esc(why));
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The crosstable as an HTML table, best first.
fn crosstable(out: &mut String, event: &Event, table: &Table) {
    let columns = column_heads(event);
    out.push_str(
        "<table class=\"crosstable\">\n<tr><th>place</th><th>no</th><th class=\"name\">player</th>",
    );
    for head in &columns {
        let _ = write!(out, "<th>{head}</th>");
    }
    out.push_str("<th>points</th>");
    for tb in &event.header.tie_breaks {
        let _ = write!(out, "<th>{}</th>", short(*tb));
    }
    out.push_str("</tr>\n");
    for s in &table.standings {
        let me = s.line.player;
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{me}</td><td class=\"name\">{}</td>",
            place(s),
            esc(&event.entrants[s.entrant].name)
        );
        for k in 0..columns.len() {
            let _ = write!(out, "<td>{}</td>", column_cell(event, table, me, k));
        }
        let _ = write!(out, "<td>{}</td>", points(s.line.halves));
        for (tb, v) in event.header.tie_breaks.iter().zip(&s.line.tie_breaks) {
            let _ = write!(out, "<td>{}</td>", tie_break_value(*tb, *v));
        }
        out.push_str("</tr>\n");
    }
    let _ = writeln!(out, "</table>\n<p>{}.</p>", esc(&legend(event)));
}
