import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { API_KEY_CHANGED, ApiKeyChanged } from '../../auth/api-key.events';
import { ActivityService } from './activity.service';

/** Puts every announced key change (the command line's, the console's) into the organisation's activity log. */
@Injectable()
export class ApiKeyActivityListener {
  constructor(private readonly activity: ActivityService) {}

  // Errors go back to the change, which then rolls back: a key change is never left out of the log.
  @OnEvent(API_KEY_CHANGED, { suppressErrors: false })
  async record({ organisationId, keyId, name, change, actor, manager }: ApiKeyChanged): Promise<void> {
    await this.activity.record(
      organisationId,
      {
        actor: actor.who,
        action: change === 'created' ? 'key created' : 'key revoked',
        target: name === null ? keyId : `${name} (${keyId})`,
        clientAddress: actor.clientAddress,
      },
      manager,
    );
  }
}
