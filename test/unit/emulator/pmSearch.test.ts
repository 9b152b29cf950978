// The work-management search body (PmSearchRequest) evaluated over a rendered task: a table of criteria and whether
// the task meets them.
import { strict as assert } from 'node:assert';
import { SearchCriteriaError, matchesPmSearch } from '../../../src/emulator/domain/tasks/search';

const task = { id: 5001, taskId: 5001, name: 'Review the brochure', workFlowTaskStatus: 5, endDate: '2026-03-03T17:00:00', description: null, _links: {} };

describe('PmSearchRequest over a task', () => {
  const cases: [string, unknown, boolean][] = [
    ['an empty body', {}, true],
    ['equals a number', { equals: { fieldName: 'workFlowTaskStatus', fieldValue: 5 } }, true],
    ['equals a number sent as text, field name in another case', { equals: { fieldName: 'WorkflowTaskStatus', fieldValue: '5' } }, true],
    ['equals another number', { equals: { fieldName: 'workFlowTaskStatus', fieldValue: 4 } }, false],
    ['or of equals (the browser inbox)', { or: [{ equals: { fieldName: 'workFlowTaskStatus', fieldValue: 4 } }, { equals: { fieldName: 'workFlowTaskStatus', fieldValue: 5 } }] }, true],
    ['and with one false', { and: [{ contains: { fieldName: 'name', fieldValue: 'BROCHURE' } }, { lessthan: { fieldName: 'taskId', fieldValue: 5000 } }] }, false],
    ['not', { not: { equals: { fieldName: 'workFlowTaskStatus', fieldValue: 4 } } }, true],
    ['a date compared as an instant', { greaterthanorequalto: { fieldName: 'endDate', fieldValue: '2026-03-03T17:00:00Z' } }, true],
    ['a date before', { lessthan: { fieldName: 'endDate', fieldValue: '2026-01-01' } }, false],
    ['isNull on a null field', { isNull: { fieldName: 'description' } }, true],
    ['isNotNull on a null field', { isNotNull: { fieldName: 'description' } }, false],
    ['a collection operand narrows nothing', { equals: { collectionName: 'assignees', fieldName: 'userID', fieldValue: 9 } }, true],
  ];
  for (const [name, criteria, expected] of cases) {
    it(`${name}: ${expected ? 'matches' : 'does not match'}`, () => assert.equal(matchesPmSearch(criteria, task), expected));
  }

  it('a field the task lacks is refused, naming the fields it has', () => {
    assert.throws(() => matchesPmSearch({ equals: { fieldName: 'colour', fieldValue: 1 } }, task), (e: unknown) => e instanceof SearchCriteriaError && /Unknown fieldName 'colour'.*workFlowTaskStatus/.test(e.message));
  });

  it('a list where an object is due, and an operand without fieldName, are refused', () => {
    assert.throws(() => matchesPmSearch([], task), SearchCriteriaError);
    assert.throws(() => matchesPmSearch({ or: { equals: {} } }, task), SearchCriteriaError);
    assert.throws(() => matchesPmSearch({ equals: { fieldValue: 1 } }, task), SearchCriteriaError);
  });
});
