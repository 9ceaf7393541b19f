-- The stored table moved to proxima_core::table_codec version 2 (blocks and
-- a footer, part `table-v2`), which the upload writes as it validates. The
-- version 1 part `table` is no longer read: remove it. Those datasets keep
-- their CSV and are read from it, as datasets stored before the table
-- part existed always were.
DELETE FROM dataset_chunks WHERE part = 'table';
