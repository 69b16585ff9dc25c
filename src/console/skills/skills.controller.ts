import { Get, Param, Query } from '@nestjs/common';
import { validateItem } from '../../bulk/bulk';
import { ParseIdPipe } from '../../database/uuid';
import { SkillEmployeesService } from '../../ratings/skill-employees.service';
import { ListSkillsQuery } from '../../skills/dto/list-skills.query';
import { ListSkillGroupsQuery } from '../../skills/groups/dto/list-skill-groups.query';
import { SkillGroupsService } from '../../skills/groups/skill-groups.service';
import { SkillsService } from '../../skills/skills.service';
import { ConsoleController } from '../http/console-controller.decorator';
import { ConsolePage, Page } from '../http/console-request';
import { Html } from '../http/html';
import { pageFieldsOf, pageNumber, queryText } from '../http/query';
import { skillPage } from './skill.page';
import { SKILLS, skillGroupPage, skillsPage } from './skills.page';

/** Skills on one page of a list. */
export const SKILLS_PAGE_SIZE = 50;

/** Groups listed at one level of the tree: ESCO's largest has fewer. */
export const GROUPS_PER_LEVEL = 100;

const SkillId = () => Param('id', new ParseIdPipe('Skill'));
const GroupId = () => Param('id', new ParseIdPipe('Skill group'));

/**
 * The Skills pages: the catalogue (a search over names and aliases, the top groups, every skill), a group with
 * the groups and skills below it, and a skill with its aliases and a chart of its active employees' latest
 * scores. Read through the services the API's routes use, with their queries' own rules (a search of more than
 * 200 characters is 400, another organisation's id 404).
 */
@ConsoleController('skills')
export class SkillsConsoleController {
  constructor(
    private readonly skills: SkillsService,
    private readonly groups: SkillGroupsService,
    private readonly skillEmployees: SkillEmployeesService,
  ) {}

  @Get()
  async list(
    @Page() { organisationId, viewer }: ConsolePage,
    @Query('search') searchParameter: unknown,
    @Query('page') page: unknown,
  ): Promise<Html> {
    const search = queryText(searchParameter);
    const query = validateItem(ListSkillsQuery, {
      page: pageNumber(page),
      limit: SKILLS_PAGE_SIZE,
      ...(search === '' ? {} : { search }),
    });
    const [skills, topGroups] = await Promise.all([
      this.skills.list(organisationId, query),
      search === ''
        ? this.groups.list(
            organisationId,
            validateItem(ListSkillGroupsQuery, { parentId: 'root', limit: GROUPS_PER_LEVEL }),
          )
        : null,
    ]);
    const link = (to: number) =>
      `${SKILLS}?${new URLSearchParams({ ...(search === '' ? {} : { search }), page: String(to) }).toString()}`;
    return skillsPage(viewer, {
      skills: skills.items,
      meta: pageFieldsOf(skills),
      pageLink: link,
      search,
      topGroups: topGroups?.items ?? [],
    });
  }

  @Get('groups/:id')
  async group(
    @Page() { organisationId, viewer }: ConsolePage,
    @GroupId() id: string,
    @Query('page') page: unknown,
  ): Promise<Html> {
    const group = await this.groups.get(organisationId, id);
    const [children, skills] = await Promise.all([
      this.groups.list(organisationId, validateItem(ListSkillGroupsQuery, { parentId: id, limit: GROUPS_PER_LEVEL })),
      this.skills.list(
        organisationId,
        validateItem(ListSkillsQuery, { groupId: id, page: pageNumber(page), limit: SKILLS_PAGE_SIZE }),
      ),
    ]);
    return skillGroupPage(viewer, group, children.items, {
      skills: skills.items,
      meta: pageFieldsOf(skills),
      pageLink: (to) => `${SKILLS}/groups/${id}?page=${to}`,
    });
  }

  @Get(':id')
  async skill(@Page() { organisationId, viewer }: ConsolePage, @SkillId() id: string): Promise<Html> {
    const skill = await this.skills.get(organisationId, id);
    return skillPage(viewer, skill, await this.skillEmployees.activeScoreDistribution(organisationId, id));
  }
}
