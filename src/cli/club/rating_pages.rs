//! The site's rating pages (`correspond site --ratings`): the rating list of each game, and one
//! page per rated player with their rating history drawn as SVG by the program (no script, no
//! outside asset) and the figures it draws.

use super::ratings::{Shown, rating_words};
use correspond::digest::Digest;
use correspond::picture::escape as esc;
use correspond::ratings::rounded;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The rating list's page name.
pub(crate) const LIST_PAGE: &str = "ratings.html";

/// A page: its file name and its HTML.
pub(crate) struct Page {
    pub(crate) name: String,
    pub(crate) html: String,
}

/// Every rating page of `lists`, their names taken from `taken` (so that no game's page has
/// one): the list first, then each player's.
pub(crate) fn pages(lists: &[Shown], taken: &mut BTreeSet<String>) -> Vec<Page> {
    taken.insert("ratings".to_owned());
    let mut players = Vec::new();
    let mut list = head("Ratings");
    list.push_str(
        "<p><a href=\"index.html\">Games</a></p>\n<h1>Ratings</h1>\n<p>Recomputed from the \
         signed games by <code>correspond ratings</code>: the same files give the same list on \
         every machine.</p>\n",
    );
    for shown in lists {
        let _ = writeln!(
            list,
            "<h2>{}</h2>\n<p>{} rated; games digest <code>{}</code>, parameters digest \
             <code>{}</code></p>\n<table class=\"ratings\">\n<tr><th>place</th><th>player</th>\
             <th>rating</th><th>games</th><th>key</th></tr>",
            esc(&shown.game),
            crate::cli::count(shown.rated.games.len(), "game"),
            shown.list.inputs,
            shown.list.parameters
        );
        for (i, entry) in shown.list.entries.iter().enumerate() {
            let name = player_page(&shown.game, &entry.key, taken);
            let names = shown.names(&entry.key);
            let _ = writeln!(
                list,
                "<tr><td>{}</td><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td>\
                 <td><code>{}</code></td></tr>",
                i + 1,
                esc(&name),
                esc(&names),
                esc(&rating_words(entry)),
                entry.games,
                esc(&shown.fingerprint(&entry.key))
            );
            players.push(Page {
                html: player(shown, &entry.key, &names),
                name,
            });
        }
        list.push_str("</table>\n");
    }
    list.push_str("</body>\n</html>\n");
    let mut out = vec![Page {
        name: LIST_PAGE.to_owned(),
        html: list,
    }];
    out.extend(players);
    out
}

/// A player's page name: the game and the start of their key's digest, one of its own.
fn player_page(game: &str, key: &Digest, taken: &mut BTreeSet<String>) -> String {
    let game: String = game
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    super::site::unique_page(&format!("rating-{game}-{}", &key.to_string()[..16]), taken)
}

/// The page's start, titled `title`.
fn head(title: &str) -> String {
    super::site::head(
        title,
        "code{font-size:.85em}svg{max-width:100%;height:auto}",
    )
}

/// One player's page: the chart of their history and its figures.
fn player(shown: &Shown, key: &Digest, names: &str) -> String {
    let title = format!("{names} ({})", shown.game);
    let points = shown
        .history
        .get(key)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut out = head(&format!("Rating history: {title}"));
    let _ = writeln!(
        out,
        "<p><a href=\"index.html\">Games</a> · <a href=\"{LIST_PAGE}\">Ratings</a></p>\n\
         <h1>Rating history: {}</h1>\n<p>Key <code>{}</code></p>",
        esc(&title),
        esc(&shown.fingerprint(key))
    );
    out.push_str(&correspond::picture::chart::rating_chart(&title, points));
    out.push_str(
        "<table class=\"history\">\n<tr><th>rating period ending</th><th>rating</th>\
         <th>deviation</th></tr>\n",
    );
    for p in points {
        let end = correspond::log::Timestamp::from_unix(u64::try_from(p.end).unwrap_or(0));
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{:.1}</td><td>{}</td></tr>",
            end.as_str(),
            rounded(p.rating, 1),
            p.deviation
                .map_or_else(String::new, |d| format!("{:.1}", rounded(d, 1)))
        );
    }
    out.push_str("</table>\n</body>\n</html>\n");
    out
}
