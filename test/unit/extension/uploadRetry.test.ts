// Retry is offered only for failures a second try could help (issue 27, item 9): a file name with one of the spec's
// forbidden characters fails the same way every time.
import { strict as assert } from 'node:assert';
import { canNeverUpload, retryable } from '../../../src/extension/files/retry';

describe('upload retry', () => {
  it('a forbidden character means never; a network failure may pass next time', () => {
    for (const name of ['a:b.png', 'what?.txt', 'x*.md', 'pipe|.jpg', '<tag>.png', 'q".png', ' ']) assert.equal(canNeverUpload(name), true, name);
    for (const name of ['notes.md', "children's harbour.jpg", 'été.png']) assert.equal(canNeverUpload(name), false, name);
    assert.deepEqual(retryable([{ file: 'a:b.png', reason: 'x' }]), []);
    assert.deepEqual(retryable([{ file: 'a:b.png' }, { file: 'ok.png' }]).map((f) => f.file), ['ok.png']);
  });
});
