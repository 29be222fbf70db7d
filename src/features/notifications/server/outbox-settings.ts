/**
 * The outbox worker's knobs, from the environment (defaults for production; tests shorten the
 * clock): how often it looks for work, how many messages it claims at once and sends side by side,
 * how long a claim holds, and the retry schedule (a few minutes, doubling up to hourly, `failed`
 * a day after the message was queued).
 */
export interface OutboxSettings {
  /** `OUTBOX_WORKER=off` stops this server sending (it still queues). */
  enabled: boolean;
  /** `OUTBOX_POLL_MS`: pause between looks when there is no work (a new message wakes it at once). */
  pollMs: number;
  /** `OUTBOX_BATCH`: messages claimed by one statement. */
  batchSize: number;
  /** `OUTBOX_CONCURRENCY`: messages in flight at once (SMTP connections). */
  concurrency: number;
  /** `OUTBOX_CLAIM_SECONDS`: how long a claim holds unless renewed; after it, another server resends. */
  claimSeconds: number;
  /** `OUTBOX_RETRY_BASE_SECONDS`: the wait after a first failure; it doubles at each failure... */
  retryBaseSeconds: number;
  /** `OUTBOX_RETRY_MAX_SECONDS`: ...up to this (hourly). */
  retryMaxSeconds: number;
  /** `OUTBOX_GIVE_UP_SECONDS`: a message still failing this long after it was queued is `failed`. */
  giveUpSeconds: number;
  /** `OUTBOX_SMTP_TIMEOUT_MS`: connection, greeting and socket timeouts of the SMTP transport. */
  smtpTimeoutMs: number;
}

export const DEFAULT_OUTBOX_SETTINGS: OutboxSettings = {
  enabled: true,
  pollMs: 5_000,
  batchSize: 50,
  concurrency: 4,
  claimSeconds: 120,
  retryBaseSeconds: 120,
  retryMaxSeconds: 3_600,
  giveUpSeconds: 86_400,
  smtpTimeoutMs: 30_000,
};

const KNOBS: Record<Exclude<keyof OutboxSettings, 'enabled'>, string> = {
  pollMs: 'OUTBOX_POLL_MS',
  batchSize: 'OUTBOX_BATCH',
  concurrency: 'OUTBOX_CONCURRENCY',
  claimSeconds: 'OUTBOX_CLAIM_SECONDS',
  retryBaseSeconds: 'OUTBOX_RETRY_BASE_SECONDS',
  retryMaxSeconds: 'OUTBOX_RETRY_MAX_SECONDS',
  giveUpSeconds: 'OUTBOX_GIVE_UP_SECONDS',
  smtpTimeoutMs: 'OUTBOX_SMTP_TIMEOUT_MS',
};

/** The settings from `env`; a knob that is not a positive number stops the start with its name. */
export function outboxSettings(env: Record<string, string | undefined> = process.env): OutboxSettings {
  const settings: OutboxSettings = { ...DEFAULT_OUTBOX_SETTINGS };
  for (const [field, name] of Object.entries(KNOBS) as Array<[keyof typeof KNOBS, string]>) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    const value = Number(raw);
    if (!/^\d+(\.\d+)?$/.test(raw) || !(value > 0)) throw new Error(`${name} must be a positive number; got "${raw}".`);
    settings[field] = value;
  }
  settings.batchSize = Math.max(1, Math.floor(settings.batchSize));
  settings.concurrency = Math.max(1, Math.floor(settings.concurrency));
  settings.enabled = !['off', '0', 'false'].includes(env.OUTBOX_WORKER?.trim().toLowerCase() ?? '');
  return settings;
}

/** Seconds to wait after the `attempts`-th failed try: base, doubling, at most the maximum. */
export function retryDelaySeconds(attempts: number, settings: Pick<OutboxSettings, 'retryBaseSeconds' | 'retryMaxSeconds'>): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  return Math.min(settings.retryBaseSeconds * 2 ** exponent, settings.retryMaxSeconds);
}
