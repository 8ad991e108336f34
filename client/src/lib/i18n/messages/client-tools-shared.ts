/**
 * English texts of the "client-tools" namespace that the home page and the app shell show (token amounts, the
 * before/after examples, the availability check): they travel in the first bundle, the rest of the namespace
 * (messages/client-tools.ts) with the tool pages. migrations/seeds/strings/client-tools.json has both parts.
 */
export const clientToolsShared = {
  'client-tools.common.balance': 'Your balance: {n} tokens',
  'client-tools.common.cost': 'Cost: {n} tokens',
  'client-tools.common.tokens': '{n} tokens',
  'client-tools.common.token': '{n} token',
  'client-tools.common.runWithCost': '{label} - {cost}',
  'client-tools.common.download': 'Download',
  'client-tools.common.newRun': 'Start over',
  'client-tools.common.checkingStatus': 'Checking whether the tool is available...',
  'client-tools.common.options': 'Options',
  'client-tools.common.result': 'Result',
  'client-tools.common.starting': 'Starting...',
  'client-tools.common.runAgain': 'Run again',
  'client-tools.examples.removeBg': 'Background removed by our model',
  'client-tools.examples.upscale': 'Enlarged 4x by our model (left: a plain resize)',
  'client-tools.examples.compare': 'Example, before and after: {what}',
  'client-tools.examples.before': 'Before',
  'client-tools.examples.after': 'After',
  'client-tools.examples.upscaleSizes': 'From a {from} px crop to {to} px: both sides are drawn at the same size here.',
} as const;
