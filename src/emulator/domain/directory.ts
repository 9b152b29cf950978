// Users, user groups, languages and content types: the repository behind the directory routes.
import { randomBytes } from 'node:crypto';
import { errors } from '../errors';
import { normaliseGuid } from '../hal';
import type { Queryable } from '../storage/store';
import { NEUTRAL_LANGUAGE } from './languages';
import { load, type UserGroupRow, type UserRow } from './model';

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

/** Ids of users and groups are integers; anything else names nothing (404, as an unknown id). */
function intId(id: string, what: string): number {
  if (!/^\d{1,9}$/.test(id)) throw errors.noDataFound(what, id.slice(0, 100));
  return Number(id);
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

export const languages = {
  list: (db: Queryable) => db.query<LanguageRow>('SELECT * FROM languages ORDER BY is_neutral DESC, culture'),
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
};
