import { Get, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ConsoleController } from '../http/console-controller.decorator';
import { ConsoleOrgId, ConsoleRequest, Form, FormFields, Viewer, ConsoleViewer } from '../http/console-request';
import { consoleActor } from '../http/console-write';
import { FlashMessages } from '../http/flash';
import { sendPage } from '../http/page-response';
import { peoplePage } from './people.page';
import { PeopleService } from './people.service';

const PEOPLE = '/console/people';

/** The People page: everyone sees it; only admins invite, change roles and remove (the guard refuses viewers). */
@ConsoleController('people')
export class PeopleController {
  constructor(
    private readonly people: PeopleService,
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
    sendPage(response, peoplePage(viewer, await this.people.list(organisationId), flash));
  }

  @Post()
  async invite(
    @ConsoleOrgId() organisationId: string,
    @Form() form: FormFields,
    @Req() request: ConsoleRequest,
    @Res() response: Response,
  ): Promise<void> {
    await this.flash.changeThenSeeOther(request, response, PEOPLE, async () => {
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
    @Res() response: Response,
  ): Promise<void> {
    await this.flash.changeThenSeeOther(request, response, PEOPLE, async () => {
      await this.people.changeRole(organisationId, id, form.text('role'), consoleActor(request));
      return { notice: 'Role changed. The person signs in again to use it.' };
    });
  }

  @Post(':id/remove')
  async remove(
    @ConsoleOrgId() organisationId: string,
    @Param('id') id: string,
    @Req() request: ConsoleRequest,
    @Res() response: Response,
  ): Promise<void> {
    await this.flash.changeThenSeeOther(request, response, PEOPLE, async () => {
      const removed = await this.people.remove(organisationId, id, consoleActor(request));
      return { notice: `Removed ${removed.email}.` };
    });
  }
}
