// The docs page's code samples: three tasks, each in curl, the SDK and plain fetch, written for
// the deployment that serves the page (`root` is its API root). Every sample is run as it is shown,
// against the started stack, by test/e2e/docs-samples.test.ts: in a folder holding photo.jpg, with
// OBSCURA_API_KEY set. The SDK ones import the SDK as its package (@obscura/sdk, sdk/ here).
export type SampleLanguage = "curl" | "sdk" | "fetch";

export interface Sample {
  language: SampleLanguage;
  /** Shown above the code: how to run it. */
  runWith: string;
  code: string;
}

export interface Task {
  id: string;
  title: string;
  /** Inline Markdown. */
  intro: string;
  samples: Sample[];
}

const RUN: Record<SampleLanguage, string> = {
  curl: "a POSIX shell with curl",
  sdk: "Node 22 (save as .mts) and @obscura/sdk (sdk/ of this repository)",
  fetch: "Node 22 or any runtime with fetch (save as .mjs)",
};
const sample = (language: SampleLanguage, code: string): Sample => ({ language, runWith: RUN[language], code: code.trim() });
const auth = "-H \"Authorization: Bearer $OBSCURA_API_KEY\"";

export function tasks(root: string): Task[] {
  const sdkClient = `import { createObscura } from "@obscura/sdk";

const obscura = createObscura({ apiKey: process.env.OBSCURA_API_KEY!, baseUrl: "${root}" });`;
  const fetchKey = "const headers = { authorization: `Bearer ${process.env.OBSCURA_API_KEY}` };";
  return [
    {
      id: "account",
      title: "Check the key and the balance",
      intro: "Every request carries the key as `Authorization: Bearer <API_KEY>`; `GET /me` answers with the account it belongs to.",
      samples: [
        sample("curl", `curl -sS --fail-with-body ${auth} ${root}/me`),
        sample("sdk", `${sdkClient}
const me = await obscura.me();
console.log(me.email, me.tier, me.available_credits);`),
        sample("fetch", `${fetchKey}
const res = await fetch("${root}/me", { headers });
console.log(res.status, await res.json());`),
      ],
    },
    {
      id: "blur-a-photo",
      title: "Blur the faces in a photo",
      intro: "Send the file itself (multipart, part `image`), or upload it first and pass the `image_url` the upload gives; the answer's `result_url` is the blurred photo. The result is written to `photo.face-blur.jpg`.",
      samples: [
        sample("curl", `
result_url=$(curl -sS --fail-with-body ${auth} -F image=@photo.jpg -F blur_strength=0.8 \\
  ${root}/images/face-blur | sed -E 's/.*"result_url":"([^"]+)".*/\\1/')
curl -sS --fail -o photo.face-blur.jpg "$result_url"`),
        sample("sdk", `import { createObscura } from "@obscura/sdk";
import { downloadTo, uploadFile } from "@obscura/sdk/node";

const obscura = createObscura({ apiKey: process.env.OBSCURA_API_KEY!, baseUrl: "${root}" });
const { media_url } = await uploadFile(obscura, "photo.jpg");
const { data } = await obscura.run("image.face-blur", { image_url: media_url, blur_strength: 0.8 });
if (!("result_url" in data)) throw new Error("expected the image, not a job");
await downloadTo(obscura, data.result_url, "photo.face-blur.jpg");
console.log(\`\${data.credits_used} credit used, \${data.remaining_credits} left\`);`),
        sample("fetch", `import { readFile, writeFile } from "node:fs/promises";

${fetchKey}
const form = new FormData();
form.set("image", new Blob([await readFile("photo.jpg")]), "photo.jpg");
form.set("blur_strength", "0.8");
const res = await fetch("${root}/images/face-blur", { method: "POST", headers, body: form });
const answer = await res.json();
if (!res.ok) throw new Error(\`\${answer.error.code}: \${answer.error.message}\`);
const result = await fetch(answer.result_url);
await writeFile("photo.face-blur.jpg", new Uint8Array(await result.arrayBuffer()));`),
      ],
    },
    {
      id: "wait-for-a-job",
      title: "Run a job and wait for it",
      intro: "Videos always run as jobs; an image does when asked with `Prefer: respond-async`. The `202` answer names the job; poll `GET /jobs/{job_id}` until its `status` is `completed` (then `result_url` is set) or `failed` (then `error` says why, and the credits are refunded). Each poll counts against the daily limit: poll every few seconds, and after a `429` or `503` wait as long as `Retry-After` says.",
      samples: [
        sample("curl", `
job_id=$(curl -sS --fail-with-body ${auth} -H "Prefer: respond-async" -F image=@photo.jpg \\
  ${root}/images/face-blur | sed -E 's/.*"job_id":"([^"]+)".*/\\1/')
while sleep 2; do
  job=$(curl -sS --fail-with-body ${auth} ${root}/jobs/$job_id) || { echo "$job" >&2; exit 1; }
  echo "$job"
  case "$job" in *'"status":"completed"'*|*'"status":"failed"'*) break ;; esac
done`),
        sample("sdk", `import { createObscura } from "@obscura/sdk";
import { uploadFile } from "@obscura/sdk/node";

const obscura = createObscura({ apiKey: process.env.OBSCURA_API_KEY!, baseUrl: "${root}" });
const { media_url } = await uploadFile(obscura, "photo.jpg");
const { data } = await obscura.run("image.face-blur", { image_url: media_url }, { async: true });
if (!("job_id" in data)) throw new Error("expected a job");
// Polls politely (backs off, honours Retry-After and the daily budget); throws ObscuraJobError if the job fails.
const job = await obscura.waitForJob(data.job_id, { onProgress: (j) => console.log(j.status, j.progress) });
console.log(job.status, job.result_url);`),
        sample("fetch", `import { readFile } from "node:fs/promises";

${fetchKey}
const form = new FormData();
form.set("image", new Blob([await readFile("photo.jpg")]), "photo.jpg");
const post = await fetch("${root}/images/face-blur", { method: "POST", headers: { ...headers, prefer: "respond-async" }, body: form });
const accepted = await post.json();
if (!post.ok) throw new Error(\`\${accepted.error.code}: \${accepted.error.message}\`);
for (;;) {
  const res = await fetch(\`${root}/jobs/\${accepted.job_id}\`, { headers });
  const job = await res.json();
  if (res.ok) {
    console.log(job.status, job.progress);
    if (job.status === "completed" || job.status === "failed") break;
  } else if (res.status !== 429 && res.status !== 503) {
    throw new Error(\`\${job.error.code}: \${job.error.message}\`);
  }
  await new Promise((r) => setTimeout(r, Math.max(2, Number(res.headers.get("retry-after") ?? 0)) * 1000));
}`),
      ],
    },
  ];
}
