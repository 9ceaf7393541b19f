//! Headless Chromium for what a person reads (the release report, the
//! sweep report): load a page of the running test app the way a browser
//! does, and return what a reviewer would notice — console errors, requests
//! that leave the page's origin, a screenshot, a print-to-PDF, and figures
//! read from the rendered DOM.
//!
//! It speaks the DevTools protocol over a WebSocket to Debian's `chromium`
//! (`.ci/run` installs it when absent), so the page is judged by a real
//! layout and script engine, not by string matching on the HTML. Without
//! Chromium a test gets `None` and prints why; with `PROXIMA_REQUIRE_BROWSER`
//! set (CI sets it) a missing browser is a failure instead.

use std::io::{BufRead, BufReader, Read};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

/// What loading one page produced.
#[derive(Debug)]
pub struct Rendered {
    /// HTTP status of the page itself.
    pub status: u16,
    /// `console.error`/`console.assert` calls, uncaught exceptions, and the
    /// browser's own error log (failed loads, CSP violations).
    pub console_errors: Vec<String>,
    /// Every request whose URL is not on the page's origin (nor `data:`).
    pub external_requests: Vec<String>,
    /// The whole page, not only the viewport (PNG).
    pub screenshot_png: Vec<u8>,
    /// The page printed to PDF with its print stylesheet.
    pub pdf: Vec<u8>,
    /// The JSON value of the expression passed to [`render`], evaluated
    /// after the load event.
    pub eval: Value,
    /// Every SVG text (axis labels, point labels, titles) whose box, from
    /// `getBBox` mapped through its transforms into the SVG's viewBox,
    /// reaches outside that viewBox: text a reader sees cut. Each entry
    /// names the text and how far it sticks out.
    pub clipped_labels: Vec<String>,
    /// Laid out as printed on A4 (print media, the page's 182 mm between
    /// its 14 mm margins = 688 CSS px): every table, `pre` or cell wider
    /// than the printable width or than its own box. Empty when the page
    /// prints without cutting a column.
    pub too_wide_for_a4: Vec<String>,
}

impl Rendered {
    /// How many pages the printed PDF has: its page objects (`/Type /Page`,
    /// not the `/Pages` tree nodes), which Chromium writes uncompressed.
    pub fn printed_pages(&self) -> usize {
        let pdf = &self.pdf;
        let needle = b"/Type /Page";
        (0..pdf.len().saturating_sub(needle.len()))
            .filter(|&i| &pdf[i..i + needle.len()] == needle && pdf[i + needle.len()] != b's')
            .count()
    }
}

/// The width an A4 page prints at between the stylesheet's 14 mm margins,
/// in CSS px (96 per inch): (210 − 2 × 14) mm.
pub const A4_PRINTABLE_PX: f64 = 182.0 / 25.4 * 96.0;

/// Text of SVGs that leaves its SVG's viewBox (see `Rendered::clipped_labels`).
const CLIPPED_LABELS_JS: &str = "(() => {
  const out = [];
  for (const svg of document.querySelectorAll('svg')) {
    const vb = svg.viewBox.baseVal;
    const toSvg = svg.getScreenCTM().inverse();
    for (const t of svg.querySelectorAll('text')) {
      const b = t.getBBox();
      if (b.width === 0 && b.height === 0) continue;
      const m = toSvg.multiply(t.getScreenCTM());
      const pts = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
        .map(([x, y]) => new DOMPoint(x, y).matrixTransform(m));
      const xs = pts.map(p => p.x), ys = pts.map(p => p.y);
      const left = vb.x - Math.min(...xs), right = Math.max(...xs) - (vb.x + vb.width);
      const top = vb.y - Math.min(...ys), bottom = Math.max(...ys) - (vb.y + vb.height);
      if (Math.max(left, right, top, bottom) > 0.5) {
        out.push(`${t.textContent} (out by left ${left.toFixed(1)}, right ${right.toFixed(1)}, top ${top.toFixed(1)}, bottom ${bottom.toFixed(1)})`);
      }
    }
  }
  return out;
})()";

