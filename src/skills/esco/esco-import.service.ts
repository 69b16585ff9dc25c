import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../database/database';
import { newId } from '../../database/uuid';
import { WriteContext } from '../../database/write-context';
import { ValidationError } from '../../errors/errors';
import { changesBetween } from '../../events/changes';
import { DomainEvents, PublishedEvent } from '../../events/domain-events';
import { nameKey } from '../../names/name-key';
import { MAX_ALIASES } from '../dto/catalogue-fields';
import { SkillRecord, toSkillResponse } from '../dto/skill.response';
import { SkillGroupRecord, toSkillGroupResponse } from '../groups/dto/skill-group.response';
import { SkillGroupsRepository } from '../groups/skill-groups.repository';
import { SkillNamesRepository } from '../resolve/skill-names.repository';
import { SkillsRepository } from '../skills.repository';
import { EscoImportReport, noCounts } from './esco-import.report';
import { ESCO_GROUP_TYPE, ESCO_SKILL_TYPE, ESCO_SOURCE, EscoConcept, EscoInput, EscoRelation } from './esco-input';

/** Skills written per statement: set-based, in slices that keep each statement's arrays a few MB. */
const SKILLS_PER_STATEMENT = 2000;
const MAX_NAME = 200;
const MAX_SKILL_DESCRIPTION = 2000;
const MAX_GROUP_DESCRIPTION = 4000;

interface Change<T> {
  before: T | null;
  after: T;
}

/**
 * `skills import-esco`: skills and groups upserted by source `esco` + externalId = conceptUri, in one transaction
 * (docs/api-decisions.md, "ESCO import"). The input is parsed and checked whole before this runs; here every row is
 * planned against what is stored, and only then written, set-based, with the events of what changed. Nothing
 * is deleted: links are only added, and a second run of the same files writes nothing and records no event.
 */
@Injectable()
export class EscoImportService {
  constructor(
    private readonly database: Database,
    private readonly skills: SkillsRepository,
    private readonly groups: SkillGroupsRepository,
    private readonly names: SkillNamesRepository,
    private readonly events: DomainEvents,
  ) {}

  async import(
    organisationId: string,
    input: EscoInput,
    options: { dryRun: boolean },
    write: WriteContext,
  ): Promise<EscoImportReport> {
    const imported = await this.database.transaction(async (manager) => {
      const report: EscoImportReport = {
        dryRun: options.dryRun,
        skills: noCounts(),
        groups: noCounts(),
        links: noCounts(),
        skipped: [],
      };
      const skip = (row: { file: string; line: number }, reason: string) =>
        report.skipped.push({ file: row.file, line: row.line, reason });
      const now = new Date();

      const groupRows = uniqueRows(input.groups, skip, report.groups);
      const groupChanges = await this.planGroups(organisationId, groupRows, now, skip, manager);
      const groupByUri = new Map(groupChanges.map((change) => [change.after.externalId!, change]));

      const skillRows = uniqueRows(input.skills, skip, report.skills);
      const skillChanges = await this.planSkills(organisationId, skillRows, now, skip, report, manager);
      const skillByUri = new Map(skillChanges.map((change) => [change.after.externalId!, change]));

      const parentLinks = this.planLinks(input.relations, groupByUri, skillByUri, skip, report);
      countChanges(report.groups, groupChanges, groupChanged);
      countChanges(report.skills, skillChanges, skillChanged);
      if (options.dryRun) return report;

      await this.writeGroups(organisationId, groupChanges, parentLinks, now, manager);
      await this.writeSkills(organisationId, skillChanges, now, manager);
      await this.events.publishMany(manager, organisationId, [
        ...groupEvents(groupChanges, now),
        ...skillEvents(skillChanges, now),
      ]);
      return report;
    }, write);
    // A first import multiplies the catalogue's rows: the planner must not keep planning for the empty tables.
    const { skills, groups, links, dryRun } = imported;
    if (!dryRun && skills.created + skills.updated + groups.created + links.created > 0) {
      await this.skills.analyzeCatalogue();
    }
    return imported;
  }

