import { MigrationInterface, QueryRunner } from 'typeorm';

export class Positions1763762600000 implements MigrationInterface {
  name = 'Positions1763762600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE positions (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        ref varchar(200) NOT NULL,
        name varchar(200) NOT NULL,
        description varchar(2000),
        department varchar(200),
        status varchar(16) NOT NULL,
        must_be_filled_by timestamptz(3),
        replaces_employee_id uuid REFERENCES employees (id) ON DELETE SET NULL,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        CONSTRAINT positions_status_check CHECK (status IN ('OPEN', 'IN_PROGRESS', 'FILLED', 'CLOSED'))
      )`);
    // The import's upsert key.
    await queryRunner.query(`CREATE UNIQUE INDEX positions_ref_key ON positions (organisation_id, ref)`);
    // List order (createdAt, id), alone and under the status filter.
    await queryRunner.query(`CREATE INDEX positions_list_idx ON positions (organisation_id, created_at, id)`);
    await queryRunner.query(`CREATE INDEX positions_status_idx ON positions (organisation_id, status, created_at, id)`);
    await queryRunner.query(
      `CREATE INDEX positions_replaces_employee_idx ON positions (replaces_employee_id)
         WHERE replaces_employee_id IS NOT NULL`,
    );

    // Keyed by (position, skill): a position requires a skill once. Removing a skill from the catalogue
    // drops it from positions' requirements rather than blocking the skill's DELETE.
    await queryRunner.query(`
      CREATE TABLE position_required_skills (
        position_id uuid NOT NULL REFERENCES positions (id) ON DELETE CASCADE,
        skill_id uuid NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        minimum_rating integer NOT NULL,
        PRIMARY KEY (position_id, skill_id)
      )`);
    await queryRunner.query(`CREATE INDEX position_required_skills_skill_idx ON position_required_skills (skill_id)`);

    await queryRunner.query(`
      CREATE TABLE position_replacements (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        position_id uuid NOT NULL REFERENCES positions (id) ON DELETE CASCADE,
        candidate_employee_id uuid NOT NULL REFERENCES employees (id) ON DELETE CASCADE,
        ready_at timestamptz(3) NOT NULL,
        status varchar(16) NOT NULL,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        CONSTRAINT position_replacements_status_check CHECK (status IN ('PROPOSED', 'APPROVED', 'REJECTED'))
      )`);
    // A candidate appears once per position; the index also serves loading a position's replacements.
    await queryRunner.query(
      `CREATE UNIQUE INDEX position_replacements_candidate_key
         ON position_replacements (position_id, candidate_employee_id)`,
    );
    await queryRunner.query(
      `CREATE INDEX position_replacements_candidate_idx ON position_replacements (candidate_employee_id)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE position_replacements`);
    await queryRunner.query(`DROP TABLE position_required_skills`);
    await queryRunner.query(`DROP TABLE positions`);
  }
}
