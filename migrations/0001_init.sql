-- Proxima's storage. Every row carries its tenant, so every query can be
-- scoped by tenant (another tenant's resource is a 404, never a 403).

CREATE TABLE api_keys (
    id          uuid PRIMARY KEY,
    tenant      text NOT NULL,
    -- SHA-256 of the token; the token itself is never stored.
    key_hash    bytea NOT NULL UNIQUE,
    -- The first characters of the token, to name a key without revealing it.
    prefix      text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);

CREATE TABLE datasets (
    id               uuid PRIMARY KEY,
    tenant           text NOT NULL,
    name             text NOT NULL,
    schema           jsonb NOT NULL,
    rows             bigint NOT NULL,
    suppressed_rows  bigint NOT NULL,
    size_bytes       bigint NOT NULL,
    sha256           text NOT NULL,
    -- Per-column statistics as served in `Dataset.columns`.
    columns          jsonb NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX datasets_by_tenant ON datasets (tenant, created_at DESC, id DESC);

-- Uploaded files (the CSV and the hierarchy files), zlib-compressed and cut
-- into chunks so a large upload never needs one huge field.
CREATE TABLE dataset_chunks (
    dataset_id  uuid NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    tenant      text NOT NULL,
    -- 'data' or 'hierarchy:<column>'
    part        text NOT NULL,
    seq         integer NOT NULL,
    bytes       bytea NOT NULL,
    PRIMARY KEY (dataset_id, part, seq)
);

-- The jobs table is the queue (DESIGN §5).
CREATE TABLE jobs (
    id                uuid PRIMARY KEY,
    tenant            text NOT NULL,
    dataset_id        uuid NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    model             jsonb NOT NULL,
    algorithm         text NOT NULL,
    sensitive_metric  jsonb,
    -- API extension: XColor options.
    xcolor            jsonb,
    status            text NOT NULL
        CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
    progress          double precision NOT NULL DEFAULT 0,
    attempts          integer NOT NULL DEFAULT 0,
    max_attempts      integer NOT NULL DEFAULT 3,
    run_after         timestamptz NOT NULL DEFAULT now(),
    lease_owner       text,
    lease_expires_at  timestamptz,
    heartbeat_at      timestamptz,
    cancel_requested  boolean NOT NULL DEFAULT false,
    idempotency_key   text,
    -- SHA-256 of the canonical request body, to tell a replay from a reuse.
    request_hash      text,
    error             jsonb,
    summary           jsonb,
    created_at        timestamptz NOT NULL DEFAULT now(),
    started_at        timestamptz,
    finished_at       timestamptz,
    updated_at        timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX jobs_idempotency ON jobs (tenant, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX jobs_claimable ON jobs (run_after, created_at) WHERE status = 'queued';
CREATE INDEX jobs_leased ON jobs (lease_expires_at) WHERE status = 'running';
CREATE INDEX jobs_by_tenant ON jobs (tenant, created_at DESC, id DESC);
CREATE INDEX jobs_by_dataset ON jobs (dataset_id);

-- A job's release, stored compactly (row → group) and rendered on download
-- from the dataset (the generalizations are recomputed, not stored).
CREATE TABLE job_results (
    job_id           uuid PRIMARY KEY REFERENCES jobs (id) ON DELETE CASCADE,
    tenant           text NOT NULL,
    rows             bigint NOT NULL,
    groups           bigint NOT NULL,
    -- zlib of one little-endian u32 group index per table row.
    group_of_rows    bytea NOT NULL,
    audit            jsonb NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
