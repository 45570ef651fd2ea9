-- The database a memory series was measured on: a server measured on two
-- databases has two series, never pooled. NULL where the file names none
-- (a series of the server on every database it runs on).
ALTER TABLE memory_series ADD COLUMN database VARCHAR;
