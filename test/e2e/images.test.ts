// Every image feature end to end through the Worker, on the real local stack (workerd + the real
// compute service with its real models), judged on the pixels that come back: faces of
// faces.json clearly blurred, the rest unchanged, cut-outs transparent where they should be,
// dimensions and format kept, no EXIF. Every success is charged exactly its price once; every
// failure is charged nothing.
import { readFile } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import type { Box, Frame } from "../../compute/types.ts";
import { ENCODE_SETTINGS } from "../../compute/media/image.ts";
import { PHOTOS, faceBoxes, loadPhoto, outside, psnr, sharpness } from "../compute/photos.ts";
import { api, creditDelta, credits, download, expectError, expectJson, featureAccount, multipart, upload, waitForJob, type TestAccount } from "./helpers.ts";

const MEDIA = path.join(import.meta.dirname, "../fixtures/media");

let account: TestAccount;

/** Decoded pixels of an encoded image (alpha kept when the file has it). */
async function decode(bytes: Uint8Array): Promise<Frame> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
}


const pngOf = (frame: Frame) => sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frame.channels } }).png().toBuffer();

interface Input {
  bytes: Buffer;
  name: string;
  /** The input's own pixels, upright. */
  frame: Frame;
}

async function photo(name: string): Promise<Input> {
  return { bytes: await readFile(path.join(PHOTOS, name)), name, frame: await loadPhoto(name) };
}

type Transport = "upload-url" | "multipart";

interface Processed {
  body: { success: boolean; result_url: string; credits_used: number; remaining_credits: number };
  out: Frame;
  contentType: string;
  bytes: Buffer;
}

/**
 * Runs an image feature through the Worker (the media as an upload URL in JSON, or as the
 * multipart file part `image`), checks the answer and that exactly `price` was charged once.
 */
async function runImage(feature: string, input: Input, params: Record<string, unknown>, price: number, transport: Transport): Promise<Processed> {
  const before = await credits(account);
  let res: Response;
  if (transport === "upload-url") {
    const image_url = await upload(account, "image", input.bytes);
    res = await api(account, `/images/${feature}`, { method: "POST", json: { image_url, ...params } });
  } else {
    const fields = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
    res = await multipart(account, `/images/${feature}`, "image", { bytes: input.bytes, name: input.name }, fields);
  }
  const body = await expectJson<Processed["body"]>(res, 200);
  expect(body).toMatchObject({ success: true, credits_used: price, remaining_credits: before.available_credits - price });
  expect(body.result_url).toMatch(/\/results\/[A-Za-z0-9_-]{20,}\.(png|jpe?g|webp)$/);
  const delta = await creditDelta(account, before);
  expect(delta).toMatchObject({ spent: price, available: price, reserved: 0 });
  const { bytes, contentType } = await download(body.result_url);
  return { body, bytes, contentType, out: await decode(bytes) };
}

async function metadataOf(bytes: Uint8Array) {
  return sharp(bytes).metadata();
}

/** The output carries no metadata a photo could leak (EXIF/GPS, XMP, IPTC). */
async function expectNoMetadata(bytes: Buffer): Promise<void> {
  const meta = await metadataOf(bytes);
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();
  expect(meta.iptc).toBeUndefined();
  expect(bytes.includes(Buffer.from("Exif\0\0"))).toBe(false);
}

const shrink = (b: Box, f: number): Box => ({ x: b.x + b.width * f, y: b.y + b.height * f, width: b.width * (1 - 2 * f), height: b.height * (1 - 2 * f) });
const inBox = (b: Box) => (x: number, y: number) => x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height;

let group5: Input; // 1920x1398 JPEG, 5 faces in faces.json
let group5Png: Input; // the same pixels as a lossless PNG, so "unchanged" can be measured exactly
let astronaut: Input; // 512x512 PNG, 1 face
let coffee: Input; // 600x400 PNG, no face, a cup
let plate: Input; // 741x500 PNG, a synthetic plate composited at (70, 222) 96x26

beforeAll(async () => {
  account = await featureAccount(1000);
  [group5, astronaut, coffee, plate] = await Promise.all([photo("group5.jpg"), photo("astronaut.png"), photo("coffee.png"), photo("motorcycle-with-plate-composite.png")]);
  group5Png = { name: "group5.png", frame: group5.frame, bytes: await pngOf(group5.frame) };
});

