// The "create a simple task" form: a WebviewPanel whose every change is checked here with the shared task
// rules (taskForm.ts) and answered with inline errors; Create sends through `client.tasks`.
import * as vscode from 'vscode';
import type { DamClient } from '../../api/client';
import { TaskValidationError, type Project } from '../../api/tasks';
import { taskStatusName } from '../../core/tasks';
import type { DamLog } from '../log';
import { webviewHtml, webviewRoots } from '../webviewHtml';
import { HostToPanelSchema, PanelToHostSchema, type HostToPanel } from './messages';
import { checkTaskForm, emptyForm, STATUS_LABELS, userPrincipals, type FormPrincipal, type FormProject, type TaskFormValues } from './taskForm';


/** Project statuses as people read them. */
const PROJECT_STATUS_LABELS: Record<string, string> = {
  InProcess: 'In Process',
  InitializeFailed: 'Initialize failed',
  StartFailed: 'Start failed',
};

/** Reads what the form needs from the tenant: projects (with status and calendars), users and groups. */
export async function loadFormContext(client: DamClient, signal?: AbortSignal): Promise<{ projects: FormProject[]; principals: FormPrincipal[] }> {
  // Users from the work-management API, whose integer ids assignees take (the content API names them by GUID).
  const [projects, users, groups] = await Promise.all([
    client.tasks.projects({ signal }),
    client.tasks.users({ limit: 200, signal }),
    client.tasks.groups({ limit: 200, signal }),
  ]);
  const principals: FormPrincipal[] = [];
  principals.push(...userPrincipals(users.map((u) => ({ id: u.userId, firstName: u.firstName ?? undefined, lastName: u.lastName ?? undefined, name: u.loginId ?? undefined, email: u.emailAddress ?? undefined }))));
  for (const g of groups) principals.push({ id: g.groupId, label: g.name ?? `group ${g.groupId}`, kind: 'group' });
  return { projects: projects.map((p: Project) => ({ ...p, calendars: p.calendars })), principals };
}

export class TaskFormPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;
  private form: TaskFormValues = emptyForm();
  private readonly answered = new vscode.EventEmitter<HostToPanel>();
  /** Every message the panel sent to the webview (tests wait on it). */
  readonly onDidAnswer = this.answered.event;
  /** The webview's `init` answer once its script has run and said it is ready. */
  initSent: HostToPanel | undefined;
  /** The task the form created last, if any. */
  lastCreated: { id: number; message?: string } | undefined;

  constructor(
    private readonly client: DamClient,
    private readonly log: DamLog,
    private readonly context: { projects: FormProject[]; principals: FormPrincipal[] },
    readonly webviewPanel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
  ) {
    const webview = webviewPanel.webview;
    webview.options = { enableScripts: true, localResourceRoots: webviewRoots(extensionUri) };
    webview.html = webviewHtml(webview, {
      style: vscode.Uri.joinPath(extensionUri, 'media', 'webviews', 'taskForm', 'style.css'),
      script: vscode.Uri.joinPath(extensionUri, 'dist', 'webviews', 'taskForm.js'),
      title: 'New task',
      root: { tag: 'main', text: 'Loading the task form…' },
    });
    const first = context.projects.find((p) => p.status === 'InProcess') ?? context.projects[0];
    if (first) this.form = { ...this.form, projectId: String(first.id) };
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => void this.handleMessage(raw)),
      webviewPanel.onDidDispose(() => this.dispose()),
      this.answered,
    );
  }

  get values(): TaskFormValues {
    return this.form;
  }

  private post(message: HostToPanel): HostToPanel {
    const checked = HostToPanelSchema.parse(message);
    this.answered.fire(checked);
    if (!this.disposed) void this.webviewPanel.webview.postMessage(checked);
    return checked;
  }

  private validation(seq: number): HostToPanel {
    const check = checkTaskForm(this.form, this.context);
    return this.post({
      type: 'validation',
      seq,
      errors: check.errors,
      warnings: check.warnings,
      computed: check.computed,
      derived: check.derived,
      statuses: check.statuses,
      startTypes: check.startTypes,
      calendars: check.calendars,
      disabled: check.disabled,
    });
  }

  /**
   * Every message from the webview arrives here, checked against its schema first. Tests post the same
   * messages and read the answer this returns (the last one for `create`).
   */
  async handleMessage(raw: unknown): Promise<HostToPanel | undefined> {
    const parsed = PanelToHostSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn(`Task form: ignored a malformed message (${parsed.error.issues[0]?.message ?? 'invalid'})`);
      return undefined;
    }
    const msg = parsed.data;
    switch (msg.type) {
      case 'ready':
        this.initSent = this.post({
          type: 'init',
          projects: this.context.projects.map((p) => ({ id: p.id, label: `${p.name} · ${PROJECT_STATUS_LABELS[p.status] ?? p.status}` })),
          principals: this.context.principals.map((p) => ({ id: p.id, label: p.label, kind: p.kind })),
          form: this.form,
        });
        return this.validation(0);
      case 'change':
        this.form = msg.form;
        return this.validation(msg.seq);
      case 'create':
        this.form = msg.form;
        return this.create(msg.seq);
    }
  }

  private async create(seq: number): Promise<HostToPanel> {
    const check = checkTaskForm(this.form, this.context);
    if (!check.body) return this.validation(seq);
    this.post({ type: 'sending' });
    try {
      const task = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'DAM: creating the task', cancellable: true },
        (_p, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return this.client.tasks.create(check.body!, { signal: abort.signal });
        },
      );
      this.lastCreated = { id: task.id, message: task.message };
      this.log.info(`Created task ${task.id} "${task.name}"${task.message ? ` (${task.message})` : ''}`);
      const status = taskStatusName(task.workFlowTaskStatus);
      return this.post({
        type: 'created',
        task: { id: task.id, name: task.name, beginDate: task.beginDate, endDate: task.endDate, status: status ? STATUS_LABELS[status] : String(task.workFlowTaskStatus) },
        ...(task.message ? { message: task.message } : {}),
      });
    } catch (err) {
      const message =
        err instanceof TaskValidationError
          ? err.message
          : `${err instanceof Error ? err.message : String(err)}. Check the fields and press Create again; the log (DAM: Show Log) has the details.`;
      this.log.error(`Creating a task failed: ${err instanceof Error ? err.message : String(err)}`);
      return this.post({ type: 'failed', message });
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.webviewPanel.dispose();
    this.disposables.forEach((d) => d.dispose());
  }
}