  /** Each group row against the stored group of its conceptUri: created, updated or unchanged. */
  private async planGroups(
    organisationId: string,
    rows: EscoConcept[],
    now: Date,
    skip: (row: EscoConcept, reason: string) => void,
    manager: EntityManager,
  ): Promise<Change<SkillGroupRecord>[]> {
    const valid = rows.filter((row) => validLabel(row, skip));
    const stored = await this.groups.lockBySource(
      organisationId,
      ESCO_SOURCE,
      valid.map((row) => row.uri),
      manager,
    );
    const byUri = new Map(stored.map((group) => [group.externalId!, group]));
    return valid.map((row) => {
      const before = byUri.get(row.uri) ?? null;
      const description = fitted(row, row.description, MAX_GROUP_DESCRIPTION, skip);
      const after: SkillGroupRecord = before
        ? { ...before, name: row.label, description }
        : {
            id: newId(),
            name: row.label,
            description,
            source: ESCO_SOURCE,
            externalId: row.uri,
            parents: [],
            createdAt: now,
            updatedAt: now,
            version: 1,
          };
      return { before, after };
    });
  }

  /**
   * Each skill row against the stored skill of its conceptUri, else a skill of the same name without a source
   * (adopted: it keeps its id and ratings). A name another skill has is skipped, and so is each label that is a
   * skill's name (the catalogue's rule) or does not fit.
   */
  private async planSkills(
    organisationId: string,
    rows: EscoConcept[],
    now: Date,
    skip: (row: EscoConcept, reason: string) => void,
    report: EscoImportReport,
    manager: EntityManager,
  ): Promise<Change<SkillRecord>[]> {
    const named = new Map<string, EscoConcept>();
    const valid = rows.filter((row) => {
      if (!validLabel(row, skip)) return false;
      const earlier = named.get(nameKey(row.label));
      if (earlier) {
        skip(row, `preferredLabel "${row.label}" is the name of the skill on line ${earlier.line}`);
        return false;
      }
      named.set(nameKey(row.label), row);
      return true;
    });
    report.skills.skipped += rows.length - valid.length;
    const stored = await this.skills.lockForImport(
      organisationId,
      ESCO_SOURCE,
      valid.map((row) => row.uri),
      [...named.keys()],
      manager,
    );
    const byUri = new Map(
      stored.filter((skill) => skill.source === ESCO_SOURCE).map((skill) => [skill.externalId!, skill]),
    );
    const byKey = new Map(stored.map((skill) => [skill.nameKey, skill]));
    const takenNames = await this.otherNames(organisationId, valid, manager);
    const changes: Change<SkillRecord>[] = [];
    for (const row of valid) {
      const key = nameKey(row.label);
      const sameName = byKey.get(key);
      const before = byUri.get(row.uri) ?? (sameName && sameName.source === null ? sameName : null);
      if (sameName && sameName.id !== before?.id) {
        skip(row, `preferredLabel "${row.label}" is the name of skill ${sameName.id}`);
        report.skills.skipped += 1;
        continue;
      }
      const labels = aliasesOf(row, key, (label) => takenNames.has(label) || named.has(label), skip);
      const fields = {
        name: row.label,
        nameKey: key,
        description: fitted(row, row.description, MAX_SKILL_DESCRIPTION, skip),
        ...labels,
        source: ESCO_SOURCE,
        externalId: row.uri,
      };
      const after: SkillRecord = before
        ? { ...before, ...fields }
        : {
            id: newId(),
            organisationId,
            ...fields,
            groups: [],
            ratingScaleMin: 0,
            ratingScaleMax: 5,
            ratingScaleType: 'NUMERIC',
            createdAt: now,
            updatedAt: now,
            version: 1,
          };
      changes.push({ before, after });
    }
    return changes;
  }

  /** The keys among the rows' labels that are names of stored skills (a label may not be one). */
  private async otherNames(organisationId: string, rows: EscoConcept[], manager: EntityManager): Promise<Set<string>> {
    const keys = [
      ...new Set(rows.flatMap((row) => [...row.altLabels, ...row.hiddenLabels].map((label) => nameKey(label)))),
    ];
    const matches = await this.names.exactMatches(organisationId, keys, manager);
    return new Set(matches.filter((match) => match.level === 'name').map((match) => match.key));
  }

