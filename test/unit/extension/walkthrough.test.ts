// The Getting Started walkthrough as package.json declares it: every step has a button that runs a command the
// extension (or VS Code, for its views and new files) has, a completion event, and media that exist in the project.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  contributes: {
    commands: { command: string }[];
    views: Record<string, { id: string }[]>;
    walkthroughs: { id: string; title: string; steps: { id: string; title: string; description: string; media: { image?: string; markdown?: string; altText?: string }; completionEvents: string[] }[] }[];
  };
};

describe('Getting Started walkthrough', () => {
  const commands = new Set(manifest.contributes.commands.map((c) => c.command));
  const views = Object.values(manifest.contributes.views).flat().map((v) => v.id);
  const builtIn = new Set([...views.map((id) => `${id}.focus`), 'workbench.action.files.newUntitledFile']);
  const [walkthrough] = manifest.contributes.walkthroughs;

  it('walks from the emulator to a real tenant', () => {
    assert.equal(manifest.contributes.walkthroughs.length, 1);
    assert.deepEqual(walkthrough.steps.map((s) => s.id), ['startEmulator', 'browse', 'editRecord', 'query', 'upload', 'publishCheck', 'connectTenant']);
  });

  for (const step of walkthrough.steps) {
    it(`${step.id}: a button, a completion event, media in the project`, () => {
      const links = [...step.description.matchAll(/\]\(command:([\w.]+)/g)].map((m) => m[1]);
      assert.ok(links.length > 0, 'no button');
      for (const id of links) assert.ok(commands.has(id) || builtIn.has(id), `links to unknown command ${id}`);
      assert.ok(step.completionEvents.length > 0, 'no completion event');
      for (const event of step.completionEvents) assert.match(event, /^(onCommand:[\w.]+|onView:[\w.]+|onContext:[\w.]+)$/);
      for (const event of step.completionEvents.filter((e) => e.startsWith('onCommand:'))) assert.ok(commands.has(event.slice('onCommand:'.length)), event);
      const media = step.media.image ?? step.media.markdown;
      assert.ok(media && existsSync(join(ROOT, media)), `media ${media} is missing`);
      if (step.media.image) assert.ok(step.media.altText, 'an image without alt text');
    });
  }
});
