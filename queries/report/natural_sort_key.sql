-- A key that sorts names naturally: the digits in a name compare as numbers, so runs c1, c4,
-- c16, c64 sort in that order (as text they sort c1, c16, c4, c64). Each run of digits is padded
-- with zeros to 30 characters (longer runs are kept as they are); the rest of the name is kept,
-- so ORDER BY natural_sort_key(run), run is a total order. NULL for NULL.
-- @grain one value
-- @param s The name.
CREATE OR REPLACE MACRO natural_sort_key(s) AS (
    array_to_string(
        list_transform(
            regexp_extract_all(s, '[0-9]+|[^0-9]+'),
            p -> CASE WHEN regexp_full_match(p, '[0-9]+') AND length(p) < 30 THEN lpad(p, 30, '0') ELSE p END
        ),
        ''
    )
)
