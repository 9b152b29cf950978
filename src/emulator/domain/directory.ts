// Users, user groups, languages and content types: the repository behind the directory routes.
import { randomBytes } from 'node:crypto';
import { errors } from '../errors';
import { normaliseGuid } from '../hal';
import type { Queryable } from '../storage/store';
import { NEUTRAL_LANGUAGE } from './languages';
import { load, type UserGroupRow, type UserRow } from './model';
import { groupIdOfGuid, userIdOfGuid } from '../../core/contract';

export interface LanguageRow {
  id: string;
  culture: string;
  name: string;
  is_neutral: boolean;
}
export interface ContentTypeRow {
  id: string;
  name: string;
  labels: { languageId: string; value: string }[];
}

export interface UserChanges {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  languageId?: string | null;
  isActive?: boolean | null;
}

export interface NewUser extends UserChanges {
  login: string;
  password?: string | null;
}

/**
 * The content API names users and groups by GUID (emulator contract, "Fixed ids"); the integer ids of the
 * work-management API are taken too, as the emulator always took them. Anything else names nothing (404).
 */
function intId(id: string, what: 'user' | 'user group'): number {
  const fromGuid = what === 'user' ? userIdOfGuid(id) : groupIdOfGuid(id);
  if (fromGuid !== undefined) return fromGuid;
  if (!/^\d{1,9}$/.test(id)) throw errors.noDataFound(what, id.slice(0, 100));
  return Number(id);
}

/** A member id of a group edit (a GUID or an integer) as the integer the storage keys users by. */
export function memberId(id: unknown): number {
  const text = String(id);
  return userIdOfGuid(text) ?? (/^\d{1,9}$/.test(text) ? Number(text) : NaN);
}

async function knownLanguage(db: Queryable, id: string | null | undefined): Promise<string> {
  const language = id === null || id === undefined ? NEUTRAL_LANGUAGE : (normaliseGuid(id) ?? '');
  if (!language || !(await db.query('SELECT 1 FROM languages WHERE id = $1', [language])).length) throw errors.noDataFound('language', String(id));
  return language;
}

export const users = {
  list: (db: Queryable) => db.query<UserRow>('SELECT * FROM users ORDER BY id'),

  async find(db: Queryable, id: string): Promise<UserRow> {
    const row = (await load.users(db, [intId(id, 'user')]))[0];
    if (!row) throw errors.noDataFound('user', id);
    return row;
  },

  groupsOf: (db: Queryable, userId: number) =>
    db.query<UserGroupRow>('SELECT g.* FROM user_groups g JOIN user_group_members m ON m.group_id = g.id WHERE m.user_id = $1 ORDER BY g.id', [userId]),

  async update(db: Queryable, user: UserRow, changes: UserChanges, now: Date): Promise<void> {
    const language = changes.languageId === undefined ? user.language_id : await knownLanguage(db, changes.languageId);
    await db.query('UPDATE users SET first_name = $1, last_name = $2, email = $3, language_id = $4, active = $5, modified_on = $6 WHERE id = $7', [
      changes.firstName === undefined ? user.first_name : (changes.firstName ?? ''),
      changes.lastName === undefined ? user.last_name : (changes.lastName ?? ''),
      changes.email === undefined ? user.email : (changes.email ?? ''),
      language,
      changes.isActive === undefined ? user.active : (changes.isActive ?? true),
      now.toISOString(),
      user.id,
    ]);
  },

  /** New users get ids above the seeded ones; without a password they cannot use the password flow. */
  async create(db: Queryable, user: NewUser, now: Date): Promise<number> {
    if ((await db.query('SELECT 1 FROM users WHERE lower(login) = lower($1)', [user.login])).length) throw errors.conflict(`A user with login '${user.login.slice(0, 100)}' already exists.`);
    const language = await knownLanguage(db, user.languageId);
    const row = (
      await db.query<{ id: number }>(
        `INSERT INTO users (id, login, password, first_name, last_name, email, active, language_id, created_on, modified_on)
         VALUES ((SELECT greatest(coalesce(max(id), 0), 9999) + 1 FROM users), $1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id`,
        [user.login, user.password ?? randomBytes(18).toString('base64url'), user.firstName ?? '', user.lastName ?? '', user.email ?? '', user.isActive ?? true, language, now.toISOString()],
      )
    )[0];
    return row.id;
  },

  async remove(db: Queryable, user: UserRow): Promise<void> {
    // The emulator's registered clients act as users; removing one would orphan every token it issues.
    if ((await db.query('SELECT 1 FROM clients WHERE user_id = $1', [user.id])).length) {
      throw errors.conflict(`User ${user.id} is the identity of a registered client and cannot be deleted.`);
    }
    await db.query('DELETE FROM users WHERE id = $1', [user.id]);
  },
};

