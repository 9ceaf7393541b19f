//! Where a command writes its result: stdout, or a file that appears only
//! once complete (written beside it as `<name>.partial`, then renamed), so
//! a failed run never leaves a truncated release that looks finished.
//!
//! Only regular files (or paths that do not exist yet) get the rename: a
//! device, FIFO or socket (`--out /dev/null`, `--out /dev/stdout`, a named
//! pipe) is written in place. Renaming over `/dev/null` as root would
//! replace the device with a regular file and break the machine.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::error::OfflineError;

fn output_error(what: &Path, e: io::Error) -> OfflineError {
    OfflineError::Output {
        message: format!("cannot write {}: {e}", what.display()),
    }
}

/// Runs `write` on a buffered writer to `out` (stdout when `None`).
pub fn write_output<F>(out: Option<&Path>, write: F) -> Result<(), OfflineError>
where
    F: FnOnce(&mut dyn Write) -> io::Result<()>,
{
    match out {
        None => {
            let stdout = io::stdout();
            let mut w = BufWriter::with_capacity(1 << 16, stdout.lock());
            write(&mut w)
                .and_then(|()| w.flush())
                .map_err(|e| output_error(Path::new("stdout"), e))
        }
        Some(dest) if !is_regular_or_absent(dest) => {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(dest)
                .map_err(|e| output_error(dest, e))?;
            let mut w = BufWriter::with_capacity(1 << 16, f);
            write(&mut w)
                .and_then(|()| w.flush())
                .map_err(|e| output_error(dest, e))
        }
        Some(dest) => {
            let partial = partial_path(dest);
            let result = File::create(&partial).and_then(|f| {
                let mut w = BufWriter::with_capacity(1 << 16, EarlyWriteback::new(f));
                write(&mut w)?;
                w.into_inner().map_err(|e| e.into_error())?.file.sync_all()
            });
            match result.and_then(|()| std::fs::rename(&partial, dest)) {
                Ok(()) => Ok(()),
                Err(e) => {
                    // Best effort: the partial file is garbage now.
                    let _ = std::fs::remove_file(&partial);
                    Err(output_error(dest, e))
                }
            }
        }
    }
}

/// How many bytes are written before the kernel is asked to start writing
/// them to the disk.
const WRITEBACK_STRIDE: u64 = 8 << 20;

/// A file whose written bytes are handed to the disk as they come, every
/// [`WRITEBACK_STRIDE`] bytes, rather than all at the final `sync_all`: a
/// release of tens of megabytes then reaches the disk while the rest of
/// it renders, and the `fsync` before the rename waits only for its tail.
/// A hint (Linux's `sync_file_range` without waiting); its failures are
/// ignored, as `sync_all` reports any real one.
struct EarlyWriteback {
    file: File,
    written: u64,
    handed: u64,
}

impl EarlyWriteback {
    fn new(file: File) -> Self {
        EarlyWriteback {
            file,
            written: 0,
            handed: 0,
        }
    }

    #[cfg(target_os = "linux")]
    fn hand_to_disk(&mut self) {
        use std::os::fd::AsRawFd;
        let len = self.written - self.handed;
        // SAFETY: a plain system call on a descriptor this value owns; it
        // reads no memory of ours.
        unsafe {
            libc::sync_file_range(
                self.file.as_raw_fd(),
                self.handed as libc::off64_t,
                len as libc::off64_t,
                libc::SYNC_FILE_RANGE_WRITE,
            );
        }
        self.handed = self.written;
    }

    #[cfg(not(target_os = "linux"))]
    fn hand_to_disk(&mut self) {
        self.handed = self.written;
    }
}

impl Write for EarlyWriteback {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.written += n as u64;
        if self.written - self.handed >= WRITEBACK_STRIDE {
            self.hand_to_disk();
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

/// True for a regular file (through symlinks) or a path with nothing there.
fn is_regular_or_absent(dest: &Path) -> bool {
    match std::fs::metadata(dest) {
        Ok(m) => m.file_type().is_file(),
        Err(_) => true,
    }
}

fn partial_path(dest: &Path) -> PathBuf {
    let mut name = dest.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    dest.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_are_written_in_place_never_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let null = Path::new("/dev/null");
        if !std::fs::metadata(null).is_ok_and(|m| m.file_type().is_char_device()) {
            eprintln!("skipped: /dev/null is not a character device here");
            return;
        }
        write_output(Some(null), |w| w.write_all(b"release")).unwrap();
        let after = std::fs::metadata(null).unwrap();
        assert!(after.file_type().is_char_device(), "/dev/null was replaced");
        assert!(!Path::new("/dev/null.partial").exists());
    }

    #[test]
    fn a_file_appears_only_when_complete() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("release.csv");
        write_output(Some(&dest), |w| w.write_all(b"a,b\r\n")).unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"a,b\r\n");
        assert!(!partial_path(&dest).exists());

        let failed = dir.path().join("failed.csv");
        let e = write_output(Some(&failed), |w| {
            w.write_all(b"half")?;
            Err(io::Error::other("boom"))
        })
        .unwrap_err();
        assert_eq!(e.exit_code(), 1);
        assert!(!failed.exists());
        assert!(!partial_path(&failed).exists());
    }

    #[test]
    fn a_file_handed_to_the_disk_as_it_goes_holds_every_byte() {
        // Past several writeback strides, in writes of uneven sizes.
        let bytes: Vec<u8> = (0..(3 * WRITEBACK_STRIDE + 12_345))
            .map(|i| (i % 251) as u8)
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("large.csv");
        write_output(Some(&dest), |w| {
            for piece in bytes.chunks(1_000_003) {
                w.write_all(piece)?;
            }
            Ok(())
        })
        .unwrap();
        assert!(std::fs::read(&dest).unwrap() == bytes, "the file differs");
    }

    #[test]
    fn an_unwritable_destination_is_an_output_error() {
        let e = write_output(Some(Path::new("/no/such/dir/out.csv")), |_| Ok(())).unwrap_err();
        assert!(matches!(e, OfflineError::Output { .. }));
    }
}