describe.each<Transport>(["upload-url", "multipart"])("image features through the Worker (%s)", (transport) => {
  it("face-blur: every face of faces.json is clearly blurred, the rest is unchanged, PNG stays PNG", async () => {
    const faces = faceBoxes()["group5.jpg"];
    const { out, contentType, bytes } = await runImage("face-blur", group5Png, {}, 1, transport);
    expect(contentType).toBe("image/png");
    expect([out.width, out.height]).toEqual([group5.frame.width, group5.frame.height]);
    for (const f of faces) expect(sharpness(out, f)).toBeLessThan(0.15 * sharpness(group5.frame, f));
    expect(psnr(group5.frame, out, outside(faces, 0.6))).toBeGreaterThan(40);
    await expectNoMetadata(bytes);
  });

  it("face-blur on a JPEG with EXIF: JPEG out, same size, faces blurred, unchanged elsewhere, no EXIF", async () => {
    const faces = faceBoxes()["group5.jpg"];
    expect((await metadataOf(group5.bytes)).exif).toBeDefined(); // the input does carry EXIF
    const { out, contentType, bytes } = await runImage("face-blur", group5, { blur_strength: 0.7 }, 1, transport);
    expect(contentType).toBe("image/jpeg");
    expect((await metadataOf(bytes)).format).toBe("jpeg");
    expect([out.width, out.height]).toEqual([group5.frame.width, group5.frame.height]);
    for (const f of faces) expect(sharpness(out, f)).toBeLessThan(0.15 * sharpness(group5.frame, f));
    // Away from faces the only change is the JPEG re-encode: compare with the input's pixels
    // re-encoded with the service's documented settings (JPEG blocks are coded independently).
    const reference = await decode(await sharp(group5.frame.data, { raw: { width: group5.frame.width, height: group5.frame.height, channels: 3 } }).jpeg(ENCODE_SETTINGS.jpeg).toBuffer());
    expect(psnr(reference, out, outside(faces, 0.6))).toBeGreaterThan(40);
    expect(psnr(group5.frame, out, outside(faces, 0.6))).toBeGreaterThan(36); // vs the original pixels
    await expectNoMetadata(bytes);
  });

  it("license-plate-blur: the plate's characters are blurred, the rest of the photo is unchanged", async () => {
    const box = { x: 70, y: 222, width: 96, height: 26 };
    const { out, contentType } = await runImage("license-plate-blur", plate, {}, 1, transport);
    expect(contentType).toBe("image/png");
    expect([out.width, out.height]).toEqual([plate.frame.width, plate.frame.height]);
    const chars = { x: box.x + 12, y: box.y + 3, width: box.width - 16, height: box.height - 6 };
    expect(sharpness(out, chars)).toBeLessThan(0.2 * sharpness(plate.frame, chars));
    expect(psnr(plate.frame, out, outside([box], 0.6))).toBeGreaterThan(40);
  });

  it("blur-background: the person stays sharp, the background is blurred", async () => {
    const [face] = faceBoxes()["astronaut.png"];
    const { out, contentType } = await runImage("blur-background", astronaut, { blur_strength: 0.7 }, 2, transport);
    expect(contentType).toBe("image/png");
    expect([out.width, out.height]).toEqual([512, 512]);
    expect(psnr(astronaut.frame, out, inBox(shrink(face, 0.2)))).toBeGreaterThan(40);
    const flag = { x: 0, y: 0, width: 90, height: 300 }; // behind her, on the left
    expect(sharpness(out, flag)).toBeLessThan(0.3 * sharpness(astronaut.frame, flag));
  });

  it("remove-background: a PNG with a transparent background and an opaque subject", async () => {
    const { out, contentType, bytes } = await runImage("remove-background", astronaut, {}, 2, transport);
    expect(contentType).toBe("image/png");
    expect((await metadataOf(bytes)).hasAlpha).toBe(true);
    expect([out.width, out.height, out.channels]).toEqual([512, 512, 4]);
    const alpha = (x: number, y: number) => out.data[(y * out.width + x) * 4 + 3];
    expect(alpha(222, 125)).toBeGreaterThan(240); // face
    expect(alpha(200, 380)).toBeGreaterThan(240); // suit
    expect(alpha(480, 40)).toBeLessThan(20); // wall
    expect(alpha(30, 30)).toBeLessThan(20); // flag
    // The subject keeps its colours.
    const i = (125 * 512 + 222) * 4, j = (125 * 512 + 222) * 3;
    expect([...out.data.subarray(i, i + 3)]).toEqual([...astronaut.frame.data.subarray(j, j + 3)]);
  });

  it("remove-background with output_transparent=false fills background_color", async () => {
    const { out, contentType } = await runImage("remove-background", astronaut, { output_transparent: false, background_color: "#0000FF" }, 2, transport);
    expect(contentType).toBe("image/png");
    const px = (x: number, y: number) => [...out.data.subarray((y * 512 + x) * out.channels, (y * 512 + x) * out.channels + 3)];
    if (out.channels === 4) expect(out.data[(40 * 512 + 480) * 4 + 3]).toBe(255); // opaque
    const [r, g, b] = px(480, 40);
    expect(r).toBeLessThan(30);
    expect(g).toBeLessThan(30);
    expect(b).toBeGreaterThan(225);
    const j = (125 * 512 + 222) * 3;
    expect(px(222, 125)).toEqual([...astronaut.frame.data.subarray(j, j + 3)]);
  });

  it("portrait-enhance (defaults + blur_strength 1): the far background gets blurred, the subject stays sharp", async () => {
    const [face] = faceBoxes()["astronaut.png"];
    const { out } = await runImage("portrait-enhance", astronaut, { blur_strength: 1 }, 3, transport);
    expect([out.width, out.height]).toEqual([512, 512]);
    const flag = { x: 0, y: 0, width: 90, height: 300 };
    expect(sharpness(out, flag)).toBeLessThan(0.5 * sharpness(astronaut.frame, flag));
    const eyes = { x: face.x + 9, y: face.y + 22, width: 60, height: 20 };
    expect(sharpness(out, eyes)).toBeGreaterThan(0.6 * sharpness(astronaut.frame, eyes)); // the subject stays sharp
  });

  it("blur-anything: 'cups' blurs the cup, the far corner is unchanged", async () => {
    const { out } = await runImage("blur-anything", coffee, { prompt: "cups", blur_strength: 0.7 }, 2, transport);
    expect([out.width, out.height]).toEqual([600, 400]);
    const rim = { x: 190, y: 40, width: 200, height: 60 };
    expect(sharpness(out, rim)).toBeLessThan(0.2 * sharpness(coffee.frame, rim));
    expect(psnr(coffee.frame, out, (x, y) => x > 520 && y > 330)).toBeGreaterThan(40);
  });

  it("detect/nsfw (image): a group photo is not NSFW, charged 1", async () => {
    const before = await credits(account);
    const res = transport === "upload-url"
      ? await api(account, "/detect/nsfw", { method: "POST", json: { media_url: await upload(account, "image", group5.bytes) } })
      : await multipart(account, "/detect/nsfw", "media", { bytes: group5.bytes, name: "group5.jpg" });
    const body = await expectJson<{ success: boolean; is_nsfw: boolean; score: number; credits_used: number }>(res, 200);
    expect(body).toMatchObject({ success: true, is_nsfw: false, credits_used: 1 });
    expect(body.score).toBeGreaterThanOrEqual(0);
    expect(body.score).toBeLessThan(0.5);
    expect(await creditDelta(account, before)).toMatchObject({ spent: 1, available: 1, reserved: 0 });
  });
});

