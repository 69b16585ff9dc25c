/** Where a row of an ESCO file is: the file's name and the line its record starts on. */
export interface EscoRowPlace {
  file: string;
  line: number;
}

/** A skill (skills_en.csv) or skill group (skillGroups_en.csv) as ESCO publishes it. */
export interface EscoConcept extends EscoRowPlace {
  /** `conceptUri`: the id the import matches by (externalId, source `esco`). */
  uri: string;
  /** `preferredLabel`. */
  label: string;
  /** `altLabels` and `hiddenLabels`, one label per line of the field. */
  altLabels: string[];
  hiddenLabels: string[];
  description: string | null;
}

/** A row of broaderRelationsSkillPillar_en.csv: the concept `uri` lies below `broaderUri`. */
export interface EscoRelation extends EscoRowPlace {
  conceptType: string;
  uri: string;
  broaderType: string;
  broaderUri: string;
}

/** The three files of ESCO's CSV download the import reads, checked and parsed whole. */
export interface EscoInput {
  skills: EscoConcept[];
  groups: EscoConcept[];
  relations: EscoRelation[];
}

/** ESCO's conceptType of a skill or knowledge concept, and of a skill group. */
export const ESCO_SKILL_TYPE = 'KnowledgeSkillCompetence';
export const ESCO_GROUP_TYPE = 'SkillGroup';

/** The `source` of every skill and group the import writes. */
export const ESCO_SOURCE = 'esco';
