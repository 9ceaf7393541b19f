//! The release report as one self-contained HTML page (`crate::html`): the
//! same content as the JSON form, in reading order, with inline SVG charts.
//! Every text from the table or the request goes through `Markup`'s
//! escaping constructors.

use crate::html::svg::{number, BarChart, Series};
use crate::html::{Callout, Markup, Page};

use super::content::*;
use super::words;

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
    super::sign_off::verdict(&mut page, r);
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
    combinations(&mut page, r);
    if let Some(risky) = &r.riskiest {
        riskiest(&mut page, risky);
    }
    super::sign_off::approvals(&mut page, r);
    glossary(&mut page);
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
    page.paragraph(Markup::concat([
        Markup::text("Model asked for: "),
        Markup::text(&model_in_words(
            &serde_json::to_value(&r.job.request).unwrap_or_default(),
        )),
        Markup::text("."),
    ]));
    page.heading(3, "Replayable request (POST /v1/jobs)");
    page.paragraph(
        "The request below is not a figure: it is the body to post to POST /v1/jobs on the same \
         dataset to get this release again, byte for byte.",
    );
    let request = serde_json::to_string_pretty(&r.job.request).unwrap_or_default();
    page.preformatted(&request);
}

/// The job's model and its parameters in words: "(ε,δ)^k-dissimilarity
/// (XColor) with ε = 0.02, δ = 0.5, k = 10".
fn model_in_words(request: &serde_json::Value) -> String {
    let model = &request["model"];
    let kind = model["kind"].as_str().unwrap_or("unknown");
    let mut params = model.clone();
    if let Some(map) = params.as_object_mut() {
        map.remove("kind");
    }
    let params = words::value_text(&params);
    let mut text = if params.is_empty() || params == "–" {
        words::model_name(kind)
    } else {
        format!("{} with {params}", words::model_name(kind))
    };
    if let Some(limit) = request.get("suppression_limit").and_then(|v| v.as_f64()) {
        text.push_str(&format!(", up to {} of the rows left out", pct(limit)));
    }
    text
}