/// Tables, `pre` blocks and cells wider than the printable width or their
/// own box, under print media at A4 width (see `Rendered::too_wide_for_a4`).
const TOO_WIDE_JS: &str = "(() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  const name = e => e.tagName.toLowerCase() + ': ' + e.textContent.slice(0, 60);
  for (const e of document.querySelectorAll('table, pre, dl')) {
    const r = e.getBoundingClientRect();
    if (r.right > width + 0.5 || e.scrollWidth > e.clientWidth + 1) {
      out.push(`${name(e)} (right edge ${r.right.toFixed(1)} of ${width}, content ${e.scrollWidth} in ${e.clientWidth})`);
    }
  }
  for (const c of document.querySelectorAll('td, th, dd')) {
    if (c.scrollWidth > c.clientWidth + 1) {
      out.push(`${name(c)} (content ${c.scrollWidth} in ${c.clientWidth})`);
    }
  }
  if (document.documentElement.scrollWidth > width + 1) {
    out.push(`the page itself (${document.documentElement.scrollWidth} in ${width})`);
  }
  return out;
})()";

/// Loads `url` with `Authorization: Bearer <bearer_key>` and evaluates
/// `eval_js` (an expression; its value must be JSON-serialisable) once the
/// page has loaded. `None` when Chromium is absent and not required.
pub async fn render(url: &str, bearer_key: &str, eval_js: &str) -> Option<Rendered> {
    let binary = match chromium() {
        Some(b) => b,
        None => {
            assert!(
                std::env::var_os("PROXIMA_REQUIRE_BROWSER").is_none(),
                "PROXIMA_REQUIRE_BROWSER is set but no Chromium was found \
                 (install Debian's `chromium` or set PROXIMA_CHROMIUM)"
            );
            eprintln!("skipped: no Chromium on this machine (apt-get install chromium)");
            return None;
        }
    };
    let (url, key, js) = (url.to_owned(), bearer_key.to_owned(), eval_js.to_owned());
    let rendered = tokio::task::spawn_blocking(move || {
        let browser = Browser::launch(&binary);
        browser.render(&url, &key, &js)
    })
    .await
    .expect("the browser task panicked");
    Some(rendered)
}

/// `PROXIMA_CHROMIUM`, else the first of the usual names on `PATH`.
fn chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PROXIMA_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    for name in ["chromium", "chromium-browser", "google-chrome", "chrome"] {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    None
}

const TIMEOUT: Duration = Duration::from_secs(60);

