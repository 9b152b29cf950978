// Names in the order people read them: case aside, numbers by value.
import { strict as assert } from 'node:assert';
import { byTitle, compareNames } from '../../../src/extension/names';

describe('name order', () => {
  it('ignores case and reads numbers by value', () => {
    assert.deepEqual(['Vivid 10', 'big', 'Vivid 2', 'notes', 'Alpha'].sort(compareNames), ['Alpha', 'big', 'notes', 'Vivid 2', 'Vivid 10']);
  });

  it('orders records by title, then by id, and an untitled record by its id', () => {
    const rows = [
      { record: { id: 'b', title: 'same' } },
      { record: { id: 'zz', title: '' } },
      { record: { id: 'a', title: 'Same' } },
      { record: { id: 'c', title: 'apple' } },
    ];
    assert.deepEqual([...rows].sort(byTitle).map((r) => r.record.id), ['c', 'a', 'b', 'zz']);
  });
});
