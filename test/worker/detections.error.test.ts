// Detection controls that break a rule: 400 invalid_request naming the field (and, inside a
// region, its index and coordinate), before anything is charged or sent to compute.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installFakeCompute, type FakeCompute } from "./fake-compute.ts";
import { balance, createUser, expectError, ledgerKinds, postJson, api } from "./helpers.ts";

const IMG = "https://media.example.com/photo.png";
const VID = "https://media.example.com/clip.mp4";
let fake: FakeCompute;

beforeEach(() => {
  fake = installFakeCompute();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe("detection controls are validated", () => {
  const region = { x: 0.1, y: 0.1, w: 0.2, h: 0.2 };
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    ["detection_threshold 1.5", "/images/face-blur", { image_url: IMG, detection_threshold: 1.5 }, "detection_threshold must be between 0 and 1"],
    ["detection_threshold -0.1", "/videos/face-blur", { video_url: VID, detection_threshold: -0.1 }, "detection_threshold must be between 0 and 1"],
    ['detection_threshold "high"', "/images/license-plate-blur", { image_url: IMG, detection_threshold: "high" }, "detection_threshold must be a number from 0 to 1"],
    ["min_size_px -1", "/images/blur-anything", { image_url: IMG, prompt: "car", min_size_px: -1 }, "min_size_px must be between 0 and 10000"],
    ["min_size_px 2.5", "/videos/license-plate-blur", { video_url: VID, min_size_px: 2.5 }, "min_size_px must be a whole number of pixels"],
    ['return_detections "yes"', "/videos/blur-anything", { video_url: VID, prompt: "car", return_detections: "yes" }, "return_detections must be a boolean"],
    ["a region with w = 0", "/images/face-blur", { image_url: IMG, exclude_regions: [{ ...region, w: 0 }] }, "exclude_regions.0.w: a region's w must be greater than 0 and at most 1"],
    ["a region with x outside 0..1", "/images/face-blur", { image_url: IMG, include_regions: [region, { ...region, x: 1.2 }] }, "include_regions.1.x: a region's x must be between 0 and 1"],
    ["a region running past the right edge", "/videos/face-blur", { video_url: VID, exclude_regions: [{ x: 0.7, y: 0, w: 0.5, h: 1 }] }, "exclude_regions.0.w: a region must lie inside the image: x + w is over 1"],
    ["a region running past the bottom edge", "/images/face-blur", { image_url: IMG, exclude_regions: [{ x: 0, y: 0.6, w: 1, h: 0.6 }] }, "exclude_regions.0.h: a region must lie inside the image: y + h is over 1"],
    ["a region missing h", "/images/face-blur", { image_url: IMG, exclude_regions: [{ x: 0, y: 0, w: 1 }] }, "exclude_regions.0.h is required"],
    ["an unknown field in a region", "/images/face-blur", { image_url: IMG, exclude_regions: [{ ...region, z: 1 }] }, "unknown field(s): z"],
    ["regions not a list", "/images/face-blur", { image_url: IMG, include_regions: region }, "include_regions must be an array of regions {x, y, w, h}"],
    ["an empty include list (it would hide nothing)", "/images/face-blur", { image_url: IMG, include_regions: [] }, "include_regions must hold at least one region (leave it out for the whole image)"],
    ["21 regions", "/images/face-blur", { image_url: IMG, exclude_regions: Array.from({ length: 21 }, () => region) }, "exclude_regions must hold at most 20 regions"],
    ["a misspelt control", "/images/face-blur", { image_url: IMG, detection_treshold: 0.5 }, "unknown field(s): detection_treshold"],
    ["a control on a feature without detections", "/images/blur-background", { image_url: IMG, return_detections: true }, "unknown field(s): return_detections"],
    ["a control on object removal", "/videos/object-removal", { video_url: VID, object_text: "car", exclude_regions: [region] }, "unknown field(s): exclude_regions"],
  ];

  it.each(cases)("%s: 400 naming the field, nothing charged, compute never asked", async (_name, path, body, message) => {
    const u = await createUser({ credits: 100 });
    const text = await expectError(await postJson(path, u.key, body), "invalid_request");
    expect(text).toContain(message);
    expect(await ledgerKinds(u.account.id)).toEqual(["grant"]);
    expect(fake.tasks).toEqual([]);
  });

  it("multipart regions are JSON text, validated by the same rules", async () => {
    const u = await createUser({ credits: 100 });
    const form = new FormData();
    form.append("image_url", IMG);
    form.append("exclude_regions", JSON.stringify([{ x: 0.5, y: 0.5, w: 0.6, h: 0.1 }]));
    await expectError(await api("/images/face-blur", { method: "POST", key: u.key, body: form }), "invalid_request", /exclude_regions\.0\.w: a region must lie inside the image/);
    const garbled = new FormData();
    garbled.append("image_url", IMG);
    garbled.append("include_regions", "[{x: 0}");
    await expectError(await api("/images/face-blur", { method: "POST", key: u.key, body: garbled }), "invalid_request", /include_regions must be an array of regions/);
    expect(await ledgerKinds(u.account.id)).toEqual(["grant"]);
  });
});

describe("compute that cannot return detections", () => {
  it("an image answered without the detections asked for fails (500) and is refunded, never an empty list", async () => {
    const u = await createUser({ credits: 10 });
    // The fake's default answer: the processed image alone, as an instance predating the field sends it.
    await expectError(await postJson("/images/face-blur", u.key, { image_url: IMG, return_detections: true }), "internal_error", /without the detections asked for/);
    expect(await balance(u.account.id)).toEqual({ available: 10, purchased: 10, spent: 0, reserved: 0 });
  });
});