/// A running headless Chromium with a private profile; killed on drop.
struct Browser {
    child: Child,
    ws_url: String,
    _profile: tempfile::TempDir,
    stderr_tail: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Browser {
    fn launch(binary: &PathBuf) -> Browser {
        let profile = tempfile::tempdir().expect("a temporary profile directory");
        let mut child = Command::new(binary)
            .args([
                "--headless=new",
                // Tests run as root in CI containers, where the sandbox
                // cannot start; the pages are our own.
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--mute-audio",
                "--hide-scrollbars",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
        // Chromium prints the DevTools address on stderr; keep reading the
        // rest on a thread so a chatty browser never blocks on a full pipe.
        let stderr = child.stderr.take().expect("piped stderr");
        let tail = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::channel();
        {
            let tail = tail.clone();
            std::thread::spawn(move || {
                let mut sent = false;
                for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                    if !sent {
                        if let Some(at) = line.find("ws://") {
                            let _ = tx.send(line[at..].trim().to_owned());
                            sent = true;
                        }
                    }
                    let mut tail = tail.lock().unwrap();
                    tail.push(line);
                    let excess = tail.len().saturating_sub(50);
                    tail.drain(..excess);
                }
            });
        }
        let ws_url = match rx.recv_timeout(TIMEOUT) {
            Ok(url) => url,
            Err(_) => {
                let _ = child.kill();
                panic!(
                    "Chromium did not print its DevTools address; stderr:\n{}",
                    tail.lock().unwrap().join("\n")
                );
            }
        };
        Browser {
            child,
            ws_url,
            _profile: profile,
            stderr_tail: tail,
        }
    }

    fn render(&self, url: &str, bearer_key: &str, eval_js: &str) -> Rendered {
        let mut cdp = Cdp::connect(&self.ws_url);
        let target = cdp.call("Target.createTarget", json!({"url": "about:blank"}), None);
        let target_id = target["targetId"].as_str().expect("targetId").to_owned();
        let attached = cdp.call(
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
            None,
        );
        let session = attached["sessionId"]
            .as_str()
            .expect("sessionId")
            .to_owned();
        let s = Some(session.as_str());
        for domain in ["Runtime", "Log", "Network", "Page"] {
            cdp.call(&format!("{domain}.enable"), json!({}), s);
        }
        cdp.call(
            "Network.setExtraHTTPHeaders",
            json!({"headers": {"Authorization": format!("Bearer {bearer_key}")}}),
            s,
        );
        cdp.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1100, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
            s,
        );
        let navigated = cdp.call("Page.navigate", json!({"url": url}), s);
        if let Some(error) = navigated.get("errorText").and_then(Value::as_str) {
            panic!("navigating to {url} failed: {error}");
        }
        cdp.wait_event("Page.loadEventFired", &session);

        let evaluated = cdp.call(
            "Runtime.evaluate",
            json!({"expression": eval_js, "returnByValue": true, "awaitPromise": true}),
            s,
        );
        if let Some(details) = evaluated.get("exceptionDetails") {
            panic!("evaluating the test's expression threw: {details}");
        }
        let eval = evaluated["result"]
            .get("value")
            .cloned()
            .unwrap_or(Value::Null);

        let clipped_labels = strings(&evaluate(&mut cdp, s, CLIPPED_LABELS_JS));

        let metrics = cdp.call("Page.getLayoutMetrics", json!({}), s);
        let size = &metrics["cssContentSize"];
        let (width, height) = (
            size["width"].as_f64().unwrap_or(1100.0),
            size["height"].as_f64().unwrap_or(900.0),
        );
        let shot = cdp.call(
            "Page.captureScreenshot",
            json!({"format": "png", "captureBeyondViewport": true,
                   "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}}),
            s,
        );
        // Laid out as on paper: print media at the A4 page's printable
        // width.
        cdp.call("Emulation.setEmulatedMedia", json!({"media": "print"}), s);
        cdp.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": A4_PRINTABLE_PX.floor() as u64, "height": 1000,
                   "deviceScaleFactor": 1, "mobile": false}),
            s,
        );
        let too_wide_for_a4 = strings(&evaluate(&mut cdp, s, TOO_WIDE_JS));
        cdp.call("Emulation.setEmulatedMedia", json!({"media": ""}), s);
        // Print as a person does from the browser: without the screen
        // size emulated for the screenshot (with it, Chromium lays the
        // pages out 1100 px wide and clips them at the paper's margin).
        cdp.call("Emulation.clearDeviceMetricsOverride", json!({}), s);
        let pdf = cdp.call(
            "Page.printToPDF",
            json!({"printBackground": true, "preferCSSPageSize": true}),
            s,
        );

        let origin = origin_of(url);
        let mut status = 0;
        let mut console_errors = Vec::new();
        let mut external_requests = Vec::new();
        for event in cdp
            .events
            .iter()
            .filter(|e| e["sessionId"] == session.as_str())
        {
            let params = &event["params"];
            match event["method"].as_str().unwrap_or("") {
                "Network.requestWillBeSent" => {
                    let request_url = params["request"]["url"].as_str().unwrap_or("");
                    if !(request_url.starts_with(&origin)
                        || request_url.starts_with("data:")
                        || request_url.starts_with("about:"))
                    {
                        external_requests.push(request_url.to_owned());
                    }
                }
                "Network.responseReceived" if params["type"] == "Document" => {
                    status = params["response"]["status"].as_u64().unwrap_or(0) as u16;
                }
                "Runtime.consoleAPICalled"
                    if matches!(params["type"].as_str(), Some("error" | "assert")) =>
                {
                    console_errors.push(format!("console.{}: {}", params["type"], params["args"]));
                }
                "Runtime.exceptionThrown" => {
                    console_errors.push(format!("exception: {}", params["exceptionDetails"]));
                }
                "Log.entryAdded" if params["entry"]["level"] == "error" => {
                    console_errors.push(format!(
                        "{}: {} ({})",
                        params["entry"]["source"], params["entry"]["text"], params["entry"]["url"]
                    ));
                }
                _ => {}
            }
        }
        let _ = cdp.call("Target.closeTarget", json!({"targetId": target_id}), None);
        Rendered {
            status,
            console_errors,
            external_requests,
            screenshot_png: decode(&shot["data"]),
            pdf: decode(&pdf["data"]),
            eval,
            clipped_labels,
            too_wide_for_a4,
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            eprintln!(
                "Chromium's last stderr lines:\n{}",
                self.stderr_tail.lock().unwrap().join("\n")
            );
        }
    }
}

