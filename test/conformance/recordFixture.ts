// A small tenant for the record-writing tests, built on the empty seed through the API (the demo seed takes a
// minute to start on a loaded machine): field definitions of every kind the editor handles, and a classification tree.
import { z } from 'zod';
import type { DamClient } from '../../src/api/client';

export interface RecordTenant {
  /** Field definition ids by name. */
  fields: Record<string, string>;
  /** UsageRights option ids by name. */
  options: Record<string, string>;
  /** Classification ids by name path. */
  classifications: Record<string, string>;
}

const Created = z.looseObject({ id: z.string() });
const Definition = z.looseObject({ id: z.string(), items: z.array(z.looseObject({ id: z.string(), name: z.string() })).nullish() });

export const RECORD_FIELDS: Record<string, unknown>[] = [
  { name: 'Description', dataType: 'MultiLineText', isLocalizable: true },
  {
    name: 'UsageRights',
    dataType: 'OptionList',
    items: { addOrUpdate: [ { name: 'Unrestricted', label: 'Unrestricted' }, { name: 'InternalOnly', label: 'Internal only' }, { name: 'Licensed', label: 'Licensed' } ] },
  },
  { name: 'ProductLine', dataType: 'ClassificationList' },
  { name: 'PublicationDate', dataType: 'Date' },
  { name: 'Photographer', dataType: 'SingleLineText' },
  { name: 'Keywords', dataType: 'TextList' },
  { name: 'Pages', dataType: 'Numeric' },
  { name: 'ShotAt', dataType: 'DateTime' },
  { name: 'StartsAt', dataType: 'Time' },
  { name: 'Related', dataType: 'RecordList' },
  { name: 'Parts', dataType: 'RecordLink' },
  { name: 'Spoken', dataType: 'LanguageList' },
  { name: 'Checksum', dataType: 'SingleLineText', isReadOnly: true },
  { name: 'Owner', dataType: 'SingleLineText', isRequired: true },
];

export async function buildRecordTenant(client: DamClient): Promise<RecordTenant> {
  const tenant: RecordTenant = { fields: {}, options: {}, classifications: {} };
  for (const [i, body] of RECORD_FIELDS.entries()) {
    const created = await client.http.request({ method: 'POST', path: '/fielddefinition', json: { ...body, sortIndex: i }, schema: Created });
    tenant.fields[String(body.name)] = created.data.id;
  }
  const usage = await client.http.request({ path: `/fielddefinition/${tenant.fields.UsageRights}`, schema: Definition });
  for (const o of usage.data.items ?? []) tenant.options[o.name] = o.id;
  const classify = async (name: string, parentId?: string) =>
    (await client.http.request({ method: 'POST', path: '/classification', json: { name, parentId }, schema: Created })).data.id;
  const products = await classify('Products');
  tenant.classifications['/Products'] = products;
  tenant.classifications['/Products/Shoes'] = await classify('Shoes', products);
  tenant.classifications['/Products/Hats'] = await classify('Hats', products);
  return tenant;
}
