//! Logging: tracing to stderr, human text or JSON lines
//! (`PROXIMA_LOG_FORMAT=json`), filtered by `RUST_LOG` (default `info`).
//!
//! Cell values never belong in logs: events carry ids, codes, counts and
//! paths only (the log-capture API test checks this over an upload and
//! failing requests, with this very subscriber).

use std::any::Any;
use std::cell::Cell;
use std::io::IsTerminal;
use std::sync::Once;

use sha2::{Digest, Sha256};
use tracing::Subscriber;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::EnvFilter;

/// The filter used when `RUST_LOG` is unset.
pub const DEFAULT_FILTER: &str = "info,sqlx=warn,tower_http=info";

/// Whether `format` asks for JSON lines (`json`, any case); anything else
/// is human-readable text.
pub fn is_json(format: &str) -> bool {
    format.eq_ignore_ascii_case("json")
}

/// The service's subscriber writing to `writer`: one JSON object per line
/// (with the current span's fields, e.g. the request id) when `format` is
/// `json`, text otherwise.
/// Text has no ANSI colour codes: a writer that is not a terminal (a file,
/// a pipe, a log collector) would store them as garbage.
pub fn subscriber<W>(
    format: &str,
    filter: EnvFilter,
    writer: W,
) -> Box<dyn Subscriber + Send + Sync>
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    build(format, filter, writer, false)
}

/// [`subscriber`] with colours only when asked for (`init` asks when
/// stderr is a terminal).
fn build<W>(
    format: &str,
    filter: EnvFilter,
    writer: W,
    ansi: bool,
) -> Box<dyn Subscriber + Send + Sync>
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(ansi);
    if is_json(format) {
        Box::new(builder.json().finish())
    } else {
        Box::new(builder.finish())
    }
}

/// Installs the global subscriber on stderr and the redacting panic hook; a
/// second call is a no-op.
pub fn init(format: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let ansi = std::io::stderr().is_terminal();
    let _ = build(format, filter, std::io::stderr, ansi).try_init();
    install_panic_hook();
}

thread_local! {
    /// Set while this thread runs code over uploaded microdata.
    static HOLDS_MICRODATA: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` (code over uploaded microdata: job bodies, validation, audits,
/// release rendering) so that a panic in it is logged redacted by the hook
/// of [`install_panic_hook`]: a panic message may quote a cell value.
pub fn with_redacted_panics<R>(f: impl FnOnce() -> R) -> R {
    struct Reset(bool);
    impl Drop for Reset {
        fn drop(&mut self) {
            HOLDS_MICRODATA.with(|h| h.set(self.0));
        }
    }
    let _reset = Reset(HOLDS_MICRODATA.with(|h| h.replace(true)));
    f()
}

/// Whether this thread runs code over uploaded microdata: marked by
/// [`with_redacted_panics`], or one of the core's job threads (a job's
/// forks run there, `proxima_core::parallel`).
fn holds_microdata() -> bool {
    HOLDS_MICRODATA.with(|h| h.get())
        || std::thread::current()
            .name()
            .is_some_and(|n| n.starts_with(proxima_core::parallel::THREAD_NAME_PREFIX))
}

/// `tokio::task::spawn_blocking` of `f` under [`with_redacted_panics`].
pub fn spawn_blocking_redacted<F, R>(f: F) -> tokio::task::JoinHandle<R>
where
    F: FnOnce() -> R + Send + 'static,
    R: Send + 'static,
{
    tokio::task::spawn_blocking(move || with_redacted_panics(f))
}

/// What may be logged of a panic message: its length and a short SHA-256
/// prefix (to match repeated panics), never its text.
pub fn panic_fingerprint(payload: &(dyn Any + Send)) -> String {
    let text = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "message withheld ({} bytes, sha256 {})",
        text.len(),
        hex::encode(&digest[..6])
    )
}

/// A failed blocking task, for logs: `panicked (message withheld …)` or
/// `cancelled`; never the panic message.
pub fn join_error_summary(e: tokio::task::JoinError) -> String {
    if e.is_panic() {
        format!("panicked ({})", panic_fingerprint(&*e.into_panic()))
    } else {
        "was cancelled".to_string()
    }
}

/// Replaces the panic hook (once) with one that, on threads running under
/// [`with_redacted_panics`], logs the panic's location and fingerprint as
/// an `error` event instead of printing its message; other threads keep the
/// previous hook (test failures still print their message).
pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if holds_microdata() {
                let location = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()))
                    .unwrap_or_default();
                tracing::error!(
                    %location,
                    panic = %panic_fingerprint(info.payload()),
                    "panic in code over uploaded data (message withheld: it may quote cell values)"
                );
            } else {
                previous(info);
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use super::*;

    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn capture(format: &str) -> String {
        let buf = Buffer::default();
        let out = buf.clone();
        let sub = subscriber(format, EnvFilter::new("info"), move || buf.clone());
        tracing::subscriber::with_default(sub, || {
            let span = tracing::info_span!("request", request_id = "r-1");
            let _g = span.enter();
            tracing::info!(job_id = "j-1", "job settled");
        });
        let bytes = out.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn text_written_to_a_non_terminal_has_no_colour_codes() {
        let text = capture("text");
        assert!(text.contains("job settled"), "{text}");
        assert!(!text.contains('\u{1b}'), "ANSI escape in {text:?}");
    }

    #[test]
    fn json_format_writes_one_object_per_line_with_span_fields() {
        let text = capture("JSON");
        let line: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        assert_eq!(line["fields"]["message"], "job settled");
        assert_eq!(line["fields"]["job_id"], "j-1");
        assert_eq!(line["span"]["request_id"], "r-1");
        assert_eq!(line["level"], "INFO");
    }

    #[test]
    fn panic_fingerprints_hide_the_message() {
        let payload: Box<dyn Any + Send> = Box::new(String::from("cell ZZSECRET-7"));
        let f = panic_fingerprint(&*payload);
        assert!(!f.contains("ZZSECRET"), "{f}");
        assert!(f.contains("15 bytes"), "{f}");
        let same: Box<dyn Any + Send> = Box::new("cell ZZSECRET-7");
        assert_eq!(panic_fingerprint(&*same), f);
    }

    #[test]
    fn redaction_is_scoped_to_the_closure() {
        assert!(!HOLDS_MICRODATA.with(|h| h.get()));
        let inside = with_redacted_panics(|| HOLDS_MICRODATA.with(|h| h.get()));
        assert!(inside);
        assert!(!HOLDS_MICRODATA.with(|h| h.get()));
    }

    /// A job's forks run on the core's pool threads, not the thread that
    /// entered `with_redacted_panics`: their panics are redacted too.
    #[test]
    fn the_core_job_threads_hold_microdata() {
        use proxima_core::parallel::{with_threads, Threads};
        assert!(!holds_microdata());
        let threads = Threads::new(2, "threads").unwrap();
        let seen: Vec<bool> = with_threads(threads, || {
            (0..64)
                .map(|_| rayon::join(holds_microdata, holds_microdata))
                .flat_map(|(a, b)| [a, b])
                .collect()
        });
        assert!(seen.iter().all(|&h| h));
        assert!(!holds_microdata());
    }

    #[test]
    fn text_format_is_not_json() {
        let text = capture("text");
        assert!(text.contains("job settled"), "{text}");
        assert!(serde_json::from_str::<serde_json::Value>(text.trim()).is_err());
    }
}
