//! The time a document carries, in its one spelling: what the signer says, which the clocks of a
//! time control count from (see [`crate::replay`]).

/// A moment, written `YYYY-MM-DDTHH:MM:SSZ` (UTC). Informational only, but under a time control,
/// where the clocks are counted from it and no document may be dated before the one it follows.
///
/// The seconds since 1970 are kept beside the text, read once: the clocks count with them for
/// every record. The text comes first, so that the order is the text's, which is time's.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    text: String,
    seconds: u64,
}

impl Timestamp {
    /// Reads a timestamp in the one accepted spelling: exactly what [`Timestamp::from_unix`]
    /// writes, so a leap second, an offset, lower-case letters, fractions or a date before 1970
    /// are refused.
    #[must_use]
    pub fn parse(text: &str) -> Option<Timestamp> {
        // Read by its fixed shape, not written again to be compared: every record has a time,
        // and writing one costs more than the rest of reading the record. Two digits in each
        // place and four for the year are that spelling; the calendar library judges the
        // moment (a 30 February, an hour 24 or a second 60 are none).
        const SHAPE: &[u8; 20] = b"dddd-dd-ddTdd:dd:ddZ";
        let bytes: &[u8; 20] = text.as_bytes().try_into().ok()?;
        let shaped = bytes.iter().zip(SHAPE).all(|(byte, shape)| match shape {
            b'd' => byte.is_ascii_digit(),
            _ => byte == shape,
        });
        if !shaped {
            return None;
        }
        let number = |at: std::ops::Range<usize>| {
            bytes[at]
                .iter()
                .fold(0_i16, |n, digit| n * 10 + i16::from(digit - b'0'))
        };
        // Two digits are at most 99, which an i8 holds.
        let two = |at| i8::try_from(number(at)).ok();
        let civil = jiff::civil::DateTime::new(
            number(0..4),
            two(5..7)?,
            two(8..10)?,
            two(11..13)?,
            two(14..16)?,
            two(17..19)?,
            0,
        )
        .ok()?;
        let moment = jiff::tz::Offset::UTC.to_timestamp(civil).ok()?;
        let seconds = u64::try_from(moment.as_second()).ok()?;
        Some(Timestamp {
            text: text.to_owned(),
            seconds,
        })
    }

    /// The timestamp `seconds` after 1970-01-01T00:00:00Z, at most 9999-12-30T22:00:00Z (the
    /// last moment the calendar library holds, so that any zone can show it).
    #[must_use]
    pub fn from_unix(seconds: u64) -> Timestamp {
        let moment = i64::try_from(seconds)
            .ok()
            .and_then(|s| jiff::Timestamp::from_second(s).ok())
            .unwrap_or(jiff::Timestamp::MAX);
        Timestamp {
            text: moment.strftime("%Y-%m-%dT%H:%M:%SZ").to_string(),
            seconds: u64::try_from(moment.as_second()).unwrap_or(0),
        }
    }

    /// Seconds since 1970-01-01T00:00:00Z (the inverse of [`Timestamp::from_unix`]).
    #[must_use]
    pub fn to_unix(&self) -> u64 {
        self.seconds
    }

    /// The text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }
}
