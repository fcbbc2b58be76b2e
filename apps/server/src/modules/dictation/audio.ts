import type { DICTATION_AUDIO_TYPES } from '@greensen/shared/contracts/notes';

const MP4_AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'mp42', 'isom', 'iso5', 'iso6', 'dash', 'mp41']);

/**
 * What a recording really is, from its first bytes (never its name or declared type): WebM/Matroska (what Chrome
 * and Firefox record), Ogg, WAV, or MP4 audio (what Safari records); null for anything else.
 */
export function audioTypeOf(bytes: Uint8Array): (typeof DICTATION_AUDIO_TYPES)[number] | null {
  const text = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return 'audio/webm';
  if (bytes.length >= 4 && text(0, 4) === 'OggS') return 'audio/ogg';
  if (bytes.length >= 12 && text(0, 4) === 'RIFF' && text(8, 12) === 'WAVE') return 'audio/wav';
  if (bytes.length >= 12 && text(4, 8) === 'ftyp' && MP4_AUDIO_BRANDS.has(text(8, 12))) return 'audio/mp4';
  return null;
}
