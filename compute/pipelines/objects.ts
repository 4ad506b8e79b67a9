// Every instance of the named COCO classes a viewer would see in a frame, as boxes: the COCO
// detector run on the whole frame and on square tiles of several sizes.
//
// Why tiles: the detector squashes its input to 512x512. On a 16:9 frame that narrows everything
// to 40% of its width and shrinks it, and it then misses what a viewer sees at once: on a 1280x720
// street frame, a 147x358 px walking person in greyscale, and any person under ~160 px tall in
// colour (issue 22); and real objects under 400 px wide in a 720p or 1080p photo (bench/objects.ts:
// 4 of 100 pasted at 32-400 px found, none under 400). Square tiles keep the aspect ratio, in three
// sizes (TILE_SCALES, 40 detector calls a 16:9 frame up to 1080p), for every class:
//   - tiles 0.6 of the frame's height found a person composited at 33x80 px to 147x358 px at 720p
//     and 25x60 to 49x120 at 360p, colour or grey, at IoU 0.86-0.97. Tiles as tall as the frame,
//     beside them, find the people taller than a 0.6 tile whole: a woman 0.8 of a 640x360 frame's
//     height was missed by the whole frame (squashed) in 4 of the first 8 frames and seen by the
//     0.6 tiles as an upper and a lower half, and object removal left her lower half
//     (bench/object-removal.ts 360p-coffee-pan); a tile as tall as the frame found her whole at
//     0.67-0.70.
//   - the small tiles, 0.35 of the frame's height: on bench/objects.ts, 57 of the 100 objects found
//     instead of 39 without them (most of the 18 48-96 px wide), for three times the CPU and 8
//     false boxes more; on bench/people.ts (14 real people, 48-300 px tall, four a scene, seeds
//     1-8), 143 of 192 people at 720p instead of 109 and 126 at 1080p instead of 80, with as few
//     boxes on nobody (0-1). Without them a person 96-128 px tall in a 1080p frame was found a
//     sixth to two fifths of the time (the 0.6 tiles are 648 px, squashed to 512).
// Past 1080p every tile keeps its 1080p size and the tiles grow in number (TILED_AS_TALL; 168
// calls a 4K frame).
// The whole frame finds what lies across it.
//
// People are looked for by a second network too, on the same regions, where the caller gives it
// (blur-anything; object removal does not, see Finders): MoveNet MultiPose
// (models/people-detector.ts), a pose network trained on COCO people, which sees people CenterNet
// misses (bench/people.ts, 1080p, seeds 1-8: 144 of 192 instead of 126). Its box for a person
// CenterNet boxed too widens CenterNet's to their union: kept as one by score, the narrower of the
// two framings left part of the person bare (seeds 1-8: 136 found instead of 144).
//
// An object cut by a tile's inner edge gets a partial box there; such boxes give way to a whole
// box of the same object found by another tile or the whole frame, and are kept (merged) only
// where nothing else saw that object.
//
// A 'person' box the detector calls an animal as surely or more, on the same box, is that animal:
// a cat's face filling the frame was a 'person' at 0.30-0.34 and, on the same box, a horse or dog
// at 0.31-0.47 in every frame that showed it, and object removal refilled the cat's face
// (bench/object-removal.ts 360p-crossing-pan). Of 490 person boxes on the fixture photos (12
// photos at three sizes, every view), none on a person shared its box with such an animal.
import { COCO_ANIMALS } from "../../schema/vocabulary.ts";
import type { Models } from "../models/index.ts";
import { inGroups } from "../models/runtime/onnx.ts";
import { area, clipBox, cropFrame, edgesCutting, enclosing, iou, overlapOfSmaller, squareTiles } from "../models/geometry.ts";
import type { Box, Detection, Frame } from "../types.ts";

/**
 * The small tiles' side (a fraction of the frame's shorter side). They are most of the finder's
 * calls (28 of 40 on a 16:9 frame up to 1080p, 112 of 168 at 4K), so video looks through them on
 * the small-face tiles' schedule (pipelines/video/common.ts: videoObjects).
 */
