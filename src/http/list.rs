//! List query parameters: `?limit=` (default 50, max 500), `?cursor=`, and
//! the resource's filters.

use std::collections::HashMap;

use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::Serialize;
use uuid::Uuid;

use super::error::ApiError;
use crate::store::Cursor;

pub const DEFAULT_LIMIT: i64 = 50;
pub const MAX_LIMIT: i64 = 500;

/// The parsed query string of a list route.
#[derive(Debug, Clone)]
pub struct ListQuery {
    pub limit: i64,
    pub cursor: Option<Cursor>,
    params: HashMap<String, String>,
}

impl ListQuery {
    /// Another parameter of the query string (a filter).
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params.get(name).map(String::as_str)
    }

    /// A filter that is a UUID (`?dataset_id=`); empty is none, anything
    /// else a 422 naming the parameter.
    pub fn uuid_param(&self, name: &str) -> Result<Option<Uuid>, ApiError> {
        match self.param(name).filter(|s| !s.is_empty()) {
            None => Ok(None),
            Some(s) => s.parse::<Uuid>().map(Some).map_err(|_| {
                ApiError::invalid_parameters(
                    &format!("/query/{}", pointer_segment(name)),
                    format!("{name} must be a UUID"),
                )
            }),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ListQuery {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        let Query(pairs): Query<Vec<(String, String)>> = Query::try_from_uri(&parts.uri)
            .map_err(|_| ApiError::invalid_parameters("/query", "the query string is malformed"))?;
        let params = unique(pairs)?;
        let limit = match params.get("limit") {
            None => DEFAULT_LIMIT,
            Some(s) => match s.parse::<i64>() {
                Ok(n) if (1..=MAX_LIMIT).contains(&n) => n,
                _ => {
                    return Err(ApiError::invalid_parameters(
                        "/query/limit",
                        format!("limit must be an integer from 1 to {MAX_LIMIT}, got {s:?}"),
                    ))
                }
            },
        };
        let cursor = match params.get("cursor").filter(|c| !c.is_empty()) {
            None => None,
            Some(c) => Some(Cursor::decode(c).ok_or_else(|| {
                ApiError::invalid_parameters(
                    "/query/cursor",
                    "cursor is not one this service handed out",
                )
            })?),
        };
        Ok(ListQuery {
            limit,
            cursor,
            params,
        })
    }
}

/// The query's parameters by name; a name given twice is refused rather
/// than one of its values picked (`?status=failed&status=succeeded` has no
/// one meaning).
fn unique(pairs: Vec<(String, String)>) -> Result<HashMap<String, String>, ApiError> {
    let mut params = HashMap::with_capacity(pairs.len());
    for (name, value) in pairs {
        if params.contains_key(&name) {
            let pointer = format!("/query/{}", pointer_segment(&name));
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "malformed_request",
                format!("the query parameter {name:?} is given more than once; give it once"),
            )
            .with_error(pointer, "given more than once")
            .with_details(serde_json::json!({"parameter": name})));
        }
        params.insert(name, value);
    }
    Ok(params)
}

/// A name as one JSON-pointer segment (RFC 6901).
fn pointer_segment(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// `{"items": [...], "next_cursor": "..." | null}`.
#[derive(Debug, Serialize)]
pub struct ListPage<T: Serialize> {
    pub items: Vec<T>,
    pub next_cursor: Option<String>,
}
