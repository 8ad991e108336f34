/**
 * The part of libheif-js's documented API (README: HeifDecoder, decode, display) that worker/src/imaging/heic.ts
 * uses; the package ships TypeScript declarations only for its raw WebAssembly exports, and not as its types.
 */
declare module 'libheif-js/wasm-bundle' {
  export interface HeifImageHandle {
    get_width(): number;
    get_height(): number;
    is_primary(): boolean;
    has_alpha_channel(): boolean;
    display(target: HeifDisplayTarget, done: (result: HeifDisplayTarget | null) => void): void;
    free(): void;
  }
  export interface HeifDisplayTarget {
    data: Uint8ClampedArray;
    width: number;
    height: number;
  }
  export interface LibHeif {
    HeifDecoder: new () => { decoder: unknown; decode(bytes: Buffer): HeifImageHandle[] };
    heif_context_free(context: unknown): void;
  }
  const libheif: LibHeif;
  export default libheif;
}
