import type { Logger } from '@imagestudio/runtime';
import { testConfig } from '../../test/fakes/config';
import { createMailer } from './mailer';

/** A logger that records what is logged at info and warn (child loggers write to the same list). */
function recordingLogger() {
  const lines: Array<{ level: string; msg: string; fields: Record<string, unknown> }> = [];
  const logger = {
    child: () => logger,
    info: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'info', msg, fields }),
    warn: (fields: Record<string, unknown>, msg: string) => lines.push({ level: 'warn', msg, fields }),
    error: () => undefined,
  };
  return { logger: logger as unknown as Logger, lines };
}

describe('the mailer at start', () => {
  it('says once, as a warning in production, that without SMTP_URL mail only goes to the outbox', () => {
    const { logger, lines } = recordingLogger();
    const config = testConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      S3_ENDPOINT: 'http://minio:9000',
      MAIL_OUTBOX_FILE: '/tmp/outbox.jsonl',
    });
    createMailer({ config, logger });
    expect(lines).toEqual([
      {
        level: 'warn',
        msg: expect.stringMatching(/^SMTP_URL is unset: emails are not sent/),
        fields: { outbox: '/tmp/outbox.jsonl' },
      },
    ]);
  });

  it('says it at info level in development, and nothing when SMTP_URL is set', () => {
    const dev = recordingLogger();
    createMailer({ config: testConfig({ NODE_ENV: 'development' }), logger: dev.logger });
    expect(dev.lines).toHaveLength(1);
    expect(dev.lines[0]).toMatchObject({ level: 'info', msg: expect.stringMatching(/^SMTP_URL is unset/) });

    const smtp = recordingLogger();
    createMailer({ config: testConfig({ SMTP_URL: 'smtp://127.0.0.1:1' }), logger: smtp.logger });
    expect(smtp.lines).toEqual([]);
  });
});
