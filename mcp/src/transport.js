// The stdio transport of editcore-mcp (the MCP SDK's Transport interface: start, send, close,
// onmessage, onerror, onclose): one JSON-RPC message a line, in and out. Unlike the SDK's own
// StdioServerTransport it answers or says why, and never goes deaf:
//  - a line longer than `maxMessageBytes` is read through without being kept, and answered with a
//    JSON-RPC error (-32600) under the id it carried (found by a streaming scan of its top level);
//    the session goes on;
//  - a line that is not JSON is answered -32700; one that is not a JSON-RPC request, notification
//    or response (`{}`, `[]`, `null`, a batch, a bad id) -32600; a request whose `params` is not an
//    object (null, 5, "x", []) -32602 — all under the request's id when it has a usable one;
//  - a notification that is invalid cannot be answered (JSON-RPC forbids it): it is reported on
//    stderr, as is everything else the transport drops.
import { JSONRPCMessageSchema, CallToolRequestSchema, ListToolsRequestSchema, InitializeRequestSchema, PingRequestSchema } from '@modelcontextprotocol/sdk/types.js';

// The requests this server serves, checked here so that bad params are -32602 with the reason
// (the SDK answers its own schema failures -32603, with zod's issues as a JSON dump).
const REQUESTS = { 'tools/call': CallToolRequestSchema, 'tools/list': ListToolsRequestSchema, initialize: InitializeRequestSchema, ping: PingRequestSchema };

const NEWLINE = 0x0a;

/**
 * Finds the top-level "id" of a JSON object streamed through it in pieces, without keeping the
 * rest: a small state machine over the bytes, strings skipped with indexOf. `id` afterwards is
 * the id (a string or a number) or null.
 */
export class IdScanner {
  constructor() {
    this.depth = 0;
    this.inString = false;
    this.escape = false;
    this.expectKey = false;  // at depth 1, the next string is a key
    this.key = null;         // the key's bytes while it is read
    this.lastKey = null;     // the key whose value comes next
    this.atValue = false;    // after "id": and before its value
    this.literal = null;     // a number's bytes while it is read
    this.text = null;        // a string id's bytes while it is read (quotes included)
    this.found = null;
  }

  keep(buf, from, to) {
    const into = this.key ?? this.text;
    if (into && into.length + (to - from) <= 4096) for (let k = from; k < to; k++) into.push(buf[k]);
  }

  settle(bytes) {
    try {
      const v = JSON.parse(Buffer.from(bytes).toString('utf8'));
      if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) this.found = v;
    } catch { /* not a usable id */ }
  }

  feed(buf) {
    const n = buf.length;
    let i = 0;
    while (i < n) {
      if (this.inString) {
        if (this.escape) { this.keep(buf, i, i + 1); this.escape = false; i++; continue; }
        let q = buf.indexOf(0x22, i);
        if (q < 0) q = n;
        const b = buf.subarray(i, q).indexOf(0x5c);
        if (b >= 0) { this.keep(buf, i, i + b + 1); this.escape = true; i += b + 1; continue; }
        this.keep(buf, i, q);
        if (q === n) return;
        this.inString = false;
        i = q + 1;
        if (this.key) { this.lastKey = Buffer.from(this.key).toString('utf8'); this.key = null; this.expectKey = false; }
        else if (this.text) { this.text.push(0x22); this.settle(this.text); this.text = null; }
        continue;
      }
      const c = buf[i++];
      if (c <= 0x20) continue;
      if (this.literal && this.depth === 1 && (c === 0x2c || c === 0x7d)) { this.settle(this.literal); this.literal = null; }
      if (c === 0x22) {
        this.inString = true;
        if (this.depth === 1 && this.expectKey) this.key = [];
        else if (this.atValue) this.text = [0x22];
        this.atValue = false;
      } else if (c === 0x7b || c === 0x5b) {
        this.depth++;
        if (this.depth === 1) this.expectKey = c === 0x7b;
        this.atValue = false; // an object or array is no usable id
      } else if (c === 0x7d || c === 0x5d) {
        this.depth--;
      } else if (this.depth === 1 && c === 0x3a) {
        this.atValue = this.lastKey === 'id';
      } else if (this.depth === 1 && c === 0x2c) {
        this.expectKey = true;
        this.lastKey = null;
        this.atValue = false;
      } else if (this.atValue || this.literal) {
        (this.literal ??= []).push(c);
        this.atValue = false;
      }
    }
  }

  get id() { return this.found; }
}

const describe = (v) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `${typeof v} ${JSON.stringify(v)}`);

/**
 * Whether `msg` (parsed JSON) is a JSON-RPC message the MCP SDK takes: `{ ok: true }`, or the error to
 * answer `{ code, message, id, notification }` (a notification's error is only reported).
 */
