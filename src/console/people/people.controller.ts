import { Get, Param, Post } from '@nestjs/common';
import { ConsoleController } from '../http/console-controller.decorator';
import { Change, ConsoleChange, ConsolePage, Page } from '../http/console-request';
import { Html } from '../http/html';
import { changeThenSeeOther, SeeOther } from '../http/page-answer';
import { peoplePage } from './people.page';
import { PeopleService } from './people.service';

const PEOPLE = '/console/people';

/** The People page: everyone sees it; only admins invite, change roles and remove (the guard refuses viewers). */
@ConsoleController('people')
export class PeopleController {
  constructor(private readonly people: PeopleService) {}

  @Get()
  async list(@Page() { organisationId, viewer, flash }: ConsolePage): Promise<Html> {
    return peoplePage(viewer, await this.people.list(organisationId), flash);
  }

  @Post()
  async invite(@Change() { organisationId, form, actor }: ConsoleChange): Promise<SeeOther> {
    return changeThenSeeOther(PEOPLE, async () => {
      const { person, link } = await this.people.invite(
        organisationId,
        { email: form.text('email'), role: form.text('role') },
        actor,
      );
      return {
        notice: `Invited ${person.email} as ${person.role}. Send them this link; it works once, for 72 hours.`,
        reveal: { label: 'Welcome link', value: link },
      };
    });
  }

  @Post(':id/role')
  async changeRole(
    @Change() { organisationId, form, actor }: ConsoleChange,
    @Param('id') id: string,
  ): Promise<SeeOther> {
    return changeThenSeeOther(PEOPLE, async () => {
      await this.people.changeRole(organisationId, id, form.text('role'), actor);
      return { notice: 'Role changed. The person signs in again to use it.' };
    });
  }

  @Post(':id/remove')
  async remove(@Change() { organisationId, actor }: ConsoleChange, @Param('id') id: string): Promise<SeeOther> {
    return changeThenSeeOther(PEOPLE, async () => {
      const removed = await this.people.remove(organisationId, id, actor);
      return { notice: `Removed ${removed.email}.` };
    });
  }
}
