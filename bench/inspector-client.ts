// A Node process's inspector (the DevTools protocol over its WebSocket), as much of it as benchmarks need: evaluate
// an expression in the process, collect its garbage, write a heap snapshot of it to a file.
import { once } from 'node:events';
import WebSocket from 'ws';

export interface TInspector {
  /** The value of `expression` evaluated in the process (awaited when it is a promise). */
  evaluate<T>(expression: string): Promise<T>;
  /** A full garbage collection. */
  collectGarbage(): Promise<void>;
  /** A heap snapshot of the process, after a full collection, written by the process to `file`. */
  writeHeapSnapshot(file: string): Promise<string>;
  close(): void;
}

export async function openInspector(url: string): Promise<TInspector> {
  const socket = new WebSocket(url);
  await once(socket, 'open');
  let lastId = 0;
  const pending = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      id?: number;
      result?: unknown;
      error?: { message: string };
    };
    const waiter = message.id === undefined ? undefined : pending.get(message.id);
    if (!waiter || message.id === undefined) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(message.error.message));
    else waiter.resolve(message.result);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve, reject) => {
      lastId += 1;
      pending.set(lastId, { resolve, reject });
      socket.send(JSON.stringify({ id: lastId, method, params }));
    });

  const evaluate = async <T>(expression: string): Promise<T> => {
    const reply = (await send('Runtime.evaluate', {
      expression,
      returnByValue: true,
      awaitPromise: true,
    })) as {
      result: { value: T };
      exceptionDetails?: { exception?: { description?: string }; text: string };
    };
    if (reply.exceptionDetails) {
      throw new Error(reply.exceptionDetails.exception?.description ?? reply.exceptionDetails.text);
    }
    return reply.result.value;
  };
  const collectGarbage = async () => {
    await send('HeapProfiler.collectGarbage');
  };
  return {
    evaluate,
    collectGarbage,
    async writeHeapSnapshot(file) {
      await collectGarbage();
      return evaluate<string>(
        `process.getBuiltinModule('node:v8').writeHeapSnapshot(${JSON.stringify(file)})`,
      );
    },
    close: () => socket.close(),
  };
}
