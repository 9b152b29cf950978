// Task commands: the create form, delegation and file attachment. Bundled apart as dist/tasks.js and
// loaded on the first task command, so the form's zod schemas and the flows cost nothing at activation.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import type { Task } from '../../api/tasks';
import { taskStatusName } from '../../core/tasks';
import { DELEGABLE, DELEGABLE_WORDS, noDelegableTask, statusWords } from './delegable';
import type { Session } from '../connections/session';
import type { DamLog } from '../log';
import { loadFormContext, TaskFormPanel } from './formPanel';
import { resolveFieldLabels } from './attachFields';

export interface TaskModuleDeps {
  extensionUri: vscode.Uri;
  log: DamLog;
  session(): Session;
}

/** Runs `work` under a cancellable notification; cancelling aborts the requests in flight. */
function withCancellableProgress<T>(title: string, work: (signal: AbortSignal, progress: vscode.Progress<{ message?: string; increment?: number }>) => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable: true }, (progress, token) => {
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    return work(abort.signal, progress).catch((err: unknown) => {
      if (abort.signal.aborted) throw new vscode.CancellationError();
      throw err;
    });
  });
}

interface TaskPick extends vscode.QuickPickItem {
  id: number;
}

/** "Write launch copy" · #5001 · In Process · ends 2026-03-04: a task as a quick pick row, its name first. */
function taskPick(task: Task): TaskPick {
  const ends = task.endDate ? `ends ${task.endDate.slice(0, 10)}` : undefined;
  return { label: task.name, description: `#${task.id}`, detail: [statusWords(task.workFlowTaskStatus), ends].filter(Boolean).join(' · '), id: task.id };
}

/**
 * The task a command works on: `given` when a caller passed an id, else picked by name from the tenant's
 * tasks (typing a number offers that id too, for a task beyond the list). `listed`, when given, are the
 * tasks to offer instead of the tenant's whole list.
 */
async function askTaskId(client: DamClient, title: string, given: unknown, listed?: readonly Task[]): Promise<number> {
  if (typeof given === 'number' && Number.isInteger(given) && given > 0) return given;
  const quickPick = vscode.window.createQuickPick<TaskPick>();
  quickPick.title = title;
  quickPick.placeholder = 'Pick a task by name, or type its id';
  quickPick.matchOnDescription = true;
  quickPick.matchOnDetail = true;
  quickPick.ignoreFocusOut = true;
  quickPick.busy = true;
  const abort = new AbortController();
  let picks: TaskPick[] = [];
  const refreshItems = (): void => {
    const typed = /^\s*#?(\d+)\s*$/.exec(quickPick.value)?.[1];
    const byId = typed && Number(typed) > 0 && !picks.some((t) => t.id === Number(typed)) ? [{ label: `Task #${typed}`, description: 'by id', alwaysShow: true, id: Number(typed) }] : [];
    quickPick.items = [...byId, ...picks];
  };
  try {
    return await new Promise<number>((resolve, reject) => {
      quickPick.onDidChangeValue(refreshItems);
      quickPick.onDidAccept(() => {
        const picked = quickPick.selectedItems[0] ?? quickPick.activeItems[0];
        if (picked) resolve(picked.id);
      });
      quickPick.onDidHide(() => reject(new vscode.CancellationError()));
      quickPick.show();
      (listed ? Promise.resolve({ items: listed }) : client.tasks.list({ limit: 200, signal: abort.signal })).then(
        (page) => {
          picks = page.items.map(taskPick);
          quickPick.busy = false;
          if (picks.length === 0) quickPick.placeholder = 'The tenant lists no tasks; type a task id';
          refreshItems();
        },
        (err: unknown) => {
          quickPick.busy = false;
          if (abort.signal.aborted) return;
          quickPick.placeholder = `The tasks could not be listed (${err instanceof Error ? err.message : String(err)}); type a task id`;
        },
      );
    });
  } finally {
    abort.abort();
    quickPick.dispose();
  }
}

async function userLabels(client: DamClient, signal: AbortSignal): Promise<Map<number, string>> {
  const labels = new Map<number, string>();
  const [users, groups] = await Promise.all([client.tasks.users({ limit: 200, signal }), client.tasks.groups({ limit: 200, signal })]);
  for (const u of users) labels.set(u.userId, [u.firstName, u.lastName].filter(Boolean).join(' ') || u.emailAddress || u.loginId || String(u.userId));
  for (const g of groups) labels.set(g.groupId, `${g.name ?? g.groupId} (group)`);
  return labels;
}

export class TaskModule implements vscode.Disposable {
  private panel: TaskFormPanel | undefined;

  constructor(private readonly deps: TaskModuleDeps) {}

  /** The open form, if any (the test suite drives it through its messages). */
  get formPanel(): TaskFormPanel | undefined {
    return this.panel;
  }

