import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../database/database';
import { Organisation } from './entities/organisation.entity';

/** The SQL of organisations. An organisation is its own scope: its id is the organisationId. */
@Injectable()
export class OrganisationsRepository {
  constructor(private readonly database: Database) {}

  /** False, writing nothing, when another organisation has the name in any case (no unique violation is raised). */
  async insert(organisation: Organisation, manager?: EntityManager): Promise<boolean> {
    const rows: unknown[] = await this.database
      .manager(manager)
      .query(
        `INSERT INTO organisations (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING RETURNING id`,
        [organisation.id, organisation.name, organisation.createdAt],
      );
    return rows.length === 1;
  }

  async findById(organisationId: string, manager?: EntityManager): Promise<Organisation | null> {
    return this.database.manager(manager).findOneBy(Organisation, { id: organisationId });
  }

  /** Across organisations by nature: operators name one by its name, unique whatever its case. */
  async findByName(name: string, manager?: EntityManager): Promise<Organisation | null> {
    return this.database
      .manager(manager)
      .createQueryBuilder(Organisation, 'o')
      .where('lower(o.name) = lower(:name)', { name })
      .getOne();
  }

  /** Across organisations by nature: the operator's list, oldest first. */
  async list(manager?: EntityManager): Promise<Organisation[]> {
    return this.database.manager(manager).find(Organisation, { order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
