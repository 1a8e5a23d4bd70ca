//! Boards read back from pictures, to compare a PNG or a GIF frame with the SVG it was made
//! from: from the SVG, what its elements draw on each square (a light or dark piece, the last
//! move's tint, a Guerrilla's stone at a crossing); from pixels, what colours are where, at
//! points inside every piece's drawing and clear of it. Neither reads the position the SVG
//! names in an attribute.

use std::collections::BTreeSet;

/// The picture's units: a square's side and the margin round the board.
const SQUARE: f64 = 45.0;
const MARGIN: f64 = 20.0;

/// What a square shows, as a reader of the picture tells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Piece {
    Light,
    Dark,
}

/// A board read back: each square from the top left, row by row (its piece, and whether it
/// is tinted as the last move's), and the crossings where a stone stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    pub squares: Vec<(Option<Piece>, bool)>,
    pub stones: BTreeSet<(u32, u32)>,
}

/// The size of a board in squares, and whether it is Guerrilla Checkers' (pieces on crossings
/// too).
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub files: u32,
    pub ranks: u32,
    pub guerrilla: bool,
    /// The picture's width in its own units (its viewBox).
    pub units: f64,
}

/// The board an SVG picture of this program's draws, from its elements.
pub fn from_svg(svg: &str) -> (Shape, Read) {
    let doc = roxmltree::Document::parse(svg).expect("the SVG parses");
    let view: Vec<f64> = doc
        .root_element()
        .attribute("viewBox")
        .expect("a viewBox")
        .split(' ')
        .map(|n| n.parse().expect("a number"))
        .collect();
    let squares: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("class").is_some())
        .collect();
    let guerrilla = squares.iter().any(|n| n.attribute("class") == Some("cell"));
    let files = ((view[2] - 2.0 * MARGIN) / SQUARE).round() as u32;
    let ranks = u32::try_from(squares.len()).expect("few") / files;
    let shape = Shape {
        files,
        ranks,
        guerrilla,
        units: view[2],
    };
    let mut read = Read {
        squares: vec![(None, false); (files * ranks) as usize],
        stones: BTreeSet::new(),
    };
    let at = |x: f64, y: f64| -> usize {
        let (column, row) = (
            ((x - MARGIN) / SQUARE).floor() as u32,
            ((y - MARGIN) / SQUARE).floor() as u32,
        );
        (row * files + column) as usize
    };
    // An element's coordinate, plus the corners of the <svg>s it is nested in (a page's
    // board, each square's look drawn at its corner).
    let number = |n: &roxmltree::Node<'_, '_>, name: &str| -> f64 {
        let own: f64 = n
            .attribute(name)
            .expect("a coordinate")
            .parse()
            .expect("a number");
        let axis = if name.ends_with('x') { "x" } else { "y" };
        own + n
            .ancestors()
            .skip(1)
            .filter(|a| a.has_tag_name("svg") && a.parent_element().is_some())
            .filter_map(|a| a.attribute(axis))
            .map(|v| v.parse::<f64>().expect("a number"))
            .sum::<f64>()
    };
    for rect in &squares {
        let i = at(number(rect, "x") + 1.0, number(rect, "y") + 1.0);
        read.squares[i].1 = rect.attribute("fill") == Some("#cdd16a");
    }
    for node in doc.descendants() {
        if node.has_tag_name("use") {
            let id = node.attribute("href").expect("an href");
            let piece = if id.contains("white") || id.contains("heads") {
                Piece::Light
            } else {
                Piece::Dark
            };
            read.squares[at(number(&node, "x") + 1.0, number(&node, "y") + 1.0)].0 = Some(piece);
        }
        if node.attribute("class") == Some("checker") {
            let circle = node.first_element_child().expect("a disc");
            read.squares[at(number(&circle, "cx"), number(&circle, "cy"))].0 = Some(Piece::Light);
        }
        if node.attribute("class") == Some("stone") {
            read.stones
                .insert(crossing(number(&node, "cx"), number(&node, "cy")));
        }
    }
    (shape, read)
}

/// The caption lines under the board, in order (the text of size 13).
pub fn captions(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("the SVG parses");
    doc.descendants()
        .filter(|n| n.has_tag_name("text") && n.attribute("font-size") == Some("13"))
        .map(|n| n.text().unwrap_or("").to_owned())
        .collect()
}

/// A crossing's place: its column and row of corners, counted from the board's top left.
fn crossing(x: f64, y: f64) -> (u32, u32) {
    (
        ((x - MARGIN) / SQUARE).round() as u32,
        ((y - MARGIN) / SQUARE).round() as u32,
    )
}

