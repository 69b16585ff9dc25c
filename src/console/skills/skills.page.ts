import type { PageFields } from '../../pagination/pagination';
import type { SkillResponse } from '../../skills/dto/skill.response';
import type { SkillGroupDetailResponse, SkillGroupResponse } from '../../skills/groups/dto/skill-group.response';
import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { signedInPage } from '../layout/layout';
import { filterForm, pager, searchField, table } from '../layout/table';

export const SKILLS = '/console/skills';

/** A page of skills as the page shows it: the list, the search that made it, and where its pages are. */
export interface SkillsView {
  skills: SkillResponse[];
  meta: PageFields;
  /** The page's own URL with `page=` left to add: its search or group kept. */
  pageLink: (page: number) => string;
}

function none(): Html {
  return html`<span class="muted">none</span>`;
}

function skillRow(skill: SkillResponse): Html {
  return html`<tr>
    <td data-label="Name" class="break"><a href="${SKILLS}/${skill.id}">${skill.name}</a></td>
    <td data-label="Aliases" class="break">${skill.aliases.length === 0 ? none() : skill.aliases.join(', ')}</td>
    <td data-label="Groups" class="break">${skill.groups.length === 0 ? none() : groupLinks(skill.groups)}</td>
    <td data-label="Source">${skill.source ?? none()}</td>
  </tr>`;
}

export function groupLinks(groups: ReadonlyArray<{ id: string; name: string }>): Html {
  return html`${groups.map(
    (group, index) => html`${index === 0 ? '' : ', '}<a href="${SKILLS}/groups/${group.id}">${group.name}</a>`,
  )}`;
}

function countLine(meta: PageFields, what: string): string {
  const counted = `${meta.total.toLocaleString('en')} skill${meta.total === 1 ? '' : 's'}${what}`;
  return meta.totalPages <= 1
    ? `${counted}.`
    : `${counted}: page ${meta.page} of ${meta.totalPages.toLocaleString('en')}.`;
}

function skillsTable(view: SkillsView, what: string): Html {
  return html`<p>${countLine(view.meta, what)}</p>
    ${table(['Name', 'Aliases', 'Groups', 'Source'], view.skills, skillRow)}
    ${pager(
      { label: 'Previous', href: view.meta.hasPrevPage ? view.pageLink(view.meta.page - 1) : null },
      { label: 'Next', href: view.meta.hasNextPage ? view.pageLink(view.meta.page + 1) : null },
    )}`;
}

/**
 * A list of groups as one level of the tree: each opens (its own page) to its children and skills. A list, not
 * an ARIA tree: links a keyboard and a screen reader follow as they are, with no script.
 */
function groupTree(groups: SkillGroupResponse[], labelledBy: string, empty: string): Html {
  if (groups.length === 0) return html`<p>${empty}</p>`;
  return html`<ul class="group-tree" aria-labelledby="${labelledBy}">
    ${groups.map(
      (group) =>
        html`<li>
          <a href="${SKILLS}/groups/${group.id}">${group.name}</a>
          ${group.source === null ? '' : html`<span class="muted">(${group.source})</span>`}
        </li>`,
    )}
  </ul>`;
}

function searchForm(search: string): Html {
  return html`${filterForm(SKILLS, searchField('skill-search', search, 'skill-search-hint'), 'Search', {
      name: 'Skills',
      search: true,
    })}
    <p class="muted hint" id="skill-search-hint">Part of a name or of an alias.</p>`;
}

/**
 * The catalogue: a search over names and aliases (as GET /skills?search=), the top groups (GET
 * /skill-groups?parentId=root), each opening to what is below it, and every skill, 50 a page.
 */
export function skillsPage(
  viewer: ConsoleViewer,
  view: SkillsView & { search: string; topGroups: SkillGroupResponse[] },
): Html {
  const searching = view.search !== '';
  return signedInPage(
    viewer,
    'Skills',
    'Skills',
    html`<p class="muted">
        The organisation’s skills catalogue, as <code>GET /api/v1/skills</code> and
        <code>GET /api/v1/skill-groups</code> list it. Open a group for what is below it, a skill for its names and how
        its employees score.
      </p>
      ${searchForm(view.search)}
      ${
        searching
          ? ''
          : html`<h2 id="groups-heading">Groups</h2>
              ${groupTree(view.topGroups, 'groups-heading', 'No groups yet.')}
              <h2>Every skill</h2>`
      }
      ${skillsTable(view, searching ? ` matching “${view.search}”` : '')}`,
  );
}

/** A group: where it sits (its parents), the groups below it, and the skills in it or below it. */
export function skillGroupPage(
  viewer: ConsoleViewer,
  group: SkillGroupDetailResponse,
  children: SkillGroupResponse[],
  skills: SkillsView,
): Html {
  return signedInPage(
    viewer,
    'Skills',
    group.name,
    html`<p><a href="${SKILLS}">All skills and groups</a></p>
      ${group.description === null ? '' : html`<p class="break">${group.description}</p>`}
      <dl class="facts">
        <dt>In</dt>
        <dd class="break">${group.parents.length === 0 ? 'the top of the catalogue' : groupLinks(group.parents)}</dd>
        <dt>Source</dt>
        <dd class="break">${group.source ?? none()}</dd>
        <dt>External id</dt>
        <dd class="break">${group.externalId ?? none()}</dd>
        <dt>Skills</dt>
        <dd>${group.skillCount.toLocaleString('en')}, in it or below it</dd>
      </dl>
      <h2 id="children-heading">Groups below</h2>
      ${groupTree(children, 'children-heading', 'No groups below this one.')}
      <h2>Skills in it or below it</h2>
      ${skillsTable(skills, '')}`,
  );
}