describe("portrait-enhance options", () => {
  it("enhance_face without depth_effect: the face changes more than the rest, skin smoother, eyes kept", async () => {
    const [face] = faceBoxes()["astronaut.png"];
    const { out } = await runImage("portrait-enhance", astronaut, { enhance_face: true, depth_effect: false }, 3, "upload-url");
    const tone = psnr(astronaut.frame, out, outside([face], 0.5)); // only global exposure / white balance
    const inside = psnr(astronaut.frame, out, inBox(face));
    expect(inside).toBeLessThan(tone);
    const cheek = { x: face.x + 10, y: face.y + 45, width: 20, height: 20 };
    expect(sharpness(out, cheek)).toBeLessThan(0.9 * sharpness(astronaut.frame, cheek));
    const eyes = { x: face.x + 9, y: face.y + 22, width: 60, height: 20 };
    expect(sharpness(out, eyes)).toBeGreaterThan(0.85 * sharpness(astronaut.frame, eyes));
    // No depth effect: the flag behind her keeps its detail.
    const flag = { x: 0, y: 0, width: 90, height: 300 };
    expect(sharpness(out, flag)).toBeGreaterThan(0.8 * sharpness(astronaut.frame, flag));
  });
});

describe("formats and metadata", () => {
  it("HEIC in -> JPEG out of the same size, without the GPS EXIF of the input", async () => {
    const bytes = await readFile(path.join(MEDIA, "astronaut-gps.heic"));
    expect(bytes.includes(Buffer.from("TestCam"))).toBe(true); // the input carries EXIF (camera, GPS position)
    const { out, contentType, bytes: result } = await runImage("face-blur", { bytes, name: "astronaut-gps.heic", frame: astronaut.frame }, {}, 1, "upload-url");
    expect(contentType).toBe("image/jpeg");
    expect([out.width, out.height]).toEqual([256, 256]);
    await expectNoMetadata(result);
    expect(result.includes(Buffer.from("TestCam"))).toBe(false);
    // The face (the 512 px box scaled to 256 px) is blurred: compare with a plain decode of the HEIC,
    // done here with the same decoder the service uses.
    const { decodeImage } = await import("../../compute/media/image.ts");
    const { frame: input } = await decodeImage(bytes);
    const [face] = faceBoxes()["astronaut.png"];
    const half = { x: face.x / 2, y: face.y / 2, width: face.width / 2, height: face.height / 2 };
    expect(sharpness(out, half)).toBeLessThan(0.3 * sharpness(input, half));
  });

  it("a photo without a face comes back unchanged (PNG, lossless)", async () => {
    const { out } = await runImage("face-blur", coffee, {}, 1, "multipart");
    expect(psnr(coffee.frame, out)).toBe(Infinity);
  });
});

