//! Structure-aware mutations of valid inputs: byte-level edits with
//! CSV/JSON-significant tokens, and JSON edits that swap a value anywhere
//! in a document for a hostile one (or drop it).

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{json, Value};

/// Tokens that matter to CSV, JSON and number parsers.
const TOKENS: &[&[u8]] = &[
    b"\"",
    b"\"\"",
    b",",
    b";",
    b"\n",
    b"\r\n",
    b"\r",
    b"\t",
    b" ",
    b"NaN",
    b"-inf",
    b"inf",
    b"1e400",
    b"-1e400",
    b"1e-400",
    b"-0",
    b"18446744073709551616",
    b"-9223372036854775809",
    b"9007199254740993",
    b"0.1e",
    b"2024-02-30",
    b"0000-00-00",
    b"null",
    b"{",
    b"}",
    b"[",
    b"]",
    b":",
    b"\\",
    b"\\u0000",
    b"\\ud800",
    b"\0",
    b"\xff\xfe",
    b"\xc3",
    "é".as_bytes(),
    "\u{feff}".as_bytes(),
    b"*",
    b"=",
    b"?",
];

#[derive(Debug, Clone)]
pub enum Mutation {
    /// XOR one byte with a mask.
    Flip(Index, u8),
    /// Cut the input at a position.
    Truncate(Index),
    /// Insert a token (repeated) at a position.
    Insert(Index, usize, u8),
    /// Delete a span.
    Delete(Index, u8),
    /// Copy a span somewhere else (repeats lines, fields, brackets).
    Duplicate(Index, u16, Index),
    /// Deep nesting: n opening brackets (and maybe their closers).
    Nest(Index, u16, bool),
}

impl Arbitrary for Mutation {
    type Parameters = ();
    type Strategy = BoxedStrategy<Mutation>;

    fn arbitrary_with(_: ()) -> Self::Strategy {
        prop_oneof![
            3 => (any::<Index>(), 1u8..=255).prop_map(|(i, m)| Mutation::Flip(i, m)),
            1 => any::<Index>().prop_map(Mutation::Truncate),
            4 => (any::<Index>(), 0..TOKENS.len(), 1u8..4)
                .prop_map(|(i, t, n)| Mutation::Insert(i, t, n)),
            2 => (any::<Index>(), 1u8..16).prop_map(|(i, n)| Mutation::Delete(i, n)),
            2 => (any::<Index>(), 1u16..200, any::<Index>())
                .prop_map(|(a, n, b)| Mutation::Duplicate(a, n, b)),
            1 => (any::<Index>(), 1u16..3000, any::<bool>())
                .prop_map(|(i, n, close)| Mutation::Nest(i, n, close)),
        ]
        .boxed()
    }
}

fn insert_at(data: &mut Vec<u8>, at: usize, bytes: &[u8]) {
    let tail = data.split_off(at);
    data.extend_from_slice(bytes);
    data.extend_from_slice(&tail);
}

/// Applies the mutations in order.
pub fn mutate_bytes(mut data: Vec<u8>, muts: &[Mutation]) -> Vec<u8> {
    for m in muts {
        let len = data.len();
        let at = |i: &Index| if len == 0 { 0 } else { i.index(len + 1) };
        match m {
            Mutation::Flip(i, mask) => {
                if len > 0 {
                    let p = i.index(len);
                    data[p] ^= *mask;
                }
            }
            Mutation::Truncate(i) => data.truncate(at(i)),
            Mutation::Insert(i, t, n) => {
                let p = at(i);
                insert_at(&mut data, p, &TOKENS[*t].repeat(*n as usize));
            }
            Mutation::Delete(i, n) => {
                let p = at(i).min(len);
                let end = (p + *n as usize).min(len);
                data.drain(p..end);
            }
            Mutation::Duplicate(a, n, b) => {
                let p = at(a).min(len);
                let end = (p + *n as usize).min(len);
                let span = data[p..end].to_vec();
                insert_at(&mut data, at(b).min(len), &span);
            }
            Mutation::Nest(i, n, close) => {
                let p = at(i);
                let n = *n as usize;
                let mut nest = "[".repeat(n).into_bytes();
                if *close {
                    nest.extend("]".repeat(n).into_bytes());
                }
                insert_at(&mut data, p, &nest);
            }
        }
    }
    data
}

