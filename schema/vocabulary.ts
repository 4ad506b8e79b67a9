// What a text prompt can name, mapped onto what our models can find. Shared by image blur-anything
// and video object-removal/blur-anything, so the two never disagree about what is "findable".
//   - "face"   -> face detector
//   - "plate"  -> licence-plate pipeline (vehicles + plate-shaped text)
//   - "text"   -> PP-OCR text detector
//   - "person" -> person segmenter (a soft mask) plus COCO person boxes
//   - any other COCO-80 class, with synonyms and plurals -> COCO object detector boxes
import { ApiError } from "./errors.ts";
import { COCO_CLASSES } from "./coco-classes.ts";

export type Target =
  | { kind: "face" }
  | { kind: "plate" }
  | { kind: "text" }
  | { kind: "person" }
  | { kind: "object"; classes: string[] };

const SPECIAL: Record<string, Target["kind"]> = {
  face: "face", head: "face", visage: "face",
  "license plate": "plate", "licence plate": "plate", "number plate": "plate", "registration plate": "plate",
  "car plate": "plate", "plate number": "plate", "license plate number": "plate", "licence plate number": "plate",
  license: "plate", licence: "plate", plate: "plate", registration: "plate",
  text: "text", writing: "text", word: "text", words: "text", letter: "text", lettering: "text", caption: "text",
  sign: "text", signage: "text", "street sign": "text", "name tag": "text", badge: "text",
  person: "person", people: "person", human: "person", man: "person", men: "person", woman: "person",
  women: "person", child: "person", children: "person", kid: "person", boy: "person", girl: "person",
  pedestrian: "person", body: "person", bystander: "person", passerby: "person", passersby: "person", crowd: "person",
};

/** COCO's animal classes: what "animal" asks for, and what the person finder checks a 'person' box against. */
export const COCO_ANIMALS = ["bird", "cat", "dog", "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe"] as const;

/** Synonyms of COCO classes (keys are singular, lower case). */
const SYNONYMS: Record<string, string[]> = {
  vehicle: ["car", "truck", "bus", "motorcycle", "bicycle"],
  automobile: ["car"], auto: ["car"], taxi: ["car"], suv: ["car"], van: ["car", "truck"], lorry: ["truck"],
  pickup: ["truck"], motorbike: ["motorcycle"], scooter: ["motorcycle"], moped: ["motorcycle"],
  bike: ["bicycle", "motorcycle"], cycle: ["bicycle"], plane: ["airplane"], aeroplane: ["airplane"],
  aircraft: ["airplane"], ship: ["boat"], coach: ["bus"], tram: ["train"],
  phone: ["cell phone"], smartphone: ["cell phone"], cellphone: ["cell phone"], "mobile phone": ["cell phone"], mobile: ["cell phone"],
  television: ["tv"], monitor: ["tv"], screen: ["tv", "laptop"], computer: ["laptop", "keyboard", "mouse"], notebook: ["laptop"],
  sofa: ["couch"], table: ["dining table"], desk: ["dining table"], plant: ["potted plant"], flower: ["potted plant", "vase"],
  puppy: ["dog"], kitten: ["cat"], kitty: ["cat"], pony: ["horse"], lamb: ["sheep"], cattle: ["cow"],
  animal: [...COCO_ANIMALS], pet: ["cat", "dog"],
  bag: ["backpack", "handbag", "suitcase"], purse: ["handbag"], luggage: ["suitcase"], rucksack: ["backpack"],
  glass: ["wine glass", "cup"], mug: ["cup"], drink: ["cup", "wine glass", "bottle"], ball: ["sports ball"],
  doughnut: ["donut"], "hair dryer": ["hair drier"], hairdryer: ["hair drier"], fridge: ["refrigerator"],
  "traffic signal": ["traffic light"], hydrant: ["fire hydrant"], racket: ["tennis racket"], bat: ["baseball bat"],
  glove: ["baseball glove"], ski: ["skis"], "teddy": ["teddy bear"], weapon: ["knife", "scissors", "baseball bat"],
};

const IRREGULAR: Record<string, string> = { people: "person", men: "man", women: "woman", children: "child", mice: "mouse", knives: "knife", buses: "bus", glasses: "glass", sheep: "sheep", skis: "skis", boxes: "box", couches: "couch", sandwiches: "sandwich", benches: "bench", watches: "watch", passersby: "passerby" };

function singular(word: string): string {
  if (IRREGULAR[word]) return IRREGULAR[word];
  if (/(ch|sh|x|ss)es$/.test(word)) return word.slice(0, -2);
  if (/ies$/.test(word) && word.length > 4) return word.slice(0, -3) + "y";
  if (/[^s]s$/.test(word)) return word.slice(0, -1);
  return word;
}

function lookup(phrase: string): Target | undefined {
  for (const p of [phrase, singular(phrase), phrase.split(" ").map(singular).join(" ")]) {
    if (SPECIAL[p]) return { kind: SPECIAL[p] } as Target;
    if ((COCO_CLASSES as readonly string[]).includes(p)) return { kind: "object", classes: [p] };
    if (SYNONYMS[p]) return { kind: "object", classes: SYNONYMS[p] };
  }
  return undefined;
}

/** Human-readable list of what can be found, for the unsupported_prompt message. */
export function findableList(): string {
  return `faces, licence plates, text, people, and these objects: ${COCO_CLASSES.filter((c) => c !== "person").join(", ")}`;
}

/**
 * The targets a prompt names ("faces and cars", "the dog", "licence plates, phones"). Words that
 * name nothing are ignored as long as something is found; a prompt naming nothing findable throws
 * ApiError("unsupported_prompt"), never a silent success that blurred nothing.
 */
export function resolvePrompt(prompt: string): Target[] {
  const words = prompt
    .toLowerCase()
    .replace(/[^a-z0-9\s]/g, " ")
    .split(/\s+/)
    .filter((w) => w && !["a", "an", "the", "all", "any", "every", "of", "my", "their", "his", "her", "in", "on", "please", "blur", "hide", "remove", "and", "or", "with"].includes(w));
  const found: Target[] = [];
  // Longest phrases first (up to 3 words), so "license plate" wins over "plate", "cell phone" over "phone".
  for (let i = 0; i < words.length; ) {
    let matched = 0;
    for (let n = Math.min(3, words.length - i); n >= 1 && !matched; n--) {
      const t = lookup(words.slice(i, i + n).join(" "));
      if (t) {
        found.push(t);
        matched = n;
      }
    }
    i += matched || 1;
  }
  if (found.length === 0) {
    throw new ApiError("unsupported_prompt", `The prompt "${prompt.slice(0, 80)}" names nothing this service can find. It can find: ${findableList()}.`);
  }
  // Merge: one entry per special kind, one object entry with all classes.
  const kinds = new Set(found.filter((t) => t.kind !== "object").map((t) => t.kind));
  const classes = [...new Set(found.flatMap((t) => (t.kind === "object" ? t.classes : [])))];
  const merged: Target[] = [...kinds].map((kind) => ({ kind }) as Target);
  if (classes.length) merged.push({ kind: "object", classes });
  return merged;
}
