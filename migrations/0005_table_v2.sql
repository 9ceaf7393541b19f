-- The stored table moved to proxima_core::table_codec version 2 (blocks and
-- a footer, part `table-v2`), which the upload writes as it validates. The
-- version 1 part `table` is no longer read: remove it. Those datasets keep
-- their CSV and are read from it, as datasets stored before the table
-- part existed always were.
DELETE FROM dataset_chunks WHERE part = 'table';

-- Every chunk is compressed already (zlib or LZ4): PostgreSQL's own TOAST
-- compression (pglz) only spent time trying, on every insert of an
-- upload, and gave up (the sizes stored equal the lengths). EXTERNAL keeps
-- large values out of line without that attempt.
ALTER TABLE dataset_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL;
