// Which tasks Delegate Task offers, and why none, in words: free of `vscode` so unit tests read it.
import type { Task } from '../../api/tasks';
import { TaskStatus, taskStatusName } from '../../core/tasks';

/** A status as people read it: `In Process`, not `InProcess (5)`. */
export function statusWords(status: number): string {
  return taskStatusName(status)?.replace(/([a-z])([A-Z])/g, '$1 $2') ?? `status ${status}`;
}

/** Only these can be delegated (spec rule 6: canDelegate holds for Assigned or In Process tasks). */
export const DELEGABLE: ReadonlySet<number> = new Set([TaskStatus.Assigned, TaskStatus.InProcess]);
export const DELEGABLE_WORDS = 'only a task that is Assigned or In Process can be delegated';

/**
 * Why no task of `tasks` can be delegated, in words: what statuses they have instead. Undefined when one can.
 */
export function noDelegableTask(tasks: readonly Task[]): string | undefined {
  if (tasks.some((t) => DELEGABLE.has(t.workFlowTaskStatus))) return undefined;
  if (tasks.length === 0) return 'The tenant lists no tasks, so there is nothing to delegate.';
  const counts = new Map<string, number>();
  for (const t of tasks) counts.set(statusWords(t.workFlowTaskStatus), (counts.get(statusWords(t.workFlowTaskStatus)) ?? 0) + 1);
  const have = [...counts].map(([status, n]) => `${n} ${status}`).join(', ');
  return `No task can be delegated: ${DELEGABLE_WORDS}, and the tenant's tasks are ${have}.`;
}