export function checkMessage(msg) {
  const fail = (code, message, id = null, notification = false) => ({ ok: false, code, message, id, notification });
  if (Array.isArray(msg)) return fail(-32600, 'Invalid Request: a JSON-RPC batch (an array) is not supported; send one message per line');
  if (msg === null || typeof msg !== 'object') return fail(-32600, `Invalid Request: a JSON-RPC message is an object, not ${describe(msg)}`);
  const hasId = Object.hasOwn(msg, 'id');
  const idOk = typeof msg.id === 'string' || (typeof msg.id === 'number' && Number.isFinite(msg.id));
  const id = idOk ? msg.id : null;
  if (msg.jsonrpc !== '2.0') return fail(-32600, 'Invalid Request: "jsonrpc" must be "2.0"', id);
  if (Object.hasOwn(msg, 'method')) {
    if (typeof msg.method !== 'string') return fail(-32600, 'Invalid Request: "method" must be a string', id);
    if (hasId && !idOk) return fail(-32600, `Invalid Request: "id" must be a string or a number, not ${describe(msg.id)}`);
    if (Object.hasOwn(msg, 'params') && (msg.params === null || typeof msg.params !== 'object' || Array.isArray(msg.params)))
      return fail(-32602, `Invalid params: the params of ${msg.method} must be an object, not ${describe(msg.params)}`, id, !hasId);
  } else if (!Object.hasOwn(msg, 'result') && !Object.hasOwn(msg, 'error')) {
    return fail(-32600, 'Invalid Request: a JSON-RPC message needs a "method" (a request or notification), or a "result" or "error" (a response)', id);
  }
  const issues = (r) => r.error.issues.map((i) => `${i.message}${i.path?.length ? ` at ${i.path.join('.')}` : ''}`).join('; ');
  const parsed = JSONRPCMessageSchema.safeParse(msg);
  if (!parsed.success) return fail(-32600, `Invalid Request: ${issues(parsed)}`, id, Object.hasOwn(msg, 'method') && !hasId);
  const schema = hasId && Object.hasOwn(REQUESTS, msg.method) ? REQUESTS[msg.method] : null;
  const served = schema?.safeParse(msg);
  if (served && !served.success) return fail(-32602, `Invalid params for ${msg.method}: ${issues(served)}`, id);
  return { ok: true };
}

export class StdioTransport {
  /**
   * options: `maxMessageBytes` (a longer line is refused, not kept), `stdin`/`stdout` (streams),
   * `log(text)` (stderr by default).
   */
  constructor({ maxMessageBytes, stdin = process.stdin, stdout = process.stdout, log = (t) => process.stderr.write(`${t}\n`) } = {}) {
    this.max = maxMessageBytes;
    this.stdin = stdin;
    this.stdout = stdout;
    this.log = log;
    this.parts = [];
    this.size = 0;
    this.skip = null;   // { bytes, scanner } while reading through a line over the limit
    this.closed = false;
    this.onData = (chunk) => this.take(chunk);
    this.onEnd = () => {
      if (this.size || this.skip) this.finishLine(); // a last line without its newline is still a message
      this.close();
    };
    this.onStdinError = (e) => this.onerror?.(e);
  }

  async start() {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onStdinError);
  }

  take(chunk) {
    let pos = 0;
    while (pos < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, pos);
      const end = nl < 0 ? chunk.length : nl;
      const piece = chunk.subarray(pos, end);
      if (this.skip) {
        this.skip.scanner.feed(piece);
        this.skip.bytes += piece.length;
      } else if (this.size + piece.length > this.max) {
        const scanner = new IdScanner();
        for (const p of this.parts) scanner.feed(p);
        scanner.feed(piece);
        this.skip = { bytes: this.size + piece.length, scanner };
        this.parts = [];
        this.size = 0;
      } else if (piece.length) {
        this.parts.push(piece);
        this.size += piece.length;
      }
      if (nl < 0) break;
      this.finishLine();
      pos = nl + 1;
    }
  }

  finishLine() {
    if (this.skip) {
      const { bytes, scanner } = this.skip;
      this.skip = null;
      this.answerError(scanner.id, -32600, `Request too large: the message is ${bytes} bytes, over this server's limit of ${this.max} bytes `
        + '(editcore-mcp --max-message-bytes N raises it); it was not read. Send less at a time (a smaller file, or edits instead of the whole file).');
      return;
    }
    let line = this.parts.length === 1 ? this.parts[0].toString('utf8') : Buffer.concat(this.parts, this.size).toString('utf8');
    this.parts = [];
    this.size = 0;
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (!line.trim()) return; // an empty line carries no message
    let msg;
    try {
      msg = JSON.parse(line);
    } catch (e) {
      this.answerError(null, -32700, `Parse error: the line is not JSON (${e.message})`);
      return;
    }
    const check = checkMessage(msg);
    if (!check.ok) {
      if (check.notification) this.log(`editcore-mcp: an invalid notification was dropped (JSON-RPC answers none): ${check.message}`);
      else this.answerError(check.id, check.code, check.message);
      return;
    }
    try {
      this.onmessage?.(msg);
    } catch (e) {
      this.onerror?.(e);
    }
  }

  answerError(id, code, message) {
    this.log(`editcore-mcp: answered ${code} to ${id === null ? 'a message without a usable id' : `request ${JSON.stringify(id)}`}: ${message.split('\n')[0]}`);
    this.send({ jsonrpc: '2.0', id, error: { code, message } }).catch((e) => this.onerror?.(e));
  }

  send(message) {
    return new Promise((resolve, reject) => {
      if (this.closed && !this.stdout.writable) { reject(new Error('editcore-mcp: stdout is closed')); return; }
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  async close() {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onStdinError);
    this.stdin.pause();
    this.onclose?.();
  }
}
