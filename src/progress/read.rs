//! A reader that counts the bytes read through it on a [`Counter`]: under a
//! buffer, one atomic add per buffer fill.

use std::io::{self, Read};
use std::sync::Arc;

use super::Counter;

/// `inner`, counted on `counter`.
pub struct CountingRead<R> {
    inner: R,
    counter: Arc<Counter>,
}

impl<R: Read> CountingRead<R> {
    pub fn new(inner: R, counter: Arc<Counter>) -> CountingRead<R> {
        CountingRead { inner, counter }
    }
}

impl<R: Read> Read for CountingRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.counter.inc(n as u64);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_read_is_counted() {
        let counter = Arc::new(Counter::hidden());
        let mut text = String::new();
        CountingRead::new(&b"a,b\n1,2\n"[..], Arc::clone(&counter))
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!((text.len(), counter.count()), (8, 8));
    }
}
