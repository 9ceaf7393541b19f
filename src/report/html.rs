//! The release report as one self-contained HTML page (`crate::html`): the
//! same content as the JSON form, in reading order, with inline SVG charts.
//! Every text from the table or the request goes through `Markup`'s
//! escaping constructors.

use crate::html::svg::{number, BarChart, Series};
use crate::html::{Callout, Markup, Page};

use super::content::*;

fn num(x: f64) -> Markup {
    Markup::text(&number(x))
}

fn int(x: u64) -> Markup {
    Markup::text(&x.to_string())
}

fn pct(x: f64) -> String {
    format!("{}%", number(100.0 * x))
}

fn opt(x: Option<f64>) -> Markup {
    x.map_or_else(|| Markup::text("–"), num)
}

/// The page.
pub fn render(r: &ReleaseReport) -> String {
    let title = format!("Release report: {} / job {}", r.dataset.name, r.job.id);
    let mut page = Page::new(&title);
    page.paragraph(Markup::concat([
        Markup::text("Audience: "),
        Markup::code(match r.audience {
            Audience::Internal => "internal",
            Audience::External => "external",
        }),
        Markup::text(match r.audience {
            Audience::Internal => {
                " — for the data owner: lists the riskiest QI combinations with their values. \
                 Do not publish it; publish the external report."
            }
            Audience::External => {
                " — for publication beside the data: no QI value of a risky record."
            }
        }),
    ]));
    summary(&mut page, r);
    dataset(&mut page, r);
    if let Some(f) = &r.failure {
        failure(&mut page, f);
    }
    risk(&mut page, r);
    attacker(&mut page, r);
    groups(&mut page, r);
    sensitive(&mut page, r);
    utility(&mut page, r);
    warnings(&mut page, r);
    if let Some(risky) = &r.riskiest {
        riskiest(&mut page, risky);
    }
    page.finish()
}

fn summary(page: &mut Page, r: &ReleaseReport) {
    page.section("release", "Release");
    let mut items = vec![
        ("Job", Markup::code(&r.job.id)),
        ("Status", Markup::text(&r.job.status)),
        ("Created", Markup::text(&r.job.created_at.to_rfc3339())),
    ];
    if let Some(f) = r.job.finished_at {
        items.push(("Finished", Markup::text(&f.to_rfc3339())));
    }
    if let Some(rel) = &r.release {
        items.push((
            "SHA-256 of the CSV release",
            Markup::trusted(format!(
                "<code id=\"release-sha256\">{}</code>",
                crate::html::escape(&rel.sha256)
            )),
        ));
        items.push(("CSV bytes", int(rel.bytes)));
        items.push(("Published rows", int(rel.rows)));
        items.push(("Groups", int(rel.groups)));
    }
    page.definitions(items);
    if r.release.is_some() {
        page.paragraph(
            "The hash is that of the body of GET /v1/jobs/{id}/result (CSV, without row_id): \
             check a published file against it with sha256sum.",
        );
    }
    page.heading(3, "Replayable request (POST /v1/jobs)");
    let request = serde_json::to_string_pretty(&r.job.request).unwrap_or_default();
    page.preformatted(&request);
}

fn dataset(page: &mut Page, r: &ReleaseReport) {
    let d = &r.dataset;
    page.section("dataset", "Dataset");
    let population = match d.population {
        None => Markup::text("not given (population uniqueness is not estimated)"),
        Some(crate::spec::PopulationDto::Size(n)) => Markup::text(&format!("size {n}")),
        Some(crate::spec::PopulationDto::SamplingFraction(f)) => {
            Markup::text(&format!("sampling fraction {}", number(f)))
        }
        Some(crate::spec::PopulationDto::DatasetId(id)) => {
            Markup::text(&format!("the population table {id}"))
        }
    };
    page.definitions(vec![
        ("Name", Markup::text(&d.name)),
        ("Dataset id", Markup::code(&d.id)),
        ("Rows", int(d.rows)),
        ("Rows suppressed for missing values", int(d.suppressed_rows)),
        ("SHA-256 of the upload", Markup::code(&d.sha256)),
        ("Population", population),
    ]);
    let rows = d
        .columns
        .iter()
        .map(|c| {
            vec![
                Markup::text(&c.name),
                Markup::text(role(c.role)),
                Markup::text(c.value_type.map_or("–", type_name)),
            ]
        })
        .collect();
    page.table(&["Column", "Role", "Type"], rows);
}

