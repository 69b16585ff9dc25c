import { MigrationInterface, QueryRunner } from 'typeorm';

export class EmployeesSkillsRatings1763762500000 implements MigrationInterface {
  name = 'EmployeesSkillsRatings1763762500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE employees (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        personnel_number varchar(64) NOT NULL,
        first_name varchar(200) NOT NULL,
        last_name varchar(200) NOT NULL,
        business_email varchar(254) NOT NULL,
        title varchar(200),
        gender varchar(50),
        department_id varchar(64),
        hired_at timestamptz(3),
        left_at timestamptz(3),
        is_hr_team_member boolean NOT NULL DEFAULT false,
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX employees_personnel_number_key ON employees (organisation_id, personnel_number)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX employees_business_email_key ON employees (organisation_id, lower(business_email))`,
    );
    // List order (createdAt, id), alone and under each filter.
    await queryRunner.query(`CREATE INDEX employees_list_idx ON employees (organisation_id, created_at, id)`);
    await queryRunner.query(
      `CREATE INDEX employees_department_idx ON employees (organisation_id, department_id, created_at, id)`,
    );
    await queryRunner.query(
      `CREATE INDEX employees_active_idx ON employees (organisation_id, created_at, id) WHERE left_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX employees_inactive_idx ON employees (organisation_id, created_at, id) WHERE left_at IS NOT NULL`,
    );
    // Substring search over the searchable fields at once (see employeeSearchText in the employees service).
    await queryRunner.query(`
      CREATE INDEX employees_search_trgm_idx ON employees USING gin (
        lower(first_name || ' ' || last_name || chr(1) || business_email || chr(1) || personnel_number) gin_trgm_ops
      )`);

    await queryRunner.query(`
      CREATE TABLE skills (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        name varchar(200) NOT NULL,
        description varchar(2000),
        rating_scale_min integer NOT NULL,
        rating_scale_max integer NOT NULL,
        rating_scale_type varchar(16) NOT NULL CHECK (rating_scale_type IN ('NUMERIC', 'STAR', 'CUSTOM')),
        created_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL,
        CONSTRAINT skills_rating_scale_check CHECK (rating_scale_min <= rating_scale_max)
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX skills_name_key ON skills (organisation_id, lower(name))`);
    await queryRunner.query(`CREATE INDEX skills_list_idx ON skills (organisation_id, created_at, id)`);
    await queryRunner.query(`CREATE INDEX skills_name_trgm_idx ON skills USING gin (lower(name) gin_trgm_ops)`);

    await queryRunner.query(`
      CREATE TABLE person_skills (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        employee_id uuid NOT NULL REFERENCES employees (id) ON DELETE CASCADE,
        skill_id uuid NOT NULL REFERENCES skills (id) ON DELETE RESTRICT,
        created_at timestamptz(3) NOT NULL
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX person_skills_employee_skill_key ON person_skills (employee_id, skill_id)`,
    );
    await queryRunner.query(`CREATE INDEX person_skills_skill_idx ON person_skills (skill_id)`);
    // Target of the ratings foreign key below, which keeps a rating's employee and skill those of its link.
    await queryRunner.query(`CREATE UNIQUE INDEX person_skills_link_key ON person_skills (id, employee_id, skill_id)`);

    await queryRunner.query(`
      CREATE TABLE ratings (
        id uuid PRIMARY KEY,
        organisation_id uuid NOT NULL REFERENCES organisations (id) ON DELETE CASCADE,
        person_skill_id uuid NOT NULL,
        employee_id uuid NOT NULL,
        skill_id uuid NOT NULL,
        score integer NOT NULL,
        rating_type varchar(32) NOT NULL,
        comment varchar(2000),
        created_at timestamptz(3) NOT NULL,
        CONSTRAINT ratings_person_skill_fkey FOREIGN KEY (person_skill_id, employee_id, skill_id)
          REFERENCES person_skills (id, employee_id, skill_id) ON DELETE CASCADE,
        CONSTRAINT ratings_rating_type_check
          CHECK (rating_type IN ('MANAGER_EVALUATION', 'SELF_ASSESMENT', 'LLM_RATING'))
      )`);
    // Latest rating per person skill, and the ratings list of an employee newest first.
    await queryRunner.query(
      `CREATE INDEX ratings_person_skill_latest_idx ON ratings (person_skill_id, created_at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX ratings_employee_list_idx ON ratings (employee_id, created_at DESC, id DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX ratings_employee_skill_list_idx ON ratings (employee_id, skill_id, created_at DESC, id DESC)`,
    );
    await queryRunner.query(`CREATE INDEX ratings_skill_idx ON ratings (skill_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE ratings`);
    await queryRunner.query(`DROP TABLE person_skills`);
    await queryRunner.query(`DROP TABLE skills`);
    await queryRunner.query(`DROP TABLE employees`);
  }
}
