// Client helpers of the files API that need no service: Content-Disposition parsing and final job statuses.
import { strict as assert } from 'node:assert';
import { filenameFromDisposition, isFinalJobStatus } from '../../../src/api/files';

describe('files client helpers', () => {
  const cases: [string | null, string | undefined][] = [
    ['attachment; filename="red disc.png"', 'red disc.png'],
    ['attachment; filename=plain.pdf', 'plain.pdf'],
    [`attachment; filename="_ber.png"; filename*=UTF-8''%C3%BCber.png`, 'über.png'],
    ['attachment; filename="quote \\"x\\".txt"', 'quote "x".txt'],
    ['inline', undefined],
    [null, undefined],
  ];
  for (const [header, expected] of cases) {
    it(`Content-Disposition ${JSON.stringify(header)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(filenameFromDisposition(header), expected);
    });
  }

  it('final job statuses are the four the live service ends in, in any case', () => {
    for (const s of ['Success', 'PartiallyFailed', 'failed', 'CANCELLED']) assert.ok(isFinalJobStatus(s), s);
    for (const s of ['Pending', 'Queued', 'Scheduled', 'Executing']) assert.ok(!isFinalJobStatus(s), s);
  });
});
