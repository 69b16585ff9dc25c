import { DataSource } from 'typeorm';
import { newId } from '../../src/database/uuid';
import { Employee } from '../../src/employees/entities/employee.entity';
import { nameKey } from '../../src/names/name-key';
import { PositionReplacement, ReplacementStatus } from '../../src/positions/entities/position-replacement.entity';
import { PositionRequiredSkill } from '../../src/positions/entities/position-required-skill.entity';
import { Position } from '../../src/positions/entities/position.entity';
import { PersonSkill } from '../../src/ratings/entities/person-skill.entity';
import { Rating } from '../../src/ratings/entities/rating.entity';
import { Skill } from '../../src/skills/entities/skill.entity';

export interface PositionSeed extends Partial<Omit<Position, 'id' | 'organisationId'>> {
  requiredSkills?: Array<{ skill: Skill; minimumRating: number }>;
  replacements?: Array<{ candidate: Employee; readyAt: Date; status: ReplacementStatus }>;
}

let sequence = 0;
const unique = () => `${Date.now().toString(36)}${(sequence++).toString(36)}`;

/**
 * Rows for the positions tests, written straight through the entities: employees, skills and ratings
 * belong to other modules, whose endpoints these tests must not depend on.
 */
export class PositionsFixtures {
  constructor(
    private readonly dataSource: DataSource,
    readonly organisationId: string,
  ) {}

  async employee(overrides: Partial<Employee> = {}): Promise<Employee> {
    const now = new Date();
    const id = unique();
    return this.dataSource.getRepository(Employee).save({
      id: newId(),
      organisationId: this.organisationId,
      personnelNumber: `P-${id}`,
      firstName: 'Ada',
      lastName: `Lovelace ${id}`,
      businessEmail: `ada.${id}@example.com`,
      title: null,
      gender: null,
      departmentId: null,
      hiredAt: null,
      leftAt: null,
      isHRTeamMember: false,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    });
  }

  async skill(name: string, overrides: Partial<Skill> = {}): Promise<Skill> {
    const now = new Date();
    return this.dataSource.getRepository(Skill).save({
      id: newId(),
      organisationId: this.organisationId,
      name,
      nameKey: nameKey(name),
      description: null,
      source: null,
      externalId: null,
      ratingScaleMin: 0,
      ratingScaleMax: 5,
      ratingScaleType: 'NUMERIC' as const,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    });
  }

  /** Appends a rating, linking the employee to the skill first when needed. Ids grow with each call. */
  async rating(employee: Employee, skill: Skill, score: number, createdAt = new Date()): Promise<Rating> {
    const links = this.dataSource.getRepository(PersonSkill);
    const link =
      (await links.findOneBy({ employeeId: employee.id, skillId: skill.id })) ??
      (await links.save({
        id: newId(),
        organisationId: this.organisationId,
        employeeId: employee.id,
        skillId: skill.id,
        createdAt,
      }));
    return this.dataSource.getRepository(Rating).save({
      id: newId(),
      organisationId: this.organisationId,
      personSkillId: link.id,
      employeeId: employee.id,
      skillId: skill.id,
      score,
      ratingType: 'MANAGER_EVALUATION' as const,
      comment: null,
      createdAt,
    });
  }

  async position({ requiredSkills = [], replacements = [], ...fields }: PositionSeed = {}): Promise<Position> {
    const now = new Date();
    const position = await this.dataSource.getRepository(Position).save({
      id: newId(),
      organisationId: this.organisationId,
      ref: `REF-${unique()}`,
      name: 'Controller',
      description: null,
      department: null,
      status: 'OPEN' as const,
      mustBeFilledBy: null,
      replacesEmployeeId: null,
      createdAt: now,
      updatedAt: now,
      ...fields,
    });
    await this.dataSource.getRepository(PositionRequiredSkill).save(
      requiredSkills.map(({ skill, minimumRating }) => ({
        positionId: position.id,
        skillId: skill.id,
        organisationId: this.organisationId,
        minimumRating,
      })),
    );
    await this.dataSource.getRepository(PositionReplacement).save(
      replacements.map(({ candidate, readyAt, status }) => ({
        id: newId(),
        organisationId: this.organisationId,
        positionId: position.id,
        candidateEmployeeId: candidate.id,
        readyAt,
        status,
        createdAt: now,
        updatedAt: now,
      })),
    );
    return position;
  }
}
