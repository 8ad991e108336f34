/**
 * English texts of the "client-availability" namespace: what the client says when a tool cannot run on this
 * server right now. migrations/seeds/strings/client-availability.json carries the same keys in English and German.
 */
export const clientAvailability = {
  'client-availability.off.generate': 'Image generation is switched off on this server right now.',
  'client-availability.off.remove-background': 'Background removal is switched off on this server right now.',
  'client-availability.off.upscale': 'Upscaling is switched off on this server right now.',
  'client-availability.works.generate': 'Image generation works.',
  'client-availability.works.remove-background': 'Background removal works.',
  'client-availability.works.upscale': 'Upscaling works.',
  'client-availability.works.generate+remove-background': 'Image generation and background removal work.',
  'client-availability.works.generate+upscale': 'Image generation and upscaling work.',
  'client-availability.works.remove-background+upscale': 'Background removal and upscaling work.',
  'client-availability.works.none': 'No tool is running right now. Please try again later.',
  'client-availability.linksLabel': 'Tools that work',
  'client-availability.menuBadge': 'Off',
  'client-availability.menuOff': '{tool} (switched off right now)',
} as const;
