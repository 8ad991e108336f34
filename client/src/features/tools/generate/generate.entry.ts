import { Sparkles } from 'lucide-react';
import { servicePage, toolEntry } from '../tool-entry';

/**
 * Image generation in the client: pages, names, icon and landing page (an example prompt, no example pair).
 * Its English texts are here; their German is in migrations/seeds/strings/client-tools.json.
 */
export const generateEntry = toolEntry('generate', {
  path: servicePage('generate-image'),
  page: 'GeneratePage',
  landingPath: '/generate-image',
  icon: Sparkles,
  progressText: 'client-tools.stage.steps',
  landing: { example: null, unit: 'client-tools.landing.unitImage' },
  text: {
    'client-tools.tool.generate': 'Generate image',
    'client-tools.menu.generate': 'Generate image',
    'client-tools.admin.generate': 'Image generation',
    'client-tools.off.generate': 'Image generation is switched off on this server right now.',
    'client-tools.works.generate': 'image generation',
    'client-tools.landing.generate.title': 'Generate images from text',
    'client-tools.landing.generate.text': 'Type a prompt, pick a style and size, and get up to four images in one go.',
    'client-tools.landing.generate.point1': 'Ten style presets, from photographic to pixel art',
    'client-tools.landing.generate.point2': 'Negative prompt and seed for exact control',
    'client-tools.landing.generate.point3': 'Remove the background or upscale a result in one click',
    'client-tools.landing.generate.examplePrompt': 'A lighthouse on a cliff at sunset, watercolour',
    'client-tools.landing.generate.exampleLabel': 'Try a prompt like',
    'client-tools.generate.title': 'Generate images',
    'client-tools.generate.lead': 'Describe what you want to see; get up to four variations at once.',
    'client-tools.generate.prompt': 'Prompt',
    'client-tools.generate.promptPlaceholder': 'A lighthouse on a cliff at sunset, soft light',
    'client-tools.generate.counter': '{n} / {max}',
    'client-tools.generate.count': 'Number of images',
    'client-tools.generate.size': 'Size',
    'client-tools.generate.style': 'Style',
    'client-tools.generate.advanced': 'Advanced',
    'client-tools.generate.negative': 'Negative prompt',
    'client-tools.generate.negativeHelp': 'What the image should not show.',
    'client-tools.generate.seed': 'Seed',
    'client-tools.generate.seedHelp': 'The same seed and prompt give the same image. Empty: random.',
    'client-tools.generate.seedInvalid': 'The seed must be a whole number from 0 to 4294967295.',
    'client-tools.generate.promptRequired': 'Enter a prompt to generate images.',
    'client-tools.generate.run': 'Generate',
    'client-tools.generate.empty': 'Your images will appear here.',
    'client-tools.generate.resultAlt': 'Generated image {n}',
    'client-tools.generate.followFailed': 'The image could not be opened in the other tool.',
  },
});
