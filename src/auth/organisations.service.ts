import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConflictError, NotFoundError } from '../common/errors';
import { isUuid, newId } from '../common/uuid';
import { Organisation } from './entities/organisation.entity';

@Injectable()
export class OrganisationsService {
  constructor(private readonly dataSource: DataSource) {}

  async create(name: string): Promise<Organisation> {
    const repository = this.dataSource.getRepository(Organisation);
    if (await repository.createQueryBuilder('o').where('lower(o.name) = lower(:name)', { name }).getExists()) {
      throw new ConflictError(`An organisation named "${name}" already exists`);
    }
    return repository.save(repository.create({ id: newId(), name, createdAt: new Date() }));
  }

  /** Operators name an organisation by id or by name. */
  async findByIdOrName(reference: string): Promise<Organisation> {
    const query = this.dataSource.getRepository(Organisation).createQueryBuilder('o');
    if (isUuid(reference)) query.where('o.id = :id', { id: reference.toLowerCase() });
    else query.where('lower(o.name) = lower(:name)', { name: reference });
    const organisation = await query.getOne();
    if (!organisation) throw new NotFoundError(`Organisation "${reference}"`);
    return organisation;
  }
}
