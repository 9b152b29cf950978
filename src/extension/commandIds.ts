// Every command id the extension registers, in one map that a unit test checks against package.json.
// Kept free of `vscode` imports so the test runs outside VS Code.
export const Commands = {
  startEmulator: 'dam.startEmulator',
  stopEmulator: 'dam.stopEmulator',
  addConnection: 'dam.addConnection',
  switchConnection: 'dam.switchConnection',
  signIn: 'dam.signIn',
  signOut: 'dam.signOut',
  removeConnection: 'dam.removeConnection',
  editConnections: 'dam.editConnections',
  showLog: 'dam.showLog',
  readAboutConnections: 'dam.readAboutConnections',
  explorerRefresh: 'dam.explorer.refresh',
  explorerRefreshNode: 'dam.explorer.refreshNode',
  explorerLoadMore: 'dam.explorer.loadMore',
  explorerLoadAll: 'dam.explorer.loadAll',
  explorerRetry: 'dam.explorer.retry',
  explorerFind: 'dam.explorer.find',
  explorerClearFind: 'dam.explorer.clearFind',
  explorerRevealRecord: 'dam.explorer.revealRecord',
  copyId: 'dam.copyId',
  explorerCopyLink: 'dam.explorer.copyLink',
  explorerOpenInWebUi: 'dam.explorer.openInWebUi',
  explorerOpenPreview: 'dam.explorer.openPreview',
  analyticsNewQuery: 'dam.analytics.newQuery',
  analyticsOpenBuilder: 'dam.analytics.openBuilder',
  queryRun: 'dam.query.run',
  queryHistory: 'dam.query.history',
  queryExport: 'dam.query.export',
  queryRefreshSchema: 'dam.query.refreshSchema',
  queryRevealResult: 'dam.query.revealResult',
  queryPreviewResult: 'dam.query.previewResult',
  queryCopyResultId: 'dam.query.copyResultId',
  tasksCreate: 'dam.tasks.create',
  tasksDelegate: 'dam.tasks.delegate',
  tasksAttach: 'dam.tasks.attach',
  filesUpload: 'dam.files.upload',
  filesCreateRenditions: 'dam.files.createRenditions',
  filesDownloadVersion: 'dam.files.downloadVersion',
  checksPublish: 'dam.checks.publish',
  checksShowResults: 'dam.checks.showResults',
  checksRefreshResults: 'dam.checks.refreshResults',
  inspectorSetUrl: 'dam.inspector.setUrl',
  inspectorFilter: 'dam.inspector.filter',
  inspectorClearFilter: 'dam.inspector.clearFilter',
  inspectorRefresh: 'dam.inspector.refresh',
  inspectorClear: 'dam.inspector.clear',
  inspectorShowDetails: 'dam.inspector.showDetails',
  inspectorCopyCurl: 'dam.inspector.copyCurl',
  inspectorCopyDamCommand: 'dam.inspector.copyDamCommand',
  inspectorReplay: 'dam.inspector.replay',
  inspectorOpenRecord: 'dam.inspector.openRecord',
  emulatorSaveState: 'dam.emulator.saveState',
  emulatorRestoreState: 'dam.emulator.restoreState',
  emulatorReset: 'dam.emulator.reset',
  tenantPull: 'dam.tenant.pull',
  tenantCompare: 'dam.tenant.compare',
  tenantCompareEmulator: 'dam.tenant.compareEmulator',
  recordsOpen: 'dam.records.open',
  recordsDelete: 'dam.records.delete',
  recordsChangeStatus: 'dam.records.changeStatus',
  recordsAddToClassification: 'dam.records.addToClassification',
  recordsRemoveFromClassification: 'dam.records.removeFromClassification',
  recordsUpdateMatching: 'dam.records.updateMatching',
  recordsUndoBulkUpdate: 'dam.records.undoBulkUpdate',
} as const;

/** Language id of `.dam-query` files. */
export const QUERY_LANGUAGE = 'dam-query';

export type CommandId = (typeof Commands)[keyof typeof Commands];

/** Context keys the extension sets for `when` clauses in package.json. */
export const ContextKeys = {
  state: 'dam.state',
  connectionName: 'dam.connectionName',
  hasConnection: 'dam.hasConnection',
  emulatorRunning: 'dam.emulatorRunning',
  /** The Emulator Requests view has an emulator to show (started here, connected, or named by URL). */
  inspectorHasTarget: 'dam.inspector.hasTarget',
  /** The Emulator Requests view shows a subset. */
  inspectorFiltered: 'dam.inspector.filtered',
  /** The local emulator is on its way up (Start hides, the welcome says it is starting). */
  emulatorStarting: 'dam.emulatorStarting',
} as const;

export const SECTION = 'dam';
export const VIEW_EXPLORER = 'dam.explorer';
export const VIEW_CHECK_RESULTS = 'dam.checkResults';
export const VIEW_EMULATOR_REQUESTS = 'dam.emulatorRequests';

/** `contextValue`s of the Emulator Requests view's rows. */
export const RequestViewContext = {
  request: 'dam.request',
  requestWithRecord: 'dam.request.record',
  finding: 'dam.request.finding',
  message: 'dam.request.message',
} as const;

/** `contextValue`s of the Check Results view's rows (package.json menus match on these). */
export const CheckViewContext = {
  result: 'dam.checkView.result',
  finding: 'dam.checkView.finding',
  message: 'dam.checkView.message',
} as const;