export const SMALL_OBJECT_SCALE = 0.35;
/**
 * Tiles are sized as on a 1080p frame: past a shorter side of 1080 px they stop growing and grow
 * in number instead, so that what is small in pixels is seen as large as in a 1080p frame. Sized
 * as fractions of a 4K frame, they found 2 of 64 objects of 32-96 px (the small-object tiles 756
 * px, squashed to 512; sized as on 1080p, 25: `npx node bench/objects.ts --size 3840x2160`), and
 * a person 200 px tall 1 time of 10 (9 of 10; one cut-out person, colour and grey, pasted on
 * three backgrounds; test/compute/objects.test.ts pins 4 of them).
 */
const TILED_AS_TALL = 1080;
/** Tile sides as fractions of the frame's shorter side (1 = as tall as the frame). */
const TILE_SCALES = [SMALL_OBJECT_SCALE, 0.6, 1] as const;

/** What the detector may see, on the same box, instead of a 'person': COCO's animals and the teddy bear. */
const ANIMALS = [...COCO_ANIMALS, "teddy bear"];

/**
 * The networks that look: CenterNet, and for people the people network where given (left out by
 * object removal, where a false person erases background: video/object-removal.ts).
 */
export type Finders = Pick<Models, "objects"> & Partial<Pick<Models, "people">>;

/** Regions whose detector runs are in flight at once. */
const IN_FLIGHT = 4;

/** Tiles smaller than this (px) are not run: the whole frame already sees their scale. */
const MIN_TILE = 160;

interface Found extends Detection {
  cut: boolean;
  /** Seen by the people network (models/people-detector.ts), not CenterNet. */
  pose?: boolean;
}

/**
 * The regions the detector runs on, whole frame first: tiles of each of `scales` (fractions of the
 * shorter side), those of SMALL_OBJECT_SCALE only where `smallTiles` picks them.
 */
export function detectionRegions(width: number, height: number, scales: readonly number[], smallTiles: SmallTiles = true): Box[] {
  const regions: Box[] = [{ x: 0, y: 0, width, height }];
  for (const scale of scales) {
    const side = tileSide(width, height, scale);
    if (side < MIN_TILE) continue;
    const tiles = squareTiles(width, height, side);
    // A single tile the size of the frame is the whole frame again.
    if (tiles.length === 1 && tiles[0].width === width && tiles[0].height === height) continue;
    regions.push(...(scale !== SMALL_OBJECT_SCALE || smallTiles === true ? tiles : smallTiles === false ? [] : tiles.filter(smallTiles)));
  }
  return regions;
}

/** The side of the tiles of `scale` (a fraction of the shorter side), px. */
function tileSide(width: number, height: number, scale: number): number {
  return Math.round(Math.min(width, height, TILED_AS_TALL) * scale);
}

/** Which small-object tiles to look through: all, none, or those a function picks. */
export type SmallTiles = boolean | ((tile: Box) => boolean);

/** The widest object only the small-object tiles may have found (their side), px. */
export function smallObjectCap(width: number, height: number): number {
  return tileSide(width, height, SMALL_OBJECT_SCALE);
}

/**
 * Objects of `classes` (COCO names) in the frame, most prominent (largest, then surest) first.
 * `smallTiles` picks the small-object tiles looked through (all of them by default).
 */
export async function findObjects(frame: Frame, models: Finders, classes: readonly string[], { smallTiles = true }: { smallTiles?: SmallTiles } = {}): Promise<Detection[]> {
  const regions = detectionRegions(frame.width, frame.height, TILE_SCALES, smallTiles);
  // The animals come with the people (same call, no extra inference) to tell a 'person' from one.
  const asked = classes.includes("person") ? [...new Set([...classes, ...ANIMALS])] : classes;
  // A few regions at a time: only a few 512x512 inputs (3 MB each) are held at once.
  const found = (await inGroups(regions, IN_FLIGHT, (region) => inRegion(frame, region, models, classes, asked))).flat();
  const labels = [...new Set(found.map((f) => f.label!))];
  const boxes = labels.flatMap((label) => merged(found.filter((f) => f.label === label && !f.pose)));
  // A person the people network saw widens the box CenterNet gave them (the two frame a person
  // differently: kept as one, the narrower box left part of them bare) or is added.
  for (const p of merged(found.filter((f) => f.pose))) {
    const same = boxes.find((b) => b.label === "person" && (iou(b, p) > 0.5 || overlapOfSmaller(b, p) > 0.8));
    if (same) Object.assign(same, union(same, p));
    else boxes.push(p);
  }
  return boxes.sort((a, b) => area(b) * b.score - area(a) * a.score);
}

