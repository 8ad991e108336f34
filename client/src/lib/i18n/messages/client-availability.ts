/**
 * English texts of the "client-availability" namespace: what the client says when a tool cannot run on this
 * server right now. migrations/seeds/strings/client-availability.json carries the same keys in English and German.
 */
export const clientAvailability = {
  'client-availability.works.none': 'No tool is running right now. Please try again later.',
  'client-availability.linksLabel': 'Tools that work',
  'client-availability.menuBadge': 'Off',
  'client-availability.menuOff': '{tool} (switched off right now)',
  'client-availability.works.one': '{tools} works.',
  'client-availability.works.many': '{tools} work.',
  'client-availability.onDemand':
    'No server runs this tool at the moment: one starts when you run it, so your first result takes a little longer.',
} as const;
