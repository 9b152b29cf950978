// `dam tenant pull|diff|push`: a tenant's configuration as files to commit, compared in words, and promoted from one
// tenant to the next with a plan to review (a dry run unless --apply).
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import {
  PULL_RECORD_FILE,
  diffConfigs,
  fromFiles,
  isPulledFieldFile,
  localEdits,
  localEditsWords,
  planPush,
  pullRecordText,
  stepTitle,
  toFiles,
  unplannedDifferences,
  type TenantConfig,
} from '../../core/tenant';
import { applyPlan, pullTenant } from '../../api/tenant';
import { runProbe } from '../../api/probe';
import { PROBE_FILE, compareProbes, parseProbe, probeRoutes, probeText, summaryLine, type Probe } from '../../core/probe';
import { cliErrorMessage } from '../errors';
import type { Command, CommandIO } from '../command';
import { UsageError } from '../command';
import { CONNECTION_USAGE, connect, connectionOptions, defaultEmulator, resolveConnection } from '../connection';

/** Every file under `dir` (relative paths with `/`), except inside dot-folders such as .git. */
export async function readFolder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const walk = async (at: string) => {
    let entries;
    try {
      entries = await readdir(at, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`no folder ${dir}`);
      throw err;
    }
    for (const entry of entries) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') || entry.name === '.schema') await walk(path);
      } else if (entry.isFile()) files.set(relative(dir, path).split(sep).join('/'), await readFile(path, 'utf8'));
    }
  };
  await walk(dir);
  return files;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function readFolderIfAny(dir: string): Promise<Map<string, string>> {
  try {
    return await readFolder(dir);
  } catch (err) {
    if (err instanceof UsageError) return new Map();
    throw err;
  }
}

/**
 * Writes the folder's files and the record of what it wrote; a field file the configuration no longer has is removed,
 * so the folder is exactly it. Refuses (before writing anything) when that would overwrite or remove a file changed
 * by hand since the last pull, unless `force`.
 */