export const groups = {
  list: (db: Queryable) => db.query<UserGroupRow>('SELECT * FROM user_groups ORDER BY id'),

  async find(db: Queryable, id: string): Promise<UserGroupRow> {
    const row = (await db.query<UserGroupRow>('SELECT * FROM user_groups WHERE id = $1', [intId(id, 'user group')]))[0];
    if (!row) throw errors.noDataFound('user group', id);
    return row;
  },

  members: (db: Queryable, groupId: number) =>
    db.query<UserRow>('SELECT u.* FROM users u JOIN user_group_members m ON m.user_id = u.id WHERE m.group_id = $1 ORDER BY u.id', [groupId]),

  async create(db: Queryable, name: string): Promise<number> {
    const row = (await db.query<{ id: number }>('INSERT INTO user_groups (id, name) VALUES ((SELECT greatest(coalesce(max(id), 0), 999) + 1 FROM user_groups), $1) RETURNING id', [name]))[0];
    return row.id;
  },

  rename: (db: Queryable, groupId: number, name: string, now: Date) => db.query('UPDATE user_groups SET name = $1, modified_on = $2 WHERE id = $3', [name, now.toISOString(), groupId]),

  /** The spec's nested-collection edit: `addOrUpdate` and `remove` sections of user ids (call it in a transaction). */
  async changeMembers(tx: Queryable, groupId: number, members: { addOrUpdate?: number[]; remove?: number[] }): Promise<void> {
    for (const id of members.remove ?? []) await tx.query('DELETE FROM user_group_members WHERE group_id = $1 AND user_id = $2', [groupId, id]);
    for (const id of members.addOrUpdate ?? []) {
      if (!Number.isInteger(id) || !(await tx.query('SELECT 1 FROM users WHERE id = $1', [id])).length) throw errors.noDataFound('user', String(id));
      await tx.query('INSERT INTO user_group_members (group_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [groupId, id]);
    }
  },

  remove: (db: Queryable, groupId: number) => db.query('DELETE FROM user_groups WHERE id = $1', [groupId]),
};

/** A culture name as .NET writes it (en-US, zh-Hant-TW, de): checked so a typo is a 400, not a language. */
const CULTURE = /^[a-z]{2,3}(-[A-Za-z]{4})?(-([A-Z]{2}|\d{3}))?$/;

export const languages = {
  list: (db: Queryable) => db.query<LanguageRow>('SELECT * FROM languages ORDER BY is_neutral DESC, culture'),

  /** Adds a language (administrators, `dam tenant push`); its culture is unique. Returns its id. */
  async create(db: Queryable, fields: { culture: string; name?: string | null; id?: string | null }): Promise<string> {
    if (!CULTURE.test(fields.culture)) throw errors.validation(`culture '${fields.culture.slice(0, 40)}' is not a culture name such as en-US.`);
    if ((await db.query('SELECT 1 FROM languages WHERE lower(culture) = lower($1)', [fields.culture])).length) {
      throw errors.validation(`A language with the culture '${fields.culture}' already exists.`);
    }
    const id = (fields.id && normaliseGuid(fields.id)) || randomBytes(16).toString('hex');
    await db.query('INSERT INTO languages (id, culture, name, is_neutral) VALUES ($1, $2, $3, false)', [id, fields.culture, fields.name || fields.culture]);
    return id;
  },

  async rename(db: Queryable, row: LanguageRow, name: string): Promise<void> {
    await db.query('UPDATE languages SET name = $1 WHERE id = $2', [name, row.id]);
  },

  /** Removes a language with the values and labels kept in it; the neutral language stays. */
  async remove(db: Queryable, row: LanguageRow): Promise<void> {
    if (row.is_neutral || row.id === NEUTRAL_LANGUAGE) throw errors.validation('The neutral language cannot be deleted.');
    await db.query('DELETE FROM field_values WHERE language_id = dam_uid($1)', [row.id]);
    await db.query('DELETE FROM languages WHERE id = $1', [row.id]);
  },
  async find(db: Queryable, id: string): Promise<LanguageRow> {
    const guid = normaliseGuid(id);
    const row = guid ? (await db.query<LanguageRow>('SELECT * FROM languages WHERE id = $1', [guid]))[0] : undefined;
    if (!row) throw errors.noDataFound('language', id.slice(0, 100));
    return row;
  },
};

export const contentTypes = {
  list: (db: Queryable) => db.query<ContentTypeRow>('SELECT * FROM content_types ORDER BY name'),
  /** By id or name. */
  async find(db: Queryable, idOrName: string): Promise<ContentTypeRow> {
    const row = (await db.query<ContentTypeRow>('SELECT * FROM content_types WHERE id = $1 OR lower(name) = lower($2::text)', [normaliseGuid(idOrName) ?? '', idOrName]))[0];
    if (!row) throw errors.noDataFound('content type', idOrName.slice(0, 100));
    return row;
  },

  /** Adds a content type (administrators, `dam tenant push`); its name is unique. Returns its id. */
  async create(db: Queryable, fields: { name: string; labels?: { languageId: string; value: string }[] | null }): Promise<string> {
    if ((await db.query('SELECT 1 FROM content_types WHERE lower(name) = lower($1)', [fields.name])).length) {
      throw errors.validation(`A content type named '${fields.name}' already exists.`);
    }
    const id = randomBytes(16).toString('hex');
    await db.query('INSERT INTO content_types (id, name, labels) VALUES ($1, $2, $3)', [id, fields.name, JSON.stringify(fields.labels ?? [])]);
    return id;
  },

  async update(db: Queryable, row: ContentTypeRow, fields: { name?: string | null; labels?: { languageId: string; value: string }[] | null }): Promise<void> {
    if (fields.name && fields.name.toLowerCase() !== row.name.toLowerCase()) {
      throw errors.validation(`A content type's name does not change (records name it): '${row.name}' stays '${row.name}'.`);
    }
    if (fields.labels !== undefined) await db.query('UPDATE content_types SET labels = $1 WHERE id = $2', [JSON.stringify(fields.labels ?? []), row.id]);
  },

  /** Removes a content type no record has. */
  async remove(db: Queryable, row: ContentTypeRow): Promise<void> {
    const used = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM records WHERE lower(content_type) = lower($1)', [row.name]);
    if (used[0]?.n) throw errors.validation(`The content type '${row.name}' is used by ${used[0].n} records and cannot be deleted.`);
    await db.query('DELETE FROM content_types WHERE id = $1', [row.id]);
  },
};
