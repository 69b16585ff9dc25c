-- The one order of skills by name (docs/api-decisions.md, "Skill-name order"), for ORDER BY: the names lower-cased
-- and compared code point by code point, as COLLATE "C" would on a UTF-8 database, whatever the server's locale;
-- ties go by skill id, which each query names after it. Bytes rather than text: a function's text result would
-- take its caller's collation, not this one's. A single expression, so the planner inlines it.
CREATE OR REPLACE FUNCTION skill_name_order(name varchar) RETURNS bytea
  LANGUAGE sql STABLE PARALLEL SAFE AS $$
SELECT convert_to(lower(name), 'UTF8')
$$;
