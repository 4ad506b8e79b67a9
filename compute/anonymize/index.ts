// Face anonymization: every face replaced by a synthetic face (a different "person") that follows
// the original's position, pose and expression, one synthetic identity per track.
//
// Per-frame use (the video pipeline):
//   const ids = new IdentityCache();                  // one per video
//   const smoothers = new Map<number, LandmarkSmoother>();
//   for each frame: boxes from the tracker -> landmarks (models.landmarks.describe(frame, boxes))
//     -> smoothers.get(trackId).push(points) -> anonymizeFaces(frame, faces, ids.identityFor)
// Optionally, when a track first appears, `calibrateIdentity` picks, among a few seeded candidate
// identities, the one farthest from the original by face-api's descriptor (and still detected).
export type { SyntheticIdentity, IdentityOptions } from "./identity.ts";
export { syntheticIdentity, seedOf, prng } from "./identity.ts";
export type { AnonymizeOptions, FaceInput } from "./render.ts";
export { anonymizeFace, anonymizeFaces, anonymizeFaceInPlace, DEFAULT_ANONYMIZE_OPTIONS } from "./render.ts";
export { LandmarkSmoother, DEFAULT_SMOOTHER_OPTIONS, centredLandmarks, CENTRED_RADIUS } from "./smoothing.ts";
export type { SmootherOptions } from "./smoothing.ts";
export { reshape, faceFrame, faceOutline } from "./geometry.ts";
export { delaunay, warpImage } from "./warp.ts";
export { IdentityCache, calibrateIdentity, CALIBRATION } from "./calibrate.ts";
export type { CalibrationResult } from "./calibrate.ts";
