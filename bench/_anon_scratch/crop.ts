import sharp from "sharp";
const [, , src, x, y, w, h, out, scale] = process.argv;
await sharp(src).extract({ left: +x, top: +y, width: +w, height: +h }).resize(Math.round(+w * (+(scale ?? 1)))).png().toFile(out);
