//! Where one record's frame lies in a store's data: its first byte and its
//! length packed in one `u64` (`start << 24 | len`), so a store spends eight
//! bytes a doc on offsets. A frame is under 16 MiB (records that large are
//! refused when written); the data may reach 1 TiB.

use std::io;

/// Bits of the length.
const LEN_BITS: u32 = 24;
/// Largest frame length.
const MAX_LEN: u64 = (1 << LEN_BITS) - 1;
/// Largest start.
const MAX_START: u64 = (1 << (64 - LEN_BITS)) - 1;

/// A packed (start, length) of one frame; 0 is the empty record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span(pub u64);

impl Span {
    /// The span of `len` bytes at `start`, or why it cannot be stored.
    pub fn new(start: u64, len: usize) -> io::Result<Span> {
        match (len as u64 <= MAX_LEN, start <= MAX_START) {
            (true, true) => Ok(Span(start << LEN_BITS | len as u64)),
            (false, _) => Err(io::Error::other(format!(
                "a record compresses to {len} bytes; a store frame holds at most {MAX_LEN}"
            ))),
            (_, false) => Err(io::Error::other("a record store passed 1 TiB")),
        }
    }

    pub fn start(self) -> u64 {
        self.0 >> LEN_BITS
    }

    /// One past the frame's last byte.
    pub fn end(self) -> u64 {
        self.start() + (self.0 & MAX_LEN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn spans_round_trip(start in 0..=MAX_START, len in 0..=MAX_LEN as usize) {
            let span = Span::new(start, len).unwrap();
            prop_assert_eq!((span.start(), span.end()), (start, start + len as u64));
        }
    }

    #[test]
    fn oversized_frames_and_stores_are_refused() {
        assert!(Span::new(0, MAX_LEN as usize + 1).is_err());
        assert!(Span::new(MAX_START + 1, 1).is_err());
        assert_eq!(Span(0).end(), 0);
    }
}
