CREATE OR REPLACE VIEW run_sources AS SELECT r.run_id, r.source, r.source_line, f.format, f.source_sha256 FROM runs r JOIN ingested_files f USING (source);
