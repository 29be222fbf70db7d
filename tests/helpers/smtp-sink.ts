import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the sink accepted, decoded enough to read. */
export interface SinkMessage {
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
  raw: string;
  /** When the sink accepted it (ms since the epoch). */
  at: number;
}

/** Unfolds and splits a header block. */
function headersOf(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split(/\r\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i += 1) {
    const ch = soft[i]!;
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) in a header. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_whole, _charset: string, encoding: string, data: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

/** A plain-text mail as nodemailer writes it: headers, then a 7bit, quoted-printable or base64 body. */
export function parseMail(raw: string): Omit<SinkMessage, 'to' | 'from' | 'at'> & { headers: Map<string, string> } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = headersOf(split < 0 ? raw : raw.slice(0, split));
  let body = split < 0 ? '' : raw.slice(split + 4);
  const encoding = (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
  else if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return {
    headers,
    messageId: headers.get('message-id') ?? '',
    subject: decodeWords(headers.get('subject') ?? ''),
    text: body.replace(/\r\n/g, '\n').replace(/\n$/, ''),
    raw,
  };
}

/**
 * A real SMTP server (the `smtp-server` package) for tests and the bench: accepts every message
 * (no TLS, no auth) and keeps it, or refuses every transaction with a temporary error while
 * {@link SmtpSink.refuse} says so. `delayMs` holds each message's answer that long (a slow server).
 */
export class SmtpSink {
  readonly messages: SinkMessage[] = [];
  private refusing: number | null = null;
  /** How many transactions were refused. */
  refused = 0;
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(options: { delayMs?: number; keep?: boolean } = {}): Promise<SmtpSink> {
    let sink: SmtpSink | undefined;
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      size: 10 * 1024 * 1024,
      onMailFrom(_address, _session, callback) {
        if (sink?.refusing) {
          sink.refused += 1;
          const error = Object.assign(new Error('Try again later'), { responseCode: sink.refusing });
          callback(error);
          return;
        }
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const parsed = parseMail(raw);
          sink?.messages.push({
            messageId: parsed.messageId,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject,
            text: parsed.text,
            raw: options.keep === false ? '' : raw,
            at: Date.now(),
          });
          if (options.delayMs) setTimeout(() => callback(), options.delayMs);
          else callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    server.on('error', () => undefined);
    const port = (server.server.address() as AddressInfo).port;
    sink = new SmtpSink(server, port);
    return sink;
  }

  /** `SMTP_URL` for a server sending here. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Refuses every transaction with `code` (a temporary 451 by default) until {@link accept}. */
  refuse(code = 451): void {
    this.refusing = code;
  }

  accept(): void {
    this.refusing = null;
  }

  /** How many times each Message-ID arrived. */
  countsByMessageId(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const message of this.messages) counts.set(message.messageId, (counts.get(message.messageId) ?? 0) + 1);
    return counts;
  }

  /** The messages to an address, oldest first. */
  to(address: string): SinkMessage[] {
    return this.messages.filter((m) => m.to.includes(address));
  }

  /** Resolves once `condition` holds (checked every 50 ms); rejects with `what` after `timeoutMs`. */
  async waitFor(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what} (${this.messages.length} messages received)`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Runs `build` with `env` in process.env (the outbox worker's knobs are read at start), then restores it. */
export async function withEnv<T>(env: Record<string, string>, build: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await build();
  } finally {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
