// Entry of an image worker process (`dist/imageWorker.js`, or this file under tsx): takes one task at a time from
// the emulator over IPC and answers it. It exits when the emulator goes away (the IPC channel closes).
import { picture, probeHeader, readPieces, render } from './imageWork';
import { PROBE_BYTES, type ImageTask, type ReplyMessage, type TaskMessage } from './protocol';

async function perform(task: ImageTask): Promise<unknown> {
  switch (task.op) {
    case 'probe': {
      let remaining = PROBE_BYTES;
      const head = task.pieces.flatMap((p) => {
        if (remaining <= 0) return [];
        const end = Math.min(p.end, p.start + remaining - 1);
        remaining -= end - p.start + 1;
        return [{ ...p, end }];
      });
      return probeHeader(await readPieces(head));
    }
    case 'render':
      return render(await readPieces(task.pieces), task.request);
    case 'picture':
      return picture(task.generator);
  }
}

function answer(reply: ReplyMessage): void {
  process.send?.(reply);
}

process.on('message', (message: TaskMessage) => {
  perform(message.task).then(
    (value) => answer({ id: message.id, ok: true, value }),
    (err: unknown) => answer({ id: message.id, ok: false, message: err instanceof Error ? err.message : String(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
