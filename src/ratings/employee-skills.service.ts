import { Injectable } from '@nestjs/common';
import { Database } from '../database/database';
import { WriteContext } from '../database/write-context';
import { EmployeesRepository } from '../employees/employees.repository';
import { ConflictError, NotFoundError } from '../errors/errors';
import { DomainEvents } from '../events/domain-events';
import { DeletedResponse } from '../http/deleted.response';
import { SkillsRepository } from '../skills/skills.repository';
import { RateSkillDto } from './dto/rate-skill.dto';
import { PersonSkillResponse, toPersonSkillResponse, toRatedPersonSkill } from './dto/rating.response';
import { RatingsRepository } from './ratings.repository';
import { RatingsService } from './ratings.service';

/** More ratings than this make removing an employee skill need force=true. */
export const FORCE_DELETE_THRESHOLD = 5;

@Injectable()
export class EmployeeSkillsService {
  constructor(
    private readonly database: Database,
    private readonly ratings: RatingsRepository,
    private readonly employees: EmployeesRepository,
    private readonly skills: SkillsRepository,
    private readonly ratingsService: RatingsService,
    private readonly events: DomainEvents,
  ) {}

  async list(organisationId: string, employeeId: string): Promise<PersonSkillResponse[]> {
    await this.employees.assertExists(organisationId, employeeId);
    const personSkills = await this.ratings.findPersonSkills(organisationId, employeeId);
    return personSkills.map(toPersonSkillResponse);
  }

  /** A new rating (PUT), answered as the PersonSkill it leaves. */
  async rate(
    organisationId: string,
    employeeId: string,
    skillId: string,
    input: RateSkillDto,
    write: WriteContext,
  ): Promise<PersonSkillResponse> {
    return toRatedPersonSkill(await this.ratingsService.rate(organisationId, employeeId, skillId, input, write));
  }

  /** Deletes the link and, by cascade, all its ratings; more than 5 ratings need force. Records employee_skill.deleted. */
  async remove(
    organisationId: string,
    employeeId: string,
    skillId: string,
    force: boolean,
    write: WriteContext,
  ): Promise<DeletedResponse> {
    return this.database.transaction(async (manager) => {
      await this.employees.assertExists(organisationId, employeeId, manager);
      await this.skills.findOrFail(organisationId, skillId, manager);
      const personSkillId = await this.ratings.lockPersonSkill(organisationId, employeeId, skillId, manager);
      if (!personSkillId) throw new NotFoundError('Employee skill');
      const ratings = await this.ratings.countOfPersonSkill(organisationId, personSkillId, manager);
      if (ratings > FORCE_DELETE_THRESHOLD && !force) {
        throw new ConflictError(
          `The employee skill has ${ratings} ratings; more than ${FORCE_DELETE_THRESHOLD} require force=true to delete`,
        );
      }
      await this.ratings.deletePersonSkill(organisationId, personSkillId, manager);
      await this.events.publish(manager, organisationId, 'employee_skill.deleted', {
        employeeId,
        skillId,
        personSkillId,
      });
      return { deleted: true };
    }, write);
  }
}
