import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 26: the insert of a change's events as a function, whose plan PL/pgSQL keeps for the session, where
 * the same INSERT … SELECT FROM unnest, sent inside the statement that records events, was parsed and planned
 * at every write (unnamed statements, as PgBouncer in transaction mode needs). The arrays are the events'
 * columns, one element per event, in order; answers how many it wrote. The statement that calls it runs the
 * fan-out (webhook_fan_out) after it, over its answer (events.repository.ts).
 */
export class RecordEvents1763764300000 implements MigrationInterface {
  name = 'RecordEvents1763764300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION record_events(organisation uuid, ids uuid[], names text[], occurred_ats timestamptz[],
                                    bodies bytea[], recorded_at timestamptz, traceparents varchar[])
        RETURNS integer
        LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        written integer;
      BEGIN
        INSERT INTO events (id, organisation_id, event, occurred_at, body, created_at, traceparent)
        SELECT v.id, organisation, v.event, v.occurred_at, v.body, recorded_at, v.traceparent
          FROM unnest(ids, names, occurred_ats, bodies, traceparents) AS v (id, event, occurred_at, body, traceparent);
        GET DIAGNOSTICS written = ROW_COUNT;
        RETURN written;
      END
      $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP FUNCTION record_events(uuid, uuid[], text[], timestamptz[], bytea[], timestamptz, varchar[])`,
    );
  }
}
