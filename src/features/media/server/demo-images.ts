import { createHash } from 'node:crypto';
import { loadSharp } from './sharp.js';

/** Two colours and a layout drawn from a text (the same text always gives the same picture). */
function palette(seed: string) {
  const bytes = createHash('sha256').update(seed).digest();
  const hue = (bytes[0]! * 360) / 256;
  const colour = (shift: number, light: number) => `hsl(${Math.round((hue + shift) % 360)}, 62%, ${light}%)`;
  return { bytes, back: colour(0, 38), front: colour(150, 62), accent: colour(210, 82) };
}

/** The sizes of the generated pictures: small, as the demo ships them (a key visual keeps the 1.91:1 of a social card). */
export const DEMO_IMAGE_SIZES = { logo: { width: 160, height: 160 }, kv: { width: 600, height: 314 } } as const;

const made = new Map<string, Promise<Buffer>>();

/**
 * A small generated PNG for the demo data (no external picture is ever loaded): a key visual
 * (600×314: a band and circles) or a logo (160×160: a ring and a mark), coloured from `seed`.
 * Drawn from shapes only, so no font is needed; the same picture is made once per process.
 */
export function demoImage(kind: 'logo' | 'kv', seed: string): Promise<Buffer> {
  const key = `${kind}:${seed}`;
  let image = made.get(key);
  if (!image) {
    image = loadSharp().then((sharp) =>
      sharp(Buffer.from(svgOf(kind, seed)))
        .png()
        .toBuffer(),
    );
    made.set(key, image);
  }
  return image;
}

function svgOf(kind: 'logo' | 'kv', seed: string): string {
  const { bytes, back, front, accent } = palette(`${kind}:${seed}`);
  const b = (i: number) => bytes[i]!;
  if (kind === 'logo') {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160">
  <rect width="160" height="160" fill="${back}"/>
  <circle cx="80" cy="80" r="${46 + (b(1) % 20)}" fill="none" stroke="${front}" stroke-width="12"/>
  <rect x="${60 + (b(2) % 14)}" y="${60 + (b(3) % 14)}" width="34" height="34" rx="${b(4) % 17}" fill="${accent}"/>
</svg>`;
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="314">
  <rect width="600" height="314" fill="${back}"/>
  <rect y="${190 + (b(1) % 60)}" width="600" height="45" fill="${front}" opacity="0.85"/>
  <circle cx="${100 + Math.round(b(2) * 1.5)}" cy="${75 + (b(3) % 100)}" r="${45 + (b(4) % 40)}" fill="${accent}"/>
  <circle cx="${450 - Math.round(b(5) / 2)}" cy="${60 + (b(6) % 75)}" r="${20 + (b(7) % 30)}" fill="${front}"/>
  <rect x="${30 + (b(8) % 100)}" y="30" width="${130 + (b(9) % 100)}" height="18" rx="9" fill="${accent}" opacity="0.7"/>
</svg>`;
}
