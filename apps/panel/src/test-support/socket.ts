import WebSocket from 'ws';

export interface SocketMessage {
  event: string;
  args?: string[];
}

/** A console websocket client as the web app uses it: JSON `{event, args}` frames. */
export class TestSocket {
  readonly messages: SocketMessage[] = [];
  private waiters: { match: (m: SocketMessage) => boolean; resolve: (m: SocketMessage) => void }[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as SocketMessage;
      this.messages.push(message);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(message)) return true;
        w.resolve(message);
        return false;
      });
    });
  }

  static async open(url: string, origin: string): Promise<TestSocket> {
    const ws = new WebSocket(url, { origin });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return new TestSocket(ws);
  }

  send(event: string, ...args: string[]) {
    this.ws.send(JSON.stringify({ event, args }));
  }

  /** How many messages have arrived: pass it to `waitFor` to look only at later ones. */
  mark(): number {
    return this.messages.length;
  }

  /** The first message from index `from` on (received or still to come) that matches, within `ms`. */
  waitFor(match: (m: SocketMessage) => boolean, ms = 30_000, from = 0): Promise<SocketMessage> {
    const seen = this.messages.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(`no matching message in ${ms} ms; got ${JSON.stringify(this.messages.slice(-10))}`),
          ),
        ms,
      );
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  close() {
    this.ws.close();
  }
}
