// File versions through the client: a record made from an upload token, a new version on an existing record,
// single-use tokens, signed download URIs (bytes, Content-Disposition, Range, Location-Alias, tampering, expiry),
// previews and thumbnails of real images, HasImage=false, and the demo tenant's generated files.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Jimp, intToRGBA } from 'jimp';
import { describeEachBackend, failure, USER_AGENT } from './helpers';
import { discPicture, readAll, uploadBytes } from './fileFixtures';
import { ApiError } from '../../src/api/errors';
import { embedded, link } from '../../src/api/hal';
import { FileVersionSchema } from '../../src/api/files';
import { AnyJsonSchema, RecordSchema } from '../../src/api/schemas';

/** The emulator's clock, moved forward by tests of expiry. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };

describeEachBackend('files: versions, downloads, previews', { seed: 'demo', clock }, (env) => {
  const client = () => env().client();
  const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

  describe('a record created from an uploaded image', () => {
    let png: Buffer;
    let recordId = '';
    let classificationId = '';

    before(async () => {
      png = await discPicture(900, 600);
      classificationId = (await client().classifications.list({ pageSize: 1 })).items[0].id;
    });

    it('POST /record with the files section creates the record, its master file and version 1', async () => {
      const token = await uploadBytes(client(), 'red disc.png', png);
      const record = await client().files.createRecordFromUpload({ token, title: 'Red disc', classificationIds: [classificationId], versionLabel: 'v1', comment: 'first' });
      recordId = record.id;
      assert.equal(record.title, 'Red disc');
      const version = await client().files.latestVersion(recordId);
      assert.ok(version);
      assert.equal(version.fileName, 'red disc.png');
      assert.equal(version.version, 1);
      assert.equal(version.versionLabel, 'v1');
      assert.equal(version.comment, 'first');
      assert.equal(version.fileSize, png.length);
      assert.equal(version.checksum, sha256(png));
      assert.equal(version.hasImage, true);
      assert.deepEqual([version.width, version.height], [900, 600]);
      const withClassifications = await client().records.get(recordId, { select: { resources: { record: ['classifications', 'fileCount'] } } });
      assert.equal((withClassifications as { fileCount?: number }).fileCount, 1);
    });

    it('the download URI answers the same bytes with Content-Disposition naming the file', async () => {
      const version = (await client().files.latestVersion(recordId))!;
      const href = link(version, 'download')!.href;
      assert.match(href, /\/download\?.*token=/);
      const download = await client().files.download(version);
      assert.equal(download.filename, 'red disc.png');
      assert.equal(download.contentType, 'image/png');
      const bytes = await readAll(download.body);
      assert.equal(sha256(bytes), sha256(png));
      const res = await fetch(href, { headers: { 'User-Agent': USER_AGENT } });
      assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="red disc\.png"/);
      await res.arrayBuffer();
    });

    it('downloadToFile writes the whole file', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'dam-dl-'));
      try {
        const version = (await client().files.latestVersion(recordId))!;
        const result = await client().files.downloadToFile(version, join(dir, 'out.png'));
        assert.equal(result.bytes, png.length);
        assert.equal(sha256(readFileSync(join(dir, 'out.png'))), sha256(png));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('select-record: masterfilelatestversion embeds the newest version of the master file', async () => {
      const record = await client().records.get(recordId, { select: { resources: { record: ['masterfilelatestversion', 'files'] } } });
      const latest = FileVersionSchema.parse(embedded(record, 'masterfilelatestversion'));
      assert.equal(latest.id, (await client().files.latestVersion(recordId))!.id);
      const files = await client().files.listFiles(recordId);
      assert.equal(files.length, 1);
      assert.equal(files[0].isMaster, true);
    });

    it('the thumbnail and preview of a real image have the right size, in the link and in the bytes', async () => {
      const record = await client().records.get(recordId);
      const thumbnail = await client().follow(link(record, 'thumbnail')!, AnyJsonSchema) as { width: number; height: number; uri: string };
      assert.deepEqual([thumbnail.width, thumbnail.height], [256, 171]);
      const image = await Jimp.read(await readAll((await client().files.download(thumbnail.uri)).body));
      assert.deepEqual([image.width, image.height], [256, 171]);
      const preview = await client().follow(link(record, 'preview')!, AnyJsonSchema) as { width: number; height: number; uri: string };
      assert.deepEqual([preview.width, preview.height], [900, 600], 'a preview never enlarges');
      const previewImage = await Jimp.read(await readAll((await client().files.download(preview.uri)).body));
      assert.deepEqual([previewImage.width, previewImage.height], [900, 600]);
      // The centre of the picture is still the red disc.
      const { r, g } = intToRGBA(image.getPixelColor(128, 85));
      assert.ok(r > 150 && g < 100, `centre pixel of the thumbnail is red (r=${r}, g=${g})`);
    });

    it('PUT /record/{id} with the files section adds version 2 to the same file', async () => {
      const second = await discPicture(300, 200, 'image/jpeg');
      const token = await uploadBytes(client(), 'disc-v2.jpg', second);
      const version = await client().files.addVersion(recordId, { token, versionLabel: 'v2' });
      assert.equal(version.version, 2);
      assert.equal(version.fileName, 'disc-v2.jpg');
      assert.equal(version.checksum, sha256(second));
      const files = await client().files.listFiles(recordId);
      assert.equal(files.length, 1, 'still one file, now with two versions');
      const versions = await client().files.listVersions(files[0].id);
      assert.deepEqual(versions.map((v) => v.version), [1, 2]);
      const bytes = await readAll((await client().files.download(version)).body);
      assert.equal(sha256(bytes), sha256(second));
      const record = await client().records.get(recordId, { select: { resources: { record: ['masterfilelatestversion'] } } });
      assert.equal(FileVersionSchema.parse(embedded(record, 'masterfilelatestversion')).id, version.id);
    });

    it('a token used twice answers 404 NoDataFoundException naming it, and creates nothing', async () => {
      const token = await uploadBytes(client(), 'once.png', png);
      await client().files.createRecordFromUpload({ token, title: 'Used once' });
      const title = `Second use ${Date.now()}`;
      const err = await failure<ApiError>(() => client().files.createRecordFromUpload({ token, title }));
      assert.equal(err.status, 404);
      assert.match(err.exceptionType ?? '', /NoDataFoundException$/);
      assert.ok(err.exceptionMessage?.includes(token), 'the message names the token');
      const found = (await client().get(`records?filter=${encodeURIComponent(`Title = "${title}"`)}`)) as { totalCount: number };
      assert.equal(found.totalCount, 0, 'the record was not created (all or nothing)');
    });

    it('an unknown token on an existing record is 404 and leaves its versions as they were', async () => {
      const before = await client().files.latestVersion(recordId);
      const err = await failure<ApiError>(() => client().files.addVersion(recordId, { token: 'bm90LWEtdG9rZW4=' }));
      assert.equal(err.status, 404);
      assert.match(err.exceptionType ?? '', /NoDataFoundException$/);
      assert.equal((await client().files.latestVersion(recordId))!.id, before!.id);
    });

    it('a file name with a forbidden character is a 400 and keeps the token usable', async () => {
      const token = await uploadBytes(client(), 'ok.png', png);
      const err = await failure<ApiError>(() => client().files.createRecordFromUpload({ token, filename: 'a:b.png', title: 'bad name' }));
      assert.equal(err.status, 400);
      const record = await client().files.createRecordFromUpload({ token, filename: 'ok-after.png', title: 'good name' });
      assert.equal((await client().files.latestVersion(record.id))!.fileName, 'ok-after.png');
    });

    it('a tampered download token is refused with the error object', async () => {
      const version = (await client().files.latestVersion(recordId))!;
      const url = new URL(link(version, 'download')!.href);
      const token = url.searchParams.get('token')!;
      url.searchParams.set('token', `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`);
      const err = await failure<ApiError>(() => client().files.download(url.toString()));
      assert.equal(err.status, 403);
      assert.match(err.exceptionType ?? '', /Exception$/);
      const other = new URL(link(version, 'download')!.href);
      other.searchParams.set('id', '0'.repeat(32));
      assert.equal((await failure<ApiError>(() => client().files.download(other.toString()))).status, 403, 'the token is bound to its id');
      const longer = new URL(link(version, 'download')!.href);
      longer.searchParams.set('expires', String(Number(longer.searchParams.get('expires')) + 3600));
      assert.equal((await failure<ApiError>(() => client().files.download(longer.toString()))).status, 403, 'the expiry cannot be moved');
    });

    it('a download URI expires after 30 hours', async () => {
      const version = (await client().files.latestVersion(recordId))!;
      const href = link(version, 'download')!.href;
      const expires = Number(new URL(href).searchParams.get('expires')) * 1000;
      assert.ok(Math.abs(expires - Date.now() - 30 * 3600_000) < 120_000, 'expiry is 30 hours ahead');
      clock.offsetMs = 29 * 3600_000;
      try {
        await readAll((await client().files.download(href)).body);
        clock.offsetMs = 30 * 3600_000 + 60_000;
        const err = await failure<ApiError>(() => client().files.download(href));
        assert.equal(err.status, 403);
        assert.match(err.exceptionMessage ?? '', /expired/);
      } finally {
        clock.offsetMs = 0;
      }
    });

    it('Range asks for a slice (206) and Location-Alias is accepted', async () => {
      const version = (await client().files.listVersions((await client().files.listFiles(recordId))[0].id))[0];
      const href = link(version, 'download')!.href;
      const res = await fetch(href, { headers: { 'User-Agent': USER_AGENT, Range: 'bytes=10-109', 'Location-Alias': 'eu2' } });
      assert.equal(res.status, 206);
      assert.equal(res.headers.get('content-range'), `bytes 10-109/${png.length}`);
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), png.subarray(10, 110));
      const outside = await fetch(href, { headers: { 'User-Agent': USER_AGENT, Range: `bytes=${png.length + 5}-` } });
      assert.equal(outside.status, 416);
      assert.ok(((await outside.json()) as { exceptionMessage?: string }).exceptionMessage);
      const noAgent = await fetch(href, { headers: { 'User-Agent': '' } });
      assert.equal(noAgent.status, 400, 'the download route still requires User-Agent');
      await noAgent.arrayBuffer();
    });
  });

  describe('a file that is not an image (HasImage=false)', () => {
    let recordId = '';
    it('has a version without image facts', async () => {
      const token = await uploadBytes(client(), 'notes.txt', Buffer.from('plain text, no pixels\n'));
      recordId = (await client().files.createRecordFromUpload({ token, title: 'Notes' })).id;
      const version = (await client().files.latestVersion(recordId))!;
      assert.equal(version.hasImage, false);
      // Left out rather than null: typed clients cannot load a null where a number belongs (real-service-notes).
      assert.equal(version.width, undefined);
      assert.equal(version.mimeType, 'text/plain');
    });

    it('preview and thumbnail answer 404 with a message when followed and null when selected', async () => {
      const record = await client().records.get(recordId, { select: { resources: { record: ['preview', 'thumbnail', 'masterfilelatestversion'] } } });
      assert.equal(embedded(record, 'preview'), null);
      assert.equal(embedded(record, 'thumbnail'), null);
      assert.ok(embedded(record, 'masterfilelatestversion'));
      for (const rel of ['preview', 'thumbnail']) {
        const err = await failure<ApiError>(() => client().follow(link(record, rel)!, AnyJsonSchema));
        assert.equal(err.status, 404);
        assert.match(err.exceptionMessage ?? '', /HasImage=false/);
      }
      const version = (await client().files.latestVersion(recordId))!;
      const err = await failure<ApiError>(() => client().follow(link(version, 'thumbnail')!, AnyJsonSchema));
      assert.equal(err.status, 404);
      const byQuery = await failure<ApiError>(() => client().get(`image/preview?fileVersionId=${version.id}`));
      assert.equal(byQuery.status, 404);
    });

    it('deleting the record takes its versions along: the old download URI answers 404', async () => {
      const version = (await client().files.latestVersion(recordId))!;
      await client().records.delete(recordId);
      const err = await failure<ApiError>(() => client().files.download(version));
      assert.equal(err.status, 404);
    });
  });

  it('POST /records (the path live clients use) takes the same files section', async () => {
    const token = await uploadBytes(client(), 'via-records.png', await discPicture(40, 30));
    const res = await client().http.request({
      method: 'POST',
      path: '/records',
      json: { status: 'draft', title: 'Via /records', files: { master: token, addOrUpdate: [{ versions: { addOrUpdate: [{ id: token, filename: 'renamed.png', versionLabel: 'v1' }] } }] } },
      schema: RecordSchema,
    });
    const version = (await client().files.latestVersion(res.data.id))!;
    assert.equal(version.fileName, 'renamed.png');
    assert.deepEqual([version.width, version.height], [40, 30]);
    assert.equal((await client().files.listFiles(res.data.id)).length, 1, 'master and the version entry name the same token: one file');
  });

  describe('the demo tenant', () => {
    it('Image records have generated pictures with previews; Document records have PDFs', async () => {
      const images = await client().records.list({ filter: 'ContentType = Image AND CreatedOn < 2026-01-01', pageSize: 2 });
      const image = images.items[0];
      const version = (await client().files.latestVersion(image.id))!;
      assert.equal(version.hasImage, true);
      const picture = await Jimp.read(await readAll((await client().files.download(version)).body));
      assert.deepEqual([picture.width, picture.height], [version.width, version.height]);
      const read = await client().files.getVersion(version.id);
      assert.ok(read.fileSize && read.fileSize > 1000, 'a version read on its own has its real size');
      const thumb = await client().http.request({ path: `/fileversion/${version.id}/thumbnail`, schema: AnyJsonSchema });
      const thumbBytes = await readAll((await client().files.download((thumb.data as { uri: string }).uri)).body);
      assert.ok(Math.max((await Jimp.read(thumbBytes)).width, (await Jimp.read(thumbBytes)).height) === 256);

      const docs = await client().records.list({ filter: 'ContentType = Document AND CreatedOn < 2026-01-01', pageSize: 1 });
      const pdf = (await client().files.latestVersion(docs.items[0].id))!;
      assert.equal(pdf.extension, 'pdf');
      assert.equal(pdf.hasImage, false);
      const bytes = await readAll((await client().files.download(pdf)).body);
      assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.match(bytes.toString('latin1'), /%%EOF\s*$/);
    });

    it('a Video record has no file: its masterfilelatestversion is null', async () => {
      const videos = await client().records.list({ filter: 'ContentType = Video', pageSize: 1 });
      assert.equal(await client().files.latestVersion(videos.items[0].id), null);
      const record = await client().http.request({ path: `/record/${videos.items[0].id}`, headers: { 'select-record': 'fileCount' }, schema: RecordSchema });
      assert.equal((record.data as { fileCount?: number }).fileCount, 0);
    });
  });
});
