#!/usr/bin/env python3
"""Writes the mail fixtures of tests/integration/mail.rs with Python's own `email` and
`mailbox` modules: messages in the shapes real mail clients produce, made without any of
correspond's code.

The record blocks are armoured here too, from the format that docs/file-format.md describes
("Records by mail"), so the fixtures also check that description against the program.

Run from the repository's root: python3 tests/mail/make_fixtures.py
The output is deterministic; the fixtures are committed, so the tests need no Python.
"""

import base64
import hashlib
import random
import textwrap
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
import datetime
import mailbox
import os

OUT = os.path.join("tests", "mail")
OPERA = os.path.join("games", "chess", "morphy-opera-game-1858.yaml")
CAMPAIGN = os.path.join("games", "campaign", "fact-check.yaml")
BEGIN = "-----BEGIN CORRESPOND RECORDS-----"
END = "-----END CORRESPOND RECORDS-----"


def documents(path):
    """The file's documents, as bytes: document 0 starts with the file's comment lines; each
    document runs from its `---` line to the line before the next one."""
    with open(path, "rb") as f:
        text = f.read()
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line == b"---\n"]
    docs = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        docs.append(b"".join(lines[0 if k == 0 else start : end]))
    return docs


def game_id(docs):
    header = docs[0][docs[0].index(b"---\n") :]
    return hashlib.sha256(header).hexdigest()


def armor(docs, first, last, mangle=None):
    data = b"".join(docs[first : last + 1])
    if mangle:
        data = mangle(data)
    encoded = base64.b64encode(data).decode()
    lines = [BEGIN, f"Game: {game_id(docs)}", f"Documents: {first}-{last}"]
    lines.append(f"Checksum: {hashlib.sha256(data).hexdigest()}")
    lines += textwrap.wrap(encoded, 64)
    lines.append(END)
    return "\n".join(lines) + "\n"


def when(hour, minute=0):
    return format_datetime(datetime.datetime(2026, 3, 1, hour, minute, tzinfo=datetime.timezone.utc))


def message(subject, hour, sender="morphy@example.org", to="duke@example.org"):
    msg = EmailMessage(policy=policy.SMTP.clone(linesep="\n"))
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = when(hour)
    msg["Message-ID"] = f"<fixture.{hour}@example.org>"
    return msg


def write(name, msg, crlf=False):
    data = msg.as_bytes(policy=msg.policy.clone(linesep="\r\n" if crlf else "\n"))
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def letter(block, before="Your move, I think.", after="Regards,\nPaul"):
    return f"{before}\n\n{block}\n{after}\n"


