import { Eraser } from 'lucide-react';
import { servicePage, toolEntry } from '../tool-entry';

/**
 * Erase in the client: pages, names, icon and landing page (an example, no example pair). Its English texts are
 * here; their German is in migrations/seeds/strings/client-tools.json.
 */
export const eraseEntry = toolEntry('erase', {
  path: servicePage('erase'),
  page: 'ErasePage',
  landingPath: '/erase-objects',
  icon: Eraser,
  progressText: 'client-tools.stage.steps',
  landing: { example: null, unit: 'client-tools.landing.unitPhoto' },
  text: {
    'client-tools.tool.erase': 'Erase',
    'client-tools.menu.erase': 'Erase objects',
    'client-tools.admin.erase': 'Erase',
    'client-tools.off.erase': 'Erasing objects is switched off on this server right now.',
    'client-tools.works.erase': 'erasing objects',
    'client-tools.landing.erase.title': 'Remove unwanted objects from a photo',
    'client-tools.landing.erase.text':
      'Paint over what should go, and an AI fills the spot to match its surroundings. Everything you did not paint stays exactly as photographed.',
    'client-tools.landing.erase.point1': 'Paint with the mouse, a finger or the keyboard',
    'client-tools.landing.erase.point2': 'Only the painted area changes; the rest stays pixel for pixel',
    'client-tools.landing.erase.point3': 'Undo and redo every stroke before you run',
    'client-tools.landing.erase.examplePrompt': 'A passer-by in the background of a holiday photo',
    'client-tools.landing.erase.exampleLabel': 'Erase things like',
    'client-tools.erase.title': 'Erase objects',
    'client-tools.erase.lead': 'Paint over what should go; the AI fills the spot to match its surroundings.',
    'client-tools.erase.canvas': 'Photo: paint over what to erase',
    'client-tools.erase.hint': 'Paint over the object to remove. Cover it completely, with a small margin.',
    'client-tools.erase.keys':
      'Keyboard: the arrow keys move the brush, Space starts and stops painting, [ and ] change its size, Ctrl+Z undoes, Ctrl+Shift+Z redoes.',
    'client-tools.erase.redo': 'Redo',
    'client-tools.erase.clear': 'Clear',
    'client-tools.erase.paintFirst': 'Paint over what to erase first.',
    'client-tools.erase.prompt': 'Fill with (optional)',
    'client-tools.erase.promptPlaceholder': 'Leave empty to match the surroundings',
    'client-tools.erase.format': 'Output format',
    'client-tools.erase.run': 'Erase',
    'client-tools.erase.empty': 'Upload a photo to begin.',
    'client-tools.erase.loading': 'Loading the photo…',
    'client-tools.erase.noPreview':
      'This browser cannot show this photo, so it cannot be painted on. Choose a JPEG, PNG or WebP copy of it.',
    'client-tools.erase.before': 'Before',
    'client-tools.erase.after': 'After',
    'client-tools.erase.compare': 'Before and after comparison',
  },
});
