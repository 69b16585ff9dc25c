import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import { configureHttpServer, idleConnectionSweep } from './http-server';

describe('idleConnectionSweep', () => {
  let server: Server;
  let port: number;

  beforeEach(async () => {
    server = createServer((_request, response) => response.end('ok'));
    configureHttpServer(server, 60_000);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  });

  const open = async (): Promise<Socket> => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    await new Promise((resolve) => setImmediate(resolve)); // the server sees the connection
    return socket;
  };
  const requestAndAnswer = async (socket: Socket): Promise<void> => {
    const answered = once(socket, 'data');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await answered;
  };

  it('leaves a new connection one sweep to send its request, then serves it', async () => {
    const socket = await open();
    const sweep = idleConnectionSweep(server);
    sweep();
    await requestAndAnswer(socket);
    sweep();
    expect(socket.destroyed).toBe(false);
  });

  it('closes a connection idle at two sweeps in a row, but not one that sent a request in between', async () => {
    const silent = await open();
    const talking = await open();
    const sweep = idleConnectionSweep(server);
    sweep();
    await requestAndAnswer(talking);
    const silentClosed = once(silent, 'close');
    sweep();
    await silentClosed;
    expect(talking.closed).toBe(false);
    const talkingClosed = once(talking, 'close');
    sweep();
    await talkingClosed;
  });
});
