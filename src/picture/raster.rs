//! Pictures as pixels, for what cannot show SVG: mail clients (Gmail, Outlook and Yahoo show
//! none; every one shows PNG) and animations. The SVG this program draws is rendered by resvg
//! with the one font the project ships (assets/fonts/DejaVuSans.ttf), never the machine's, and
//! no file or image is ever read, so that one picture is one PNG on every machine.

use resvg::{tiny_skia, usvg};
use std::sync::{Arc, OnceLock};

/// DejaVu Sans, under the Bitstream Vera and Arev licences (assets/fonts/LICENSE): every
/// letter a picture draws, so that the PNG does not depend on the fonts a machine has.
static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");

/// The family the pictures name first, and the one font there is.
const FAMILY: &str = "DejaVu Sans";

/// Why a picture could not be made into pixels.
#[derive(Debug, thiserror::Error)]
pub enum RasterError {
    /// The SVG could not be read (this program's own never fails so).
    #[error("the picture could not be read as SVG: {0}")]
    Svg(String),
    /// A size of no pixels, or too many to hold (`u32::MAX`: more than 65,535).
    #[error(
        "a picture of {0} by {1} pixels cannot be drawn (more than 65,535 either way, or none)"
    )]
    Size(u32, u32),
    /// The PNG encoder failed.
    #[error("the picture could not be written as PNG: {0}")]
    Png(String),
    /// The GIF encoder failed.
    #[error("the animation could not be written as GIF: {0}")]
    Gif(String),
}

/// The fonts the pictures are drawn with: the shipped one, made once.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut fonts = usvg::fontdb::Database::new();
            fonts.load_font_data(FONT.to_vec());
            fonts.set_sans_serif_family(FAMILY);
            fonts.set_serif_family(FAMILY);
            fonts.set_monospace_family(FAMILY);
            fonts.set_cursive_family(FAMILY);
            fonts.set_fantasy_family(FAMILY);
            Arc::new(fonts)
        })
        .clone()
}

/// How our SVG is read: the shipped font for every family, and no image, file or font looked
/// for anywhere else.
fn options() -> usvg::Options<'static> {
    usvg::Options {
        font_family: FAMILY.to_owned(),
        fontdb: fonts(),
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    }
}

/// A parsed picture, to render as often as needed.
pub(crate) struct Tree(usvg::Tree);

impl Tree {
    /// Reads an SVG document this program drew.
    ///
    /// # Errors
    /// [`RasterError::Svg`] when it is not one resvg can read.
    pub(crate) fn parse(svg: &str) -> Result<Tree, RasterError> {
        usvg::Tree::from_str(svg, &options())
            .map(Tree)
            .map_err(|e| RasterError::Svg(e.to_string()))
    }

    /// The picture drawn `scale` times its own size, on a transparent ground where it draws
    /// nothing.
    ///
    /// # Errors
    /// [`RasterError::Size`] when that size holds no pixel or too many.
    pub(crate) fn pixels(&self, scale: f32) -> Result<tiny_skia::Pixmap, RasterError> {
        let size = self.0.size();
        let (width, height) = (
            pixels_for(size.width(), scale),
            pixels_for(size.height(), scale),
        );
        let pixmap = match (width, height) {
            (Some(width), Some(height)) => tiny_skia::Pixmap::new(width, height),
            _ => None,
        };
        let mut pixmap = pixmap.ok_or_else(|| {
            RasterError::Size(width.unwrap_or(u32::MAX), height.unwrap_or(u32::MAX))
        })?;
        resvg::render(
            &self.0,
            tiny_skia::Transform::from_scale(scale, scale),
            &mut pixmap.as_mut(),
        );
        Ok(pixmap)
    }
}

/// Whole pixels for a length drawn `scale` times, if there are no more than 65,535 (what
/// GIF can say, and far more than any picture here needs).
fn pixels_for(length: f32, scale: f32) -> Option<u32> {
    let pixels = (length * scale).round();
    // Within range and whole, by the test.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    (0.0..=65_535.0).contains(&pixels).then_some(pixels as u32)
}

/// How many times its own size a PNG picture is drawn: twice the size it asks to be shown
/// at (400 pixels wide), so that it is sharp on a phone's screen and a desktop's.
pub const PNG_SCALE: f32 = 2.0;

/// An SVG picture of this program's as a PNG, [`PNG_SCALE`] times its size.
///
/// # Errors
/// A [`RasterError`] when the SVG cannot be read or drawn, which this program's own pictures
/// never are.
pub fn png(svg: &str) -> Result<Vec<u8>, RasterError> {
    Tree::parse(svg)?
        .pixels(PNG_SCALE)?
        .encode_png()
        .map_err(|e| RasterError::Png(e.to_string()))
}
