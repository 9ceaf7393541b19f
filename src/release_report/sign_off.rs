//! The report's verdict (first on the page) and its sign-off section
//! (last): the approvals recorded for the job and the release hash each
//! binds. Kept apart from `html.rs`'s figures: these parts are about the
//! decision, not the measurements.

use crate::html::{Callout, Markup, Page};

use super::content::ReleaseReport;
use super::verdict::{Decision, Effect};
use crate::api::approval::ApprovalDecision;

fn decision_title(d: Decision) -> &'static str {
    match d {
        Decision::Publishable => "Publishable",
        Decision::PublishableWithConditions => "Publishable with conditions",
        Decision::NotPublishable => "Not publishable",
    }
}

fn effect_label(e: Effect) -> Markup {
    match e {
        Effect::Blocking => Markup::span("bad", "blocks"),
        Effect::Condition => Markup::span("warn", "condition"),
        Effect::Ok => Markup::span("ok", "ok"),
    }
}

/// The name of the section an anchor points at, as the link's text.
fn section_name(anchor: &str) -> String {
    match anchor.trim_start_matches('#') {
        "attacker-view" => "Attacker's view".into(),
        "risk" => "Re-identification risk".into(),
        "utility" => "Utility".into(),
        "failure" => "Why the job failed".into(),
        other => match other.strip_prefix("warning-") {
            Some(n) => format!("Warning {n}"),
            None => other.into(),
        },
    }
}

fn pct(x: f64) -> String {
    format!("{}%", crate::html::svg::number(100.0 * x))
}

/// The verdict, its reasons (each linked to its section) and the policy.
pub fn verdict(page: &mut Page, r: &ReleaseReport) {
    let v = &r.verdict;
    page.section("verdict", "Verdict");
    let kind = match v.decision {
        Decision::Publishable => Callout::Info,
        Decision::PublishableWithConditions => Callout::Warning,
        Decision::NotPublishable => Callout::Failure,
    };
    let summary = match v.decision {
        Decision::Publishable => "Every check below is within the release policy.",
        Decision::PublishableWithConditions => {
            "No check blocks publication, but each condition below must be met or stated \
             beside the data."
        }
        Decision::NotPublishable => {
            "At least one check below blocks publication under the release policy."
        }
    };
    page.raw(Markup::trusted(format!(
        "<div id=\"verdict-decision\" data-decision=\"{}\"></div>",
        v.decision.as_str()
    )));
    page.callout(
        kind,
        decision_title(v.decision),
        Markup::concat([
            Markup::code(v.decision.as_str()),
            Markup::text(" — "),
            Markup::text(summary),
        ]),
    );
    let rows = v
        .reasons
        .iter()
        .map(|reason| {
            vec![
                effect_label(reason.effect),
                Markup::text(&reason.message),
                Markup::link(&reason.anchor, &section_name(&reason.anchor)),
            ]
        })
        .collect();
    page.table(&["Effect", "Reason", "Section"], rows);
    let p = &v.policy;
    let source = match v.policy_source {
        crate::api::policy::PolicySource::Default => "the defaults (no policy set for this tenant)",
        crate::api::policy::PolicySource::Tenant => {
            "the tenant's (PUT /v1/settings/release-policy)"
        }
    };
    page.paragraph(format!("Release policy applied: {source}."));
    let yes_no = |b: bool| Markup::text(if b { "yes" } else { "no" });
    page.definitions(vec![
        (
            "Largest prosecutor risk (blocks above)",
            Markup::text(&pct(p.max_prosecutor_risk)),
        ),
        (
            "Largest share of records below k through a column published as is (blocks above)",
            Markup::text(&pct(p.max_below_k_share)),
        ),
        (
            "Largest share of the population unique (blocks above)",
            Markup::text(&pct(p.max_population_uniques_share)),
        ),
        (
            "Largest share of rows left out (a condition above)",
            Markup::text(&pct(p.max_suppressed_share)),
        ),
        (
            "Largest median count-query error (a condition above)",
            Markup::text(&pct(p.max_median_query_error)),
        ),
        ("Publication needs an approval", yes_no(p.require_approval)),
        (
            "Four eyes (the approver's key is not the submitter's)",
            yes_no(p.four_eyes),
        ),
    ]);
}

/// The approvals and rejections, with the hash each binds, and which
/// download is for publication.
pub fn approvals(page: &mut Page, r: &ReleaseReport) {
    page.section("sign-off", "Sign-off");
    page.paragraph(
        "GET /v1/jobs/{id}/result serves the release for the data owner's own checks. The copy \
         to publish is GET /v1/jobs/{id}/result?purpose=publication, served once a reviewer has \
         approved the job when the release policy requires it. Approvals are recorded with \
         POST /v1/jobs/{id}/approvals and are never edited or deleted.",
    );
    if r.approvals.is_empty() {
        page.paragraph("No approval or rejection has been recorded for this job.");
        return;
    }
    let current = r.release.as_ref().map(|rel| rel.sha256.as_str());
    let rows = r
        .approvals
        .iter()
        .map(|a| {
            let binds = if Some(a.release_sha256.as_str()) == current {
                Markup::concat([
                    Markup::code(&a.release_sha256),
                    Markup::span("ok", " (this release)"),
                ])
            } else {
                Markup::concat([
                    Markup::code(&a.release_sha256),
                    Markup::span("bad", " (not this release)"),
                ])
            };
            vec![
                match a.decision {
                    ApprovalDecision::Approve => Markup::span("ok", "approved"),
                    ApprovalDecision::Reject => Markup::span("bad", "rejected"),
                },
                Markup::text(&a.name),
                Markup::text(&a.role),
                Markup::text(&a.created_at.format("%Y-%m-%d %H:%M:%S UTC").to_string()),
                Markup::code(&a.verdict),
                binds,
                Markup::text(a.comment.as_deref().unwrap_or("")),
            ]
        })
        .collect();
    page.table(
        &[
            "Decision",
            "Name",
            "Role",
            "When",
            "Verdict seen",
            "Release SHA-256 bound",
            "Comment",
        ],
        rows,
    );
}
