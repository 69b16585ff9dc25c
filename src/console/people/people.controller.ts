import { Get, Param, Post, Req } from '@nestjs/common';
import { ConsoleController } from '../http/console-controller.decorator';
import {
  ConsoleOrgId,
  ConsoleRequest,
  ConsoleViewer,
  Flashed,
  Form,
  FormFields,
  Viewer,
} from '../http/console-request';
import { consoleActor } from '../http/console-write';
import { Html } from '../http/html';
import { changeThenSeeOther, SeeOther } from '../http/page-answer';
import { Flash } from '../layout/layout';
import { peoplePage } from './people.page';
import { PeopleService } from './people.service';

const PEOPLE = '/console/people';

/** The People page: everyone sees it; only admins invite, change roles and remove (the guard refuses viewers). */
@ConsoleController('people')
export class PeopleController {
  constructor(private readonly people: PeopleService) {}

  @Get()
  async list(
    @ConsoleOrgId() organisationId: string,
    @Viewer() viewer: ConsoleViewer,
    @Flashed() flash: Flash,
  ): Promise<Html> {
    return peoplePage(viewer, await this.people.list(organisationId), flash);
  }

  @Post()
  async invite(
    @ConsoleOrgId() organisationId: string,
    @Form() form: FormFields,
    @Req() request: ConsoleRequest,
  ): Promise<SeeOther> {
    return changeThenSeeOther(PEOPLE, async () => {
      const { person, link } = await this.people.invite(
        organisationId,
        { email: form.text('email'), role: form.text('role') },
        consoleActor(request),
      );
      return {
        notice: `Invited ${person.email} as ${person.role}. Send them this link; it works once, for 72 hours.`,
        reveal: { label: 'Welcome link', value: link },
      };
    });
  }

  @Post(':id/role')
  async changeRole(
    @ConsoleOrgId() organisationId: string,
    @Param('id') id: string,
    @Form() form: FormFields,
    @Req() request: ConsoleRequest,
  ): Promise<SeeOther> {
    return changeThenSeeOther(PEOPLE, async () => {
      await this.people.changeRole(organisationId, id, form.text('role'), consoleActor(request));
      return { notice: 'Role changed. The person signs in again to use it.' };
    });
  }

  @Post(':id/remove')
  async remove(
    @ConsoleOrgId() organisationId: string,
    @Param('id') id: string,
    @Req() request: ConsoleRequest,
  ): Promise<SeeOther> {
    return changeThenSeeOther(PEOPLE, async () => {
      const removed = await this.people.remove(organisationId, id, consoleActor(request));
      return { notice: `Removed ${removed.email}.` };
    });
  }
}
