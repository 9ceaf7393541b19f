//! The stored table part: `proxima_core::table_codec`'s frames (blocks,
//! then the footer), each compressed with LZ4 on its own and prefixed with
//! its stored length:
//!
//! ```text
//! per frame: len:u32 (little-endian) lz4(frame) — lz4_flex's block format
//!            with the frame's own length first
//! ```
//!
//! Why per frame: the upload compresses each block as soon as it is
//! encoded and writes it out (its memory is one block, not the table), and
//! a job decompresses one block at a time straight into the decoder. LZ4
//! because a job reads this on every run, and zlib's inflate would cost
//! more than decoding the table itself. The stream is cut into database
//! chunks wherever [`super::blob::CHUNK_BYTES`] falls; a reader joins them.

use std::io::{self, Read, Write};
use std::sync::Arc;

use proxima_core::error::CoreResult;
use proxima_core::ingest::{load_blocks, Block, BlockLimits, Loaded};
use proxima_core::table_codec::{Decoder, Encoder};
use proxima_core::Progress;
use proxima_core::{CoreError, Schema, Table};

/// Writes frames, compressed, to `out`.
pub struct FrameWriter<W: Write> {
    out: W,
}

impl<W: Write> FrameWriter<W> {
    pub fn new(out: W) -> FrameWriter<W> {
        FrameWriter { out }
    }

    /// Compresses and writes one frame.
    pub fn frame(&mut self, raw: &[u8]) -> io::Result<()> {
        let compressed = lz4_flex::compress_prepend_size(raw);
        let len = u32::try_from(compressed.len())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a frame over 4 GiB"))?;
        self.out.write_all(&len.to_le_bytes())?;
        self.out.write_all(&compressed)
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Loads a CSV block by block (`proxima_core::ingest::load_blocks`, every
/// rule and error of the loader) and writes its stored stream to `out` as
/// it goes: each block is encoded, compressed and written before the next
/// is parsed, so what is held is one block (and its encoding), whatever
/// the table's length. `each` sees every block first (the upload gathers
/// its statistics there). On an error, what was written is to be
/// discarded.
pub fn write_stored<R: Read, W: Write>(
    schema: &Schema,
    csv: R,
    limits: &BlockLimits,
    out: W,
    mut each: impl FnMut(&Block),
) -> CoreResult<(Loaded, W)> {
    let spooling = |e: io::Error| CoreError::internal(format!("writing the stored table: {e}"));
    let mut frames = FrameWriter::new(out);
    let mut encoder = Encoder::new(schema);
    // One block's encoding, reused.
    let mut raw = Vec::new();
    let loaded = load_blocks(schema, csv, limits, Progress::none(), |block| {
        each(&block);
        raw.clear();
        encoder.block(&block, &mut raw)?;
        drop(block);
        frames.frame(&raw).map_err(spooling)
    })?;
    raw.clear();
    encoder.footer(&loaded, &mut raw)?;
    frames.frame(&raw).map_err(spooling)?;
    Ok((loaded, frames.into_inner()))
}

/// Only the LZ4 half of [`decode`], for the benchmark's split: every frame
/// decompressed, the bytes counted.
pub fn decompress_only(stored: &[u8]) -> CoreResult<usize> {
    let mut scratch = Vec::new();
    let mut total = 0;
    for (size, body) in frames(stored)? {
        total += inflate(size, body, &mut scratch)?.len();
    }
    Ok(total)
}

fn corrupt(what: &str) -> CoreError {
    CoreError::internal(format!("the stored table is corrupt: {what}"))
}

/// The compressed frames of a stored stream, each with its decompressed
/// length.
fn frames(stored: &[u8]) -> CoreResult<Vec<(usize, &[u8])>> {
    let mut out = Vec::new();
    let mut rest = stored;
    while !rest.is_empty() {
        let (len, after) = split_u32(rest).ok_or_else(|| corrupt("frame length"))?;
        let frame = after
            .get(..len as usize)
            .ok_or_else(|| corrupt("truncated frame"))?;
        let (size, body) = split_u32(frame).ok_or_else(|| corrupt("frame size"))?;
        // LZ4 expands at most 255 times: a larger claim is corrupt, and is
        // refused before anything is allocated for it.
        if size as usize > body.len().saturating_mul(255).saturating_add(16) {
            return Err(corrupt("frame size"));
        }
        out.push((size as usize, body));
        rest = &after[len as usize..];
    }
    Ok(out)
}

fn split_u32(bytes: &[u8]) -> Option<(u32, &[u8])> {
    let head = bytes.get(..4)?;
    Some((u32::from_le_bytes(head.try_into().ok()?), &bytes[4..]))
}

/// Decompresses one frame into `into` (reused between frames).
fn inflate<'b>(size: usize, body: &[u8], into: &'b mut Vec<u8>) -> CoreResult<&'b [u8]> {
    into.resize(size, 0);
    let n = lz4_flex::block::decompress_into(body, into).map_err(|_| corrupt("lz4"))?;
    if n != size {
        return Err(corrupt("frame size"));
    }
    Ok(&into[..n])
}

/// The table of a stored stream, decompressed one frame at a time into the
/// decoder (never the whole decompressed stream at once).
pub fn decode(schema: Arc<Schema>, stored: &[u8]) -> CoreResult<Table> {
    let frames = frames(stored)?;
    let Some(((footer_size, footer), blocks)) = frames.split_last() else {
        return Err(corrupt("no frames"));
    };
    let block_bytes = blocks.iter().map(|(size, _)| size).sum();
    let mut scratch = Vec::new();
    let footer = inflate(*footer_size, footer, &mut scratch)?;
    let mut decoder = Decoder::new(schema, footer, block_bytes)?;
    for &(size, body) in blocks {
        decoder.block(inflate(size, body, &mut scratch)?)?;
    }
    decoder.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxima_core::ingest::load_table;

    fn schema() -> Arc<Schema> {
        Arc::new(crate::api::test_fixtures::schema())
    }

    fn csv() -> String {
        (0..1000).fold("age,salary\n".to_string(), |s, i| {
            s + &format!("{},{}\n", i % 90, i * 7)
        })
    }

    fn stored() -> Vec<u8> {
        let limits = BlockLimits {
            rows: 100,
            ..BlockLimits::default()
        };
        let mut seen = 0;
        let (loaded, out) = write_stored(&schema(), csv().as_bytes(), &limits, Vec::new(), |b| {
            seen += b.rows()
        })
        .unwrap();
        assert_eq!((seen, loaded.rows), (1000, 1000));
        out
    }

    #[test]
    fn a_stored_stream_decodes_to_the_loaded_table() {
        let table = load_table(schema(), csv().as_bytes()).unwrap();
        assert_eq!(decode(schema(), &stored()).unwrap(), table);
        assert_eq!(
            frames(&stored()).unwrap().len(),
            11,
            "ten blocks and the footer"
        );
        let raw = decompress_only(&stored()).unwrap();
        assert!(raw > 1000 * 4, "{raw}");
    }

    #[test]
    fn damaged_streams_are_errors() {
        let bytes = stored();
        for len in [0, 3, 4, 10, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode(schema(), &bytes[..len]).is_err(), "{len}");
        }
        for i in (0..bytes.len()).step_by(97) {
            let mut b = bytes.clone();
            b[i] ^= 0xa5;
            let _ = decode(schema(), &b); // an error or a table, never a panic
        }
        // A frame claiming a huge decompressed size.
        let mut b = bytes.clone();
        b[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(decode(schema(), &b).is_err());
    }
}
