import sharp from 'sharp';

/**
 * What an uploaded image really is, from its first bytes (never from its name or a declared type): PNG, JPEG or
 * WebP, or null. SVG and anything else are refused: an SVG can carry script.
 */
export function imageTypeOf(bytes: Uint8Array): 'image/png' | 'image/jpeg' | 'image/webp' | null {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (bytes.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (bytes.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (bytes.length >= 12 && at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50))
    return 'image/webp';
  return null;
}

/** Strict base64 (no whitespace, no URL alphabet): the decoded bytes, or null when the text is not base64. */
export function decodeBase64(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return null;
  return Buffer.from(text, 'base64');
}

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

/**
 * What an uploaded document really is, from its first bytes: an image of `imageTypeOf`, a HEIC/HEIF photo (an
 * ISO box `ftyp` with a HEIF brand) or a PDF (`%PDF-`), or null. Names and declared types are never trusted.
 */
export function documentTypeOf(
  bytes: Uint8Array,
): 'image/png' | 'image/jpeg' | 'image/webp' | 'image/heic' | 'application/pdf' | null {
  const image = imageTypeOf(bytes);
  if (image) return image;
  if (bytes.length >= 5 && Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-')
    return 'application/pdf';
  if (bytes.length >= 12 && Buffer.from(bytes.subarray(4, 8)).toString('latin1') === 'ftyp') {
    const brand = Buffer.from(bytes.subarray(8, 12)).toString('latin1');
    if (HEIC_BRANDS.has(brand)) return 'image/heic';
  }
  return null;
}

/**
 * Whether the image decodes to its last pixel (issue 36): a file that only starts like a PNG, JPEG or WebP, or one cut
 * short, is refused on upload instead of breaking every document printed with it. libvips through `sharp` (decision
 * 0060), its errors made fatal (`failOn: 'error'`: a truncated file is not silently padded), capped in pixels.
 */
export async function decodesFully(bytes: Uint8Array): Promise<boolean> {
  try {
    await sharp(bytes, { failOn: 'error', limitInputPixels: 40_000_000 }).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}
