export { GeneratePage } from './generate-page';
export { RemoveBackgroundPage } from './remove-background-page';
export { UpscalePage } from './upscale-page';
export { ToolLandingPage } from './landing-page';
