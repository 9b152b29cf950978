// DamClient: the one object callers build; it wires profile, secrets, auth, transport and resources.
import { z } from 'zod';
import { HttpClient, type FetchLike, type RequestEvent, type RetryPolicy } from './http';
import { authorizationCodeProvider, clientCredentialsProvider, passwordProvider, type TokenCacheOptions, type TokenProvider } from './auth';
import type { Profile, ProfileSecrets } from './profile';
import { ClassificationCollection, RecordCollection, ResourceCollection, followLink, readHeaders, type ReadOptions } from './core';
import { SearchApi } from './search';
import { TasksApi } from './tasks';
import { StringsApi } from './strings';
import { AnalyticsApi } from './analytics';
import { ChecksApi } from './checks';
import { FilesApi } from './files';
import { UploadsApi } from './uploads';
import { RecordEditsApi } from './records';
import {
  AnyJsonSchema,
  ClassificationSchema,
  ContentTypeSchema,
  FieldDefinitionSchema,
  FieldGroupSchema,
  LanguageSchema,
  RecordSchema,
  RenditionPresetSchema,
  SettingDefinitionSchema,
  SettingSchema,
  UserGroupSchema,
  UserSchema,
  type RenditionPreset,
} from './schemas';
import type { HalLink } from './hal';

export interface DamClientOptions {
  profile: Profile;
  /** Secrets for the profile's flow; ignored when `tokenProvider` is given. */
  secrets?: ProfileSecrets;
  /** Supply your own (e.g. an authorization-code login the extension ran in the browser). */
  tokenProvider?: TokenProvider;
  /** Sent on every request (the service requires one). */
  userAgent: string;
  fetch?: FetchLike;
  /** Called once per HTTP attempt with method, redacted URL, status and duration: safe to log. */
  onRequest?: (event: RequestEvent) => void;
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  tokenCache?: TokenCacheOptions;
}

/** Builds the token provider a profile's flow needs from its secrets. */
export function tokenProviderFor(http: HttpClient, profile: Profile, secrets: ProfileSecrets = {}, cache?: TokenCacheOptions): TokenProvider {
  switch (profile.flow) {
    case 'clientCredentials':
      if (!secrets.clientSecret) throw new Error(`profile '${profile.name}' uses client credentials but no client secret was given`);
      return clientCredentialsProvider(http, profile, { clientSecret: secrets.clientSecret }, cache);
    case 'password':
      if (!profile.username) throw new Error(`profile '${profile.name}' uses the password flow but has no username`);
      if (secrets.password === undefined) throw new Error(`profile '${profile.name}' uses the password flow but no password was given`);
      return passwordProvider(http, profile, { clientSecret: secrets.clientSecret, username: profile.username, password: secrets.password }, cache);
    case 'authorizationCode':
      // Without a token from a browser login this provider asks for one (AuthRequiredError).
      return authorizationCodeProvider(http, profile, undefined, { ...cache, clientSecret: secrets.clientSecret });
  }
}

export class DamClient {
  readonly profile: Profile;
  readonly http: HttpClient;
  readonly tokens: TokenProvider;

  readonly records: RecordCollection<z.infer<typeof RecordSchema>>;
  readonly classifications: ClassificationCollection<z.infer<typeof ClassificationSchema>>;
  readonly fieldDefinitions: ResourceCollection<z.infer<typeof FieldDefinitionSchema>>;
  readonly fieldGroups: ResourceCollection<z.infer<typeof FieldGroupSchema>>;
  readonly users: ResourceCollection<z.infer<typeof UserSchema>>;
  readonly userGroups: ResourceCollection<z.infer<typeof UserGroupSchema>>;
  readonly languages: ResourceCollection<z.infer<typeof LanguageSchema>>;
  readonly settings: ResourceCollection<z.infer<typeof SettingSchema>>;
  readonly settingDefinitions: ResourceCollection<z.infer<typeof SettingDefinitionSchema>>;
  readonly contentTypes: ResourceCollection<z.infer<typeof ContentTypeSchema>>;
  readonly search: SearchApi;
  /** Work management ({ops_url}): simple tasks, delegation, task attachments. */
  readonly tasks: TasksApi;
  /** String resources ({ops_url}), static ones cached for the client's life. */
  readonly strings: StringsApi;
  /** The analytics query API ({analytics_url}). */
  readonly analytics: AnalyticsApi;
  /** Files of records: versions from upload tokens, renditions, downloads, CreateRenditions jobs. */
  readonly files: FilesApi;
  /** The upload service ({upload_url}/uploads): single or segmented by size, streamed from disk. */
  readonly uploads: UploadsApi;
  /** The check framework: checks, results and findings on file versions. */
  readonly checks: ChecksApi;
  /** Records as documents: read, change sets applied as one PUT, delete, bulk plans and runs (src/core/records). */
  readonly recordEdits: RecordEditsApi;

