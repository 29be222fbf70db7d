import type { Sharp, SharpOptions } from 'sharp';

type SharpFactory = (input?: Buffer | string, options?: SharpOptions) => Sharp;

let loading: Promise<SharpFactory> | undefined;

/**
 * sharp (libvips), loaded on the first picture rather than with the server: it adds some 30 MB to
 * the process, which a server that never receives an image need not carry. Thumbnails are small
 * work: one decode at a time, no cache of decoded images kept between them.
 */
export function loadSharp(): Promise<SharpFactory> {
  loading ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp as SharpFactory;
  });
  return loading;
}
