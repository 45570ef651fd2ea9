-- The store's generation: a counter that every write through wra raises
-- (each file loaded, each 'wra sql --write'), so that a cached analysis is
-- re-used only while the store is provably the one it was made from.
CREATE TABLE wra_generation (generation BIGINT NOT NULL);
INSERT INTO wra_generation VALUES (0);
