//! What each key role may call (API.md §"The verdict and the sign-off"):
//! one table from a route (method and template) to the roles allowed, read
//! by a middleware inside `auth::require_key`. A route the table does not
//! name is for admins only, so a route added without thought fails closed.
//!
//! * `submitter`: datasets, jobs, audits, sweeps, feasibility, and reading
//!   what it made (results, audits, reports);
//! * `reviewer`: reads everything (datasets, jobs, results, reports) and
//!   approves or rejects; never uploads, queues or deletes;
//! * `admin`: everything, and the settings.
//!
//! Reading the release policy is open to every role: every report names
//! it anyway.

use axum::extract::{MatchedPath, Request};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use serde_json::json;

use super::auth::Caller;
use super::error::ApiError;
use crate::api::access::KeyRole;

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Allowed {
    /// Every role.
    Everyone,
    /// Submitters and admins: the routes that upload, queue or delete.
    Submitters,
    /// Reviewers and admins: the sign-off.
    Reviewers,
    /// Admins only.
    Admins,
}

impl Allowed {
    pub fn admits(self, role: KeyRole) -> bool {
        match self {
            Allowed::Everyone => true,
            Allowed::Submitters => matches!(role, KeyRole::Submitter | KeyRole::Admin),
            Allowed::Reviewers => matches!(role, KeyRole::Reviewer | KeyRole::Admin),
            Allowed::Admins => role == KeyRole::Admin,
        }
    }

    /// The roles admitted, in `KeyRole::ALL`'s order.
    pub fn roles(self) -> Vec<&'static str> {
        KeyRole::ALL
            .into_iter()
            .filter(|r| self.admits(*r))
            .map(KeyRole::as_str)
            .collect()
    }
}

/// The roles allowed on `method` `template` (a `/v1` route template
/// without its `/v1` prefix, e.g. `/jobs/{id}/approvals`).
pub fn allowed(method: &Method, template: &str) -> Allowed {
    let read = method == Method::GET || method == Method::HEAD;
    match template {
        "/settings/release-policy" if read => Allowed::Everyone,
        "/settings/release-policy" | "/keys" => Allowed::Admins,
        "/jobs/{id}/approvals" if read => Allowed::Everyone,
        "/jobs/{id}/approvals" => Allowed::Reviewers,
        "/datasets"
        | "/datasets/{id}"
        | "/datasets/{id}/feasibility"
        | "/jobs"
        | "/jobs/{id}"
        | "/jobs/{id}/cancel"
        | "/jobs/{id}/result"
        | "/jobs/{id}/audit"
        | "/jobs/{id}/report"
        | "/audits"
        | "/sweeps"
        | "/sweeps/{id}"
        | "/sweeps/{id}/cancel"
        | "/sweeps/{id}/report" => {
            if read {
                Allowed::Everyone
            } else {
                Allowed::Submitters
            }
        }
        _ => Allowed::Admins,
    }
}

/// The middleware: 403 `role_forbidden` when the caller's role may not
/// call the matched route.
pub async fn require_role(req: Request, next: Next) -> Result<Response, ApiError> {
    let template = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| {
            p.as_str()
                .strip_prefix("/v1")
                .unwrap_or(p.as_str())
                .to_owned()
        })
        .unwrap_or_default();
    let caller = req
        .extensions()
        .get::<Caller>()
        .copied()
        .ok_or_else(|| ApiError::internal(anyhow::anyhow!("a /v1 route without a caller")))?;
    let need = allowed(req.method(), &template);
    if !need.admits(caller.role) {
        return Err(forbidden(caller.role, need));
    }
    Ok(next.run(req).await)
}

pub fn forbidden(role: KeyRole, need: Allowed) -> ApiError {
    let roles = need.roles();
    ApiError::new(
        StatusCode::FORBIDDEN,
        "role_forbidden",
        format!(
            "this key's role ({role}) may not do this; it needs a key with the role {}",
            roles.join(" or ")
        ),
    )
    .with_details(json!({"role": role.as_str(), "allowed_roles": roles}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use KeyRole::*;

    #[test]
    fn submitters_submit_reviewers_sign_admins_do_everything() {
        let post = Method::POST;
        let get = Method::GET;
        let cases = [
            (&post, "/jobs", [true, false, true]),
            (&post, "/datasets", [true, false, true]),
            (&Method::DELETE, "/datasets/{id}", [true, false, true]),
            (&post, "/sweeps", [true, false, true]),
            (&post, "/audits", [true, false, true]),
            (&get, "/jobs/{id}/report", [true, true, true]),
            (&get, "/jobs/{id}/result", [true, true, true]),
            (&post, "/jobs/{id}/approvals", [false, true, true]),
            (&get, "/jobs/{id}/approvals", [true, true, true]),
            (&get, "/settings/release-policy", [true, true, true]),
            (
                &Method::PUT,
                "/settings/release-policy",
                [false, false, true],
            ),
            (&post, "/keys", [false, false, true]),
            (&post, "/some/new/route", [false, false, true]),
        ];
        for (method, path, expect) in cases {
            let got = [Submitter, Reviewer, Admin].map(|r| allowed(method, path).admits(r));
            assert_eq!(got, expect, "{method} {path}");
        }
    }

    #[test]
    fn the_refusal_names_the_roles_that_may() {
        let e = forbidden(Reviewer, Allowed::Submitters);
        assert_eq!(e.status, StatusCode::FORBIDDEN);
        assert_eq!(e.code, "role_forbidden");
        assert_eq!(e.details["allowed_roles"], json!(["submitter", "admin"]));
    }
}
