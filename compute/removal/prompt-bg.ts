// What `prompt_bg` does. There is no text-conditioned image generator among the models we ship
// (no LaMa, no diffusion), so the text cannot "describe" a background into existence. It guides
// the two decisions our fill actually makes, and only those:
//
//  1. A colour for what no frame shows. A hex code ("#7fa0c8") or a colour/material word
//     ("white wall", "blue sky", "green grass", "grey concrete", "sand", "snow", "wooden floor";
//     "light"/"dark" modify it) gives a colour that the spatial fill pulls the interior of
//     never-seen regions towards (at most halfway, fading in over 24 px from the hole's rim, so the
//     rim still matches its surroundings). Background seen in any frame always wins over the hint.
//  2. The camera: "static", "tripod", "fixed camera", "still camera" skip the global-motion
//     estimate and align frames as they are (use it when large moving things could be mistaken for
//     a pan). Without it, the camera's translation is estimated frame to frame.
//
// Anything else in prompt_bg is ignored (it is optional guidance, never an error); the words
// recognised are returned in `understood`.

export interface BackgroundHint {
  color: [number, number, number] | null;
  staticCamera: boolean;
  /** The words that were understood, for logs. */
  understood: string[];
}

const COLORS: Record<string, [number, number, number]> = {
  white: [235, 235, 230], black: [25, 25, 25], grey: [128, 128, 128], gray: [128, 128, 128], silver: [190, 190, 190],
  red: [180, 40, 35], green: [70, 130, 60], blue: [50, 90, 170], yellow: [225, 200, 60], orange: [225, 130, 40],
  brown: [110, 75, 45], beige: [210, 195, 160], pink: [225, 160, 175], purple: [110, 60, 140], cream: [240, 230, 200],
  // Materials and scenes: typical colours.
  sky: [135, 175, 220], grass: [85, 140, 55], lawn: [85, 140, 55], foliage: [60, 100, 45], trees: [60, 100, 45], forest: [50, 85, 40],
  sand: [215, 195, 150], beach: [215, 195, 150], snow: [240, 242, 245], water: [60, 100, 130], sea: [50, 95, 135], ocean: [40, 85, 130],
  road: [90, 90, 92], asphalt: [80, 80, 82], street: [95, 95, 97], concrete: [150, 150, 145], pavement: [140, 138, 132],
  wood: [140, 100, 65], wooden: [140, 100, 65], brick: [150, 75, 55], dirt: [120, 95, 70], soil: [100, 75, 55], gravel: [140, 135, 125],
};

const STATIC = /\b(static|tripod|fixed camera|still camera|locked[- ]off)\b/;

export function parseBackgroundHint(prompt: string | undefined | null): BackgroundHint {
  const hint: BackgroundHint = { color: null, staticCamera: false, understood: [] };
  if (!prompt) return hint;
  const text = prompt.toLowerCase();
  const hex = /#([0-9a-f]{6}|[0-9a-f]{3})\b/.exec(text);
  if (hex) {
    let h = hex[1];
    if (h.length === 3) h = h.split("").map((ch) => ch + ch).join("");
    hint.color = [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
    hint.understood.push(hex[0]);
  } else {
    const words = text.replace(/[^a-z\s-]/g, " ").split(/\s+/).filter(Boolean);
    // The first colour word wins over materials ("white sand" is white); a material alone gives its colour.
    const colorWord = words.find((w) => w in COLORS && ["white", "black", "grey", "gray", "silver", "red", "green", "blue", "yellow", "orange", "brown", "beige", "pink", "purple", "cream"].includes(w));
    const word = colorWord ?? words.find((w) => w in COLORS);
    if (word) {
      let [r, g, b] = COLORS[word];
      const at = words.indexOf(word);
      const modifier = at > 0 ? words[at - 1] : "";
      if (modifier === "light" || modifier === "pale") [r, g, b] = [r, g, b].map((v) => Math.round(v + (255 - v) * 0.4)) as [number, number, number];
      if (modifier === "dark" || modifier === "deep") [r, g, b] = [r, g, b].map((v) => Math.round(v * 0.6)) as [number, number, number];
      hint.color = [r, g, b];
      hint.understood.push(modifier === "light" || modifier === "pale" || modifier === "dark" || modifier === "deep" ? `${modifier} ${word}` : word);
    }
  }
  const camera = STATIC.exec(text);
  if (camera) {
    hint.staticCamera = true;
    hint.understood.push(camera[0]);
  }
  return hint;
}