/// The value of `expression` in the page (it must not throw).
fn evaluate(cdp: &mut Cdp, session: Option<&str>, expression: &str) -> Value {
    let evaluated = cdp.call(
        "Runtime.evaluate",
        json!({"expression": expression, "returnByValue": true}),
        session,
    );
    if let Some(details) = evaluated.get("exceptionDetails") {
        panic!("evaluating a layout check threw: {details}");
    }
    evaluated["result"]
        .get("value")
        .cloned()
        .unwrap_or(Value::Null)
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .into_iter()
        .flatten()
        .map(|x| x.as_str().unwrap_or_default().to_owned())
        .collect()
}

/// `scheme://host:port` of a URL (the test app's pages are all http).
fn origin_of(url: &str) -> String {
    let after_scheme = url.find("://").map(|i| i + 3).unwrap_or(0);
    let end = url[after_scheme..]
        .find('/')
        .map(|i| after_scheme + i)
        .unwrap_or(url.len());
    url[..end].to_owned()
}

fn decode(data: &Value) -> Vec<u8> {
    base64::engine::general_purpose::STANDARD
        .decode(data.as_str().expect("base64 data in the answer"))
        .expect("valid base64")
}

/// A DevTools protocol connection: commands by id, events buffered in
/// arrival order for the caller to inspect.
struct Cdp {
    ws: WebSocket<TcpStream>,
    next_id: u64,
    events: Vec<Value>,
}

impl Cdp {
    fn connect(ws_url: &str) -> Cdp {
        let host = ws_url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .expect("host:port in the DevTools address");
        let stream = TcpStream::connect(host).expect("connect to DevTools");
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        let (ws, _) = tungstenite::client(ws_url, stream).expect("DevTools WebSocket handshake");
        Cdp {
            ws,
            next_id: 0,
            events: Vec::new(),
        }
    }

    fn call(&mut self, method: &str, params: Value, session: Option<&str>) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.ws
            .send(Message::text(message.to_string()))
            .unwrap_or_else(|e| panic!("sending {method}: {e}"));
        let deadline = Instant::now() + TIMEOUT;
        loop {
            assert!(
                Instant::now() < deadline,
                "{method} got no answer in {TIMEOUT:?}"
            );
            let value = self.read();
            if value["id"] == id {
                if let Some(error) = value.get("error") {
                    panic!("{method} failed: {error}");
                }
                return value["result"].clone();
            }
            if value.get("method").is_some() {
                self.events.push(value);
            }
        }
    }

    fn wait_event(&mut self, method: &str, session: &str) {
        let seen = |e: &Value| e["method"] == method && e["sessionId"] == session;
        if self.events.iter().any(seen) {
            return;
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            assert!(Instant::now() < deadline, "no {method} in {TIMEOUT:?}");
            let value = self.read();
            let done = seen(&value);
            if value.get("method").is_some() {
                self.events.push(value);
            }
            if done {
                return;
            }
        }
    }

    fn read(&mut self) -> Value {
        loop {
            match self.ws.read().expect("reading from DevTools") {
                Message::Text(text) => {
                    return serde_json::from_str(text.as_str()).expect("DevTools sends JSON")
                }
                Message::Binary(bytes) => {
                    let mut text = String::new();
                    bytes
                        .as_ref()
                        .read_to_string(&mut text)
                        .expect("DevTools sends UTF-8");
                    return serde_json::from_str(&text).expect("DevTools sends JSON");
                }
                _ => continue,
            }
        }
    }
}
