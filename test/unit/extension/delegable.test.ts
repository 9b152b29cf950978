// Delegate Task (issue 27, item 4): only Assigned and In Process tasks are offered; when none is, the reason
// names the statuses in words (not "Assigned (4)"), before anything is asked.
import { strict as assert } from 'node:assert';
import { noDelegableTask } from '../../../src/extension/tasks/delegable';
import type { Task } from '../../../src/api/tasks';

const task = (id: number, workFlowTaskStatus: number) => ({ id, name: `T${id}`, workFlowTaskStatus }) as Task;

describe('delegable tasks', () => {
  it('none to say when an Assigned or In Process task is there', () => {
    assert.equal(noDelegableTask([task(1, 2), task(2, 5)]), undefined);
    assert.equal(noDelegableTask([task(1, 4)]), undefined);
  });

  it('says why none can be delegated, with status names and no numbers', () => {
    const said = noDelegableTask([task(1, 2), task(2, 2), task(3, 7), task(4, 1)]);
    assert.equal(said, "No task can be delegated: only a task that is Assigned or In Process can be delegated, and the tenant's tasks are 2 Projected, 1 Closed, 1 Draft.");
    assert.doesNotMatch(said!, /\(\d\)/);
    assert.match(noDelegableTask([])!, /no tasks/);
  });
});
