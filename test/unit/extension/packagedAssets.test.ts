// Issue 35, wrong 6: the walkthrough's record step showed a broken image (media/screenshots/record.png was not in
// the .vsix). vsix.mjs, the packaging step of `npm run package` and of the UI tests, fails when the package lacks a
// file that package.json, the walkthrough's markdown, README.extension.md or a webview names.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
// @ts-expect-error a build script in JavaScript, without types
import { missingAssets, packagedFiles, referencedAssets } from '../../../vsix.mjs';

const ROOT = resolve(__dirname, '../../..');

type Asset = { path: string; from: string };

describe('packaged assets (vsix.mjs)', function () {
  this.timeout(60_000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'vsix-assets-'));
    const files: Record<string, string> = {
      'package.json': JSON.stringify({
        main: './dist/extension.js',
        icon: 'media/icon.png',
        contributes: {
          commands: [{ command: 'x.refresh', icon: '$(refresh)' }, { command: 'x.open', icon: { light: 'media/light.svg', dark: 'media/dark.svg' } }],
          walkthroughs: [{ steps: [{ media: { image: 'media/shots/step.png', altText: 'a step' } }, { media: { markdown: 'media/walk/step.md' } }] }],
          jsonValidation: [{ fileMatch: '*.x.json', url: './schemas/x.schema.json' }, { fileMatch: '*.y.json', url: 'x:///schemas/y.json' }],
        },
      }),
      'media/walk/step.md': '# Step\n![picture](../shots/inline.png) and [a page](https://example.com/a.png) and [a command](command:x.open)\n',
      'README.extension.md': '# X\n![shot](media/shots/readme.png)\n<img src="media/shots/html.png">\n',
      'src/extension/panel.ts': "const media = vscode.Uri.joinPath(extensionUri, 'media', 'webviews', 'p');\nstyle: vscode.Uri.joinPath(media, 'style.css'),\nscript: vscode.Uri.joinPath(deps.extensionUri, 'dist', 'webviews', 'p.js'),\nvscode.Uri.joinPath(folder, `${name}.csv`);\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('collects what package.json, the markdown shown and the webviews name, and nothing else', () => {
    const paths = (referencedAssets(dir) as Asset[]).map((a) => a.path).sort();
    assert.deepEqual(paths, [
      'dist/extension.js',
      'dist/webviews/p.js',
      'media/dark.svg',
      'media/icon.png',
      'media/light.svg',
      'media/shots/html.png',
      'media/shots/inline.png',
      'media/shots/readme.png',
      'media/shots/step.png',
      'media/walk/step.md',
      'media/webviews/p/style.css',
      'schemas/x.schema.json',
    ]);
  });

  it('names each file the package lacks, and where it is named', () => {
    const all = (referencedAssets(dir) as Asset[]).map((a) => a.path);
    assert.deepEqual(missingAssets(all, dir), []);
    const missing = missingAssets(all.filter((p) => p !== 'media/shots/step.png'), dir) as string[];
    assert.deepEqual(missing, ['media/shots/step.png (named by package.json contributes.walkthroughs[0].steps[0].media.image) is not in the package, nor in the project']);
  });

  // The project's own whitelist (.vscodeignore) as vsce lists it: the bundles under dist/ are built by the package
  // step itself, so only the files kept in the repository are checked here.
  it("this project's package holds every file it shows (the walkthrough's record screenshot too)", async () => {
    const files = (await packagedFiles(ROOT)) as string[];
    const missing = (missingAssets(files, ROOT) as string[]).filter((m) => !m.startsWith('dist/'));
    assert.deepEqual(missing, []);
    assert.ok(files.includes('media/screenshots/record.png'));
  });
});
