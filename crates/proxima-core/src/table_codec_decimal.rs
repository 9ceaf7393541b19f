//! Integers as the decimal text an uploader writes for them: a minus sign
//! for negatives, no leading zeros, no plus sign. A numeric block whose
//! every cell is written so stores its values only, and the decoder writes
//! the text back (`table_codec`'s `AS_INTEGERS_TEXT`): for tables of
//! integers, most of the stored bytes were that text.

/// Two digits per entry, "00" to "99".
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// `v` in decimal, written at the end of `buf` (20 bytes hold any i64).
pub(super) fn format(v: i64, buf: &mut [u8; 20]) -> &[u8] {
    let mut n = v.unsigned_abs();
    let mut at = buf.len();
    while n >= 100 {
        let d = (n % 100) as usize * 2;
        n /= 100;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[d..d + 2]);
    }
    if n >= 10 {
        let d = n as usize * 2;
        at -= 2;
        buf[at..at + 2].copy_from_slice(&PAIRS[d..d + 2]);
    } else {
        at -= 1;
        buf[at] = b'0' + n as u8;
    }
    if v < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    &buf[at..]
}

#[cfg(test)]
mod tests {
    use super::format;

    #[test]
    fn integers_are_written_as_rust_writes_them() {
        let mut buf = [0u8; 20];
        for v in [
            0,
            7,
            -7,
            10,
            99,
            100,
            -100,
            12_345,
            9_007_199_254_740_992,
            i64::MIN,
            i64::MAX,
        ]
        .into_iter()
        .chain((-1000..1000).map(|i| i * 7919))
        {
            assert_eq!(format(v, &mut buf), v.to_string().as_bytes());
        }
    }
}
