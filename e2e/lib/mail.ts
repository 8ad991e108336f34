import fs from 'node:fs';

/** Waits for a message to `to` in the JSONL outbox and returns the first link matching `pattern`. */
export async function waitForMailLink(
  outboxFile: string,
  to: string,
  pattern: RegExp,
  timeoutMs = 10_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const text = fs.existsSync(outboxFile) ? fs.readFileSync(outboxFile, 'utf8') : '';
    // Only whole lines: the API may be appending a message at this very moment (its line is read next time).
    const lines = text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter(Boolean);
    for (const line of lines.reverse()) {
      const message = JSON.parse(line) as { to?: string; text?: string };
      if (String(message.to ?? '').toLowerCase() !== to.toLowerCase()) continue;
      const match = String(message.text ?? '').match(pattern);
      if (match) return match[0];
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${to} with a link matching ${pattern} within ${timeoutMs} ms`);
}
