//! RFC 4180 CSV output with the spreadsheet formula-injection guard.
//!
//! A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return
//! and is not a plain number gets a leading `'`, so a spreadsheet shows it
//! as text instead of evaluating it (docs/design.md §5). Numbers such as `-1` or
//! `+2.5e3` stay numbers. Cells holding a comma, a quote, CR or LF are
//! quoted, quotes doubled; lines end with CRLF as RFC 4180 says.

use std::io::{self, Write};

pub struct CsvRowWriter<W: Write> {
    out: W,
    /// Reused between cells, so the guard allocates nothing per cell.
    scratch: String,
}

impl<W: Write> CsvRowWriter<W> {
    pub fn new(out: W) -> Self {
        CsvRowWriter {
            out,
            scratch: String::new(),
        }
    }

    pub fn write_row(&mut self, cells: &[&str]) -> io::Result<()> {
        for (i, cell) in cells.iter().enumerate() {
            if i > 0 {
                self.out.write_all(b",")?;
            }
            self.write_cell(cell)?;
        }
        self.out.write_all(b"\r\n")
    }

    fn write_cell(&mut self, cell: &str) -> io::Result<()> {
        let cell: &str = if needs_guard(cell) {
            self.scratch.clear();
            self.scratch.push('\'');
            self.scratch.push_str(cell);
            &self.scratch
        } else {
            cell
        };
        if cell
            .bytes()
            .any(|b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
        {
            self.out.write_all(b"\"")?;
            let mut parts = cell.split('"');
            if let Some(first) = parts.next() {
                self.out.write_all(first.as_bytes())?;
            }
            for part in parts {
                self.out.write_all(b"\"\"")?;
                self.out.write_all(part.as_bytes())?;
            }
            self.out.write_all(b"\"")
        } else {
            self.out.write_all(cell.as_bytes())
        }
    }

    /// The underlying writer, unflushed.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Rows rendered by another writer of this format.
    pub fn append(&mut self, rows: &[u8]) -> io::Result<()> {
        self.out.write_all(rows)
    }

    /// Flushes and returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// True when a spreadsheet could read the cell as a formula.
pub fn needs_guard(cell: &str) -> bool {
    match cell.as_bytes().first() {
        Some(b'=' | b'@' | b'\t' | b'\r') => true,
        Some(b'+' | b'-') => !is_plain_number(cell),
        _ => false,
    }
}

/// `[+-]? digits [. digits] [(e|E) [+-]? digits]`, also `.5` and `5.`;
/// deliberately not Rust's float grammar, which accepts `inf` and `NaN`.
pub fn is_plain_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let int_start = i;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    let mut digits = i - int_start;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        let frac_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        digits += i - frac_start;
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let exp_start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == exp_start {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(rows: &[&[&str]]) -> String {
        let mut w = CsvRowWriter::new(Vec::new());
        for r in rows {
            w.write_row(r).unwrap();
        }
        String::from_utf8(w.finish().unwrap()).unwrap()
    }

    #[test]
    fn quoting_follows_rfc_4180() {
        assert_eq!(render(&[&["a", "b c", ""]]), "a,b c,\r\n");
        assert_eq!(
            render(&[&["x,y", "say \"hi\"", "l1\nl2"]]),
            "\"x,y\",\"say \"\"hi\"\"\",\"l1\nl2\"\r\n"
        );
        assert_eq!(render(&[&["\"\""]]), "\"\"\"\"\"\"\r\n");
        assert_eq!(render(&[&["1"], &["2"]]), "1\r\n2\r\n");
    }

    #[test]
    fn formula_injection_is_neutralized() {
        assert_eq!(render(&[&["=A1"]]), "'=A1\r\n");
        assert_eq!(render(&[&["@SUM(A1)"]]), "'@SUM(A1)\r\n");
        assert_eq!(render(&[&["-x"]]), "'-x\r\n");
        assert_eq!(render(&[&["+cmd"]]), "'+cmd\r\n");
        assert_eq!(render(&[&["\tx"]]), "'\tx\r\n");
        // A CR-led cell is guarded and, holding a CR, quoted.
        assert_eq!(render(&[&["\r=1"]]), "\"'\r=1\"\r\n");
        // A guarded cell that needs quoting is quoted after the prefix.
        assert_eq!(render(&[&["=1,2"]]), "\"'=1,2\"\r\n");
    }

    #[test]
    fn numbers_stay_numbers() {
        for n in ["-1", "+1", "-0.5", "+2.5e3", "-1E-7", "-.5", "42", "-3."] {
            assert_eq!(render(&[&[n]]), format!("{n}\r\n"), "{n}");
        }
        for not in ["-inf", "-NaN", "-", "+", "-1e", "-1-2", "-1+1", "-e5", "-."] {
            assert!(needs_guard(not), "{not}");
        }
        // Generalized intervals start with '[' and are left alone.
        assert_eq!(render(&[&["[-5-10]"]]), "[-5-10]\r\n");
    }
}
