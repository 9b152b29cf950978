// Find in DAM ranks plain words by relevance with the exact title first; anything else is a search expression as typed.
import { strict as assert } from 'node:assert';
import { plainWords } from '../../../src/extension/explorer/nodes';

describe('plainWords', () => {
  it('takes words as words, spaces tidied', () => {
    assert.equal(plainWords('  Misty beach   press release 111 '), 'Misty beach press release 111');
    assert.equal(plainWords('harbour'), 'harbour');
  });

  it('leaves search expressions alone', () => {
    for (const q of ['Title = x', 'ContentType = Image AND harbour', 'harbour OR beach', 'NOT draft', '-draft', 'sun*', '"summer sale"', 'Title contains x', 'Id in (a, b)', '(a)', '@who', 'a+b', ''])
      assert.equal(plainWords(q), undefined, q);
  });
});