/// The colours a reader tells apart, each with what it means.
const COLOURS: [([u8; 3], Tell); 9] = [
    ([0xff, 0xff, 0xff], Tell::Piece(Piece::Light)),
    ([0x22, 0x22, 0x22], Tell::Piece(Piece::Dark)),
    ([0x11, 0x11, 0x11], Tell::Piece(Piece::Dark)),
    ([0xcd, 0xd1, 0x6a], Tell::Last),
    ([0xf0, 0xd9, 0xb5], Tell::Ground),
    ([0xb5, 0x88, 0x63], Tell::Ground),
    ([0xf0, 0xe6, 0xcf], Tell::Ground),
    ([0x8f, 0xa3, 0x7b], Tell::Ground),
    ([0xe7, 0x00, 0x00], Tell::Ground),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tell {
    Piece(Piece),
    Last,
    Ground,
}

/// What a pixel's colour says: the nearest of the known colours, which must be near.
fn tell(rgb: [u8; 3], what: &str) -> Tell {
    let distance = |c: [u8; 3]| -> u32 {
        c.iter()
            .zip(rgb)
            .map(|(&a, b)| u32::from(a.abs_diff(b)).pow(2))
            .sum()
    };
    let (colour, meaning) = COLOURS
        .iter()
        .min_by_key(|(c, _)| distance(*c))
        .expect("colours");
    assert!(
        distance(*colour) < 24 * 24,
        "{what}: the colour {rgb:?} is none the pictures use"
    );
    *meaning
}

/// The board drawn in RGB(A) pixels, `channels` bytes a pixel, `width` pixels a row (so many
/// times the picture's units).
pub fn from_pixels(pixels: &[u8], channels: usize, width: usize, shape: Shape, what: &str) -> Read {
    let scale = width as f64 / shape.units;
    let rgb = |x: f64, y: f64| -> [u8; 3] {
        let (x, y) = ((x * scale) as usize, (y * scale) as usize);
        let at = (y * width + x) * channels;
        [pixels[at], pixels[at + 1], pixels[at + 2]]
    };
    let mut read = Read {
        squares: Vec::new(),
        stones: BTreeSet::new(),
    };
    // Inside every piece's base (and a checker's disc); clear of every piece, mark and glow.
    let (inside, clear) = if shape.guerrilla {
        ((22.0, 35.0), (22.5, 4.0))
    } else {
        ((22.5, 36.5), (3.0, 3.0))
    };
    for row in 0..shape.ranks {
        for column in 0..shape.files {
            let (x, y) = (
                MARGIN + SQUARE * f64::from(column),
                MARGIN + SQUARE * f64::from(row),
            );
            let here = format!("{what}, square {column},{row} from the top left");
            let piece = match tell(rgb(x + inside.0, y + inside.1), &here) {
                Tell::Piece(piece) => Some(piece),
                _ => None,
            };
            let last = tell(rgb(x + clear.0, y + clear.1), &here) == Tell::Last;
            read.squares.push((piece, last));
        }
    }
    if shape.guerrilla {
        for row in 1..shape.ranks {
            for column in 1..shape.files {
                let (x, y) = (
                    MARGIN + SQUARE * f64::from(column),
                    MARGIN + SQUARE * f64::from(row),
                );
                let here = format!("{what}, crossing {column},{row}");
                if tell(rgb(x + 3.0, y + 3.0), &here) == Tell::Piece(Piece::Dark) {
                    read.stones.insert((column, row));
                }
            }
        }
    }
    read
}

/// A PNG's pixels (8-bit RGBA, as the program writes them), its width and height.
pub fn png_pixels(png: &[u8]) -> (Vec<u8>, usize, usize) {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut pixels).expect("a frame");
    assert_eq!(
        (info.color_type, info.bit_depth),
        (png::ColorType::Rgba, png::BitDepth::Eight)
    );
    (pixels, info.width as usize, info.height as usize)
}

/// Every frame of a GIF as the screen shows it (each drawn over the last, its transparent
/// pixels leaving what was there), as RGBA, with each frame's delay in hundredths of a second;
/// and the screen's width.
pub fn gif_screens(gif: &[u8]) -> (Vec<(Vec<u8>, u16)>, usize) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(gif).expect("a GIF");
    let (width, height) = (decoder.width() as usize, decoder.height() as usize);
    let mut screen = vec![0u8; width * height * 4];
    let mut screens = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        let (left, top) = (frame.left as usize, frame.top as usize);
        for y in 0..frame.height as usize {
            for x in 0..frame.width as usize {
                let from = (y * frame.width as usize + x) * 4;
                if frame.buffer[from + 3] == 0 {
                    continue;
                }
                let to = ((top + y) * width + left + x) * 4;
                screen[to..to + 4].copy_from_slice(&frame.buffer[from..from + 4]);
            }
        }
        screens.push((screen.clone(), frame.delay));
    }
    (screens, width)
}
