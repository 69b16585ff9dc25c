import { Get, Param, Post } from '@nestjs/common';
import { ApiKeysService } from '../../auth/api-keys.service';
import { ParseIdPipe } from '../../database/uuid';
import { NotFoundError, ValidationError } from '../../errors/errors';
import { ConsoleController } from '../http/console-controller.decorator';
import { requireAdmin } from '../http/console-errors';
import { Change, ConsoleChange, ConsolePage, Page } from '../http/console-request';
import { Html } from '../http/html';
import { changeThenSeeOther, SeeOther } from '../http/page-answer';
import { apiKeysPage, EXPIRY_DAYS, newApiKeyPage, revokeKeyPage } from './api-keys.page';

const API_KEYS = '/console/api-keys';
const DAY_MS = 24 * 60 * 60 * 1000;

const KeyId = () => Param('id', new ParseIdPipe('API key'));

/** A form's "Expires": never, or one of the choices in days from now. */
function expiryOf(choice: string, now: Date): Date | undefined {
  if (choice === 'never') return undefined;
  const days = EXPIRY_DAYS.find((option) => String(option) === choice);
  if (days === undefined) {
    throw ValidationError.forField('expires', `Expires is never or ${EXPIRY_DAYS.join(', ')} days`);
  }
  return new Date(now.getTime() + days * DAY_MS);
}

/**
 * The API keys page: everyone sees the keys (never a key or its hash); admins create them, seeing each once,
 * and revoke them. Through ApiKeysService, as the command line: its rules, its activity record, and its
 * cache, which lets every instance refuse a revoked key within KEY_CACHE_TTL_MS.
 */
@ConsoleController('api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Get()
  async list(@Page() { organisationId, viewer, flash }: ConsolePage): Promise<Html> {
    return apiKeysPage(viewer, await this.apiKeys.list(organisationId), flash, new Date());
  }

  @Get('new')
  newKey(@Page() { viewer, flash }: ConsolePage): Html {
    requireAdmin(viewer);
    return newApiKeyPage(viewer, flash);
  }

  @Post()
  async create(@Change() { organisationId, form, actor }: ConsoleChange): Promise<SeeOther> {
    return changeThenSeeOther(
      API_KEYS,
      async () => {
        const key = await this.apiKeys.create(
          organisationId,
          {
            name: form.text('name'),
            scopes: form.all('scopes'),
            expiresAt: expiryOf(form.text('expires'), new Date()),
          },
          actor,
        );
        return {
          notice: `Created ${key.name ?? key.id} (${key.scopes.join(', ')}).`,
          reveal: { label: 'New API key', value: key.key },
        };
      },
      `${API_KEYS}/new`,
    );
  }

  @Get(':id/revoke')
  async confirmRevoke(@Page() { organisationId, viewer }: ConsolePage, @KeyId() id: string): Promise<Html> {
    requireAdmin(viewer);
    const key = (await this.apiKeys.list(organisationId)).find((candidate) => candidate.id === id);
    if (!key) throw new NotFoundError('API key');
    return revokeKeyPage(viewer, key);
  }

  @Post(':id/revoke')
  async revoke(@Change() { organisationId, actor }: ConsoleChange, @KeyId() id: string): Promise<SeeOther> {
    return changeThenSeeOther(API_KEYS, async () => {
      await this.apiKeys.revokeInOrganisation(organisationId, id, actor);
      return { notice: 'Revoked. Requests with the key are refused within seconds, on every instance.' };
    });
  }
}
