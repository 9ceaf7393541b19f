//! Numeric parameters. The DTOs keep JSON numbers as [`Number`] so a job's
//! echo shows them as sent (`5`, not `5.0`) and so an integer parameter
//! given as `4.5` or `-1` is reported with its own pointer and domain by the
//! conversion, instead of as a generic type error.

use proxima_core::error::CoreResult;
use proxima_core::CoreError;
use serde_json::Number;

/// A finite real.
pub fn real(n: &Number) -> f64 {
    // Without serde_json's arbitrary_precision every Number is an f64, i64
    // or u64, so as_f64 is always Some.
    n.as_f64().unwrap_or(f64::NAN)
}

/// A non-negative integer; `5.0` counts as 5.
pub fn integer(n: &Number, name: &str, pointer: &str) -> CoreResult<u64> {
    if let Some(v) = n.as_u64() {
        return Ok(v);
    }
    let x = real(n);
    if x.is_finite() && x >= 0.0 && x.fract() == 0.0 && x <= u64::MAX as f64 {
        return Ok(x as u64);
    }
    Err(CoreError::invalid_parameters(
        pointer,
        format!("{name} must be an integer of at least 1, got {n}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::FieldPointer;

    #[test]
    fn integers_accept_whole_numbers_only() {
        assert_eq!(integer(&Number::from(5u64), "m", "/m").unwrap(), 5);
        assert_eq!(
            integer(&Number::from_f64(5.0).unwrap(), "m", "/m").unwrap(),
            5
        );
        let e = integer(&Number::from_f64(4.5).unwrap(), "m", "/model/m").unwrap_err();
        assert_eq!(e.errors[0].pointer(), "/model/m");
        assert!(e.message.contains("4.5"), "{}", e.message);
        assert!(integer(&Number::from(-3i64), "k", "/k").is_err());
    }
}
