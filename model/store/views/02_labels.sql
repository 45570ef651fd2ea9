-- label_map(labels): a run's labels (runs.labels, a JSON object of
-- strings) as a MAP(VARCHAR, VARCHAR), label_map(labels)['k'] being
-- labels->>'k'. A view that reads several labels of each run, or the same
-- label for several keys, takes the map once per run and hands it to the
-- label macros below: DuckDB parses a JSON document again for every
-- expression that reads it and keeps each expression's parsed documents
-- of a chunk of rows (about 16 MiB a thread at a few thousand runs).
CREATE OR REPLACE MACRO label_map(labels) AS
    CAST(labels AS MAP(VARCHAR, VARCHAR));

-- label_pairs(labels, keys): the labels named by keys as 'k=v, k=v' (a
-- missing one as 'k='), in the order of keys; NULL when keys is NULL or
-- names none. labels is a label_map (or the JSON labels, parsed then for
-- every key).
CREATE OR REPLACE MACRO label_pairs(labels, keys) AS
    nullif(array_to_string(list_transform(list_filter(keys, lambda k: k <> ''),
                                          lambda k: k || '=' || coalesce(label_map(labels)[k], '')), ', '), '');

-- run_block(labels): the block a run was measured in, the one definition
-- that run_groups and ladder_steps read: the labels the manifest names in
-- blocks (block_keys) as 'k=v', else its trial label ('trial=N'); NULL
-- when it has neither. labels as for label_pairs.
CREATE OR REPLACE MACRO run_block(labels) AS
    coalesce(label_pairs(labels, string_split(label_map(labels)['block_keys'], ',')),
             label_pairs(labels, CASE WHEN label_map(labels)['trial'] IS NOT NULL THEN ['trial'] END));

COMMENT ON MACRO label_map IS 'a run''s labels as a MAP(VARCHAR, VARCHAR): label_map(labels)[''k''] is labels->>''k''';
COMMENT ON MACRO label_pairs IS 'the labels named by keys as k=v, comma-separated, in the order of keys';
COMMENT ON MACRO run_block IS 'the block a run was measured in: its block_keys labels as k=v, or trial=N';

-- run_file_name(source): the name of a run's file for a run that no
-- label names the server of: its path below the ingested folder (the
-- folder's own name, the first part of source, left out) without the
-- extensions of its kind (.txt, .json, .md, .log, .gz …), so that
-- results/nginx.txt and results/caddy.txt are nginx and caddy.
CREATE OR REPLACE MACRO run_file_name(source) AS
    regexp_replace(CASE WHEN contains(source, '/') THEN substr(source, strpos(source, '/') + 1) ELSE source END,
                   '(\.(gz|txt|text|json|md|markdown|log|out|csv|tsv|ndjson|jsonl|jtl|xml|html|bin|gob))+$', '', 'i');

COMMENT ON MACRO run_file_name IS 'the name a run without a server label is known by: its file''s path below the ingested folder, without its extensions';

-- run_factor_pairs(labels): every label of a run that may be a factor of
-- the design, as k=v sorted by key: those the manifest or --label set
-- (label_keys) but tool, and those its report gave (report_keys). Where
-- a view must keep runs apart before run_groups can say which of them
-- tell runs apart (a fixed-rate ladder is the runs of one configuration
-- at several rates), it partitions by these; a label every run shares
-- keeps them together all the same. labels as for label_pairs.
CREATE OR REPLACE MACRO run_factor_pairs(labels) AS
    coalesce(label_pairs(labels, list_sort(list_distinct(list_concat(
        list_filter(string_split(label_map(labels)['label_keys'], ','), k -> k <> 'tool' AND k <> ''),
        list_filter(string_split(label_map(labels)['report_keys'], ','), k -> k <> ''))))), '');

COMMENT ON MACRO run_factor_pairs IS 'the labels of a run that may be factors (label_keys but tool, report_keys) as k=v, sorted by key';
