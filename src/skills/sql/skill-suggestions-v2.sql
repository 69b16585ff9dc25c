-- Suggestions of POST /skills/resolve (issue 46): for each key, up to `max_suggestions` skills whose name or alias
-- key is most like it (trigram similarity >= min_score), best first (score, then name, then id); a skill found by
-- its name and an alias counts once, with its better score (a name before an alias before a hidden alias when the
-- scores are equal). Each side (names, aliases) gives its best `max_suggestions * 2` rows in that order. Names are
-- ordered by code point (COLLATE "C"), whatever the database's collation, so the answer is the same on every
-- database and equals the one an instance computes from the names it holds (src/skills/resolve/trigrams.ts).
-- Each side is probed by the `%` operator on its trigram index, whose cost grows with the candidates it rechecks:
-- a first pass at a higher threshold finds most keys' best skills among far fewer candidates, and only keys left
-- with fewer than `max_suggestions` go through a second pass at min_score. What a key answers is the same as one
-- pass at min_score: a full first-pass answer is only ever beaten by scores at or above its threshold. The
-- threshold is set here and, through the function's SET clause, restored when it returns. v1 differs only in
-- leaving ties to the plan and names to the database's collation.
CREATE FUNCTION skill_suggestions_v2(organisation uuid, keys text[], min_score real, max_suggestions integer)
  RETURNS TABLE (key text, id uuid, name varchar, matched_on text, score real)
  LANGUAGE plpgsql STABLE
  SET pg_trgm.similarity_threshold = 0.3 AS $$
#variable_conflict use_column
DECLARE
  threshold real;
  pending text[] := ARRAY(SELECT DISTINCT k FROM unnest(keys) AS k);
  answered text[];
  found record;
BEGIN
  FOREACH threshold IN ARRAY ARRAY[greatest(min_score, 0.7), min_score] LOOP
    EXIT WHEN cardinality(pending) = 0;
    PERFORM set_config('pg_trgm.similarity_threshold', threshold::text, true);
    answered := '{}';
    FOR found IN
      SELECT w.key, c.id, c.name, c.matched_on, c.score, count(*) OVER (PARTITION BY w.key) AS answers
        FROM unnest(pending) AS w (key)
        CROSS JOIN LATERAL (
          SELECT * FROM (
            SELECT DISTINCT ON (m.id) m.id, m.name, m.matched_on, m.score FROM (
              (SELECT s.id, s.name, 'name' AS matched_on, 0 AS rank, similarity(s.name_key, w.key) AS score
                 FROM skills s
                WHERE s.organisation_id = organisation AND s.name_key % w.key
                ORDER BY score DESC, s.name COLLATE "C", s.id LIMIT max_suggestions * 2)
              UNION ALL
              (SELECT s.id, s.name, CASE a.kind WHEN 'alias' THEN 'alias' ELSE 'hiddenAlias' END AS matched_on,
                      CASE a.kind WHEN 'alias' THEN 1 ELSE 2 END AS rank, similarity(a.name_key, w.key) AS score
                 FROM skill_aliases a JOIN skills s ON s.id = a.skill_id
                WHERE a.organisation_id = organisation AND a.name_key % w.key
                ORDER BY score DESC, s.name COLLATE "C", s.id, rank LIMIT max_suggestions * 2)
            ) m
            WHERE m.score >= min_score
            ORDER BY m.id, m.score DESC, m.rank
          ) best
          ORDER BY best.score DESC, best.name COLLATE "C", best.id
          LIMIT max_suggestions
        ) c
       ORDER BY w.key, c.score DESC, c.name COLLATE "C", c.id
    LOOP
      -- A key with fewer answers than asked may have more below this threshold: the next pass answers it.
      CONTINUE WHEN found.answers < max_suggestions AND threshold > min_score;
      key := found.key; id := found.id; name := found.name; matched_on := found.matched_on; score := found.score;
      RETURN NEXT;
      answered := answered || found.key;
    END LOOP;
    EXIT WHEN threshold <= min_score;
    pending := ARRAY(SELECT unnest(pending) EXCEPT SELECT unnest(answered));
  END LOOP;
END
$$;
