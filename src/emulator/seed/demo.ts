// The demo tenant: a classification tree, field groups and definitions, and 600 records with field values.
import { insertFieldValues, insertRecordClassifications, insertRecords, type FieldValueRow, type RecordRow } from '../domain/bulk';
import type { Queryable } from '../storage/store';
import { EN_US, NEUTRAL_LANGUAGE } from './fixed';
import type { Rng } from '../rng';
import type { Seeder } from './seeder';

interface TreeNode {
  name: string;
  children?: TreeNode[];
}

const TREE: TreeNode[] = [
  {
    name: 'Products',
    children: [
      { name: 'Outdoor', children: [{ name: 'Tents' }, { name: 'Backpacks' }, { name: 'Lanterns' }] },
      { name: 'Kitchen', children: [{ name: 'Cookware' }, { name: 'Knives' }, { name: 'Tableware' }] },
      { name: 'Office', children: [{ name: 'Desks' }, { name: 'Chairs' }, { name: 'Lamps' }] },
      { name: 'Garden', children: [{ name: 'Tools' }, { name: 'Planters' }] },
    ],
  },
  {
    name: 'Regions',
    children: [
      { name: 'Europe', children: [{ name: 'Germany' }, { name: 'France' }, { name: 'Italy' }] },
      { name: 'Americas', children: [{ name: 'United States' }, { name: 'Canada' }, { name: 'Brazil' }] },
      { name: 'Asia Pacific', children: [{ name: 'Japan' }, { name: 'Australia' }] },
    ],
  },
  { name: 'Campaigns', children: [{ name: 'Spring 2025' }, { name: 'Summer 2025' }, { name: 'Holiday 2025' }] },
];

export interface DemoCatalog {
  classificationIds: string[];
  productIds: string[];
  fields: { description: string; usageRights: string; productLine: string; publicationDate: string; photographer: string };
  usageOptions: string[];
}

export const FIELD_IDS = {
  description: 'f1e1d0000000400080000000000000a1',
  usageRights: 'f1e1d0000000400080000000000000a2',
  productLine: 'f1e1d0000000400080000000000000a3',
  publicationDate: 'f1e1d0000000400080000000000000a4',
  photographer: 'f1e1d0000000400080000000000000a5',
  keywords: 'f1e1d0000000400080000000000000a6',
};
const GROUP_IDS = { info: 'f9e0d0000000400080000000000000b1', rights: 'f9e0d0000000400080000000000000b2' };
export const USAGE_OPTIONS = [
  { id: 'a0b0c0000000400080000000000000c1', name: 'Unrestricted', label: 'Unrestricted' },
  { id: 'a0b0c0000000400080000000000000c2', name: 'InternalOnly', label: 'Internal only' },
  { id: 'a0b0c0000000400080000000000000c3', name: 'Licensed', label: 'Licensed' },
];

const label = (value: string) => JSON.stringify([{ languageId: EN_US, value }]);

async function seedTree(db: Queryable, rng: Rng): Promise<{ all: string[]; products: string[] }> {
  const all: string[] = [];
  const products: string[] = [];
  const walk = async (nodes: TreeNode[], parent: { id: string; namePath: string } | null, underProducts: boolean) => {
    for (const [index, node] of nodes.entries()) {
      const id = rng.guid();
      const namePath = `${parent?.namePath ?? ''}/${node.name.replace(/\//g, '\\/')}`;
      const identifier = node.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      await db.query(
        `INSERT INTO classifications (id, identifier, name, parent_id, sort_index, labels, name_path, label_path, created_on, modified_on, created_by, modified_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z', 1, 1)`,
        [id, identifier, node.name, parent?.id ?? null, index, label(node.name), namePath],
      );
      all.push(id);
      const isProducts = underProducts || (parent === null && node.name === 'Products');
      if (isProducts && parent) products.push(id);
      if (node.children) await walk(node.children, { id, namePath }, isProducts);
    }
  };
  await walk(TREE, null, false);
  return { all, products };
}

