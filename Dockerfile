# syntax=docker/dockerfile:1
# Proxima: a release build in the Rust image, run from a slim Debian image
# as an unprivileged user. The SQL migrations are compiled into the binary
# (sqlx::migrate!), so the runtime image holds the binary and nothing else
# of the source tree. Needs BuildKit (the default builder) for the caches.

FROM rust:1-bookworm AS builder
WORKDIR /src
# The context holds .sqlx/ and .cargo/config.toml: the query macros check
# the SQL against the committed offline data, so the build needs no
# database (docs/testing.md §SQL checked at compile time).
COPY . .
ENV SQLX_OFFLINE=true
# The registry and target caches survive rebuilds; the binary is copied out
# of the cached target directory because cache mounts are not in the image.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked --bin proxima \
    && install -m 0755 target/release/proxima /usr/local/bin/proxima

FROM debian:bookworm-slim
# ca-certificates: TLS to a managed PostgreSQL; curl: the HEALTHCHECK.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/proxima \
       --create-home --shell /usr/sbin/nologin proxima
COPY --from=builder /usr/local/bin/proxima /usr/local/bin/proxima
USER proxima
WORKDIR /var/lib/proxima
# Listen on every interface inside the container (the binary's own default
# is loopback). Set as the env twin of --bind so it can be overridden.
ENV PROXIMA_BIND=0.0.0.0:8080 \
    PROXIMA_LOG_FORMAT=json \
    PROXIMA_DATA_DIR=/var/lib/proxima/data
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["proxima"]
CMD ["serve"]