  /**
   * The parent links of groups, and the groups of skills (set on their records): a skill below another skill
   * joins the groups of that one, up its chain. Links stored already stay; relations naming a concept the files
   * lack (or one skipped) are skipped.
   */
  private planLinks(
    relations: EscoRelation[],
    groupByUri: Map<string, Change<SkillGroupRecord>>,
    skillByUri: Map<string, Change<SkillRecord>>,
    skip: (row: EscoRelation, reason: string) => void,
    report: EscoImportReport,
  ): { groupId: string; parentId: string }[] {
    const parentLinks: { groupId: string; parentId: string }[] = [];
    const directGroups = new Map<string, Set<string>>();
    const broaderSkills = new Map<string, string[]>();
    for (const relation of relations) {
      const known = (type: string, uri: string) =>
        type === ESCO_GROUP_TYPE ? groupByUri.has(uri) : type === ESCO_SKILL_TYPE && skillByUri.has(uri);
      if (!known(relation.conceptType, relation.uri) || !known(relation.broaderType, relation.broaderUri)) {
        skip(
          relation,
          `names a concept the files do not hold, or one skipped: ${relation.uri} → ${relation.broaderUri}`,
        );
        report.links.skipped += 1;
      } else if (relation.conceptType === ESCO_GROUP_TYPE && relation.broaderType === ESCO_GROUP_TYPE) {
        const group = groupByUri.get(relation.uri)!;
        const parent = groupByUri.get(relation.broaderUri)!.after;
        const stored = group.before?.parents.some(({ id }) => id === parent.id) ?? false;
        if (stored) report.links.unchanged += 1;
        else {
          report.links.created += 1;
          group.after.parents = [...group.after.parents, { id: parent.id, name: parent.name }];
        }
        parentLinks.push({ groupId: group.after.id, parentId: parent.id });
      } else if (relation.conceptType === ESCO_SKILL_TYPE && relation.broaderType === ESCO_GROUP_TYPE) {
        const groups = directGroups.get(relation.uri) ?? new Set<string>();
        groups.add(relation.broaderUri);
        directGroups.set(relation.uri, groups);
      } else if (relation.conceptType === ESCO_SKILL_TYPE && relation.broaderType === ESCO_SKILL_TYPE) {
        broaderSkills.set(relation.uri, [...(broaderSkills.get(relation.uri) ?? []), relation.broaderUri]);
      } else {
        skip(relation, `a ${relation.conceptType} below a ${relation.broaderType} is not a link the catalogue has`);
        report.links.skipped += 1;
      }
    }
    const groupsOf = (uri: string, seen: Set<string>): Set<string> => {
      const groups = new Set(directGroups.get(uri) ?? []);
      for (const broader of broaderSkills.get(uri) ?? []) {
        if (seen.has(broader)) continue;
        seen.add(broader);
        for (const group of groupsOf(broader, seen)) groups.add(group);
      }
      return groups;
    };
    for (const [uri, change] of skillByUri) {
      const stored = new Set(change.after.groups.map(({ id }) => id));
      for (const groupUri of groupsOf(uri, new Set([uri]))) {
        const group = groupByUri.get(groupUri)!.after;
        if (stored.has(group.id)) report.links.unchanged += 1;
        else {
          report.links.created += 1;
          stored.add(group.id);
          change.after.groups = [...change.after.groups, { id: group.id, name: group.name }];
        }
      }
    }
    return parentLinks;
  }

  private async writeGroups(
    organisationId: string,
    changes: Change<SkillGroupRecord>[],
    parentLinks: { groupId: string; parentId: string }[],
    now: Date,
    manager: EntityManager,
  ): Promise<void> {
    await this.groups.insertMany(
      organisationId,
      changes.filter((change) => change.before === null).map((change) => change.after),
      manager,
    );
    await this.groups.updateMany(
      organisationId,
      changes
        .filter((change) => change.before !== null && groupChanged(change))
        .map((change) => ({ ...change.after, updatedAt: now })),
      manager,
    );
    await this.groups.addParents(organisationId, parentLinks, manager);
    if (await this.groups.hasCircle(organisationId, manager)) {
      throw new ValidationError('The broader relations would make a skill group its own ancestor');
    }
  }

  /** Updates first (a renamed skill frees its name), then the new skills, each kind in slices. */
  private async writeSkills(organisationId: string, changes: Change<SkillRecord>[], now: Date, manager: EntityManager) {
    const updates = changes
      .filter((change) => change.before !== null && skillChanged(change))
      .map(({ after }) => Object.assign(after, { updatedAt: now }));
    const creates = changes.filter((change) => change.before === null).map(({ after }) => after);
    for (let start = 0; start < updates.length; start += SKILLS_PER_STATEMENT) {
      await this.skills.updateMany(organisationId, updates.slice(start, start + SKILLS_PER_STATEMENT), manager);
    }
    for (let start = 0; start < creates.length; start += SKILLS_PER_STATEMENT) {
      await this.skills.insertMany(organisationId, creates.slice(start, start + SKILLS_PER_STATEMENT), manager);
    }
  }
}

