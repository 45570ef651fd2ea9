CREATE OR REPLACE VIEW run_sources AS SELECT r.run_id, r.source, r.source_line, f.format, f.source_sha256 FROM runs r JOIN ingested_files f USING (source);

-- Comments: as the README documents the columns (TestColumnComments).
COMMENT ON VIEW run_sources IS 'each run with the file it was read from';
COMMENT ON COLUMN run_sources.run_id IS 'as in runs';
COMMENT ON COLUMN run_sources.source IS 'as in runs';
COMMENT ON COLUMN run_sources.source_line IS 'as in runs';
COMMENT ON COLUMN run_sources.format IS 'as in ingested_files';
COMMENT ON COLUMN run_sources.source_sha256 IS 'as in ingested_files';
