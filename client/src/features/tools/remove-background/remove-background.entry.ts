import { Eraser } from 'lucide-react';
import { servicePage, toolEntry } from '../tool-entry';

/**
 * Background removal in the client: pages, names, icon and landing page.
 * Its English texts are here; their German is in migrations/seeds/strings/client-tools.json.
 */
export const removeBackgroundEntry = toolEntry('remove-background', {
  path: servicePage('remove-background'),
  page: 'RemoveBackgroundPage',
  landingPath: '/remove-background',
  icon: Eraser,
  progressText: 'client-tools.stage.tiles',
  landing: { example: 'chelsea', unit: 'client-tools.landing.unitPhoto' },
  text: {
    'client-tools.tool.remove-background': 'Remove background',
    'client-tools.menu.remove-background': 'Remove background',
    'client-tools.admin.remove-background': 'Background removal',
    'client-tools.off.remove-background': 'Background removal is switched off on this server right now.',
    'client-tools.works.remove-background': 'background removal',
    'client-tools.landing.remove-background.title': 'Remove backgrounds in seconds',
    'client-tools.landing.remove-background.text': 'Upload a photo and get the subject cut out on a transparent PNG.',
    'client-tools.landing.remove-background.point1': 'Transparent PNG or WebP, or a background colour of your choice',
    'client-tools.landing.remove-background.point2': 'Mask-only output for your own editing',
    'client-tools.landing.remove-background.point3': 'Drag and drop, paste or pick a file',
    'client-tools.removeBg.title': 'Remove background',
    'client-tools.removeBg.lead': 'Upload a photo and get the subject on a transparent background.',
    'client-tools.removeBg.model': 'Model',
    'client-tools.removeBg.model.standard': 'Standard',
    'client-tools.removeBg.model.hq': 'High quality (finer edges, slower)',
    'client-tools.removeBg.format': 'Output format',
    'client-tools.removeBg.useColor': 'Fill the background with a colour',
    'client-tools.removeBg.color': 'Background colour',
    'client-tools.removeBg.maskOnly': 'Mask only (black and white)',
    'client-tools.removeBg.run': 'Remove background',
    'client-tools.removeBg.empty': 'Upload an image to begin.',
    'client-tools.removeBg.resultAlt': 'Image with the background removed',
    'client-tools.removeBg.before': 'Original',
    'client-tools.removeBg.after': 'Result',
    'client-tools.removeBg.compare': 'Original and result comparison',
    'client-tools.removeBg.doubtful':
      'This cut-out may need a touch-up: parts of it look half transparent or detached. Check it and fix it with the brush below.',
  },
});
