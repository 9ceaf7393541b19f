-- The share of rows a job may leave out to satisfy its model in the
-- attacker's view (API.md §Jobs, `suppression_limit`; ARX's convention).
ALTER TABLE jobs
    ADD COLUMN suppression_limit DOUBLE PRECISION NOT NULL DEFAULT 0
        CHECK (suppression_limit >= 0 AND suppression_limit < 1);
