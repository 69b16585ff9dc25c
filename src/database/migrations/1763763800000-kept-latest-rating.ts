import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 24 (skills-based search): each person skill keeps its latest rating (the newest createdAt, then the
 * larger id) in latest_rating_id / latest_score / latest_rated_at, so a search ranks employees by score from
 * person_skills alone instead of finding the newest rating of every link first.
 *
 * A trigger on ratings keeps them, in the inserting statement, whatever inserts the rating (the API, a bulk
 * request, a fixture). Its UPDATE only moves a link forward: under READ COMMITTED a concurrent insert waits
 * on the row and re-checks the condition against the committed newer rating, so an older rating committed
 * later never overwrites a newer one. Ratings are deleted only with their person skill (cascade), so the
 * kept rating never dangles.
 *
 * Locks: ratings is locked against writes (SHARE ROW EXCLUSIVE, what CREATE TRIGGER takes anyway) before the
 * trigger and the backfill, so no rating slips between them; reads go on.
 */
export class KeptLatestRating1763763800000 implements MigrationInterface {
  name = 'KeptLatestRating1763763800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`LOCK TABLE ratings IN SHARE ROW EXCLUSIVE MODE`);
    await queryRunner.query(`
      ALTER TABLE person_skills
        ADD COLUMN latest_rating_id uuid,
        ADD COLUMN latest_score integer,
        ADD COLUMN latest_rated_at timestamptz(3)`);
    await queryRunner.query(`
      CREATE FUNCTION person_skills_keep_latest_rating() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE person_skills
           SET latest_rating_id = NEW.id, latest_score = NEW.score, latest_rated_at = NEW.created_at
         WHERE organisation_id = NEW.organisation_id AND id = NEW.person_skill_id
           AND (latest_rating_id IS NULL OR (latest_rated_at, latest_rating_id) < (NEW.created_at, NEW.id));
        RETURN NULL;
      END
      $$`);
    await queryRunner.query(`
      CREATE TRIGGER ratings_keep_latest_rating AFTER INSERT ON ratings
        FOR EACH ROW EXECUTE FUNCTION person_skills_keep_latest_rating()`);
    await queryRunner.query(`
      UPDATE person_skills ps
         SET latest_rating_id = latest.id, latest_score = latest.score, latest_rated_at = latest.created_at
        FROM (SELECT DISTINCT ON (person_skill_id) person_skill_id, id, score, created_at
                FROM ratings
               ORDER BY person_skill_id, created_at DESC, id DESC) latest
       WHERE ps.id = latest.person_skill_id`);
    // GET /skills/{id}/employees in its order (latest score highest first, no rating last, then employee id),
    // and the candidates of a position: per required skill, its holders' scores, read from the index alone.
    await queryRunner.query(`
      CREATE INDEX person_skills_skill_score_idx
        ON person_skills (organisation_id, skill_id, latest_score DESC NULLS LAST, employee_id)`);
    // The candidates never rated on a position's skills all tie on their totals, so they come in employee id order.
    await queryRunner.query(
      `CREATE INDEX employees_organisation_id_idx ON employees (organisation_id, id) INCLUDE (left_at)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX employees_organisation_id_idx`);
    await queryRunner.query(`DROP INDEX person_skills_skill_score_idx`);
    await queryRunner.query(`DROP TRIGGER ratings_keep_latest_rating ON ratings`);
    await queryRunner.query(`DROP FUNCTION person_skills_keep_latest_rating()`);
    await queryRunner.query(`
      ALTER TABLE person_skills
        DROP COLUMN latest_rating_id,
        DROP COLUMN latest_score,
        DROP COLUMN latest_rated_at`);
  }
}
