// Reads below a record for the explorer: files, versions, renditions, check results with their findings,
// and the bytes of a version, rendition or thumbnail. It goes through the client of the active session
// (typed imports only, so nothing of the client loads at activation); check results are read loosely
// from the spec's paths, since their full shape is "not shown".
import type { DamClient } from '../../api/client';
import type { AdditionalFile, DamFile, FileVersion } from '../../api/files';
import { isOutcome } from './badges';
import type { CheckResultView, FindingView } from './nodes';

type Loose = Record<string, unknown>;

/** The href of link relation `rel` (case-insensitive, first of an array), without loading the client's schemas. */
export function hrefOf(resource: unknown, rel: string): string | undefined {
  const links = (resource as { _links?: Record<string, unknown> } | null | undefined)?._links;
  if (!links || typeof links !== 'object') return undefined;
  const key = Object.keys(links).find((k) => k.toLowerCase() === rel.toLowerCase());
  const value = key ? links[key] : undefined;
  const first = Array.isArray(value) ? value[0] : value;
  const href = (first as { href?: unknown } | undefined)?.href;
  return typeof href === 'string' ? href : undefined;
}

/** `items[]` of a collection answer, or `_embedded.<rel>.items[]`. */
function itemsOf(body: unknown): Loose[] {
  const b = body as { items?: unknown; _embedded?: Record<string, unknown> } | null;
  if (Array.isArray(b?.items)) return b.items as Loose[];
  for (const value of Object.values(b?._embedded ?? {})) {
    const items = (value as { items?: unknown } | null)?.items ?? value;
    if (Array.isArray(items)) return items as Loose[];
  }
  return [];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);

function toFinding(raw: Loose): FindingView {
  return {
    occurrence: Number(raw.occurrence ?? 0),
    finding: str(raw.finding) ?? '',
    explanation: str(raw.explanation),
    recommendation: str(raw.recommendation),
    outcome: isOutcome(raw.outcome) ? raw.outcome : undefined,
  };
}

async function bytesOf(stream: AsyncIterable<Uint8Array | string>): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return new Uint8Array(Buffer.concat(chunks));
}

export class FileData {
  private checkNames: Promise<Map<string, string>> | undefined;
  /** Check ids the names were read again for, so an id without a check reads them only once. */
  private readonly reread = new Set<string>();

  constructor(private readonly client: DamClient) {}

  files(recordId: string, signal?: AbortSignal): Promise<DamFile[]> {
    return this.client.files.listFiles(recordId, { signal });
  }

  /** Newest first, which is what people look for. */
  async versions(file: DamFile, signal?: AbortSignal): Promise<FileVersion[]> {
    const list = await this.client.files.listVersions(file.id, { signal });
    return [...list].sort((a, b) => (b.version ?? 0) - (a.version ?? 0));
  }

  renditions(versionId: string, signal?: AbortSignal): Promise<AdditionalFile[]> {
    return this.client.files.listRenditions(versionId, { signal });
  }

  version(versionId: string, signal?: AbortSignal): Promise<FileVersion> {
    return this.client.files.getVersion(versionId, { signal });
  }

  latestVersion(recordId: string, signal?: AbortSignal): Promise<FileVersion | null> {
    return this.client.files.latestVersion(recordId, { signal });
  }

  /** Every check result of a version with its findings (GET /fileversion/{id}/CheckResults, then each result's findings). */
  async checkResults(versionId: string, signal?: AbortSignal): Promise<CheckResultView[]> {
    const body = await this.client.get(`fileversion/${encodeURIComponent(versionId)}/CheckResults`, { signal });
    let names = await this.names(signal);
    // A check published since the names were read (a new one) is not in the list yet: read it again, once per unknown id.
    const unknown = itemsOf(body).map((raw) => (str(raw.checkId) ?? '').toLowerCase()).filter((id) => id && !names.has(id) && !this.reread.has(id));
    if (unknown.length) {
      unknown.forEach((id) => this.reread.add(id));
      this.checkNames = undefined;
      names = await this.names(signal);
    }
    return Promise.all(
      itemsOf(body).map(async (raw): Promise<CheckResultView> => {
        const id = str(raw.id) ?? '';
        const embedded = itemsOf({ _embedded: (raw._embedded as Loose | undefined) ?? {} });
        const findingsRaw = Array.isArray(raw.findings)
          ? (raw.findings as Loose[])
          : embedded.length
            ? embedded
            : itemsOf(await this.client.get(hrefOf(raw, 'findings') ?? `fileversion/${encodeURIComponent(versionId)}/CheckResult/${encodeURIComponent(id)}/Findings`, { signal }));
        const checkId = str(raw.checkId) ?? '';
        return {
          id,
          checkId,
          checkName: names.get(checkId.toLowerCase()),
          outcome: isOutcome(raw.outcome) ? raw.outcome : null,
          description: str(raw.description) ?? '',
          createdOn: str(raw.createdOn),
          findings: findingsRaw.map(toFinding).sort((a, b) => a.occurrence - b.occurrence),
          href: hrefOf(raw, 'self'),
        };
      }),
    );
  }

  /** Check names by id, read once per session (results carry only the id). */
  private names(signal?: AbortSignal): Promise<Map<string, string>> {
    this.checkNames ??= this.client
      .get('checks', { signal })
      .then((body) => new Map(itemsOf(body).map((c) => [String(c.id).toLowerCase(), str(c.name) ?? String(c.id)])))
      .catch(() => {
        this.checkNames = undefined;
        return new Map<string, string>();
      });
    return this.checkNames;
  }

  /** The bytes behind a version's or rendition's `download` link (the URI carries its own token). */
  async download(resource: FileVersion | AdditionalFile, signal?: AbortSignal): Promise<Uint8Array> {
    const result = await this.client.files.download(resource, { signal });
    return bytesOf(result.body);
  }

  /**
   * The record's thumbnail image. The hover and the `dam:` file system cannot send our bearer token, so the
   * bytes are fetched here, through the client.
   */
  thumbnail(record: { id: string; _links?: unknown }, signal?: AbortSignal): Promise<{ bytes: Uint8Array; contentType: string | null }> {
    return this.image(record, 'thumbnail', signal);
  }

  /** The record's thumbnail (256 px) or preview (1024 px) image. */
  async image(record: { id: string; _links?: unknown }, rel: 'thumbnail' | 'preview', signal?: AbortSignal): Promise<{ bytes: Uint8Array; contentType: string | null }> {
    // The relation answers the image resource (size, format, `download` link holding its own token), not its bytes.
    const href = hrefOf(record, rel) ?? `record/${encodeURIComponent(record.id)}/${rel}`;
    const image = (await this.client.get(href, { signal })) as Loose;
    const target = hrefOf(image, 'download') ?? str(image.uri);
    if (!target) throw new Error(`the ${rel} of record ${record.id} has no download link`);
    const result = await this.client.files.download(target, { signal });
    return { bytes: await bytesOf(result.body), contentType: result.contentType };
  }

  /** A resource of the content API as the service answers it (a record, a classification). */
  resource(path: string, signal?: AbortSignal): Promise<unknown> {
    return this.client.get(path, { signal });
  }
}
