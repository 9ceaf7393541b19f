//! Gzip-compressed `data` parts. The CLI reads `.gz` files, so the API
//! accepts them too: a data part that starts with the gzip magic bytes is
//! decompressed before validation. Against decompression bombs the
//! decompressed size is capped (`--max-decompressed-bytes`): a first pass
//! only counts the decompressed bytes — no memory, no disk — and stops at
//! the cap, so a bomb costs at most the cap's worth of inflating before its
//! 413; only a part within the cap is then inflated to a spool file.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};

use axum::http::StatusCode;
use serde_json::json;

use super::error::ApiError;

/// The two bytes every gzip member starts with.
const MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Whether a spooled part is gzip-compressed.
pub fn is_gzip(file: &File) -> io::Result<bool> {
    let mut f = file.try_clone()?;
    f.seek(SeekFrom::Start(0))?;
    let mut head = [0u8; 2];
    let mut got = 0;
    while got < 2 {
        let n = f.read(&mut head[got..])?;
        if n == 0 {
            break;
        }
        got += n;
    }
    Ok(got == 2 && head == MAGIC)
}

fn too_large(limit: u64) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
        format!(
            "the gzip-compressed data part decompresses to more than the limit of {limit} bytes"
        ),
    )
    .with_details(json!({"part": "data", "limit_bytes": limit, "decompressed": true}))
}

fn unreadable(e: io::Error) -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "malformed_csv",
        format!("the data part looks gzip-compressed but cannot be decompressed: {e}"),
    )
    .with_error("/data", "not a readable gzip stream")
}

fn decoder(file: &File) -> io::Result<flate2::read::MultiGzDecoder<io::BufReader<File>>> {
    let mut f = file.try_clone()?;
    f.seek(SeekFrom::Start(0))?;
    Ok(flate2::read::MultiGzDecoder::new(
        io::BufReader::with_capacity(1 << 16, f),
    ))
}

/// The decompressed size of a gzip part, or the refusal once it passes
/// `limit` (blocking; reads nothing past the limit).
pub fn decompressed_size(file: &File, limit: u64) -> Result<u64, ApiError> {
    let internal = |e: io::Error| ApiError::internal(anyhow::Error::new(e).context("gzip upload"));
    let mut capped = decoder(file).map_err(internal)?.take(limit + 1);
    let mut buf = vec![0u8; 1 << 16];
    let mut total = 0u64;
    loop {
        let n = capped.read(&mut buf).map_err(unreadable)?;
        if n == 0 {
            return Ok(total);
        }
        total += n as u64;
        if total > limit {
            return Err(too_large(limit));
        }
    }
}

/// Decompresses a gzip part (already measured within the limit) into a new
/// unnamed spool file (blocking).
pub fn inflate(file: &File, limit: u64) -> Result<File, ApiError> {
    decompressed_size(file, limit)?;
    let internal = |e: io::Error| ApiError::internal(anyhow::Error::new(e).context("gzip upload"));
    let mut out = tempfile::tempfile().map_err(internal)?;
    let mut capped = decoder(file).map_err(internal)?.take(limit);
    io::copy(&mut capped, &mut out).map_err(unreadable)?;
    out.flush().map_err(internal)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::write::GzEncoder;

    fn spool(bytes: &[u8]) -> File {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(bytes).unwrap();
        f
    }

    fn gz(bytes: &[u8]) -> Vec<u8> {
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_parts_are_inflated_within_the_cap_and_refused_past_it() {
        let csv = b"age,salary\n30,1\n40,2\n";
        assert!(!is_gzip(&spool(csv)).unwrap());
        let packed = spool(&gz(csv));
        assert!(is_gzip(&packed).unwrap());
        let mut out = String::new();
        inflate(&packed, 1 << 20)
            .unwrap()
            .seek(SeekFrom::Start(0))
            .map(|_| ())
            .unwrap();
        let mut f = inflate(&packed, csv.len() as u64).unwrap();
        f.seek(SeekFrom::Start(0)).unwrap();
        f.read_to_string(&mut out).unwrap();
        assert_eq!(out.as_bytes(), csv);
        let e = inflate(&packed, csv.len() as u64 - 1).unwrap_err();
        assert_eq!((e.status.as_u16(), e.code), (413, "payload_too_large"));
        let e = inflate(&spool(&[0x1f, 0x8b, 0, 1, 2]), 1 << 20).unwrap_err();
        assert_eq!(e.code, "malformed_csv");
    }
}
