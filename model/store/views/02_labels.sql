-- label_pairs(labels, keys): the labels named by keys as 'k=v, k=v' (a
-- missing one as 'k='), in the order of keys; NULL when keys is NULL or
-- names none.
CREATE OR REPLACE MACRO label_pairs(labels, keys) AS
    nullif(array_to_string(list_transform(list_filter(keys, lambda k: k <> ''),
                                          lambda k: k || '=' || coalesce(json_extract_string(labels, '$."' || k || '"'), '')), ', '), '');

-- run_block(labels): the block a run was measured in, the one definition
-- that run_groups and ladder_steps read: the labels the manifest names in
-- blocks (block_keys) as 'k=v', else its trial label ('trial=N'); NULL
-- when it has neither.
CREATE OR REPLACE MACRO run_block(labels) AS
    coalesce(label_pairs(labels, string_split(labels->>'block_keys', ',')),
             label_pairs(labels, CASE WHEN labels->>'trial' IS NOT NULL THEN ['trial'] END));

COMMENT ON MACRO label_pairs IS 'the labels named by keys as k=v, comma-separated, in the order of keys';
COMMENT ON MACRO run_block IS 'the block a run was measured in: its block_keys labels as k=v, or trial=N';
