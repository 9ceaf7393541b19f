//! Logging: tracing to stderr, human text or JSON lines
//! (`PROXIMA_LOG_FORMAT=json`), filtered by `RUST_LOG` (default `info`).
//!
//! Cell values never belong in logs: events carry ids, codes, counts and
//! paths only (the log-capture API test checks this over an upload and
//! failing requests, with this very subscriber).

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
pub fn subscriber<W>(
    format: &str,
    filter: EnvFilter,
    writer: W,
) -> Box<dyn Subscriber + Send + Sync>
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    if is_json(format) {
        Box::new(builder.json().finish())
    } else {
        Box::new(builder.finish())
    }
}

/// Installs the global subscriber on stderr; a second call is a no-op.
pub fn init(format: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let _ = subscriber(format, filter, std::io::stderr).try_init();
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
    fn json_format_writes_one_object_per_line_with_span_fields() {
        let text = capture("JSON");
        let line: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        assert_eq!(line["fields"]["message"], "job settled");
        assert_eq!(line["fields"]["job_id"], "j-1");
        assert_eq!(line["span"]["request_id"], "r-1");
        assert_eq!(line["level"], "INFO");
    }

    #[test]
    fn text_format_is_not_json() {
        let text = capture("text");
        assert!(text.contains("job settled"), "{text}");
        assert!(serde_json::from_str::<serde_json::Value>(text.trim()).is_err());
    }
}
