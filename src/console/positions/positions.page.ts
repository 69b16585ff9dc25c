import type { PageFields } from '../../pagination/pagination';
import type { CandidateResponse } from '../../positions/dto/candidate.response';
import type {
  PositionDetailResponse,
  PositionResponse,
  PossibleReplacementResponse,
} from '../../positions/dto/position.response';
import { POSITION_STATUSES, PositionStatus } from '../../positions/entities/position.entity';
import { summariseSkillsGap } from '../../positions/skills-gap';
import { barChart } from '../charts/bar-chart';
import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { formatTime } from '../layout/format';
import { signedInPage } from '../layout/layout';
import { filterForm, pager, table } from '../layout/table';

const POSITIONS = '/console/positions';
const EMPLOYEES = '/console/employees';

export interface PositionsView {
  positions: PositionResponse[];
  meta: PageFields;
  status: PositionStatus | undefined;
}

export interface CandidatesView {
  candidates: CandidateResponse[];
  meta: PageFields;
}

function date(value: string | null): Html {
  return value === null ? html`<span class="muted">none</span>` : formatTime(new Date(value));
}

function requirements(position: PositionResponse): string {
  return position.requiredSkills.map(({ skillName, minimumRating }) => `${skillName} ≥ ${minimumRating}`).join(', ');
}

function positionRow(position: PositionResponse): Html {
  return html`<tr>
    <td data-label="Name" class="break"><a href="${POSITIONS}/${position.id}">${position.name}</a></td>
    <td data-label="Status">${position.status}</td>
    <td data-label="Department" class="break">${position.department ?? ''}</td>
    <td data-label="Fill by">${date(position.mustBeFilledBy)}</td>
    <td data-label="Required skills" class="break">${requirements(position)}</td>
  </tr>`;
}

function pageLink(status: PositionStatus | undefined, page: number): string {
  return `${POSITIONS}?${status === undefined ? '' : `status=${status}&`}page=${page}`;
}

/** The organisation's positions, oldest first as GET /positions lists them, 50 a page, filtered by status. */
export function positionsPage(viewer: ConsoleViewer, view: PositionsView): Html {
  const options = POSITION_STATUSES.map(
    (status) => html`<option value="${status}" ${status === view.status ? html`selected` : ''}>${status}</option>`,
  );
  const { total, page, totalPages } = view.meta;
  return signedInPage(
    viewer,
    'Positions',
    'Positions',
    html`<p class="muted">
        The organisation’s positions, oldest first, as <code>GET /api/v1/positions</code> lists them (they come in
        through <code>positions import</code>). Open one for its best candidates.
      </p>
      ${filterForm(
        POSITIONS,
        html`<div>
          <label for="position-status">Status</label>
          <select id="position-status" name="status">
            <option value="">every status</option>
            ${options}
          </select>
        </div>`,
        'Filter',
        { name: 'Filter positions' },
      )}
      <p>
        ${total.toLocaleString('en')}
        position${total === 1 ? '' : 's'}${
          totalPages > 1 ? `: page ${page} of ${totalPages.toLocaleString('en')}` : ''
        }.
      </p>
      ${table(['Name', 'Status', 'Department', 'Fill by', 'Required skills'], view.positions, positionRow)}
      ${pager(
        { label: 'Previous', href: view.meta.hasPrevPage ? pageLink(view.status, page - 1) : null },
        { label: 'Next', href: view.meta.hasNextPage ? pageLink(view.status, page + 1) : null },
      )}`,
  );
}

function facts(position: PositionDetailResponse): Html {
  const none = html`<span class="muted">none</span>`;
  const replaces = position.replacesPerson;
  return html`<dl class="facts">
    <dt>Status</dt>
    <dd>${position.status}</dd>
    <dt>Department</dt>
    <dd class="break">${position.department ?? none}</dd>
    <dt>Fill by</dt>
    <dd>${date(position.mustBeFilledBy)}</dd>
    <dt>Replaces</dt>
    <dd class="break">
      ${
        replaces === null
          ? none
          : html`<a href="${EMPLOYEES}/${replaces.id}">${replaces.firstName} ${replaces.lastName}</a>`
      }
    </dd>
    <dt>Description</dt>
    <dd class="break">${position.description ?? none}</dd>
  </dl>`;
}

function requiredSkillsTable(position: PositionDetailResponse): Html {
  return table(
    ['Skill', 'Minimum'],
    position.requiredSkills,
    ({ skillName, minimumRating }) =>
      html`<tr>
        <td class="break">${skillName}</td>
        <td>${minimumRating}</td>
      </tr>`,
    { stack: false, labelledBy: 'required-heading', empty: html`<p>It requires no skills.</p>` },
  );
}

