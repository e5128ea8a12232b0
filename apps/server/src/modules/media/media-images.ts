import sharp from 'sharp';

// Uploads are read once: libvips' operation cache would only hold memory.
sharp.cache(false);

/** Thumbnails fit in this square (WebP), never enlarged. */
export const THUMB_MAX_PX = 320;
/**
 * Past this many pixels an image is kept without a thumbnail: its dimensions come from the
 * header and it is never decoded here (the browser shows the original). 24 megapixels holds
 * a phone camera's usual 12 MP photo twice over; a tiny file claiming more is the usual
 * decompression bomb.
 */
export const DECODE_MAX_PIXELS = 24_000_000;
/** What libvips may ever be handed: refused before decoding, whatever the header says. */
const READ_MAX_PIXELS = 1_000_000_000;

export interface ImageInfo {
  /** As displayed (EXIF orientation applied). */
  width: number;
  height: number;
  /** null when the image is too large to decode for one. */
  thumb: Buffer | null;
}

// One decode at a time: each may hold tens of MB, and parallel uploads must not add up.
let decoding: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = decoding.then(work, work);
  decoding = run.catch(() => undefined);
  return run;
}

/** Dimensions (from the header) and a WebP thumbnail; null when the bytes are no image. */
export async function readImage(file: string): Promise<ImageInfo | null> {
  try {
    const options = { limitInputPixels: READ_MAX_PIXELS, animated: false };
    const meta = await sharp(file, options).metadata();
    const { width, height } = meta.autoOrient;
    if (!width || !height) return null;
    if (width * height > DECODE_MAX_PIXELS) return { width, height, thumb: null };
    const thumb = await oneAtATime(() =>
      sharp(file, options)
        .autoOrient()
        .resize({
          width: THUMB_MAX_PX,
          height: THUMB_MAX_PX,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .webp({ quality: 72 })
        .toBuffer(),
    );
    return { width, height, thumb };
  } catch {
    return null;
  }
}