/** What the detector, asked for `asked`, sees of `classes` in one region, in frame coordinates. */
async function inRegion(frame: Frame, region: Box, models: Finders, classes: readonly string[], asked: readonly string[]): Promise<Found[]> {
  const crop = cropFrame(frame, region);
  const { width: w, height: h } = crop.frame;
  const [objects, people] = await Promise.all([models.objects.detect(crop.frame, asked), classes.includes("person") && models.people ? models.people.detect(crop.frame) : []]);
  const seen: Array<Detection & { pose?: boolean }> = [...objects, ...people.map((p) => ({ ...p, pose: true }))];
  const animals = seen.filter((d) => ANIMALS.includes(d.label!));
  const found: Found[] = [];
  for (const d of seen) {
    if (!classes.includes(d.label!)) continue;
    if (d.label === "person" && animals.some((a) => a.score >= d.score && iou(a, d) >= 0.7)) continue;
    // Cut by the tile's inner edges (not the frame's).
    const atEdge = edgesCutting(d, w, h);
    const left = crop.x > 0 && atEdge.left, right = crop.x + w < frame.width && atEdge.right;
    const top = crop.y > 0 && atEdge.top, bottom = crop.y + h < frame.height && atEdge.bottom;
    // Cut on two opposite sides, or filling half the tile: something the size of the tile or
    // larger, blown up; on a cat photo these were tile-sized 'people' (score 0.31-0.45). The
    // whole frame judges those (an object that large in a tile is large in the frame too).
    const tile = crop.x > 0 || crop.y > 0 || w < frame.width || h < frame.height;
    if ((left && right) || (top && bottom) || (tile && d.width * d.height > 0.5 * w * h)) continue;
    const cut = left || right || top || bottom;
    found.push({ ...clipBox({ x: d.x + crop.x, y: d.y + crop.y, width: d.width, height: d.height }, frame.width, frame.height), score: d.score, label: d.label, cut, pose: d.pose });
  }
  return found;
}

/** People in the frame, most prominent first. */
export function findPeople(frame: Frame, models: Finders): Promise<Detection[]> {
  return findObjects(frame, models, ["person"]);
}

/**
 * One box per object (of one class): whole boxes by score (NMS), then cut boxes no whole box
 * covers, merged with the cut boxes of the same object (their union: two tiles each saw a part).
 */
function merged(found: Found[]): Detection[] {
  const whole: Detection[] = [];
  for (const d of found.filter((f) => !f.cut).sort((a, b) => b.score - a.score)) {
    if (!whole.some((k) => iou(k, d) > 0.5 || overlapOfSmaller(k, d) > 0.8)) whole.push(strip(d));
  }
  const parts: Detection[] = [];
  for (const d of found.filter((f) => f.cut).sort((a, b) => b.score - a.score)) {
    if (whole.some((k) => overlapOfSmaller(k, d) > 0.6)) continue;
    const same = parts.find((k) => overlapOfSmaller(k, d) > 0.6);
    if (same) Object.assign(same, union(same, d));
    else parts.push(strip(d));
  }
  return [...whole, ...parts];
}

function strip({ x, y, width, height, score, label }: Detection): Detection {
  return { x, y, width, height, score, label };
}

function union(a: Detection, b: Detection): Detection {
  return { ...enclosing(a, b), score: Math.max(a.score, b.score), label: a.label };
}
