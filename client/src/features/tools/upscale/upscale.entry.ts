import { Maximize2 } from 'lucide-react';
import { servicePage, toolEntry } from '../tool-entry';

/**
 * Upscaling in the client: pages, names, icon and landing page.
 * Its English texts are here; their German is in migrations/seeds/strings/client-tools.json.
 */
export const upscaleEntry = toolEntry('upscale', {
  path: servicePage('upscale'),
  page: 'UpscalePage',
  landingPath: '/upscale-image',
  icon: Maximize2,
  progressText: 'client-tools.stage.tiles',
  landing: { example: 'motorcycle', unit: 'client-tools.landing.unitPhoto' },
  text: {
    'client-tools.tool.upscale': 'Upscale',
    'client-tools.menu.upscale': 'Upscale image',
    'client-tools.admin.upscale': 'Upscaling',
    'client-tools.off.upscale': 'Upscaling is switched off on this server right now.',
    'client-tools.works.upscale': 'upscaling',
    'client-tools.landing.upscale.title': 'Upscale images 2x or 4x',
    'client-tools.landing.upscale.text': 'Enlarge photos with an AI model that adds detail instead of blur.',
    'client-tools.landing.upscale.point1': '2x or 4x, up to 64 megapixels out',
    'client-tools.landing.upscale.point2': 'Before and after slider and a zoom lens',
    'client-tools.landing.upscale.point3': 'PNG, WebP or JPEG output',
    'client-tools.upscale.title': 'Upscale image',
    'client-tools.upscale.lead': 'Enlarge a photo 2x or 4x with sharp detail.',
    'client-tools.upscale.model': 'Model',
    'client-tools.upscale.model.photo': 'Photo - removes compression blocks and noise',
    'client-tools.upscale.model.illustration': 'Illustration - clean lines for drawings and anime',
    'client-tools.upscale.model.fast': 'Fast - quickest, softest',
    'client-tools.upscale.model.photo-max': 'Photo max - finest detail, slowest',
    'client-tools.upscale.modelName.photo': 'Photo',
    'client-tools.upscale.modelName.illustration': 'Illustration',
    'client-tools.upscale.modelName.fast': 'Fast',
    'client-tools.upscale.modelName.photo-max': 'Photo max',
    'client-tools.upscale.factor': 'Factor',
    'client-tools.upscale.factorOption': '{factor}x (up to {side} x {side} px)',
    'client-tools.upscale.format': 'Output format',
    'client-tools.upscale.run': 'Upscale',
    'client-tools.upscale.resultSize': '{w} x {h} px',
    'client-tools.upscale.before': 'Before',
    'client-tools.upscale.after': 'After',
    'client-tools.upscale.compare': 'Before and after comparison',
    'client-tools.upscale.compareTab': 'Compare',
    'client-tools.upscale.lens': 'Zoom lens',
    'client-tools.upscale.lensHint':
      'Move the pointer over the result to zoom in. With the lens focused, the arrow keys move it and + and - change the zoom.',
    'client-tools.upscale.empty': 'Upload an image to begin.',
    'client-tools.upscale.lensHintTouch': 'Touch and drag over the result to zoom in; pinch to change the zoom.',
    'client-tools.upscale.lensLabel': 'Zoom lens over the result',
  },
});
