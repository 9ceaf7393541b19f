//! Compression and chunking of stored files: zlib, cut into pieces of at
//! most [`CHUNK_BYTES`] so no single bytea field grows with the upload
//! (the table part is LZ4 frames, `super::table_frames`, chunked the same
//! way).

use std::io::{Read, Write};
use std::sync::Arc;

use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;

/// The largest stored chunk (compressed bytes).
pub const CHUNK_BYTES: usize = 8 * 1024 * 1024;

/// A writer that compresses what it is given and hands out full chunks.
pub struct ChunkWriter {
    encoder: ZlibEncoder<Vec<u8>>,
    chunk_bytes: usize,
    done: Vec<Vec<u8>>,
}

impl ChunkWriter {
    pub fn new(chunk_bytes: usize) -> Self {
        ChunkWriter {
            encoder: ZlibEncoder::new(Vec::new(), Compression::fast()),
            chunk_bytes,
            done: Vec::new(),
        }
    }

    /// Compresses `data`; full chunks become available from [`Self::take_full`].
    pub fn write(&mut self, data: &[u8]) -> std::io::Result<()> {
        self.encoder.write_all(data)?;
        let buf = self.encoder.get_mut();
        while buf.len() >= self.chunk_bytes {
            let rest = buf.split_off(self.chunk_bytes);
            let full = std::mem::replace(buf, rest);
            self.done.push(full);
        }
        Ok(())
    }

    /// The chunks completed so far (each exactly `chunk_bytes` long).
    pub fn take_full(&mut self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.done)
    }

    /// Finishes the stream: the remaining chunks, the last one shorter.
    pub fn finish(mut self) -> std::io::Result<Vec<Vec<u8>>> {
        let mut tail = self.encoder.finish()?;
        let mut out = std::mem::take(&mut self.done);
        while tail.len() > self.chunk_bytes {
            let rest = tail.split_off(self.chunk_bytes);
            out.push(std::mem::replace(&mut tail, rest));
        }
        if !tail.is_empty() {
            out.push(tail);
        }
        Ok(out)
    }
}

/// A file compressed and cut into stored chunks: what a dataset part
/// becomes before its transaction stores it (`DatasetTx::add_data`,
/// `add_table`, `add_hierarchy`). Built on a blocking thread, stored from
/// async code. Small parts are held in memory; an upload's CSV and table
/// are spooled to an unnamed temporary file, so an upload's memory does not
/// grow with its table, and cut into chunks as they are stored.
#[derive(Debug)]
pub struct Chunked(Pieces);

#[derive(Debug)]
enum Pieces {
    Memory(Vec<Vec<u8>>),
    /// A compressed stream in a file, cut every [`CHUNK_BYTES`].
    File {
        file: Arc<std::fs::File>,
        len: u64,
    },
}

impl Chunked {
    /// Compresses everything `reader` yields (blocking; a large upload is
    /// read 1 MiB at a time, never held whole uncompressed).
    pub fn from_reader(mut reader: impl Read) -> std::io::Result<Chunked> {
        let mut w = ChunkWriter::new(CHUNK_BYTES);
        let mut chunks = Vec::new();
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = reader.read(&mut buf)?;
            if n == 0 {
                break;
            }
            w.write(&buf[..n])?;
            chunks.extend(w.take_full());
        }
        chunks.extend(w.finish()?);
        Ok(Chunked(Pieces::Memory(chunks)))
    }

    /// Compresses everything `reader` yields into a temporary file
    /// (blocking): memory stays a buffer's, whatever the size.
    pub fn spool_from_reader(mut reader: impl Read) -> std::io::Result<Chunked> {
        let out = std::io::BufWriter::with_capacity(1 << 20, tempfile::tempfile()?);
        let mut encoder = ZlibEncoder::new(out, Compression::fast());
        std::io::copy(&mut reader, &mut encoder)?;
        let file = encoder
            .finish()?
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        Chunked::from_file(file)
    }

    /// A file already holding a part's stored stream (the table's frames,
    /// `super::table_frames`), from its start.
    pub fn from_file(file: std::fs::File) -> std::io::Result<Chunked> {
        let len = file.metadata()?.len();
        Ok(Chunked(Pieces::File {
            file: Arc::new(file),
            len,
        }))
    }

    /// Compresses a buffer already in memory (a hierarchy part).
    pub fn from_bytes(data: &[u8]) -> Chunked {
        Chunked::from_reader(data).expect("reading from memory and writing to a Vec cannot fail")
    }

    /// How many chunks the part is stored as.
    pub fn chunks(&self) -> usize {
        match &self.0 {
            Pieces::Memory(c) => c.len(),
            Pieces::File { len, .. } => len.div_ceil(CHUNK_BYTES as u64) as usize,
        }
    }

    /// Chunk `seq` (`< chunks()`); a file's is read on a blocking thread.
    pub async fn chunk(&self, seq: usize) -> std::io::Result<Vec<u8>> {
        match &self.0 {
            Pieces::Memory(c) => Ok(c[seq].clone()),
            Pieces::File { file, len } => {
                let file = file.clone();
                let start = seq as u64 * CHUNK_BYTES as u64;
                let n = (len - start).min(CHUNK_BYTES as u64) as usize;
                tokio::task::spawn_blocking(move || {
                    use std::os::unix::fs::FileExt;
                    let mut buf = vec![0u8; n];
                    file.read_exact_at(&mut buf, start)?;
                    Ok(buf)
                })
                .await
                .map_err(std::io::Error::other)?
            }
        }
    }
}

