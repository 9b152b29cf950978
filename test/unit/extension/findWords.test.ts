// Find in DAM ranks plain words by relevance with the exact title first; anything else is a search expression as typed.
import { strict as assert } from 'node:assert';
import { plainWords, sayWhere, wordsExpression } from '../../../src/extension/explorer/nodes';
import { diagnoseExpression } from '../../../src/core/search';

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

// Issue 27, item 3: `children's harbour` was refused ("The string starting here has no closing '").
describe('words with apostrophes', () => {
  it('are words, sent as terms the service parses', () => {
    assert.equal(plainWords("children's harbour"), "children's harbour");
    assert.equal(plainWords('students’ work'), 'students’ work');
    assert.equal(wordsExpression("children's harbour"), '"children\'s" harbour');
    assert.equal(wordsExpression('e-mail'), '"e-mail"');
    for (const words of ["children's harbour", "o'neil's", 'rock’n’roll 2026']) {
      const { diagnostics } = diagnoseExpression(wordsExpression(plainWords(words)!));
      assert.deepEqual(diagnostics.filter((d) => d.severity === 'error'), [], words);
    }
    // A string that starts a word is still a string: it is an expression, sent as typed.
    assert.equal(plainWords("'summer sale"), undefined);
  });

  it('a reason that says "here" says where in a one-line input', () => {
    const text = "Title = 'harbour AND ContentType = Image";
    const said = sayWhere("Invalid search expression: The string starting here has no closing '. (DQ1002)", text);
    assert.equal(said, "Invalid search expression: The string starting at character 9 ('harbour AND ContentType…) has no closing '. (DQ1002)");
    assert.equal(sayWhere('Title is not a date.', text), 'Title is not a date.');
  });
});
