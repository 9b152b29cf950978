// Writing lines to stdout with backpressure, and stopping quietly when the reader goes away (`| head`).

const watched = new WeakSet<object>();
const broken = new WeakSet<object>();

/** A closed pipe (EPIPE) must end the output, not crash the process with an unhandled 'error'. */
function watch(stream: NodeJS.WritableStream): void {
  if (watched.has(stream)) return;
  watched.add(stream);
  stream.on('error', () => broken.add(stream));
}

/** Resolves true once the line is accepted (after 'drain' when the buffer is full), false when the reader is gone. */
export function writeLine(stream: NodeJS.WritableStream, line: string): Promise<boolean> {
  watch(stream);
  if (broken.has(stream)) return Promise.resolve(false);
  if (stream.write(`${line}\n`)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      stream.removeListener('drain', onDrain);
      stream.removeListener('error', onError);
      stream.removeListener('close', onError);
      resolve(value);
    };
    const onDrain = () => done(true);
    const onError = () => done(false);
    stream.once('drain', onDrain);
    stream.once('error', onError);
    stream.once('close', onError);
  });
}
