// Lookups keyed by what a request carries never reach Object.prototype: a file named `x.constructor` or `x.__proto__`
// is an unknown type (application/octet-stream), not a 500.
import { strict as assert } from 'node:assert';
import { describeEachBackend } from './helpers';
import { uploadBytes } from './fileFixtures';

describeEachBackend('prototype-safe lookups keyed by request data', { seed: 'empty' }, (env) => {
  it('file extensions that name Object.prototype members are unknown types, not a 500', async () => {
    const client = env().client();
    for (const name of ['payload.constructor', 'payload.__proto__', 'payload.toString', 'payload.hasOwnProperty', 'payload.valueOf']) {
      const record = await client.files.createRecordFromUpload({ token: await uploadBytes(client, name, Buffer.from('bytes')), title: name });
      const version = (await client.files.latestVersion(record.id))!;
      assert.equal(version.fileName, name);
      assert.equal(version.mimeType, 'application/octet-stream', name);
      assert.equal(version.hasImage, false);
    }
  });
});
