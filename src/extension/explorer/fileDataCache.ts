// One FileData per client, so the tree, the decorations and the `dam:` file system share the check-name cache.
import type { DamClient } from '../../api/client';
import { FileData } from './fileData';

const byClient = new WeakMap<DamClient, FileData>();

export function fileDataOf(client: DamClient): FileData {
  let data = byClient.get(client);
  if (!data) byClient.set(client, (data = new FileData(client)));
  return data;
}
