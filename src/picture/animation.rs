//! Animated games, as GIF: what players post to forums and chats. Every frame is the board
//! this program draws as SVG, but drawn square by square: each different square (a piece on a
//! light square, a tinted empty one) is rendered once, and a frame holds only the squares that
//! changed, over one palette shared by all frames, as lichess's lila-gif does. So a game of
//! thousands of moves takes well under a second, and its GIF grows by a few hundred bytes a
//! move.
//!
//! Pure: the frames are a function of the line and the options; the palette is learnt from
//! the pictures by a deterministic quantizer, so the same game is the same bytes.

use super::canvas::{Board, Canvas, wrapped};
use super::raster::{RasterError, Tree};
use super::{Draw, Options};
use crate::rules::Line;
use std::collections::HashMap;

/// How an animation is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Animation {
    /// Turned half a turn, as [`Options::flipped`].
    pub flipped: bool,
    /// How long each position is shown, in milliseconds (GIF counts hundredths of a second).
    pub delay_ms: u32,
    /// The lines under the board in every frame: who plays whom.
    pub captions: Vec<String>,
    /// The line added under them in the last frame: how the game ended, or where it stands.
    pub result: String,
}

/// How many pixels a unit of the picture is drawn: the fewest whole pixels (so that every
/// square falls on whole pixels) that make it at least as wide as a picture asks to be shown
/// (400 pixels): 1 for an 8 by 8 board, 2 for Campaign's 5 by 7. Larger would make a long
/// game's GIF, and the time to make it, grow as the square of it.
fn scale(board: &Board) -> u32 {
    super::WIDTH.div_ceil(board.size.0.max(1))
}

/// How many times longer than the others the last frame is shown, so that the result can be
/// read before the game starts again.
pub const LAST_FRAME_HELD: u32 = 5;

/// The palette's size: 255 colours, and one index for "unchanged" (transparent).
const COLOURS: usize = 255;
const TRANSPARENT: u8 = 255;
/// One pixel in how many the palette is learnt from: the squares repeat, so few are needed.
const SAMPLING: i32 = 20;
/// How many frames are compressed together, on every core, before they are written.
const BATCH: usize = 128;

/// The GIF of every position of `line` from its start, the last move of each marked, with
/// `animation`'s captions under the board and its result in the last frame; it loops.
///
/// # Errors
/// A [`RasterError`] when a picture cannot be drawn or written, which this program's own
/// pictures never are.
pub fn gif<G: Draw>(
    line: &Line<G>,
    animation: &Animation,
    threads: usize,
) -> Result<Vec<u8>, RasterError> {
    let options = Options {
        flipped: animation.flipped,
        ..Options::default()
    };
    let mut played = Line::new(line.positions()[0].clone());
    let mut boards = vec![G::picture(&played, &options).board];
    for mv in line.moves() {
        played.play_legal(mv);
        boards.push(G::picture(&played, &options).board);
    }
    frames(&boards, animation, threads)
}

/// A square's look, drawn: its pixels as palette indices once the palette is known.
struct Tile {
    rgba: Vec<u8>,
    indices: Vec<u8>,
}

