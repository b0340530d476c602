export interface Raster {
  mime: 'image/png' | 'image/jpeg' | 'image/gif';
  width: number;
  height: number;
}

/** Beyond this a decoded image would take hundreds of MB: drawn as a placeholder instead. */
const maxPixels = 40_000_000;

/**
 * What the bytes are, by their signature and header, when they are an image resvg decodes (PNG,
 * JPEG, GIF) of a sane size; undefined otherwise (WebP, SVG, HTML served as an image, a
 * truncated file). The content type a server claims is not trusted.
 */
export function rasterOf(bytes: Uint8Array): Raster | undefined {
  const dims = png(bytes) ?? gif(bytes) ?? jpeg(bytes);
  return dims && dims.width > 0 && dims.height > 0 && dims.width * dims.height <= maxPixels ? dims : undefined;
}

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function png(bytes: Uint8Array): Raster | undefined {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length < 24 || signature.some((b, i) => bytes[i] !== b)) return undefined;
  return { mime: 'image/png', width: view(bytes).getUint32(16), height: view(bytes).getUint32(20) };
}

function gif(bytes: Uint8Array): Raster | undefined {
  const head = String.fromCharCode(...bytes.subarray(0, 6));
  if (bytes.length < 10 || (head !== 'GIF87a' && head !== 'GIF89a')) return undefined;
  return { mime: 'image/gif', width: view(bytes).getUint16(6, true), height: view(bytes).getUint16(8, true) };
}

/** A JPEG's size is in its first start-of-frame segment, after any number of others. */
function jpeg(bytes: Uint8Array): Raster | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  const data = view(bytes);
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { mime: 'image/jpeg', width: data.getUint16(at + 7), height: data.getUint16(at + 5) };
    if (marker === 0xd9 || marker === 0xda) return undefined;
    at += 2 + data.getUint16(at + 2);
  }
  return undefined;
}
