// The `dam tasks` argument helpers: durations where a day is 8 hours, and the one-line task summary.
import assert from 'node:assert/strict';
import { parseDuration, parseMetadata, summary } from '../../../src/cli/commands/tasks';
import { UsageError } from '../../../src/cli/command';

describe('dam tasks arguments', () => {
  const rows: [string, Record<string, number>][] = [
    ['480', { EstimatedDuration: 480 }],
    ['1d', { enteredEstimatedDurationDay: 1, enteredEstimatedDurationHour: 0, enteredEstimatedDurationMinute: 0 }],
    ['2h30m', { enteredEstimatedDurationDay: 0, enteredEstimatedDurationHour: 2, enteredEstimatedDurationMinute: 30 }],
    ['1d4H', { enteredEstimatedDurationDay: 1, enteredEstimatedDurationHour: 4, enteredEstimatedDurationMinute: 0 }],
  ];
  for (const [text, expected] of rows) it(`--duration ${text}`, () => assert.deepEqual(parseDuration(text), expected));

  for (const bad of ['', '-5', '1w', '4h1d', '1.5h', '99999999d', '2147483648', '99999999999999999999m']) {
    it(`--duration '${bad}' is a usage error`, () => assert.throws(() => parseDuration(bad), UsageError));
  }

  it('summarises a task with status and start type names', () => {
    assert.equal(
      summary({ id: 7, name: 'Copy', workFlowTaskStatus: 4, startType: 2, beginDate: 'B', endDate: 'E', estimatedDuration: 60, canDelegate: true, assignees: [{ taskAssigneeId: 9, userID: 3 }] }),
      'task 7 "Copy" Assigned FixedBegin B → E (60 min); user 3 (assignee 9); can delegate',
    );
  });

  it('--meta gathers repeated names and commas into lists, and names of Object.prototype members are fields like any other', () => {
    assert.deepEqual(parseMetadata(['Status=Draft', 'Tags=a,b', 'Tags=c']), { Status: 'Draft', Tags: ['a', 'b', 'c'] });
    const odd = parseMetadata(['constructor=x', '__proto__=y', 'toString=p,q']);
    assert.deepEqual(Object.keys(odd), ['constructor', '__proto__', 'toString']);
    assert.equal(JSON.stringify(odd), '{"constructor":"x","__proto__":"y","toString":["p","q"]}');
    assert.equal(Object.getPrototypeOf(odd), Object.prototype, 'the prototype is untouched');
    assert.throws(() => parseMetadata(['novalue']), UsageError);
  });
});
