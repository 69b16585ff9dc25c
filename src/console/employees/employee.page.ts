import type { EmployeeDetailResponse, EmployeeSkillResponse } from '../../employees/dto/employee.response';
import type { RatingHistory } from '../../ratings/ratings.repository';
import { RATING_TYPES, RatingType } from '../../skills/rating-types';
import { timeChart, TimeSeries } from '../charts/time-chart';
import { ConsoleViewer } from '../http/console-request';
import { Html, html } from '../http/html';
import { formatTime } from '../layout/format';
import { Flash, signedInPage } from '../layout/layout';
import { table } from '../layout/table';
import { fullName, statusOf } from './employees.page';

const EMPLOYEES = '/console/employees';

/** The rating types as people read them; the API's names stay in the export. */
const RATING_TYPE_LABELS: Record<RatingType, string> = {
  MANAGER_EVALUATION: 'Manager evaluation',
  SELF_ASSESMENT: 'Self-assessment',
  LLM_RATING: 'LLM rating',
};

/** The series of a rating history chart: one per rating type, each with its own mark. */
const RATING_SERIES: readonly TimeSeries[] = RATING_TYPES.map((type) => ({
  key: type,
  label: RATING_TYPE_LABELS[type],
}));

function date(value: string | null): Html {
  return formatTime(value === null ? null : new Date(value));
}

function facts(employee: EmployeeDetailResponse): Html {
  const none = html`<span class="muted">none</span>`;
  const status = statusOf(employee);
  return html`<dl class="facts">
    <dt>Personnel number</dt>
    <dd class="break">${employee.personnelNumber}</dd>
    <dt>Email</dt>
    <dd class="break">${employee.businessEmail}</dd>
    <dt>Title</dt>
    <dd class="break">${employee.title ?? none}</dd>
    <dt>Department</dt>
    <dd class="break">${employee.departmentId ?? none}</dd>
    <dt>Gender</dt>
    <dd class="break">${employee.gender ?? none}</dd>
    <dt>Status</dt>
    <dd><span class="status status-${status}">${status}</span></dd>
    <dt>Hired</dt>
    <dd>${employee.hiredAt === null ? none : date(employee.hiredAt)}</dd>
    <dt>Left</dt>
    <dd>${employee.leftAt === null ? none : date(employee.leftAt)}</dd>
    <dt>HR team member</dt>
    <dd>${employee.isHRTeamMember ? 'yes' : 'no'}</dd>
    <dt>Created</dt>
    <dd>${date(employee.createdAt)}</dd>
    <dt>Updated</dt>
    <dd>${date(employee.updatedAt)}</dd>
  </dl>`;
}

function skillRow(skill: EmployeeSkillResponse): Html {
  const latest = skill.latestRating;
  return html`<tr>
    <td data-label="Skill" class="break">${skill.skillName}</td>
    <td data-label="Latest score">${latest === null ? html`<span class="muted">not rated</span>` : latest.score}</td>
    <td data-label="Type">${latest === null ? '' : RATING_TYPE_LABELS[latest.ratingType]}</td>
    <td data-label="Rated">${latest === null ? '' : date(latest.createdAt)}</td>
  </tr>`;
}

function skillsTable(skills: EmployeeSkillResponse[]): Html {
  return table(['Skill', 'Latest score', 'Type', 'Rated'], skills, skillRow, {
    labelledBy: 'skills-heading',
    empty: html`<p>No skills yet.</p>`,
  });
}

/** One skill's ratings as a chart: score over time, one mark per rating, shaped by its type. */
function historySection(skill: EmployeeSkillResponse, history: RatingHistory): Html {
  const id = `history-${skill.skillId}`;
  const shown = history.ratings.length;
  const count =
    shown === history.total
      ? `${history.total} rating${history.total === 1 ? '' : 's'}`
      : `The latest ${shown} of ${history.total.toLocaleString('en')} ratings`;
  return html`<section class="card chart-card" aria-labelledby="${id}-heading">
    <h3 id="${id}-heading">${skill.skillName}</h3>
    <p class="muted">${count}, on a scale of ${history.ratingScaleMin} to ${history.ratingScaleMax}.</p>
    ${timeChart({
      id,
      title: `Rating history of ${skill.skillName}`,
      points: history.ratings.map((rating) => ({
        at: rating.createdAt,
        value: rating.score,
        series: rating.ratingType,
      })),
      min: history.ratingScaleMin,
      max: history.ratingScaleMax,
      series: RATING_SERIES,
      headers: { at: 'Date', value: 'Score', series: 'Type' },
    })}
  </section>`;
}

function historiesOf(skills: EmployeeSkillResponse[], histories: RatingHistory[]): Html {
  const bySkill = new Map(histories.map((history) => [history.skillId, history]));
  const sections = skills.flatMap((skill) => {
    const history = bySkill.get(skill.skillId);
    return history === undefined ? [] : [historySection(skill, history)];
  });
  if (sections.length === 0) return html`<p>No ratings yet.</p>`;
  return html`<div class="charts">${sections}</div>`;
}

/**
 * An employee: their fields, "Export personal data" (everyone) and "Erase employee" (admins), their skills with
 * the latest rating of each, and each rated skill's history as a chart with its numbers in a table.
 */
export function employeePage(
  viewer: ConsoleViewer,
  employee: EmployeeDetailResponse,
  histories: RatingHistory[],
  flash: Flash,
): Html {
  const base = `${EMPLOYEES}/${employee.id}`;
  return signedInPage(
    viewer,
    'Employees',
    fullName(employee),
    html`${facts(employee)}
      <div class="buttons">
        <form method="post" action="${base}/personal-data">
          <button type="submit">Export personal data</button>
        </form>
        ${
          viewer.role === 'admin'
            ? html`<form method="get" action="${base}/erase">
                <button type="submit" class="danger">Erase employee</button>
              </form>`
            : ''
        }
      </div>
      <h2 id="skills-heading">Skills</h2>
      ${skillsTable(employee.skills)}
      <h2>Rating history</h2>
      ${historiesOf(employee.skills, histories)}
      <p><a href="${EMPLOYEES}">All employees</a></p>`,
    flash,
  );
}

/** "Erase employee": the second step, confirmed by typing the personnel number. */
export function eraseEmployeePage(viewer: ConsoleViewer, employee: EmployeeDetailResponse, flash: Flash): Html {
  const base = `${EMPLOYEES}/${employee.id}`;
  return signedInPage(
    viewer,
    'Employees',
    'Erase employee',
    html`<form method="post" action="${base}/erase" class="card">
      <p class="break">
        Erase <strong>${fullName(employee)}</strong> for good? Their record, skills, ratings and comments go, their
        place in positions is cleared, and every event and kept response naming them keeps only their id. This cannot be
        undone: export their personal data first if it is still needed.
      </p>
      <label for="erase-personnel-number">Personnel number</label>
      <input
        id="erase-personnel-number"
        name="personnelNumber"
        type="text"
        required
        autocomplete="off"
        spellcheck="false"
        aria-describedby="erase-hint"
      />
      <p class="muted" id="erase-hint">Type <strong>${employee.personnelNumber}</strong> to confirm.</p>
      <div class="buttons">
        <button type="submit" class="danger">Erase</button>
        <a href="${base}">Cancel</a>
      </div>
    </form>`,
    flash,
  );
}
