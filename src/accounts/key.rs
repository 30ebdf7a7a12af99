//! API keys: format, generation, hashing and comparison.
//!
//! A key is `vg_` + 12 lowercase hex characters + `_` + 32 base64url
//! characters (api-reference §1.2), 48 ASCII bytes in all. The 12 hex
//! characters are the *key id*: public, used to find the key and to name it in
//! logs and admin commands. The 32 characters after it are the secret (24
//! random bytes from `/dev/urandom`, base64url without padding).
//!
//! Only a digest is ever stored: `SHA-256(salt ‖ full key)` with a 16-byte
//! random salt per key. The plaintext is returned once by
//! [`generate`] and never written anywhere. Digests are compared with
//! [`constant_time_eq`], which looks at every byte whatever it finds.

use std::fs::File;
use std::io::{self, Read};

use sha2::{Digest, Sha256};

use super::plan::Plan;

/// The fixed key prefix.
pub const KEY_PREFIX: &str = "vg_";
/// Length of the public key id (hex characters).
pub const KEY_ID_LEN: usize = 12;
/// Length of the secret part (base64url characters).
pub const SECRET_LEN: usize = 32;
/// Length of the per-key salt (bytes).
pub const SALT_LEN: usize = 16;

/// SHA-256 output.
pub type KeyDigest = [u8; 32];

/// Who a valid key belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct Principal {
    pub user: String,
    /// The 12-hex public part of the key.
    pub key_id: String,
    pub plan: Plan,
}

/// Why a presented key was refused.
#[derive(Debug, Clone, PartialEq)]
pub enum AuthFailure {
    /// Not of the form `vg_<12 hex>_<32 base64url>`.
    Malformed,
    /// Well-formed but not issued here (unknown id or wrong secret).
    Unknown,
    /// Issued here but deactivated.
    Inactive,
    /// Could not be checked: the accounts database is unreachable.
    Unavailable,
}

/// A freshly generated key: the plaintext (to hand out once) and what is stored.
pub struct NewKey {
    pub plaintext: String,
    pub key_id: String,
    pub salt: [u8; SALT_LEN],
    pub digest: KeyDigest,
}

/// Splits a well-formed key into (key id, secret); `None` if malformed.
pub fn parse_key(key: &str) -> Option<(&str, &str)> {
    let rest = key.strip_prefix(KEY_PREFIX)?;
    let (id, tail) = rest.split_at_checked(KEY_ID_LEN)?;
    let secret = tail.strip_prefix('_')?;
    let id_ok = id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    let secret_ok = secret.len() == SECRET_LEN && secret.bytes().all(is_base64url);
    (id_ok && secret_ok).then_some((id, secret))
}

/// Generates a new random key with a fresh salt, and its digest.
pub fn generate() -> io::Result<NewKey> {
    let id: [u8; KEY_ID_LEN / 2] = random_bytes()?;
    let secret: [u8; SECRET_LEN / 4 * 3] = random_bytes()?;
    let salt: [u8; SALT_LEN] = random_bytes()?;
    let key_id = hex_encode(&id);
    let plaintext = format!("{KEY_PREFIX}{key_id}_{}", base64url(&secret));
    let digest = digest(&salt, &plaintext);
    Ok(NewKey {
        plaintext,
        key_id,
        salt,
        digest,
    })
}

/// `SHA-256(salt ‖ key)`.
pub fn digest(salt: &[u8; SALT_LEN], key: &str) -> KeyDigest {
    let mut hasher = Sha256::new();
    hasher.update(salt);
    hasher.update(key.as_bytes());
    hasher.finalize().into()
}

/// Byte-slice equality whose running time depends only on the lengths.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

/// Lowercase hex of `bytes`.
pub fn hex_encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(DIGITS[usize::from(b >> 4)] as char);
        out.push(DIGITS[usize::from(b & 0xf)] as char);
    }
    out
}

