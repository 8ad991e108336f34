import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createTestContext, uniqueEmail, type TestContext } from '../../test/harness';
import { mailsTo } from '../../test/auth-helpers';

const message = (to: string) => ({
  to,
  subject: 'Hello there',
  text: 'Open https://example.test/a',
  html: '<p><a href="https://example.test/a">a</a></p>',
  links: { a: 'https://example.test/a' },
});

describe('mail delivery', () => {
  it('appends one JSON line per message to the outbox when SMTP_URL is unset', async () => {
    const t = await createTestContext();
    try {
      const to = uniqueEmail('outbox');
      await Promise.all([t.ctx.services.mailer.send(message(to)), t.ctx.services.mailer.send(message(to))]);
      const mails = mailsTo(t, to);
      expect(mails).toHaveLength(2);
      expect(mails[0]).toMatchObject(message(to));
      const lines = fs.readFileSync(t.config.MAIL_OUTBOX_FILE, 'utf8').trim().split('\n');
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      await t.close();
    }
  });

  it('sends through SMTP_URL with MAIL_FROM when it is set', async () => {
    const received: Array<{ from: string; to: string[]; data: string }> = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as AddressInfo).port;
    let t: TestContext | undefined;
    try {
      t = await createTestContext({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Studio <studio@example.test>' });
      const to = uniqueEmail('smtp');
      await t.ctx.services.mailer.send(message(to));
      expect(received).toHaveLength(1);
      expect(received[0]?.from).toBe('studio@example.test');
      expect(received[0]?.to).toEqual([to]);
      expect(received[0]?.data).toContain('Subject: Hello there');
      expect(mailsTo(t, to)).toHaveLength(0);
    } finally {
      await t?.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
