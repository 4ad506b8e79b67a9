// How compute and its image decoder processes talk over a pipe: each message is a JSON head and a
// byte body, each preceded by its length (u32, little-endian). Bodies are image files one way and
// raw pixels the other (up to 200 MB for 50 MP RGBA), so a body is copied once into a buffer of its
// announced size, never gathered by repeated concatenation. The reader bounds both lengths before
// allocating: the other end may be a decoder taken over by a hostile file.

export interface Message<Head> {
  head: Head;
  body: Buffer;
}

/** The bytes of one message. */
export function encodeMessage(head: unknown, body: Uint8Array = new Uint8Array(0)): Buffer[] {
  const json = Buffer.from(JSON.stringify(head));
  const headLength = Buffer.alloc(4);
  headLength.writeUInt32LE(json.length);
  const bodyLength = Buffer.alloc(4);
  bodyLength.writeUInt32LE(body.length);
  return [headLength, json, bodyLength, Buffer.from(body.buffer, body.byteOffset, body.byteLength)];
}

/** Cuts a byte stream into messages; throws on a length over its bound (the stream is then unusable). */
export class MessageReader<Head> {
  readonly #maxHead: number;
  readonly #maxBody: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #head: Head | undefined;
  #body: Buffer | undefined;
  #filled = 0;

  constructor(limits: { maxHeadBytes: number; maxBodyBytes: number }) {
    this.#maxHead = limits.maxHeadBytes;
    this.#maxBody = limits.maxBodyBytes;
  }

  /** Feeds a chunk; returns the messages it completed. */
  push(chunk: Buffer): Array<Message<Head>> {
    const done: Array<Message<Head>> = [];
    let rest = chunk;
    while (rest.length > 0) {
      if (this.#body) {
        // Inside a body: copy straight into its buffer.
        const n = Math.min(rest.length, this.#body.length - this.#filled);
        rest.copy(this.#body, this.#filled, 0, n);
        this.#filled += n;
        rest = rest.subarray(n);
        if (this.#filled === this.#body.length) done.push(this.#finish());
        continue;
      }
      this.#pending.push(rest);
      this.#pendingBytes += rest.length;
      rest = this.#readPrefix(done);
    }
    return done;
  }

  /** Parses a head and a body length from the pending bytes when they are all there; returns what follows them. */
  #readPrefix(done: Array<Message<Head>>): Buffer {
    if (this.#pendingBytes < 4) return Buffer.alloc(0);
    const pending = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending);
    const headBytes = pending.readUInt32LE(0);
    if (headBytes > this.#maxHead) throw new Error(`message head of ${headBytes} bytes (at most ${this.#maxHead})`);
    if (pending.length < 8 + headBytes) {
      this.#pending = [pending];
      return Buffer.alloc(0);
    }
    const head = JSON.parse(pending.toString("utf8", 4, 4 + headBytes)) as Head;
    const bodyBytes = pending.readUInt32LE(4 + headBytes);
    if (bodyBytes > this.#maxBody) throw new Error(`message body of ${bodyBytes} bytes (at most ${this.#maxBody})`);
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#head = head;
    this.#body = Buffer.allocUnsafe(bodyBytes);
    this.#filled = 0;
    if (bodyBytes === 0) done.push(this.#finish());
    return pending.subarray(8 + headBytes);
  }

  #finish(): Message<Head> {
    const message = { head: this.#head as Head, body: this.#body! };
    this.#head = undefined;
    this.#body = undefined;
    this.#filled = 0;
    return message;
  }
}
