-- The definitions a store holds: the SHA-256 of the views and table macros
-- (views/*.sql) last applied to it. Every writable open applies this
-- wra's and records their hash; a read-only open of a store whose
-- definitions are another wra's is refused, so that no command reads a
-- figure by an old definition.
CREATE TABLE wra_definitions (sha256 VARCHAR NOT NULL);
INSERT INTO wra_definitions VALUES ('');
