-- The trigger function of ratings_keep_latest_rating (AFTER INSERT ON ratings, migration 1763763800000): each
-- person skill keeps its latest rating (the newest createdAt, then the larger id) in latest_rating_id /
-- latest_score / latest_rated_at, whatever inserts the rating (the API, a bulk request, a fixture), so readers
-- take it from person_skills instead of finding the newest rating of every link. The UPDATE only moves a link
-- forward: under READ COMMITTED a concurrent insert waits on the row and re-checks the condition against the
-- committed newer rating, so an older rating committed later never overwrites a newer one. Ratings are deleted
-- only with their person skill (cascade), so the kept rating never dangles.
CREATE OR REPLACE FUNCTION person_skills_keep_latest_rating() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE person_skills
     SET latest_rating_id = NEW.id, latest_score = NEW.score, latest_rated_at = NEW.created_at
   WHERE organisation_id = NEW.organisation_id AND id = NEW.person_skill_id
     AND (latest_rating_id IS NULL OR (latest_rated_at, latest_rating_id) < (NEW.created_at, NEW.id));
  RETURN NULL;
END
$$;
