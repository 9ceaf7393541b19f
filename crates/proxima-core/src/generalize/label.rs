//! The printed form of a generalized value (docs/api.md §Results).
//!
//! * Numeric: `[lo-hi]` with both bounds in [`format_number`]'s form, or the
//!   value itself when lo = hi. A negative bound keeps its sign, so
//!   `[-5--1]` is −5 to −1 and `[-5-3]` is −5 to 3: the separator is the
//!   first `-` after the first character, which is unambiguous because
//!   `format_number` never prints an exponent (Rust's `Display` for `f64`
//!   writes plain decimals). [`parse_numeric_label`] is the inverse.
//! * Categorical: the label of the lowest common ancestor (`*` for the root
//!   of a flat hierarchy, the value itself for a single leaf).
//! * Date: `[YYYY-MM-DD-YYYY-MM-DD]`, or the day itself when equal. Dates are
//!   always 10 characters (the parser accepts only 4-digit years), so the
//!   separator is the 11th character. [`parse_date_interval_label`] is the
//!   inverse.

use std::fmt::Write;

use super::GeneralizedQi;
use crate::table::{format_date, format_number, parse_date, QiValues};

/// Writes the label of `g` (a generalization of the QI column `values`)
/// into `out` (appending; callers clear it to reuse the buffer).
pub fn write_label(out: &mut String, values: &QiValues, g: &GeneralizedQi) {
    match (g, values) {
        (GeneralizedQi::Numeric { lo, hi }, _) => {
            if lo == hi {
                out.push_str(&format_number(*lo));
            } else {
                let _ = write!(out, "[{}-{}]", format_number(*lo), format_number(*hi));
            }
        }
        (GeneralizedQi::Date { lo, hi }, _) => {
            if lo == hi {
                out.push_str(&format_date(*lo));
            } else {
                let _ = write!(out, "[{}-{}]", format_date(*lo), format_date(*hi));
            }
        }
        (GeneralizedQi::Categorical { level, node }, QiValues::Categorical { hierarchy, .. }) => {
            out.push_str(hierarchy.label(*level, *node));
        }
        (GeneralizedQi::Categorical { .. }, _) => {
            unreachable!("a categorical generalization of a non-categorical column")
        }
    }
}

/// The label of `g` as a new string.
pub fn label(values: &QiValues, g: &GeneralizedQi) -> String {
    let mut s = String::new();
    write_label(&mut s, values, g);
    s
}

/// Parses a numeric label (`17`, `[17-24]`, `[-5--1]`) into `(lo, hi)`.
pub fn parse_numeric_label(s: &str) -> Option<(f64, f64)> {
    let Some(inner) = s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
        let x: f64 = s.parse().ok()?;
        return Some((x, x));
    };
    // Skip a leading sign: the separator is the next '-'.
    let sep = inner.get(1..)?.find('-')? + 1;
    let lo: f64 = inner[..sep].parse().ok()?;
    let hi: f64 = inner[sep + 1..].parse().ok()?;
    (lo <= hi).then_some((lo, hi))
}

/// Parses a date label (`2020-01-31`, `[2020-01-01-2020-03-31]`) into days.
pub fn parse_date_interval_label(s: &str) -> Option<(i32, i32)> {
    let Some(inner) = s.strip_prefix('[').and_then(|s| s.strip_suffix(']')) else {
        let d = parse_date(s)?;
        return Some((d, d));
    };
    if inner.len() != 21 || inner.as_bytes()[10] != b'-' {
        return None;
    }
    let lo = parse_date(&inner[..10])?;
    let hi = parse_date(&inner[11..])?;
    (lo <= hi).then_some((lo, hi))
}