/// Decodes exactly `N` bytes of lowercase or uppercase hex; `None` otherwise.
pub fn hex_decode<const N: usize>(text: &str) -> Option<[u8; N]> {
    let bytes = text.as_bytes();
    if bytes.len() != N * 2 {
        return None;
    }
    let mut out = [0u8; N];
    for (slot, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        *slot = (hex_value(pair[0])? << 4) | hex_value(pair[1])?;
    }
    Some(out)
}

fn hex_value(c: u8) -> Option<u8> {
    (c as char).to_digit(16).and_then(|d| u8::try_from(d).ok())
}

fn is_base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// Unpadded base64url; `bytes.len()` is a multiple of 3 for our secrets.
fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        let chars = chunk.len() + 1;
        for i in 0..chars {
            let index = (n >> (18 - 6 * i)) & 0x3f;
            out.push(ALPHABET[index as usize] as char);
        }
    }
    out
}

fn random_bytes<const N: usize>() -> io::Result<[u8; N]> {
    let mut buf = [0u8; N];
    File::open("/dev/urandom")?.read_exact(&mut buf)?;
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_have_the_documented_format() {
        let key = generate().unwrap();
        assert_eq!(key.plaintext.len(), 48);
        let (id, secret) = parse_key(&key.plaintext).unwrap();
        assert_eq!(id, key.key_id);
        assert_eq!(secret.len(), SECRET_LEN);
        assert_eq!(digest(&key.salt, &key.plaintext), key.digest);
        let other = generate().unwrap();
        assert_ne!(key.plaintext, other.plaintext);
        assert_ne!(key.salt, other.salt);
    }

    #[test]
    fn parse_key_rejects_every_deviation() {
        const SECRET: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcd-_";
        let good = format!("vg_0123456789ab_{SECRET}");
        assert_eq!(parse_key(&good), Some(("0123456789ab", SECRET)));
        let bad = [
            String::new(),
            "vg_".to_string(),
            format!("xg_0123456789ab_{SECRET}"),
            format!("vg_0123456789AB_{SECRET}"),
            format!("vg_0123456789ag_{SECRET}"),
            format!("vg_0123456789a_{SECRET}"),
            format!("vg_0123456789aé_{SECRET}"),
            format!("vg_0123456789ab-{SECRET}"),
            format!("vg_0123456789ab_{}", &SECRET[1..]),
            format!("vg_0123456789ab_{SECRET}A"),
            format!("vg_0123456789ab_{}+/", &SECRET[2..]),
            format!("vg_0123456789ab_{}é", &SECRET[2..]),
            format!(" {good}"),
            format!("{good}\n"),
        ];
        for key in &bad {
            assert_eq!(parse_key(key), None, "{key:?}");
        }
    }

    #[test]
    fn base64url_matches_known_vectors() {
        assert_eq!(base64url(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64url(&[0xfb, 0xff, 0xbf]), "-_-_");
        assert_eq!(base64url(b"fo"), "Zm8");
    }

    #[test]
    fn hex_round_trips_and_rejects_bad_input() {
        let bytes = [0x00, 0x7f, 0xa5, 0xff];
        assert_eq!(hex_encode(&bytes), "007fa5ff");
        assert_eq!(hex_decode::<4>("007fa5ff"), Some(bytes));
        assert_eq!(hex_decode::<4>("007FA5FF"), Some(bytes));
        assert_eq!(hex_decode::<4>("007fa5f"), None);
        assert_eq!(hex_decode::<4>("007fa5fg"), None);
        assert_eq!(hex_decode::<2>("é0"), None);
    }

    #[test]
    fn constant_time_eq_compares_whole_slices() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"xbc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abcd"));
        assert!(constant_time_eq(b"", b""));
    }

    #[test]
    fn digest_depends_on_salt_and_key() {
        let key = "vg_0123456789ab_ABCDEFGHIJKLMNOPQRSTUVWXYZabcd-_01";
        let a = digest(&[0; SALT_LEN], key);
        assert_ne!(a, digest(&[1; SALT_LEN], key));
        assert_ne!(a, digest(&[0; SALT_LEN], &key.replace('A', "B")));
    }
}