fn dataset(page: &mut Page, r: &ReleaseReport) {
    let d = &r.dataset;
    page.section("dataset", "Dataset");
    let population = match d.population {
        None => Markup::text("not given (population uniqueness is not estimated)"),
        Some(crate::api::PopulationDto::Size(n)) => Markup::text(&format!("size {n}")),
        Some(crate::api::PopulationDto::SamplingFraction(f)) => {
            Markup::text(&format!("sampling fraction {}", number(f)))
        }
        Some(crate::api::PopulationDto::DatasetId(id)) => {
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

fn role(r: crate::api::RoleDto) -> &'static str {
    use crate::api::RoleDto::*;
    match r {
        Identifier => "identifier (dropped)",
        QuasiIdentifier => "quasi-identifier (generalized)",
        Sensitive => "sensitive (published as is)",
        Insensitive => "insensitive (published as is)",
    }
}

fn type_name(t: crate::api::TypeDto) -> &'static str {
    use crate::api::TypeDto::*;
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
        Markup::text(&failure_text(&f.message)),
    );
    let diagnostics = words::facts(&f.details);
    if !diagnostics.is_empty() {
        page.heading(3, "Diagnostics");
        facts_table(page, diagnostics);
    }
    match &f.deliverable {
        Some(d) => {
            page.heading(3, "What the service delivers for sure on this table");
            page.paragraph(
                "The feasibility answer for this model (POST /v1/datasets/{id}/feasibility). \
                 \"Delivered for sure\" succeeds without leaving rows out; the theorem's bound \
                 is an upper bound judged group by group: between the two a job may succeed \
                 or fail, and a suppression_limit can close the gap. The minimum suppression \
                 is a lower bound: no release at the job's parameters leaves out fewer rows.",
            );
            let answer = serde_json::to_value(d).unwrap_or_default();
            facts_table(page, feasibility_facts(&answer));
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

/// The job's message, ending with the one sentence that nothing was
/// published — unless the message says so already.
fn failure_text(message: &str) -> String {
    let message = message.trim_end();
    if message.to_lowercase().contains("nothing was published") {
        let mut text = message.to_owned();
        if !text.ends_with('.') {
            text.push('.');
        }
        text
    } else {
        let sep = if message.ends_with('.') || message.is_empty() {
            ""
        } else {
            "."
        };
        format!("{message}{sep} Nothing was published.")
            .trim_start()
            .to_owned()
    }
}

/// Name / value / meaning rows.
fn facts_table(page: &mut Page, facts: Vec<(String, String, Option<&'static str>)>) {
    let rows = facts
        .into_iter()
        .map(|(name, value, meaning)| {
            vec![
                Markup::text(&name),
                Markup::text(&value),
                Markup::text(meaning.unwrap_or("")),
            ]
        })
        .collect();
    // Values here may be text (the feasibility pairs): left-aligned, free
    // to wrap.
    page.table(&["Figure", "Value", "What it means"], rows);
}

/// A feasibility answer's figures in words: the theorem's bound, what is
/// delivered for sure and the minimum suppression, each explained.
fn feasibility_facts(answer: &serde_json::Value) -> Vec<(String, String, Option<&'static str>)> {
    let mut rows = Vec::new();
    let get = |k: &str| answer.get(k).filter(|v| !v.is_null());
    if let Some(v) = get("max_m") {
        rows.push((
            "largest m (Theorem 1)".into(),
            words::value_text(v),
            Some("an upper bound judged group by group: no release at this ε reaches a larger m"),
        ));
    }
    if let Some(v) = get("max_epsilon_exclusive") {
        rows.push((
            "ε bound (Theorem 2)".into(),
            format!("below {}", words::value_text(v)),
            Some("an upper bound judged group by group: every ε below it may reach m"),
        ));
    }
    if let Some(v) = get("max_degree") {
        rows.push((
            "most neighbours of one SA value (Θ)".into(),
            words::value_text(v),
            Some("the largest number of other rows whose SA value is within ε of one row's; larger makes (ε,δ)^k harder"),
        ));
    }
    if let Some(v) = get("guaranteed") {
        rows.push((
            "guaranteed per group (Theorem 3)".into(),
            pairs_text(v),
            Some("(k, δ) pairs the theorem guarantees for partitions judged group by group"),
        ));
    }
    if let Some(v) = get("deliverable") {
        let text = if v.is_array() {
            pairs_text(v)
        } else {
            words::value_text(v)
        };
        rows.push((
            "delivered for sure".into(),
            text,
            Some("what the service delivers on this table in the attacker's view, without leaving rows out"),
        ));
    }
    if let Some(v) = get("minimum_suppression") {
        rows.push((
            "minimum suppression".into(),
            format!(
                "{} rows ({} of the table) at m = {}",
                words::value_text(&v["rows"]),
                v["share"].as_f64().map_or_else(|| "–".into(), pct),
                words::value_text(&v["m"])
            ),
            Some("a lower bound: every release at the job's (ε, m) leaves out at least this"),
        ));
    }
    rows
}

/// `[{"k": 10, "max_delta": 0.87}, …]` as "k = 10: δ ≤ 0.87; …".
fn pairs_text(v: &serde_json::Value) -> String {
    let pairs: Vec<String> = v
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            format!(
                "k = {}: δ ≤ {}",
                words::value_text(&p["k"]),
                words::value_text(&p["max_delta"])
            )
        })
        .collect();
    if pairs.is_empty() {
        "none".into()
    } else {
        pairs.join("; ")
    }
}

fn risk(page: &mut Page, r: &ReleaseReport) {
    page.section("risk", "Re-identification risk");
    page.paragraph(
        "Quasi-identifiers (QIs) are the columns an attacker can know from elsewhere (age, \
         sex, place …); records with the same QI values form an equivalence class, which \
         the attacker cannot tell apart. Before: classes of identical QI values in the \
         uploaded table. After: in the attacker's view, a record's class is its candidate \
         set — every published row of every group whose labels cover its QI values. Risks \
         are probabilities from 0 to 1: lower is safer.",
    );
    let b = &r.risk.before;
    let a = r.risk.after.as_ref();
    let row = |name: &str, f: &dyn Fn(&RiskFigures) -> Markup, meaning: &str| {
        vec![
            Markup::text(name),
            f(b),
            a.map_or_else(|| Markup::text("–"), f),
            Markup::text(meaning),
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
        row(
            "Records",
            &|x| int(x.records),
            "records an attacker can target",
        ),
        row(
            "Equivalence classes",
            &|x| int(x.classes),
            "sets of records the attacker cannot tell apart; fewer, larger classes are safer",
        ),
        row(
            "Smallest class",
            &|x| int(x.min_class_size),
            "the fewest records one person can be narrowed down to; higher is safer \
             (it is the k of k-anonymity)",
        ),
        row(
            "Prosecutor risk, highest",
            &|x| num(x.prosecutor_max),
            "1 / smallest class: the chance of re-identifying a record the attacker knows \
             is in the table; lower is safer (0.1 or less is a common publication threshold)",
        ),
        row(
            "Prosecutor risk, average",
            &|x| num(x.prosecutor_average),
            "the same chance averaged over all records; lower is safer",
        ),
        row(
            "Records at the highest risk",
            &|x| int(x.records_at_max),
            "records in the smallest classes; fewer is better",
        ),
        row(
            "Journalist risk, highest",
            &|x| num(x.journalist_max),
            "the attacker does not know whether the person is in the table; at most the \
             prosecutor risk",
        ),
        row(
            "Marketer risk",
            &|x| num(x.marketer),
            "the share of all records expected to be re-identified if every one is \
             attacked; lower is safer",
        ),
        row(
            "Sample uniques",
            &|x| int(x.sample_uniques),
            "records alone in their class, re-identified for sure by a prosecutor; 0 is \
             the goal",
        ),
        row(
            "Sample uniques, share",
            &|x| Markup::text(&pct(x.sample_uniques_share)),
            "the same as a share of the records; 0% is the goal",
        ),
        row(
            "Population uniques, share",
            &uniq,
            "estimated share of the population that is unique on the QIs and in the \
             table (needs the population size); lower is safer",
        ),
        row(
            "Population model (Dankar's rule)",
            &uniq_model,
            "the estimator the rule of Dankar et al. (2012) picked for the line above, \
             from the sampling fraction: Pitman, Zayatz or SNB",
        ),
    ];
    // Counted in the population table, when the dataset names one.
    let table_rows: Vec<Vec<Markup>> = if b.population_table.is_some() {
        let pt = |f: fn(&crate::release_report::content::PopulationTableRisk) -> Markup| {
            move |x: &RiskFigures| {
                x.population_table
                    .as_ref()
                    .map_or_else(|| Markup::text("–"), f)
            }
        };
        vec![
            row(
                "Population table, records",
                &pt(|p| int(p.population_rows)),
                "the people of the population table the dataset names",
            ),
            row(
                "Fewest population records a class covers (k-map)",
                &pt(|p| int(p.min_population_count)),
                "people of the population a class's labels cover, at the fewest: higher is safer",
            ),
            row(
                "Journalist risk (population table), average",
                &pt(|p| num(p.journalist_average)),
                "1 / the people a record's class covers, averaged: the chance an attacker who \
                 does not know who is in the table picks the right person; lower is safer",
            ),
            row(
                "Records at the highest journalist risk",
                &pt(|p| int(p.records_at_max)),
                "records whose class covers the fewest people of the population",
            ),
            row(
                "Records unique in the population table",
                &pt(|p| int(p.population_uniques)),
                "records whose labels cover one person of the population: re-identified by \
                 anyone holding the population table",
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
            row(
                "Population size N",
                &pu(|p| num(p.population_size)),
                "the people the table is a sample of",
            ),
            row(
                "Sampling fraction π",
                &pu(|p| num(p.sampling_fraction)),
                "published records / N",
            ),
            row(
                "Population uniques, expected",
                &pu(|p| num(p.uniques)),
                "people expected to be unique in the population on the QIs; lower is safer",
            ),
            row(
                "Pitman estimate",
                &pu(|p| opt(p.pitman)),
                "population uniques by the Pitman model (good at small sampling fractions)",
            ),
            row(
                "Zayatz estimate",
                &pu(|p| opt(p.zayatz)),
                "population uniques by Zayatz's model",
            ),
            row(
                "SNB estimate",
                &pu(|p| opt(p.snb)),
                "population uniques by the slide negative binomial model",
            ),
        ]);
    }
    page.table_aligned(
        &["Measure", "Before", "After", "What it means"],
        &[false, true, true, false],
        rows,
    );
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
            "Dankar's rule (Dankar, El Emam et al., 2012) picks the population-uniqueness \
             model from the sampling fraction and the estimates (docs/risk-measures.md):",
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
    page.paragraph(
        "Each published row is a victim: an attacker who knows the victim's QI values sees \
         every published row of every group whose labels cover them (the candidates) and \
         reads the sensitive attribute (SA) off those rows. A check passes when every \
         victim's candidates meet the model's bound.",
    );
    let c = &av.model_check;
    let verdicts = av
        .checks
        .iter()
        .map(|v| {
            vec![
                Markup::text(&words::model_name(&v.kind)),
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
            ("Check", Markup::text(&words::model_name(&c.kind))),
            ("Parameters", Markup::text(&words::value_text(&c.params))),
        ]);
        let mut rows: Vec<Vec<Markup>> = words::facts(&c.value)
            .into_iter()
            .map(|(name, value, meaning)| {
                vec![
                    Markup::text(&name),
                    Markup::text(&value),
                    Markup::text(meaning.unwrap_or("")),
                ]
            })
            .collect();
        rows.extend([
            vec![
                Markup::text("victims"),
                int(f.victims),
                Markup::text("published rows judged, each as a possible target"),
            ],
            vec![
                Markup::text("victims over the bound"),
                int(f.over_bound),
                Markup::text("victims whose candidates break the model; 0 passes"),
            ],
            vec![
                Markup::text("worst victim's figure"),
                opt(f.worst),
                Markup::text("the figure of the most exposed victim"),
            ],
            vec![
                Markup::text("candidate groups per victim (median / max)"),
                Markup::text(&format!(
                    "{} / {}",
                    f.candidate_groups.median, f.candidate_groups.max
                )),
                Markup::text(
                    "how many groups' labels cover a victim; 1 means the groups do not overlap",
                ),
            ],
        ]);
        page.table_aligned(
            &["Figure", "Value", "What it means"],
            &[false, true, false],
            rows,
        );
        let categories = f
            .distribution
            .iter()
            .map(|(edge, _)| format!("≤ {}", number(*edge)))
            .collect();
        page.paragraph(
            "The chart counts victims by their figure: the bar under \"≤ x\" counts the \
             victims whose figure is at most x and above the bar before it. What good looks \
             like: most victims far on the safe side of the model's bound (below it for a \
             risk or a distance, above it for a size or an l).",
        );
        page.raw(
            BarChart {
                title: format!("Victims by their {} figure", words::model_name(&c.kind)),
                x_label: "the victim's figure, up to".into(),
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
    page.paragraph(
        "How many rows each published group holds, in Google DLP's buckets (1 to 10 each on \
         their own, then 11–100, 101–1000, …; each bucket shows the smallest and largest sizes \
         in it). Larger groups hide their rows better and lose more detail; no group below \
         the model's k is what good looks like.",
    );
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
            title: "Groups by size".into(),
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
            "{}: the share of rows per value in the published table beside the same shares in \
             the {} riskiest groups of the model's check ({} rows). Bars of similar height are \
             what good looks like: where the riskiest groups' bars differ much from the \
             table's, an attacker learns the SA of their rows.",
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
    let rows = vec![
        vec![
            Markup::text("GCP (global certainty penalty)"),
            num(u.gcp),
            Markup::text(
                "how much detail the QIs lost, from 0 (published as uploaded) to 1 (every \
                 value generalized away); lower is better, below 0.2 keeps most detail",
            ),
        ],
        vec![
            Markup::text("Rows suppressed for missing values"),
            int(u.suppressed.missing_values),
            Markup::text("rows with a missing QI or SA value, left out before the model ran"),
        ],
        vec![
            Markup::text("Rows suppressed by the model"),
            int(u.suppressed.model),
            Markup::text(
                "rows the model left out to meet its bound (within the job's \
                 suppression_limit); fewer is better",
            ),
        ],
    ];
    page.table_aligned(
        &["Figure", "Value", "What it means"],
        &[false, true, false],
        rows,
    );
    page.paragraph(suppressed_counts(&u.suppressed));
    page.paragraph(
        "The chart shows the normalized certainty penalty (NCP) of each QI: for a number, \
         the width of its published range over the column's range; for a category, the \
         share of the hierarchy's leaves its label covers. 0 is published as uploaded, 1 \
         generalized away; GCP is their mean.",
    );
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
    page.heading(3, "Count-query error");
    page.paragraph(query_error_text());
    let rows = u
        .query_error
        .iter()
        .map(|e| {
            vec![
                int(e.q),
                int(e.sa_predicates),
                int(e.queries_used),
                e.median
                    .map_or_else(|| Markup::text("–"), |m| Markup::text(&pct(m))),
                e.mean
                    .map_or_else(|| Markup::text("–"), |m| Markup::text(&pct(m))),
            ]
        })
        .collect();
    page.table_aligned(
        &[
            "QIs per query (q)",
            "SA predicates",
            "Queries counted",
            "Median error",
            "Mean error",
        ],
        &[true; 5],
        rows,
    );
}

/// How to read the count-query errors: the workload, the unit, and why
/// the median comes first.
pub fn query_error_text() -> String {
    format!(
        "What it is: {queries} random count queries (\"how many records have age in 30–40, \
         sex in …, and income in …?\") over q QIs and the SA, each selecting about {s} of \
         the table (seed {seed}, the same queries in the release report, the sweeps and \
         the bench), answered on the release assuming values spread evenly inside each \
         group, and compared with the true count on the original table (rows the model left \
         out count in the truth and not in the answer). The error of a query is |true − \
         answer| / true, in percent (100% = off by the whole true count), over the queries \
         whose true count is not 0. What good looks like: a median below 10% answers most \
         queries usefully. The median comes first: the mean is dominated by rare queries — a \
         query whose true count is 1 and whose answer is 20 has an error of 1900% — so a \
         handful of them can make the mean large while most queries are answered well.",
        queries = super::utility::QUERIES,
        s = pct(super::utility::SELECTIVITY),
        seed = super::utility::SEED,
    )
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
    page.paragraph(
        "Each warning is measured on the data and shown only when it crosses its threshold; \
         read it before publishing: it names what the model does not cover.",
    );
    for (i, w) in r.warnings.iter().enumerate() {
        page.callout_with_id(
            &super::verdict::warning_anchor(i + 1),
            Callout::Warning,
            &format!(
                "Warning {}: {} ({})",
                i + 1,
                warning_name(&w.kind),
                w.column
            ),
            Markup::text(&format!(
                "{} (measured {}, warned at {}). {}",
                w.message,
                number(w.value),
                number(w.threshold),
                warning_meaning(&w.kind)
            )),
        );
    }
}

fn warning_name(kind: &str) -> String {
    match kind {
        "sa_association" => "A published column gives the SA away".into(),
        "fine_grained_column" => "A published column can act as a quasi-identifier".into(),
        "ungeneralized_qi" => "A QI published almost as uploaded".into(),
        "suppression_concentrated" => "Left-out rows concentrate on some values".into(),
        other => other.replace('_', " "),
    }
}

fn warning_meaning(kind: &str) -> &'static str {
    match kind {
        "sa_association" => {
            "Strength 0 means the column says nothing about the SA, 1 that it determines it \
             (η for a numeric SA, Cramér's V for a categorical one): generalize or drop the \
             column, or make it a QI."
        }
        "fine_grained_column" => {
            "It is published as is, yet splits the groups into smaller ones: list it as a QI \
             or drop it."
        }
        "ungeneralized_qi" => {
            "Its NCP is near 0 while other QIs lost much: it may carry most of the \
             re-identification power."
        }
        "suppression_concentrated" => {
            "The published table under-represents these records: counts over them are biased."
        }
        _ => "",
    }
}

/// The terms of the report spelled out once, for a reader who meets them
/// first here.
fn glossary(page: &mut Page) {
    page.section("terms", "Terms used in this report");
    page.definitions(vec![
        (
            "QI (quasi-identifier)",
            Markup::text(
                "a column an attacker may know from elsewhere (age, sex, place); QIs are \
                 generalized into ranges or broader categories",
            ),
        ),
        (
            "SA (sensitive attribute)",
            Markup::text("the column to protect (income, diagnosis); published as uploaded"),
        ),
        (
            "Group, label",
            Markup::text(
                "the release's rows come in groups; every row of a group shows the group's \
                 labels (a range or a category) instead of its own QI values",
            ),
        ),
        (
            "Attacker's view, victim, candidates",
            Markup::text(
                "a victim is a published person; the candidates are the published rows an \
                 attacker who knows the victim's QIs cannot rule out",
            ),
        ),
        (
            "Prosecutor, journalist, marketer risk",
            Markup::text(
                "the chance of re-identification for an attacker who knows the person is in \
                 the table, one who does not, and one who attacks every record",
            ),
        ),
        (
            "Dankar's rule",
            Markup::text(
                "the rule of Dankar, El Emam et al. (2012) that picks which statistical model \
                 (Pitman, Zayatz or SNB) estimates how many people are unique in the population",
            ),
        ),
        (
            "NCP, GCP",
            Markup::text(
                "normalized certainty penalty: the detail a QI lost (0 none, 1 all); global \
                 certainty penalty: the NCP averaged over QIs and rows",
            ),
        ),
        (
            "Count-query error",
            Markup::text(
                "how far counts computed from the release are from the true counts, in \
                 percent; the median is the typical query, the mean is pulled up by rare ones",
            ),
        ),
        (
            "Google DLP buckets",
            Markup::text(
                "the group-size ranges of Google's Data Loss Prevention risk analysis: 1 to 10 \
                 one by one, then 11–100, 101–1000, …",
            ),
        ),
    ]);
}

fn combinations(page: &mut Page, r: &ReleaseReport) {
    let c = &r.combinations;
    page.section(
        "combinations",
        "Records at risk through combinations of columns",
    );
    page.paragraph(format!(
        "SUDA2 (sdcMicro's suda2): minimal sample uniques — the smallest sets of column values \
         that no other record shares — of up to {} columns, with each record's SUDA score and \
         DIS-SUDA estimate (sampling fraction {}). A release is read as published: its \
         quasi-identifiers through the groups' labels.",
        c.max_size,
        number(c.dis_fraction)
    ));
    if let Some(why) = &c.skipped {
        page.paragraph(Markup::text(&format!("Not computed: {why}.")));
        return;
    }
    let head = [
        "Table",
        "Columns",
        "Records with an MSU",
        "Sample uniques",
        "MSUs by size",
        "Max SUDA score",
        "Max DIS-SUDA",
        "Columns involved (share of the score)",
    ];
    let rows = c
        .scans
        .iter()
        .map(|s| {
            let sizes: Vec<String> = s.msus_by_size.iter().map(|n| n.to_string()).collect();
            let involved: Vec<String> = s
                .columns_involved
                .iter()
                .map(|i| format!("{} {}%", i.column, number(i.percent)))
                .collect();
            vec![
                Markup::text(&s.table),
                Markup::text(&format!("{} ({})", s.columns, s.columns_scanned)),
                Markup::text(&format!("{} of {}", s.records_with_msu, s.records)),
                int(s.sample_uniques),
                Markup::text(&sizes.join(" / ")),
                num(s.max_suda_score),
                num(s.dis_suda),
                Markup::text(&involved.join(", ")),
            ]
        })
        .collect();
    page.table(&head, rows);
    for s in &c.scans {
        let Some(worst) = &s.worst else { continue };
        if worst.is_empty() {
            continue;
        }
        page.heading(
            3,
            &format!(
                "Highest-scoring records: {}, {} (internal only)",
                s.table, s.columns
            ),
        );
        let rows = worst
            .iter()
            .map(|w| {
                let msu: Vec<String> = w
                    .columns
                    .iter()
                    .zip(&w.values)
                    .map(|(c, v)| format!("{c} = {v}"))
                    .collect();
                vec![
                    int(w.record),
                    Markup::text(&msu.join(", ")),
                    num(w.score),
                    num(w.dis_suda),
                ]
            })
            .collect();
        page.table(
            &[
                "Record (data line)",
                "Smallest MSU",
                "SUDA score",
                "DIS-SUDA",
            ],
            rows,
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
