//! The pieces, drawn here from plain shapes in a 45-unit square (no font, no image, no piece
//! set of anyone else's): the six chess men, whose shapes Campaign's figures share as the
//! terminal shows them.

/// The six shapes of the chess men.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Shape {
    /// The outline, filled and stroked by the group around it; `DETAIL` strokes the lines
    /// drawn inside it, which must show on the dark side's pieces too. Shapes of this
    /// program's own, from rectangles, circles and straight lines.
    fn body(self) -> &'static str {
        match self {
            Shape::Pawn => {
                "<circle cx=\"22.5\" cy=\"14\" r=\"5.5\"/>\
                 <path d=\"M17.5 31 L19.5 20.5 H25.5 L27.5 31 Z\"/>\
                 <path d=\"M12 38 V34.5 Q12 31 15.5 31 H29.5 Q33 31 33 34.5 V38 Z\"/>"
            }
            Shape::Knight => {
                "<path d=\"M15 32 L15.5 27 L21 21.5 L13.5 22.5 L11.5 18 L19.5 9 L24 7.5 L29 9.5 \
                 L33 16 L32.5 32 Z\"/>\
                 <circle cx=\"22.5\" cy=\"13.5\" r=\"1.5\" fill=\"DETAIL\" stroke=\"none\"/>\
                 <path d=\"M11 38 V33.5 H34 V38 Z\"/>"
            }
            Shape::Bishop => {
                "<circle cx=\"22.5\" cy=\"6.5\" r=\"2.5\"/>\
                 <path d=\"M22.5 9 C30 14 31 22 27.5 28 H17.5 C14 22 15 14 22.5 9 Z\"/>\
                 <path d=\"M24.5 14 L20.5 20\" stroke=\"DETAIL\"/>\
                 <path d=\"M16 28 H29 V31.5 H16 Z\"/>\
                 <path d=\"M11 38 V34.5 Q11 32 13.5 32 H31.5 Q34 32 34 34.5 V38 Z\"/>"
            }
            Shape::Rook => {
                "<path d=\"M12 8 H16.5 V11.5 H20.3 V8 H24.7 V11.5 H28.5 V8 H33 V15 H12 Z\"/>\
                 <path d=\"M15 15 H30 V30 H15 Z\"/>\
                 <path d=\"M15 18.5 H30\" stroke=\"DETAIL\"/>\
                 <path d=\"M11 38 V33 Q11 30 14 30 H31 Q34 30 34 33 V38 Z\"/>"
            }
            Shape::Queen => {
                "<path d=\"M12 29 L9 13 L16 21.5 L18.5 9.5 L22.5 20 L26.5 9.5 L29 21.5 L36 13 L33 29 Z\"/>\
                 <circle cx=\"9\" cy=\"12\" r=\"2\"/><circle cx=\"18.5\" cy=\"8.5\" r=\"2\"/>\
                 <circle cx=\"26.5\" cy=\"8.5\" r=\"2\"/><circle cx=\"36\" cy=\"12\" r=\"2\"/>\
                 <path d=\"M13 29 H32\" stroke=\"DETAIL\"/>\
                 <path d=\"M11 38 V34 Q11 31 14 31 H31 Q34 31 34 34 V38 Z\"/>"
            }
            Shape::King => {
                "<path d=\"M22.5 4.5 V14 M18.5 8 H26.5\" fill=\"none\" stroke-width=\"2.5\"/>\
                 <path d=\"M13 30 C10 20 18 15 22.5 16 C27 15 35 20 32 30 Z\"/>\
                 <path d=\"M22.5 17 V29\" stroke=\"DETAIL\"/>\
                 <path d=\"M11 38 V34 Q11 31 14 31 H31 Q34 31 34 34 V38 Z\"/>"
            }
        }
    }
}

/// A piece's definition: its id, shape and whether it is the light or the dark side's.
pub(crate) fn definition(id: &str, shape: Shape, light: bool) -> String {
    let (fill, detail) = if light {
        ("#fff", "#000")
    } else {
        ("#222", "#ddd")
    };
    format!(
        "<g id=\"{id}\" fill=\"{fill}\" stroke=\"#000\" stroke-width=\"1.5\" \
         stroke-linecap=\"round\" stroke-linejoin=\"round\">{}</g>\n",
        shape.body().replace("DETAIL", detail)
    )
}

/// The definitions every picture shares: the glow of a check.
pub(crate) fn shared() -> Vec<String> {
    vec![
        "<radialGradient id=\"check\"><stop offset=\"0%\" stop-color=\"#ff0000\" \
         stop-opacity=\"1\"/><stop offset=\"50%\" stop-color=\"#e70000\" stop-opacity=\"1\"/>\
         <stop offset=\"100%\" stop-color=\"#9e0000\" stop-opacity=\"0\"/></radialGradient>\n"
            .to_owned(),
    ]
}

/// The definitions every picture shares ([`shared`]), and those given, in one `<defs>`.
pub(crate) fn defs(pieces: &[String]) -> String {
    let mut out = String::from("<defs>\n");
    for shared in shared() {
        out.push_str(&shared);
    }
    for piece in pieces {
        out.push_str(piece);
    }
    out.push_str("</defs>\n");
    out
}
