-- The sign-off (API.md §"The verdict and the sign-off"): roles on keys, the
-- key that submitted each job, a release policy per tenant, approvals that
-- are never edited or deleted, and a record of every release whose job was
-- deleted (with its dataset or by retention) that keeps no data.

-- Keys that existed before roles could do everything there was to do, and
-- a tenant's only key must be able to set its policy: they become admins.
-- New keys name their role (`proxima keys create --role`).
ALTER TABLE api_keys
    ADD COLUMN role text NOT NULL DEFAULT 'admin'
        CHECK (role IN ('submitter', 'reviewer', 'admin'));
ALTER TABLE api_keys ALTER COLUMN role DROP DEFAULT;

-- The key that queued the job (null for jobs queued before roles: such a
-- job cannot be approved under four eyes, since who submitted it is
-- unknown). No foreign key: keys are revoked, never deleted, and the
-- approval record must outlive nothing but itself.
ALTER TABLE jobs ADD COLUMN submitted_by_key uuid;

-- A tenant's release policy as `PUT /v1/settings/release-policy` stored it
-- (every field resolved, defaults included); no row means the defaults.
CREATE TABLE release_policies (
    tenant          text PRIMARY KEY,
    policy          jsonb NOT NULL,
    updated_at      timestamptz NOT NULL DEFAULT now(),
    updated_by_key  uuid NOT NULL
);

-- Approvals and rejections. Deliberately without a foreign key to jobs:
-- they outlive the job, its result and its dataset (the record of who
-- signed what). They hold no cell of the data: the verdict, the release's
-- hash, names and the comment the reviewer typed.
CREATE TABLE approvals (
    id              uuid PRIMARY KEY,
    tenant          text NOT NULL,
    job_id          uuid NOT NULL,
    dataset_id      uuid NOT NULL,
    decision        text NOT NULL CHECK (decision IN ('approve', 'reject')),
    name            text NOT NULL,
    role            text NOT NULL,
    comment         text,
    -- `publishable`, `publishable_with_conditions` or `not_publishable`.
    verdict         text NOT NULL,
    -- The verdict's reasons and the policy applied, as the report gave them.
    verdict_detail  jsonb NOT NULL,
    release_sha256  text NOT NULL,
    key_id          uuid NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX approvals_by_job ON approvals (tenant, job_id, created_at, id);

CREATE FUNCTION approvals_are_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'approvals are never updated or deleted';
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER approvals_immutable BEFORE UPDATE OR DELETE ON approvals
    FOR EACH ROW EXECUTE FUNCTION approvals_are_immutable();

-- A succeeded job that is deleted (its dataset deleted, or retention)
-- leaves this row: the release existed, and when it went. Written by the
-- trigger below, so no deletion path can forget it.
CREATE TABLE deleted_releases (
    job_id       uuid PRIMARY KEY,
    tenant       text NOT NULL,
    dataset_id   uuid NOT NULL,
    finished_at  timestamptz,
    deleted_at   timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION record_deleted_release() RETURNS trigger AS $$
BEGIN
    INSERT INTO deleted_releases (job_id, tenant, dataset_id, finished_at)
    VALUES (OLD.id, OLD.tenant, OLD.dataset_id, OLD.finished_at)
    ON CONFLICT (job_id) DO NOTHING;
    RETURN OLD;
END
$$ LANGUAGE plpgsql;
CREATE TRIGGER jobs_record_deleted_release AFTER DELETE ON jobs
    FOR EACH ROW WHEN (OLD.status = 'succeeded')
    EXECUTE FUNCTION record_deleted_release();
