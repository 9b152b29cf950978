// The check framework's repository: the four fixed categories, checks, results on file versions and their findings,
// with the spec's rules (unique check names, the fixed actionTypeId, occurrences unique per result).
import { randomUUID } from 'node:crypto';
import { CHECK_ACTION_TYPE_ID } from '../../core/contract';
import { errors } from '../errors';
import { normaliseGuid } from '../hal';
import type { Queryable } from '../storage/store';

export interface CheckCategoryRow {
  id: string;
  name: string;
}
export interface CheckRow {
  id: string;
  name: string;
  action_type_id: string;
  check_category_id: string;
  created_on: Date;
  modified_on: Date;
}
export interface ResultRow {
  id: string;
  file_version_id: string;
  check_id: string;
  record_id: string;
  outcome: string | null;
  description: string;
  created_on: Date;
  modified_on: Date;
  created_by: number;
}
export interface FindingRow {
  result_id: string;
  occurrence: number;
  id: string;
  finding: string;
  explanation: string | null;
  recommendation: string | null;
  outcome: string;
}

export interface CheckFields {
  name?: string;
  actionTypeId?: string;
  checkCategoryId?: string;
}
export interface FindingFields {
  finding?: string;
  explanation?: string | null;
  recommendation?: string | null;
  outcome?: string;
}

const newId = () => randomUUID().replace(/-/g, '');

function checkRules(fields: CheckFields) {
  if (fields.actionTypeId !== undefined && fields.actionTypeId !== CHECK_ACTION_TYPE_ID) {
    throw errors.validation(`actionTypeId must be the fixed value supplied to integrators (${CHECK_ACTION_TYPE_ID}), not '${fields.actionTypeId}'.`);
  }
}

export const checks = {
  categories: (db: Queryable) => db.query<CheckCategoryRow>('SELECT id, name FROM check_categories ORDER BY name'),

  async category(db: Queryable, id: string): Promise<CheckCategoryRow> {
    const rows = await db.query<CheckCategoryRow>('SELECT id, name FROM check_categories WHERE id = $1', [normaliseGuid(id) ?? id]);
    if (!rows[0]) throw errors.noDataFound('check category', id);
    return rows[0];
  },

  list: (db: Queryable) => db.query<CheckRow>('SELECT * FROM checks ORDER BY name'),

  async find(db: Queryable, id: string): Promise<CheckRow> {
    const rows = await db.query<CheckRow>('SELECT * FROM checks WHERE id = $1', [normaliseGuid(id) ?? id]);
    if (!rows[0]) throw errors.noDataFound('check', id);
    return rows[0];
  },

  async uniqueName(db: Queryable, name: string, except?: string): Promise<void> {
    const rows = await db.query<{ id: string }>('SELECT id FROM checks WHERE lower(name) = lower($1) AND id <> $2', [name, except ?? '']);
    if (rows[0]) throw errors.conflict(`A check named '${name}' already exists (id ${rows[0].id}); check names are unique.`);
  },

  async create(db: Queryable, fields: Required<CheckFields>): Promise<CheckRow> {
    checkRules(fields);
    await checks.category(db, fields.checkCategoryId);
    await checks.uniqueName(db, fields.name);
    const rows = await db.query<CheckRow>('INSERT INTO checks (id, name, action_type_id, check_category_id) VALUES ($1, $2, $3, $4) RETURNING *', [
      newId(),
      fields.name,
      fields.actionTypeId,
      fields.checkCategoryId,
    ]);
    return rows[0];
  },

  /** Deletes a check with its results and their findings. */
  remove: (db: Queryable, check: CheckRow) => db.query('DELETE FROM checks WHERE id = $1', [check.id]),

  async update(db: Queryable, existing: CheckRow, fields: CheckFields): Promise<void> {
    checkRules(fields);
    if (fields.checkCategoryId) await checks.category(db, fields.checkCategoryId);
    if (fields.name) await checks.uniqueName(db, fields.name, existing.id);
    await db.query(
      `UPDATE checks SET name = coalesce($2, name), action_type_id = coalesce($3, action_type_id),
         check_category_id = coalesce($4, check_category_id), modified_on = now() WHERE id = $1`,
      [existing.id, fields.name ?? null, fields.actionTypeId ?? null, fields.checkCategoryId ?? null],
    );
  },
};

