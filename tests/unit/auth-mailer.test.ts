import { describe, expect, it } from 'vitest';
import { createMailer, translate } from '../../src/server/auth/mailer.js';

describe('mail text', () => {
  it('writes the reset mail in the admin language, filling the placeholders', () => {
    const vars = { name: 'Siti', link: 'https://x.example/reset-password?token=t', minutes: '60' };
    const en = translate('en', 'emails.passwordReset.body', vars);
    const id = translate('id', 'emails.passwordReset.body', vars);
    const ms = translate('ms', 'emails.passwordReset.body', vars);
    for (const text of [en, id, ms]) {
      expect(text).toContain('Siti');
      expect(text).toContain(vars.link);
      expect(text).not.toContain('{{');
    }
    expect(new Set([en, id, ms]).size).toBe(3);
    expect(translate('ms', 'emails.passwordReset.subject')).toBe('Set semula kata laluan Awards Console anda');
    // Formal register: the Malay mail opens with 'Salam sejahtera', the Indonesian one with 'Yth.'.
    expect(ms).toMatch(/^Salam sejahtera Siti,/);
    expect(id).toMatch(/^Yth\. Siti,/);
  });

  it('falls back to English for an unknown language', () => {
    expect(translate('fr', 'emails.passwordReset.subject')).toBe(translate('en', 'emails.passwordReset.subject'));
  });
});

describe('createMailer', () => {
  it('logs the message at info level when no SMTP transport is configured', async () => {
    const lines: Array<{ obj: any; msg: string }> = [];
    const log = { info: (obj: unknown, msg: string) => lines.push({ obj, msg }) } as any;
    const mailer = createMailer({ mailFrom: 'Awards <no-reply@example.com>' }, log);
    expect(mailer.transport).toBe('log');
    await mailer.send({ to: 'a@example.com', subject: 'Reset', text: 'open https://x.example/reset-password?token=abc' });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.obj.mail.text).toContain('reset-password?token=abc');
    expect(lines[0]!.msg).toContain('a@example.com');
  });

  it('uses SMTP when SMTP_URL is set', () => {
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:2525', mailFrom: 'x@example.com' }, {} as any);
    expect(mailer.transport).toBe('smtp');
  });
});
