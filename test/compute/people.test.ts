// How the person finder (compute/pipelines/people.ts) merges what the whole frame and its tiles
// saw: boxes in frame coordinates, as a 640x360 frame with 216 px tiles gave them.
import { describe, expect, it } from "vitest";
import { mergePeople, type Found } from "../../compute/pipelines/people.ts";

const person = (x: number, y: number, width: number, height: number, score: number, cut: boolean): Found => ({ x, y, width, height, score, label: "person", cut });

describe("merging the person finder's boxes", () => {
  it("keeps a person two tiles saw in part although a false whole-frame 'person' contains them", () => {
    // Frame 22 of bench/object-removal.ts 360p-crossing-pan: the whole frame boxed a cat's face
    // filling the frame; two lower tiles each cut the walking person (82x176) at an inner edge.
    const merged = mergePeople([
      person(4, 0, 627, 360, 0.34, false),
      person(133, 165, 82, 176, 0.61, true),
      person(141, 166, 78, 176, 0.56, true),
    ]);
    expect(merged).toHaveLength(2);
    expect(merged.find((d) => d.width < 200)).toMatchObject({ x: 133, y: 165, width: 86, score: 0.61 }); // the union of the two parts
  });

  it("lets the part of a person a tile cut give way to a whole box of that person", () => {
    const merged = mergePeople([
      person(120, 150, 100, 200, 0.7, false),
      person(130, 150, 86, 120, 0.5, true), // the top of the same person, cut by a tile's bottom edge
    ]);
    expect(merged).toEqual([{ x: 120, y: 150, width: 100, height: 200, score: 0.7, label: "person" }]);
  });

  it("keeps one box for a person the whole frame and a tile both saw whole", () => {
    const merged = mergePeople([person(120, 150, 100, 200, 0.7, false), person(124, 152, 94, 196, 0.6, false)]);
    expect(merged).toHaveLength(1);
    expect(merged[0].score).toBe(0.7);
  });
});