  constructor(options: DamClientOptions) {
    this.profile = options.profile;
    this.http = new HttpClient({
      endpoints: options.profile.endpoints,
      userAgent: options.userAgent,
      fetch: options.fetch,
      onRequest: options.onRequest,
      timeoutMs: options.timeoutMs,
      retry: options.retry,
    });
    this.tokens = options.tokenProvider ?? tokenProviderFor(this.http, options.profile, options.secrets, options.tokenCache);
    this.http.tokenProvider = this.tokens;

    const h = this.http;
    this.records = new RecordCollection(h, { collection: '/records', single: '/record', create: '/record', schema: RecordSchema });
    this.classifications = new ClassificationCollection(h, { collection: '/classifications', single: '/classification', schema: ClassificationSchema });
    this.fieldDefinitions = new ResourceCollection(h, { collection: '/fielddefinitions', single: '/fielddefinition', schema: FieldDefinitionSchema });
    this.fieldGroups = new ResourceCollection(h, { collection: '/fieldgroups', single: '/fieldgroup', schema: FieldGroupSchema });
    this.users = new ResourceCollection(h, { collection: '/users', single: '/user', schema: UserSchema });
    this.userGroups = new ResourceCollection(h, { collection: '/usergroups', single: '/usergroup', schema: UserGroupSchema });
    this.languages = new ResourceCollection(h, { collection: '/languages', single: '/language', schema: LanguageSchema });
    this.settings = new ResourceCollection(h, { collection: '/settings', single: '/setting', schema: SettingSchema });
    this.settingDefinitions = new ResourceCollection(h, { collection: '/settingdefinitions', single: '/settingdefinition', schema: SettingDefinitionSchema });
    this.contentTypes = new ResourceCollection(h, { collection: '/contenttypes', single: '/contenttype', schema: ContentTypeSchema });
    this.search = new SearchApi(h);
    this.tasks = new TasksApi(h);
    this.strings = new StringsApi(h);
    this.analytics = new AnalyticsApi(h);
    this.files = new FilesApi(h, options.userAgent);
    this.uploads = new UploadsApi(h);
    this.checks = new ChecksApi(h);
    this.recordEdits = new RecordEditsApi(h);
  }

  /** GET {core_url}/ — version-agnostic and unauthenticated: the way to probe a profile. */
  async root(options: { signal?: AbortSignal } = {}): Promise<unknown> {
    const res = await this.http.request({ path: '/', auth: false, apiVersion: false, schema: AnyJsonSchema, signal: options.signal });
    return res.data;
  }

  async supportedVersions(options: { signal?: AbortSignal } = {}): Promise<unknown> {
    const res = await this.http.request({ path: '/supportedVersions', auth: false, apiVersion: false, schema: AnyJsonSchema, signal: options.signal });
    return res.data;
  }

  /** The documentation page (any media type; headers are ignored by the service). */
  async docs(options: { signal?: AbortSignal } = {}): Promise<{ contentType: string | null; text: string }> {
    const res = await this.http.request<string>({ path: '/docs', auth: false, apiVersion: false, accept: '*/*', responseType: 'text', signal: options.signal });
    return { contentType: res.headers.get('content-type'), text: res.data };
  }

  /** GET any core path (`record/<id>`, `/classifications?pageSize=5`) or absolute URL, as raw JSON. */
  async get(pathOrUrl: string, options: ReadOptions = {}): Promise<unknown> {
    const { accept, headers } = readHeaders(options);
    const isAbsolute = /^https?:\/\//i.test(pathOrUrl);
    const [path, search] = pathOrUrl.split(/\?(.*)/s, 2);
    const query = Object.fromEntries(new URLSearchParams(search ?? ''));
    const res = await this.http.request({
      ...(isAbsolute ? { url: pathOrUrl } : { path: path.startsWith('/') ? path : `/${path}`, query }),
      headers,
      accept,
      schema: AnyJsonSchema,
      signal: options.signal,
    });
    return res.data;
  }

  /** Follows a HAL link (absolute or relative href). */
  follow<U>(target: HalLink | string, schema: z.ZodType<U>, options: ReadOptions = {}): Promise<U> {
    return followLink(this.http, target, schema, options);
  }

  /**
   * The rendition presets of the `.renditionPreset` setting. The setting's value may arrive as a
   * list or as JSON text, so both are accepted.
   */
  async renditionPresets(options: { signal?: AbortSignal } = {}): Promise<RenditionPreset[]> {
    const setting = await this.settings.get('.renditionPreset', { plain: true, signal: options.signal });
    let value: unknown = setting.value;
    if (typeof value === 'string') value = JSON.parse(value);
    if (value && typeof value === 'object' && !Array.isArray(value) && Array.isArray((value as { presets?: unknown }).presets)) value = (value as { presets: unknown }).presets;
    return z.array(RenditionPresetSchema).parse(value);
  }
}
