import { describe, expect, it } from 'vitest';
import { decodeBase64, imageTypeOf } from './images.js';

describe('images recognised by their content', () => {
  it('knows PNG, JPEG and WebP by their first bytes', () => {
    expect(imageTypeOf(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(
      'image/png',
    );
    expect(imageTypeOf(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(imageTypeOf(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
  });

  it('refuses SVG, HTML and a renamed text file', () => {
    expect(
      imageTypeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
    ).toBeNull();
    expect(imageTypeOf(Buffer.from('<!doctype html>'))).toBeNull();
    expect(imageTypeOf(Buffer.from('PNG but not really'))).toBeNull();
  });

  it('decodes strict base64 only', () => {
    expect(decodeBase64('aGVsbG8=')?.toString()).toBe('hello');
    expect(decodeBase64('aGVsbG8')).toBeNull();
    expect(decodeBase64('a GVsbG8=')).toBeNull();
    expect(decodeBase64('aGVs-G8=')).toBeNull();
  });
});
