import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { RatingType } from './entities/rating.entity';
import { PersonSkillResponse } from './dto/rating.response';

interface PersonSkillRow {
  person_skill_id: string;
  skill_id: string;
  skill_name: string;
  rating_id: string | null;
  score: number | null;
  rating_type: RatingType | null;
  comment: string | null;
  created_at: Date | null;
}

/**
 * The skills of an employee with the latest rating of each, in one query (a LATERAL join on the
 * ratings_person_skill_latest_idx index), ordered by skill name. Used by EmployeeDetail and
 * GET /employees/{id}/skills.
 */
@Injectable()
export class EmployeeSkillsReader {
  async list(manager: EntityManager, organisationId: string, employeeId: string): Promise<PersonSkillResponse[]> {
    const rows = await manager.query<PersonSkillRow[]>(
      `SELECT ps.id AS person_skill_id, s.id AS skill_id, s.name AS skill_name,
              latest.id AS rating_id, latest.score, latest.rating_type, latest.comment, latest.created_at
         FROM person_skills ps
         JOIN skills s ON s.id = ps.skill_id
         LEFT JOIN LATERAL (
              SELECT r.id, r.score, r.rating_type, r.comment, r.created_at
                FROM ratings r
               WHERE r.person_skill_id = ps.id
               ORDER BY r.created_at DESC, r.id DESC
               LIMIT 1
         ) latest ON true
        WHERE ps.organisation_id = $1 AND ps.employee_id = $2
        ORDER BY lower(s.name) COLLATE "C", s.id`,
      [organisationId, employeeId],
    );
    return rows.map(toPersonSkillResponse);
  }
}

function toPersonSkillResponse(row: PersonSkillRow): PersonSkillResponse {
  return {
    personSkillId: row.person_skill_id,
    skillId: row.skill_id,
    skillName: row.skill_name,
    latestRating:
      row.rating_id === null
        ? null
        : {
            ratingId: row.rating_id,
            score: row.score!,
            ratingType: row.rating_type!,
            comment: row.comment,
            createdAt: row.created_at!.toISOString(),
          },
  };
}