fn role(r: crate::spec::RoleDto) -> &'static str {
    use crate::spec::RoleDto::*;
    match r {
        Identifier => "identifier (dropped)",
        QuasiIdentifier => "quasi-identifier (generalized)",
        Sensitive => "sensitive (published as is)",
        Insensitive => "insensitive (published as is)",
    }
}

fn type_name(t: crate::spec::TypeDto) -> &'static str {
    use crate::spec::TypeDto::*;
    match t {
        Numeric => "numeric",
        Categorical => "categorical",
        Date => "date",
    }
}

fn failure(page: &mut Page, f: &Failure) {
    page.section("failure", "Why the job failed");
    page.callout(
        Callout::Failure,
        &f.code,
        Markup::concat([
            Markup::text(&f.message),
            Markup::text(" Nothing was published."),
        ]),
    );
    if !f.details.is_null() {
        page.heading(3, "Diagnostics");
        page.preformatted(&serde_json::to_string_pretty(&f.details).unwrap_or_default());
    }
    match &f.deliverable {
        Some(d) => {
            page.heading(3, "What the service delivers for sure on this table");
            page.paragraph(
                "The feasibility answer for this model (POST /v1/datasets/{id}/feasibility): \
                 `deliverable` succeeds without suppression; between it and the per-group bound \
                 a job may succeed or fail; a suppression_limit can close the gap. \
                 `minimum_suppression` is a lower bound: no release at the job's parameters \
                 leaves out fewer rows.",
            );
            page.preformatted(&serde_json::to_string_pretty(d).unwrap_or_default());
        }
        None => {
            // k-anonymity and l-diversity name the largest value the whole
            // table reaches in their diagnostics: that is what is delivered.
            let reachable = ["max_k", "max_l"]
                .into_iter()
                .find_map(|key| Some((key, f.details.get(key)?)));
            match reachable {
                Some((key, v)) => page.paragraph(format!(
                    "What the service delivers for sure on this table: {} = {v} (the whole \
                     table as one group reaches it); ask for at most that, or allow a \
                     suppression_limit.",
                    &key[4..]
                )),
                None => page.paragraph(
                    "This model has no feasibility question; relax its parameters or allow a \
                     suppression_limit.",
                ),
            };
        }
    }
}

