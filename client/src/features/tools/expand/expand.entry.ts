import { Expand } from 'lucide-react';
import { servicePage, toolEntry } from '../tool-entry';

/**
 * Expand (uncrop) in the client: pages, names, icon and landing page (an example prompt, no example pair).
 * Its English texts are here; their German is in migrations/seeds/strings/client-tools.json.
 */
export const expandEntry = toolEntry('expand', {
  path: servicePage('expand'),
  page: 'ExpandPage',
  landingPath: '/expand',
  icon: Expand,
  progressText: 'client-tools.stage.steps',
  landing: { example: null, unit: 'client-tools.landing.unitPhoto' },
  text: {
    'client-tools.tool.expand': 'Expand',
    'client-tools.menu.expand': 'Expand photo',
    'client-tools.admin.expand': 'Expand (uncrop)',
    'client-tools.off.expand': 'Expanding photos is switched off on this server right now.',
    'client-tools.works.expand': 'expanding photos',
    'client-tools.landing.expand.title': 'More room around your photo',
    'client-tools.landing.expand.text':
      'Pick a new shape or size, and an AI paints the missing scene around your photo. The photo itself stays exactly as it was.',
    'client-tools.landing.expand.point1': 'Square, 4:5, 3:2, 16:9 and 9:16, or 1.25x to 2x larger',
    'client-tools.landing.expand.point2': 'Your photo is put back pixel for pixel',
    'client-tools.landing.expand.point3': 'One canvas for up to 50 photos',
    'client-tools.landing.expand.examplePrompt': 'More of the sandy beach and the open sky',
    'client-tools.landing.expand.exampleLabel': 'Or say what the new area shows, like',
    'client-tools.expand.title': 'Expand',
    'client-tools.expand.lead':
      'Put your photo on a larger canvas; AI paints the new area, your photo stays as it was.',
    'client-tools.expand.canvas': 'New canvas',
    'client-tools.expand.aspect.1:1': 'Square 1:1',
    'client-tools.expand.aspect.4:5': 'Portrait 4:5',
    'client-tools.expand.aspect.3:2': 'Landscape 3:2',
    'client-tools.expand.aspect.16:9': 'Widescreen 16:9',
    'client-tools.expand.aspect.9:16': 'Story 9:16',
    'client-tools.expand.factor': '{n}x larger',
    'client-tools.expand.position': 'Photo position',
    'client-tools.expand.position.center': 'Center',
    'client-tools.expand.position.left': 'Left',
    'client-tools.expand.position.right': 'Right',
    'client-tools.expand.position.top': 'Top',
    'client-tools.expand.position.bottom': 'Bottom',
    'client-tools.expand.prompt': 'What to paint in the new area (optional)',
    'client-tools.expand.promptPlaceholder': 'The scene continued naturally',
    'client-tools.expand.size': 'Result: {width} x {height} px',
    'client-tools.expand.previewLabel': 'The new canvas around your photo',
    'client-tools.expand.format': 'Output format',
    'client-tools.expand.run': 'Expand photo',
    'client-tools.expand.empty': 'Upload a photo to begin.',
    'client-tools.expand.before': 'Before',
    'client-tools.expand.after': 'After',
    'client-tools.expand.compare': 'Before and after comparison',
  },
});
