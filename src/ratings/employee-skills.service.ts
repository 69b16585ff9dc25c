import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ConflictError, NotFoundError } from '../common/errors';
import { findEmployeeOrFail } from '../employees/employee-lookup';
import { DeletedResponse } from '../skills/dto/skill.response';
import { SkillsService } from '../skills/skills.service';
import { EmployeeSkillsReader } from './employee-skills.reader';
import { PersonSkillResponse } from './dto/rating.response';
import { PersonSkill } from './entities/person-skill.entity';
import { Rating } from './entities/rating.entity';

/** More ratings than this make removing an employee skill need force=true. */
export const FORCE_DELETE_THRESHOLD = 5;

@Injectable()
export class EmployeeSkillsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reader: EmployeeSkillsReader,
    private readonly skills: SkillsService,
  ) {}

  async list(organisationId: string, employeeId: string): Promise<PersonSkillResponse[]> {
    await findEmployeeOrFail(this.dataSource.manager, organisationId, employeeId);
    return this.reader.list(this.dataSource.manager, organisationId, employeeId);
  }

  /** Deletes the link and, by cascade, all its ratings; more than 5 ratings need force. */
  async remove(organisationId: string, employeeId: string, skillId: string, force: boolean): Promise<DeletedResponse> {
    return this.dataSource.transaction(async (manager) => {
      await findEmployeeOrFail(manager, organisationId, employeeId);
      await this.skills.findOrFail(manager, organisationId, skillId);
      // Locked so no rating slips in between the count and the delete.
      const personSkill = await manager
        .createQueryBuilder(PersonSkill, 'link')
        .where('link.organisation_id = :organisationId AND link.employee_id = :employeeId AND link.skill_id = :skillId', {
          organisationId,
          employeeId,
          skillId,
        })
        .setLock('pessimistic_write')
        .getOne();
      if (!personSkill) throw new NotFoundError('Employee skill');
      const ratings = await manager.count(Rating, { where: { personSkillId: personSkill.id } });
      if (ratings > FORCE_DELETE_THRESHOLD && !force) {
        throw new ConflictError(
          `The employee skill has ${ratings} ratings; more than ${FORCE_DELETE_THRESHOLD} require force=true to delete`,
        );
      }
      await manager.delete(PersonSkill, { id: personSkill.id });
      return { deleted: true };
    });
  }
}