function replacementRow(replacement: PossibleReplacementResponse): Html {
  const { candidate } = replacement;
  return html`<tr>
    <td data-label="Candidate" class="break">
      <a href="${EMPLOYEES}/${candidate.id}">${candidate.firstName} ${candidate.lastName}</a>
    </td>
    <td data-label="Ready by">${date(replacement.readyAt)}</td>
    <td data-label="Status">${replacement.status}</td>
    <td data-label="Total gap">${summariseSkillsGap(replacement.skillsGap).totalGap}</td>
  </tr>`;
}

function replacementsSection(position: PositionDetailResponse): Html {
  if (position.possibleReplacements.length === 0) return html``;
  return html`<h2 id="replacements-heading">Possible replacements</h2>
    ${table(['Candidate', 'Ready by', 'Status', 'Total gap'], position.possibleReplacements, replacementRow, {
      labelledBy: 'replacements-heading',
    })}`;
}

/**
 * The end of every candidate chart's axis: the highest minimum or score shown, so the bars of one page compare
 * at a glance.
 */
function axisEnd(position: PositionDetailResponse, candidates: readonly CandidateResponse[]): number {
  const minimums = position.requiredSkills.map(({ minimumRating }) => minimumRating);
  const scores = candidates.flatMap(({ skillsGap }) => skillsGap.map(({ currentScore }) => currentScore ?? 0));
  return Math.max(1, ...minimums, ...scores);
}

function candidateCard(candidate: CandidateResponse, rank: number, max: number): Html {
  const { employee, skillsGap } = candidate;
  const name = `${employee.firstName} ${employee.lastName}`;
  return html`<li class="card candidate">
    <h3><span class="rank">${rank}.</span> <a href="${EMPLOYEES}/${employee.id}">${name}</a></h3>
    <p class="muted">
      ${employee.title === null ? '' : `${employee.title} · `}total gap ${candidate.totalGap} · meets
      ${candidate.matchedSkills} of ${skillsGap.length} required skill${skillsGap.length === 1 ? '' : 's'}
    </p>
    ${
      skillsGap.length === 0
        ? ''
        : barChart({
            id: `gap-${employee.id}`,
            title: `Scores of ${name} against the minimums`,
            bars: skillsGap.map((gap) => ({
              label: gap.skillName,
              value: gap.currentScore,
              target: gap.minimumRating,
              tone: gap.gap === 0 ? 'met' : 'short',
            })),
            max,
            headers: { label: 'Skill', value: 'Score', target: 'Minimum' },
            noValue: 'not rated',
            targetWord: 'min',
          })
    }
  </li>`;
}

function candidatesSection(position: PositionDetailResponse, view: CandidatesView): Html {
  const { page, limit, total } = view.meta;
  const base = `${POSITIONS}/${position.id}`;
  const max = axisEnd(position, view.candidates);
  return html`<h2 id="candidates-heading">Best candidates</h2>
    <p class="muted">
      The organisation’s active employees, ranked as <code>GET /api/v1/positions/{id}/candidates</code> ranks them: the
      smallest total gap first, then the most required skills met. Each bar is a latest score; the dark line across it,
      the skill’s minimum.
    </p>
    ${
      view.candidates.length === 0
        ? html`<p>No active employees to rank.</p>`
        : html`<ol class="candidates" aria-labelledby="candidates-heading">
            ${view.candidates.map((candidate, index) => candidateCard(candidate, (page - 1) * limit + index + 1, max))}
          </ol>`
    }
    <nav class="pager" aria-label="Candidates">
      ${view.meta.hasPrevPage ? html`<a href="${base}?page=${page - 1}">Better candidates</a>` : ''}
      ${
        view.meta.hasNextPage
          ? html`<a href="${base}?page=${page + 1}">More candidates</a>
              <span class="muted">(${total.toLocaleString('en')} ranked)</span>`
          : ''
      }
    </nav>`;
}

/** A position: its facts, required skills, possible replacements, and best candidates with their gap bars. */
export function positionPage(
  viewer: ConsoleViewer,
  position: PositionDetailResponse,
  candidates: CandidatesView,
): Html {
  return signedInPage(
    viewer,
    'Positions',
    position.name,
    html`${facts(position)}
      <h2 id="required-heading">Required skills</h2>
      ${requiredSkillsTable(position)} ${replacementsSection(position)} ${candidatesSection(position, candidates)}
      <p><a href="${POSITIONS}">All positions</a></p>`,
  );
}
