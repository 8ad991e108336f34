import { JOB_MESSAGES, TOOL_LABELS, TOOLS } from '@imagestudio/contracts';
import serverStrings from '../../../../migrations/seeds/strings/server.json';

/**
 * The server translates a message by its English text (server.* strings). These are the messages that name a
 * tool, so every tool needs them in the seed with a German text; a new tool's missing strings fail here.
 */
const english = new Map(Object.entries(serverStrings.en).map(([key, text]) => [text, key]));
const german: Record<string, string> = serverStrings.de;

describe('server strings of each tool', () => {
  it.each(TOOLS.map((tool) => tool.name))('%s has its messages in English and German', (tool) => {
    const label = TOOL_LABELS[tool];
    const messages = [JOB_MESSAGES.toolUnavailable(tool), label, `Refund: ${label}`];
    const missing = messages.filter((text) => {
      const key = english.get(text);
      return key === undefined || !german[key];
    });
    expect(missing).toEqual([]);
  });
});
