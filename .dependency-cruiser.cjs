// Import rules of the layout (shared STYLE.md): one direction of imports, no circles, and each folder of
// src/core entered only through its index.ts. Run by `npm run lint` (`depcruise src media`).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: split the shared part into a module both sides import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-door',
      severity: 'error',
      comment: 'src/core/<area> is entered only through its index.ts (its facade).',
      from: { pathNot: '^(src/core|test/unit)/' },
      to: { path: '^src/core/[^/]+/.+', pathNot: '^src/core/[^/]+/index\\.ts$' },
    },
    {
      name: 'core-door-between-areas',
      severity: 'error',
      comment: 'One area of src/core uses another only through that area\'s index.ts.',
      from: { path: '^src/core/([^/]+)/' },
      to: { path: '^src/core/[^/]+/.+', pathNot: ['^src/core/$1/', '^src/core/[^/]+/index\\.ts$'] },
    },
    {
      name: 'core-is-pure',
      severity: 'error',
      comment: 'src/core is the shared language and rules: it imports no other layer.',
      from: { path: '^src/core/' },
      to: { path: '^src/(api|emulator|extension|cli)/' },
    },
    {
      name: 'api-below-faces',
      severity: 'error',
      comment: 'The client imports only src/core.',
      from: { path: '^src/api/' },
      to: { path: '^src/(emulator|extension|cli)/' },
    },
    {
      name: 'emulator-apart',
      severity: 'error',
      comment: 'The emulator imports only src/core: it must not agree with the client by sharing its code.',
      from: { path: '^src/emulator/' },
      to: { path: '^src/(api|extension|cli)/' },
    },
    {
      name: 'extension-no-emulator',
      severity: 'error',
      comment: 'The extension runs the emulator as a process (dist/emulator.js), never in the extension host.',
      from: { path: '^src/extension/' },
      to: { path: '^src/(emulator|cli)/' },
    },
    {
      name: 'domain-below-routes-and-seed',
      severity: 'error',
      comment: 'Emulator domain code is what routes and seeds use; it depends on neither.',
      from: { path: '^src/emulator/domain/' },
      to: { path: '^src/emulator/(routes|seed)/' },
    },
    {
      name: 'only-extension-imports-vscode',
      severity: 'error',
      from: { pathNot: '^(src/extension|test/e2e)/' },
      to: { path: '^vscode$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['(^|/)(dist|out|node_modules|test/.harness)/', '^esbuild\\.mjs$'] },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
