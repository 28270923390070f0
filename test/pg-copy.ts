/**
 * `COPY ... FROM STDIN` through a node-pg client, without pg-copy-streams (which the project does
 * not have): a query object that node-pg submits as it would its own, sending `data` when the
 * server asks for it. For the services tier's tables loaded as a production table is, from an
 * export such as `run --effects-out`'s CSV.
 */
import type pg from 'pg';

interface Connection { query(text: string): void; sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }

/** Runs `sql` (a `COPY table FROM STDIN ...`) with `data` as its input; resolves with the rows copied. */
export function copyFrom(client: pg.ClientBase, sql: string, data: string | Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    let copied = 0;
    const nothing = () => undefined;
    const query = {
      // Nothing returned: node-pg takes what submit returns for an error.
      submit: (connection: Connection) => { connection.query(sql); },
      handleCopyInResponse: (connection: Connection) => {
        connection.sendCopyFromChunk(Buffer.isBuffer(data) ? data : Buffer.from(data));
        connection.endCopyFrom();
      },
      handleCommandComplete: (msg: { text?: string }) => { copied = Number(/^COPY (\d+)$/.exec(msg.text ?? '')?.[1] ?? 0); },
      // node-pg forgets the query on an error: its ReadyForQuery goes to no one.
      handleError: (e: unknown) => reject(e),
      handleReadyForQuery: () => resolve(copied),
      handleRowDescription: nothing, handleDataRow: nothing, handleEmptyQuery: nothing, handlePortalSuspended: nothing, handleCopyData: nothing,
    };
    void client.query(query as unknown as pg.QueryConfig);
  });
}