async function seedFields(db: Queryable, productRoot: string | null) {
  await db.query(`INSERT INTO field_groups (id, name, labels, sort_index) VALUES ($1, 'AssetInfo', $2, 0), ($3, 'Rights', $4, 1)`, [
    GROUP_IDS.info,
    label('Asset info'),
    GROUP_IDS.rights,
    label('Rights'),
  ]);
  const defs: [string, string, string, string, string, boolean, unknown, unknown[], string | null][] = [
    [FIELD_IDS.description, 'Description', 'Description', 'MultiLineText', GROUP_IDS.info, true, null, [], null],
    [FIELD_IDS.usageRights, 'UsageRights', 'Usage rights', 'OptionList', GROUP_IDS.rights, false, { values: [USAGE_OPTIONS[1].id] }, USAGE_OPTIONS, null],
    [FIELD_IDS.productLine, 'ProductLine', 'Product line', 'ClassificationList', GROUP_IDS.info, false, null, [], productRoot],
    [FIELD_IDS.publicationDate, 'PublicationDate', 'Publication date', 'Date', GROUP_IDS.info, false, null, [], null],
    [FIELD_IDS.photographer, 'Photographer', 'Photographer, credit', 'SingleLineText', GROUP_IDS.rights, false, { value: 'Unknown' }, [], null],
    [FIELD_IDS.keywords, 'Keywords', 'Keywords', 'TextList', GROUP_IDS.info, false, null, [], null],
  ];
  for (const [index, [id, name, lbl, dataType, group, localizable, def, options, root]] of defs.entries()) {
    await db.query(
      `INSERT INTO field_definitions (id, name, labels, data_type, field_group_id, is_localizable, default_value, options, root_classification_id, sort_index)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [id, name, label(lbl), dataType, group, localizable, def === null ? null : JSON.stringify(def), JSON.stringify(options), root, index],
    );
  }
}

export const ADJECTIVES = ['Sunny', 'Quiet', 'Golden', 'Misty', 'Bright', 'Rustic', 'Urban', 'Coastal', 'Vivid', 'Frosty', 'Autumn', 'Midnight'];
export const SUBJECTS = ['harbour', 'mountain trail', 'kitchen table', 'office desk', 'garden path', 'city skyline', 'campfire', 'lantern', 'backpack', 'forest', 'beach', 'market'];
export const KINDS: Record<string, string[]> = { Image: ['photo', 'banner', 'portrait'], Video: ['clip', 'teaser', 'interview'], Document: ['brochure', 'spec sheet', 'press release'] };
export const PHOTOGRAPHERS = ['Ana Lima', 'Kenji Sato', 'Marta Nowak', 'Omar Haddad', 'Lena Berg'];
export const WORDS = ['sunset', 'product', 'launch', 'outdoor', 'family', 'team', 'summer', 'winter', 'catalog', 'lifestyle', 'detail', 'studio'];

/** Generates `count` records with field values; the bench reuses it for its 100,000-record tenant. */
export function generateRecords(rng: Rng, count: number, catalog: { classificationIds: string[]; productIds: string[] }) {
  const records: RecordRow[] = [];
  const values: FieldValueRow[] = [];
  const links: { recordId: string; classificationId: string }[] = [];
  const start = Date.UTC(2024, 0, 1);
  const span = Date.UTC(2025, 11, 31) - start;
  for (let i = 0; i < count; i++) {
    const id = rng.guid();
    const contentType = rng.pick(['Image', 'Image', 'Video', 'Document']);
    const title = `${rng.pick(ADJECTIVES)} ${rng.pick(SUBJECTS)} ${rng.pick(KINDS[contentType])} ${i + 1}`;
    const words = [rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS), rng.pick(WORDS)];
    const description = `${words[0]} ${words[1]} ${words[2]} shot for the ${words[3]} campaign`;
    const created = new Date(start + Math.floor(rng.next() * span));
    const modified = new Date(created.getTime() + rng.int(0, 90) * 86_400_000);
    records.push({
      id,
      title,
      status: rng.pick(['Draft', 'Released', 'Released', 'Released', 'Archived']),
      contentType,
      searchText: description,
      createdOn: created.toISOString(),
      modifiedOn: modified.toISOString(),
      createdBy: rng.int(1, 3),
    });
    values.push({ recordId: id, fieldId: FIELD_IDS.description, languageId: EN_US, value: { value: description }, valueText: description, valueDate: null });
    // The description's words are the record's keywords (no draw of the generator: the rest of the tenant stays as it was).
    const keywords = [...new Set(words)];
    values.push({ recordId: id, fieldId: FIELD_IDS.keywords, languageId: NEUTRAL_LANGUAGE, value: { values: keywords }, valueText: keywords.join(', '), valueDate: null });
    const option = rng.pick(USAGE_OPTIONS);
    values.push({ recordId: id, fieldId: FIELD_IDS.usageRights, languageId: NEUTRAL_LANGUAGE, value: { values: [option.id] }, valueText: option.name, valueDate: null });
    if (catalog.productIds.length) {
      const product = rng.pick(catalog.productIds);
      values.push({ recordId: id, fieldId: FIELD_IDS.productLine, languageId: NEUTRAL_LANGUAGE, value: { values: [product] }, valueText: product, valueDate: null });
    }
    const published = new Date(created.getTime() + rng.int(1, 60) * 86_400_000).toISOString().slice(0, 10);
    values.push({
      recordId: id,
      fieldId: FIELD_IDS.publicationDate,
      languageId: NEUTRAL_LANGUAGE,
      value: { value: published },
      valueText: published,
      valueDate: `${published}T00:00:00Z`,
    });
    if (rng.chance(0.7)) {
      const who = rng.pick(PHOTOGRAPHERS);
      values.push({ recordId: id, fieldId: FIELD_IDS.photographer, languageId: NEUTRAL_LANGUAGE, value: { value: who }, valueText: who, valueDate: null });
    }
    const n = rng.int(1, 2);
    for (let k = 0; k < n && catalog.classificationIds.length; k++) links.push({ recordId: id, classificationId: rng.pick(catalog.classificationIds) });
  }
  return { records, values, links };
}

/** Loads the demo catalogue (tree + fields) and returns what record generation needs. */
export async function seedCatalog(db: Queryable, rng: Rng) {
  const tree = await seedTree(db, rng);
  const productRoot = (await db.query<{ id: string }>(`SELECT id FROM classifications WHERE parent_id IS NULL AND name = 'Products'`))[0]?.id ?? null;
  await seedFields(db, productRoot);
  return { classificationIds: tree.all, productIds: tree.products };
}

export async function seedRecords(db: Queryable, rng: Rng, count: number, catalog: { classificationIds: string[]; productIds: string[] }) {
  const { records, values, links } = generateRecords(rng, count, catalog);
  await insertRecords(db, records);
  await insertFieldValues(db, values);
  await insertRecordClassifications(db, links);
}

/** Records of the demo tenant; `--records N` grows it past them (seed/scale.ts). */
export const DEMO_RECORDS = 600;

const demoCore: Seeder = {
  name: 'demo-core',
  kind: 'demo',
  async run(store, rng) {
    const catalog = await seedCatalog(store, rng);
    await seedRecords(store, rng, DEMO_RECORDS, catalog);
  },
};

export const demoSeeders: Seeder[] = [demoCore];