/** The rows with a conceptUri not seen before; a repeated one is skipped. */
function uniqueRows(
  rows: EscoConcept[],
  skip: (row: EscoConcept, reason: string) => void,
  counts: { skipped: number },
): EscoConcept[] {
  const seen = new Map<string, number>();
  return rows.filter((row) => {
    const earlier = seen.get(row.uri);
    if (earlier !== undefined) {
      skip(row, `repeats the conceptUri of line ${earlier}`);
      counts.skipped += 1;
      return false;
    }
    seen.set(row.uri, row.line);
    return true;
  });
}

function validLabel(row: EscoConcept, skip: (row: EscoConcept, reason: string) => void): boolean {
  if (row.uri === '' || row.label === '') skip(row, 'has no conceptUri or no preferredLabel');
  else if (row.label.length > MAX_NAME) skip(row, `preferredLabel is over ${MAX_NAME} characters`);
  else return true;
  return false;
}

/** The value when it fits; else null, the field noted as left out. */
function fitted(
  row: EscoConcept,
  value: string | null,
  max: number,
  skip: (row: EscoConcept, reason: string) => void,
): string | null {
  if (value === null || value.length <= max) return value;
  skip(row, `description left out: over ${max} characters`);
  return null;
}

/**
 * altLabels as aliases and hiddenLabels as hidden aliases: each name once (its own name and repeats dropped
 * quietly, as ESCO repeats labels in other cases), a label that is another skill's name, is over 200 characters
 * or past the 100th left out with its reason.
 */
function aliasesOf(
  row: EscoConcept,
  ownKey: string,
  isOtherName: (key: string) => boolean,
  skip: (row: EscoConcept, reason: string) => void,
): { aliases: string[]; hiddenAliases: string[] } {
  const seen = new Set([ownKey]);
  const pick = (labels: string[], kind: string) => {
    const picked: string[] = [];
    for (const label of labels) {
      const key = nameKey(label);
      if (seen.has(key)) continue;
      seen.add(key);
      if (isOtherName(key)) skip(row, `${kind} "${label}" left out: it is the name of another skill`);
      else if (label.length > MAX_NAME)
        skip(row, `${kind} "${label.slice(0, 40)}…" left out: over ${MAX_NAME} characters`);
      else if (picked.length >= MAX_ALIASES) skip(row, `${kind} "${label}" left out: over ${MAX_ALIASES} of them`);
      else picked.push(label);
    }
    return picked;
  };
  return { aliases: pick(row.altLabels, 'altLabel'), hiddenAliases: pick(row.hiddenLabels, 'hiddenLabel') };
}

function groupChanged({ before, after }: Change<SkillGroupRecord>): boolean {
  if (!before) return true;
  return (
    before.name !== after.name ||
    before.description !== after.description ||
    before.parents.length !== after.parents.length
  );
}

function skillChanged({ before, after }: Change<SkillRecord>): boolean {
  if (!before) return true;
  return (
    JSON.stringify(toSkillResponse(before)) !==
    JSON.stringify(toSkillResponse({ ...after, groups: sortedGroups(after) }))
  );
}

function sortedGroups(skill: SkillRecord) {
  return [...skill.groups].sort((a, b) => (a.name === b.name ? (a.id < b.id ? -1 : 1) : a.name < b.name ? -1 : 1));
}

function countChanges<T>(
  counts: { created: number; updated: number; unchanged: number },
  changes: Change<T>[],
  changed: (change: Change<T>) => boolean,
) {
  for (const change of changes) {
    if (!change.before) counts.created += 1;
    else if (changed(change)) counts.updated += 1;
    else counts.unchanged += 1;
  }
}

function groupEvents(changes: Change<SkillGroupRecord>[], now: Date): PublishedEvent[] {
  return changes.filter(groupChanged).map(({ before, after }) => {
    // An update moved the group's version by one (the trigger, in its UPDATE).
    const data = toSkillGroupResponse(before ? { ...after, updatedAt: now, version: before.version + 1 } : after);
    return before
      ? {
          name: 'skill_group.updated',
          data,
          occurredAt: now,
          changes: changesBetween(toSkillGroupResponse(before), data),
        }
      : { name: 'skill_group.created', data, occurredAt: now };
  });
}

function skillEvents(changes: Change<SkillRecord>[], now: Date): PublishedEvent[] {
  return changes.filter(skillChanged).map(({ before, after }) => {
    // An update moved the skill's version by one (the trigger, in its UPDATE or in the touch of its links).
    const data = toSkillResponse({ ...after, updatedAt: now, version: before ? before.version + 1 : 1 });
    return before
      ? { name: 'skill.updated', data, occurredAt: now, changes: changesBetween(toSkillResponse(before), data) }
      : { name: 'skill.created', data, occurredAt: now };
  });
}
