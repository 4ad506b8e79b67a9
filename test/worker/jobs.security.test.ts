// Job security: a job is visible only to its owner, and only correctly signed callbacks from
// compute can move it (no API key works there, forged, stale or re-targeted signatures fail).
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signedParts } from "../../schema/compute-protocol.ts";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, hmacHex, sha256Hex, signParts } from "../../schema/signing.ts";
import { jobStub } from "../../worker/services/jobs.ts";
import { API, BASE, api, balance, createTestJob, createUser, expectError, jobState, makeMp4Head, signedInternal } from "./helpers.ts";

describe("job visibility", () => {
  it("another account's job: 404 job_not_found, the same answer as for a missing id", async () => {
    const owner = await createUser({ credits: 10 });
    const other = await createUser();
    const { jobId } = await createTestJob(owner);
    const m1 = await expectError(await api(`/jobs/${jobId}`, { key: other.key }), "job_not_found");
    expect(m1).toBe(`No job ${jobId} belongs to this account.`);
    await expectError(await api("/jobs/job_BBBBBBBBBBBBBBBBBBBBBB", { key: other.key }), "job_not_found");
  });

  it("malformed job ids: 404 job_not_found", async () => {
    const u = await createUser();
    for (const id of ["x", "job_", "job_%00aaaaaaaaaaaaaaaaaaaa", `job_${"a".repeat(200)}`]) {
      await expectError(await api(`/jobs/${id}`, { key: u.key }), "job_not_found");
    }
  });

  it("no key: 401", async () => {
    const owner = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(owner);
    await expectError(await SELF.fetch(`${API}/jobs/${jobId}`), "unauthorized");
  });
});

