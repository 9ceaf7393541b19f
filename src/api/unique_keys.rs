//! Duplicate keys in a JSON object. serde_json keeps the last of two equal
//! keys (and a derived struct the first error), so `{"k": 2, "k": 100}`
//! would mean whatever the parser's order says; the service refuses such a
//! document instead (`malformed_json`, pointing at the object).

use std::collections::HashSet;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};

/// Where the first duplicate key is: the pointer of its object and the key.
#[derive(Debug, PartialEq, Eq)]
pub struct DuplicateKey {
    pub pointer: String,
    pub key: String,
}

/// The first duplicate key of `bytes`, if any. A document that is not JSON
/// at all gives `None`: the real parser reports that.
pub fn duplicate_key(bytes: &[u8]) -> Option<DuplicateKey> {
    let mut found = None;
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let _ = Walk {
        pointer: String::new(),
        found: &mut found,
    }
    .deserialize(&mut de);
    found
}

struct Walk<'a> {
    pointer: String,
    found: &'a mut Option<DuplicateKey>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

fn segment(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let pointer = format!("{}/{}", self.pointer, segment(&key));
            if !seen.insert(key.clone()) {
                // A key is echoed in the error: keep it short.
                let key = match key.char_indices().nth(80) {
                    Some((cut, _)) => format!("{}…", &key[..cut]),
                    None => key,
                };
                *self.found = Some(DuplicateKey {
                    pointer: self.pointer.clone(),
                    key,
                });
                return Err(A::Error::custom("duplicate key"));
            }
            map.next_value_seed(Walk {
                pointer,
                found: &mut *self.found,
            })?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        while seq
            .next_element_seed(Walk {
                pointer: format!("{}/{i}", self.pointer),
                found: &mut *self.found,
            })?
            .is_some()
        {
            i += 1;
        }
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_duplicate_with_its_object() {
        assert_eq!(duplicate_key(br#"{"a": 1, "b": [1, {"c": 2}]}"#), None);
        assert_eq!(duplicate_key(b"not json"), None);
        assert_eq!(
            duplicate_key(br#"{"model": {"kind": "k_anonymity", "k": 2, "k": 100}}"#),
            Some(DuplicateKey {
                pointer: "/model".into(),
                key: "k".into()
            })
        );
        assert_eq!(
            duplicate_key(br#"[{"x": 1}, {"a/b": {"y": 1, "y": 2}}]"#),
            Some(DuplicateKey {
                pointer: "/1/a~1b".into(),
                key: "y".into()
            })
        );
        // Escapes are compared decoded.
        assert!(duplicate_key(br#"{"a": 1, "\u0061": 2}"#).is_some());
    }
}