fn risk(page: &mut Page, r: &ReleaseReport) {
    page.section("risk", "Re-identification risk");
    page.paragraph(
        "Before: classes of identical QI values in the uploaded table. After: in the \
         attacker's view, a record's class is its candidate set — every published row of \
         every group whose labels cover its QI values.",
    );
    let b = &r.risk.before;
    let a = r.risk.after.as_ref();
    let row = |name: &str, f: &dyn Fn(&RiskFigures) -> Markup| {
        vec![
            Markup::text(name),
            f(b),
            a.map_or_else(|| Markup::text("–"), f),
        ]
    };
    let uniq = |x: &RiskFigures| {
        x.population_uniqueness
            .as_ref()
            .map_or_else(|| Markup::text("–"), |p| Markup::text(&pct(p.share)))
    };
    let uniq_model = |x: &RiskFigures| {
        x.population_uniqueness.as_ref().map_or_else(
            || Markup::text("–"),
            |p| Markup::text(p.model.as_deref().unwrap_or(&p.rule)),
        )
    };
    let rows = vec![
        row("Records", &|x| int(x.records)),
        row("Equivalence classes", &|x| int(x.classes)),
        row("Smallest class", &|x| int(x.min_class_size)),
        row("Prosecutor risk, highest", &|x| num(x.prosecutor_max)),
        row("Prosecutor risk, average", &|x| num(x.prosecutor_average)),
        row("Records at the highest risk", &|x| int(x.records_at_max)),
        row("Journalist risk, highest", &|x| num(x.journalist_max)),
        row("Marketer risk", &|x| num(x.marketer)),
        row("Sample uniques", &|x| int(x.sample_uniques)),
        row("Sample uniques, share", &|x| {
            Markup::text(&pct(x.sample_uniques_share))
        }),
        row("Population uniques, share", &uniq),
        row("Population model (Dankar's rule)", &uniq_model),
    ];
    // Counted in the population table, when the dataset names one.
    let table_rows: Vec<Vec<Markup>> = if b.population_table.is_some() {
        let pt = |f: fn(&crate::report::content::PopulationTableRisk) -> Markup| {
            move |x: &RiskFigures| {
                x.population_table
                    .as_ref()
                    .map_or_else(|| Markup::text("–"), f)
            }
        };
        vec![
            row("Population table, records", &pt(|p| int(p.population_rows))),
            row(
                "Fewest population records a class covers (k-map)",
                &pt(|p| int(p.min_population_count)),
            ),
            row(
                "Journalist risk (population table), average",
                &pt(|p| num(p.journalist_average)),
            ),
            row(
                "Records at the highest journalist risk",
                &pt(|p| int(p.records_at_max)),
            ),
            row(
                "Records unique in the population table",
                &pt(|p| int(p.population_uniques)),
            ),
        ]
    } else {
        Vec::new()
    };
    let rows = rows.into_iter().chain(table_rows).collect::<Vec<_>>();
    let mut rows = rows;
    // The population figures behind the share, as the JSON gives them:
    // only when the dataset says what it is a sample of.
    if b.population_uniqueness.is_some() {
        let pu = |f: fn(&PopulationUniqueness) -> Markup| {
            move |x: &RiskFigures| {
                x.population_uniqueness
                    .as_ref()
                    .map_or_else(|| Markup::text("–"), f)
            }
        };
        rows.extend([
            row("Population size N", &pu(|p| num(p.population_size))),
            row("Sampling fraction π", &pu(|p| num(p.sampling_fraction))),
            row("Population uniques, expected", &pu(|p| num(p.uniques))),
            row("Pitman estimate", &pu(|p| opt(p.pitman))),
            row("Zayatz estimate", &pu(|p| opt(p.zayatz))),
            row("SNB estimate", &pu(|p| opt(p.snb))),
        ]);
    }
    page.table_aligned(&["Measure", "Before", "After"], &[false, true, true], rows);
    let explained = [("Before", Some(b)), ("After", a)]
        .into_iter()
        .filter_map(|(when, x)| Some((when, x?.population_uniqueness.as_ref()?)))
        .map(|(when, p)| {
            (
                when,
                Markup::text(&format!("{} ({})", p.explanation, p.rule)),
            )
        })
        .collect::<Vec<_>>();
    if !explained.is_empty() {
        page.paragraph(
            "Dankar's rule picks the population-uniqueness model from the sampling fraction \
             and the estimates (docs/risk-measures.md):",
        );
        page.definitions(explained);
    }
    let categories = [
        "prosecutor max",
        "prosecutor avg",
        "journalist max",
        "marketer",
        "uniques share",
    ]
    .map(String::from)
    .to_vec();
    let values = |x: &RiskFigures| {
        vec![
            x.prosecutor_max,
            x.prosecutor_average,
            x.journalist_max,
            x.marketer,
            x.sample_uniques_share,
        ]
    };
    let mut series = vec![Series {
        name: "before".into(),
        values: values(b),
    }];
    if let Some(a) = a {
        series.push(Series {
            name: "after".into(),
            values: values(a),
        });
    }
    page.raw(
        BarChart {
            title: "Re-identification risk before and after".into(),
            x_label: "measure".into(),
            y_label: "probability / share".into(),
            categories,
            series,
        }
        .render(),
    );
}

