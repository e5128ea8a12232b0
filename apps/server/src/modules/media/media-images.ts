import sharp from 'sharp';

// Uploads are read once: libvips' operation cache would only hold memory.
sharp.cache(false);

/** Thumbnails fit in this square (WebP), never enlarged. */
export const THUMB_MAX_PX = 320;
/** Refuse decompression bombs before decoding (40 megapixels is above any phone camera). */
const MAX_PIXELS = 40_000_000;

export interface ImageInfo {
  /** As displayed (EXIF orientation applied). */
  width: number;
  height: number;
  thumb: Buffer;
}

/** Dimensions and a WebP thumbnail; null when the bytes do not decode as an image. */
export async function readImage(file: string): Promise<ImageInfo | null> {
  try {
    const options = { limitInputPixels: MAX_PIXELS, animated: false };
    const meta = await sharp(file, options).metadata();
    const thumb = await sharp(file, options)
      .autoOrient()
      .resize({
        width: THUMB_MAX_PX,
        height: THUMB_MAX_PX,
        fit: 'inside',
        withoutEnlargement: true,
      })
      .webp({ quality: 72 })
      .toBuffer();
    return { width: meta.autoOrient.width, height: meta.autoOrient.height, thumb };
  } catch {
    return null;
  }
}