describe("Prefer: respond-async", () => {
  it("answers 202 with a job that completes with a result_url serving the image; charged once", async () => {
    const before = await credits(account);
    const image_url = await upload(account, "image", astronaut.bytes);
    const res = await api(account, "/images/face-blur", { method: "POST", json: { image_url }, headers: { prefer: "respond-async" } });
    expect(res.headers.get("preference-applied")).toBe("respond-async");
    const job = await expectJson<{ success: boolean; job_id: string; status: string; feature: string; credits_used: number; remaining_credits: number }>(res, 202);
    expect(job).toMatchObject({ success: true, status: "queued", feature: "face-blur", credits_used: 1, remaining_credits: before.available_credits - 1 });
    const done = await waitForJob(account, job.job_id, 120_000);
    expect(done).toMatchObject({ status: "completed", credits_used: 1 });
    const { bytes, contentType } = await download(done.result_url!);
    expect(contentType).toBe("image/png");
    const out = await decode(bytes);
    expect([out.width, out.height]).toEqual([512, 512]);
    const [face] = faceBoxes()["astronaut.png"];
    expect(sharpness(out, face)).toBeLessThan(0.15 * sharpness(astronaut.frame, face));
    expect(await creditDelta(account, before)).toMatchObject({ spent: 1, available: 1, reserved: 0 });
  });
});

describe("failures are charged nothing", () => {
  /** Runs `send`, expects the error, and checks the account's credits did not move. */
  async function expectFreeFailure(send: () => Promise<Response>, status: number, code: string): Promise<string> {
    const before = await credits(account);
    const message = await expectError(await send(), status, code);
    expect(await creditDelta(account, before)).toMatchObject({ spent: 0, available: 0, reserved: 0 });
    return message;
  }

  // PNG signature and IHDR of a real photo, then noise: it sniffs as PNG but cannot be decoded.
  const corruptPng = () => Buffer.concat([astronaut.bytes.subarray(0, 64), Buffer.alloc(4000, 0x5a)]);
  const text = Buffer.from("This is not an image at all, just some text.\n".repeat(20));

  it("corrupt image bytes -> 422 corrupt_media (upload URL and file part)", async () => {
    const image_url = await upload(account, "image", corruptPng());
    await expectFreeFailure(() => api(account, "/images/face-blur", { method: "POST", json: { image_url } }), 422, "corrupt_media");
    await expectFreeFailure(() => multipart(account, "/images/blur-background", "image", { bytes: corruptPng(), name: "photo.png" }), 422, "corrupt_media");
  });

  it("a text file -> 422 unsupported_media_format (file part and upload)", async () => {
    await expectFreeFailure(() => multipart(account, "/images/face-blur", "image", { bytes: text, name: "photo.jpg", type: "image/jpeg" }), 422, "unsupported_media_format");
    const ticket = await expectJson<{ upload_url: string; image_url: string }>(await api(account, "/uploads/image", { method: "POST", json: {} }), 201);
    await expectError(await fetch(ticket.upload_url, { method: "PUT", body: text, headers: { "content-length": String(text.length) } }), 422, "unsupported_media_format");
  });

  it("a prompt naming nothing findable -> 422 unsupported_prompt listing what can be found", async () => {
    const image_url = await upload(account, "image", coffee.bytes);
    const message = await expectFreeFailure(() => api(account, "/images/blur-anything", { method: "POST", json: { image_url, prompt: "unicorns" } }), 422, "unsupported_prompt");
    expect(message).toMatch(/faces/);
    expect(message).toMatch(/cell phone/);
  });

  it("a private or localhost URL -> 400 media_url_not_allowed", async () => {
    for (const url of ["http://10.0.0.7/photo.jpg", "http://127.0.0.1:8832/healthz", "http://[::ffff:192.168.1.1]/a.png", "http://localhost/a.png"]) {
      await expectFreeFailure(() => api(account, "/images/face-blur", { method: "POST", json: { image_url: url } }), 400, "media_url_not_allowed");
    }
  });

  it("a public-looking URL whose name does not resolve -> 422 media_unreachable", async () => {
    await expectFreeFailure(
      () => api(account, "/images/face-blur", { method: "POST", json: { image_url: "https://photos.obscura-e2e-no-such-host-7f3c.com/team.jpg" } }),
      422,
      "media_unreachable",
    );
  });
});