def main():
    opera = documents(OPERA)
    campaign = documents(CAMPAIGN)

    # 0: the challenge, plain 7-bit text.
    msg = message("[correspond] chess: new game", 1)
    msg.set_content(letter(armor(opera, 0, 0), "A game, sir?"), cte="7bit")
    write("challenge.eml", msg)

    # 1: quoted-printable, as clients encode text with accents.
    msg = message("Re: chess", 2, "duke@example.org", "morphy@example.org")
    msg.set_content(letter(armor(opera, 1, 1), "Très volontiers — à vous le trait."), cte="quoted-printable")
    write("quoted-printable.eml", msg)

    # 2: a client that re-flows paragraphs: the block on one long line, then quoted-printable
    # breaks it anywhere, inside the base64 too.
    flowed = " ".join(armor(opera, 2, 2).split("\n"))
    msg = message("chess", 3)
    msg.set_content(letter(flowed, "Voilà (my mailer joins lines, sorry)."), cte="quoted-printable")
    write("reflowed.eml", msg)

    # 3: a base64 body.
    msg = message("Re: chess", 4, "duke@example.org", "morphy@example.org")
    msg.set_content(letter(armor(opera, 3, 3)), cte="base64")
    write("base64.eml", msg)

    # 4: CRLF line endings throughout, as a message saved from a server.
    msg = message("chess", 5)
    msg.set_content(letter(armor(opera, 4, 4)), cte="7bit")
    write("crlf.eml", msg, crlf=True)

    # 5: multipart/alternative, the block in the text part and in the HTML part.
    block = armor(opera, 5, 5)
    msg = message("Re: chess", 6, "duke@example.org", "morphy@example.org")
    msg.set_content(letter(block))
    html = "<html><body><p>Your move, I think.</p><pre>" + block + "</pre><p>Regards</p></body></html>"
    msg.add_alternative(html, subtype="html", cte="quoted-printable")
    msg.set_boundary("==fixture-alternative==")
    write("alternative.eml", msg)

    # 6: HTML only, a line break tag per line, as some webmail sends.
    block = armor(opera, 6, 6)
    html = "<html><body><div>Here:</div><div>" + "<br>".join(block.splitlines()) + "</div></body></html>"
    msg = message("chess", 7)
    msg.set_content(html, subtype="html", cte="base64")
    write("html-only.eml", msg)

    # 7: a reply that quotes the two earlier messages (5 and 6) below the new block.
    older = letter(armor(opera, 5, 5))
    old = letter(armor(opera, 6, 6)) + "\n" + "\n".join("> " + line for line in older.splitlines())
    quoted = "\n".join("> " + line if line else ">" for line in old.splitlines())
    msg = message("Re: Re: chess", 8, "duke@example.org", "morphy@example.org")
    msg.set_content(letter(armor(opera, 7, 7), "Mine:") + "\nOn 1 March, Paul wrote:\n" + quoted + "\n")
    write("reply.eml", msg)

    # 8: forwarded as an attachment (message/rfc822).
    inner = message("chess", 9)
    inner.set_content(letter(armor(opera, 8, 8)), cte="quoted-printable")
    msg = message("Fwd: chess", 10, "secretary@example.org", "duke@example.org")
    msg.set_content("Forwarding Paul's move; his mail to you bounced.\n")
    msg.add_attachment(inner)
    msg.set_boundary("==fixture-forward==")
    write("forwarded-attached.eml", msg)

    # 9: forwarded inline, with the original headers in the text.
    msg = message("Fwd: chess", 11, "secretary@example.org", "morphy@example.org")
    original = letter(armor(opera, 9, 9), "Mine.", "Karl")
    msg.set_content(
        "See below.\n\n---------- Forwarded message ---------\nFrom: duke@example.org\n"
        f"Date: {when(11)}\nSubject: chess\nTo: morphy@example.org\n\n{original}",
        cte="7bit",
    )
    write("forwarded-inline.eml", msg)

    # 10-14: several records in one block (a resend after a lost message).
    msg = message("chess, again", 12)
    msg.set_content(letter(armor(opera, 10, 14)), cte="7bit")
    write("several-records.eml", msg)

    # Refused: a move changed after signing, its checksum made again.
    def change_move(data):
        head, _, rest = data.partition(b"\nmove: ")
        move, _, tail = rest.partition(b"\n")
        other = b"e1e2" if move != b"e1e2" else b"e1f1"
        return head + b"\nmove: " + other + b"\n" + tail

    msg = message("chess", 13)
    msg.set_content(letter(armor(opera, 15, 15, change_move)), cte="7bit")
    write("forged.eml", msg)

    # Refused: a base64 line lost on the way.
    lines = armor(opera, 15, 15).split("\n")
    msg = message("chess", 14)
    msg.set_content(letter("\n".join(lines[:6] + lines[7:])), cte="7bit")
    write("damaged.eml", msg)

    # Refused: another game's record.
    msg = message("campaign", 15)
    msg.set_content(letter(armor(campaign, 1, 1)), cte="7bit")
    write("other-game.eml", msg)

    # Mailboxes: every record of both games, one message each, with unrelated mail between;
    # then the same shuffled, with some messages twice.
    box = []
    for n in range(len(opera)):
        box.append(("chess", n, armor(opera, n, n)))
    for n in range(len(campaign)):
        box.insert(2 * n + 1, ("campaign", n, armor(campaign, n, n)))
    messages = []
    for i, (game, n, block) in enumerate(box):
        msg = message(f"[correspond] {game}: record {n}", i % 24)
        msg.set_content(letter(block, "From the club's mailing list:"), cte="7bit")
        messages.append(msg)
        if i % 10 == 3:
            news = message("Club news", i % 24, "club@example.org")
            news.set_content("From now on, meetings are on Tuesdays.\nFrom the committee.\n")
            messages.append(news)
    write_mbox("games.mbox", messages)
    shuffled = list(messages)
    rng = random.Random(1858)
    shuffled += rng.sample(messages, 12)
    rng.shuffle(shuffled)
    write_mbox("games-shuffled.mbox", shuffled)


def write_mbox(name, messages):
    path = os.path.join(OUT, name)
    if os.path.exists(path):
        os.remove(path)
    box = mailbox.mbox(path, create=True)
    for i, msg in enumerate(messages):
        entry = mailbox.mboxMessage(msg)
        entry.set_from("MAILER-DAEMON", (2026, 3, 1, i % 24, 0, 0, 6, 60, 0))
        box.add(entry)
    box.flush()
    box.close()


if __name__ == "__main__":
    main()
