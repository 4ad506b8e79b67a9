// ONNX Runtime's Linux and macOS builds send usage telemetry to Microsoft since 1.30 (1DS: a
// persistent device id, the OS, CPU and process path, each model's file name, per-session events),
// cached in ~/.cache/Microsoft/DeveloperTools/.onnxruntime and in the temp folder (`.ses`,
// `mat-debug-<pid>.log`) and uploaded when the host is online. A privacy service does not report
// on its own machines by default: ORT_DISABLE_TELEMETRY=1 turns all of it off, but only if it is in
// the process's environment when the library first starts. Only the main thread can put it there
// (an inference thread's process.env is a copy that native code does not see), and it starts the
// inference threads: so every main-thread module that loads onnxruntime-node imports this one
// before it (the threads' own modules need not). An operator who wants the telemetry sets
// ORT_DISABLE_TELEMETRY=0.
process.env.ORT_DISABLE_TELEMETRY ??= "1";