fn attacker(page: &mut Page, r: &ReleaseReport) {
    let Some(av) = &r.attacker_view else {
        return;
    };
    page.section("attacker-view", "The model in the attacker's view");
    let c = &av.model_check;
    let verdicts = av
        .checks
        .iter()
        .map(|v| {
            vec![
                Markup::text(&v.kind),
                Markup::span(
                    if v.passed { "ok" } else { "bad" },
                    if v.passed { "passed" } else { "failed" },
                ),
            ]
        })
        .collect();
    page.table(&["Check (job audit)", "Attacker's view"], verdicts);
    if let Some(f) = &c.attacker {
        page.definitions(vec![
            ("Check", Markup::code(&c.kind)),
            ("Parameters", Markup::code(&c.params.to_string())),
            ("Figures", Markup::code(&c.value.to_string())),
            ("Victims", int(f.victims)),
            ("Victims over the bound", int(f.over_bound)),
            ("Worst victim's figure", opt(f.worst)),
            (
                "Candidate groups per victim (median / max)",
                Markup::text(&format!(
                    "{} / {}",
                    f.candidate_groups.median, f.candidate_groups.max
                )),
            ),
        ]);
        let categories = f
            .distribution
            .iter()
            .map(|(edge, _)| format!("≤ {}", number(*edge)))
            .collect();
        page.raw(
            BarChart {
                title: format!("Victims by their {} figure", c.kind),
                x_label: "figure (bucket upper edge)".into(),
                y_label: "victims".into(),
                categories,
                series: vec![Series {
                    name: "victims".into(),
                    values: f.distribution.iter().map(|&(_, n)| n as f64).collect(),
                }],
            }
            .render(),
        );
    }
}

fn groups(page: &mut Page, r: &ReleaseReport) {
    if r.group_sizes.is_empty() {
        return;
    }
    page.section("group-sizes", "Group sizes");
    let categories = r
        .group_sizes
        .iter()
        .map(|b| {
            if b.min_size == b.max_size {
                b.min_size.to_string()
            } else {
                format!("{}–{}", b.min_size, b.max_size)
            }
        })
        .collect();
    page.raw(
        BarChart {
            title: "Groups by size (Google DLP buckets)".into(),
            x_label: "group size".into(),
            y_label: "groups".into(),
            categories,
            series: vec![Series {
                name: "groups".into(),
                values: r.group_sizes.iter().map(|b| b.groups as f64).collect(),
            }],
        }
        .render(),
    );
    let rows = r
        .group_sizes
        .iter()
        .map(|b| vec![int(b.min_size), int(b.max_size), int(b.groups), int(b.rows)])
        .collect();
    page.table_aligned(
        &["From size", "To size", "Groups", "Rows"],
        &[true; 4],
        rows,
    );
}

fn sensitive(page: &mut Page, r: &ReleaseReport) {
    if r.sensitive.is_empty() {
        return;
    }
    page.section(
        "sensitive",
        "Sensitive attribute: table vs the riskiest groups",
    );
    for d in &r.sensitive {
        page.paragraph(format!(
            "{}: the published table beside the {} riskiest groups of the model's check \
             ({} rows).",
            d.column, d.riskiest_groups, d.riskiest_rows
        ));
        page.raw(
            BarChart {
                title: format!("{}: share of rows", d.column),
                x_label: d.column.clone(),
                y_label: "share of rows".into(),
                categories: d.categories.clone(),
                series: vec![
                    Series {
                        name: "whole table".into(),
                        values: d.table.clone(),
                    },
                    Series {
                        name: "riskiest groups".into(),
                        values: d.riskiest.clone(),
                    },
                ],
            }
            .render(),
        );
    }
}