/// Compresses a whole buffer (small payloads: results' group maps).
pub fn compress(data: &[u8]) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::new(), Compression::fast());
    e.write_all(data).expect("writing to a Vec cannot fail");
    e.finish().expect("writing to a Vec cannot fail")
}

/// Decompresses the concatenation of `chunks`.
pub fn decompress_chunks(chunks: &[Vec<u8>]) -> std::io::Result<Vec<u8>> {
    let reader = ChainedChunks {
        chunks,
        index: 0,
        offset: 0,
    };
    let mut out = Vec::new();
    ZlibDecoder::new(reader).read_to_end(&mut out)?;
    Ok(out)
}

pub fn decompress(data: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    ZlibDecoder::new(data).read_to_end(&mut out)?;
    Ok(out)
}

/// Reads a list of chunks as one stream without concatenating them.
struct ChainedChunks<'a> {
    chunks: &'a [Vec<u8>],
    index: usize,
    offset: usize,
}

impl Read for ChainedChunks<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.index < self.chunks.len() {
            let chunk = &self.chunks[self.index];
            if self.offset < chunk.len() {
                let n = buf.len().min(chunk.len() - self.offset);
                buf[..n].copy_from_slice(&chunk[self.offset..self.offset + n]);
                self.offset += n;
                return Ok(n);
            }
            self.index += 1;
            self.offset = 0;
        }
        Ok(0)
    }
}

/// Row → group indices as little-endian u32s, compressed.
pub fn encode_u32s(values: &[u32]) -> Vec<u8> {
    let mut raw = Vec::with_capacity(values.len() * 4);
    for v in values {
        raw.extend_from_slice(&v.to_le_bytes());
    }
    compress(&raw)
}

pub fn decode_u32s(data: &[u8]) -> std::io::Result<Vec<u32>> {
    let raw = decompress(data)?;
    if raw.len() % 4 != 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "a stored u32 array has a length that is not a multiple of 4",
        ));
    }
    Ok(raw
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunked_compression_round_trips_across_many_chunks() {
        // Incompressible-ish data so several small chunks are produced.
        let data: Vec<u8> = (0..200_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let mut w = ChunkWriter::new(1000);
        let mut chunks = Vec::new();
        for piece in data.chunks(7777) {
            w.write(piece).unwrap();
            chunks.extend(w.take_full());
        }
        assert!(chunks.iter().all(|c| c.len() == 1000));
        chunks.extend(w.finish().unwrap());
        assert!(chunks.len() > 10);
        assert!(chunks.iter().all(|c| !c.is_empty() && c.len() <= 1000));
        assert_eq!(decompress_chunks(&chunks).unwrap(), data);
    }

    #[tokio::test]
    async fn a_spooled_part_is_cut_into_chunks_as_it_is_stored() {
        let data: Vec<u8> = (0..(2 * CHUNK_BYTES + 12_345) as u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&data).unwrap();
        let part = Chunked::from_file(file).unwrap();
        assert_eq!(part.chunks(), 3);
        let mut back = Vec::new();
        for seq in 0..part.chunks() {
            let chunk = part.chunk(seq).await.unwrap();
            assert!(chunk.len() <= CHUNK_BYTES);
            back.extend(chunk);
        }
        assert!(back == data);

        // A spooled zlib stream decompresses to what was read.
        let csv = b"age,pay\n30,1\n".repeat(1000);
        let part = Chunked::spool_from_reader(csv.as_slice()).unwrap();
        let mut chunks = Vec::new();
        for seq in 0..part.chunks() {
            chunks.push(part.chunk(seq).await.unwrap());
        }
        assert_eq!(decompress_chunks(&chunks).unwrap(), csv);
    }

    #[test]
    fn u32_arrays_round_trip_and_reject_truncation() {
        let v: Vec<u32> = (0..10_000).map(|i| i * 7 % 131).collect();
        assert_eq!(decode_u32s(&encode_u32s(&v)).unwrap(), v);
        assert!(decode_u32s(&compress(&[1, 2, 3])).is_err());
    }
}