  async createTask(): Promise<TaskFormPanel> {
    if (this.panel) {
      this.panel.webviewPanel.reveal();
      return this.panel;
    }
    const client = this.deps.session().client;
    const context = await withCancellableProgress('DAM: reading projects, users and groups', (signal) => loadFormContext(client, signal));
    if (context.projects.length === 0) throw new Error('The tenant has no projects to add a task to; create a project in the web UI first.');
    const webviewPanel = vscode.window.createWebviewPanel('dam.taskForm', 'New DAM task', vscode.ViewColumn.Active, { enableScripts: true, retainContextWhenHidden: true });
    const panel = new TaskFormPanel(client, this.deps.log, context, webviewPanel, this.deps.extensionUri);
    this.panel = panel;
    webviewPanel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
    });
    return panel;
  }

  /** Task id → which assignee → the new user; each step prompts only when not given. */
  async delegate(taskIdArg?: unknown, taskAssigneeIdArg?: unknown, newUserIdArg?: unknown): Promise<Task> {
    const client = this.deps.session().client;
    // Only tasks that can be delegated are offered; when none can, that is said before anything is asked.
    let delegable: Task[] | undefined;
    if (!(typeof taskIdArg === 'number')) {
      const all = (await withCancellableProgress('DAM: reading the tasks', (signal) => client.tasks.list({ limit: 200, signal }))).items;
      const none = noDelegableTask(all);
      if (none) throw new Error(none);
      delegable = all.filter((t) => DELEGABLE.has(t.workFlowTaskStatus));
    }
    const taskId = await askTaskId(client, 'DAM: delegate a task', taskIdArg, delegable);
    const { task, labels } = await withCancellableProgress(`DAM: reading task ${taskId}`, async (signal) => ({
      task: await client.tasks.get(taskId, { signal }),
      labels: await userLabels(client, signal),
    }));
    // A task typed by id may be one that cannot be delegated: said now, not after the new user was chosen.
    if (!DELEGABLE.has(task.workFlowTaskStatus)) throw new Error(`Task ${taskId} "${task.name}" is ${statusWords(task.workFlowTaskStatus)}: ${DELEGABLE_WORDS}.`);
    const assignees = (task.assignees ?? []).filter((a) => a.userID !== null);
    if (assignees.length === 0) throw new Error(`Task ${taskId} has no assignee to delegate from; open another task or add an assignee in the web UI.`);
    let taskAssigneeId = typeof taskAssigneeIdArg === 'number' ? taskAssigneeIdArg : undefined;
    if (taskAssigneeId === undefined) {
      if (assignees.length === 1) taskAssigneeId = assignees[0]!.taskAssigneeId;
      else {
        const pick = await vscode.window.showQuickPick(
          assignees.map((a) => ({ label: labels.get(a.userID!) ?? `user ${a.userID}`, description: `assignment ${a.taskAssigneeId}`, id: a.taskAssigneeId })),
          { title: `DAM: delegate task ${taskId} "${task.name}"`, placeHolder: 'Whose part of the task is handed on?' },
        );
        if (!pick) throw new vscode.CancellationError();
        taskAssigneeId = pick.id;
      }
    }
    let newUserId = typeof newUserIdArg === 'number' ? newUserIdArg : undefined;
    if (newUserId === undefined) {
      const current = new Set(assignees.map((a) => a.userID));
      const pick = await vscode.window.showQuickPick(
        [...labels].filter(([id]) => !current.has(id)).map(([id, label]) => ({ label, description: `id ${id}`, id })),
        { title: `DAM: delegate task ${taskId} "${task.name}"`, placeHolder: 'Hand it to whom?', matchOnDescription: true },
      );
      if (!pick) throw new vscode.CancellationError();
      newUserId = pick.id;
    }
    const updated = await withCancellableProgress(`DAM: delegating task ${taskId}`, (signal) => client.tasks.delegate(taskId, newUserId, { taskAssigneeId, signal }));
    const who = labels.get(newUserId) ?? `user ${newUserId}`;
    this.deps.log.info(`Delegated task ${taskId} (assignment ${taskAssigneeId}) to ${who}`);
    void vscode.window.showInformationMessage(`Task ${taskId} "${updated.name}" delegated to ${who}.`);
    return updated;
  }

  /**
   * The spec's five steps: the task's open upload slot, the file through the upload service, the attachment
   * and its version through the task-scoped routes, then the slot filled with the version.
   */
  async attach(taskIdArg?: unknown, fileArg?: unknown, titleArg?: unknown): Promise<{ taskId: number; documentId: number; attachmentId: number; versionId: number }> {
    const client = this.deps.session().client;
    const taskId = await askTaskId(client, 'DAM: attach a file to a task', taskIdArg);
    let file = fileArg instanceof vscode.Uri ? fileArg : undefined;
    if (!file) {
      const picked = await vscode.window.showOpenDialog({ title: `Attach a file to task ${taskId}`, canSelectMany: false, openLabel: 'Attach' });
      if (!picked?.[0]) throw new vscode.CancellationError();
      file = picked[0];
    }
    if (file.scheme !== 'file') throw new Error('Only files on this computer can be attached; save the file to disk first.');
    const fileName = path.basename(file.fsPath);
    const { task, slots, fields } = await withCancellableProgress(`DAM: reading task ${taskId}`, async (signal) => {
      const [task, slots, fields] = await Promise.all([
        client.tasks.get(taskId, { signal }),
        client.tasks.documentUploads(taskId, { signal }),
        client.tasks.attachmentFields({ signal }),
      ]);
      return { task, slots, fields: await resolveFieldLabels(client, fields, signal) };
    });
    const status = taskStatusName(task.workFlowTaskStatus);
    if (status !== 'InProcess') throw new Error(`Task ${taskId} is ${status ?? task.workFlowTaskStatus}; files can be attached only while a task is In Process. Accept the task first.`);
    const open = slots.filter((s) => s.status === undefined || s.status === 'Open');
    if (open.length === 0) throw new Error(`Task ${taskId} has no open document upload slot; every slot is filled already.`);
    let documentId = open[0]!.documentId;
    if (open.length > 1) {
      const pick = await vscode.window.showQuickPick(
        open.map((s) => ({ label: s.name ?? `slot ${s.documentId}`, description: `document ${s.documentId}`, id: s.documentId })),
        { title: `Attach ${fileName} to task ${taskId}`, placeHolder: 'Which upload slot?' },
      );
      if (!pick) throw new vscode.CancellationError();
      documentId = pick.id;
    }
    let title = typeof titleArg === 'string' && titleArg.trim() ? titleArg.trim() : undefined;
    if (!title) {
      title = await vscode.window.showInputBox({ title: `Attach ${fileName} to task ${taskId}`, prompt: 'Attachment title', value: fileName, ignoreFocusOut: true, validateInput: (v) => (v.trim() ? undefined : 'A title is required') });
      if (title === undefined) throw new vscode.CancellationError();
    }
    // Picklists are asked for with their options labelled through the string resources: required ones
    // always, optional ones (Escape skips) only when the title was asked too, so a caller passing
    // arguments is not stopped by prompts.
    const interactive = typeof titleArg !== 'string';
    const metadata: Record<string, string | string[]> = {};
    for (const field of fields.filter((f) => f.options.length > 0 && (f.required || interactive))) {
      const many = field.dataType === 'Multiselect';
      const items = field.options.map((o) => ({ label: o.label, description: o.key, key: o.key }));
      const placeHolder = `${field.label} (${field.required ? 'required' : 'optional: Escape skips'})`;
      const pick = many
        ? await vscode.window.showQuickPick(items, { title: `Attach ${fileName}: ${field.label}`, canPickMany: true, placeHolder })
        : await vscode.window.showQuickPick(items, { title: `Attach ${fileName}: ${field.label}`, placeHolder });
      const empty = !pick || (Array.isArray(pick) && pick.length === 0);
      if (empty && field.required) throw new vscode.CancellationError();
      if (empty) continue;
      metadata[field.name] = Array.isArray(pick) ? pick.map((p) => p.key) : (pick as { key: string }).key;
    }
    const result = await withCancellableProgress(`DAM: attaching ${fileName} to task ${taskId}`, async (signal, progress) => {
      progress.report({ message: 'uploading the file (step 2 of 5)' });
      let reported = 0;
      const uploaded = await client.uploads.upload(
        { path: file.fsPath, filename: fileName },
        {
          signal,
          onProgress: ({ sent, total }) => {
            const pct = total > 0 ? Math.floor((sent / total) * 80) : 80;
            progress.report({ increment: pct - reported, message: `uploading ${Math.round((sent / Math.max(total, 1)) * 100)}%` });
            reported = pct;
          },
        },
      );
      progress.report({ message: 'creating the attachment and its version (steps 3–5)' });
      // The live service may answer the upload with only its token, which then stands for the file id.
      const fileId = uploaded.fileId ?? uploaded.token;
      return client.tasks.attach(taskId, { fileId, fileName }, { documentId, title: title!, metadata, signal });
    });
    this.deps.log.info(`Attached ${fileName} to task ${taskId}: attachment ${result.attachmentId}, version ${result.versionId} in slot ${result.documentId}`);
    void vscode.window.showInformationMessage(`Attached ${fileName} to task ${taskId} "${task.name}" (attachment ${result.attachmentId}).`);
    return { taskId, ...result };
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
