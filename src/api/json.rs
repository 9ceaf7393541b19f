//! JSON documents → DTOs, with errors that point at the offending field.
//!
//! Syntax errors are `malformed_json` (HTTP 400). Documents that parse but do
//! not have the expected shape (unknown field, missing field, wrong type,
//! unknown `kind`) get the caller's `shape_kind` (`invalid_schema` for a
//! schema, `invalid_parameters` for a job or audit) and a JSON pointer into
//! the document, prefixed by `root` (e.g. `/model` when the CLI parses the
//! `--model` value alone, so pointers match the API's).

use proxima_core::error::CoreResult;
use proxima_core::{CoreError, ErrorKind};
use serde::de::DeserializeOwned;
use serde_json::error::Category;

/// Parses `bytes` as a `T`. `what` names the document in messages
/// ("the schema", "the model").
pub fn from_json<T: DeserializeOwned>(
    bytes: &[u8],
    what: &str,
    root: &str,
    shape_kind: ErrorKind,
) -> CoreResult<T> {
    if let Some(dup) = super::unique_keys::duplicate_key(bytes) {
        let pointer = format!("{root}{}", dup.pointer);
        let message = format!(
            "{what} is not valid JSON here: the key {:?} appears twice in the object at {}",
            dup.key,
            if pointer.is_empty() { "/" } else { &pointer }
        );
        return Err(CoreError::new(ErrorKind::MalformedJson, message.clone())
            .with_error(pointer, message)
            .with_detail("key", dup.key.as_str()));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize::<_, T>(&mut de).map_err(|e| {
        let pointer = pointer_of(root, e.path());
        let inner = e.into_inner();
        to_core(inner, what, pointer, shape_kind)
    })?;
    de.end()
        .map_err(|e| to_core(e, what, root.to_string(), shape_kind))?;
    Ok(value)
}

/// [`from_json`] for a document already parsed into a JSON value (its
/// keys are unique by then): the same pointers and messages for a shape
/// that does not fit `T`.
pub fn from_value<T: DeserializeOwned>(
    value: &serde_json::Value,
    what: &str,
    root: &str,
    shape_kind: ErrorKind,
) -> CoreResult<T> {
    serde_path_to_error::deserialize::<_, T>(value).map_err(|e| {
        let pointer = pointer_of(root, e.path());
        to_core(e.into_inner(), what, pointer, shape_kind)
    })
}

fn to_core(e: serde_json::Error, what: &str, pointer: String, shape_kind: ErrorKind) -> CoreError {
    match e.classify() {
        Category::Syntax | Category::Eof | Category::Io => {
            let message = format!("{what} is not valid JSON: {e}");
            CoreError::new(ErrorKind::MalformedJson, message.clone()).with_error(pointer, message)
        }
        Category::Data => {
            let text = e.to_string();
            // serde reports an unknown or missing field at the enclosing
            // object (and, inside a `kind`-tagged object, at the object
            // itself): name the field in the pointer.
            let pointer = match field_named_in(&text) {
                Some(field) if !pointer.ends_with(&format!("/{}", escape(&field))) => {
                    format!("{pointer}/{}", escape(&field))
                }
                _ => pointer,
            };
            let shown = if pointer.is_empty() { "/" } else { &pointer };
            let message = format!("{what} is invalid at {shown}: {text}");
            CoreError::new(shape_kind, message.clone()).with_error(pointer, message)
        }
    }
}

/// The field of serde's "unknown field `x`" / "missing field `x`" messages.
fn field_named_in(text: &str) -> Option<String> {
    for prefix in ["unknown field `", "missing field `"] {
        if let Some(rest) = text.strip_prefix(prefix) {
            return rest.split('`').next().map(str::to_string);
        }
    }
    None
}

fn pointer_of(root: &str, path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = root.to_string();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => {
                out.push('/');
                out.push_str(&index.to_string());
            }
            Segment::Map { key } => {
                out.push('/');
                out.push_str(&escape(key));
            }
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    out
}

/// RFC 6901 escaping of one reference token.
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::FieldPointer;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        items: Vec<Item>,
    }
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Item {
        name: String,
    }

    fn err(json: &str) -> CoreError {
        from_json::<Doc>(
            json.as_bytes(),
            "the doc",
            "/root",
            ErrorKind::InvalidParameters,
        )
        .unwrap_err()
    }

    #[test]
    fn syntax_errors_are_malformed_json() {
        let e = err(r#"{"items": [}"#);
        assert_eq!(e.kind, ErrorKind::MalformedJson);
        assert!(
            e.message.starts_with("the doc is not valid JSON"),
            "{}",
            e.message
        );
        let trailing = err(r#"{"items": []} x"#);
        assert_eq!(trailing.kind, ErrorKind::MalformedJson);
    }

    #[test]
    fn shape_errors_point_at_the_field() {
        let e = err(r#"{"items": [{"name": "a"}, {"name": 3}]}"#);
        assert_eq!(e.kind, ErrorKind::InvalidParameters);
        assert_eq!(e.errors[0].pointer(), "/root/items/1/name");
        let unknown = err(r#"{"items": [{"name": "a", "nmae": "b"}]}"#);
        assert_eq!(unknown.errors[0].pointer(), "/root/items/0/nmae");
        assert!(
            unknown.message.contains("unknown field `nmae`"),
            "{}",
            unknown.message
        );
        let missing = err(r#"{"items": [{}]}"#);
        assert_eq!(missing.errors[0].pointer(), "/root/items/0/name");
        assert!(missing.message.contains("missing field `name`"));
    }

    #[test]
    fn pointer_tokens_are_escaped() {
        assert_eq!(escape("a/b~c"), "a~1b~0c");
    }
}
