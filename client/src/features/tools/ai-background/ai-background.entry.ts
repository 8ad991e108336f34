import { Wand2 } from 'lucide-react';
import { servicePage, toolEntry } from '../tool-entry';

/**
 * AI background in the client: pages, names, icon and landing page (an example prompt, no example pair).
 * Its English texts are here; their German is in migrations/seeds/strings/client-tools.json.
 */
export const aiBackgroundEntry = toolEntry('ai-background', {
  path: servicePage('ai-background'),
  page: 'AiBackgroundPage',
  landingPath: '/ai-background',
  icon: Wand2,
  progressText: 'client-tools.stage.steps',
  landing: { example: null, unit: 'client-tools.landing.unitPhoto' },
  text: {
    'client-tools.tool.ai-background': 'AI background',
    'client-tools.menu.ai-background': 'AI background',
    'client-tools.admin.ai-background': 'AI background',
    'client-tools.off.ai-background': 'AI backgrounds are switched off on this server right now.',
    'client-tools.works.ai-background': 'AI backgrounds',
    'client-tools.landing.ai-background.title': 'A new background for your product photo',
    'client-tools.landing.ai-background.text':
      'Describe a scene or pick one, and an AI paints it around your product. The product itself stays exactly as photographed.',
    'client-tools.landing.ai-background.point1': 'Studio, marble table, outdoor and kitchen presets',
    'client-tools.landing.ai-background.point2': 'Your product is cut out and put back pixel for pixel',
    'client-tools.landing.ai-background.point3': 'One prompt for up to 50 photos',
    'client-tools.landing.ai-background.examplePrompt': 'On a wooden table in a sunny cafe',
    'client-tools.landing.ai-background.exampleLabel': 'Try a scene like',
    'client-tools.ai-background.title': 'AI background',
    'client-tools.ai-background.lead': 'Paint a new scene around your product; the product stays as photographed.',
    'client-tools.ai-background.scene': 'Scene',
    'client-tools.ai-background.preset.studio-white': 'Studio white sweep',
    'client-tools.ai-background.preset.marble': 'Marble table',
    'client-tools.ai-background.preset.outdoor': 'Outdoor',
    'client-tools.ai-background.preset.kitchen': 'Kitchen',
    'client-tools.ai-background.preset.custom': 'My own prompt',
    'client-tools.ai-background.prompt': 'Describe the background',
    'client-tools.ai-background.promptPlaceholder': 'On a wooden table in a sunny cafe',
    'client-tools.ai-background.format': 'Output format',
    'client-tools.ai-background.run': 'Paint background',
    'client-tools.ai-background.empty': 'Upload a product photo to begin.',
    'client-tools.ai-background.before': 'Before',
    'client-tools.ai-background.after': 'After',
    'client-tools.ai-background.compare': 'Before and after comparison',
  },
});
