import { Injectable } from '@nestjs/common';
import { isUuid, newId } from '../database/uuid';
import { ConflictError, NotFoundError, ValidationError } from '../errors/errors';
import { Organisation } from './entities/organisation.entity';
import { OrganisationsRepository } from './organisations.repository';

const NAME_MAX_LENGTH = 200;

@Injectable()
export class OrganisationsService {
  constructor(private readonly organisations: OrganisationsRepository) {}

  /** A name is trimmed; a blank one, or one that another organisation has in any case, is refused. */
  async create(name: string): Promise<Organisation> {
    const trimmed = name.trim();
    if (trimmed === '') throw ValidationError.forField('name', 'An organisation name must not be empty');
    if (trimmed.length > NAME_MAX_LENGTH) {
      throw ValidationError.forField('name', `An organisation name has at most ${NAME_MAX_LENGTH} characters`);
    }
    const duplicate = new ConflictError(`An organisation named "${trimmed}" already exists`);
    if (await this.organisations.findByName(trimmed)) throw duplicate;
    const organisation: Organisation = { id: newId(), name: trimmed, createdAt: new Date() };
    if (!(await this.organisations.insert(organisation))) throw duplicate;
    return organisation;
  }

  /** Every organisation, oldest first. */
  async list(): Promise<Organisation[]> {
    return this.organisations.list();
  }

  /** The organisation of an authenticated key. */
  async get(organisationId: string): Promise<Organisation> {
    const organisation = await this.organisations.findById(organisationId);
    if (!organisation) throw new NotFoundError('Organisation');
    return organisation;
  }

  /** Operators name an organisation by id or by name. */
  async findByIdOrName(reference: string): Promise<Organisation> {
    const organisation = isUuid(reference)
      ? await this.organisations.findById(reference.toLowerCase())
      : await this.organisations.findByName(reference);
    if (!organisation) throw new NotFoundError(`Organisation "${reference}"`);
    return organisation;
  }
}
