-- Risk–utility sweeps (API.md §Sweeps): one request, a grid of jobs. Each
-- point that can run is an ordinary job row carrying its sweep and its
-- point's index, so results, audits and reports work per point; the sweep
-- row keeps what no job holds (the request as sent, each point's
-- parameters, and the points refused as infeasible).

CREATE TABLE sweeps (
    id                uuid PRIMARY KEY,
    tenant            text NOT NULL,
    dataset_id        uuid NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
    -- The request as sent, lists and all.
    request           jsonb NOT NULL,
    -- One entry per point in grid order: {"params": {...}, "error": {...} | null};
    -- `error` is set for a point refused before queueing (it has no job).
    points            jsonb NOT NULL,
    cancel_requested  boolean NOT NULL DEFAULT false,
    idempotency_key   text,
    -- SHA-256 of the canonical request body, to tell a replay from a reuse.
    request_hash      text,
    created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sweeps_idempotency ON sweeps (tenant, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
CREATE INDEX sweeps_by_tenant ON sweeps (tenant, created_at DESC, id DESC);
CREATE INDEX sweeps_by_dataset ON sweeps (dataset_id);

-- A sweep's jobs go with it (and with the dataset, through either path).
ALTER TABLE jobs
    ADD COLUMN sweep_id uuid REFERENCES sweeps (id) ON DELETE CASCADE,
    ADD COLUMN sweep_point integer,
    ADD CONSTRAINT jobs_sweep_point CHECK ((sweep_id IS NULL) = (sweep_point IS NULL));
CREATE UNIQUE INDEX jobs_by_sweep ON jobs (sweep_id, sweep_point) WHERE sweep_id IS NOT NULL;
