import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiKeysService } from '../../auth/api-keys.service';
import { ParseIdPipe } from '../../database/uuid';
import { NotFoundError, ValidationError } from '../../errors/errors';
import { ConsoleController } from '../http/console-controller.decorator';
import { requireAdmin } from '../http/console-errors';
import { ConsoleOrgId, ConsoleRequest, ConsoleViewer, Form, FormFields, Viewer } from '../http/console-request';
import { consoleActor } from '../http/console-write';
import { FlashMessages } from '../http/flash';
import { sendPage } from '../http/page-response';
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
  constructor(
    private readonly apiKeys: ApiKeysService,
    private readonly flash: FlashMessages,
  ) {}

  @Get()
  async list(
    @ConsoleOrgId() organisationId: string,
    @Viewer() viewer: ConsoleViewer,
    @Req() request: ConsoleRequest,
    @Res() response: Response,
  ): Promise<void> {
    const flash = this.flash.take(request, response);
    sendPage(response, apiKeysPage(viewer, await this.apiKeys.list(organisationId), flash, new Date()));
  }

  @Get('new')
  newKey(@Viewer() viewer: ConsoleViewer, @Req() request: ConsoleRequest, @Res() response: Response): void {
    requireAdmin(viewer);
    sendPage(response, newApiKeyPage(viewer, this.flash.take(request, response)));
  }

  @Post()
  async create(
    @ConsoleOrgId() organisationId: string,
    @Form() form: FormFields,
    @Req() request: ConsoleRequest,
    @Res() response: Response,
  ): Promise<void> {
    await this.flash.changeThenSeeOther(
      request,
      response,
      API_KEYS,
      async () => {
        const key = await this.apiKeys.create(
          organisationId,
          {
            name: form.text('name'),
            scopes: form.all('scopes'),
            expiresAt: expiryOf(form.text('expires'), new Date()),
          },
          consoleActor(request),
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
  async confirmRevoke(
    @ConsoleOrgId() organisationId: string,
    @KeyId() id: string,
    @Viewer() viewer: ConsoleViewer,
    @Res() response: Response,
  ): Promise<void> {
    requireAdmin(viewer);
    const key = (await this.apiKeys.list(organisationId)).find((candidate) => candidate.id === id);
    if (!key) throw new NotFoundError('API key');
    sendPage(response, revokeKeyPage(viewer, key));
  }

  @Post(':id/revoke')
  async revoke(
    @ConsoleOrgId() organisationId: string,
    @KeyId() id: string,
    @Req() request: ConsoleRequest,
    @Res() response: Response,
  ): Promise<void> {
    await this.flash.changeThenSeeOther(request, response, API_KEYS, async () => {
      await this.apiKeys.revokeInOrganisation(organisationId, id, consoleActor(request));
      return { notice: 'Revoked. Requests with the key are refused within seconds, on every instance.' };
    });
  }
}
