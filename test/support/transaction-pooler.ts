import { createServer, Server, Socket } from 'node:net';

/**
 * A transaction pooler in front of the embedded test database, in the manner of PgBouncer's transaction
 * mode. PGlite is one session, reached through one connection; but a Jest worker has many clients at once
 * (several apps per file, the CLI in-process, dispatchers polling). pglite-socket's own
 * multiplexer interleaves clients message by message, so one client's Bind meets another's Parse
 * ("portal does not exist"). Here each client gets the one upstream connection from its first message to
 * the ReadyForQuery that leaves no transaction open, and the others wait their turn.
 *
 * Session state (SET, prepared statements by name) is shared by every client, as in PgBouncer: the
 * service uses neither.
 */
export interface TransactionPooler {
  url: string;
  close(): Promise<void>;
}

const PROTOCOL_VERSION_3 = 196608;
const SSL_REQUEST = 80877103;

/** One message of the wire protocol after start-up: type byte, then a length that counts itself. */
interface Message {
  type: string;
  raw: Buffer;
}

class MessageReader {
  private buffer = Buffer.alloc(0);

  push(chunk: Buffer): Message[] {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const messages: Message[] = [];
    while (this.buffer.length >= 5) {
      const length = 1 + this.buffer.readInt32BE(1);
      if (this.buffer.length < length) break;
      messages.push({ type: String.fromCharCode(this.buffer[0]), raw: this.buffer.subarray(0, length) });
      this.buffer = this.buffer.subarray(length);
    }
    return messages;
  }
}

class Client {
  /** Messages received while another client holds the upstream connection. */
  readonly queue: Buffer[] = [];
  /** Sync and Query messages sent upstream whose ReadyForQuery has not come back yet. */
  outstanding = 0;
  /** The transaction status of the last ReadyForQuery: I (idle), T (in a transaction) or E (failed one). */
  status = 'I';
  closed = false;

  constructor(readonly socket: Socket) {}
}

export async function startTransactionPooler(upstreamUrl: string): Promise<TransactionPooler> {
  const { hostname, port } = new URL(upstreamUrl);
  const upstream = new Socket();
  upstream.setNoDelay(true);
  await new Promise<void>((resolve, reject) => {
    upstream.once('error', reject);
    upstream.connect(Number(port), hostname, () => {
      upstream.off('error', reject);
      resolve();
    });
  });
  const greeting = await startSession(upstream);

  let holder: Client | null = null;
  const waiting: Client[] = [];
  const clients = new Set<Client>();

  const send = (client: Client) => {
    const messages = client.queue.splice(0);
    for (const raw of messages) {
      const type = String.fromCharCode(raw[0]);
      if (type === 'S' || type === 'Q') client.outstanding++;
    }
    if (messages.length > 0) upstream.write(Buffer.concat(messages));
  };
  const grantNext = () => {
    holder = waiting.shift() ?? null;
    if (holder) send(holder);
  };
  const release = (client: Client) => {
    if (holder !== client) {
      const index = waiting.indexOf(client);
      if (index >= 0) waiting.splice(index, 1);
      return;
    }
    if (client.outstanding > 0) return; // its answers are still coming: dropped when they arrive
    if (client.status !== 'I') {
      // A client gone in the middle of a transaction: roll it back before anyone else gets the session.
      client.queue.splice(0, client.queue.length, simpleQuery('ROLLBACK'));
      send(client);
      return;
    }
    grantNext();
  };

  const upstreamReader = new MessageReader();
  upstream.on('data', (chunk: Buffer) => {
    let answer: Buffer[] = [];
    const flush = (client: Client) => {
      if (!client.closed && answer.length > 0) client.socket.write(Buffer.concat(answer));
      answer = [];
    };
    for (const message of upstreamReader.push(chunk)) {
      const client = holder;
      if (!client) continue;
      answer.push(message.raw);
      if (message.type !== 'Z') continue;
      flush(client);
      client.outstanding--;
      client.status = String.fromCharCode(message.raw[5]);
      if (client.closed) release(client);
      else if (client.outstanding === 0 && client.status === 'I') {
        if (client.queue.length > 0) send(client);
        else grantNext();
      }
    }
    if (holder) flush(holder);
  });

  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    const client = new Client(socket);
    clients.add(client);
    const reader = new MessageReader();
    let started = false;
    let startup = Buffer.alloc(0);
    const gone = () => {
      if (client.closed) return;
      client.closed = true;
      clients.delete(client);
      release(client);
    };
    socket.on('error', gone);
    socket.on('close', gone);
    socket.on('data', (chunk: Buffer) => {
      if (!started) {
        startup = Buffer.concat([startup, chunk]);
        while (!started && startup.length >= 8 && startup.length >= startup.readInt32BE(0)) {
          const length = startup.readInt32BE(0);
          const code = startup.readInt32BE(4);
          startup = startup.subarray(length);
          if (code === SSL_REQUEST) {
            socket.write('N');
          } else if (code === PROTOCOL_VERSION_3) {
            started = true;
            socket.write(greeting);
          } else {
            socket.destroy(); // a CancelRequest, or a protocol this pooler does not speak
            return;
          }
        }
        if (!started || startup.length === 0) return;
        chunk = startup;
      }
      for (const message of reader.push(chunk)) {
        if (message.type === 'X') {
          socket.end();
          gone();
          return;
        }
        client.queue.push(message.raw);
      }
      if (holder === client) send(client);
      else if (client.queue.length > 0 && !waiting.includes(client)) {
        waiting.push(client);
        if (!holder) grantNext();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };

  return {
    url: `postgres://postgres@127.0.0.1:${address.port}/postgres`,
    close: async () => {
      for (const client of clients) client.socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      upstream.end(Buffer.from([0x58, 0, 0, 0, 4])); // Terminate
      upstream.destroy();
    },
  };
}

/** Starts the one upstream session and returns what the server answered, up to its first ReadyForQuery. */
function startSession(upstream: Socket): Promise<Buffer> {
  const parameters = Buffer.from('user\0postgres\0database\0postgres\0\0');
  const startup = Buffer.alloc(8);
  startup.writeInt32BE(8 + parameters.length, 0);
  startup.writeInt32BE(PROTOCOL_VERSION_3, 4);
  upstream.write(Buffer.concat([startup, parameters]));

  const reader = new MessageReader();
  const received: Buffer[] = [];
  return new Promise((resolve, reject) => {
    upstream.once('error', reject);
    const onData = (chunk: Buffer) => {
      for (const message of reader.push(chunk)) {
        if (message.type === 'E') reject(new Error('the embedded database refused the pooler'));
        received.push(message.raw);
        if (message.type === 'Z') {
          upstream.off('data', onData);
          upstream.off('error', reject);
          resolve(Buffer.concat(received));
        }
      }
    };
    upstream.on('data', onData);
  });
}

function simpleQuery(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`);
  const header = Buffer.alloc(5);
  header.write('Q');
  header.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([header, text]);
}
