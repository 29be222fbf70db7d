import { describe, expect, it } from 'vitest';
import { createMailer, renderMail, translate } from '../../src/server/auth/mailer.js';

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
    expect(translate('ms', 'emails.passwordReset.subject')).toBe('Set semula kata laluan Awards CMS anda');
    // Formal register: the Malay mail opens with 'Salam sejahtera', the Indonesian one with 'Yth.'.
    expect(ms).toMatch(/^Salam sejahtera Siti,/);
    expect(id).toMatch(/^Yth\. Siti,/);
  });

  it('renders through i18next: plurals by a numeric count, a missing value left as written', () => {
    expect(renderMail('en', 'passwordReset', { name: 'Siti', link: 'L', minutes: 60 }).text).toBe(
      translate('en', 'emails.passwordReset.body', { name: 'Siti', link: 'L', minutes: '60' }),
    );
    expect(translate('en', 'emails.passwordReset.body', {})).toContain('{{name}}');
    expect(translate('en', 'no.such.key')).toBe('no.such.key');
  });

  it('falls back to English for an unknown language', () => {
    expect(translate('fr', 'emails.passwordReset.subject')).toBe(translate('en', 'emails.passwordReset.subject'));
  });
});

describe('createMailer', () => {
  it('without SMTP, says at info level that a mail was not sent, its text (a secret link) only at debug level', async () => {
    const lines: Array<{ level: string; obj: any; msg: string }> = [];
    const log = {
      info: (obj: unknown, msg: string) => lines.push({ level: 'info', obj, msg }),
      debug: (obj: unknown, msg: string) => lines.push({ level: 'debug', obj, msg }),
    } as any;
    const mailer = createMailer({ mailFrom: 'Awards <no-reply@example.com>' }, log);
    expect(mailer.transport).toBe('log');
    await mailer.send({ to: 'a@example.com', subject: 'Reset', text: 'open https://x.example/reset-password?token=abc' });
    const info = lines.filter((l) => l.level === 'info');
    expect(info).toHaveLength(1);
    expect(JSON.stringify(info)).not.toContain('token=abc');
    expect(info[0]!.msg).toContain('a@example.com');
    expect(lines.find((l) => l.level === 'debug')!.obj.mail.text).toContain('reset-password?token=abc');
  });

  it('renders a templated message in its language, the link in the text', async () => {
    const lines: Array<{ obj: any }> = [];
    const log = { info: () => undefined, debug: (obj: unknown) => lines.push({ obj }) } as any;
    const mailer = createMailer({ mailFrom: 'x@example.com' }, log);
    await mailer.send({
      to: 'b@example.com',
      language: 'ms',
      template: 'passwordReset',
      vars: { name: 'Aminah', minutes: 60 },
      link: 'https://x.example/r?token=zz',
    });
    expect(lines[0]!.obj.mail.subject).toBe(translate('ms', 'emails.passwordReset.subject'));
    expect(lines[0]!.obj.mail.text).toMatch(/^Salam sejahtera Aminah,/);
    expect(lines[0]!.obj.mail.text).toContain('https://x.example/r?token=zz');
  });

  it('uses SMTP when SMTP_URL is set', () => {
    const mailer = createMailer({ smtpUrl: 'smtp://127.0.0.1:2525', mailFrom: 'x@example.com' }, {} as any);
    expect(mailer.transport).toBe('smtp');
  });
});