export const checkResults = {
  async fileVersion(db: Queryable, id: string): Promise<{ id: string; record_id: string }> {
    const rows = await db.query<{ id: string; record_id: string }>('SELECT id, record_id FROM file_versions WHERE id = $1', [normaliseGuid(id) ?? id]);
    if (!rows[0]) throw errors.noDataFound('file version', id);
    return rows[0];
  },

  /** One result of a file version; 404 when either is unknown. */
  async find(db: Queryable, versionId: string, resultId: string): Promise<ResultRow> {
    const version = await checkResults.fileVersion(db, versionId);
    const rows = await db.query<ResultRow>('SELECT * FROM check_results WHERE id = $1 AND file_version_id = $2', [normaliseGuid(resultId) ?? resultId, version.id]);
    if (!rows[0]) throw errors.noDataFound('check result', resultId);
    return rows[0];
  },

  ofVersion: (db: Queryable, versionId: string) => db.query<ResultRow>('SELECT * FROM check_results WHERE file_version_id = $1 ORDER BY created_on, id', [versionId]),

  /** The newest result of a check on a version. */
  async latest(db: Queryable, versionId: string, checkId: string): Promise<ResultRow> {
    const rows = await db.query<ResultRow>('SELECT * FROM check_results WHERE file_version_id = $1 AND check_id = $2 ORDER BY created_on DESC, id DESC LIMIT 1', [versionId, checkId]);
    if (!rows[0]) throw errors.notFound(`File version ${versionId} has no result of check ${checkId}.`);
    return rows[0];
  },

  /** A result created without an outcome waits for findings to give the rollup (spec: outcome may be null then). */
  async create(db: Queryable, version: { id: string; record_id: string }, checkId: string, outcome: string | null, description: string, userId: number): Promise<ResultRow> {
    const rows = await db.query<ResultRow>(
      `INSERT INTO check_results (id, file_version_id, check_id, record_id, outcome, description, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [newId(), version.id, checkId, version.record_id, outcome, description, userId],
    );
    return rows[0];
  },

  update: (db: Queryable, id: string, outcome: string | null, description: string | undefined) =>
    db.query('UPDATE check_results SET outcome = $2, description = coalesce($3, description), modified_on = now() WHERE id = $1', [id, outcome, description ?? null]),

  remove: (db: Queryable, id: string) => db.query('DELETE FROM check_results WHERE id = $1', [id]),
};

export const findings = {
  ofResult: (db: Queryable, resultId: string) => db.query<FindingRow>('SELECT * FROM check_findings WHERE result_id = $1 ORDER BY occurrence', [resultId]),

  async find(db: Queryable, resultId: string, occurrenceText: string): Promise<FindingRow> {
    const occurrence = Number(occurrenceText);
    if (!/^\d{1,10}$/.test(occurrenceText) || occurrence > 2 ** 31 - 1) throw errors.badRequest(`The occurrence '${occurrenceText.slice(0, 40)}' is not a whole number.`);
    const rows = await db.query<FindingRow>('SELECT * FROM check_findings WHERE result_id = $1 AND occurrence = $2', [resultId, occurrence]);
    if (!rows[0]) throw errors.noDataFound('finding', occurrenceText);
    return rows[0];
  },

  async create(db: Queryable, resultId: string, occurrence: number, fields: Required<Pick<FindingFields, 'finding' | 'outcome'>> & FindingFields): Promise<FindingRow> {
    const taken = await db.query('SELECT 1 FROM check_findings WHERE result_id = $1 AND occurrence = $2', [resultId, occurrence]);
    if (taken.length) throw errors.conflict(`Check result ${resultId} already has a finding with occurrence ${occurrence}; occurrences are unique per result.`);
    const rows = await db.query<FindingRow>(
      `INSERT INTO check_findings (result_id, occurrence, id, finding, explanation, recommendation, outcome) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [resultId, occurrence, newId(), fields.finding, fields.explanation ?? null, fields.recommendation ?? null, fields.outcome],
    );
    return rows[0];
  },

  update: (db: Queryable, existing: FindingRow, fields: FindingFields) =>
    db.query(`UPDATE check_findings SET finding = $3, explanation = $4, recommendation = $5, outcome = $6 WHERE result_id = $1 AND occurrence = $2`, [
      existing.result_id,
      existing.occurrence,
      fields.finding ?? existing.finding,
      fields.explanation === undefined ? existing.explanation : fields.explanation,
      fields.recommendation === undefined ? existing.recommendation : fields.recommendation,
      fields.outcome ?? existing.outcome,
    ]),

  remove: (db: Queryable, existing: FindingRow) => db.query('DELETE FROM check_findings WHERE result_id = $1 AND occurrence = $2', [existing.result_id, existing.occurrence]),
};