fn utility(page: &mut Page, r: &ReleaseReport) {
    let Some(u) = &r.utility else {
        return;
    };
    page.section("utility", "Utility");
    page.definitions(vec![
        (
            "GCP (0 = as uploaded, 1 = all generalized away)",
            num(u.gcp),
        ),
        (
            "Rows suppressed for missing values",
            int(u.suppressed.missing_values),
        ),
        ("Rows suppressed by the model", int(u.suppressed.model)),
    ]);
    page.paragraph(suppressed_counts(&u.suppressed));
    page.raw(
        BarChart {
            title: "Information loss per QI (NCP)".into(),
            x_label: "quasi-identifier".into(),
            y_label: "NCP".into(),
            categories: u.per_qi.iter().map(|q| q.column.clone()).collect(),
            series: vec![Series {
                name: "NCP".into(),
                values: u.per_qi.iter().map(|q| q.ncp).collect(),
            }],
        }
        .render(),
    );
    let rows = u
        .query_error
        .iter()
        .map(|e| {
            vec![
                int(e.q),
                int(e.sa_predicates),
                num(e.selectivity),
                int(e.queries_used),
                e.mean
                    .map_or_else(|| Markup::text("–"), |m| Markup::text(&pct(m))),
                e.median
                    .map_or_else(|| Markup::text("–"), |m| Markup::text(&pct(m))),
            ]
        })
        .collect();
    page.heading(3, "Count-query error");
    page.paragraph(
        "1,000 random count queries over q QIs and the SA (one SA column, or two of a \
         composite SA), each predicate covering s^(1/(q + SA predicates)) of its domain \
         (fixed seed), answered on the release assuming values uniform inside each group's \
         box; relative error against the true count on the original table (rows the model \
         left out included: they count in the truth and not in the estimate), over the \
         queries whose true count is not 0. The mean is the papers' figure; the median is \
         shown beside it because a few queries on rare values can dominate the mean.",
    );
    page.table_aligned(
        &[
            "q (QIs)",
            "SA predicates",
            "Selectivity",
            "Queries counted",
            "Mean error",
            "Median error",
        ],
        &[true; 6],
        rows,
    );
}

/// What the rows the model left out do to counts, in one sentence.
fn suppressed_counts(s: &Suppressed) -> String {
    if s.model == 0 {
        return "The model left out no rows: counts taken from the release miss none.".into();
    }
    let share = pct(s.model_share);
    let mut text = format!(
        "The model left out {} rows, {share} of the table: every count taken from the release \
         misses them — a count over the whole table comes out {share} short, and counts over \
         the regions where they sat lose more. The count-query errors below are measured \
         against the original table, so they include that loss.",
        s.model
    );
    if let Some(least) = s.model_minimum_share {
        text.push_str(&format!(
            " Any release at these (ε, m) parameters leaves out at least {} of the rows (a lower \
             bound from the sensitive values alone); the rest is the price of this release's \
             groups, not of the data.",
            pct(least)
        ));
    }
    text
}

fn warnings(page: &mut Page, r: &ReleaseReport) {
    page.section("warnings", "Warnings");
    if r.warnings.is_empty() {
        page.paragraph("None of the computed warnings applies.");
        return;
    }
    for w in &r.warnings {
        page.callout(
            Callout::Warning,
            &format!("{} ({})", w.kind, w.column),
            Markup::text(&format!(
                "{} (measured {}, threshold {})",
                w.message,
                number(w.value),
                number(w.threshold)
            )),
        );
    }
}

fn riskiest(page: &mut Page, risky: &Riskiest) {
    page.section("riskiest", "Riskiest records (internal only)");
    let head: Vec<&str> = risky.columns.iter().map(String::as_str).collect();
    page.heading(3, "Smallest classes of the uploaded table");
    let mut h = head.clone();
    h.push("Class size");
    let rows = risky
        .before
        .iter()
        .map(|c| {
            let mut row: Vec<Markup> = c.values.iter().map(|v| Markup::text(v)).collect();
            row.push(int(c.class_size));
            row
        })
        .collect();
    page.table(&h, rows);
    if risky.after.is_empty() {
        return;
    }
    page.heading(3, "Groups of the release with the fewest candidates");
    let mut h = vec!["Group"];
    h.extend(head.iter().copied());
    h.extend(["Size", "Candidates", "Prosecutor risk"]);
    let rows = risky
        .after
        .iter()
        .map(|g| {
            let mut row = vec![Markup::text(&g.group_id)];
            row.extend(g.labels.iter().map(|v| Markup::text(v)));
            row.extend([int(g.size), int(g.candidates), num(g.prosecutor)]);
            row
        })
        .collect();
    page.table(&h, rows);
}
