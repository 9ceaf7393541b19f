//! The container files, checked without a Docker engine: docker-compose.yml
//! parses and wires PostgreSQL (volume, healthcheck) to the service
//! (service_healthy, env names the binary reads), and the Dockerfile keeps
//! its multi-stage, non-root, healthchecked shape.

use std::collections::BTreeSet;
use std::path::Path;

use clap::CommandFactory;
use proxima::cli::Cli;
use serde_json::Value;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn compose() -> Value {
    let text = std::fs::read_to_string(root().join("docker-compose.yml")).unwrap();
    serde_norway::from_str(&text).expect("docker-compose.yml is valid YAML")
}

/// The environment variables `proxima serve` reads (clap's env twins).
fn serve_env_names() -> BTreeSet<String> {
    let cli = Cli::command();
    let serve = cli
        .get_subcommands()
        .find(|c| c.get_name() == "serve")
        .expect("a serve subcommand");
    serve
        .get_arguments()
        .filter_map(|a| a.get_env())
        .map(|e| e.to_string_lossy().into_owned())
        .collect()
}

#[test]
fn compose_wires_postgres_and_the_service() {
    let c = compose();
    let pg = &c["services"]["postgres"];
    assert!(pg["image"].as_str().unwrap().starts_with("postgres:16"));
    // A named volume for the data, declared at the top level.
    let volume = pg["volumes"][0].as_str().unwrap();
    let (name, target) = volume.split_once(':').unwrap();
    assert_eq!(target, "/var/lib/postgresql/data");
    assert!(c["volumes"].get(name).is_some(), "volume {name} undeclared");
    let test = pg["healthcheck"]["test"].to_string();
    assert!(test.contains("pg_isready"), "{test}");

    let app = &c["services"]["proxima"];
    assert_eq!(app["build"], ".");
    assert_eq!(
        app["depends_on"]["postgres"]["condition"], "service_healthy",
        "the service waits for a healthy database"
    );
    // Plain HTTP is published on loopback only (a TLS proxy fronts it).
    assert_eq!(app["ports"][0], "127.0.0.1:8080:8080");
    // The database password comes from the operator's environment: no
    // default password is written in the file.
    let pg_password = pg["environment"]["POSTGRES_PASSWORD"].as_str().unwrap();
    assert!(
        pg_password.starts_with("${POSTGRES_PASSWORD:?"),
        "{pg_password}"
    );
    let env = app["environment"].as_object().unwrap();
    let url = env["DATABASE_URL"].as_str().unwrap();
    assert!(url.contains("@postgres:5432/"), "{url}");
    assert!(url.contains(":${POSTGRES_PASSWORD:?"), "{url}");
    assert_eq!(env["PROXIMA_BIND"], "0.0.0.0:8080");
    // The bootstrap key comes from the operator's environment (required),
    // never a value written in the file.
    let key = env["PROXIMA_BOOTSTRAP_KEY"].as_str().unwrap();
    assert!(key.starts_with("${PROXIMA_BOOTSTRAP_KEY:?"), "{key}");
    // Every variable given to the service is one the binary reads.
    let known = serve_env_names();
    assert!(known.contains("DATABASE_URL") && known.contains("PROXIMA_BIND"));
    for name in env.keys() {
        assert!(
            known.contains(name),
            "{name} is not read by `proxima serve`: {known:?}"
        );
    }
}

#[test]
fn dockerfile_is_multi_stage_non_root_and_healthchecked() {
    let text = std::fs::read_to_string(root().join("Dockerfile")).unwrap();
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let from: Vec<&&str> = lines.iter().filter(|l| l.starts_with("FROM ")).collect();
    assert_eq!(from.len(), 2, "{from:?}");
    assert!(from[0].starts_with("FROM rust:1-bookworm AS builder"));
    assert_eq!(*from[1], "FROM debian:bookworm-slim");
    assert!(text.contains("cargo build --release --locked"));
    assert!(text.contains("COPY --from=builder"));
    // The last USER before the entry point is not root.
    let user = lines.iter().rev().find(|l| l.starts_with("USER ")).unwrap();
    assert!(!user.ends_with("root") && !user.ends_with(" 0"), "{user}");
    assert!(lines.contains(&"EXPOSE 8080"));
    assert!(text.contains("HEALTHCHECK") && text.contains("http://127.0.0.1:8080/healthz"));
    // The image listens on all interfaces through the env twin of --bind.
    assert!(text.contains("PROXIMA_BIND=0.0.0.0:8080"));
    assert!(serve_env_names().contains("PROXIMA_BIND"));
    assert!(lines.contains(&"CMD [\"serve\"]"));
    // The context leaves out builds, local data and history.
    let ignore = std::fs::read_to_string(root().join(".dockerignore")).unwrap();
    for entry in ["target", "data", ".git"] {
        assert!(ignore.lines().any(|l| l.trim() == entry), "{entry}");
    }
}
