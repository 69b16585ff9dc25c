import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { NotFoundError } from '../common/errors';
import { RatingType } from '../ratings/entities/rating.entity';
import { EmployeeDetailResponse, EmployeeFields, toEmployeeResponse } from './dto/employee.response';
import { employeeColumns } from './employee-columns';

interface DetailRow extends EmployeeFields {
  person_skill_id: string | null;
  skill_id: string | null;
  skill_name: string | null;
  score: number | null;
  rating_type: RatingType | null;
  rating_created_at: Date | null;
}

/**
 * The EmployeeDetail in one round trip: the employee row joined to its skills (each with its latest
 * rating, by the ratings_person_skill_latest_idx index), one row per skill, or one row with null skill
 * columns when it has none. No row: 404.
 */
@Injectable()
export class EmployeeDetailReader {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async get(organisationId: string, id: string): Promise<EmployeeDetailResponse> {
    const rows = await this.dataSource.query<DetailRow[]>(
      `SELECT ${employeeColumns('e')}, sk.person_skill_id, sk.skill_id, sk.skill_name, sk.score, sk.rating_type,
              sk.rating_created_at
         FROM employees e
         LEFT JOIN LATERAL (
              SELECT ps.id AS person_skill_id, s.id AS skill_id, s.name AS skill_name,
                     latest.score, latest.rating_type, latest.created_at AS rating_created_at
                FROM person_skills ps
                JOIN skills s ON s.id = ps.skill_id
                LEFT JOIN LATERAL (
                     SELECT r.score, r.rating_type, r.created_at
                       FROM ratings r
                      WHERE r.person_skill_id = ps.id
                      ORDER BY r.created_at DESC, r.id DESC
                      LIMIT 1
                ) latest ON true
               WHERE ps.organisation_id = e.organisation_id AND ps.employee_id = e.id
         ) sk ON true
        WHERE e.organisation_id = $1 AND e.id = $2
        ORDER BY lower(sk.skill_name) COLLATE "C", sk.skill_id`,
      [organisationId, id],
    );
    if (rows.length === 0) throw new NotFoundError('Employee');
    return {
      ...toEmployeeResponse(rows[0]),
      skills: rows
        .filter((row) => row.person_skill_id !== null)
        .map((row) => ({
          personSkillId: row.person_skill_id!,
          skillId: row.skill_id!,
          skillName: row.skill_name!,
          latestRating:
            row.score === null
              ? null
              : { score: row.score, ratingType: row.rating_type!, createdAt: row.rating_created_at!.toISOString() },
        })),
    };
  }
}
