import { it } from "vitest";
it("probe", async () => {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("pw"), "PBKDF2", false, ["deriveBits"]);
  for (const n of [100_000, 100_001, 210_000, 600_000, 1_000_000, 5_000_000, 100_000_000]) {
    const t = Date.now();
    try { await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: new Uint8Array(16), iterations: n }, key, 256); console.log(n, "ok", Date.now() - t, "ms"); }
    catch (e) { console.log(n, "fail", String(e)); }
  }
});
