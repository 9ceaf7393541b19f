-- The facts a sweep point's verdict is decided on (`report::verdict::Facts`
-- as JSON), measured once by the worker while the release is in memory:
-- the sweep then judges each point under the tenant's policy as it stands
-- when it is read, without rebuilding every point's report. Null for jobs
-- that are not sweep points and for results stored before this column.
ALTER TABLE job_results ADD COLUMN verdict_facts jsonb;