/// The GIF of `boards`, one frame each, compressed on up to `threads` threads.
fn frames(boards: &[Board], animation: &Animation, threads: usize) -> Result<Vec<u8>, RasterError> {
    let Some(first) = boards.first() else {
        return Err(RasterError::Size(0, 0));
    };
    let scale = scale(first);
    let side = Board::SQUARE * scale;
    // Each different square, drawn once; each board as the numbers of its squares' tiles.
    let mut tiles: Vec<Tile> = Vec::new();
    let mut known: HashMap<&str, usize> = HashMap::new();
    let mut shown: Vec<Vec<usize>> = Vec::with_capacity(boards.len());
    for board in boards {
        let mut numbers = Vec::with_capacity(board.squares.len());
        for square in &board.squares {
            let number = match known.get(square.as_str()) {
                Some(&n) => n,
                None => {
                    tiles.push(Tile {
                        rgba: tile(&board.defs, square, scale)?,
                        indices: Vec::new(),
                    });
                    known.insert(square, tiles.len() - 1);
                    tiles.len() - 1
                }
            };
            numbers.push(number);
        }
        shown.push(numbers);
    }
    let (start, end) = backgrounds(first, animation, scale)?;
    let (width, height) = (start.width(), start.height());
    let mut sample: Vec<u8> = start.data().to_vec();
    sample.extend_from_slice(end.data());
    for tile in &tiles {
        sample.extend_from_slice(&tile.rgba);
    }
    let palette = color_quant::NeuQuant::new(SAMPLING, COLOURS, &sample);
    let index = |rgba: &[u8]| -> Vec<u8> {
        rgba.chunks_exact(4)
            .map(|p| u8::try_from(palette.index_of(p)).unwrap_or(0))
            .collect()
    };
    for tile in &mut tiles {
        tile.indices = index(&tile.rgba);
    }
    let mut colours = palette.color_map_rgb();
    colours.resize(3 * (COLOURS + 1), 0);
    let screen = Screen {
        width,
        height,
        side,
    };
    let mut out = Vec::new();
    let mut encoder = gif::Encoder::new(
        &mut out,
        dimension(width, (width, height))?,
        dimension(height, (width, height))?,
        &colours,
    )
    .map_err(encoding)?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(encoding)?;
    let delay = hundredths(animation.delay_ms);
    let last = shown.len() - 1;
    let mut now = index(start.data());
    let end = index(end.data());
    let mut batch = Vec::with_capacity(BATCH);
    for (k, numbers) in shown.iter().enumerate() {
        let mut next = if k == last { end.clone() } else { now.clone() };
        let mut area = Area::default();
        for (i, &number) in numbers.iter().enumerate() {
            if k == 0 || k == last || shown[k - 1][i] != number {
                let (x, y) = first.corner(i);
                let (x, y) = (x * scale, y * scale);
                screen.blit(&mut next, &tiles[number].indices, x, y);
                area.add(x, y, side, side);
            }
        }
        if k == last
            && let Some((top, bottom)) = screen.rows_differing(&now, &next)
        {
            area.add(0, top, width, bottom - top);
        }
        let mut frame = if k == 0 {
            screen.whole(&next)
        } else {
            screen.delta(&now, &next, area)
        };
        frame.delay = if k == last {
            delay.saturating_mul(u16::try_from(LAST_FRAME_HELD).unwrap_or(1))
        } else {
            delay
        };
        batch.push(frame);
        now = next;
        if batch.len() == BATCH || k == last {
            let compressed = crate::parallel::map_in_order(&batch, threads, |frame| {
                let mut frame = frame.clone();
                frame.make_lzw_pre_encoded();
                frame
            });
            for frame in &compressed {
                encoder
                    .write_lzw_pre_encoded_frame(frame)
                    .map_err(encoding)?;
            }
            batch.clear();
        }
    }
    drop(encoder);
    Ok(out)
}

/// A square drawn alone, from the definitions it uses, as RGBA pixels, `scale` pixels a unit.
fn tile(defs: &str, square: &str, scale: u32) -> Result<Vec<u8>, RasterError> {
    let side = Board::SQUARE;
    let svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" \
         viewBox=\"0 0 {side} {side}\" width=\"{side}\" height=\"{side}\">\n{defs}{square}</svg>\n"
    );
    #[allow(clippy::cast_precision_loss)]
    let scale = scale as f32;
    Ok(Tree::parse(&svg)?.pixels(scale)?.data().to_vec())
}

/// What every frame shows besides the squares, as RGBA pixels: the ground, the coordinates
/// and the captions; the second with the result under them. Both are as tall as the second
/// needs.
fn backgrounds(
    board: &Board,
    animation: &Animation,
    scale: u32,
) -> Result<(resvg::tiny_skia::Pixmap, resvg::tiny_skia::Pixmap), RasterError> {
    let mut ended = animation.captions.clone();
    ended.push(animation.result.clone());
    let lines = wrapped(&ended, board.files).len();
    let mut started = animation.captions.clone();
    while wrapped(&started, board.files).len() < lines {
        started.push(String::new());
    }
    let draw = |captions: &[String]| -> Result<resvg::tiny_skia::Pixmap, RasterError> {
        let mut canvas = Canvas::own_size(board.files, board.ranks, board.flipped, captions);
        canvas.coordinates();
        // At its own size, a pixel a unit: `scale` pixels a unit, as the squares are drawn.
        #[allow(clippy::cast_precision_loss)]
        let scale = scale as f32;
        Tree::parse(&canvas.finish(captions).svg)?.pixels(scale)
    };
    Ok((draw(&started)?, draw(&ended)?))
}