describe("internal callbacks need compute's signature", () => {
  const progressBody = JSON.stringify({ progress: 50 });

  it("unsigned progress, fail and result: 401, the job does not move", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    await jobStub(env, jobId).startAttempt();
    await expectError(await SELF.fetch(`${BASE}/internal/jobs/${jobId}/progress`, { method: "POST", body: progressBody }), "unauthorized", "Missing or invalid request signature.");
    await expectError(await SELF.fetch(`${BASE}/internal/jobs/${jobId}/fail`, { method: "POST", body: JSON.stringify({ code: "x", message: "y" }) }), "unauthorized");
    await expectError(await SELF.fetch(`${BASE}/internal/jobs/${jobId}/result`, { method: "PUT", body: makeMp4Head(), headers: { "x-obscura-content-sha256": await sha256Hex(makeMp4Head()) } }), "unauthorized");
    // An API key is no substitute for the signature.
    await expectError(await SELF.fetch(`${BASE}/internal/jobs/${jobId}/fail`, { method: "POST", body: "{}", headers: { authorization: `Bearer ${u.key}` } }), "unauthorized");
    const s = await jobState(jobId);
    expect([s.status, s.progress]).toEqual(["processing", 0]);
    expect(await balance(u.account.id)).toMatchObject({ reserved: 4 });
  });

  it("a signature made with another secret: 401", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u);
    await jobStub(env, jobId).startAttempt();
    const path = `/internal/jobs/${jobId}/fail`;
    const body = JSON.stringify({ code: "internal_error", message: "forged" });
    const { timestamp, signature } = await signParts("not-the-secret", signedParts("POST", path, await sha256Hex(body)));
    await expectError(await SELF.fetch(`${BASE}${path}`, { method: "POST", body, headers: { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signature } }), "unauthorized");
    expect((await jobState(jobId)).status).toBe("processing");
  });

  it("a valid signature replayed on another job, with another body, or too late: 401", async () => {
    const u = await createUser({ credits: 10 });
    const a = await createTestJob(u);
    const b = await createTestJob(u);
    await jobStub(env, a.jobId).startAttempt();
    await jobStub(env, b.jobId).startAttempt();
    const path = `/internal/jobs/${a.jobId}/fail`;
    const body = JSON.stringify({ code: "corrupt_media", message: "m" });
    const { timestamp, signature } = await signParts(env.SIGNING_SECRET, signedParts("POST", path, await sha256Hex(body)));
    const headers = { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signature };
    await expectError(await SELF.fetch(`${BASE}/internal/jobs/${b.jobId}/fail`, { method: "POST", body, headers }), "unauthorized");
    await expectError(await SELF.fetch(`${BASE}${path}`, { method: "POST", body: JSON.stringify({ code: "corrupt_media", message: "other" }), headers }), "unauthorized");
    await expectError(await SELF.fetch(`${BASE}/internal/jobs/${a.jobId}/progress`, { method: "POST", body, headers }), "unauthorized");
    const old = Math.floor(Date.now() / 1000) - 3600;
    const stale = await hmacHex(env.SIGNING_SECRET, [String(old), ...signedParts("POST", path, await sha256Hex(body))].join("\n"));
    await expectError(await SELF.fetch(`${BASE}${path}`, { method: "POST", body, headers: { [TIMESTAMP_HEADER]: String(old), [SIGNATURE_HEADER]: stale } }), "unauthorized");
    expect((await jobState(a.jobId)).status).toBe("processing");
    expect((await jobState(b.jobId)).status).toBe("processing");
    // The genuine request still works.
    expect((await SELF.fetch(`${BASE}${path}`, { method: "POST", body, headers })).status).toBe(200);
    expect((await jobState(a.jobId)).status).toBe("failed");
  });

  it("a result whose bytes do not match the signed SHA-256 is not stored and the job does not complete", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    await jobStub(env, jobId).startAttempt();
    const claimed = await sha256Hex(makeMp4Head());
    const other = new Uint8Array([...makeMp4Head(), 1, 2, 3]);
    const res = await signedInternal("PUT", `/internal/jobs/${jobId}/result`, other, { "content-type": "video/mp4", "x-obscura-content-sha256": claimed }, claimed);
    await expectError(res, "invalid_request", "The result's bytes do not match its signed SHA-256.");
    expect((await env.MEDIA.list({ prefix: "results/" })).objects.filter((o) => o.customMetadata?.jobId === jobId)).toEqual([]);
    expect((await jobState(jobId)).status).toBe("processing");
    expect(await balance(u.account.id)).toMatchObject({ reserved: 4, spent: 0 });
  });

  it("two results for one job at once: one completes it, the other is refused and leaves no object behind", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    await jobStub(env, jobId).startAttempt();
    const put = async (extra: number) => {
      const bytes = new Uint8Array([...makeMp4Head(), extra]);
      const hash = await sha256Hex(bytes);
      return signedInternal("PUT", `/internal/jobs/${jobId}/result`, bytes, { "content-type": "video/mp4", "content-length": String(bytes.length), "x-obscura-content-sha256": hash }, hash);
    };
    const answers = await Promise.all([put(1), put(2)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 404]);
    await Promise.all(answers.map((r) => r.body?.cancel()));
    const state = await jobState(jobId);
    expect(state.status).toBe("completed");
    const stored = (await env.MEDIA.list({ prefix: "results/", include: ["customMetadata"] })).objects.filter((o) => o.customMetadata?.jobId === jobId);
    expect(stored.map((o) => o.key)).toEqual([`results/${state.resultUrl!.split("/").pop()}`]);
    expect(await balance(u.account.id)).toMatchObject({ reserved: 0, spent: 4 });
  });

  it("admin key routes need the signature too", async () => {
    await expectError(await SELF.fetch(`${BASE}/internal/admin/keys`, { method: "POST", body: JSON.stringify({ email: "evil@example.org", credits: 1_000_000 }) }), "unauthorized");
    const { results } = await env.DB.prepare("SELECT * FROM accounts WHERE email = 'evil@example.org'").all();
    expect(results).toEqual([]);
  });
});
