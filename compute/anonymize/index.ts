// Face anonymization: every face replaced by a synthetic face (a different "person") that follows
// the original's position, pose and expression, one synthetic identity per track.
//
// Per-frame use (the video pipeline):
//   const ids = new IdentityCache();                  // one per video
//   const trackers = new Map<number, FlowLandmarkTracker>();   // one per face track
//   for each frame, in order: boxes from the tracker -> landmarks (models.landmarks.landmarks)
//     -> trackers.get(trackId).push(frame, points) -> anonymizeFaces(frame, faces, ids.identityFor)
// Optionally, when a track first appears, `calibrateIdentity` picks among seeded candidate
// identities, measured on one or more frames of the track (the pipeline renders late to have
// them), the first far enough from the original by face-api's descriptor and still detected;
// its verdict (`anotherPerson`, >= ANOTHER_PERSON on every view) says whether the pipeline may
// draw that track or must blur it.
export type { SyntheticIdentity, IdentityOptions } from "./identity.ts";
export { syntheticIdentity, seedOf, prng } from "./identity.ts";
export type { AnonymizeOptions, FaceInput } from "./render.ts";
export { anonymizeFace, anonymizeFaces, anonymizeFaceInPlace, anonymizeFacesInPlace, warpFolds, DEFAULT_ANONYMIZE_OPTIONS, MIN_DRAWABLE_IOD } from "./render.ts";
export { LandmarkSmoother, DEFAULT_SMOOTHER_OPTIONS } from "./smoothing.ts";
export { FlowLandmarkTracker, DEFAULT_FLOW_TRACKER_OPTIONS } from "./flow-tracker.ts";
export type { FlowTrackerOptions } from "./flow-tracker.ts";
export type { SmootherOptions } from "./smoothing.ts";
export { reshape, faceFrame, faceOutline } from "./geometry.ts";
export { delaunay, foldFreeWarp, warpImage } from "./warp.ts";
export { IdentityCache, calibrateIdentity, calibrateIdentities, CalibrationBudget, CALIBRATION, CALIBRATION_BUDGET } from "./calibrate.ts";
export type { CalibrationOptions, CalibrationResult, CalibrationTrack, CalibrationView } from "./calibrate.ts";