/// Hostile JSON values: extreme numbers, odd strings, wrong types, deep
/// nesting, values that are valid elsewhere in the documents.
fn hostile() -> impl Strategy<Value = Value> {
    let fixed = vec![
        json!(0),
        json!(-1),
        json!(1),
        json!(2),
        json!(0.5),
        json!(1e308),
        json!(-1e308),
        json!(5e-324),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(9007199254740993u64),
        json!(4294967296u64),
        json!(1e20),
        json!(""),
        json!("NaN"),
        json!("inf"),
        json!("-1"),
        json!("\u{0}"),
        json!("é\u{feff}"),
        json!("a".repeat(5000)),
        json!(","),
        json!("\""),
        json!("epsilon_m"),
        json!("dissimilarity"),
        json!("k_anonymity"),
        json!("l_diversity"),
        json!("t_closeness"),
        json!("mondrian"),
        json!("xcolor"),
        json!("relative"),
        json!("hierarchical"),
        json!("variational"),
        json!("categorical"),
        json!("date"),
        json!("sensitive"),
        json!("quasi_identifier"),
        json!("age"),
        json!("sex"),
        Value::Null,
        json!(true),
        json!([]),
        json!({}),
        json!([["M", "*"], ["M", "*"]]),
        json!([["x"]]),
        json!({"kind": "lp", "p": "inf", "weights": {"salary": 0}}),
        json!({"kind": "variational"}),
        json!({"age": 1e300, "nope": -1}),
    ];
    prop_oneof![
        5 => prop::sample::select(fixed),
        1 => any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f)),
        1 => any::<i64>().prop_map(|i| json!(i)),
        1 => "[a-z_]{0,12}".prop_map(|s| json!(s)),
        1 => (1usize..300).prop_map(|depth| {
            let mut v = json!(1);
            for _ in 0..depth {
                v = json!([v]);
            }
            v
        }),
    ]
}

/// A JSON edit: at the `Index`-th value of the document (pre-order),
/// replace it (`Some`) or remove it (`None`).
pub type JsonMutation = (Index, Option<Value>);

pub fn json_mutations() -> impl Strategy<Value = Vec<JsonMutation>> {
    prop::collection::vec(
        (any::<Index>(), prop::option::weighted(0.85, hostile())),
        1..4,
    )
}

fn pointers(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let key = k.replace('~', "~0").replace('/', "~1");
                pointers(child, format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                pointers(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// Applies JSON edits to a document (bytes that are not JSON pass through).
pub fn mutate_json(doc: &[u8], muts: &[JsonMutation]) -> Vec<u8> {
    let Ok(mut v) = serde_json::from_slice::<Value>(doc) else {
        return doc.to_vec();
    };
    for (i, replacement) in muts {
        let mut all = Vec::new();
        pointers(&v, String::new(), &mut all);
        let p = &all[i.index(all.len())];
        match replacement {
            Some(r) => {
                if let Some(slot) = v.pointer_mut(p) {
                    *slot = r.clone();
                }
            }
            None => {
                let Some((parent, last)) = p.rsplit_once('/') else {
                    continue; // the root stays
                };
                match v.pointer_mut(parent) {
                    Some(Value::Object(map)) => {
                        map.remove(&last.replace("~1", "/").replace("~0", "~"));
                    }
                    Some(Value::Array(items)) => {
                        if let Ok(i) = last.parse::<usize>() {
                            if i < items.len() {
                                items.remove(i);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    serde_json::to_vec(&v).expect("a JSON value serializes")
}
