// CreateRenditions maintenance jobs through the client and the CLI: real renditions in each preset's format and
// size, removeBackground transparency, unknown presets, targets without an image, and the rights it needs.
import { strict as assert } from 'node:assert';
import { Jimp, intToRGBA } from 'jimp';
import { describeEachBackend, failure, runDam } from './helpers';
import { discPicture, readAll, uploadBytes } from './fileFixtures';
import { ApiError } from '../../src/api/errors';
import { AdditionalFileSchema, MaintenanceJobSchema, type AdditionalFile } from '../../src/api/files';
import { link } from '../../src/api/hal';
import type { DamClient } from '../../src/api/client';

const LIMITED = { clientId: 'dam-emulator-limited', clientSecret: 'dam-emulator-limited-secret' };

describeEachBackend('renditions: CreateRenditions maintenance jobs', { seed: 'demo' }, (env) => {
  const client = () => env().client();
  let imageRecord = '';
  let textRecord = '';

  async function decode(c: DamClient, rendition: AdditionalFile) {
    const bytes = await readAll((await c.files.download(rendition)).body);
    return { bytes, image: await Jimp.read(bytes) };
  }

  before(async () => {
    const token = await uploadBytes(client(), 'studio shot.png', await discPicture(1400, 900));
    imageRecord = (await client().files.createRecordFromUpload({ token, title: 'Studio shot' })).id;
    const text = await uploadBytes(client(), 'readme.txt', Buffer.from('not a picture'));
    textRecord = (await client().files.createRecordFromUpload({ token: text, title: 'Readme' })).id;
  });

  it('a job with the three fixed presets runs to Success and writes real files in their format and size', async () => {
    const seen: string[] = [];
    const submitted = await client().files.createRenditions([imageRecord], ['thumbnail', 'web', 'cutout']);
    assert.match(submitted.id, /^[0-9a-f]{32}$/);
    assert.ok(['Pending', 'Executing', 'Success'].includes(submitted.status));
    const job = await client().files.waitForJob(submitted.id, { initialDelayMs: 50, onStatus: (j) => seen.push(j.status) });
    assert.equal(job.status, 'Success', job.message ?? '');
    assert.equal(job.targetsCount, 1);
    assert.equal(job.failedTargetsCount, 0);
    assert.ok(job.startedOn && job.executionTime);
    assert.equal(seen.at(-1), 'Success');

    const version = (await client().files.latestVersion(imageRecord))!;
    const renditions = await client().files.listRenditions(version.id);
    const byName = new Map(renditions.map((r) => [r.name, r]));
    assert.deepEqual([...byName.keys()].sort(), ['cutout', 'thumbnail', 'web']);

    const thumbnail = await decode(client(), byName.get('thumbnail')!);
    assert.equal(thumbnail.bytes.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([thumbnail.image.width, thumbnail.image.height], [256, 165]);

    const web = await decode(client(), byName.get('web')!);
    assert.deepEqual([...web.bytes.subarray(0, 2)], [0xff, 0xd8], 'web is a JPEG');
    assert.deepEqual([web.image.width, web.image.height], [1024, 658]);
    assert.equal(byName.get('web')!.width, 1024);
    assert.equal(byName.get('web')!.fileSize, web.bytes.length);
  });

  it('cutout (aiActions removeBackground) is a PNG whose background is transparent and subject opaque', async () => {
    const version = (await client().files.latestVersion(imageRecord))!;
    const cutout = (await client().files.listRenditions(version.id)).find((r) => r.name === 'cutout')!;
    const { bytes, image } = await decode(client(), cutout);
    assert.equal(bytes.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([image.width, image.height], [1024, 658]);
    for (const [x, y] of [[0, 0], [image.width - 1, 0], [0, image.height - 1], [image.width - 1, image.height - 1], [image.width / 2, 5]]) {
      assert.equal(intToRGBA(image.getPixelColor(x, y)).a, 0, `background pixel ${x},${y} is transparent`);
    }
    const centre = intToRGBA(image.getPixelColor(image.width / 2, image.height / 2));
    assert.equal(centre.a, 255, 'the subject stays opaque');
    assert.ok(centre.r > 150 && centre.g < 100, 'and keeps its colour');
  });

  it('the renditions are reachable as additional files with their own download link', async () => {
    const version = (await client().files.latestVersion(imageRecord))!;
    const rendition = (await client().files.listRenditions(version.id))[0];
    const res = await client().http.request({ path: `/additionalfile/${rendition.id}`, schema: AdditionalFileSchema });
    assert.equal(res.data.id, rendition.id);
    assert.match(link(res.data, 'download')?.href ?? '', /\/download\?/);
    const byQuery = (await client().get(`additionalfile?fileVersionId=${version.id}`)) as { items: unknown[] };
    assert.equal(byQuery.items.length, 3);
  });

  it('running a preset again replaces its rendition instead of adding a second one', async () => {
    const job = await client().files.waitForJob((await client().files.createRenditions([imageRecord], ['thumbnail'])).id, { initialDelayMs: 50 });
    assert.equal(job.status, 'Success');
    const version = (await client().files.latestVersion(imageRecord))!;
    assert.equal((await client().files.listRenditions(version.id)).filter((r) => r.name === 'thumbnail').length, 1);
  });

  it('an unknown preset is a 400 naming it, and no job is made', async () => {
    const before = (await client().files.listJobs()).length;
    const err = await failure<ApiError>(() => client().files.createRenditions([imageRecord], ['thumbnail', 'poster-xl']));
    assert.equal(err.status, 400);
    assert.match(err.exceptionMessage ?? '', /'poster-xl'/);
    assert.equal((await client().files.listJobs()).length, before);
  });

  it('a record without an image fails as a target, naming it: Failed alone, PartiallyFailed beside a good one', async () => {
    const alone = await client().files.waitForJob((await client().files.createRenditions([textRecord], ['web'])).id, { initialDelayMs: 50 });
    assert.equal(alone.status, 'Failed');
    assert.equal(alone.failedTargetsCount, 1);
    assert.match(JSON.stringify(alone.errors), new RegExp(textRecord));
    const mixed = await client().files.waitForJob((await client().files.createRenditions([imageRecord, textRecord], ['thumbnail'])).id, { initialDelayMs: 50 });
    assert.equal(mixed.status, 'PartiallyFailed');
    assert.equal(mixed.targetsCount, 2);
    assert.equal(mixed.failedTargetsCount, 1);
    assert.match(mixed.message ?? '', new RegExp(textRecord));
  });

  it('action names are matched case-insensitively and jobs are listed', async () => {
    const res = await client().http.request({
      method: 'POST',
      path: '/maintenancejobs',
      json: { type: 'record', targets: [{ recordId: imageRecord }], actions: [{ action: 'createrenditions', parameters: { presets: ['thumbnail'] } }] },
      schema: MaintenanceJobSchema,
    });
    assert.ok(res.headers.get('location')?.endsWith(res.data.id));
    await client().files.waitForJob(res.data.id, { initialDelayMs: 50 });
    assert.ok((await client().files.listJobs()).some((j) => j.id === res.data.id));
    const unknown = await failure<ApiError>(() =>
      client().http.request({ method: 'POST', path: '/maintenancejobs', json: { targets: [{ recordId: imageRecord }], actions: [{ action: 'Defragment', parameters: {} }] } }),
    );
    assert.equal(unknown.status, 400);
    assert.match(unknown.exceptionMessage ?? '', /Defragment/);
  });

  it('waiting can be cancelled with an AbortSignal', async () => {
    const job = await client().files.createRenditions([imageRecord], ['web']);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await assert.rejects(client().files.waitForJob(job.id, { signal: controller.signal }), /stop/);
    await client().files.waitForJob(job.id, { initialDelayMs: 50 });
  });

  it('the limited client lacks .RoleExecuteMaintenanceJobs and .RoleViewMaintenanceJobs: 403', async () => {
    const limited = env().client({ profile: { ...env().profile, clientId: LIMITED.clientId }, secrets: { clientSecret: LIMITED.clientSecret } });
    const err = await failure<ApiError>(() => limited.files.createRenditions([imageRecord], ['thumbnail']));
    assert.equal(err.status, 403);
    assert.match(err.exceptionMessage ?? '', /RoleExecuteMaintenanceJobs/);
    const list = await failure<ApiError>(() => limited.files.listJobs());
    assert.equal(list.status, 403);
    assert.match(list.exceptionMessage ?? '', /RoleViewMaintenanceJobs/);
  });

  it('dam renditions --wait reports the final status, with exit 1 when a target failed', async () => {
    const ok = await runDam(['renditions', imageRecord, '--preset', 'thumbnail', '--preset', 'web', '--wait', '--url', env().url]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /: Success/);
    const bad = await runDam(['renditions', textRecord, '--preset', 'web', '--wait', '--json', '--url', env().url]);
    assert.equal(bad.code, 1);
    assert.equal(JSON.parse(bad.stdout).status, 'Failed');
    assert.match(bad.stderr, new RegExp(textRecord));
    const unknown = await runDam(['renditions', imageRecord, '--preset', 'nope', '--url', env().url]);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /'nope'/);
    const usage = await runDam(['renditions', imageRecord, '--url', env().url]);
    assert.equal(usage.code, 2);
  });
});