async function writeFolder(dir: string, files: Map<string, string>, force: boolean): Promise<void> {
  const before = await readFolderIfAny(dir);
  const edits = localEdits(before, files, before.get(PULL_RECORD_FILE), sha256);
  if (edits.length && !force) {
    const why = edits.some((e) => e.kind === 'unrecorded')
      ? `${dir} has no record of an earlier pull (${PULL_RECORD_FILE}) and the pull would overwrite or remove`
      : `the pull would overwrite or remove ${edits.length === 1 ? 'a file' : 'files'} changed by hand since the last pull:`;
    throw new UsageError(`${why} ${localEditsWords(edits)}
nothing was written: keep the edits elsewhere (or commit them), or run again with --force to replace them`);
  }
  for (const [path, text] of files) {
    if (before.get(path) === text) continue;
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  for (const path of before.keys()) if (isPulledFieldFile(path) && !files.has(path)) await rm(join(dir, path));
  await writeFile(join(dir, PULL_RECORD_FILE), pullRecordText(files, sha256));
}

/** A folder's configuration, or a usage error listing each problem with its file. */
export async function loadFolder(dir: string): Promise<TenantConfig> {
  const { config, problems } = fromFiles(await readFolder(dir));
  if (!config) throw new UsageError(`${dir} is not a tenant folder dam can use:\n${problems.map((p) => `  ${join(dir, p.file)}: ${p.message}`).join('\n')}`);
  return config;
}

const isConnection = (side: string) => /^https?:\/\//i.test(side);

async function pullSide(side: string, values: Record<string, unknown>, io: CommandIO): Promise<TenantConfig> {
  if (!isConnection(side)) return loadFolder(side);
  const client = connect({ ...values, url: side }, io);
  return (await pullTenant(client, { signal: io.signal })).config;
}

function progress(io: CommandIO, quiet: boolean) {
  return (message: string) => {
    if (!quiet) io.stderr.write(`${message}\n`);
  };
}

const bounds = (values: Record<string, unknown>) => {
  const number = (name: string, max: number) => {
    const text = values[name];
    if (typeof text !== 'string') return undefined;
    if (!/^\d{1,7}$/.test(text) || Number(text) < 1 || Number(text) > max) throw new UsageError(`--${name} must be a number from 1 to ${max}, got '${text}'`);
    return Number(text);
  };
  return { maxClassifications: number('max-classifications', 1_000_000), maxDepth: number('max-depth', 100) };
};

const pull: Command = {
  name: ['tenant', 'pull'],
  summary: "Write a tenant's configuration (fields, classifications, languages, checks, settings: not its assets) into a folder.",
  usage: `dam tenant pull DIR [--force] [--max-classifications N] [--max-depth D] [--quiet] ${CONNECTION_USAGE}   (refuses to replace files changed by hand since the last pull unless --force)`,
  options: { ...connectionOptions, force: { type: 'boolean' }, 'max-classifications': { type: 'string' }, 'max-depth': { type: 'string' }, quiet: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(`give one folder to write\nusage: ${pull.usage}`);
    const [dir] = positionals;
    const started = Date.now();
    const client = connect(values, io);
    const { config, notes } = await pullTenant(client, { ...bounds(values), signal: io.signal, onProgress: progress(io, values.quiet === true) });
    await writeFolder(dir, toFiles(config), values.force === true);
    for (const note of notes) io.stderr.write(`note: ${note}\n`);
    io.stdout.write(
      `Pulled ${config.fields.length} fields, ${config.classifications.length} classifications, ${config.languages.length} languages, ` +
        `${config.contentTypes.length} content types, ${config.checks.length} checks and ${Object.keys(config.settings).length} settings into ${dir} ` +
        `(${((Date.now() - started) / 1000).toFixed(1)} s).\n`,
    );
    return 0;
  },
};

const diff: Command = {
  name: ['tenant', 'diff'],
  summary: 'Compare two tenant configurations (each a folder or a connection URL) and print what differs, in words.',
  usage: `dam tenant diff A B [--json] [--exit-code]   (A, B: a folder from \`dam tenant pull\`, or an http(s) URL)`,
  options: { ...connectionOptions, json: { type: 'boolean' }, 'exit-code': { type: 'boolean' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 2) throw new UsageError(`give two sides to compare\nusage: ${diff.usage}`);
    const [a, b] = await Promise.all(positionals.map((side) => pullSide(side, values, io)));
    const differences = diffConfigs(a, b);
    if (values.json === true) io.stdout.write(`${JSON.stringify(differences, null, 2)}\n`);
    else if (!differences.length) io.stdout.write('No differences.\n');
    else io.stdout.write(`${differences.map((d) => d.words).join('\n')}\n`);
    return values['exit-code'] === true && differences.length ? 1 : 0;
  },
};

const push: Command = {
  name: ['tenant', 'push'],
  summary: 'Plan (default) or apply (--apply) the changes that make a tenant hold a folder\'s configuration.',
  usage: `dam tenant push DIR --to URL [--dry-run | --apply] [--prune] [--json] ${CONNECTION_USAGE}`,
  options: { ...connectionOptions, to: { type: 'string' }, 'dry-run': { type: 'boolean' }, apply: { type: 'boolean' }, prune: { type: 'boolean' }, json: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    if (positionals.length !== 1) throw new UsageError(`give one folder to push\nusage: ${push.usage}`);
    if (typeof values.to !== 'string' || !isConnection(values.to)) throw new UsageError(`--to must name the target tenant's URL\nusage: ${push.usage}`);
    if (values.apply === true && values['dry-run'] === true) throw new UsageError('--dry-run and --apply contradict each other');
    const desired = await loadFolder(positionals[0]);
    const client = connect({ ...values, url: values.to }, io);
    const { config: current } = await pullTenant(client, { signal: io.signal });
    const plan = planPush(desired, current, { prune: values.prune === true });
    const left = values.prune === true ? [] : unplannedDifferences(desired, current, plan).filter((d) => d.words.endsWith(' removed'));
    const json = values.json === true;
    if (!json) {
      io.stdout.write(plan.steps.length ? `Plan: ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'}\n` : 'Plan: nothing to do: the target holds this configuration.\n');
      for (const [i, step] of plan.steps.entries()) io.stdout.write(`${i + 1}. ${stepTitle(step)}\n${step.words.map((w) => `     ${w}\n`).join('')}`);
      if (left.length) io.stdout.write(`Only on the target (kept; --prune deletes them): ${left.map((d) => `${d.kind} '${d.key}'`).join(', ')}\n`);
      for (const r of plan.refusals) io.stdout.write(`refused: ${r}\n`);
    }
    if (plan.refusals.length) {
      if (json) io.stdout.write(`${JSON.stringify({ plan, applied: false }, null, 2)}\n`);
      io.stderr.write('dam: the plan was refused: nothing was written.\n');
      return 2;
    }
    if (values.apply !== true) {
      if (json) io.stdout.write(`${JSON.stringify({ plan, applied: false }, null, 2)}\n`);
      else if (plan.steps.length) io.stdout.write('This was a dry run: nothing was written. Run again with --apply to apply the plan.\n');
      return 0;
    }
    const report = await applyPlan(client, plan, current, {
      signal: io.signal,
      onStep: (step, index, total) => {
        if (!json) io.stderr.write(`[${index + 1}/${total}] ${stepTitle(step)}\n`);
      },
    });
    if (json) io.stdout.write(`${JSON.stringify({ plan, applied: true, report }, null, 2)}\n`);
    else if (report.failed) {
      io.stdout.write(`Applied ${report.applied.length} of ${plan.steps.length} steps, then the target refused one:\n  ${report.failed.reason}\n`);
      if (report.notApplied.length) io.stdout.write(`Not applied: ${report.notApplied.map(stepTitle).join('; ')}\n`);
    } else io.stdout.write(`Applied ${report.applied.length} step${report.applied.length === 1 ? '' : 's'}.\n`);
    return report.failed ? 1 : 0;
  },
};

/** A probe's file, from its folder (or the file itself); a usage error naming the path when it is not one. */
async function loadProbe(dir: string): Promise<Probe> {
  const candidates = dir.endsWith('.json') ? [dir] : [join(dir, PROBE_FILE)];
  let text: string;
  try {
    text = await readFile(candidates[0], 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`${dir} is not a probe: it holds no ${PROBE_FILE} (write one with \`dam tenant probe ${dir}\`)`);
    throw err;
  }
  const { probe, problem } = parseProbe(text);
  if (!probe) throw new UsageError(`${candidates[0]} is not a probe dam can use: ${problem}`);
  return probe;
}

/** The variables that describe a connection: left out when comparing with the local emulator, which needs none. */
const CONNECTION_VARIABLES = /^DAM_(URL|AUTH_URL|BASE_URL|CORE_URL|UPLOAD_URL|OPS_URL|ANALYTICS_URL|CLIENT_ID|CLIENT_SECRET|FLOW|USERNAME|PASSWORD|CONNECTION)$/;

/** The service could not be reached or refused the sign-in: bad input (exit 2), with the connection named. */
function unreachable(err: unknown, which: string): never {
  const name = (err as Error | undefined)?.name;
  if (name === 'NetworkError' || name === 'AuthRequiredError' || (err instanceof Error && name === 'ApiError' && /token|401/i.test(err.message))) {
    throw new UsageError(`cannot probe ${which}: ${cliErrorMessage(err)}`);
  }
  throw err;
}

/**
 * What the probe is doing, in words, on one line a terminal redraws (`Reading the tenant: 40 of 160 routes`), never a
 * line per request; nothing at all when stderr is not a terminal (a pipe, a CI log) or with --quiet / --json.
 */
function probeProgress(stderr: NodeJS.WritableStream, quiet: boolean) {
  const tty = !quiet && (stderr as { isTTY?: boolean }).isTTY === true;
  let drawn = false;
  const say = (text: string) => {
    if (!tty) return;
    const columns = (stderr as { columns?: number }).columns ?? 80;
    stderr.write(`\r${text.length >= columns ? `${text.slice(0, columns - 2)}…` : text}\x1b[K`);
    drawn = true;
  };
  return {
    say,
    /** A side's progress, for `runProbe`'s onProgress. */
    reading: (who: string) => (done: number, total: number) => say(`Reading ${who}: ${done} of ${total} routes`),
    /** Clears the line before the answer is written. */
    clear() {
      if (drawn) stderr.write('\r\x1b[K');
      drawn = false;
    },
  };
}

const probe: Command = {
  name: ['tenant', 'probe'],
  summary: "Write the shape of a tenant's answers (no values) into a folder, or compare it (--compare) with the emulator's.",
  usage:
    `dam tenant probe DIR [--quiet] ${CONNECTION_USAGE}\n` +
    `       dam tenant probe --compare DIR [URL] [--json]   (URL: the connection to compare with; default: the local emulator)`,
  options: { ...connectionOptions, compare: { type: 'boolean' }, json: { type: 'boolean' }, quiet: { type: 'boolean' } },
  async run({ values, positionals }, io) {
    const compare = values.compare === true;
    if (compare ? positionals.length < 1 || positionals.length > 2 : positionals.length !== 1) {
      throw new UsageError(`${compare ? 'give the probe folder and at most one URL' : 'give one folder to write'}\nusage: ${probe.usage}`);
    }
    const progress = probeProgress(io.stderr, values.quiet === true || values.json === true);
    const started = Date.now();
    if (!compare) {
      const client = connect(values, io);
      const who = client.profile.kind === 'emulator' ? 'the emulator' : 'the tenant';
      progress.say(`Reading ${who}…`);
      const result = await runProbe(client, { signal: io.signal, onProgress: progress.reading(who) })
        .catch((err) => unreachable(err, resolveConnection(values, io.env).profile.endpoints.core))
        .finally(() => progress.clear());
      await mkdir(positionals[0], { recursive: true });
      await writeFile(join(positionals[0], PROBE_FILE), probeText(result));
      const shapes = Object.values(result.routes);
      const answered = shapes.filter((r) => r.status !== undefined).length;
      io.stdout.write(
        `Probed ${shapes.length} routes (${answered} answered, ${shapes.length - answered} not asked: no item to fill them with, each with the reason) into ${join(positionals[0], PROBE_FILE)} ` +
          `(${((Date.now() - started) / 1000).toFixed(1)} s). It holds no values: attach it to a report as it is.\n`,
      );
      return 0;
    }
    const first = await loadProbe(positionals[0]);
    const given = positionals[1] ?? values.url;
    const hasHosts = Object.keys(values).some((k) => /-url$/.test(k));
    let otherValues: Record<string, unknown> = values;
    let otherEnv = io.env;
    if (typeof given === 'string') otherValues = { ...values, url: given };
    else if (!hasHosts) {
      // The local emulator, signed in with its published credentials whatever connection this terminal was given.
      otherValues = { ...values, url: defaultEmulator(io.env).url };
      otherEnv = Object.fromEntries(Object.entries(io.env).filter(([k]) => !CONNECTION_VARIABLES.test(k)));
    }
    const otherIo = { ...io, env: otherEnv };
    const { profile } = resolveConnection(otherValues, otherEnv);
    const client = connect(otherValues, otherIo);
    const routes = probeRoutes(first);
    const labels = { first: 'tenant', second: profile.kind === 'emulator' ? 'emulator' : 'other tenant' };
    const who = typeof given === 'string' ? `the ${labels.second} at ${new URL(profile.endpoints.core).origin}` : 'the local emulator';
    progress.say(`Reading ${who}…`);
    const second = await runProbe(client, { routes, signal: io.signal, onProgress: progress.reading(who) })
      .catch((err) => unreachable(err, profile.endpoints.core))
      .finally(() => progress.clear());
    const comparison = compareProbes(first, second, labels);
    if (values.json === true) io.stdout.write(`${JSON.stringify({ ...comparison, summary: summaryLine(comparison) }, null, 2)}\n`);
    else {
      for (const d of comparison.differences) io.stdout.write(`${d.words}\n`);
      io.stdout.write(`${summaryLine(comparison)}${comparison.notCompared.length ? ` ${comparison.notCompared.length} not compared (--json lists them).` : ''}\n`);
    }
    return comparison.differences.length ? 1 : 0;
  },
};

export const tenantCommands: Command[] = [pull, diff, push, probe];