/// The whole picture's size in pixels, and a square's side.
struct Screen {
    width: u32,
    height: u32,
    side: u32,
}

impl Screen {
    /// Copies a square's pixels into `screen` with its top-left corner at (`x`, `y`).
    fn blit(&self, screen: &mut [u8], tile: &[u8], x: u32, y: u32) {
        let side = self.side as usize;
        for row in 0..side {
            let at = (y as usize + row) * self.width as usize + x as usize;
            screen[at..at + side].copy_from_slice(&tile[row * side..(row + 1) * side]);
        }
    }

    /// The first row where `before` and `after` differ, and the row after the last.
    fn rows_differing(&self, before: &[u8], after: &[u8]) -> Option<(u32, u32)> {
        let width = self.width as usize;
        let differs = |row: &usize| {
            before[row * width..(row + 1) * width] != after[row * width..(row + 1) * width]
        };
        let rows = 0..self.height as usize;
        let top = rows.clone().find(differs)?;
        let bottom = rows.rev().find(differs)?;
        Some((u32::try_from(top).ok()?, u32::try_from(bottom + 1).ok()?))
    }

    /// The first frame: every pixel.
    fn whole(&self, screen: &[u8]) -> gif::Frame<'static> {
        gif::Frame {
            width: u16::try_from(self.width).unwrap_or(u16::MAX),
            height: u16::try_from(self.height).unwrap_or(u16::MAX),
            buffer: std::borrow::Cow::Owned(screen.to_vec()),
            ..gif::Frame::default()
        }
    }

    /// A later frame: the pixels of `area` in `after`, those the same in `before` left
    /// transparent, which keeps them as they were and compresses to almost nothing.
    fn delta(&self, before: &[u8], after: &[u8], area: Area) -> gif::Frame<'static> {
        let area = if area.is_empty() {
            // Nothing changed (a position shown again): one transparent pixel holds the time.
            Area {
                left: 0,
                top: 0,
                right: 1,
                bottom: 1,
            }
        } else {
            area
        };
        let width = self.width as usize;
        let mut buffer = Vec::with_capacity(area.pixels());
        for y in area.top..area.bottom {
            for x in area.left..area.right {
                let at = y as usize * width + x as usize;
                buffer.push(if before[at] == after[at] {
                    TRANSPARENT
                } else {
                    after[at]
                });
            }
        }
        gif::Frame {
            left: u16::try_from(area.left).unwrap_or(0),
            top: u16::try_from(area.top).unwrap_or(0),
            width: u16::try_from(area.right - area.left).unwrap_or(0),
            height: u16::try_from(area.bottom - area.top).unwrap_or(0),
            transparent: Some(TRANSPARENT),
            buffer: std::borrow::Cow::Owned(buffer),
            ..gif::Frame::default()
        }
    }
}

/// A rectangle of pixels, growing to hold what is added to it.
#[derive(Clone, Copy, Debug, Default)]
struct Area {
    left: u32,
    top: u32,
    right: u32,
    bottom: u32,
}

impl Area {
    fn is_empty(self) -> bool {
        self.right <= self.left || self.bottom <= self.top
    }

    fn pixels(self) -> usize {
        ((self.right - self.left) * (self.bottom - self.top)) as usize
    }

    fn add(&mut self, x: u32, y: u32, width: u32, height: u32) {
        if self.is_empty() {
            *self = Area {
                left: x,
                top: y,
                right: x + width,
                bottom: y + height,
            };
        } else {
            self.left = self.left.min(x);
            self.top = self.top.min(y);
            self.right = self.right.max(x + width);
            self.bottom = self.bottom.max(y + height);
        }
    }
}

/// A size GIF can say (at most 65,535 pixels).
fn dimension(pixels: u32, (width, height): (u32, u32)) -> Result<u16, RasterError> {
    u16::try_from(pixels).map_err(|_| RasterError::Size(width, height))
}

/// Milliseconds as GIF's hundredths of a second, at least one.
fn hundredths(ms: u32) -> u16 {
    u16::try_from((ms / 10).max(1)).unwrap_or(u16::MAX)
}

fn encoding(e: gif::EncodingError) -> RasterError {
    RasterError::Gif(e.to_string())
}
